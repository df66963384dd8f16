// Benchmark (not a test) of gamma's credentialed orders:
//  1. order verifications per second on one core: `recover_order` over a CTF Exchange Order
//     (EIP-712 digest + secp256k1 recovery), and the whole local check the gateway does per
//     order before its one upstream call (read the JSON body, validate it, derive the Order
//     from it with the token's rules, digest it, recover the signer);
//  2. the latency the gateway adds to a signed order round trip over posting the same signed
//     order with the same credentials to mock-gamma's `POST /clob/order` directly. Both sides
//     use one keep-alive connection and the same HTTP client, sequential and alternating, so
//     both see the mock in the same state. Every order is new (its own salt) and rests (a BUY
//     well under the market), so each one is a book insert on the mock. Signing and the L2
//     headers are the client's cost, outside the timed span; the gateway's own L2 HMAC is
//     inside it.
//
//   build/tests/gateway_bench gamma_trading [requests]
#include "bench/bench_common.hpp"
#include "support/fetch.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/gamma.hpp>
#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/signing.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace gateway_bench::gamma_trading {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace sg = gateway::sign::gamma;
namespace w = gateway::wire::gamma;

constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

std::int64_t now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// The wallet's CLOB credentials, created on mock-gamma (L1 `POST /auth/api-key`).
std::optional<json::value> create_api_key(std::string const& clob,
                                          gateway::sign::private_key const& key) {
    auto const ts = std::to_string(now_s());
    auto r = gateway::test::fetch(
        http::verb::post, clob + std::string(w::create_api_key_path), "",
        {{std::string(w::l1_address_header), gateway::sign::address_of(key).str()},
         {std::string(w::l1_signature_header), sg::sign_clob_auth(key, ts, 0)},
         {std::string(w::l1_timestamp_header), ts},
         {std::string(w::l1_nonce_header), "0"}});
    if (r.status != 200) {
        std::fprintf(stderr, "L1 create: %u %s\n", r.status, r.body.c_str());
        return std::nullopt;
    }
    return json::parse(r.body);
}

/// A resting BUY of `token` at `price`, unsigned.
gateway::gamma_order_request resting_buy(std::string const& token, gateway::decimal const& price) {
    gateway::gamma_order_request r;
    r.token_id = token;
    r.side = gateway::side::buy;
    r.size = gateway::decimal::parse("5").value();
    r.price = price;
    return r;
}

} // namespace

