#pragma once
// The upstream economy of CONTRACT §3: a weighted request budget per upstream (alpha: 1200
// weight per 60 s) and a cache that serves market-data reads for a short while and lets
// identical in-flight reads share one upstream call.
#include <gateway/result.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gateway::server {

/**
 * A sliding-window weight budget: at most `capacity` weight in any `window`. Requests are
 * booked first come, first served at the earliest instant the window allows, so a burst is
 * spread out instead of being refused, up to the wait a caller accepts.
 *
 * @par Thread safety
 * All members may be called concurrently.
 */
class weight_budget {
public:
    using clock = std::chrono::steady_clock;

    /// A booking counts for `window` + `guard`. The gateway books when it sends and the
    /// upstream counts when the request arrives, a little later and not always by the same
    /// delay: without a guard, a slot freed here exactly one window after a send can reach the
    /// upstream before the upstream's own entry has left its window, and draw a 429.
    weight_budget(std::uint32_t capacity, clock::duration window, clock::duration guard = {});

    /**
     * Books `weight` (capped at the capacity) at the earliest instant that keeps the window
     * within the capacity, never before an earlier booking. Returns the wait until then, or
     * nullopt (nothing booked) when that is more than `max_wait` away.
     */
    std::optional<clock::duration> reserve(std::uint32_t weight, clock::time_point now,
                                           clock::duration max_wait);
    /// Books `weight` now, whatever the window holds (costs only learned from an answer).
    void charge(std::uint32_t weight, clock::time_point now);
    /**
     * Follows the upstream's own count of the window's weight (e.g. `X-MBX-USED-WEIGHT-1M`):
     * when it is above the local count (another client of the same IP, a restart), the
     * difference is booked now, so the gateway never outruns the upstream's limit.
     */
    void observe_used(std::uint32_t upstream_used, clock::time_point now);
    /// How long until `weight` could be booked without waiting (Retry-After).
    clock::duration time_until(std::uint32_t weight, clock::time_point now) const;
    /// Weight booked in the window ending at `now` (bookings in the future included).
    std::uint32_t used(clock::time_point now) const;
    std::uint32_t capacity() const noexcept { return capacity_; }

private:
    /// The earliest instant `weight` fits; call with the lock held.
    clock::time_point earliest_locked(std::uint32_t weight, clock::time_point now) const;
    void purge_locked(clock::time_point now);

    std::uint32_t capacity_;
    clock::duration window_;
    mutable std::mutex m_;
    std::deque<std::pair<clock::time_point, std::uint32_t>> booked_; // ascending times
};

/**
 * CONTRACT §3 fair share: per account, at most `capacity` weight of an upstream's calls in any
 * `window` (the upstream's own window; `capacity` is `--budget-share` of its budget). Only
 * calls actually sent for the account are booked, at the instant they leave: a cached or
 * coalesced read costs nothing. Accounts that spent nothing within a window hold no memory.
 *
 * @par Thread safety
 * All members may be called concurrently.
 */
class account_shares {
public:
    using clock = std::chrono::steady_clock;

    account_shares(std::uint32_t capacity, clock::duration window);

    /// How long until `weight` (capped at the capacity) fits `account`'s share; zero: now.
    clock::duration time_until(std::int64_t account, std::uint32_t weight,
                               clock::time_point now) const;
    /// Books `weight` for `account` now if it fits its share; false (nothing booked) if not.
    bool try_take(std::int64_t account, std::uint32_t weight, clock::time_point now);
    /// Takes back a booking `try_take` made for a call that was not sent after all.
    void give_back(std::int64_t account, std::uint32_t weight);
    /// Books `weight` now whatever the share holds (weight learned from an answer).
    void charge(std::int64_t account, std::uint32_t weight, clock::time_point now);
    /// Weight booked for `account` in the window ending at `now`.
    std::uint32_t used(std::int64_t account, clock::time_point now) const;
    std::uint32_t capacity() const noexcept { return capacity_; }

private:
    using bookings = std::deque<std::pair<clock::time_point, std::uint32_t>>; // ascending
    std::uint64_t used_locked(bookings const& b, clock::time_point now) const;
    clock::duration time_until_locked(bookings const& b, std::uint32_t weight,
                                      clock::time_point now) const;
    void sweep_locked(clock::time_point now);

    std::uint32_t capacity_;
    clock::duration window_;
    mutable std::mutex m_;
    std::unordered_map<std::int64_t, bookings> booked_;
    clock::time_point last_sweep_{};
};

/**
 * Single-flight reads with a short cache: `get(key, ttl, fetch)` answers from a value younger
 * than `ttl`, else joins the fetch already running for `key`, else starts `fetch`. Fetches run
 * detached on the cache's executor, so a caller that goes away never cancels a read others wait
 * for. Only successes are cached; an error is shared by the callers of that one flight.
 * `ttl` 0 still coalesces concurrent identical reads (account reads: the key holds the
 * address, so nothing is ever shared across addresses).
 *
 * @par Thread safety
 * All members may be called concurrently from any executor.
 */
template <class T>
class coalescing_cache {
public:
    using value_ptr = std::shared_ptr<result<T> const>;
    using fetch_fn = std::function<boost::asio::awaitable<result<T>>()>;
    using clock = std::chrono::steady_clock;

    /// A fetch in progress (or done) that callers wait on.
    class flight {
    public:
        /// Waits for the answer (immediately when it is there).
        boost::asio::awaitable<value_ptr> wait();

    private:
        friend class coalescing_cache;
        using channel =
            boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>;
        std::mutex m_;
        value_ptr value_;
        std::vector<std::shared_ptr<channel>> waiters_;
        void finish(value_ptr v);
    };

