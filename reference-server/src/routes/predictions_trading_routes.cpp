// Prediction trading (spec 4.6, 5.2; CONTRACT §4, §5, §6.3), each also under /v1/testnet/ (where
// a provider without a testnet, gamma, is 404 PROVIDER_NOT_FOUND): provider (404), then
//  - writes and typed-data: the body (415 / INVALID_JSON), then the one credentialed pipeline
//    (trading/credentialed_write.hpp), which owns the rest of CONTRACT §2's order of checks;
//  - account reads: the credentials from their headers, `wallet`, the parameters (400), then the
//    provider's read with the credentials for that one upstream call.
#include "providers/provider.hpp"
#include "routes/routes.hpp"
#include "trading/credentialed_write.hpp"

#include <gateway/types/address.hpp>

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

/// The provider's prediction trading and the request's JSON body, in the contract's order.
struct prediction_write {
    predictions_trading* provider = nullptr;
    write_target target;
    boost::json::value body;
};

result<prediction_write> begin_prediction_write(registry const& providers,
                                                request_context const& ctx) {
    auto const& alias = ctx.param("provider");
    auto provider = providers.prediction_orders(alias, ctx.testnet);
    if (!provider)
        return provider.error();
    auto body = json_body(ctx);
    if (!body)
        return body.error();
    return prediction_write{*provider, write_target{alias, vertical::predictions, ctx.testnet},
                            std::move(*body)};
}

asio::awaitable<result<reply>> place_prediction(registry const& providers, request_context& ctx) {
    auto w = begin_prediction_write(providers, ctx);
    if (!w)
        co_return w.error();
    co_return render(
        co_await place_prediction_order(ctx.call(), *w->provider, w->target, std::move(w->body)));
}

asio::awaitable<result<reply>> cancel_prediction(registry const& providers, request_context& ctx) {
    auto w = begin_prediction_write(providers, ctx);
    if (!w)
        co_return w.error();
    co_return render(
        co_await cancel_prediction_order(ctx.call(), *w->provider, w->target, std::move(w->body)));
}

asio::awaitable<result<reply>> prediction_typed_data_route(registry const& providers,
                                                           request_context& ctx) {
    auto w = begin_prediction_write(providers, ctx);
    if (!w)
        co_return w.error();
    co_return render(
        co_await prediction_typed_data(ctx.call(), *w->provider, w->target, std::move(w->body)));
}

/// What an account read needs: the provider, the credentials (headers) and `wallet` (query).
struct prediction_account_read {
    predictions_trading* provider = nullptr;
    api_credentials credentials;
    address wallet;
};

result<prediction_account_read> begin_prediction_read(registry const& providers,
                                                      request_context const& ctx) {
    auto provider = providers.prediction_orders(ctx.param("provider"), ctx.testnet);
    if (!provider)
        return provider.error();
    auto creds = read_credentials(ctx.header(api_key_header), ctx.header(api_secret_header),
                                  ctx.header(passphrase_header));
    if (!creds)
        return creds.error();
    auto const raw = ctx.query_param("wallet");
    if (!raw)
        return field_error("wallet", "The query parameter 'wallet' is required: the address "
                                     "the credentials belong to.");
    auto wallet = address::parse(*raw, "wallet");
    if (!wallet)
        return wallet.error();
    return prediction_account_read{*provider, std::move(*creds), *wallet};
}

asio::awaitable<result<reply>> prediction_open_orders(registry const& providers,
                                                      request_context& ctx) {
    auto r = begin_prediction_read(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(
        co_await r->provider->open_orders(ctx.call(), r->wallet, std::move(r->credentials)));
}

asio::awaitable<result<reply>> prediction_fills(registry const& providers, request_context& ctx) {
    auto r = begin_prediction_read(providers, ctx);
    if (!r)
        co_return r.error();
    auto params = fills_params::from_query(ctx.query_lookup());
    if (!params)
        co_return params.error();
    co_return render(
        co_await r->provider->fills(ctx.call(), r->wallet, *params, std::move(r->credentials)));
}

} // namespace

void add_prediction_trading_routes(router& r, registry const& providers) {
    using handler = asio::awaitable<result<reply>> (*)(registry const&, request_context&);
    auto add = [&](verb method, std::string const& pattern, handler h) {
        add_vertical_route(r, method, pattern,
                           [&providers, h](request_context& ctx) { return h(providers, ctx); });
    };
    add(verb::post, "/predictions/{provider}/orders", place_prediction);
    add(verb::delete_, "/predictions/{provider}/orders", cancel_prediction);
    add(verb::get, "/predictions/{provider}/orders", prediction_open_orders);
    add(verb::get, "/predictions/{provider}/fills", prediction_fills);
    add(verb::post, "/predictions/{provider}/typed-data", prediction_typed_data_route);
}

} // namespace gateway::server
