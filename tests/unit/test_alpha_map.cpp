// Unit tests of the alpha adapter's pure mappings (reference-server/src/alpha/alpha_map.hpp):
// recorded Hyperliquid `/info` bodies (tests/fixtures/alpha/bodies, see its README) and small
// hand-made ones in, contract types out, every value checked as the exact wire string.
#include "support/catch_result.hpp"

#include "providers/alpha/alpha_map.hpp"

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef GATEWAY_FIXTURES_DIR
#error "GATEWAY_FIXTURES_DIR must name the absolute path of tests/fixtures"
#endif

using namespace gateway;
using namespace gateway::server;
namespace json = boost::json;

namespace {

/// An upstream body under tests/fixtures/alpha/bodies.
json::value body(std::string const& name) {
    std::string const path = std::string(GATEWAY_FIXTURES_DIR) + "/alpha/bodies/" + name + ".json";
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

/// main dex (meta.json), builder dexes xyz (index 1) and flx (index 2), spot.
alpha::universe make_universe() {
    alpha::universe u;
    auto dexes = alpha::parse_perp_dexs(body("perp_dexs"));
    REQUIRE(dexes);
    u.dexes = *dexes;
    auto main = alpha::parse_meta(body("meta"), "", 0);
    auto xyz = alpha::parse_meta(body("meta_xyz"), "xyz", 1);
    auto flx = alpha::parse_meta(body("meta_flx"), "flx", 2);
    REQUIRE(main);
    REQUIRE(xyz);
    REQUIRE(flx);
    for (auto const* part : {&*main, &*xyz, &*flx})
        u.perps.insert(u.perps.end(), part->begin(), part->end());
    auto spot = alpha::parse_spot_meta(body("spot_meta"));
    REQUIRE(spot);
    u.spot = *spot;
    return u;
}

/// The failure must be UPSTREAM_ERROR (502) and its message must contain `part`.
template <class T>
void check_upstream_error(result<T> const& r, std::string const& part) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::upstream_error);
    CHECK(r.error().status == 502);
    CHECK_THAT(r.error().message, Catch::Contains(part));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Universe

TEST_CASE("alpha perpDexs: builder dexes get their position as index, main dex skipped",
          "[unit][alpha]") {
    auto dexes = alpha::parse_perp_dexs(body("perp_dexs"));
    REQUIRE(dexes);
    REQUIRE(dexes->size() == 2);
    CHECK((*dexes)[0].name == "xyz");
    CHECK((*dexes)[0].full_name == "XYZ tokenized equities");
    CHECK((*dexes)[0].deployer.str() == "0x88806a71d74ad0a510b350545c9ae490912f0888");
    CHECK((*dexes)[0].index == 1);
    CHECK((*dexes)[1].name == "flx");
    CHECK((*dexes)[1].full_name.empty());
    CHECK((*dexes)[1].index == 2);

    auto only_main = alpha::parse_perp_dexs(json::parse("[null]"));
    REQUIRE(only_main);
    CHECK(only_main->empty());
}

TEST_CASE("alpha perpDexs: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::parse_perp_dexs(json::parse(R"({"dexes":[]})")),
                         "shape for alpha perpDexs");
    check_upstream_error(
        alpha::parse_perp_dexs(json::parse(R"([null,{"name":"xyz","deployer":"0x12"}])")),
        "alpha perpDexs[1] (field 'deployer')");
    check_upstream_error(
        alpha::parse_perp_dexs(
            json::parse(R"([null,{"deployer":"0x5e89b26d8d66da9888c835c9bfcc2aa51813e152"}])")),
        "(field 'name')");
}

TEST_CASE("alpha meta: main dex asset ids are the index", "[unit][alpha]") {
    auto perps = alpha::parse_meta(body("meta"), "", 0);
    REQUIRE(perps);
    REQUIRE(perps->size() == 28);
    CHECK((*perps)[0].symbol == "BTC");
    CHECK((*perps)[0].dex.empty());
    CHECK((*perps)[0].asset == 0);
    CHECK((*perps)[0].sz_decimals == 5);
    CHECK((*perps)[0].max_leverage == 50);
    CHECK_FALSE((*perps)[0].only_isolated);
    CHECK_FALSE((*perps)[0].delisted);
    CHECK((*perps)[15].symbol == "kPEPE");
    CHECK((*perps)[15].asset == 15);
    CHECK((*perps)[27].symbol == "APT");
    CHECK((*perps)[27].asset == 27);
}

TEST_CASE("alpha meta: builder dex asset ids are 100000 + dex index * 10000 + index",
          "[unit][alpha]") {
    auto xyz = alpha::parse_meta(body("meta_xyz"), "xyz", 1);
    REQUIRE(xyz);
    REQUIRE(xyz->size() == 3);
    CHECK((*xyz)[0].symbol == "xyz:XYZ100");
    CHECK((*xyz)[0].dex == "xyz");
    CHECK((*xyz)[0].asset == 110000);
    CHECK((*xyz)[0].sz_decimals == 4);
    CHECK((*xyz)[0].max_leverage == 20);
    CHECK((*xyz)[0].only_isolated);
    CHECK((*xyz)[1].symbol == "xyz:TSLA");
    CHECK((*xyz)[1].asset == 110001);
    CHECK_FALSE((*xyz)[1].only_isolated);
    CHECK((*xyz)[2].symbol == "xyz:OLD");
    CHECK((*xyz)[2].asset == 110002);
    CHECK((*xyz)[2].delisted);
    CHECK((*xyz)[2].only_isolated); // marginMode noCross

    auto flx = alpha::parse_meta(body("meta_flx"), "flx", 2);
    REQUIRE(flx);
    REQUIRE(flx->size() == 1);
    CHECK((*flx)[0].symbol == "flx:CRCL");
    CHECK((*flx)[0].asset == 120000);

    SECTION("a name without the dex prefix gets it; digit strings are read as integers") {
        auto bare = alpha::parse_meta(
            json::parse(R"({"universe":[{"name":"AAPL","szDecimals":"2","maxLeverage":"10"}]})"),
            "xyz", 1);
        REQUIRE(bare);
        CHECK((*bare)[0].symbol == "xyz:AAPL");
        CHECK((*bare)[0].sz_decimals == 2);
        CHECK((*bare)[0].max_leverage == 10);
    }
}

