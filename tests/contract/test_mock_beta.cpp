// Contract tests of the beta mock (Aster futures + spot REST, upstreams/beta.md §2, §4.1, §5,
// §7, §8): shapes, error envelopes and request weights, compared with recorded fixtures.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/types/decimal.hpp>

#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::fetch;
using gateway::test::get;
using gateway::test::get_json;
using gateway::test::keys;

std::unique_ptr<mock_server> start_beta() {
    return mock_server::start({upstream::beta});
}

/// The recorded upstream body of the first entry of tests/fixtures/beta/<name>.
json::value fixture(std::string const& name) {
    return gateway::test::fixture_document("beta/" + name).at("entries").at(0).at("httpResponse");
}

unsigned used_weight(gateway::test::raw_response const& r) {
    auto const h = r.message["X-MBX-USED-WEIGHT-1M"];
    REQUIRE(!h.empty());
    return static_cast<unsigned>(std::stoul(std::string(h)));
}

/// Digits after the point of a decimal string ("106626.8" -> 1).
std::size_t decimals(json::value const& v) {
    std::string_view const s = v.as_string();
    auto const dot = s.find('.');
    return dot == std::string_view::npos ? 0 : s.size() - dot - 1;
}

gateway::decimal dec(json::value const& v) {
    auto d = gateway::decimal::parse_lenient(v.as_string());
    REQUIRE(d);
    return *d;
}

void check_error(gateway::test::raw_response const& r, unsigned status, int code) {
    INFO(r.body);
    CHECK(r.status == status);
    auto const e = json::parse(r.body);
    CHECK(keys(e) == std::set<std::string>{"code", "msg"});
    CHECK(e.at("code") == code);
    CHECK(e.at("msg").is_string());
}

} // namespace

TEST_CASE("beta mock: ping and time", "[contract][mock][beta]") {
    auto m = start_beta();
    auto const ping = get(*m, "/fapi/v3/ping");
    CHECK(ping.status == 200);
    CHECK(ping.body == "{}");
    CHECK(used_weight(ping) == 1);
    auto const t = get_json(*m, "/fapi/v3/time");
    CHECK(keys(t) == keys(fixture("ccxt-fetchTime.json")));
    CHECK(t.at("serverTime").is_int64());
    CHECK(get(*m, "/api/v3/ping").body == "{}");
    CHECK(get_json(*m, "/api/v3/time").at("serverTime").is_int64());
}

TEST_CASE("beta mock: ticker/price is an array, or one object with symbol",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const all = get(*m, "/fapi/v3/ticker/price");
    REQUIRE(all.status == 200);
    CHECK(used_weight(all) == 2); // no symbol: weight 2
    std::set<std::string> symbols;
    auto const all_json = json::parse(all.body);
    for (auto const& t : all_json.as_array()) {
        CHECK(keys(t) == std::set<std::string>{"symbol", "price", "time"});
        CHECK(t.at("price").is_string());
        CHECK(t.at("time").is_int64());
        symbols.insert(std::string(t.at("symbol").as_string()));
    }
    CHECK(symbols == std::set<std::string>{"BTCUSDT", "ETHUSDT", "SOLUSDT", "TSLAUSDT", "XAUUSDT"});

    auto const one = get(*m, "/fapi/v3/ticker/price?symbol=BTCUSDT");
    CHECK(used_weight(one) == 3);
    auto const o = json::parse(one.body);
    REQUIRE(o.is_object());
    CHECK(o.at("symbol") == "BTCUSDT");
    CHECK(decimals(o.at("price")) == 1); // BTCUSDT tick 0.1

    check_error(get(*m, "/fapi/v3/ticker/price?symbol=NOPEUSDT"), 400, -1121);
    CHECK(json::parse(get(*m, "/fapi/v3/ticker/price?symbol=NOPEUSDT").body).at("msg") ==
          "Invalid symbol.");

    SECTION("spot has its own symbols and its own weight budget") {
        auto const spot = get(*m, "/api/v3/ticker/price");
        REQUIRE(spot.status == 200);
        CHECK(used_weight(spot) == 2);
        std::set<std::string> ss;
        auto const spot_json = json::parse(spot.body);
        for (auto const& t : spot_json.as_array())
            ss.insert(std::string(t.at("symbol").as_string()));
        CHECK(ss == std::set<std::string>{"BTCUSDT", "ETHUSDT", "ASTERUSDT"});
        auto const s1 = get_json(*m, "/api/v3/ticker/price?symbol=ASTERUSDT");
        CHECK(s1.at("symbol") == "ASTERUSDT");
        check_error(get(*m, "/api/v3/ticker/price?symbol=SOLUSDT"), 400, -1121);
    }
}

