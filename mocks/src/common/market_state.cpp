#include "market_state.hpp"

#include "format.hpp"
#include "rng.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gateway::mocks {

namespace {
constexpr std::int64_t initial_trade_spacing_ms = 1500;

// Gaps between generated levels, in ticks: mostly adjacent, sometimes a hole.
std::int64_t level_gap(splitmix64& r) {
    switch (r.below(4)) {
    case 2:
        return 2;
    case 3:
        return 3;
    default:
        return 1;
    }
}
} // namespace

market_state::market_state(std::uint64_t seed, std::vector<market_spec> specs, std::int64_t now_ms,
                           unsigned initial_trades)
    : seed_(seed)
    , specs_(std::move(specs))
    , live_(specs_.size())
    , walk_state_(mix_seed(seed, 0x57a1c)) {
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        auto const& s = specs_[i];
        if (s.tick <= 0 || s.mark <= 0 || s.mark % s.tick != 0 || s.lot <= 0 ||
            s.mark > std::numeric_limits<std::int64_t>::max() / 1'000'000)
            throw std::invalid_argument("market_state: bad spec for " + s.symbol);
        if (s.complement_of && (*s.complement_of >= i || specs_[*s.complement_of].complement_of ||
                                specs_[*s.complement_of].px_scale != s.px_scale))
            throw std::invalid_argument("market_state: bad complement for " + s.symbol);
        index_.emplace(s.symbol, i);
        for (auto const& a : s.aliases)
            index_.emplace(a, i);
        live_[i].mark = s.mark;
        live_[i].changed_ms = now_ms;
        live_[i].next_trade_id = 10'000'000 + mix_seed(seed, i, 0x7d) % 90'000'000;
    }
    // A short history, so recent-trade endpoints are never empty.
    for (unsigned k = 0; k < initial_trades; ++k) {
        std::int64_t const t =
            now_ms - static_cast<std::int64_t>(initial_trades - k) * initial_trade_spacing_ms;
        for (std::size_t i = 0; i < specs_.size(); ++i)
            if (!specs_[i].complement_of)
                print_trades_locked(i, t, 1);
    }
}

std::optional<std::size_t> market_state::find(std::string_view symbol) const {
    auto const it = index_.find(std::string(symbol));
    if (it == index_.end())
        return std::nullopt;
    return it->second;
}

std::int64_t market_state::clamp_mark(std::size_t i, std::int64_t px) const {
    auto const& s = specs_[i];
    // Round to the nearest tick (half up).
    px = (px + s.tick / 2) / s.tick * s.tick;
    // Keep room for one level on each side inside the market's price range.
    std::int64_t const lo = (s.min_px > 0 ? s.min_px : s.tick) + s.tick;
    std::int64_t const hi =
        s.max_px > 0 ? s.max_px - s.tick : std::numeric_limits<std::int64_t>::max() / 1'000'000;
    return std::clamp(px, lo, hi);
}

std::int64_t market_state::mark_locked(std::size_t i) const {
    auto const& s = specs_[i];
    if (s.complement_of)
        return pow10(s.px_scale) - live_[*s.complement_of].mark;
    return live_[i].mark;
}

std::int64_t market_state::mark(std::size_t i) const {
    std::lock_guard lock(m_);
    return mark_locked(i);
}

bool market_state::pinned(std::size_t i) const {
    std::lock_guard lock(m_);
    auto const& s = specs_.at(i);
    return live_[s.complement_of ? *s.complement_of : i].pinned;
}

std::int64_t market_state::set_mark(std::size_t i, std::int64_t px) {
    std::lock_guard lock(m_);
    auto const& s = specs_.at(i);
    std::size_t const target = s.complement_of ? *s.complement_of : i;
    std::int64_t const wanted = s.complement_of ? pow10(s.px_scale) - px : px;
    auto& l = live_[target];
    l.mark = clamp_mark(target, wanted);
    l.pinned = true;
    ++l.version;
    return mark_locked(i);
}

std::uint64_t market_state::steps() const {
    std::lock_guard lock(m_);
    return steps_;
}

std::uint64_t market_state::version(std::size_t i) const {
    std::lock_guard lock(m_);
    auto const& s = specs_.at(i);
    return live_[s.complement_of ? *s.complement_of : i].version;
}

book_snapshot market_state::book(std::size_t i, std::size_t depth) const {
    std::lock_guard lock(m_);
    return book_locked(i, depth);
}

