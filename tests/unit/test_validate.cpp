// Unit tests of validate.hpp: per-type write rules and the read query parameters with their
// limits (spec §8, CONTRACT §4-6), shared by client and server.
#include <catch2/catch.hpp>

#include "support/values.hpp"

#include <gateway/validate/validate.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

using namespace gateway;

using gateway::test::dec;

namespace {

address wallet() {
    return address::parse("0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e").value();
}

std::string const signature = "0x" + std::string(130, 'a');

/// A limit order that passes every rule; each case below breaks one.
place_order_request limit_order() {
    place_order_request r;
    r.symbol = "BTC";
    r.side = side::buy;
    r.type = order_type::limit;
    r.size = dec("0.01");
    r.price = dec("64000");
    r.wallet = wallet();
    r.signature = signature;
    r.nonce = 1714564800123;
    return r;
}

gamma_order_request gamma_order() {
    gamma_order_request r;
    r.token_id = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
    r.size = dec("21.04");
    r.price = dec("0.56");
    r.wallet = wallet();
    r.salt = 479249096354u;
    r.signature = signature;
    r.api_key = "key";
    r.api_secret = "secret";
    r.passphrase = "pass";
    return r;
}

/// Checks a failed validation: VALIDATION_ERROR naming `field`.
template <class T>
void check_fails_on(result<T> const& r, std::string_view field) {
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == errc::validation_error);
    CHECK(r.error().status == 400);
    CHECK(r.error().field() == field);
}

using order_edit = void (*)(place_order_request&);

/// A lookup over a fixed set of query parameters, as a server would build one.
struct map_lookup {
    std::map<std::string, std::string, std::less<>> params;
    std::optional<std::string_view> operator()(std::string_view name) const {
        auto it = params.find(name);
        if (it == params.end())
            return std::nullopt;
        return std::string_view(it->second);
    }
};

} // namespace

// ---------------------------------------------------------------------------------------------
// Write bodies

TEST_CASE("a well-formed limit order passes validation", "[unit]") {
    CHECK(validate(limit_order()).has_value());
}

TEST_CASE("order rules follow the order type", "[unit]") {
    auto [what, type, edit, field] =
        GENERATE(
            table<std::string, order_type, order_edit, std::string>(
                {
                    {"empty symbol", order_type::limit,
                     +[](place_order_request& r) { r.symbol.clear(); }, "symbol"},
                    {"zero size", order_type::limit,
                     +[](place_order_request& r) { r.size = dec("0"); }, "size"},
                    {"negative size", order_type::market,
                     +[](place_order_request& r) { r.size = dec("-1"); }, "size"},
                    {"limit without price", order_type::limit,
                     +[](place_order_request& r) { r.price.reset(); }, "price"},
                    {"stop_limit without price", order_type::stop_limit,
                     +[](place_order_request& r) {
                         r.price.reset();
                         r.trigger_price = dec("63000");
                     },
                     "price"},
                    {"zero price", order_type::market,
                     +[](place_order_request& r) { r.price = dec("0"); }, "price"},
                    {"stop_market without trigger", order_type::stop_market,
                     +[](place_order_request&) {}, "triggerPrice"},
                    {"trigger on a limit order", order_type::limit,
                     +[](place_order_request& r) { r.trigger_price = dec("63000"); },
                     "triggerPrice"},
                    {"negative trigger", order_type::stop_market,
                     +[](place_order_request& r) { r.trigger_price = dec("-1"); }, "triggerPrice"},
                    {"trailing stop without callback rate", order_type::trailing_stop,
                     +[](place_order_request&) {}, "callbackRate"},
                    {"callback rate on a market order", order_type::market,
                     +[](place_order_request& r) { r.callback_rate = dec("1"); }, "callbackRate"},
                    {"activation price on a limit order", order_type::limit,
                     +[](place_order_request& r) { r.activation_price = dec("70000"); },
                     "activationPrice"},
                    {"time in force on a market order", order_type::market,
                     +[](place_order_request& r) { r.time_in_force = time_in_force::ioc; },
                     "timeInForce"},
                    {"time in force on a stop_market order", order_type::stop_market,
                     +[](place_order_request& r) {
                         r.trigger_price = dec("63000");
                         r.time_in_force = time_in_force::gtc;
                     },
                     "timeInForce"},
                    {"short client order id", order_type::limit,
                     +[](place_order_request& r) { r.client_order_id = "0x1234"; },
                     "clientOrderId"},
                    {"client order id without 0x", order_type::limit,
                     +[](place_order_request&
                             r) { r.client_order_id = "1234567890abcdef1234567890abcdef12"; },
                     "clientOrderId"},
                    {"client order id with a non-hex digit", order_type::limit,
                     +[](place_order_request& r) {
                         r.client_order_id = "0x1234567890abcdef1234567890abcdeg";
                     },
                     "clientOrderId"},
                    {"zero nonce", order_type::limit, +[](place_order_request& r) { r.nonce = 0; },
                     "nonce"},
                    {"missing signature", order_type::limit,
                     +[](place_order_request& r) { r.signature.clear(); }, "signature"},
                }));
    CAPTURE(what);
    auto r = limit_order();
    r.type = type;
    edit(r);
    check_fails_on(validate(r), field);
}

