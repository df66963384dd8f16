#pragma once
// What every benchmark of gateway_bench shares: request builders, the timed request loop and the
// report line. Each benchmark measures a pair: the same work sent to a mock directly and through
// the gateway, over one keep-alive connection each, sequentially, so the numbers are per-request
// latencies, not throughput.
#include "support/latency.hpp"

#include <gateway/net/http_client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gateway_bench {

using gateway::net::http_request;

/// The next request to send.
using make_fn = std::function<http_request()>;
/// The next requests to send, timed as one (a gateway read that stands for several upstream
/// calls is compared with the same calls made directly).
using sequence_fn = std::function<std::vector<http_request>()>;

inline http_request request(boost::beast::http::verb method, std::string target, std::string body,
                            std::string const& content_type, std::string const& key = {}) {
    http_request req{method, std::move(target), 11};
    req.set(boost::beast::http::field::content_type, content_type);
    if (!key.empty())
        req.set("X-API-Key", key);
    req.body() = std::move(body);
    req.prepare_payload();
    return req;
}

/// `GET target`, with the gateway API key when one is given.
inline http_request get(std::string target, std::string const& key = {}) {
    http_request req{boost::beast::http::verb::get, std::move(target), 11};
    if (!key.empty())
        req.set("X-API-Key", key);
    return req;
}

/// `POST target` with a JSON body.
inline http_request post_json(std::string target, std::string body, std::string const& key = {}) {
    return request(boost::beast::http::verb::post, std::move(target), std::move(body),
                   "application/json", key);
}

/// A sequence of one request.
inline sequence_fn one(make_fn make) {
    return [make = std::move(make)] {
        return std::vector<http_request>{make()};
    };
}

/// Whether an answer counts as a success (by default: status 200).
using accept_fn = std::function<bool(gateway::net::http_response const&)>;

/// How many rounds `measure_pair` makes for `n` measured ones (a tenth more to warm up).
inline int rounds(int n) noexcept {
    return n + n / 10;
}

/**
 * For each of `rounds(n)` rounds: makes and sends `a()` to `base_a`, then `b()` (when set) to
 * `base_b`, each side over its own keep-alive client. Only the round trips are timed; making the
 * requests (signing them, say) is not. The first tenth of the rounds warms up and is dropped.
 * Latencies in µs; an answer `accept` refuses (by default any but 200) is counted, and the first
 * one printed.
 */
inline std::pair<std::vector<double>, std::vector<double>>
measure_pair(std::string const& base_a, sequence_fn a, std::string const& base_b, sequence_fn b,
             int n, accept_fn const& accept = {}) {
    namespace asio = boost::asio;
    gateway::net::url const url_a = *gateway::net::url::parse(base_a);
    gateway::net::url const url_b = b ? *gateway::net::url::parse(base_b) : url_a;
    asio::io_context ioc;
    gateway::net::http_client client_a(ioc.get_executor());
    gateway::net::http_client client_b(ioc.get_executor());
    std::pair<std::vector<double>, std::vector<double>> out;
    int failures = 0;
    auto check = [&](auto const& answer) {
        bool const ok = answer && (accept ? accept(*answer) : answer->result_int() == 200);
        if (ok || failures++ != 0)
            return;
        if (answer)
            std::fprintf(stderr, "first failure: %u %s\n", answer->result_int(),
                         answer->body().substr(0, 300).c_str());
        else
            std::fprintf(stderr, "first failure: %s\n", answer.error().message.c_str());
    };
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            for (int i = 0; i < rounds(n); ++i) {
                for (int side = 0; side < 2; ++side) {
                    auto& make = side == 0 ? a : b;
                    if (!make)
                        continue;
                    auto sequence = make();
                    auto& client = side == 0 ? client_a : client_b;
                    auto const& url = side == 0 ? url_a : url_b;
                    auto const t0 = std::chrono::steady_clock::now();
                    for (auto& req : sequence)
                        check(co_await client.async_request(url, std::move(req)));
                    auto const t1 = std::chrono::steady_clock::now();
                    if (i >= n / 10)
                        (side == 0 ? out.first : out.second)
                            .push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                }
            }
            client_a.clear_pool();
            client_b.clear_pool();
        },
        asio::detached);
    ioc.run();
    if (failures)
        std::fprintf(stderr, "warning: %d requests failed\n", failures);
    return out;
}

/// `n` measured round trips of `make()` to `base` (latencies in µs).
inline std::vector<double> measure(std::string const& base, int n, make_fn make) {
    return measure_pair(base, one(std::move(make)), base, {}, n).first;
}

/// `n` measured runs of the sequences `make()` gives, each timed as one (latencies in µs).
inline std::vector<double> measure_sequences(std::string const& base, int n, sequence_fn make) {
    return measure_pair(base, std::move(make), base, {}, n).first;
}

/// One line: p50 and p99 of both sides and what the gateway adds at each.
inline void report(char const* name, gateway::test::percentiles const& direct,
                   gateway::test::percentiles const& via) {
    std::printf("%-18s direct p50 %7.0f us  p99 %7.0f us | gateway p50 %7.0f us  p99 %7.0f us | "
                "added p50 %6.0f us  p99 %6.0f us\n",
                name, direct.p50, direct.p99, via.p50, via.p99, via.p50 - direct.p50,
                via.p99 - direct.p99);
}

/// `report` of two samples.
inline void report(char const* name, std::vector<double> direct, std::vector<double> via) {
    report(name, gateway::test::summarize(std::move(direct)),
           gateway::test::summarize(std::move(via)));
}

/// Calls `f(i)` for i in [0, n) on this thread; calls per second.
template <class F>
double per_second(int n, F f) {
    auto const t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        f(i);
    auto const t1 = std::chrono::steady_clock::now();
    return n / std::chrono::duration<double>(t1 - t0).count();
}

} // namespace gateway_bench
