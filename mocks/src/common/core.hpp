#pragma once
/**
 * @file core.hpp
 * The common core of every mock: the control API, fault injection, stats, the seeded market
 * state and its walk timer, in front of one upstream router.
 */
#include "control.hpp"
#include "faults.hpp"
#include "market_state.hpp"
#include "stats.hpp"
#include "upstream.hpp"
#include "ws_hub.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>

namespace gateway::mocks {

class mock_core : public std::enable_shared_from_this<mock_core> {
public:
    /// Takes the market state first, then builds the router on it and the WebSocket hub.
    template <class MakeRouter>
    mock_core(std::unique_ptr<market_state> markets, MakeRouter&& make)
        : markets_(std::move(markets))
        , router_(make(*markets_, hub_)) {}

    /// The handler of `net::http_server`: control API, stats, faults, then the router.
    static boost::asio::awaitable<std::optional<net::response>>
    serve(std::shared_ptr<mock_core> self, net::request req, net::tcp::endpoint remote);

    /**
     * The upgrade hook of `net::http_server`: counted in stats (`ws:connect` or the router's
     * kind); the HTTP faults apply to the handshake (latency delays it, `drop` closes it
     * unanswered, `status` refuses it with that status); then the router accepts or refuses.
     */
    static boost::asio::awaitable<std::optional<net::response>>
    upgrade(std::shared_ptr<mock_core> self, net::request& req, net::tcp::endpoint remote,
            net::ws_upgrade& up);

    net::response render_failure(net::failure const& f, unsigned version) const {
        return router_->render_failure(f, version);
    }

    /// Starts advancing the walk every `period` on `ex` (a strand is made from it).
    void start_walk(boost::asio::any_io_executor ex, std::chrono::milliseconds period);
    /// Stops the walk timer (asynchronously; safe from any thread).
    void stop_walk();

    market_state& markets() noexcept { return *markets_; }
    fault_switch& faults() noexcept { return faults_; }
    request_stats& stats() noexcept { return stats_; }
    ws_hub& hub() noexcept { return hub_; }

private:
    void schedule_walk();

    ws_hub hub_; // before the router, which keeps a reference
    std::unique_ptr<market_state> markets_;
    std::unique_ptr<upstream_router> router_;
    fault_switch faults_;
    request_stats stats_;
    std::unique_ptr<boost::asio::steady_timer> walk_timer_;
    std::chrono::milliseconds walk_period_{1000};
    std::atomic<bool> walking_{false};
    bool router_started_ = false;
};

} // namespace gateway::mocks