book_snapshot market_state::book_locked(std::size_t i, std::size_t depth) const {
    auto const& s = specs_.at(i);
    if (s.complement_of) {
        // A NO token's book is the YES book seen from the other side: YES asks at p are NO
        // bids at 1 - p and vice versa.
        book_snapshot const yes = book_locked(*s.complement_of, depth);
        std::int64_t const one = pow10(s.px_scale);
        book_snapshot no;
        no.version = yes.version;
        no.time_ms = yes.time_ms;
        for (auto const& l : yes.asks)
            no.bids.push_back({one - l.px, l.sz, l.n});
        for (auto const& l : yes.bids)
            no.asks.push_back({one - l.px, l.sz, l.n});
        return no;
    }
    auto const& l = live_[i];
    book_snapshot b;
    b.version = l.version;
    b.time_ms = l.changed_ms;
    std::int64_t const lo = s.min_px > 0 ? s.min_px : s.tick;
    std::int64_t const hi = s.max_px > 0 ? s.max_px : std::numeric_limits<std::int64_t>::max();
    auto level = [&](splitmix64& r, std::size_t k, std::int64_t px) {
        std::int64_t sz = s.lot * r.between(25, 200) / 100;
        // Deeper levels hold somewhat more, up to 5x the lot (so aggregated books stay sane).
        sz = sz * static_cast<std::int64_t>(100 + 8 * std::min<std::size_t>(k, 50)) / 100;
        return book_level{px, std::max<std::int64_t>(sz, 1),
                          static_cast<unsigned>(r.between(1, std::max(1u, s.max_orders)))};
    };
    splitmix64 rb(mix_seed(seed_, i, l.version, 1));
    std::int64_t px = l.mark - s.tick;
    for (std::size_t k = 0; k < depth && px >= lo; ++k) {
        b.bids.push_back(level(rb, k, px));
        px -= s.tick * level_gap(rb);
    }
    splitmix64 ra(mix_seed(seed_, i, l.version, 2));
    px = l.mark + s.tick;
    for (std::size_t k = 0; k < depth && px <= hi; ++k) {
        b.asks.push_back(level(ra, k, px));
        px += s.tick * level_gap(ra);
    }
    return b;
}

std::vector<trade> market_state::trades(std::size_t i, std::size_t limit) const {
    std::lock_guard lock(m_);
    auto const& s = specs_.at(i);
    std::size_t const src = s.complement_of ? *s.complement_of : i;
    auto const& d = live_[src].trades;
    std::size_t const n = std::min(limit, d.size());
    std::vector<trade> out(d.end() - static_cast<std::ptrdiff_t>(n), d.end());
    if (s.complement_of) {
        std::int64_t const one = pow10(s.px_scale);
        for (auto& t : out) {
            t.px = one - t.px;
            t.buyer_is_taker = !t.buyer_is_taker;
        }
    }
    return out;
}

void market_state::print_trades_locked(std::size_t i, std::int64_t now_ms, unsigned count) {
    auto const& s = specs_[i];
    auto& l = live_[i];
    splitmix64 r(walk_state_);
    walk_state_ = r.next();
    for (unsigned k = 0; k < count; ++k) {
        bool const buy = r.below(2) == 1;
        trade t{};
        t.id = l.next_trade_id++;
        t.time_ms = now_ms;
        t.px = buy ? l.mark + s.tick : l.mark - s.tick;
        t.sz = std::max<std::int64_t>(s.lot * r.between(5, 100) / 100, 1);
        t.buyer_is_taker = buy;
        t.entropy = r.next();
        push_trade_locked(i, t);
    }
}

void market_state::push_trade_locked(std::size_t i, trade const& t) {
    auto& l = live_[i];
    l.trades.push_back(t);
    if (l.trades.size() > trades_kept)
        l.trades.pop_front();
    if (listener_)
        listener_(i, t);
}

void market_state::print_trade(std::size_t i, std::int64_t time_ms, std::int64_t px,
                               std::int64_t sz, bool buyer_is_taker) {
    std::lock_guard lock(m_);
    auto& l = live_.at(i);
    trade t{};
    t.id = l.next_trade_id++;
    t.time_ms = time_ms;
    t.px = px;
    t.sz = sz;
    t.buyer_is_taker = buyer_is_taker;
    t.entropy = mix_seed(seed_, i, t.id, 0x7e1);
    push_trade_locked(i, t);
}

void market_state::step(std::int64_t now_ms) {
    std::lock_guard lock(m_);
    ++steps_;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        auto const& s = specs_[i];
        if (s.complement_of)
            continue;
        auto& l = live_[i];
        splitmix64 r(walk_state_);
        walk_state_ = r.next();
        if (!l.pinned) {
            // Relative move u/1e6 of the mark, rounded stochastically to whole ticks so that
            // coarse markets (a 0.01 tick on a 0.5 price) still move, without drift.
            auto const ppm = static_cast<std::int64_t>(s.step_ppm);
            std::int64_t const u = r.between(-ppm, ppm);
            std::int64_t const num = l.mark * u;
            std::int64_t const den = 1'000'000 * s.tick;
            std::int64_t ticks = num / den;
            std::int64_t const rem = num % den;
            if (rem != 0 && static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(den))) <
                                (rem < 0 ? -rem : rem))
                ticks += num < 0 ? -1 : 1;
            l.mark = clamp_mark(i, l.mark + ticks * s.tick);
        }
        ++l.version;
        l.changed_ms = now_ms;
        print_trades_locked(i, now_ms, static_cast<unsigned>(r.below(3)));
    }
}

void market_state::set_trade_listener(trade_listener listener) {
    std::lock_guard lock(m_);
    listener_ = std::move(listener);
}

} // namespace gateway::mocks
