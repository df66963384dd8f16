#include "beta_router.hpp"

#include "../common/format.hpp"
#include "../common/http_util.hpp"
#include "../common/json_out.hpp"
#include "../common/rate_limiter.hpp"
#include "../common/rng.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <string_view>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;

// ---------------------------------------------------------------------------------------------
// Seed markets (beta.md §0, §4.1 exchangeInfo)

struct perp_def {
    std::string_view symbol;
    std::string_view base;
    std::string_view sub_type; ///< "" (crypto), "STOCK" or "RWA"
    std::string_view name;     ///< stock/RWA display name
    std::string_view channel;  ///< stock/RWA price source
    unsigned px_scale;         ///< tick decimals; prices print with this many decimals
    unsigned price_precision;  ///< as the real exchangeInfo says (may differ from the tick!)
    unsigned sz_scale;         ///< step decimals
    std::string_view min_qty, max_qty, market_max_qty;
    std::int64_t mark; ///< px_scale units
    std::int64_t lot;  ///< sz_scale units
    std::uint32_t step_ppm;
    std::int64_t onboard_date;
};

constexpr std::array<perp_def, 5> perps{{
    {"BTCUSDT", "BTC", "", "", "", 1, 1, 3, "0.001", "1000", "120", 670000, 1500, 600,
     1679961600000},
    {"ETHUSDT", "ETH", "", "", "", 2, 2, 3, "0.001", "10000", "2000", 350000, 20000, 800,
     1679961600000},
    {"SOLUSDT", "SOL", "", "", "", 2, 2, 2, "0.01", "100000", "10000", 15000, 10000, 1000,
     1679961600000},
    // The real TSLAUSDT says pricePrecision 6 while its tick is 0.01 (beta.md §4.1): kept, so
    // clients that size prices from pricePrecision instead of tickSize show up in tests.
    {"TSLAUSDT", "TSLA", "STOCK", "Tesla Inc.", "nasdaq", 2, 6, 2, "0.01", "100000", "5", 43000,
     2000, 700, 1752562800000},
    {"XAUUSDT", "XAU", "RWA", "Gold", "forex", 2, 2, 3, "0.001", "10000", "100", 335000, 5000, 400,
     1755590400000},
}};

struct spot_def {
    std::string_view symbol;
    std::string_view perp; ///< priced from this perp's mark, or "" for its own market
    unsigned px_scale;
    unsigned sz_scale;
    std::int64_t mark; ///< own market only
    std::int64_t lot;
};

constexpr std::array<spot_def, 3> spots{{
    {"BTCUSDT", "BTCUSDT", 2, 5, 0, 0},
    {"ETHUSDT", "ETHUSDT", 2, 4, 0, 0},
    {"ASTERUSDT", "", 4, 2, 12000, 500000}, // 1.2000 USDT, 5000 ASTER per level
}};

constexpr std::uint32_t futures_budget = 2400; // beta.md §8
constexpr std::uint32_t spot_budget = 6000;    // real spot exchangeInfo, Jan 2026 (beta.md §8)
constexpr auto budget_window = std::chrono::minutes(1);
constexpr std::array<unsigned, 7> depth_limits{5, 10, 20, 50, 100, 500, 1000};
constexpr std::int64_t update_id_base = 148'964'776'071;

// ---------------------------------------------------------------------------------------------
// Responses

json::object error_body(int code, std::string_view msg) {
    json::object o;
    o["code"] = code;
    o["msg"] = msg;
    return o;
}

net::response error(http::status st, int code, std::string_view msg, unsigned v) {
    return json_response(st, error_body(code, msg), v);
}

net::response missing(std::string_view param, unsigned v) {
    return error(http::status::bad_request, -1102,
                 "Mandatory parameter '" + std::string(param) +
                     "' was not sent, was empty/null, or malformed.",
                 v);
}

