// beta's live streams over Aster's WebSocket (see the header): combined-stream links for market
// data, one user-data link per address, the local depth book, and sources mapping the events
// through beta_map's REST mappings.
#include "providers/beta/beta_streams.hpp"

#include "log.hpp"

#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/providers/beta/weights.hpp>
#include <gateway/util/ascii.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <atomic>
#include <deque>
#include <limits>
#include <mutex>
#include <unordered_set>

namespace gateway::server::beta {

namespace ws {

namespace json = boost::json;

namespace {

api_error malformed(std::string_view what) {
    return make_error(errc::upstream_error,
                      "The beta upstream sent an unexpected " + std::string(what) + " event.");
}

json::value const* field(json::value const& v, std::string_view key) {
    auto const* o = v.if_object();
    return o ? o->if_contains(key) : nullptr;
}

std::optional<std::int64_t> int_at(json::value const& v, std::string_view key) {
    auto const* x = field(v, key);
    if (!x)
        return std::nullopt;
    if (auto n = json::try_value_to<std::int64_t>(*x))
        return *n;
    return std::nullopt;
}

std::string string_at(json::value const& v, std::string_view key) {
    auto const* x = field(v, key);
    return x && x->is_string() ? std::string(x->get_string()) : std::string();
}

/// A field copied as it is (or `fallback` when absent).
json::value copy_at(json::value const& v, std::string_view key,
                    json::value const& fallback = nullptr) {
    auto const* x = field(v, key);
    return x ? *x : fallback;
}

result<std::vector<std::pair<decimal, decimal>>> levels_of(json::value const* side,
                                                           std::string_view what) {
    if (!side || !side->is_array())
        return malformed(what);
    std::vector<std::pair<decimal, decimal>> out;
    for (auto const& l : side->get_array()) {
        auto const* pair = l.if_array();
        std::optional<decimal> px, qty;
        if (pair && pair->size() >= 2) {
            px = decimal::from_json_lenient((*pair)[0]);
            qty = decimal::from_json_lenient((*pair)[1]);
        }
        if (!px || !qty)
            return malformed(what);
        out.emplace_back(std::move(*px), std::move(*qty));
    }
    return out;
}

} // namespace

std::string stream_of(stream::subscription const& s) {
    auto const sym = util::to_lower(wire::beta::perp_symbol(s.symbol));
    switch (s.channel) {
    case stream::channel::prices:
        return "!markPrice@arr@1s";
    case stream::channel::trades:
        return sym + "@aggTrade";
    case stream::channel::orderbook:
        return sym + "@depth@100ms";
    case stream::channel::candles:
        return sym + "@kline_" + s.interval;
    case stream::channel::orders:
    case stream::channel::fills:
        return "user";
    }
    return {};
}

std::string control_frame(bool subscribe, std::vector<std::string> const& streams,
                          std::uint64_t id) {
    json::object f;
    f["method"] = subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE";
    json::array params;
    for (auto const& s : streams)
        params.emplace_back(s);
    f["params"] = std::move(params);
    f["id"] = id;
    return json::serialize(f);
}

streams::inbound read_combined(std::string_view text) {
    using streams::inbound;
    inbound in;
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object())
        return in;
    auto& o = v.as_object();
    if (auto const* err = o.if_contains("error")) {
        in.what = inbound::kind::error;
        in.text = json::serialize(*err);
        return in;
    }
    auto const* s = o.if_contains("stream");
    auto* data = o.if_contains("data");
    if (!s || !s->is_string() || !data)
        return in; // {"result":null,"id":1}
    in.what = inbound::kind::data;
    in.key = std::string(s->get_string());
    in.payload = std::make_shared<json::value const>(std::move(*data));
    return in;
}

streams::inbound read_user(std::string_view text) {
    using streams::inbound;
    inbound in;
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object())
        return in;
    in.what = inbound::kind::data;
    in.key = "user";
    in.payload = std::make_shared<json::value const>(std::move(v));
    return in;
}

