#include "beta_ws.hpp"

#include "beta_accounts.hpp"

#include "../common/format.hpp"
#include "../common/http_util.hpp"
#include "../common/ids.hpp"
#include "../common/json_out.hpp"
#include "../common/rng.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;

constexpr std::size_t ws_max_streams = 200; // beta.md §8-9 (Binance futures)
constexpr std::int64_t ws_listen_key_life_ms = std::int64_t{60} * 60'000; // beta.md §9.3
constexpr std::size_t ws_announced_kept = 100'000;
constexpr std::array<std::string_view, 3> ws_depth_suffixes{"@depth", "@depth@100ms",
                                                            "@depth@500ms"};

struct ws_named_interval {
    std::string_view name;
    std::int64_t ms;
};
constexpr std::int64_t ws_minute = 60'000;
constexpr std::array<ws_named_interval, 13> ws_kline_intervals{{
    {"1m", ws_minute},
    {"3m", 3 * ws_minute},
    {"5m", 5 * ws_minute},
    {"15m", 15 * ws_minute},
    {"30m", 30 * ws_minute},
    {"1h", 60 * ws_minute},
    {"2h", 120 * ws_minute},
    {"4h", 240 * ws_minute},
    {"6h", 360 * ws_minute},
    {"8h", 480 * ws_minute},
    {"12h", 720 * ws_minute},
    {"1d", 1440 * ws_minute},
    {"3d", std::int64_t{3} * 1440 * ws_minute},
}};