TEST_CASE("alpha meta: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::parse_meta(json::parse("[]"), "", 0), "shape for alpha meta");
    check_upstream_error(alpha::parse_meta(json::parse(R"({"universe":{}})"), "", 0),
                         "alpha meta (field 'universe')");
    check_upstream_error(
        alpha::parse_meta(json::parse(R"({"universe":[{"name":"BTC","szDecimals":-1,
                                                       "maxLeverage":50}]})"),
                          "", 0),
        "alpha meta.universe[0] (field 'szDecimals')");
    check_upstream_error(
        alpha::parse_meta(json::parse(R"({"universe":[{"name":"X","szDecimals":1}]})"), "xyz", 1),
        "alpha meta of dex xyz.universe[0] (field 'maxLeverage')");
}

TEST_CASE("alpha spotMeta: BASE/QUOTE from token names, asset 10000 + pair index",
          "[unit][alpha]") {
    auto spot = alpha::parse_spot_meta(body("spot_meta"));
    REQUIRE(spot);
    REQUIRE(spot->size() == 3);
    CHECK((*spot)[0].symbol == "PURR/USDC");
    CHECK((*spot)[0].coin == "PURR/USDC");
    CHECK((*spot)[0].asset == 10000);
    CHECK((*spot)[0].sz_decimals == 0);
    CHECK((*spot)[0].base == "PURR");
    CHECK((*spot)[0].quote == "USDC");
    CHECK((*spot)[1].symbol == "HFUN/USDC");
    CHECK((*spot)[1].coin == "@1");
    CHECK((*spot)[1].asset == 10001);
    CHECK((*spot)[1].sz_decimals == 2);
    // Token 150 sits at array position 3: tokens are looked up by their `index` field.
    CHECK((*spot)[2].symbol == "HYPE/USDC");
    CHECK((*spot)[2].coin == "@107");
    CHECK((*spot)[2].asset == 10107);
    CHECK((*spot)[2].sz_decimals == 2);
}

TEST_CASE("alpha spotMeta: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::parse_spot_meta(json::parse(R"({"universe":[]})")),
                         "alpha spotMeta (field 'tokens')");
    check_upstream_error(alpha::parse_spot_meta(json::parse(
                             R"({"tokens":[{"name":"USDC","szDecimals":8,"index":0}],
                "universe":[{"name":"@5","tokens":[7,0],"index":5}]})")),
                         "alpha spotMeta.universe[0] (field 'tokens')");
}

TEST_CASE("alpha universe lookups", "[unit][alpha]") {
    auto const u = make_universe();
    REQUIRE(u.find_perp("BTC"));
    CHECK(u.find_perp("BTC")->asset == 0);
    REQUIRE(u.find_perp("xyz:TSLA"));
    CHECK(u.find_perp("xyz:TSLA")->asset == 110001);
    REQUIRE(u.find_perp("flx:CRCL"));
    CHECK(u.find_perp("flx:CRCL")->asset == 120000);
    CHECK_FALSE(u.find_perp("TSLA"));
    CHECK_FALSE(u.find_perp("btc"));
    REQUIRE(u.find_spot("HYPE/USDC"));
    CHECK(u.find_spot("HYPE/USDC")->coin == "@107");
    CHECK_FALSE(u.find_spot("@107"));
    REQUIRE(u.find_spot_coin("@1"));
    CHECK(u.find_spot_coin("@1")->symbol == "HFUN/USDC");
    CHECK(u.find_spot_coin("PURR/USDC"));
    REQUIRE(u.find_dex("flx"));
    CHECK(u.find_dex("flx")->index == 2);
    CHECK_FALSE(u.find_dex(""));
    CHECK(u.market_count("") == 28);
    CHECK(u.market_count("xyz") == 2); // xyz:OLD is delisted
    CHECK(u.market_count("flx") == 1);
    CHECK(u.market_count("nope") == 0);
}

TEST_CASE("alpha upstream interval names", "[unit][alpha]") {
    CHECK(alpha::upstream_interval(interval::m1) == "1m");
    CHECK(alpha::upstream_interval(interval::m5) == "5m");
    CHECK(alpha::upstream_interval(interval::m15) == "15m");
    CHECK(alpha::upstream_interval(interval::m30) == "30m");
    CHECK(alpha::upstream_interval(interval::h1) == "1h");
    CHECK(alpha::upstream_interval(interval::h4) == "4h");
    CHECK(alpha::upstream_interval(interval::d1) == "1d");
    CHECK(alpha::upstream_interval(interval::w1) == "1w");
}

// ---------------------------------------------------------------------------------------------
// Market data

TEST_CASE("alpha allMids: prices in normal form", "[unit][alpha]") {
    auto prices = alpha::to_prices(body("all_mids"));
    REQUIRE(prices);
    CHECK(prices->size() == 28);
    CHECK(prices->at("BTC").str() == "30135");
    CHECK(prices->at("ETH").str() == "1903.95");
    CHECK(prices->at("kPEPE").str() == "0.001565");
}