result<void> merge_mark_prices(json::value const& data, universe const& u, price_map& prices) {
    json::array one;
    json::array const* list = data.if_array();
    if (!list && data.is_object()) { // `<s>@markPrice` sends one object
        one.push_back(data);
        list = &one;
    }
    if (!list)
        return malformed("markPriceUpdate");
    // The REST prices mapping, over the ticker shape {symbol, price}.
    json::array ticker;
    for (auto const& item : *list) {
        json::object t;
        t["symbol"] = copy_at(item, "s");
        t["price"] = copy_at(item, "p");
        ticker.push_back(std::move(t));
    }
    auto mapped = to_prices(ticker, u, venue::futures);
    if (!mapped)
        return mapped.error();
    for (auto& [k, p] : *mapped)
        prices.insert_or_assign(k, std::move(p));
    return {};
}

result<std::vector<trade>> to_agg_trades(json::value const& data) {
    json::object t; // the REST trades item
    t["id"] = copy_at(data, "a");
    t["price"] = copy_at(data, "p");
    t["qty"] = copy_at(data, "q");
    t["time"] = copy_at(data, "T", copy_at(data, "E"));
    t["isBuyerMaker"] = copy_at(data, "m");
    json::array one;
    one.push_back(std::move(t));
    return to_trades(one, std::numeric_limits<std::size_t>::max());
}

result<std::vector<candle>> to_kline(json::value const& data) {
    auto const* k = field(data, "k");
    if (!k)
        return malformed("kline");
    json::array row; // the REST klines row
    for (auto const* key : {"t", "o", "h", "l", "c", "v"})
        row.push_back(copy_at(*k, key));
    json::array one;
    one.push_back(std::move(row));
    return to_candles(one);
}

result<depth_event> to_depth_event(json::value const& data) {
    depth_event e;
    auto U = int_at(data, "U"), u = int_at(data, "u"), pu = int_at(data, "pu");
    if (!U || !u || !pu)
        return malformed("depthUpdate");
    e.first = *U;
    e.last = *u;
    e.prev = *pu;
    e.time = int_at(data, "T").value_or(int_at(data, "E").value_or(0));
    auto bids = levels_of(field(data, "b"), "depthUpdate");
    if (!bids)
        return bids.error();
    auto asks = levels_of(field(data, "a"), "depthUpdate");
    if (!asks)
        return asks.error();
    e.bids = std::move(*bids);
    e.asks = std::move(*asks);
    return e;
}

result<depth_snapshot> to_depth_snapshot(json::value const& depth) {
    depth_snapshot s;
    auto id = int_at(depth, "lastUpdateId");
    if (!id)
        return make_error(errc::upstream_error,
                          "The beta upstream answered a depth without lastUpdateId.");
    s.last_update_id = *id;
    s.time = int_at(depth, "T").value_or(int_at(depth, "E").value_or(0));
    auto bids = levels_of(field(depth, "bids"), "depth");
    if (!bids)
        return bids.error();
    auto asks = levels_of(field(depth, "asks"), "depth");
    if (!asks)
        return asks.error();
    s.bids = std::move(*bids);
    s.asks = std::move(*asks);
    return s;
}

// ---------------------------------------------------------------------------------------------
// depth_sync

depth_sync::step depth_sync::on_event(depth_event e) {
    if (!have_snapshot_) {
        if (buffer_.size() >= max_buffer)
            buffer_.erase(buffer_.begin());
        buffer_.push_back(std::move(e));
        return step::buffered;
    }
    if (first_) {
        if (e.last < snapshot_id_)
            return step::dropped;
        if (e.first > snapshot_id_) {
            reset();
            buffer_.push_back(std::move(e));
            return step::gap;
        }
        first_ = false;
        return apply(e);
    }
    if (e.last <= last_u_)
        return step::dropped; // already in the book
    if (e.prev != last_u_) {
        reset();
        buffer_.push_back(std::move(e));
        return step::gap;
    }
    return apply(e);
}

