#pragma once

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

#include <boost/assert.hpp>

#include <algorithm>

namespace gateway::sign {

namespace detail {

/// The one context of the process: created and randomized on first use (a function-local
/// static, so creation is thread-safe), then only ever passed as `const`, which libsecp256k1
/// documents as safe to share between threads. Deliberately never destroyed, so it outlives
/// every static that might still sign during shutdown.
GATEWAY_DECL secp256k1_context const* secp_context() {
    static secp256k1_context const* const ctx = [] {
        secp256k1_context* c = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
        BOOST_ASSERT_MSG(c != nullptr, "secp256k1_context_create failed");
        std::array<unsigned char, 32> seed{};
        // Randomization only blinds against side channels; without entropy the context still
        // computes correct results, so a failing RAND_bytes is not fatal.
        if (RAND_bytes(seed.data(), static_cast<int>(seed.size())) == 1) {
            [[maybe_unused]] int const ok = secp256k1_context_randomize(c, seed.data());
            BOOST_ASSERT(ok == 1);
        }
        OPENSSL_cleanse(seed.data(), seed.size());
        return c;
    }();
    return ctx;
}

GATEWAY_DECL api_error signature_error(std::string_view field, std::string_view why) {
    return field_error(field, "'" + std::string(field) + "' " + std::string(why),
                       errc::signature_error);
}

} // namespace detail

GATEWAY_DECL result<private_key> private_key::generate() {
    std::array<std::uint8_t, 32> raw{};
    for (int attempt = 0; attempt < 16; ++attempt) {
        if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) != 1)
            break;
        auto k = from_bytes(raw);
        OPENSSL_cleanse(raw.data(), raw.size());
        if (k)
            return k; // out-of-range values (probability ~2^-128) draw again
    }
    return make_error(errc::internal_error, "The random number generator failed.");
}

GATEWAY_DECL result<private_key> private_key::from_bytes(std::span<std::uint8_t const> raw,
                                                         std::string_view field) {
    if (raw.size() != 32)
        return field_error(field, "'" + std::string(field) + "' must be 32 bytes.");
    private_key k;
    std::copy(raw.begin(), raw.end(), k.key_.begin());
    if (secp256k1_ec_seckey_verify(detail::secp_context(), k.key_.data()) != 1)
        return field_error(field, "'" + std::string(field) + "' is not a valid secp256k1 key.");
    return k;
}

