#pragma once
// gatewayd as an object: configuration in, a listening server out. `main` and the tests both
// build it this way, so what the tests drive is what operators run. The composition root only:
// it wires the providers into the registry, the routes onto the router and the session layer
// onto the HTTP server.
#include "auth/accounts.hpp"
#include "config.hpp"

#include <gateway/net/url.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/ip/tcp.hpp>

#include <memory>

namespace gateway::server {

class gateway_app {
public:
    /// @param clock the time source of every time-dependent decision (tests inject one); null:
    /// the real clock.
    explicit gateway_app(server_config cfg, std::shared_ptr<util::clock const> clock = nullptr);
    ~gateway_app();
    gateway_app(gateway_app const&) = delete;
    gateway_app& operator=(gateway_app const&) = delete;

    /// Binds, starts the I/O threads and the health probes; returns the bound address.
    /// Throws std::runtime_error on a start-up failure (address in use, bad URL).
    boost::asio::ip::tcp::endpoint start();
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