depth_sync::step depth_sync::on_snapshot(depth_snapshot const& s) {
    bids_.clear();
    asks_.clear();
    // Levels past `levels_` stay out: no diff would correct them.
    for (auto& [p, q] : s.bids)
        if (bids_.size() < levels_ && !q.is_zero())
            bids_.insert_or_assign(std::move(p), std::move(q));
    for (auto& [p, q] : s.asks)
        if (asks_.size() < levels_ && !q.is_zero())
            asks_.insert_or_assign(std::move(p), std::move(q));
    have_snapshot_ = true;
    first_ = true;
    snapshot_id_ = s.last_update_id;
    last_u_ = s.last_update_id;
    time_ = s.time;
    auto pending = std::move(buffer_);
    buffer_.clear();
    for (std::size_t i = 0; i < pending.size(); ++i) {
        if (on_event(std::move(pending[i])) == step::gap) {
            // Keep what followed the gap for the next snapshot.
            for (std::size_t j = i + 1; j < pending.size(); ++j)
                buffer_.push_back(std::move(pending[j]));
            return step::gap;
        }
    }
    return step::applied;
}

void depth_sync::reset() {
    have_snapshot_ = false;
    first_ = true;
    buffer_.clear();
}

depth_sync::step depth_sync::apply(depth_event const& e) {
    for (auto const& [p, q] : e.bids) {
        if (q.is_zero())
            bids_.erase(p);
        else
            bids_.insert_or_assign(p, q);
    }
    for (auto const& [p, q] : e.asks) {
        if (q.is_zero())
            asks_.erase(p);
        else
            asks_.insert_or_assign(p, q);
    }
    last_u_ = e.last;
    time_ = std::max(time_, e.time);
    return step::applied;
}

orderbook depth_sync::book(std::string const& symbol, std::size_t depth) const {
    orderbook b;
    b.symbol = symbol;
    b.timestamp = time_;
    for (auto const& [p, q] : bids_) {
        if (b.bids.size() >= depth)
            break;
        b.bids.push_back({p, q});
    }
    for (auto const& [p, q] : asks_) {
        if (b.asks.size() >= depth)
            break;
        b.asks.push_back({p, q});
    }
    return b;
}

// ---------------------------------------------------------------------------------------------
// ORDER_TRADE_UPDATE

result<order_event> to_order_event(json::value const& event, universe const& u) {
    auto const* o = field(event, "o");
    if (!o || !o->is_object())
        return malformed("ORDER_TRADE_UPDATE");
    order_event out;
    out.time = int_at(event, "E").value_or(0);
    auto const id = copy_at(*o, "i");
    out.order_id = id.is_string() ? std::string(id.get_string()) : json::serialize(id);
    auto const status = string_at(*o, "X");
    auto const when = copy_at(*o, "T", copy_at(event, "E"));
    if (status == "NEW" || status == "PARTIALLY_FILLED") {
        json::object r; // the REST openOrders item
        r["orderId"] = id;
        r["symbol"] = copy_at(*o, "s");
        r["side"] = copy_at(*o, "S");
        r["type"] = copy_at(*o, "o");
        r["clientOrderId"] = copy_at(*o, "c", "");
        r["price"] = copy_at(*o, "p", "0");
        r["stopPrice"] = copy_at(*o, "sp", "0");
        if (auto const* ap = field(*o, "AP"))
            r["activatePrice"] = *ap;
        if (auto const* cr = field(*o, "cr"))
            r["priceRate"] = *cr;
        r["origQty"] = copy_at(*o, "q");
        r["executedQty"] = copy_at(*o, "z", "0");
        r["reduceOnly"] = copy_at(*o, "R", false);
        r["time"] = when;
        r["updateTime"] = when;
        json::array one;
        one.push_back(std::move(r));
        auto mapped = to_open_orders(one, u);
        if (!mapped)
            return mapped.error();
        out.resting = std::move(mapped->front());
    }
    if (string_at(*o, "x") == "TRADE") {
        json::object t; // the REST userTrades item
        t["id"] = copy_at(*o, "t");
        t["orderId"] = id;
        t["symbol"] = copy_at(*o, "s");
        t["side"] = copy_at(*o, "S");
        t["price"] = copy_at(*o, "L");
        t["qty"] = copy_at(*o, "l");
        t["commission"] = copy_at(*o, "n", "0");
        t["commissionAsset"] = copy_at(*o, "N", "USDT");
        t["maker"] = copy_at(*o, "m", false);
        t["realizedPnl"] = copy_at(*o, "rp", "0");
        t["time"] = when;
        json::array one;
        one.push_back(std::move(t));
        auto mapped = to_fills(one, u);
        if (!mapped)
            return mapped.error();
        out.trade = std::move(mapped->front());
    }
    return out;
}

