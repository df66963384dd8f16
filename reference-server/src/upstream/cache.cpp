#include "upstream/cache.hpp"

#include <algorithm>

namespace gateway::server {

weight_budget::weight_budget(std::uint32_t capacity, clock::duration window, clock::duration guard)
    : capacity_(std::max<std::uint32_t>(capacity, 1))
    , window_(window + std::max(guard, clock::duration::zero())) {}

void weight_budget::purge_locked(clock::time_point now) {
    // A booking at time e counts for the window (t - window, t]: gone once e <= now - window.
    while (!booked_.empty() && booked_.front().first <= now - window_)
        booked_.pop_front();
}

weight_budget::clock::time_point weight_budget::earliest_locked(std::uint32_t weight,
                                                                clock::time_point now) const {
    weight = std::min(weight, capacity_);
    clock::time_point t = booked_.empty() ? now : std::max(now, booked_.back().first);
    std::uint64_t in_window = 0;
    for (auto const& [at, w] : booked_)
        in_window += w;
    std::size_t oldest = 0;
    auto drop_expired = [&] {
        while (oldest < booked_.size() && booked_[oldest].first <= t - window_)
            in_window -= booked_[oldest++].second;
    };
    drop_expired();
    while (in_window + weight > capacity_ && oldest < booked_.size()) {
        t = std::max(t, booked_[oldest].first + window_);
        drop_expired();
    }
    return t;
}

std::optional<weight_budget::clock::duration>
weight_budget::reserve(std::uint32_t weight, clock::time_point now, clock::duration max_wait) {
    std::lock_guard lock(m_);
    purge_locked(now);
    auto const at = earliest_locked(weight, now);
    if (at - now > max_wait)
        return std::nullopt;
    booked_.emplace_back(at, std::min(weight, capacity_));
    return at - now;
}

void weight_budget::charge(std::uint32_t weight, clock::time_point now) {
    if (weight == 0)
        return;
    std::lock_guard lock(m_);
    purge_locked(now);
    // Keep the bookings sorted: a charge lands after any booking already made for later.
    auto const at = booked_.empty() ? now : std::max(now, booked_.back().first);
    booked_.emplace_back(at, weight);
}

void weight_budget::observe_used(std::uint32_t upstream_used, clock::time_point now) {
    auto const local = used(now);
    if (upstream_used > local)
        charge(upstream_used - local, now);
}

weight_budget::clock::duration weight_budget::time_until(std::uint32_t weight,
                                                         clock::time_point now) const {
    std::lock_guard lock(m_);
    return earliest_locked(weight, now) - now;
}

std::uint32_t weight_budget::used(clock::time_point now) const {
    std::lock_guard lock(m_);
    std::uint64_t sum = 0;
    for (auto const& [at, w] : booked_)
        if (at > now - window_)
            sum += w;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(sum, UINT32_MAX));
}

} // namespace gateway::server
