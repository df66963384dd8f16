#pragma once
/**
 * @file faults.hpp
 * The fault switches of CONTRACT §10 (`POST /__mock/faults`): latency before every upstream
 * answer, a forced HTTP status, or dropping connections unanswered; for WebSocket a stalled
 * stream or delayed frames (the one-shot `wsDrop` is an action, not a switch: ws_hub.hpp).
 *
 * @par Thread safety
 * Safe to call concurrently.
 */
#include <chrono>
#include <mutex>
#include <optional>

namespace gateway::mocks {

struct fault_config {
    std::chrono::milliseconds latency{0}; ///< delay before every upstream answer
    std::optional<unsigned> status;       ///< force this 4xx/5xx status (upstream's error shape)
    bool drop = false;                    ///< close connections without answering
    /// WebSocket: data frames are dropped while set (connections stay open, replies still go).
    bool ws_stall = false;
    std::chrono::milliseconds ws_delay{0}; ///< WebSocket: delay before every data frame
};

class fault_switch {
public:
    fault_config get() const {
        std::lock_guard lock(m_);
        return cfg_;
    }
    void set(fault_config cfg) {
        std::lock_guard lock(m_);
        cfg_ = cfg;
    }
    void clear() { set({}); }

private:
    mutable std::mutex m_;
    fault_config cfg_;
};

} // namespace gateway::mocks
