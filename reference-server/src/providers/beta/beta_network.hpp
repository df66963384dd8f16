#pragma once
/**
 * @file beta_network.hpp
 * Provider beta (Aster's Binance-style wire protocol, upstreams/beta.md) on one network: its two
 * upstream channels (futures `/fapi/v3`, spot `/api/v3`, each with its own weight budget,
 * corrected by `X-MBX-USED-WEIGHT-1M`), its market universe (exchangeInfo and leverage
 * brackets, learned in the background), and its signed reads made by the gateway's read signer
 * (CONTRACT §6.2: v3 `Message{msg}` signatures, microsecond nonces, fresh at send time).
 */
#include "providers/beta/beta_map.hpp"
#include "providers/provider.hpp"
#include "upstream/channel.hpp"

#include <gateway/sign/secp256k1.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gateway::server::beta {

struct network_options {
    bool testnet = false;
    std::string name;        ///< "beta" / "beta testnet"
    channel_options futures; ///< /fapi/v3 upstream
    channel_options spot;    ///< /api/v3 upstream
    std::chrono::milliseconds market_ttl{500};
    std::chrono::milliseconds meta_refresh{300000};
};

/// Query parameters in sending order.
using params = std::vector<std::pair<std::string, std::string>>;

class network : public std::enable_shared_from_this<network> {
public:
    using json_ptr = upstream_channel::json_ptr;
    using universe_ptr = std::shared_ptr<universe const>;

    network(boost::asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
            network_options options, sign::private_key read_signer);

    void start();
    void stop();

    /// A public read of the futures (`spot` false) or spot upstream: `GET path?query`, weighted by
    /// wire::beta, cached for `ttl`, coalesced. Wait on the flight (reads run in parallel).
    std::shared_ptr<upstream_channel::flight> start_get(bool spot, std::string path, params query,
                                                        std::chrono::milliseconds ttl);

    /**
     * A signed read for `user` by the read signer (CONTRACT §6.2): the query plus `nonce` (µs,
     * taken when the request leaves), `user`, `signer`, then `signature`. Coalesced per exact
     * request, never cached.
     * @par Errors 403 SIGNER_NOT_APPROVED naming the read signer when the account has not
     * approved it; the channel's upstream errors.
     */
    std::shared_ptr<upstream_channel::flight> start_signed_get(bool spot, std::string path,
                                                               params query, address const& user);

    /// The market universe: the last one learned, or the first load (coalesced) if none yet.
    boost::asio::awaitable<result<universe_ptr>> markets();

    address const& read_signer() const noexcept { return read_signer_address_; }
    network_options const& options() const noexcept { return options_; }
    upstream_channel& futures() noexcept { return *futures_; }
    upstream_channel& spot() noexcept { return *spot_; }

private:
    upstream_call call_of(bool spot, std::string path, params query) const;
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
    std::mutex m_;
    universe_ptr universe_;
    boost::asio::strand<boost::asio::any_io_executor> strand_;
    boost::asio::steady_timer timer_;
    std::atomic<bool> stopped_{false};
};

/// beta's capabilities over one network core (beta_reads.cpp).
std::shared_ptr<perps_reads> make_perps_reads(std::shared_ptr<network> n);
std::shared_ptr<spot_reads> make_spot_reads(std::shared_ptr<network> n);
std::shared_ptr<rwas_reads> make_rwas_reads(std::shared_ptr<network> n);

/// A beta upstream error body as a contract error (CONTRACT §2): -2015/-1002 (the signer is not
/// approved) SIGNER_NOT_APPROVED naming `read_signer`, -1121 MARKET_NOT_FOUND, else
/// UPSTREAM_ERROR carrying the upstream's code and text.
api_error read_error(std::string const& name, upstream_answer const& a, address const& read_signer);

} // namespace gateway::server::beta
