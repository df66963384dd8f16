#pragma once
// What route handlers may use: the immutable configuration and the shared services. Each
// route file registers its routes through one function taking these.
#include "app.hpp"
#include "config.hpp"
#include "health.hpp"

#include <gateway/net/http_client.hpp>

namespace gateway::server {

using router = basic_router<route_handler>;

struct services {
    server_config const& config;
    health_monitor& health;
    net::http_client& upstream;
};

/// spec 4.1: providers and health.
void add_public_routes(router& r, services& s);

} // namespace gateway::server
