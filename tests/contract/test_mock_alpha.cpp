// Contract tests of the alpha mock (Hyperliquid info API, upstreams/alpha.md §2-3, §8): exact
// shapes of every /info type it serves, compared with the recorded upstream fixtures, the
// account state seeded through the mock control API (CONTRACT §10, mocks/README.md), and
// signed /exchange actions (§4-5) running through its matching engine.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/providers/alpha/orders.hpp>
#include <gateway/providers/alpha/signing.hpp>
#include <gateway/types/decimal.hpp>

#include "support/mock_control.hpp"
#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::control;
using gateway::test::fetch;
using gateway::test::keys;

std::unique_ptr<mock_server> start_alpha() {
    return mock_server::start({upstream::alpha});
}

gateway::test::raw_response info(mock_server const& m, std::string const& body) {
    return fetch(http::verb::post, m.base_url() + "/info", body);
}

/// POST /info and parse a 200 JSON answer.
json::value info_json(mock_server const& m, std::string const& body) {
    auto const r = info(m, body);
    INFO(body << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    REQUIRE(r.message[http::field::content_type] == "application/json");
    return json::parse(r.body);
}

/// The recorded upstream response body of a fixture under tests/fixtures/alpha.
json::value fixture(std::string const& name) {
    return gateway::test::fixture_document("alpha/" + name).at("response").at("body");
}

/// A Hyperliquid decimal string: plain notation, always with a fraction part ("30135.0").
bool is_hl_decimal(json::value const& v) {
    if (!v.is_string())
        return false;
    std::string_view const s = v.get_string();
    return gateway::decimal::parse(s).has_value() && s.find('.') != std::string_view::npos;
}

gateway::decimal dec(json::value const& v) {
    auto d = gateway::decimal::parse_lenient(v.as_string());
    REQUIRE(d);
    return *d;
}

} // namespace

TEST_CASE("alpha mock: allMids lists main-dex perps and spot pairs as decimal strings",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const mids = info_json(*m, R"({"type":"allMids"})");
    CHECK(keys(mids) == std::set<std::string>{"BTC", "ETH", "SOL", "PURR/USDC", "@1"});
    for (auto const& kv : mids.as_object()) {
        CAPTURE(kv.key(), kv.value());
        CHECK(is_hl_decimal(kv.value()));
    }
    // Same wire types as the recorded upstream: an object of coin -> decimal string.
    auto const recorded = fixture("get_all_mids.json");
    for (auto const& kv : recorded.as_object())
        CHECK(kv.value().is_string());

    SECTION("a builder dex answers only its prefixed coins") {
        auto const xyz = info_json(*m, R"({"type":"allMids","dex":"xyz"})");
        CHECK(keys(xyz) == std::set<std::string>{"xyz:TSLA", "xyz:NVDA", "xyz:GOLD"});
        for (auto const& kv : xyz.as_object())
            CHECK(is_hl_decimal(kv.value()));
    }
    SECTION("an empty dex is the main dex") {
        CHECK(keys(info_json(*m, R"({"type":"allMids","dex":""})")) == keys(mids));
    }
    SECTION("an unknown dex is refused like a malformed body") {
        auto const r = info(*m, R"({"type":"allMids","dex":"nope"})");
        CHECK(r.status == 422);
    }
}

TEST_CASE("alpha mock: exchangeStatus answers time and specialStatuses",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const s = info_json(*m, R"({"type":"exchangeStatus"})");
    CHECK(keys(s) == std::set<std::string>{"time", "specialStatuses"});
    CHECK(s.at("time").is_int64());
    CHECK(s.at("specialStatuses").is_null());
}

TEST_CASE("alpha mock: meta has the recorded universe shape per dex", "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const recorded = fixture("meta.json");
    auto const& recorded_entry = recorded.at("universe").at(0);

    auto const meta = info_json(*m, R"({"type":"meta"})");
    CHECK(keys(meta) == std::set<std::string>{"universe", "marginTables", "collateralToken"});
    auto const& u = meta.at("universe").as_array();
    REQUIRE(u.size() == 3);
    CHECK(u[0].at("name") == "BTC");
    CHECK(u[1].at("name") == "ETH");
    CHECK(u[2].at("name") == "SOL");
    CHECK(u[0].at("szDecimals") == 5);
    CHECK(u[1].at("szDecimals") == 4);
    CHECK(u[2].at("szDecimals") == 2);
    for (auto const& e : u) {
        auto const k = keys(e);
        for (auto const& rk : keys(recorded_entry))
            CHECK(k.count(rk) == 1);
        CHECK(e.at("szDecimals").is_int64());
        CHECK(e.at("maxLeverage").is_int64());
        CHECK(e.at("name").is_string());
    }
    for (auto const& t : meta.at("marginTables").as_array()) {
        REQUIRE(t.as_array().size() == 2);
        CHECK(t.at(0).is_int64());
        CHECK(t.at(1).at("marginTiers").at(0).at("lowerBound").is_string());
    }
    CHECK(meta.at("collateralToken") == 0);

    SECTION("the builder dex prefixes names and is isolated-only") {
        auto const xyz = info_json(*m, R"({"type":"meta","dex":"xyz"})");
        auto const& xu = xyz.at("universe").as_array();
        REQUIRE(xu.size() == 3);
        CHECK(xu[0].at("name") == "xyz:TSLA");
        CHECK(xu[1].at("name") == "xyz:NVDA");
        CHECK(xu[2].at("name") == "xyz:GOLD");
        for (auto const& e : xu) {
            CHECK(e.at("onlyIsolated") == true);
            CHECK(e.at("marginMode") == "strictIsolated");
        }
    }
}

TEST_CASE("alpha mock: metaAndAssetCtxs pairs each universe entry with a context",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    for (auto const* body :
         {R"({"type":"metaAndAssetCtxs"})", R"({"type":"metaAndAssetCtxs","dex":"xyz"})"}) {
        CAPTURE(body);
        auto const r = info_json(*m, body);
        REQUIRE(r.as_array().size() == 2);
        auto const& universe = r.at(0).at("universe").as_array();
        auto const& ctxs = r.at(1).as_array();
        REQUIRE(ctxs.size() == universe.size());
        for (auto const& c : ctxs) {
            CHECK(keys(c) == std::set<std::string>{"funding", "openInterest", "prevDayPx",
                                                   "dayNtlVlm", "premium", "oraclePx", "markPx",
                                                   "midPx", "impactPxs", "dayBaseVlm"});
            for (auto const* k : {"funding", "openInterest", "prevDayPx", "dayNtlVlm", "premium",
                                  "oraclePx", "markPx", "midPx", "dayBaseVlm"}) {
                CAPTURE(k);
                CHECK(is_hl_decimal(c.at(k)));
            }
            auto const& impact = c.at("impactPxs").as_array();
            REQUIRE(impact.size() == 2);
            CHECK(dec(impact[0]) < dec(impact[1]));
        }
    }
}

TEST_CASE("alpha mock: spotMeta lists tokens and pairs", "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const s = info_json(*m, R"({"type":"spotMeta"})");
    CHECK(keys(s) == std::set<std::string>{"tokens", "universe"});
    auto const& tokens = s.at("tokens").as_array();
    REQUIRE(tokens.size() == 3);
    CHECK(tokens[0].at("name") == "USDC");
    CHECK(tokens[1].at("name") == "PURR");
    for (auto const& t : tokens) {
        CHECK(keys(t) == std::set<std::string>{"name", "szDecimals", "weiDecimals", "index",
                                               "tokenId", "isCanonical", "evmContract",
                                               "fullName"});
        CHECK(t.at("szDecimals").is_int64());
        CHECK(t.at("tokenId").as_string().size() == 34);
        CHECK(t.at("evmContract").is_null());
    }
    auto const& u = s.at("universe").as_array();
    REQUIRE(u.size() == 2);
    CHECK(u[0].at("name") == "PURR/USDC");
    CHECK(u[0].at("tokens") == json::array{1, 0});
    CHECK(u[0].at("index") == 0);
    CHECK(u[1].at("name") == "@1");
    CHECK(u[1].at("index") == 1);
    CHECK(keys(u[1]) == std::set<std::string>{"name", "tokens", "index", "isCanonical"});
}

TEST_CASE("alpha mock: spotMetaAndAssetCtxs pairs spotMeta with one context per pair",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    // The body ccxt's fetchMarkets/fetchTickers sends (ccxt-requests-only.json, fetchTickers).
    auto const r = info_json(*m, R"({"type":"spotMetaAndAssetCtxs"})");
    REQUIRE(r.as_array().size() == 2);
    CHECK(r.at(0) == info_json(*m, R"({"type":"spotMeta"})"));
    auto const& universe = r.at(0).at("universe").as_array();
    auto const& ctxs = r.at(1).as_array();
    REQUIRE(ctxs.size() == universe.size());
    auto const mids = info_json(*m, R"({"type":"allMids"})");
    for (std::size_t i = 0; i < ctxs.size(); ++i) {
        auto const& c = ctxs[i];
        CAPTURE(i, json::serialize(c));
        // alpha.md §3.3 (SDK-ts spotMetaAndAssetCtxs): ctxs[i] belongs to universe[i].
        CHECK(keys(c) == std::set<std::string>{"prevDayPx", "dayNtlVlm", "markPx", "midPx",
                                               "circulatingSupply", "coin", "totalSupply",
                                               "dayBaseVlm"});
        CHECK(c.at("coin") == universe[i].at("name"));
        for (auto const* k : {"prevDayPx", "dayNtlVlm", "markPx", "midPx", "circulatingSupply",
                              "totalSupply", "dayBaseVlm"}) {
            CAPTURE(k);
            CHECK(is_hl_decimal(c.at(k)));
        }
        CHECK(c.at("midPx") == mids.at(universe[i].at("name").as_string()));
        CHECK(dec(c.at("circulatingSupply")) <= dec(c.at("totalSupply")));
    }
    CHECK(ctxs[0].at("coin") == "PURR/USDC");
    CHECK(ctxs[1].at("coin") == "@1");

    // The contexts follow the market state: a pinned mark is the new markPx and midPx.
    auto const pin = fetch(http::verb::post, m->base_url() + "/__mock/mark",
                           R"({"symbol":"PURR/USDC","price":"0.2"})");
    REQUIRE(pin.status == 200);
    auto const after = info_json(*m, R"({"type":"spotMetaAndAssetCtxs"})");
    CHECK(after.at(1).at(0).at("markPx") == "0.2");
    CHECK(after.at(1).at(0).at("midPx") == "0.2");
    CHECK(after.at(1).at(0).at("prevDayPx") == r.at(1).at(0).at("prevDayPx"));
}

