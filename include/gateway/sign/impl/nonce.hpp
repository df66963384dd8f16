#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>

namespace gateway::sign {

GATEWAY_DECL std::int64_t next_nonce_ms() {
    static std::atomic<std::int64_t> last{0};
    std::int64_t const now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
    std::int64_t prev = last.load(std::memory_order_relaxed);
    std::int64_t next = 0;
    do {
        next = std::max(now, prev + 1);
    } while (!last.compare_exchange_weak(prev, next, std::memory_order_relaxed));
    return next;
}

} // namespace gateway::sign
