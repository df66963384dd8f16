// Provider alpha's factory: its catalog row (spec 2.1/2.2), its health probe, and one network
// core (channel, universe, agents) per network with the capabilities the registry serves.
#include "providers/alpha/alpha_provider.hpp"

#include "config.hpp"
#include "providers/alpha/alpha_network.hpp"
#include "providers/alpha/alpha_streams.hpp"

#include <gateway/providers/alpha/weights.hpp>

#include <stdexcept>

namespace gateway::server::alpha {

namespace {

/// The weight per window the gateway spends on alpha's upstream (CONTRACT §3).
std::uint32_t budget_of(server_config const& cfg) {
    return cfg.providers.at("alpha").number("budget", wire::alpha::ip_budget);
}

provider_info catalog_row(server_config const& cfg) {
    return {
        "alpha",
        "Alpha",
        "Perpetual futures, spot and builder-deployed real-world-asset perp dexes, with "
        "EIP-712 signed trading by an approved agent wallet.",
        {vertical::perps, vertical::spot, vertical::rwas},
        true,
        auth_model::eip712,
        {order_type::market, order_type::limit, order_type::stop_market, order_type::stop_limit},
        // CONTRACT §3: the budget the gateway keeps to, at most the upstream's per-IP allowance.
        budget_of(cfg),
        wire::alpha::ip_window_seconds,
        "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api"};
}

std::shared_ptr<network> make_network(provider_deps const& deps, bool testnet) {
    auto const& cfg = deps.config;
    auto const& up = cfg.providers.at("alpha");
    network_options o;
    o.testnet = testnet;
    o.channel = channel_to(testnet ? "alpha testnet" : "alpha",
                           testnet ? up.testnet_base_url : up.base_url, cfg.upstream_timeout,
                           budget_of(cfg), std::chrono::seconds(wire::alpha::ip_window_seconds),
                           cfg.budget_share_percent / 100);
    o.market_ttl = cfg.market_cache_ttl;
    o.meta_refresh = cfg.meta_refresh_interval;
    o.agent_miss_ttl = cfg.agent_miss_ttl;
    return std::make_shared<network>(deps.executor, deps.http, deps.clock, std::move(o));
}

network_capabilities capabilities_of(provider_deps const& deps, std::shared_ptr<network> const& n,
                                     bool testnet) {
    network_capabilities c{make_perps_reads(n), make_spot_reads(n), make_rwas_reads(n),
                           make_signed_trading(n)};
    auto const& up = deps.config.providers.at("alpha");
    stream_options so;
    so.name = testnet ? "alpha testnet" : "alpha";
    so.ws_url = streams::ws_url_of(testnet ? up.testnet_ws_url : up.ws_url,
                                   testnet ? up.testnet_base_url : up.base_url, "/ws");
    so.stale_after = deps.config.stream_stale;
    c.streams = make_perps_streams(deps.executor, n, c.perps, std::move(so));
    return c;
}

} // namespace

std::shared_ptr<provider_module> make_provider(provider_deps const& deps) {
    auto p = std::make_shared<provider_module>();
    p->info = catalog_row(deps.config);
    p->endpoints = deps.config.providers.at("alpha");
    auto live = make_network(deps, false);
    auto testnet = make_network(deps, true);
    p->live = capabilities_of(deps, live, false);
    p->testnet = capabilities_of(deps, testnet, true);
    auto base = net::url::parse(p->endpoints.base_url);
    if (!base)
        throw std::runtime_error("upstream address of alpha is not a URL: " +
                                 p->endpoints.base_url);
    p->probe = {"alpha", *base, boost::beast::http::verb::post, "/info",
                R"({"type":"exchangeStatus"})",
                "POST /info {\"type\":\"exchangeStatus\"} (exchange status, weight 2)",
                // The upstream counts the probe against the same IP budget (CONTRACT §3).
                [channel = &live->channel()] {
                    channel->charge(wire::alpha::info_weight("exchangeStatus"));
                }};
    p->start = [live, testnet] {
        live->start();
        testnet->start();
    };
    p->stop = [live, testnet] {
        live->stop();
        testnet->stop();
    };
    return p;
}

std::vector<provider_setting> settings() {
    return {{"alpha", "budget", provider_setting::kind::budget,
             "alpha upstream request weight the gateway spends per 60 s (default and upstream "
             "allowance 1200 per IP)"}};
}

} // namespace gateway::server::alpha
