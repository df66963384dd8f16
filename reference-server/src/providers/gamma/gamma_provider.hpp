#pragma once
// Provider gamma (Polymarket's wire protocol, upstreams/gamma.md): the one entry point the
// composition root calls.
#include "providers/provider.hpp"

#include <vector>

namespace gateway::server::gamma {

/// gamma (no testnet). Throws std::runtime_error for an unparseable CLOB upstream address (a
/// start-up failure).
std::shared_ptr<provider_module> make_provider(provider_deps const& deps);

/// The settings of gamma's own (`--gamma-catalog-budget`, `--gamma-clob-budget`), read by
/// `make_provider` from `server_config::providers["gamma"]`.
std::vector<provider_setting> settings();

} // namespace gateway::server::gamma
