#pragma once
/**
 * @file rate_limiter.hpp
 * Per-client request-weight budget over a sliding window (alpha.md §8: 1200 per 60 s per IP;
 * beta.md §8: 2400 per minute per IP). A refused request consumes nothing.
 *
 * @par Thread safety
 * Safe to call concurrently.
 */
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace gateway::mocks {

class weight_limiter {
public:
    using clock = std::chrono::steady_clock;

    weight_limiter(std::uint32_t limit, std::chrono::milliseconds window)
        : limit_(limit)
        , window_(window) {}

    struct verdict {
        bool admitted;
        std::uint32_t used; ///< weight in the window, this request included when admitted
    };

    verdict admit(std::string const& client, std::uint32_t weight, clock::time_point now);

    /// Adds `weight` without refusing (extras known only once the answer is built, such as
    /// alpha's per-item weights); the budget may go over, so later requests are refused.
    void charge(std::string const& client, std::uint32_t weight, clock::time_point now);

    std::uint32_t limit() const noexcept { return limit_; }
    std::chrono::milliseconds window() const noexcept { return window_; }

private:
    struct bucket {
        std::deque<std::pair<clock::time_point, std::uint32_t>> entries;
        std::uint32_t sum = 0;
    };

    std::uint32_t limit_;
    std::chrono::milliseconds window_;
    std::mutex m_;
    std::unordered_map<std::string, bucket> buckets_;

    void expire(bucket& b, clock::time_point now) const;
};

} // namespace gateway::mocks
