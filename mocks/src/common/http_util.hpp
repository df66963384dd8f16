#pragma once
/**
 * @file http_util.hpp
 * Small HTTP helpers shared by the mock routers: request-target splitting, query parameters,
 * response construction, the wall clock.
 */
#include <gateway/net/http_server.hpp>
#include <gateway/util/percent.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::mocks {

namespace http = boost::beast::http;

using gateway::query_params;

/// A request target split into its percent-decoded path and query parameters.
struct target_parts {
    std::string path;
    query_params query;
};

target_parts split_target(std::string_view target);

/// The first value of `key`, if present.
std::optional<std::string> query_get(query_params const& q, std::string_view key);

/// Every value of `key`, repeated keys and comma-separated lists both flattened (gamma.md §2.2).
std::vector<std::string> query_list(query_params const& q, std::string_view key);

/// A response with `body` and `content_type`.
net::response make_response(http::status status, std::string body, std::string_view content_type,
                            unsigned version);

/// A JSON response (serialized with `to_json`, so raw numbers stay exact).
net::response json_response(http::status status, boost::json::value const& body, unsigned version);

/// Unix time in milliseconds (the real clock: util::wall_ms).
std::int64_t now_ms();

/// Parses a non-negative decimal integer; nullopt for anything else.
std::optional<std::uint64_t> parse_uint(std::string_view s);

} // namespace gateway::mocks
