#include "gamma_time.hpp"

#include <array>
#include <cstdio>

namespace gateway::mocks::gamma {

namespace {

struct civil {
    int y;
    unsigned m, d;
};

// The inverse of days_from_civil (eras of 400 years, March-based years).
civil civil_from_days(std::int64_t z) noexcept {
    z += 719468;
    std::int64_t const era = (z >= 0 ? z : z - 146096) / 146097;
    auto const doe = static_cast<unsigned>(z - era * 146097);
    unsigned const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned const mp = (5 * doy + 2) / 153;
    unsigned const d = doy - (153 * mp + 2) / 5 + 1;
    unsigned const m = mp < 10 ? mp + 3 : mp - 9;
    auto const y = static_cast<int>(static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0));
    return {y, m, d};
}

struct split_time {
    civil day;
    unsigned hh, mm, ss;
};

split_time split(std::int64_t t) noexcept {
    std::int64_t days = t / 86400;
    std::int64_t rest = t % 86400;
    if (rest < 0) {
        rest += 86400;
        --days;
    }
    return {civil_from_days(days), static_cast<unsigned>(rest / 3600),
            static_cast<unsigned>(rest % 3600 / 60), static_cast<unsigned>(rest % 60)};
}

std::string format(std::int64_t t, char sep, char const* tail) {
    auto const s = split(t);
    std::array<char, 48> buf{};
    std::snprintf(buf.data(), buf.size(), "%04d-%02u-%02u%c%02u:%02u:%02u%s", s.day.y, s.day.m,
                  s.day.d, sep, s.hh, s.mm, s.ss, tail);
    return buf.data();
}

/// Reads exactly `n` digits at `pos` (advancing it).
std::optional<unsigned> digits(std::string_view s, std::size_t& pos, std::size_t n) {
    if (pos + n > s.size())
        return std::nullopt;
    unsigned v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        char const c = s[pos + i];
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + static_cast<unsigned>(c - '0');
    }
    pos += n;
    return v;
}

bool take(std::string_view s, std::size_t& pos, char c) {
    if (pos < s.size() && s[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

} // namespace

std::int64_t days_from_civil(int y, unsigned m, unsigned d) noexcept {
    y -= m <= 2 ? 1 : 0;
    std::int64_t const era = (y >= 0 ? y : y - 399) / 400;
    auto const yoe = static_cast<unsigned>(y - era * 400);
    unsigned const doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t unix_time(int y, unsigned m, unsigned d, unsigned hh, unsigned mm,
                       unsigned ss) noexcept {
    return days_from_civil(y, m, d) * 86400 + std::int64_t{hh} * 3600 + std::int64_t{mm} * 60 +
           std::int64_t{ss};
}

std::string iso_z(std::int64_t t) {
    return format(t, 'T', "Z");
}

std::string iso_micro(std::int64_t t, std::uint32_t micros) {
    std::string out = format(t, 'T', "");
    if (micros % 1'000'000 != 0) {
        std::array<char, 8> frac{};
        std::snprintf(frac.data(), frac.size(), "%06u", static_cast<unsigned>(micros % 1'000'000));
        std::string f = frac.data();
        while (!f.empty() && f.back() == '0')
            f.pop_back();
        out += "." + f;
    }
    return out + "Z";
}

std::string iso_day(std::int64_t t) {
    return format(t, 'T', "").substr(0, 10);
}

std::string gamma_closed_time(std::int64_t t) {
    return format(t, ' ', "+00");
}

std::optional<std::int64_t> parse_date(std::string_view s) {
    std::size_t pos = 0;
    auto const y = digits(s, pos, 4);
    if (!y || !take(s, pos, '-'))
        return std::nullopt;
    auto const m = digits(s, pos, 2);
    if (!m || !take(s, pos, '-'))
        return std::nullopt;
    auto const d = digits(s, pos, 2);
    if (!d || *m < 1 || *m > 12 || *d < 1 || *d > 31)
        return std::nullopt;
    unsigned hh = 0, mm = 0, ss = 0;
    if (pos < s.size()) {
        if (!take(s, pos, 'T') && !take(s, pos, ' '))
            return std::nullopt;
        auto const h = digits(s, pos, 2);
        if (!h || !take(s, pos, ':'))
            return std::nullopt;
        auto const mi = digits(s, pos, 2);
        if (!mi)
            return std::nullopt;
        hh = *h;
        mm = *mi;
        if (take(s, pos, ':')) {
            auto const se = digits(s, pos, 2);
            if (!se)
                return std::nullopt;
            ss = *se;
        }
        if (take(s, pos, '.')) {
            std::size_t const start = pos;
            while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9')
                ++pos;
            if (pos == start)
                return std::nullopt;
        }
        if (hh > 23 || mm > 59 || ss > 60)
            return std::nullopt;
        if (pos < s.size() && !take(s, pos, 'Z')) {
            // Only UTC offsets: "+00", "+00:00", "+0000".
            if (!take(s, pos, '+'))
                return std::nullopt;
            auto const oh = digits(s, pos, 2);
            if (!oh || *oh != 0)
                return std::nullopt;
            take(s, pos, ':');
            if (pos < s.size()) {
                auto const om = digits(s, pos, 2);
                if (!om || *om != 0)
                    return std::nullopt;
            }
        }
        if (pos != s.size())
            return std::nullopt;
    }
    return unix_time(static_cast<int>(*y), *m, *d, hh, mm, ss);
}

} // namespace gateway::mocks::gamma
