#pragma once
/**
 * @file routes.hpp
 * The generic routes and what they may use. A route parses and validates its request with the
 * SDK's code, resolves the provider's capability through the registry, calls it and renders the
 * typed answer, keeping CONTRACT §2's order of checks; no route names a provider.
 */
#include "http/context.hpp"

#include <gateway/util/clock.hpp>

#include <boost/json/value_from.hpp>

namespace gateway::server {

struct server_config;
class health_monitor;
class registry;
class signed_write_pipeline;
namespace auth {
class account_service;
}

/// What the public routes and the account pages use; it outlives the router.
struct services {
    server_config const& config;
    health_monitor& health;
    auth::account_service& accounts;
    registry const& providers;
};

/// A typed answer as a JSON reply, or its error.
template <class T>
result<reply> render(result<T> const& r) {
    if (!r)
        return r.error();
    return json_reply(boost::json::value_from(*r));
}

/// What the trading routes use.
struct trading_env {
    registry const& providers;
    signed_write_pipeline& pipeline;
};

/// spec 4.1: providers and health.
void add_public_routes(router& r, services& s);
/// Market data (spec 4.2, 4.3; CONTRACT §4): prices, markets, trades, candles, orderbook.
void add_market_routes(router& r, registry const& providers);
/// Account reads (spec 4.2-4.4; CONTRACT §4): summary, positions, orders, fills, spot balances.
void add_account_read_routes(router& r, registry const& providers);
/// Real-world-asset dexes (spec 4.5; CONTRACT §4).
void add_rwas_routes(router& r, registry const& providers);
/// Prediction-market reads (spec 4.6; CONTRACT §4): events, markets, token order books.
void add_prediction_routes(router& r, registry const& providers);
/// Signed writes and typed-data (CONTRACT §5-6).
void add_trading_routes(router& r, trading_env& env);
/// Prediction trading (spec 4.6; CONTRACT §4-6.3): credentialed orders, cancels, typed-data,
/// open orders and fills.
void add_prediction_trading_routes(router& r, registry const& providers);
/// Spec 5.1 / CONTRACT §9: the settings pages (`/account...`, HTML) and the JSON account API
/// (`/v1/account/...`, session cookie + X-CSRF-Token).
void add_account_routes(router& r, services& s);

} // namespace gateway::server
