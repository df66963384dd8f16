// Unit tests of gamma's trading mappings (reference-server/src/providers/gamma/gamma_trading.hpp):
// the CLOB's answers to POST/DELETE /order, /data/orders and /data/trades (upstreams/gamma.md
// §5.4-5.6, §6) and a token's /book in, contract results and CONTRACT §2 errors out.
#include "support/catch_result.hpp"

#include "providers/gamma/gamma_trading.hpp"

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>

namespace gamma_trading_unit {

using namespace gateway;
namespace json = boost::json;
namespace g = gateway::server::gamma;
using gateway::server::upstream_answer;

namespace {

std::string const clob = "gamma CLOB";
std::string const order_id = "0x23b457271bce9fa09b4f79125c9ec09e968235a462de82e318ef4eb6fe0ffeb0";
std::string const wallet_text = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

decimal dec(std::string_view s) {
    return decimal::parse(s).value();
}

upstream_answer answer(unsigned status, std::string_view body) {
    upstream_answer a;
    a.status = status;
    a.body = json::parse(body);
    return a;
}

/// A POST /order answer of gamma.md §5.4 with `status` and the amounts.
json::value placed(std::string_view status, std::string_view making, std::string_view taking) {
    return json::parse(R"({"success":true,"errorMsg":"","orderID":")" + order_id +
                       R"(","transactionsHashes":[],"status":")" + std::string(status) +
                       R"(","makingAmount":")" + std::string(making) + R"(","takingAmount":")" +
                       std::string(taking) + R"("})");
}

} // namespace

TEST_CASE("gamma token rules: tick size, neg-risk and minimum size from the CLOB book",
          "[unit][gamma]") {
    auto const book = json::parse(
        R"({"market":"0xaabbcc","asset_id":"71321","timestamp":"1786385407185","hash":"4f5a",
            "bids":[],"asks":[],"min_order_size":"5","tick_size":"0.01","neg_risk":false,
            "last_trade_price":"0.430"})");
    auto r = g::token_rules_of(clob, book);
    REQUIRE(r);
    CHECK(r->tick_size == dec("0.01"));
    CHECK_FALSE(r->neg_risk);
    CHECK(r->min_size == dec("5"));

    auto neg = g::token_rules_of(clob, json::parse(R"({"tick_size":0.001,"neg_risk":true})"));
    REQUIRE(neg);
    CHECK(neg->tick_size == dec("0.001"));
    CHECK(neg->neg_risk);
    CHECK(neg->min_size.is_zero()); // unknown

    for (auto const* bad : {R"({"neg_risk":true})", R"({"tick_size":"0"})", R"([])"}) {
        CAPTURE(bad);
        auto e = g::token_rules_of(clob, json::parse(bad));
        REQUIRE_FALSE(e);
        CHECK(e.error().code == errc::upstream_error);
    }
}

TEST_CASE("gamma write errors: 401 is INVALID_CREDENTIALS without the upstream's text, order "
          "refusals ORDER_REJECTED with the reason",
          "[unit][gamma]") {
    SECTION("credentials refused") {
        auto e = g::write_error(clob, answer(401, R"({"error":"Unauthorized/Invalid api key"})"),
                                g::clob_write::place);
        CHECK(e.code == errc::invalid_credentials);
        CHECK(e.status == 401);
        CHECK(e.message.find("Unauthorized") == std::string::npos);
        CHECK(e.message.find("apiSecret") != std::string::npos);
    }
    SECTION("an error body and an errorMsg code carry the upstream's reason") {
        auto e = g::write_error(clob, answer(400, R"({"error":"not enough balance / allowance"})"),
                                g::clob_write::place);
        CHECK(e.code == errc::order_rejected);
        CHECK(e.details.at("reason").as_string() == "not enough balance / allowance");
        CHECK(e.message.find("not enough balance / allowance") != std::string::npos);
        auto fok = g::write_error(
            clob,
            answer(400,
                   R"({"success":false,"errorMsg":"FOK_ORDER_NOT_FILLED_ERROR","orderID":""})"),
            g::clob_write::place);
        CHECK(fok.code == errc::order_rejected);
        CHECK(fok.details.at("reason").as_string() == "FOK_ORDER_NOT_FILLED_ERROR");
    }
    SECTION("425 and 503: nothing executed, 503 PROVIDER_UNAVAILABLE with Retry-After") {
        for (unsigned status : {425U, 503U}) {
            auto e = g::write_error(clob, answer(status, R"({"error":"Trading is disabled"})"),
                                    g::clob_write::place);
            CHECK(e.code == errc::provider_unavailable);
            CHECK(e.retry_after);
        }
    }
    SECTION("another 5xx: the outcome is unknown") {
        auto e = g::write_error(clob, answer(500, R"({"error":"order timed out"})"),
                                g::clob_write::place);
        CHECK(e.code == errc::upstream_error);
        CHECK(e.details.at("outcomeUnknown").as_bool());
        CHECK(e.details.at("upstreamStatus").to_number<std::int64_t>() == 500);
    }
    SECTION("a cancel's 404 is ORDER_NOT_FOUND, its other refusals ORDER_REJECTED") {
        auto e = g::write_error(clob, answer(404, R"({"error":"order not found"})"),
                                g::clob_write::cancel);
        CHECK(e.code == errc::order_not_found);
        CHECK(e.details.at("field").as_string() == "orderId");
        auto other = g::write_error(clob, answer(400, R"({"error":"Invalid orderID"})"),
                                    g::clob_write::cancel);
        CHECK(other.code == errc::order_rejected);
    }
}

