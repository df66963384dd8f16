#pragma once
/**
 * @file beta_ws.hpp
 * mock-beta's futures WebSocket (Aster, Binance-style; upstreams/beta.md §9), driven by the same
 * market state, matching engine and ledger as the REST side.
 *
 * Connections: `/ws/<stream>[/<stream>...]` (raw payloads), `/stream?streams=<s1>/<s2>` (combined:
 * `{"stream":<name>,"data":<payload>}`), `/ws` with nothing subscribed yet. Control frames
 * `{"method":"SUBSCRIBE"|"UNSUBSCRIBE","params":[..],"id":N}` -> `{"result":null,"id":N}`,
 * `LIST_SUBSCRIPTIONS` -> `{"result":[..],"id":N}`, `SET_PROPERTY ["combined",bool]`,
 * `GET_PROPERTY ["combined"]`; errors `{"error":{"code":N,"msg":".."},"id":N}`. At most 200
 * streams per connection.
 *
 * Streams (lower-case symbols of the perps):
 * - `<s>@depth`, `@depth@100ms`, `@depth@500ms`: `depthUpdate` diffs `U,u,pu,b,a` of the top
 *   `mock_options::ws_depth_levels` levels per side of the REST book, one sequence with REST
 *   `/fapi/v3/depth`'s `lastUpdateId` (the documented local-book sync works exactly, see
 *   `depth_feed`); pushed on every change (walk step, mark move, an order resting, filling or
 *   cancelled), every speed alike.
 * - `<s>@aggTrade`: every trade (walk and matching engine), `a` the trade id.
 * - `<s>@markPrice[@1s]`, `!markPrice@arr[@1s]`: `markPriceUpdate` every walk step (the 3 s
 *   streams every third) and on a mark move.
 * - `<s>@kline_<interval>`: after every trade, the candle it joined (`x` false).
 * - `!ticker@arr`: the `24hrTicker` of every perp every walk step.
 * - `<listenKey>`: the key's user's `ORDER_TRADE_UPDATE` (x NEW, TRADE, CANCELED, EXPIRED) and
 *   after each fill `ACCOUNT_UPDATE` (m ORDER; USDT balance, the fill's position).
 *
 * Listen keys: signed `POST /fapi/v3/listenKey` answers `{"listenKey":..}` (the user's current
 * key when it has a live one, extended), `PUT` extends it (60 minutes), `DELETE` closes it;
 * `PUT`/`DELETE` without a live key -1125 `This listenKey does not exist.`; an upgrade to an
 * unknown or expired key is refused with HTTP 400 and that error.
 */
#include "beta_ledger.hpp"
#include "beta_matching.hpp"
#include "beta_public.hpp"

#include "../common/candles.hpp"
#include "../common/market_state.hpp"
#include "../common/upstream.hpp"
#include "../common/ws_hub.hpp"

#include <boost/asio/any_io_executor.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gateway::mocks::beta {

/// One side of a book as it is printed: price and quantity strings.
using printed_levels = std::vector<std::pair<std::string, std::string>>;

struct depth_snapshot {
    std::int64_t last_update_id = 0;
    printed_levels bids;
    printed_levels asks;
};

class ws_feed : public std::enable_shared_from_this<ws_feed> {
public:
    ws_feed(ws_hub& hub, market_state& markets, ledger& l, engine& e, market_data const& data,
            candle_history const& candles, std::size_t depth_levels, std::uint64_t seed);

    void start(boost::asio::any_io_executor const& ex);
    void stop();

    /// An upgrade to `target`: the connection's handler, or the refusal.
    ws_route open(net::request const& req);

    void on_market_change();
    void on_trade(std::size_t market, trade const& t);
    void on_ledger(ledger_event const& e);

    /**
     * The futures depth REST answers: the book now (the diff stream brought up to it first), its
     * `lastUpdateId` and `limit` levels per side.
     */
    depth_snapshot depth(std::string const& symbol, std::size_t limit);

    // Listen keys (signed REST): the key, or nullopt (-1125) when the user has none live.
    std::string create_listen_key(std::string const& user);
    bool keep_alive(std::string const& user);
    bool close_listen_key(std::string const& user);
    std::optional<std::string> listen_key_user(std::string const& key);

    // For the connections.
    ws_hub& hub() noexcept { return hub_; }
    bool valid_market_stream(std::string const& name) const;

private:
    struct level {
        std::int64_t px = 0; ///< px_scale units (the map key)
        std::string price, qty;
    };
    using side = std::map<std::int64_t, level>;
    struct book_state {
        side bids;
        side asks;
        std::int64_t last_u = 0;
        bool known = false;
    };
    /// The REST book of a futures symbol: the engine's (house quotes and user orders) with the
    /// market state's deeper ladder beyond it.
    std::pair<std::vector<level>, std::vector<level>> book_view(std::string const& symbol,
                                                                std::size_t depth) const;
    void refresh_locked(std::string const& symbol, std::int64_t now);
    void publish_marks(bool all_speeds);
    void publish_tickers();
    void drain(); ///< on the strand: formats the ledger events queued
    std::string order_update(std::string const& user, order_record const& o, std::string const& x,
                             fill_record const* f, std::int64_t now) const;
    std::string account_update(std::string const& user, std::string const& symbol,
                               std::int64_t now) const;

    ws_hub& hub_;
    market_state& markets_;
    ledger& ledger_;
    engine& engine_;
    market_data const& data_;
    candle_history const& candles_;
    std::size_t depth_levels_;
    std::int64_t update_base_;

    boost::asio::any_io_executor strand_;
    bool started_ = false;
    bool stopped_ = false;    ///< strand-only
    unsigned walk_steps_ = 0; ///< strand-only

    std::mutex depth_m_;
    std::map<std::string, book_state> books_;

    std::mutex queue_m_;
    std::deque<ledger_event> queue_;
    bool drain_posted_ = false;
    std::set<std::uint64_t> announced_; ///< strand-only: orders whose NEW went out
    /// Strand-only: executed quantity and quote of partly filled orders, from their fills.
    std::map<std::uint64_t, std::pair<amount, amount>> executed_;

    std::mutex keys_m_;
    struct listen_key {
        std::string key;
        std::int64_t expires = 0;
    };
    std::map<std::string, listen_key> keys_by_user_;
    std::uint64_t key_counter_ = 0;
};

} // namespace gateway::mocks::beta
