// alpha's live streams over Hyperliquid's WebSocket (see the header): topics placed on a pool of
// upstream links within the upstream's limits, and one source per subscription mapping the
// pushes through alpha_map into the REST types.
#include "providers/alpha/alpha_streams.hpp"

#include "log.hpp"

#include <gateway/util/ascii.hpp>

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <unordered_set>

namespace gateway::server::alpha {

namespace asio = boost::asio;
namespace json = boost::json;
using stream::stream_status;

// ---------------------------------------------------------------------------------------------
// The wire half

namespace ws {

namespace {

std::vector<std::string_view> split(std::string_view key) {
    std::vector<std::string_view> out;
    while (!key.empty()) {
        auto const sp = key.find(' ');
        out.push_back(key.substr(0, sp));
        if (sp == std::string_view::npos)
            break;
        key.remove_prefix(sp + 1);
    }
    return out;
}

std::string string_at(json::value const& v, std::string_view key) {
    auto const* o = v.if_object();
    auto const* x = o ? o->if_contains(key) : nullptr;
    return x && x->is_string() ? std::string(x->get_string()) : std::string();
}

/// Spot coins (`@1`, `PURR/USDC`) are never perps symbols.
bool spot_coin(std::string_view coin) {
    return coin.starts_with('@') || coin.find('/') != std::string_view::npos;
}

} // namespace

std::string topic_of(stream::subscription const& s) {
    switch (s.channel) {
    case stream::channel::prices:
        return "allMids";
    case stream::channel::trades:
        return "trades " + s.symbol;
    case stream::channel::orderbook:
        return "l2Book " + s.symbol;
    case stream::channel::candles:
        return "candle " + s.symbol + " " + s.interval;
    case stream::channel::orders:
        return "orderUpdates " + util::to_lower(s.address);
    case stream::channel::fills:
        return "userFills " + util::to_lower(s.address);
    }
    return {};
}

json::object subscription_of(std::string_view topic) {
    auto const parts = split(topic);
    json::object o;
    if (parts.empty())
        return o;
    o["type"] = parts[0];
    if (parts[0] == "trades" || parts[0] == "l2Book" || parts[0] == "candle") {
        if (parts.size() > 1)
            o["coin"] = parts[1];
        if (parts[0] == "candle" && parts.size() > 2)
            o["interval"] = parts[2];
    } else if (parts[0] == "orderUpdates" || parts[0] == "userFills") {
        if (parts.size() > 1)
            o["user"] = parts[1];
    }
    return o;
}

std::string control_frame(bool subscribe, std::string_view topic) {
    json::object f;
    f["method"] = subscribe ? "subscribe" : "unsubscribe";
    f["subscription"] = subscription_of(topic);
    return json::serialize(f);
}

streams::inbound read_frame(std::string_view text, std::string const& order_user) {
    using streams::inbound;
    inbound in;
    boost::system::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_object())
        return in; // e.g. the greeting "Websocket connection established."
    auto const ch = string_at(v, "channel");
    auto* data = v.as_object().if_contains("data");
    if (ch == "pong") {
        in.what = inbound::kind::pong;
        return in;
    }
    if (ch == "error") {
        in.what = inbound::kind::error;
        in.text = data && data->is_string() ? std::string(data->get_string())
                                            : (data ? json::serialize(*data) : std::string());
        return in;
    }
    if (!data)
        return in;
    if (ch == "allMids") {
        in.key = "allMids";
    } else if (ch == "trades") {
        auto const* arr = data->if_array();
        if (!arr || arr->empty())
            return in;
        in.key = "trades " + string_at(arr->front(), "coin");
    } else if (ch == "l2Book") {
        in.key = "l2Book " + string_at(*data, "coin");
    } else if (ch == "candle") {
        in.key = "candle " + string_at(*data, "s") + " " + string_at(*data, "i");
    } else if (ch == "orderUpdates") {
        if (order_user.empty())
            return in;
        in.key = "orderUpdates " + order_user;
    } else if (ch == "userFills") {
        in.key = "userFills " + util::to_lower(string_at(*data, "user"));
    } else {
        return in; // subscriptionResponse, post, channels nobody asked for
    }
    in.what = inbound::kind::data;
    in.payload = std::make_shared<json::value const>(std::move(*data));
    return in;
}

result<std::vector<order_update>> to_order_updates(json::value const& data) {
    auto const* arr = data.if_array();
    if (!arr)
        return make_error(errc::upstream_error,
                          "The alpha upstream answered an unexpected shape for orderUpdates.");
    std::vector<order_update> out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        auto const* item = (*arr)[i].if_object();
        auto const* order = item ? item->if_contains("order") : nullptr;
        auto const status = string_at((*arr)[i], "status");
        if (!order || status.empty())
            return make_error(errc::upstream_error,
                              "The alpha upstream answered an unexpected shape for orderUpdates[" +
                                  std::to_string(i) + "].");
        json::array one;
        one.push_back(*order);
        auto mapped = to_open_orders(one); // the REST open order's mapping
        if (!mapped)
            return mapped.error();
        if (mapped->empty() || spot_coin(mapped->front().symbol))
            continue;
        order_update u;
        u.order = std::move(mapped->front());
        u.status = status;
        if (auto const* t = item->if_contains("statusTimestamp"))
            if (auto n = json::try_value_to<std::int64_t>(*t))
                u.status_time = *n;
        out.push_back(std::move(u));
    }
    return out;
}

