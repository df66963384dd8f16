// Inputs the fuzz targets (tests/fuzz) found failing, fed to the fixed code. Each input is kept in
// tests/fuzz/regressions/<target>/, which every fuzz smoke run replays too.
#include <catch2/catch.hpp>

#include <gateway/types/decimal.hpp>

#include <boost/json/value.hpp>

#include <fstream>
#include <iterator>
#include <string>

using gateway::decimal;

namespace {
std::string regression_input(std::string const& name) {
    std::ifstream in(std::string(GATEWAY_FIXTURES_DIR) + "/../fuzz/regressions/" + name,
                     std::ios::binary);
    REQUIRE(in.good());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
} // namespace

TEST_CASE("fuzz regression: a lenient decimal whose text parse cannot read back is refused",
          "[unit]") {
    // "1e400" became a 401-digit integer that decimal::parse (at most 64 characters) refuses.
    auto const input = regression_input("decimal_address/lenient-longer-than-strict");
    CHECK(input == "1e400");
    CHECK_FALSE(decimal::parse_lenient(input).has_value());
    CHECK_FALSE(decimal::parse_lenient("1e64").has_value());
    CHECK_FALSE(decimal::parse_lenient("-0.1e-63").has_value());
    CHECK_FALSE(decimal::from_json_lenient(boost::json::value(1e300)).has_value());

    // The longest values still pass, and read back.
    for (std::string const text : {"1e63", "-1e62", "1e-62", "-0.1e-60"}) {
        CAPTURE(text);
        auto d = decimal::parse_lenient(text);
        REQUIRE(d.has_value());
        auto again = decimal::parse(d->str());
        REQUIRE(again.has_value());
        CHECK(*again == *d);
    }
}
