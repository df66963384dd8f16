#include "beta_router.hpp"

#include "beta_accounts.hpp"
#include "beta_auth.hpp"
#include "beta_ledger.hpp"
#include "beta_matching.hpp"
#include "beta_orders.hpp"
#include "beta_public.hpp"
#include "beta_replies.hpp"
#include "beta_ws.hpp"

#include "../common/candles.hpp"
#include "../common/http_util.hpp"
#include "../common/json_out.hpp"
#include "../common/rate_limiter.hpp"

#include <gateway/providers/beta/errors.hpp>
#include <gateway/providers/beta/weights.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;
namespace w = gateway::wire::beta;

constexpr auto budget_window = std::chrono::seconds(w::window_seconds);
constexpr std::int64_t seven_days_ms = 7 * 86'400'000LL;
constexpr std::size_t max_user_trades = 1000;
constexpr std::size_t default_user_trades = 500;
constexpr std::size_t max_income = 1000;
constexpr std::size_t default_income = 100;

enum class endpoint {
    ping,
    time,
    exchange_info,
    depth,
    trades,
    klines,
    ticker_price,
    ticker_24hr,
    book_ticker,
    premium_index,
    open_interest,
    account,
    balance,
    position_risk,
    open_orders,
    user_trades,
    income,
    leverage_bracket,
    spot_account,
    new_order,
    cancel_order,
    query_order,
    cancel_all,
    set_leverage,
    listen_key,
};

struct route {
    venue where;
    http::verb method;
    std::string_view name; ///< the path after `/fapi/v3/` or `/api/v3/`
    endpoint id;
    bool is_signed;
};

constexpr std::array<route, 40> routes{{
    {venue::futures, http::verb::get, "ping", endpoint::ping, false},
    {venue::futures, http::verb::get, "time", endpoint::time, false},
    {venue::futures, http::verb::get, "exchangeInfo", endpoint::exchange_info, false},
    {venue::futures, http::verb::get, "depth", endpoint::depth, false},
    {venue::futures, http::verb::get, "trades", endpoint::trades, false},
    {venue::futures, http::verb::get, "klines", endpoint::klines, false},
    {venue::futures, http::verb::get, "ticker/price", endpoint::ticker_price, false},
    {venue::futures, http::verb::get, "ticker/24hr", endpoint::ticker_24hr, false},
    {venue::futures, http::verb::get, "ticker/bookTicker", endpoint::book_ticker, false},
    {venue::futures, http::verb::get, "premiumIndex", endpoint::premium_index, false},
    {venue::futures, http::verb::get, "openInterest", endpoint::open_interest, false},
    {venue::futures, http::verb::get, "account", endpoint::account, true},
    {venue::futures, http::verb::get, "accountWithJoinMargin", endpoint::account, true},
    {venue::futures, http::verb::get, "balance", endpoint::balance, true},
    {venue::futures, http::verb::get, "positionRisk", endpoint::position_risk, true},
    {venue::futures, http::verb::get, "openOrders", endpoint::open_orders, true},
    {venue::futures, http::verb::get, "userTrades", endpoint::user_trades, true},
    {venue::futures, http::verb::get, "income", endpoint::income, true},
    {venue::futures, http::verb::get, "leverageBracket", endpoint::leverage_bracket, true},
    {venue::spot, http::verb::get, "ping", endpoint::ping, false},
    {venue::spot, http::verb::get, "time", endpoint::time, false},
    {venue::spot, http::verb::get, "exchangeInfo", endpoint::exchange_info, false},
    {venue::spot, http::verb::get, "depth", endpoint::depth, false},
    {venue::spot, http::verb::get, "trades", endpoint::trades, false},
    {venue::spot, http::verb::get, "klines", endpoint::klines, false},
    {venue::spot, http::verb::get, "ticker/price", endpoint::ticker_price, false},
    {venue::spot, http::verb::get, "ticker/24hr", endpoint::ticker_24hr, false},
    {venue::spot, http::verb::get, "ticker/bookTicker", endpoint::book_ticker, false},
    {venue::spot, http::verb::get, "account", endpoint::spot_account, true},
    {venue::futures, http::verb::post, "order", endpoint::new_order, true},
    {venue::futures, http::verb::delete_, "order", endpoint::cancel_order, true},
    {venue::futures, http::verb::get, "order", endpoint::query_order, true},
    {venue::futures, http::verb::delete_, "allOpenOrders", endpoint::cancel_all, true},
    {venue::futures, http::verb::post, "leverage", endpoint::set_leverage, true},
    {venue::futures, http::verb::post, "listenKey", endpoint::listen_key, true},
    {venue::futures, http::verb::put, "listenKey", endpoint::listen_key, true},
    {venue::futures, http::verb::delete_, "listenKey", endpoint::listen_key, true},
    {venue::spot, http::verb::post, "order", endpoint::new_order, true},
    {venue::spot, http::verb::delete_, "order", endpoint::cancel_order, true},
    {venue::spot, http::verb::get, "order", endpoint::query_order, true},
}};