net::response invalid_symbol(unsigned v) {
    return error(http::status::bad_request, -1121, "Invalid symbol.", v);
}

net::response illegal_chars(std::string_view param, unsigned v) {
    return error(http::status::bad_request, -1100,
                 "Illegal characters found in parameter '" + std::string(param) +
                     "'; legal range is '^[0-9]{1,20}$'.",
                 v);
}

/// beta.md §4.1: depth weight by limit.
std::uint32_t depth_weight(unsigned limit) {
    if (limit <= 50)
        return 2;
    if (limit <= 100)
        return 5;
    if (limit <= 500)
        return 10;
    return 20;
}

enum class venue { futures, spot };

class router final : public upstream_router {
public:
    router(market_state& markets, mock_options const& options)
        : markets_(markets)
        , futures_limiter_(futures_budget, budget_window)
        , spot_limiter_(spot_budget, budget_window)
        , update_base_(update_id_base +
                       static_cast<std::int64_t>(options.seed % 1'000'000) * 1000) {}

    std::string classify(net::request const& req) const override {
        return std::string(req.method_string()) + " " + split_target(req.target()).path;
    }

    net::response handle(net::request const& req, caller const& who) override {
        auto const t = split_target(req.target());
        unsigned const v = req.version();
        std::string_view const path = t.path;
        venue where;
        std::string_view endpoint;
        if (path.substr(0, 9) == "/fapi/v3/") {
            where = venue::futures;
            endpoint = path.substr(9);
        } else if (path.substr(0, 8) == "/api/v3/") {
            where = venue::spot;
            endpoint = path.substr(8);
        } else {
            return unknown_path(req);
        }
        bool const known =
            where == venue::futures
                ? (endpoint == "ping" || endpoint == "time" || endpoint == "exchangeInfo" ||
                   endpoint == "depth" || endpoint == "trades" || endpoint == "ticker/price")
                : (endpoint == "ping" || endpoint == "time" || endpoint == "ticker/price");
        if (!known || req.method() != http::verb::get)
            return unknown_path(req);

        // Weight is charged before validation, like the real exchange.
        std::uint32_t weight = 1;
        auto const symbol = query_get(t.query, "symbol");
        if (endpoint == "ticker/price" && !symbol)
            weight = 2;
        if (endpoint == "depth") {
            auto const limit = query_get(t.query, "limit");
            weight = depth_weight(limit ? static_cast<unsigned>(std::min<std::uint64_t>(
                                              parse_uint(*limit).value_or(0), 1000))
                                        : 500);
        }
        auto& limiter = where == venue::futures ? futures_limiter_ : spot_limiter_;
        auto const verdict = limiter.admit(who.address, weight, weight_limiter::clock::now());
        net::response res = [&] {
            if (!verdict.admitted) {
                auto r = error(http::status::too_many_requests, -1003,
                               "Too many requests; current limit of IP(" + who.address + ") is " +
                                   std::to_string(limiter.limit()) +
                                   " requests per minute. Please use the websocket for live "
                                   "updates to avoid polling the API.",
                               v);
                r.set(http::field::retry_after, "60");
                return r;
            }
            if (endpoint == "ping")
                return json_response(http::status::ok, json::object{}, v);
            if (endpoint == "time") {
                json::object o;
                o["serverTime"] = now_ms();
                return json_response(http::status::ok, o, v);
            }
            if (endpoint == "exchangeInfo")
                return json_response(http::status::ok, exchange_info(), v);
            if (endpoint == "depth")
                return depth(t.query, v);
            if (endpoint == "trades")
                return trades(t.query, v);
            return ticker_price(where, t.query, v);
        }();
        res.set("X-MBX-USED-WEIGHT-1M", std::to_string(verdict.used));
        return res;
    }

    net::response forced_status(unsigned status, unsigned version) const override {
        auto const st = static_cast<http::status>(status);
        if (status == 429)
            return error(st, -1003, "Too many requests; please use the websocket for live updates.",
                         version);
        return error(st, -1000, "An unknown error occured while processing the request.", version);
    }

