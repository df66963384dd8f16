#pragma once
// Minimal structured logging to stderr. Lines are key=value; callers never pass secrets (keys,
// signatures, credentials, query strings): only method, path, status, timings and ids.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::server::log {

enum class level { debug = 0, info = 1, warn = 2, error = 3, off = 4 };

namespace detail {
/// A threshold set by `set_threshold` (-1: none, GATEWAY_LOG_LEVEL's).
inline std::atomic<int>& forced_threshold() {
    static std::atomic<int> v{-1};
    return v;
}
} // namespace detail

/// Threshold from GATEWAY_LOG_LEVEL (debug|info|warn|error|off), default info, unless
/// `set_threshold` forced one.
inline level threshold() {
    if (auto const forced = detail::forced_threshold().load(std::memory_order_relaxed); forced >= 0)
        return static_cast<level>(forced);
    static level const l = [] {
        char const* v = std::getenv("GATEWAY_LOG_LEVEL");
        std::string_view s = v ? v : "info";
        if (s == "debug")
            return level::debug;
        if (s == "warn")
            return level::warn;
        if (s == "error")
            return level::error;
        if (s == "off")
            return level::off;
        return level::info;
    }();
    return l;
}

/// Forces the threshold whatever GATEWAY_LOG_LEVEL says (tests that read every line);
/// `std::nullopt` goes back to it.
inline void set_threshold(std::optional<level> l) {
    detail::forced_threshold().store(l ? static_cast<int>(*l) : -1, std::memory_order_relaxed);
}

inline void write(level l, std::string_view message) {
    if (l < threshold())
        return;
    static std::mutex m;
    auto const now = std::chrono::system_clock::now();
    std::time_t const t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char ts[32];
    std::strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    static constexpr char const* names[] = {"debug", "info", "warn", "error"};
    std::lock_guard lock(m);
    std::fprintf(stderr, "%s level=%s %.*s\n", ts, names[static_cast<int>(l)],
                 static_cast<int>(message.size()), message.data());
}

inline void info(std::string_view m) {
    write(level::info, m);
}
inline void warn(std::string_view m) {
    write(level::warn, m);
}
inline void error(std::string_view m) {
    write(level::error, m);
}

} // namespace gateway::server::log
