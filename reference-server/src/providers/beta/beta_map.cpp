// The beta provider's pure mappings: Aster REST answers -> contract types. The rules and the
// decisions the contract leaves open are listed in beta_map.hpp.
#include "providers/beta/beta_map.hpp"

#include <gateway/types/fixed.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <cstdlib>

namespace gateway::server::beta {

namespace {

namespace json = boost::json;

api_error unexpected(std::string_view what) {
    return make_error(errc::upstream_error, "The beta upstream answered an unexpected shape for " +
                                                std::string(what) + ".");
}

/// The array `v`, or the error naming `what`.
result<json::array const*> array_of(json::value const& v, std::string_view what) {
    if (auto const* a = v.if_array())
        return a;
    return unexpected(what);
}

/// The base asset of a USDT symbol ("BTCUSDT" -> "BTC"), or empty.
std::string base_of_usdt(std::string_view upstream) {
    if (upstream.size() <= 4 || upstream.substr(upstream.size() - 4) != "USDT")
        return {};
    return std::string(upstream.substr(0, upstream.size() - 4));
}

/// The gateway symbol of an upstream perps symbol: the universe's, else its base asset.
std::string perp_symbol(universe const& u, std::string_view upstream) {
    if (auto const* m = u.find_perp_upstream(upstream))
        return m->symbol;
    auto base = base_of_usdt(upstream);
    return base.empty() ? std::string(upstream) : base;
}

/// Reads the `filters` array of a symbol (unknown filter types are ignored).
result<filters> read_filters(json::value const& symbol, std::string_view what) {
    filters out;
    auto const* o = symbol.if_object();
    auto const* list = o ? o->if_contains("filters") : nullptr;
    if (!list || !list->is_array())
        return unexpected(what);
    for (auto const& item : list->get_array()) {
        json_fields f(item, strictness::upstream, std::string(what) + " filter");
        std::string type;
        f.required("filterType", type);
        if (type == "PRICE_FILTER") {
            f.required("tickSize", out.tick_size);
            f.required("minPrice", out.min_price);
            f.required("maxPrice", out.max_price);
        } else if (type == "LOT_SIZE") {
            f.required("stepSize", out.step_size);
            f.required("minQty", out.min_qty);
            f.required("maxQty", out.max_qty);
        } else if (type == "MARKET_LOT_SIZE") {
            f.required("stepSize", out.market_step_size);
            f.required("minQty", out.market_min_qty);
            f.required("maxQty", out.market_max_qty);
        } else if (type == "MIN_NOTIONAL") {
            // Futures call it `notional`, spot `minNotional` (beta.md §5).
            std::optional<decimal> notional, min_notional;
            f.optional("notional", notional);
            f.optional("minNotional", min_notional);
            out.min_notional = notional.value_or(min_notional.value_or(decimal{}));
        } else if (type == "PERCENT_PRICE") {
            decimal up, down;
            f.required("multiplierUp", up);
            f.required("multiplierDown", down);
            out.multiplier_up = up;
            out.multiplier_down = down;
        }
        if (auto ok = f.finish(); !ok)
            return ok.error();
    }
    return out;
}

/// Digits after the point of a step size ("0.001" -> 3, "1" -> 0).
std::int64_t decimals_of(decimal const& step) {
    return static_cast<std::int64_t>(step.scale());
}

} // namespace

perp_market const* universe::find_perp(std::string_view symbol) const {
    for (auto const& m : perps)
        if (m.symbol == symbol)
            return &m;
    return nullptr;
}

perp_market const* universe::find_perp_upstream(std::string_view upstream) const {
    for (auto const& m : perps)
        if (m.upstream == upstream)
            return &m;
    return nullptr;
}

spot_market const* universe::find_spot(std::string_view symbol) const {
    for (auto const& m : spot)
        if (m.symbol == symbol)
            return &m;
    return nullptr;
}

spot_market const* universe::find_spot_upstream(std::string_view upstream) const {
    for (auto const& m : spot)
        if (m.upstream == upstream)
            return &m;
    return nullptr;
}

result<std::vector<perp_market>> parse_futures_exchange_info(json::value const& v) {
    auto const* o = v.if_object();
    auto const* symbols = o ? o->if_contains("symbols") : nullptr;
    if (!symbols || !symbols->is_array())
        return unexpected("exchangeInfo");
    std::vector<perp_market> out;
    for (auto const& s : symbols->get_array()) {
        json_fields f(s, strictness::upstream, "exchangeInfo symbol");
        std::string symbol, status, base, quote, contract;
        f.required("symbol", symbol);
        f.required("status", status);
        f.required("baseAsset", base);
        f.required("quoteAsset", quote);
        f.with_default("contractType", contract);
        std::vector<std::string> sub_types;
        if (auto const* st = f.raw("underlyingSubType"); st && st->is_array())
            for (auto const& x : st->get_array())
                if (x.is_string())
                    sub_types.emplace_back(x.get_string());
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (status != "TRADING" || quote != "USDT" ||
            (!contract.empty() && contract != "PERPETUAL"))
            continue;
        auto rules = read_filters(s, "exchangeInfo symbol " + symbol);
        if (!rules)
            return rules.error();
        perp_market m;
        m.symbol = base;
        m.upstream = symbol;
        m.rwa = std::any_of(sub_types.begin(), sub_types.end(),
                            [](std::string const& t) { return t == "STOCK" || t == "RWA"; });
        m.rules = std::move(*rules);
        out.push_back(std::move(m));
    }
    return out;
}

result<std::vector<spot_market>> parse_spot_exchange_info(json::value const& v) {
    auto const* o = v.if_object();
    auto const* symbols = o ? o->if_contains("symbols") : nullptr;
    if (!symbols || !symbols->is_array())
        return unexpected("spot exchangeInfo");
    std::vector<spot_market> out;
    for (auto const& s : symbols->get_array()) {
        json_fields f(s, strictness::upstream, "spot exchangeInfo symbol");
        std::string symbol, status, base, quote;
        f.required("symbol", symbol);
        f.required("status", status);
        f.required("baseAsset", base);
        f.required("quoteAsset", quote);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        // Symbols starting with TEST are the upstream's internal pairs (beta.md §5).
        if (status != "TRADING" || symbol.rfind("TEST", 0) == 0)
            continue;
        auto rules = read_filters(s, "spot exchangeInfo symbol " + symbol);
        if (!rules)
            return rules.error();
        out.push_back({base + "/" + quote, symbol, std::move(*rules)});
    }
    return out;
}

result<std::map<std::string, unsigned>> parse_leverage_brackets(json::value const& v) {
    // One symbol answers an object, all symbols an array of them.
    json::array one;
    json::array const* list = v.if_array();
    if (!list && v.is_object()) {
        one.push_back(v);
        list = &one;
    }
    if (!list)
        return unexpected("leverageBracket");
    std::map<std::string, unsigned> out;
    for (auto const& item : *list) {
        json_fields f(item, strictness::upstream, "leverageBracket");
        std::string symbol;
        f.required("symbol", symbol);
        auto const* brackets = f.raw("brackets");
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (!brackets || !brackets->is_array() || brackets->get_array().empty())
            return unexpected("leverageBracket");
        unsigned best = 0;
        for (auto const& b : brackets->get_array()) {
            json_fields bf(b, strictness::upstream, "leverage bracket");
            std::int64_t bracket = 0;
            decimal lev;
            bf.required("bracket", bracket);
            bf.required("initialLeverage", lev); // a number in the docs, a string in ccxt's
            if (auto ok = bf.finish(); !ok)
                return ok.error();
            auto const whole = lev.to_scaled(0);
            if (!whole || *whole <= 0)
                return unexpected("leverageBracket");
            if (bracket == 1)
                best = static_cast<unsigned>(*whole);
        }
        out[symbol] = best;
    }
    return out;
}

result<price_map> to_prices(json::value const& ticker, universe const& u, bool spot) {
    auto arr = array_of(ticker, "ticker/price");
    if (!arr)
        return arr.error();
    price_map out;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "ticker/price");
        std::string symbol;
        decimal price;
        f.required("symbol", symbol);
        f.required("price", price);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (spot) {
            if (auto const* m = u.find_spot_upstream(symbol))
                out.emplace(m->symbol, std::move(price));
        } else if (auto const* m = u.find_perp_upstream(symbol)) {
            out.emplace(m->symbol, std::move(price));
        }
    }
    return out;
}