int run(int argc, char** argv) {
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    auto const key = gateway::sign::private_key::from_hex(wallet_key).value();
    sg::signer signer{key};
    // A token as mock-gamma's CLOB lists it (tick 0.01, not neg-risk, 5 shares minimum).
    sg::token_rules const rules{gateway::decimal::parse("0.01").value(), false,
                                gateway::decimal::parse("5").value()};
    std::string const sample_token =
        "71321045679252212594626385532706912750332728571942532289631379312455583992563";

    // 1. Verifications per second, one thread.
    {
        auto r = resting_buy(sample_token, gateway::decimal::parse("0.3").value());
        if (!signer.sign(r, rules))
            return 1;
        auto body = json::value_from(r).as_object();
        body["apiKey"] = "00000000-0000-4000-8000-000000000000";
        body["apiSecret"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
        body["passphrase"] = std::string(64, 'a');
        std::string const text = json::serialize(body);
        auto const exchange = sg::exchange_for(rules.neg_risk);
        auto const order = sg::order_of(r, rules).value();
        int const k = 20000;
        std::size_t ok = 0;
        double const recover = per_second(k, [&](int) {
            ok += sg::recover_order(order, exchange, r.signature).value() == signer.address();
        });
        double const whole = per_second(k, [&](int) {
            auto const v = json::parse(text);
            auto q = gateway::parse_gamma_order_request(v, gateway::strictness::inbound);
            if (!q || !validate(*q, gateway::body_kind::signed_write))
                return;
            auto o = sg::order_of(*q, rules);
            auto sig = gateway::sign::wire_signature(q->signature);
            ok += o && sig &&
                  gateway::sign::recover(sg::order_digest(*o, exchange), *sig).value() == q->wallet;
        });
        if (ok != 2 * static_cast<std::size_t>(k))
            return 1;
        std::printf("verify (recover an Order's signer)        %8.0f /s on one core (%.1f us "
                    "each)\n",
                    recover, 1e6 / recover);
        std::printf("parse + derive + verify (gateway's check) %8.0f /s on one core (%.1f us "
                    "each)\n",
                    whole, 1e6 / whole);
    }

    // 2. Signed order round trip: direct to the mock's CLOB vs through the gateway.
    gateway::test::test_gateway gw(
        [](gateway::server::server_config& cfg) {
            cfg.providers["gamma"].options["clobBudget"] = "100000000";
        },
        [](gateway::mocks::mock_options& m) { m.rate_limits = false; });
    auto const api_key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
    std::string const clob = gw.gamma->base_url() + "/clob";
    auto const made = create_api_key(clob, key);
    if (!made)
        return 1;
    std::string const clob_key(made->at("apiKey").as_string());
    std::string const clob_secret(made->at("secret").as_string());
    std::string const clob_passphrase(made->at("passphrase").as_string());

    // An active token with a book; fund the wallet for every order; warm the gateway's book.
    gateway::client_options co;
    co.base_url = gw.base_url;
    co.api_key = api_key;
    auto c = gateway::client::create(co).value();
    gateway::markets_params mp;
    mp.status = gateway::market_status::active;
    std::string token;
    gateway::decimal price;
    for (auto const& m : c.prediction_markets("gamma", mp).value()) {
        for (auto const& t : m.tokens) {
            auto book = c.token_orderbook("gamma", t.token_id);
            if (!book || book->bids.size() < 5)
                continue;
            token = t.token_id;
            price = book->bids.back().price; // the lowest bid quoted: far from any ask
            break;
        }
        if (!token.empty())
            break;
    }
    if (token.empty()) {
        std::fprintf(stderr, "no token with a book\n");
        return 1;
    }
    auto const fund = gateway::test::fetch(
        http::verb::post, gw.gamma->base_url() + "/__mock/accounts",
        R"({"address":")" + signer.address().str() + R"(","balances":{"USDC":"100000000"}})");
    if (fund.status != 200) {
        std::fprintf(stderr, "funding: %u %s\n", fund.status, fund.body.c_str());
        return 1;
    }
    auto const gamma_rules = [&] {
        auto b = gateway::test::fetch(http::verb::get, clob + "/book?token_id=" + token);
        auto const v = json::parse(b.body);
        return sg::token_rules{
            gateway::decimal::parse_lenient(v.at("tick_size").as_string()).value(),
            v.at("neg_risk").as_bool(),
            gateway::decimal::parse_lenient(v.at("min_order_size").as_string()).value()};
    }();

    sg::credentials const creds(clob_key, clob_secret, clob_passphrase);
    make_fn direct = [&]() {
        auto r = resting_buy(token, price);
        if (!signer.sign(r, gamma_rules))
            std::abort();
        auto const order = sg::order_of(r, gamma_rules).value();
        auto body = w::order_body(sg::order_wire(order, r.signature), clob_key,
                                  gateway::prediction_time_in_force::gtc);
        auto req = post_json("/clob" + std::string(w::order_path), body);
        auto headers = sg::l2_headers(creds, signer.address(), now_s(), "POST",
                                      std::string(w::order_path), body)
                           .value();
        for (auto const& h : headers)
            req.set(h.name, h.value);
        return req;
    };
    make_fn via = [&]() {
        auto r = resting_buy(token, price);
        if (!signer.sign(r, gamma_rules))
            std::abort();
        auto body = json::value_from(r).as_object();
        body["apiKey"] = clob_key;
        body["apiSecret"] = clob_secret;
        body["passphrase"] = clob_passphrase;
        return post_json("/v1/predictions/gamma/orders", json::serialize(body), api_key);
    };
    measure(gw.base_url, 5, via); // warm: the gateway learns the token's book
    auto [direct_us, via_us] =
        measure_pair(gw.gamma->base_url(), one(direct), gw.base_url, one(via), n);
    report("signed order", std::move(direct_us), std::move(via_us));
    return 0;
}

} // namespace gateway_bench::gamma_trading
