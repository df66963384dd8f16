#include "alpha_router.hpp"

#include "alpha_accounts.hpp"
#include "alpha_exchange.hpp"
#include "alpha_ledger.hpp"
#include "alpha_ws.hpp"

#include "../common/candles.hpp"
#include "../common/format.hpp"
#include "../common/http_util.hpp"
#include "../common/ids.hpp"
#include "../common/json_out.hpp"
#include "../common/rate_limiter.hpp"
#include "../common/rng.hpp"

#include <gateway/providers/alpha/weights.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

namespace gateway::mocks::alpha {

namespace {

namespace json = boost::json;

// ---------------------------------------------------------------------------------------------
// Seed markets (alpha.md §2, §3.2, §3.3, §3.12)

struct perp_def {
    std::string_view dex; ///< "" = main dex
    std::string_view coin;
    unsigned sz_decimals;
    unsigned max_leverage;
    unsigned px_scale; ///< price decimals the mock quotes (5 significant figures at the mark)
    std::int64_t mark; ///< initial mark, px_scale units
    std::int64_t lot;  ///< typical level size, sz_decimals units
    std::uint32_t step_ppm;
};

constexpr std::array<perp_def, 6> perps{{
    {"", "BTC", 5, 40, 0, 67000, 50000, 600},     // 67000.0, 0.5 BTC per level
    {"", "ETH", 4, 25, 1, 35000, 50000, 800},     // 3500.0, 5 ETH
    {"", "SOL", 2, 20, 2, 15000, 10000, 1000},    // 150.00, 100 SOL
    {"xyz", "TSLA", 3, 10, 2, 43000, 20000, 700}, // 430.00, 20 TSLA
    {"xyz", "NVDA", 3, 10, 2, 18000, 50000, 700}, // 180.00, 50 NVDA
    {"xyz", "GOLD", 4, 20, 1, 33500, 20000, 400}, // 3350.0, 2 GOLD
}};

struct token_def {
    std::string_view name;
    unsigned sz_decimals;
    unsigned wei_decimals;
    std::string_view token_id;
};

constexpr std::array<token_def, 3> tokens{{
    {"USDC", 8, 8, "0x6d1e7cde53ba9467b783cb7c530ce054"},
    {"PURR", 0, 5, "0xc1fb593aeffbeb02f85e0308e9956a90"},
    {"HFUN", 2, 8, "0xbaf265ef389da684513d98d68edf4eae"},
}};

struct pair_def {
    std::string_view name; ///< "PURR/USDC" for index 0, else "@<index>" (alpha.md §2)
    std::string_view alias;
    unsigned base;
    unsigned quote;
    bool canonical;
    unsigned px_scale;
    std::int64_t mark;
    std::int64_t lot;
    std::uint32_t step_ppm;
};

constexpr std::array<pair_def, 2> pairs{{
    {"PURR/USDC", "", 1, 0, true, 5, 18500, 20000, 1500},   // 0.185, 20000 PURR
    {"@1", "HFUN/USDC", 2, 0, false, 4, 50000, 5000, 1200}, // 5.0, 50 HFUN
}};

constexpr std::string_view builder_dex = "xyz";
constexpr std::string_view xyz_deployer = "0x88806a71d74ad0a510b350545c9ae490912f0888";
constexpr std::size_t book_depth = 20;          // alpha.md §3.9: at most 20 levels per side
constexpr std::size_t max_engine_levels = 2000; // read when l2Book aggregates (nSigFigs)
constexpr std::size_t recent_trades = 200; // alpha.md §12.9: count UNCONFIRMED (mocks/README.md)
static_assert(market_state::trades_kept >= recent_trades, "market_state keeps too few trades");
static_assert(initial_trades >= recent_trades, "recentTrades should be full from the start");
constexpr std::size_t max_candles = 5000; // alpha.md §3.10: only the latest 5000 exist
constexpr std::uint32_t ip_budget = 1200; // alpha.md §8
constexpr auto ip_window = std::chrono::seconds(60);

std::string perp_symbol(perp_def const& p) {
    return p.dex.empty() ? std::string(p.coin) : std::string(p.dex) + ":" + std::string(p.coin);
}

// ---------------------------------------------------------------------------------------------
// Responses

constexpr std::string_view deserialize_error =
    "Failed to deserialize the JSON body into the target type";

net::response text(http::status st, std::string body, unsigned version) {
    return make_response(st, std::move(body), "text/plain; charset=utf-8", version);
}

net::response unprocessable(std::string_view why, unsigned version) {
    return text(http::status::unprocessable_entity,
                std::string(deserialize_error) + ": " + std::string(why), version);
}

/// alpha.md §3.10: the 14 candle intervals.
struct named_interval {
    std::string_view name;
    candle_interval iv;
};

constexpr std::int64_t minute = 60'000;
constexpr std::array<named_interval, 14> intervals{{
    {"1m", {minute, false}},
    {"3m", {3 * minute, false}},
    {"5m", {5 * minute, false}},
    {"15m", {15 * minute, false}},
    {"30m", {30 * minute, false}},
    {"1h", {60 * minute, false}},
    {"2h", {120 * minute, false}},
    {"4h", {240 * minute, false}},
    {"8h", {480 * minute, false}},
    {"12h", {720 * minute, false}},
    {"1d", {1440 * minute, false}},
    {"3d", {std::int64_t{3} * 1440 * minute, false}},
    {"1w", {std::int64_t{7} * 1440 * minute, false}},
    {"1M", {0, true}},
}};

std::optional<json::object> parse_body(net::request const& req) {
    boost::system::error_code ec;
    auto v = json::parse(req.body(), ec);
    if (ec || !v.is_object())
        return std::nullopt;
    return std::move(v.get_object());
}

std::optional<std::string_view> string_field(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (!v || !v->is_string())
        return std::nullopt;
    return std::string_view(v->get_string());
}

/// A JSON integer that fits int64 (serde's i64/u64: a float such as 1.0 is refused).
std::optional<std::int64_t> int_field(json::value const& v) {
    if (v.is_int64())
        return v.get_int64();
    if (v.is_uint64() &&
        v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return static_cast<std::int64_t>(v.get_uint64());
    return std::nullopt;
}

/// The answer of one /info request and how many items it returned (for §8 extras).
struct info_answer {
    net::response res;
    std::size_t items = 0;
};

class router final : public upstream_router, public stream_source {
public:
    router(market_state& markets, ws_hub& hub, mock_options const& options)
        : markets_(markets)
        , limiter_(options.rate_limits ? ip_budget : UINT32_MAX, ip_window)
        , seed_(options.seed)
        , ledger_(options.seed, instruments(), token_names())
        , engine_(ledger_, markets_, assets(markets_), options.testnet) {
        // Candle history: backfilled up to the first seeded trade, then fed every trade.
        std::int64_t first = now_ms();
        for (std::size_t i = 0; i < markets_.size(); ++i)
            for (auto const& t : markets_.trades(i, 1))
                first = std::min(first, t.time_ms);
        std::vector<market_spec> specs;
        for (std::size_t i = 0; i < markets_.size(); ++i)
            specs.push_back(markets_.spec(i));
        candles_ = std::make_unique<candle_history>(seed_, specs, first);
        for (std::size_t i = 0; i < markets_.size(); ++i)
            for (auto const& t : markets_.trades(i, market_state::trades_kept))
                candles_->record(i, t.time_ms, t.px, t.sz);
        feed_ = std::make_shared<ws_feed>(hub, markets_, *this, options.ws_book_interval);
        markets_.set_trade_listener(
            [c = candles_.get(), f = feed_.get()](std::size_t i, trade const& t) {
                c->record(i, t.time_ms, t.px, t.sz);
                f->on_trade(i, t);
            });
        ledger_.set_listener([f = feed_.get()](ledger_event const& e) { f->on_ledger(e); });
        dexes_.emplace_back();
        dexes_.emplace_back(builder_dex);
    }

    ~router() override {
        markets_.set_trade_listener({});
        ledger_.set_listener({});
    }

    // -----------------------------------------------------------------------------------------
    // WebSocket (alpha_ws.hpp)

    ws_route ws_open(net::request const& req, caller const&) override {
        auto const path = split_target(req.target()).path;
        if (path != "/ws")
            return text(http::status::not_found, "Not Found", req.version());
        return ws_accept{[f = feed_](std::shared_ptr<ws_conn> const& c) {
            return f->make_handler(c);
        }};
    }

    void on_market_change() override { feed_->on_market_change(); }
    void start(boost::asio::any_io_executor ex) override { feed_->start(std::move(ex)); }
    void stop() override { feed_->stop(); }

    std::optional<json::object> mids(std::string_view dex) const override {
        if (!dex.empty() && dex != builder_dex)
            return std::nullopt;
        return all_mids(dex);
    }

    std::optional<json::object> book(std::string_view coin, std::optional<std::int64_t> sig,
                                     std::optional<std::int64_t> mant) const override {
        return l2_book_data(coin, sig, mant);
    }

    bool known_interval(std::string_view name) const override {
        return std::any_of(intervals.begin(), intervals.end(),
                           [&](named_interval const& n) { return n.name == name; });
    }

    std::optional<json::object> candle(std::size_t market, std::string_view name,
                                       std::int64_t t) const override {
        auto const it = std::find_if(intervals.begin(), intervals.end(),
                                     [&](named_interval const& n) { return n.name == name; });
        if (it == intervals.end())
            return std::nullopt;
        auto const c = candles_->query(market, it->iv, t, t, 1);
        if (c.empty())
            return std::nullopt;
        return candle_json(markets_.spec(market), *it, c.back());
    }

    std::vector<fill_record> fills(std::string const& user) const override {
        return ledger_.fills(user);
    }

    void sync() override { engine_.sync(); }

    router(router const&) = delete;
    router& operator=(router const&) = delete;

    std::string classify(net::request const& req) const override {
        auto const path = split_target(req.target()).path;
        if (req.method() == http::verb::post && (path == "/info" || path == "/exchange")) {
            auto const body = parse_body(req);
            if (path == "/info") {
                if (body)
                    if (auto t = string_field(*body, "type"))
                        return std::string(*t);
                return "invalid";
            }
            if (body)
                if (auto const* a = body->if_contains("action"); a && a->is_object())
                    if (auto t = string_field(a->get_object(), "type"))
                        return "exchange:" + std::string(*t);
            return "exchange:invalid";
        }
        return std::string(req.method_string()) + " " + path;
    }

    net::response handle(net::request const& req, caller const& who) override {
        auto const path = split_target(req.target()).path;
        unsigned const v = req.version();
        if (path != "/info" && path != "/exchange")
            return text(http::status::not_found, "Not Found", v);
        if (req.method() != http::verb::post) {
            auto res = text(http::status::method_not_allowed, "Method Not Allowed", v);
            res.set(http::field::allow, "POST");
            return res;
        }
        auto const body = parse_body(req);
        std::uint32_t weight = 20;
        if (path == "/info" && body)
            if (auto t = string_field(*body, "type"))
                weight = wire::alpha::info_weight(*t);
        if (path == "/exchange" && body)
            if (auto const* a = body->if_contains("action"); a && a->is_object())
                weight = wire::alpha::exchange_weight(a->get_object());
        if (!limiter_.admit(who.address, weight, weight_limiter::clock::now()).admitted)
            return text(http::status::too_many_requests, "Too Many Requests", v);
        if (!body)
            return unprocessable("expected a JSON object", v);
        if (path == "/exchange")
            return exchange_action(*body, v);
        engine_.sync(); // re-quotes and triggers first, so reads see the current book
        auto answer = info(*body, v);
        if (answer.res.result() == http::status::ok)
            if (auto t = string_field(*body, "type"))
                limiter_.charge(who.address, wire::alpha::info_item_weight(*t, answer.items),
                                weight_limiter::clock::now());
        return std::move(answer.res);
    }

    std::optional<net::response> handle_control(net::request const& req) override {
        engine_.sync();
        return accounts_control(req, ledger_, markets_, dexes_);
    }

    net::response forced_status(unsigned status, unsigned version) const override {
        auto const st = static_cast<http::status>(status);
        auto reason = http::obsolete_reason(st);
        return text(st, reason.empty() ? "Error" : std::string(reason), version);
    }

    net::response render_failure(net::failure const& f, unsigned version) const override {
        return net::render_plain_failure(f, version);
    }

private:
    // -----------------------------------------------------------------------------------------
    // /exchange (alpha_exchange.hpp)

    net::response exchange_action(json::object const& body, unsigned v) {
        auto reply = engine_.handle(body);
        if (!reply.json)
            return unprocessable(reply.unprocessable, v);
        return json_response(http::status::ok, *reply.json, v);
    }

    // -----------------------------------------------------------------------------------------
    // /info

    /// Resolves the optional `dex` field: "" (main) or the builder dex; nullopt when invalid.
    std::optional<std::string_view> dex_of(json::object const& body, std::string& why) const {
        auto const* d = body.if_contains("dex");
        if (!d || d->is_null())
            return std::string_view{};
        if (!d->is_string()) {
            why = "invalid type for field `dex`, expected a string";
            return std::nullopt;
        }
        std::string_view const name = d->get_string();
        if (name.empty() || name == builder_dex)
            return name.empty() ? std::string_view{} : builder_dex;
        why = "unknown dex `" + std::string(name) + "`";
        return std::nullopt;
    }

    info_answer info(json::object const& body, unsigned v) {
        auto const type = string_field(body, "type");
        if (!type)
            return {unprocessable("missing field `type`", v)};
        if (auto account = account_info(*type, body, v))
            return std::move(*account);
        std::string why;
        if (*type == "allMids") {
            auto const dex = dex_of(body, why);
            if (!dex)
                return {unprocessable(why, v)};
            return {json_response(http::status::ok, all_mids(*dex), v)};
        }
        if (*type == "exchangeStatus") {
            json::object o;
            o["time"] = now_ms();
            o["specialStatuses"] = nullptr;
            return {json_response(http::status::ok, o, v)};
        }
        if (*type == "meta" || *type == "metaAndAssetCtxs") {
            auto const dex = dex_of(body, why);
            if (!dex)
                return {unprocessable(why, v)};
            if (*type == "meta")
                return {json_response(http::status::ok, meta(*dex), v)};
            json::array out;
            out.push_back(meta(*dex));
            out.push_back(asset_ctxs(*dex));
            return {json_response(http::status::ok, out, v)};
        }
        if (*type == "spotMeta")
            return {json_response(http::status::ok, spot_meta(), v)};
        if (*type == "spotMetaAndAssetCtxs")
            return {
                json_response(http::status::ok, json::array{spot_meta(), spot_asset_ctxs()}, v)};
        if (*type == "perpDexs")
            return {json_response(http::status::ok, perp_dexs(), v)};
        if (*type == "l2Book")
            return {l2_book(body, v)};
        if (*type == "recentTrades") {
            auto const coin = string_field(body, "coin");
            if (!coin)
                return {unprocessable("missing field `coin`", v)};
            auto const t = trades(*coin);
            std::size_t const n = t.is_array() ? t.get_array().size() : 0;
            return {json_response(http::status::ok, t, v), n};
        }
        if (*type == "candleSnapshot")
            return candle_snapshot(body, v);
        if (*type == "perpDexStatus" || *type == "perpDexLimits")
            return {dex_info(*type, body, v)};
        return {unprocessable("unknown variant `" + std::string(*type) + "`", v)};
    }

    // -----------------------------------------------------------------------------------------
    // Account types (alpha.md §3.4-3.8, §3.13), served from the ledger

    /// The `user` field: 0x + 40 hex digits in any case, answered lowercase.
    std::optional<std::string> user_of(json::object const& body, std::string& why) const {
        auto const* u = body.if_contains("user");
        if (!u) {
            why = "missing field `user`";
            return std::nullopt;
        }
        if (!u->is_string()) {
            why = "user: invalid type, expected a string";
            return std::nullopt;
        }
        auto a = ledger::normalize_address(u->get_string());
        if (!a)
            why = "user: invalid address `" + std::string(u->get_string()) +
                  "`, expected 0x followed by 40 hex digits";
        return a;
    }

    /// An optional boolean field (`aggregateByTime`).
    static bool bool_ok(json::object const& body, std::string_view key, std::string& why) {
        auto const* b = body.if_contains(key);
        if (!b || b->is_null() || b->is_bool())
            return true;
        why = std::string(key) + ": invalid type, expected a boolean";
        return false;
    }

    static json::array to_array(std::vector<json::object> items) {
        json::array out;
        for (auto& o : items)
            out.push_back(std::move(o));
        return out;
    }

    std::optional<info_answer> account_info(std::string_view type, json::object const& body,
                                            unsigned v) const {
        static constexpr std::array<std::string_view, 14> account_types{
            "clearinghouseState", "spotClearinghouseState",
            "openOrders",         "frontendOpenOrders",
            "userFills",          "userFillsByTime",
            "orderStatus",        "historicalOrders",
            "extraAgents",        "userRole",
            "userRateLimit",      "activeAssetData",
            "userAbstraction",    "maxBuilderFee"};
        if (std::find(account_types.begin(), account_types.end(), type) == account_types.end())
            return std::nullopt;
        std::string why;
        auto const user = user_of(body, why);
        if (!user)
            return info_answer{unprocessable(why, v)};
        auto ok = [v](json::value const& body, std::size_t items = 0) {
            return info_answer{json_response(http::status::ok, body, v), items};
        };
        if (type == "clearinghouseState" || type == "openOrders" || type == "frontendOpenOrders") {
            auto const dex = dex_of(body, why);
            if (!dex)
                return info_answer{unprocessable(why, v)};
            std::string const d(*dex);
            if (type == "clearinghouseState")
                return ok(
                    clearinghouse_json(ledger_.perp_state(*user, d, marks_of(markets_)), now_ms()));
            json::array out;
            for (auto const& o : ledger_.open_orders(*user, d))
                out.push_back(type == "openOrders" ? open_order_json(o) : frontend_order_json(o));
            return ok(out);
        }
        if (type == "spotClearinghouseState")
            return ok(spot_clearinghouse_json(ledger_.spot_state(*user)));
        if (type == "userFills" || type == "userFillsByTime") {
            if (!bool_ok(body, "aggregateByTime", why))
                return info_answer{unprocessable(why, v)};
            std::vector<fill_record> fills;
            if (type == "userFills") {
                fills = ledger_.fills(*user);
            } else {
                auto const* st = body.if_contains("startTime");
                if (!st)
                    return info_answer{unprocessable("missing field `startTime`", v)};
                auto const start = int_field(*st);
                if (!start)
                    return info_answer{
                        unprocessable("startTime: invalid type, expected an integer", v)};
                std::int64_t end = std::numeric_limits<std::int64_t>::max();
                if (auto const* et = body.if_contains("endTime"); et && !et->is_null()) {
                    auto const e = int_field(*et);
                    if (!e)
                        return info_answer{
                            unprocessable("endTime: invalid type, expected an integer", v)};
                    end = *e;
                }
                fills = ledger_.fills_by_time(*user, *start, end);
            }
            json::array out;
            for (auto const& f : fills)
                out.push_back(fill_json(f));
            return ok(out, fills.size());
        }
        if (type == "orderStatus") {
            auto const* oid = body.if_contains("oid");
            if (!oid)
                return info_answer{unprocessable("missing field `oid`", v)};
            std::optional<order_status_record> r;
            if (auto const n = int_field(*oid); n && *n >= 0) {
                r = ledger_.order_status(*user, static_cast<std::uint64_t>(*n));
            } else if (oid->is_string()) {
                std::string cloid(oid->get_string());
                std::transform(cloid.begin(), cloid.end(), cloid.begin(), [](char c) {
                    return c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c;
                });
                if (cloid.size() != 34 || cloid.rfind("0x", 0) != 0)
                    return info_answer{unprocessable(
                        "oid: expected an order id or a 0x-prefixed 32-hex-digit cloid", v)};
                r = ledger_.order_status_by_cloid(*user, cloid);
            } else {
                return info_answer{unprocessable(
                    "oid: expected an order id or a 0x-prefixed 32-hex-digit cloid", v)};
            }
            json::object o;
            if (!r) {
                o["status"] = "unknownOid";
                return ok(o);
            }
            o["status"] = "order";
            o["order"] = order_status_json(*r);
            return ok(o);
        }
        if (type == "historicalOrders") {
            json::array out;
            auto const h = ledger_.historical_orders(*user);
            for (auto const& r : h)
                out.push_back(order_status_json(r));
            return ok(out, h.size());
        }
        if (type == "extraAgents")
            return ok(agents_json(ledger_.extra_agents(*user)));
        if (type == "userRole")
            return ok(role_json(ledger_.role(*user)));
        if (type == "userRateLimit")
            return ok(rate_limit_json(ledger_.rate_limit(*user)));
        if (type == "userAbstraction")
            // A bare JSON string. The mock keeps perps and spot apart and has no
            // userSetAbstraction, so every account is in the mode of one never set.
            return ok(json::string("default"));
        if (type == "maxBuilderFee") {
            auto const* b = body.if_contains("builder");
            if (!b)
                return info_answer{unprocessable("missing field `builder`", v)};
            auto const builder =
                b->is_string() ? ledger::normalize_address(b->get_string()) : std::nullopt;
            if (!builder)
                return info_answer{unprocessable(
                    "builder: invalid address, expected 0x followed by 40 hex digits", v)};
            // A JSON number: tenths of a basis point, 0 when never approved.
            return ok(ledger_.max_builder_fee(*user, *builder).value_or(0));
        }
        return active_asset_data(*user, body, v);
    }

    /// alpha.md §3.13 `activeAssetData`: the coin's leverage setting, mark, and trade sizes
    /// from the free margin (cross account value - margin used) at that leverage.
    std::optional<info_answer> active_asset_data(std::string const& user, json::object const& body,
                                                 unsigned v) const {
        auto const coin = string_field(body, "coin");
        if (!coin)
            return info_answer{unprocessable("missing field `coin`", v)};
        auto const ins = ledger_.find(*coin);
        auto const idx = markets_.find(*coin);
        if (!ins || ins->spot || !idx)
            return info_answer{unprocessable("coin: unknown perp `" + std::string(*coin) + "`", v)};
        auto const& s = markets_.spec(*idx);
        auto const lev = ledger_.leverage_of(user, ins->coin);
        auto const state = ledger_.perp_state(user, ins->dex, marks_of(markets_));
        amount const mark = amount::from_scaled(markets_.mark(*idx), s.px_scale);
        amount const free =
            std::max(amount{}, state.cross.account_value - state.cross.total_margin_used);
        amount const ntl = free.times(lev.value);
        amount const sz = (ntl / mark).rounded(s.sz_scale);
        json::object l;
        l["type"] = lev.mode == margin_mode::cross ? "cross" : "isolated";
        l["value"] = lev.value;
        json::object o;
        o["user"] = user;
        o["coin"] = ins->coin;
        o["leverage"] = std::move(l);
        o["maxTradeSzs"] = json::array{sz.hl(), sz.hl()};
        o["availableToTrade"] = json::array{ntl.hl(6), ntl.hl(6)};
        o["markPx"] = mark.hl();
        return info_answer{json_response(http::status::ok, o, v)};
    }

    // -----------------------------------------------------------------------------------------
    // candleSnapshot (alpha.md §3.10), perpDexStatus / perpDexLimits (§3.12)

    info_answer candle_snapshot(json::object const& body, unsigned v) const {
        auto const* r = body.if_contains("req");
        if (!r)
            return {unprocessable("missing field `req`", v)};
        if (!r->is_object())
            return {unprocessable("req: invalid type, expected a struct", v)};
        auto const& req = r->get_object();
        auto const coin = string_field(req, "coin");
        if (!coin)
            return {unprocessable("req: missing field `coin`", v)};
        auto const iname = string_field(req, "interval");
        if (!iname)
            return {unprocessable("req: missing field `interval`", v)};
        auto const it = std::find_if(intervals.begin(), intervals.end(),
                                     [&](named_interval const& n) { return n.name == *iname; });
        if (it == intervals.end())
            return {unprocessable("req: unknown variant `" + std::string(*iname) +
                                      "`, expected one of `1m`, `3m`, `5m`, `15m`, `30m`, `1h`, "
                                      "`2h`, `4h`, `8h`, `12h`, `1d`, `3d`, `1w`, `1M`",
                                  v)};
        auto const* st = req.if_contains("startTime");
        if (!st)
            return {unprocessable("req: missing field `startTime`", v)};
        auto const start = int_field(*st);
        if (!start)
            return {unprocessable("req.startTime: invalid type, expected an integer", v)};
        std::int64_t end = now_ms();
        if (auto const* et = req.if_contains("endTime"); et && !et->is_null()) {
            auto const e = int_field(*et);
            if (!e)
                return {unprocessable("req.endTime: invalid type, expected an integer", v)};
            end = *e;
        }
        auto const idx = markets_.find(*coin);
        json::array out;
        if (!idx || markets_.spec(*idx).symbol != *coin)
            return {json_response(http::status::ok, out, v)}; // unknown coin -> []
        auto const& s = markets_.spec(*idx);
        for (auto const& c : candles_->query(*idx, it->iv, *start, end, max_candles))
            out.push_back(candle_json(s, *it, c));
        std::size_t const n = out.size();
        return {json_response(http::status::ok, out, v), n};
    }

    static json::object candle_json(market_spec const& s, named_interval const& iv,
                                    mocks::candle const& c) {
        json::object o;
        o["t"] = c.t;
        o["T"] = bucket_next(iv.iv, c.t) - 1;
        o["s"] = s.symbol;
        o["i"] = iv.name;
        o["o"] = float_style(c.o, s.px_scale);
        o["c"] = float_style(c.c, s.px_scale);
        o["h"] = float_style(c.h, s.px_scale);
        o["l"] = float_style(c.l, s.px_scale);
        o["v"] = float_style(c.v, s.sz_scale);
        o["n"] = c.n;
        return o;
    }

    /// perpDexStatus (`""` = main dex) and perpDexLimits (a builder dex only); an unknown
    /// dex answers null.
    net::response dex_info(std::string_view type, json::object const& body, unsigned v) const {
        auto const* d = body.if_contains("dex");
        std::string_view name;
        if (d && !d->is_null()) {
            if (!d->is_string())
                return unprocessable("dex: invalid type, expected a string", v);
            name = d->get_string();
        } else if (type == "perpDexLimits") {
            return unprocessable("missing field `dex`", v);
        }
        if (type == "perpDexLimits" && name.empty())
            return unprocessable("dex: the main dex has no limits", v);
        if (!name.empty() && name != builder_dex)
            return json_response(http::status::ok, nullptr, v);
        json::object o;
        if (type == "perpDexStatus") {
            // A seeded base (other depositors) plus what the control API credited.
            splitmix64 r(mix_seed(seed_, 0xde9, name.empty() ? 0 : 1));
            std::int64_t const base =
                r.between(400'000'000, 4'000'000'000) * 1'000'000 + r.between(0, 999'999);
            amount const total =
                amount::from_scaled(base, 6) + ledger_.net_deposits(std::string(name));
            o["totalNetDeposit"] = total.hl(6);
            return json_response(http::status::ok, o, v);
        }
        json::array caps;
        for (auto const& p : perps)
            if (p.dex == builder_dex)
                caps.push_back(json::array{perp_symbol(p), "50000000.0"});
        o["totalOiCap"] = "150000000.0";
        o["oiSzCapPerPerp"] = "10000000000.0";
        o["maxTransferNtl"] = "100000000.0";
        o["coinToOiCap"] = std::move(caps);
        return json_response(http::status::ok, o, v);
    }

    std::size_t index_of(std::string const& symbol) const { return *markets_.find(symbol); }

    /// Mid of the engine's book (falls back to the mark when a side is empty), Hyperliquid
    /// style.
    std::string mid_text(std::size_t i) const {
        auto const& s = markets_.spec(i);
        auto const b = engine_.book(i, 1);
        if (b.bids.empty() || b.asks.empty())
            return float_style(markets_.mark(i), s.px_scale);
        return (b.bids.front().px + b.asks.front().px).over(2).hl();
    }

    json::object all_mids(std::string_view dex) const {
        json::object o;
        for (auto const& p : perps)
            if (p.dex == dex) {
                auto const sym = perp_symbol(p);
                o[sym] = mid_text(index_of(sym));
            }
        if (dex.empty())
            for (auto const& p : pairs)
                o[p.name] = mid_text(index_of(std::string(p.name)));
        return o;
    }

    json::object meta(std::string_view dex) const {
        json::array universe;
        json::array tables;
        std::vector<unsigned> table_ids;
        for (auto const& p : perps) {
            if (p.dex != dex)
                continue;
            json::object u;
            u["name"] = perp_symbol(p);
            u["szDecimals"] = p.sz_decimals;
            u["maxLeverage"] = p.max_leverage;
            u["marginTableId"] = p.max_leverage;
            if (!dex.empty()) {
                // HIP-3 perps are isolated-only (alpha.md §3.2 example).
                u["onlyIsolated"] = true;
                u["marginMode"] = "strictIsolated";
            } else if (std::find(table_ids.begin(), table_ids.end(), p.max_leverage) ==
                       table_ids.end()) {
                table_ids.push_back(p.max_leverage);
                json::object tier;
                tier["lowerBound"] = "0.0";
                tier["maxLeverage"] = p.max_leverage;
                json::object table;
                table["description"] = "";
                table["marginTiers"] = json::array{tier};
                tables.push_back(json::array{p.max_leverage, table});
            }
            universe.push_back(std::move(u));
        }
        json::object o;
        o["universe"] = std::move(universe);
        o["marginTables"] = std::move(tables);
        o["collateralToken"] = 0;
        return o;
    }

    json::array asset_ctxs(std::string_view dex) const {
        json::array out;
        for (std::size_t k = 0; k < perps.size(); ++k) {
            auto const& p = perps[k];
            if (p.dex != dex)
                continue;
            std::size_t const i = index_of(perp_symbol(p));
            auto const& s = markets_.spec(i);
            std::int64_t const mark = markets_.mark(i);
            auto const b = engine_.book(i, 1);
            // Slow-moving statistics: fixed per seed and market.
            splitmix64 r(mix_seed(seed_, 0xc7c, k));
            std::int64_t const funding = r.between(-500, 1500);    // scale 8
            std::int64_t const premium = r.between(-30000, 60000); // scale 8
            std::int64_t const base_vlm = s.lot * r.between(500, 5000);
            std::int64_t const oi = s.lot * r.between(100, 2000);
            json::object c;
            c["funding"] = float_style(funding, 8);
            c["openInterest"] = float_style(oi, s.sz_scale);
            c["prevDayPx"] = float_style(s.mark, s.px_scale);
            c["dayNtlVlm"] = float_style(base_vlm * s.mark, s.sz_scale + s.px_scale);
            c["premium"] = float_style(premium, 8);
            c["oraclePx"] = float_style(mark, s.px_scale);
            c["markPx"] = float_style(mark, s.px_scale);
            if (b.bids.empty() || b.asks.empty()) {
                c["midPx"] = nullptr;
                c["impactPxs"] = nullptr;
            } else {
                c["midPx"] = mid_text(i);
                c["impactPxs"] = json::array{b.bids.front().px.hl(), b.asks.front().px.hl()};
            }
            c["dayBaseVlm"] = float_style(base_vlm, s.sz_scale);
            out.push_back(std::move(c));
        }
        return out;
    }

    static json::object spot_meta() {
        json::array toks;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            json::object t;
            t["name"] = tokens[i].name;
            t["szDecimals"] = tokens[i].sz_decimals;
            t["weiDecimals"] = tokens[i].wei_decimals;
            t["index"] = i;
            t["tokenId"] = tokens[i].token_id;
            t["isCanonical"] = i < 2;
            t["evmContract"] = nullptr;
            t["fullName"] = nullptr;
            toks.push_back(std::move(t));
        }
        json::array universe;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            json::object u;
            u["name"] = pairs[i].name;
            u["tokens"] = json::array{pairs[i].base, pairs[i].quote};
            u["index"] = i;
            u["isCanonical"] = pairs[i].canonical;
            universe.push_back(std::move(u));
        }
        json::object o;
        o["tokens"] = std::move(toks);
        o["universe"] = std::move(universe);
        return o;
    }

