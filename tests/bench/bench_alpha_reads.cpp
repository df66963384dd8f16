// Benchmark (not a test): the latency the gateway adds to an alpha read over calling mock-alpha
// directly. Both sides use one keep-alive connection and the same HTTP client; requests are
// sequential, so the numbers are per-request latencies, not throughput.
//
//   build/tests/gateway_bench alpha_reads [requests]
//
// Pairs measured (gateway cache disabled, so every gateway request makes its upstream call):
//   spot balances  GET /v1/spot/alpha/balances/{a}       vs POST /info spotClearinghouseState
//   orderbook      GET /v1/perps/alpha/markets/BTC/orderbook vs POST /info l2Book
// and, with the cache on, the cached prices read (GET /v1/perps/alpha/prices).
// Prints p50 / p99 in microseconds and the added latency (gateway - direct) at each.
#include "support/latency.hpp"
#include "support/test_gateway.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gateway_bench::alpha_reads {

namespace {

using gateway::test::percentiles;
using gateway::test::summarize;

namespace asio = boost::asio;
namespace http = boost::beast::http;
using gateway::net::http_client;
using gateway::net::http_request;

/// Sends `make()` `n` times over one keep-alive client; returns each latency in µs.
template <class Make>
std::vector<double> measure(std::string const& base_text, int n, Make make) {
    auto const base = *gateway::net::url::parse(base_text);
    asio::io_context ioc;
    http_client client(ioc.get_executor());
    std::vector<double> out;
    int failures = 0;
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            for (int i = 0; i < n + n / 10; ++i) { // the first tenth warms up and is dropped
                http_request req = make();
                auto const t0 = std::chrono::steady_clock::now();
                auto answer = co_await client.async_request(base, std::move(req));
                auto const t1 = std::chrono::steady_clock::now();
                if (!answer || answer->result_int() != 200)
                    ++failures;
                if (i >= n / 10)
                    out.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            }
            client.clear_pool();
        },
        asio::detached);
    ioc.run();
    if (failures)
        std::fprintf(stderr, "warning: %d requests failed\n", failures);
    return out;
}

http_request post_info(std::string body) {
    http_request req{http::verb::post, "/info", 11};
    req.set(http::field::content_type, "application/json");
    req.body() = std::move(body);
    req.prepare_payload();
    return req;
}

http_request get(std::string target, std::string const& key) {
    http_request req{http::verb::get, std::move(target), 11};
    req.set("X-API-Key", key);
    return req;
}

void report(char const* name, percentiles direct, percentiles via) {
    std::printf("%-14s direct p50 %7.0f us  p99 %7.0f us | gateway p50 %7.0f us  p99 %7.0f us | "
                "added p50 %6.0f us  p99 %6.0f us\n",
                name, direct.p50, direct.p99, via.p50, via.p99, via.p50 - direct.p50,
                via.p99 - direct.p99);
}

} // namespace

int run(int argc, char** argv) {
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    std::string const user = "0x1111111111111111111111111111111111111111";
    {
        // The upstream's 1200 weight per minute would stop a benchmark: off on both sides.
        gateway::test::test_gateway gw(
            [](gateway::server::server_config& cfg) {
                cfg.market_cache_ttl = std::chrono::milliseconds(0);
                cfg.providers["alpha"].options["budget"] = "100000000";
            },
            [](gateway::mocks::mock_options& m) { m.rate_limits = false; });
        auto const key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
        std::string const mock = gw.alpha->base_url();
        // Markets learned before measuring.
        measure(gw.base_url, 10, [&] { return get("/v1/rwas/alpha/dexes", key); });

        auto direct = measure(mock, n, [&] {
            return post_info(R"({"type":"spotClearinghouseState","user":")" + user + R"("})");
        });
        auto via =
            measure(gw.base_url, n, [&] { return get("/v1/spot/alpha/balances/" + user, key); });
        report("spot balances", summarize(direct), summarize(via));

        direct = measure(mock, n, [&] { return post_info(R"({"type":"l2Book","coin":"BTC"})"); });
        via = measure(gw.base_url, n,
                      [&] { return get("/v1/perps/alpha/markets/BTC/orderbook", key); });
        report("orderbook", summarize(direct), summarize(via));
    }
    {
        gateway::test::test_gateway gw( // default cache
            [](gateway::server::server_config& cfg) {
                cfg.providers["alpha"].options["budget"] = "100000000";
            },
            [](gateway::mocks::mock_options& m) { m.rate_limits = false; });
        auto const key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
        auto direct =
            measure(gw.alpha->base_url(), n, [&] { return post_info(R"({"type":"allMids"})"); });
        auto via = measure(gw.base_url, n, [&] { return get("/v1/perps/alpha/prices", key); });
        report("prices cached", summarize(direct), summarize(via));
    }
    return 0;
}

} // namespace gateway_bench::alpha_reads
