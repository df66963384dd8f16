// Unit tests of the contract types: enums, address, and every resource's JSON mapping
// (round trips against tests/fixtures/contract, strict vs lenient reading, nulls and omissions).
#include <catch2/catch.hpp>

#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/health.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/types/predictions.hpp>
#include <gateway/types/provider.hpp>
#include <gateway/types/rwas.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#ifndef GATEWAY_FIXTURES_DIR
#error "GATEWAY_FIXTURES_DIR must name the absolute path of tests/fixtures"
#endif

using namespace gateway;
namespace json = boost::json;

namespace {

json::value load_fixture(std::string const& name) {
    std::string const path = std::string(GATEWAY_FIXTURES_DIR) + "/contract/" + name + ".json";
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

template <class T>
std::string error_text(result<T> const& r) {
    return r ? std::string() : std::string(r.error().wire()) + ": " + r.error().message;
}

/// Fixture -> parse (both modes, and `value_to`) -> serialize must give the fixture back.
template <class T, result<T> (*Parse)(json::value const&, strictness)>
void round_trip(std::string const& name) {
    auto const fixture = load_fixture(name);
    for (auto mode : {strictness::inbound, strictness::upstream}) {
        INFO((mode == strictness::inbound ? "inbound" : "upstream"));
        auto parsed = Parse(fixture, mode);
        INFO(error_text(parsed));
        REQUIRE(parsed.has_value());
        CHECK(json::value_from(*parsed) == fixture);
    }
    auto via = json::try_value_to<T>(fixture);
    REQUIRE(via.has_value());
    CHECK(json::value_from(*via) == fixture);
}

using round_trip_fn = void (*)(std::string const&);

} // namespace

// ---------------------------------------------------------------------------------------------
// Enums

TEMPLATE_TEST_CASE("every wire name of an enum parses back to its enumerator", "[unit]", side,
                   position_side, order_type, time_in_force, interval, health_status, vertical,
                   auth_model, market_status, open_order_status, place_status, liquidity,
                   margin_mode, dex_state, cancel_status, typed_data_operation) {
    for (auto const& row : detail::enum_traits<TestType>::rows) {
        CAPTURE(row.text);
        CHECK(to_string(row.value) == row.text);
        auto parsed = parse_enum<TestType>(row.text, "field");
        REQUIRE(parsed.has_value());
        CHECK(*parsed == row.value);
        CHECK(json::value_from(row.value) == json::value(row.text));
        auto back = json::try_value_to<TestType>(json::value(row.text));
        REQUIRE(back.has_value());
        CHECK(*back == row.value);
    }
}

TEST_CASE("enum wire names are exactly the contract's spelling", "[unit]") {
    CHECK(to_string(position_side::short_) == "short");
    CHECK(to_string(order_type::trailing_stop) == "trailing_stop");
    CHECK(to_string(interval::m15) == "15m");
    CHECK(to_string(interval::w1) == "1w");
    CHECK(to_string(place_status::partially_filled) == "partially_filled");
    CHECK(to_string(typed_data_operation::set_leverage) == "setLeverage");
}

TEST_CASE("an unknown enum value is a VALIDATION_ERROR naming the field and the allowed values",
          "[unit]") {
    auto [text, expected] = GENERATE(table<std::string, std::string>({
        {"BUY", "'side' must be one of: buy, sell."},
        {"", "'side' must be one of: buy, sell."},
        {"hold", "'side' must be one of: buy, sell."},
    }));
    CAPTURE(text);
    auto r = parse_side(text, "side");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == errc::validation_error);
    CHECK(r.error().field() == "side");
    CHECK(r.error().message == expected);
    CHECK(parse_order_type("trailing", "type").error().message ==
          "'type' must be one of: market, limit, stop_market, stop_limit, trailing_stop.");
    CHECK(parse_interval("2h", "interval").error().message ==
          "'interval' must be one of: 1m, 5m, 15m, 30m, 1h, 4h, 1d, 1w.");
}

TEST_CASE("enum JSON refuses non-strings and unknown names", "[unit]") {
    CHECK_FALSE(json::try_value_to<side>(json::value(1)).has_value());
    CHECK_FALSE(json::try_value_to<side>(json::value("Buy")).has_value());
    CHECK_FALSE(json::try_value_to<health_status>(json::value(nullptr)).has_value());
}

