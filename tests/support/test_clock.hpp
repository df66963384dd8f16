#pragma once
// The test clock: real time plus an offset a test moves (`advance`), or a wall time it pins
// (`pin`), so expiry, nonce windows and candle defaults are driven without waiting. Injected into
// gatewayd through `gateway_app` (test_gateway.hpp) and into units that take a util::clock.
#include <gateway/util/clock.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace gateway::test {

class test_clock final : public util::clock {
public:
    std::int64_t now_ms() const override {
        if (auto const p = pinned_ms_.load(); p >= 0)
            return p;
        return real_.now_ms() + offset_ms_.load();
    }
    steady_time steady_now() const override {
        return real_.steady_now() + std::chrono::milliseconds(offset_ms_.load());
    }

    /// Moves both clocks forward by `d` (a pinned wall time moves too).
    void advance(std::chrono::milliseconds d) {
        offset_ms_ += d.count();
        if (auto p = pinned_ms_.load(); p >= 0)
            pinned_ms_ = p + d.count();
    }
    /// Pins the wall clock at `ms` (steady time keeps running).
    void pin(std::int64_t ms) { pinned_ms_ = ms; }
    /// Follows real time again (plus the offset).
    void unpin() { pinned_ms_ = -1; }

private:
    util::real_clock real_;
    std::atomic<std::int64_t> offset_ms_{0};
    std::atomic<std::int64_t> pinned_ms_{-1};
};

} // namespace gateway::test