std::int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// The query string of a target as sent (not decoded): what a GET's signature covers.
std::string_view raw_query(std::string_view target) {
    auto const q = target.find('?');
    return q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
}

std::optional<std::string> normalized_signer(mock_options const& o) {
    if (!o.approve_signer_for_all)
        return std::nullopt;
    auto a = ledger::normalize_address(*o.approve_signer_for_all);
    if (!a)
        throw std::invalid_argument(
            "mock_server: approve_signer_for_all must be 0x followed by 40 hex digits");
    return a;
}

/// A time or id parameter: absent, a number, or the -1100 answer.
struct number_param {
    std::optional<std::int64_t> value;
    std::optional<net::response> error;
};

number_param read_number(query_params const& q, std::string_view key, unsigned v) {
    auto const text = query_get(q, key);
    if (!text)
        return {};
    auto const n = parse_uint(*text);
    if (!n || *n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 2))
        return {std::nullopt, illegal_chars(key, v)};
    return {static_cast<std::int64_t>(*n), std::nullopt};
}

/// A `limit` in 1..max (larger is cut to max, as the upstream does); 0 is -1130.
struct limit_param {
    std::size_t value = 0;
    std::optional<net::response> error;
};

limit_param read_limit(query_params const& q, std::size_t fallback, std::size_t max, unsigned v) {
    auto const n = read_number(q, "limit", v);
    if (n.error)
        return {0, n.error};
    if (!n.value)
        return {fallback, std::nullopt};
    if (*n.value == 0)
        return {0, invalid_parameter("limit", v)};
    return {
        static_cast<std::size_t>(std::min<std::int64_t>(*n.value, static_cast<std::int64_t>(max))),
        std::nullopt};
}

/// The items of `all` (oldest first) inside [start, end]: the first `limit` when a start was
/// asked for, else the last `limit`.
template <class T, class Time>
std::vector<T> window(std::vector<T> all, std::int64_t start, std::int64_t end, bool from_start,
                      std::size_t limit, Time time_of) {
    std::erase_if(all, [&](T const& x) { return time_of(x) < start || time_of(x) > end; });
    if (all.size() > limit) {
        if (from_start)
            all.resize(limit);
        else
            all.erase(all.begin(), all.end() - static_cast<std::ptrdiff_t>(limit));
    }
    return all;
}

class router final : public upstream_router {
public:
    router(market_state& markets, ws_hub& hub, mock_options const& options)
        : markets_(markets)
        , futures_limiter_(options.rate_limits ? w::futures_budget
                                               : std::numeric_limits<std::uint32_t>::max(),
                           budget_window)
        , spot_limiter_(options.rate_limits ? w::spot_budget
                                            : std::numeric_limits<std::uint32_t>::max(),
                        budget_window)
        , ledger_(options.seed, contracts(), {"USDT", "BTC", "ETH", "ASTER"})
        , auth_(ledger_, options.testnet, normalized_signer(options))
        , candles_(make_candles(markets, options.seed))
        , data_(markets_, *candles_, ledger_, options.seed)
        , engine_(ledger_, markets_)
        , feed_(std::make_shared<ws_feed>(hub, markets_, ledger_, engine_, data_, *candles_,
                                          options.ws_depth_levels, options.seed)) {
        markets_.set_trade_listener(
            [c = candles_.get(), f = feed_.get()](std::size_t i, trade const& t) {
                c->record(i, t.time_ms, t.px, t.sz);
                f->on_trade(i, t);
            });
        ledger_.set_listener([f = feed_.get()](ledger_event const& e) { f->on_ledger(e); });
    }

