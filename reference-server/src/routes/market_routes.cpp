// Market data routes (spec 2.7-2.9, 4.2, 4.3; CONTRACT §1, §4), each under /v1/ and /v1/testnet/
// (CONTRACT §7): provider (404), parameters (400), then the provider's read, which knows its
// markets (MARKET_NOT_FOUND) and its upstream.
#include "providers/provider.hpp"
#include "routes/routes.hpp"

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

asio::awaitable<result<reply>> prices(registry const& providers, request_context& ctx) {
    auto reads = providers.perps(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    auto params = prices_params::from_query(ctx.query_lookup());
    if (!params)
        co_return params.error();
    co_return render(co_await (*reads)->prices(ctx.call(), *params));
}

asio::awaitable<result<reply>> spot_prices(registry const& providers, request_context& ctx) {
    auto reads = providers.spot(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->prices(ctx.call()));
}

asio::awaitable<result<reply>> markets(registry const& providers, request_context& ctx,
                                       vertical v) {
    auto const& alias = ctx.param("provider");
    if (v == vertical::spot) {
        auto reads = providers.spot(alias, ctx.testnet);
        if (!reads)
            co_return reads.error();
        co_return render(co_await (*reads)->markets(ctx.call()));
    }
    auto reads = providers.perps(alias, ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->markets(ctx.call()));
}

/// The common start of a market read: the provider's perps reads and the checked parameters.
template <class Params>
struct market_read {
    perps_reads* reads = nullptr;
    Params params;
};

template <class Params>
result<market_read<Params>> begin(registry const& providers, request_context const& ctx) {
    auto reads = providers.perps(ctx.param("provider"), ctx.testnet);
    if (!reads)
        return reads.error();
    auto params = Params::from_query(ctx.query_lookup());
    if (!params)
        return params.error();
    return market_read<Params>{*reads, std::move(*params)};
}

asio::awaitable<result<reply>> trades(registry const& providers, request_context& ctx) {
    auto r = begin<trades_params>(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->trades(ctx.call(), ctx.param("symbol"), r->params));
}

asio::awaitable<result<reply>> candles(registry const& providers, request_context& ctx) {
    auto r = begin<candles_params>(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->candles(ctx.call(), ctx.param("symbol"), r->params));
}

asio::awaitable<result<reply>> orderbook(registry const& providers, request_context& ctx) {
    auto r = begin<orderbook_params>(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->book(ctx.call(), ctx.param("symbol"), r->params));
}

} // namespace

void add_market_routes(router& r, registry const& providers) {
    using handler = asio::awaitable<result<reply>> (*)(registry const&, request_context&);
    auto add = [&](std::string const& pattern, handler h) {
        add_vertical_route(r, verb::get, pattern,
                           [&providers, h](request_context& ctx) { return h(providers, ctx); });
    };
    add("/perps/{provider}/prices", prices);
    add("/spot/{provider}/prices", spot_prices);
    add("/perps/{provider}/markets/{symbol}/trades", trades);
    add("/perps/{provider}/markets/{symbol}/candles", candles);
    add("/perps/{provider}/markets/{symbol}/orderbook", orderbook);
    add_vertical_route(
        r, verb::get, "/perps/{provider}/markets",
        [&providers](request_context& ctx) { return markets(providers, ctx, vertical::perps); });
    add_vertical_route(
        r, verb::get, "/spot/{provider}/markets",
        [&providers](request_context& ctx) { return markets(providers, ctx, vertical::spot); });
}

} // namespace gateway::server