std::string ws_lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string ws_upper(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

/// `a` printed with exactly `d` decimals.
std::string ws_dec(amount a, unsigned d) {
    auto const m = a.rounded(d).to_scaled(d);
    return fixed(m.value_or(0), d, d);
}

std::string user_topic(std::string const& user) {
    return "user|" + user;
}

/// The perp symbol of a market stream (`btcusdt@aggTrade` -> `BTCUSDT`), or "".
std::string stream_symbol(std::string const& name) {
    auto const at = name.find('@');
    if (at == std::string::npos || name.starts_with('!'))
        return {};
    return ws_upper(name.substr(0, at));
}

class ws_connection final : public ws_handler {
public:
    ws_connection(std::shared_ptr<ws_feed> feed, std::shared_ptr<ws_conn> conn, bool combined,
                  std::vector<std::pair<std::string, std::string>> initial)
        : feed_(std::move(feed))
        , conn_(std::move(conn))
        , combined_(combined)
        , initial_(std::move(initial)) {}

    void on_open() override {
        for (auto const& [name, topic] : initial_)
            add(name, topic);
        initial_.clear();
    }

    void on_message(std::string_view text) override {
        boost::system::error_code ec;
        auto v = json::parse(text, ec);
        if (ec || !v.is_object()) {
            reply_error(3, "Invalid JSON: " + (ec ? ec.message() : "expected an object"), nullptr);
            return;
        }
        auto const& o = v.get_object();
        json::value id = nullptr;
        if (auto const* i = o.if_contains("id"))
            id = *i;
        if (!id.is_null() && !id.is_uint64() && !(id.is_int64() && id.get_int64() >= 0)) {
            reply_error(1, "Invalid value type: expected u64", nullptr);
            return;
        }
        auto const* m = o.if_contains("method");
        std::string const method = m && m->is_string() ? std::string(m->get_string()) : "";
        json::array const* params = nullptr;
        if (auto const* p = o.if_contains("params"); p && p->is_array())
            params = &p->get_array();
        if (method == "SUBSCRIBE" || method == "UNSUBSCRIBE") {
            if (!params) {
                reply_error(2, "Invalid request: missing field `params`", id);
                return;
            }
            std::vector<std::pair<std::string, std::string>> named;
            for (auto const& p : *params) {
                if (!p.is_string()) {
                    reply_error(2, "Invalid request: stream names are strings", id);
                    return;
                }
                std::string const name(p.get_string());
                auto topic = topic_of(name);
                if (!topic) {
                    reply_error(2, "Invalid request: unknown stream " + name, id);
                    return;
                }
                named.emplace_back(name, *topic);
            }
            if (method == "SUBSCRIBE") {
                std::size_t fresh = 0;
                for (auto const& [name, topic] : named)
                    fresh += !mine_.contains(name);
                if (mine_.size() + fresh > ws_max_streams) {
                    reply_error(2,
                                "Invalid request: at most " + std::to_string(ws_max_streams) +
                                    " streams per ws_connection",
                                id);
                    return;
                }
                for (auto const& [name, topic] : named)
                    add(name, topic);
            } else {
                for (auto const& [name, topic] : named)
                    remove(name);
            }
            reply_result(nullptr, id);
            return;
        }
        if (method == "LIST_SUBSCRIPTIONS") {
            json::array out;
            for (auto const& name : order_)
                out.push_back(json::string(name));
            reply_result(std::move(out), id);
            return;
        }
        if (method == "SET_PROPERTY" || method == "GET_PROPERTY") {
            if (!params || params->empty() || !params->at(0).is_string() ||
                params->at(0).get_string() != "combined" ||
                (method == "SET_PROPERTY" && (params->size() != 2 || !params->at(1).is_bool()))) {
                reply_error(2, "Invalid request: unknown property", id);
                return;
            }
            if (method == "GET_PROPERTY") {
                reply_result(combined_, id);
                return;
            }
            bool const want = params->at(1).get_bool();
            if (want != combined_) {
                combined_ = want;
                for (auto const& name : order_) { // new envelopes for what is subscribed
                    feed_->hub().unsubscribe(*conn_, mine_.at(name));
                    feed_->hub().subscribe(conn_, mine_.at(name), envelope(name));
                }
            }
            reply_result(nullptr, id);
            return;
        }
        reply_error(2,
                    "Invalid request: unknown variant `" + method +
                        "`, expected one of `SUBSCRIBE`, `UNSUBSCRIBE`, `LIST_SUBSCRIPTIONS`, "
                        "`SET_PROPERTY`, `GET_PROPERTY`",
                    id);
    }

private:
    /// The hub topic of a stream name (market streams are their own topic; a listen key maps
    /// to its user's topic).
    std::optional<std::string> topic_of(std::string const& name) const {
        if (feed_->valid_market_stream(name))
            return name;
        if (auto user = feed_->listen_key_user(name))
            return user_topic(*user);
        return std::nullopt;
    }

    ws_hub::envelope envelope(std::string const& name) const {
        if (!combined_)
            return {};
        return {R"({"stream":)" + json::serialize(json::string(name)) + R"(,"data":)", "}"};
    }

    void add(std::string const& name, std::string const& topic) {
        if (mine_.contains(name))
            return;
        mine_.emplace(name, topic);
        order_.push_back(name);
        feed_->hub().subscribe(conn_, topic, envelope(name));
    }

    void remove(std::string const& name) {
        auto const it = mine_.find(name);
        if (it == mine_.end())
            return;
        feed_->hub().unsubscribe(*conn_, it->second);
        mine_.erase(it);
        order_.erase(std::find(order_.begin(), order_.end(), name));
    }

    void reply_result(json::value result, json::value const& id) {
        json::object o;
        o["result"] = std::move(result);
        o["id"] = id;
        conn_->send_reply(json::serialize(o));
    }

    void reply_error(int code, std::string const& msg, json::value const& id) {
        json::object e;
        e["code"] = code;
        e["msg"] = msg;
        json::object o;
        o["error"] = std::move(e);
        o["id"] = id;
        conn_->send_reply(json::serialize(o));
    }

    std::shared_ptr<ws_feed> feed_;
    std::shared_ptr<ws_conn> conn_;
    bool combined_;
    std::vector<std::pair<std::string, std::string>> initial_;
    std::map<std::string, std::string> mine_; ///< stream name -> topic
    std::vector<std::string> order_;          ///< names in subscription order
};

} // namespace