TEST_CASE("alpha allMids: spot keys are dropped, builder dex keys kept", "[unit][alpha]") {
    auto prices = alpha::to_prices(json::parse(
        R"({"APE":"4.33245","BTC":"30135.0","@107":"18.62","PURR/USDC":"0.2093",
            "xyz:TSLA":"464.92"})"));
    REQUIRE(prices);
    CHECK(json::serialize(json::value_from(*prices)) ==
          R"({"APE":"4.33245","BTC":"30135","xyz:TSLA":"464.92"})");
}

TEST_CASE("alpha allMids: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::to_prices(json::parse(R"(["BTC"])")), "shape for alpha allMids");
    check_upstream_error(alpha::to_prices(json::parse(R"({"BTC":"abc"})")),
                         "alpha allMids (field 'BTC')");
    check_upstream_error(alpha::to_prices(json::parse(R"({"BTC":null})")),
                         "alpha allMids (field 'BTC')");
}

TEST_CASE("alpha recentTrades: newest first, truncated to the limit", "[unit][alpha]") {
    auto trades = alpha::to_trades(body("recent_trades"), 10);
    REQUIRE(trades);
    REQUIRE(trades->size() == 3);
    // The body runs oldest first; equal times keep newest-first order once reversed.
    CHECK((*trades)[0].id == "987654321098765");
    CHECK((*trades)[0].price.str() == "3007.15");
    CHECK((*trades)[0].size.str() == "0.0104");
    CHECK((*trades)[0].side == side::buy);
    CHECK((*trades)[0].timestamp == 1717000000123);
    CHECK((*trades)[1].id == "123456789012345");
    CHECK((*trades)[2].id == "903611207116891");
    CHECK((*trades)[2].side == side::sell);
    CHECK((*trades)[2].price.str() == "3006.9");
    CHECK((*trades)[2].timestamp == 1717000000000);
    CHECK(json::serialize(json::value_from((*trades)[2])) ==
          R"({"id":"903611207116891","price":"3006.9","size":"1.2","side":"sell",)"
          R"("timestamp":1717000000000})");

    auto two = alpha::to_trades(body("recent_trades"), 2);
    REQUIRE(two);
    REQUIRE(two->size() == 2);
    CHECK((*two)[1].id == "123456789012345");
}

TEST_CASE("alpha recentTrades: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::to_trades(json::parse("{}"), 10), "shape for alpha recentTrades");
    check_upstream_error(
        alpha::to_trades(json::parse(R"([{"side":"S","px":"1","sz":"1","time":1,"tid":1}])"), 10),
        "alpha recentTrades[0] (field 'side')");
    check_upstream_error(
        alpha::to_trades(json::parse(R"([{"side":"B","px":"1","sz":"1","time":1}])"), 10),
        "alpha recentTrades[0] (field 'tid')");
}

TEST_CASE("alpha candleSnapshot: oldest first, t is the timestamp", "[unit][alpha]") {
    auto candles = alpha::to_candles(body("candle_snapshot"));
    REQUIRE(candles);
    REQUIRE(candles->size() == 24);
    CHECK(json::serialize(json::value_from(candles->front())) ==
          R"({"open":"0.001601","high":"0.001616","low":"0.001601","close":"0.001604",)"
          R"("volume":"520665683","timestamp":1684699200000})");
    CHECK(candles->back().timestamp == 1684782000000);
    CHECK(candles->back().close.str() == "0.00154");
    for (std::size_t i = 1; i < candles->size(); ++i)
        CHECK((*candles)[i - 1].timestamp < (*candles)[i].timestamp);

    SECTION("a newest-first answer is put oldest first") {
        auto reversed = alpha::to_candles(json::parse(
            R"([{"t":1681927200000,"o":"2","h":"2","l":"2","c":"2","v":"0.0"},
                {"t":1681923600000,"o":"1","h":"1","l":"1","c":"1","v":"1.5"}])"));
        REQUIRE(reversed);
        CHECK((*reversed)[0].timestamp == 1681923600000);
        CHECK((*reversed)[0].volume.str() == "1.5");
        CHECK((*reversed)[1].volume.str() == "0");
    }
}

TEST_CASE("alpha candleSnapshot: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::to_candles(json::parse("null")), "shape for alpha candleSnapshot");
    check_upstream_error(
        alpha::to_candles(json::parse(R"([{"t":1,"o":"x","h":"1","l":"1","c":"1","v":"1"}])")),
        "alpha candleSnapshot[0] (field 'o')");
}

TEST_CASE("alpha l2Book: bids and asks cut to depth", "[unit][alpha]") {
    auto book = alpha::to_orderbook(body("l2_book"), "DYDX", 3);
    REQUIRE(book);
    CHECK(json::serialize(json::value_from(*book)) ==
          R"({"symbol":"DYDX","bids":[{"price":"2.111","size":"134.4"},)"
          R"({"price":"2.1105","size":"141.1"},{"price":"2.1104","size":"125.8"}],)"
          R"("asks":[{"price":"2.1124","size":"352.3"},{"price":"2.1125","size":"364.9"},)"
          R"({"price":"2.1128","size":"3798"}],"timestamp":1689630203930})");

    auto full = alpha::to_orderbook(body("l2_book"), "DYDX", 1000);
    REQUIRE(full);
    CHECK(full->bids.size() == 20);
    CHECK(full->asks.size() == 20);
    CHECK(full->bids.back().price.str() == "1.81");
    CHECK(full->bids.back().size.str() == "2397");
}

