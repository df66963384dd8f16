// Contract tests of mock-beta's trading endpoints (Aster, upstreams/beta.md §4.2-4.3, §5, §7,
// §8): `POST/DELETE/GET /fapi/v3/order`, `DELETE /fapi/v3/allOpenOrders`,
// `POST /fapi/v3/leverage` and spot `POST/DELETE/GET /api/v3/order`, driven over HTTP with v3
// requests signed by the SDK's signer (gateway::sign::beta). Answers are held to the recorded
// ccxt bodies (tests/fixtures/beta/), errors to gateway::wire::beta's codes and texts, and
// trading to the signed reads it must move (positionRisk, userTrades, account, spot account).
#include <gateway/mocks/mock_server.hpp>
#include <gateway/providers/beta/errors.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/providers/beta/weights.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/decimal.hpp>

#include "support/mock_beta.hpp"
#include "support/mock_control.hpp"
#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace mock_beta_trading_test {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace wb = gateway::wire::beta;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::fetch;
using gateway::test::keys;
using gateway::test::mock_post;
using gateway::test::raw_response;
using gateway::test::set_mark;
using namespace gateway::test::mock_beta;

/// beta.md §4.3's order object (the new-order answer), from beta-md.json.
json::value md_order() {
    return gateway::test::fixture_document("beta/beta-md.json").at("bodies").at("order");
}

std::set<std::string> without(std::set<std::string> s, std::set<std::string> const& drop) {
    for (auto const& k : drop)
        s.erase(k);
    return s;
}

std::set<std::string> const trailing_keys{"activatePrice", "priceRate"};

// ---------------------------------------------------------------------------------------------
// v3 signing (upstreams/beta.md §3.1) with the SDK's signer

/// `params&nonce=..&user=..&signer=..` and its signature.
std::string signed_params(std::string const& params, std::uint64_t nonce) {
    std::string msg = params;
    msg += (msg.empty() ? "" : "&") + std::string("nonce=") + std::to_string(nonce) +
           "&user=" + alice().address + "&signer=" + alice().address;
    return msg + "&signature=" + gateway::sign::beta::sign_message(msg, alice().key, false);
}

/// A signed request: POST in the form body (as ccxt sends it), GET and DELETE in the query.
raw_response call(mock_server const& m, http::verb verb, std::string const& path,
                  std::string const& params) {
    std::string const signed_text = signed_params(params, gateway::sign::beta::next_nonce_us());
    if (verb == http::verb::post)
        return fetch(verb, m.base_url() + path, signed_text,
                     {{"Content-Type", "application/x-www-form-urlencoded"}});
    return fetch(verb, m.base_url() + path + "?" + signed_text);
}

json::value ok_json(raw_response const& r) {
    INFO(r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

json::value post_order(mock_server const& m, std::string const& params,
                       std::string const& path = "/fapi/v3/order") {
    return ok_json(call(m, http::verb::post, path, params));
}

json::value get_signed(mock_server const& m, std::string const& path,
                       std::string const& params = {}) {
    return ok_json(call(m, http::verb::get, path, params));
}

/// alice: futures USDT 100000, spot USDT 1000 and ETH 1; marks BTC 65000, ETH 1500.
std::unique_ptr<mock_server> start_funded() {
    auto m = mock_server::start({upstream::beta});
    set_mark(*m, "BTC", "65000");
    set_mark(*m, "ETH", "1500");
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + alice().address +
                  R"(","balances":{"USDT":"100000"},"spotBalances":{"USDT":"1000","ETH":"1"}})");
    return m;
}

std::string id_of(json::value const& order) {
    return std::to_string(order.at("orderId").to_number<std::uint64_t>());
}

} // namespace

// =============================================================================================
// Shapes