TEST_CASE("orders that meet their type's rules pass", "[unit]") {
    auto [what, edit] = GENERATE(table<std::string, order_edit>({
        {"market with a worst price",
         +[](place_order_request& r) {
             r.type = order_type::market;
         }},
        {"market without price",
         +[](place_order_request& r) {
             r.type = order_type::market;
             r.price.reset();
         }},
        {"stop_limit with both prices and alo",
         +[](place_order_request& r) {
             r.type = order_type::stop_limit;
             r.trigger_price = dec("63000");
             r.time_in_force = time_in_force::alo;
         }},
        {"trailing stop",
         +[](place_order_request& r) {
             r.type = order_type::trailing_stop;
             r.price.reset();
             r.callback_rate = dec("1");
             r.activation_price = dec("70000");
             r.reduce_only = true;
         }},
        {"client order id in upper case",
         +[](place_order_request& r) {
             r.client_order_id = "0x1234567890ABCDEF1234567890ABCDEF";
         }},
        {"beta agent signer",
         +[](place_order_request& r) {
             r.signer = address::parse("0x21cf8ae13bb72632562c6fff438652ba1a151bb0").value();
         }},
    }));
    CAPTURE(what);
    auto r = limit_order();
    edit(r);
    auto v = validate(r);
    INFO((v ? std::string() : v.error().message));
    CHECK(v.has_value());
}

TEST_CASE("typed-data params need no signature but a signed write does", "[unit]") {
    auto r = limit_order();
    r.signature.clear();
    CHECK(validate(r, body_kind::typed_data_params).has_value());
    auto v = validate(r, body_kind::signed_write);
    check_fails_on(v, "signature");
    CHECK(v.error().message == "'signature' is required for a signed write.");
}

TEST_CASE("the first broken order rule is the one reported", "[unit]") {
    auto r = limit_order();
    r.size = dec("0");
    r.price.reset();
    auto v = validate(r);
    check_fails_on(v, "size");
    CHECK(v.error().message == "'size' must be greater than 0.");
}

TEST_CASE("cancel and leverage bodies check their fields", "[unit]") {
    cancel_order_request c{"BTC", "91490942", wallet(), std::nullopt, signature, 1};
    CHECK(validate(c).has_value());
    SECTION("cancel without order id") {
        c.order_id.clear();
        check_fails_on(validate(c), "orderId");
    }
    SECTION("cancel with a negative nonce") {
        c.nonce = -5;
        check_fails_on(validate(c), "nonce");
    }
    SECTION("cancel params for typed data carry no signature") {
        c.signature.clear();
        CHECK(validate(c, body_kind::typed_data_params).has_value());
        check_fails_on(validate(c), "signature");
    }
    set_leverage_request l{"ETH", 20, margin_mode::isolated, wallet(), std::nullopt, signature, 1};
    CHECK(validate(l).has_value());
    SECTION("zero leverage") {
        l.leverage = 0;
        check_fails_on(validate(l), "leverage");
    }
    SECTION("leverage without symbol") {
        l.symbol.clear();
        check_fails_on(validate(l), "symbol");
    }
}

