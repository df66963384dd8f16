// Unit tests of gateway::decimal: CONTRACT §1 plain notation, strict and lenient parsing,
// scaling, ordering and the JSON mapping.
#include <catch2/catch.hpp>

#include "support/values.hpp"

#include <gateway/types/decimal.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

using gateway::decimal;

using gateway::test::dec;

namespace {} // namespace

TEST_CASE("decimal parse accepts plain notation and keeps the canonical text", "[unit]") {
    auto [text, canonical] = GENERATE(table<std::string, std::string>({
        {"0", "0"},
        {"0.001", "0.001"},
        {"1.50", "1.5"},
        {"1.000", "1"},
        {"100", "100"},
        {"00012", "12"},
        {"-12.340", "-12.34"},
        {"-0", "0"},
        {"-0.000", "0"},
        {"0.10", "0.1"},
        {"123456789012345678901234567890.5", "123456789012345678901234567890.5"},
    }));
    CAPTURE(text);
    auto d = decimal::parse(text, "price");
    REQUIRE(d.has_value());
    CHECK(d->str() == canonical);
}

TEST_CASE("decimal parse refuses anything but plain notation and names the field", "[unit]") {
    auto text = GENERATE(as<std::string>{}, "", "-", "+1", ".5", "5.", "1e-3", "1E3", " 1", "1 ",
                         "1,5", "abc", "0x10", "1.2.3", "--1", "NaN", std::string(65, '1'));
    CAPTURE(text);
    auto d = decimal::parse(text, "size");
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().code == gateway::errc::validation_error);
    CHECK(d.error().field() == "size");
    CHECK(d.error().message == "'size' must be a decimal string in plain notation, e.g. \"0.5\"");
}

TEST_CASE("decimal lenient parse normalises upstream spellings", "[unit]") {
    auto [text, canonical] = GENERATE(table<std::string, std::string>({
        {"+1.5", "1.5"},
        {".5", "0.5"},
        {"5.", "5"},
        {"1.5e-7", "0.00000015"},
        {"1E3", "1000"},
        {"-1.20e+2", "-120"},
        {" 2 ", "2"},
        {"0.000", "0"},
        {"12.5e-1", "1.25"},
    }));
    CAPTURE(text);
    auto d = decimal::parse_lenient(text);
    REQUIRE(d.has_value());
    CHECK(d->str() == canonical);
}

TEST_CASE("decimal lenient parse still refuses text that is not a number", "[unit]") {
    auto text = GENERATE(as<std::string>{}, "", "e5", "1e", "abc", "1e999", "1.2.3", "--1", ".");
    CAPTURE(text);
    CHECK_FALSE(decimal::parse_lenient(text).has_value());
}

TEST_CASE("decimal from upstream JSON accepts strings, integers and doubles", "[unit]") {
    auto [json, canonical] = GENERATE(table<std::string, std::string>({
        {R"("64100.50")", "64100.5"},
        {"-5", "-5"},
        {"18446744073709551615", "18446744073709551615"},
        {"-9223372036854775808", "-9223372036854775808"},
        {"0.1", "0.1"},
        {"1e-7", "0.0000001"},
        {"64100.5", "64100.5"},
    }));
    CAPTURE(json);
    auto d = decimal::from_json_lenient(boost::json::parse(json));
    REQUIRE(d.has_value());
    CHECK(d->str() == canonical);
}

TEST_CASE("decimal from upstream JSON refuses booleans, null, arrays and objects", "[unit]") {
    auto json = GENERATE(as<std::string>{}, "true", "null", "[1]", R"({"a":1})", R"("x")");
    CAPTURE(json);
    CHECK_FALSE(decimal::from_json_lenient(boost::json::parse(json)).has_value());
}

TEST_CASE("decimal converts to and from scaled integers exactly", "[unit]") {
    CHECK(decimal::from_scaled(12345, 2).str() == "123.45");
    CHECK(decimal::from_scaled(-5, 3).str() == "-0.005");
    CHECK(decimal::from_scaled(0, 4).str() == "0");
    CHECK(decimal::from_scaled(1000, 3).str() == "1");
    CHECK(decimal::from_scaled(std::numeric_limits<std::int64_t>::min(), 0).str() ==
          "-9223372036854775808");
    CHECK(dec("123.45").to_scaled(2) == std::optional<std::int64_t>(12345));
    CHECK(dec("-0.005").to_scaled(6) == std::optional<std::int64_t>(-5000));
    CHECK(dec("1.234").to_scaled(2) == std::nullopt);
    CHECK(dec("92233720368547758080").to_scaled(0) == std::nullopt);
}

TEST_CASE("decimal reports scale, sign and zero from its canonical text", "[unit]") {
    CHECK(dec("1.250").scale() == 2);
    CHECK(dec("7").scale() == 0);
    CHECK(dec("-0").is_zero());
    CHECK_FALSE(dec("-0").is_negative());
    CHECK(dec("-3.5").is_negative());
    CHECK(dec("-3.5").abs().str() == "3.5");
    CHECK(dec("3.5").negated().str() == "-3.5");
    CHECK(dec("0").negated().str() == "0");
    CHECK(decimal{}.str() == "0");
}

TEST_CASE("decimal orders by value, not by text", "[unit]") {
    auto [a, b, sign] = GENERATE(table<std::string, std::string, int>({
        {"1", "2", -1},
        {"-2", "-1", -1},
        {"0.1", "0.10001", -1},
        {"10", "9.99", 1},
        {"-0.5", "0", -1},
        {"2.50", "2.5", 0},
        {"-10", "-9.99", -1},
        {"100", "99", 1},
        {"0.09", "0.1", -1},
    }));
    CAPTURE(a, b);
    auto const order = dec(a) <=> dec(b);
    CHECK((order < 0 ? -1 : order > 0 ? 1 : 0) == sign);
    CHECK((dec(a) == dec(b)) == (sign == 0));
}

TEST_CASE("decimal is a JSON string both ways and refuses numbers and exponents", "[unit]") {
    CHECK(boost::json::value_from(dec("0.001")) == boost::json::value("0.001"));
    auto back = boost::json::try_value_to<decimal>(boost::json::value("2.50"));
    REQUIRE(back.has_value());
    CHECK(back->str() == "2.5");
    CHECK_FALSE(boost::json::try_value_to<decimal>(boost::json::value(2.5)).has_value());
    CHECK_FALSE(boost::json::try_value_to<decimal>(boost::json::value("1e3")).has_value());
}

TEST_CASE("decimal fields are strict inbound and lenient upstream", "[unit]") {
    auto const body = boost::json::parse(R"({"price": 64100.5})");
    decimal price;
    SECTION("inbound refuses a JSON number") {
        gateway::json_fields f(body, gateway::strictness::inbound);
        f.required("price", price);
        auto r = f.finish();
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().field() == "price");
        CHECK(r.error().code == gateway::errc::validation_error);
    }
    SECTION("upstream accepts it and normalises") {
        gateway::json_fields f(body, gateway::strictness::upstream);
        f.required("price", price);
        REQUIRE(f.finish().has_value());
        CHECK(price.str() == "64100.5");
    }
}