TEST_CASE("alpha l2Book: null is MARKET_NOT_FOUND, malformed bodies UPSTREAM_ERROR",
          "[unit][alpha]") {
    auto unknown = alpha::to_orderbook(json::value(nullptr), "NOPE", 20);
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().code == errc::market_not_found);
    CHECK(unknown.error().message == "Unknown market 'NOPE' on alpha.");

    check_upstream_error(
        alpha::to_orderbook(json::parse(R"({"coin":"BTC","time":1,"levels":[[]]})"), "BTC", 20),
        "alpha l2Book (field 'levels')");
    check_upstream_error(
        alpha::to_orderbook(json::parse(R"({"coin":"BTC","levels":[[],[]]})"), "BTC", 20),
        "alpha l2Book (field 'time')");
    check_upstream_error(
        alpha::to_orderbook(
            json::parse(R"({"coin":"BTC","time":1,"levels":[[{"px":"1","sz":"1"}],[{"px":"2"}]]})"),
            "BTC", 20),
        "alpha l2Book.levels[1][0] (field 'sz')");
}

// ---------------------------------------------------------------------------------------------
// Account

TEST_CASE("alpha account summary: sums of every dex's clearinghouseState", "[unit][alpha]") {
    SECTION("main dex only") {
        auto s = alpha::to_account_summary({body("clearinghouse_state")});
        REQUIRE(s);
        CHECK(json::serialize(json::value_from(*s)) ==
              R"({"equity":"1182.312496","availableMargin":"1010.57173",)"
              R"("usedMargin":"171.740766","unrealizedPnl":"0.688018",)"
              R"("totalPositionValue":"3434.815334"})");
    }
    SECTION("main dex plus builder dex flx") {
        auto s = alpha::to_account_summary(
            {body("clearinghouse_state"), body("clearinghouse_state_flx")});
        REQUIRE(s);
        CHECK(s->equity.str() == "1189.202197");
        CHECK(s->available_margin.str() == "1010.735063");
        CHECK(s->used_margin.str() == "175.200468");
        CHECK(s->unrealized_pnl.str() == "0.668778");
        CHECK(s->total_position_value.str() == "3445.230154");
    }
    SECTION("an account without positions") {
        auto s = alpha::to_account_summary({body("clearinghouse_state_empty")});
        REQUIRE(s);
        CHECK(json::serialize(json::value_from(*s)) ==
              R"({"equity":"20.454862","availableMargin":"19.954862","usedMargin":"0",)"
              R"("unrealizedPnl":"0","totalPositionValue":"0"})");
    }
}

TEST_CASE("alpha account summary: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::to_account_summary({json::parse("[]")}),
                         "shape for alpha clearinghouseState");
    check_upstream_error(
        alpha::to_account_summary({body("clearinghouse_state"),
                                   json::parse(R"({"withdrawable":"1","assetPositions":[]})")}),
        "alpha clearinghouseState[1] (field 'marginSummary')");
    check_upstream_error(
        alpha::to_account_summary({json::parse(
            R"({"withdrawable":"x","assetPositions":[],"marginSummary":{"accountValue":"1",
                "totalMarginUsed":"0","totalNtlPos":"0"}})")}),
        "alpha clearinghouseState (field 'withdrawable')");
    check_upstream_error(
        alpha::to_account_summary({json::parse(
            R"({"withdrawable":"1","assetPositions":[],"marginSummary":{"accountValue":"1",
                "totalNtlPos":"0"}})")}),
        "alpha clearinghouseState.marginSummary (field 'totalMarginUsed')");
    SECTION("a sum beyond 38 digits fails instead of rounding") {
        std::string const huge = "99999999999999999999999999999999999999";
        auto const state = json::parse(
            R"({"withdrawable":"0","assetPositions":[],"marginSummary":{"accountValue":")" + huge +
            R"(","totalMarginUsed":"0","totalNtlPos":"0"}})");
        check_upstream_error(alpha::to_account_summary({state, state}), "cannot be computed");
    }
}

TEST_CASE("alpha positions: recorded main-dex state", "[unit][alpha]") {
    auto const u = make_universe();
    auto positions = alpha::to_positions(body("clearinghouse_state"), u);
    REQUIRE(positions);
    REQUIRE(positions->size() == 12);

    // A short position (negative szi); BTC prices carry 6 - 5 = 1 decimal.
    CHECK(json::serialize(json::value_from((*positions)[0])) ==
          R"({"symbol":"BTC","side":"short","size":"0.00785","entryPrice":"26951",)"
          R"("markPrice":"26961.2","unrealizedPnl":"-0.08007","leverage":"20",)"
          R"("liquidationPrice":"173198.69592357","margin":"10.582271"})");
    // A long position with a null liquidationPx.
    CHECK(json::serialize(json::value_from((*positions)[1])) ==
          R"({"symbol":"ETH","side":"long","size":"0.1334","entryPrice":"1705.82",)"
          R"("markPrice":"1706.71","unrealizedPnl":"0.118726","leverage":"20",)"
          R"("liquidationPrice":"0","margin":"11.383755"})");

    std::vector<std::string> marks;
    for (auto const& p : *positions)
        marks.push_back(p.symbol + "=" + p.mark_price.str());
    CHECK(marks == std::vector<std::string>{"BTC=26961.2", "ETH=1706.71", "ATOM=10.8",
                                            "MATIC=1.036", "DYDX=2.37", "SOL=19.69", "AVAX=16.4",
                                            "BNB=306.9", "APE=3.866", "OP=2.045", "LTC=88.14",
                                            "ARB=1.1798"});
}