    /// alpha.md §3.3: `spotMetaAndAssetCtxs` contexts, aligned with `spotMeta.universe`.
    json::array spot_asset_ctxs() const {
        json::array out;
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            auto const& p = pairs[k];
            std::size_t const i = index_of(std::string(p.name));
            auto const& s = markets_.spec(i);
            auto const& base = tokens[p.base];
            auto const b = engine_.book(i, 1);
            // Slow-moving statistics: fixed per seed and pair.
            splitmix64 r(mix_seed(seed_, 0x5c7, k));
            std::int64_t const base_vlm = s.lot * r.between(50, 2000);
            // Supplies in whole tokens, shown at the token's wei precision.
            std::int64_t const total = r.between(100'000'000, 1'000'000'000);
            std::int64_t const circulating = total - r.between(1, total / 10);
            std::int64_t const wei = pow10(base.wei_decimals);
            json::object c;
            c["prevDayPx"] = float_style(s.mark, s.px_scale);
            c["dayNtlVlm"] = float_style(base_vlm * s.mark, s.sz_scale + s.px_scale);
            c["markPx"] = float_style(markets_.mark(i), s.px_scale);
            if (b.bids.empty() || b.asks.empty())
                c["midPx"] = nullptr;
            else
                c["midPx"] = mid_text(i);
            c["circulatingSupply"] =
                float_style(circulating * wei + r.between(0, wei - 1), base.wei_decimals);
            c["coin"] = p.name;
            c["totalSupply"] = float_style(total * wei, base.wei_decimals);
            c["dayBaseVlm"] = float_style(base_vlm, s.sz_scale);
            out.push_back(std::move(c));
        }
        return out;
    }

