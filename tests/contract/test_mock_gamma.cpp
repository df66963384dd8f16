// Contract tests of the gamma mock (Polymarket: Gamma catalog at `/`, CLOB under `/clob`;
// upstreams/gamma.md §2, §3, §6): the catalog's size, statuses and quirks, its paging, ordering
// and filters, every CLOB read against the recorded shapes, batch bodies, errors, request
// budgets and faults.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/types/decimal.hpp>

#include "support/mock_control.hpp"
#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
using gateway::mocks::mock_options;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::fetch;
using gateway::test::get;
using gateway::test::get_json;
using gateway::test::keys;

constexpr std::string_view no_book_msg = "No orderbook exists for the requested token id";

std::unique_ptr<mock_server> start_gamma(std::uint64_t seed = 42) {
    mock_options o{upstream::gamma};
    o.seed = seed;
    return mock_server::start(o);
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

/// A price in units of 0.0001 (the finest outcome price the mock shows).
std::int64_t gamma_millis(std::string_view s) {
    auto const scaled = dec_text(s).to_scaled(4);
    REQUIRE(scaled);
    return *scaled;
}

/// A JSON number or string as a decimal (exact for the mock's raw numbers' text).
gateway::decimal dec_json(json::value const& v) {
    if (v.is_string())
        return dec_text(v.as_string());
    auto d = gateway::decimal::parse_lenient(json::serialize(v));
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

gateway::test::raw_response gamma_post(mock_server const& m, std::string const& path,
                                       std::string const& body) {
    return fetch(http::verb::post, m.base_url() + path, body);
}

json::value post_json(mock_server const& m, std::string const& path, std::string const& body) {
    auto const r = gamma_post(m, path, body);
    INFO(path << " " << body << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

/// An open market with a book (the hand-written "Will Bitcoin reach $150,000 in 2026?").
json::value open_market(mock_server const& m) {
    auto const markets = get_json(m, "/markets?closed=false&id=516750");
    REQUIRE(markets.as_array().size() == 1);
    return markets.at(0);
}

std::string yes_token(json::value const& market) {
    return string_list(market.at("clobTokenIds"))[0];
}

std::string gamma_sha1(std::string const& data) {
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

/// The gateway status a Gamma market derives to (gamma.md §2.6 as the issue words it).
std::string market_phase(json::value const& mk) {
    if (mk.at("closed") == true)
        return mk.at("umaResolutionStatus") == "resolved" ? "resolved" : "closed";
    return "active";
}

std::string event_phase(json::value const& e) {
    if (e.at("closed") == false)
        return "active";
    for (auto const& mk : e.at("markets").as_array())
        if (market_phase(mk) != "resolved")
            return "closed";
    return "resolved";
}

std::string category_of(json::value const& e) {
    if (auto const* c = e.as_object().if_contains("category"))
        return std::string(c->as_string());
    return std::string(e.at("tags").at(0).at("label").as_string());
}

std::vector<std::string> ids_of(json::value const& list) {
    std::vector<std::string> out;
    for (auto const& x : list.as_array())
        out.emplace_back(x.at("id").as_string());
    return out;
}

bool id_less(std::string const& a, std::string const& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

void check_market_shape(json::value const& mk) {
    CAPTURE(mk);
    for (auto const* k : {"id",
                          "question",
                          "conditionId",
                          "questionID",
                          "slug",
                          "description",
                          "outcomes",
                          "outcomePrices",
                          "clobTokenIds",
                          "active",
                          "closed",
                          "archived",
                          "acceptingOrders",
                          "enableOrderBook",
                          "startDate",
                          "endDate",
                          "endDateIso",
                          "negRisk",
                          "orderPriceMinTickSize",
                          "orderMinSize",
                          "volume24hr",
                          "lastTradePrice",
                          "umaResolutionStatus",
                          "umaResolutionStatuses",
                          "closedTime"})
        CHECK(mk.as_object().contains(k));
    CHECK(mk.at("id").is_string());
    CHECK(mk.at("conditionId").as_string().size() == 66);
    CHECK(mk.at("questionID").as_string().size() == 66);
    // gamma.md §2.1: on markets volume/liquidity are strings, their *Num twins numbers; all
    // four are absent on a brand-new market.
    auto const& o = mk.as_object();
    CHECK(o.contains("volume") == o.contains("volumeNum"));
    CHECK(o.contains("liquidity") == o.contains("liquidityNum"));
    if (o.contains("volume")) {
        CHECK(mk.at("volume").is_string());
        CHECK(mk.at("volumeNum").is_number());
        CHECK(dec_json(mk.at("volume")) == dec_json(mk.at("volumeNum")));
    }
    if (o.contains("liquidity")) {
        CHECK(mk.at("liquidity").is_string());
        CHECK(mk.at("liquidityNum").is_number());
    }
    CHECK(mk.at("volume24hr").is_number());
    CHECK(mk.at("orderPriceMinTickSize").is_number());
    CHECK(mk.at("orderMinSize").is_number());
    CHECK(mk.at("lastTradePrice").is_number());
    CHECK(mk.at("active") == true); // Gamma keeps active:true after close (gamma.md §2.6)
    auto const outcomes = string_list(mk.at("outcomes"));
    auto const prices = string_list(mk.at("outcomePrices"));
    auto const tokens = string_list(mk.at("clobTokenIds"));
    CHECK(outcomes.size() == 2);
    CHECK(prices.size() == 2);
    CHECK(tokens.size() == 2);
    for (auto const& t : tokens) {
        CHECK(t.size() >= 76);
        CHECK(t.size() <= 78);
        CHECK(t.find_first_not_of("0123456789") == std::string::npos);
    }
    // Python-style serialization inside the string, as the real API sends it.
    CHECK(mk.at("outcomes").as_string().find("\", \"") != json::string::npos);
    CHECK(gamma_millis(prices[0]) + gamma_millis(prices[1]) == 10'000);
    static std::regex const iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z)");
    static std::regex const closed_style(R"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00)");
    CHECK(std::regex_match(std::string(mk.at("endDate").as_string()), iso));
    CHECK(std::regex_match(std::string(mk.at("startDate").as_string()), iso));
    if (mk.at("closed") == true) {
        CHECK(mk.at("acceptingOrders") == false);
        CHECK(std::regex_match(std::string(mk.at("closedTime").as_string()), closed_style));
        auto const uma = std::string(mk.at("umaResolutionStatus").as_string());
        CHECK((uma == "proposed" || uma == "disputed" || uma == "resolved"));
        CHECK(string_list(mk.at("umaResolutionStatuses")).back() == uma);
        bool const one_hot =
            (prices[0] == "1" && prices[1] == "0") || (prices[0] == "0" && prices[1] == "1");
        bool const void_5050 = prices[0] == "0.5" && prices[1] == "0.5";
        // A resolved market shows the settlement; an unresolved one never does (else gamma.md
        // §2.6 rule 1 would call it resolved).
        CHECK((uma == "resolved") == (one_hot || void_5050));
        CHECK(!o.contains("bestBid"));
    } else {
        CHECK(mk.at("umaResolutionStatus").is_null());
        CHECK(mk.at("closedTime").is_null());
        CHECK(mk.at("umaResolutionStatuses") == "[]");
        if (mk.at("enableOrderBook") == true) {
            CHECK(mk.at("acceptingOrders") == true);
            REQUIRE(mk.at("bestBid").is_number());
            REQUIRE(mk.at("bestAsk").is_number());
            CHECK(dec_json(mk.at("bestBid")) < dec_json(mk.at("bestAsk")));
        } else {
            CHECK(!o.contains("bestBid"));
        }
    }
}

} // namespace

TEST_CASE("gamma mock: the catalog has 150+ events in every category and status, each shaped "
          "as Gamma sends it",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const all = get_json(*m, "/events");
    auto const& events = all.as_array();
    REQUIRE(events.size() >= 150);
    std::map<std::string, int> by_phase, by_category;
    int neg_risk_multi = 0, single = 0, with_category = 0, brand_new = 0, amm = 0;
    int disputed = 0, active_with_resolved_child = 0, archived = 0, price_to_beat = 0;
    std::set<std::string> event_ids, market_ids, tokens;
    static std::regex const iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z)");
    for (auto const& e : events) {
        CAPTURE(e.at("id"));
        for (auto const* k : {"id",
                              "ticker",
                              "slug",
                              "title",
                              "description",
                              "startDate",
                              "creationDate",
                              "endDate",
                              "active",
                              "closed",
                              "archived",
                              "restricted",
                              "volume",
                              "liquidity",
                              "openInterest",
                              "volume24hr",
                              "negRisk",
                              "negRiskMarketID",
                              "enableOrderBook",
                              "closedTime",
                              "tags",
                              "markets"})
            CHECK(e.as_object().contains(k));
        CHECK(e.at("id").is_string());
        CHECK(event_ids.insert(std::string(e.at("id").as_string())).second);
        // gamma.md §2.1: on events volume/liquidity/openInterest are numbers.
        CHECK(e.at("volume").is_number());
        CHECK(e.at("liquidity").is_number());
        CHECK(e.at("openInterest").is_number());
        CHECK(std::regex_match(std::string(e.at("endDate").as_string()), iso));
        auto const& ms = e.at("markets").as_array();
        REQUIRE(!ms.empty());
        if (e.at("negRisk") == true) {
            CHECK(e.at("negRiskMarketID").as_string().size() == 66);
            neg_risk_multi += ms.size() > 1 ? 1 : 0;
        } else {
            CHECK(e.at("negRiskMarketID").is_null());
            single += ms.size() == 1 ? 1 : 0;
        }
        REQUIRE(!e.at("tags").as_array().empty());
        for (auto const& t : e.at("tags").as_array())
            CHECK(keys(t) == std::set<std::string>{"id", "label", "slug"});
        with_category += e.as_object().contains("category") ? 1 : 0;
        archived += e.at("archived") == true ? 1 : 0;
        price_to_beat += e.as_object().contains("eventMetadata") ? 1 : 0;
        ++by_phase[event_phase(e)];
        ++by_category[category_of(e)];
        bool resolved_child = false;
        for (auto const& mk : ms) {
            check_market_shape(mk);
            CHECK(!mk.as_object().contains("events")); // no back-reference inside an event
            CHECK(mk.at("negRisk") == e.at("negRisk"));
            if (e.at("negRisk") == true)
                CHECK(mk.at("negRiskMarketID") == e.at("negRiskMarketID"));
            if (e.at("closed") == true)
                CHECK(mk.at("closed") == true);
            resolved_child = resolved_child || market_phase(mk) == "resolved";
            brand_new += mk.as_object().contains("volume") ? 0 : 1;
            amm += mk.at("enableOrderBook") == false ? 1 : 0;
            disputed += mk.at("umaResolutionStatus") == "disputed" ? 1 : 0;
            CHECK(market_ids.insert(std::string(mk.at("id").as_string())).second);
            for (auto const& t : string_list(mk.at("clobTokenIds")))
                CHECK(tokens.insert(t).second);
        }
        if (e.at("closed") == false && resolved_child)
            ++active_with_resolved_child;
    }
    CAPTURE(by_phase, by_category);
    CHECK(by_phase["active"] >= 50);
    CHECK(by_phase["closed"] >= 8);
    CHECK(by_phase["resolved"] >= 50);
    for (auto const* c : {"Politics", "Sports", "Crypto", "Economy", "Culture", "Weather", "Tech"})
        CHECK(by_category[c] >= 10);
    CHECK(neg_risk_multi >= 40);
    CHECK(single >= 50);
    // The upstream's quirks: category on some events only, brand-new markets without volume
    // keys, AMM-era markets without a book, disputed resolutions, children of an open event
    // resolved one by one, archived events, crypto up/down price to beat.
    CHECK(with_category >= 10);
    CHECK(with_category < static_cast<int>(events.size()) / 2);
    CHECK(brand_new >= 3);
    CHECK(amm >= 2);
    CHECK(disputed >= 2);
    CHECK(active_with_resolved_child >= 1);
    CHECK(archived >= 3);
    CHECK(price_to_beat >= 5);
    CHECK(market_ids.size() > 500);

    // Exact text of raw numbers (never a double's rendering).
    auto const fed = get(*m, "/events/16085");
    CHECK(fed.body.find(R"("volume":48213977.31,)") != std::string::npos);
}

TEST_CASE("gamma mock: the catalog is the same for every seed, the seed drives prices only",
          "[contract][mock][gamma]") {
    auto a = start_gamma(1);
    auto b = start_gamma(2);
    auto const ea = get_json(*a, "/events");
    auto const eb = get_json(*b, "/events");
    REQUIRE(ea.as_array().size() == eb.as_array().size());
    auto strip = [](json::value e) {
        // What may move: prices and the live book numbers of open markets.
        for (auto& mk : e.as_object()["markets"].as_array())
            for (auto const* k :
                 {"outcomePrices", "bestBid", "bestAsk", "spread", "lastTradePrice"})
                mk.as_object().erase(k);
        return e;
    };
    for (std::size_t i = 0; i < ea.as_array().size(); ++i)
        CHECK(strip(ea.at(i)) == strip(eb.at(i)));
    gateway::test::mock_post(*a, "/__mock/tick", R"({"steps":30})");
    gateway::test::mock_post(*b, "/__mock/tick", R"({"steps":30})");
    int differ = 0;
    auto const pa = get_json(*a, "/markets?closed=false&limit=500");
    auto const pb = get_json(*b, "/markets?closed=false&limit=500");
    REQUIRE(pa.as_array().size() == pb.as_array().size());
    for (std::size_t i = 0; i < pa.as_array().size(); ++i)
        differ += pa.at(i).at("outcomePrices") != pb.at(i).at("outcomePrices") ? 1 : 0;
    CHECK(differ > 50);
}

TEST_CASE("gamma mock: /events and /markets page with limit and offset, at most 500 a page, by "
          "id unless ordered",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const all = ids_of(get_json(*m, "/events"));
    REQUIRE(all.size() >= 150);
    CHECK(std::is_sorted(all.begin(), all.end(), id_less));

    SECTION("offset pages cover every event exactly once") {
        std::vector<std::string> paged;
        for (std::size_t offset = 0;; offset += 60) {
            auto const page =
                ids_of(get_json(*m, "/events?limit=60&offset=" + std::to_string(offset)));
            CHECK(page.size() <= 60);
            paged.insert(paged.end(), page.begin(), page.end());
            if (page.size() < 60)
                break;
        }
        CHECK(paged == all);
        CHECK(get_json(*m, "/events?limit=0").as_array().empty());
        CHECK(get_json(*m, "/events?offset=" + std::to_string(all.size())).as_array().empty());
    }
    SECTION("a page holds at most 500: /markets has more than that") {
        auto const first = ids_of(get_json(*m, "/markets?limit=1000"));
        CHECK(first.size() == 500);
        CHECK(ids_of(get_json(*m, "/markets")).size() == 500);
        auto const rest = ids_of(get_json(*m, "/markets?limit=1000&offset=500"));
        REQUIRE(!rest.empty());
        CHECK(id_less(first.back(), rest.front()));
        std::set<std::string> distinct(first.begin(), first.end());
        distinct.insert(rest.begin(), rest.end());
        CHECK(distinct.size() == first.size() + rest.size());
    }
    SECTION("order and ascending") {
        auto const by_volume = get_json(*m, "/events?order=volume&ascending=false");
        REQUIRE(by_volume.as_array().size() == all.size());
        for (std::size_t i = 1; i < by_volume.as_array().size(); ++i)
            CHECK(dec_json(by_volume.at(i - 1).at("volume")) >=
                  dec_json(by_volume.at(i).at("volume")));
        auto const by_end = get_json(*m, "/events?order=endDate&limit=100");
        for (std::size_t i = 1; i < by_end.as_array().size(); ++i)
            CHECK(by_end.at(i - 1).at("endDate").as_string().subview().substr(0, 19) <=
                  by_end.at(i).at("endDate").as_string().subview().substr(0, 19));
        auto desc = ids_of(get_json(*m, "/events?ascending=false"));
        std::reverse(desc.begin(), desc.end());
        CHECK(desc == all);
        auto const markets = get_json(*m, "/markets?order=volumeNum,id&ascending=false&limit=50");
        for (std::size_t i = 1; i < markets.as_array().size(); ++i) {
            auto const& prev = markets.at(i - 1).as_object();
            auto const& cur = markets.at(i).as_object();
            // Absent (brand-new) volumes come first descending, as PostgreSQL orders NULLs.
            if (prev.contains("volumeNum") && cur.contains("volumeNum"))
                CHECK(dec_json(prev.at("volumeNum")) >= dec_json(cur.at("volumeNum")));
            else
                CHECK(!prev.contains("volumeNum"));
        }
    }
    SECTION("malformed values are 400 naming the parameter") {
        check_error(get(*m, "/events?limit=-1"), 400, "invalid query parameter: limit");
        check_error(get(*m, "/events?offset=x"), 400, "invalid query parameter: offset");
        check_error(get(*m, "/events?closed=maybe"), 400, "invalid query parameter: closed");
        check_error(get(*m, "/events?ascending=yes"), 400, "invalid query parameter: ascending");
        check_error(get(*m, "/events?order=popularity"), 400, "invalid query parameter: order");
        check_error(get(*m, "/events?id=abc"), 400, "invalid query parameter: id");
        check_error(get(*m, "/events?end_date_min=tomorrow"), 400,
                    "invalid query parameter: end_date_min");
        check_error(get(*m, "/markets?volume_num_min=lots"), 400,
                    "invalid query parameter: volume_num_min");
        check_error(get(*m, "/markets?order=title"), 400, "invalid query parameter: order");
    }
}

TEST_CASE("gamma mock: /events filters", "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const all = get_json(*m, "/events");
    std::size_t const total = all.as_array().size();

    SECTION("closed splits the catalog in two") {
        auto const open = get_json(*m, "/events?closed=false");
        auto const closed = get_json(*m, "/events?closed=true");
        CHECK(open.as_array().size() + closed.as_array().size() == total);
        for (auto const& e : open.as_array())
            CHECK(e.at("closed") == false);
        for (auto const& e : closed.as_array())
            CHECK(e.at("closed") == true);
        // active stays true after close, so active=true keeps everything.
        CHECK(get_json(*m, "/events?active=true").as_array().size() == total);
        CHECK(get_json(*m, "/events?active=false").as_array().empty());
    }
    SECTION("tags: tag_slug, tag_id, exclude_tag_id") {
        auto const crypto = get_json(*m, "/events?tag_slug=crypto");
        REQUIRE(crypto.as_array().size() >= 20);
        for (auto const& e : crypto.as_array()) {
            auto const& tags = e.at("tags").as_array();
            CHECK(std::any_of(tags.begin(), tags.end(),
                              [](json::value const& t) { return t.at("slug") == "crypto"; }));
        }
        CHECK(ids_of(get_json(*m, "/events?tag_id=21")) == ids_of(crypto));
        auto const no_bitcoin = get_json(*m, "/events?tag_slug=crypto&exclude_tag_id=235");
        CHECK(!no_bitcoin.as_array().empty());
        CHECK(no_bitcoin.as_array().size() < crypto.as_array().size());
        for (auto const& e : no_bitcoin.as_array())
            for (auto const& t : e.at("tags").as_array())
                CHECK(t.at("id") != "235");
        // The culture tag's slug is not its label, as on Polymarket.
        auto const culture = get_json(*m, "/events?tag_slug=pop-culture");
        REQUIRE(!culture.as_array().empty());
        CHECK(culture.at(0).at("tags").at(0).at("label") == "Culture");
        CHECK(get_json(*m, "/events?tag_slug=no-such-tag").as_array().empty());
    }
    SECTION("id and slug lists, comma-separated or repeated") {
        CHECK(ids_of(get_json(*m, "/events?id=16085,903")) ==
              std::vector<std::string>{"903", "16085"});
        CHECK(get_json(*m, "/events?id=16085&id=903&id=1").as_array().size() == 2);
        auto const game = get_json(*m, "/events?slug=mlb-nyy-bos-2026-07-04");
        REQUIRE(game.as_array().size() == 1);
        CHECK(game.at(0).at("markets").as_array().size() == 2);
    }
    SECTION("featured, archived, volume and date ranges") {
        auto const featured = get_json(*m, "/events?featured=true");
        CHECK(!featured.as_array().empty());
        for (auto const& e : featured.as_array())
            CHECK(e.at("featured") == true);
        auto const archived = get_json(*m, "/events?archived=true");
        CHECK(!archived.as_array().empty());
        for (auto const& e : archived.as_array())
            CHECK(e.at("closed") == true);
        CHECK(get_json(*m, "/events?archived=false").as_array().size() ==
              total - archived.as_array().size());
        auto const big = get_json(*m, "/events?volume_min=1000000");
        CHECK(!big.as_array().empty());
        for (auto const& e : big.as_array())
            CHECK(dec_json(e.at("volume")) >= dec_text("1000000"));
        auto const dec2026 =
            get_json(*m, "/events?end_date_min=2026-12-01&end_date_max=2026-12-31T23:59:59Z");
        REQUIRE(!dec2026.as_array().empty());
        for (auto const& e : dec2026.as_array())
            CHECK(e.at("endDate").as_string().subview().substr(0, 7) == "2026-12");
    }
    SECTION("parameters the upstream does not know are ignored (there is no category filter)") {
        CHECK(get_json(*m, "/events?category=Sports&tag=sports").as_array().size() == total);
    }
}

TEST_CASE("gamma mock: /markets filters", "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const mk = open_market(*m);
    check_market_shape(mk);
    REQUIRE(mk.at("events").as_array().size() == 1);
    CHECK(mk.at("events").at(0).at("id") == "16090");
    CHECK(!mk.at("events").at(0).as_object().contains("markets"));
    auto const tokens = string_list(mk.at("clobTokenIds"));

    auto const by_token = get_json(*m, "/markets?clob_token_ids=" + tokens[1]);
    REQUIRE(by_token.as_array().size() == 1);
    CHECK(by_token.at(0).at("id") == "516750");
    // Repeated keys, as the official Rust SDK sends them (gamma.md §2.5).
    auto const other = string_list(get_json(*m, "/markets/516801").at("clobTokenIds"))[0];
    CHECK(
        ids_of(get_json(*m, "/markets?clob_token_ids=" + tokens[0] + "&clob_token_ids=" + other)) ==
        std::vector<std::string>{"516750", "516801"});
    CHECK(ids_of(get_json(*m, "/markets?condition_ids=" +
                                  std::string(mk.at("conditionId").as_string()))) ==
          std::vector<std::string>{"516750"});
    CHECK(ids_of(get_json(*m, "/markets?question_ids=" +
                                  std::string(mk.at("questionID").as_string()))) ==
          std::vector<std::string>{"516750"});

    auto const resolved = get_json(*m, "/markets?uma_resolution_status=resolved&limit=500");
    REQUIRE(resolved.as_array().size() >= 100);
    for (auto const& x : resolved.as_array())
        CHECK(market_phase(x) == "resolved");
    auto const open = get_json(*m, "/markets?closed=false&limit=500");
    auto const closed = get_json(*m, "/markets?closed=true&limit=500");
    auto const everything = get_json(*m, "/markets?limit=500").as_array().size() +
                            get_json(*m, "/markets?limit=500&offset=500").as_array().size();
    CHECK(open.as_array().size() + closed.as_array().size() == everything);
    for (auto const& x : open.as_array())
        CHECK(x.at("closed") == false);

    auto const with_tags = get_json(*m, "/markets?id=516750&include_tag=true");
    CHECK(with_tags.at(0).at("tags").at(0).at("slug") == "crypto");
    CHECK(!mk.as_object().contains("tags"));
    auto const nba = get_json(*m, "/markets?tag_id=745&limit=500");
    CHECK(nba.as_array().size() >= 16);
    for (auto const& x : nba.as_array())
        CHECK(x.at("events").at(0).at("slug").as_string().starts_with("nba-"));
    auto const liquid = get_json(*m, "/markets?liquidity_num_min=5000&closed=false");
    REQUIRE(!liquid.as_array().empty());
    for (auto const& x : liquid.as_array())
        CHECK(dec_json(x.at("liquidityNum")) >= dec_text("5000"));
}

TEST_CASE("gamma mock: one event or market by id or slug, with tags, 404 when unknown",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const e = get_json(*m, "/events/16085");
    REQUIRE(e.is_object());
    CHECK(e.at("id") == "16085");
    CHECK(e.at("negRisk") == true);
    CHECK(e.at("markets").as_array().size() == 3);
    auto const by_slug = get_json(*m, "/events/slug/fed-decision-in-december-2026");
    CHECK(by_slug.at("id") == "16085");
    CHECK(ids_of(by_slug.at("markets")) == ids_of(e.at("markets")));
    auto const tags = get_json(*m, "/events/16085/tags");
    CHECK(tags == e.at("tags"));
    check_error(get(*m, "/events/1"), 404, "not found");
    check_error(get(*m, "/events/slug/nope"), 404, "not found");

    auto const mk = get_json(*m, "/markets/253591");
    REQUIRE(mk.is_object());
    check_market_shape(mk);
    CHECK(mk.at("events").at(0).at("id") == "903");
    // A resolved market (gamma.md §2.5).
    CHECK(mk.at("closed") == true);
    CHECK(mk.at("umaResolutionStatus") == "resolved");
    CHECK(string_list(mk.at("outcomePrices")) == std::vector<std::string>{"1", "0"});
    CHECK(mk.at("closedTime").as_string().ends_with("+00"));
    CHECK(get_json(*m, "/markets/slug/will-donald-trump-win-the-2024-us-presidential-election") ==
          mk);
    CHECK(get_json(*m, "/markets/253591/tags").at(0).at("slug") == "politics");
    check_error(get(*m, "/markets/1"), 404, "not found");
    check_error(get(*m, "/nothing-here"), 404, "not found");
    auto const post = fetch(http::verb::post, m->base_url() + "/events", "{}");
    check_error(post, 405, "method not allowed");
    CHECK(post.message[http::field::allow] == "GET");
}

TEST_CASE("gamma mock: the CLOB root and time", "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const root = get(*m, "/clob/");
    CHECK(root.status == 200);
    CHECK(root.body == "\"OK\"");
    // ccxt's fetchTime reads this path (recorded request).
    auto const recorded =
        gateway::test::fixture_document("gamma/ccxt-requests-only.json").at("methods");
    std::string const url(recorded.at("fetchTime").at(0).at("url").as_string());
    auto const path = url.substr(url.find("/time"));
    auto const t = get(*m, "/clob" + path);
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
    auto const token = yes_token(mk);
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
    CHECK(b.at("hash").as_string() == gamma_sha1(json::serialize(copy)));

    SECTION("the recorded market is in the catalog with the recorded ids, tick and neg-risk") {
        std::string const recorded_token(recorded.at("asset_id").as_string());
        auto const ours = get_json(*m, "/clob/book?token_id=" + recorded_token);
        CHECK(ours.at("market") == recorded.at("market"));
        CHECK(ours.at("tick_size") == recorded.at("tick_size"));
        CHECK(ours.at("neg_risk") == recorded.at("neg_risk"));
        CHECK(ours.at("min_order_size") == recorded.at("min_order_size"));
        auto const market = get_json(*m, "/markets?clob_token_ids=" + recorded_token);
        REQUIRE(market.as_array().size() == 1);
        CHECK(market.at(0).at("question") ==
              "Will JD Vance win the 2028 US Presidential Election?");
        CHECK(market.at(0).at("events").at(0).at("slug") == "presidential-election-winner-2028");
    }
    SECTION("the book follows the seeded walk, one tick around the mark") {
        auto const before = get_json(*m, "/clob/midpoint?token_id=" + token).at("mid");
        gateway::test::mock_post(*m, "/__mock/tick", R"({"steps":200})");
        auto const after = get_json(*m, "/clob/midpoint?token_id=" + token).at("mid");
        CHECK(before != after);
        auto const moved = get_json(*m, "/clob/book?token_id=" + token);
        CHECK(gamma_millis(moved.at("asks").as_array().back().at("price").as_string()) -
                  gamma_millis(moved.at("bids").as_array().back().at("price").as_string()) ==
              200);
    }
}

TEST_CASE("gamma mock: price, midpoint, spread and last trade from a pinned mark",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const token = yes_token(open_market(*m));
    gateway::test::set_mark(*m, token, "0.42");
    auto const buy = get_json(*m, "/clob/price?token_id=" + token + "&side=BUY");
    auto const sell = get_json(*m, "/clob/price?token_id=" + token + "&side=SELL");
    CHECK(buy == json::parse(R"({"price":"0.41"})"));  // BUY: the best bid (gamma.md §3.4)
    CHECK(sell == json::parse(R"({"price":"0.43"})")); // SELL: the best ask
    CHECK(get_json(*m, "/clob/midpoint?token_id=" + token) == json::parse(R"({"mid":"0.42"})"));
    CHECK(get_json(*m, "/clob/spread?token_id=" + token) == json::parse(R"({"spread":"0.02"})"));
    auto const book = get_json(*m, "/clob/book?token_id=" + token);
    CHECK(book.at("bids").as_array().back().at("price") == "0.41");
    CHECK(book.at("asks").as_array().back().at("price") == "0.43");
    // The ccxt recording's ticker carries the /midpoint value as a string, like ours.
    CHECK(gamma_fixture("ccxt-fetchTicker.json").at("mid").is_string());
    auto const last = get_json(*m, "/clob/last-trade-price?token_id=" + token);
    CHECK(keys(last) == std::set<std::string>{"price", "side"});
    CHECK((last.at("side") == "BUY" || last.at("side") == "SELL"));
    check_error(get(*m, "/clob/price?token_id=" + token + "&side=UP"), 400, "Invalid side");
    check_error(get(*m, "/clob/price?token_id=" + token), 400, "Invalid side");
    // The catalog shows the same live prices.
    auto const mk = open_market(*m);
    CHECK(string_list(mk.at("outcomePrices")) == std::vector<std::string>{"0.42", "0.58"});
    CHECK(dec_json(mk.at("bestBid")) == dec_text("0.41"));
    CHECK(dec_json(mk.at("bestAsk")) == dec_text("0.43"));
}

TEST_CASE("gamma mock: a YES token mark moves its NO token to the complement",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const tokens = string_list(open_market(*m).at("clobTokenIds"));
    gateway::test::set_mark(*m, tokens[0], "0.7");
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
    auto const closed_token = yes_token(get_json(*m, "/markets/253591"));
    CHECK(fetch(http::verb::post, m->base_url() + "/__mock/mark",
                R"({"symbol":")" + closed_token + R"(","price":"0.5"})")
              .status == 404);
}

TEST_CASE("gamma mock: batch reads POST /books, /midpoints, /prices, /spreads, "
          "/last-trades-prices",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const a = yes_token(open_market(*m));
    auto const b = string_list(get_json(*m, "/markets/516703").at("clobTokenIds"))[1];
    auto const closed = yes_token(get_json(*m, "/markets/253591"));
    gateway::test::set_mark(*m, a, "0.42");
    gateway::test::set_mark(*m, string_list(get_json(*m, "/markets/516703").at("clobTokenIds"))[0],
                            "0.021");
    std::string const two = R"([{"token_id":")" + a + R"("},{"token_id":")" + b +
                            R"("},{"token_id":")" + closed + R"("},{"token_id":"123"}])";

    auto const books = post_json(*m, "/clob/books", two);
    REQUIRE(books.as_array().size() == 2); // no book for the closed and the unknown token
    auto const recorded = gamma_fixture("ccxt-fetchOrderBook.json");
    CHECK(keys(books.at(0)) == keys(recorded));
    CHECK(books.at(0).at("asset_id").as_string() == a);
    CHECK(books.at(1).at("asset_id").as_string() == b);
    CHECK(books.at(1).at("tick_size") == "0.001");
    CHECK(books.at(1).at("neg_risk") == true);
    CHECK(books.at(1).at("bids").as_array().back().at("price") == "0.978");

    CHECK(post_json(*m, "/clob/midpoints", two) ==
          json::parse(R"({")" + a + R"(":"0.42",")" + b + R"(":"0.979"})"));
    CHECK(post_json(*m, "/clob/spreads", two) ==
          json::parse(R"({")" + a + R"(":"0.02",")" + b + R"(":"0.002"})"));
    auto const prices =
        post_json(*m, "/clob/prices",
                  R"([{"token_id":")" + a + R"(","side":"BUY"},{"token_id":")" + a +
                      R"(","side":"SELL"},{"token_id":")" + b + R"(","side":"SELL"}])");
    CHECK(prices == json::parse(R"({")" + a + R"(":{"BUY":"0.41","SELL":"0.43"},")" + b +
                                R"(":{"SELL":"0.98"}})"));
    CHECK(get_json(*m, "/clob/prices?token_ids=" + a + "," + b + "&sides=BUY,SELL") ==
          json::parse(R"({")" + a + R"(":{"BUY":"0.41"},")" + b + R"(":{"SELL":"0.98"}})"));
    auto const lasts = post_json(*m, "/clob/last-trades-prices", two);
    REQUIRE(lasts.as_array().size() == 2);
    CHECK(keys(lasts.at(0)) == std::set<std::string>{"token_id", "price", "side"});

    SECTION("malformed bodies") {
        for (auto const* body : {"", "{}", "[1]", R"([{"token":"1"}])", R"([{"token_id":1}])",
                                 R"([{"token_id":"abc"}])", "not json"}) {
            CAPTURE(body);
            check_error(gamma_post(*m, "/clob/books", body), 400, "Invalid payload");
            check_error(gamma_post(*m, "/clob/midpoints", body), 400, "Invalid payload");
        }
        check_error(gamma_post(*m, "/clob/prices", R"([{"token_id":")" + a + R"("}])"), 400,
                    "Invalid payload");
        check_error(gamma_post(*m, "/clob/prices", R"([{"token_id":")" + a + R"(","side":"buy"}])"),
                    400, "Invalid payload");
        check_error(get(*m, "/clob/prices?token_ids=" + a + "&sides=BUY,SELL"), 400,
                    "Invalid payload");
        std::string big = "[";
        for (int i = 0; i < 501; ++i)
            big += std::string(i ? "," : "") + R"({"token_id":")" + a + R"("})";
        big += "]";
        check_error(gamma_post(*m, "/clob/books", big), 400, "Payload exceeds the limit");
        CHECK(gamma_post(*m, "/clob/books", "[]").body == "[]");
        auto const wrong = get(*m, "/clob/books");
        check_error(wrong, 405, "method not allowed");
        CHECK(wrong.message[http::field::allow] == "POST");
    }
}