void apply(std::vector<open_order>& orders, order_event const& e) {
    auto it = std::find_if(orders.begin(), orders.end(),
                           [&](open_order const& o) { return o.order_id == e.order_id; });
    if (!e.resting) {
        if (it != orders.end())
            orders.erase(it);
        return;
    }
    if (it != orders.end()) {
        auto const created = it->timestamp; // the event's time is the update's
        *it = *e.resting;
        it->timestamp = created;
    } else {
        orders.push_back(*e.resting);
    }
    std::stable_sort(orders.begin(), orders.end(), [](open_order const& a, open_order const& b) {
        return a.timestamp > b.timestamp;
    });
}

} // namespace ws

// ---------------------------------------------------------------------------------------------
// Links, sources and the pool

namespace stream_impl {

namespace asio = boost::asio;
namespace json = boost::json;
namespace w = wire::beta;
using stream::stream_status;
using payload_ptr = std::shared_ptr<json::value const>;
using strand_t = asio::strand<asio::any_io_executor>;
using namespace std::chrono_literals;

/// The listen-key requests, signed by the read signer for `user` (beta.md §9.3).
struct listen_keys {
    std::shared_ptr<network> n;
    std::shared_ptr<sign::private_key const> key;

    asio::awaitable<result<std::string>> request(boost::beast::http::verb method,
                                                 address user) const {
        upstream_call call;
        call.method = method;
        call.target = std::string(w::futures_prefix) + "listenKey";
        call.weight = 1;
        call.idempotent = false;
        call.key = "listenKey " + user.str() + " " + std::to_string(static_cast<int>(method)) +
                   " " + std::to_string(counter_++);
        call.content_type = "application/x-www-form-urlencoded";
        auto const signer = n->read_signer();
        call.finalize = [key = key, user, signer,
                         testnet = n->options().testnet](upstream_call& c) {
            auto const msg = w::signed_message({}, sign::beta::next_read_nonce_us(), user, signer);
            c.body = msg + "&signature=" + sign::beta::sign_message(msg, *key, testnet);
        };
        auto answer = co_await n->futures().write(std::move(call));
        if (!answer)
            co_return answer.error();
        if (answer->status / 100 != 2)
            co_return read_error(n->name(), *answer, signer);
        auto const* o = answer->body.if_object();
        auto const* k = o ? o->if_contains("listenKey") : nullptr;
        if (k && k->is_string())
            co_return std::string(k->get_string());
        if (method != boost::beast::http::verb::post)
            co_return std::string(); // a keepalive answers {}
        co_return make_error(errc::upstream_error,
                             "The " + n->name() + " upstream answered no listen key.");
    }

private:
    static inline std::atomic<std::uint64_t> counter_{0};
};

std::string ws_base_of(std::string base) {
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/ws") == 0)
        base.resize(base.size() - 3);
    return base;
}

/// Combined streams: the URL subscribes the first streams, SUBSCRIBE frames the rest.
class combined_protocol final : public streams::link_protocol {
public:
    combined_protocol(std::string base, std::size_t max_streams)
        : base_(std::move(base))
        , max_(max_streams) {}

    asio::awaitable<result<streams::connect_target>>
    connect_url(std::vector<std::string> keys) override {
        streams::connect_target t;
        t.url = base_ + "/stream";
        std::string list;
        // The URL stays short; SUBSCRIBE frames take the rest.
        constexpr std::size_t max_in_url = 50;
        for (auto const& k : keys) {
            if (t.covered >= std::min(max_in_url, max_))
                break;
            list += (list.empty() ? "" : "/") + k;
            ++t.covered;
        }
        if (!list.empty())
            t.url += "?streams=" + list;
        co_return t;
    }
    std::vector<std::string> subscribe_frames(std::vector<std::string> const& keys) override {
        return frames(true, keys);
    }
    std::vector<std::string> unsubscribe_frames(std::vector<std::string> const& keys) override {
        return frames(false, keys);
    }
    streams::inbound read(std::string_view text) const override { return ws::read_combined(text); }

private:
    std::vector<std::string> frames(bool subscribe, std::vector<std::string> const& keys) {
        std::vector<std::string> out;
        for (std::size_t i = 0; i < keys.size(); i += max_) {
            std::vector<std::string> part(
                keys.begin() + static_cast<std::ptrdiff_t>(i),
                keys.begin() + static_cast<std::ptrdiff_t>(std::min(keys.size(), i + max_)));
            out.push_back(ws::control_frame(subscribe, part, ++id_));
        }
        return out;
    }