GATEWAY_DECL result<private_key> private_key::from_hex(std::string_view text,
                                                       std::string_view field) {
    // Decode without echoing the input in any message.
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text.remove_prefix(2);
    if (text.size() != 64)
        return field_error(field, "'" + std::string(field) + "' must be 0x + 64 hex digits.");
    std::array<std::uint8_t, 32> raw{};
    for (std::size_t i = 0; i < 32; ++i) {
        int const hi = util::hex_value(text[2 * i]);
        int const lo = util::hex_value(text[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            OPENSSL_cleanse(raw.data(), raw.size());
            return field_error(field, "'" + std::string(field) + "' must be 0x + 64 hex digits.");
        }
        raw[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    auto k = from_bytes(raw, field);
    OPENSSL_cleanse(raw.data(), raw.size());
    return k;
}

GATEWAY_DECL private_key::private_key(private_key const& other) noexcept
    : key_(other.key_) {}

GATEWAY_DECL private_key::private_key(private_key&& other) noexcept
    : key_(other.key_) {
    OPENSSL_cleanse(other.key_.data(), other.key_.size());
}

GATEWAY_DECL private_key& private_key::operator=(private_key const& other) noexcept {
    key_ = other.key_;
    return *this;
}

GATEWAY_DECL private_key& private_key::operator=(private_key&& other) noexcept {
    if (this != &other) {
        key_ = other.key_;
        OPENSSL_cleanse(other.key_.data(), other.key_.size());
    }
    return *this;
}

GATEWAY_DECL private_key::~private_key() {
    OPENSSL_cleanse(key_.data(), key_.size());
}

GATEWAY_DECL signature sign_digest(hash256 const& digest, private_key const& key) {
    secp256k1_ecdsa_recoverable_signature rsig;
    // Null nonce function = secp256k1_nonce_function_rfc6979; the library always emits low-s.
    [[maybe_unused]] int const ok = secp256k1_ecdsa_sign_recoverable(
        detail::secp_context(), &rsig, digest.data(), key.secret().data(), nullptr, nullptr);
    // Fails only for an invalid key, which private_key cannot hold.
    BOOST_ASSERT(ok == 1);
    signature out{};
    int recid = 0;
    secp256k1_ecdsa_recoverable_signature_serialize_compact(detail::secp_context(), out.data(),
                                                            &recid, &rsig);
    out[64] = static_cast<std::uint8_t>(27 + recid);
    return out;
}

GATEWAY_DECL result<address> recover(hash256 const& digest, std::span<std::uint8_t const> sig) {
    if (sig.size() != 65)
        return detail::signature_error("signature", "must be 65 bytes (r, s, v).");
    int recid = sig[64];
    if (recid >= 27)
        recid -= 27;
    if (recid != 0 && recid != 1)
        return detail::signature_error("signature", "has an invalid v (expected 27 or 28).");
    secp256k1_ecdsa_recoverable_signature rsig;
    if (secp256k1_ecdsa_recoverable_signature_parse_compact(detail::secp_context(), &rsig,
                                                            sig.data(), recid) != 1)
        return detail::signature_error("signature", "has r or s out of range.");
    secp256k1_pubkey pub;
    if (secp256k1_ecdsa_recover(detail::secp_context(), &pub, &rsig, digest.data()) != 1)
        return detail::signature_error("signature", "does not recover a public key.");
    std::array<std::uint8_t, 65> raw{};
    std::size_t len = raw.size();
    secp256k1_ec_pubkey_serialize(detail::secp_context(), raw.data(), &len, &pub,
                                  SECP256K1_EC_UNCOMPRESSED);
    hash256 const h = keccak256(std::span<std::uint8_t const>(raw).subspan(1));
    return address::parse(to_hex(std::span<std::uint8_t const>(h).subspan(12)));
}

GATEWAY_DECL address address_of(private_key const& key) {
    secp256k1_pubkey pub;
    [[maybe_unused]] int const ok =
        secp256k1_ec_pubkey_create(detail::secp_context(), &pub, key.secret().data());
    BOOST_ASSERT(ok == 1);
    std::array<std::uint8_t, 65> raw{};
    std::size_t len = raw.size();
    secp256k1_ec_pubkey_serialize(detail::secp_context(), raw.data(), &len, &pub,
                                  SECP256K1_EC_UNCOMPRESSED);
    hash256 const h = keccak256(std::span<std::uint8_t const>(raw).subspan(1));
    return address::parse(to_hex(std::span<std::uint8_t const>(h).subspan(12))).value();
}

GATEWAY_DECL std::array<std::uint8_t, 20> address_bytes(address const& a) {
    // address holds 0x + 40 validated hex digits, so this cannot fail.
    return from_hex_array<20>(a.str()).value();
}

GATEWAY_DECL std::string signature_to_hex(signature const& sig) {
    return to_hex(sig);
}

GATEWAY_DECL result<signature> signature_from_hex(std::string_view text, std::string_view field) {
    if (text.size() != 132 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return detail::signature_error(field, "must be 0x followed by 130 hex digits.");
    auto raw = from_hex_array<65>(text, field);
    if (!raw)
        return detail::signature_error(field, "must be 0x followed by 130 hex digits.");
    std::uint8_t const v = (*raw)[64];
    if (v != 27 && v != 28 && v != 0 && v != 1)
        return detail::signature_error(field, "has an invalid v (expected 27 or 28).");
    return *raw;
}

GATEWAY_DECL result<signature> wire_signature(std::string_view text, std::string_view field) {
    auto sig = signature_from_hex(text, field);
    if (!sig)
        return sig.error();
    if ((*sig)[64] != 27 && (*sig)[64] != 28)
        return detail::signature_error(field, "has an invalid v (expected 27 or 28).");
    return *sig;
}

} // namespace gateway::sign
