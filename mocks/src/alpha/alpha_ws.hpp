#pragma once
/**
 * @file alpha_ws.hpp
 * mock-alpha's WebSocket `/ws` (Hyperliquid, upstreams/alpha.md §7), driven by the same market
 * state, matching engine and ledger as `/info` and `/exchange`.
 *
 * Client frames: `{"method":"subscribe"|"unsubscribe","subscription":{...}}` (an unsubscribe
 * repeats the subscription) and `{"method":"ping"}` -> `{"channel":"pong"}`. Acks
 * `{"channel":"subscriptionResponse","data":{"method":..,"subscription":..}}` (the subscription
 * echoed, `user` lowercased); errors `{"channel":"error","data":"<text>"}`: `Already subscribed:
 * <sub>`, `Already unsubscribed: <sub>`, `Invalid subscription <sub>`, `Error parsing JSON into
 * valid websocket request: <frame>`, and over the per-IP limits `Cannot track more than 1000
 * total subscriptions` / `Cannot track more than 10 total users` (texts UNCONFIRMED).
 *
 * Subscriptions (data `{"channel":<type>,"data":...}`):
 * - `allMids` (+`dex`): `{"mids":{..}}` (`/info allMids`) at once, on every walk step and mark
 * move;
 * - `l2Book` `coin` (+`nSigFigs`, `mantissa`): the `/info l2Book` object at once, then on every
 *   change (walk step, mark move, an order resting, filling or cancelled), at most once per
 *   `mock_options::ws_book_interval` (0.5 s) per subscription key;
 * - `trades` `coin`: `[trade]` for every trade printed (walk or matching engine);
 * - `candle` `coin` `interval`: the current candle at once (when it has trades) and after every
 *   trade in it;
 * - `orderUpdates` `user`: `[{"order":{..},"status","statusTimestamp"}]` per order change (rested
 *   "open", resized by a partial fill "open", and closed "filled", "canceled", "triggered", ...);
 * - `userFills` `user`: `{"user","isSnapshot":true,"fills":[newest first]}` first, then
 *   `{"user","fills":[fill]}` per fill (none twice, none missed around the snapshot).
 */
#include "alpha_ledger.hpp"

#include "../common/market_state.hpp"
#include "../common/upstream.hpp"
#include "../common/ws_hub.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::mocks::alpha {

/// What the feed reads from the router (the shapes `/info` answers).
class stream_source {
public:
    virtual ~stream_source() = default;
    /// `allMids` of a dex ("" main, "xyz"); nullopt for an unknown dex.
    virtual std::optional<boost::json::object> mids(std::string_view dex) const = 0;
    /// `l2Book` of a coin; nullopt for an unknown coin.
    virtual std::optional<boost::json::object> book(std::string_view coin,
                                                    std::optional<std::int64_t> sig_figs,
                                                    std::optional<std::int64_t> mantissa) const = 0;
    virtual bool known_interval(std::string_view interval) const = 0;
    /// The candle of `interval` holding `t`, when it has trades.
    virtual std::optional<boost::json::object> candle(std::size_t market, std::string_view interval,
                                                      std::int64_t t) const = 0;
    virtual std::vector<fill_record> fills(std::string const& user) const = 0;
    /// Re-quotes the engine's books and fires triggers (as a request would).
    virtual void sync() = 0;
};

/// One `recentTrades` / `trades` element.
boost::json::object trade_json(market_spec const& s, trade const& t);

class ws_feed : public std::enable_shared_from_this<ws_feed> {
public:
    ws_feed(ws_hub& hub, market_state& markets, stream_source& source,
            std::chrono::milliseconds book_interval);

    void start(boost::asio::any_io_executor const& ex);
    void stop();

    /// The handler of one accepted `/ws` connection.
    std::unique_ptr<ws_handler> make_handler(std::shared_ptr<ws_conn> const& conn);

    /// Walk step or mark move: mids and books follow (asynchronously, on the feed's strand).
    void on_market_change();
    /// A trade printed (under the market state's lock: formats and queues only).
    void on_trade(std::size_t market, trade const& t);
    /// An order change or fill (under the ledger's lock: formats and queues only).
    void on_ledger(ledger_event const& e);

    // For the connections (alpha_ws.cpp): the per-IP limits (an error text when refused).
    std::optional<std::string> admit(std::string const& peer,
                                     std::optional<std::string> const& user);
    void release_limits(std::string const& peer, std::optional<std::string> const& user);
    ws_hub& hub() noexcept { return hub_; }
    market_state& markets() noexcept { return markets_; }
    stream_source& source() noexcept { return source_; }
    /// A book topic's frame now; nullopt when its coin is unknown.
    std::optional<std::string> book_frame(std::string const& topic) const;

private:
    void publish_mids();
    void mark_books_dirty(std::optional<std::string> coin);
    void flush_books(); ///< on the strand

    ws_hub& hub_;
    market_state& markets_;
    stream_source& source_;
    std::chrono::milliseconds book_interval_;

    std::unique_ptr<boost::asio::steady_timer> timer_; ///< on strand_
    boost::asio::any_io_executor strand_;
    bool stopped_ = false;

    mutable std::mutex m_;
    std::set<std::string> dirty_; ///< book topics changed since their last push
    bool all_dirty_ = false;
    std::map<std::string, std::chrono::steady_clock::time_point> last_push_;
    bool flush_posted_ = false;
    bool timer_armed_ = false; ///< strand-only
    struct peer_use {
        std::size_t subscriptions = 0;
        std::map<std::string, std::size_t> users;
    };
    std::map<std::string, peer_use> peers_;
};

} // namespace gateway::mocks::alpha
