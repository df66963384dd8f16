// spec 4.1: the four public endpoints (no API key): providers and health.
#include "providers.hpp"
#include "services.hpp"

#include <gateway/types/health.hpp>
#include <gateway/types/provider.hpp>

#include <boost/json/value_from.hpp>

#include <chrono>
#include <ctime>

namespace gateway::server {

namespace {

namespace http = boost::beast::http;

/// `2026-11-22T02:40:47.123Z`
std::string iso8601_utc(std::int64_t ms) {
    std::time_t const secs = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[40];
    std::size_t const n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms % 1000));
    return buf;
}

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

api_error unknown_provider(std::string const& id) {
    std::string known;
    for (auto const& p : provider_catalog())
        known += (known.empty() ? "" : ", ") + p.id;
    return make_error(errc::provider_not_found,
                      "Unknown provider '" + id + "'; known providers: " + known + ".");
}

provider summary_of(provider_info const& info) {
    return {info.id, info.name, info.verticals, info.testnet, info.auth, info.description};
}

provider_detail detail_of(provider_info const& info, upstream_endpoints const& up) {
    provider_detail d;
    static_cast<provider&>(d) = summary_of(info);
    for (auto v : info.verticals) {
        vertical_detail vd;
        vd.vertical = v;
        vd.base_url = up.base_url;
        vd.ws_url = up.ws_url;
        if (info.testnet) {
            vd.testnet_base_url = up.testnet_base_url;
            vd.testnet_ws_url = up.testnet_ws_url;
        }
        if (!up.clob_base_url.empty())
            vd.clob_base_url = up.clob_base_url;
        d.vertical_details.push_back(std::move(vd));
    }
    d.order_types = info.order_types;
    d.rate_limit = {info.rate_requests, info.rate_window_seconds};
    d.docs_url = info.docs_url;
    return d;
}

reply ok(boost::json::value body) {
    reply r;
    r.body = std::move(body);
    return r;
}

} // namespace

void add_public_routes(router& r, services& s) {
    r.add(http::verb::get, "/v1/providers",
          [](request_context&) -> boost::asio::awaitable<result<reply>> {
              provider_list list;
              for (auto const& p : provider_catalog())
                  list.providers.push_back(summary_of(p));
              co_return ok(boost::json::value_from(list));
          });

    r.add(http::verb::get, "/v1/providers/{provider}",
          [&cfg = s.config](request_context& ctx) -> boost::asio::awaitable<result<reply>> {
              auto const& id = ctx.param("provider");
              if (auto const* info = find_provider(id))
                  co_return ok(boost::json::value_from(detail_of(*info, cfg.providers.at(id))));
              co_return unknown_provider(id);
          });

    r.add(http::verb::get, "/v1/health",
          [&health = s.health](request_context&) -> boost::asio::awaitable<result<reply>> {
              aggregate_health agg;
              agg.status = health_status::ok;
              agg.service = "gateway";
              for (auto const& [name, outcome] : co_await health.current_all()) {
                  agg.providers[name] = {outcome.status, outcome.latency_ms};
                  agg.status = worst(agg.status, outcome.status);
              }
              agg.timestamp = iso8601_utc(now_ms());
              co_return ok(boost::json::value_from(agg));
          });

    r.add(http::verb::get, "/v1/health/{provider}",
          [&health = s.health](request_context& ctx) -> boost::asio::awaitable<result<reply>> {
              auto const& id = ctx.param("provider");
              if (!health.knows(id))
                  co_return unknown_provider(id);
              auto const outcome = co_await health.current(id);
              provider_health h;
              h.provider = id;
              h.status = outcome.status;
              h.latency = outcome.latency_ms;
              h.checked_at = iso8601_utc(outcome.checked_at_ms);
              h.check_method = health.target(id).check_method;
              co_return ok(boost::json::value_from(h));
          });
}

} // namespace gateway::server
