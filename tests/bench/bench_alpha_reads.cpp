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
#include "bench/bench_common.hpp"
#include "support/test_gateway.hpp"

#include <chrono>
#include <cstdlib>
#include <string>

namespace gateway_bench::alpha_reads {

namespace {

http_request post_info(std::string body) {
    return post_json("/info", std::move(body));
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
        report("spot balances", direct, via);

        direct = measure(mock, n, [&] { return post_info(R"({"type":"l2Book","coin":"BTC"})"); });
        via = measure(gw.base_url, n,
                      [&] { return get("/v1/perps/alpha/markets/BTC/orderbook", key); });
        report("orderbook", direct, via);
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
        report("prices cached", direct, via);
    }
    return 0;
}

} // namespace gateway_bench::alpha_reads