ws_feed::ws_feed(ws_hub& hub, market_state& markets, ledger& l, engine& e, market_data const& data,
                 candle_history const& candles, std::size_t depth_levels, std::uint64_t seed)
    : hub_(hub)
    , markets_(markets)
    , ledger_(l)
    , engine_(e)
    , data_(data)
    , candles_(candles)
    , depth_levels_(std::max<std::size_t>(depth_levels, 5))
    , update_base_(
          static_cast<std::int64_t>(1'000'000'000 + mix_seed(seed, 0xd3) % 1'000'000'000)) {}

void ws_feed::start(boost::asio::any_io_executor const& ex) {
    strand_ = boost::asio::make_strand(ex);
    started_ = true;
}

void ws_feed::stop() {
    if (!started_)
        return;
    boost::asio::post(strand_, [self = shared_from_this()] { self->stopped_ = true; });
}

bool ws_feed::valid_market_stream(std::string const& name) const {
    if (name == "!markPrice@arr" || name == "!markPrice@arr@1s" || name == "!ticker@arr")
        return true;
    auto const symbol = stream_symbol(name);
    if (symbol.empty() || ws_lower(symbol) != name.substr(0, name.find('@')) || !find_perp(symbol))
        return false;
    std::string_view const kind = std::string_view(name).substr(name.find('@'));
    if (kind == "@aggTrade" || kind == "@markPrice" || kind == "@markPrice@1s")
        return true;
    if (std::find(ws_depth_suffixes.begin(), ws_depth_suffixes.end(), kind) !=
        ws_depth_suffixes.end())
        return true;
    if (kind.starts_with("@kline_"))
        return std::any_of(ws_kline_intervals.begin(), ws_kline_intervals.end(),
                           [&](ws_named_interval const& i) { return kind.substr(7) == i.name; });
    return false;
}

ws_route ws_feed::open(net::request const& req) {
    auto const t = split_target(req.target());
    std::vector<std::string> names;
    bool combined = false;
    if (t.path == "/stream") {
        combined = true;
        std::string const streams = query_get(t.query, "streams").value_or("");
        std::size_t from = 0;
        while (from < streams.size()) {
            auto const slash = streams.find('/', from);
            auto const end = slash == std::string::npos ? streams.size() : slash;
            if (end > from)
                names.push_back(streams.substr(from, end - from));
            from = end + 1;
        }
    } else if (t.path == "/ws" || t.path.starts_with("/ws/")) {
        std::string const rest = t.path.size() > 4 ? t.path.substr(4) : "";
        std::size_t from = 0;
        while (from < rest.size()) {
            auto const slash = rest.find('/', from);
            auto const end = slash == std::string::npos ? rest.size() : slash;
            if (end > from)
                names.push_back(rest.substr(from, end - from));
            from = end + 1;
        }
    } else {
        json::object o;
        o["code"] = -5000;
        o["msg"] = "Path " + t.path + ", Method GET is invalid";
        return json_response(http::status::not_found, o, req.version());
    }
    std::vector<std::pair<std::string, std::string>> initial;
    for (auto const& name : names) {
        if (valid_market_stream(name)) {
            initial.emplace_back(name, name);
            continue;
        }
        if (auto user = listen_key_user(name)) {
            initial.emplace_back(name, user_topic(*user));
            continue;
        }
        // An unknown listen key (or stream): refused before the upgrade.
        json::object o;
        o["code"] = -1125;
        o["msg"] = "This listenKey does not exist.";
        return json_response(http::status::bad_request, o, req.version());
    }
    if (initial.size() > ws_max_streams) {
        json::object o;
        o["code"] = -1000;
        o["msg"] = "Too many streams: at most " + std::to_string(ws_max_streams) + ".";
        return json_response(http::status::bad_request, o, req.version());
    }
    return ws_accept{[self = shared_from_this(), combined,
                      initial = std::move(initial)](std::shared_ptr<ws_conn> const& c) {
        return std::unique_ptr<ws_handler>(
            std::make_unique<ws_connection>(self, c, combined, initial));
    }};
}

