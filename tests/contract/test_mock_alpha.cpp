// Contract tests of the alpha mock (Hyperliquid info API, upstreams/alpha.md §2-3, §8): exact
// shapes of every /info type it serves, compared with the recorded upstream fixtures.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/types/decimal.hpp>

#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

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
    CHECK(bids.size() <= 20);
    CHECK(asks.size() <= 20);
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
    auto const ex = fetch(http::verb::post, m->base_url() + "/exchange",
                          R"({"action":{"type":"order","orders":[],"grouping":"na"},"nonce":1})");
    CHECK(ex.status == 200);
    CHECK(json::parse(ex.body).at("status") == "err");
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