result<orderbook> to_orderbook(json::value const& depth, std::string const& symbol,
                               std::size_t levels) {
    json_fields f(depth, strictness::upstream, "depth");
    std::int64_t time = 0;
    std::optional<std::int64_t> event_time, transaction_time;
    f.optional("E", event_time);
    f.optional("T", transaction_time);
    auto const* bids = f.raw("bids");
    auto const* asks = f.raw("asks");
    if (auto ok = f.finish(); !ok)
        return ok.error();
    time = transaction_time.value_or(event_time.value_or(0));
    orderbook out;
    out.symbol = symbol;
    out.timestamp = time;
    auto read_side = [&](json::value const* side, std::vector<book_level>& into) -> result<void> {
        if (!side || !side->is_array())
            return unexpected("depth");
        for (auto const& level : side->get_array()) {
            if (into.size() >= levels)
                break;
            auto const* pair = level.if_array();
            if (!pair || pair->size() < 2)
                return unexpected("depth level");
            auto px = decimal::from_json_lenient((*pair)[0]);
            auto qty = decimal::from_json_lenient((*pair)[1]);
            if (!px || !qty)
                return unexpected("depth level");
            into.push_back({std::move(*px), std::move(*qty)});
        }
        return {};
    };
    if (auto ok = read_side(bids, out.bids); !ok)
        return ok.error();
    if (auto ok = read_side(asks, out.asks); !ok)
        return ok.error();
    return out;
}

