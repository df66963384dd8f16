// Issue 10's soak load: a steady mixed load against a running gatewayd on its embedded default
// (scripts/soak.sh starts it and samples its memory). Not a test: its numbers go in the note.
//
//   soak_load API_KEY BASE_URL SECONDS
//
// Four workers, each at a fixed pace, for SECONDS:
// - cached reads:    prices and the BTC order book (market data, served from the cache);
// - uncached reads:  the trading wallet's account summary and positions (never cached);
// - signed writes:   a limit buy 5% under the mid (it rests) and its cancel, signed here;
// - malformed:       an unknown path, an array as an order body, a bad candle interval, no key.
// Each minute it prints, per worker, the requests, the unexpected answers (a read or write that
// fails, or a malformed request not answered with its 4xx) and latency p50/p99 in ms.
#include <gateway/client/client.hpp>
#include <gateway/providers/alpha.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gateway_bench::soak_load {

namespace {

namespace sa = gateway::sign::alpha;
using clock_type = std::chrono::steady_clock;

/// One worker's samples of the current minute.
struct window {
    std::mutex m;
    std::vector<double> ms;
    std::size_t unexpected = 0;
    std::map<std::string, std::size_t> causes; ///< of the whole run

    void add(double latency_ms, std::string const& error) {
        std::lock_guard lock(m);
        ms.push_back(latency_ms);
        if (!error.empty()) {
            ++unexpected;
            ++causes[error];
        }
    }
    /// "n err p50 p99" and a reset.
    std::string take() {
        std::lock_guard lock(m);
        std::sort(ms.begin(), ms.end());
        auto pct = [&](double p) {
            return ms.empty() ? 0.0 : ms[std::min(ms.size() - 1, std::size_t(p * ms.size()))];
        };
        char buf[96];
        std::snprintf(buf, sizeof buf, "%6zu %4zu %7.2f %7.2f", ms.size(), unexpected, pct(0.5),
                      pct(0.99));
        ms.clear();
        unexpected = 0;
        return buf;
    }
};

/// Runs `step` every `period` until `stop`, recording each call's latency and outcome (what
/// went wrong; empty when nothing did).
void pace(std::atomic<bool> const& stop, std::chrono::milliseconds period, window& w,
          std::function<std::string()> const& step) {
    auto next = clock_type::now();
    while (!stop) {
        auto const t0 = clock_type::now();
        auto const error = step();
        w.add(std::chrono::duration<double, std::milli>(clock_type::now() - t0).count(), error);
        next += period;
        std::this_thread::sleep_until(next); // pacing the load, not synchronising a test
    }
}

/// "" for a value, else the error's code and message.
template <class R>
std::string outcome(R const& r) {
    return r ? std::string() : std::string(r.error().wire()) + ": " + r.error().message;
}

gateway::client make_client(std::string const& url, std::optional<std::string> key) {
    gateway::client_options o;
    o.base_url = url;
    o.api_key = std::move(key);
    return gateway::client::create(o).value();
}

/// Credits `wallet` on the embedded mock-alpha through its control API.
bool fund(gateway::client const& gw, std::string const& wallet) {
    auto alpha = gw.provider("alpha");
    if (!alpha || alpha->vertical_details.empty())
        return false;
    auto mock = make_client(alpha->vertical_details.front().base_url, std::nullopt);
    boost::json::value const body = {{"address", wallet}, {"balances", {{"USDC", "100000000"}}}};
    return mock.call(boost::beast::http::verb::post, "/__mock/accounts", {}, &body).has_value();
}

} // namespace