TEST_CASE("gamma mock: tick size, neg risk and fee rate of any catalog token",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    auto const fine = yes_token(get_json(*m, "/markets/516703")); // tick 0.001, negRisk event
    auto const coarse = yes_token(open_market(*m));
    auto const closed = yes_token(get_json(*m, "/markets/253591"));
    auto const tick = get(*m, "/clob/tick-size?token_id=" + fine);
    CHECK(tick.body == R"({"minimum_tick_size":0.001})"); // a number (gamma.md §3.7)
    CHECK(get(*m, "/clob/tick-size?token_id=" + coarse).body == R"({"minimum_tick_size":0.01})");
    CHECK(get_json(*m, "/clob/neg-risk?token_id=" + fine) == json::parse(R"({"neg_risk":true})"));
    CHECK(get_json(*m, "/clob/neg-risk?token_id=" + coarse) ==
          json::parse(R"({"neg_risk":false})"));
    CHECK(get_json(*m, "/clob/fee-rate?token_id=" + coarse) == json::parse(R"({"base_fee":0})"));
    // Closed markets still have their tick and flag; unknown tokens have nothing.
    CHECK(get_json(*m, "/clob/tick-size?token_id=" + closed).at("minimum_tick_size") == 0.001);
    check_error(get(*m, "/clob/tick-size?token_id=12345"), 404, "market not found");
    check_error(get(*m, "/clob/neg-risk?token_id=12345"), 404, "market not found");
    check_error(get(*m, "/clob/tick-size"), 400, "Invalid token id");
    check_error(get(*m, "/clob/neg-risk?token_id=0x12"), 400, "Invalid token id");
}