TEST_CASE("alpha positions: builder dex and isolated positions", "[unit][alpha]") {
    auto const u = make_universe();
    auto flx = alpha::to_positions(body("clearinghouse_state_flx"), u);
    REQUIRE(flx);
    REQUIRE(flx->size() == 1);
    CHECK(json::serialize(json::value_from((*flx)[0])) ==
          R"({"symbol":"flx:CRCL","side":"long","size":"0.13","entryPrice":"80.262",)"
          R"("markPrice":"80.114","unrealizedPnl":"-0.01924","leverage":"3",)"
          R"("liquidationPrice":"64.2010892308","margin":"3.459702"})");

    // HYPE is not in this universe: prices fall back to 6 decimals.
    auto hype = alpha::to_positions(body("clearinghouse_state_isolated_short"), u);
    REQUIRE(hype);
    REQUIRE(hype->size() == 1);
    CHECK(json::serialize(json::value_from((*hype)[0])) ==
          R"({"symbol":"HYPE","side":"short","size":"4","entryPrice":"47.9932",)"
          R"("markPrice":"48.145","unrealizedPnl":"-0.6071","leverage":"10",)"
          R"("liquidationPrice":"50.2724802381","margin":"18.564417"})");

    auto none = alpha::to_positions(body("clearinghouse_state_empty"), u);
    REQUIRE(none);
    CHECK(none->empty());
}

TEST_CASE("alpha positions: markPrice rounds half-even to the market's price decimals",
          "[unit][alpha]") {
    auto const u = make_universe();
    auto const state = [](std::string const& coin, std::string const& szi,
                          std::string const& value) {
        return json::parse(R"({"assetPositions":[{"type":"oneWay","position":{"coin":")" + coin +
                           R"(","szi":")" + szi + R"(","entryPx":"1.0","positionValue":")" + value +
                           R"(","unrealizedPnl":"0.0","liquidationPx":null,"marginUsed":"1.0",)"
                           R"("leverage":{"type":"cross","value":20}}}]})");
    };
    auto [coin, szi, value, mark] =
        GENERATE(table<std::string, std::string, std::string, std::string>({
            {"BTC", "0.003", "100.0", "33333.3"}, // 33333.333.. -> 1 decimal
            {"BTC", "0.2", "5.01", "25"},         // 25.05 -> 25.0 (half to even)
            {"BTC", "0.2", "5.03", "25.2"},       // 25.15 -> 25.2 (half to even)
            {"BTC", "-0.2", "5.07", "25.4"},      // 25.35 -> 25.4
            {"DOGE", "3", "0.2", "0.066667"},     // szDecimals 0 -> 6 decimals
            {"xyz:TSLA", "7", "1000", "142.857"}, // szDecimals 3 -> 3 decimals
        }));
    CAPTURE(coin, szi, value);
    auto p = alpha::to_positions(state(coin, szi, value), u);
    REQUIRE(p);
    REQUIRE(p->size() == 1);
    CHECK((*p)[0].mark_price.str() == mark);
    CHECK((*p)[0].liquidation_price.str() == "0");

    SECTION("a zero-size entry is no position") {
        auto zero = alpha::to_positions(state("BTC", "0.0", "0.0"), u);
        REQUIRE(zero);
        CHECK(zero->empty());
    }
}

TEST_CASE("alpha positions: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    auto const u = make_universe();
    check_upstream_error(alpha::to_positions(json::parse(R"({"marginSummary":{}})"), u),
                         "alpha clearinghouseState (field 'assetPositions')");
    check_upstream_error(
        alpha::to_positions(json::parse(R"({"assetPositions":[{"type":"oneWay"}]})"), u),
        "alpha clearinghouseState.assetPositions[0] (field 'position')");
    check_upstream_error(
        alpha::to_positions(
            json::parse(R"({"assetPositions":[{"position":{"coin":"BTC","szi":"1","entryPx":"1",
                "positionValue":"1","unrealizedPnl":"0","marginUsed":"1","liquidationPx":null,
                "leverage":{"type":"cross"}}}]})"),
            u),
        "alpha clearinghouseState.assetPositions[0].position.leverage (field 'value')");
    check_upstream_error(
        alpha::to_positions(
            json::parse(R"({"assetPositions":[{"position":{"coin":"BTC","szi":"one","entryPx":"1",
                "positionValue":"1","unrealizedPnl":"0","marginUsed":"1",
                "leverage":{"type":"cross","value":3}}}]})"),
            u),
        "(field 'szi')");
}

TEST_CASE("alpha frontendOpenOrders: recorded orders", "[unit][alpha]") {
    auto orders = alpha::to_open_orders(body("frontend_open_orders"));
    REQUIRE(orders);
    REQUIRE(orders->size() == 5);
    // Take Profit Market: a stop_market waiting for its trigger; no limit price.
    CHECK(json::serialize(json::value_from((*orders)[0])) ==
          R"({"orderId":"3184595907","clientOrderId":null,"symbol":"INJ","side":"sell",)"
          R"("type":"stop_market","price":null,"triggerPrice":"10.004","size":"12.5",)"
          R"("filledSize":"0","reduceOnly":true,"status":"open","timestamp":1700126022555})");
    CHECK((*orders)[1].type == order_type::stop_market);
    CHECK((*orders)[1].trigger_price->str() == "9.995");
    // The parent limit order (its TP/SL children are listed separately).
    CHECK(json::serialize(json::value_from((*orders)[2])) ==
          R"({"orderId":"3184595905","clientOrderId":null,"symbol":"INJ","side":"buy",)"
          R"("type":"limit","price":"10","triggerPrice":null,"size":"12.5","filledSize":"0",)"
          R"("reduceOnly":false,"status":"open","timestamp":1700126022555})");
    // A builder-dex order.
    CHECK((*orders)[3].symbol == "flx:CRCL");
    CHECK((*orders)[3].order_id == "251733169011");
    CHECK((*orders)[3].price->str() == "70");
    // Stop Limit trigger order: keeps its limit price.
    CHECK(json::serialize(json::value_from((*orders)[4])) ==
          R"({"orderId":"8670685324","clientOrderId":null,"symbol":"ADA","side":"buy",)"
          R"("type":"stop_limit","price":"0.4","triggerPrice":"0.6","size":"40",)"
          R"("filledSize":"0","reduceOnly":false,"status":"open","timestamp":1715524233290})");
}

