#pragma once
/**
 * @file time.hpp
 * ISO 8601 UTC text of a millisecond timestamp: the one formatter of the API (`timestamp`,
 * `checkedAt`, `endDate`), the settings page and the admin command line.
 */
#include <gateway/config.hpp>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

namespace gateway::util {

/// How much of the second to show.
enum class iso_precision {
    seconds,      ///< `2026-11-22T02:40:47Z` (pages, command line)
    milliseconds, ///< `2026-11-22T02:40:47.123Z` (the API)
};

/// `ms` since the Unix epoch as ISO 8601 UTC (negative times clamp to the epoch).
GATEWAY_DECL std::string iso8601_utc(std::int64_t ms,
                                     iso_precision p = iso_precision::milliseconds) {
    if (ms < 0)
        ms = 0;
    std::time_t const secs = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[48];
    std::size_t const n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    if (p == iso_precision::milliseconds)
        std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms % 1000));
    else
        std::snprintf(buf + n, sizeof buf - n, "Z");
    return buf;
}

} // namespace gateway::util
