#pragma once
/**
 * @file gamma_time.hpp
 * Calendar arithmetic for the Gamma catalog: unix seconds to and from the three date styles
 * the upstream mixes (gamma.md §2.3, §2.5): strict ISO 8601 (`2026-06-10T23:10:00Z`), ISO with
 * fractional seconds (`2025-06-09T08:02:22.334142Z`) and the `closedTime` style
 * (`2026-07-07 21:25:17+00`, space separator and `+00`).
 */
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::mocks::gamma {

/// Days since 1970-01-01 of a proleptic Gregorian date.
std::int64_t days_from_civil(int y, unsigned m, unsigned d) noexcept;

/// Unix seconds of a UTC date and time.
std::int64_t unix_time(int y, unsigned m, unsigned d, unsigned hh = 0, unsigned mm = 0,
                       unsigned ss = 0) noexcept;

/// `2026-06-10T23:10:00Z`.
std::string iso_z(std::int64_t t);
/// `2026-06-10T23:10:00.334142Z`: `micros` as six digits, trailing zeros dropped (none when 0).
std::string iso_micro(std::int64_t t, std::uint32_t micros);
/// `2026-06-10` (the `endDateIso` style).
std::string iso_day(std::int64_t t);
/// `2026-07-07 21:25:17+00` (the `closedTime` style).
std::string gamma_closed_time(std::int64_t t);

/**
 * Parses the dates the catalog's filters take (`end_date_min=2026-01-01`, `...T12:00:00Z`,
 * fractional seconds, `+00`/`+00:00` offsets, a space instead of `T`) to unix seconds (fraction
 * truncated). nullopt for anything else.
 */
std::optional<std::int64_t> parse_date(std::string_view text);

} // namespace gateway::mocks::gamma