TEST_CASE("beta mock: exchangeInfo lists the perps with their filters", "[contract][mock][beta]") {
    auto m = start_beta();
    auto const info = get_json(*m, "/fapi/v3/exchangeInfo");
    CHECK(keys(info) == keys(fixture("ccxt-fetchCurrencies.json")));
    CHECK(info.at("serverTime").is_int64());
    CHECK(info.at("rateLimits").at(0).at("limit") == 2400);
    std::set<std::string> symbols;
    for (auto const& s : info.at("symbols").as_array()) {
        std::string const name(s.at("symbol").as_string());
        CAPTURE(name);
        symbols.insert(name);
        CHECK(s.at("contractType") == "PERPETUAL");
        CHECK(s.at("status") == "TRADING");
        CHECK(s.at("quoteAsset") == "USDT");
        CHECK(s.at("pricePrecision").is_number());
        CHECK(s.at("quantityPrecision").is_number());
        std::set<std::string> filters;
        for (auto const& f : s.at("filters").as_array())
            filters.insert(std::string(f.at("filterType").as_string()));
        CHECK(filters == std::set<std::string>{"PRICE_FILTER", "LOT_SIZE", "MARKET_LOT_SIZE",
                                               "MAX_NUM_ORDERS", "MAX_NUM_ALGO_ORDERS",
                                               "MIN_NOTIONAL", "PERCENT_PRICE"});
        auto const& pf = s.at("filters").at(0);
        CHECK(pf.at("tickSize").is_string());
        CHECK(s.at("filters").at(1).at("stepSize").is_string());
        CHECK(s.at("filters").at(5).at("notional").is_string());
        if (name == "TSLAUSDT") {
            CHECK(s.at("underlyingSubType") == json::array{"STOCK"});
            CHECK(s.at("pricePrecision") == 6); // differs from its 0.01 tick, like the real one
            CHECK(dec(pf.at("tickSize")) == *gateway::decimal::parse("0.01"));
        } else if (name == "XAUUSDT") {
            CHECK(s.at("underlyingSubType") == json::array{"RWA"});
        } else {
            CHECK(s.at("underlyingSubType").as_array().empty());
        }
    }
    CHECK(symbols == std::set<std::string>{"BTCUSDT", "ETHUSDT", "SOLUSDT", "TSLAUSDT", "XAUUSDT"});
}