TEST_CASE("beta mock trading: spot orders answer the recorded createOrder bodies field for field",
          "[contract][mock][beta]") {
    auto m = start_funded();
    auto const doc = gateway::test::fixture_document("beta/ccxt-createOrder.json");
    for (auto const& entry : doc.at("entries").as_array()) {
        auto const& rec = entry.at("httpResponse");
        std::string const type(rec.at("type").as_string());
        CAPTURE(entry.at("description"));
        std::string params = "symbol=" + std::string(rec.at("symbol").as_string()) +
                             "&side=" + std::string(rec.at("side").as_string()) + "&type=" + type +
                             "&quantity=" + std::string(rec.at("origQty").as_string());
        if (type == "LIMIT")
            params += "&price=" + std::string(rec.at("price").as_string()) + "&timeInForce=GTC";
        if (rec.at("stopPrice") != "0")
            params += "&stopPrice=" + std::string(rec.at("stopPrice").as_string());
        auto const mine = post_order(*m, params, "/api/v3/order");
        CHECK(keys(mine) == keys(rec));
        for (auto const& kv : rec.as_object()) {
            std::string const key(kv.key());
            CAPTURE(key);
            if (key == "orderId" || key == "updateTime")
                CHECK(mine.at(key).is_number()); // beta.md §2: ids and times are numbers
            else if (key == "orderListId")
                CHECK(mine.at(key) == -1);
            else if (key == "clientOrderId")
                CHECK(mine.at(key).as_string().size() == 22);
            else
                CHECK(mine.at(key) == kv.value()); // ACK: as accepted, even a MARKET
        }
    }

    SECTION("the market orders traded; the others hold their reservation") {
        auto const account = get_signed(*m, "/api/v3/account");
        std::map<std::string, json::value> by;
        for (auto const& b : account.at("balances").as_array())
            by[std::string(b.at("asset").as_string())] = b;
        // ETH: 1 - 0.005 (market sell) + 0.005 less 0.035% (market buy) - 3 * 0.005 locked
        // (limit sell, stop-loss sell, take-profit sell).
        CHECK(dec(by.at("ETH").at("free")) == dec_text("0.98499825"));
        CHECK(dec(by.at("ETH").at("locked")) == dec_text("0.015"));
        // USDT: limit buy 0.005 * 1000, take-profit buy 0.005 * 1000, stop buy 0.005 * 2000.
        CHECK(dec(by.at("USDT").at("locked")) == dec_text("20"));
    }
}

TEST_CASE("beta mock trading: a futures market order shows up in positions, fills and account",
          "[contract][mock][beta]") {
    auto m = start_funded();
    auto const ack =
        post_order(*m, "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&newClientOrderId=m1");
    CHECK(keys(ack) == without(keys(md_order()), trailing_keys));
    for (auto const& [k, kind] : kinds(ack))
        CHECK(kind == kinds(md_order()).at(k));
    CHECK(ack.at("status") == "NEW"); // ACK: the order as accepted
    CHECK(ack.at("executedQty") == "0");
    CHECK(ack.at("avgPrice") == "0.00000");
    CHECK(ack.at("clientOrderId") == "m1");
    CHECK(ack.at("positionSide") == "BOTH");

    auto const result =
        post_order(*m, "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&newOrderRespType=RESULT");
    CHECK(keys(result) == keys(ack));
    CHECK(result.at("status") == "FILLED");
    CHECK(result.at("executedQty") == "0.01");
    CHECK(result.at("cumQty") == "0.01");
    CHECK(result.at("cumQuote") == "650.001");
    CHECK(result.at("avgPrice") == "65000.10000");

    auto const queried = get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(ack));
    CHECK(keys(queried) == without(keys(fixture("ccxt-fetchOrder.json")), trailing_keys));
    CHECK(queried.at("status") == "FILLED");
    CHECK(queried.at("type") == "MARKET");
    CHECK(queried.at("time").is_number());
    auto const by_client = get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&origClientOrderId=m1");
    CHECK(by_client.at("orderId") == ack.at("orderId"));

    auto const pos = row(get_signed(*m, "/fapi/v3/positionRisk"), "BTCUSDT");
    CHECK(pos.at("positionAmt") == "0.020");
    CHECK(dec(pos.at("entryPrice")) == dec_text("65000.1"));
    CHECK(dec(pos.at("unRealizedProfit")) == dec_text("-0.002"));
    // 100000 USDT of cross margin behind 0.02 BTC: no price liquidates it, shown as "0".
    CHECK(pos.at("liquidationPrice") == "0");
    auto const fills = get_signed(*m, "/fapi/v3/userTrades", "symbol=BTCUSDT");
    REQUIRE(fills.as_array().size() == 2);
    CHECK(fills.at(0).at("orderId") == ack.at("orderId"));
    CHECK(fills.at(0).at("maker") == false);
    CHECK(fills.at(0).at("commission") == "0.22750035"); // 650.001 * 0.035%
    auto const account = get_signed(*m, "/fapi/v3/account");
    CHECK(dec(account.at("totalWalletBalance")) == dec_text("99999.5449993"));
    auto const income = get_signed(*m, "/fapi/v3/income", "incomeType=COMMISSION");
    CHECK(income.as_array().size() == 2);
}

