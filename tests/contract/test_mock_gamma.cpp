// Contract tests of the gamma mock (Polymarket: Gamma catalog at `/`, CLOB under `/clob`;
// upstreams/gamma.md §2, §3, §6): catalog quirks, book ordering and hash, error bodies.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/types/decimal.hpp>

#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <openssl/evp.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::fetch;
using gateway::test::get;
using gateway::test::get_json;
using gateway::test::keys;

std::unique_ptr<mock_server> start_gamma() {
    return mock_server::start({upstream::gamma});
}

json::value gamma_fixture(std::string const& name) {
    return gateway::test::fixture_document("gamma/" + name).at("entries").at(0).at("httpResponse");
}

/// A JSON-in-a-string field (gamma.md §2.1), parsed a second time.
std::vector<std::string> string_list(json::value const& field) {
    REQUIRE(field.is_string());
    auto const inner = json::parse(field.as_string());
    std::vector<std::string> out;
    for (auto const& x : inner.as_array())
        out.emplace_back(x.as_string());
    return out;
}

gateway::decimal dec_text(std::string_view s) {
    auto d = gateway::decimal::parse_lenient(s);
    REQUIRE(d);
    return *d;
}

void check_error(gateway::test::raw_response const& r, unsigned status, std::string_view msg) {
    INFO(r.body);
    CHECK(r.status == status);
    auto const e = json::parse(r.body);
    CHECK(keys(e) == std::set<std::string>{"error"});
    CHECK(e.at("error").as_string() == msg);
}

/// The first market of the catalog that is open, and its two token ids.
json::value open_market(mock_server const& m) {
    auto const markets = get_json(m, "/markets?closed=false&id=516750");
    REQUIRE(markets.as_array().size() == 1);
    return markets.at(0);
}

std::string sha1_hex(std::string const& data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), md, &len, EVP_sha1(), nullptr);
    std::string out;
    char const* digits = "0123456789abcdef";
    for (unsigned i = 0; i < len; ++i) {
        out.push_back(digits[md[i] >> 4]);
        out.push_back(digits[md[i] & 0xf]);
    }
    return out;
}

void check_market_shape(json::value const& mk) {
    CAPTURE(mk);
    for (auto const* k :
         {"id", "question", "conditionId", "slug", "outcomes", "outcomePrices", "clobTokenIds",
          "volume", "volumeNum", "liquidity", "liquidityNum", "active", "closed", "acceptingOrders",
          "endDate", "negRisk", "orderPriceMinTickSize", "orderMinSize"})
        CHECK(mk.as_object().contains(k));
    CHECK(mk.at("id").is_string());
    CHECK(mk.at("conditionId").as_string().size() == 66);
    // gamma.md §2.1: strings vs numbers on markets.
    CHECK(mk.at("volume").is_string());
    CHECK(mk.at("liquidity").is_string());
    CHECK(mk.at("volumeNum").is_number());
    CHECK(mk.at("liquidityNum").is_number());
    CHECK(mk.at("volume24hr").is_number());
    CHECK(mk.at("orderPriceMinTickSize").is_number());
    CHECK(mk.at("lastTradePrice").is_number());
    auto const outcomes = string_list(mk.at("outcomes"));
    auto const prices = string_list(mk.at("outcomePrices"));
    auto const tokens = string_list(mk.at("clobTokenIds"));
    CHECK(outcomes.size() == 2);
    CHECK(prices.size() == 2);
    CHECK(tokens.size() == 2);
    for (auto const& t : tokens) {
        CHECK(t.size() >= 70);
        CHECK(t.find_first_not_of("0123456789") == std::string::npos);
    }
    // Python-style serialization inside the string, as the real API sends it.
    CHECK(mk.at("outcomes").as_string().find("\", \"") != json::string::npos);
    if (mk.at("closed") == false) {
        CHECK(mk.at("bestBid").is_number());
        CHECK(mk.at("bestAsk").is_number());
        CHECK(dec_text(prices[0]) > *gateway::decimal::parse("0"));
    }
}

} // namespace