    ~router() override {
        markets_.set_trade_listener({});
        ledger_.set_listener({});
    }

    // WebSocket (beta_ws.hpp)
    ws_route ws_open(net::request const& req, caller const&) override { return feed_->open(req); }
    std::string classify_ws(net::request const& req) const override {
        auto const path = split_target(req.target()).path;
        return "ws:connect " + std::string(path == "/stream" ? "/stream" : "/ws");
    }
    void on_market_change() override { feed_->on_market_change(); }
    void start(boost::asio::any_io_executor ex) override { feed_->start(std::move(ex)); }
    void stop() override { feed_->stop(); }

    router(router const&) = delete;
    router& operator=(router const&) = delete;

    std::string classify(net::request const& req) const override {
        return std::string(req.method_string()) + " " + split_target(req.target()).path;
    }

    net::response handle(net::request const& req, caller const& who) override {
        auto const t = split_target(req.target());
        unsigned const v = req.version();
        std::string_view const path = t.path;
        std::optional<venue> where;
        std::string_view name;
        if (path.substr(0, 9) == "/fapi/v3/") {
            where = venue::futures;
            name = path.substr(9);
        } else if (path.substr(0, 8) == "/api/v3/") {
            where = venue::spot;
            name = path.substr(8);
        }
        auto const r = std::find_if(routes.begin(), routes.end(), [&](route const& x) {
            return where && x.where == *where && x.name == name && x.method == req.method();
        });
        if (r == routes.end())
            return unknown_path(req);
        // Trigger orders and house quotes catch up with the marks (a /__mock/mark since the
        // last request fires what it crossed before this request reads or trades).
        engine_.sync();

        // Weight is charged before any other check, like the real exchange.
        auto const symbol = query_get(t.query, "symbol");
        auto const limit = query_get(t.query, "limit");
        std::uint32_t const weight =
            w::weight(path, symbol && !symbol->empty(),
                      limit ? static_cast<unsigned>(std::min<std::uint64_t>(
                                  parse_uint(*limit).value_or(0), 1'000'000))
                            : 0);
        auto& limiter = r->where == venue::futures ? futures_limiter_ : spot_limiter_;
        auto const verdict = limiter.admit(who.address, weight, weight_limiter::clock::now());
        net::response res = [&] {
            if (!verdict.admitted) {
                auto e = error_reply(w::too_many_requests,
                                     w::too_many_requests_msg(who.address, limiter.limit()), v);
                e.set(http::field::retry_after, std::to_string(w::window_seconds));
                return e;
            }
            if (!r->is_signed)
                return serve_public(*r, t.query, v);
            std::string_view const raw = req.method() == http::verb::get || req.body().empty()
                                             ? raw_query(req.target())
                                             : std::string_view(req.body());
            auto checked = auth_.verify(raw, now_us());
            if (auto const* no = std::get_if<refusal>(&checked))
                return error_reply(no->error, no->msg, v);
            return serve_signed(*r, std::get<signed_request>(checked), v);
        }();
        res.set(w::used_weight_header, std::to_string(verdict.used));
        return res;
    }

    net::response forced_status(unsigned status, unsigned version) const override {
        auto const st = static_cast<http::status>(status);
        boost::json::object o;
        if (status == 429) {
            o["code"] = w::too_many_requests.code;
            o["msg"] = "Too many requests; please use the websocket for live updates.";
        } else {
            o["code"] = w::unknown.code;
            o["msg"] = w::unknown.msg;
        }
        return json_response(st, o, version);
    }