    net::response render_failure(net::failure const& f, unsigned version) const override {
        auto const st = f.kind == net::failure_kind::bad_request ? http::status::bad_request
                        : f.kind == net::failure_kind::payload_too_large
                            ? http::status::payload_too_large
                            : http::status::internal_server_error;
        return error(st, -1000, f.message, version);
    }

private:
    static net::response unknown_path(net::request const& req) {
        return error(http::status::not_found, -5000,
                     "Path " + split_target(req.target()).path + ", Method " +
                         std::string(req.method_string()) + " is invalid",
                     req.version());
    }

    std::optional<std::size_t> perp_index(std::string const& symbol) const {
        for (auto const& p : perps)
            if (p.symbol == symbol)
                return markets_.find(symbol);
        return std::nullopt;
    }

    static perp_def const& perp(std::string_view symbol) {
        return *std::find_if(perps.begin(), perps.end(),
                             [&](perp_def const& p) { return p.symbol == symbol; });
    }

    std::string price_text(std::int64_t px, perp_def const& p) const {
        return fixed(px, p.px_scale, p.px_scale);
    }

    json::object exchange_info() const {
        json::object o;
        o["timezone"] = "UTC";
        o["serverTime"] = now_ms();
        o["futuresType"] = "U_MARGINED";
        auto limit = [](char const* type, char const* interval, int n, int lim) {
            json::object l;
            l["rateLimitType"] = type;
            l["interval"] = interval;
            l["intervalNum"] = n;
            l["limit"] = lim;
            return l;
        };
        o["rateLimits"] =
            json::array{limit("REQUEST_WEIGHT", "MINUTE", 1, futures_budget),
                        limit("ORDERS", "MINUTE", 1, 1200), limit("ORDERS", "SECOND", 10, 300)};
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
        for (auto const& p : perps)
            symbols.push_back(symbol_info(p));
        o["symbols"] = std::move(symbols);
        return o;
    }