void apply(std::vector<open_order>& orders, std::vector<order_update> const& updates) {
    for (auto const& u : updates) {
        auto it = std::find_if(orders.begin(), orders.end(),
                               [&](open_order const& o) { return o.order_id == u.order.order_id; });
        bool const resting = u.status == "open" || u.status == "triggered";
        if (!resting) {
            if (it != orders.end())
                orders.erase(it);
            continue;
        }
        open_order next = u.order;
        if (u.status == "triggered")
            next.status = open_order_status::triggered;
        if (it != orders.end()) {
            // An update carries no order type, trigger or reduce-only: keep what is known.
            next.type = it->type;
            next.trigger_price = it->trigger_price;
            next.reduce_only = it->reduce_only;
            next.client_order_id =
                next.client_order_id ? next.client_order_id : it->client_order_id;
            if (next.type == order_type::market || next.type == order_type::stop_market)
                next.price.reset();
            if (u.status != "triggered" && it->status == open_order_status::triggered)
                next.status = open_order_status::triggered;
            *it = std::move(next);
        } else {
            orders.push_back(std::move(next));
        }
    }
    std::stable_sort(orders.begin(), orders.end(), [](open_order const& a, open_order const& b) {
        return a.timestamp > b.timestamp;
    });
}

result<fills_message> to_fills_message(json::value const& data, universe const& u) {
    auto const* o = data.if_object();
    auto const* list = o ? o->if_contains("fills") : nullptr;
    if (!list)
        return make_error(errc::upstream_error,
                          "The alpha upstream answered an unexpected shape for userFills.");
    fills_message out;
    if (auto const* s = o->if_contains("isSnapshot"); s && s->is_bool())
        out.snapshot = s->get_bool();
    auto fills = to_fills(*list, u); // the REST fills' mapping
    if (!fills)
        return fills.error();
    out.fills = std::move(*fills);
    return out;
}

} // namespace ws

// ---------------------------------------------------------------------------------------------
// The link protocol

namespace {

class alpha_protocol final : public streams::link_protocol {
public:
    explicit alpha_protocol(std::string url)
        : url_(std::move(url)) {}

    asio::awaitable<result<streams::connect_target>>
    connect_url(std::vector<std::string>) override {
        co_return streams::connect_target{url_, 0};
    }
    std::vector<std::string> subscribe_frames(std::vector<std::string> const& keys) override {
        return frames(true, keys);
    }
    std::vector<std::string> unsubscribe_frames(std::vector<std::string> const& keys) override {
        return frames(false, keys);
    }
    streams::inbound read(std::string_view text) const override {
        std::string user;
        {
            std::lock_guard lock(m_);
            user = order_user_;
        }
        return ws::read_frame(text, user);
    }
    std::optional<std::string> ping_frame() const override { return R"({"method":"ping"})"; }

    /// The user whose orderUpdates this connection carries ("" none yet).
    std::string order_user() const {
        std::lock_guard lock(m_);
        return order_user_;
    }
    void set_order_user(std::string user) {
        std::lock_guard lock(m_);
        order_user_ = std::move(user);
    }

private:
    static std::vector<std::string> frames(bool subscribe, std::vector<std::string> const& keys) {
        std::vector<std::string> out;
        out.reserve(keys.size());
        for (auto const& k : keys)
            out.push_back(ws::control_frame(subscribe, k));
        return out;
    }

