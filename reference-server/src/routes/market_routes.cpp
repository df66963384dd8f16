// Market data routes shared by the perps providers: prices (spec 2.9, 4.2, 4.3; CONTRACT §1:
// perps symbols only), under /v1/ and /v1/testnet/ (CONTRACT §7). alpha's own reads live in
// alpha_routes.cpp.
#include "alpha_routes.hpp"
#include "providers.hpp"
#include "services.hpp"
#include "upstream.hpp"

#include <gateway/types/decimal.hpp>
#include <gateway/types/market.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

namespace gateway::server {

namespace http = boost::beast::http;

result<provider_info const*> provider_for(request_context const& ctx, vertical v) {
    auto const& id = ctx.param("provider");
    auto const* info = find_provider(id);
    bool has_vertical = false;
    if (info)
        for (auto pv : info->verticals)
            has_vertical = has_vertical || pv == v;
    if (!info || !has_vertical || (ctx.testnet && !info->testnet))
        return make_error(errc::provider_not_found, "Provider '" + id + "' does not offer " +
                                                        std::string(to_string(v)) +
                                                        (ctx.testnet ? " on testnet." : "."));
    return info;
}

namespace {

net::url base_of(services const& s, std::string const& provider, bool testnet) {
    auto const& up = s.config.providers.at(provider);
    return *net::url::parse(testnet ? up.testnet_base_url : up.base_url);
}

/// beta `ticker/price` -> prices keyed by base asset (BTCUSDT -> BTC).
result<price_map> beta_prices(boost::json::value const& body) {
    auto const* arr = body.if_array();
    if (!arr)
        return make_error(errc::upstream_error, "The beta upstream answered an unexpected shape.");
    price_map out;
    for (auto const& item : *arr) {
        auto const* o = item.if_object();
        auto const* sym = o ? o->if_contains("symbol") : nullptr;
        auto const* px = o ? o->if_contains("price") : nullptr;
        if (!sym || !sym->is_string() || !px)
            return make_error(errc::upstream_error,
                              "The beta upstream answered an unexpected ticker.");
        std::string_view s = sym->get_string();
        if (s.size() <= 4 || s.substr(s.size() - 4) != "USDT")
            continue; // not quoted in the stable asset: no normalized symbol
        auto d = decimal::from_json_lenient(*px);
        if (!d)
            return make_error(errc::upstream_error, "The beta upstream answered an unparseable "
                                                    "price for " +
                                                        std::string(s) + ".");
        out.emplace(std::string(s.substr(0, s.size() - 4)), std::move(*d));
    }
    return out;
}

boost::asio::awaitable<result<reply>> prices(services& s, request_context& ctx) {
    auto info = provider_for(ctx, vertical::perps);
    if (!info)
        co_return info.error();
    std::string const& id = (*info)->id;
    upstream_request req;
    req.provider = id;
    req.base = base_of(s, id, ctx.testnet);
    req.timeout = s.config.upstream_timeout;
    result<price_map> mapped = make_error(errc::internal_error, "Internal error.");
    if (id == "alpha") {
        mapped = co_await alpha_prices(s, ctx);
    } else {
        req.target = "/fapi/v3/ticker/price";
        auto answer = co_await call_upstream_json(s.upstream, req);
        if (!answer)
            co_return answer.error();
        mapped = beta_prices(*answer);
    }
    if (!mapped)
        co_return mapped.error();
    reply out;
    out.body = boost::json::value_from(*mapped);
    co_return out;
}

} // namespace

void add_vertical_route(router& r, http::verb method, std::string const& pattern,
                        route_handler const& handler) {
    r.add(method, "/v1" + pattern, handler);
    r.add(method, "/v1/testnet" + pattern, handler);
}

void add_market_routes(router& r, services& s) {
    add_vertical_route(r, http::verb::get, "/perps/{provider}/prices",
                       [&s](request_context& ctx) { return prices(s, ctx); });
}

} // namespace gateway::server