    static json::array perp_dexs() {
        json::array caps;
        for (auto const& p : perps)
            if (p.dex == builder_dex)
                caps.push_back(json::array{perp_symbol(p), "50000000.0"});
        json::object d;
        d["name"] = builder_dex;
        d["fullName"] = "XYZ";
        d["deployer"] = xyz_deployer;
        d["oracleUpdater"] = nullptr;
        d["feeRecipient"] = nullptr;
        d["assetToStreamingOiCap"] = std::move(caps);
        d["assetToFundingMultiplier"] = json::array{};
        d["subDeployers"] = json::array{};
        d["deployerFeeScale"] = "1.0";
        d["lastDeployerFeeScaleChangeTime"] = "1970-01-01T00:00:00";
        d["assetToFundingInterestRate"] = json::array{};
        return json::array{nullptr, std::move(d)};
    }

    /// alpha.md §3.9: `nSigFigs` in {2,3,4,5,null}; `mantissa` in {1,2,5} only with 5.
    net::response l2_book(json::object const& body, unsigned v) const {
        auto const coin = string_field(body, "coin");
        if (!coin)
            return unprocessable("missing field `coin`", v);
        std::optional<std::int64_t> sig, mant;
        if (auto const* n = body.if_contains("nSigFigs"); n && !n->is_null()) {
            if (!n->is_int64() || n->get_int64() < 2 || n->get_int64() > 5)
                return unprocessable("invalid value for field `nSigFigs`", v);
            sig = n->get_int64();
        }
        if (auto const* m = body.if_contains("mantissa"); m && !m->is_null()) {
            if (!m->is_int64() ||
                (m->get_int64() != 1 && m->get_int64() != 2 && m->get_int64() != 5) || sig != 5)
                return unprocessable("invalid value for field `mantissa`", v);
            mant = m->get_int64();
        }
        auto book = l2_book_data(*coin, sig, mant);
        if (!book)
            return json_response(http::status::ok, nullptr, v); // unknown coin -> null
        return json_response(http::status::ok, *book, v);
    }

