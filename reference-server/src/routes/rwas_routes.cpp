// Real-world-asset dexes (spec 2.12, 4.5; CONTRACT §4), each under /v1/ and /v1/testnet/
// (CONTRACT §7): provider (404), then the provider's read (DEX_NOT_FOUND).
#include "providers/provider.hpp"
#include "routes/routes.hpp"

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

asio::awaitable<result<reply>> rwas_markets(registry const& providers, request_context& ctx) {
    auto reads = providers.rwas(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->markets(ctx.call()));
}

asio::awaitable<result<reply>> dexes(registry const& providers, request_context& ctx) {
    auto reads = providers.rwas(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->dexes(ctx.call()));
}

asio::awaitable<result<reply>> dex(registry const& providers, request_context& ctx) {
    auto reads = providers.rwas(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->detail(ctx.call(), ctx.param("dex")));
}

asio::awaitable<result<reply>> dex_status(registry const& providers, request_context& ctx) {
    auto reads = providers.rwas(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->status(ctx.call(), ctx.param("dex")));
}

} // namespace

void add_rwas_routes(router& r, registry const& providers) {
    using handler = asio::awaitable<result<reply>> (*)(registry const&, request_context&);
    auto add = [&](std::string const& pattern, handler h) {
        add_vertical_route(r, verb::get, pattern,
                           [&providers, h](request_context& ctx) { return h(providers, ctx); });
    };
    add("/rwas/{provider}/markets", rwas_markets);
    add("/rwas/{provider}/dexes", dexes);
    add("/rwas/{provider}/dexes/{dex}", dex);
    add("/rwas/{provider}/dexes/{dex}/status", dex_status);
}

} // namespace gateway::server
