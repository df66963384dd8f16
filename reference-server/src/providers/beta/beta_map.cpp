// The beta provider's pure mappings: Aster REST answers -> contract types. The rules and the
// decisions the contract leaves open are listed in beta_map.hpp.
#include "providers/beta/beta_map.hpp"

#include <gateway/providers/beta/errors.hpp>
#include <gateway/providers/beta/requests.hpp>
#include <gateway/types/fixed.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <iterator>

namespace gateway::server::beta {

namespace {

namespace json = boost::json;
namespace w = wire::beta;

/// beta.md §7 lists -1002 UNAUTHORIZED beside -2015 as the refusal of a signer that may not act
/// for the account (UNCONFIRMED which one the upstream uses); mock-beta answers -2015.

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

/// `what[i]`, for messages.
std::string item_name(std::string_view what, std::size_t i) {
    return std::string(what) + "[" + std::to_string(i) + "]";
}

/// The base asset of a USDT perp symbol ("BTCUSDT" -> "BTC"), or empty.
std::string base_of_perp(std::string_view upstream) {
    auto const q = w::perp_quote;
    if (upstream.size() <= q.size() || upstream.substr(upstream.size() - q.size()) != q)
        return {};
    return std::string(upstream.substr(0, upstream.size() - q.size()));
}

/// The gateway symbol of an upstream perp symbol: the universe's, else its base asset, else the
/// upstream's own.
std::string perp_symbol_of(universe const& u, std::string_view upstream) {
    if (auto const* m = u.find_perp_upstream(upstream))
        return m->symbol;
    auto base = base_of_perp(upstream);
    return base.empty() ? std::string(upstream) : base;
}

/// BUY/SELL -> buy/sell.
std::optional<side> side_of(std::string_view s) {
    if (s == "BUY")
        return side::buy;
    if (s == "SELL")
        return side::sell;
    return std::nullopt;
}

/// Reads the `filters` array of an exchangeInfo symbol (unknown filter types are ignored).
result<filters> read_filters(json::value const& symbol, std::string const& what) {
    filters out;
    auto const* o = symbol.if_object();
    auto const* list = o ? o->if_contains("filters") : nullptr;
    if (!list || !list->is_array())
        return unexpected(what + " filters");
    auto const& items = list->get_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
        json_fields f(items[i], strictness::upstream, item_name(what + " filters", i));
        std::string type;
        f.required("filterType", type);
        if (type == "PRICE_FILTER") {
            f.required("tickSize", out.tick_size);
            f.with_default("minPrice", out.min_price);
            f.with_default("maxPrice", out.max_price);
        } else if (type == "LOT_SIZE") {
            f.required("stepSize", out.step_size);
            f.with_default("minQty", out.min_qty);
            f.with_default("maxQty", out.max_qty);
        } else if (type == "MARKET_LOT_SIZE") {
            f.with_default("stepSize", out.market_step_size);
            f.with_default("minQty", out.market_min_qty);
            f.with_default("maxQty", out.market_max_qty);
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

/// The `symbols` array of an exchangeInfo body.
result<json::array const*> symbols_of(json::value const& v, std::string_view what) {
    auto const* o = v.if_object();
    auto const* symbols = o ? o->if_contains("symbols") : nullptr;
    if (!symbols || !symbols->is_array())
        return unexpected(what);
    return &symbols->get_array();
}

/// Index of every item by `key`.
template <class T>
void index_by(std::vector<T> const& items, std::string T::*key,
              std::map<std::string, std::size_t, std::less<>>& into) {
    for (std::size_t i = 0; i < items.size(); ++i)
        into.emplace(items[i].*key, i);
}

template <class T>
T const* find_in(std::vector<T> const& items,
                 std::map<std::string, std::size_t, std::less<>> const& index,
                 std::string_view name) {
    auto const it = index.find(name);
    return it == index.end() ? nullptr : &items[it->second];
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The universe

universe::universe(std::vector<perp_market> perps, std::vector<spot_market> spot)
    : perps_(std::move(perps))
    , spot_(std::move(spot)) {
    index_by(perps_, &perp_market::symbol, perp_by_symbol_);
    index_by(perps_, &perp_market::upstream, perp_by_upstream_);
    index_by(spot_, &spot_market::symbol, spot_by_symbol_);
    index_by(spot_, &spot_market::upstream, spot_by_upstream_);
}

perp_market const* universe::find_perp(std::string_view symbol) const {
    return find_in(perps_, perp_by_symbol_, symbol);
}

perp_market const* universe::find_perp_upstream(std::string_view upstream) const {
    return find_in(perps_, perp_by_upstream_, upstream);
}

spot_market const* universe::find_spot(std::string_view symbol) const {
    return find_in(spot_, spot_by_symbol_, symbol);
}

spot_market const* universe::find_spot_upstream(std::string_view upstream) const {
    return find_in(spot_, spot_by_upstream_, upstream);
}

result<std::vector<perp_market>> parse_futures_exchange_info(json::value const& v) {
    auto symbols = symbols_of(v, "exchangeInfo");
    if (!symbols)
        return symbols.error();
    std::vector<perp_market> out;
    for (std::size_t i = 0; i < (*symbols)->size(); ++i) {
        auto const& s = (**symbols)[i];
        std::string const what = item_name("exchangeInfo symbols", i);
        json_fields f(s, strictness::upstream, what);
        std::string symbol, status, base, quote, contract;
        f.required("symbol", symbol);
        f.required("status", status);
        f.required("baseAsset", base);
        f.required("quoteAsset", quote);
        f.with_default("contractType", contract);
        bool rwa = false;
        if (auto const* st = f.raw("underlyingSubType"); st && st->is_array())
            for (auto const& t : st->get_array())
                rwa = rwa ||
                      (t.is_string() && (t.get_string() == "STOCK" || t.get_string() == "RWA"));
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (status != "TRADING" || quote != w::perp_quote ||
            (!contract.empty() && contract != "PERPETUAL"))
            continue;
        auto rules = read_filters(s, what + " (" + symbol + ")");
        if (!rules)
            return rules.error();
        out.push_back({std::move(base), std::move(symbol), rwa, std::move(*rules), 0});
    }
    return out;
}

result<std::vector<spot_market>> parse_spot_exchange_info(json::value const& v) {
    auto symbols = symbols_of(v, "spot exchangeInfo");
    if (!symbols)
        return symbols.error();
    std::vector<spot_market> out;
    for (std::size_t i = 0; i < (*symbols)->size(); ++i) {
        auto const& s = (**symbols)[i];
        std::string const what = item_name("spot exchangeInfo symbols", i);
        json_fields f(s, strictness::upstream, what);
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
        auto rules = read_filters(s, what + " (" + symbol + ")");
        if (!rules)
            return rules.error();
        out.push_back({base + "/" + quote, std::move(symbol), std::move(*rules)});
    }
    return out;
}

result<std::map<std::string, unsigned, std::less<>>> parse_leverage_brackets(json::value const& v) {
    // One symbol answers an object, all symbols an array of them.
    json::array one;
    json::array const* list = v.if_array();
    if (!list && v.is_object()) {
        one.push_back(v);
        list = &one;
    }
    if (!list)
        return unexpected("leverageBracket");
    std::map<std::string, unsigned, std::less<>> out;
    for (std::size_t i = 0; i < list->size(); ++i) {
        std::string const what = item_name("leverageBracket", i);
        json_fields f((*list)[i], strictness::upstream, what);
        std::string symbol;
        f.required("symbol", symbol);
        auto const* brackets = f.raw("brackets");
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (!brackets || !brackets->is_array())
            return unexpected(what + " brackets");
        std::int64_t best = 0;
        auto const& items = brackets->get_array();
        for (std::size_t j = 0; j < items.size(); ++j) {
            json_fields b(items[j], strictness::upstream, item_name(what + " brackets", j));
            std::int64_t leverage = 0;
            b.required("initialLeverage", leverage);
            if (auto ok = b.finish(); !ok)
                return ok.error();
            best = std::max(best, leverage);
        }
        if (best < 1 || best > 10000)
            return unexpected(what + " initialLeverage");
        out[symbol] = static_cast<unsigned>(best);
    }
    return out;
}

market_info to_market_info(perp_market const& m) {
    market_info out;
    out.symbol = m.symbol;
    out.tick_size = m.rules.tick_size;
    out.step_size = m.rules.step_size;
    out.min_notional = m.rules.min_notional;
    out.max_leverage = m.max_leverage;
    return out;
}

market_info to_market_info(spot_market const& m) {
    market_info out;
    out.symbol = m.symbol;
    out.tick_size = m.rules.tick_size;
    out.step_size = m.rules.step_size;
    out.min_notional = m.rules.min_notional;
    return out;
}

std::vector<market_info> to_market_infos(universe const& u, venue v) {
    std::vector<market_info> out;
    auto const list = [&](auto const& markets) {
        out.reserve(markets.size());
        std::transform(markets.begin(), markets.end(), std::back_inserter(out),
                       [](auto const& m) { return to_market_info(m); });
    };
    if (v == venue::spot)
        list(u.spot());
    else
        list(u.perps());
    return out;
}

// ---------------------------------------------------------------------------------------------
// Market data

result<price_map> to_prices(json::value const& ticker, universe const& u, venue v) {
    auto arr = array_of(ticker, "ticker/price");
    if (!arr)
        return arr.error();
    price_map out;
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        json_fields f((**arr)[i], strictness::upstream, item_name("ticker/price", i));
        std::string symbol;
        decimal price;
        f.required("symbol", symbol);
        f.required("price", price);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (v == venue::spot) {
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
    std::optional<std::int64_t> event_time, transaction_time;
    f.optional("E", event_time);
    f.optional("T", transaction_time);
    auto const* bids = f.raw("bids");
    auto const* asks = f.raw("asks");
    if (auto ok = f.finish(); !ok)
        return ok.error();
    orderbook out;
    out.symbol = symbol;
    out.timestamp = transaction_time.value_or(event_time.value_or(0));
    auto read_side = [&](json::value const* side, std::string_view name,
                         std::vector<book_level>& into) -> result<void> {
        if (!side || !side->is_array())
            return unexpected("depth " + std::string(name));
        auto const& items = side->get_array();
        for (std::size_t i = 0; i < items.size() && into.size() < levels; ++i) {
            auto const* pair = items[i].if_array();
            std::optional<decimal> px, qty;
            if (pair && pair->size() >= 2) {
                px = decimal::from_json_lenient((*pair)[0]);
                qty = decimal::from_json_lenient((*pair)[1]);
            }
            if (!px || !qty)
                return unexpected(item_name("depth " + std::string(name), i));
            into.push_back({std::move(*px), std::move(*qty)});
        }
        return {};
    };
    if (auto ok = read_side(bids, "bids", out.bids); !ok)
        return ok.error();
    if (auto ok = read_side(asks, "asks", out.asks); !ok)
        return ok.error();
    return out;
}

result<std::vector<trade>> to_trades(json::value const& trades, std::size_t limit) {
    auto arr = array_of(trades, "trades");
    if (!arr)
        return arr.error();
    std::vector<trade> out;
    out.reserve((*arr)->size());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        json_fields f((**arr)[i], strictness::upstream, item_name("trades", i));
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
    // Oldest first upstream; newest first in the contract (equal times: the later id first).
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
    out.reserve((*arr)->size());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        auto const* r = (**arr)[i].if_array();
        std::optional<std::int64_t> open_time;
        if (r && r->size() >= 6) {
            auto const& t = (*r)[0];
            if (auto n = json::try_value_to<std::int64_t>(t))
                open_time = *n;
            else if (t.is_string()) {
                std::int64_t parsed = 0;
                auto const s = t.get_string();
                auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
                if (ec == std::errc{} && end == s.data() + s.size())
                    open_time = parsed;
            }
        }
        std::optional<decimal> o, h, l, c, vol;
        if (open_time) {
            o = decimal::from_json_lenient((*r)[1]);
            h = decimal::from_json_lenient((*r)[2]);
            l = decimal::from_json_lenient((*r)[3]);
            c = decimal::from_json_lenient((*r)[4]);
            vol = decimal::from_json_lenient((*r)[5]);
        }
        if (!open_time || !o || !h || !l || !c || !vol)
            return unexpected(item_name("klines", i));
        out.push_back({std::move(*o), std::move(*h), std::move(*l), std::move(*c), std::move(*vol),
                       *open_time});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](candle const& a, candle const& b) { return a.timestamp < b.timestamp; });
    return out;
}

// ---------------------------------------------------------------------------------------------
// Account data

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
    out.reserve((*arr)->size());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        json_fields f((**arr)[i], strictness::upstream, item_name("positionRisk", i));
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
        f.with_default("isolatedMargin", r.isolated_margin);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        r.isolated = margin_type == "isolated" || margin_type == "ISOLATED";
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
        p.symbol = perp_symbol_of(u, r.upstream);
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
                return unexpected("positionRisk " + r.upstream + " (margin)");
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
    out.reserve((*arr)->size());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        std::string const what = item_name("openOrders", i);
        json_fields f((**arr)[i], strictness::upstream, what);
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
        auto const s = side_of(side_text);
        if (!s)
            return unexpected(what + " side");
        o.order_id = std::to_string(id);
        o.client_order_id = client && !client->empty() ? client : std::nullopt;
        o.symbol = perp_symbol_of(u, upstream);
        o.side = *s;
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
            return unexpected(what + " type " + type);
        }
        out.push_back(std::move(o));
    }
    // Oldest first upstream; newest first in the contract (equal times: the later one first).
    std::reverse(out.begin(), out.end());
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
    out.reserve((*arr)->size());
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        std::string const what = item_name("userTrades", i);
        json_fields f((**arr)[i], strictness::upstream, what);
        fill x;
        std::int64_t id = 0, order_id = 0;
        std::string upstream, side_text;
        decimal realized;
        bool maker = false;
        f.required("id", id);
        f.required("orderId", order_id);
        f.required("symbol", upstream);
        f.required("side", side_text);
        f.required("price", x.price);
        f.required("qty", x.size);
        f.required("commission", x.fee);
        f.required("commissionAsset", x.fee_asset);
        f.required("maker", maker);
        f.with_default("realizedPnl", realized);
        f.required("time", x.timestamp);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        auto const s = side_of(side_text);
        if (!s)
            return unexpected(what + " side");
        x.id = std::to_string(id);
        x.order_id = std::to_string(order_id);
        x.symbol = perp_symbol_of(u, upstream);
        x.side = *s;
        x.liquidity = maker ? liquidity::maker : liquidity::taker;
        x.closed_pnl = realized.is_zero() ? std::nullopt : std::optional<decimal>(realized);
        out.push_back(std::move(x));
    }
    std::reverse(out.begin(), out.end());
    std::stable_sort(out.begin(), out.end(),
                     [](fill const& a, fill const& b) { return a.timestamp > b.timestamp; });
    return out;
}