    std::string url_;
    mutable std::mutex m_;
    std::string order_user_;
};

call_context stream_context(bool testnet, util::clock const& time) {
    call_context ctx;
    ctx.testnet = testnet;
    ctx.now_ms = time.now_ms();
    ctx.request_id = "stream";
    return ctx;
}

// ---------------------------------------------------------------------------------------------
// Sources: one per subscription

using payload_ptr = std::shared_ptr<json::value const>;
using strand_t = asio::strand<asio::any_io_executor>;

struct source_env {
    std::shared_ptr<network> n;
    std::shared_ptr<perps_reads> reads;
    std::string name; ///< "alpha", "alpha testnet"
    /// Whose upstream share the REST seeds spend: the opener's on user channels (CONTRACT 3).
    std::optional<std::int64_t> account;
};

void log_drop(source_env const& env, std::string_view what, api_error const& e) {
    log::warn("msg=\"stream message dropped\" upstream=\"" + env.name + "\" topic=\"" +
              std::string(what) + "\" reason=\"" + e.message + "\"");
}

class prices_source final : public streams::source {
public:
    prices_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env)
        : source(std::move(s), std::move(k))
        , env_(std::move(env)) {}

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto const* o = data->if_object();
        auto const* mids = o ? o->if_contains("mids") : nullptr;
        auto prices = mids ? to_prices(*mids)
                           : result<price_map>(make_error(errc::upstream_error, "allMids"));
        if (!prices)
            log_drop(env_, "allMids", prices.error());
        else
            sink().data(std::move(*prices));
        co_return;
    }
    source_env env_;
};

class trades_source final : public streams::source {
public:
    trades_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env)
        : source(std::move(s), std::move(k))
        , env_(std::move(env)) {}

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto trades = to_trades(*data, std::numeric_limits<std::size_t>::max());
        if (!trades)
            log_drop(env_, "trades", trades.error());
        else if (!trades->empty())
            sink().data(std::move(*trades));
        co_return;
    }
    source_env env_;
};

class candles_source final : public streams::source {
public:
    candles_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env)
        : source(std::move(s), std::move(k))
        , env_(std::move(env)) {}

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        json::array one;
        one.push_back(*data);
        auto candles = to_candles(one);
        if (!candles)
            log_drop(env_, "candle", candles.error());
        else
            sink().data(std::move(*candles));
        co_return;
    }
    source_env env_;
};

/// l2Book pushes are whole books. After a reconnect or a stale spell the REST book comes with
/// `restored`, and pushes older than it are dropped.
class book_source final : public streams::source {
public:
    book_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env,
                std::string symbol, unsigned depth)
        : source(std::move(s), std::move(k))
        , env_(std::move(env))
        , symbol_(std::move(symbol))
        , depth_(depth) {}

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        auto book = to_orderbook(*data, symbol_, depth_);
        if (!book) {
            log_drop(env_, "l2Book", book.error());
            co_return;
        }
        if (book->timestamp < newest_)
            co_return; // older than the book already delivered
        newest_ = book->timestamp;
        sink().data(std::move(*book));
    }

    asio::awaitable<void> on_status(stream_status s, std::string message) override {
        if (s != stream_status::restored) {
            sink().status(s, std::move(message));
            co_return;
        }
        orderbook_params p;
        p.depth = depth_;
        auto const ctx = stream_context(env_.n->options().testnet, env_.n->time());
        auto book = co_await env_.reads->book(ctx, symbol_, p);
        sink().status(s, std::move(message));
        if (!book) {
            log_drop(env_, "l2Book resync", book.error());
            co_return; // the next push is a whole book anyway
        }
        newest_ = std::max(newest_, book->timestamp);
        sink().data(std::move(*book));
    }

    source_env env_;
    std::string symbol_;
    unsigned depth_;
    std::int64_t newest_ = 0;
};

/// The address's open orders: REST seed (at start and after a reconnect), then updates.
class orders_source final : public streams::source {
public:
    orders_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env,
                  address user)
        : source(std::move(s), std::move(k))
        , env_(std::move(env))
        , user_(std::move(user)) {}