int run(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: soak_load API_KEY BASE_URL SECONDS\n";
        return 2;
    }
    std::string const key = argv[1];
    std::string const url = argv[2];
    auto const seconds = std::chrono::seconds(std::atoi(argv[3]));

    auto setup = make_client(url, key);
    sa::signer signer(gateway::sign::private_key::generate().value());
    std::string const wallet = signer.address().str();
    if (!fund(setup, wallet)) {
        std::cerr << "soak_load: could not fund the wallet on the embedded mock\n";
        return 1;
    }
    sa::market_rules btc;
    for (auto const& m : setup.markets(gateway::vertical::perps, "alpha").value())
        if (m.symbol == "BTC")
            btc = sa::rules_of(m, false);

    std::atomic<bool> stop{false};
    window cached, uncached, writes, malformed;
    std::vector<std::thread> workers;
    using namespace std::chrono_literals;

    workers.emplace_back([&] {
        auto c = make_client(url, key);
        bool book = false;
        pace(stop, 100ms, cached, [&] {
            book = !book;
            return book ? outcome(c.orderbook("alpha", "BTC")) : outcome(c.prices("alpha"));
        });
    });
    workers.emplace_back([&] {
        auto c = make_client(url, key);
        bool pos = false;
        pace(stop, 1000ms, uncached, [&] {
            pos = !pos;
            return pos ? outcome(c.positions("alpha", wallet))
                       : outcome(c.account("alpha", wallet));
        });
    });
    workers.emplace_back([&] {
        auto c = make_client(url, key);
        std::optional<std::string> resting;
        pace(stop, 1000ms, writes, [&]() -> std::string {
            if (resting) {
                gateway::cancel_order_request cancel;
                cancel.symbol = "BTC";
                cancel.order_id = *std::exchange(resting, std::nullopt);
                if (auto s = signer.sign(cancel, btc); !s)
                    return outcome(s);
                return outcome(c.cancel_order("alpha", cancel));
            }
            auto prices = c.prices("alpha");
            if (!prices)
                return outcome(prices);
            auto const bid = sa::market_order_price(prices->at("BTC"), gateway::side::sell, btc);
            if (!bid)
                return outcome(bid);
            gateway::place_order_request order;
            order.symbol = "BTC";
            order.side = gateway::side::buy;
            order.type = gateway::order_type::limit;
            order.size = gateway::decimal::parse("0.001").value();
            order.price = *bid;
            if (auto s = signer.sign(order, btc); !s)
                return outcome(s);
            auto placed = c.place_order("alpha", order);
            if (placed)
                resting = placed->order_id;
            return outcome(placed);
        });
    });
    workers.emplace_back([&] {
        auto c = make_client(url, key);
        auto anonymous = make_client(url, std::nullopt);
        int i = 0;
        pace(stop, 200ms, malformed, [&] {
            using gateway::errc;
            auto is = [](auto const& r, errc code) {
                return !r && r.error().code == code ? std::string() : "not " + outcome(r);
            };
            boost::json::value const array = boost::json::array{1, 2};
            switch (i++ % 4) {
            case 0:
                return is(c.call(boost::beast::http::verb::get, "/v1/perps/alpha/nothing"),
                          errc::not_found);
            case 1:
                return is(
                    c.call(boost::beast::http::verb::post, "/v1/perps/alpha/orders", {}, &array),
                    errc::invalid_json);
            case 2:
                return is(c.call(boost::beast::http::verb::get,
                                 "/v1/perps/alpha/markets/BTC/candles", {{"interval", "7m"}}),
                          errc::validation_error);
            default:
                return is(anonymous.prices("alpha"), errc::invalid_api_key);
            }
        });
    });

    std::cout << "minute | cached: n err p50 p99 | uncached: n err p50 p99 | writes: n err p50 "
                 "p99 | malformed: n err p50 p99\n";
    auto const start = clock_type::now();
    for (int minute = 1; clock_type::now() - start < seconds; ++minute) {
        std::this_thread::sleep_until(
            start + std::min<clock_type::duration>(std::chrono::minutes(minute), seconds));
        std::cout << minute << " | " << cached.take() << " | " << uncached.take() << " | "
                  << writes.take() << " | " << malformed.take() << std::endl;
    }
    stop = true;
    for (auto& t : workers)
        t.join();
    for (auto* w : {&cached, &uncached, &writes, &malformed})
        for (auto const& [cause, n] : w->causes)
            std::cout << "unexpected x" << n << ": " << cause << "\n";
    return 0;
}

} // namespace gateway_bench::soak_load
