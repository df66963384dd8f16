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
#include "bench/bench_common.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/alpha.hpp>
#include <gateway/sign/sign.hpp>

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

namespace http = boost::beast::http;
namespace json = boost::json;
namespace sa = gateway::sign::alpha;

constexpr sa::market_rules btc{0, 5, false, 40};
constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

/// alpha answers a refused action with 200 and `"status":"err"`.
bool accepted(gateway::net::http_response const& a) {
    return a.result_int() == 200 && a.body().find("\"err") == std::string::npos;
}

/// A maker handing out `requests` in order.
make_fn in_order(std::vector<http_request> requests) {
    return [requests = std::move(requests), i = std::size_t{0}]() mutable {
        return requests.at(i++);
    };
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
        measure(gw.alpha->base_url(), 1, [&] {
            return post_json("/__mock/accounts", R"({"address":")" + signer.address().str() +
                                                     R"(","balances":{"USDC":"10000000"}})");
        });
        measure(gw.alpha->base_url(), 1,
                [] { return post_json("/__mock/mark", R"({"symbol":"BTC","price":"65000"})"); });
        measure(gw.base_url, 5, [&] { return get("/v1/perps/alpha/markets", key); });
    }
    int const total = rounds(n);
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
        direct.push_back(post_json("/exchange", json::serialize(env)));
    }
    for (int i = 0; i < total; ++i) {
        auto r = resting_buy(nonce + 2 * i + 1);
        if (!signer.sign(r, btc))
            return 1;
        via.push_back(
            post_json("/v1/perps/alpha/orders", json::serialize(json::value_from(r)), key));
    }
    auto [direct_us, via_us] =
        measure_pair(gw.alpha->base_url(), one(in_order(std::move(direct))), gw.base_url,
                     one(in_order(std::move(via))), n, accepted);
    report("signed order", std::move(direct_us), std::move(via_us));
    return 0;
}

} // namespace gateway_bench::alpha_trading