    net::response render_failure(net::failure const& f, unsigned version) const override {
        auto const st = f.kind == net::failure_kind::bad_request ? http::status::bad_request
                        : f.kind == net::failure_kind::payload_too_large
                            ? http::status::payload_too_large
                            : http::status::internal_server_error;
        boost::json::object o;
        o["code"] = w::unknown.code;
        o["msg"] = f.message;
        return json_response(st, o, version);
    }

    std::optional<net::response> handle_control(net::request const& req) override {
        engine_.sync();
        if (auto r = accounts_control(req, ledger_, markets_))
            return r;
        return agents_control(req, ledger_);
    }

private:
    static std::unique_ptr<candle_history> make_candles(market_state const& markets,
                                                        std::uint64_t seed) {
        // Backfilled up to the first seeded trade, then fed every trade (the listener).
        std::int64_t first = now_ms();
        for (std::size_t i = 0; i < markets.size(); ++i)
            for (auto const& t : markets.trades(i, 1))
                first = std::min(first, t.time_ms);
        std::vector<market_spec> specs;
        for (std::size_t i = 0; i < markets.size(); ++i)
            specs.push_back(markets.spec(i));
        auto c = std::make_unique<candle_history>(seed, specs, first);
        for (std::size_t i = 0; i < markets.size(); ++i)
            for (auto const& t : markets.trades(i, market_state::trades_kept))
                c->record(i, t.time_ms, t.px, t.sz);
        return c;
    }

    static net::response unknown_path(net::request const& req) {
        boost::json::object o;
        o["code"] = -5000;
        o["msg"] = "Path " + split_target(req.target()).path + ", Method " +
                   std::string(req.method_string()) + " is invalid";
        return json_response(http::status::not_found, o, req.version());
    }

    net::response serve_public(route const& r, query_params const& q, unsigned v) const {
        switch (r.id) {
        case endpoint::ping:
            return json_response(http::status::ok, json::object{}, v);
        case endpoint::time: {
            json::object o;
            o["serverTime"] = now_ms();
            return json_response(http::status::ok, o, v);
        }
        case endpoint::exchange_info:
            return json_response(http::status::ok,
                                 r.where == venue::futures ? futures_exchange_info(now_ms())
                                                           : spot_exchange_info(now_ms()),
                                 v);
        case endpoint::depth:
            return r.where == venue::futures ? futures_depth(q, v) : data_.depth(r.where, q, v);
        case endpoint::trades:
            return data_.trades(r.where, q, v);
        case endpoint::klines:
            return data_.klines(r.where, q, v);
        case endpoint::ticker_price:
            return data_.ticker_price(r.where, q, v);
        case endpoint::ticker_24hr:
            return data_.ticker_24hr(r.where, q, v);
        case endpoint::book_ticker:
            return data_.book_ticker(r.where, q, v);
        case endpoint::premium_index:
            return data_.premium_index(q, v);
        case endpoint::open_interest:
            return data_.open_interest(q, v);
        default:
            return error_reply(w::unknown, v); // signed endpoints never get here
        }
    }

    net::response serve_signed(route const& r, signed_request const& s, unsigned v) {
        auto const& q = s.params;
        switch (r.id) {
        case endpoint::account:
            return json_response(http::status::ok,
                                 account_json(ledger_.futures(s.user, marks_of(markets_))), v);
        case endpoint::balance:
            return json_response(http::status::ok,
                                 balance_json(ledger_.futures(s.user, marks_of(markets_)), s.user),
                                 v);
        case endpoint::position_risk:
            return position_risk(s.user, q, v);
        case endpoint::open_orders:
            return open_orders(s.user, q, v);
        case endpoint::user_trades:
            return user_trades(s.user, q, v);
        case endpoint::income:
            return income(s.user, q, v);
        case endpoint::leverage_bracket:
            return leverage_bracket(q, v);
        case endpoint::spot_account:
            return json_response(http::status::ok, spot_account_json(ledger_.spot(s.user)), v);
        case endpoint::new_order:
            return place_order(r.where, s.user, q, v);
        case endpoint::cancel_order:
        case endpoint::query_order:
            return order_by_ref(r.where, r.id == endpoint::cancel_order, s.user, q, v);
        case endpoint::cancel_all:
            return cancel_all(s.user, q, v);
        case endpoint::set_leverage:
            return set_leverage(s.user, q, v);
        case endpoint::listen_key:
            return listen_key(r.method, s.user, v);
        default:
            return error_reply(w::unknown, v); // public endpoints never get here
        }
    }

