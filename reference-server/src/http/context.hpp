#pragma once
/**
 * @file context.hpp
 * The handler vocabulary of the gateway: what a route sees (`request_context`) and what it
 * returns (`reply`, or an error). Deliberately free of Beast's message and parser headers, so
 * route and provider files compile without them; the session (`http/session.hpp`) adapts the
 * HTTP message to this view and renders the reply.
 */
#include "http/router.hpp"

#include <gateway/result.hpp>
#include <gateway/util/percent.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::server {

/// A successful answer: status, JSON body (or a raw body, e.g. an HTML page) and extra
/// headers (Set-Cookie, Location, ...).
struct reply {
    unsigned status = 200;
    boost::json::value body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::optional<std::string> raw_body; ///< sent instead of `body` when set
    std::string content_type = "application/json";
};

/// A JSON reply of `body` with status 200.
inline reply json_reply(boost::json::value body) {
    reply out;
    out.body = std::move(body);
    return out;
}

/// The parts of the HTTP request a handler may read (implemented by the session).
class request_view {
public:
    virtual ~request_view() = default;
    /// A header's value (the first one, case-insensitive name), if present.
    virtual std::optional<std::string_view> header(std::string_view name) const = 0;
    /// The body, already read under the body limit.
    virtual std::string_view body() const = 0;
};

/// What the provider seam needs of a request (see providers/provider.hpp).
struct call_context {
    bool testnet = false;        ///< under /v1/testnet/ (CONTRACT §7)
    std::int64_t now_ms = 0;     ///< the injected clock's wall time when the request arrived
    std::string_view request_id; ///< for logs
    /// The account whose API key made the call: the upstream weight of its reads counts against
    /// that account's share (CONTRACT §3, `upstream_call::account`). Unset: no key (public
    /// endpoints) or the gateway's own calls.
    std::optional<std::int64_t> account;
};

/// What a handler sees: the request, its path and query parameters, who asked, when.
struct request_context {
    boost::beast::http::verb method = boost::beast::http::verb::get;
    std::string_view path; ///< without the query string, not decoded
    path_params params;    ///< the route's captures, decoded
    query_params query;    ///< decoded; a malformed pair is left out (CONTRACT §1)
    std::string remote;    ///< client IP address (throttles are keyed by it)
    std::string request_id;
    bool testnet = false;    ///< the path is under /v1/testnet/ (CONTRACT §7)
    std::int64_t now_ms = 0; ///< the injected clock's wall time when the request arrived
    /// The account whose API key the gate accepted (see `call_context::account`).
    std::optional<std::int64_t> account;
    request_view const* http = nullptr;

    /// A path parameter by name (always present for the route's own captures).
    std::string const& param(std::string_view name) const;
    /// A query parameter by name, if given.
    std::optional<std::string_view> query_param(std::string_view name) const;
    /// A lookup of query parameters for `Params::from_query` (validate.hpp).
    auto query_lookup() const {
        return [this](std::string_view name) {
            return query_param(name);
        };
    }
    /// A header of the request, if present.
    std::optional<std::string_view> header(std::string_view name) const {
        return http ? http->header(name) : std::nullopt;
    }
    /// The request body.
    std::string_view body() const { return http ? http->body() : std::string_view{}; }
    /// The provider seam's view of this request.
    call_context call() const { return call_context{testnet, now_ms, request_id, account}; }
};

using route_handler = std::function<boost::asio::awaitable<result<reply>>(request_context& ctx)>;
using router = basic_router<route_handler>;

/// Whether a `Content-Type` value names `type` (parameters ignored, case-insensitive).
bool has_media_type(std::optional<std::string_view> content_type, std::string_view type);

/**
 * A strict JSON object body (CONTRACT §2): 415 UNSUPPORTED_MEDIA_TYPE without
 * application/json (the API-key gate refuses most such writes before the body is read), 400
 * INVALID_JSON when it is not JSON or not an object.
 */
result<boost::json::value> json_body(request_context const& ctx);

/// Registers `pattern` under `/v1` and under `/v1/testnet` (CONTRACT §7); handlers read
/// `ctx.testnet`.
void add_vertical_route(router& r, boost::beast::http::verb method, std::string const& pattern,
                        route_handler const& handler);

} // namespace gateway::server
