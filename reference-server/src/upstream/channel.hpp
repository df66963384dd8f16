#pragma once
// One upstream call, with its failures mapped to the contract (CONTRACT §2): no answer in time
// is 504 UPSTREAM_TIMEOUT, an unreachable or rate-limiting upstream 503 PROVIDER_UNAVAILABLE,
// an error status or an unparseable body 502 UPSTREAM_ERROR. Messages name the provider, never
// the upstream's internals.
#include <gateway/net/http_client.hpp>
#include <gateway/result.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <string>

namespace gateway::server {

struct upstream_request {
    std::string provider; ///< for messages
    net::url base;
    boost::beast::http::verb method = boost::beast::http::verb::get;
    std::string target; ///< path (+ query) under `base`
    std::string body;   ///< JSON body, if any
    std::chrono::milliseconds timeout{10000};
    bool idempotent = true; ///< reads; writes are never retried
};

/// Sends the request and parses a 2xx JSON answer. A write (`idempotent` false) whose connection
/// broke after it was sent is 502 UPSTREAM_ERROR with `details.outcomeUnknown` true.
boost::asio::awaitable<result<boost::json::value>> call_upstream_json(net::http_client& client,
                                                                      upstream_request req);

} // namespace gateway::server
