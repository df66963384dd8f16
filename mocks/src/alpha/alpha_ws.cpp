#include "alpha_ws.hpp"

#include "alpha_accounts.hpp"

#include "../common/format.hpp"
#include "../common/ids.hpp"
#include "../common/json_out.hpp"
#include "../common/rng.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace gateway::mocks::alpha {

namespace {

namespace json = boost::json;

constexpr std::size_t max_subscriptions = 1000; // alpha.md §7, per IP
constexpr std::size_t max_users = 10;           // unique users of user subscriptions, per IP
constexpr char sep = '|';                       // topic fields (coins hold ':' and '/')

std::string frame(std::string_view channel, json::value data) {
    json::object o;
    o["channel"] = channel;
    o["data"] = std::move(data);
    return json::serialize(o);
}

std::string error_frame(std::string const& text) {
    return frame("error", json::string(text));
}

/// The event id of a fill (skips what a userFills snapshot already holds); never 0.
std::uint64_t fill_event_id(fill_record const& f) {
    return mix_seed(f.tid, f.oid, f.is_buy ? 1 : 2) | 1;
}

/// A parsed subscription: its hub topic, echo and user.
struct parsed_sub {
    std::string topic;
    json::object echo;
    std::optional<std::string> user;
    std::string type;
    std::size_t market = 0;
};

std::optional<std::int64_t> opt_int(json::object const& o, std::string_view key, bool& bad) {
    auto const* v = o.if_contains(key);
    if (!v || v->is_null())
        return std::nullopt;
    if (!v->is_int64()) {
        bad = true;
        return std::nullopt;
    }
    return v->get_int64();
}

class connection final : public ws_handler {
public:
    connection(std::shared_ptr<ws_feed> feed, std::shared_ptr<ws_conn> conn)
        : feed_(std::move(feed))
        , conn_(std::move(conn)) {}

    void on_message(std::string_view text) override {
        boost::system::error_code ec;
        auto v = json::parse(text, ec);
        json::string const* method = nullptr;
        if (!ec && v.is_object())
            if (auto const* m = v.get_object().if_contains("method"); m && m->is_string())
                method = &m->get_string();
        if (!method) {
            conn_->send_reply(error_frame("Error parsing JSON into valid websocket request: " +
                                          std::string(text)));
            return;
        }
        if (*method == "ping") {
            conn_->send_reply(R"({"channel":"pong"})");
            return;
        }
        auto const* sub = v.get_object().if_contains("subscription");
        if ((*method != "subscribe" && *method != "unsubscribe") || !sub) {
            conn_->send_reply(error_frame("Error parsing JSON into valid websocket request: " +
                                          std::string(text)));
            return;
        }
        std::string const shown = json::serialize(*sub);
        auto p = parse(*sub);
        if (!p) {
            conn_->send_reply(error_frame("Invalid subscription " + shown));
            return;
        }
        if (*method == "subscribe")
            subscribe(std::move(*p), shown);
        else
            unsubscribe(std::move(*p), shown);
    }