TEST_CASE("alpha mock: perpDexs starts with null for the main dex", "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const d = info_json(*m, R"({"type":"perpDexs"})");
    REQUIRE(d.as_array().size() == 2);
    CHECK(d.at(0).is_null());
    auto const& xyz = d.at(1);
    CHECK(xyz.at("name") == "xyz");
    for (auto const* k : {"fullName", "deployer", "oracleUpdater", "feeRecipient",
                          "assetToStreamingOiCap", "assetToFundingMultiplier"})
        CHECK(xyz.as_object().contains(k));
    CHECK(xyz.at("deployer").as_string().size() == 42);
    CHECK(xyz.at("assetToStreamingOiCap").at(0).at(0) == "xyz:TSLA");
}

TEST_CASE("alpha mock: l2Book has the recorded level shape, sorted, 20 levels at most",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const recorded = fixture("l2_book.json");
    auto const& recorded_level = recorded.at("levels").at(0).at(0);

    auto const b = info_json(*m, R"({"type":"l2Book","coin":"BTC"})");
    for (auto const& k : keys(recorded))
        CHECK(keys(b).count(k) == 1);
    CHECK(keys(b) == std::set<std::string>{"coin", "time", "levels"});
    CHECK(b.at("coin") == "BTC");
    CHECK(b.at("time").is_int64());
    auto const& levels = b.at("levels").as_array();
    REQUIRE(levels.size() == 2);
    auto const& bids = levels[0].as_array();
    auto const& asks = levels[1].as_array();
    REQUIRE(!bids.empty());
    REQUIRE(!asks.empty());
    // The upstream answers 20 levels a side (alpha.md §3.9); the mock's books are deeper.
    CHECK(bids.size() == 20);
    CHECK(asks.size() == 20);
    for (auto const* side : {&bids, &asks})
        for (auto const& l : *side) {
            CHECK(keys(l) == keys(recorded_level));
            CHECK(is_hl_decimal(l.at("px")));
            CHECK(is_hl_decimal(l.at("sz")));
            CHECK(l.at("n").is_int64());
            CHECK(recorded_level.at("n").is_int64());
        }
    for (std::size_t i = 1; i < bids.size(); ++i)
        CHECK(dec(bids[i].at("px")) < dec(bids[i - 1].at("px")));
    for (std::size_t i = 1; i < asks.size(); ++i)
        CHECK(dec(asks[i].at("px")) > dec(asks[i - 1].at("px")));
    CHECK(dec(bids[0].at("px")) < dec(asks[0].at("px")));

    SECTION("spot and builder-dex coins have books too") {
        for (auto const* coin : {"PURR/USDC", "@1", "xyz:TSLA"}) {
            CAPTURE(coin);
            auto const sb = info_json(*m, std::string(R"({"type":"l2Book","coin":")") + coin +
                                              R"(","nSigFigs":null,"mantissa":null})");
            CHECK(sb.at("coin") == coin);
            CHECK(!sb.at("levels").at(0).as_array().empty());
        }
    }
    SECTION("nSigFigs aggregates prices to that many significant figures") {
        auto const agg = info_json(*m, R"({"type":"l2Book","coin":"BTC","nSigFigs":2})");
        auto const& abids = agg.at("levels").at(0).as_array();
        REQUIRE(!abids.empty());
        for (auto const& l : abids) {
            auto const px = dec(l.at("px")).to_scaled(0);
            REQUIRE(px);
            CHECK(*px % 1000 == 0); // BTC ~ 67000: two significant figures
        }
    }
    SECTION("bad nSigFigs or mantissa is a 422") {
        CHECK(info(*m, R"({"type":"l2Book","coin":"BTC","nSigFigs":7})").status == 422);
        CHECK(info(*m, R"({"type":"l2Book","coin":"BTC","nSigFigs":4,"mantissa":2})").status ==
              422);
    }
    SECTION("an unknown coin answers null") {
        auto const r = info(*m, R"({"type":"l2Book","coin":"NOPE"})");
        CHECK(r.status == 200);
        CHECK(r.body == "null");
    }
}

TEST_CASE("alpha mock: recentTrades returns trade objects like the WS trades channel",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const t = info_json(*m, R"({"type":"recentTrades","coin":"ETH"})");
    REQUIRE(!t.as_array().empty());
    for (auto const& x : t.as_array()) {
        CHECK(keys(x) ==
              std::set<std::string>{"coin", "side", "px", "sz", "time", "hash", "tid", "users"});
        CHECK(x.at("coin") == "ETH");
        CHECK((x.at("side") == "A" || x.at("side") == "B"));
        CHECK(is_hl_decimal(x.at("px")));
        CHECK(is_hl_decimal(x.at("sz")));
        CHECK(x.at("time").is_int64());
        CHECK(x.at("tid").is_number());
        CHECK(x.at("hash").as_string().size() == 66);
        REQUIRE(x.at("users").as_array().size() == 2);
        CHECK(x.at("users").at(0).as_string().size() == 42);
    }
    CHECK(info(*m, R"({"type":"recentTrades","coin":"NOPE"})").body == "null");
}

TEST_CASE("alpha mock: malformed bodies and unknown types are 422 text/plain",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    for (auto const* body : {R"({"type":"noSuchType"})", "not json", "[1,2]", R"({"coin":"BTC"})",
                             R"({"type":"l2Book"})"}) {
        CAPTURE(body);
        auto const r = info(*m, body);
        CHECK(r.status == 422);
        CHECK(r.message[http::field::content_type].starts_with("text/plain"));
        CHECK(r.body.rfind("Failed to deserialize the JSON body into the target type", 0) == 0);
    }
}

TEST_CASE("alpha mock: stats count /info types and /exchange actions", "[contract][mock][alpha]") {
    auto m = start_alpha();
    info(*m, R"({"type":"allMids"})");
    info(*m, R"({"type":"allMids","dex":"xyz"})");
    info(*m, R"({"type":"meta"})");
    info(*m, R"({"type":"nope"})");
    // Unsigned: a 422, still counted by its action type.
    auto const ex = fetch(http::verb::post, m->base_url() + "/exchange",
                          R"({"action":{"type":"order","orders":[],"grouping":"na"},"nonce":1})");
    CHECK(ex.status == 422);
    auto const s = json::parse(fetch(http::verb::get, m->base_url() + "/__mock/stats").body);
    CHECK(s.at("requests") == 5);
    CHECK(s.at("byKind") ==
          json::parse(R"({"allMids":2,"meta":1,"nope":1,"exchange:order":1})").as_object());
}

TEST_CASE("alpha mock: over 1200 weight per minute an address gets 429",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    // meta weighs 20 (alpha.md §8): exactly 60 fit in the budget.
    for (int i = 0; i < 60; ++i) {
        auto const r = info(*m, R"({"type":"meta"})");
        REQUIRE(r.status == 200);
    }
    CHECK(info(*m, R"({"type":"meta"})").status == 429);
    CHECK(info(*m, R"({"type":"allMids"})").status == 429); // weight 2 no longer fits either
    // The control API is outside the budget.
    CHECK(fetch(http::verb::get, m->base_url() + "/__mock/stats").status == 200);
}

TEST_CASE("alpha mock: /__mock/mark moves and pins a perp, spot or builder-dex mark",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto mark = [&](std::string const& body) {
        return fetch(http::verb::post, m->base_url() + "/__mock/mark", body);
    };
    auto const r = mark(R"({"symbol":"BTC","price":"65000"})");
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body) == json::parse(R"({"symbol":"BTC","price":"65000"})"));
    CHECK(info_json(*m, R"({"type":"allMids"})").at("BTC") == "65000.0");
    auto const b = info_json(*m, R"({"type":"l2Book","coin":"BTC"})");
    CHECK(dec(b.at("levels").at(0).at(0).at("px")) < *gateway::decimal::parse("65000"));
    CHECK(dec(b.at("levels").at(1).at(0).at("px")) > *gateway::decimal::parse("65000"));
    auto const ctx = info_json(*m, R"({"type":"metaAndAssetCtxs"})");
    CHECK(ctx.at(1).at(0).at("markPx") == "65000.0");

    REQUIRE(mark(R"({"symbol":"xyz:TSLA","price":"250.5"})").status == 200);
    CHECK(info_json(*m, R"({"type":"allMids","dex":"xyz"})").at("xyz:TSLA") == "250.5");
    REQUIRE(mark(R"({"symbol":"@1","price":"7.25"})").status == 200);
    CHECK(info_json(*m, R"({"type":"allMids"})").at("@1") == "7.25");

    CHECK(mark(R"({"symbol":"DOGE","price":"1"})").status == 404);
    CHECK(mark(R"({"symbol":"BTC","price":"-1"})").status == 400);
}

TEST_CASE("alpha mock: addresses of a started mock", "[contract][mock][alpha]") {
    auto m = start_alpha();
    CHECK(m->port() != 0);
    CHECK(m->base_url() == "http://127.0.0.1:" + std::to_string(m->port()));
    CHECK(m->ws_url() == "ws://127.0.0.1:" + std::to_string(m->port()) + "/ws");
    CHECK(m->kind() == upstream::alpha);
}

// =============================================================================================
// Accounts (ledger), candles, weights

