#include "beta_markets.hpp"

#include "../common/format.hpp"
#include "../common/json_out.hpp"

#include <gateway/providers/beta/weights.hpp>

#include <boost/json/array.hpp>

#include <algorithm>
#include <array>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;

// Leverage brackets (beta.md §4.2 leverageBracket; bracket 1 gives the maximum leverage). The
// ETH table starts as the docs' example (75x up to 10000, 0.0065); the others are Binance-like
// tables chosen for the mock.
constexpr std::array<bracket_def, 6> btc_brackets{{
    {125, 0, 50'000, "0.004"},
    {100, 50'000, 250'000, "0.005"},
    {50, 250'000, 3'000'000, "0.01"},
    {20, 3'000'000, 15'000'000, "0.025"},
    {10, 15'000'000, 30'000'000, "0.05"},
    {5, 30'000'000, 80'000'000, "0.1"},
}};
constexpr std::array<bracket_def, 5> eth_brackets{{
    {75, 0, 10'000, "0.0065"},
    {50, 10'000, 100'000, "0.01"},
    {25, 100'000, 500'000, "0.02"},
    {10, 500'000, 1'000'000, "0.05"},
    {5, 1'000'000, 2'000'000, "0.1"},
}};
constexpr std::array<bracket_def, 4> sol_brackets{{
    {50, 0, 5'000, "0.01"},
    {25, 5'000, 50'000, "0.02"},
    {10, 50'000, 250'000, "0.05"},
    {5, 250'000, 1'000'000, "0.1"},
}};
constexpr std::array<bracket_def, 3> stock_brackets{{
    {10, 0, 100'000, "0.025"},
    {5, 100'000, 500'000, "0.05"},
    {2, 500'000, 1'000'000, "0.1"},
}};
constexpr std::array<bracket_def, 3> gold_brackets{{
    {50, 0, 50'000, "0.01"},
    {20, 50'000, 500'000, "0.025"},
    {10, 500'000, 2'000'000, "0.05"},
}};

constexpr std::array<perp_def, 6> perp_table{{
    {"BTCUSDT", "BTC", "", "", "", 1, 1, 3, "0.001", "1000", "120", 670000, 1500, 600,
     1679961600000, 8'512'345, btc_brackets},
    {"ETHUSDT", "ETH", "", "", "", 2, 2, 3, "0.001", "10000", "2000", 350000, 20000, 800,
     1679961600000, 120'456'789, eth_brackets},
    {"SOLUSDT", "SOL", "", "", "", 2, 2, 2, "0.01", "100000", "10000", 15000, 10000, 1000,
     1679961600000, 95'432'100, sol_brackets},
    // The real TSLAUSDT says pricePrecision 6 while its tick is 0.01 (beta.md §4.1): kept, so
    // clients that size prices from pricePrecision instead of tickSize show up in tests.
    {"TSLAUSDT", "TSLA", "STOCK", "Tesla Inc.", "nasdaq", 2, 6, 2, "0.01", "100000", "5", 43000,
     2000, 700, 1752562800000, 4'321'000, stock_brackets},
    {"NVDAUSDT", "NVDA", "STOCK", "NVIDIA Corporation", "nasdaq", 2, 2, 2, "0.01", "100000", "10",
     18000, 4000, 800, 1752562800000, 6'543'200, stock_brackets},
    {"XAUUSDT", "XAU", "RWA", "Gold", "forex", 2, 2, 3, "0.001", "10000", "100", 335000, 5000, 400,
     1755590400000, 1'234'567, gold_brackets},
}};

constexpr std::array<spot_def, 3> spot_table{{
    {"BTCUSDT", "BTC", "BTCUSDT", 2, 5, "9000", 0, 0, 1742256000000},
    {"ETHUSDT", "ETH", "ETHUSDT", 2, 4, "100000", 0, 0, 1742256000000},
    {"ASTERUSDT", "ASTER", "", 4, 2, "10000000", 12000, 500000,
     1742256000000}, // 1.2000 USDT, 5000 ASTER a level
}};

json::object filter(char const* type) {
    json::object f;
    f["filterType"] = type;
    return f;
}

json::object rate_limit(char const* type, char const* interval, int n, std::uint32_t limit) {
    json::object l;
    l["rateLimitType"] = type;
    l["interval"] = interval;
    l["intervalNum"] = n;
    l["limit"] = limit;
    return l;
}

json::object perp_symbol(perp_def const& p) {
    json::object s;
    s["symbol"] = p.symbol;
    s["pair"] = p.symbol;
    s["contractType"] = "PERPETUAL";
    s["deliveryDate"] = 4133404800000;
    s["onboardDate"] = p.onboard_date;
    s["status"] = "TRADING";
    s["baseAsset"] = p.base;
    s["quoteAsset"] = "USDT";
    s["marginAsset"] = "USDT";
    s["pricePrecision"] = p.price_precision;
    s["quantityPrecision"] = p.sz_scale;
    s["baseAssetPrecision"] = 8;
    s["quotePrecision"] = 8;
    s["underlyingType"] = "COIN";
    json::array sub_types;
    if (!p.sub_type.empty())
        sub_types.push_back(json::string(p.sub_type));
    s["underlyingSubType"] = std::move(sub_types);
    s["symbolType"] = p.sub_type.empty() ? 0 : 1;
    if (!p.sub_type.empty()) {
        s["tradingMode"] = 1;
        s["name"] = p.name;
        s["channel"] = p.channel;
    }
    s["triggerProtect"] = "0.0500";
    s["liquidationFee"] = "0.015000";
    s["marketTakeBound"] = "0.05";
    std::string const tick = fixed(1, p.px_scale, std::max(p.px_scale, p.price_precision));
    std::string const step = canonical(1, p.sz_scale);
    json::array filters;
    auto pf = filter("PRICE_FILTER");
    pf["minPrice"] = tick;
    pf["maxPrice"] = "1000000";
    pf["tickSize"] = tick;
    filters.push_back(std::move(pf));
    auto lot = filter("LOT_SIZE");
    lot["minQty"] = p.min_qty;
    lot["maxQty"] = p.max_qty;
    lot["stepSize"] = step;
    filters.push_back(std::move(lot));
    auto mlot = filter("MARKET_LOT_SIZE");
    mlot["minQty"] = p.min_qty;
    mlot["maxQty"] = p.market_max_qty;
    mlot["stepSize"] = step;
    filters.push_back(std::move(mlot));
    auto orders = filter("MAX_NUM_ORDERS");
    orders["limit"] = 200;
    filters.push_back(std::move(orders));
    auto algo = filter("MAX_NUM_ALGO_ORDERS");
    algo["limit"] = 10;
    filters.push_back(std::move(algo));
    auto notional = filter("MIN_NOTIONAL");
    notional["notional"] = "5";
    filters.push_back(std::move(notional));
    auto percent = filter("PERCENT_PRICE");
    percent["multiplierUp"] = "1.0500";
    percent["multiplierDown"] = "0.9500";
    percent["multiplierDecimal"] = "4";
    filters.push_back(std::move(percent));
    s["filters"] = std::move(filters);
    s["orderTypes"] = json::array{"LIMIT",
                                  "MARKET",
                                  "STOP",
                                  "STOP_MARKET",
                                  "TAKE_PROFIT",
                                  "TAKE_PROFIT_MARKET",
                                  "TRAILING_STOP_MARKET"};
    s["timeInForce"] = json::array{"GTC", "IOC", "FOK", "GTX", "HIDDEN"};
    return s;
}

json::object spot_symbol(spot_def const& sp) {
    json::object s;
    s["symbol"] = sp.symbol;
    s["status"] = "TRADING";
    s["baseAsset"] = sp.base;
    s["quoteAsset"] = "USDT";
    s["pricePrecision"] = sp.px_scale;
    s["quantityPrecision"] = sp.sz_scale;
    s["baseAssetPrecision"] = 8;
    s["quotePrecision"] = 8;
    s["baseCommissionPrecision"] = 8;
    s["quoteCommissionPrecision"] = 8;
    s["listingTime"] = sp.listing_time;
    s["baseAssetAddress"] = nullptr;
    s["ocoAllowed"] = false;
    std::string const tick = fixed(1, sp.px_scale, sp.px_scale);
    std::string const step = fixed(1, sp.sz_scale, sp.sz_scale);
    json::array filters;
    auto pf = filter("PRICE_FILTER");
    pf["minPrice"] = tick;
    pf["maxPrice"] = "1000000";
    pf["tickSize"] = tick;
    filters.push_back(std::move(pf));
    auto percent = filter("PERCENT_PRICE");
    percent["multiplierUp"] = "5";
    percent["multiplierDown"] = "0.2";
    percent["multiplierDecimal"] = "1";
    filters.push_back(std::move(percent));
    auto lot = filter("LOT_SIZE");
    lot["minQty"] = step;
    lot["maxQty"] = sp.max_qty;
    lot["stepSize"] = step;
    filters.push_back(std::move(lot));
    auto mlot = filter("MARKET_LOT_SIZE");
    mlot["minQty"] = step;
    mlot["maxQty"] = sp.max_qty;
    mlot["stepSize"] = step;
    filters.push_back(std::move(mlot));
    auto min_notional = filter("MIN_NOTIONAL");
    min_notional["minNotional"] = "5";
    filters.push_back(std::move(min_notional));
    auto notional = filter("NOTIONAL");
    notional["minNotional"] = "5";
    notional["applyMinToMarket"] = true;
    notional["maxNotional"] = "9000000";
    notional["applyMaxToMarket"] = false;
    notional["avgPriceMins"] = 5;
    filters.push_back(std::move(notional));
    auto notional_cap = filter("MAX_NOTIONAL");
    notional_cap["maxNotional"] = "9000000";
    filters.push_back(std::move(notional_cap));
    auto orders = filter("MAX_NUM_ORDERS");
    orders["limit"] = 200;
    filters.push_back(std::move(orders));
    auto by_side = filter("PERCENT_PRICE_BY_SIDE");
    by_side["bidMultiplierUp"] = "5";
    by_side["bidMultiplierDown"] = "0.2";
    by_side["askMultiplierUp"] = "5";
    by_side["askMultiplierDown"] = "0.2";
    by_side["avgPriceMins"] = "5";
    by_side["multiplierDecimal"] = "1";
    filters.push_back(std::move(by_side));
    s["filters"] = std::move(filters);
    s["orderTypes"] =
        json::array{"LIMIT", "MARKET", "STOP", "TAKE_PROFIT", "STOP_MARKET", "TAKE_PROFIT_MARKET"};
    s["timeInForce"] = json::array{"GTC", "IOC", "FOK", "GTX"};
    return s;
}

} // namespace

std::span<perp_def const> perps() {
    return perp_table;
}

std::span<spot_def const> spots() {
    return spot_table;
}

perp_def const* find_perp(std::string_view symbol) {
    for (auto const& p : perp_table)
        if (p.symbol == symbol)
            return &p;
    return nullptr;
}

spot_def const* find_spot(std::string_view symbol) {
    for (auto const& s : spot_table)
        if (s.symbol == symbol)
            return &s;
    return nullptr;
}

std::vector<bracket> brackets_of(perp_def const& p) {
    std::vector<bracket> out;
    amount prev_mmr;
    amount cum;
    unsigned n = 0;
    for (auto const& d : p.brackets) {
        amount const floor = amount::from_int(d.notional_floor);
        // The table's texts are valid decimals by construction.
        amount const mmr = amount::parse(d.maint_margin_ratio).value_or(amount{});
        cum += floor * (mmr - prev_mmr);
        prev_mmr = mmr;
        out.push_back({++n, d.initial_leverage, floor, amount::from_int(d.notional_cap), mmr, cum});
    }
    return out;
}

bracket const& bracket_for(std::vector<bracket> const& b, amount notional) {
    for (auto const& x : b)
        if (notional < x.cap)
            return x;
    return b.back();
}

amount max_notional(std::vector<bracket> const& b, unsigned leverage) {
    amount cap = b.front().cap;
    for (auto const& x : b)
        if (x.initial_leverage >= leverage)
            cap = x.cap;
    return cap;
}

unsigned max_leverage(perp_def const& p) {
    return p.brackets.front().initial_leverage;
}

unsigned default_leverage(perp_def const& p) {
    return std::min(20u, max_leverage(p));
}

json::object futures_exchange_info(std::int64_t now_ms) {
    json::object o;
    o["timezone"] = "UTC";
    o["serverTime"] = now_ms;
    o["futuresType"] = "U_MARGINED";
    o["rateLimits"] = json::array{
        rate_limit("REQUEST_WEIGHT", "MINUTE", 1, gateway::wire::beta::futures_budget),
        rate_limit("ORDERS", "MINUTE", 1, 1200), rate_limit("ORDERS", "SECOND", 10, 300)};
    o["exchangeFilters"] = json::array{};
    json::array assets;
    for (auto const* a : {"USDT", "BTC"}) {
        json::object x;
        x["asset"] = a;
        x["marginAvailable"] = true;
        x["autoAssetExchange"] = std::string_view(a) == "USDT" ? "-10000" : "0";
        assets.push_back(std::move(x));
    }
    o["assets"] = std::move(assets);
    json::array symbols;
    for (auto const& p : perp_table)
        symbols.push_back(perp_symbol(p));
    o["symbols"] = std::move(symbols);
    return o;
}

json::object spot_exchange_info(std::int64_t now_ms) {
    json::object o;
    o["timezone"] = "UTC";
    o["serverTime"] = now_ms;
    o["rateLimits"] = json::array{
        rate_limit("REQUEST_WEIGHT", "MINUTE", 1, gateway::wire::beta::spot_budget),
        rate_limit("ORDERS", "MINUTE", 1, 6000), rate_limit("ORDERS", "SECOND", 10, 1000)};
    o["exchangeFilters"] = json::array{};
    json::array assets;
    for (auto const* a : {"USDT", "BTC", "ETH", "ASTER"}) {
        json::object x;
        x["asset"] = a;
        assets.push_back(std::move(x));
    }
    o["assets"] = std::move(assets);
    json::array symbols;
    for (auto const& s : spot_table)
        symbols.push_back(spot_symbol(s));
    o["symbols"] = std::move(symbols);
    return o;
}

json::object leverage_bracket_json(perp_def const& p) {
    json::array list;
    for (auto const& b : brackets_of(p)) {
        json::object o;
        o["bracket"] = b.number;
        o["initialLeverage"] = b.initial_leverage;
        o["notionalCap"] = b.cap.truncated();
        o["notionalFloor"] = b.floor.truncated();
        o["maintMarginRatio"] = raw_number(b.mmr.str());
        o["cum"] = raw_number(b.cum.str());
        list.push_back(std::move(o));
    }
    json::object o;
    o["symbol"] = p.symbol;
    o["brackets"] = std::move(list);
    return o;
}

std::vector<market_spec> market_specs() {
    std::vector<market_spec> out;
    for (auto const& p : perp_table) {
        market_spec s;
        s.symbol = std::string(p.symbol);
        s.aliases.emplace_back(p.base); // `/__mock/mark` accepts "BTC" for BTCUSDT
        s.px_scale = p.px_scale;
        s.sz_scale = p.sz_scale;
        s.mark = p.mark;
        s.lot = p.lot;
        s.step_ppm = p.step_ppm;
        s.max_orders = 12;
        out.push_back(std::move(s));
    }
    for (auto const& sp : spot_table) {
        if (!sp.perp.empty())
            continue;
        market_spec s;
        s.symbol = std::string(sp.symbol);
        s.aliases.emplace_back(sp.base); // "ASTER"
        s.px_scale = sp.px_scale;
        s.sz_scale = sp.sz_scale;
        s.mark = sp.mark;
        s.lot = sp.lot;
        s.step_ppm = 1500;
        s.max_orders = 8;
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace gateway::mocks::beta
