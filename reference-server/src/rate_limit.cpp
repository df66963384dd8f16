#include "rate_limit.hpp"

#include <algorithm>
#include <cmath>

namespace gateway::server {

rate_decision memory_rate_limiter::take(std::string_view key, double rate, double burst,
                                        std::chrono::steady_clock::time_point now) {
    using seconds_d = std::chrono::duration<double>;
    std::lock_guard lock(m_);
    if (now - last_sweep_ > std::chrono::seconds(60)) {
        // Drop buckets that have refilled completely: recreating them full is equivalent.
        for (auto it = buckets_.begin(); it != buckets_.end();) {
            double const refilled =
                it->second.tokens + seconds_d(now - it->second.last).count() * rate;
            it = refilled >= burst ? buckets_.erase(it) : std::next(it);
        }
        last_sweep_ = now;
    }
    auto [it, fresh] = buckets_.try_emplace(std::string(key), bucket{burst, now});
    bucket& b = it->second;
    if (!fresh) {
        b.tokens = std::min(burst, b.tokens + seconds_d(now - b.last).count() * rate);
        b.last = now;
    }
    rate_decision d;
    d.limit = rate;
    if (b.tokens >= 1) {
        b.tokens -= 1;
        d.allowed = true;
    } else {
        d.allowed = false;
        d.retry_after_seconds =
            std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil((1 - b.tokens) / rate)));
    }
    d.remaining = static_cast<std::int64_t>(std::floor(b.tokens));
    d.reset_seconds = static_cast<std::int64_t>(std::ceil((burst - b.tokens) / rate));
    return d;
}

} // namespace gateway::server
