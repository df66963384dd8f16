#pragma once
/**
 * @file beta_streams.hpp
 * beta's live streams (perps_streams) over Aster's Binance-style WebSocket (upstreams/beta.md §9):
 * - market data on combined-stream connections (`/stream?streams=a/b`, then live SUBSCRIBE /
 *   UNSUBSCRIBE frames with ids, at most `max_control_per_second`, at most `max_streams` per
 *   connection): prices -> `!markPrice@arr@1s` (symbols named by their base asset, as the REST
 *   prices), trades -> `<s>@aggTrade`, orderbook -> `<s>@depth@100ms` kept as a local book synced
 *   against REST `/fapi/v3/depth` (beta.md §9.2: buffer, drop u < lastUpdateId, the first event
 *   U <= lastUpdateId <= u, then pu == the previous u, else resync), candles -> `<s>@kline_<i>`;
 * - orders and fills on the address's user-data stream (`/ws/<listenKey>`), the listen key made
 *   by the gateway's read signer (signed POST /fapi/v3/listenKey, kept alive by a signed PUT
 *   every 30 min): ORDER_TRADE_UPDATE keeps the open-orders list (seeded from REST) and its
 *   TRADE executions are the fills.
 * Payloads go through beta_map's REST mappings (an event is first put in its REST item's shape).
 */
#include "providers/beta/beta_network.hpp"
#include "providers/provider.hpp"
#include "streams/upstream_link.hpp"

#include <gateway/sign/secp256k1.hpp>
#include <gateway/stream/protocol.hpp>

#include <boost/json/value.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::beta {

struct stream_options {
    /// `wss://fstream.asterdex.com` (a trailing `/ws` is taken off): `/stream` and `/ws/<key>`
    /// are under it.
    std::string ws_base;
    std::string name = "beta";
    std::chrono::milliseconds stale_after{5000};
    streams::backoff retry;
    std::size_t max_streams = 200;           ///< per connection
    std::size_t max_control_per_second = 10; ///< SUBSCRIBE / UNSUBSCRIBE frames
    std::size_t max_connections = 10;        ///< market-data connections
    std::chrono::milliseconds listen_key_keepalive{30 * 60 * 1000};
    /// REST snapshots of one book at most this often while it cannot sync.
    std::chrono::milliseconds resync_interval{250};
    /// Levels a side of the REST depth snapshot a local book starts from (a `depth` limit):
    /// what the diff stream is relied on to keep current. Covers the deepest book a client may
    /// ask for (stream::subscription::max_depth); a deeper snapshot would hold levels no diff
    /// ever corrects (mock-beta follows 100 levels a side), and costs 20 weight instead of 5.
    unsigned book_levels = 100;
};

/// beta's streams over network `n`, on `ex`; `reads` serves the REST seeds, `read_signer` signs
/// the listen-key requests.
std::shared_ptr<perps_streams> make_perps_streams(boost::asio::any_io_executor ex,
                                                  std::shared_ptr<network> n,
                                                  std::shared_ptr<perps_reads> reads,
                                                  sign::private_key read_signer,
                                                  stream_options options);

/// Sets the stale threshold of streams made by `make_perps_streams` for connections opened from
/// now on; false for another object.
bool set_stale_after(perps_streams& s, std::chrono::milliseconds stale_after);

