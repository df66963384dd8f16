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

account_shares::account_shares(std::uint32_t capacity, clock::duration window)
    : capacity_(std::max<std::uint32_t>(capacity, 1))
    , window_(window) {}

std::uint64_t account_shares::used_locked(bookings const& b, clock::time_point now) const {
    std::uint64_t sum = 0;
    for (auto const& [at, w] : b)
        if (at > now - window_)
            sum += w;
    return sum;
}

account_shares::clock::duration account_shares::time_until_locked(bookings const& b,
                                                                  std::uint32_t weight,
                                                                  clock::time_point now) const {
    weight = std::min(weight, capacity_);
    std::uint64_t in_window = used_locked(b, now);
    if (in_window + weight <= capacity_)
        return clock::duration::zero();
    // The share frees up as the oldest bookings leave the window: wait for enough of them.
    for (auto const& [at, w] : b) {
        if (at <= now - window_)
            continue;
        in_window -= w;
        if (in_window + weight <= capacity_)
            return at + window_ - now;
    }
    return window_; // unreachable: every booking leaves within one window
}

void account_shares::sweep_locked(clock::time_point now) {
    // Drop the bookings that left the window, and the accounts left with none: memory follows
    // the accounts active within the last window.
    if (now - last_sweep_ < window_)
        return;
    last_sweep_ = now;
    for (auto it = booked_.begin(); it != booked_.end();) {
        auto& b = it->second;
        while (!b.empty() && b.front().first <= now - window_)
            b.pop_front();
        it = b.empty() ? booked_.erase(it) : std::next(it);
    }
}

account_shares::clock::duration account_shares::time_until(std::int64_t account,
                                                           std::uint32_t weight,
                                                           clock::time_point now) const {
    std::lock_guard lock(m_);
    auto it = booked_.find(account);
    if (it == booked_.end())
        return clock::duration::zero();
    return time_until_locked(it->second, weight, now);
}

bool account_shares::try_take(std::int64_t account, std::uint32_t weight, clock::time_point now) {
    std::lock_guard lock(m_);
    sweep_locked(now);
    auto& b = booked_[account];
    if (time_until_locked(b, weight, now) > clock::duration::zero())
        return false;
    auto const at = b.empty() ? now : std::max(now, b.back().first);
    b.emplace_back(at, std::min(weight, capacity_));
    return true;
}

void account_shares::give_back(std::int64_t account, std::uint32_t weight) {
    std::lock_guard lock(m_);
    auto it = booked_.find(account);
    if (it == booked_.end())
        return;
    weight = std::min(weight, capacity_);
    auto& b = it->second;
    for (auto r = b.rbegin(); r != b.rend(); ++r)
        if (r->second == weight) {
            b.erase(std::next(r).base());
            return;
        }
}

void account_shares::charge(std::int64_t account, std::uint32_t weight, clock::time_point now) {
    if (weight == 0)
        return;
    std::lock_guard lock(m_);
    sweep_locked(now);
    auto& b = booked_[account];
    auto const at = b.empty() ? now : std::max(now, b.back().first);
    b.emplace_back(at, weight);
}

std::uint32_t account_shares::used(std::int64_t account, clock::time_point now) const {
    std::lock_guard lock(m_);
    auto it = booked_.find(account);
    if (it == booked_.end())
        return 0;
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(used_locked(it->second, now), UINT32_MAX));
}

} // namespace gateway::server
