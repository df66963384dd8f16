#pragma once
/**
 * @file percent.hpp
 * Percent-encoding (RFC 3986) with one rule for every part of the tree: the gateway's router
 * and query parser, the SDK client, and the mocks.
 *
 * Decoding refuses a malformed escape (`%` not followed by two hex digits): a path with one
 * matches no route, a query pair with one is ignored (CONTRACT §1: an unreadable parameter is
 * an unknown one), and a mock answers its upstream's bad-request error.
 */
#include <gateway/config.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway {

/// Query parameters in order, already decoded (one definition for client, server and mocks).
using query_params = std::vector<std::pair<std::string, std::string>>;

namespace util {

/// Decodes `%XX` escapes (and `+` as a space when `plus_is_space`, for query strings);
/// nullopt for a malformed escape.
GATEWAY_DECL std::optional<std::string> percent_decode(std::string_view s,
                                                       bool plus_is_space = false);

/**
 * Percent-encodes everything but RFC 3986's unreserved characters and `extra` (for example
 * `":@"` keeps `xyz:TSLA` readable in a path segment). Upper-case hex digits.
 */
GATEWAY_DECL std::string percent_encode(std::string_view s, std::string_view extra = "");

/// Splits a query string (without `?`) into decoded pairs; a pair with a malformed escape or
/// an empty name is skipped.
GATEWAY_DECL query_params parse_query(std::string_view query);

/// `?k=v&k2=v2` with both sides encoded (`extra` kept as in `percent_encode`); empty for none.
GATEWAY_DECL std::string encode_query(query_params const& q, std::string_view extra = "");

} // namespace util
} // namespace gateway

#include <gateway/util/impl/percent.hpp>
