#pragma once
/**
 * @file hmac.hpp
 * HMAC-SHA256 (OpenSSL 3), RFC 4648 base64url, and gamma's L2 request signature
 * (`upstreams/gamma.md` §4.2): `base64url(HMAC-SHA256(base64url_decode(secret),
 * timestamp + METHOD + path + body))` with `=` padding kept.
 */
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gateway::sign {

/// A 32-byte HMAC-SHA256 tag.
using hmac256 = std::array<std::uint8_t, 32>;

/**
 * HMAC-SHA256 of `data` under `key` (any length, including empty).
 * @par Thread safety Pure; safe from any thread.
 */
GATEWAY_DECL hmac256 hmac_sha256(std::span<std::uint8_t const> key,
                                 std::span<std::uint8_t const> data);
/// As above, over the bytes of `data`.
GATEWAY_DECL hmac256 hmac_sha256(std::span<std::uint8_t const> key, std::string_view data);

/// RFC 4648 §5 base64url (`-`, `_`) of `data`, with `=` padding unless `pad` is false.
GATEWAY_DECL std::string base64url_encode(std::span<std::uint8_t const> data, bool pad = true);

/**
 * Decodes base64url. The standard alphabet's `+` and `/` are accepted too, and `=` padding is
 * optional (but only at the end).
 * @par Errors VALIDATION_ERROR naming `field` for any other character or an impossible length.
 */
GATEWAY_DECL result<bytes> base64url_decode(std::string_view text,
                                            std::string_view field = "base64");

/**
 * gamma's `POLY_SIGNATURE` header.
 *
 * The secret is decoded as gamma's TypeScript client does: characters outside both base64
 * alphabets are dropped, `+`/`/` and `-`/`_` are equivalent, missing padding is fine. The
 * message is `timestamp + method + path + body` with `path` cut at the first `?` (gamma signs
 * the path without its query string) and `body` the exact bytes sent (empty when there is
 * none). The Python/Rust clients' `'`->`"` body rewrite is not applied: sign what you send.
 *
 * @param secret the API secret (url-safe base64 of 32 bytes).
 * @param timestamp unix seconds as sent in `POLY_TIMESTAMP`.
 * @param method `GET`, `POST`, `DELETE`, exactly as sent.
 * @return url-safe base64 of the HMAC with `=` padding, e.g.
 * `ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=`.
 * @par Errors VALIDATION_ERROR naming `apiSecret` if the secret decodes to nothing usable.
 * The secret never appears in a message.
 */
GATEWAY_DECL result<std::string> build_l2_signature(std::string_view secret,
                                                    std::string_view timestamp,
                                                    std::string_view method, std::string_view path,
                                                    std::string_view body = {});

} // namespace gateway::sign

#include <gateway/sign/impl/hmac.hpp>