    void on_close() override {
        for (auto const& [topic, user] : mine_)
            feed_->release_limits(conn_->peer(), user);
        mine_.clear();
    }

private:
    std::optional<parsed_sub> parse(json::value const& v) const {
        if (!v.is_object())
            return std::nullopt;
        auto const& o = v.get_object();
        auto const* t = o.if_contains("type");
        if (!t || !t->is_string())
            return std::nullopt;
        parsed_sub p;
        p.type = t->get_string();
        p.echo = o;
        auto str = [&](std::string_view key) -> std::optional<std::string> {
            auto const* f = o.if_contains(key);
            if (!f || !f->is_string())
                return std::nullopt;
            return std::string(f->get_string());
        };
        auto coin = [&]() -> std::optional<std::string> {
            auto c = str("coin");
            if (!c)
                return std::nullopt;
            auto const idx = feed_->markets().find(*c);
            if (!idx || feed_->markets().spec(*idx).symbol != *c)
                return std::nullopt;
            p.market = *idx;
            return c;
        };
        if (p.type == "allMids") {
            std::string dex;
            if (auto const* d = o.if_contains("dex"); d && !d->is_null()) {
                if (!d->is_string())
                    return std::nullopt;
                dex = d->get_string();
            }
            if (!feed_->source().mids(dex))
                return std::nullopt;
            p.topic = "allMids" + std::string(1, sep) + dex;
            return p;
        }
        if (p.type == "l2Book") {
            auto const c = coin();
            bool bad = false;
            auto const sig = opt_int(o, "nSigFigs", bad);
            auto const mant = opt_int(o, "mantissa", bad);
            if (!c || bad || (sig && (*sig < 2 || *sig > 5)) ||
                (mant && ((*mant != 1 && *mant != 2 && *mant != 5) || sig != 5)))
                return std::nullopt;
            p.topic = "l2Book" + std::string(1, sep) + *c + sep +
                      (sig ? std::to_string(*sig) : "") + sep + (mant ? std::to_string(*mant) : "");
            return p;
        }
        if (p.type == "trades") {
            auto const c = coin();
            if (!c)
                return std::nullopt;
            p.topic = "trades" + std::string(1, sep) + *c;
            return p;
        }
        if (p.type == "candle") {
            auto const c = coin();
            auto const iv = str("interval");
            if (!c || !iv || !feed_->source().known_interval(*iv))
                return std::nullopt;
            p.topic = "candle" + std::string(1, sep) + *c + sep + *iv;
            return p;
        }
        if (p.type == "orderUpdates" || p.type == "userFills") {
            auto const u = str("user");
            auto const addr = u ? ledger::normalize_address(*u) : std::nullopt;
            if (!addr)
                return std::nullopt;
            if (auto const* a = o.if_contains("aggregateByTime");
                a && !a->is_null() && !a->is_bool())
                return std::nullopt;
            p.user = *addr;
            p.echo["user"] = *addr;
            p.topic = p.type + sep + *addr;
            return p;
        }
        return std::nullopt; // bbo, userEvents, webData2...: not emulated
    }

    void ack(std::string_view method, parsed_sub const& p) {
        json::object d;
        d["method"] = method;
        d["subscription"] = p.echo;
        conn_->send_reply(frame("subscriptionResponse", std::move(d)));
    }

    void subscribe(parsed_sub p, std::string const& shown) {
        auto& hub = feed_->hub();
        if (mine_.contains(p.topic)) {
            conn_->send_reply(error_frame("Already subscribed: " + shown));
            return;
        }
        if (auto refused = feed_->admit(conn_->peer(), p.user)) {
            conn_->send_reply(error_frame(*refused));
            return;
        }
        mine_.emplace(p.topic, p.user);
        hub.subscribe(conn_, p.topic, {}, true);
        ack("subscribe", p);
        std::vector<ws_frame> first;
        std::set<std::uint64_t> covered;
        auto add = [&](std::string const& f) {
            first.push_back(std::make_shared<std::string const>(f));
        };
        auto& src = feed_->source();
        if (p.type == "allMids") {
            json::object d;
            d["mids"] = *src.mids(p.topic.substr(p.topic.find(sep) + 1));
            add(frame("allMids", std::move(d)));
        } else if (p.type == "l2Book") {
            src.sync();
            if (auto f = feed_->book_frame(p.topic))
                add(std::move(*f));
        } else if (p.type == "candle") {
            auto const iv = p.topic.substr(p.topic.rfind(sep) + 1);
            if (auto c = src.candle(p.market, iv, now_ms()))
                add(frame("candle", std::move(*c)));
        } else if (p.type == "userFills") {
            json::array fills;
            for (auto const& f : src.fills(*p.user)) {
                covered.insert(fill_event_id(f));
                fills.push_back(fill_json(f));
            }
            json::object d;
            d["isSnapshot"] = true;
            d["user"] = *p.user;
            d["fills"] = std::move(fills);
            add(frame("userFills", std::move(d)));
        }
        hub.release(*conn_, p.topic, std::move(first),
                    [&covered](std::uint64_t id) { return covered.contains(id); });
    }

