// Provider alpha's reads (spec 4.2 reads, 4.4 balances, 4.5; CONTRACT §4), each under /v1/ and
// /v1/testnet/ (CONTRACT §7). A handler checks its parameters first (VALIDATION_ERROR before
// any upstream call), then the symbol or dex against the learned universe (MARKET_NOT_FOUND,
// DEX_NOT_FOUND), then reads through the adapter: market data cached and coalesced, account
// data coalesced per address only (the address is in the request, so never shared across
// addresses).
#include "alpha_routes.hpp"
#include "alpha/alpha_adapter.hpp"
#include "alpha/alpha_map.hpp"
#include "services.hpp"

#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/rwas.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/json/value_from.hpp>

#include <algorithm>
#include <chrono>

namespace gateway::server {

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
using namespace std::chrono_literals;
using flight_ptr = std::shared_ptr<coalescing_cache<json::value>::flight>;
using alpha::adapter;

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

auto query_of(request_context const& ctx) {
    return [&ctx](std::string_view name) {
        return ctx.query_param(name);
    };
}

reply json_reply(json::value body) {
    reply out;
    out.body = std::move(body);
    return out;
}

/// A mapped answer as a reply (or its error).
template <class T>
result<reply> mapped_reply(result<T> const& mapped) {
    if (!mapped)
        return mapped.error();
    return json_reply(json::value_from(*mapped));
}

/// Waits for a read and hands back its JSON (or its error).
asio::awaitable<result<json::value const*>> await_json(flight_ptr const& f,
                                                       adapter::json_ptr& keep) {
    keep = co_await f->wait();
    if (!*keep)
        co_return keep->error();
    co_return &**keep;
}

/// A perps symbol (`BTC`, `xyz:TSLA`) of the universe. @par Errors MARKET_NOT_FOUND.
result<alpha::perp_market const*> perp_of(alpha::universe const& u, std::string const& symbol) {
    if (auto const* m = u.find_perp(symbol))
        return m;
    return make_error(errc::market_not_found, "Unknown perps market '" + symbol + "' on alpha.");
}

json::object info_body(std::string_view type) {
    json::object o;
    o["type"] = type;
    return o;
}

/// Every perp dex: "" (main) then the builder dexes.
std::vector<std::string> perp_dex_names(alpha::universe const& u) {
    std::vector<std::string> out{""};
    for (auto const& d : u.dexes)
        out.push_back(d.name);
    return out;
}

/// One per-dex account read (clearinghouseState, frontendOpenOrders) for every perp dex, in
/// parallel.
asio::awaitable<result<std::vector<adapter::json_ptr>>> per_dex_reads(alpha::adapter& a,
                                                                      alpha::universe const& u,
                                                                      std::string_view type,
                                                                      address const& user) {
    std::vector<flight_ptr> flights;
    for (auto const& dex : perp_dex_names(u)) {
        auto body = info_body(type);
        body["user"] = user.str();
        body["dex"] = dex;
        flights.push_back(a.start_info(body, 0ms));
    }
    std::vector<adapter::json_ptr> out;
    for (auto const& f : flights) {
        auto v = co_await f->wait();
        if (!*v)
            co_return v->error();
        out.push_back(std::move(v));
    }
    co_return out;
}

struct account_target {
    address user;
    alpha::adapter::universe_ptr markets;
};

/// The common start of an account read: provider, address, universe.
asio::awaitable<result<account_target>> account_read(services& s, request_context& ctx,
                                                     vertical v) {
    if (auto ok = require_alpha(ctx, v); !ok)
        co_return ok.error();
    auto user = address::parse(ctx.param("address"), "address");
    if (!user)
        co_return user.error();
    auto markets = co_await s.alpha(ctx.testnet).markets();
    if (!markets)
        co_return markets.error();
    co_return account_target{std::move(*user), std::move(*markets)};
}

/// An account read over every perp dex: the target and one `type` answer per dex.
struct per_dex_account {
    account_target target;
    std::vector<adapter::json_ptr> answers;
};

asio::awaitable<result<per_dex_account>> per_dex_account_read(services& s, request_context& ctx,
                                                              std::string_view type) {
    auto target = co_await account_read(s, ctx, vertical::perps);
    if (!target)
        co_return target.error();
    auto answers =
        co_await per_dex_reads(s.alpha(ctx.testnet), *target->markets, type, target->user);
    if (!answers)
        co_return answers.error();
    co_return per_dex_account{std::move(*target), std::move(*answers)};
}

asio::awaitable<result<reply>> account_summary_route(services& s, request_context& ctx) {
    auto read = co_await per_dex_account_read(s, ctx, "clearinghouseState");
    if (!read)
        co_return read.error();
    std::vector<json::value> bodies;
    for (auto const& st : read->answers)
        bodies.push_back(**st);
    co_return mapped_reply(alpha::to_account_summary(bodies));
}

asio::awaitable<result<reply>> positions_route(services& s, request_context& ctx) {
    auto read = co_await per_dex_account_read(s, ctx, "clearinghouseState");
    if (!read)
        co_return read.error();
    std::vector<position> all;
    for (auto const& st : read->answers) {
        auto some = alpha::to_positions(**st, *read->target.markets);
        if (!some)
            co_return some.error();
        all.insert(all.end(), some->begin(), some->end());
    }
    co_return json_reply(json::value_from(all));
}

asio::awaitable<result<reply>> open_orders_route(services& s, request_context& ctx) {
    auto read = co_await per_dex_account_read(s, ctx, "frontendOpenOrders");
    if (!read)
        co_return read.error();
    std::vector<open_order> all;
    for (auto const& l : read->answers) {
        auto some = alpha::to_open_orders(**l);
        if (!some)
            co_return some.error();
        for (auto& o : *some)
            if (read->target.markets->find_perp(o.symbol))
                all.push_back(std::move(o)); // perps only: spot orders are not perps orders
    }
    std::stable_sort(all.begin(), all.end(), [](open_order const& a, open_order const& b) {
        return a.timestamp > b.timestamp;
    });
    co_return json_reply(json::value_from(all));
}

asio::awaitable<result<reply>> fills_route(services& s, request_context& ctx) {
    if (auto ok = require_alpha(ctx, vertical::perps); !ok)
        co_return ok.error();
    auto params = fills_params::from_query(query_of(ctx));
    if (!params)
        co_return params.error();
    auto target = co_await account_read(s, ctx, vertical::perps);
    if (!target)
        co_return target.error();
    json::object body;
    if (params->start_time) {
        body = info_body("userFillsByTime");
        body["user"] = target->user.str();
        body["startTime"] = *params->start_time;
        if (params->end_time)
            body["endTime"] = *params->end_time;
    } else {
        body = info_body("userFills");
        body["user"] = target->user.str();
    }
    body["aggregateByTime"] = false;
    auto const answer = co_await s.alpha(ctx.testnet).info(body, 0ms);
    if (!*answer)
        co_return answer->error();
    auto fills = alpha::to_fills(**answer, *target->markets);
    if (!fills)
        co_return fills.error();
    std::erase_if(*fills, [&](fill const& f) {
        return (params->start_time && f.timestamp < *params->start_time) ||
               (params->end_time && f.timestamp > *params->end_time);
    });
    if (fills->size() > static_cast<std::size_t>(*params->limit))
        fills->resize(static_cast<std::size_t>(*params->limit));
    co_return json_reply(json::value_from(*fills));
}

/// The common start of a market read: provider, the market (after the parameters were checked).
asio::awaitable<result<alpha::perp_market>> market_read(services& s, request_context& ctx) {
    auto markets = co_await s.alpha(ctx.testnet).markets();
    if (!markets)
        co_return markets.error();
    auto m = perp_of(**markets, ctx.param("symbol"));
    if (!m)
        co_return m.error();
    co_return **m;
}

/// A market read's checked parameters and its market.
template <class Params>
struct market_request {
    Params params;
    alpha::perp_market market;
};

/// The common start of a market read: provider, parameters (VALIDATION_ERROR), then the
/// market (MARKET_NOT_FOUND) from the learned universe.
template <class Params>
asio::awaitable<result<market_request<Params>>> begin_market_read(services& s,
                                                                  request_context& ctx) {
    if (auto ok = require_alpha(ctx, vertical::perps); !ok)
        co_return ok.error();
    auto params = Params::from_query(query_of(ctx));
    if (!params)
        co_return params.error();
    auto market = co_await market_read(s, ctx);
    if (!market)
        co_return market.error();
    co_return market_request<Params>{std::move(*params), std::move(*market)};
}

asio::awaitable<result<reply>> trades_route(services& s, request_context& ctx) {
    auto r = co_await begin_market_read<trades_params>(s, ctx);
    if (!r)
        co_return r.error();
    auto body = info_body("recentTrades");
    body["coin"] = r->market.symbol;
    auto const answer = co_await s.alpha(ctx.testnet).info(body, s.config.market_cache_ttl);
    if (!*answer)
        co_return answer->error();
    co_return mapped_reply(alpha::to_trades(**answer, static_cast<std::size_t>(*r->params.limit)));
}

asio::awaitable<result<reply>> candles_route(services& s, request_context& ctx) {
    auto r = co_await begin_market_read<candles_params>(s, ctx);
    if (!r)
        co_return r.error();
    // Defaults are resolved against the current second, so identical default reads within
    // the cache lifetime share one upstream call.
    auto range = r->params.resolve(wall_ms() / 1000 * 1000);
    if (!range)
        co_return range.error();
    json::object req; // no braced initializers in a coroutine (GCC 12)
    req["coin"] = r->market.symbol;
    req["interval"] = alpha::upstream_interval(*r->params.interval);
    req["startTime"] = range->start_time;
    req["endTime"] = range->end_time;
    auto body = info_body("candleSnapshot");
    body["req"] = std::move(req);
    auto const answer = co_await s.alpha(ctx.testnet).info(body, s.config.market_cache_ttl);
    if (!*answer)
        co_return answer->error();
    co_return mapped_reply(alpha::to_candles(**answer));
}

asio::awaitable<result<reply>> orderbook_route(services& s, request_context& ctx) {
    auto r = co_await begin_market_read<orderbook_params>(s, ctx);
    if (!r)
        co_return r.error();
    auto body = info_body("l2Book");
    body["coin"] = r->market.symbol;
    auto const answer = co_await s.alpha(ctx.testnet).info(body, s.config.market_cache_ttl);
    if (!*answer)
        co_return answer->error();
    co_return mapped_reply(alpha::to_orderbook(**answer, r->market.symbol,
                                               static_cast<std::size_t>(*r->params.depth)));
}

asio::awaitable<result<reply>> spot_balances_route(services& s, request_context& ctx) {
    if (auto ok = require_alpha(ctx, vertical::spot); !ok)
        co_return ok.error();
    auto user = address::parse(ctx.param("address"), "address");
    if (!user)
        co_return user.error();
    auto body = info_body("spotClearinghouseState");
    body["user"] = user->str();
    auto const answer = co_await s.alpha(ctx.testnet).info(body, 0ms);
    if (!*answer)
        co_return answer->error();
    auto balances = alpha::to_spot_balances(**answer);
    if (!balances)
        co_return balances.error();
    co_return json_reply(json::value_from(*balances));
}

/// The dex a rwas route names. @par Errors DEX_NOT_FOUND.
result<alpha::perp_dex const*> dex_of(alpha::universe const& u, std::string const& name) {
    if (auto const* d = u.find_dex(name))
        return d;
    return make_error(errc::dex_not_found, "Unknown dex '" + name + "' on alpha.");
}

asio::awaitable<result<reply>> dexes_route(services& s, request_context& ctx) {
    if (auto ok = require_alpha(ctx, vertical::rwas); !ok)
        co_return ok.error();
    auto markets = co_await s.alpha(ctx.testnet).markets();
    if (!markets)
        co_return markets.error();
    auto list = alpha::to_dexes(**markets);
    if (!list)
        co_return list.error();
    co_return json_reply(json::value_from(*list));
}

asio::awaitable<result<reply>> dex_detail_route(services& s, request_context& ctx) {
    if (auto ok = require_alpha(ctx, vertical::rwas); !ok)
        co_return ok.error();
    auto markets = co_await s.alpha(ctx.testnet).markets();
    if (!markets)
        co_return markets.error();
    auto d = dex_of(**markets, ctx.param("dex"));
    if (!d)
        co_return d.error();
    auto body = info_body("metaAndAssetCtxs");
    body["dex"] = (*d)->name;
    auto const answer = co_await s.alpha(ctx.testnet).info(body, s.config.market_cache_ttl);
    if (!*answer)
        co_return answer->error();
    auto detail = alpha::to_dex_detail(**d, **answer, **markets);
    if (!detail)
        co_return detail.error();
    co_return json_reply(json::value_from(*detail));
}

asio::awaitable<result<reply>> dex_status_route(services& s, request_context& ctx) {
    if (auto ok = require_alpha(ctx, vertical::rwas); !ok)
        co_return ok.error();
    auto& a = s.alpha(ctx.testnet);
    auto markets = co_await a.markets();
    if (!markets)
        co_return markets.error();
    auto d = dex_of(**markets, ctx.param("dex"));
    if (!d)
        co_return d.error();
    auto status_body = info_body("perpDexStatus");
    status_body["dex"] = (*d)->name;
    auto ctx_body = info_body("metaAndAssetCtxs");
    ctx_body["dex"] = (*d)->name;
    auto status_flight = a.start_info(status_body, s.config.market_cache_ttl);
    auto ctx_flight = a.start_info(ctx_body, s.config.market_cache_ttl);
    adapter::json_ptr keep_status, keep_ctx;
    auto status = co_await await_json(status_flight, keep_status);
    auto ctxs = co_await await_json(ctx_flight, keep_ctx);
    if (!status)
        co_return status.error();
    if (!ctxs)
        co_return ctxs.error();
    auto out = alpha::to_dex_status(**d, **status, **ctxs, wall_ms());
    if (!out)
        co_return out.error();
    co_return json_reply(json::value_from(*out));
}

/// `GET /v1/{perps|spot}/alpha/markets`: the learned universe with the signing rules of each
/// market (symbol, asset id, szDecimals, maxLeverage), delisted perps left out.
asio::awaitable<result<reply>> markets_list(services& s, request_context& ctx, vertical v) {
    if (auto ok = require_alpha(ctx, v); !ok)
        co_return ok.error();
    auto markets = co_await s.alpha(ctx.testnet).markets();
    if (!markets)
        co_return markets.error();
    std::vector<market_info> out;
    if (v == vertical::spot)
        for (auto const& m : (*markets)->spot)
            out.push_back({m.symbol, m.asset, m.sz_decimals, 0});
    else
        for (auto const& m : (*markets)->perps)
            if (!m.delisted)
                out.push_back({m.symbol, m.asset, m.sz_decimals, m.max_leverage});
    co_return json_reply(json::value_from(out));
}

asio::awaitable<result<reply>> perps_markets_route(services& s, request_context& ctx) {
    return markets_list(s, ctx, vertical::perps);
}

asio::awaitable<result<reply>> spot_markets_route(services& s, request_context& ctx) {
    return markets_list(s, ctx, vertical::spot);
}

} // namespace