result<std::vector<trade>> to_trades(json::value const& trades, std::size_t limit) {
    auto arr = array_of(trades, "trades");
    if (!arr)
        return arr.error();
    std::vector<trade> out;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "trade");
        std::int64_t id = 0;
        trade t;
        bool buyer_maker = false;
        f.required("id", id);
        f.required("price", t.price);
        f.required("qty", t.size);
        f.required("time", t.timestamp);
        f.required("isBuyerMaker", buyer_maker);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        t.id = std::to_string(id);
        t.side = buyer_maker ? side::sell : side::buy; // the taker's side
        out.push_back(std::move(t));
    }
    // Oldest first upstream; newest first in the contract (equal times keep upstream order).
    std::reverse(out.begin(), out.end());
    std::stable_sort(out.begin(), out.end(),
                     [](trade const& a, trade const& b) { return a.timestamp > b.timestamp; });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

result<std::vector<candle>> to_candles(json::value const& klines) {
    auto arr = array_of(klines, "klines");
    if (!arr)
        return arr.error();
    std::vector<candle> out;
    for (auto const& row : **arr) {
        auto const* r = row.if_array();
        if (!r || r->size() < 6 || !(*r)[0].is_number())
            return unexpected("klines row");
        candle c;
        auto const open_time = boost::json::try_value_to<std::int64_t>((*r)[0]);
        auto o = decimal::from_json_lenient((*r)[1]), h = decimal::from_json_lenient((*r)[2]),
             l = decimal::from_json_lenient((*r)[3]), cl = decimal::from_json_lenient((*r)[4]),
             vol = decimal::from_json_lenient((*r)[5]);
        if (!open_time || !o || !h || !l || !cl || !vol)
            return unexpected("klines row");
        c.timestamp = *open_time;
        c.open = std::move(*o);
        c.high = std::move(*h);
        c.low = std::move(*l);
        c.close = std::move(*cl);
        c.volume = std::move(*vol);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](candle const& a, candle const& b) { return a.timestamp < b.timestamp; });
    return out;
}

