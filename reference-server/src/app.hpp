#pragma once
// gatewayd as an object: configuration in, a listening server out. `main` and the tests both
// build it this way, so what the tests drive is what operators run.
#include "auth/accounts.hpp"
#include "config.hpp"
#include "router.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/result.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <memory>
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

/// What a handler sees: the request, its path and query parameters, who asked.
struct request_context {
    net::request const& req;
    path_params params;
    path_params query;
    net::tcp::endpoint remote;
    std::string request_id;
    bool testnet = false; ///< the path is under /v1/testnet/ (CONTRACT §7)

    /// A path parameter by name (always present for the route's own captures).
    std::string const& param(std::string_view name) const;
    /// A query parameter by name, if given.
    std::optional<std::string_view> query_param(std::string_view name) const;
};

using route_handler = std::function<boost::asio::awaitable<result<reply>>(request_context& ctx)>;

class gateway_app {
public:
    /// @param now_ms wall clock for accounts, sessions and key expiry (tests inject one).
    explicit gateway_app(server_config cfg, std::function<std::int64_t()> now_ms = {});
    ~gateway_app();
    gateway_app(gateway_app const&) = delete;
    gateway_app& operator=(gateway_app const&) = delete;

    /// Binds, starts the I/O threads and the health probes; returns the bound address.
    /// Throws std::runtime_error on a start-up failure (address in use, bad URL).
    net::tcp::endpoint start();
    /// Graceful: stop accepting, finish in-flight requests, stop probes. Idempotent.
    void stop();
    /// Blocks until the I/O threads have ended (after stop()).
    void wait();

    server_config const& config() const;
    /// The account and key service (the embedded default's demo key, tests).
    auth::account_service& accounts();

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

} // namespace gateway::server