TEST_CASE("beta mock trading: cancel answers the recorded cancel, unknown orders are refused",
          "[contract][mock][beta]") {
    auto m = start_funded();
    auto const placed = post_order(*m, "symbol=BTCUSDT&side=BUY&type=TRAILING_STOP_MARKET"
                                       "&quantity=0.01&callbackRate=0.3&activationPrice=64000");
    CHECK(keys(placed) == keys(md_order()));
    CHECK(kinds(placed) == kinds(md_order()));
    CHECK(placed.at("activatePrice") == "64000.0");
    CHECK(placed.at("priceRate") == "0.3");

    auto const open = get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(placed));
    CHECK(kinds(open) == kinds(fixture("ccxt-fetchOrder.json")));
    CHECK(open.at("status") == "NEW");

    auto const canceled = ok_json(
        call(*m, http::verb::delete_, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(placed)));
    auto const recorded = fixture("ccxt-cancelOrder.json", 1);
    CHECK(kinds(canceled) == kinds(recorded));
    CHECK(canceled.at("status") == "CANCELED");
    for (auto const* same :
         {"origType", "type", "price", "side", "timeInForce", "reduceOnly", "closePosition",
          "workingType", "priceProtect", "priceRate", "executedQty", "cumQty", "cumQuote"})
        CHECK(canceled.at(same) == recorded.at(same));
    CHECK(canceled.at("positionSide") == "BOTH"); // one-way mode (the recording is hedge mode)

    check_error(
        call(*m, http::verb::delete_, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(placed)),
        wb::cancel_rejected);
    check_error(call(*m, http::verb::delete_, "/fapi/v3/order", "symbol=BTCUSDT&orderId=1"),
                wb::cancel_rejected);
    check_error(call(*m, http::verb::get, "/fapi/v3/order", "symbol=BTCUSDT&orderId=1"),
                wb::no_such_order);
    check_error(
        call(*m, http::verb::get, "/fapi/v3/order", "symbol=ETHUSDT&orderId=" + id_of(placed)),
        wb::no_such_order); // another symbol's order
    check_error(call(*m, http::verb::delete_, "/fapi/v3/order", "symbol=BTCUSDT"),
                wb::mandatory_param,
                "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!");
    CHECK(
        get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(placed)).at("status") ==
        "CANCELED");

    SECTION("spot cancel answers the recorded spot cancel and releases the reservation") {
        auto const bid = post_order(*m,
                                    "symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0.0049&"
                                    "price=1211.75&timeInForce=GTC&newClientOrderId=web_x",
                                    "/api/v3/order");
        auto const c = ok_json(call(*m, http::verb::delete_, "/api/v3/order",
                                    "symbol=ETHUSDT&origClientOrderId=web_x"));
        auto const rec = fixture("ccxt-cancelOrder.json", 0);
        CHECK(keys(c) == keys(rec));
        for (auto const* same :
             {"status", "avgPrice", "origQty", "executedQty", "cumQty", "cumQuote", "timeInForce",
              "type", "side", "stopPrice", "origType"})
            CHECK(c.at(same) == rec.at(same));
        CHECK(c.at("price") == "1211.75");
        CHECK(c.at("orderId") == bid.at("orderId"));
        auto const spot = get_signed(*m, "/api/v3/order", "symbol=ETHUSDT&orderId=" + id_of(bid));
        CHECK(spot.at("status") == "CANCELED");
        CHECK(spot.at("time").is_number());
        auto const account = get_signed(*m, "/api/v3/account");
        for (auto const& b : account.at("balances").as_array())
            if (b.at("asset") == "USDT")
                CHECK(dec(b.at("locked")) == dec_text("0"));
    }
}

TEST_CASE("beta mock trading: allOpenOrders cancels a symbol's orders with the recorded answer",
          "[contract][mock][beta]") {
    auto m = start_funded();
    post_order(*m, "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=60000&timeInForce=GTC");
    post_order(*m, "symbol=BTCUSDT&side=SELL&type=STOP_MARKET&quantity=0.01&stopPrice=60000");
    post_order(*m, "symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0.1&price=1400&timeInForce=GTC");
    CHECK(get_signed(*m, "/fapi/v3/openOrders").as_array().size() == 3);
    auto const r = call(*m, http::verb::delete_, "/fapi/v3/allOpenOrders", "symbol=BTCUSDT");
    CHECK(ok_json(r) == fixture("ccxt-cancelAllOrders.json"));
    auto const left = get_signed(*m, "/fapi/v3/openOrders");
    REQUIRE(left.as_array().size() == 1);
    CHECK(left.at(0).at("symbol") == "ETHUSDT");
    check_error(call(*m, http::verb::delete_, "/fapi/v3/allOpenOrders", ""), wb::mandatory_param,
                wb::mandatory_param_msg("symbol"));
    check_error(call(*m, http::verb::delete_, "/fapi/v3/allOpenOrders", "symbol=NOPEUSDT"),
                wb::invalid_symbol);
}