    /// The l2Book object (REST and WebSocket); nullopt for an unknown coin.
    std::optional<json::object> l2_book_data(std::string_view coin, std::optional<std::int64_t> sig,
                                             std::optional<std::int64_t> mant) const {
        auto const idx = markets_.find(coin);
        if (!idx || markets_.spec(*idx).symbol != coin)
            return std::nullopt;
        auto const& s = markets_.spec(*idx);
        // Bucket size in px_scale units: keep nSigFigs significant digits of the mark.
        std::int64_t bucket = 1;
        if (sig) {
            unsigned digits = 0;
            for (std::int64_t m = markets_.mark(*idx); m > 0; m /= 10)
                ++digits;
            if (static_cast<std::int64_t>(digits) > *sig)
                bucket = pow10(digits - static_cast<unsigned>(*sig));
            if (mant)
                bucket *= *mant;
        }
        // The engine's book (house ladder and user orders), bucketed when asked.
        std::optional<amount> step;
        if (bucket > 1)
            step = amount::from_scaled(bucket, s.px_scale);
        auto const b = engine_.book(*idx, step ? max_engine_levels : book_depth);
        auto side = [&](std::vector<engine_level> const& lv, bool bids) {
            json::array out;
            std::optional<engine_level> acc;
            auto flush = [&] {
                json::object o;
                o["px"] = acc->px.hl();
                o["sz"] = acc->sz.hl();
                o["n"] = acc->n;
                out.push_back(std::move(o));
            };
            for (auto const& l : lv) {
                amount px = l.px;
                if (step) {
                    amount_rep const q = step->raw();
                    amount_rep r = px.raw() / q * q;
                    if (!bids && r != px.raw())
                        r += q;
                    px = amount::from_raw(r);
                }
                if (acc && acc->px == px) {
                    acc->sz += l.sz;
                    acc->n += l.n;
                    continue;
                }
                if (acc) {
                    flush();
                    if (out.size() == book_depth)
                        return out;
                }
                acc = engine_level{px, l.sz, l.n};
            }
            if (acc && out.size() < book_depth)
                flush();
            return out;
        };
        json::object o;
        o["coin"] = s.symbol;
        o["time"] = now_ms();
        o["levels"] = json::array{side(b.bids, true), side(b.asks, false)};
        return o;
    }

