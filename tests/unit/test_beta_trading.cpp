// beta_trading: Aster's answers to signed writes as contract results and errors (CONTRACT §2,
// §5; upstreams/beta.md §2, §4.3, §7), and the market rules the derivation gets from the
// learned universe. Pure: bodies in string literals, no I/O.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"

#include "providers/beta/beta_trading.hpp"

#include <boost/json/parse.hpp>

using namespace gateway;

namespace beta_trading_test {

namespace json = boost::json;
namespace sv = gateway::server::beta;

std::string const net = "beta";
auto const someone = address::parse("0x21cf8ae13bb72632562c6fff438652ba1a151bb0").value();

decimal dec(std::string_view s) {
    return decimal::parse(s).value();
}

result<place_result> placed(std::string_view body, std::string_view size = "0.01") {
    return sv::to_place_result(net, json::parse(body), dec(size), std::nullopt);
}

server::upstream_answer answer(unsigned status, std::string_view body) {
    server::upstream_answer a;
    a.status = status;
    a.body = json::parse(body);
    return a;
}

api_error refusal(unsigned status, std::string_view body,
                  sv::write_kind k = sv::write_kind::place) {
    return sv::write_error(net, answer(status, body), k, someone);
}

// The test cases live in the namespace too: this file shares a unity TU with others.

TEST_CASE("beta place answers: the order object's status and fills", "[unit][beta][trading]") {
    SECTION("NEW: open, nothing filled, averagePrice null") {
        auto r = sv::to_place_result(
            net,
            json::parse(R"({"orderId":22542179,"symbol":"BTCUSDT","status":"NEW",)"
                        R"("clientOrderId":"x","price":"60000","avgPrice":"0.00000",)"
                        R"("origQty":"0.010","executedQty":"0","cumQuote":"0","type":"LIMIT"})"),
            dec("0.01"), std::string("0x00000000000000000000000000000abc"));
        REQUIRE(r);
        CHECK(r->order_id == "22542179");
        CHECK(r->status == place_status::open);
        CHECK(r->filled_size.str() == "0");
        CHECK_FALSE(r->average_price);
        CHECK(r->client_order_id == "0x00000000000000000000000000000abc");
    }
    SECTION("FILLED: filled at avgPrice, normalized") {
        auto r = placed(R"({"orderId":"7","status":"FILLED","avgPrice":"65000.50000",)"
                        R"("executedQty":"0.010","cumQuote":"650.005"})");
        REQUIRE(r);
        CHECK(r->order_id == "7");
        CHECK(r->status == place_status::filled);
        CHECK(r->filled_size.str() == "0.01");
        CHECK(r->average_price->str() == "65000.5");
    }
    SECTION("PARTIALLY_FILLED, and NEW with a fill: partially_filled; avgPrice from cumQuote") {
        auto r = placed(R"({"orderId":8,"status":"PARTIALLY_FILLED","avgPrice":"0",)"
                        R"("executedQty":"0.004","cumQuote":"260"})");
        REQUIRE(r);
        CHECK(r->status == place_status::partially_filled);
        CHECK(r->filled_size.str() == "0.004");
        CHECK(r->average_price->str() == "65000");
        auto n = placed(R"({"orderId":8,"status":"NEW","avgPrice":"65000","executedQty":"0.004"})");
        REQUIRE(n);
        CHECK(n->status == place_status::partially_filled);
    }
    SECTION("EXPIRED: partially_filled with a fill (IOC rest canceled), else ORDER_REJECTED") {
        auto some = placed(R"({"orderId":9,"status":"EXPIRED","avgPrice":"65000",)"
                           R"("executedQty":"0.002"})");
        REQUIRE(some);
        CHECK(some->status == place_status::partially_filled);
        auto none = placed(R"({"orderId":9,"status":"EXPIRED","avgPrice":"0","executedQty":"0"})");
        REQUIRE_FALSE(none);
        CHECK(none.error().code == errc::order_rejected);
        CHECK(none.error().status == 400);
        auto rej = placed(R"({"orderId":9,"status":"REJECTED","executedQty":"0"})");
        REQUIRE_FALSE(rej);
        CHECK(rej.error().code == errc::order_rejected);
    }
    SECTION("unreadable answers: 502 UPSTREAM_ERROR") {
        for (auto const* body : {R"([])", R"({"status":"NEW"})", R"({"orderId":-1,"status":"NEW"})",
                                 R"({"orderId":1,"status":"WHAT"})",
                                 // more executed than the 0.01 ordered (found by fuzz_beta_rest)
                                 R"({"orderId":1,"status":"NEW","executedQty":"8"})"}) {
            CAPTURE(body);
            auto r = placed(body);
            REQUIRE_FALSE(r);
            CHECK(r.error().code == errc::upstream_error);
        }
    }
}

TEST_CASE("beta write refusals map to CONTRACT 2", "[unit][beta][trading]") {
    using sv::write_kind;
    SECTION("-2011 and -2013 on a cancel: 404 ORDER_NOT_FOUND") {
        auto e = refusal(400, R"({"code":-2011,"msg":"Unknown order sent."})", write_kind::cancel);
        CHECK(e.code == errc::order_not_found);
        CHECK(e.status == 404);
        CHECK(refusal(400, R"({"code":-2013,"msg":"Order does not exist."})", write_kind::cancel)
                  .code == errc::order_not_found);
    }
    SECTION("margin, reduce-only, post-only, would-trigger, filters: 400 ORDER_REJECTED + reason") {
        for (auto const* body :
             {R"({"code":-2019,"msg":"Margin is insufficient."})",
              R"({"code":-2022,"msg":"ReduceOnly Order is rejected."})",
              R"({"code":-5022,"msg":"Due to the order could not be executed as maker, the Post )"
              R"(Only order will be rejected."})",
              R"({"code":-2021,"msg":"Order would immediately trigger."})",
              R"x({"code":-4164,"msg":"Order's notional must be no smaller than 5 (unless you )x"
              R"x(choose reduce only)"})x",
              R"({"code":-4014,"msg":"Price not increased by tick size."})"}) {
            CAPTURE(body);
            auto const e = refusal(400, body);
            CHECK(e.code == errc::order_rejected);
            CHECK(e.status == 400);
            auto const msg = json::parse(body).at("msg").as_string();
            CHECK(e.message.find(msg.c_str()) != std::string::npos);
            CHECK(e.details.at("reason").as_string() == msg);
            CHECK(e.details.at("upstreamCode") == json::parse(body).at("code"));
        }
    }
    SECTION("-4225: 401 INVALID_NONCE; -1022 and -2015: 401 SIGNATURE_ERROR") {
        auto n = refusal(400, R"({"code":-4225,"msg":"Nonce Expired"})");
        CHECK(n.code == errc::invalid_nonce);
        CHECK(n.status == 401);
        CHECK(refusal(400, R"({"code":-1022,"msg":"Signature for this request is not valid."})")
                  .code == errc::signature_error);
        auto s = refusal(
            401, R"({"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."})");
        CHECK(s.code == errc::signature_error);
        CHECK(s.message.find(someone.str()) != std::string::npos);
    }
    SECTION("-1121: 404 MARKET_NOT_FOUND; -4028 on leverage: MAX_LEVERAGE_EXCEEDED") {
        CHECK(refusal(400, R"({"code":-1121,"msg":"Invalid symbol."})").code ==
              errc::market_not_found);
        CHECK(refusal(400, R"({"code":-4028,"msg":"Leverage 150 is not valid"})",
                      write_kind::leverage)
                  .code == errc::max_leverage_exceeded);
    }
    SECTION("5xx (503: execution status unknown): 502 with outcomeUnknown, never a refusal") {
        for (unsigned status : {500u, 503u}) {
            auto e = refusal(status, R"({"code":-1000,"msg":"An unknown error occured"})");
            CHECK(e.code == errc::upstream_error);
            CHECK(e.details.at("outcomeUnknown").as_bool());
            CHECK(e.details.at("upstreamStatus").to_number<unsigned>() == status);
        }
    }
    SECTION("a 4xx without the error shape: 502 UPSTREAM_ERROR") {
        CHECK(refusal(403, R"({"oops":1})").code == errc::upstream_error);
    }
}

