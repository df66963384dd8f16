#include "rate_limiter.hpp"

namespace gateway::mocks {

weight_limiter::verdict weight_limiter::admit(std::string const& client, std::uint32_t weight,
                                              clock::time_point now) {
    std::lock_guard lock(m_);
    auto& b = buckets_[client];
    expire(b, now);
    if (b.sum + weight > limit_)
        return {false, b.sum};
    b.entries.emplace_back(now, weight);
    b.sum += weight;
    return {true, b.sum};
}

void weight_limiter::charge(std::string const& client, std::uint32_t weight,
                            clock::time_point now) {
    if (weight == 0)
        return;
    std::lock_guard lock(m_);
    auto& b = buckets_[client];
    expire(b, now);
    b.entries.emplace_back(now, weight);
    b.sum += weight;
}

void weight_limiter::expire(bucket& b, clock::time_point now) const {
    while (!b.entries.empty() && now - b.entries.front().first >= window_) {
        b.sum -= b.entries.front().second;
        b.entries.pop_front();
    }
}

} // namespace gateway::mocks
