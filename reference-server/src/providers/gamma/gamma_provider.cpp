// Provider gamma's factory: its catalog row (spec 2.1/2.2) and its health probe. Its prediction
// reads and trading arrive as their own issues, in this folder.
#include "providers/gamma/gamma_provider.hpp"

#include "config.hpp"

#include <stdexcept>

namespace gateway::server::gamma {

std::shared_ptr<provider_module> make_provider(provider_deps const& deps) {
    auto p = std::make_shared<provider_module>();
    p->info = {"gamma",
               "Gamma",
               "Prediction markets: events with binary outcome markets traded on a central limit "
               "order book, with HMAC API credentials.",
               {vertical::predictions},
               false,
               auth_model::hmac,
               {order_type::limit},
               9000,
               10,
               "https://docs.polymarket.com"};
    p->endpoints = deps.config.providers.at("gamma");
    auto clob = net::url::parse(p->endpoints.clob_base_url);
    if (!clob)
        throw std::runtime_error("upstream address of gamma is not a URL: " +
                                 p->endpoints.clob_base_url);
    p->probe = {"gamma", *clob, boost::beast::http::verb::get,
                "/",     "",    "GET / on the order-book (CLOB) API (liveness, answers \"OK\")",
                {}};
    return p;
}

} // namespace gateway::server::gamma