result<std::vector<spot_balance>> to_spot_balances(json::value const& spot_account) {
    json_fields f(spot_account, strictness::upstream, "spot account");
    auto const* balances = f.raw("balances");
    if (auto ok = f.finish(); !ok)
        return ok.error();
    if (!balances || !balances->is_array())
        return unexpected("spot account balances");
    std::vector<spot_balance> out;
    auto const& items = balances->get_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
        std::string const what = item_name("spot account balances", i);
        json_fields bf(items[i], strictness::upstream, what);
        spot_balance b;
        bf.required("asset", b.asset);
        bf.required("free", b.available);
        bf.required("locked", b.locked);
        if (auto ok = bf.finish(); !ok)
            return ok.error();
        auto total = exact_add(b.available, b.locked);
        if (!total)
            return unexpected(what + " total");
        if (total->is_zero())
            continue;
        b.total = std::move(*total);
        out.push_back(std::move(b));
    }
    return out;
}

result<std::vector<commission_entry>> to_commissions(json::value const& income) {
    auto arr = array_of(income, "income");
    if (!arr)
        return arr.error();
    std::vector<commission_entry> out;
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
        json_fields f((**arr)[i], strictness::upstream, item_name("income", i));
        commission_entry e;
        std::string type;
        f.with_default("symbol", e.upstream);
        f.required("incomeType", type);
        f.required("time", e.time);
        auto const* tran = f.raw("tranId");
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (type != "COMMISSION" || e.upstream.empty())
            continue;
        if (tran && tran->is_string())
            e.tran_id = std::string(tran->get_string());
        else if (tran && tran->is_number())
            e.tran_id = json::serialize(*tran);
        out.push_back(std::move(e));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// rwas markets

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
                std::map<std::string, decimal, std::less<>> const& open_interest) {
    // One symbol answers an object, all symbols an array of them.
    json::array one;
    json::array const* list = premium_index.if_array();
    if (!list && premium_index.is_object()) {
        one.push_back(premium_index);
        list = &one;
    }
    if (!list)
        return unexpected("premiumIndex");
    std::map<std::string, decimal, std::less<>> marks;
    for (std::size_t i = 0; i < list->size(); ++i) {
        json_fields f((*list)[i], strictness::upstream, item_name("premiumIndex", i));
        std::string symbol;
        decimal mark;
        f.required("symbol", symbol);
        f.required("markPrice", mark);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        marks[symbol] = std::move(mark);
    }
    std::vector<dex_market> out;
    for (auto const& m : u.perps()) {
        if (!m.rwa)
            continue;
        dex_market d;
        d.symbol = m.symbol;
        d.max_leverage = m.max_leverage;
        d.sz_decimals = static_cast<std::int64_t>(m.rules.step_size.scale());
        if (auto it = marks.find(m.upstream); it != marks.end())
            d.mark_price = it->second;
        if (auto it = open_interest.find(m.upstream); it != open_interest.end())
            d.open_interest = it->second;
        out.push_back(std::move(d));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Errors

std::optional<upstream_error_body> error_body(json::value const& v) {
    auto const* o = v.if_object();
    auto const* code = o ? o->if_contains("code") : nullptr;
    auto const* msg = o ? o->if_contains("msg") : nullptr;
    if (!code || !msg || !msg->is_string())
        return std::nullopt;
    upstream_error_body out;
    // `code` is a number, or a string on some endpoints (cancel-all answers "200").
    if (auto n = json::try_value_to<std::int64_t>(*code)) {
        out.code = *n;
    } else if (code->is_string()) {
        auto const s = code->get_string();
        auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out.code);
        if (ec != std::errc{} || end != s.data() + s.size())
            return std::nullopt;
    } else {
        return std::nullopt;
    }
    out.msg = std::string(msg->get_string());
    return out;
}

api_error read_error(std::string const& name, upstream_answer const& a,
                     address const& read_signer) {
    auto const body = error_body(a.body);
    if (!body)
        return make_error(errc::upstream_error, "The " + name + " upstream answered HTTP " +
                                                    std::to_string(a.status) + ".");
    if (body->code == w::rejected_signer.code || body->code == w::unauthorized_code) {
        api_error e = make_error(errc::signer_not_approved,
                                 "This account has not approved the gateway's read signer " +
                                     read_signer.str() + " on " + name +
                                     "; approve it as an API wallet to read the account here.");
        e.details["signer"] = read_signer.str();
        return e;
    }
    if (body->code == w::invalid_symbol.code)
        return make_error(errc::market_not_found,
                          "The " + name + " upstream does not know this symbol.");
    api_error e =
        make_error(errc::upstream_error, "The " + name + " upstream refused the read (" +
                                             std::to_string(body->code) + " " + body->msg + ").");
    e.details["upstreamCode"] = body->code;
    return e;
}

} // namespace gateway::server::beta