TEST_CASE("alpha frontendOpenOrders: triggered, partially filled and minimal items",
          "[unit][alpha]") {
    SECTION("a fired trigger order is `triggered` and keeps its trigger price") {
        auto orders = alpha::to_open_orders(json::parse(
            R"([{"children":[],"cloid":"0x1234567890abcdef1234567890abcdef","coin":"ADA",
                 "isPositionTpsl":false,"isTrigger":false,"limitPx":"0.4","oid":8670685324,
                 "orderType":"Stop Limit","origSz":"40.0","reduceOnly":false,"side":"B",
                 "sz":"25.5","tif":"Gtc","timestamp":1715524233290,
                 "triggerCondition":"Triggered","triggerPx":"0.6"}])"));
        REQUIRE(orders);
        CHECK(json::serialize(json::value_from((*orders)[0])) ==
              R"({"orderId":"8670685324","clientOrderId":"0x1234567890abcdef1234567890abcdef",)"
              R"("symbol":"ADA","side":"buy","type":"stop_limit","price":"0.4",)"
              R"("triggerPrice":"0.6","size":"40","filledSize":"14.5","reduceOnly":false,)"
              R"("status":"triggered","timestamp":1715524233290})");
    }
    SECTION("a plain openOrders item (string ids as ccxt records them) is a limit order") {
        auto orders = alpha::to_open_orders(json::parse(
            R"([{"coin":"SOL","limitPx":"60.0","oid":"6928553534","origSz":"0.1","side":"B",
                 "sz":"0.1","timestamp":"1709643776949"}])"));
        REQUIRE(orders);
        CHECK(json::serialize(json::value_from((*orders)[0])) ==
              R"({"orderId":"6928553534","clientOrderId":null,"symbol":"SOL","side":"buy",)"
              R"("type":"limit","price":"60","triggerPrice":null,"size":"0.1","filledSize":"0",)"
              R"("reduceOnly":false,"status":"open","timestamp":1709643776949})");
    }
    SECTION("order type names") {
        auto [name, is_trigger, type, has_price] =
            GENERATE(table<std::string, bool, order_type, bool>({
                {"Limit", false, order_type::limit, true},
                {"Market", false, order_type::market, false},
                {"Stop Market", true, order_type::stop_market, false},
                {"Take Profit Market", true, order_type::stop_market, false},
                {"Stop Limit", true, order_type::stop_limit, true},
                {"Take Profit Limit", true, order_type::stop_limit, true},
                {"Twap Slice", false, order_type::limit, true},
                {"Vault Close", false, order_type::limit, true},
                {"Something New", true, order_type::stop_limit, true},
            }));
        CAPTURE(name);
        auto item = json::parse(R"({"coin":"BTC","limitPx":"30000.0","oid":1,"side":"A",
                                    "sz":"1","origSz":"1","timestamp":1,"triggerPx":"29000.0",
                                    "triggerCondition":"N/A"})");
        item.as_object()["orderType"] = name;
        item.as_object()["isTrigger"] = is_trigger;
        auto orders = alpha::to_open_orders(json::array{item});
        REQUIRE(orders);
        CHECK((*orders)[0].type == type);
        CHECK((*orders)[0].price.has_value() == has_price);
        CHECK((*orders)[0].trigger_price.has_value() == is_trigger);
        CHECK((*orders)[0].status == open_order_status::open);
    }
}

TEST_CASE("alpha frontendOpenOrders: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    check_upstream_error(alpha::to_open_orders(json::parse("{}")),
                         "shape for alpha frontendOpenOrders");
    check_upstream_error(
        alpha::to_open_orders(json::parse(
            R"([{"coin":"BTC","limitPx":"1","oid":1,"side":"X","sz":"1","timestamp":1}])")),
        "alpha frontendOpenOrders[0] (field 'side')");
    check_upstream_error(
        alpha::to_open_orders(json::parse(
            R"([{"coin":"BTC","limitPx":"1","oid":-1,"side":"B","sz":"1","timestamp":1}])")),
        "(field 'oid')");
    check_upstream_error(
        alpha::to_open_orders(json::parse(
            R"([{"coin":"BTC","limitPx":"1","oid":1,"side":"B","sz":"2","origSz":"1",
                 "timestamp":1}])")),
        "(field 'sz')");
    check_upstream_error(
        alpha::to_open_orders(json::parse(
            R"([{"coin":"BTC","limitPx":"1","oid":1,"side":"B","sz":"1","timestamp":1,
                 "isTrigger":true,"orderType":"Stop Market","triggerPx":null}])")),
        "(field 'triggerPx')");
}