    std::string base_;
    std::size_t max_;
    std::uint64_t id_ = 0;
};

/// A user-data stream: connecting makes (or extends) the listen key.
class user_protocol final : public streams::link_protocol {
public:
    user_protocol(std::string base, listen_keys keys, address user)
        : base_(std::move(base))
        , keys_(std::move(keys))
        , user_(std::move(user)) {}

    asio::awaitable<result<streams::connect_target>>
    connect_url(std::vector<std::string> wanted) override {
        auto key = co_await keys_.request(boost::beast::http::verb::post, user_);
        if (!key)
            co_return key.error();
        co_return streams::connect_target{base_ + "/ws/" + *key, wanted.size()};
    }
    std::vector<std::string> subscribe_frames(std::vector<std::string> const&) override {
        return {};
    }
    std::vector<std::string> unsubscribe_frames(std::vector<std::string> const&) override {
        return {};
    }
    streams::inbound read(std::string_view text) const override { return ws::read_user(text); }

private:
    std::string base_;
    listen_keys keys_;
    address user_;
};

call_context stream_context(network const& n) {
    call_context ctx;
    ctx.testnet = n.options().testnet;
    ctx.request_id = "stream";
    return ctx;
}

struct source_env {
    std::shared_ptr<network> n;
    std::shared_ptr<perps_reads> reads;
    std::string name;
    std::chrono::milliseconds resync_interval{250};
    unsigned book_levels = 100;
    /// Whose upstream share the REST seeds spend: the opener's on user channels (CONTRACT 3).
    std::optional<std::int64_t> account;
};

void log_drop(source_env const& env, std::string_view what, api_error const& e) {
    log::warn("msg=\"stream message dropped\" upstream=\"" + env.name + "\" topic=\"" +
              std::string(what) + "\" reason=\"" + e.message + "\"");
}

/// Sources needing the universe load it once.
class universe_source : public streams::source {
public:
    universe_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env)
        : source(std::move(s), std::move(k))
        , env_(std::move(env)) {}

protected:
    asio::awaitable<network::universe_ptr> known() {
        if (!universe_) {
            auto u = co_await env_.n->markets();
            if (u)
                universe_ = *u;
            else
                log_drop(env_, "universe", u.error());
        }
        co_return universe_;
    }
    source_env env_;
    network::universe_ptr universe_;
};

class prices_source final : public universe_source {
public:
    using universe_source::universe_source;

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto u = co_await known();
        if (!u)
            co_return;
        if (auto ok = ws::merge_mark_prices(*data, *u, prices_); !ok)
            log_drop(env_, "markPrice", ok.error());
        else
            sink().data(prices_);
    }
    price_map prices_;
};

class trades_source final : public universe_source {
public:
    using universe_source::universe_source;

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto t = ws::to_agg_trades(*data);
        if (!t)
            log_drop(env_, "aggTrade", t.error());
        else
            sink().data(std::move(*t));
        co_return;
    }
};

class candles_source final : public universe_source {
public:
    using universe_source::universe_source;

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto c = ws::to_kline(*data);
        if (!c)
            log_drop(env_, "kline", c.error());
        else
            sink().data(std::move(*c));
        co_return;
    }
};