TEST_CASE("beta cancel and leverage answers", "[unit][beta][trading]") {
    auto c = sv::to_cancel_result(net, json::parse(R"({"orderId":42,"status":"CANCELED"})"), "42");
    REQUIRE(c);
    CHECK(c->order_id == "42");
    CHECK(c->status == cancel_status::canceled);
    CHECK_FALSE(sv::to_cancel_result(net, json::parse(R"({"orderId":43})"), "42"));

    auto l = sv::to_leverage_result(
        net, json::parse(R"({"leverage":21,"maxNotionalValue":"1000000","symbol":"BTCUSDT"})"),
        "BTC");
    REQUIRE(l);
    CHECK(l->symbol == "BTC");
    CHECK(l->leverage == 21);
    CHECK(l->margin_mode == margin_mode::cross);
    CHECK_FALSE(sv::to_leverage_result(net, json::parse(R"({"symbol":"BTCUSDT"})"), "BTC"));
    CHECK_FALSE(sv::to_leverage_result(net, json::parse(R"({"code":-4028,"msg":"no"})"), "BTC"));
}

TEST_CASE("beta market rules come from the learned filters and brackets", "[unit][beta][trading]") {
    sv::perp_market m;
    m.symbol = "BTC";
    m.upstream = "BTCUSDT";
    m.rules.tick_size = dec("0.1");
    m.rules.step_size = dec("0.001");
    m.rules.min_notional = dec("5");
    m.rules.multiplier_up = dec("1.05");
    m.max_leverage = 125;
    auto const r = sv::rules_of(m);
    CHECK_FALSE(r.spot);
    CHECK(r.tick_size == dec("0.1"));
    CHECK(r.step_size == dec("0.001"));
    CHECK(r.min_notional == dec("5"));
    CHECK(r.multiplier_up == dec("1.05"));
    CHECK(r.max_leverage == 125);
    sv::spot_market s;
    s.symbol = "BTC/USDT";
    s.upstream = "BTCUSDT";
    s.rules.tick_size = dec("0.01");
    CHECK(sv::rules_of(s).spot);
    CHECK(sv::rules_of(s).max_leverage == 0);
}

} // namespace beta_trading_test