TEST_CASE("alpha userFills: perps fills newest first, spot dropped", "[unit][alpha]") {
    auto const u = make_universe();
    auto fills = alpha::to_fills(body("user_fills"), u);
    REQUIRE(fills);
    REQUIRE(fills->size() == 6); // the PURR/USDC spot fill is dropped
    // Opening fill: nothing closed, taker.
    CHECK(json::serialize(json::value_from((*fills)[0])) ==
          R"({"id":"882779857052503","orderId":"314848230306","symbol":"HYPE","side":"buy",)"
          R"("price":"33.209","size":"0.73","fee":"0.012896","feeAsset":"USDC",)"
          R"("liquidity":"taker","closedPnl":null,"timestamp":1770458548926})");
    // Builder-dex closing fill in USDH.
    CHECK(json::serialize(json::value_from((*fills)[1])) ==
          R"({"id":"1019408913364172","orderId":"310636768174","symbol":"flx:CRCL",)"
          R"("side":"sell","price":"55.877","size":"0.27","fee":"0.001173","feeAsset":"USDH",)"
          R"("liquidity":"taker","closedPnl":"-5.147253","timestamp":1770134398172})");
    CHECK((*fills)[2].liquidity == liquidity::maker);
    CHECK((*fills)[2].price.str() == "70");
    CHECK_FALSE((*fills)[2].closed_pnl);
    CHECK((*fills)[3].closed_pnl->str() == "-46.0356");
    CHECK((*fills)[5].symbol == "SOL");
    CHECK((*fills)[5].id == "566849930446139");
    for (std::size_t i = 1; i < fills->size(); ++i)
        CHECK((*fills)[i - 1].timestamp >= (*fills)[i].timestamp);
}

TEST_CASE("alpha userFills: @N spot coins dropped, order restored", "[unit][alpha]") {
    auto const u = make_universe();
    auto fills = alpha::to_fills(json::parse(R"([
        {"coin":"@107","px":"18.62","sz":"1.0","side":"B","time":1700000000000,"dir":"Buy",
         "closedPnl":"0.0","oid":1,"crossed":true,"fee":"0.01","tid":11,"feeToken":"HYPE"},
        {"coin":"BTC","px":"30000.0","sz":"0.1","side":"B","time":1700000000001,"dir":"Open Long",
         "closedPnl":"0.0","oid":2,"crossed":false,"fee":"-0.1","tid":12,"feeToken":"USDC"},
        {"coin":"BTC","px":"30100.0","sz":"0.1","side":"A","time":1700000000002,
         "dir":"Long > Short","closedPnl":"10.0","oid":3,"crossed":true,"fee":"0.3","tid":13}
    ])"),
                                 u);
    REQUIRE(fills);
    REQUIRE(fills->size() == 2);
    CHECK((*fills)[0].id == "13");
    CHECK((*fills)[0].closed_pnl->str() == "10"); // a flip closes the old side
    CHECK((*fills)[0].fee_asset == "USDC");       // no feeToken: USDC
    CHECK((*fills)[1].id == "12");
    CHECK((*fills)[1].fee.str() == "-0.1"); // a rebate
    CHECK((*fills)[1].liquidity == liquidity::maker);
}

TEST_CASE("alpha userFills: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    auto const u = make_universe();
    check_upstream_error(alpha::to_fills(json::parse("{}"), u), "shape for alpha userFills");
    // Fills recorded in 2023 predate `tid`: there is no unique id to give them.
    check_upstream_error(alpha::to_fills(body("user_fills_2023"), u),
                         "alpha userFills[0] (field 'tid')");
    check_upstream_error(alpha::to_fills(json::parse(R"([{"px":"1"}])"), u),
                         "alpha userFills[0] (field 'coin')");
    check_upstream_error(
        alpha::to_fills(json::parse(R"([{"coin":"BTC","px":"1","sz":"1","side":"B","time":1,
            "dir":"Close Long","oid":1,"crossed":true,"fee":"0","tid":1}])"),
                        u),
        "(field 'closedPnl')");
}

TEST_CASE("alpha spotClearinghouseState: available = total - hold", "[unit][alpha]") {
    auto balances = alpha::to_spot_balances(body("spot_clearinghouse_state"));
    REQUIRE(balances);
    REQUIRE(balances->size() == 5);
    CHECK(json::serialize(json::value_from((*balances)[1])) ==
          R"({"asset":"HYPE","available":"4.43762752","locked":"0","total":"4.43762752"})");
    CHECK((*balances)[4].asset == "USDH");

    auto held = alpha::to_spot_balances(body("spot_clearinghouse_state_hold"));
    REQUIRE(held);
    CHECK(json::serialize(json::value_from(*held)) ==
          R"([{"asset":"USDC","available":"40","locked":"10","total":"50"}])");

    check_upstream_error(alpha::to_spot_balances(json::parse("[]")),
                         "shape for alpha spotClearinghouseState");
    check_upstream_error(
        alpha::to_spot_balances(json::parse(R"({"balances":[{"coin":"USDC","total":"1"}]})")),
        "alpha spotClearinghouseState.balances[0] (field 'hold')");
}

// ---------------------------------------------------------------------------------------------
// rwas dexes

TEST_CASE("alpha dexes: list from the universe", "[unit][alpha]") {
    auto const u = make_universe();
    auto list = alpha::to_dexes(u);
    REQUIRE(list);
    CHECK(json::serialize(json::value_from(*list)) ==
          R"([{"name":"xyz","deployer":"0x88806a71d74ad0a510b350545c9ae490912f0888",)"
          R"("marketCount":2,"description":"XYZ tokenized equities"},)"
          R"({"name":"flx","deployer":"0x5e89b26d8d66da9888c835c9bfcc2aa51813e152",)"
          R"("marketCount":1,"description":"flx"}])");
}

