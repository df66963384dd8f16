#pragma once
// What route handlers may use: the immutable configuration and the shared services. Each
// route file registers its routes through one function taking these.
#include "app.hpp"
#include "auth/accounts.hpp"
#include "config.hpp"
#include "health.hpp"
#include "providers.hpp"

#include <gateway/net/http_client.hpp>

namespace gateway::server {

namespace alpha {
class adapter;
}
class nonce_guard;

using router = basic_router<route_handler>;

struct services {
    server_config const& config;
    health_monitor& health;
    net::http_client& upstream;
    auth::account_service& accounts;
    alpha::adapter& alpha_live;
    alpha::adapter& alpha_testnet;
    nonce_guard& nonces; ///< the replay guard of signed writes (`<data-dir>/nonces.journal`)

    alpha::adapter& alpha(bool testnet) const { return testnet ? alpha_testnet : alpha_live; }
};

/// The provider a vertical route names, if it has that vertical (and a testnet when the path
/// is under /v1/testnet/). @par Errors PROVIDER_NOT_FOUND.
result<provider_info const*> provider_for(request_context const& ctx, vertical v);

/// A strict JSON object body: 415 UNSUPPORTED_MEDIA_TYPE without application/json, 400
/// INVALID_JSON when it is not JSON or not an object.
result<boost::json::value> json_body(net::request const& req);

/// spec 4.1: providers and health.
void add_public_routes(router& r, services& s);

/// Registers a vertical route under `/v1` + pattern and `/v1/testnet` + pattern (CONTRACT §7);
/// the handler reads `ctx.testnet`.
void add_vertical_route(router& r, boost::beast::http::verb method, std::string const& pattern,
                        route_handler const& handler);

/// Market data: prices (more with the provider issues).
void add_market_routes(router& r, services& s);

/// Provider alpha's reads (spec 4.2, 4.4, 4.5; CONTRACT §4): account, positions, orders, fills,
/// trades, candles, orderbook, spot balances, rwas dexes.
void add_alpha_routes(router& r, services& s);

/// Provider alpha's signed writes (spec 4.2 writes, 4.4 spot order; CONTRACT §5-6): place,
/// cancel, leverage, spot place/cancel, typed-data.
void add_alpha_trading_routes(router& r, services& s);

/// Spec 5.1 / CONTRACT §9: the settings pages (`/account...`, HTML) and the JSON account API
/// (`/v1/account/...`, session cookie + X-CSRF-Token).
void add_account_routes(router& r, services& s);

} // namespace gateway::server
