// spec 4.1: the four public endpoints (no API key): providers and health.
#include "health.hpp"
#include "providers/provider.hpp"
#include "routes/routes.hpp"

#include <gateway/types/health.hpp>
#include <gateway/types/provider.hpp>
#include <gateway/util/time.hpp>

namespace gateway::server {

namespace {

namespace asio = boost::asio;
using verb = boost::beast::http::verb;

gateway::provider summary_of(provider_info const& info) {
    return {info.id, info.name, info.verticals, info.testnet, info.auth, info.description};
}

asio::awaitable<result<reply>> providers(services& s, request_context&) {
    provider_list list;
    for (auto const& p : s.providers.all())
        list.providers.push_back(summary_of(p->info));
    co_return render(result<provider_list>(std::move(list)));
}

asio::awaitable<result<reply>> provider_detail_route(services& s, request_context& ctx) {
    auto const& id = ctx.param("provider");
    if (auto const* p = s.providers.find(id))
        co_return render(result<provider_detail>(detail_of(*p)));
    co_return s.providers.unknown(id);
}

asio::awaitable<result<reply>> health(services& s, request_context& ctx) {
    aggregate_health agg;
    agg.status = health_status::ok;
    agg.service = "gateway";
    for (auto const& [name, outcome] : co_await s.health.current_all()) {
        agg.providers[name] = {outcome.status, outcome.latency_ms};
        agg.status = worst(agg.status, outcome.status);
    }
    agg.timestamp = util::iso8601_utc(ctx.now_ms);
    co_return render(result<aggregate_health>(std::move(agg)));
}

asio::awaitable<result<reply>> provider_health_route(services& s, request_context& ctx) {
    auto const& id = ctx.param("provider");
    if (!s.health.knows(id))
        co_return s.providers.unknown(id);
    auto const outcome = co_await s.health.current(id);
    provider_health h;
    h.provider = id;
    h.status = outcome.status;
    h.latency = outcome.latency_ms;
    h.checked_at = util::iso8601_utc(outcome.checked_at_ms);
    h.check_method = s.health.target(id).check_method;
    co_return render(result<provider_health>(std::move(h)));
}

} // namespace

void add_public_routes(router& r, services& s) {
    using handler = asio::awaitable<result<reply>> (*)(services&, request_context&);
    auto add = [&](std::string const& pattern, handler h) {
        r.add(verb::get, pattern, [&s, h](request_context& ctx) { return h(s, ctx); });
    };
    add("/v1/providers", providers);
    add("/v1/providers/{provider}", provider_detail_route);
    add("/v1/health", health);
    add("/v1/health/{provider}", provider_health_route);
}

} // namespace gateway::server