TEST_CASE("interval_ms gives each interval's length in milliseconds", "[unit]") {
    auto [i, ms] = GENERATE(table<interval, std::int64_t>({
        {interval::m1, 60'000},
        {interval::m5, 300'000},
        {interval::m15, 900'000},
        {interval::m30, 1'800'000},
        {interval::h1, 3'600'000},
        {interval::h4, 14'400'000},
        {interval::d1, 86'400'000},
        {interval::w1, 604'800'000},
    }));
    CAPTURE(to_string(i));
    CHECK(interval_ms(i) == ms);
}

TEST_CASE("worst health status is the larger of ok < degraded < down", "[unit]") {
    auto [a, b, w] = GENERATE(table<health_status, health_status, health_status>({
        {health_status::ok, health_status::ok, health_status::ok},
        {health_status::ok, health_status::degraded, health_status::degraded},
        {health_status::degraded, health_status::ok, health_status::degraded},
        {health_status::down, health_status::degraded, health_status::down},
        {health_status::ok, health_status::down, health_status::down},
    }));
    CAPTURE(to_string(a), to_string(b));
    CHECK(worst(a, b) == w);
    static_assert(worst(health_status::degraded, health_status::down) == health_status::down);
}

// ---------------------------------------------------------------------------------------------
// Address

TEST_CASE("address accepts any case and answers lower case", "[unit]") {
    auto a = address::parse("0x63DD5aCC6b1aa0f563956C0e534DD30B6dcF7C4e", "wallet");
    REQUIRE(a.has_value());
    CHECK(a->str() == "0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e");
    CHECK_FALSE(a->is_zero());
    CHECK(address{}.is_zero());
    CHECK(json::value_from(*a) == json::value("0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e"));
    auto back =
        json::try_value_to<address>(json::value("0x63DD5ACC6B1AA0F563956C0E534DD30B6DCF7C4E"));
    REQUIRE(back.has_value());
    CHECK(*back == *a);
}

TEST_CASE("a malformed address is a VALIDATION_ERROR naming the field", "[unit]") {
    auto text = GENERATE(
        as<std::string>{}, "", "0x", "63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e",
        "0X63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e", "0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4",
        "0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e0", "0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4g",
        " 0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e");
    CAPTURE(text);
    auto a = address::parse(text, "wallet");
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().code == errc::validation_error);
    CHECK(a.error().field() == "wallet");
    CHECK(a.error().message == "'wallet' must be an address: 0x followed by 40 hex digits.");
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST_CASE("every contract fixture survives parse then serialize unchanged", "[unit]") {
    auto [name, check] = GENERATE(table<std::string, round_trip_fn>({
        {"provider_list", &round_trip<provider_list, &parse_provider_list>},
        {"provider_detail", &round_trip<provider_detail, &parse_provider_detail>},
        {"aggregate_health", &round_trip<aggregate_health, &parse_aggregate_health>},
        {"provider_health", &round_trip<provider_health, &parse_provider_health>},
        {"account_summary", &round_trip<account_summary, &parse_account_summary>},
        {"position", &round_trip<position, &parse_position>},
        {"trade", &round_trip<trade, &parse_trade>},
        {"candle", &round_trip<candle, &parse_candle>},
        {"prices", &round_trip<price_map, &parse_prices>},
        {"orderbook", &round_trip<orderbook, &parse_orderbook>},
        {"spot_balance", &round_trip<spot_balance, &parse_spot_balance>},
        {"open_order", &round_trip<open_order, &parse_open_order>},
        {"fill", &round_trip<fill, &parse_fill>},
        {"dex", &round_trip<dex, &parse_dex>},
        {"dex_detail", &round_trip<dex_detail, &parse_dex_detail>},
        {"dex_status", &round_trip<dex_status, &parse_dex_status>},
        {"prediction_event", &round_trip<prediction_event, &parse_prediction_event>},
        {"prediction_market", &round_trip<prediction_market, &parse_prediction_market>},
        {"prediction_event_detail",
         &round_trip<prediction_event_detail, &parse_prediction_event_detail>},
        {"place_result", &round_trip<place_result, &parse_place_result>},
        {"cancel_result", &round_trip<cancel_result, &parse_cancel_result>},
        {"leverage_result", &round_trip<leverage_result, &parse_leverage_result>},
        {"typed_data_response", &round_trip<typed_data_response, &parse_typed_data_response>},
        {"place_order_request", &round_trip<place_order_request, &parse_place_order_request>},
        {"cancel_order_request", &round_trip<cancel_order_request, &parse_cancel_order_request>},
        {"set_leverage_request", &round_trip<set_leverage_request, &parse_set_leverage_request>},
        {"gamma_order_request", &round_trip<gamma_order_request, &parse_gamma_order_request>},
        {"gamma_cancel_request", &round_trip<gamma_cancel_request, &parse_gamma_cancel_request>},
        {"typed_data_request", &round_trip<typed_data_request, &parse_typed_data_request>},
    }));
    CAPTURE(name);
    check(name);
}

// ---------------------------------------------------------------------------------------------
// Strict inbound, lenient upstream

TEST_CASE("an unknown field is rejected inbound and ignored upstream", "[unit]") {
    auto body = load_fixture("trade");
    body.as_object()["venue"] = "x";
    auto strict = parse_trade(body, strictness::inbound);
    REQUIRE_FALSE(strict.has_value());
    CHECK(strict.error().code == errc::validation_error);
    CHECK(strict.error().field() == "venue");
    CHECK(strict.error().message == "Unknown field 'venue'.");
    CHECK(parse_trade(body, strictness::upstream).has_value());
}

TEST_CASE("a missing field is VALIDATION_ERROR inbound and UPSTREAM_ERROR upstream", "[unit]") {
    auto body = load_fixture("trade");
    body.as_object().erase("price");
    auto strict = parse_trade(body, strictness::inbound);
    REQUIRE_FALSE(strict.has_value());
    CHECK(strict.error().code == errc::validation_error);
    CHECK(strict.error().field() == "price");
    CHECK(strict.error().message == "'price' is required.");
    auto lenient = parse_trade(body, strictness::upstream);
    REQUIRE_FALSE(lenient.has_value());
    CHECK(lenient.error().code == errc::upstream_error);
    CHECK(lenient.error().status == 502);
}

TEST_CASE("a body that is not an object is INVALID_JSON inbound and UPSTREAM_ERROR upstream",
          "[unit]") {
    auto const body = json::parse("[1, 2]");
    CHECK(parse_cancel_order_request(body, strictness::inbound).error().code == errc::invalid_json);
    CHECK(parse_cancel_order_request(body, strictness::upstream).error().code ==
          errc::upstream_error);
}

TEST_CASE("a mistyped field names the field and the expected JSON type", "[unit]") {
    auto [key, value, message] = GENERATE(table<std::string, std::string, std::string>({
        {"side", "1", "'side' must be a string."},
        {"side", R"("up")", "'side' must be one of: buy, sell."},
        {"timestamp", R"("1714564800123")", "'timestamp' must be an integer."},
        {"timestamp", "1.5", "'timestamp' must be an integer."},
        {"size", "0.013", "'size' must be a decimal string in plain notation."},
        {"size", R"("1e-3")", "'size' must be a decimal string in plain notation, e.g. \"0.5\""},
        {"id", "7", "'id' must be a string."},
    }));
    CAPTURE(key, value);
    auto body = load_fixture("trade");
    body.as_object()[key] = json::parse(value);
    auto r = parse_trade(body, strictness::inbound);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == errc::validation_error);
    CHECK(r.error().field() == key);
    CHECK(r.error().message == message);
}

TEST_CASE("upstream mode accepts numbers for decimals and integral doubles for integers",
          "[unit]") {
    auto const body = json::parse(
        R"({"id":"1","price":64100.5,"size":"1.0e-2","side":"buy","timestamp":1714564800123.0})");
    auto t = parse_trade(body, strictness::upstream);
    INFO(error_text(t));
    REQUIRE(t.has_value());
    CHECK(t->price.str() == "64100.5");
    CHECK(t->size.str() == "0.01");
    CHECK(t->timestamp == 1714564800123);
    CHECK_FALSE(parse_trade(body, strictness::inbound).has_value());
}

TEST_CASE("a nested failure inbound names the path to the field", "[unit]") {
    SECTION("array item of provider detail") {
        auto body = load_fixture("provider_detail");
        body.at("verticalDetails").as_array()[1].as_object()["baseUrl"] = 5;
        auto r = parse_provider_detail(body, strictness::inbound);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "verticalDetails[1].baseUrl");
        CHECK(r.error().message == "'baseUrl' must be a string.");
    }
    SECTION("unknown key deep in a prediction event") {
        auto body = load_fixture("prediction_event");
        body.at("markets").as_array()[0].at("tokens").as_array()[1].as_object()["extra"] = 1;
        auto r = parse_prediction_event(body, strictness::inbound);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "markets[0].tokens[1].extra");
        CHECK(parse_prediction_event(body, strictness::upstream).has_value());
    }
    SECTION("map entry of aggregate health") {
        auto body = load_fixture("aggregate_health");
        body.at("providers").as_object()["beta"].as_object()["status"] = "slow";
        auto r = parse_aggregate_health(body, strictness::inbound);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "providers.beta.status");
    }
    SECTION("item that is not an object") {
        auto body = load_fixture("orderbook");
        body.at("asks").as_array()[0] = "64100.5";
        auto r = parse_orderbook(body, strictness::inbound);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().code == errc::validation_error);
        CHECK(r.error().field() == "asks[0]");
        CHECK(parse_orderbook(body, strictness::upstream).error().code == errc::upstream_error);
    }
}

