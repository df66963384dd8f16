#pragma once
// The embedded default: with no upstream configured, gatewayd starts the mock upstreams
// in-process on loopback and points the providers at them. This is the only place the
// server's code depends on the mocks.
#include "config.hpp"

#include <memory>

namespace gateway::server {

class embedded_upstreams {
public:
    /// Starts alpha (mainnet + testnet), beta (mainnet + testnet) and gamma on 127.0.0.1
    /// free ports and writes their addresses into `cfg`. mock-beta approves beta's read signer
    /// (loaded, or generated into the data directory, as the provider does) for every account.
    static std::unique_ptr<embedded_upstreams> start(server_config& cfg);
    virtual ~embedded_upstreams() = default;
    virtual void stop() = 0;
};

} // namespace gateway::server
