#pragma once
/**
 * @file alpha_network.hpp
 * Provider alpha (Hyperliquid's wire protocol, upstreams/alpha.md) on one network: its upstream
 * channel, its market universe and its agent cache, and the capability objects the registry
 * hands to the generic routes.
 *
 * Every `/info` call goes through `info()`: the channel charges the upstream's request weights
 * (wire::alpha, shared with mock-alpha) against the budget (CONTRACT §3: 1200 per 60 s), serves
 * market data from a short cache and coalesces identical in-flight reads. The market universe
 * (names, asset ids, size decimals, max leverage) is learned from meta/spotMeta/perpDexs in the
 * background and refreshed periodically, never per request.
 */
#include "providers/alpha/alpha_map.hpp"
#include "providers/provider.hpp"
#include "upstream/channel.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace gateway::server::alpha {

struct network_options {
    bool testnet = false;
    channel_options channel; ///< `name` is "alpha" or "alpha testnet"
    /// CONTRACT §3: market data served from a short-lived cache.
    std::chrono::milliseconds market_ttl{500};
    std::chrono::milliseconds meta_refresh{300000};
    /// How long a refused (wallet, signer) pair is answered from cache.
    std::chrono::milliseconds agent_miss_ttl{2000};
};

/// The shared core of one network: channel, universe, agents.
class network : public std::enable_shared_from_this<network> {
public:
    using json_ptr = upstream_channel::json_ptr;
    using flight = upstream_channel::flight;
    using universe_ptr = std::shared_ptr<universe const>;

    network(boost::asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
            network_options options);

    /// Starts the background market refresh (first load at once).
    void start();
    /// Stops the refresh loop; in-flight reads finish.
    void stop();

    /**
     * One `POST /info` with `body`. `ttl` > 0 serves an identical body from cache for that
     * long; every read coalesces with an identical one in flight. Made for `account` (a
     * client's read, `call_context::account`), its weight counts against that account's share;
     * unset, it is the gateway's own.
     * @par Errors UPSTREAM_ERROR, UPSTREAM_TIMEOUT, PROVIDER_UNAVAILABLE; RATE_LIMITED (scope
     * "account") past the account's share.
     */
    boost::asio::awaitable<json_ptr> info(boost::json::object const& body,
                                          std::chrono::milliseconds ttl,
                                          std::optional<std::int64_t> account = std::nullopt);
    /// Starts an `info` read without waiting: wait on the flight (parallel reads).
    std::shared_ptr<flight> start_info(boost::json::object const& body,
                                       std::chrono::milliseconds ttl,
                                       std::optional<std::int64_t> account = std::nullopt);
    /// A market-data read: `info` with the market-data TTL.
    boost::asio::awaitable<json_ptr>
    market_info(boost::json::object const& body,
                std::optional<std::int64_t> account = std::nullopt) {
        return info(body, options_.market_ttl, account);
    }

    /// The market universe: the last one learned, or the first load (coalesced) if none yet.
    boost::asio::awaitable<result<universe_ptr>> markets();

    /**
     * Whether `signer` is an agent approved by `wallet` (CONTRACT §6.1), learned from the
     * upstream (`extraAgents` of the wallet, then `userRole` of the signer for the unnamed
     * agent, which extraAgents does not list) and cached for `agent_ttl`; a refusal is cached
     * for `options.agent_miss_ttl` only (a retried wrong signature costs no upstream weight, an
     * agent approved a moment ago is accepted soon after).
     * @par Errors as `info`.
     */
    boost::asio::awaitable<result<bool>> approved_agent(std::string wallet, std::string signer);

    /// How long a learned wallet -> agent approval is trusted without asking again.
    static constexpr std::chrono::minutes agent_ttl{5};
    /// Cached verdicts kept at most (expired ones are swept first, then all are dropped).
    static constexpr std::size_t agent_cache_max = 100000;

    upstream_channel& channel() noexcept { return *channel_; }
    network_options const& options() const noexcept { return options_; }
    util::clock const& time() const noexcept { return time_; }

private:
    boost::asio::awaitable<result<universe>> load_universe();
    boost::asio::awaitable<result<universe_ptr>> reload();
    boost::asio::awaitable<void> refresh_loop();
    static boost::asio::awaitable<void> run_refresh(std::shared_ptr<network> self);
    static boost::asio::awaitable<result<universe_ptr>>
    load_and_install(std::shared_ptr<network> self);

    util::clock const& time_;
    network_options options_;
    std::shared_ptr<upstream_channel> channel_;
    coalescing_cache<universe_ptr> universe_load_;
    struct agent_verdict {
        util::clock::steady_time at; ///< when it was learned
        bool approved = false;
    };
    /// "wallet signer" -> the upstream's last verdict.
    std::unordered_map<std::string, agent_verdict> agents_;
    mutable std::mutex m_;
    universe_ptr universe_;
    boost::asio::strand<boost::asio::any_io_executor> strand_;
    boost::asio::steady_timer timer_;
    std::atomic<bool> stopped_{false};
};

/// alpha's capabilities over one network core (alpha_reads.cpp, alpha_signing.cpp).
std::shared_ptr<perps_reads> make_perps_reads(std::shared_ptr<network> n);
std::shared_ptr<spot_reads> make_spot_reads(std::shared_ptr<network> n);
std::shared_ptr<rwas_reads> make_rwas_reads(std::shared_ptr<network> n);
std::shared_ptr<signed_trading> make_signed_trading(std::shared_ptr<network> n);

} // namespace gateway::server::alpha