TEST_CASE("gamma mock: CLOB token errors", "[contract][mock][gamma]") {
    auto m = start_gamma();
    for (auto const* path : {"/clob/book", "/clob/price", "/clob/midpoint", "/clob/spread"}) {
        CAPTURE(path);
        check_error(get(*m, path), 400, "Invalid token id");
        check_error(get(*m, std::string(path) + "?token_id=abc"), 400, "Invalid token id");
        check_error(get(*m, std::string(path) + "?token_id="), 400, "Invalid token id");
        check_error(get(*m, std::string(path) + "?token_id=12345&side=BUY"), 404, no_book_msg);
    }
    // Closed markets and AMM-era markets (enableOrderBook false) have no book.
    auto const closed_token = string_list(get_json(*m, "/markets/512044").at("clobTokenIds"))[1];
    check_error(get(*m, "/clob/book?token_id=" + closed_token), 404, no_book_msg);
    check_error(get(*m, "/clob/price?token_id=" + closed_token + "&side=BUY"), 404, no_book_msg);
    auto const amm = get_json(*m, "/markets?closed=false&limit=500");
    std::string amm_token;
    for (auto const& x : amm.as_array())
        if (x.at("enableOrderBook") == false)
            amm_token = yes_token(x);
    REQUIRE(!amm_token.empty());
    check_error(get(*m, "/clob/midpoint?token_id=" + amm_token), 404, no_book_msg);
    // ...but their last trade is known.
    auto const last = get_json(*m, "/clob/last-trade-price?token_id=" + closed_token);
    CHECK(last.at("price").is_string());
    check_error(get(*m, "/clob/unknown"), 404, "not found");
    auto const wrong = fetch(http::verb::delete_, m->base_url() + "/clob/prices");
    check_error(wrong, 405, "method not allowed");
    CHECK(wrong.message[http::field::allow] == "GET, POST");
}

