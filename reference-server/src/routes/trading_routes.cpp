// Signed writes and typed-data (spec 4.2 writes, 4.4 spot orders; CONTRACT §5-6), each under
// /v1/ and /v1/testnet/ (CONTRACT §7): provider (404), body, then the one signed-write
// pipeline (trading/signed_write.hpp), which owns the rest of CONTRACT §2's order of checks.
#include "providers/provider.hpp"
#include "routes/routes.hpp"
#include "trading/signed_write.hpp"

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

/// The provider's trading hooks and the body, in the contract's order.
struct write_start {
    signed_trading* provider = nullptr;
    write_target target;
    boost::json::value body;
};

result<write_start> begin(registry const& providers, request_context const& ctx, vertical v) {
    auto const& alias = ctx.param("provider");
    auto provider = providers.trading(alias, v, ctx.testnet);
    if (!provider)
        return provider.error();
    auto body = json_body(ctx);
    if (!body)
        return body.error();
    return write_start{*provider, write_target{alias, v, ctx.testnet}, std::move(*body)};
}

asio::awaitable<result<reply>> write(trading_env& env, request_context& ctx, vertical v,
                                     write_operation op) {
    auto w = begin(env.providers, ctx, v);
    if (!w)
        co_return w.error();
    auto out =
        co_await env.pipeline.write(ctx.call(), *w->provider, w->target, op, std::move(w->body));
    if (!out)
        co_return out.error();
    co_return json_reply(
        std::visit([](auto const& r) { return boost::json::value_from(r); }, *out));
}

asio::awaitable<result<reply>> typed_data(trading_env& env, request_context& ctx, vertical v) {
    auto w = begin(env.providers, ctx, v);
    if (!w)
        co_return w.error();
    co_return render(
        co_await env.pipeline.typed_data(ctx.call(), *w->provider, w->target, std::move(w->body)));
}

} // namespace

void add_trading_routes(router& r, trading_env& env) {
    auto add_write = [&](verb method, std::string const& pattern, vertical v, write_operation op) {
        add_vertical_route(r, method, pattern,
                           [&env, v, op](request_context& ctx) { return write(env, ctx, v, op); });
    };
    add_write(verb::post, "/perps/{provider}/orders", vertical::perps, write_operation::place);
    add_write(verb::delete_, "/perps/{provider}/orders", vertical::perps, write_operation::cancel);
    add_write(verb::post, "/spot/{provider}/orders", vertical::spot, write_operation::place);
    add_write(verb::delete_, "/spot/{provider}/orders", vertical::spot, write_operation::cancel);
    add_write(verb::post, "/perps/{provider}/leverage", vertical::perps, write_operation::leverage);
    for (auto v : {vertical::perps, vertical::spot})
        add_vertical_route(r, verb::post,
                           "/" + std::string(to_string(v)) + "/{provider}/typed-data",
                           [&env, v](request_context& ctx) { return typed_data(env, ctx, v); });
}

} // namespace gateway::server