TEST_CASE("gamma order rules", "[unit]") {
    auto r = gamma_order();
    CHECK(validate(r).has_value());
    SECTION("price must lie strictly between 0 and 1") {
        auto price = GENERATE(as<std::string>{}, "0", "1", "1.5", "-0.1");
        CAPTURE(price);
        r.price = dec(price);
        check_fails_on(validate(r), "price");
    }
    SECTION("token id is decimal digits") {
        r.token_id = "0xabc";
        check_fails_on(validate(r), "tokenId");
    }
    SECTION("signature type is 0, 1 or 2") {
        r.signature_type = 3;
        check_fails_on(validate(r), "signatureType");
    }
    SECTION("a signed write needs salt, signature and credentials") {
        auto [what, field] = GENERATE(table<std::string, std::string>({
            {"salt", "salt"},
            {"signature", "signature"},
            {"apiKey", "apiKey"},
            {"apiSecret", "apiSecret"},
            {"passphrase", "passphrase"},
        }));
        CAPTURE(what);
        if (what == "salt")
            r.salt.reset();
        else if (what == "signature")
            r.signature.clear();
        else if (what == "apiKey")
            r.api_key.clear();
        else if (what == "apiSecret")
            r.api_secret.clear();
        else
            r.passphrase.clear();
        check_fails_on(validate(r), field);
        CHECK(validate(r, body_kind::typed_data_params).has_value());
    }
    SECTION("gamma cancel needs its credentials") {
        gamma_cancel_request c{"0x23b4", wallet(), "key", "secret", ""};
        check_fails_on(validate(c), "passphrase");
        c.passphrase = "pass";
        CHECK(validate(c).has_value());
    }
}

// ---------------------------------------------------------------------------------------------
// Query parameters

TEST_CASE("parse_limit takes the default when absent and refuses anything outside 1..max",
          "[unit]") {
    CHECK(parse_limit(std::nullopt, 50, 200, "limit").value() == 50);
    // expected 0: the text must be refused.
    auto [raw, expected] = GENERATE(table<std::string, std::int64_t>({
        {"1", 1},
        {"200", 200},
        {"75", 75},
        {"201", 0},
        {"0", 0},
        {"-1", 0},
        {"", 0},
        {"abc", 0},
        {"1.5", 0},
        {"+5", 0},
        {" 5", 0},
        {"5 ", 0},
        {"99999999999999999999", 0},
    }));
    CAPTURE(raw);
    auto r = parse_limit(std::string_view(raw), 50, 200, "limit");
    if (expected != 0) {
        REQUIRE(r.has_value());
        CHECK(*r == expected);
    } else {
        check_fails_on(r, "limit");
        CHECK(r.error().message == "'limit' must be an integer from 1 to 200.");
    }
}

TEST_CASE("parse_time_ms reads non-negative integer milliseconds", "[unit]") {
    CHECK_FALSE(parse_time_ms(std::nullopt, "startTime").value().has_value());
    CHECK(parse_time_ms("1714564800123", "startTime").value() == 1714564800123);
    CHECK(parse_time_ms("0", "startTime").value() == 0);
    auto raw = GENERATE(as<std::string>{}, "-1", "", "1.5", "2024-05-01", "1e3");
    CAPTURE(raw);
    auto r = parse_time_ms(raw, "endTime");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().field() == "endTime");
}

TEST_CASE("read parameters have their contract limits as named constants", "[unit]") {
    STATIC_REQUIRE(trades_params::default_limit == 50);
    STATIC_REQUIRE(trades_params::max_limit == 200);
    STATIC_REQUIRE(candles_params::max_candles == 5000);
    STATIC_REQUIRE(orderbook_params::default_depth == 20);
    STATIC_REQUIRE(orderbook_params::max_depth == 1000);
    STATIC_REQUIRE(fills_params::default_limit == 100);
    STATIC_REQUIRE(fills_params::max_limit == 500);
    STATIC_REQUIRE(events_params::default_limit == 25);
    STATIC_REQUIRE(events_params::max_limit == 100);
    STATIC_REQUIRE(markets_params::default_limit == 25);
    STATIC_REQUIRE(markets_params::max_limit == 100);
}

