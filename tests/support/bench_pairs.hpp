#pragma once
// What the trading benchmarks share (not tests): JSON and form requests, a paired latency
// measurement of two request sources over their own keep-alive connections, and a per-second
// counter for one-core throughput.
#include <gateway/net/http_client.hpp>
#include <gateway/net/url.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http/field.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gateway::test {

inline net::http_request bench_request(boost::beast::http::verb method, std::string target,
                                       std::string body, std::string const& content_type,
                                       std::string const& key = {}) {
    namespace http = boost::beast::http;
    net::http_request req{method, std::move(target), 11};
    req.set(http::field::content_type, content_type);
    if (!key.empty())
        req.set("X-API-Key", key);
    req.body() = std::move(body);
    req.prepare_payload();
    return req;
}

inline net::http_request bench_post_json(std::string target, std::string body,
                                         std::string const& key = {}) {
    return bench_request(boost::beast::http::verb::post, std::move(target), std::move(body),
                         "application/json", key);
}

using bench_make_fn = std::function<net::http_request()>;

/**
 * For i in [0, n): makes and sends `a()` to `base_a`, then `b()` to `base_b` (skipped when
 * empty), each over its own keep-alive client; only the round trip is timed (making a request,
 * signing included, is not). Latencies in µs; the first eleventh warms up and is dropped. A
 * non-200 answer is reported once on stderr.
 */
inline std::pair<std::vector<double>, std::vector<double>> measure_pair(std::string const& base_a,
                                                                        bench_make_fn a,
                                                                        std::string const& base_b,
                                                                        bench_make_fn b, int n) {
    namespace asio = boost::asio;
    auto const url_a = *net::url::parse(base_a);
    auto const url_b = *net::url::parse(base_b);
    asio::io_context ioc;
    net::http_client client_a(ioc.get_executor());
    net::http_client client_b(ioc.get_executor());
    std::pair<std::vector<double>, std::vector<double>> out;
    int failures = 0;
    auto report = [&](auto const& answer) {
        bool const bad = !answer || answer->result_int() != 200;
        if (bad && failures++ == 0) {
            if (answer)
                std::fprintf(stderr, "first failure: %u %s\n", answer->result_int(),
                             answer->body().c_str());
            else
                std::fprintf(stderr, "first failure: no answer\n");
        }
    };
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            for (int i = 0; i < n; ++i) {
                for (int side = 0; side < 2; ++side) {
                    auto const& f = side == 0 ? a : b;
                    if (!f)
                        continue;
                    auto req = f();
                    auto& client = side == 0 ? client_a : client_b;
                    auto const& url = side == 0 ? url_a : url_b;
                    auto const t0 = std::chrono::steady_clock::now();
                    auto answer = co_await client.async_request(url, std::move(req));
                    auto const t1 = std::chrono::steady_clock::now();
                    report(answer);
                    if (i >= n / 11)
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

/// Calls `f(i)` for i in [0, n) on this thread; calls per second.
template <class F>
double per_second(int n, F f) {
    auto const t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        f(i);
    auto const t1 = std::chrono::steady_clock::now();
    return n / std::chrono::duration<double>(t1 - t0).count();
}

} // namespace gateway::test
