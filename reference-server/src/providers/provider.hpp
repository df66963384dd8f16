#pragma once
// The provider catalog: what the gateway knows about each provider independent of where its
// upstream lives (names, verticals, order types, upstream budgets), and the probe each
// provider's health check performs.
#include "config.hpp"
#include "health.hpp"

#include <gateway/types/enums.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gateway::server {

struct provider_info {
    std::string id;
    std::string name;
    std::string description;
    std::vector<vertical> verticals;
    bool testnet = false;
    auth_model auth = auth_model::eip712;
    std::vector<order_type> order_types;
    unsigned rate_requests = 0; ///< upstream budget the gateway keeps to (CONTRACT §3)
    unsigned rate_window_seconds = 0;
    std::string docs_url;
};

/// All providers, in the order the API lists them.
std::vector<provider_info> const& provider_catalog();

/// The provider with this alias, or nullptr.
provider_info const* find_provider(std::string_view id);

/// The health probe of each configured provider (its mainnet upstream).
/// Throws std::runtime_error for an unparseable upstream address (a start-up failure).
std::vector<probe_target> make_probe_targets(server_config const& cfg);

} // namespace gateway::server
