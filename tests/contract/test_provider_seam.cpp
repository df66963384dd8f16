// The provider seam's own promises (issue 11): every provider's upstream calls go through the
// shared channel (budget, cache, coalescing), the registry answers 404 for what a provider lacks,
// and CONTRACT §2's order of checks holds in the one signed-write pipeline.
#include <catch2/catch.hpp>

#include "support/api.hpp"
#include "support/mock_control.hpp"
#include "support/test_gateway.hpp"

#include <gateway/util/utf8.hpp>

using namespace gateway;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;

TEST_CASE("beta prices go through the upstream channel: cached, coalesced and within the budget",
          "[contract][seam][beta]") {
    SECTION("identical reads within the cache lifetime cost one upstream call") {
        test_gateway gw([](auto& c) { c.market_cache_ttl = std::chrono::milliseconds(60'000); });
        auto const key = gw.create_key();
        reset_stats(*gw.beta);
        for (int i = 0; i < 5; ++i)
            CHECK(api_get(gw, key, "/v1/perps/beta/prices").status == 200);
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/ticker/price") == 1);
    }
    SECTION("a spent budget is 503 PROVIDER_UNAVAILABLE with Retry-After, and nothing is sent") {
        test_gateway gw([](auto& c) {
            c.market_cache_ttl = std::chrono::milliseconds(0);
            // The market universe (exchangeInfo and leverageBracket, weight 1 each), one
            // all-symbols ticker/price (weight 2), plus the start-up probe (weight 1) if it has
            // run; never two tickers.
            c.providers["beta"].options["budget"] = "5";
            c.budget_share_percent = 100; // one account may spend it all: the budget's test
        });
        auto const key = gw.create_key();
        reset_stats(*gw.beta);
        CHECK(api_get(gw, key, "/v1/perps/beta/prices").status == 200);
        auto spent = api_get(gw, key, "/v1/perps/beta/prices");
        require_error(spent, 503, "PROVIDER_UNAVAILABLE");
        CHECK(spent.raw.message.find(boost::beast::http::field::retry_after) !=
              spent.raw.message.end());
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/ticker/price") == 1);
    }
    SECTION("a network without a configured upstream answers 503, never crashes") {
        test_gateway gw([](auto& c) { c.providers["beta"].testnet_base_url.clear(); });
        auto const key = gw.create_key();
        require_error(api_get(gw, key, "/v1/testnet/perps/beta/prices"), 503,
                      "PROVIDER_UNAVAILABLE");
        CHECK(api_get(gw, key, "/v1/perps/beta/prices").status == 200);
    }
}

TEST_CASE("a trailing_stop sent to alpha is 400 UNSUPPORTED_ORDER_TYPE before any field check",
          "[contract][seam][alpha]") {
    test_gateway gw;
    auto const key = gw.create_key();
    reset_stats(*gw.alpha);
    // No callbackRate, no size, no signature: the type check comes first (CONTRACT §2).
    json::value const body = {{"symbol", "BTC"}, {"side", "sell"}, {"type", "trailing_stop"}};
    require_error(api_call(gw, key, verb::post, "/v1/perps/alpha/orders", &body), 400,
                  "UNSUPPORTED_ORDER_TYPE", "type");
    json::value const spot = {{"symbol", "PURR/USDC"}, {"side", "buy"}, {"type", "stop_market"}};
    require_error(api_call(gw, key, verb::post, "/v1/spot/alpha/orders", &spot), 400,
                  "UNSUPPORTED_ORDER_TYPE", "type");
    // Nothing was sent to /exchange (the market universe loads in the background meanwhile).
    auto const stats = mock_stats(*gw.alpha);
    for (auto const& [kind, n] : stats.at("byKind").as_object())
        CHECK_FALSE(std::string_view(kind).starts_with("exchange:"));
}

TEST_CASE("typed-data and the write share one order of checks: an empty symbol is 400, not 404",
          "[contract][seam][alpha]") {
    test_gateway gw;
    auto const key = gw.create_key();
    json::value const params = {
        {"symbol", ""},          {"side", "buy"},
        {"type", "limit"},       {"size", "0.01"},
        {"price", "60000"},      {"wallet", "0x1111111111111111111111111111111111111111"},
        {"nonce", 1700000000000}};
    json::value const typed = {{"operation", "placeOrder"}, {"params", params}};
    require_error(api_call(gw, key, verb::post, "/v1/perps/alpha/typed-data", &typed), 400,
                  "VALIDATION_ERROR", "symbol");
    json::value write = params;
    write.as_object()["signature"] = "0x" + std::string(130, '1');
    require_error(api_call(gw, key, verb::post, "/v1/perps/alpha/orders", &write), 400,
                  "VALIDATION_ERROR", "symbol");
}

TEST_CASE("user input quoted in an error is valid UTF-8", "[contract][seam]") {
    test_gateway gw;
    auto const key = gw.create_key();
    for (std::string path : {"/v1/perps/alpha/markets/%FF%FE/trades", "/v1/health/%FF",
                             "/v1/perps/alpha/prices?dex=%FF"}) {
        CAPTURE(path);
        auto a = api_call(gw, key, verb::get, path);
        CHECK(a.status >= 400);
        CHECK(gateway::util::is_valid_utf8(a.raw.body));
    }
}