TEST_CASE("gamma place results: live is open, matched amounts give filledSize and averagePrice",
          "[unit][gamma]") {
    SECTION("resting: open, nothing filled, averagePrice null") {
        auto r =
            g::to_place_result(clob, placed("live", "", ""), side::buy, dec("10"), dec("0.56"));
        REQUIRE(r);
        CHECK(r->order_id == order_id);
        CHECK(r->status == place_status::open);
        CHECK(r->filled_size.str() == "0");
        CHECK_FALSE(r->average_price);
        CHECK_FALSE(r->client_order_id);
    }
    SECTION("a BUY filled whole: shares are takingAmount, USDC makingAmount") {
        auto r = g::to_place_result(clob, placed("matched", "5.5", "10"), side::buy, dec("10"),
                                    dec("0.56"));
        REQUIRE(r);
        CHECK(r->status == place_status::filled);
        CHECK(r->filled_size.str() == "10");
        REQUIRE(r->average_price);
        CHECK(r->average_price->str() == "0.55");
    }
    SECTION("a SELL partly filled: shares are makingAmount; the rest rests") {
        auto r = g::to_place_result(clob, placed("matched", "4", "2.2"), side::sell, dec("10"),
                                    dec("0.55"));
        REQUIRE(r);
        CHECK(r->status == place_status::partially_filled);
        CHECK(r->filled_size.str() == "4");
        CHECK(r->average_price->str() == "0.55");
    }
    SECTION("matched without amounts: filled whole at most at its price") {
        auto r =
            g::to_place_result(clob, placed("matched", "", ""), side::buy, dec("10"), dec("0.56"));
        REQUIRE(r);
        CHECK(r->status == place_status::filled);
        CHECK(r->filled_size.str() == "10");
        CHECK(r->average_price->str() == "0.56");
    }
    SECTION("success false: ORDER_REJECTED with the errorMsg") {
        auto r = g::to_place_result(
            clob,
            json::parse(R"({"success":false,"errorMsg":"INVALID_ORDER_MIN_SIZE","orderID":""})"),
            side::buy, dec("1"), dec("0.5"));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::order_rejected);
        CHECK(r.error().details.at("reason").as_string() == "INVALID_ORDER_MIN_SIZE");
    }
    SECTION("not an order response: UPSTREAM_ERROR") {
        auto r = g::to_place_result(clob, json::parse(R"({"status":"live"})"), side::buy, dec("1"),
                                    dec("0.5"));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::upstream_error);
    }
    SECTION("more shares than ordered (fuzz regression gamma_rest/place-fills-more-than-size): "
            "no answer to this order, UPSTREAM_ERROR") {
        // A BUY of 10 answered with 11 shares taken; a SELL of 10 with 11 made; negative amounts.
        CHECK_FALSE(g::to_place_result(clob, placed("matched", "4.5", "11"), side::buy, dec("10"),
                                       dec("0.45")));
        CHECK_FALSE(g::to_place_result(clob, placed("matched", "11", "4.95"), side::sell, dec("10"),
                                       dec("0.45")));
        auto neg = g::to_place_result(clob, placed("matched", "-4.5", "10"), side::buy, dec("10"),
                                      dec("0.45"));
        REQUIRE_FALSE(neg);
        CHECK(neg.error().code == errc::upstream_error);
        // Exactly the size is still a fill.
        CHECK(g::to_place_result(clob, placed("matched", "4.5", "10"), side::buy, dec("10"),
                                 dec("0.45")));
    }
}

TEST_CASE("gamma cancel results: canceled, or 404 ORDER_NOT_FOUND with the upstream's reason",
          "[unit][gamma]") {
    auto ok = g::to_cancel_result(
        clob, json::parse(R"({"canceled":[")" + order_id + R"("],"not_canceled":{}})"), order_id);
    REQUIRE(ok);
    CHECK(ok->order_id == order_id);
    CHECK(ok->status == cancel_status::canceled);

    for (auto const* key : {"not_canceled", "notCanceled"}) {
        auto refused =
            g::to_cancel_result(clob,
                                json::parse(R"({"canceled":[],")" + std::string(key) + R"(":{")" +
                                            order_id + R"(":"already canceled or matched"}})"),
                                order_id);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == errc::order_not_found);
        CHECK(refused.error().details.at("reason").as_string() == "already canceled or matched");
    }
    auto silent = g::to_cancel_result(clob, json::parse(R"({"canceled":[]})"), order_id);
    REQUIRE_FALSE(silent);
    CHECK(silent.error().code == errc::upstream_error);
}