    /// REST depth and the `@depth` diff stream are one sequence (beta_ws.hpp): the checks and
    /// weights of `market_data::depth`, the book and `lastUpdateId` of the feed.
    net::response futures_depth(query_params const& q, unsigned v) const {
        auto res = data_.depth(venue::futures, q, v);
        if (res.result() != http::status::ok)
            return res;
        auto const symbol = *query_get(q, "symbol");
        auto body = json::parse(res.body()).as_object();
        std::size_t const limit = body.at("bids").as_array().size();
        auto const snap = feed_->depth(symbol, std::max<std::size_t>(limit, 1));
        auto side = [](printed_levels const& levels) {
            json::array out;
            for (auto const& [px, qty] : levels)
                out.push_back(json::array{json::string(px), json::string(qty)});
            return out;
        };
        body["lastUpdateId"] = snap.last_update_id;
        body["bids"] = side(snap.bids);
        body["asks"] = side(snap.asks);
        return json_response(http::status::ok, body, v);
    }

    /// Signed `POST|PUT|DELETE /fapi/v3/listenKey` (beta.md §9.3).
    net::response listen_key(http::verb method, std::string const& user, unsigned v) {
        if (method == http::verb::post) {
            json::object o;
            o["listenKey"] = feed_->create_listen_key(user);
            return json_response(http::status::ok, o, v);
        }
        bool const ok =
            method == http::verb::put ? feed_->keep_alive(user) : feed_->close_listen_key(user);
        if (!ok) {
            json::object o;
            o["code"] = -1125;
            o["msg"] = "This listenKey does not exist.";
            return json_response(http::status::bad_request, o, v);
        }
        return json_response(http::status::ok, json::object{}, v);
    }

    static net::response refused(refusal const& r, unsigned v) {
        return error_reply(r.error, r.msg, v);
    }

    /// An order's answer in its venue's shape.
    net::response order_answer(venue where, order_record const& o, order_form f, unsigned v) const {
        if (where == venue::spot)
            return json_response(http::status::ok, spot_order_json(o, *find_spot(o.spec.symbol), f),
                                 v);
        return json_response(http::status::ok,
                             futures_order_json(o, *ledger_.find(o.spec.symbol), f), v);
    }

    /// The mark of a venue's symbol (zero when unknown: the parser refuses the symbol).
    amount mark_for(venue where, query_params const& q) const {
        auto const symbol = query_get(q, "symbol").value_or("");
        std::string_view source = symbol;
        if (where == venue::spot)
            if (auto const* s = find_spot(symbol); s && !s->perp.empty())
                source = s->perp;
        auto const i = markets_.find(source);
        if (!i)
            return {};
        return amount::from_scaled(markets_.mark(*i), markets_.spec(*i).px_scale);
    }

    net::response place_order(venue where, std::string const& user, query_params const& q,
                              unsigned v) {
        auto parsed = parse_new_order(where, q, mark_for(where, q));
        if (auto const* e = std::get_if<refusal>(&parsed))
            return refused(*e, v);
        auto& order = std::get<new_order>(parsed);
        auto placed = engine_.place(where, user, std::move(order.spec));
        if (auto const* e = std::get_if<refusal>(&placed))
            return refused(*e, v);
        auto const& p = std::get<placed_order>(placed);
        // ACK (the default) answers the order as accepted; RESULT its state after matching.
        return order_answer(where, order.result ? p.final : p.accepted, order_form::placed, v);
    }

