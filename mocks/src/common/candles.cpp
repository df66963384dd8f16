#include "candles.hpp"

#include "rng.hpp"

#include <algorithm>
#include <limits>

namespace gateway::mocks {

namespace {

constexpr std::int64_t minute_ms = 60'000;
constexpr std::int64_t hour_ms = 3'600'000;
constexpr std::int64_t day_ms = 86'400'000;
constexpr std::int64_t backfill_minutes = 25'000; // fills the 5-minute tier

std::int64_t floor_to(std::int64_t t, std::int64_t unit) {
    std::int64_t q = t / unit;
    if (t % unit != 0 && t < 0)
        --q;
    return q * unit;
}

// Howard Hinnant's civil-calendar algorithms (public domain), proleptic Gregorian, UTC.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    std::int64_t const era = (y >= 0 ? y : y - 399) / 400;
    auto const yoe = static_cast<unsigned>(y - era * 400);
    unsigned const doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m) {
    z += 719468;
    std::int64_t const era = (z >= 0 ? z : z - 146096) / 146097;
    auto const doe = static_cast<unsigned>(z - era * 146097);
    unsigned const yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned const doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned const mp = (5 * doy + 2) / 153;
    m = mp < 10 ? mp + 3 : mp - 9;
    y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

/// One backward step of the mean-reverting walk: the price one bucket earlier.
std::int64_t step_back(splitmix64& r, market_spec const& s, std::int64_t p, std::int64_t amp_ppm) {
    std::int64_t const gap_ppm = (s.mark - p) * 1'000'000 / s.mark;
    std::int64_t const move_ppm = r.between(-amp_ppm, amp_ppm) + gap_ppm / 64;
    std::int64_t ticks = p / s.tick * move_ppm / 1'000'000;
    if (ticks == 0)
        ticks = static_cast<std::int64_t>(r.below(3)) - 1; // coarse markets still move
    std::int64_t const lo = (s.min_px > 0 ? s.min_px : s.tick) + s.tick;
    std::int64_t const hi =
        s.max_px > 0 ? s.max_px - s.tick : std::numeric_limits<std::int64_t>::max() / 1'000'000;
    return std::clamp(p + ticks * s.tick, lo, hi);
}

/// A synthetic candle from `open` to `close` (px units), with wicks and activity.
candle make_candle(splitmix64& r, market_spec const& s, std::int64_t t, std::int64_t open,
                   std::int64_t close, std::int64_t amp_ppm, std::uint32_t trades_lo,
                   std::uint32_t trades_hi) {
    candle c;
    c.t = t;
    c.o = open;
    c.c = close;
    auto wick = [&] {
        std::int64_t const ppm = r.between(0, amp_ppm / 2);
        return std::max<std::int64_t>(0, std::max(open, close) / s.tick * ppm / 1'000'000) * s.tick;
    };
    c.h = std::max(open, close) + wick();
    std::int64_t const floor_px = s.min_px > 0 ? s.min_px : s.tick;
    c.l = std::max(floor_px, std::min(open, close) - wick());
    c.n = static_cast<std::uint32_t>(r.between(trades_lo, trades_hi));
    c.v =
        std::max<std::int64_t>(1, s.lot * static_cast<std::int64_t>(c.n) * r.between(20, 80) / 100);
    return c;
}

} // namespace

std::int64_t bucket_open(candle_interval iv, std::int64_t t) {
    if (!iv.month)
        return floor_to(t, iv.ms);
    std::int64_t y = 0;
    unsigned m = 0;
    civil_from_days(floor_to(t, day_ms) / day_ms, y, m);
    return days_from_civil(y, m, 1) * day_ms;
}

std::int64_t bucket_next(candle_interval iv, std::int64_t open) {
    if (!iv.month)
        return open + iv.ms;
    std::int64_t y = 0;
    unsigned m = 0;
    civil_from_days(floor_to(open, day_ms) / day_ms, y, m);
    return m == 12 ? days_from_civil(y + 1, 1, 1) * day_ms : days_from_civil(y, m + 1, 1) * day_ms;
}

candle_history::candle_history(std::uint64_t seed, std::vector<market_spec> const& specs,
                               std::int64_t backfill_end) {
    markets_.reserve(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
        markets_.push_back(tiers{{{minute_ms, minute_buckets, {}},
                                  {5 * minute_ms, five_minute_buckets, {}},
                                  {hour_ms, hour_buckets, {}},
                                  {day_ms, day_buckets, {}}}});
        if (!specs[i].complement_of)
            backfill(seed, i, specs[i], floor_to(backfill_end, minute_ms));
    }
}

void candle_history::backfill(std::uint64_t seed, std::size_t i, market_spec const& s,
                              std::int64_t end) {
    splitmix64 r(mix_seed(seed, 0xca9d1e, i));
    auto const ppm = static_cast<std::int64_t>(s.step_ppm);
    // Region boundaries, each aligned to the next coarser bucket so no candle straddles one.
    std::int64_t const minute_start = floor_to(end - backfill_minutes * minute_ms, hour_ms);
    std::int64_t const hour_start =
        floor_to(minute_start - static_cast<std::int64_t>(hour_buckets) * hour_ms, day_ms);
    std::int64_t const day_start = hour_start - static_cast<std::int64_t>(day_buckets) * day_ms;

    // Generated newest first (walking back from the mark), merged oldest first.
    struct piece {
        candle c;
        std::int64_t len;
    };
    std::vector<piece> pieces;
    pieces.reserve(static_cast<std::size_t>((end - minute_start) / minute_ms) + hour_buckets +
                   day_buckets + 48);
    std::int64_t p = s.mark;
    auto region = [&](std::int64_t from, std::int64_t to, std::int64_t len, std::int64_t amp,
                      std::uint32_t lo, std::uint32_t hi) {
        for (std::int64_t t = to - len; t >= from; t -= len) {
            std::int64_t const open = step_back(r, s, p, amp);
            pieces.push_back({make_candle(r, s, t, open, p, amp, lo, hi), len});
            p = open;
        }
    };
    region(minute_start, end, minute_ms, 2 * ppm, 10, 90);
    region(hour_start, minute_start, hour_ms, 8 * ppm, 600, 5400);
    region(day_start, hour_start, day_ms, 30 * ppm, 15000, 130000);

    auto& ts = markets_[i];
    for (auto it = pieces.rbegin(); it != pieces.rend(); ++it)
        for (auto& tr : ts)
            if (tr.ms >= it->len)
                merge(tr, it->c);
}

void candle_history::merge(tier& tr, candle const& c) {
    std::int64_t const t = floor_to(c.t, tr.ms);
    auto& b = tr.buckets;
    if (!b.empty() && b.back().t == t) {
        auto& x = b.back();
        x.h = std::max(x.h, c.h);
        x.l = std::min(x.l, c.l);
        x.c = c.c;
        x.v += c.v;
        x.n += c.n;
        return;
    }
    if (!b.empty() && t < b.back().t) {
        // Late data: update the bucket holding it if it is still kept; its close stays.
        auto const it = std::lower_bound(b.begin(), b.end(), t,
                                         [](candle const& x, std::int64_t v) { return x.t < v; });
        if (it != b.end() && it->t == t) {
            it->h = std::max(it->h, c.h);
            it->l = std::min(it->l, c.l);
            it->v += c.v;
            it->n += c.n;
        }
        return;
    }
    candle fresh = c;
    fresh.t = t;
    b.push_back(fresh);
    if (b.size() > tr.cap)
        b.pop_front();
}

void candle_history::record(std::size_t market, std::int64_t time_ms, std::int64_t px,
                            std::int64_t sz) {
    candle c;
    c.t = time_ms;
    c.o = c.h = c.l = c.c = px;
    c.v = sz;
    c.n = 1;
    std::lock_guard lock(m_);
    for (auto& tr : markets_.at(market))
        merge(tr, c);
}

std::vector<candle> candle_history::query(std::size_t market, candle_interval iv,
                                          std::int64_t start, std::int64_t end,
                                          std::size_t limit) const {
    std::vector<candle> out;
    if (limit == 0 || end < start)
        return out;
    std::lock_guard lock(m_);
    auto const& ts = markets_.at(market);
    // The coarsest tier whose buckets nest inside the interval's.
    tier const* src = &ts[0];
    for (auto const& tr : ts)
        if (iv.month ? tr.ms <= day_ms : iv.ms % tr.ms == 0)
            src = &tr;
    for (auto const& b : src->buckets) {
        std::int64_t const open = bucket_open(iv, b.t);
        if (!out.empty() && out.back().t == open) {
            auto& x = out.back();
            x.h = std::max(x.h, b.h);
            x.l = std::min(x.l, b.l);
            x.c = b.c;
            x.v += b.v;
            x.n += b.n;
            continue;
        }
        if (!out.empty() && bucket_next(iv, out.back().t) - 1 < start)
            out.pop_back(); // entirely before the range
        if (open > end)
            break;
        candle c = b;
        c.t = open;
        out.push_back(c);
    }
    if (!out.empty() && bucket_next(iv, out.back().t) - 1 < start)
        out.pop_back();
    if (out.size() > limit)
        out.erase(out.begin(), out.end() - static_cast<std::ptrdiff_t>(limit));
    return out;
}

} // namespace gateway::mocks