namespace {

/// One positionRisk item, read.
struct risk_item {
    std::string upstream;
    decimal amount, entry, mark, pnl, liquidation, leverage, isolated_margin;
    bool isolated = false;
};

result<std::vector<risk_item>> read_position_risk(json::value const& v) {
    auto arr = array_of(v, "positionRisk");
    if (!arr)
        return arr.error();
    std::vector<risk_item> out;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "positionRisk");
        risk_item r;
        std::string margin_type;
        f.required("symbol", r.upstream);
        f.required("positionAmt", r.amount);
        f.required("entryPrice", r.entry);
        f.required("markPrice", r.mark);
        f.required("unRealizedProfit", r.pnl);
        f.required("liquidationPrice", r.liquidation);
        f.required("leverage", r.leverage);
        f.with_default("marginType", margin_type);
        std::optional<decimal> isolated_margin;
        f.optional("isolatedMargin", isolated_margin);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        r.isolated = margin_type == "isolated" || margin_type == "ISOLATED";
        r.isolated_margin = isolated_margin.value_or(decimal{});
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

result<std::vector<position>> to_positions(json::value const& position_risk, universe const& u) {
    auto items = read_position_risk(position_risk);
    if (!items)
        return items.error();
    std::vector<position> out;
    for (auto const& r : *items) {
        if (r.amount.is_zero())
            continue;
        position p;
        p.symbol = perp_symbol(u, r.upstream);
        p.side = r.amount.is_negative() ? position_side::short_ : position_side::long_;
        p.size = r.amount.abs();
        p.entry_price = r.entry;
        p.mark_price = r.mark;
        p.unrealized_pnl = r.pnl;
        p.leverage = r.leverage;
        p.liquidation_price = r.liquidation.is_negative() ? decimal{} : r.liquidation;
        if (r.isolated) {
            p.margin = r.isolated_margin;
        } else {
            auto const notional = exact_mul(p.size, r.mark);
            auto const margin = notional && !r.leverage.is_zero()
                                    ? exact_div(*notional, r.leverage, 8)
                                    : std::optional<decimal>();
            if (!margin)
                return unexpected("positionRisk (margin)");
            p.margin = *margin;
        }
        out.push_back(std::move(p));
    }
    return out;
}

result<account_summary> to_account_summary(json::value const& account,
                                           json::value const& position_risk) {
    json_fields f(account, strictness::upstream, "account");
    account_summary out;
    f.required("totalMarginBalance", out.equity);
    f.required("availableBalance", out.available_margin);
    f.required("totalInitialMargin", out.used_margin);
    f.required("totalUnrealizedProfit", out.unrealized_pnl);
    if (auto ok = f.finish(); !ok)
        return ok.error();
    auto items = read_position_risk(position_risk);
    if (!items)
        return items.error();
    std::optional<decimal> total = decimal{};
    for (auto const& r : *items) {
        auto const value = exact_mul(r.amount.abs(), r.mark);
        total = total && value ? exact_add(*total, *value) : std::nullopt;
    }
    if (!total)
        return unexpected("positionRisk (position value)");
    out.total_position_value = *total;
    return out;
}

result<std::vector<open_order>> to_open_orders(json::value const& open_orders, universe const& u) {
    auto arr = array_of(open_orders, "openOrders");
    if (!arr)
        return arr.error();
    std::vector<open_order> out;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "open order");
        open_order o;
        std::int64_t id = 0;
        std::string upstream, side_text, type;
        std::optional<std::string> client;
        std::optional<decimal> price, stop, activate, rate;
        std::optional<std::int64_t> time, update;
        f.required("orderId", id);
        f.required("symbol", upstream);
        f.required("side", side_text);
        f.required("type", type);
        f.optional("clientOrderId", client);
        f.optional("price", price);
        f.optional("stopPrice", stop);
        f.optional("activatePrice", activate);
        f.optional("priceRate", rate);
        f.required("origQty", o.size);
        f.required("executedQty", o.filled_size);
        f.with_default("reduceOnly", o.reduce_only);
        f.optional("time", time);
        f.optional("updateTime", update);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        o.order_id = std::to_string(id);
        o.client_order_id = client && !client->empty() ? client : std::nullopt;
        o.symbol = perp_symbol(u, upstream);
        if (side_text != "BUY" && side_text != "SELL")
            return unexpected("open order (side)");
        o.side = side_text == "BUY" ? side::buy : side::sell;
        o.timestamp = time.value_or(update.value_or(0));
        o.status = open_order_status::open;
        if (type == "MARKET") {
            o.type = order_type::market;
        } else if (type == "LIMIT") {
            o.type = order_type::limit;
            o.price = price;
        } else if (type == "STOP_MARKET" || type == "TAKE_PROFIT_MARKET") {
            o.type = order_type::stop_market;
            o.trigger_price = stop;
        } else if (type == "STOP" || type == "TAKE_PROFIT") {
            o.type = order_type::stop_limit;
            o.price = price;
            o.trigger_price = stop;
        } else if (type == "TRAILING_STOP_MARKET") {
            o.type = order_type::trailing_stop;
            o.trigger_price = activate && !activate->is_zero() ? activate : std::nullopt;
            o.callback_rate = rate;
        } else {
            return unexpected("open order (type " + type + ")");
        }
        out.push_back(std::move(o));
    }
    std::stable_sort(out.begin(), out.end(), [](open_order const& a, open_order const& b) {
        return a.timestamp > b.timestamp;
    });
    return out;
}

