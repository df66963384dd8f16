// Provider gamma's factory: its catalog row (spec 2.1/2.2), its health probe, and its one network
// (no testnet: CONTRACT §7) with the two upstream channels, the Gamma catalog (`baseUrl`) and the
// CLOB (`clobBaseUrl`), each with its own budget; reads on both, trading on the CLOB.
#include "providers/gamma/gamma_provider.hpp"

#include "config.hpp"
#include "providers/gamma/gamma_network.hpp"

#include <gateway/providers/gamma/requests.hpp>
#include <gateway/providers/gamma/weights.hpp>

#include <algorithm>
#include <stdexcept>

namespace gateway::server::gamma {

namespace {

/// gamma's settings (`settings()`), as its modules use them.
upstream_endpoints const& settings_of(server_config const& cfg) {
    return cfg.providers.at("gamma");
}
std::uint32_t clob_budget(server_config const& cfg) {
    return settings_of(cfg).number("clobBudget", wire::gamma::clob_budget);
}
std::uint32_t catalog_budget(server_config const& cfg) {
    return settings_of(cfg).number("catalogBudget", wire::gamma::catalog_budget);
}

provider_info catalog_row(server_config const& cfg) {
    return {"gamma",
            "Gamma",
            "Prediction markets: events with binary outcome markets traded on a central limit "
            "order book, with HMAC API credentials.",
            {vertical::predictions},
            false,
            auth_model::hmac,
            {order_type::limit},
            // CONTRACT §3: the budget the gateway keeps to on its order-book upstream.
            clob_budget(cfg),
            wire::gamma::window_seconds,
            "https://docs.polymarket.com"};
}

} // namespace

std::shared_ptr<provider_module> make_provider(provider_deps const& deps) {
    auto const& cfg = deps.config;
    auto p = std::make_shared<provider_module>();
    p->info = catalog_row(cfg);
    p->endpoints = settings_of(cfg);
    auto clob = net::url::parse(p->endpoints.clob_base_url);
    if (!clob)
        throw std::runtime_error("upstream address of gamma is not a URL: " +
                                 p->endpoints.clob_base_url);
    network_options o;
    auto const window = std::chrono::seconds(wire::gamma::window_seconds);
    o.catalog = channel_to("gamma catalog", p->endpoints.base_url, cfg.upstream_timeout,
                           catalog_budget(cfg), window, cfg.budget_share_percent / 100);
    o.clob = channel_to("gamma CLOB", p->endpoints.clob_base_url, cfg.upstream_timeout,
                        clob_budget(cfg), window, cfg.budget_share_percent / 100);
    o.market_ttl = cfg.market_cache_ttl;
    // At most the largest page the catalog serves; a test configuration may go below the
    // operators' minimum (100) to make a small catalog span many pages.
    o.catalog_page = std::clamp<std::size_t>(settings_of(cfg).number("catalogPageSize", 100), 1,
                                             wire::gamma::max_catalog_page);
    auto n = std::make_shared<network>(deps.executor, deps.http, deps.clock, std::move(o));
    p->live.predictions = make_predictions_reads(n);
    p->live.prediction_orders = make_predictions_trading(n);
    p->probe = {"gamma", *clob, boost::beast::http::verb::get, std::string(wire::gamma::ok_path),
                "", "GET / on the order-book (CLOB) API (liveness, answers \"OK\")",
                // The probe counts against the CLOB's budget like any call (CONTRACT §3).
                [n] {
                    n->clob().charge(wire::gamma::clob_weight(wire::gamma::ok_path));
                }};
    return p;
}

std::vector<provider_setting> settings() {
    using kind = provider_setting::kind;
    return {
        {"gamma", "catalogBudget", kind::budget,
         "gamma catalog (Gamma API: events, markets) request weight the gateway spends per 10 s "
         "(default and upstream allowance 4000; /events weighs 8, /markets 14)"},
        {"gamma", "clobBudget", kind::budget,
         "gamma CLOB (order books, prices) request weight the gateway spends per 10 s (default "
         "and upstream allowance 9000; /book weighs 6, /midpoints 18)"},
        {"gamma", "catalogPageSize", kind::budget,
         "gamma catalog items the gateway asks per page when it walks a filtered listing "
         "(default 100; above 500, the upstream's largest page, 500 is asked)"},
    };
}

} // namespace gateway::server::gamma
