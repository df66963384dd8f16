// alpha's /exchange answers mapped to the contract (CONTRACT §2, §5; upstreams/alpha.md §4.2-4.6,
// §9): the bodies below are the upstream's documented shapes.
#include <catch2/catch.hpp>

#include "providers/alpha/alpha_trading.hpp"
#include "support/catch_result.hpp"
#include "support/values.hpp"
#include <gateway/providers/alpha/weights.hpp>

#include <boost/json/parse.hpp>

using namespace gateway;
namespace json = boost::json;
using namespace gateway::server::alpha;

using gateway::test::dec;

namespace {

json::value order_answer(char const* status) {
    return json::parse(
        std::string(R"({"status":"ok","response":{"type":"order","data":{"statuses":[)") + status +
        "]}}}");
}

} // namespace

TEST_CASE("alpha order answers: resting, filled, partial, per-order error", "[unit][alpha]") {
    SECTION("resting -> open, nothing filled") {
        auto r = to_place_result(order_answer(R"({"resting":{"oid":77738308}})"), dec("0.02"),
                                 std::nullopt);
        REQUIRE(r);
        CHECK(r->result.order_id == "77738308");
        CHECK(r->result.status == place_status::open);
        CHECK(r->result.filled_size.str() == "0");
        CHECK_FALSE(r->result.average_price);
    }
    SECTION("filled in full -> filled with averagePrice") {
        auto r = to_place_result(
            order_answer(R"({"filled":{"totalSz":"0.02","avgPx":"1891.4","oid":77747314}})"),
            dec("0.02"), std::string("0x1234567890abcdef1234567890abcdef"));
        REQUIRE(r);
        CHECK(r->result.status == place_status::filled);
        CHECK(r->result.filled_size.str() == "0.02");
        CHECK(r->result.average_price->str() == "1891.4");
        CHECK(r->result.client_order_id == "0x1234567890abcdef1234567890abcdef");
    }
    SECTION("an oid recorded as a string of digits (ccxt-createOrder.json)") {
        auto r = to_place_result(
            order_answer(R"({"filled":{"totalSz":"1.0","avgPx":"25.585","oid":"296683658818"}})"),
            dec("1"), std::nullopt);
        REQUIRE(r);
        CHECK(r->result.order_id == "296683658818");
        CHECK(r->result.status == place_status::filled);
        CHECK(r->result.average_price->str() == "25.585");
    }
    SECTION("IOC partly filled -> partially_filled") {
        auto r = to_place_result(
            order_answer(R"({"filled":{"totalSz":"0.01","avgPx":"1891.4","oid":5}})"), dec("0.02"),
            std::nullopt);
        REQUIRE(r);
        CHECK(r->result.status == place_status::partially_filled);
        CHECK(r->result.filled_size.str() == "0.01");
    }
    SECTION("a bare waitingForTrigger -> open, id to be looked up") {
        auto r = to_place_result(order_answer(R"("waitingForTrigger")"), dec("1"), std::nullopt);
        REQUIRE(r);
        CHECK(r->result.order_id.empty());
        CHECK(r->result.status == place_status::open);
    }
    SECTION("per-order error -> 400 ORDER_REJECTED carrying the reason") {
        auto r =
            to_place_result(order_answer(R"({"error":"Order must have minimum value of $10."})"),
                            dec("0.0001"), std::nullopt);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::order_rejected);
        CHECK(r.error().status == 400);
        CHECK(r.error().message.find("Order must have minimum value of $10.") != std::string::npos);
        CHECK(r.error().details.at("reason").as_string() ==
              "Order must have minimum value of $10.");
    }
    SECTION("malformed answers -> 502 UPSTREAM_ERROR") {
        for (
            char const* body :
            {R"([])", R"({"status":"ok"})",
             R"({"status":"ok","response":{"type":"order","data":{"statuses":[]}}})",
             R"({"status":"ok","response":{"type":"order","data":{"statuses":[{"resting":{}}]}}})",
             R"({"status":"ok","response":{"type":"order","data":{"statuses":[{"filled":{"oid":1}}]}}})"}) {
            INFO(body);
            auto r = to_place_result(json::parse(body), dec("1"), std::nullopt);
            REQUIRE_FALSE(r);
            CHECK(r.error().code == errc::upstream_error);
        }
    }
}

TEST_CASE("alpha whole-action refusals are classified", "[unit][alpha]") {
    auto err = [](char const* text) {
        json::object o;
        o["status"] = "err";
        o["response"] = text;
        return to_place_result(o, decimal::parse("1").value(), std::nullopt).error();
    };
    auto const unknown = err(
        "L1 error: User or API Wallet 0x0123456789abcdef0123456789abcdef01234567 does not exist.");
    CHECK(unknown.code == errc::signature_error);
    CHECK(unknown.status == 401);
    CHECK(unknown.message.find("0x0123456789abcdef0123456789abcdef01234567") != std::string::npos);
    CHECK(err("Unable to recover signer.").code == errc::signature_error);
    CHECK(err("Invalid nonce: duplicate nonce 1700000000000").code == errc::invalid_nonce);
    CHECK(err("Invalid nonce: nonce too low 5 < 7").code == errc::invalid_nonce);
    CHECK(err("Must deposit before performing actions. User: 0x01").code == errc::order_rejected);
}

TEST_CASE("alpha cancel and leverage answers", "[unit][alpha]") {
    auto cancel = [](char const* status) {
        return to_cancel_result(
            json::parse(
                std::string(R"({"status":"ok","response":{"type":"cancel","data":{"statuses":[)") +
                status + "]}}}"),
            "77738308");
    };
    auto ok = cancel(R"("success")");
    REQUIRE(ok);
    CHECK(ok->order_id == "77738308");
    CHECK(ok->status == cancel_status::canceled);

    auto missing = cancel(R"({"error":"Order was never placed, already canceled, or filled."})");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == errc::order_not_found);
    CHECK(missing.error().status == 404);

    auto other = cancel(R"({"error":"Something else."})");
    REQUIRE_FALSE(other);
    CHECK(other.error().code == errc::order_rejected);

    CHECK(to_leverage_ok(json::parse(R"({"status":"ok","response":{"type":"default"}})")));
    auto refused =
        to_leverage_ok(json::parse(R"({"status":"err","response":"Invalid leverage value"})"));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::order_rejected);
    CHECK_FALSE(to_leverage_ok(json::parse(R"("ok")")));
}

TEST_CASE("alpha exchange envelope and weight", "[unit][alpha]") {
    json::object action;
    action["type"] = "cancel";
    json::array cancels;
    for (int i = 0; i < 79; ++i)
        cancels.push_back(json::object{{"a", 0}, {"o", i}});
    action["cancels"] = cancels;
    CHECK(gateway::wire::alpha::exchange_weight(action) == 2); // alpha.md §8: 1 + floor(79 / 40)
    action["cancels"] = json::array{};
    CHECK(gateway::wire::alpha::exchange_weight(action) == 1);

    std::string const sig = "0x" + std::string(64, 'a') + std::string(64, '1') + "1b";
    auto env = exchange_envelope(action, 1700000000000, sig);
    REQUIRE(env);
    CHECK(env->at("nonce").as_int64() == 1700000000000);
    CHECK(env->at("vaultAddress").is_null());
    CHECK(env->at("signature").at("v").to_number<int>() == 27);
    CHECK(env->at("signature").at("r").as_string() == "0x" + std::string(64, 'a'));
    auto bad = exchange_envelope(action, 1, "0x12");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == errc::signature_error);
}