result<std::vector<fill>> to_fills(json::value const& user_trades, universe const& u) {
    auto arr = array_of(user_trades, "userTrades");
    if (!arr)
        return arr.error();
    std::vector<fill> out;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "userTrade");
        fill x;
        std::int64_t id = 0, order_id = 0;
        std::string upstream, side_text;
        decimal commission, realized;
        bool maker = false;
        f.required("id", id);
        f.required("orderId", order_id);
        f.required("symbol", upstream);
        f.required("side", side_text);
        f.required("price", x.price);
        f.required("qty", x.size);
        f.required("commission", commission);
        f.required("commissionAsset", x.fee_asset);
        f.required("maker", maker);
        f.with_default("realizedPnl", realized);
        f.required("time", x.timestamp);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (side_text != "BUY" && side_text != "SELL")
            return unexpected("userTrade (side)");
        x.id = std::to_string(id);
        x.order_id = std::to_string(order_id);
        x.symbol = perp_symbol(u, upstream);
        x.side = side_text == "BUY" ? side::buy : side::sell;
        x.fee = commission.abs();
        x.liquidity = maker ? liquidity::maker : liquidity::taker;
        x.closed_pnl = realized.is_zero() ? std::nullopt : std::optional<decimal>(realized);
        out.push_back(std::move(x));
    }
    return out;
}

result<std::vector<spot_balance>> to_spot_balances(json::value const& spot_account) {
    json_fields f(spot_account, strictness::upstream, "spot account");
    auto const* balances = f.raw("balances");
    if (auto ok = f.finish(); !ok)
        return ok.error();
    if (!balances || !balances->is_array())
        return unexpected("spot account");
    std::vector<spot_balance> out;
    for (auto const& item : balances->get_array()) {
        json_fields bf(item, strictness::upstream, "spot balance");
        spot_balance b;
        decimal free;
        bf.required("asset", b.asset);
        bf.required("free", free);
        bf.required("locked", b.locked);
        if (auto ok = bf.finish(); !ok)
            return ok.error();
        auto total = exact_add(free, b.locked);
        if (!total)
            return unexpected("spot balance");
        if (total->is_zero())
            continue;
        b.available = std::move(free);
        b.total = std::move(*total);
        out.push_back(std::move(b));
    }
    return out;
}

result<std::set<std::string>> traded_symbols(json::value const& income) {
    auto arr = array_of(income, "income");
    if (!arr)
        return arr.error();
    std::set<std::string> out;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "income");
        std::string symbol, type;
        f.with_default("symbol", symbol);
        f.required("incomeType", type);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (type == "COMMISSION" && !symbol.empty())
            out.insert(symbol);
    }
    return out;
}

result<decimal> to_open_interest(json::value const& v) {
    json_fields f(v, strictness::upstream, "openInterest");
    decimal oi;
    f.required("openInterest", oi);
    if (auto ok = f.finish(); !ok)
        return ok.error();
    return oi;
}

result<std::vector<dex_market>>
to_rwas_markets(universe const& u, json::value const& premium_index,
                std::map<std::string, decimal> const& open_interest) {
    auto arr = array_of(premium_index, "premiumIndex");
    if (!arr)
        return arr.error();
    std::map<std::string, decimal> marks;
    for (auto const& item : **arr) {
        json_fields f(item, strictness::upstream, "premiumIndex");
        std::string symbol;
        decimal mark;
        f.required("symbol", symbol);
        f.required("markPrice", mark);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        marks[symbol] = std::move(mark);
    }
    std::vector<dex_market> out;
    for (auto const& m : u.perps) {
        if (!m.rwa)
            continue;
        dex_market d;
        d.symbol = m.symbol;
        d.max_leverage = m.max_leverage;
        d.sz_decimals = decimals_of(m.rules.step_size);
        if (auto it = marks.find(m.upstream); it != marks.end())
            d.mark_price = it->second;
        if (auto it = open_interest.find(m.upstream); it != open_interest.end())
            d.open_interest = it->second;
        out.push_back(std::move(d));
    }
    return out;
}

std::optional<upstream_error_body> error_body(json::value const& v) {
    auto const* o = v.if_object();
    auto const* code = o ? o->if_contains("code") : nullptr;
    auto const* msg = o ? o->if_contains("msg") : nullptr;
    if (!code || !msg || !msg->is_string())
        return std::nullopt;
    upstream_error_body out;
    // `code` is a number, or a string on some endpoints (cancel-all answers "200").
    if (code->is_int64())
        out.code = code->get_int64();
    else if (code->is_uint64())
        out.code = static_cast<std::int64_t>(code->get_uint64());
    else if (code->is_string())
        out.code = std::atoll(code->get_string().c_str());
    else
        return std::nullopt;
    out.msg = std::string(msg->get_string());
    return out;
}

std::string_view upstream_interval(interval i) {
    return to_string(i); // 1m 5m 15m 30m 1h 4h 1d 1w: the same names upstream
}

} // namespace gateway::server::beta