// ---------------------------------------------------------------------------------------------
// Depth: one sequence for the diff stream and REST

std::pair<std::vector<ws_feed::level>, std::vector<ws_feed::level>>
ws_feed::book_view(std::string const& symbol, std::size_t depth) const {
    std::pair<std::vector<level>, std::vector<level>> out;
    auto const* c = ledger_.find(symbol);
    auto const idx = markets_.find(symbol);
    if (!c || !idx)
        return out;
    auto const& spec = markets_.spec(*idx);
    auto print = [&](amount px, amount sz) {
        auto const m = px.to_scaled(c->px_scale).value_or(0);
        return level{m, fixed(m, c->px_scale, c->px_scale), ws_dec(sz, c->sz_scale)};
    };
    auto const e = engine_.book(venue::futures, symbol, depth);
    auto const deep = markets_.book(*idx, depth + 64);
    auto fill = [&](std::vector<engine_level> const& top, std::vector<book_level> const& tail,
                    bool bids, std::vector<level>& side) {
        for (auto const& l : top) {
            if (side.size() == depth)
                return;
            side.push_back(print(l.px, l.sz));
        }
        for (auto const& l : tail) {
            if (side.size() == depth)
                return;
            auto lv = print(amount::from_scaled(l.px, spec.px_scale),
                            amount::from_scaled(l.sz, spec.sz_scale));
            if (!side.empty() && (bids ? lv.px >= side.back().px : lv.px <= side.back().px))
                continue;
            side.push_back(std::move(lv));
        }
    };
    fill(e.bids, deep.bids, true, out.first);
    fill(e.asks, deep.asks, false, out.second);
    return out;
}

void ws_feed::refresh_locked(std::string const& symbol, std::int64_t now) {
    auto [bids, asks] = book_view(symbol, depth_levels_);
    auto& st = books_[symbol];
    auto as_side = [](std::vector<level>& v) {
        side s;
        for (auto& l : v)
            s.emplace(l.px, std::move(l));
        return s;
    };
    side nb = as_side(bids);
    side na = as_side(asks);
    if (!st.known) {
        st.bids = std::move(nb);
        st.asks = std::move(na);
        st.last_u = update_base_;
        st.known = true;
        return;
    }
    auto const* c = ledger_.find(symbol);
    std::string const zero = fixed(0, c->sz_scale, c->sz_scale);
    auto diff = [&](side const& before, side const& after, bool bids_side) {
        json::array out;
        std::map<std::int64_t, std::pair<std::string, std::string>> changes;
        for (auto const& [px, l] : after)
            if (auto const it = before.find(px); it == before.end() || it->second.qty != l.qty)
                changes.emplace(px, std::pair{l.price, l.qty});
        for (auto const& [px, l] : before)
            if (!after.contains(px))
                changes.emplace(px, std::pair{l.price, zero});
        auto push = [&](auto const& kv) {
            out.push_back(
                json::array{json::string(kv.second.first), json::string(kv.second.second)});
        };
        if (bids_side)
            std::for_each(changes.rbegin(), changes.rend(), push);
        else
            std::for_each(changes.begin(), changes.end(), push);
        return out;
    };
    auto b = diff(st.bids, nb, true);
    auto a = diff(st.asks, na, false);
    st.bids = std::move(nb);
    st.asks = std::move(na);
    if (b.empty() && a.empty())
        return;
    // Each event spans two update ids: REST's lastUpdateId (last u + 1) then lies inside the
    // next event's [U, u], for both the futures rule (U <= id <= u) and the spot one
    // (U <= id + 1 <= u).
    std::int64_t const pu = st.last_u;
    st.last_u = pu + 2;
    json::object o;
    o["e"] = "depthUpdate";
    o["E"] = now;
    o["T"] = now;
    o["s"] = symbol;
    o["U"] = pu + 1;
    o["u"] = st.last_u;
    o["pu"] = pu;
    o["b"] = std::move(b);
    o["a"] = std::move(a);
    std::string const payload = json::serialize(o);
    std::string const base = ws_lower(symbol);
    for (auto const suffix : ws_depth_suffixes)
        hub_.publish(base + std::string(suffix), payload);
}

