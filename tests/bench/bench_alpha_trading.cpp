// Benchmark (not a test) of alpha's signed writes:
//  1. signature verifications per second on one core: `recover_signer` over a derived order
//     action (msgpack + keccak + EIP-712 digest + secp256k1 recovery), and the whole local check
//     the gateway does per order (derive the action from the body, then recover);
//  2. the latency the gateway adds to a signed order round trip over posting the same kind of
//     signed action to mock-alpha's /exchange directly. Both sides use one keep-alive connection
//     and the same HTTP client, sequential requests; every request is pre-signed with its own
//     nonce (signing is the client's cost, not measured). The orders rest (a buy 25% under the
//     market), so each one is a book insert on the mock.
//
//   build/tests/gateway_bench alpha_trading [requests]
#include "support/latency.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/alpha.hpp>
#include <gateway/sign/sign.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gateway_bench::alpha_trading {

namespace {

using gateway::test::summarize;

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
namespace sa = gateway::sign::alpha;
using gateway::net::http_client;
using gateway::net::http_request;

constexpr sa::market_rules btc{0, 5, false, 40};
constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

bool failed(
    boost::system::result<gateway::net::http_response, gateway::net::fetch_error> const& a) {
    return !a || a->result_int() != 200 || a->body().find("\"err") != std::string::npos;
}

/**
 * Sends `a[i]` to `base_a`, then `b[i]` to `base_b`, alternating, each over its own keep-alive
 * client, so both sides see the upstream in the same state (its book grows as orders rest).
 * Latencies in µs; the first tenth of each warms up and is dropped.
 */
std::pair<std::vector<double>, std::vector<double>> measure_pair(std::string const& base_a,
                                                                 std::vector<http_request> a,
                                                                 std::string const& base_b,
                                                                 std::vector<http_request> b) {
    auto const url_a = *gateway::net::url::parse(base_a);
    auto const url_b = *gateway::net::url::parse(base_b);
    asio::io_context ioc;
    http_client client_a(ioc.get_executor());
    http_client client_b(ioc.get_executor());
    std::pair<std::vector<double>, std::vector<double>> out;
    int failures = 0;
    auto report = [&](auto const& answer) {
        if (failed(answer) && failures++ == 0) {
            if (answer)
                std::fprintf(stderr, "first failure: %u %s\n", answer->result_int(),
                             answer->body().c_str());
            else
                std::fprintf(stderr, "first failure: no answer\n");
        }
    };
    std::size_t const n = std::max(a.size(), b.size());
    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            for (std::size_t i = 0; i < n; ++i) {
                if (i < a.size()) {
                    auto const t0 = std::chrono::steady_clock::now();
                    auto answer = co_await client_a.async_request(url_a, std::move(a[i]));
                    auto const t1 = std::chrono::steady_clock::now();
                    report(answer);
                    if (i >= a.size() / 11)
                        out.first.push_back(
                            std::chrono::duration<double, std::micro>(t1 - t0).count());
                }
                if (i < b.size()) {
                    auto const t0 = std::chrono::steady_clock::now();
                    auto answer = co_await client_b.async_request(url_b, std::move(b[i]));
                    auto const t1 = std::chrono::steady_clock::now();
                    report(answer);
                    if (i >= b.size() / 11)
                        out.second.push_back(
                            std::chrono::duration<double, std::micro>(t1 - t0).count());
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

/// Sends every request over one keep-alive client; each latency in µs (the first tenth of the
/// requests warms up and is dropped).
std::vector<double> measure(std::string const& base_text, std::vector<http_request> requests) {
    auto out = measure_pair(base_text, std::move(requests), base_text, {});
    return std::move(out.first);
}

http_request post(std::string target, std::string body, std::string const& key = {}) {
    http_request req{http::verb::post, std::move(target), 11};
    req.set(http::field::content_type, "application/json");
    if (!key.empty())
        req.set("X-API-Key", key);
    req.body() = std::move(body);
    req.prepare_payload();
    return req;
}

gateway::place_order_request resting_buy(std::int64_t nonce) {
    gateway::place_order_request r;
    r.symbol = "BTC";
    r.side = gateway::side::buy;
    r.type = gateway::order_type::limit;
    r.size = gateway::decimal::parse("0.001").value();
    r.price = gateway::decimal::parse("50000").value();
    r.nonce = nonce;
    return r;
}

template <class F>
double per_second(int n, F f) {
    auto const t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        f(i);
    auto const t1 = std::chrono::steady_clock::now();
    return n / std::chrono::duration<double>(t1 - t0).count();
}

} // namespace

int run(int argc, char** argv) {
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    sa::signer signer{gateway::sign::private_key::from_hex(wallet_key).value()};

    // 1. Verifications per second, one thread.
    {
        auto r = resting_buy(1700000000000);
        if (!signer.sign(r, btc))
            return 1;
        auto const action = sa::order_action(r, btc).value();
        int const k = 20000;
        std::size_t ok = 0;
        double const recover = per_second(k, [&](int) {
            ok += sa::recover_signer(action, r.nonce, r.signature, false).has_value();
        });
        double const whole = per_second(k, [&](int) {
            auto a = sa::order_action(r, btc);
            ok += a &&
                  sa::recover_signer(*a, r.nonce, r.signature, false).value() == signer.address();
        });
        if (ok != 2 * static_cast<std::size_t>(k))
            return 1;
        std::printf(
            "verify (recover over a derived action)   %8.0f /s on one core (%.1f us each)\n",
            recover, 1e6 / recover);
        std::printf(
            "derive + verify (the gateway's check)    %8.0f /s on one core (%.1f us each)\n", whole,
            1e6 / whole);
    }

    // 2. Signed order round trip: direct to the mock vs through the gateway.
    gateway::test::test_gateway gw(
        [](gateway::server::server_config& cfg) {
            cfg.providers["alpha"].options["budget"] = "100000000";
        },
        [](gateway::mocks::mock_options& m) { m.rate_limits = false; });
    auto const key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
    {
        // Fund the wallet and pin the mark; learn markets before measuring.
        http_request fund = post("/__mock/accounts", R"({"address":")" + signer.address().str() +
                                                         R"(","balances":{"USDC":"10000000"}})");
        measure(gw.alpha->base_url(), {fund});
        measure(gw.alpha->base_url(),
                {post("/__mock/mark", R"({"symbol":"BTC","price":"65000"})")});
        std::vector<http_request> warm;
        for (int i = 0; i < 5; ++i) {
            http_request g{http::verb::get, "/v1/perps/alpha/markets", 11};
            g.set("X-API-Key", key);
            warm.push_back(std::move(g));
        }
        measure(gw.base_url, std::move(warm));
    }
    int const total = n + n / 10;
    std::int64_t const nonce = sa::next_nonce_ms();
    std::vector<http_request> direct, via;
    // Interleaved nonces (direct even, gateway odd): both go to the same signer's nonce set.
    for (int i = 0; i < total; ++i) {
        auto r = resting_buy(nonce + 2 * i);
        if (!signer.sign(r, btc))
            return 1;
        auto const action = sa::order_action(r, btc).value();
        json::object env;
        env["action"] = action;
        env["nonce"] = r.nonce;
        env["signature"] =
            sa::signature_to_json(gateway::sign::signature_from_hex(r.signature).value());
        env["vaultAddress"] = nullptr;
        direct.push_back(post("/exchange", json::serialize(env)));
    }
    for (int i = 0; i < total; ++i) {
        auto r = resting_buy(nonce + 2 * i + 1);
        if (!signer.sign(r, btc))
            return 1;
        via.push_back(post("/v1/perps/alpha/orders", json::serialize(json::value_from(r)), key));
    }
    auto [direct_us, via_us] =
        measure_pair(gw.alpha->base_url(), std::move(direct), gw.base_url, std::move(via));
    auto const d = summarize(std::move(direct_us));
    auto const g = summarize(std::move(via_us));
    std::printf("signed order   direct p50 %7.0f us  p99 %7.0f us | gateway p50 %7.0f us  p99 "
                "%7.0f us | added p50 %6.0f us  p99 %6.0f us\n",
                d.p50, d.p99, g.p50, g.p99, g.p50 - d.p50, g.p99 - d.p99);
    return 0;
}

} // namespace gateway_bench::alpha_trading
