#pragma once
/**
 * @file beta_network.hpp
 * Provider beta (Aster's Binance-style wire protocol, upstreams/beta.md) on one network: its two
 * upstream channels (futures `/fapi/v3`, spot `/api/v3`, separate hosts and budgets upstream), its
 * market universe and its signed reads made by the gateway's read signer, and the capability
 * objects the registry hands to the generic routes.
 *
 * Every call goes through a channel: it charges beta's weights (wire::beta, shared with
 * mock-beta) against the budget, follows the upstream's `X-MBX-USED-WEIGHT-1M`, serves market data
 * from a short cache and coalesces identical in-flight reads, and maps 429/418 to 503. The market
 * universe (exchangeInfo of both upstreams, leverage brackets) is learned in the background and
 * refreshed periodically, never per request.
 */
#include "providers/beta/beta_map.hpp"
#include "providers/provider.hpp"
#include "upstream/channel.hpp"

#include <gateway/sign/secp256k1.hpp>
#include <gateway/util/percent.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

namespace gateway::server::beta {

struct network_options {
    bool testnet = false;    ///< signs with chainId 714 instead of 1666 (beta.md §3.1)
    channel_options futures; ///< `/fapi/v3`; `name` is "beta" or "beta testnet"
    channel_options spot;    ///< `/api/v3`; `name` is "beta spot" or "beta testnet spot"
    /// CONTRACT §3: market data served from a short-lived cache.
    std::chrono::milliseconds market_ttl{500};
    std::chrono::milliseconds meta_refresh{300000};
};

/// The shared core of one network: channels, universe, read signer.
class network : public std::enable_shared_from_this<network> {
public:
    using json_ptr = upstream_channel::json_ptr;
    using flight = upstream_channel::flight;
    using universe_ptr = std::shared_ptr<universe const>;

    network(boost::asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
            network_options options, sign::private_key read_signer);

    /// Starts the background market refresh (first load at once).
    void start();
    /// Stops the refresh loop; in-flight reads finish.
    void stop();

    /**
     * A public `GET path?query` of the futures or spot upstream, weighted by wire::beta. `ttl` > 0
     * serves an identical read from cache for that long; every read coalesces with an identical
     * one in flight. Wait on the flight (so several reads run at once). Made for `account` (a
     * client's read), its weight counts against that account's share (CONTRACT §3).
     */
    std::shared_ptr<flight> start_get(venue v, std::string path, query_params query,
                                      std::chrono::milliseconds ttl,
                                      std::optional<std::int64_t> account = std::nullopt);

    /**
     * A signed read for `user` made by the read signer (CONTRACT §6.2, beta.md §3.1): the query,
     * then `nonce` (microseconds of the wall clock the upstream checks, taken when the request
     * leaves, after any budget wait), `user`, `signer`, `signature`. Coalesced with an identical
     * read in flight, never cached.
     * @par Errors 403 SIGNER_NOT_APPROVED naming the read signer when the account has not
     * approved it; the channel's upstream errors.
     */
    std::shared_ptr<flight> start_signed_get(venue v, std::string path, query_params query,
                                             address const& user,
                                             std::optional<std::int64_t> account = std::nullopt);

    /// The market universe: the last one learned, or the first load (coalesced) if none yet.
    boost::asio::awaitable<result<universe_ptr>> markets();

    /// The read signer's address (`readSigner` in the provider detail).
    address const& read_signer() const noexcept { return read_signer_address_; }
    /// "beta" or "beta testnet", for messages.
    std::string const& name() const noexcept { return options_.futures.name; }
    network_options const& options() const noexcept { return options_; }
    upstream_channel& futures() noexcept { return *futures_; }
    upstream_channel& spot() noexcept { return *spot_; }

private:
    upstream_channel& channel(venue v) noexcept { return v == venue::spot ? *spot_ : *futures_; }
    boost::asio::awaitable<result<universe>> load_universe();
    boost::asio::awaitable<result<universe_ptr>> reload();
    boost::asio::awaitable<void> refresh_loop();
    static boost::asio::awaitable<void> run_refresh(std::shared_ptr<network> self);
    static boost::asio::awaitable<result<universe_ptr>>
    load_and_install(std::shared_ptr<network> self);

    util::clock const& time_;
    network_options options_;
    sign::private_key read_signer_;
    address read_signer_address_;
    std::shared_ptr<upstream_channel> futures_;
    std::shared_ptr<upstream_channel> spot_;
    coalescing_cache<universe_ptr> universe_load_;
    mutable std::mutex m_;
    universe_ptr universe_;
    boost::asio::strand<boost::asio::any_io_executor> strand_;
    boost::asio::steady_timer timer_;
    std::atomic<bool> stopped_{false};
};

/// beta's capabilities over one network core (beta_reads.cpp).
std::shared_ptr<perps_reads> make_perps_reads(std::shared_ptr<network> n);
std::shared_ptr<spot_reads> make_spot_reads(std::shared_ptr<network> n);
std::shared_ptr<rwas_reads> make_rwas_reads(std::shared_ptr<network> n);
/// beta's signed trading hooks over one network core (beta_signing.cpp).
std::shared_ptr<signed_trading> make_signed_trading(std::shared_ptr<network> n);

} // namespace gateway::server::beta
