#pragma once
/**
 * @file candles.hpp
 * Per-market OHLCV history built from the trades a `market_state` prints, with a deterministic
 * backfill so that long look-backs answer at once.
 *
 * Storage is four tiers of buckets per market, each bounded: 1 minute (the newest 5000),
 * 5 minutes (5000, about 17 days), 1 hour (5000, about 208 days) and 1 day (1000). Every trade
 * updates all four; a query for an interval aggregates the coarsest tier that divides it
 * (3m from 1m; 15m and 30m from 5m; 2h..12h from 1h; 3d, 1w and calendar months from 1d), so
 * the history an interval reaches is that tier's depth. Buckets without trades produce no
 * candle.
 *
 * The backfill replays a mean-reverting random walk backwards from each market's initial mark:
 * 1-minute candles for the 25000 minutes before `backfill_end`, then 1-hour candles further
 * back, then 1-day candles; coarser tiers are aggregated from the finer candles, so a 1h candle
 * over the minute region is exactly the sum of its minutes. The walk depends only on the seed
 * and the market index (times are relative to `backfill_end`).
 *
 * Prices and sizes are the market's scaled integers (`px_scale`, `sz_scale`).
 *
 * @par Thread safety
 * All members are safe to call concurrently (one internal mutex).
 */
#include "market_state.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace gateway::mocks {

struct candle {
    std::int64_t t = 0; ///< open time, ms
    std::int64_t o = 0;
    std::int64_t h = 0;
    std::int64_t l = 0;
    std::int64_t c = 0;
    std::int64_t v = 0;  ///< base volume
    std::uint32_t n = 0; ///< number of trades
};

/// A candle length: fixed milliseconds (epoch-aligned buckets) or a UTC calendar month.
struct candle_interval {
    std::int64_t ms = 60'000; ///< ignored for months
    bool month = false;
};

/// The open time of the bucket of `iv` holding `t`.
std::int64_t bucket_open(candle_interval iv, std::int64_t t);
/// The open time of the bucket after the one opening at `open` (so `T = next - 1`).
std::int64_t bucket_next(candle_interval iv, std::int64_t open);

class candle_history {
public:
    static constexpr std::size_t minute_buckets = 5000;
    static constexpr std::size_t five_minute_buckets = 5000;
    static constexpr std::size_t hour_buckets = 5000;
    static constexpr std::size_t day_buckets = 1000;

    /// Backfills every market (except complements) up to `backfill_end` (exclusive, floored to
    /// the minute), anchored at each spec's initial mark.
    candle_history(std::uint64_t seed, std::vector<market_spec> const& specs,
                   std::int64_t backfill_end);

    /// Adds one trade to every tier of `market`. A trade older than a tier's newest bucket
    /// updates the bucket holding it when that still exists (its close is kept).
    void record(std::size_t market, std::int64_t time_ms, std::int64_t px, std::int64_t sz);

    /**
     * Candles of `iv` whose span overlaps [start, end] (`t <= end` and `T >= start`), oldest
     * first, at most the newest `limit` of them.
     */
    std::vector<candle> query(std::size_t market, candle_interval iv, std::int64_t start,
                              std::int64_t end, std::size_t limit) const;

private:
    struct tier {
        std::int64_t ms;
        std::size_t cap;
        std::deque<candle> buckets;
    };
    using tiers = std::array<tier, 4>;

    static void merge(tier& tr, candle const& c);
    void backfill(std::uint64_t seed, std::size_t i, market_spec const& s, std::int64_t end);

    mutable std::mutex m_;
    std::vector<tiers> markets_;
};

} // namespace gateway::mocks