TEST_CASE("gamma mock: /events lists events with markets and JSON-in-a-string fields",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const all = get_json(*m, "/events");
    REQUIRE(all.as_array().size() == 5);
    for (auto const& e : all.as_array()) {
        CAPTURE(e.at("id"));
        for (auto const* k : {"id", "ticker", "slug", "title", "description", "startDate",
                              "endDate", "active", "closed", "archived", "volume", "liquidity",
                              "openInterest", "negRisk", "closedTime", "tags", "markets"})
            CHECK(e.as_object().contains(k));
        CHECK(e.at("id").is_string());
        // gamma.md §2.1: on events volume/liquidity/openInterest are numbers.
        CHECK(e.at("volume").is_number());
        CHECK(e.at("liquidity").is_number());
        CHECK(e.at("openInterest").is_number());
        auto const& ms = e.at("markets").as_array();
        CHECK(!ms.empty());
        CHECK(ms.size() <= 3);
        for (auto const& mk : ms) {
            check_market_shape(mk);
            CHECK(mk.at("closed") == e.at("closed"));
        }
        for (auto const& t : e.at("tags").as_array())
            CHECK(keys(t) == std::set<std::string>{"id", "label", "slug"});
    }
    // Exact text of raw numbers (never a double's rendering).
    auto const fed = get(*m, "/events/16085");
    CHECK(fed.body.find(R"("volume":48213977.31,)") != std::string::npos);

    SECTION("closed filters, both ways") {
        auto const open = get_json(*m, "/events?closed=false");
        CHECK(open.as_array().size() == 3);
        for (auto const& e : open.as_array())
            CHECK(e.at("closed") == false);
        auto const closed = get_json(*m, "/events?closed=true");
        CHECK(closed.as_array().size() == 2);
        for (auto const& e : closed.as_array())
            CHECK(e.at("closed") == true);
    }
    SECTION("limit and offset page through the list") {
        auto const p1 = get_json(*m, "/events?limit=2");
        auto const p2 = get_json(*m, "/events?limit=2&offset=2");
        REQUIRE(p1.as_array().size() == 2);
        REQUIRE(p2.as_array().size() == 2);
        CHECK(p1.at(0).at("id") == all.at(0).at("id"));
        CHECK(p2.at(0).at("id") == all.at(2).at("id"));
        CHECK(get_json(*m, "/events?offset=5").as_array().empty());
    }
    SECTION("id accepts a comma list and repeated keys; tag_slug and slug filter") {
        CHECK(get_json(*m, "/events?id=16085,903").as_array().size() == 2);
        CHECK(get_json(*m, "/events?id=16085&id=903&id=1").as_array().size() == 2);
        auto const crypto = get_json(*m, "/events?tag_slug=crypto");
        REQUIRE(crypto.as_array().size() == 1);
        CHECK(crypto.at(0).at("id") == "16090");
        CHECK(get_json(*m, "/events?slug=mlb-nyy-bos-2026-07-04")
                  .at(0)
                  .at("markets")
                  .as_array()
                  .size() == 2);
    }
    SECTION("malformed query values are 400") {
        check_error(get(*m, "/events?closed=maybe"), 400, "invalid query parameter: closed");
        check_error(get(*m, "/events?limit=-1"), 400, "invalid query parameter: limit");
    }
}

TEST_CASE("gamma mock: /events/{id} and /markets/{id} return one object",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const e = get_json(*m, "/events/16085");
    REQUIRE(e.is_object());
    CHECK(e.at("id") == "16085");
    CHECK(e.at("negRisk") == true);
    CHECK(e.at("markets").as_array().size() == 3);
    check_error(get(*m, "/events/1"), 404, "not found");

    auto const mk = get_json(*m, "/markets/253591");
    REQUIRE(mk.is_object());
    check_market_shape(mk);
    CHECK(mk.at("events").at(0).at("id") == "903");
    // A resolved market (gamma.md §2.5).
    CHECK(mk.at("closed") == true);
    CHECK(mk.at("umaResolutionStatus") == "resolved");
    CHECK(string_list(mk.at("outcomePrices")) == std::vector<std::string>{"1", "0"});
    CHECK(mk.at("closedTime").as_string().ends_with("+00"));
    check_error(get(*m, "/markets/1"), 404, "not found");
}

