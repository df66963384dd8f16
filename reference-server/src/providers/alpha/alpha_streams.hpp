#pragma once
/**
 * @file alpha_streams.hpp
 * alpha's live streams (perps_streams) over Hyperliquid's WebSocket (upstreams/alpha.md §7):
 * - prices    -> `allMids` (perps symbols only, as GET .../prices), must tick;
 * - trades    -> `trades` coin (new trades, newest first);
 * - orderbook -> `l2Book` coin, cut to `depth`, must tick; after a reconnect or a stale spell
 *   the REST book is read and delivered with `restored`, and pushes older than it are dropped;
 * - candles   -> `candle` coin + interval (the one candle that changed);
 * - orders    -> `orderUpdates` user: the address's whole open-orders list, seeded from the
 *   REST open orders (again after a reconnect), then kept by the updates;
 * - fills     -> `userFills` user: new fills; the `isSnapshot` message is not news (after a
 *   reconnect its fills not seen before are).
 * Every payload goes through alpha_map's mapping of the same REST shape.
 *
 * Upstream limits: at most `max_subscriptions` topics per connection and `max_connections`
 * connections; at most `max_users` distinct users across the account subscriptions (`check`
 * refuses the next with 400 VALIDATION_ERROR). `orderUpdates` messages do not name their user,
 * so a connection carries the orderUpdates of one user only.
 */
#include "providers/alpha/alpha_network.hpp"
#include "providers/provider.hpp"
#include "streams/upstream_link.hpp"

#include <gateway/stream/protocol.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::alpha {

struct stream_options {
    std::string ws_url; ///< `wss://api.hyperliquid.xyz/ws`
    std::string name = "alpha";
    std::chrono::milliseconds stale_after{5000};
    /// SDK-ts pings every 30 s and gives a pong 10 s (the upstream drops a silent client at 60 s).
    std::chrono::milliseconds ping_interval{30000};
    std::chrono::milliseconds pong_timeout{10000};
    streams::backoff retry;
    std::size_t max_subscriptions = 1000; ///< per connection (per IP upstream)
    std::size_t max_connections = 10;
    std::size_t max_users = 10; ///< distinct users of orders/fills subscriptions
};

/// alpha's streams over network `n`, on `ex`; `reads` serves the REST seeds and resyncs.
std::shared_ptr<perps_streams> make_perps_streams(boost::asio::any_io_executor ex,
                                                  std::shared_ptr<network> n,
                                                  std::shared_ptr<perps_reads> reads,
                                                  stream_options options);

/// Sets the stale threshold of streams made by `make_perps_streams` for links opened from now
/// on; false for another object.
bool set_stale_after(perps_streams& s, std::chrono::milliseconds stale_after);

/// The wire half, pure (no I/O): keys, frames and payload mappings.
namespace ws {

/// The upstream topic of a subscription: "allMids", "trades BTC", "l2Book BTC",
/// "candle BTC 1m", "orderUpdates 0x..", "userFills 0x..".
std::string topic_of(stream::subscription const& s);
/// The `subscription` object of a topic.
boost::json::object subscription_of(std::string_view topic);
/// `{"method":"subscribe"|"unsubscribe","subscription":{...}}`.
std::string control_frame(bool subscribe, std::string_view topic);
/// What a frame is; `order_user` names the user of this connection's orderUpdates.
streams::inbound read_frame(std::string_view text, std::string const& order_user);

/// One orderUpdates item.
struct order_update {
    open_order order;
    std::string status; ///< "open", "triggered", "filled", "canceled", ...
    std::int64_t status_time = 0;
};
/// `orderUpdates` data -> its items (spot coins left out). @par Errors UPSTREAM_ERROR.
result<std::vector<order_update>> to_order_updates(boost::json::value const& data);
/// Applies updates to an open-orders list (newest first): `open`/`triggered` insert or update
/// (keeping what the update does not carry: type, trigger price, reduce-only), anything else
/// removes.
void apply(std::vector<open_order>& orders, std::vector<order_update> const& updates);

/// A `userFills` message.
struct fills_message {
    bool snapshot = false;
    std::vector<fill> fills; ///< newest first
};
result<fills_message> to_fills_message(boost::json::value const& data, universe const& u);

} // namespace ws

} // namespace gateway::server::alpha