depth_snapshot ws_feed::depth(std::string const& symbol, std::size_t limit) {
    std::lock_guard lock(depth_m_);
    refresh_locked(symbol, now_ms());
    auto const& st = books_[symbol];
    depth_snapshot out;
    out.last_update_id = st.last_u + 1;
    for (auto it = st.bids.rbegin(); it != st.bids.rend() && out.bids.size() < limit; ++it)
        out.bids.emplace_back(it->second.price, it->second.qty);
    for (auto it = st.asks.begin(); it != st.asks.end() && out.asks.size() < limit; ++it)
        out.asks.emplace_back(it->second.price, it->second.qty);
    if (limit > depth_levels_) {
        // Deeper than the stream follows: the ladder beyond the followed levels.
        auto [bids, asks] = book_view(symbol, limit);
        for (auto const& l : bids)
            if (out.bids.size() < limit && (st.bids.empty() || l.px < st.bids.begin()->first))
                out.bids.emplace_back(l.price, l.qty);
        for (auto const& l : asks)
            if (out.asks.size() < limit && (st.asks.empty() || l.px > st.asks.rbegin()->first))
                out.asks.emplace_back(l.price, l.qty);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Market events

void ws_feed::on_market_change() {
    if (!started_)
        return;
    boost::asio::post(strand_, [self = shared_from_this()] {
        if (self->stopped_)
            return;
        self->engine_.sync();
        std::int64_t const now = now_ms();
        {
            std::set<std::string> symbols;
            for (auto const& topic : self->hub_.active_topics())
                if (topic.find("@depth") != std::string::npos)
                    symbols.insert(stream_symbol(topic));
            std::lock_guard lock(self->depth_m_);
            for (auto const& s : symbols)
                self->refresh_locked(s, now);
        }
        self->publish_marks(++self->walk_steps_ % 3 == 0);
        self->publish_tickers();
    });
}

void ws_feed::publish_marks(bool slow_too) {
    std::int64_t const now = now_ms();
    std::int64_t const period = std::int64_t{8} * 60 * ws_minute;
    json::array all;
    bool const want_all = hub_.has_subscribers("!markPrice@arr@1s") ||
                          (slow_too && hub_.has_subscribers("!markPrice@arr"));
    for (auto const& p : perps()) {
        std::string const base = ws_lower(p.symbol);
        bool const one = hub_.has_subscribers(base + "@markPrice@1s") ||
                         (slow_too && hub_.has_subscribers(base + "@markPrice"));
        if (!one && !want_all)
            continue;
        auto const idx = markets_.find(p.symbol);
        if (!idx)
            continue;
        auto const& s = markets_.spec(*idx);
        std::string const mark = ws_dec(amount::from_scaled(markets_.mark(*idx), s.px_scale), 8);
        json::object o;
        o["e"] = "markPriceUpdate";
        o["E"] = now;
        o["s"] = p.symbol;
        o["p"] = mark;
        o["i"] = mark;
        o["P"] = mark;
        o["r"] = "0.00010000";
        o["T"] = (now / period + 1) * period;
        if (one) {
            std::string const payload = json::serialize(o);
            hub_.publish(base + "@markPrice@1s", payload);
            if (slow_too)
                hub_.publish(base + "@markPrice", payload);
        }
        all.push_back(std::move(o));
    }
    if (want_all) {
        std::string const payload = json::serialize(all);
        hub_.publish("!markPrice@arr@1s", payload);
        if (slow_too)
            hub_.publish("!markPrice@arr", payload);
    }
}

void ws_feed::publish_tickers() {
    if (!hub_.has_subscribers("!ticker@arr"))
        return;
    auto const res = data_.ticker_24hr(venue::futures, {}, 11);
    boost::system::error_code ec;
    auto const rest = json::parse(res.body(), ec);
    if (ec || !rest.is_array())
        return;
    std::int64_t const now = now_ms();
    json::array out;
    for (auto const& t : rest.get_array()) {
        auto const& r = t.get_object();
        json::object o;
        o["e"] = "24hrTicker";
        o["E"] = now;
        o["s"] = r.at("symbol");
        o["p"] = r.at("priceChange");
        o["P"] = r.at("priceChangePercent");
        o["w"] = r.at("weightedAvgPrice");
        o["c"] = r.at("lastPrice");
        o["Q"] = r.at("lastQty");
        o["o"] = r.at("openPrice");
        o["h"] = r.at("highPrice");
        o["l"] = r.at("lowPrice");
        o["v"] = r.at("volume");
        o["q"] = r.at("quoteVolume");
        o["O"] = r.at("openTime");
        o["C"] = r.at("closeTime");
        o["F"] = r.at("firstId");
        o["L"] = r.at("lastId");
        o["n"] = r.at("count");
        out.push_back(std::move(o));
    }
    hub_.publish("!ticker@arr", json::serialize(out));
}

void ws_feed::on_trade(std::size_t market, trade const& t) {
    auto const& s = markets_.spec(market);
    auto const* c = ledger_.find(s.symbol);
    if (!c)
        return; // spot's own market (ASTERUSDT): no futures stream
    std::string const base = ws_lower(s.symbol);
    std::string const px = ws_dec(amount::from_scaled(t.px, s.px_scale), c->px_scale);
    std::string const qty = ws_dec(amount::from_scaled(t.sz, s.sz_scale), c->sz_scale);
    std::int64_t const now = now_ms();
    if (hub_.has_subscribers(base + "@aggTrade")) {
        json::object o;
        o["e"] = "aggTrade";
        o["E"] = now;
        o["s"] = s.symbol;
        o["a"] = t.id;
        o["p"] = px;
        o["q"] = qty;
        o["f"] = t.id;
        o["l"] = t.id;
        o["T"] = t.time_ms;
        o["m"] = !t.buyer_is_taker; // the buyer is the maker
        hub_.publish(base + "@aggTrade", json::serialize(o));
    }
    std::string const kline_prefix = base + "@kline_";
    for (auto const& topic : hub_.active_topics()) {
        if (!topic.starts_with(kline_prefix))
            continue;
        auto const name = topic.substr(kline_prefix.size());
        auto const it = std::find_if(ws_kline_intervals.begin(), ws_kline_intervals.end(),
                                     [&](ws_named_interval const& i) { return i.name == name; });
        if (it == ws_kline_intervals.end())
            continue;
        candle_interval const iv{it->ms, false};
        auto const got = candles_.query(market, iv, t.time_ms, t.time_ms, 1);
        if (got.empty())
            continue;
        auto const& k = got.back();
        auto p = [&](std::int64_t m) {
            return ws_dec(amount::from_scaled(m, s.px_scale), c->px_scale);
        };
        std::string const vol = ws_dec(amount::from_scaled(k.v, s.sz_scale), c->sz_scale);
        json::object kl;
        kl["t"] = k.t;
        kl["T"] = bucket_next(iv, k.t) - 1;
        kl["s"] = s.symbol;
        kl["i"] = it->name;
        kl["f"] = t.id + 1 >= k.n ? t.id + 1 - k.n : 0;
        kl["L"] = t.id;
        kl["o"] = p(k.o);
        kl["c"] = p(k.c);
        kl["h"] = p(k.h);
        kl["l"] = p(k.l);
        kl["v"] = vol;
        kl["n"] = k.n;
        kl["x"] = false;
        kl["q"] = "0";
        kl["V"] = "0";
        kl["Q"] = "0";
        kl["B"] = "0";
        json::object o;
        o["e"] = "kline";
        o["E"] = now;
        o["s"] = s.symbol;
        o["k"] = std::move(kl);
        hub_.publish(topic, json::serialize(o));
    }
}

// ---------------------------------------------------------------------------------------------
// The user data stream

void ws_feed::on_ledger(ledger_event const& e) {
    {
        std::lock_guard lock(queue_m_);
        queue_.push_back(e);
        if (drain_posted_ || !started_)
            return;
        drain_posted_ = true;
    }
    boost::asio::post(strand_, [self = shared_from_this()] { self->drain(); });
}

std::string ws_feed::order_update(std::string const& user, order_record const& o,
                                  std::string const& x, fill_record const* f,
                                  std::int64_t now) const {
    (void)user;
    auto const* c = ledger_.find(o.spec.symbol);
    unsigned const ps = c ? c->px_scale : 8;
    unsigned const ss = c ? c->sz_scale : 8;
    json::object d;
    d["s"] = o.spec.symbol;
    d["c"] = o.spec.client_order_id;
    d["S"] = o.spec.is_buy ? "BUY" : "SELL";
    d["o"] = o.spec.type;
    d["f"] = o.spec.time_in_force;
    d["q"] = ws_dec(o.spec.quantity, ss);
    d["p"] = ws_dec(o.spec.price, ps);
    d["ap"] = o.executed_qty.is_zero() ? std::string("0") : ws_dec(o.cum_quote / o.executed_qty, 8);
    d["sp"] = ws_dec(o.spec.stop_price, ps);
    d["x"] = x;
    d["X"] = o.status;
    d["i"] = o.order_id;
    d["l"] = f ? ws_dec(f->qty, ss) : std::string("0");
    d["z"] = ws_dec(o.executed_qty, ss);
    d["L"] = f ? ws_dec(f->price, ps) : std::string("0");
    if (f) {
        d["N"] = f->commission_asset;
        d["n"] = ws_dec(f->commission, 8);
    }
    d["T"] = f ? f->time : o.update_time;
    d["t"] = f ? f->id : 0;
    d["b"] = "0";
    d["a"] = "0";
    d["m"] = f ? f->maker : false;
    d["R"] = o.spec.reduce_only;
    d["wt"] = o.spec.working_type;
    d["ot"] = o.spec.orig_type.empty() ? o.spec.type : o.spec.orig_type;
    d["ps"] = "BOTH";
    d["cp"] = o.spec.close_position;
    d["rp"] = f ? ws_dec(f->realized_pnl, 8) : std::string("0");
    json::object out;
    out["e"] = "ORDER_TRADE_UPDATE";
    out["E"] = now;
    out["T"] = now;
    out["o"] = std::move(d);
    return json::serialize(out);
}

std::string ws_feed::account_update(std::string const& user, std::string const& symbol,
                                    std::int64_t now) const {
    auto const v = ledger_.futures(user, marks_of(markets_));
    json::object b;
    b["a"] = "USDT";
    b["wb"] = ws_dec(v.wallet, 8);
    b["cw"] = ws_dec(v.cross_wallet, 8);
    b["bc"] = "0";
    json::array positions;
    for (auto const& p : v.positions) {
        if (p.symbol != symbol)
            continue;
        json::object o;
        o["s"] = p.symbol;
        o["pa"] = ws_dec(p.amt, p.sz_scale);
        o["ep"] = ws_dec(p.entry, 8);
        o["cr"] = "0";
        o["up"] = ws_dec(p.unrealized, 8);
        o["mt"] = p.setting.type == margin_type::isolated ? "isolated" : "cross";
        o["iw"] = ws_dec(p.isolated_wallet, 8);
        o["ps"] = "BOTH";
        positions.push_back(std::move(o));
    }
    json::object a;
    a["m"] = "ORDER";
    a["B"] = json::array{std::move(b)};
    a["P"] = std::move(positions);
    json::object out;
    out["e"] = "ACCOUNT_UPDATE";
    out["E"] = now;
    out["T"] = now;
    out["a"] = std::move(a);
    return json::serialize(out);
}

void ws_feed::drain() {
    std::deque<ledger_event> events;
    {
        std::lock_guard lock(queue_m_);
        events.swap(queue_);
        drain_posted_ = false;
    }
    if (stopped_)
        return;
    std::set<std::string> touched;
    for (auto const& e : events) {
        std::string const topic = user_topic(e.address);
        bool const listening = hub_.has_subscribers(topic);
        std::int64_t const now = now_ms();
        auto announce = [&](order_record o) {
            if (!announced_.insert(o.order_id).second)
                return;
            if (announced_.size() > ws_announced_kept)
                announced_.clear();
            if (!listening)
                return;
            o.status = "NEW";
            o.executed_qty = {};
            o.cum_quote = {};
            hub_.publish(topic, order_update(e.address, o, "NEW", nullptr, now));
        };
        if (e.fill) {
            auto const& f = *e.fill;
            touched.insert(f.symbol);
            auto o = ledger_.order(e.address, f.order_id);
            if (!o)
                continue;
            announce(*o);
            // The order as this fill left it (the ledger may already be further on).
            auto& cum = executed_[f.order_id];
            cum.first += f.qty;
            cum.second += f.quote_qty;
            o->executed_qty = cum.first;
            o->cum_quote = cum.second;
            o->status = cum.first >= o->spec.quantity ? "FILLED" : "PARTIALLY_FILLED";
            if (o->status == "FILLED")
                executed_.erase(f.order_id);
            if (listening) {
                hub_.publish(topic, order_update(e.address, *o, "TRADE", &f, now));
                hub_.publish(topic, account_update(e.address, f.symbol, now));
            }
            continue;
        }
        if (!e.order)
            continue;
        auto const& o = *e.order;
        touched.insert(o.spec.symbol);
        if (o.status == "NEW" && o.executed_qty.is_zero()) {
            announce(o);
            continue;
        }
        if (o.status == "CANCELED" || o.status == "EXPIRED" || o.status == "REJECTED") {
            announce(o);
            executed_.erase(o.order_id);
            if (listening)
                hub_.publish(topic, order_update(e.address, o, o.status, nullptr, now));
        }
        // FILLED / PARTIALLY_FILLED changes went out with their TRADE.
    }
    std::lock_guard lock(depth_m_);
    for (auto const& s : touched)
        if (books_.contains(s))
            refresh_locked(s, now_ms());
}

// ---------------------------------------------------------------------------------------------
// Listen keys

std::string ws_feed::create_listen_key(std::string const& user) {
    std::lock_guard lock(keys_m_);
    auto const now = now_ms();
    auto& k = keys_by_user_[user];
    if (k.key.empty() || k.expires <= now)
        k.key = hex_digits(mix_seed(update_base_, ++key_counter_, now), 64);
    k.expires = now + ws_listen_key_life_ms;
    return k.key;
}

bool ws_feed::keep_alive(std::string const& user) {
    std::lock_guard lock(keys_m_);
    auto const it = keys_by_user_.find(user);
    if (it == keys_by_user_.end() || it->second.expires <= now_ms())
        return false;
    it->second.expires = now_ms() + ws_listen_key_life_ms;
    return true;
}

bool ws_feed::close_listen_key(std::string const& user) {
    std::lock_guard lock(keys_m_);
    auto const it = keys_by_user_.find(user);
    if (it == keys_by_user_.end() || it->second.expires <= now_ms())
        return false;
    keys_by_user_.erase(it);
    return true;
}

std::optional<std::string> ws_feed::listen_key_user(std::string const& key) {
    std::lock_guard lock(keys_m_);
    auto const now = now_ms();
    for (auto const& [user, k] : keys_by_user_)
        if (k.key == key && k.expires > now)
            return user;
    return std::nullopt;
}

} // namespace gateway::mocks::beta
