#pragma once
// Provider beta (Aster's Binance-style wire protocol, upstreams/beta.md): the one entry point the
// composition root calls.
#include "providers/provider.hpp"

#include <vector>

namespace gateway::server::beta {

/// beta on mainnet and testnet. Throws std::runtime_error for an unparseable mainnet upstream
/// address (a start-up failure).
std::shared_ptr<provider_module> make_provider(provider_deps const& deps);

/// The settings of beta's own (`--beta-budget`, ...), read by `make_provider` from
/// `server_config::providers["beta"]`.
std::vector<provider_setting> settings();

/// The configured key file of beta's read signer (CONTRACT §6.2); empty: the data directory's.
std::string read_signer_key_file(server_config const& cfg);

} // namespace gateway::server::beta
