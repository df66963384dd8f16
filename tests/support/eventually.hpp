#pragma once
// Polls a condition until it holds or a deadline passes: for states that change when a
// background probe completes. Each poll is a real request, so there is no sleep to tune.
#include <chrono>
#include <functional>

namespace gateway::test {

/// True as soon as `condition()` is; false when `within` has passed without it.
inline bool eventually(std::function<bool()> const& condition,
                       std::chrono::milliseconds within = std::chrono::seconds(10)) {
    auto const deadline = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < deadline)
        if (condition())
            return true;
    return condition();
}

} // namespace gateway::test
