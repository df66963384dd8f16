// The generic routes against a mocked provider seam (no upstream, no HTTP): what a route passes
// to the capability, and that CONTRACT §2's order of checks holds (a refused parameter never
// reaches the provider; an unknown provider is 404 before anything is parsed).
#include <catch2/catch.hpp>

#include "providers/provider.hpp"
#include "routes/routes.hpp"
#include "support/catch_result.hpp"
#include "support/mock_providers.hpp"

using namespace gateway;
using namespace gateway::server;
using gateway::test::mock_perps_reads;
using gateway::test::ready;
using trompeloeil::_;
using verb = boost::beast::http::verb;

namespace {

/// A registry with one provider, "alpha", whose live perps reads are `reads`.
struct fixture {
    std::shared_ptr<mock_perps_reads> reads = std::make_shared<mock_perps_reads>();
    registry providers;
    router routes;

    fixture() {
        auto p = std::make_shared<provider_module>();
        p->info.id = "alpha";
        p->info.verticals = {vertical::perps};
        p->live.perps = reads;
        providers.add(p);
        add_market_routes(routes, providers);
    }

    /// Routes `path?query` and runs its handler.
    result<reply> get(std::string_view path, query_params query = {}) {
        auto match = routes.find(verb::get, path);
        REQUIRE(match.target);
        request_context ctx;
        ctx.path = path;
        ctx.params = match.params;
        ctx.query = std::move(query);
        ctx.now_ms = 1'700'000'000'000;
        ctx.testnet = path.substr(0, 12) == "/v1/testnet/";
        return test::run((*match.target)(ctx));
    }
};

} // namespace

TEST_CASE("the prices route passes the dex parameter to the provider and renders its map",
          "[unit][routes]") {
    fixture f;
    price_map const answer{{"xyz:TSLA", decimal::parse("430.5").value()}};
    REQUIRE_CALL(*f.reads, prices(_, _))
        .WITH(_2.dex == std::optional<std::string>("xyz") && !_1.testnet)
        .RETURN(ready(result<price_map>(answer)));
    auto r = f.get("/v1/perps/alpha/prices", {{"dex", "xyz"}});
    REQUIRE(r);
    CHECK(r->body == boost::json::parse(R"({"xyz:TSLA":"430.5"})"));
}

TEST_CASE("an orderbook depth out of range is refused before the provider is called",
          "[unit][routes]") {
    fixture f;
    FORBID_CALL(*f.reads, book(_, _, _));
    auto r = f.get("/v1/perps/alpha/markets/BTC/orderbook", {{"depth", "0"}});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::validation_error);
    CHECK(r.error().field() == "depth");
}

TEST_CASE("a market read passes the decoded symbol and the defaulted parameters",
          "[unit][routes]") {
    fixture f;
    REQUIRE_CALL(*f.reads, trades(_, _, _))
        .WITH(_2 == "xyz:TSLA" && _3.limit == std::optional<std::int64_t>(50))
        .RETURN(ready(result<std::vector<trade>>(std::vector<trade>{})));
    auto r = f.get("/v1/perps/alpha/markets/xyz%3ATSLA/trades");
    REQUIRE(r);
    CHECK(r->body == boost::json::array{});
}

TEST_CASE("a provider error passes through the route unchanged", "[unit][routes]") {
    fixture f;
    REQUIRE_CALL(*f.reads, book(_, _, _))
        .RETURN(ready(result<orderbook>(make_error(errc::market_not_found, "Unknown market."))));
    auto r = f.get("/v1/perps/alpha/markets/NOPE/orderbook");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::market_not_found);
}

TEST_CASE(
    "an unknown provider, a missing vertical and a missing testnet are 404 PROVIDER_NOT_FOUND",
    "[unit][routes]") {
    fixture f;
    FORBID_CALL(*f.reads, prices(_, _));
    SECTION("unknown alias") {
        auto r = f.get("/v1/perps/nope/prices");
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::provider_not_found);
    }
    SECTION("a testnet the provider does not have") {
        auto r = f.get("/v1/testnet/perps/alpha/prices");
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::provider_not_found);
    }
}
