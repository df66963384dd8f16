// The SDK's small utilities, each with one home (issue 11): hex, ASCII case, percent codec,
// ISO time, UTF-8 safety and exact decimal arithmetic.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"

#include <gateway/types/fixed.hpp>
#include <gateway/util/ascii.hpp>
#include <gateway/util/hex.hpp>
#include <gateway/util/percent.hpp>
#include <gateway/util/time.hpp>
#include <gateway/util/utf8.hpp>

using namespace gateway;

TEST_CASE("hex: round trip, prefix, case and refusals", "[unit][util]") {
    std::array<std::uint8_t, 3> const b{0x00, 0xab, 0xff};
    CHECK(util::to_hex(b) == "0x00abff");
    CHECK(util::to_hex(b, false) == "00abff");
    CHECK(util::from_hex("0x00ABff").value() == util::bytes{0x00, 0xab, 0xff});
    CHECK(util::from_hex("").value().empty());
    CHECK(util::from_hex("abc", "x").error().field() == "x");
    CHECK_FALSE(util::from_hex("0xzz"));
    CHECK_FALSE(util::from_hex_array<2>("0x00abff"));
    CHECK(util::is_prefixed_hex("0x" + std::string(40, 'A'), 40));
    CHECK_FALSE(util::is_prefixed_hex(std::string(42, 'a'), 40));
}

TEST_CASE("ascii: locale-free case, trim and visibility", "[unit][util]") {
    CHECK(util::to_lower("0xAbC-Ä") == "0xabc-Ä");
    CHECK(util::iequals("Application/JSON", "application/json"));
    CHECK_FALSE(util::iequals("json", "jsonx"));
    CHECK(util::trim(" \tx y \t") == "x y");
    CHECK(util::is_visible_ascii("abc-123"));
    CHECK_FALSE(util::is_visible_ascii("a b"));
}

TEST_CASE("percent: one rule for malformed escapes, plus signs in queries", "[unit][util]") {
    CHECK(util::percent_decode("xyz%3ATSLA") == std::optional<std::string>("xyz:TSLA"));
    CHECK(util::percent_decode("a+b") == std::optional<std::string>("a+b"));
    CHECK(util::percent_decode("a+b", true) == std::optional<std::string>("a b"));
    for (auto bad : {"%", "%4", "%g0", "a%zz", "%%"}) {
        CAPTURE(bad);
        CHECK_FALSE(util::percent_decode(bad));
    }
    CHECK(util::percent_encode("xyz:TSLA/1 2", ":@") == "xyz:TSLA%2F1%202");
    auto q = util::parse_query("a=1&&b=%zz&c&d=x+y&=e");
    REQUIRE(q.size() == 3);
    CHECK(q[0] == std::pair<std::string, std::string>{"a", "1"});
    CHECK(q[1] == std::pair<std::string, std::string>{"c", ""});
    CHECK(q[2] == std::pair<std::string, std::string>{"d", "x y"});
    CHECK(util::encode_query({{"dex", "x y"}, {"s", "a:b"}}, ":") == "?dex=x%20y&s=a:b");
}

TEST_CASE("ISO 8601 UTC with and without milliseconds", "[unit][util]") {
    CHECK(util::iso8601_utc(1763779247123) == "2025-11-22T02:40:47.123Z");
    CHECK(util::iso8601_utc(1763779247123, util::iso_precision::seconds) == "2025-11-22T02:40:47Z");
    CHECK(util::iso8601_utc(0) == "1970-01-01T00:00:00.000Z");
}

TEST_CASE("UTF-8: validation, replacement and log escaping", "[unit][util]") {
    CHECK(util::is_valid_utf8("plain"));
    CHECK(util::is_valid_utf8("\xc3\xa4\xe2\x82\xac\xf0\x9f\x98\x80")); // ä € 😀
    for (std::string bad : {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82"}) {
        CAPTURE(bad);
        CHECK_FALSE(util::is_valid_utf8(bad));
        auto const fixed = util::to_valid_utf8("a" + bad + "b");
        CHECK(util::is_valid_utf8(fixed));
        CHECK(fixed.front() == 'a');
        CHECK(fixed.back() == 'b');
    }
    CHECK(util::to_valid_utf8("ok \xc3\xa4") == "ok \xc3\xa4");
    CHECK(util::escape_for_log("a\"b\\c\n\xff") == "a\\\"b\\\\c\\x0a\\xff");
}

TEST_CASE("fixed: exact sums and products, explicit rounding, overflow refused", "[unit][util]") {
    auto d = [](char const* s) {
        return decimal::parse(s).value();
    };
    CHECK(exact_add(d("0.1"), d("0.2")).value() == d("0.3"));
    CHECK(exact_sub(d("1"), d("1.5")).value() == d("-0.5"));
    CHECK(exact_mul(d("106626.8"), d("0.001")).value() == d("106.6268"));
    CHECK(exact_div(d("1"), d("3"), 4).value() == d("0.3333"));
    CHECK(exact_div(d("0.125"), d("1"), 2, rounding::half_even).value() == d("0.12"));
    CHECK(exact_div(d("0.125"), d("1"), 2, rounding::half_away_from_zero).value() == d("0.13"));
    CHECK(exact_div(d("-0.125"), d("1"), 2, rounding::half_away_from_zero).value() == d("-0.13"));
    CHECK(exact_div(d("0.129"), d("1"), 2, rounding::toward_zero).value() == d("0.12"));
    CHECK_FALSE(exact_div(d("1"), d("0"), 2));
    auto const big = d("99999999999999999999999999999999999999");
    CHECK_FALSE(exact_add(big, big));
    CHECK_FALSE(exact_mul(big, d("10")));
    CHECK(fixed::parse("-0.000").value().str() == "0");
    CHECK(compare(*fixed::parse("1.50"), *fixed::parse("1.5")) == std::strong_ordering::equal);
    CHECK(fixed::parse("1.5")->mantissa_at(3) == int128{1500});
    CHECK_FALSE(fixed::parse("1.55")->mantissa_at(1));
}
