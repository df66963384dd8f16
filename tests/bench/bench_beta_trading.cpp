// Benchmark (not a test) of beta's signed writes:
//  1. signature verifications per second on one core: `recover_message` over a derived v3
//     parameter string (keccak + EIP-712 digest + secp256k1 recovery), and the whole local check
//     the gateway does per order (derive the string from the body with the market's filters,
//     then recover);
//  2. the latency the gateway adds to a signed order round trip over posting the same signed
//     order to mock-beta's `POST /fapi/v3/order` directly. Both sides use one keep-alive
//     connection and the same HTTP client, sequential and alternating, so both see the mock in
//     the same state. beta's nonce window is 10 s, so each request is signed just before it is
//     sent (signing is the client's cost, outside the timed span). The orders rest (a buy 4%
//     under the mark, inside the percent-price band), so each one is a book insert on the mock.
//
//   build/tests/gateway_bench beta_trading [requests]
#include "bench/bench_common.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/beta.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace gateway_bench::beta_trading {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace sb = gateway::sign::beta;

constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

/// BTCUSDT's filters as mock-beta lists them.
sb::market_rules btc_rules() {
    sb::market_rules m;
    m.tick_size = gateway::decimal::parse("0.1").value();
    m.step_size = gateway::decimal::parse("0.001").value();
    m.min_qty = m.step_size;
    m.min_notional = gateway::decimal::parse("5").value();
    m.multiplier_up = gateway::decimal::parse("1.05").value();
    m.multiplier_down = gateway::decimal::parse("0.95").value();
    m.max_leverage = 125;
    return m;
}

gateway::place_order_request resting_buy() {
    gateway::place_order_request r;
    r.symbol = "BTC";
    r.side = gateway::side::buy;
    r.type = gateway::order_type::limit;
    r.size = gateway::decimal::parse("0.001").value();
    r.price = gateway::decimal::parse("62400").value();
    return r;
}

} // namespace

int run(int argc, char** argv) {
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    sb::signer signer{gateway::sign::private_key::from_hex(wallet_key).value()};
    auto const btc = btc_rules();
    auto const mark = gateway::decimal::parse("65000").value();

    // 1. Verifications per second, one thread.
    {
        auto r = resting_buy();
        r.nonce = 1700000000000;
        if (!signer.sign(r, btc))
            return 1;
        auto const msg = sb::signing_payload_for(sb::order_params(r, btc).value(), r.nonce,
                                                 r.wallet, r.signer, false)
                             .value()
                             .msg;
        int const k = 20000;
        std::size_t ok = 0;
        double const recover = per_second(k, [&](int) {
            ok += sb::recover_message(msg, r.signature, false).value() == signer.address();
        });
        double const whole = per_second(k, [&](int) {
            auto q = sb::order_params(r, btc, mark);
            if (!q)
                return;
            auto p = sb::signing_payload_for(*q, r.nonce, r.wallet, r.signer, false);
            auto sig = gateway::sign::signature_from_hex(r.signature);
            ok += p && sig && gateway::sign::recover(p->digest, *sig).value() == signer.address();
        });
        if (ok != 2 * static_cast<std::size_t>(k))
            return 1;
        std::printf(
            "verify (recover over a derived string)   %8.0f /s on one core (%.1f us each)\n",
            recover, 1e6 / recover);
        std::printf(
            "derive + verify (the gateway's check)    %8.0f /s on one core (%.1f us each)\n", whole,
            1e6 / whole);
    }

    // 2. Signed order round trip: direct to the mock vs through the gateway.
    gateway::test::test_gateway gw(
        [](gateway::server::server_config& cfg) {
            cfg.providers["beta"].options["budget"] = "100000000";
        },
        [](gateway::mocks::mock_options& m) { m.rate_limits = false; });
    auto const key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
    {
        // Fund the wallet and pin the mark; learn markets before measuring.
        measure(gw.beta->base_url(), 1, [&] {
            return post_json("/__mock/accounts", R"({"address":")" + signer.address().str() +
                                                     R"(","balances":{"USDT":"10000000"}})");
        });
        measure(gw.beta->base_url(), 1,
                [] { return post_json("/__mock/mark", R"({"symbol":"BTC","price":"65000"})"); });
        measure(gw.base_url, 5, [&] { return get("/v1/perps/beta/markets", key); });
    }
    make_fn direct = [&]() {
        auto r = resting_buy();
        if (!signer.sign(r, btc))
            std::abort();
        auto const p = sb::signing_payload_for(sb::order_params(r, btc).value(), r.nonce, r.wallet,
                                               r.signer, false)
                           .value();
        return request(http::verb::post, "/fapi/v3/order", p.msg + "&signature=" + r.signature,
                       "application/x-www-form-urlencoded");
    };
    make_fn via = [&]() {
        auto r = resting_buy();
        if (!signer.sign(r, btc))
            std::abort();
        return post_json("/v1/perps/beta/orders", json::serialize(json::value_from(r)), key);
    };
    auto [direct_us, via_us] =
        measure_pair(gw.beta->base_url(), one(direct), gw.base_url, one(via), n);
    report("signed order", std::move(direct_us), std::move(via_us));
    return 0;
}

} // namespace gateway_bench::beta_trading