    void unsubscribe(parsed_sub const& p, std::string const& shown) {
        auto const it = mine_.find(p.topic);
        if (it == mine_.end()) {
            conn_->send_reply(error_frame("Already unsubscribed: " + shown));
            return;
        }
        feed_->hub().unsubscribe(*conn_, p.topic);
        feed_->release_limits(conn_->peer(), it->second);
        mine_.erase(it);
        ack("unsubscribe", p);
    }

    std::shared_ptr<ws_feed> feed_;
    std::shared_ptr<ws_conn> conn_;
    std::map<std::string, std::optional<std::string>> mine_; ///< topic -> user
};

} // namespace

json::object trade_json(market_spec const& s, trade const& t) {
    json::object o;
    o["coin"] = s.symbol;
    o["side"] = t.buyer_is_taker ? "B" : "A";
    o["px"] = float_style(t.px, s.px_scale);
    o["sz"] = float_style(t.sz, s.sz_scale);
    o["time"] = t.time_ms;
    o["hash"] = hash_hex(t.entropy);
    o["tid"] = t.entropy & ((std::uint64_t{1} << 50) - 1);
    o["users"] = json::array{address_hex(t.entropy ^ 0xb0b), address_hex(t.entropy ^ 0x5e1)};
    return o;
}

ws_feed::ws_feed(ws_hub& hub, market_state& markets, stream_source& source,
                 std::chrono::milliseconds book_interval)
    : hub_(hub)
    , markets_(markets)
    , source_(source)
    , book_interval_(book_interval) {}

void ws_feed::start(boost::asio::any_io_executor const& ex) {
    strand_ = boost::asio::make_strand(ex);
    timer_ = std::make_unique<boost::asio::steady_timer>(strand_);
}

void ws_feed::stop() {
    if (!timer_)
        return;
    boost::asio::post(strand_, [self = shared_from_this()] {
        self->stopped_ = true;
        self->timer_->cancel();
    });
}

std::unique_ptr<ws_handler> ws_feed::make_handler(std::shared_ptr<ws_conn> const& conn) {
    return std::make_unique<connection>(shared_from_this(), conn);
}

std::optional<std::string> ws_feed::admit(std::string const& peer,
                                          std::optional<std::string> const& user) {
    std::lock_guard lock(m_);
    auto& use = peers_[peer];
    if (use.subscriptions >= max_subscriptions)
        return "Cannot track more than " + std::to_string(max_subscriptions) +
               " total subscriptions";
    if (user && !use.users.contains(*user) && use.users.size() >= max_users)
        return "Cannot track more than " + std::to_string(max_users) + " total users";
    ++use.subscriptions;
    if (user)
        ++use.users[*user];
    return std::nullopt;
}

void ws_feed::release_limits(std::string const& peer, std::optional<std::string> const& user) {
    std::lock_guard lock(m_);
    auto const it = peers_.find(peer);
    if (it == peers_.end())
        return;
    auto& use = it->second;
    if (use.subscriptions > 0)
        --use.subscriptions;
    if (user)
        if (auto const u = use.users.find(*user); u != use.users.end() && --u->second == 0)
            use.users.erase(u);
    if (use.subscriptions == 0 && use.users.empty())
        peers_.erase(it);
}

std::optional<std::string> ws_feed::book_frame(std::string const& topic) const {
    // l2Book|<coin>|<nSigFigs>|<mantissa>
    auto const a = topic.find(sep);
    auto const b = topic.find(sep, a + 1);
    auto const c = topic.find(sep, b + 1);
    std::string const coin = topic.substr(a + 1, b - a - 1);
    std::string const sig = topic.substr(b + 1, c - b - 1);
    std::string const mant = topic.substr(c + 1);
    std::optional<std::int64_t> s, m;
    if (!sig.empty())
        s = std::stoll(sig);
    if (!mant.empty())
        m = std::stoll(mant);
    auto book = source_.book(coin, s, m);
    if (!book)
        return std::nullopt;
    return frame("l2Book", std::move(*book));
}

void ws_feed::on_market_change() {
    if (!timer_)
        return;
    boost::asio::post(strand_, [self = shared_from_this()] {
        if (self->stopped_)
            return;
        self->source_.sync();
        self->publish_mids();
        self->mark_books_dirty(std::nullopt);
    });
}