TEST_CASE("gamma mock: CLOB /markets pages with next_cursor, and /markets/{condition_id}",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    std::set<std::string> conditions;
    std::string cursor = "MA==";
    int pages = 0;
    while (cursor != "LTE=") {
        auto const page = get_json(*m, "/clob/markets?next_cursor=" + cursor);
        CHECK(keys(page) == std::set<std::string>{"limit", "count", "next_cursor", "data"});
        CHECK(page.at("count") == page.at("data").as_array().size());
        for (auto const& x : page.at("data").as_array()) {
            for (auto const* k :
                 {"condition_id", "question_id", "question", "market_slug", "active", "closed",
                  "archived", "accepting_orders", "enable_order_book", "minimum_order_size",
                  "minimum_tick_size", "neg_risk", "end_date_iso", "seconds_delay",
                  "is_50_50_outcome", "tokens", "tags"})
                CHECK(x.as_object().contains(k));
            CHECK(x.at("minimum_tick_size").is_string());
            REQUIRE(x.at("tokens").as_array().size() == 2);
            for (auto const& t : x.at("tokens").as_array())
                CHECK(keys(t) == std::set<std::string>{"token_id", "outcome", "price", "winner"});
            conditions.insert(std::string(x.at("condition_id").as_string()));
        }
        cursor = std::string(page.at("next_cursor").as_string());
        REQUIRE(++pages < 10);
    }
    CHECK(pages == 2);
    CHECK(conditions.size() > 500);
    CHECK(get_json(*m, "/clob/markets").at("data") ==
          get_json(*m, "/clob/markets?next_cursor=MA==").at("data"));

    auto const trump = get_json(*m, "/markets/253591");
    auto const one =
        get_json(*m, "/clob/markets/" + std::string(trump.at("conditionId").as_string()));
    CHECK(one.at("question") == trump.at("question"));
    CHECK(one.at("closed") == true);
    CHECK(one.at("tokens").at(0).at("winner") == true);
    CHECK(one.at("tokens").at(1).at("winner") == false);
    CHECK(one.at("tokens").at(0).at("token_id").as_string() == yes_token(trump));
    check_error(get(*m, "/clob/markets/0x1234"), 404, "market not found");
    check_error(get(*m, "/clob/markets?next_cursor=abc"), 400, "invalid next_cursor");
    check_error(get(*m, "/clob/markets?next_cursor=Zm9v"), 400, "invalid next_cursor");
}

