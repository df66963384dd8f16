// Prediction-market reads (spec 2.13, 2.14, 4.6; CONTRACT §4), each also under /v1/testnet/
// (CONTRACT §7, where a provider without a testnet is 404 PROVIDER_NOT_FOUND): provider (404),
// parameters (400), then the provider's read, which knows its events, markets and tokens
// (EVENT_NOT_FOUND, MARKET_NOT_FOUND) and its upstreams.
#include "providers/provider.hpp"
#include "routes/routes.hpp"

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

/// The common start of a listing or a book: the provider's reads and the checked parameters.
template <class Params>
struct predictions_read {
    predictions_reads* reads = nullptr;
    Params params;
};

template <class Params>
result<predictions_read<Params>> begin_read(registry const& providers, request_context const& ctx) {
    auto reads = providers.predictions(ctx.param("provider"), ctx.testnet);
    if (!reads)
        return reads.error();
    auto params = Params::from_query(ctx.query_lookup());
    if (!params)
        return params.error();
    return predictions_read<Params>{*reads, std::move(*params)};
}

asio::awaitable<result<reply>> events(registry const& providers, request_context& ctx) {
    auto r = begin_read<events_params>(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->events(ctx.call(), r->params));
}

asio::awaitable<result<reply>> event(registry const& providers, request_context& ctx) {
    auto reads = providers.predictions(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->event(ctx.call(), ctx.param("eventId")));
}

asio::awaitable<result<reply>> markets(registry const& providers, request_context& ctx) {
    auto r = begin_read<markets_params>(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->markets(ctx.call(), r->params));
}

asio::awaitable<result<reply>> market(registry const& providers, request_context& ctx) {
    auto reads = providers.predictions(ctx.param("provider"), ctx.testnet);
    if (!reads)
        co_return reads.error();
    co_return render(co_await (*reads)->market(ctx.call(), ctx.param("marketId")));
}

asio::awaitable<result<reply>> token_book(registry const& providers, request_context& ctx) {
    auto r = begin_read<orderbook_params>(providers, ctx);
    if (!r)
        co_return r.error();
    co_return render(co_await r->reads->book(ctx.call(), ctx.param("tokenId"), r->params));
}

} // namespace

void add_prediction_routes(router& r, registry const& providers) {
    using handler = asio::awaitable<result<reply>> (*)(registry const&, request_context&);
    auto add = [&](std::string const& pattern, handler h) {
        add_vertical_route(r, verb::get, pattern,
                           [&providers, h](request_context& ctx) { return h(providers, ctx); });
    };
    add("/predictions/{provider}/events", events);
    add("/predictions/{provider}/events/{eventId}", event);
    add("/predictions/{provider}/markets", markets);
    add("/predictions/{provider}/markets/{marketId}", market);
    add("/predictions/{provider}/tokens/{tokenId}/orderbook", token_book);
}

} // namespace gateway::server