    /// @param time the clock of TTLs (tests inject one).
    explicit coalescing_cache(boost::asio::any_io_executor ex, std::size_t max_entries = 4096,
                              util::clock const& time = util::default_clock())
        : ex_(std::move(ex))
        , max_entries_(max_entries)
        , time_(time) {}

    /// Starts (or joins, or answers from cache) the read of `key`; `wait()` on the result.
    std::shared_ptr<flight> start(std::string const& key, std::chrono::milliseconds ttl,
                                  fetch_fn fetch);
    /// `start` then `wait`.
    boost::asio::awaitable<value_ptr> get(std::string const& key, std::chrono::milliseconds ttl,
                                          fetch_fn fetch) {
        auto f = start(key, ttl, std::move(fetch));
        co_return co_await f->wait();
    }
    /// Drops every cached value (in-flight reads finish normally).
    void clear();
    /// Whether `start(key, ...)` would answer without a fetch of its own: a fresh value or a
    /// flight in progress (an answer another caller paid for).
    bool joinable(std::string const& key) const;
    /// A flight that is already over with `value` (an answer refused before any fetch).
    static std::shared_ptr<flight> finished(result<T> value);

private:
    /// The detached fetch. A static coroutine with by-value parameters: GCC 12 mishandles
    /// lambda coroutines with captures (they were destroyed twice).
    static boost::asio::awaitable<void> run_flight(coalescing_cache* self, std::string key,
                                                   std::chrono::milliseconds ttl,
                                                   std::shared_ptr<flight> f, fetch_fn fetch);

    struct entry {
        std::shared_ptr<flight> current; ///< done or in progress
        bool done = false;
        clock::time_point fresh_until{};
    };

    boost::asio::any_io_executor ex_;
    std::size_t max_entries_;
    util::clock const& time_;
    mutable std::mutex m_;
    std::unordered_map<std::string, entry> entries_;
};

// ---------------------------------------------------------------------------------------------

template <class T>
boost::asio::awaitable<typename coalescing_cache<T>::value_ptr>
coalescing_cache<T>::flight::wait() {
    auto const ex = co_await boost::asio::this_coro::executor;
    std::shared_ptr<channel> ch;
    {
        std::lock_guard lock(m_);
        if (value_)
            co_return value_;
        ch = std::make_shared<channel>(ex, 1);
        waiters_.push_back(ch);
    }
    // finish() sends into the buffered channel, so a send before this receive is not lost.
    boost::system::error_code ec;
    auto token = boost::asio::redirect_error(boost::asio::use_awaitable, ec);
    co_await ch->async_receive(token);
    std::lock_guard lock(m_);
    co_return value_;
}

template <class T>
void coalescing_cache<T>::flight::finish(value_ptr v) {
    std::vector<std::shared_ptr<channel>> waiters;
    {
        std::lock_guard lock(m_);
        value_ = std::move(v);
        waiters.swap(waiters_);
    }
    for (auto& w : waiters)
        w->try_send(boost::system::error_code{});
}

template <class T>
std::shared_ptr<typename coalescing_cache<T>::flight>
coalescing_cache<T>::start(std::string const& key, std::chrono::milliseconds ttl, fetch_fn fetch) {
    auto const now = time_.steady_now();
    std::shared_ptr<flight> f;
    {
        std::lock_guard lock(m_);
        auto it = entries_.find(key);
        if (it != entries_.end()) {
            if (!it->second.done || it->second.fresh_until > now)
                return it->second.current;
        }
        if (entries_.size() >= max_entries_)
            std::erase_if(entries_, [&](auto const& kv) {
                return kv.second.done && kv.second.fresh_until <= now;
            });
        f = std::make_shared<flight>();
        entries_[key] = entry{f, false, {}};
    }
    // Each flight on its own strand: the HTTP client's handlers (read, deadline) must not run
    // concurrently, and the cache's executor may be a multi-threaded io_context.
    boost::asio::co_spawn(boost::asio::make_strand(ex_),
                          run_flight(this, key, ttl, f, std::move(fetch)), boost::asio::detached);
    return f;
}

// Coroutine parameters are taken by value on purpose: they are copied into the frame.
template <class T>
boost::asio::awaitable<void>
// cppcheck-suppress passedByValue
coalescing_cache<T>::run_flight(coalescing_cache* self, std::string key,
                                std::chrono::milliseconds ttl, std::shared_ptr<flight> f,
                                fetch_fn fetch) {
    value_ptr v;
    try {
        auto answer = co_await fetch();
        v = std::make_shared<result<T> const>(std::move(answer));
    } catch (std::exception const&) {
        v = std::make_shared<result<T> const>(make_error(errc::internal_error, "Internal error."));
    }
    {
        std::lock_guard lock(self->m_);
        auto it = self->entries_.find(key);
        if (it != self->entries_.end() && it->second.current == f) {
            if (*v && ttl.count() > 0) {
                it->second.done = true;
                it->second.fresh_until = self->time_.steady_now() + ttl;
            } else {
                self->entries_.erase(it);
            }
        }
    }
    f->finish(std::move(v));
}

template <class T>
bool coalescing_cache<T>::joinable(std::string const& key) const {
    auto const now = time_.steady_now();
    std::lock_guard lock(m_);
    auto it = entries_.find(key);
    return it != entries_.end() && (!it->second.done || it->second.fresh_until > now);
}

template <class T>
std::shared_ptr<typename coalescing_cache<T>::flight>
coalescing_cache<T>::finished(result<T> value) {
    auto f = std::make_shared<flight>();
    f->finish(std::make_shared<result<T> const>(std::move(value)));
    return f;
}

template <class T>
void coalescing_cache<T>::clear() {
    std::lock_guard lock(m_);
    std::erase_if(entries_, [](auto const& kv) { return kv.second.done; });
}

} // namespace gateway::server
