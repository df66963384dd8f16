#include <catch2/catch.hpp>

#include "http/router.hpp"

using gateway::server::basic_router;
using gateway::util::parse_query;
using gateway::util::percent_decode;
namespace http = boost::beast::http;

namespace {
basic_router<int> make_router() {
    basic_router<int> r;
    r.add(http::verb::get, "/v1/providers", 1);
    r.add(http::verb::get, "/v1/providers/{provider}", 2);
    r.add(http::verb::get, "/v1/perps/{provider}/markets/{symbol}/trades", 3);
    r.add(http::verb::post, "/v1/perps/{provider}/orders", 4);
    r.add(http::verb::delete_, "/v1/perps/{provider}/orders", 5);
    return r;
}
} // namespace

TEST_CASE("router matches literal and captured segments", "[unit][router]") {
    auto const r = make_router();
    auto m = r.find(http::verb::get, "/v1/providers/alpha");
    REQUIRE(m.target);
    CHECK(*m.target == 2);
    REQUIRE(m.params.size() == 1);
    CHECK(m.params[0] == std::pair<std::string, std::string>{"provider", "alpha"});
}

TEST_CASE("router URL-decodes path segments after splitting", "[unit][router]") {
    auto const r = make_router();
    auto m = r.find(http::verb::get, "/v1/perps/alpha/markets/xyz%3ATSLA/trades");
    REQUIRE(m.target);
    CHECK(*m.target == 3);
    CHECK(m.params[1].second == "xyz:TSLA");
    // An encoded slash stays inside its segment instead of creating a new one.
    auto s = r.find(http::verb::get, "/v1/perps/alpha/markets/a%2Fb/trades");
    REQUIRE(s.target);
    CHECK(s.params[1].second == "a/b");
}

TEST_CASE("router answers 405 with Allow for a path that exists for other methods",
          "[unit][router]") {
    auto const r = make_router();
    auto m = r.find(http::verb::put, "/v1/perps/alpha/orders");
    CHECK_FALSE(m.target);
    CHECK(m.path_exists());
    CHECK(m.allow == "POST, DELETE");
}

TEST_CASE("router answers 404 for unknown paths, empty captures and bad escapes",
          "[unit][router]") {
    auto const r = make_router();
    for (auto path : {"/v1/nothing", "/v1/providers/", "/v1/providers/alpha/extra", "",
                      "v1/providers", "/v1/providers/%zz"}) {
        CAPTURE(path);
        auto m = r.find(http::verb::get, path);
        CHECK_FALSE(m.target);
        CHECK_FALSE(m.path_exists());
    }
}

TEST_CASE("percent_decode and parse_query decode escapes and plus signs", "[unit][router]") {
    CHECK(percent_decode("a%20b") == std::optional<std::string>("a b"));
    CHECK(percent_decode("a+b") == std::optional<std::string>("a+b"));
    CHECK(percent_decode("a+b", true) == std::optional<std::string>("a b"));
    CHECK_FALSE(percent_decode("%4"));
    CHECK_FALSE(percent_decode("%g0"));
    auto q = parse_query("limit=5&interval=1m&&bad=%zz&flag&x=a+b");
    REQUIRE(q.size() == 4);
    CHECK(q[0] == std::pair<std::string, std::string>{"limit", "5"});
    CHECK(q[1] == std::pair<std::string, std::string>{"interval", "1m"});
    CHECK(q[2] == std::pair<std::string, std::string>{"flag", ""});
    CHECK(q[3] == std::pair<std::string, std::string>{"x", "a b"});
}