TEST_CASE("a prices map value that is not a decimal names its symbol", "[unit]") {
    auto const body = json::parse(R"({"BTC":"64100.5","ETH":"fast"})");
    auto r = parse_prices(body, strictness::inbound);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().field() == "ETH");
    auto ok =
        parse_prices(json::parse(R"({"BTC":"64100.50","ETH":3050.25})"), strictness::upstream);
    REQUIRE(ok.has_value());
    CHECK(ok->at("BTC").str() == "64100.5");
    CHECK(ok->at("ETH").str() == "3050.25");
}

TEST_CASE("parse_list reads an array of objects and names the failing item", "[unit]") {
    auto position = load_fixture("position");
    json::array list{position, position};
    auto ok = parse_list(list, strictness::upstream, parse_position, "positions");
    REQUIRE(ok.has_value());
    CHECK(ok->size() == 2);
    list[1].as_object()["side"] = "flat";
    auto bad = parse_list(list, strictness::inbound, parse_position, "positions");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().field() == "[1].side");
    CHECK(parse_list(position, strictness::inbound, parse_position).error().code ==
          errc::invalid_json);
    CHECK(parse_list(position, strictness::upstream, parse_position).error().code ==
          errc::upstream_error);
}

// ---------------------------------------------------------------------------------------------
// Nulls and omitted keys

