// Benchmark (not a test): the latency the gateway adds to a beta read over calling mock-beta
// directly, measured as bench_alpha_reads does for alpha. Both sides use one keep-alive
// connection and the same HTTP client; requests are sequential, so the numbers are per-request
// latencies, not throughput.
//
//   build/tests/gateway_bench beta_reads [requests]
//
// Pairs measured, uncached (gateway cache disabled, so every gateway request makes its upstream
// call), gateway path first, then the direct call:
// - orderbook: GET /v1/perps/beta/markets/BTC/orderbook;
//   GET /fapi/v3/depth?symbol=BTCUSDT&limit=20
// - positions: GET /v1/perps/beta/account/{a}/positions; signed GET /fapi/v3/positionRisk
// - balances: GET /v1/spot/beta/balances/{a}; signed GET /api/v3/account
// (a direct signed request is signed before its clock starts; the gateway's signing is part of
// what it adds), and cached, with the default cache:
// - prices: GET /v1/perps/beta/prices; GET /fapi/v3/ticker/price
// Prints p50 / p99 in microseconds and the added latency (gateway - direct) at each.
#include "bench/bench_common.hpp"
#include "support/fetch.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/signing.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace gateway_bench::beta_reads {

namespace {

namespace http = boost::beast::http;
namespace w = gateway::wire::beta;

/// beta.md §3.2's published demo key: the gateway's read signer here, so direct requests can be
/// signed by the same signer the gateway uses.
constexpr char const* signer_key =
    "4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1";
constexpr char const* signer_address = "0x21cf8ae13bb72632562c6fff438652ba1a151bb0";

/// The gateway configured for a benchmark: read signer from `key_file`, no budget in the way.
gateway::test::test_gateway make_gateway(std::string const& key_file, bool cache) {
    return gateway::test::test_gateway(
        [&](gateway::server::server_config& cfg) {
            if (!cache)
                cfg.market_cache_ttl = std::chrono::milliseconds(0);
            cfg.providers["beta"].options["budget"] = "100000000";
            cfg.providers["beta"].options["spotBudget"] = "100000000";
            cfg.providers["beta"].options["readSignerKeyFile"] = key_file;
        },
        [](gateway::mocks::mock_options& m) {
            m.rate_limits = false; // 2400 weight a minute would stop a benchmark
            m.approve_signer_for_all = signer_address;
        });
}

} // namespace

int run(int argc, char** argv) {
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    auto const user = gateway::address::parse("0x1111111111111111111111111111111111111111").value();
    auto const key = gateway::sign::private_key::from_hex(signer_key).value();
    auto const signer = gateway::address::parse(signer_address).value();
    auto const key_file = std::filesystem::temp_directory_path() /
                          ("bench-beta-signer-" + std::to_string(::getpid()));
    std::ofstream(key_file) << signer_key << "\n";
    auto signed_get = [&](std::string const& path) {
        return get(w::signed_target(path, {}, gateway::sign::beta::next_nonce_us(), user, signer,
                                    key, false));
    };
    {
        auto gw = make_gateway(key_file.string(), false);
        auto const api_key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
        std::string const mock = gw.beta->base_url();
        // A seeded account: two positions, a spot balance.
        gateway::test::fetch(http::verb::post, mock + "/__mock/accounts",
                             R"({"address":")" + user.str() + R"(","balances":{"USDT":"100000"},
              "spotBalances":{"ASTER":"1000"},
              "positions":[{"symbol":"BTCUSDT","size":"0.5","entryPrice":"60000","leverage":10},
                           {"symbol":"TSLAUSDT","size":"-10","entryPrice":"440","leverage":5}]})");
        // Markets learned before measuring.
        measure(gw.base_url, 10, [&] { return get("/v1/perps/beta/markets", api_key); });

        auto direct = measure(mock, n, [&] {
            return get(w::target("/fapi/v3/depth", {{"symbol", "BTCUSDT"}, {"limit", "20"}}));
        });
        auto via = measure(gw.base_url, n,
                           [&] { return get("/v1/perps/beta/markets/BTC/orderbook", api_key); });
        report("orderbook", direct, via);

        direct = measure(mock, n, [&] { return signed_get("/fapi/v3/positionRisk"); });
        via = measure(gw.base_url, n, [&] {
            return get("/v1/perps/beta/account/" + user.str() + "/positions", api_key);
        });
        report("positions", direct, via);

        direct = measure(mock, n, [&] { return signed_get("/api/v3/account"); });
        via = measure(gw.base_url, n,
                      [&] { return get("/v1/spot/beta/balances/" + user.str(), api_key); });
        report("spot balances", direct, via);
    }
    {
        auto gw = make_gateway(key_file.string(), true); // default cache
        auto const api_key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
        auto direct = measure(gw.beta->base_url(), n, [&] { return get("/fapi/v3/ticker/price"); });
        auto via = measure(gw.base_url, n, [&] { return get("/v1/perps/beta/prices", api_key); });
        report("prices cached", direct, via);
    }
    std::filesystem::remove(key_file);
    return 0;
}

} // namespace gateway_bench::beta_reads