TEST_CASE("gamma open orders and pages: gamma.md's OpenOrder as a contract open order",
          "[unit][gamma]") {
    auto const page =
        json::parse(R"({"data":[{"id":")" + order_id +
                    R"(","status":"LIVE","owner":"k","maker_address":"0xf39f","market":"0xcond",
            "asset_id":"71321","side":"BUY","original_size":"10.0","size_matched":"2.5",
            "price":"0.45","associate_trades":[],"outcome":"YES","created_at":1705322096,
            "expiration":"0","order_type":"GTC"}],"next_cursor":"LTE=","limit":100,"count":1})");
    auto p = g::clob_page_of(clob, page);
    REQUIRE(p);
    CHECK(p->next_cursor.empty()); // LTE= ends
    REQUIRE(p->items->size() == 1);
    auto o = g::to_open_order(clob, p->items->at(0));
    REQUIRE(o);
    CHECK(o->order_id == order_id);
    CHECK(o->symbol == "71321");
    CHECK(o->side == side::buy);
    CHECK(o->type == order_type::limit);
    CHECK(o->price->str() == "0.45");
    CHECK(o->size.str() == "10");
    CHECK(o->filled_size.str() == "2.5");
    CHECK(o->status == open_order_status::open);
    CHECK(o->timestamp == 1705322096000);
    CHECK_FALSE(o->client_order_id);
    CHECK_FALSE(o->trigger_price);

    auto more = g::clob_page_of(clob, json::parse(R"({"data":[],"next_cursor":"MTAw"})"));
    REQUIRE(more);
    CHECK(more->next_cursor == "MTAw");
    CHECK_FALSE(g::clob_page_of(clob, json::parse(R"([])")));
}

TEST_CASE("gamma fills: the wallet's taker side and its maker orders of a trade", "[unit][gamma]") {
    auto const wallet = address::parse(wallet_text).value();
    std::string const other = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    std::string const maker_order = "0x" + std::string(64, 'b');
    auto const trade = json::parse(
        R"({"id":"t-1","taker_order_id":")" + order_id +
        R"(","market":"0xcond","asset_id":"71321","side":"BUY","size":"10","fee_rate_bps":"100",
            "price":"0.4","status":"MATCHED","match_time":"1705322100","last_update":"1705322100",
            "outcome":"YES","bucket_index":0,"owner":"k","maker_address":")" +
        wallet_text + R"(","transaction_hash":"0x","trader_side":"TAKER","maker_orders":[
            {"order_id":")" +
        maker_order + R"(","owner":"k2","maker_address":")" + other +
        R"(","matched_amount":"10","price":"0.4","fee_rate_bps":"0","asset_id":"71321",
             "outcome":"YES","side":"SELL"}]})");

    auto taker = g::fills_of(clob, trade, wallet);
    REQUIRE(taker);
    REQUIRE(taker->size() == 1);
    auto const& f = taker->front();
    CHECK(f.id == "t-1");
    CHECK(f.order_id == order_id);
    CHECK(f.symbol == "71321");
    CHECK(f.side == side::buy);
    CHECK(f.price.str() == "0.4");
    CHECK(f.size.str() == "10");
    CHECK(f.fee.str() == "0.1"); // a BUY: 100 / 10^4 x min(0.4, 0.6) / 0.4 x 10 shares
    CHECK(f.fee_asset == "71321");
    CHECK(f.liquidity == liquidity::taker);
    CHECK(f.timestamp == 1705322100000);
    CHECK_FALSE(f.closed_pnl);

    auto maker = g::fills_of(clob, trade, address::parse(other).value());
    REQUIRE(maker);
    REQUIRE(maker->size() == 1);
    CHECK(maker->front().id == "t-1:" + maker_order);
    CHECK(maker->front().order_id == maker_order);
    CHECK(maker->front().side == side::sell);
    CHECK(maker->front().liquidity == liquidity::maker);
    CHECK(maker->front().fee.str() == "0");
    CHECK(maker->front().fee_asset == "USDC"); // a SELL's fee is in USDC

    auto stranger = g::fills_of(
        clob, trade, address::parse("0x0000000000000000000000000000000000000001").value());
    REQUIRE(stranger);
    CHECK(stranger->empty());
}

TEST_CASE("gamma order ids: 0x and 64 hex digits", "[unit][gamma]") {
    CHECK(g::is_order_id(order_id));
    CHECK_FALSE(g::is_order_id("0x1234"));
    CHECK_FALSE(g::is_order_id("42"));
    CHECK_FALSE(g::is_order_id("0x" + std::string(64, 'g')));
}

} // namespace gamma_trading_unit