/// The wire half, pure (no I/O).
namespace ws {

/// The stream of a market subscription: `!markPrice@arr@1s`, `btcusdt@aggTrade`,
/// `btcusdt@depth@100ms`, `btcusdt@kline_1m`; "user" for orders and fills.
std::string stream_of(stream::subscription const& s);
/// `{"method":"SUBSCRIBE"|"UNSUBSCRIBE","params":[...],"id":id}`.
std::string control_frame(bool subscribe, std::vector<std::string> const& streams,
                          std::uint64_t id);
/// A combined-stream frame: `{"stream","data"}` is data of `stream`; answers to control frames
/// are ignored, their errors are errors.
streams::inbound read_combined(std::string_view text);
/// A user-data stream frame: every event is data of "user".
streams::inbound read_user(std::string_view text);

/// `!markPrice@arr` data into `prices` (perps of the universe, by base asset).
/// @par Errors UPSTREAM_ERROR.
result<void> merge_mark_prices(boost::json::value const& data, universe const& u,
                               price_map& prices);
/// `aggTrade` data -> the trade (the REST trades mapping). @par Errors UPSTREAM_ERROR.
result<std::vector<trade>> to_agg_trades(boost::json::value const& data);
/// `kline` data -> the candle (the REST klines mapping). @par Errors UPSTREAM_ERROR.
result<std::vector<candle>> to_kline(boost::json::value const& data);

/// A `depthUpdate` event.
struct depth_event {
    std::int64_t first = 0; ///< U
    std::int64_t last = 0;  ///< u
    std::int64_t prev = 0;  ///< pu
    std::int64_t time = 0;  ///< T, else E
    std::vector<std::pair<decimal, decimal>> bids, asks;
};
result<depth_event> to_depth_event(boost::json::value const& data);

/// A REST depth snapshot.
struct depth_snapshot {
    std::int64_t last_update_id = 0;
    std::int64_t time = 0;
    std::vector<std::pair<decimal, decimal>> bids, asks;
};
result<depth_snapshot> to_depth_snapshot(boost::json::value const& depth);

/**
 * The local order book of beta.md §9.2: events are buffered until a snapshot; then events with
 * u < lastUpdateId are dropped, the first applied one must have U <= lastUpdateId <= u, and
 * each later one pu == the previous u (an event already covered, u <= the previous u, is
 * dropped). Anything else is a gap: the book waits for a new snapshot, buffering again from the
 * event that showed the gap. Quantities are absolute; "0" removes the level.
 */
class depth_sync {
public:
    enum class step { buffered, dropped, applied, gap };

    /// A book keeping `levels` levels a side of each snapshot (the levels the diffs follow).
    explicit depth_sync(std::size_t levels = std::numeric_limits<std::size_t>::max())
        : levels_(levels) {}

    step on_event(depth_event e);
    /// Installs a snapshot (cut to `levels` a side) and replays the buffer: `applied` when an event
    /// applied (or none was buffered: the snapshot itself is the book), `gap` when the buffer does
    /// not continue it (fetch a newer one).
    step on_snapshot(depth_snapshot const& s);
    /// Forgets the book (a reconnect): events buffer until the next snapshot.
    void reset();

    bool synced() const noexcept { return have_snapshot_; }
    std::int64_t last_update_id() const noexcept { return last_u_; }
    std::size_t buffered() const noexcept { return buffer_.size(); }
    /// The book, `depth` levels a side (bids high to low, asks low to high).
    orderbook book(std::string const& symbol, std::size_t depth) const;

    static constexpr std::size_t max_buffer = 10000;

private:
    step apply(depth_event const& e);

    std::size_t levels_;
    bool have_snapshot_ = false;
    bool first_ = true; ///< the next applied event is the first after the snapshot
    std::int64_t snapshot_id_ = 0;
    std::int64_t last_u_ = 0;
    std::int64_t time_ = 0;
    std::vector<depth_event> buffer_;
    std::map<decimal, decimal, std::greater<>> bids_;
    std::map<decimal, decimal, std::less<>> asks_;
};

/// What one ORDER_TRADE_UPDATE means for the lists.
struct order_event {
    std::string order_id;
    std::optional<open_order> resting; ///< NEW / PARTIALLY_FILLED: the order as it rests now
    std::optional<fill> trade;         ///< x == TRADE: the fill
    std::int64_t time = 0;             ///< E
};
/// `ORDER_TRADE_UPDATE` -> the event (the REST openOrders / userTrades mappings).
/// @par Errors UPSTREAM_ERROR.
result<order_event> to_order_event(boost::json::value const& event, universe const& u);
/// Applies an event to an open-orders list (newest first): resting -> insert or update
/// (keeping the creation time), else remove.
void apply(std::vector<open_order>& orders, order_event const& e);

} // namespace ws

} // namespace gateway::server::beta
