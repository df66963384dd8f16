#include "gamma_auth.hpp"

#include "../common/http_util.hpp"

#include <gateway/providers/gamma/signing.hpp>
#include <gateway/sign/hmac.hpp>
#include <gateway/types/address.hpp>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>

namespace gateway::mocks::gamma {

namespace {

/// A header's value, if the request carries it.
std::optional<std::string> header(net::request const& req, std::string_view name) {
    auto const it = req.find(name);
    if (it == req.end())
        return std::nullopt;
    return std::string(std::string_view(it->value()));
}

/// `N` bytes of OpenSSL's CSPRNG; nullopt if it fails.
template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> random_bytes() {
    std::array<std::uint8_t, N> out{};
    if (RAND_bytes(out.data(), static_cast<int>(N)) != 1)
        return std::nullopt;
    return out;
}

std::string hex_of(std::span<std::uint8_t const> bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (auto const b : bytes) {
        out.push_back(digits[b >> 4]);
        out.push_back(digits[b & 0xf]);
    }
    return out;
}

/// A UUID v4 of 16 random bytes.
std::string uuid_of(std::array<std::uint8_t, 16> raw) {
    raw[6] = static_cast<std::uint8_t>((raw[6] & 0x0f) | 0x40);
    raw[8] = static_cast<std::uint8_t>((raw[8] & 0x3f) | 0x80);
    std::string const h = hex_of(raw);
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
           "-" + h.substr(20);
}

bool same_secret(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

/// A unix-seconds timestamp within the window of `now_s`.
bool fresh(std::optional<std::string> const& ts, std::int64_t now_s) {
    if (!ts)
        return false;
    auto const v = parse_uint(*ts);
    if (!v || *v > static_cast<std::uint64_t>(now_s) + 1'000'000'000ULL)
        return false;
    auto const d = static_cast<std::int64_t>(*v) - now_s;
    return d >= -window_s && d <= window_s;
}

refusal auth_refusal(std::string_view message) {
    return {401, std::string(message)};
}

} // namespace

std::variant<l1_identity, refusal> credential_store::verify_l1(net::request const& req,
                                                               std::int64_t now_s) {
    auto const addr_text = header(req, "POLY_ADDRESS");
    auto const sig = header(req, "POLY_SIGNATURE");
    auto const ts = header(req, "POLY_TIMESTAMP");
    auto const nonce_text = header(req, "POLY_NONCE");
    if (!addr_text || !sig || !fresh(ts, now_s))
        return auth_refusal(l1_refused);
    auto const addr = address::parse(*addr_text, "POLY_ADDRESS");
    if (!addr)
        return auth_refusal(l1_refused);
    std::uint64_t nonce = 0;
    if (nonce_text) {
        auto const n = parse_uint(*nonce_text);
        if (!n)
            return auth_refusal(l1_refused);
        nonce = *n;
    }
    auto const signer = sign::gamma::recover_clob_auth(*addr, *ts, nonce, *sig);
    if (!signer || *signer != *addr)
        return auth_refusal(l1_refused);
    return l1_identity{addr->str(), nonce};
}

std::variant<credential, refusal> credential_store::create(l1_identity const& who) {
    std::lock_guard lock(m_);
    auto const owner = std::make_pair(who.address, who.nonce);
    if (by_owner_.contains(owner))
        return refusal{400, std::string(create_refused)};
    auto const key = random_bytes<16>();
    auto const secret = random_bytes<32>();
    auto const pass = random_bytes<32>();
    if (!key || !secret || !pass)
        return refusal{400, std::string(create_refused)};
    credential c;
    c.api_key = uuid_of(*key);
    c.secret = sign::base64url_encode(*secret, true);
    c.passphrase = hex_of(*pass);
    c.address = who.address;
    c.nonce = who.nonce;
    by_owner_.emplace(owner, c.api_key);
    by_key_.emplace(c.api_key, c);
    return c;
}

std::variant<credential, refusal> credential_store::derive(l1_identity const& who) const {
    std::lock_guard lock(m_);
    auto const it = by_owner_.find(std::make_pair(who.address, who.nonce));
    if (it == by_owner_.end())
        return refusal{400, std::string(derive_refused)};
    return by_key_.at(it->second);
}

std::variant<credential, refusal> credential_store::verify_l2(net::request const& req,
                                                              std::string_view signed_path,
                                                              std::int64_t now_s) const {
    auto const addr_text = header(req, "POLY_ADDRESS");
    auto const sig = header(req, "POLY_SIGNATURE");
    auto const ts = header(req, "POLY_TIMESTAMP");
    auto const key = header(req, "POLY_API_KEY");
    auto const pass = header(req, "POLY_PASSPHRASE");
    if (!addr_text || !sig || !key || !pass)
        return auth_refusal(l2_refused);
    credential c;
    {
        std::lock_guard lock(m_);
        auto const it = by_key_.find(*key);
        if (it == by_key_.end())
            return auth_refusal(l2_refused);
        c = it->second;
    }
    if (!same_secret(*pass, c.passphrase) || !fresh(ts, now_s))
        return auth_refusal(l2_refused);
    auto const addr = address::parse(*addr_text, "POLY_ADDRESS");
    if (!addr || addr->str() != c.address)
        return auth_refusal(l2_refused);
    std::string_view const method = req.method_string();
    std::string const& body = req.body();
    auto const expected = sign::build_l2_signature(c.secret, *ts, method, signed_path, body);
    if (expected && same_secret(*expected, *sig))
        return c;
    if (body.find('\'') != std::string::npos) {
        std::string quoted = body;
        std::replace(quoted.begin(), quoted.end(), '\'', '"');
        auto const alt = sign::build_l2_signature(c.secret, *ts, method, signed_path, quoted);
        if (alt && same_secret(*alt, *sig))
            return c;
    }
    return auth_refusal(l2_refused);
}

std::vector<std::string> credential_store::keys_of(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<std::string> out;
    for (auto it = by_owner_.lower_bound(std::make_pair(address, std::uint64_t{0}));
         it != by_owner_.end() && it->first.first == address; ++it)
        out.push_back(it->second);
    return out;
}

bool credential_store::remove(std::string const& api_key) {
    std::lock_guard lock(m_);
    auto const it = by_key_.find(api_key);
    if (it == by_key_.end())
        return false;
    by_owner_.erase(std::make_pair(it->second.address, it->second.nonce));
    by_key_.erase(it);
    return true;
}

} // namespace gateway::mocks::gamma