TEST_CASE("a limit above its maximum or below 1 is a VALIDATION_ERROR, never clamped", "[unit]") {
    auto [name, raw] = GENERATE(table<std::string, std::string>({
        {"trades", "201"},
        {"fills", "501"},
        {"events", "101"},
        {"markets", "0"},
        {"orderbook", "1001"},
    }));
    CAPTURE(name, raw);
    map_lookup q;
    q.params[name == "orderbook" ? "depth" : "limit"] = raw;
    if (name == "trades")
        check_fails_on(trades_params::from_query(q), "limit");
    else if (name == "fills")
        check_fails_on(fills_params::from_query(q), "limit");
    else if (name == "events")
        check_fails_on(events_params::from_query(q), "limit");
    else if (name == "markets")
        check_fails_on(markets_params::from_query(q), "limit");
    else
        check_fails_on(orderbook_params::from_query(q), "depth");
}

TEST_CASE("absent limits take their defaults", "[unit]") {
    map_lookup const none;
    CHECK(trades_params::from_query(none).value().limit == 50);
    CHECK(orderbook_params::from_query(none).value().depth == 20);
    CHECK(fills_params::from_query(none).value().limit == 100);
    CHECK(events_params::from_query(none).value().limit == 25);
    CHECK(markets_params::from_query(none).value().limit == 25);
}

TEST_CASE("to_query lists only the parameters that are set, and from_query reads them back",
          "[unit]") {
    CHECK(trades_params{}.to_query().empty());
    CHECK(events_params{}.to_query().empty());

    events_params e{market_status::resolved, "Economics", 10};
    query_params const expected{{"status", "resolved"}, {"category", "Economics"}, {"limit", "10"}};
    CHECK(e.to_query() == expected);
    auto back = events_params::from_query(
        [q = e.to_query()](std::string_view name) { return find_param(q, name); });
    REQUIRE(back.has_value());
    CHECK(back->status == market_status::resolved);
    CHECK(back->category == "Economics");
    CHECK(back->limit == 10);

    markets_params m{"903193", std::nullopt, std::nullopt};
    CHECK(m.to_query() == query_params{{"eventId", "903193"}});

    candles_params c{interval::h1, 1000, std::nullopt};
    CHECK(c.to_query() == query_params{{"interval", "1h"}, {"startTime", "1000"}});

    fills_params f{1, 2, 3};
    CHECK(f.to_query() == query_params{{"startTime", "1"}, {"endTime", "2"}, {"limit", "3"}});
}

TEST_CASE("unknown query parameters are ignored", "[unit]") {
    map_lookup q;
    q.params["limit"] = "10";
    q.params["cursor"] = "abc";
    CHECK(trades_params::from_query(q).value().limit == 10);
}

TEST_CASE("candles need an interval and at most 5000 candles in range", "[unit]") {
    map_lookup q;
    SECTION("interval missing") {
        auto r = candles_params::from_query(q);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "interval");
        CHECK(r.error().message == "'interval' is required.");
    }
    SECTION("interval unknown") {
        q.params["interval"] = "2h";
        auto r = candles_params::from_query(q);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "interval");
    }
    SECTION("start after end") {
        q.params = {{"interval", "1m"}, {"startTime", "2000"}, {"endTime", "1000"}};
        auto r = candles_params::from_query(q);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "startTime");
    }
    SECTION("range of exactly 5000 candles passes, one more interval fails") {
        auto const minute = interval_ms(interval::m1);
        q.params = {
            {"interval", "1m"}, {"startTime", "0"}, {"endTime", std::to_string(4999 * minute)}};
        CHECK(candles_params::from_query(q).has_value());
        q.params["endTime"] = std::to_string(5000 * minute);
        auto r = candles_params::from_query(q);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "startTime");
    }
    SECTION("malformed time") {
        q.params = {{"interval", "1m"}, {"endTime", "yesterday"}};
        auto r = candles_params::from_query(q);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "endTime");
    }
}