    /// Only the upstream's own names are coins (aliases such as "HFUN/USDC" are mock-only).
    json::value trades(std::string_view coin) const {
        auto const idx = markets_.find(coin);
        if (!idx || markets_.spec(*idx).symbol != coin)
            return nullptr;
        auto const& s = markets_.spec(*idx);
        json::array out;
        for (auto const& t : markets_.trades(*idx, recent_trades))
            out.push_back(trade_json(s, t));
        return out;
    }

    market_state& markets_;
    weight_limiter limiter_;
    std::uint64_t seed_;
    ledger ledger_;
    alpha::exchange engine_;
    std::unique_ptr<candle_history> candles_;
    std::vector<std::string> dexes_; ///< "" and the builder dex
    std::shared_ptr<ws_feed> feed_;
};

} // namespace

std::vector<instrument> instruments() {
    std::vector<instrument> out;
    for (auto const& p : perps) {
        instrument i;
        i.coin = perp_symbol(p);
        i.dex = std::string(p.dex);
        i.max_leverage = p.max_leverage;
        i.only_isolated = !p.dex.empty(); // HIP-3 perps are isolated-only (meta)
        out.push_back(std::move(i));
    }
    for (auto const& p : pairs) {
        instrument i;
        i.coin = std::string(p.name);
        i.spot = true;
        i.base = std::string(tokens[p.base].name);
        i.quote = std::string(tokens[p.quote].name);
        out.push_back(std::move(i));
    }
    return out;
}