/// The local depth book, synced against REST snapshots; `restored` (after a reconnect or a
/// stale spell) waits for the book to be synced again and comes with it.
class book_source final : public universe_source {
public:
    book_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env,
                std::string symbol, unsigned depth)
        : universe_source(std::move(s), std::move(k), std::move(env))
        , symbol_(std::move(symbol))
        , depth_(depth)
        , sync_(env_.book_levels) {}

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto e = ws::to_depth_event(*data);
        if (!e) {
            log_drop(env_, "depthUpdate", e.error());
            co_return;
        }
        auto const was_synced = sync_.synced();
        auto const step = sync_.on_event(std::move(*e));
        if (step == ws::depth_sync::step::applied) {
            deliver();
            co_return;
        }
        if (step == ws::depth_sync::step::gap && was_synced && !pending_restored_) {
            pending_restored_ = "The " + env_.name + " order book is synchronised again.";
            sink().status(stream_status::stale, "The " + env_.name +
                                                    " order book skipped an update; "
                                                    "resynchronising from a snapshot.");
        }
        if (!sync_.synced())
            co_await resync();
    }

    asio::awaitable<void> on_status(stream_status s, std::string message) override {
        if (s != stream_status::restored) {
            sink().status(s, std::move(message));
            co_return;
        }
        // The stream starts over: a new snapshot once events arrive again.
        sync_.reset();
        pending_restored_ = std::move(message);
    }

    asio::awaitable<void> resync() {
        auto const now = std::chrono::steady_clock::now();
        if (now - last_fetch_ < env_.resync_interval)
            co_return; // the next event tries again
        last_fetch_ = now;
        query_params q{
            {"symbol", w::perp_symbol(symbol_)},
            {"limit", std::to_string(
                          w::depth_limit_for(env_.book_levels).value_or(w::depth_limits.back()))}};
        std::string const path = std::string(w::futures_prefix) + "depth";
        auto f = env_.n->start_get(venue::futures, path, std::move(q), 0ms);
        auto const answer = co_await f->wait();
        if (!*answer) {
            log_drop(env_, "depth snapshot", answer->error());
            co_return;
        }
        auto snap = ws::to_depth_snapshot(**answer);
        if (!snap) {
            log_drop(env_, "depth snapshot", snap.error());
            co_return;
        }
        if (sync_.on_snapshot(std::move(*snap)) == ws::depth_sync::step::applied)
            deliver();
    }

    void deliver() {
        if (pending_restored_) {
            sink().status(stream_status::restored, std::move(*pending_restored_));
            pending_restored_.reset();
        }
        sink().data(sync_.book(symbol_, depth_));
    }

    std::string symbol_;
    unsigned depth_;
    ws::depth_sync sync_;
    std::optional<std::string> pending_restored_;
    std::chrono::steady_clock::time_point last_fetch_{};
};

/// ORDER_TRADE_UPDATE -> the open-orders list (seeded from REST, again after a reconnect).
class orders_source final : public universe_source {
public:
    orders_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env,
                  address user, std::weak_ptr<streams::upstream_link> link)
        : universe_source(std::move(s), std::move(k), std::move(env))
        , user_(std::move(user))
        , link_(std::move(link)) {}

private:
    asio::awaitable<void> on_start() override { co_await seed(); }

    asio::awaitable<void> on_data(payload_ptr data) override {
        auto const* o = data->if_object();
        auto const* e_field = o ? o->if_contains("e") : nullptr;
        std::string_view const type =
            e_field && e_field->is_string() ? std::string_view(e_field->get_string()) : "";
        if (type == "listenKeyExpired") {
            if (auto l = link_.lock())
                l->reconnect(); // connecting makes a new key
            co_return;
        }
        if (type != "ORDER_TRADE_UPDATE")
            co_return;
        auto u = co_await known();
        if (!u)
            co_return;
        auto e = ws::to_order_event(*data, *u);
        if (!e) {
            log_drop(env_, "ORDER_TRADE_UPDATE", e.error());
            co_return;
        }
        if (e->time && e->time < seeded_at_)
            co_return; // the seed has it
        ws::apply(orders_, *e);
        sink().data(orders_);
    }

    asio::awaitable<void> on_status(stream_status s, std::string message) override {
        sink().status(s, std::move(message));
        if (s == stream_status::restored)
            co_await seed();
    }

    asio::awaitable<void> seed() {
        auto ctx = stream_context(*env_.n);
        ctx.now_ms = env_.n->futures().time().now_ms();
        ctx.account = env_.account;
        auto list = co_await env_.reads->open_orders(ctx, user_);
        if (!list) {
            log_drop(env_, "open orders seed", list.error());
            co_return;
        }
        seeded_at_ = ctx.now_ms;
        orders_ = std::move(*list);
        sink().data(orders_);
    }

    address user_;
    std::weak_ptr<streams::upstream_link> link_;
    std::vector<open_order> orders_;
    std::int64_t seeded_at_ = 0;
};

