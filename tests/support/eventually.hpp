#pragma once
// Polls a condition until it holds or a deadline passes: for states that change when a
// background task completes (a probe, a mock's trigger). Each poll is a real request or a real
// read, never a sleep to tune; between polls the wait backs off (1 ms doubling to 50 ms), so a
// condition that holds soon is seen soon and a slow one does not spin a core.
#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

namespace gateway::test {

/// True as soon as `condition()` is; false when `within` has passed without it.
inline bool eventually(std::function<bool()> const& condition,
                       std::chrono::milliseconds within = std::chrono::seconds(30)) {
    using namespace std::chrono_literals;
    auto const deadline = std::chrono::steady_clock::now() + within;
    auto pause = 1ms;
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition())
            return true;
        std::this_thread::sleep_for(pause);
        pause = std::min<std::chrono::milliseconds>(pause * 2, 50ms);
    }
    return condition();
}

} // namespace gateway::test
