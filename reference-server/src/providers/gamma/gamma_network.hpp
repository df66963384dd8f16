#pragma once
/**
 * @file gamma_network.hpp
 * Provider gamma (Polymarket, upstreams/gamma.md) on its one network: its two upstream channels,
 * the Gamma catalog (events, markets) and the CLOB (books, midpoints), each with its own budget
 * (wire::gamma's weights, shared with mock-gamma), the outcome-token price cache, the catalog
 * scan that pages a filtered listing through the upstream's own pages, and the capability the
 * registry hands to the generic routes.
 *
 * Every call goes through a channel: weight against the budget, market data served from a short
 * cache (the market TTL), identical in-flight reads coalesced, 429 as 503.
 *
 * Token prices are CLOB midpoints asked in one `POST /midpoints` per page of results (at most
 * `wire::gamma::max_batch` tokens a request), each token's answer kept for the market TTL, so a
 * token priced a moment ago is not asked again; a token the CLOB answered nothing for has no
 * book and keeps the catalog's price.
 *
 * A listing is filtered on what the upstream cannot filter (the derived status, the category), so
 * it walks the catalog's own pages (`closed=false`, then `closed=true`, as the status needs)
 * until it has `offset` + `limit` matches or the catalog ends. A page asks for what the listing
 * still needs at the share of items that matched so far, at most `catalog_page` items. Where a
 * walk started each page, counted in matches, is remembered a while per filter (a checkpoint),
 * so a client paging with `offset` resumes where its previous page ended instead of walking
 * from the start; one request walks at most `max_pages` pages.
 */
#include "providers/gamma/gamma_map.hpp"
#include "providers/provider.hpp"
#include "upstream/channel.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gateway::server::gamma {

struct network_options {
    channel_options catalog; ///< the Gamma catalog API; `name` "gamma catalog"
    channel_options clob;    ///< the CLOB; `name` "gamma CLOB"
    /// CONTRACT §3: market data (catalog pages, books, midpoints) served from a short cache.
    std::chrono::milliseconds market_ttl{500};
    /// The most items asked of the catalog per page (the upstream serves up to 500).
    std::size_t catalog_page = 100;
    /// Catalog pages one request may read before it answers 400 naming `offset`.
    std::size_t max_pages = 50;
    /// How long a listing's checkpoints are kept.
    std::chrono::milliseconds checkpoint_ttl{60000};
};

/// Where a catalog walk stands: `sequence` (which `closed=` listing), the upstream `offset` in
/// it, and how many items matched the filter before that point.
struct walk_position {
    std::size_t sequence = 0;
    std::size_t offset = 0;
    std::int64_t matched = 0;
};

/// The shared core of gamma: channels, price cache, checkpoints.
class network : public std::enable_shared_from_this<network> {
public:
    using json_ptr = upstream_channel::json_ptr;
    using flight = upstream_channel::flight;

    network(boost::asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
            network_options options);

    /// A catalog `GET path?query`, weighted by wire::gamma, cached for the market TTL and
    /// coalesced. Wait on the flight. Made for `account` (a client's read), its weight counts
    /// against that account's share (CONTRACT §3).
    std::shared_ptr<flight> start_catalog_get(std::string path, query_params query,
                                              std::optional<std::int64_t> account = std::nullopt);
    /// A CLOB `GET path?query`, the same way.
    std::shared_ptr<flight> start_clob_get(std::string path, query_params query,
                                           std::optional<std::int64_t> account = std::nullopt);

    /**
     * The midpoints of `tokens`: the cached ones, the others asked in one `POST /midpoints`
     * (per `max_batch` tokens). A token missing from the answer has no book (absent from the
     * result). @par Errors the CLOB channel's.
     */
    boost::asio::awaitable<result<midpoints>>
    prices(std::vector<std::string> tokens, std::optional<std::int64_t> account = std::nullopt);

    /// The furthest remembered position of the walk `key` with at most `target` matches before
    /// it (the start when none).
    walk_position resume(std::string const& key, std::int64_t target);
    /// Remembers that the walk `key` had `p.matched` matches before `p`.
    void remember(std::string const& key, walk_position const& p);

    network_options const& options() const noexcept { return options_; }
    util::clock const& time() const noexcept { return time_; }
    upstream_channel& catalog() noexcept { return *catalog_; }
    upstream_channel& clob() noexcept { return *clob_; }

private:
    using steady = std::chrono::steady_clock;
    struct cached_price {
        std::optional<decimal> mid; ///< empty: the CLOB has no book for it
        steady::time_point fresh_until;
    };
    struct checkpoints {
        std::map<std::int64_t, walk_position> by_matched;
        steady::time_point fresh_until;
    };

    util::clock const& time_;
    network_options options_;
    std::shared_ptr<upstream_channel> catalog_;
    std::shared_ptr<upstream_channel> clob_;
    std::mutex prices_m_;
    std::unordered_map<std::string, cached_price> prices_;
    std::mutex walks_m_;
    std::unordered_map<std::string, checkpoints> walks_;
};

/// gamma's predictions reads over its network (gamma_reads.cpp).
std::shared_ptr<predictions_reads> make_predictions_reads(std::shared_ptr<network> n);
/// gamma's prediction trading over its network (gamma_orders.cpp): token rules from the CLOB
/// channel's book reads, L2-signed orders, cancels and account reads on the same channel.
std::shared_ptr<predictions_trading> make_predictions_trading(std::shared_ptr<network> n);

} // namespace gateway::server::gamma