/// ORDER_TRADE_UPDATE executions (x = TRADE) -> new fills.
class fills_source final : public universe_source {
public:
    using universe_source::universe_source;

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto const* o = data->if_object();
        auto const* type = o ? o->if_contains("e") : nullptr;
        if (!type || !type->is_string() || type->get_string() != "ORDER_TRADE_UPDATE")
            co_return;
        auto u = co_await known();
        if (!u)
            co_return;
        auto e = ws::to_order_event(*data, *u);
        if (!e) {
            log_drop(env_, "ORDER_TRADE_UPDATE", e.error());
            co_return;
        }
        if (!e->trade || !seen_.insert(e->trade->id + "/" + e->order_id).second)
            co_return;
        order_.push_back(e->trade->id + "/" + e->order_id);
        if (order_.size() > 20000) {
            seen_.erase(order_.front());
            order_.pop_front();
        }
        std::vector<fill> one{std::move(*e->trade)};
        sink().data(std::move(one));
    }

    std::unordered_set<std::string> seen_;
    std::deque<std::string> order_;
};

/// One address's user-data link and its listen-key keepalive.
struct user_slot {
    std::shared_ptr<streams::upstream_link> link;
    std::shared_ptr<asio::steady_timer> timer;
    ~user_slot() {
        if (timer)
            timer->cancel();
    }
};

// cppcheck-suppress passedByValue
asio::awaitable<void> keep_alive(std::shared_ptr<asio::steady_timer> timer, listen_keys keys,
                                 address user, std::chrono::milliseconds every,
                                 std::weak_ptr<user_slot> slot) {
    for (;;) {
        timer->expires_after(every);
        boost::system::error_code ec;
        co_await timer->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (ec || slot.expired())
            co_return;
        auto ok = co_await keys.request(boost::beast::http::verb::put, user);
        if (!ok)
            log::warn("msg=\"listen key keepalive failed\" reason=\"" + ok.error().message + "\"");
    }
}

class beta_streams final : public perps_streams, public std::enable_shared_from_this<beta_streams> {
public:
    beta_streams(asio::any_io_executor ex, std::shared_ptr<network> n,
                 std::shared_ptr<perps_reads> reads, sign::private_key key, stream_options o)
        : ex_(std::move(ex))
        , n_(std::move(n))
        , reads_(std::move(reads))
        , keys_{n_, std::make_shared<sign::private_key const>(std::move(key))}
        , options_(std::move(o)) {
        options_.ws_base = ws_base_of(options_.ws_base);
    }

    async_result<bool> check(call_context const&, stream::subscription const& s) override {
        if (s.channel == stream::channel::orders || s.channel == stream::channel::fills) {
            // The listen key is the account's approval of the read signer, asked once.
            auto user = address::parse(s.address);
            if (!user)
                co_return user.error();
            auto key = co_await keys_.request(boost::beast::http::verb::post, *user);
            if (!key)
                co_return key.error();
            co_return true;
        }
        if (s.channel == stream::channel::prices)
            co_return true;
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        if (!(*known)->find_perp(s.symbol))
            co_return make_error(errc::market_not_found,
                                 "Unknown perps market '" + s.symbol + "' on " + n_->name() +
                                     " (perps, stock and commodity perps are named by their base "
                                     "asset: BTC, TSLA, XAU).");
        co_return true;
    }

    std::shared_ptr<void> open(stream::subscription const& s, stream_sink sink,
                               std::optional<std::int64_t> account) override {
        auto guarded = std::make_shared<streams::guarded_sink>(std::move(sink));
        auto handle = std::make_shared<streams::stream_handle>();
        handle->sink = guarded;
        bool const user_channel =
            s.channel == stream::channel::orders || s.channel == stream::channel::fills;
        source_env env{n_,
                       reads_,
                       options_.name,
                       options_.resync_interval,
                       options_.book_levels,
                       user_channel ? account : std::nullopt};
        auto const key = ws::stream_of(s);
        std::shared_ptr<streams::upstream_link> link;
        std::shared_ptr<streams::source> src;
        bool must_tick = false;
        if (s.channel == stream::channel::orders || s.channel == stream::channel::fills) {
            auto user = *address::parse(s.address);
            auto slot = user_link(user);
            handle->keep.push_back(slot);
            link = slot->link;
            if (s.channel == stream::channel::orders)
                src = std::make_shared<orders_source>(link->strand(), guarded, env, user, link);
            else
                src = std::make_shared<fills_source>(link->strand(), guarded, env);
        } else {
            link = market_link(key);
            switch (s.channel) {
            case stream::channel::prices:
                src = std::make_shared<prices_source>(link->strand(), guarded, env);
                must_tick = true;
                break;
            case stream::channel::trades:
                src = std::make_shared<trades_source>(link->strand(), guarded, env);
                break;
            case stream::channel::orderbook:
                src = std::make_shared<book_source>(link->strand(), guarded, env, s.symbol,
                                                    s.depth ? s.depth
                                                            : stream::subscription::default_depth);
                must_tick = true;
                break;
            default:
                src = std::make_shared<candles_source>(link->strand(), guarded, env);
                break;
            }
        }
        src->start();
        handle->keep.push_back(link->subscribe(key, must_tick, src->listener()));
        return handle;
    }

