#pragma once
/**
 * @file clock.hpp
 * `gateway::util::clock`: the one time source of the reference server and the mocks, injected
 * wherever a decision depends on time (nonce windows, candle defaults, key and session expiry,
 * health `checkedAt`, dex status time, caches and budgets), so tests drive a test clock instead
 * of waiting for wall time to pass. Timers that only bound a wait (socket deadlines) keep using
 * Asio's steady timers.
 */
#include <gateway/config.hpp>

#include <chrono>
#include <cstdint>

namespace gateway::util {

class clock {
public:
    using steady_time = std::chrono::steady_clock::time_point;

    virtual ~clock() = default;
    /// Wall time: milliseconds since the Unix epoch.
    virtual std::int64_t now_ms() const = 0;
    /// Monotonic time, for durations (TTLs, budgets, rate limits).
    virtual steady_time steady_now() const = 0;
};

/// The process's real clocks (std::chrono::system_clock and steady_clock). Thread-safe.
class real_clock final : public clock {
public:
    std::int64_t now_ms() const override {
        using namespace std::chrono;
        return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    }
    steady_time steady_now() const override { return std::chrono::steady_clock::now(); }
};

/// A shared real clock for code with nothing injected (command-line tools, defaults).
GATEWAY_DECL clock const& default_clock() noexcept {
    static real_clock const c;
    return c;
}

/// Wall time in ms from the real clock: for process edges only (CLI output, log lines).
GATEWAY_DECL std::int64_t wall_ms() {
    return default_clock().now_ms();
}

} // namespace gateway::util
