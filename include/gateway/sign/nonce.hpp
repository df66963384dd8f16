#pragma once
/**
 * @file nonce.hpp
 * Nonces for signed requests: milliseconds since the epoch, strictly increasing within the
 * process. alpha (alpha.md §5.7) and beta (its API nonce in ms, microseconds on the wire) both
 * take them; one counter serves every provider, so no two signed requests of a process share one.
 */
#include <gateway/config.hpp>

#include <cstdint>

namespace gateway::sign {

/// A nonce for a new request: now in ms, or one more than the last one this process handed
/// out if that is not smaller. Thread-safe.
GATEWAY_DECL std::int64_t next_nonce_ms();

} // namespace gateway::sign

#include <gateway/sign/impl/nonce.hpp>
