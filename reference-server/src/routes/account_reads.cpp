// Account reads (spec 2.5, 2.6, 2.11, 4.2-4.4; CONTRACT §4), each under /v1/ and /v1/testnet/
// (CONTRACT §7): provider (404), address and parameters (400), then the provider's read. The
// address is in the request, so account data is never shared across addresses.
#include "providers/provider.hpp"
#include "routes/routes.hpp"

#include <gateway/types/address.hpp>

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

/// The provider's perps reads and the checked address.
struct account_read {
    perps_reads* reads = nullptr;
    address user;
};

result<account_read> begin(registry const& providers, request_context const& ctx) {
    auto reads = providers.perps(ctx.param("provider"), ctx.testnet);
    if (!reads)
        return reads.error();
    auto user = address::parse(ctx.param("address"), "address");
    if (!user)
        return user.error();
    return account_read{*reads, std::move(*user)};
}

asio::awaitable<result<reply>> summary(registry const& providers, request_context& ctx) {
    auto r = begin(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->account(ctx.call(), r->user));
}

asio::awaitable<result<reply>> positions(registry const& providers, request_context& ctx) {
    auto r = begin(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->positions(ctx.call(), r->user));
}

asio::awaitable<result<reply>> open_orders(registry const& providers, request_context& ctx) {
    auto r = begin(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->open_orders(ctx.call(), r->user));
}

asio::awaitable<result<reply>> fills(registry const& providers, request_context& ctx) {
    auto reads = providers.perps(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    auto params = fills_params::from_query(ctx.query_lookup());
    if (!params)
        co_return params.error();
    auto user = address::parse(ctx.param("address"), "address");
    if (!user)
        co_return user.error();
    co_return render(co_await (*reads)->fills(ctx.call(), *user, *params));
}

asio::awaitable<result<reply>> spot_balances(registry const& providers, request_context& ctx) {
    auto reads = providers.spot(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    auto user = address::parse(ctx.param("address"), "address");
    if (!user)
        co_return user.error();
    co_return render(co_await (*reads)->balances(ctx.call(), *user));
}

} // namespace

void add_account_read_routes(router& r, registry const& providers) {
    using handler = asio::awaitable<result<reply>> (*)(registry const&, request_context&);
    auto add = [&](std::string const& pattern, handler h) {
        add_vertical_route(r, verb::get, pattern,
                           [&providers, h](request_context& ctx) { return h(providers, ctx); });
    };
    add("/perps/{provider}/account/{address}", summary);
    add("/perps/{provider}/account/{address}/positions", positions);
    add("/perps/{provider}/account/{address}/orders", open_orders);
    add("/perps/{provider}/account/{address}/fills", fills);
    add("/spot/{provider}/balances/{address}", spot_balances);
}

} // namespace gateway::server