TEST_CASE("gamma mock: request budgets answer 429 in the CLOB's error shape",
          "[contract][mock][gamma]") {
    auto const token_of = [](mock_server const& m) {
        return yes_token(open_market(m));
    };
    SECTION("the tick-size budget is 200 per 10 s; others are unaffected") {
        auto m = start_gamma();
        auto const token = token_of(*m);
        for (int i = 0; i < 200; ++i)
            REQUIRE(get(*m, "/clob/tick-size?token_id=" + token).status == 200);
        auto const over = get(*m, "/clob/tick-size?token_id=" + token);
        check_error(over, 429, "Too Many Requests");
        auto const retry = std::stoi(std::string(over.message[http::field::retry_after]));
        CHECK(retry >= 1);
        CHECK(retry <= 10);
        // Only that endpoint's budget is spent; the refused request consumed nothing.
        CHECK(get(*m, "/clob/book?token_id=" + token).status == 200);
        CHECK(get(*m, "/events?limit=1").status == 200);
    }
    SECTION("mock_options::rate_limits off lifts them") {
        mock_options o{upstream::gamma};
        o.rate_limits = false;
        auto m = mock_server::start(o);
        auto const token = token_of(*m);
        for (int i = 0; i < 201; ++i)
            REQUIRE(get(*m, "/clob/tick-size?token_id=" + token).status == 200);
    }
}