    void set_stale_after(std::chrono::milliseconds d) {
        std::lock_guard lock(m_);
        options_.stale_after = d;
    }

private:
    streams::link_options link_options() const {
        streams::link_options lo;
        lo.name = options_.name;
        lo.stale_after = options_.stale_after;
        lo.retry = options_.retry;
        lo.max_control_per_second = options_.max_control_per_second;
        lo.connect.session.peer_timeout = std::chrono::seconds(60);
        lo.pacer = pacer_;
        return lo;
    }

    std::shared_ptr<streams::upstream_link> market_link(std::string const& key) {
        std::lock_guard lock(m_);
        using link_ptr = std::shared_ptr<streams::upstream_link>;
        return streams::pick_link(
            market_, key, [](link_ptr const& l) { return l; },
            [&](link_ptr const& l) { return l->topic_count() < options_.max_streams; },
            options_.max_connections,
            [&] {
                auto proto =
                    std::make_shared<combined_protocol>(options_.ws_base, options_.max_streams);
                return streams::upstream_link::create(ex_, proto, link_options());
            },
            options_.name);
    }

    std::shared_ptr<user_slot> user_link(address const& user) {
        std::lock_guard lock(m_);
        auto& weak = users_[user.str()];
        if (auto slot = weak.lock())
            return slot;
        std::erase_if(users_, [](auto const& kv) { return kv.second.expired(); });
        auto slot = std::make_shared<user_slot>();
        auto proto = std::make_shared<user_protocol>(options_.ws_base, keys_, user);
        auto lo = link_options();
        lo.max_control_per_second = 0;
        slot->link = streams::upstream_link::create(ex_, proto, lo);
        slot->timer = std::make_shared<asio::steady_timer>(ex_);
        asio::co_spawn(ex_,
                       keep_alive(slot->timer, keys_, user, options_.listen_key_keepalive, slot),
                       asio::detached);
        users_[user.str()] = slot;
        return slot;
    }

    asio::any_io_executor ex_;
    std::shared_ptr<network> n_;
    std::shared_ptr<perps_reads> reads_;
    listen_keys keys_;
    stream_options options_;
    std::mutex m_;
    std::vector<std::shared_ptr<streams::upstream_link>> market_;
    std::map<std::string, std::weak_ptr<user_slot>> users_;
    /// beta documents no connection rate: alpha's 30 a minute, conservatively.
    std::shared_ptr<streams::connect_pacer> pacer_ =
        std::make_shared<streams::connect_pacer>(30, std::chrono::minutes(1));
};

} // namespace stream_impl

std::shared_ptr<perps_streams> make_perps_streams(boost::asio::any_io_executor ex,
                                                  std::shared_ptr<network> n,
                                                  std::shared_ptr<perps_reads> reads,
                                                  sign::private_key read_signer,
                                                  stream_options options) {
    return std::make_shared<stream_impl::beta_streams>(
        std::move(ex), std::move(n), std::move(reads), std::move(read_signer), std::move(options));
}

bool set_stale_after(perps_streams& s, std::chrono::milliseconds stale_after) {
    auto* b = dynamic_cast<stream_impl::beta_streams*>(&s);
    if (!b)
        return false;
    b->set_stale_after(stale_after);
    return true;
}

} // namespace gateway::server::beta