TEST_CASE("beta mock: depth matches the recorded book shape and precisions",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const recorded = fixture("ccxt-fetchOrderBook.json");
    auto const r = get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=5");
    REQUIRE(r.status == 200);
    CHECK(used_weight(r) == 2);
    auto const d = json::parse(r.body);
    CHECK(keys(d) == keys(recorded));
    CHECK(d.at("lastUpdateId").is_int64());
    CHECK(d.at("E").is_int64());
    CHECK(d.at("T").is_int64());
    auto const& bids = d.at("bids").as_array();
    auto const& asks = d.at("asks").as_array();
    REQUIRE(bids.size() == 5);
    REQUIRE(asks.size() == 5);
    auto const& rl = recorded.at("bids").at(0);
    for (auto const* side : {&bids, &asks})
        for (auto const& l : *side) {
            REQUIRE(l.as_array().size() == 2);
            // Same text precision as the recorded BTCUSDT book: "106626.8", "8.266".
            CHECK(decimals(l.at(0)) == decimals(rl.at(0)));
            CHECK(decimals(l.at(1)) == decimals(rl.at(1)));
        }
    for (std::size_t i = 1; i < 5; ++i) {
        CHECK(dec(bids[i].at(0)) < dec(bids[i - 1].at(0)));
        CHECK(dec(asks[i].at(0)) > dec(asks[i - 1].at(0)));
    }
    CHECK(dec(bids[0].at(0)) < dec(asks[0].at(0)));

    SECTION("weights follow the limit, the default limit is 500") {
        CHECK(used_weight(get(*m, "/fapi/v3/depth?symbol=ETHUSDT&limit=100")) == 2 + 5);
        CHECK(used_weight(get(*m, "/fapi/v3/depth?symbol=ETHUSDT")) == 7 + 10);
        auto const big = get(*m, "/fapi/v3/depth?symbol=ETHUSDT&limit=1000");
        CHECK(used_weight(big) == 17 + 20);
        CHECK(json::parse(big.body).at("bids").as_array().size() == 1000);
    }
    SECTION("errors") {
        check_error(get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=7"), 400, -4021);
        check_error(get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=abc"), 400, -1100);
        check_error(get(*m, "/fapi/v3/depth?limit=5"), 400, -1102);
        check_error(get(*m, "/fapi/v3/depth?symbol=NOPEUSDT"), 400, -1121);
    }
}

TEST_CASE("beta mock: trades have the recorded item shape", "[contract][mock][beta]") {
    auto m = start_beta();
    auto const recorded = fixture("ccxt-fetchTrades.json").at(0);
    auto const t = get_json(*m, "/fapi/v3/trades?symbol=BTCUSDT&limit=3");
    REQUIRE(t.as_array().size() == 3);
    for (auto const& x : t.as_array()) {
        CHECK(keys(x) == keys(recorded));
        CHECK(x.at("id").is_number());
        CHECK(x.at("time").is_number());
        CHECK(x.at("isBuyerMaker").is_bool());
        for (auto const* k : {"price", "qty", "quoteQty"}) {
            CAPTURE(k);
            CHECK(x.at(k).is_string());
            CHECK(decimals(x.at(k)) == decimals(recorded.at(k)));
        }
    }
    CHECK(t.at(0).at("time").as_int64() <= t.at(2).at("time").as_int64());
    CHECK(get_json(*m, "/fapi/v3/trades?symbol=SOLUSDT").as_array().size() >= 40);
    check_error(get(*m, "/fapi/v3/trades?symbol=NOPEUSDT"), 400, -1121);
}

TEST_CASE("beta mock: unknown paths and methods are -5000", "[contract][mock][beta]") {
    auto m = start_beta();
    check_error(get(*m, "/fapi/v3/nope"), 404, -5000);
    check_error(fetch(http::verb::post, m->base_url() + "/fapi/v3/ping", "{}"), 404, -5000);
    check_error(get(*m, "/somewhere"), 404, -5000);
}

TEST_CASE("beta mock: over 2400 weight per minute the futures API answers 429 -1003",
          "[contract][mock][beta]") {
    auto m = start_beta();
    // depth with limit 1000 weighs 20: 120 of them spend the budget exactly.
    for (int i = 0; i < 120; ++i) {
        auto const r = get(*m, "/fapi/v3/depth?symbol=SOLUSDT&limit=1000");
        REQUIRE(r.status == 200);
    }
    auto const over = get(*m, "/fapi/v3/ping");
    check_error(over, 429, -1003);
    CHECK(used_weight(over) == 2400);
    CHECK(!over.message[http::field::retry_after].empty());
    // Spot (another host upstream) keeps its own budget.
    CHECK(get(*m, "/api/v3/ping").status == 200);
}

TEST_CASE("beta mock: /__mock/mark accepts BTCUSDT or BTC and moves spot too",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto mark = [&](std::string const& body) {
        return fetch(http::verb::post, m->base_url() + "/__mock/mark", body);
    };
    REQUIRE(mark(R"({"symbol":"BTC","price":"65000"})").status == 200);
    CHECK(get_json(*m, "/fapi/v3/ticker/price?symbol=BTCUSDT").at("price") == "65000.0");
    CHECK(get_json(*m, "/api/v3/ticker/price?symbol=BTCUSDT").at("price") == "65000.00");
    auto const r = mark(R"({"symbol":"ETHUSDT","price":"3100.123"})");
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body).at("price") == "3100.12"); // rounded to the 0.01 tick
    CHECK(get_json(*m, "/fapi/v3/ticker/price?symbol=ETHUSDT").at("price") == "3100.12");
    auto const d = get_json(*m, "/fapi/v3/depth?symbol=ETHUSDT&limit=5");
    CHECK(dec(d.at("bids").at(0).at(0)) < *gateway::decimal::parse("3100.12"));
    CHECK(dec(d.at("asks").at(0).at(0)) > *gateway::decimal::parse("3100.12"));
    CHECK(mark(R"({"symbol":"DOGEUSDT","price":"1"})").status == 404);
}

TEST_CASE("beta mock: stats kinds are method and path", "[contract][mock][beta]") {
    auto m = start_beta();
    get(*m, "/fapi/v3/ping");
    get(*m, "/fapi/v3/ping");
    get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=5");
    get(*m, "/api/v3/ticker/price?symbol=BTCUSDT");
    auto const s = json::parse(fetch(http::verb::get, m->base_url() + "/__mock/stats").body);
    CHECK(s.at("requests") == 4);
    CHECK(s.at("byKind") == json::parse(R"({"GET /fapi/v3/ping":2,"GET /fapi/v3/depth":1,
                                           "GET /api/v3/ticker/price":1})")
                                .as_object());
}
