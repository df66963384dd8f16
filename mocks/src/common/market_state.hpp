#pragma once
/**
 * @file market_state.hpp
 * Seeded, deterministic market data shared by every mock: a mark price per market that follows
 * a random walk, a resting-liquidity order book generated around the mark, and recent trades.
 *
 * Prices and sizes are scaled integers (`px_scale`, `sz_scale` decimals); routers format them
 * in their upstream's style. The same seed and the same sequence of `step`/`set_mark` calls
 * give the same books, trades and marks.
 *
 * @par Thread safety
 * All members are safe to call concurrently (one internal mutex, never held across I/O).
 */
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gateway::mocks {

/// One market (a perp, a spot pair or a prediction-market outcome token).
struct market_spec {
    std::string symbol; ///< the key the upstream uses ("BTC", "BTCUSDT", a token id)
    std::vector<std::string>
        aliases;                  ///< other names accepted by `/__mock/mark` ("BTC" for BTCUSDT)
    unsigned px_scale = 0;        ///< decimals of price mantissas
    std::int64_t tick = 1;        ///< price tick, px_scale units
    unsigned sz_scale = 0;        ///< decimals of size mantissas
    std::int64_t mark = 0;        ///< initial mark, px_scale units (a multiple of tick)
    std::int64_t min_px = 0;      ///< lowest price a level may have (0: one tick)
    std::int64_t max_px = 0;      ///< highest price a level may have (0: unbounded)
    std::uint32_t step_ppm = 500; ///< largest relative move of one walk step, in ppm
    std::int64_t lot = 1;         ///< typical size resting at one level, sz_scale units
    unsigned max_orders = 5;      ///< most resting orders at one level
    /// Complement of another market (a NO token): its mark is `10^px_scale - mark(of)` and its
    /// book and trades mirror that market's. It never walks on its own.
    std::optional<std::size_t> complement_of;
};

struct book_level {
    std::int64_t px;
    std::int64_t sz;
    unsigned n; ///< resting orders at this price
};

struct book_snapshot {
    std::vector<book_level> bids; ///< best (highest) first
    std::vector<book_level> asks; ///< best (lowest) first
    std::uint64_t version = 0;    ///< bumps whenever the book changes
    std::int64_t time_ms = 0;     ///< when it last changed
};

struct trade {
    std::uint64_t id; ///< per-market sequence number
    std::int64_t time_ms;
    std::int64_t px;
    std::int64_t sz;
    bool buyer_is_taker;
    std::uint64_t entropy; ///< random bits routers may turn into hashes or addresses
};

class market_state {
public:
    /// Trades kept per market (the newest); `trades` never returns more.
    static constexpr std::size_t trades_kept = 1000;
    /// Trades printed per market at construction, 1.5 s apart before `now_ms`, unless told.
    static constexpr unsigned default_initial_trades = 40;

    /// Called for every trade printed after it is set; runs under the state's lock, so it must
    /// not call back into this object.
    using trade_listener = std::function<void(std::size_t market, trade const&)>;

    market_state(std::uint64_t seed, std::vector<market_spec> specs, std::int64_t now_ms,
                 unsigned initial_trades = default_initial_trades);

    std::size_t size() const noexcept { return specs_.size(); }
    /// Immutable after construction; safe without the lock.
    market_spec const& spec(std::size_t i) const { return specs_.at(i); }
    /// By symbol or alias (exact match).
    std::optional<std::size_t> find(std::string_view symbol) const;

    std::int64_t mark(std::size_t i) const;
    /// Moves a mark (rounded to the tick, clamped into the market's range) and pins it: it no
    /// longer walks. Returns the mark applied.
    std::int64_t set_mark(std::size_t i, std::int64_t px);
    bool pinned(std::size_t i) const;

    /// The version of a market's generated book (bumps on every walk step and `set_mark`).
    std::uint64_t version(std::size_t i) const;

    /// The book, at most `depth` levels per side.
    book_snapshot book(std::size_t i, std::size_t depth) const;
    /// The newest `limit` trades, oldest first.
    std::vector<trade> trades(std::size_t i, std::size_t limit) const;
    /// Number of walk steps taken so far.
    std::uint64_t steps() const;

    /// One walk step at time `now_ms`: unpinned marks move, a few trades print everywhere.
    void step(std::int64_t now_ms);

    /// Prints one trade made elsewhere (e.g. a matching engine): it joins the recent trades
    /// and reaches the listener like a walk trade. `px`/`sz` in the market's scales; the
    /// entropy derives from the seed and the trade id, so the walk's stream is untouched.
    void print_trade(std::size_t i, std::int64_t time_ms, std::int64_t px, std::int64_t sz,
                     bool buyer_is_taker);

    /// Replaces the trade listener (an empty function removes it).
    void set_trade_listener(trade_listener listener);

private:
    struct live {
        std::int64_t mark = 0;
        bool pinned = false;
        std::uint64_t version = 0;
        std::int64_t changed_ms = 0;
        std::deque<trade> trades;
        std::uint64_t next_trade_id = 0;
    };

    std::int64_t clamp_mark(std::size_t i, std::int64_t px) const;
    std::int64_t mark_locked(std::size_t i) const;
    book_snapshot book_locked(std::size_t i, std::size_t depth) const;
    void print_trades_locked(std::size_t i, std::int64_t now_ms, unsigned count);
    void push_trade_locked(std::size_t i, trade const& t);

    std::uint64_t seed_;
    std::vector<market_spec> specs_;
    std::unordered_map<std::string, std::size_t> index_;
    mutable std::mutex m_;
    std::vector<live> live_;
    std::uint64_t walk_state_;
    std::uint64_t steps_ = 0;
    trade_listener listener_;
};

} // namespace gateway::mocks
