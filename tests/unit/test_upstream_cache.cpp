// The upstream economy (CONTRACT §3): the sliding-window weight budget with an injected clock,
// and the coalescing cache driven on a real io_context.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "upstream/cache.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>

using gateway::server::coalescing_cache;
using gateway::server::weight_budget;
using namespace std::chrono_literals;
namespace asio = boost::asio;

TEST_CASE("weight_budget books up to the capacity per window, then spreads or refuses",
          "[unit][upstream]") {
    weight_budget b(100, 60s);
    auto const t0 = weight_budget::clock::time_point{} + 1000s;
    for (int i = 0; i < 5; ++i) {
        auto d = b.reserve(20, t0, 1s);
        REQUIRE(d);
        CHECK(*d == 0s);
    }
    CHECK(b.used(t0) == 100);
    // Full: the next slot opens when the first booking leaves the window, 60 s later.
    CHECK_FALSE(b.reserve(20, t0, 1s));
    CHECK(b.time_until(20, t0) == 60s);
    CHECK(b.used(t0) == 100); // a refusal books nothing

    SECTION("half a second before a slot frees, a caller accepting 1 s waits for it") {
        auto const near = t0 + 59500ms;
        auto d = b.reserve(20, near, 1s);
        REQUIRE(d);
        CHECK(*d == 500ms);
        // First come, first served: a later caller queues behind that booking.
        CHECK(b.time_until(1, near) >= 500ms);
    }

    SECTION("after the window everything is available again") {
        auto const later = t0 + 60s;
        CHECK(b.used(later) == 0);
        auto d = b.reserve(100, later, 0s);
        REQUIRE(d);
        CHECK(*d == 0s);
    }

    SECTION("charges learned after an answer count against the window") {
        weight_budget c(100, 60s);
        REQUIRE(c.reserve(20, t0, 0s));
        c.charge(75, t0 + 1s);
        CHECK(c.used(t0 + 1s) == 95);
        CHECK_FALSE(c.reserve(20, t0 + 2s, 1s));
        CHECK(c.time_until(20, t0 + 2s) == 58s); // when the first 20 leave
    }

    SECTION("with a guard, a booking outlives the window by it: the upstream counts on "
            "arrival, after the send") {
        weight_budget g(100, 60s, 600ms);
        REQUIRE(g.reserve(100, t0, 0s));
        CHECK(g.time_until(1, t0) == 60600ms);
        CHECK(g.used(t0 + 60s) == 100);
        CHECK_FALSE(g.reserve(1, t0 + 60s, 0s));
        auto d = g.reserve(1, t0 + 60s, 1s);
        REQUIRE(d);
        CHECK(*d == 600ms);
        CHECK(g.used(t0 + 60600ms) == 1);
    }

    SECTION("a weight above the capacity is capped rather than refused forever") {
        weight_budget c(100, 60s);
        auto d = c.reserve(500, t0, 0s);
        REQUIRE(d);
        CHECK(c.used(t0) == 100);
    }
}