private:
    asio::awaitable<void> on_start() override { co_await seed(); }

    asio::awaitable<void> on_data(payload_ptr data) override {
        auto updates = ws::to_order_updates(*data);
        if (!updates) {
            log_drop(env_, "orderUpdates", updates.error());
            co_return;
        }
        // Changes made before the seed was read are in it already.
        std::erase_if(*updates,
                      [&](ws::order_update const& u) { return u.status_time < seeded_at_; });
        if (updates->empty())
            co_return;
        ws::apply(orders_, *updates);
        sink().data(orders_);
    }

    asio::awaitable<void> on_status(stream_status s, std::string message) override {
        sink().status(s, std::move(message));
        if (s == stream_status::restored)
            co_await seed(); // updates were missed while the connection was down
    }

    asio::awaitable<void> seed() {
        auto ctx = stream_context(env_.n->options().testnet, env_.n->time());
        ctx.account = env_.account;
        auto const started = ctx.now_ms;
        auto list = co_await env_.reads->open_orders(ctx, user_);
        if (!list) {
            log_drop(env_, "open orders seed", list.error());
            co_return;
        }
        seeded_at_ = started;
        orders_ = std::move(*list);
        sink().data(orders_);
    }

    source_env env_;
    address user_;
    std::vector<open_order> orders_;
    std::int64_t seeded_at_ = 0;
};

/// New fills: the first snapshot is history; a later one (after a reconnect) brings the fills
/// missed meanwhile.
class fills_source final : public streams::source {
public:
    fills_source(strand_t s, std::shared_ptr<streams::guarded_sink> k, source_env env)
        : source(std::move(s), std::move(k))
        , env_(std::move(env)) {}

private:
    asio::awaitable<void> on_data(payload_ptr data) override {
        if (!universe_) {
            auto u = co_await env_.n->markets();
            if (!u) {
                log_drop(env_, "userFills", u.error());
                co_return;
            }
            universe_ = *u;
        }
        auto msg = ws::to_fills_message(*data, *universe_);
        if (!msg) {
            log_drop(env_, "userFills", msg.error());
            co_return;
        }
        bool const history = msg->snapshot && !had_snapshot_;
        had_snapshot_ = had_snapshot_ || msg->snapshot;
        std::vector<fill> fresh;
        for (auto& f : msg->fills)
            if (remember(f.id + "/" + f.order_id) && !history)
                fresh.push_back(std::move(f));
        if (!fresh.empty())
            sink().data(std::move(fresh));
    }

    /// True the first time an id is seen; keeps the last `max_seen` ids.
    bool remember(std::string id) {
        if (!seen_.insert(id).second)
            return false;
        order_.push_back(std::move(id));
        if (order_.size() > max_seen) {
            seen_.erase(order_.front());
            order_.pop_front();
        }
        return true;
    }

    static constexpr std::size_t max_seen = 20000;
    source_env env_;
    network::universe_ptr universe_;
    bool had_snapshot_ = false;
    std::unordered_set<std::string> seen_;
    std::deque<std::string> order_;
};

// ---------------------------------------------------------------------------------------------
// The streams: a pool of links within the upstream's limits

class alpha_streams final : public perps_streams,
                            public std::enable_shared_from_this<alpha_streams> {
public:
    alpha_streams(asio::any_io_executor ex, std::shared_ptr<network> n,
                  std::shared_ptr<perps_reads> reads, stream_options o)
        : ex_(std::move(ex))
        , n_(std::move(n))
        , reads_(std::move(reads))
        , options_(std::move(o)) {}

    async_result<bool> check(call_context const&, stream::subscription const& s) override {
        if (s.channel == stream::channel::orders || s.channel == stream::channel::fills) {
            auto const user = util::to_lower(s.address);
            std::lock_guard lock(m_);
            if (!users_.count(user) && users_.size() >= options_.max_users)
                co_return make_error(errc::stream_capacity,
                                     "The " + options_.name + " upstream streams at most " +
                                         std::to_string(options_.max_users) +
                                         " distinct addresses' orders and fills at a time; "
                                         "try again when one is released.");
            co_return true;
        }
        if (s.channel == stream::channel::prices)
            co_return true;
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        if (!(*markets)->find_perp(s.symbol))
            co_return make_error(errc::market_not_found,
                                 "Unknown perps market '" + s.symbol + "' on alpha.");
        co_return true;
    }

    std::shared_ptr<void> open(stream::subscription const& s, stream_sink sink,
                               std::optional<std::int64_t> account) override {
        auto const topic = ws::topic_of(s);
        auto const user =
            (s.channel == stream::channel::orders || s.channel == stream::channel::fills)
                ? util::to_lower(s.address)
                : std::string();
        auto link = place(topic, s.channel == stream::channel::orders ? user : std::string());
        auto guarded = std::make_shared<streams::guarded_sink>(std::move(sink));
        source_env env{n_, reads_, options_.name, user.empty() ? std::nullopt : account};
        std::shared_ptr<streams::source> src;
        bool must_tick = false;
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
        case stream::channel::candles:
            src = std::make_shared<candles_source>(link->strand(), guarded, env);
            break;
        case stream::channel::orders:
            src = std::make_shared<orders_source>(link->strand(), guarded, env,
                                                  *address::parse(user));
            break;
        case stream::channel::fills:
            src = std::make_shared<fills_source>(link->strand(), guarded, env);
            break;
        }
        auto handle = std::make_shared<streams::stream_handle>();
        handle->sink = guarded;
        if (!user.empty())
            handle->keep.push_back(hold_user(user));
        src->start();
        handle->keep.push_back(link->subscribe(topic, must_tick, src->listener()));
        return handle;
    }

    void set_stale_after(std::chrono::milliseconds d) {
        std::lock_guard lock(m_);
        options_.stale_after = d;
    }