TEST_CASE("beta mock trading: leverage answers the recorded body and applies",
          "[contract][mock][beta]") {
    auto m = start_funded();
    auto const r =
        ok_json(call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT&leverage=21"));
    auto const rec = fixture("ccxt-setLeverage.json");
    CHECK(kinds(r) == kinds(rec));
    CHECK(r.at("symbol") == rec.at("symbol"));
    CHECK(r.at("leverage").to_number<int>() == rec.at("leverage").to_number<int>());
    CHECK(r.at("maxNotionalValue") == "3000000"); // bracket 3 (50x) is the last allowing 21x
    auto const pos = row(get_signed(*m, "/fapi/v3/positionRisk"), "BTCUSDT");
    CHECK(pos.at("leverage") == "21");
    check_error(call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT&leverage=200"),
                wb::invalid_leverage, "Leverage 200 is not valid");
    check_error(call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT&leverage=0"),
                wb::invalid_leverage, "Leverage 0 is not valid");
    check_error(call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT&leverage=x"),
                wb::illegal_chars, wb::illegal_chars_msg("leverage"));
    check_error(call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT"),
                wb::mandatory_param, wb::mandatory_param_msg("leverage"));

    SECTION("a position above the new leverage's cap refuses the change") {
        post_order(*m, "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=1"); // 65000 notional
        check_error(call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT&leverage=125"),
                    wb::max_leverage_ratio); // 125x caps 50000
    }
}

// =============================================================================================
// Triggers on /__mock/mark

TEST_CASE("beta mock trading: stops and trailing stops trigger on /__mock/mark",
          "[contract][mock][beta]") {
    auto m = start_funded();
    post_order(*m, "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.02");
    auto const stop =
        post_order(*m, "symbol=BTCUSDT&side=SELL&type=STOP_MARKET&quantity=0.02&stopPrice=64000"
                       "&reduceOnly=true&workingType=MARK_PRICE");
    set_mark(*m, "BTC", "64100");
    CHECK(get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(stop)).at("status") ==
          "NEW");
    set_mark(*m, "BTC", "63900");
    auto const fired = get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(stop));
    CHECK(fired.at("status") == "FILLED");
    CHECK(fired.at("origType") == "STOP_MARKET");
    CHECK(fired.at("type") == "MARKET");
    CHECK(fired.at("executedQty") == "0.02");
    CHECK(dec(row(get_signed(*m, "/fapi/v3/positionRisk"), "BTCUSDT").at("positionAmt")) ==
          dec_text("0"));

    // A short, covered by a trailing BUY: activates at 63000, then fires 1% above the low.
    post_order(*m, "symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.01");
    auto const trail = post_order(*m, "symbol=BTCUSDT&side=BUY&type=TRAILING_STOP_MARKET"
                                      "&quantity=0.01&callbackRate=1&activationPrice=63000");
    auto const status = [&] {
        return std::string(
            get_signed(*m, "/fapi/v3/order", "symbol=BTCUSDT&orderId=" + id_of(trail))
                .at("status")
                .as_string());
    };
    set_mark(*m, "BTC", "63500");
    CHECK(status() == "NEW"); // not active: 63500 is above the activation price
    set_mark(*m, "BTC", "62500");
    CHECK(status() == "NEW"); // active, lowest 62500: fires at 63125
    set_mark(*m, "BTC", "63100");
    CHECK(status() == "NEW");
    set_mark(*m, "BTC", "63125");
    CHECK(status() == "FILLED");
    CHECK(dec(row(get_signed(*m, "/fapi/v3/positionRisk"), "BTCUSDT").at("positionAmt")) ==
          dec_text("0"));
    CHECK(get_signed(*m, "/fapi/v3/openOrders").as_array().empty());
}

// =============================================================================================
// Errors