namespace {

constexpr char const* trader = "0x1111111111111111111111111111111111111111";
constexpr char const* nobody = "0x2222222222222222222222222222222222222222";
constexpr char const* agent = "0x3333333333333333333333333333333333333333";

// Recorded upstream bodies (one element each), copied from the shared fixtures
// (/work/shared/fixtures/alpha, see tests/fixtures/alpha/README.md). The SDK cassettes carry the
// real wire types; the ccxt captures carry the newest field sets but store some numbers as
// strings, so they are used for key names only.
constexpr char const* cassette_clearinghouse =
    R"({"assetPositions":[{"position":{"coin":"BTC","entryPx":"26951.0","leverage":{"type":"cross","value":20},"liquidationPx":"173198.69592357","marginUsed":"10.582271","maxTradeSzs":["0.76534","0.74964"],"positionValue":"211.64542","returnOnEquity":"-0.00756643","szi":"-0.00785","unrealizedPnl":"-0.08007"},"type":"oneWay"}],"crossMarginSummary":{"accountValue":"1182.312496","totalMarginUsed":"171.740766","totalNtlPos":"3434.815334","totalRawUsd":"86.549602"},"marginSummary":{"accountValue":"1182.312496","totalMarginUsed":"171.740766","totalNtlPos":"3434.815334","totalRawUsd":"86.549602"},"withdrawable":"1010.57173"})";
constexpr char const* ccxt_clearinghouse_isolated =
    R"({"marginSummary":{"accountValue":"76.206517","totalNtlPos":"192.58","totalRawUsd":"268.786517","totalMarginUsed":"18.564417"},"crossMarginSummary":{"accountValue":"57.6421","totalNtlPos":"0.0","totalRawUsd":"57.6421","totalMarginUsed":"0.0"},"crossMaintenanceMarginUsed":"0.0","withdrawable":"57.6421","assetPositions":[{"type":"oneWay","position":{"coin":"HYPE","szi":"-4.0","leverage":{"type":"isolated","value":"10","rawUsd":"211.144417"},"entryPx":"47.9932","positionValue":"192.58","unrealizedPnl":"-0.6071","returnOnEquity":"-0.0316242553","liquidationPx":"50.2724802381","marginUsed":"18.564417","maxLeverage":"10","cumFunding":{"allTime":"0.0","sinceOpen":"0.0","sinceChange":"0.0"}}}],"time":"1761803589961"})";
constexpr char const* ccxt_clearinghouse_cross =
    R"({"marginSummary":{"accountValue":"11524.216934","totalNtlPos":"3888.18","totalRawUsd":"7773.996934","totalMarginUsed":"194.409"},"crossMarginSummary":{"accountValue":"11524.216934","totalNtlPos":"3888.18","totalRawUsd":"7773.996934","totalMarginUsed":"194.409"},"crossMaintenanceMarginUsed":"38.8818","withdrawable":"11292.922399","assetPositions":[{"type":"oneWay","position":{"coin":"SOL","szi":"-0.5","leverage":{"type":"cross","value":"20"},"entryPx":"138.76","positionValue":"68.98","unrealizedPnl":"0.4","returnOnEquity":"0.115307","liquidationPx":"22881.19788911","marginUsed":"3.449","maxLeverage":"50","cumFunding":{"allTime":"-92.116334","sinceOpen":"0.0","sinceChange":"0.0"}}}],"time":"1728568314070"})";
constexpr char const* cassette_frontend_order =
    R"({"children":[],"coin":"INJ","isPositionTpsl":false,"isTrigger":true,"limitPx":"9.2037","oid":3184595907,"orderType":"Take Profit Market","origSz":"12.5","reduceOnly":true,"side":"A","sz":"12.5","tif":null,"timestamp":1700126022555,"triggerCondition":"Price above 10.004","triggerPx":"10.004"})";
constexpr char const* cassette_open_order =
    R"({"coin":"MATIC","limitPx":"1.0357","oid":62269971,"side":"B","sz":"208.7","timestamp":1679940217356})";
constexpr char const* cassette_fill =
    R"({"closedPnl":"-0.25686","coin":"SUI","crossed":true,"dir":"Close Long","fee":"0.0","hash":"0x3d4770d0527317ef77c404017559cb0103000b34010cc95e97b437cbc3b6087a","oid":189324432,"px":"1.3189","side":"A","startPosition":"4623.5","sz":"142.7","time":1683245884863})";
constexpr char const* ccxt_fill =
    R"({"coin":"HYPE","px":"33.209","sz":"0.73","side":"B","time":"1770458548926","startPosition":"0.0","dir":"Open Long","closedPnl":"0.0","hash":"0x53542a9ac057af8454cd0434d851d202028b00805b5ace56f71cd5ed7f5b896e","oid":"314848230306","crossed":true,"fee":"0.012896","tid":"882779857052503","feeToken":"USDC","twapId":null})";
constexpr char const* cassette_candle =
    R"({"T":1684702799999,"c":"0.001604","h":"0.001616","i":"1h","l":"0.001601","n":709,"o":"0.001601","s":"kPEPE","t":1684699200000,"v":"520665683.0"})";
constexpr char const* cassette_extra_agents =
    R"([{"name":"ok","address":"0x286edfa08c04f6899dab3bfdecf2dd133f9733b9","validUntil":1767776120478}])";
constexpr char const* cassette_user_rate_limit =
    R"({"cumVlm":"170043721737.450012207","nRequestsUsed":36589831368,"nRequestsCap":170043731737})";
constexpr char const* ccxt_spot_balances =
    R"({"balances":[{"coin":"USDC","token":"0","total":"50.0","hold":"10.0","entryNtl":"0.0"}]})";
constexpr char const* ccxt_order_status =
    R"({"status":"order","order":{"order":{"coin":"HYPE","side":"B","limitPx":"13.5","sz":"2.0","oid":80972193016,"timestamp":1742488072039,"triggerCondition":"N/A","isTrigger":false,"triggerPx":"0.0","children":[],"isPositionTpsl":false,"reduceOnly":false,"orderType":"Limit","origSz":"2.0","tif":"Alo","cloid":null},"status":"open","statusTimestamp":1742488072039}})";

char const* kind_name(json::value const& v) {
    switch (v.kind()) {
    case json::kind::null:
        return "null";
    case json::kind::bool_:
        return "bool";
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_:
        return "number";
    case json::kind::string:
        return "string";
    case json::kind::array:
        return "array";
    case json::kind::object:
        return "object";
    }
    return "?";
}

/// Every key both objects have holds the same JSON kind (a null on either side matches
/// anything: nullable fields); nested objects and first array elements recursively.
void check_types(json::value const& ours, json::value const& recorded, std::string const& path) {
    if (ours.is_null() || recorded.is_null())
        return;
    CAPTURE(path);
    CHECK(std::string(kind_name(ours)) == kind_name(recorded));
    if (ours.is_object() && recorded.is_object()) {
        for (auto const& kv : recorded.as_object())
            if (auto const* o = ours.as_object().if_contains(kv.key()))
                check_types(*o, kv.value(), path + "." + std::string(kv.key()));
    } else if (ours.is_array() && recorded.is_array() && !ours.as_array().empty() &&
               !recorded.as_array().empty()) {
        check_types(ours.as_array()[0], recorded.as_array()[0], path + "[0]");
    }
}

/// Same key sets, recursively through objects and first array elements (names only).
void check_keys(json::value const& ours, json::value const& recorded, std::string const& path) {
    CAPTURE(path);
    if (ours.is_object() && recorded.is_object()) {
        CHECK(keys(ours) == keys(recorded));
        for (auto const& kv : recorded.as_object())
            if (auto const* o = ours.as_object().if_contains(kv.key()))
                check_keys(*o, kv.value(), path + "." + std::string(kv.key()));
    } else if (ours.is_array() && recorded.is_array() && !ours.as_array().empty() &&
               !recorded.as_array().empty()) {
        check_keys(ours.as_array()[0], recorded.as_array()[0], path + "[0]");
    }
}

json::value control_json(mock_server const& m, http::verb verb, std::string const& path,
                         std::string body = {}) {
    auto const r = control(m, verb, path, body);
    INFO(path << " " << body << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

void set_mark(mock_server const& m, std::string const& symbol, std::string const& price) {
    control_json(m, http::verb::post, "/__mock/mark",
                 R"({"symbol":")" + symbol + R"(","price":")" + price + R"("})");
}

/// The seeded trader: 100000 USDC (perps and spot, CONTRACT §10), 500 PURR and 250 more spot
/// USDC; BTC long 0.5 @ 60000
/// (10x cross), xyz:TSLA short 10 @ 440 (5x isolated); four resting orders; one named agent.
/// Marks pinned at BTC 65000, xyz:TSLA 430.
json::value seed_trader(mock_server const& m) {
    set_mark(m, "BTC", "65000");
    set_mark(m, "xyz:TSLA", "430");
    return control_json(m, http::verb::post,
                        "/__mock/accounts", std::string(R"({"address":")") + trader + R"(",
        "balances":{"USDC":"100000","PURR":"500"},
        "spotBalances":{"USDC":"250"},
        "positions":[
          {"symbol":"BTC","size":"0.5","entryPrice":"60000","leverage":10,"marginMode":"cross"},
          {"symbol":"xyz:TSLA","size":"-10","entryPrice":"440","leverage":5,"marginMode":"isolated"}],
        "orders":[
          {"symbol":"ETH","side":"buy","type":"limit","price":"3000","size":"1",
           "clientOrderId":"0x000000000000000000000000000000AB"},
          {"symbol":"BTC","side":"sell","type":"stop_limit","price":"54000","triggerPrice":"55000",
           "size":"0.1","reduceOnly":true},
          {"symbol":"xyz:NVDA","side":"sell","price":"200","size":"2"},
          {"symbol":"PURR/USDC","side":"sell","price":"0.25","size":"100"}],
        "agents":[{"address":")" + agent + R"(","name":"bot","validUntil":1900000000000}]})");
}

std::string user_body(std::string const& type, std::string const& user,
                      std::string const& extra = {}) {
    return R"({"type":")" + type + R"(","user":")" + user + "\"" + extra + "}";
}

json::object const& position_of(json::value const& state, std::string const& coin) {
    for (auto const& p : state.at("assetPositions").as_array())
        if (p.at("position").at("coin") == coin.c_str())
            return p.at("position").as_object();
    FAIL("no position for " << coin);
    throw std::logic_error("unreachable");
}

std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace

TEST_CASE("alpha mock: clearinghouseState of a seeded account, per dex, in the recorded shape",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    seed_trader(*m);
    auto const main = info_json(*m, user_body("clearinghouseState", trader));
    check_types(main, json::parse(cassette_clearinghouse), "clearinghouseState");
    check_keys(main, json::parse(ccxt_clearinghouse_cross), "clearinghouseState");
    CHECK(main.at("time").is_int64());
    REQUIRE(main.at("assetPositions").as_array().size() == 1); // the builder dex is separate
    auto const& btc = position_of(main, "BTC");
    CHECK(main.at("assetPositions").at(0).at("type") == "oneWay");
    CHECK(btc.at("szi") == "0.5");
    CHECK(btc.at("entryPx") == "60000.0");
    CHECK(btc.at("positionValue") == "32500.0");
    CHECK(btc.at("unrealizedPnl") == "2500.0");
    CHECK(btc.at("returnOnEquity") == "0.8333333333"); // 2500 * 10 / 30000
    CHECK(btc.at("marginUsed") == "3250.0");
    CHECK(btc.at("liquidationPx").is_null()); // 100000 USDC behind a 32500 notional
    CHECK(btc.at("maxLeverage") == 40);
    CHECK(btc.at("leverage") == json::parse(R"({"type":"cross","value":10})"));
    CHECK(btc.at("cumFunding") ==
          json::parse(R"({"allTime":"0.0","sinceOpen":"0.0","sinceChange":"0.0"})"));
    // Collateral: 100000 - fees (13.5 BTC, 1.98 TSLA) - 880 isolated margin moved to xyz.
    auto const& cross = main.at("crossMarginSummary");
    CHECK(cross.at("accountValue") == "101604.52"); // 99104.52 + 2500
    CHECK(cross.at("totalNtlPos") == "32500.0");
    CHECK(cross.at("totalRawUsd") == "69104.52"); // 99104.52 - 0.5 * 60000
    CHECK(cross.at("totalMarginUsed") == "3250.0");
    CHECK(main.at("marginSummary") == cross);
    CHECK(main.at("crossMaintenanceMarginUsed") == "406.25"); // 32500 / 80
    CHECK(main.at("withdrawable") == "98354.52");

    auto const xyz = info_json(*m, user_body("clearinghouseState", trader, R"(,"dex":"xyz")"));
    check_keys(xyz, json::parse(ccxt_clearinghouse_isolated), "clearinghouseState xyz");
    auto const& tsla = position_of(xyz, "xyz:TSLA");
    CHECK(tsla.at("szi") == "-10.0");
    CHECK(tsla.at("unrealizedPnl") == "100.0");
    CHECK(tsla.at("leverage") == json::parse(R"({"type":"isolated","value":5,"rawUsd":"5280.0"})"));
    CHECK(tsla.at("marginUsed") == "980.0");
    CHECK(tsla.at("liquidationPx") == "502.8571428571"); // 430 + 765 * 20 / 210
    CHECK(xyz.at("marginSummary").at("accountValue") == "980.0");
    CHECK(xyz.at("crossMarginSummary").at("accountValue") == "0.0");

    SECTION("the address is matched in any case") {
        std::string upper = trader;
        upper[2] = 'A';
        auto const other = info_json(*m, user_body("clearinghouseState", upper));
        CHECK(other.at("assetPositions").as_array().empty());
        CHECK(info_json(
                  *m, user_body("clearinghouseState", "0x1111111111111111111111111111111111111111"))
                  .at("assetPositions")
                  .as_array()
                  .size() == 1);
    }
    SECTION("an unknown dex is a 422") {
        CHECK(info(*m, user_body("clearinghouseState", trader, R"(,"dex":"nope")")).status == 422);
    }
}

TEST_CASE("alpha mock: /__mock/mark moves unrealizedPnl while the liquidation price holds",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    set_mark(*m, "BTC", "60000");
    control_json(*m, http::verb::post, "/__mock/accounts",
                 std::string(R"({"address":")") + trader + R"(","balances":{"USDC":"5000"},
                 "positions":[{"symbol":"BTC","size":"1","entryPrice":"60000","leverage":20}]})");
    auto btc = [&] {
        return position_of(info_json(*m, user_body("clearinghouseState", trader)), "BTC");
    };
    // Fee 27: account 4973; maintenance 60000 / 80 = 750; liq = 60000 - 4223 * 80 / 79.
    auto p = btc();
    CHECK(p.at("unrealizedPnl") == "0.0");
    CHECK(p.at("liquidationPx") == "55723.5443037975");
    CHECK(p.at("leverage") == json::parse(R"({"type":"cross","value":20})")); // as seeded
    set_mark(*m, "BTC", "58000");
    p = btc();
    CHECK(p.at("unrealizedPnl") == "-2000.0");
    CHECK(p.at("positionValue") == "58000.0");
    CHECK(p.at("marginUsed") == "2900.0");
    CHECK(p.at("returnOnEquity") == "-0.6666666667");
    // account 2973, maintenance 725: liq = 58000 - 2248 * 80 / 79, the same price.
    CHECK(p.at("liquidationPx") == "55723.5443037975");
    set_mark(*m, "BTC", "70000");
    CHECK(btc().at("unrealizedPnl") == "10000.0");
}

TEST_CASE("alpha mock: an unknown user reads as zeroed summaries and empty arrays",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const s = info_json(*m, user_body("clearinghouseState", nobody));
    CHECK(s.at("assetPositions").as_array().empty());
    for (auto const* k : {"marginSummary", "crossMarginSummary"})
        CHECK(s.at(k) == json::parse(R"({"accountValue":"0.0","totalNtlPos":"0.0",
                                         "totalRawUsd":"0.0","totalMarginUsed":"0.0"})"));
    CHECK(s.at("crossMaintenanceMarginUsed") == "0.0");
    CHECK(s.at("withdrawable") == "0.0");
    CHECK(info_json(*m, user_body("spotClearinghouseState", nobody)) ==
          json::parse(R"({"balances":[]})"));
    for (auto const* type :
         {"openOrders", "frontendOpenOrders", "userFills", "historicalOrders", "extraAgents"}) {
        CAPTURE(type);
        CHECK(info_json(*m, user_body(type, nobody)).as_array().empty());
    }
    CHECK(info_json(*m, user_body("userFillsByTime", nobody, R"(,"startTime":0)"))
              .as_array()
              .empty());
    CHECK(info_json(*m, user_body("userRole", nobody)) == json::parse(R"({"role":"missing"})"));
    CHECK(info_json(*m, user_body("orderStatus", nobody, R"(,"oid":1)")) ==
          json::parse(R"({"status":"unknownOid"})"));
    auto const rl = info_json(*m, user_body("userRateLimit", nobody));
    CHECK(rl == json::parse(R"({"cumVlm":"0.0","nRequestsUsed":0,"nRequestsCap":10000,
                                "nRequestsSurplus":0})"));
}

TEST_CASE("alpha mock: a user that is not 0x + 40 hex is a 422 for every account type",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    for (auto const* type : {"clearinghouseState", "spotClearinghouseState", "openOrders",
                             "frontendOpenOrders", "userFills", "userFillsByTime", "orderStatus",
                             "historicalOrders", "extraAgents", "userRole", "userRateLimit"}) {
        for (auto const* user : {"0x123", "1111111111111111111111111111111111111111",
                                 "0xg111111111111111111111111111111111111111"}) {
            CAPTURE(type, user);
            auto const r = info(*m, user_body(type, user, R"(,"startTime":0,"oid":1)"));
            CHECK(r.status == 422);
            CHECK(r.message[http::field::content_type].starts_with("text/plain"));
            CHECK(r.body.rfind("Failed to deserialize the JSON body into the target type", 0) == 0);
        }
        CAPTURE(type);
        CHECK(info(*m, R"({"type":")" + std::string(type) + R"("})").status == 422); // no user
    }
    CHECK(info(*m, user_body("userFillsByTime", trader)).status == 422); // no startTime
    CHECK(info(*m, user_body("userFillsByTime", trader, R"(,"startTime":"1")")).status == 422);
    CHECK(info(*m, user_body("orderStatus", trader)).status == 422); // no oid
    CHECK(info(*m, user_body("orderStatus", trader, R"(,"oid":"0x12")")).status == 422);
}

TEST_CASE("alpha mock: spot balances, open orders per dex, and frontendOpenOrders",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    seed_trader(*m);

    auto const spot = info_json(*m, user_body("spotClearinghouseState", trader));
    check_keys(spot, json::parse(ccxt_spot_balances), "spotClearinghouseState");
    CHECK(spot == json::parse(R"({"balances":[
        {"coin":"USDC","token":0,"hold":"0.0","total":"100250.0","entryNtl":"0.0"},
        {"coin":"PURR","token":1,"hold":"100.0","total":"500.0","entryNtl":"0.0"}]})"));

    auto const open = info_json(*m, user_body("openOrders", trader));
    auto const& oo = open.as_array();
    REQUIRE(oo.size() == 3); // ETH, BTC and the spot order; not the builder dex's
    for (auto const& o : oo) {
        check_types(o, json::parse(cassette_open_order), "openOrders[]");
        for (auto const& k : keys(json::parse(cassette_open_order)))
            CHECK(keys(o).count(k) == 1);
    }
    // Newest first (oids increase).
    CHECK(oo[0].at("coin") == "PURR/USDC");
    CHECK(oo[1].at("coin") == "BTC");
    CHECK(oo[2].at("coin") == "ETH");
    CHECK(oo[0].at("oid").as_int64() > oo[1].at("oid").as_int64());
    CHECK(oo[2] == json::object{{"coin", "ETH"},
                                {"side", "B"},
                                {"limitPx", "3000.0"},
                                {"sz", "1.0"},
                                {"oid", oo[2].at("oid")},
                                {"timestamp", oo[2].at("timestamp")},
                                {"origSz", "1.0"},
                                {"cloid", "0x000000000000000000000000000000ab"}});
    CHECK(oo[1].at("reduceOnly") == true);
    auto const xyz_open = info_json(*m, user_body("openOrders", trader, R"(,"dex":"xyz")"));
    REQUIRE(xyz_open.as_array().size() == 1);
    CHECK(xyz_open.at(0).at("coin") == "xyz:NVDA");

    auto const front = info_json(*m, user_body("frontendOpenOrders", trader));
    REQUIRE(front.as_array().size() == 3);
    json::value const recorded = json::parse(cassette_frontend_order);
    for (auto const& o : front.as_array()) {
        auto expected = keys(recorded);
        expected.insert("cloid"); // newer responses (alpha.md §3.6)
        CHECK(keys(o) == expected);
        check_types(o, recorded, "frontendOpenOrders[]");
    }
    auto const& stop = front.at(1);
    CHECK(stop.at("orderType") == "Stop Limit");
    CHECK(stop.at("isTrigger") == true);
    CHECK(stop.at("triggerPx") == "55000.0");
    CHECK(stop.at("triggerCondition") == "Price below 55000");
    CHECK(stop.at("limitPx") == "54000.0");
    CHECK(stop.at("tif").is_null());
    CHECK(stop.at("reduceOnly") == true);
    CHECK(stop.at("cloid").is_null());
    auto const& limit = front.at(2);
    CHECK(limit.at("orderType") == "Limit");
    CHECK(limit.at("tif") == "Gtc");
    CHECK(limit.at("triggerCondition") == "N/A");
    CHECK(limit.at("triggerPx") == "0.0");
    CHECK(limit.at("isTrigger") == false);
    CHECK(limit.at("children").as_array().empty());
    CHECK(limit.at("cloid") == "0x000000000000000000000000000000ab");
}

TEST_CASE("alpha mock: userFills and userFillsByTime from seeded positions",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    std::int64_t const before = now_ms();
    seed_trader(*m);
    auto const fills = info_json(*m, user_body("userFills", trader, R"(,"aggregateByTime":false)"));
    auto const& f = fills.as_array();
    REQUIRE(f.size() == 2);
    for (auto const& x : f) {
        check_types(x, json::parse(cassette_fill), "userFills[]");
        check_keys(x, json::parse(ccxt_fill), "userFills[]");
        CHECK(x.at("tid").is_int64());
        CHECK(x.at("hash").as_string().size() == 66);
        CHECK(x.at("closedPnl") == "0.0");
        CHECK(x.at("crossed") == true);
        CHECK(x.at("feeToken") == "USDC");
    }
    // Newest first: the TSLA open was booked after the BTC one.
    CHECK(f[0].at("coin") == "xyz:TSLA");
    CHECK(f[0].at("dir") == "Open Short");
    CHECK(f[0].at("side") == "A");
    CHECK(f[0].at("fee") == "1.98");
    CHECK(f[1].at("coin") == "BTC");
    CHECK(f[1].at("dir") == "Open Long");
    CHECK(f[1].at("px") == "60000.0");
    CHECK(f[1].at("sz") == "0.5");
    CHECK(f[1].at("startPosition") == "0.0");
    CHECK(f[1].at("fee") == "13.5");
    CHECK(f[1].at("tid").as_int64() < f[0].at("tid").as_int64());

    std::int64_t const t = f[0].at("time").as_int64();
    CHECK(t >= before);
    auto const by_time = info_json(
        *m, user_body("userFillsByTime", trader,
                      ",\"startTime\":" + std::to_string(t) + ",\"endTime\":" + std::to_string(t)));
    REQUIRE(by_time.as_array().size() == 2); // inclusive on both ends
    CHECK(by_time.at(0) == f[1]);            // oldest first
    CHECK(info_json(*m,
                    user_body("userFillsByTime", trader, ",\"startTime\":" + std::to_string(t + 1)))
              .as_array()
              .empty());
    CHECK(info_json(*m, user_body("userFillsByTime", trader,
                                  ",\"startTime\":0,\"endTime\":" + std::to_string(t - 1)))
              .as_array()
              .empty());
}

TEST_CASE("alpha mock: orderStatus by oid and cloid, historicalOrders, agents, role, rate limit",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    seed_trader(*m);
    auto const orders = info_json(*m, user_body("frontendOpenOrders", trader));
    auto const eth_oid = orders.at(2).at("oid").as_int64();

    auto const by_oid =
        info_json(*m, user_body("orderStatus", trader, ",\"oid\":" + std::to_string(eth_oid)));
    check_keys(by_oid, json::parse(ccxt_order_status), "orderStatus");
    check_types(by_oid, json::parse(ccxt_order_status), "orderStatus");
    CHECK(by_oid.at("status") == "order");
    CHECK(by_oid.at("order").at("status") == "open");
    CHECK(by_oid.at("order").at("order") == orders.at(2));
    auto const by_cloid = info_json(
        *m, user_body("orderStatus", trader, R"(,"oid":"0x000000000000000000000000000000AB")"));
    CHECK(by_cloid == by_oid);
    CHECK(info_json(*m, user_body("orderStatus", trader, R"(,"oid":12345)")) ==
          json::parse(R"({"status":"unknownOid"})"));

    // The orders that opened the seeded positions are in the history as filled.
    auto const fills = info_json(*m, user_body("userFills", trader));
    auto const filled =
        info_json(*m, user_body("orderStatus", trader,
                                ",\"oid\":" + std::to_string(fills.at(1).at("oid").as_int64())));
    CHECK(filled.at("order").at("status") == "filled");
    CHECK(filled.at("order").at("order").at("coin") == "BTC");
    CHECK(filled.at("order").at("order").at("tif") == "Ioc");
    auto const hist = info_json(*m, user_body("historicalOrders", trader));
    CHECK(hist.as_array().size() == 6); // 2 filled + 4 open
    for (auto const& h : hist.as_array())
        check_keys(h, json::parse(ccxt_order_status).at("order"), "historicalOrders[]");

    auto const agents = info_json(*m, user_body("extraAgents", trader));
    check_types(agents, json::parse(cassette_extra_agents), "extraAgents");
    check_keys(agents, json::parse(cassette_extra_agents), "extraAgents");
    CHECK(agents == json::parse(std::string(R"([{"name":"bot","address":")") + agent +
                                R"(","validUntil":1900000000000}])"));
    CHECK(info_json(*m, user_body("userRole", trader)) == json::parse(R"({"role":"user"})"));
    CHECK(info_json(*m, user_body("userRole", agent)) ==
          json::parse(std::string(R"({"role":"agent","data":{"user":")") + trader + R"("}})"));

    auto const rl = info_json(*m, user_body("userRateLimit", trader));
    check_types(rl, json::parse(cassette_user_rate_limit), "userRateLimit");
    CHECK(rl.at("cumVlm") == "34400.0"); // 30000 + 4400 traded
    CHECK(rl.at("nRequestsCap") == 44400);
    CHECK(rl.at("nRequestsUsed") == 0);
}

TEST_CASE("alpha mock: userAbstraction and maxBuilderFee, the reads ccxt makes at start",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    seed_trader(*m);
    // A bare JSON string (alpha.md has no section; upstream answers e.g. "default" or
    // "unifiedAccount"): the mock keeps perps and spot apart and has no userSetAbstraction.
    for (auto const* user : {trader, nobody}) {
        CAPTURE(user);
        auto const r = info(*m, user_body("userAbstraction", user));
        REQUIRE(r.status == 200);
        CHECK(r.message[http::field::content_type] == "application/json");
        CHECK(r.body == R"("default")");
    }
    // A JSON number, tenths of a basis point: 0 before any approveBuilderFee.
    auto const fee =
        info(*m, user_body("maxBuilderFee", trader,
                           R"(,"builder":"0x6530512A6c89C7cfCEbC3BA7fcD9aDa5f30827a6")"));
    REQUIRE(fee.status == 200);
    CHECK(fee.body == "0");
    CHECK(info(*m, user_body("maxBuilderFee", trader)).status == 422);
    CHECK(info(*m, user_body("maxBuilderFee", trader, R"(,"builder":"0x12")")).status == 422);
    CHECK(info(*m, R"({"type":"userAbstraction"})").status == 422);
}

TEST_CASE("alpha mock: perpDexStatus and perpDexLimits", "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const status = info_json(*m, R"({"type":"perpDexStatus","dex":"xyz"})");
    CHECK(keys(status) == std::set<std::string>{"totalNetDeposit"});
    CHECK(is_hl_decimal(status.at("totalNetDeposit")));
    CHECK(keys(info_json(*m, R"({"type":"perpDexStatus","dex":""})")) ==
          std::set<std::string>{"totalNetDeposit"});
    CHECK(info(*m, R"({"type":"perpDexStatus","dex":"nope"})").body == "null");
    // Seeding xyz positions pulls collateral into the builder dex: its deposits grow.
    auto const before = dec(status.at("totalNetDeposit"));
    seed_trader(*m);
    auto const after =
        dec(info_json(*m, R"({"type":"perpDexStatus","dex":"xyz"})").at("totalNetDeposit"));
    CHECK(after > before);

    auto const limits = info_json(*m, R"({"type":"perpDexLimits","dex":"xyz"})");
    CHECK(keys(limits) ==
          std::set<std::string>{"totalOiCap", "oiSzCapPerPerp", "maxTransferNtl", "coinToOiCap"});
    CHECK(limits.at("coinToOiCap").at(0).at(0) == "xyz:TSLA");
    CHECK(is_hl_decimal(limits.at("coinToOiCap").at(0).at(1)));
    CHECK(info(*m, R"({"type":"perpDexLimits","dex":""})").status == 422);
    CHECK(info(*m, R"({"type":"perpDexLimits","dex":"nope"})").body == "null");
}

TEST_CASE("alpha mock: candleSnapshot serves a backfilled, ascending history for every interval",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    std::int64_t const now = now_ms();
    std::int64_t const hour = 3'600'000;
    auto candles = [&](std::string const& coin, std::string const& interval, std::int64_t start,
                       std::optional<std::int64_t> end = std::nullopt) {
        std::string req = R"({"coin":")" + coin + R"(","interval":")" + interval +
                          R"(","startTime":)" + std::to_string(start);
        if (end)
            req += R"(,"endTime":)" + std::to_string(*end);
        return info_json(*m, R"({"type":"candleSnapshot","req":)" + req + "}}");
    };

    // The last 500 hours are there at once.
    auto const h = candles("BTC", "1h", now - 500 * hour, now);
    auto const& hs = h.as_array();
    REQUIRE(hs.size() >= 500);
    CHECK(hs.size() <= 501);
    json::value const recorded = json::parse(cassette_candle);
    for (std::size_t i = 0; i < hs.size(); ++i) {
        auto const& c = hs[i];
        CAPTURE(i);
        CHECK(keys(c) == keys(recorded));
        check_types(c, recorded, "candle");
        CHECK(c.at("s") == "BTC");
        CHECK(c.at("i") == "1h");
        CHECK(c.at("t").as_int64() % hour == 0);
        CHECK(c.at("T").as_int64() == c.at("t").as_int64() + hour - 1);
        CHECK(c.at("T").as_int64() >= now - 500 * hour);
        CHECK(c.at("t").as_int64() <= now);
        for (auto const* k : {"o", "c", "h", "l", "v"})
            CHECK(is_hl_decimal(c.at(k)));
        CHECK(dec(c.at("l")) <= dec(c.at("o")));
        CHECK(dec(c.at("l")) <= dec(c.at("c")));
        CHECK(dec(c.at("h")) >= dec(c.at("o")));
        CHECK(dec(c.at("h")) >= dec(c.at("c")));
        CHECK(c.at("n").as_int64() > 0);
        if (i > 0)
            CHECK(c.at("t").as_int64() > hs[i - 1].at("t").as_int64());
    }

    SECTION("all 14 intervals, epoch-aligned, months by the calendar") {
        // ms 0: a calendar month.
        auto [name, ms] = GENERATE(table<char const*, std::int64_t>({{"1m", 60'000},
                                                                     {"3m", 180'000},
                                                                     {"5m", 300'000},
                                                                     {"15m", 900'000},
                                                                     {"30m", 1'800'000},
                                                                     {"1h", 3'600'000},
                                                                     {"2h", 7'200'000},
                                                                     {"4h", 14'400'000},
                                                                     {"8h", 28'800'000},
                                                                     {"12h", 43'200'000},
                                                                     {"1d", 86'400'000},
                                                                     {"3d", 259'200'000},
                                                                     {"1w", 604'800'000},
                                                                     {"1M", 0}}));
        CAPTURE(name);
        auto const all = candles("ETH", name, 0);
        auto const& cs = all.as_array();
        REQUIRE(cs.size() > 5);
        CHECK(cs.size() <= 5000);
        for (std::size_t i = 0; i < cs.size(); ++i) {
            std::int64_t const t = cs[i].at("t").as_int64();
            std::int64_t const T = cs[i].at("T").as_int64();
            CHECK(cs[i].at("i") == name);
            if (ms != 0) {
                CHECK(t % ms == 0);
                CHECK(T == t + ms - 1);
            } else {
                CHECK(t % 86'400'000 == 0);
                CHECK((T + 1 - t) / 86'400'000 >= 28);
                CHECK((T + 1 - t) / 86'400'000 <= 31);
                if (i > 0)
                    CHECK(cs[i - 1].at("T").as_int64() + 1 == t); // contiguous months
            }
            if (i > 0)
                CHECK(t > cs[i - 1].at("t").as_int64());
        }
    }
    SECTION("the range is inclusive of the candle holding startTime") {
        std::int64_t const t0 = hs[10].at("t").as_int64();
        auto const r = candles("BTC", "1h", t0 + 1, t0 + hour);
        REQUIRE(r.as_array().size() == 2);
        CHECK(r.at(0) == hs[10]);
        CHECK(r.at(1) == hs[11]);
    }
    SECTION("new trades extend the newest candles") {
        auto total = [&] {
            std::int64_t n = 0;
            auto const recent = candles("SOL", "1m", now - 10 * 60'000);
            for (auto const& c : recent.as_array())
                n += c.at("n").as_int64();
            return n;
        };
        auto hashes = [&] {
            std::set<std::string> out;
            auto const trades = info_json(*m, R"({"type":"recentTrades","coin":"SOL"})");
            for (auto const& t : trades.as_array())
                out.insert(std::string(t.at("hash").as_string()));
            return out;
        };
        std::int64_t const n0 = total();
        auto const seen = hashes();
        control_json(*m, http::verb::post, "/__mock/tick", R"({"steps":60})");
        std::int64_t printed = 0;
        for (auto const& h : hashes())
            printed += seen.contains(h) ? 0 : 1;
        REQUIRE(printed > 0);
        CHECK(total() >= n0 + printed);
    }
    SECTION("spot and builder-dex coins have candles; an unknown coin has none") {
        CHECK(!candles("PURR/USDC", "15m", now - 24 * hour).as_array().empty());
        CHECK(!candles("xyz:TSLA", "1d", 0).as_array().empty());
        CHECK(candles("NOPE", "1h", 0).as_array().empty());
        CHECK(candles("HFUN/USDC", "1h", 0).as_array().empty()); // a mock-only alias
    }
    SECTION("bad requests are 422") {
        for (
            auto const* body :
            {R"({"type":"candleSnapshot"})",
             R"({"type":"candleSnapshot","req":{"coin":"BTC","interval":"2m","startTime":0}})",
             R"({"type":"candleSnapshot","req":{"coin":"BTC","interval":"1h"}})",
             R"({"type":"candleSnapshot","req":{"interval":"1h","startTime":0}})",
             R"({"type":"candleSnapshot","req":{"coin":"BTC","interval":"1h","startTime":1.5}})"}) {
            CAPTURE(body);
            CHECK(info(*m, body).status == 422);
        }
    }
}

TEST_CASE("alpha mock: recentTrades answers the newest 200 trades", "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const t = info_json(*m, R"({"type":"recentTrades","coin":"BTC"})");
    CHECK(t.as_array().size() == 200);
    control_json(*m, http::verb::post, "/__mock/tick", R"({"steps":300})");
    CHECK(info_json(*m, R"({"type":"recentTrades","coin":"BTC"})").as_array().size() == 200);
}

TEST_CASE("alpha mock: weights per alpha.md §8, per-item extras included, then 429",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    SECTION("userRole weighs 60: 20 fit in 1200") {
        for (int i = 0; i < 20; ++i)
            REQUIRE(info(*m, user_body("userRole", nobody)).status == 200);
        CHECK(info(*m, user_body("userRole", nobody)).status == 429);
    }
    SECTION("recentTrades of 200 items weighs 20 + 10: 40 fit") {
        for (int i = 0; i < 40; ++i) {
            auto const r = info(*m, R"({"type":"recentTrades","coin":"ETH"})");
            REQUIRE(r.status == 200);
            REQUIRE(json::parse(r.body).as_array().size() == 200);
        }
        CHECK(info(*m, R"({"type":"recentTrades","coin":"ETH"})").status == 429);
        CHECK(info(*m, R"({"type":"allMids"})").status == 429);
    }
    SECTION("candleSnapshot of 5000 candles weighs 20 + 83: the 12th still gets in, then 429") {
        std::string const body =
            R"({"type":"candleSnapshot","req":{"coin":"BTC","interval":"1m","startTime":0}})";
        for (int i = 0; i < 12; ++i) {
            auto const r = info(*m, body);
            REQUIRE(r.status == 200);
            REQUIRE(json::parse(r.body).as_array().size() == 5000);
        }
        CHECK(info(*m, body).status == 429);
        CHECK(info(*m, R"({"type":"exchangeStatus"})").status == 429);
    }
    SECTION("account reads weigh 2 or 20 like the market reads") {
        // 2 x clearinghouseState (4) + 59 x openOrders (1180) = 1184; one more 20 does not fit
        // but a 2 does (1186), up to 1200.
        seed_trader(*m);
        for (int i = 0; i < 2; ++i)
            REQUIRE(info(*m, user_body("clearinghouseState", trader)).status == 200);
        for (int i = 0; i < 59; ++i)
            REQUIRE(info(*m, user_body("openOrders", trader)).status == 200);
        CHECK(info(*m, user_body("frontendOpenOrders", trader)).status == 429);
        for (int i = 0; i < 8; ++i)
            REQUIRE(info(*m, user_body("spotClearinghouseState", trader)).status == 200);
        CHECK(info(*m, user_body("orderStatus", trader, R"(,"oid":1)")).status == 429);
    }
}

TEST_CASE("alpha mock control: /__mock/accounts credits, shows and validates accounts",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const seeded = seed_trader(*m);
    CHECK(keys(seeded) == std::set<std::string>{"address", "role", "perps", "spot", "openOrders",
                                                "fills", "agents"});
    CHECK(seeded.at("address") == trader);
    CHECK(keys(seeded.at("perps")) == std::set<std::string>{"", "xyz"});
    CHECK(seeded.at("perps").at("") == [&] {
        auto s = info_json(*m, user_body("clearinghouseState", trader)).as_object();
        s["time"] = seeded.at("perps").at("").at("time");
        return json::value(s);
    }());
    CHECK(seeded.at("openOrders").as_array().size() == 4);
    CHECK(seeded.at("fills").as_array().size() == 2);

    SECTION("GET shows the account, any case; unknown is 404, malformed 400") {
        std::string upper = "0x1111111111111111111111111111111111111111";
        auto const shown = control_json(*m, http::verb::get, "/__mock/accounts/" + upper);
        CHECK(shown.at("spot") == seeded.at("spot"));
        auto const unknown =
            control(*m, http::verb::get, std::string("/__mock/accounts/") + nobody);
        CHECK(unknown.status == 404);
        CHECK(unknown.message[http::field::content_type] == "application/json");
        CHECK(!json::parse(unknown.body).at("error").as_string().empty());
        CHECK(control(*m, http::verb::get, "/__mock/accounts/0x12").status == 400);
        CHECK(control(*m, http::verb::delete_, std::string("/__mock/accounts/") + trader).status ==
              405);
        CHECK(control(*m, http::verb::get, "/__mock/accounts").status == 405);
    }
    SECTION("credits add up") {
        auto const again = control_json(*m, http::verb::post, "/__mock/accounts",
                                        std::string(R"({"address":")") + trader +
                                            R"(","balances":{"USDC":"1000","HFUN":"2.5"}})");
        CHECK(again.at("perps").at("").at("crossMarginSummary").at("accountValue") == "102604.52");
        CHECK(again.at("spot").at("balances").at(2) ==
              json::parse(R"({"coin":"HFUN","token":2,"hold":"0.0","total":"2.5",
                              "entryNtl":"0.0"})"));
    }
    SECTION("an address alone creates an empty account") {
        auto const empty = control_json(*m, http::verb::post, "/__mock/accounts",
                                        std::string(R"({"address":")") + nobody + R"("})");
        CHECK(empty.at("role") == json::parse(R"({"role":"user"})"));
        CHECK(control(*m, http::verb::get, std::string("/__mock/accounts/") + nobody).status ==
              200);
    }
    SECTION("bad bodies are 400 with a sentence, and change nothing") {
        std::string const a = std::string(R"({"address":")") + nobody + "\"";
        for (
            std::string const& body : {
                std::string("not json"),
                std::string("[]"),
                std::string(R"({"balances":{"USDC":"1"}})"),
                std::string(R"({"address":"0x12"})"),
                a + R"(,"balances":{"DOGE":"1"}})",
                a + R"(,"balances":{"USDC":"-1"}})",
                a + R"(,"balances":{"USDC":"1e3"}})",
                a + R"(,"balances":{"USDC":"10000000000000"}})",
                a + R"(,"nope":1})",
                a + R"(,"positions":[{"symbol":"PURR/USDC","size":"1","entryPrice":"1"}]})",
                a + R"(,"positions":[{"symbol":"DOGE","size":"1","entryPrice":"1"}]})",
                a + R"(,"positions":[{"symbol":"BTC","size":"0","entryPrice":"1"}]})",
                a + R"(,"positions":[{"symbol":"BTC","size":"0.000001","entryPrice":"1"}]})",
                a + R"(,"positions":[{"symbol":"BTC","size":"1","entryPrice":"-1"}]})",
                a + R"(,"positions":[{"symbol":"BTC","size":"1","entryPrice":"1","leverage":41}]})",
                a + R"(,"positions":[{"symbol":"BTC","size":"1","entryPrice":"1","marginMode":"x"}]})",
                a + R"(,"positions":[{"symbol":"xyz:TSLA","size":"1","entryPrice":"1","marginMode":"cross"}]})",
                a + R"(,"positions":[{"symbol":"BTC","size":"1","entryPrice":"1"},{"symbol":"BTC","size":"1","entryPrice":"1"}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"buy","size":"1"}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"hold","price":"1","size":"1"}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"buy","price":"1","size":"1","triggerPrice":"2"}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"buy","size":"1","type":"stop_market"}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"buy","price":"1","size":"1","type":"twap"}]})",
                a + R"(,"orders":[{"symbol":"PURR/USDC","side":"buy","price":"1","size":"1","reduceOnly":true}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"buy","price":"1","size":"1","clientOrderId":"0x12"}]})",
                a + R"(,"orders":[{"symbol":"BTC","side":"buy","price":"1","size":"1","clientOrderId":"0x000000000000000000000000000000ab"},{"symbol":"BTC","side":"buy","price":"1","size":"1","clientOrderId":"0x000000000000000000000000000000AB"}]})",
                a + R"(,"agents":[{"address":"0x1"}]})",
                a + R"(,"balances":{"USDC":"5"},"orders":[{"symbol":"BTC"}]})",
            }) {
            CAPTURE(body);
            auto const r = control(*m, http::verb::post, "/__mock/accounts", body);
            CHECK(r.status == 400);
            CHECK(r.message[http::field::content_type] == "application/json");
            if (r.status == 400)
                CHECK(!json::parse(r.body).at("error").as_string().empty());
        }
        CHECK(control(*m, http::verb::get, std::string("/__mock/accounts/") + nobody).status ==
              404);
        // A clientOrderId already resting on the account is refused too.
        auto const dup = control(*m, http::verb::post, "/__mock/accounts",
                                 std::string(R"({"address":")") + trader +
                                     R"(","orders":[{"symbol":"SOL","side":"buy","price":"100",
                                     "size":"1","clientOrderId":"0x000000000000000000000000000000ab"}]})");
        CHECK(dup.status == 400);
    }
}

TEST_CASE("mock control: gamma has an accounts endpoint too", "[contract][mock][gamma]") {
    // beta has one since issue 12, gamma since issue 15 (tests/contract/test_mock_beta.cpp,
    // test_mock_gamma_trading.cpp); an address alone makes an empty account.
    auto m = mock_server::start({upstream::gamma});
    auto const r = control(*m, http::verb::post, "/__mock/accounts",
                           std::string(R"({"address":")") + trader + R"("})");
    CHECK(r.status == 200);
    CHECK(json::parse(r.body).at("openOrders") == 0);
}

// =============================================================================================
// /exchange: signed actions through the matching engine (upstreams/alpha.md §4-5)

namespace {

namespace sa = gateway::sign::alpha;

// upstreams/alpha.md §6 keys (the upstream SDKs' public test keys).
gateway::sign::private_key test_key(char const* hex) {
    return gateway::sign::private_key::from_hex(hex).value();
}
gateway::sign::private_key const k1 =
    test_key("0x0123456789012345678901234567890123456789012345678901234567890123");
gateway::sign::private_key const k2 =
    test_key("0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff");
std::string const k1_address = "0x14791697260e4c9a71f18484c9f997b308e59325";
std::string const k2_address = "0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901";

json::object tif(char const* name) {
    json::object l;
    l["tif"] = name;
    json::object t;
    t["limit"] = std::move(l);
    return t;
}

json::object order_action(std::uint32_t asset, bool buy, std::string const& px,
                          std::string const& sz, json::object t, bool reduce_only = false) {
    json::object o;
    o["a"] = asset;
    o["b"] = buy;
    o["p"] = px;
    o["s"] = sz;
    o["r"] = reduce_only;
    o["t"] = std::move(t);
    json::object action;
    action["type"] = "order";
    action["orders"] = json::array{o};
    action["grouping"] = "na";
    return action;
}

std::string signed_body(json::object const& action, gateway::sign::private_key const& k) {
    auto const nonce = static_cast<std::uint64_t>(sa::next_nonce_ms());
    json::object body;
    body["action"] = action;
    body["nonce"] = nonce;
    body["signature"] = sa::signature_to_json(sa::sign_l1_action(action, nonce, k, false).value());
    body["vaultAddress"] = nullptr;
    return json::serialize(body);
}

json::value exchange_json(mock_server const& m, std::string const& body) {
    auto const r = fetch(http::verb::post, m.base_url() + "/exchange", body);
    INFO(body << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    REQUIRE(r.message[http::field::content_type] == "application/json");
    return json::parse(r.body);
}

/// The single status of a one-order batch.
json::value order_status(mock_server const& m, json::object const& action,
                         gateway::sign::private_key const& k = k1) {
    auto const r = exchange_json(m, signed_body(action, k));
    INFO(json::serialize(r));
    REQUIRE(r.at("status") == "ok");
    return r.at("response").at("data").at("statuses").at(0);
}

void fund(mock_server const& m, std::string const& address) {
    control_json(m, http::verb::post, "/__mock/accounts",
                 R"({"address":")" + address + R"(","balances":{"USDC":"100000"}})");
}

} // namespace

TEST_CASE("alpha mock /exchange: orders rest, fill and cancel, and the reads follow",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    set_mark(*m, "BTC", "67000");
    fund(*m, k1_address);

    // A post-only bid at the mark sits inside the house spread: the new best bid.
    auto const rest = order_status(*m, order_action(0, true, "67000", "0.01", tif("Alo")));
    REQUIRE(rest.as_object().contains("resting"));
    auto const oid = rest.at("resting").at("oid").to_number<std::int64_t>();
    auto const open = info_json(*m, user_body("frontendOpenOrders", k1_address));
    REQUIRE(open.as_array().size() == 1);
    CHECK(open.at(0).at("oid") == oid);
    CHECK(open.at(0).at("limitPx") == "67000.0");
    CHECK(open.at(0).at("sz") == "0.01");
    CHECK(open.at(0).at("orderType") == "Limit");
    CHECK(open.at(0).at("tif") == "Alo");
    CHECK(open.at(0).at("isTrigger") == false);
    auto const book = info_json(*m, R"({"type":"l2Book","coin":"BTC"})");
    auto const& best = book.at("levels").at(0).at(0);
    CHECK(best.at("px") == "67000.0");
    CHECK(best.at("sz") == "0.01");
    CHECK(best.at("n") == 1);
    CHECK(info_json(*m, R"({"type":"allMids"})").at("BTC") == "67000.5");

    // An aggressive Ioc buy fills against the house asks: a position.
    auto const fill = order_status(*m, order_action(0, true, "70000", "0.02", tif("Ioc")));
    REQUIRE(fill.as_object().contains("filled"));
    CHECK(fill.at("filled").at("totalSz") == "0.02");
    auto const state = info_json(*m, user_body("clearinghouseState", k1_address));
    auto const& pos = position_of(state, "BTC");
    CHECK(pos.at("szi") == "0.02");
    CHECK(pos.at("entryPx") == fill.at("filled").at("avgPx"));
    auto const fills = info_json(*m, user_body("userFills", k1_address));
    REQUIRE(!fills.as_array().empty());
    CHECK(fills.at(0).at("crossed") == true);
    CHECK(fills.at(0).at("dir") == "Open Long");
    auto const done = info_json(
        *m, user_body("orderStatus", k1_address,
                      R"(,"oid":)" +
                          std::to_string(fill.at("filled").at("oid").to_number<std::int64_t>())));
    CHECK(done.at("order").at("status") == "filled");

    // Cancel the resting bid; a second cancel finds nothing.
    json::object c;
    c["a"] = 0;
    c["o"] = oid;
    json::object cancel;
    cancel["type"] = "cancel";
    cancel["cancels"] = json::array{c};
    auto const first = exchange_json(*m, signed_body(cancel, k1));
    CHECK(first ==
          json::parse(
              R"({"status":"ok","response":{"type":"cancel","data":{"statuses":["success"]}}})"));
    auto const again = exchange_json(*m, signed_body(cancel, k1));
    CHECK(again.at("response").at("data").at("statuses").at(0) ==
          json::parse(R"({"error":"Order was never placed, already canceled, or filled."})"));
    CHECK(info_json(*m, user_body("frontendOpenOrders", k1_address)).as_array().empty());
}

TEST_CASE("alpha mock /exchange: /__mock/mark fires a stop on the next request",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    set_mark(*m, "BTC", "67000");
    fund(*m, k1_address);
    REQUIRE(order_status(*m, order_action(0, true, "70000", "0.1", tif("Ioc")))
                .as_object()
                .contains("filled"));
    json::object trig;
    trig["isMarket"] = true;
    trig["triggerPx"] = "66000";
    trig["tpsl"] = "sl";
    json::object t;
    t["trigger"] = std::move(trig);
    auto const st = order_status(*m, order_action(0, false, "60000", "0.1", t, true));
    REQUIRE(st.as_object().contains("resting"));
    auto const oid = st.at("resting").at("oid").to_number<std::int64_t>();
    auto const open = info_json(*m, user_body("frontendOpenOrders", k1_address));
    REQUIRE(open.as_array().size() == 1);
    CHECK(open.at(0).at("isTrigger") == true);
    CHECK(open.at(0).at("orderType") == "Stop Market");
    CHECK(open.at(0).at("triggerPx") == "66000.0");
    CHECK(open.at(0).at("triggerCondition") == "Price below 66000");
    CHECK(open.at(0).at("reduceOnly") == true);
    CHECK(info_json(*m, user_body("openOrders", k1_address)).as_array().size() == 1);

    set_mark(*m, "BTC", "65000");
    auto const state = info_json(*m, user_body("clearinghouseState", k1_address));
    CHECK(state.at("assetPositions").as_array().empty());
    CHECK(info_json(*m, user_body("frontendOpenOrders", k1_address)).as_array().empty());
    auto const status =
        info_json(*m, user_body("orderStatus", k1_address, R"(,"oid":)" + std::to_string(oid)));
    CHECK(status.at("order").at("status") == "filled");
    auto const fills = info_json(*m, user_body("userFills", k1_address));
    REQUIRE(fills.as_array().size() == 2);
    auto const& stop_fill = fills.at(0);
    CHECK(stop_fill.at("oid") == oid);
    CHECK(stop_fill.at("side") == "A");
    CHECK(stop_fill.at("dir") == "Close Long");
    CHECK(dec(stop_fill.at("px")) < gateway::decimal::parse("65000").value());
    // The fill printed a public trade.
    bool printed = false;
    auto const trades = info_json(*m, R"({"type":"recentTrades","coin":"BTC"})");
    for (auto const& x : trades.as_array())
        printed = printed ||
                  (x.at("px") == stop_fill.at("px") && x.at("sz") == "0.1" && x.at("side") == "A");
    CHECK(printed);
}

TEST_CASE("alpha mock /exchange: signers, agents and malformed bodies over HTTP",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    auto const action = order_action(0, true, "60000", "0.01", tif("Gtc"));

    // Not funded yet: the recovered address does not exist.
    CHECK(exchange_json(*m, signed_body(action, k1)) ==
          json::parse(R"({"status":"err","response":"L1 error: User or API Wallet )" + k1_address +
                      R"( does not exist."})"));

    fund(*m, k1_address);
    auto const nonce = static_cast<std::uint64_t>(sa::next_nonce_ms());
    json::object approve;
    approve["type"] = "approveAgent";
    approve["signatureChainId"] = "0x66eee";
    approve["hyperliquidChain"] = "Mainnet";
    approve["agentAddress"] = k2_address;
    approve["agentName"] = "gw1";
    approve["nonce"] = nonce;
    json::object body;
    body["action"] = approve;
    body["nonce"] = nonce;
    body["signature"] = sa::signature_to_json(sa::sign_user_signed_action(approve, k1).value());
    body["vaultAddress"] = nullptr;
    CHECK(exchange_json(*m, json::serialize(body)) ==
          json::parse(R"({"status":"ok","response":{"type":"default"}})"));
    CHECK(info_json(*m, user_body("userRole", k2_address)) ==
          json::parse(R"({"role":"agent","data":{"user":")" + k1_address + R"("}})"));
    CHECK(info_json(*m, user_body("extraAgents", k1_address)).at(0).at("name") == "gw1");

    // The agent's order belongs to the master.
    REQUIRE(order_status(*m, action, k2).as_object().contains("resting"));
    CHECK(info_json(*m, user_body("openOrders", k1_address)).as_array().size() == 1);
    CHECK(info_json(*m, user_body("openOrders", k2_address)).as_array().empty());

    for (auto const* bad :
         {R"({"action":{"type":"order","orders":[],"grouping":"na"},"nonce":1})",
          R"({"action":{"type":"teleport"},"nonce":1,"signature":{"r":"0x1","s":"0x1","v":27}})",
          R"({"nonce":1,"signature":{"r":"0x1","s":"0x1","v":27}})", "not json"}) {
        CAPTURE(bad);
        auto const r = fetch(http::verb::post, m->base_url() + "/exchange", bad);
        CHECK(r.status == 422);
        CHECK(r.message[http::field::content_type].starts_with("text/plain"));
        CHECK(r.body.rfind("Failed to deserialize the JSON body into the target type", 0) == 0);
    }
}

TEST_CASE("alpha mock /exchange: approveBuilderFee, then orders naming the builder pay its fee",
          "[contract][mock][alpha]") {
    auto m = start_alpha();
    set_mark(*m, "BTC", "67000");
    fund(*m, k1_address);
    // ccxt posts the builder in mixed case (EIP-55 style); the signature covers the address.
    std::string const builder_mixed = "0xE5CA49FB3bd9a581f0d1ef9cb5d7177da08bf901";
    auto approve = [&](std::string const& rate, gateway::sign::private_key const& k) {
        auto const nonce = static_cast<std::uint64_t>(sa::next_nonce_ms());
        json::object a;
        a["type"] = "approveBuilderFee";
        a["signatureChainId"] = "0x66eee";
        a["hyperliquidChain"] = "Mainnet";
        a["maxFeeRate"] = rate;
        a["builder"] = builder_mixed;
        a["nonce"] = nonce;
        json::object body;
        body["action"] = a;
        body["nonce"] = nonce;
        body["signature"] = sa::signature_to_json(sa::sign_user_signed_action(a, k).value());
        body["vaultAddress"] = nullptr;
        return exchange_json(*m, json::serialize(body));
    };
    auto with_builder = [](json::object action, std::uint64_t f) {
        json::object b;
        b["b"] = k2_address;
        b["f"] = f;
        action["builder"] = std::move(b);
        return action;
    };
    auto const buy = order_action(0, true, "70000", "0.01", tif("Ioc"));
    auto const not_approved =
        json::parse(R"({"status":"err","response":"Builder fee has not been approved."})");
    auto const ok = json::parse(R"({"status":"ok","response":{"type":"default"}})");

    // Not approved: the whole action fails, even at a zero fee.
    CHECK(exchange_json(*m, signed_body(with_builder(buy, 10), k1)) == not_approved);
    CHECK(exchange_json(*m, signed_body(with_builder(buy, 0), k1)) == not_approved);
    // A builder needs 100 USDC of perps account value to be approved.
    CHECK(approve("0.01%", k1) ==
          json::parse(
              R"({"status":"err","response":"Builder has insufficient balance to be approved."})"));
    control_json(*m, http::verb::post, "/__mock/accounts",
                 R"({"address":")" + k2_address + R"(","balances":{"USDC":"100"}})");
    for (auto const* bad : {"1.5%", "0.0001%", "abc", "0.01"}) {
        CAPTURE(bad);
        CHECK(approve(bad, k1).at("status") == "err");
    }
    CHECK(approve("0.01%", k1) == ok);
    auto const max_fee =
        user_body("maxBuilderFee", k1_address, R"(,"builder":")" + builder_mixed + R"(")");
    CHECK(info_json(*m, max_fee) == 10);

    // Above the approval: refused; at it: the fill pays the builder on top of the taker fee.
    CHECK(exchange_json(*m, signed_body(with_builder(buy, 11), k1)) == not_approved);
    auto const filled = order_status(*m, with_builder(buy, 10));
    REQUIRE(filled.as_object().contains("filled"));
    CHECK(filled.at("filled").at("avgPx") == "67001.0");
    auto const fills = info_json(*m, user_body("userFills", k1_address));
    REQUIRE(fills.as_array().size() == 1);
    // 670.01 USDC: taker 0.045% = 0.3015045 -> 0.301505; builder 10 tenths of a bp = 0.067001.
    CHECK(fills.at(0).at("builderFee") == "0.067001");
    CHECK(fills.at(0).at("fee") == "0.368506");
    // Without a builder there is no builderFee key (alpha.md §3.8).
    REQUIRE(order_status(*m, buy).as_object().contains("filled"));
    auto const plain = info_json(*m, user_body("userFills", k1_address)).at(0);
    CHECK_FALSE(plain.as_object().contains("builderFee"));
    CHECK(plain.at("fee") == "0.301505");

    // A new approval replaces the old one; the builder's own key (an account, not the user)
    // approves for itself, never for k1.
    CHECK(approve("0.005%", k1) == ok);
    CHECK(info_json(*m, max_fee) == 5);
    CHECK(exchange_json(*m, signed_body(with_builder(buy, 10), k1)) == not_approved);
    CHECK(approve("0.02%", k2) == ok);
    CHECK(info_json(*m, max_fee) == 5);
    // What counts in stats (CONTRACT §10).
    auto const stats = control_json(*m, http::verb::get, "/__mock/stats");
    CHECK(stats.at("byKind").at("exchange:approveBuilderFee") == 8);
}