TEST_CASE("gamma mock: /markets filters by closed, token and condition ids",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const all = get_json(*m, "/markets");
    CHECK(all.as_array().size() == 9);
    auto const open = get_json(*m, "/markets?closed=false");
    CHECK(open.as_array().size() == 6);
    for (auto const& mk : open.as_array()) {
        check_market_shape(mk);
        CHECK(mk.at("events").as_array().size() == 1);
    }
    auto const mk = open_market(*m);
    auto const tokens = string_list(mk.at("clobTokenIds"));
    auto const by_token = get_json(*m, "/markets?clob_token_ids=" + tokens[1]);
    REQUIRE(by_token.as_array().size() == 1);
    CHECK(by_token.at(0).at("id") == "516750");
    auto const by_condition =
        get_json(*m, "/markets?condition_ids=" + std::string(mk.at("conditionId").as_string()));
    REQUIRE(by_condition.as_array().size() == 1);
    CHECK(get_json(*m, "/markets?closed=true").as_array().size() == 3);
}

TEST_CASE("gamma mock: the CLOB root and time", "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const root = get(*m, "/clob/");
    CHECK(root.status == 200);
    CHECK(root.body == "\"OK\"");
    auto const t = get(*m, "/clob/time");
    REQUIRE(t.status == 200);
    auto const v = json::parse(t.body);
    REQUIRE(v.is_int64());
    auto const now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    CHECK(v.as_int64() >= now - 5);
    CHECK(v.as_int64() <= now + 5);
}

TEST_CASE("gamma mock: /clob/book has the recorded shape, ordering and hash",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const recorded = gamma_fixture("ccxt-fetchOrderBook.json");
    auto const mk = open_market(*m);
    auto const token = string_list(mk.at("clobTokenIds"))[0];
    auto const b = get_json(*m, "/clob/book?token_id=" + token);
    CHECK(keys(b) == keys(recorded));
    CHECK(b.at("market") == mk.at("conditionId"));
    CHECK(b.at("asset_id").as_string() == token);
    CHECK(b.at("timestamp").is_string());
    CHECK(b.at("tick_size") == "0.01");
    CHECK(b.at("min_order_size").is_string());
    CHECK(b.at("neg_risk").is_bool());
    CHECK(b.at("last_trade_price").is_string());
    auto const& bids = b.at("bids").as_array();
    auto const& asks = b.at("asks").as_array();
    REQUIRE(bids.size() >= 2);
    REQUIRE(asks.size() >= 2);
    for (auto const* side : {&bids, &asks})
        for (auto const& l : *side) {
            CHECK(keys(l) == keys(recorded.at("bids").at(0)));
            CHECK(l.at("price").is_string());
            CHECK(l.at("size").is_string());
        }
    // gamma.md §3.2: bids ascending, asks descending; the best of each is last.
    for (std::size_t i = 1; i < bids.size(); ++i)
        CHECK(dec_text(bids[i].at("price").as_string()) >
              dec_text(bids[i - 1].at("price").as_string()));
    for (std::size_t i = 1; i < asks.size(); ++i)
        CHECK(dec_text(asks[i].at("price").as_string()) <
              dec_text(asks[i - 1].at("price").as_string()));
    CHECK(dec_text(bids.back().at("price").as_string()) <
          dec_text(asks.back().at("price").as_string()));
    // The hash is SHA-1 of the compact body with hash "" (py-clob-client's check).
    auto copy = b;
    copy.as_object()["hash"] = "";
    CHECK(b.at("hash").as_string() == sha1_hex(json::serialize(copy)));

    SECTION("price: BUY is the best bid, SELL the best ask; midpoint between") {
        auto const buy = get_json(*m, "/clob/price?token_id=" + token + "&side=BUY");
        auto const sell = get_json(*m, "/clob/price?token_id=" + token + "&side=SELL");
        CHECK(keys(buy) == std::set<std::string>{"price"});
        CHECK(keys(sell) == std::set<std::string>{"price"});
        // The book may regenerate between calls, but the mark is pinned below.
        REQUIRE(fetch(http::verb::post, m->base_url() + "/__mock/mark",
                      R"({"symbol":")" + token + R"(","price":"0.42"})")
                    .status == 200);
        auto const buy2 = get_json(*m, "/clob/price?token_id=" + token + "&side=BUY");
        auto const sell2 = get_json(*m, "/clob/price?token_id=" + token + "&side=SELL");
        auto const mid = get_json(*m, "/clob/midpoint?token_id=" + token);
        CHECK(buy2.at("price") == "0.41");
        CHECK(sell2.at("price") == "0.43");
        CHECK(mid == json::parse(R"({"mid":"0.42"})"));
        auto const book2 = get_json(*m, "/clob/book?token_id=" + token);
        CHECK(book2.at("bids").as_array().back().at("price") == "0.41");
        CHECK(book2.at("asks").as_array().back().at("price") == "0.43");
        check_error(get(*m, "/clob/price?token_id=" + token + "&side=UP"), 400, "Invalid side");
    }
}

