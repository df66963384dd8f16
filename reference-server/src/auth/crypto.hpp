#pragma once
// The cryptographic primitives of accounts and keys (CONTRACT §9), all on OpenSSL 3: CSPRNG
// bytes, SHA-256, constant-time comparison, scrypt through EVP_KDF, and the text encodings the
// keys, tokens and password hashes use. Nothing here logs; callers never log what it returns.
#include "auth/accounts.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::auth::crypto {

using bytes = std::vector<std::uint8_t>;
using sha256_digest = std::array<std::uint8_t, 32>;

/**
 * `n` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
 * @par Errors
 * Throws std::runtime_error if the generator fails (it is not seeded); never returns weak bytes.
 */
bytes random_bytes(std::size_t n);

/**
 * Base62 (`0-9A-Za-z`) of `data` read as one big-endian number, left-padded with `0` to the
 * fixed width `base62_width(data.size())`, so equal-length inputs give equal-length text.
 */
std::string base62_encode(std::span<std::uint8_t const> data);

/** Characters `base62_encode` writes for `size` bytes: ceil(8 * size / log2(62)); 32 -> 43. */
std::size_t base62_width(std::size_t size) noexcept;

/**
 * Inverse of `base62_encode` for a `size`-byte value.
 * @return nullopt if `text` has the wrong length, a character outside the alphabet, or a value
 * that does not fit in `size` bytes.
 */
std::optional<bytes> base62_decode(std::string_view text, std::size_t size);

/** RFC 4648 base64; `url` selects the URL-safe alphabet (section 5). Never padded. */
std::string base64_encode(std::span<std::uint8_t const> data, bool url = false);

/** Inverse of `base64_encode` (padding tolerated); nullopt on any other character. */
std::optional<bytes> base64_decode(std::string_view text, bool url = false);

/** SHA-256 of `data` (EVP). Throws std::runtime_error only if OpenSSL itself fails. */
sha256_digest sha256(std::string_view data);

/** HMAC-SHA-256 of `data` under `key` (EVP_MAC). Throws std::runtime_error only if OpenSSL
 * itself fails. */
sha256_digest hmac_sha256(std::string_view key, std::string_view data);

/**
 * True when `a` and `b` hold the same bytes. The time taken depends on the lengths only, never
 * on where the contents differ (`CRYPTO_memcmp`); lengths are not secret here.
 */
bool constant_time_equal(std::span<std::uint8_t const> a, std::span<std::uint8_t const> b) noexcept;

/** scrypt costs (RFC 7914): `n` a power of two above 1, `r` and `p` positive. */
struct scrypt_params {
    std::uint64_t n = 1u << 15;
    std::uint32_t r = 8;
    std::uint32_t p = 1;

    friend bool operator==(scrypt_params const&, scrypt_params const&) = default;
};

/**
 * True when `p` is usable here: `n` a power of two in [2, 2^20], `r` in [1, 32], `p` in
 * [1, 16], and the 128 * n * r bytes scrypt needs at most 1 GiB (OpenSSL's default limit).
 */
bool valid_scrypt_params(scrypt_params const& p) noexcept;

/**
 * Raw scrypt (OpenSSL 3 EVP_KDF "SCRYPT") of `password` and `salt`, `length` bytes.
 * @par Errors
 * Throws std::invalid_argument for unusable params, std::runtime_error if OpenSSL fails
 * (e.g. the memory limit).
 */
bytes scrypt(std::string_view password, std::span<std::uint8_t const> salt,
             scrypt_params const& params, std::size_t length);

/**
 * A password hash that describes itself, so costs can change later:
 * `scrypt$N$r$p$<salt base64>$<hash base64>` with a 16-byte random salt and a 32-byte hash.
 * Throws like `scrypt`.
 */
std::string hash_password(std::string_view password, scrypt_params const& params);

/**
 * Checks `password` against a `hash_password` string, comparing in constant time.
 * @return false for a wrong password and for a malformed or unusable `encoded`.
 */
bool verify_password(std::string_view password, std::string_view encoded);

/** The costs recorded in a `hash_password` string, or nullopt if it is malformed. */
std::optional<scrypt_params> password_hash_params(std::string_view encoded);

/** `"svc_live_"` or `"svc_test_"` (spec 5.1). */
std::string_view key_prefix(key_env env) noexcept;

/** Length of an API key: the 9-character prefix plus 43 base62 characters. */
inline constexpr std::size_t api_key_length = 9 + 43;

/** A new API key: `key_prefix(env)` + base62 of 32 CSPRNG bytes (52 characters in all). */
std::string generate_api_key(key_env env);

/**
 * The environment of a well-formed key (right prefix, length and alphabet), else nullopt.
 * A pure format check: it says nothing about whether the key exists.
 */
std::optional<key_env> parse_api_key(std::string_view key) noexcept;

} // namespace gateway::server::auth::crypto