namespace {

/// Runs `body` as a coroutine on `ioc` to completion.
template <class F>
void run(asio::io_context& ioc, F body) {
    std::exception_ptr failure;
    asio::co_spawn(ioc, body, [&](std::exception_ptr e) { failure = e; });
    ioc.run();
    ioc.restart();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace

TEST_CASE("coalescing_cache: one fetch for concurrent identical keys, TTL, errors not cached",
          "[unit][upstream]") {
    asio::io_context ioc;
    coalescing_cache<int> cache(ioc.get_executor());
    std::string const key = "k";
    std::atomic<int> fetches{0};
    // A fetch that takes a little while, so the readers overlap it.
    auto slow = [&](int value) {
        return [&, value]() -> asio::awaitable<gateway::result<int>> {
            ++fetches;
            asio::steady_timer t(co_await asio::this_coro::executor, 20ms);
            co_await t.async_wait(asio::use_awaitable);
            co_return value;
        };
    };

    SECTION("concurrent readers of one key share the flight") {
        std::vector<int> seen;
        run(ioc, [&]() -> asio::awaitable<void> {
            std::vector<std::shared_ptr<coalescing_cache<int>::flight>> flights;
            for (int i = 0; i < 5; ++i)
                flights.push_back(cache.start(key, 0ms, slow(7)));
            for (auto& f : flights) {
                auto v = co_await f->wait();
                seen.push_back(**v);
            }
        });
        CHECK(fetches == 1);
        CHECK(seen == std::vector<int>(5, 7));
        // TTL 0: the next read fetches again.
        run(ioc, [&]() -> asio::awaitable<void> {
            // Named arguments: no temporaries inside a co_await expression (GCC 12).
            coalescing_cache<int>::fetch_fn f = slow(8);
            co_await cache.get(key, 0ms, f);
        });
        CHECK(fetches == 2);
    }

    SECTION("a value is served from cache within its TTL; other keys fetch") {
        int got = 0;
        run(ioc, [&]() -> asio::awaitable<void> {
            coalescing_cache<int>::fetch_fn f1 = slow(1), f2 = slow(2), f3 = slow(3);
            std::string const other = "other";
            co_await cache.get(key, 60s, f1);
            auto v = co_await cache.get(key, 60s, f2);
            got = **v;
            co_await cache.get(other, 60s, f3);
        });
        CHECK(got == 1);
        CHECK(fetches == 2);
    }

    SECTION("an error reaches every reader of its flight but is not cached") {
        auto failing = [&]() -> asio::awaitable<gateway::result<int>> {
            ++fetches;
            asio::steady_timer t(co_await asio::this_coro::executor, 20ms);
            co_await t.async_wait(asio::use_awaitable);
            co_return gateway::make_error(gateway::errc::upstream_error, "boom");
        };
        int errors = 0;
        run(ioc, [&]() -> asio::awaitable<void> {
            auto a = cache.start(key, 60s, failing);
            auto b = cache.start(key, 60s, failing);
            errors += !*co_await a->wait();
            errors += !*co_await b->wait();
            coalescing_cache<int>::fetch_fn f5 = slow(5);
            auto c = co_await cache.get(key, 60s, f5);
            CHECK(**c == 5);
        });
        CHECK(errors == 2);
        CHECK(fetches == 2);
    }
}

TEST_CASE("coalescing_cache: waiters on other threads are all woken", "[unit][upstream]") {
    asio::thread_pool pool(4);
    coalescing_cache<int> cache(pool.get_executor());
    std::atomic<int> fetches{0}, answered{0};
    auto fetch = [&]() -> asio::awaitable<gateway::result<int>> {
        ++fetches;
        asio::steady_timer t(co_await asio::this_coro::executor, 30ms);
        co_await t.async_wait(asio::use_awaitable);
        co_return 42;
    };
    for (int i = 0; i < 16; ++i)
        asio::co_spawn(
            asio::make_strand(pool),
            [&]() -> asio::awaitable<void> {
                std::string const key = "k";
                coalescing_cache<int>::fetch_fn f = fetch;
                auto v = co_await cache.get(key, 0ms, f);
                if (*v && **v == 42)
                    ++answered;
            },
            asio::detached);
    pool.join();
    CHECK(answered == 16);
    CHECK(fetches >= 1);
    CHECK(fetches <= 16);
}

TEST_CASE("account_shares: each account has its own share of the window", "[unit][upstream]") {
    using namespace std::chrono_literals;
    using clock = std::chrono::steady_clock;
    gateway::server::account_shares shares(300, 60s);
    auto const t0 = clock::time_point{} + 1000s;
    for (int i = 0; i < 15; ++i)
        REQUIRE(shares.try_take(1, 20, t0 + std::chrono::seconds(i)));
    CHECK(shares.used(1, t0 + 14s) == 300);
    // Past its share: refused, nothing booked; the wait is until the oldest call leaves.
    CHECK_FALSE(shares.try_take(1, 20, t0 + 14s));
    CHECK(shares.used(1, t0 + 14s) == 300);
    CHECK(shares.time_until(1, 20, t0 + 14s) == 46s);
    CHECK(shares.time_until(1, 40, t0 + 14s) == 47s);
    // Another account is untouched.
    CHECK(shares.time_until(2, 300, t0 + 14s) == clock::duration::zero());
    CHECK(shares.try_take(2, 20, t0 + 14s));
    // The oldest booking leaves the window: room for one more.
    CHECK(shares.try_take(1, 20, t0 + 60s));
    CHECK_FALSE(shares.try_take(1, 20, t0 + 60s));
    // A booking given back (the call was not sent) frees its weight.
    shares.give_back(1, 20);
    CHECK(shares.try_take(1, 20, t0 + 60s));
    // Weight learned from an answer is booked whatever the share holds.
    shares.charge(2, 500, t0 + 61s);
    CHECK(shares.used(2, t0 + 61s) == 520);
    CHECK_FALSE(shares.try_take(2, 1, t0 + 61s));
    CHECK(shares.time_until(2, 1, t0 + 61s) == 60s);
}
