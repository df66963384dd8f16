#include "providers/provider.hpp"

namespace gateway::server {

void registry::add(std::shared_ptr<provider_module> p) {
    providers_.push_back(std::move(p));
}

provider_module const* registry::find(std::string_view alias) const {
    for (auto const& p : providers_)
        if (p->info.id == alias)
            return p.get();
    return nullptr;
}

api_error registry::unknown(std::string_view alias) const {
    std::string known;
    for (auto const& p : providers_)
        known += (known.empty() ? "" : ", ") + p->info.id;
    return make_error(errc::provider_not_found, "Unknown provider '" + std::string(alias) +
                                                    "'; known providers: " + known + ".");
}

result<network_capabilities const*> registry::resolve(std::string_view alias, vertical v,
                                                      bool testnet) const {
    auto const* p = find(alias);
    bool has_vertical = false;
    if (p)
        for (auto pv : p->info.verticals)
            has_vertical = has_vertical || pv == v;
    if (!p || !has_vertical || (testnet && !p->info.testnet))
        return make_error(errc::provider_not_found,
                          "Provider '" + std::string(alias) + "' does not offer " +
                              std::string(to_string(v)) + (testnet ? " on testnet." : "."));
    return &p->on(testnet);
}

namespace {

/// The capability `member` of `caps`; 404 PROVIDER_NOT_FOUND from `caps`, or 404 NOT_FOUND when
/// the provider lacks this one endpoint.
template <class C>
result<C*> capability(result<network_capabilities const*> caps,
                      std::shared_ptr<C> network_capabilities::*member, std::string_view alias) {
    if (!caps)
        return caps.error();
    if (auto const& c = (*caps)->*member)
        return c.get();
    // The route exists, the provider's part of it does not.
    return endpoint_not_available(alias);
}

} // namespace

api_error endpoint_not_available(std::string_view alias) {
    return make_error(errc::not_found, "This endpoint is not available for provider '" +
                                           std::string(alias) + "' yet.");
}

result<perps_reads*> registry::perps(std::string_view alias, bool testnet) const {
    return capability(resolve(alias, vertical::perps, testnet), &network_capabilities::perps,
                      alias);
}

result<spot_reads*> registry::spot(std::string_view alias, bool testnet) const {
    return capability(resolve(alias, vertical::spot, testnet), &network_capabilities::spot, alias);
}

result<rwas_reads*> registry::rwas(std::string_view alias, bool testnet) const {
    return capability(resolve(alias, vertical::rwas, testnet), &network_capabilities::rwas, alias);
}

result<predictions_reads*> registry::predictions(std::string_view alias, bool testnet) const {
    return capability(resolve(alias, vertical::predictions, testnet),
                      &network_capabilities::predictions, alias);
}

result<signed_trading*> registry::trading(std::string_view alias, vertical v, bool testnet) const {
    return capability(resolve(alias, v, testnet), &network_capabilities::trading, alias);
}

result<predictions_trading*> registry::prediction_orders(std::string_view alias,
                                                         bool testnet) const {
    return capability(resolve(alias, vertical::predictions, testnet),
                      &network_capabilities::prediction_orders, alias);
}

result<perps_streams*> registry::streams(std::string_view alias, bool testnet) const {
    auto caps = resolve(alias, vertical::perps, testnet);
    if (caps && !(*caps)->streams) // a perps provider without streams is not on this endpoint
        return make_error(errc::provider_not_found,
                          "Provider '" + std::string(alias) + "' has no live streams.");
    return capability(caps, &network_capabilities::streams, alias);
}

provider_detail detail_of(provider_module const& p) {
    auto const& info = p.info;
    auto const& up = p.endpoints;
    provider_detail d;
    static_cast<gateway::provider&>(d) = {info.id,      info.name, info.verticals,
                                          info.testnet, info.auth, info.description};
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
    if (p.describe)
        p.describe(d);
    return d;
}

} // namespace gateway::server