    net::response order_by_ref(venue where, bool cancel, std::string const& user,
                               query_params const& q, unsigned v) {
        auto ref = parse_order_ref(where, q);
        if (auto const* e = std::get_if<refusal>(&ref))
            return refused(*e, v);
        auto const& o = std::get<order_ref>(ref);
        if (!cancel) {
            auto const found = engine_.find(where, user, o.symbol, o.order_id, o.client_id);
            if (!found)
                return error_reply(w::no_such_order, v);
            return order_answer(where, *found, order_form::queried, v);
        }
        auto done = engine_.cancel(where, user, o.symbol, o.order_id, o.client_id);
        if (auto const* e = std::get_if<refusal>(&done))
            return refused(*e, v);
        return order_answer(where, std::get<order_record>(done), order_form::canceled, v);
    }

    net::response cancel_all(std::string const& user, query_params const& q, unsigned v) {
        auto const symbol = query_get(q, "symbol");
        if (!symbol || symbol->empty())
            return missing_param("symbol", v);
        if (!find_perp(*symbol))
            return invalid_symbol(v);
        engine_.cancel_all(user, *symbol);
        return json_response(http::status::ok, cancel_all_json(), v);
    }

    net::response set_leverage(std::string const& user, query_params const& q, unsigned v) {
        auto const symbol = query_get(q, "symbol");
        if (!symbol || symbol->empty())
            return missing_param("symbol", v);
        auto const text = query_get(q, "leverage");
        if (!text || text->empty())
            return missing_param("leverage", v);
        auto const n = parse_uint(*text);
        if (!n)
            return illegal_chars("leverage", v);
        if (!find_perp(*symbol))
            return invalid_symbol(v);
        unsigned const leverage = static_cast<unsigned>(std::min<std::uint64_t>(*n, 1'000'000));
        auto done = engine_.set_leverage(user, *symbol, leverage);
        if (auto const* e = std::get_if<refusal>(&done))
            return refused(*e, v);
        return json_response(http::status::ok,
                             leverage_json(*symbol, leverage, std::get<amount>(done)), v);
    }

    /// An optional `symbol` that must name a perp: nullopt (all), a perp, or an answer.
    struct symbol_param {
        std::optional<std::string> symbol;
        std::optional<net::response> error;
    };

    static symbol_param optional_perp(query_params const& q, unsigned v) {
        auto const symbol = query_get(q, "symbol");
        if (!symbol)
            return {};
        if (symbol->empty())
            return {std::nullopt, missing_param("symbol", v)};
        if (!find_perp(*symbol))
            return {std::nullopt, invalid_symbol(v)};
        return {symbol, std::nullopt};
    }

    net::response position_risk(std::string const& user, query_params const& q, unsigned v) const {
        auto const symbol = optional_perp(q, v);
        if (symbol.error)
            return *symbol.error;
        json::array out;
        for (auto const& p : ledger_.futures(user, marks_of(markets_)).positions)
            if (!symbol.symbol || p.symbol == *symbol.symbol)
                out.push_back(position_risk_json(p));
        return json_response(http::status::ok, out, v);
    }

    net::response open_orders(std::string const& user, query_params const& q, unsigned v) const {
        auto const symbol = optional_perp(q, v);
        if (symbol.error)
            return *symbol.error;
        json::array out;
        for (auto const& o : ledger_.open_orders(user))
            if (!symbol.symbol || o.spec.symbol == *symbol.symbol)
                if (auto const* c = ledger_.find(o.spec.symbol))
                    out.push_back(open_order_json(o, *c));
        return json_response(http::status::ok, out, v);
    }