TEST_CASE("absent optional URLs of a vertical detail are omitted, never null", "[unit]") {
    vertical_detail d{
        vertical::predictions, "https://catalog.example", "wss://ws.example", std::nullopt,
        std::nullopt,          "https://clob.example",    std::nullopt};
    auto const jv = json::value_from(d);
    auto const& o = jv.as_object();
    CHECK_FALSE(o.contains("testnetBaseUrl"));
    CHECK_FALSE(o.contains("testnetWsUrl"));
    CHECK_FALSE(o.contains("readSigner"));
    CHECK(o.at("clobBaseUrl") == "https://clob.example");
    auto back = parse_vertical_detail(jv, strictness::inbound);
    REQUIRE(back.has_value());
    CHECK(back->clob_base_url == d.clob_base_url);
    CHECK_FALSE(back->testnet_base_url);
}

TEST_CASE("nullable open-order and result fields are written as null", "[unit]") {
    open_order o;
    o.order_id = "1";
    o.symbol = "BTC";
    auto const jv = json::value_from(o);
    CHECK(jv.at("clientOrderId").is_null());
    CHECK(jv.at("price").is_null());
    CHECK(jv.at("triggerPrice").is_null());

    place_result r{"42", std::nullopt, place_status::open, {}, std::nullopt};
    auto const rv = json::value_from(r);
    CHECK(rv.at("averagePrice").is_null());
    CHECK(rv.at("clientOrderId").is_null());
    CHECK(rv.at("filledSize") == "0");

    fill f;
    CHECK(json::value_from(f).at("closedPnl").is_null());
}

TEST_CASE("an order body without its optional fields writes none of them", "[unit]") {
    place_order_request r;
    r.symbol = "PURR/USDC";
    r.size = decimal::parse("10").value();
    r.nonce = 1;
    auto const jv = json::value_from(r);
    auto const& o = jv.as_object();
    for (auto key : {"price", "triggerPrice", "callbackRate", "activationPrice", "reduceOnly",
                     "timeInForce", "clientOrderId", "signer", "signature"}) {
        CAPTURE(key);
        CHECK_FALSE(o.contains(key));
    }
    CHECK(o.at("wallet") == "0x0000000000000000000000000000000000000000");
    CHECK(o.size() == 6);
}

TEST_CASE("typed-data params parse as the write body without its signature", "[unit]") {
    auto const req =
        parse_typed_data_request(load_fixture("typed_data_request"), strictness::inbound);
    REQUIRE(req.has_value());
    CHECK(req->operation == typed_data_operation::place_order);
    auto body = parse_place_order_request(req->params, strictness::inbound);
    INFO(error_text(body));
    REQUIRE(body.has_value());
    CHECK(body->signature.empty());
    CHECK(body->type == order_type::market);
    CHECK(json::value_from(*body) == json::value(req->params));
}

TEST_CASE("set-leverage margin mode defaults to cross", "[unit]") {
    auto body = load_fixture("set_leverage_request");
    body.as_object().erase("marginMode");
    auto r = parse_set_leverage_request(body, strictness::inbound);
    REQUIRE(r.has_value());
    CHECK(r->margin_mode == margin_mode::cross);
}

TEST_CASE("a wallet in any case is read and written in lower case", "[unit]") {
    auto body = load_fixture("cancel_order_request");
    body.as_object()["wallet"] = "0x63DD5ACC6B1AA0F563956C0E534DD30B6DCF7C4E";
    auto r = parse_cancel_order_request(body, strictness::inbound);
    REQUIRE(r.has_value());
    CHECK(json::value_from(*r) == load_fixture("cancel_order_request"));
    body.as_object()["wallet"] = "0x123";
    auto bad = parse_cancel_order_request(body, strictness::inbound);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().field() == "wallet");
    CHECK(bad.error().message == "'wallet' must be an address: 0x followed by 40 hex digits.");
}