TEST_CASE("beta mock trading: refused orders answer the upstream's codes and texts",
          "[contract][mock][beta]") {
    auto m = start_funded();
    set_mark(*m, "TSLA", "400");
    struct bad {
        std::string params;
        wb::error_def error;
        std::string msg;
    };
    std::string const lim = "side=BUY&type=LIMIT&quantity=0.01&price=65000&timeInForce=GTC";
    std::vector<bad> const cases{
        {lim, wb::mandatory_param, wb::mandatory_param_msg("symbol")},
        {"symbol=NOPEUSDT&" + lim, wb::invalid_symbol, ""},
        {"symbol=BTCUSDT&side=UP&type=MARKET&quantity=0.01", wb::invalid_side, ""},
        {"symbol=BTCUSDT&side=BUY&type=OCO&quantity=0.01", wb::invalid_order_type, ""},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=65000&timeInForce=XYZ",
         wb::invalid_tif, ""},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=65000", wb::mandatory_param,
         wb::mandatory_param_msg("timeInForce")},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&positionSide=LONG",
         wb::position_side_mismatch, ""},
        {"symbol=BTCUSDT&side=BUY&type=MARKET", wb::mandatory_param,
         wb::mandatory_param_msg("quantity")},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=abc", wb::mandatory_param,
         wb::mandatory_param_msg("quantity")},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.0001", wb::bad_precision, ""},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0", wb::quantity_not_positive, ""},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=121", wb::quantity_above_max, ""},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1001&price=65000&timeInForce=GTC",
         wb::quantity_above_max, ""},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=65000.05&timeInForce=GTC",
         wb::bad_precision, ""},
        {"symbol=TSLAUSDT&side=BUY&type=LIMIT&quantity=1&price=400.123&timeInForce=GTC",
         wb::price_off_tick, ""},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=2000000&timeInForce=GTC",
         wb::price_above_max, ""},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=70000&timeInForce=GTC",
         wb::price_above_cap, "Limit price can't be higher than 68250.0."},
        {"symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=0.01&price=60000&timeInForce=GTC",
         wb::price_below_floor, "Limit price can't be lower than 61750.0."},
        {"symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=4000&timeInForce=GTC",
         wb::min_notional,
         "Order's notional must be no smaller than 5 (unless you choose reduce only)."},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&newClientOrderId=no!",
         wb::invalid_client_id, ""},
        {"symbol=BTCUSDT&side=SELL&type=STOP_MARKET&stopPrice=60000&closePosition=true"
         "&quantity=0.01",
         wb::quantity_with_close_position, ""},
        {"symbol=BTCUSDT&side=SELL&type=LIMIT&price=66000&timeInForce=GTC&closePosition=true",
         wb::param_not_required, wb::param_not_required_msg("closePosition")},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&price=65000", wb::param_not_required,
         wb::param_not_required_msg("price")},
        {"symbol=BTCUSDT&side=BUY&type=STOP_MARKET&quantity=0.01", wb::mandatory_param,
         wb::mandatory_param_msg("stopPrice")},
        {"symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01", wb::mandatory_param,
         wb::mandatory_param_msg("callbackRate")},
        {"symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01&callbackRate=6",
         wb::invalid_parameter, wb::invalid_parameter_msg("callbackRate")},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&reduceOnly=maybe",
         wb::invalid_parameter, wb::invalid_parameter_msg("reduceOnly")},
        {"symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.01&reduceOnly=true",
         wb::reduce_only_rejected, ""},
        {"symbol=BTCUSDT&side=BUY&type=MARKET&quantity=100", wb::margin_insufficient, ""},
        {"symbol=BTCUSDT&side=SELL&type=STOP_MARKET&quantity=0.01&stopPrice=66000",
         wb::would_immediately_trigger, ""},
        {"symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01&callbackRate=1"
         "&activationPrice=64000",
         wb::would_immediately_trigger, ""},
    };
    for (auto const& c : cases) {
        CAPTURE(c.params);
        check_error(call(*m, http::verb::post, "/fapi/v3/order", c.params), c.error, c.msg);
    }
    CHECK(get_signed(*m, "/fapi/v3/openOrders").as_array().empty()); // nothing was placed
    CHECK(get_signed(*m, "/fapi/v3/userTrades", "symbol=BTCUSDT").as_array().empty());

    SECTION("a client order id is unique among the open orders") {
        post_order(*m, "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=60000"
                       "&timeInForce=GTC&newClientOrderId=dup1");
        check_error(call(*m, http::verb::post, "/fapi/v3/order",
                         "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=60000"
                         "&timeInForce=GTC&newClientOrderId=dup1"),
                    wb::duplicate_client_id);
    }
    SECTION("spot") {
        std::vector<bad> const spot{
            {"symbol=ETHUSDT&side=BUY&type=TRAILING_STOP_MARKET&quantity=0.01&callbackRate=1",
             wb::invalid_order_type, ""},
            {"symbol=SOLUSDT&side=BUY&type=MARKET&quantity=1", wb::invalid_symbol, ""},
            // 100 ETH at 1500: more than the 101000 spot USDT.
            {"symbol=ETHUSDT&side=BUY&type=MARKET&quantity=100", wb::insufficient_balance, ""},
            {"symbol=ETHUSDT&side=SELL&type=MARKET&quantity=2", wb::insufficient_balance, ""},
            {"symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=100001&price=1000&timeInForce=GTC",
             wb::filter_failure, "Filter failure: LOT_SIZE"},
            {"symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0.001&price=1000&timeInForce=GTC",
             wb::filter_failure, "Filter failure: MIN_NOTIONAL"},
            {"symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000.001&timeInForce=GTC",
             wb::bad_precision, ""},
        };
        for (auto const& c : spot) {
            CAPTURE(c.params);
            check_error(call(*m, http::verb::post, "/api/v3/order", c.params), c.error, c.msg);
        }
    }
}

