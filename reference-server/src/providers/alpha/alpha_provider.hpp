#pragma once
// Provider alpha (Hyperliquid's wire protocol): the one entry point the composition root calls.
#include "providers/provider.hpp"

#include <vector>

namespace gateway::server::alpha {

/// alpha on mainnet and testnet. Throws std::runtime_error for an unparseable mainnet upstream
/// address (a start-up failure).
std::shared_ptr<provider_module> make_provider(provider_deps const& deps);

/// The settings of alpha's own (`--alpha-budget`, ...), read by `make_provider` from
/// `server_config::providers["alpha"]`.
std::vector<provider_setting> settings();

} // namespace gateway::server::alpha
