#include "providers.hpp"

#include <stdexcept>

namespace gateway::server {

std::vector<provider_info> const& provider_catalog() {
    static std::vector<provider_info> const catalog{
        {"alpha",
         "Alpha",
         "Perpetual futures, spot and builder-deployed real-world-asset perp dexes, with "
         "EIP-712 signed trading by an approved agent wallet.",
         {vertical::perps, vertical::spot, vertical::rwas},
         true,
         auth_model::eip712,
         {order_type::market, order_type::limit, order_type::stop_market, order_type::stop_limit},
         1200,
         60,
         "https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api"},
        {"beta",
         "Beta",
         "Perpetual futures (including stock and commodity perps) and spot quoted in a stable "
         "asset, with EIP-712 signed requests in the provider's own domain.",
         {vertical::perps, vertical::spot, vertical::rwas},
         true,
         auth_model::eip712,
         {order_type::market, order_type::limit, order_type::stop_market, order_type::stop_limit,
          order_type::trailing_stop},
         2400,
         60,
         "https://github.com/asterdex/api-docs"},
        {"gamma",
         "Gamma",
         "Prediction markets: events with binary outcome markets traded on a central limit "
         "order book, with HMAC API credentials.",
         {vertical::predictions},
         false,
         auth_model::hmac,
         {order_type::limit},
         9000,
         10,
         "https://docs.polymarket.com"},
    };
    return catalog;
}

provider_info const* find_provider(std::string_view id) {
    for (auto const& p : provider_catalog())
        if (p.id == id)
            return &p;
    return nullptr;
}

std::vector<probe_target> make_probe_targets(server_config const& cfg) {
    auto url_of = [](std::string const& provider, std::string const& text) {
        auto u = net::url::parse(text);
        if (!u)
            throw std::runtime_error("upstream address of " + provider + " is not a URL: " + text);
        return *u;
    };
    std::vector<probe_target> out;
    auto const& alpha = cfg.providers.at("alpha");
    out.push_back({"alpha",
                   url_of("alpha", alpha.base_url),
                   boost::beast::http::verb::post,
                   "/info",
                   R"({"type":"exchangeStatus"})",
                   "POST /info {\"type\":\"exchangeStatus\"} (exchange status, weight 2)",
                   {}});
    auto const& beta = cfg.providers.at("beta");
    out.push_back({"beta",
                   url_of("beta", beta.base_url),
                   boost::beast::http::verb::get,
                   "/fapi/v3/ping",
                   "",
                   "GET /fapi/v3/ping (futures REST connectivity, weight 1)",
                   {}});
    auto const& gamma = cfg.providers.at("gamma");
    out.push_back({"gamma",
                   url_of("gamma", gamma.clob_base_url),
                   boost::beast::http::verb::get,
                   "/",
                   "",
                   "GET / on the order-book (CLOB) API (liveness, answers \"OK\")",
                   {}});
    return out;
}

} // namespace gateway::server