TEST_CASE("beta mock trading: signatures, nonces and weights on the order endpoints",
          "[contract][mock][beta]") {
    auto m = start_funded();
    std::string const params = "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01";
    auto const nonce = gateway::sign::beta::next_nonce_us();
    std::string const body = signed_params(params, nonce);

    // The body as signed, then altered: the quantity is part of the signed message.
    std::string tampered = body;
    tampered.replace(tampered.find("quantity=0.01"), 13, "quantity=0.02");
    check_error(fetch(http::verb::post, m->base_url() + "/fapi/v3/order", tampered),
                wb::invalid_signature);

    auto const used = [](raw_response const& r) {
        return std::stoi(std::string(r.message[wb::used_weight_header]));
    };
    auto const first = fetch(http::verb::post, m->base_url() + "/fapi/v3/order", body);
    REQUIRE(first.status == 200);
    auto const again = fetch(http::verb::post, m->base_url() + "/fapi/v3/order", body);
    check_error(again, wb::nonce_expired); // the same nonce again
    auto const second = call(*m, http::verb::delete_, "/fapi/v3/allOpenOrders", "symbol=BTCUSDT");
    auto const third = call(*m, http::verb::post, "/fapi/v3/leverage", "symbol=BTCUSDT&leverage=5");
    // beta.md §4.2: order, allOpenOrders and leverage weigh 1, charged before any check.
    CHECK(used(again) == used(first) + 1);
    CHECK(used(second) == used(first) + 2);
    CHECK(used(third) == used(first) + 3);

    // The official examples send a POST's parameters in the query with an empty body.
    auto const in_query = fetch(http::verb::post, m->base_url() + "/fapi/v3/order?" +
                                                      signed_params(params, nonce + 1));
    CHECK(in_query.status == 200);
    CHECK(json::parse(in_query.body).at("status") == "NEW");
    CHECK(get_signed(*m, "/fapi/v3/userTrades", "symbol=BTCUSDT").as_array().size() == 2);
    // An unknown method on a known path stays -5000.
    CHECK(fetch(http::verb::put, m->base_url() + "/fapi/v3/leverage").status == 404);
}

TEST_CASE("beta mock control: balances credit the spot balance and, for USDT, the futures "
          "collateral too, so one call funds both",
          "[contract][mock][beta]") {
    auto m = mock_server::start({upstream::beta});
    set_mark(*m, "BTC", "65000");
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + alice().address + R"(","balances":{"USDT":"100000"}})");
    // A spot BTC/USDT buy from that wallet: paid from the spot USDT the call credited.
    auto const spot = post_order(*m,
                                 "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01"
                                 "&price=64000&timeInForce=GTC",
                                 "/api/v3/order");
    CHECK(spot.at("status") == "NEW");
    auto const account = get_signed(*m, "/api/v3/account");
    auto const& usdt = row(account.at("balances"), "USDT", "asset");
    CHECK(dec(usdt.at("free")) == dec_text("99360"));
    CHECK(dec(usdt.at("locked")) == dec_text("640"));
    // And the futures collateral holds the same 100000.
    auto const futures = get_signed(*m, "/fapi/v3/account");
    CHECK(dec(futures.at("totalWalletBalance")) == dec_text("100000"));
}

} // namespace mock_beta_trading_test