    net::response user_trades(std::string const& user, query_params const& q, unsigned v) const {
        auto const symbol = query_get(q, "symbol");
        if (!symbol || symbol->empty())
            return missing_param("symbol", v);
        auto const limit = read_limit(q, default_user_trades, max_user_trades, v);
        if (limit.error)
            return *limit.error;
        auto const from_id = read_number(q, "fromId", v);
        if (from_id.error)
            return *from_id.error;
        auto const start = read_number(q, "startTime", v);
        if (start.error)
            return *start.error;
        auto const end = read_number(q, "endTime", v);
        if (end.error)
            return *end.error;
        auto const* c = ledger_.find(*symbol);
        if (!c)
            return invalid_symbol(v);
        if (from_id.value && (start.value || end.value))
            return error_reply(w::invalid_combination, v);
        if (start.value && end.value && *end.value - *start.value > seven_days_ms)
            return error_reply(w::lookup_interval_too_big, v);
        auto fills = ledger_.fills(user);
        std::erase_if(fills, [&](fill_record const& f) { return f.symbol != c->symbol; });
        std::vector<fill_record> picked;
        if (from_id.value) {
            for (auto const& f : fills)
                if (f.id >= static_cast<std::uint64_t>(*from_id.value) &&
                    picked.size() < limit.value)
                    picked.push_back(f);
        } else {
            // beta.md §4.2: the window spans at most 7 days; the default is the last 7 days.
            std::int64_t const to = end.value     ? *end.value
                                    : start.value ? *start.value + seven_days_ms
                                                  : now_ms();
            std::int64_t const from = start.value ? *start.value : to - seven_days_ms;
            picked = window(std::move(fills), from, to, start.value.has_value(), limit.value,
                            [](fill_record const& f) { return f.time; });
        }
        json::array out;
        for (auto const& f : picked)
            out.push_back(user_trade_json(f, *c));
        return json_response(http::status::ok, out, v);
    }

    net::response income(std::string const& user, query_params const& q, unsigned v) const {
        auto const symbol = optional_perp(q, v);
        if (symbol.error)
            return *symbol.error;
        auto const limit = read_limit(q, default_income, max_income, v);
        if (limit.error)
            return *limit.error;
        auto const start = read_number(q, "startTime", v);
        if (start.error)
            return *start.error;
        auto const end = read_number(q, "endTime", v);
        if (end.error)
            return *end.error;
        auto const type = query_get(q, "incomeType");
        auto items = ledger_.income(user);
        std::erase_if(items, [&](income_record const& r) {
            return (symbol.symbol && r.symbol != *symbol.symbol) ||
                   (type && !type->empty() && r.type != *type);
        });
        // Without times, the last 7 days (Binance's rule); a start alone reaches up to now.
        std::int64_t const to = end.value     ? *end.value
                                : start.value ? std::numeric_limits<std::int64_t>::max()
                                              : now_ms();
        std::int64_t const from = start.value ? *start.value
                                  : end.value ? *end.value - seven_days_ms
                                              : to - seven_days_ms;
        auto const picked = window(std::move(items), from, to, start.value.has_value(), limit.value,
                                   [](income_record const& x) { return x.time; });
        json::array out;
        for (auto const& r : picked)
            out.push_back(income_json(r));
        return json_response(http::status::ok, out, v);
    }

    static net::response leverage_bracket(query_params const& q, unsigned v) {
        auto const symbol = optional_perp(q, v);
        if (symbol.error)
            return *symbol.error;
        if (symbol.symbol)
            return json_response(http::status::ok,
                                 leverage_bracket_json(*find_perp(*symbol.symbol)), v);
        json::array out;
        for (auto const& p : perps())
            out.push_back(leverage_bracket_json(p));
        return json_response(http::status::ok, out, v);
    }

    market_state& markets_;
    weight_limiter futures_limiter_;
    weight_limiter spot_limiter_;
    ledger ledger_;
    authenticator auth_;
    std::unique_ptr<candle_history> candles_;
    market_data data_;
    engine engine_;
    std::shared_ptr<ws_feed> feed_;
};

} // namespace

std::unique_ptr<upstream_router> make_router(market_state& markets, ws_hub& hub,
                                             mock_options const& options) {
    return std::make_unique<router>(markets, hub, options);
}

} // namespace gateway::mocks::beta