TEST_CASE("candle range defaults to now and 500 intervals before the end", "[unit]") {
    std::int64_t const now = 1'714'564'800'000;
    auto const hour = interval_ms(interval::h1);
    SECTION("both defaulted") {
        auto r = candles_params{interval::h1, std::nullopt, std::nullopt}.resolve(now);
        REQUIRE(r.has_value());
        CHECK(r->end_time == now);
        CHECK(r->start_time == now - 500 * hour);
    }
    SECTION("end given") {
        auto r = candles_params{interval::h1, std::nullopt, now - hour}.resolve(now);
        REQUIRE(r.has_value());
        CHECK(r->start_time == now - 501 * hour);
    }
    SECTION("start too far before now") {
        auto r = candles_params{interval::m1, 0, std::nullopt}.resolve(now);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "startTime");
    }
}

TEST_CASE("fills refuse a start after the end", "[unit]") {
    map_lookup q;
    q.params = {{"startTime", "5"}, {"endTime", "4"}};
    auto r = fills_params::from_query(q);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().field() == "startTime");
}

TEST_CASE("event and market filters are checked", "[unit]") {
    map_lookup q;
    SECTION("unknown status lists the allowed values") {
        q.params["status"] = "open";
        auto r = events_params::from_query(q);
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "status");
        CHECK(r.error().message == "'status' must be one of: active, closed, resolved.");
    }
    SECTION("empty category") {
        q.params["category"] = "";
        CHECK(events_params::from_query(q).error().field() == "category");
    }
    SECTION("event filter on markets") {
        q.params = {{"eventId", "903193"}, {"status", "active"}};
        auto r = markets_params::from_query(q);
        REQUIRE(r.has_value());
        CHECK(r->event_id == "903193");
        CHECK(r->status == market_status::active);
    }
}

TEST_CASE("events and markets page with offset: default 0, a non-negative integer", "[unit]") {
    map_lookup q;
    CHECK(events_params::from_query(q).value().offset == 0);
    CHECK(markets_params::from_query(q).value().offset == 0);
    q.params["offset"] = "150";
    CHECK(events_params::from_query(q).value().offset == 150);
    CHECK(markets_params::from_query(q).value().offset == 150);
    for (auto const* bad : {"-1", "x", "", "1.5", "99999999999999999999"}) {
        CAPTURE(bad);
        q.params["offset"] = bad;
        for (auto const& r :
             {events_params::from_query(q).error(), markets_params::from_query(q).error()}) {
            CHECK(r.code == errc::validation_error);
            CHECK(r.field() == "offset");
            CHECK(r.message == "'offset' must be a non-negative integer.");
        }
    }
    events_params e{std::nullopt, std::nullopt, 100, 200};
    CHECK(e.to_query() == query_params{{"limit", "100"}, {"offset", "200"}});
    markets_params m{"1", std::nullopt, std::nullopt, 0};
    CHECK(m.to_query() == query_params{{"eventId", "1"}, {"offset", "0"}});
    check_fails_on(validate(events_params{std::nullopt, std::nullopt, 10, -5}), "offset");
}

TEST_CASE("validate on parameters built in code applies the server's rules", "[unit]") {
    CHECK(validate(trades_params{}).has_value());
    CHECK(validate(trades_params{200}).has_value());
    check_fails_on(validate(trades_params{0}), "limit");
    check_fails_on(validate(orderbook_params{1001}), "depth");
    check_fails_on(validate(candles_params{}), "interval");
    CHECK(validate(candles_params{interval::d1, std::nullopt, std::nullopt}).has_value());
    check_fails_on(validate(fills_params{10, 5, std::nullopt}), "startTime");
    CHECK(validate(markets_params{"1", market_status::closed, 100}).has_value());
}