private:
    struct slot {
        std::shared_ptr<streams::upstream_link> link;
        std::shared_ptr<alpha_protocol> protocol;
    };

    /// The link for `topic`: one holding it already, else one with room (for orderUpdates: one
    /// carrying no other user's), else a new one while under the connection limit, else the
    /// least loaded (the upstream will refuse past its limit).
    std::shared_ptr<streams::upstream_link> place(std::string const& topic,
                                                  std::string const& order_user) {
        std::lock_guard lock(m_);
        auto fits = [&](slot const& s) {
            if (s.link->topic_count() >= options_.max_subscriptions)
                return false;
            if (order_user.empty())
                return true;
            auto const current = s.protocol->order_user();
            // An idle connection is closed: a new user's updates cannot meet the old one's.
            return current.empty() || current == order_user || s.link->topic_count() == 0;
        };
        auto make = [&] {
            auto proto = std::make_shared<alpha_protocol>(options_.ws_url);
            streams::link_options lo;
            lo.name = options_.name;
            lo.stale_after = options_.stale_after;
            lo.ping_interval = options_.ping_interval;
            lo.pong_timeout = options_.pong_timeout;
            lo.retry = options_.retry;
            lo.connect.session.peer_timeout = std::chrono::seconds(60);
            lo.pacer = pacer_;
            return slot{streams::upstream_link::create(ex_, proto, lo), proto};
        };
        slot* chosen = &streams::pick_link(
            slots_, topic, [](slot const& s) { return s.link; }, fits, options_.max_connections,
            make, options_.name);
        if (!order_user.empty())
            chosen->protocol->set_order_user(order_user);
        return chosen->link;
    }

    /// Counts `user` among the distinct users until the returned token is dropped.
    std::shared_ptr<void> hold_user(std::string const& user) {
        {
            std::lock_guard lock(m_);
            ++users_[user];
        }
        struct hold {
            std::shared_ptr<alpha_streams> self;
            std::string user;
            ~hold() {
                if (!self)
                    return;
                std::lock_guard lock(self->m_);
                if (auto it = self->users_.find(user);
                    it != self->users_.end() && --it->second == 0)
                    self->users_.erase(it);
            }
        };
        auto h = std::make_shared<hold>(); // built in place: a copied hold would release twice
        h->self = shared_from_this();
        h->user = user;
        return h;
    }

    asio::any_io_executor ex_;
    std::shared_ptr<network> n_;
    std::shared_ptr<perps_reads> reads_;
    stream_options options_;
    std::mutex m_;
    std::vector<slot> slots_;
    std::map<std::string, std::size_t> users_;
    /// alpha takes at most 30 new connections a minute (per IP).
    std::shared_ptr<streams::connect_pacer> pacer_ =
        std::make_shared<streams::connect_pacer>(30, std::chrono::minutes(1));
};

} // namespace

std::shared_ptr<perps_streams> make_perps_streams(asio::any_io_executor ex,
                                                  std::shared_ptr<network> n,
                                                  std::shared_ptr<perps_reads> reads,
                                                  stream_options options) {
    return std::make_shared<alpha_streams>(std::move(ex), std::move(n), std::move(reads),
                                           std::move(options));
}

bool set_stale_after(perps_streams& s, std::chrono::milliseconds stale_after) {
    auto* a = dynamic_cast<alpha_streams*>(&s);
    if (!a)
        return false;
    a->set_stale_after(stale_after);
    return true;
}

} // namespace gateway::server::alpha
