#pragma once
// Provider beta (Aster's Binance-style wire protocol, upstreams/beta.md): the one entry point the
// composition root calls.
#include "providers/provider.hpp"

namespace gateway::server::beta {

/// beta on mainnet and testnet. Throws std::runtime_error for an unparseable mainnet upstream
/// address (a start-up failure).
std::shared_ptr<provider_module> make_provider(provider_deps const& deps);

} // namespace gateway::server::beta