TEST_CASE("gamma mock: a YES token mark moves its NO token to the complement",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const tokens = string_list(open_market(*m).at("clobTokenIds"));
    auto const r = fetch(http::verb::post, m->base_url() + "/__mock/mark",
                         R"({"symbol":")" + tokens[0] + R"(","price":"0.7"})");
    REQUIRE(r.status == 200);
    CHECK(get_json(*m, "/clob/midpoint?token_id=" + tokens[0]).at("mid") == "0.7");
    CHECK(get_json(*m, "/clob/midpoint?token_id=" + tokens[1]).at("mid") == "0.3");
    CHECK(string_list(open_market(*m).at("outcomePrices")) ==
          std::vector<std::string>{"0.7", "0.3"});
    // The NO book mirrors the YES book.
    auto const yes = get_json(*m, "/clob/book?token_id=" + tokens[0]);
    auto const no = get_json(*m, "/clob/book?token_id=" + tokens[1]);
    CHECK(no.at("bids").as_array().back().at("price") == "0.29");
    CHECK(yes.at("asks").as_array().back().at("price") == "0.71");

    // A closed market's tokens have no book and cannot be marked.
    auto const closed = get_json(*m, "/markets/253591");
    auto const closed_token = string_list(closed.at("clobTokenIds"))[0];
    CHECK(fetch(http::verb::post, m->base_url() + "/__mock/mark",
                R"({"symbol":")" + closed_token + R"(","price":"0.5"})")
              .status == 404);
}

TEST_CASE("gamma mock: CLOB token errors", "[contract][mock][gamma]") {
    auto m = start_gamma();
    check_error(get(*m, "/clob/book"), 400, "Invalid token id");
    check_error(get(*m, "/clob/book?token_id=abc"), 400, "Invalid token id");
    check_error(get(*m, "/clob/midpoint?token_id="), 400, "Invalid token id");
    check_error(get(*m, "/clob/book?token_id=12345"), 404,
                "No orderbook exists for the requested token id");
    auto const closed_token = string_list(get_json(*m, "/markets/512044").at("clobTokenIds"))[1];
    check_error(get(*m, "/clob/book?token_id=" + closed_token), 404,
                "No orderbook exists for the requested token id");
    check_error(get(*m, "/clob/price?token_id=" + closed_token + "&side=BUY"), 404,
                "No orderbook exists for the requested token id");
}

TEST_CASE("gamma mock: stats kinds are method and path", "[contract][mock][gamma]") {
    auto m = start_gamma();
    get(*m, "/events?closed=false");
    get(*m, "/events/16085");
    get(*m, "/clob/book?token_id=1");
    get(*m, "/clob/book?token_id=2");
    auto const s = json::parse(fetch(http::verb::get, m->base_url() + "/__mock/stats").body);
    CHECK(s.at("requests") == 4);
    CHECK(s.at("byKind") == json::parse(R"({"GET /events":1,"GET /events/16085":1,
                                           "GET /clob/book":2})")
                                .as_object());
}