result<void> require_alpha(request_context const& ctx, vertical v) {
    auto info = provider_for(ctx, v);
    if (!info)
        return info.error();
    if ((*info)->id != "alpha")
        return make_error(errc::not_found,
                          "This endpoint is not available for provider '" + (*info)->id + "' yet.");
    return {};
}

asio::awaitable<result<price_map>> alpha_prices(services& s, request_context& ctx) {
    auto& a = s.alpha(ctx.testnet);
    auto body = info_body("allMids");
    if (auto dex = ctx.query_param("dex"); dex && !dex->empty()) {
        auto markets = co_await a.markets();
        if (!markets)
            co_return markets.error();
        auto d = dex_of(**markets, std::string(*dex));
        if (!d)
            co_return d.error();
        body["dex"] = (*d)->name;
    }
    auto const answer = co_await a.info(body, s.config.market_cache_ttl);
    if (!*answer)
        co_return answer->error();
    co_return alpha::to_prices(**answer);
}

void add_alpha_routes(router& r, services& s) {
    auto add = [&](std::string const& pattern,
                   asio::awaitable<result<reply>> (*handler)(services&, request_context&)) {
        add_vertical_route(r, http::verb::get, pattern,
                           [&s, handler](request_context& ctx) { return handler(s, ctx); });
    };
    add("/perps/{provider}/account/{address}", account_summary_route);
    add("/perps/{provider}/account/{address}/positions", positions_route);
    add("/perps/{provider}/account/{address}/orders", open_orders_route);
    add("/perps/{provider}/account/{address}/fills", fills_route);
    add("/perps/{provider}/markets", perps_markets_route);
    add("/spot/{provider}/markets", spot_markets_route);
    add("/perps/{provider}/markets/{symbol}/trades", trades_route);
    add("/perps/{provider}/markets/{symbol}/candles", candles_route);
    add("/perps/{provider}/markets/{symbol}/orderbook", orderbook_route);
    add("/spot/{provider}/balances/{address}", spot_balances_route);
    add("/rwas/{provider}/dexes", dexes_route);
    add("/rwas/{provider}/dexes/{dex}", dex_detail_route);
    add("/rwas/{provider}/dexes/{dex}/status", dex_status_route);
}

} // namespace gateway::server