TEST_CASE("alpha dex detail: listed markets from metaAndAssetCtxs", "[unit][alpha]") {
    auto const u = make_universe();
    auto detail = alpha::to_dex_detail(*u.find_dex("xyz"), body("meta_and_asset_ctxs_xyz"), u);
    REQUIRE(detail);
    CHECK(json::serialize(json::value_from(*detail)) ==
          R"({"name":"xyz","deployer":"0x88806a71d74ad0a510b350545c9ae490912f0888",)"
          R"("marketCount":2,"description":"XYZ tokenized equities","markets":[)"
          R"({"symbol":"xyz:XYZ100","maxLeverage":20,"szDecimals":4,"markPrice":"25451",)"
          R"("openInterest":"0.0854"},)"
          R"({"symbol":"xyz:TSLA","maxLeverage":10,"szDecimals":3,"markPrice":"181.02",)"
          R"("openInterest":"15230.4"}]})");
}

TEST_CASE("alpha dex status: active, notional open interest", "[unit][alpha]") {
    auto const u = make_universe();
    auto status = alpha::to_dex_status(*u.find_dex("xyz"), body("perp_dex_status_xyz"),
                                       body("meta_and_asset_ctxs_xyz"), 1714564800123);
    REQUIRE(status);
    // 0.0854 x 25451 + 15230.4 x 181.02 + 0 x 12.5
    CHECK(json::serialize(json::value_from(*status)) ==
          R"({"name":"xyz","status":"active","totalNetDeposit":"4103492112.4478230476",)"
          R"("openInterest":"2759180.5234","checkedAt":1714564800123})");

    SECTION("every market delisted: halted") {
        auto halted = alpha::to_dex_status(
            *u.find_dex("flx"), json::parse(R"({"totalNetDeposit":"0.0"})"),
            json::parse(R"([{"universe":[{"name":"flx:CRCL","szDecimals":2,"maxLeverage":3,
                              "isDelisted":true}]},
                            [{"openInterest":"0.0","markPx":"80.1"}]])"),
            5);
        REQUIRE(halted);
        CHECK(halted->status == dex_state::halted);
        CHECK(halted->open_interest.str() == "0");
        CHECK(halted->total_net_deposit.str() == "0");
        CHECK(halted->checked_at == 5);
    }
    SECTION("no market at all: halted") {
        auto empty =
            alpha::to_dex_status(*u.find_dex("flx"), json::parse(R"({"totalNetDeposit":"12.5"})"),
                                 json::parse(R"([{"universe":[]},[]])"), 5);
        REQUIRE(empty);
        CHECK(empty->status == dex_state::halted);
    }
}

TEST_CASE("alpha dex detail and status: malformed bodies are UPSTREAM_ERROR", "[unit][alpha]") {
    auto const u = make_universe();
    auto const& xyz = *u.find_dex("xyz");
    check_upstream_error(alpha::to_dex_detail(xyz, json::parse(R"({"universe":[]})"), u),
                         "shape for alpha metaAndAssetCtxs");
    check_upstream_error(
        alpha::to_dex_detail(
            xyz,
            json::parse(R"([{"universe":[{"name":"xyz:A","szDecimals":1,"maxLeverage":3}]},[]])"),
            u),
        "1 markets");
    check_upstream_error(
        alpha::to_dex_detail(
            xyz, json::parse(R"([{"universe":[{"name":"xyz:A","szDecimals":1,"maxLeverage":3}]},
                            [{"openInterest":"1.0","markPx":null}]])"),
            u),
        "alpha metaAndAssetCtxs ctxs[0] (field 'markPx')");
    check_upstream_error(alpha::to_dex_status(xyz, json::parse(R"({"totalNetDeposit":true})"),
                                              body("meta_and_asset_ctxs_xyz"), 1),
                         "alpha perpDexStatus (field 'totalNetDeposit')");
    check_upstream_error(
        alpha::to_dex_status(xyz, json::parse("null"), body("meta_and_asset_ctxs_xyz"), 1),
        "shape for alpha perpDexStatus");
}

TEST_CASE("alpha fill progress: orderStatus filled size, userFills average price",
          "[unit][alpha]") {
    // The shape of ccxt-fetchOrder.json's orderStatus answer (numbers as the upstream writes).
    auto const status = boost::json::parse(
        R"({"status":"order","order":{"order":{"coin":"HYPE","side":"B","limitPx":"13.5",
        "sz":"0.5","oid":80972193016,"timestamp":1742488072039,"origSz":"2.0","tif":"Gtc",
        "cloid":null},"status":"open","statusTimestamp":1742488072039}})");
    auto const filled = alpha::to_filled_size(status);
    REQUIRE(filled);
    CHECK(filled->str() == "1.5");
    CHECK_FALSE(alpha::to_filled_size(boost::json::parse(R"({"status":"unknownOid"})")));

    auto const fills = boost::json::parse(
        R"([{"coin":"HYPE","px":"13.4","sz":"1.0","oid":80972193016},
            {"coin":"HYPE","px":"13.5","sz":"0.5","oid":"80972193016"},
            {"coin":"HYPE","px":"99","sz":"7","oid":1}])");
    auto const avg = alpha::average_fill_price(fills, "80972193016");
    REQUIRE(avg);
    CHECK(avg->str() == "13.4333333333"); // (13.4 + 6.75) / 1.5, half-even at 10 decimals
    CHECK_FALSE(alpha::average_fill_price(fills, "2"));
}