void ws_feed::publish_mids() {
    for (auto const& topic : hub_.active_topics()) {
        if (!topic.starts_with("allMids"))
            continue;
        if (auto mids = source_.mids(topic.substr(topic.find(sep) + 1))) {
            json::object d;
            d["mids"] = std::move(*mids);
            hub_.publish(topic, frame("allMids", std::move(d)));
        }
    }
}

void ws_feed::mark_books_dirty(std::optional<std::string> coin) {
    {
        std::lock_guard lock(m_);
        if (coin)
            dirty_.insert(*coin);
        else
            all_dirty_ = true;
        if (flush_posted_ || !timer_)
            return;
        flush_posted_ = true;
    }
    boost::asio::post(strand_, [self = shared_from_this()] { self->flush_books(); });
}

void ws_feed::flush_books() {
    if (stopped_)
        return;
    auto const now = std::chrono::steady_clock::now();
    std::vector<std::string> due;
    std::optional<std::chrono::steady_clock::time_point> next;
    {
        std::lock_guard lock(m_);
        flush_posted_ = false;
        std::set<std::string> still_dirty;
        bool const all = all_dirty_;
        all_dirty_ = false;
        for (auto const& topic : hub_.active_topics()) {
            if (!topic.starts_with("l2Book"))
                continue;
            auto const a = topic.find(sep);
            std::string const coin = topic.substr(a + 1, topic.find(sep, a + 1) - a - 1);
            if (!all && !dirty_.contains(coin) && !dirty_.contains(topic))
                continue;
            auto const last = last_push_.find(topic);
            if (last != last_push_.end() && now < last->second + book_interval_) {
                auto const at = last->second + book_interval_;
                next = next ? std::min(*next, at) : at;
                still_dirty.insert(topic);
                continue;
            }
            last_push_[topic] = now;
            due.push_back(topic);
        }
        dirty_ = std::move(still_dirty);
    }
    if (!due.empty())
        source_.sync();
    for (auto const& topic : due)
        if (auto f = book_frame(topic))
            hub_.publish(topic, *f);
    if (next && !timer_armed_) {
        timer_armed_ = true;
        timer_->expires_at(*next);
        timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
            self->timer_armed_ = false;
            if (!ec)
                self->flush_books();
        });
    }
}

void ws_feed::on_trade(std::size_t market, trade const& t) {
    auto const& s = markets_.spec(market);
    std::string const trades_topic = "trades" + std::string(1, sep) + s.symbol;
    if (hub_.has_subscribers(trades_topic))
        hub_.publish(trades_topic, frame("trades", json::array{trade_json(s, t)}));
    std::string const candle_prefix = "candle" + std::string(1, sep) + s.symbol + sep;
    for (auto const& topic : hub_.active_topics()) {
        if (!topic.starts_with(candle_prefix))
            continue;
        if (auto c = source_.candle(market, topic.substr(candle_prefix.size()), t.time_ms))
            hub_.publish(topic, frame("candle", std::move(*c)));
    }
}

void ws_feed::on_ledger(ledger_event const& e) {
    if (e.order) {
        std::string const topic = "orderUpdates" + std::string(1, sep) + e.address;
        if (hub_.has_subscribers(topic)) {
            json::object u;
            u["order"] = open_order_json(e.order->order);
            u["status"] = e.order->status;
            u["statusTimestamp"] = e.order->status_timestamp;
            hub_.publish(topic, frame("orderUpdates", json::array{std::move(u)}));
        }
        mark_books_dirty(e.order->order.spec.coin);
    }
    if (e.fill) {
        std::string const topic = "userFills" + std::string(1, sep) + e.address;
        if (hub_.has_subscribers(topic)) {
            json::object d;
            d["user"] = e.address;
            d["fills"] = json::array{fill_json(*e.fill)};
            hub_.publish(topic, frame("userFills", std::move(d)), fill_event_id(*e.fill));
        }
        mark_books_dirty(e.fill->coin);
    }
}

} // namespace gateway::mocks::alpha