std::vector<std::string> token_names() {
    std::vector<std::string> out;
    out.reserve(tokens.size());
    for (auto const& t : tokens)
        out.emplace_back(t.name);
    return out;
}

std::vector<asset_info> assets(market_state const& markets) {
    std::vector<asset_info> out;
    std::vector<std::size_t> per_dex(2, 0); // main dex, builder dex
    for (auto const& p : perps) {
        asset_info a;
        bool const builder = !p.dex.empty();
        std::size_t const index = per_dex[builder ? 1 : 0]++;
        // alpha.md §2: main perps by index; the builder dex is perpDexs[1] -> 110000 + index.
        a.asset = static_cast<std::uint32_t>(builder ? 110000 + index : index);
        a.coin = perp_symbol(p);
        a.market = *markets.find(a.coin);
        a.dex = std::string(p.dex);
        a.sz_decimals = p.sz_decimals;
        a.max_leverage = p.max_leverage;
        a.only_isolated = builder;
        out.push_back(std::move(a));
    }
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        auto const& p = pairs[i];
        asset_info a;
        a.asset = static_cast<std::uint32_t>(10000 + i);
        a.coin = std::string(p.name);
        a.market = *markets.find(a.coin);
        a.sz_decimals = tokens[p.base].sz_decimals;
        a.spot = true;
        a.base = std::string(tokens[p.base].name);
        a.quote = std::string(tokens[p.quote].name);
        a.base_wei_decimals = tokens[p.base].wei_decimals;
        a.quote_wei_decimals = tokens[p.quote].wei_decimals;
        out.push_back(std::move(a));
    }
    return out;
}

std::vector<market_spec> market_specs() {
    std::vector<market_spec> out;
    for (auto const& p : perps) {
        market_spec s;
        s.symbol = perp_symbol(p);
        s.px_scale = p.px_scale;
        s.sz_scale = p.sz_decimals;
        s.mark = p.mark;
        s.lot = p.lot;
        s.step_ppm = p.step_ppm;
        s.max_orders = 20;
        out.push_back(std::move(s));
    }
    for (auto const& p : pairs) {
        market_spec s;
        s.symbol = std::string(p.name);
        if (!p.alias.empty())
            s.aliases.emplace_back(p.alias);
        s.px_scale = p.px_scale;
        s.sz_scale = tokens[p.base].sz_decimals; // a pair's szDecimals is its base token's
        s.mark = p.mark;
        s.lot = p.lot;
        s.step_ppm = p.step_ppm;
        s.max_orders = 8;
        out.push_back(std::move(s));
    }
    return out;
}

std::unique_ptr<upstream_router> make_router(market_state& markets, ws_hub& hub,
                                             mock_options const& options) {
    return std::make_unique<router>(markets, hub, options);
}

} // namespace gateway::mocks::alpha
