#pragma once
// Per-API-key rate limiting (CONTRACT §3): a token bucket per key, behind an interface so a
// shared (multi-replica) implementation can replace the in-memory one.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gateway::server {

struct rate_decision {
    bool allowed = true;
    double limit = 0;                     ///< requests per second (X-RateLimit-Limit)
    std::int64_t remaining = 0;           ///< whole tokens left (X-RateLimit-Remaining)
    std::int64_t reset_seconds = 0;       ///< until the bucket is full (X-RateLimit-Reset)
    std::int64_t retry_after_seconds = 0; ///< when refused: until one token is there
};

class rate_limiter {
public:
    virtual ~rate_limiter() = default;
    /// Takes one token from `key`'s bucket (created full on first use).
    virtual rate_decision take(std::string_view key, double rate_per_second, double burst,
                               std::chrono::steady_clock::time_point now) = 0;
};

/// One process's buckets. Idle buckets are dropped once full again, so memory follows the
/// number of recently active keys.
class memory_rate_limiter final : public rate_limiter {
public:
    rate_decision take(std::string_view key, double rate_per_second, double burst,
                       std::chrono::steady_clock::time_point now) override;

private:
    struct bucket {
        double tokens = 0;
        std::chrono::steady_clock::time_point last;
    };
    std::mutex m_;
    std::unordered_map<std::string, bucket> buckets_;
    std::chrono::steady_clock::time_point last_sweep_{};
};

} // namespace gateway::server
