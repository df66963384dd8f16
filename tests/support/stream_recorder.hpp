#pragma once
// For tests of gateway::stream::stream_client: a recorder of everything its handlers report
// (read from the test thread under a mutex, waited for with `eventually`), and a runner that
// drives one client on its own io_context thread so a Catch2 test calls it synchronously.
// No Catch2 here: gateway_bench may include it.
#include "support/eventually.hpp"

#include <gateway/stream/client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace gateway::test {

/// A subscription of channel `c` with the fields that channel takes: symbol BTC, `depth`,
/// interval 1m, `address`.
inline stream::subscription sample_subscription(stream::channel c, std::string provider,
                                                unsigned depth, std::string const& address) {
    stream::subscription s;
    s.channel = c;
    s.provider = std::move(provider);
    if (c == stream::channel::trades || c == stream::channel::orderbook ||
        c == stream::channel::candles)
        s.symbol = "BTC";
    if (c == stream::channel::orderbook)
        s.depth = depth;
    if (c == stream::channel::candles)
        s.interval = "1m";
    if (c == stream::channel::orders || c == stream::channel::fills)
        s.address = address;
    return s;
}

struct stream_recorder {
    template <class T>
    struct event {
        stream::subscription sub;
        T value;
    };
    struct book_event {
        stream::subscription sub;
        orderbook book;
        std::uint64_t seq = 0;
    };
    struct gap_event {
        stream::subscription sub;
        std::uint64_t expected = 0;
        std::uint64_t got = 0;
    };
    struct error_event {
        std::string id; ///< the frame's id as JSON text (`null` when none)
        api_error error;
    };

    mutable std::mutex m;
    std::vector<event<price_map>> prices;
    std::vector<event<std::vector<trade>>> trades;
    std::vector<book_event> books;
    std::vector<event<std::vector<candle>>> candles;
    std::vector<event<std::vector<open_order>>> orders;
    std::vector<event<std::vector<fill>>> fills;
    std::vector<stream::status_event> statuses;
    std::vector<gap_event> gaps;
    std::vector<error_event> errors;
    std::optional<std::optional<api_error>> closed; ///< set once `closed` ran

    /// Handlers that record into this object (which must outlive the client).
    stream::stream_handlers handlers() {
        stream::stream_handlers h;
        h.prices = [this](auto const& s, auto const& v) {
            add(prices, {s, v});
        };
        h.trades = [this](auto const& s, auto const& v) {
            add(trades, {s, v});
        };
        h.book = [this](auto const& s, auto const& b, std::uint64_t seq) {
            add(books, {s, b, seq});
        };
        h.candles = [this](auto const& s, auto const& v) {
            add(candles, {s, v});
        };
        h.orders = [this](auto const& s, auto const& v) {
            add(orders, {s, v});
        };
        h.fills = [this](auto const& s, auto const& v) {
            add(fills, {s, v});
        };
        h.status = [this](stream::status_event const& e) {
            add(statuses, e);
        };
        h.gap = [this](auto const& s, std::uint64_t expected, std::uint64_t got) {
            add(gaps, {s, expected, got});
        };
        h.error = [this](boost::json::value const& id, api_error const& e) {
            add(errors, {boost::json::serialize(id), e});
        };
        h.closed = [this](std::optional<api_error> const& why) {
            std::lock_guard lock(m);
            closed = why;
        };
        return h;
    }

    /// `f(*this)` under the lock.
    template <class F>
    auto with(F&& f) const {
        std::lock_guard lock(m);
        return f(*this);
    }

    /// Waits until `pred(*this)` holds (under the lock), at most `within`.
    template <class P>
    bool wait_for(P pred, std::chrono::milliseconds within = std::chrono::seconds(30)) const {
        return eventually([&] { return with(pred); }, within);
    }

private:
    template <class E>
    void add(std::vector<E>& v, E e) {
        std::lock_guard lock(m);
        v.push_back(std::move(e));
    }
};

/// One stream client on its own io_context thread; `run` awaits one of its calls.
struct stream_runner {
    explicit stream_runner(stream::client_options options, stream::stream_handlers handlers = {})
        : client(stream::stream_client::create(ioc.get_executor(), std::move(options),
                                               std::move(handlers))
                     .value())
        , thread([this] { ioc.run(); }) {}

    ~stream_runner() {
        client.close();
        guard.reset();
        // The close handshake may wait for a peer that is gone: the test is over, stop.
        ioc.stop();
        thread.join();
    }

    stream_runner(stream_runner const&) = delete;
    stream_runner& operator=(stream_runner const&) = delete;

    /// Awaits `a` on the client's io_context and returns its value.
    template <class T>
    T run(boost::asio::awaitable<T> a) {
        return boost::asio::co_spawn(ioc, std::move(a), boost::asio::use_future).get();
    }

    result<void> connect() { return run(client.connect()); }
    result<stream::subscription> subscribe(stream::subscription s) {
        return run(client.subscribe(std::move(s)));
    }
    result<stream::subscription> unsubscribe(stream::subscription s) {
        return run(client.unsubscribe(std::move(s)));
    }
    result<void> ping() { return run(client.ping()); }

    boost::asio::io_context ioc;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard{
        ioc.get_executor()};
    stream::stream_client client;
    std::thread thread;
};

} // namespace gateway::test
