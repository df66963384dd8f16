#pragma once
/**
 * @file secp256k1.hpp
 * Ethereum ECDSA on secp256k1 through Debian's libsecp256k1 and its recovery module: private
 * keys, deterministic signing of a 32-byte digest (RFC 6979, low-s, `v` = 27 + recovery id,
 * `upstreams/alpha.md` §5.4) and signer recovery.
 *
 * One process-wide context is created (and randomized) on first use; libsecp256k1 documents
 * every call taking a `const` context as thread-safe, so all functions here are.
 */
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/types/address.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gateway::sign {

/// A recoverable signature `r(32) || s(32) || v(1)`, `v` 27/28 as Ethereum writes it.
using signature = std::array<std::uint8_t, 65>;

/**
 * A secp256k1 private key (32 bytes in [1, n-1]).
 *
 * Never printed: there is deliberately no `operator<<`, no `to_string` and no JSON mapping.
 * Every copy wipes its bytes (`OPENSSL_cleanse`) when destroyed or moved from.
 */
class private_key {
public:
    /**
     * Parses `0x` + 64 hex digits (the prefix is optional, any case).
     * @par Errors VALIDATION_ERROR naming `field` if the text is not 32 bytes of hex or the
     * value is not a valid key (zero or not below the curve order). The message never repeats
     * the input.
     */
    GATEWAY_DECL static result<private_key> from_hex(std::string_view text,
                                                     std::string_view field = "privateKey");
    /// As `from_hex`, from 32 raw bytes.
    GATEWAY_DECL static result<private_key> from_bytes(std::span<std::uint8_t const> raw,
                                                       std::string_view field = "privateKey");

    /**
     * A fresh random key (OpenSSL's CSPRNG), e.g. for a new agent wallet.
     * @par Errors INTERNAL_ERROR if the CSPRNG fails.
     */
    GATEWAY_DECL static result<private_key> generate();

    GATEWAY_DECL private_key(private_key const& other) noexcept;
    GATEWAY_DECL private_key(private_key&& other) noexcept;
    GATEWAY_DECL private_key& operator=(private_key const& other) noexcept;
    GATEWAY_DECL private_key& operator=(private_key&& other) noexcept;
    GATEWAY_DECL ~private_key();

    /// The raw secret. Handle with care: never log it.
    std::array<std::uint8_t, 32> const& secret() const noexcept { return key_; }

private:
    private_key() = default;
    std::array<std::uint8_t, 32> key_{};
};

/**
 * Signs `digest` as Ethereum does (no prefixing): RFC 6979 nonce, low-s, `v` = 27 + recid.
 * Deterministic: the same key and digest always give the same 65 bytes.
 * @par Thread safety Safe from any thread.
 */
GATEWAY_DECL signature sign_digest(hash256 const& digest, private_key const& key);

/**
 * The address that produced `sig` over `digest` (`ecrecover`).
 * @param sig 65 bytes `r || s || v`; `v` may be 27/28 or 0/1. High-s values are accepted, as
 * the `ecrecover` precompile does.
 * @par Errors SIGNATURE_ERROR naming `signature` if `sig` is not 65 bytes, `v` is another value,
 * `r`/`s` are zero or not below the curve order, or no public key recovers.
 */
GATEWAY_DECL result<address> recover(hash256 const& digest, std::span<std::uint8_t const> sig);

/// The address of `key`: the last 20 bytes of keccak256 of the uncompressed public key X || Y.
GATEWAY_DECL address address_of(private_key const& key);

/// The 20 raw bytes of `a`.
GATEWAY_DECL std::array<std::uint8_t, 20> address_bytes(address const& a);

/// `0x` + 130 lower-case hex digits (`r || s || v`), the CONTRACT §6 wire form.
GATEWAY_DECL std::string signature_to_hex(signature const& sig);

/**
 * Parses `0x` + 130 hex digits. `v` must be 27/28 or 0/1 and is kept as given.
 * @par Errors SIGNATURE_ERROR naming `field` for anything else.
 */
GATEWAY_DECL result<signature> signature_from_hex(std::string_view text,
                                                  std::string_view field = "signature");

/**
 * CONTRACT §6's `signature`: `0x` + 130 hex digits (`r || s || v`) with v 27 or 28, the form
 * the gateway accepts on signed writes.
 * @par Errors SIGNATURE_ERROR naming `field` for anything else.
 */
GATEWAY_DECL result<signature> wire_signature(std::string_view text,
                                              std::string_view field = "signature");

} // namespace gateway::sign

#include <gateway/sign/impl/secp256k1.hpp>