    static json::object symbol_info(perp_def const& p) {
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
        json::array sub;
        if (!p.sub_type.empty())
            sub.push_back(json::string(p.sub_type));
        s["underlyingSubType"] = std::move(sub);
        s["symbolType"] = p.sub_type.empty() ? 0 : 1;
        if (!p.sub_type.empty()) {
            s["tradingMode"] = 1;
            s["name"] = p.name;
            s["channel"] = p.channel;
        }
        s["triggerProtect"] = "0.0500";
        s["liquidationFee"] = "0.015000";
        s["marketTakeBound"] = "0.05";
        std::string const tick = fixed(1, p.px_scale, p.price_precision);
        std::string const step = canonical(1, p.sz_scale);
        auto filter = [](char const* type) {
            json::object f;
            f["filterType"] = type;
            return f;
        };
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

    net::response depth(query_params const& q, unsigned v) const {
        auto const symbol = query_get(q, "symbol");
        if (!symbol || symbol->empty())
            return missing("symbol", v);
        unsigned limit = 500;
        if (auto const l = query_get(q, "limit")) {
            auto const n = parse_uint(*l);
            if (!n)
                return illegal_chars("limit", v);
            if (std::find(depth_limits.begin(), depth_limits.end(), *n) == depth_limits.end())
                return error(http::status::bad_request, -4021, "Invalid depth limit.", v);
            limit = static_cast<unsigned>(*n);
        }
        auto const idx = perp_index(*symbol);
        if (!idx)
            return invalid_symbol(v);
        auto const& p = perp(*symbol);
        auto const b = markets_.book(*idx, limit);
        auto side = [&](std::vector<book_level> const& levels) {
            json::array out;
            for (auto const& l : levels)
                out.push_back(
                    json::array{price_text(l.px, p), fixed(l.sz, p.sz_scale, p.sz_scale)});
            return out;
        };
        std::int64_t const now = now_ms();
        json::object o;
        o["lastUpdateId"] = update_base_ + static_cast<std::int64_t>(b.version) * 100;
        o["E"] = now;
        o["T"] = now - 7;
        o["bids"] = side(b.bids);
        o["asks"] = side(b.asks);
        return json_response(http::status::ok, o, v);
    }

    net::response trades(query_params const& q, unsigned v) const {
        auto const symbol = query_get(q, "symbol");
        if (!symbol || symbol->empty())
            return missing("symbol", v);
        std::size_t limit = 500;
        if (auto const l = query_get(q, "limit")) {
            auto const n = parse_uint(*l);
            if (!n)
                return illegal_chars("limit", v);
            if (*n == 0)
                return error(http::status::bad_request, -1130,
                             "Data sent for parameter 'limit' is not valid.", v);
            limit = static_cast<std::size_t>(std::min<std::uint64_t>(*n, 1000));
        }
        auto const idx = perp_index(*symbol);
        if (!idx)
            return invalid_symbol(v);
        auto const& p = perp(*symbol);
        json::array out;
        for (auto const& t : markets_.trades(*idx, limit)) {
            json::object o;
            o["id"] = t.id;
            o["price"] = price_text(t.px, p);
            o["qty"] = fixed(t.sz, p.sz_scale, p.sz_scale);
            o["quoteQty"] = fixed(t.px * t.sz, p.px_scale + p.sz_scale, p.px_scale);
            o["time"] = t.time_ms;
            o["isBuyerMaker"] = !t.buyer_is_taker;
            out.push_back(std::move(o));
        }
        return json_response(http::status::ok, out, v);
    }

    json::object price_item(venue where, std::size_t k, std::int64_t now) const {
        json::object o;
        if (where == venue::futures) {
            auto const& p = perps[k];
            o["symbol"] = p.symbol;
            o["price"] = price_text(markets_.mark(*markets_.find(std::string(p.symbol))), p);
        } else {
            auto const& s = spots[k];
            o["symbol"] = s.symbol;
            std::string_view const source = s.perp.empty() ? s.symbol : s.perp;
            auto const i = *markets_.find(std::string(source));
            std::int64_t const px =
                rescale(markets_.mark(i), markets_.spec(i).px_scale, s.px_scale);
            o["price"] = fixed(px, s.px_scale, s.px_scale);
        }
        o["time"] = now;
        return o;
    }

    net::response ticker_price(venue where, query_params const& q, unsigned v) const {
        std::int64_t const now = now_ms();
        std::size_t const n = where == venue::futures ? perps.size() : spots.size();
        auto name = [&](std::size_t k) {
            return where == venue::futures ? perps[k].symbol : spots[k].symbol;
        };
        if (auto const symbol = query_get(q, "symbol")) {
            for (std::size_t k = 0; k < n; ++k)
                if (name(k) == *symbol)
                    return json_response(http::status::ok, price_item(where, k, now), v);
            return symbol->empty() ? missing("symbol", v) : invalid_symbol(v);
        }
        json::array out;
        for (std::size_t k = 0; k < n; ++k)
            out.push_back(price_item(where, k, now));
        return json_response(http::status::ok, out, v);
    }

    market_state& markets_;
    weight_limiter futures_limiter_;
    weight_limiter spot_limiter_;
    std::int64_t update_base_;
};

} // namespace

std::vector<market_spec> market_specs() {
    std::vector<market_spec> out;
    for (auto const& p : perps) {
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
    for (auto const& sp : spots) {
        if (!sp.perp.empty())
            continue;
        market_spec s;
        s.symbol = std::string(sp.symbol);
        s.aliases.emplace_back(sp.symbol.substr(0, sp.symbol.size() - 4)); // "ASTER"
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

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const& options) {
    return std::make_unique<router>(markets, options);
}

} // namespace gateway::mocks::beta
