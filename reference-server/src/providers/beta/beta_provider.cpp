// Provider beta's factory: its catalog row (spec 2.1/2.2), its health probe, its read signer
// (CONTRACT §6.2, `readSigner` in its provider detail) and one network core (futures and spot
// channels, universe, signed reads) per network with the capabilities the registry serves.
#include "providers/beta/beta_provider.hpp"

#include "config.hpp"
#include "providers/beta/beta_network.hpp"
#include "providers/beta/beta_streams.hpp"
#include "providers/beta/read_signer.hpp"

#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/weights.hpp>

#include <stdexcept>

namespace gateway::server::beta {

namespace {

/// beta's settings (`settings()`), as its modules use them.
upstream_endpoints const& settings_of(server_config const& cfg) {
    return cfg.providers.at("beta");
}
std::uint32_t futures_budget(server_config const& cfg) {
    return settings_of(cfg).number("budget", wire::beta::futures_budget);
}

provider_info catalog_row(server_config const& cfg) {
    return {"beta",
            "Beta",
            "Perpetual futures (including stock and commodity perps) and spot quoted in a stable "
            "asset, with EIP-712 signed requests in the provider's own domain.",
            {vertical::perps, vertical::spot, vertical::rwas},
            true,
            auth_model::eip712,
            {order_type::market, order_type::limit, order_type::stop_market, order_type::stop_limit,
             order_type::trailing_stop},
            // CONTRACT §3: the budget the gateway keeps to on its futures upstream.
            futures_budget(cfg),
            wire::beta::window_seconds,
            "https://github.com/asterdex/api-docs"};
}

/// A channel to `url` (`channel_to`) that follows the upstream's own weight count.
channel_options channel(server_config const& cfg, std::string name, std::string const& url,
                        std::uint32_t budget) {
    auto o = channel_to(std::move(name), url, cfg.upstream_timeout, budget,
                        std::chrono::seconds(wire::beta::window_seconds),
                        cfg.budget_share_percent / 100);
    o.used_weight_header = std::string(wire::beta::used_weight_header);
    return o;
}

std::shared_ptr<network> make_network(provider_deps const& deps, bool testnet,
                                      sign::private_key const& read_signer) {
    auto const& cfg = deps.config;
    auto const& up = settings_of(cfg);
    std::string const name = testnet ? "beta testnet" : "beta";
    std::string const& futures_url = testnet ? up.testnet_base_url : up.base_url;
    std::string const spot_url = up.option(testnet ? "testnetSpotBaseUrl" : "spotBaseUrl");
    network_options o;
    o.testnet = testnet;
    o.futures = channel(cfg, name, futures_url, futures_budget(cfg));
    o.spot = channel(cfg, name + " spot", spot_url.empty() ? futures_url : spot_url,
                     up.number("spotBudget", wire::beta::spot_budget));
    o.market_ttl = cfg.market_cache_ttl;
    o.meta_refresh = cfg.meta_refresh_interval;
    return std::make_shared<network>(deps.executor, deps.http, deps.clock, std::move(o),
                                     read_signer);
}

network_capabilities capabilities_of(provider_deps const& deps, std::shared_ptr<network> const& n,
                                     bool testnet, sign::private_key const& read_signer) {
    network_capabilities c;
    c.perps = make_perps_reads(n);
    c.spot = make_spot_reads(n);
    c.rwas = make_rwas_reads(n);
    c.trading = make_signed_trading(n);
    auto const& up = settings_of(deps.config);
    stream_options so;
    so.name = n->name();
    // The embedded mocks serve `/ws/<stream>` and `/stream` on their REST port.
    so.ws_base = streams::ws_url_of(testnet ? up.testnet_ws_url : up.ws_url,
                                    testnet ? up.testnet_base_url : up.base_url, "");
    so.stale_after = deps.config.stream_stale;
    c.streams = make_perps_streams(deps.executor, n, c.perps, read_signer, std::move(so));
    return c;
}

} // namespace

std::shared_ptr<provider_module> make_provider(provider_deps const& deps) {
    auto p = std::make_shared<provider_module>();
    p->info = catalog_row(deps.config);
    p->endpoints = deps.config.providers.at("beta");
    auto base = net::url::parse(p->endpoints.base_url);
    if (!base)
        throw std::runtime_error("upstream address of beta is not a URL: " + p->endpoints.base_url);
    auto const key = load_read_signer(deps.config.data_dir, read_signer_key_file(deps.config));
    auto live = make_network(deps, false, key);
    auto testnet = make_network(deps, true, key);
    p->live = capabilities_of(deps, live, false, key);
    p->testnet = capabilities_of(deps, testnet, true, key);
    p->probe = {"beta", *base, boost::beast::http::verb::get,
                std::string(wire::beta::futures_prefix) + "ping", "",
                "GET /fapi/v3/ping (futures REST connectivity, weight 1)",
                // The upstream counts the probe against the same IP budget (CONTRACT §3).
                [channel = &live->futures()] {
                    channel->charge(wire::beta::weight("/fapi/v3/ping", false, 0));
                }};
    auto const signer = live->read_signer().str();
    auto const endpoints = p->endpoints;
    p->describe = [signer, endpoints](provider_detail& d) {
        for (auto& v : d.vertical_details) {
            v.read_signer = signer; // CONTRACT §6.2: the address an account approves
            if (v.vertical != vertical::spot)
                continue;
            v.base_url = endpoints.option("spotBaseUrl", v.base_url);
            if (auto url = endpoints.option("testnetSpotBaseUrl"); !url.empty())
                v.testnet_base_url = std::move(url);
        }
    };
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

std::string read_signer_key_file(server_config const& cfg) {
    return settings_of(cfg).option("readSignerKeyFile");
}

std::vector<provider_setting> settings() {
    using kind = provider_setting::kind;
    return {
        {"beta", "budget", kind::budget,
         "beta futures upstream request weight the gateway spends per 60 s (default and "
         "upstream allowance 2400 per IP)"},
        {"beta", "spotBudget", kind::budget,
         "beta spot upstream request weight the gateway spends per 60 s (default and upstream "
         "allowance 6000 per IP)"},
        {"beta", "spotBaseUrl", kind::url,
         "upstream address of beta's spot REST API (default: the futures address)"},
        {"beta", "testnetSpotBaseUrl", kind::url,
         "upstream address of beta's testnet spot REST API (default: the testnet futures "
         "address)"},
        {"beta", "readSignerKeyFile", kind::file,
         "file holding the key (hex) of beta's read signer, which signs account reads; default "
         "<data-dir>/beta-read-signer.key, generated once"},
    };
}

} // namespace gateway::server::beta