TEST_CASE("gamma mock: faults answer in the upstream's error shape on catalog and CLOB paths",
          "[contract][mock][gamma]") {
    auto m = start_gamma();
    gateway::test::mock_post(*m, "/__mock/faults", R"({"status":429})");
    check_error(get(*m, "/events"), 429, "Too Many Requests");
    check_error(gamma_post(*m, "/clob/books", "[]"), 429, "Too Many Requests");
    gateway::test::mock_post(*m, "/__mock/faults", R"({"status":502})");
    check_error(get(*m, "/markets/516750"), 502, "Bad Gateway");
    gateway::test::mock_post(*m, "/__mock/faults", R"({"drop":true})");
    CHECK_THROWS_AS(get(*m, "/clob/midpoint?token_id=1"), std::runtime_error);
    gateway::test::mock_post(*m, "/__mock/faults", R"({"latencyMs":120})");
    auto const t0 = std::chrono::steady_clock::now();
    CHECK(get(*m, "/events/16085").status == 200);
    CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(120));
    REQUIRE(fetch(http::verb::delete_, m->base_url() + "/__mock/faults").status == 200);
    CHECK(get(*m, "/clob/").status == 200);
}

TEST_CASE("gamma mock: stats kinds are method and path", "[contract][mock][gamma]") {
    auto m = start_gamma();
    get(*m, "/events?closed=false");
    get(*m, "/events/16085");
    get(*m, "/clob/book?token_id=1");
    get(*m, "/clob/book?token_id=2");
    gamma_post(*m, "/clob/midpoints", "[]");
    auto const s = json::parse(fetch(http::verb::get, m->base_url() + "/__mock/stats").body);
    CHECK(s.at("requests") == 5);
    CHECK(s.at("byKind") == json::parse(R"({"GET /events":1,"GET /events/16085":1,
                                           "GET /clob/book":2,"POST /clob/midpoints":1})")
                                .as_object());
}
