// Unit tests of the gamma adapter's pure mappings (reference-server/src/providers/gamma/
// gamma_map.hpp) and its wire knowledge (include/gateway/providers/gamma/): the bodies
// upstreams/gamma.md quotes and ccxt's recorded CLOB book (tests/fixtures/gamma, see its README),
// and hand-made variants of them, in; contract types out, every value checked as the exact wire
// string.
#include "support/catch_result.hpp"

#include "providers/gamma/gamma_map.hpp"

#include <gateway/providers/gamma.hpp>
#include <gateway/util/time.hpp>

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#ifndef GATEWAY_FIXTURES_DIR
#error "GATEWAY_FIXTURES_DIR must name the absolute path of tests/fixtures"
#endif

using namespace gateway;
using namespace gateway::server;
namespace json = boost::json;
namespace g = gateway::server::gamma;
namespace w = gateway::wire::gamma;

namespace {

/// 2026-01-01T00:00:00Z: after every date of gamma.md's bodies.
constexpr std::int64_t gamma_now = 1767225600000;

json::value gamma_fixture(std::string const& name) {
    std::string const path = std::string(GATEWAY_FIXTURES_DIR) + "/gamma/" + name;
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

/// A body upstreams/gamma.md quotes (tests/fixtures/gamma/gamma-md.json).
json::value gamma_doc(std::string const& name) {
    return gamma_fixture("gamma-md.json").at("bodies").at(name);
}

/// gamma.md's market with `changes` merged over it (a key set to null is removed).
json::value market_with(std::string const& changes) {
    auto m = gamma_doc("market");
    auto const parsed = json::parse(changes);
    for (auto const& kv : parsed.as_object()) {
        if (kv.value().is_null() && kv.key() != "umaResolutionStatus")
            m.as_object().erase(kv.key());
        else
            m.as_object()[kv.key()] = kv.value();
    }
    return m;
}

std::set<std::string> key_set(json::value const& v) {
    std::set<std::string> out;
    for (auto const& kv : v.as_object())
        out.insert(std::string(kv.key()));
    return out;
}

g::catalog_market read_market(json::value const& v, std::int64_t now = gamma_now) {
    auto m = g::parse_market(v, "", now);
    INFO(json::serialize(v));
    REQUIRE(m);
    return *m;
}

template <class T>
void check_upstream_error(result<T> const& r, std::string const& part) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::upstream_error);
    CHECK(r.error().status == 502);
    CHECK_THAT(r.error().message, Catch::Contains(part));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Events and markets from gamma.md's bodies

TEST_CASE("gamma event: gamma.md's body as a contract event, category from its first tag",
          "[unit][gamma]") {
    auto e = g::parse_event(gamma_doc("event"), gamma_now);
    REQUIRE(e);
    CHECK(e->event_id == "26359");
    CHECK(e->title == "Nationals vs. Mets");
    CHECK(e->category == "Sports"); // "category": null, tags [{"label":"Sports"}]
    CHECK(e->status == market_status::active);
    CHECK(e->end_date == "2025-06-10T23:10:00.000Z");
    CHECK(e->volume.str() == "179054.06"); // a JSON number upstream, exact here
    CHECK(e->liquidity.str() == "174569.53");
    REQUIRE(e->markets.size() == 1);
    auto const& m = e->markets[0].market;
    CHECK(m.market_id == "550834");
    CHECK(m.event_id == "26359");
    CHECK(m.question == "Nationals vs. Mets");
    CHECK(m.outcomes == std::vector<std::string>{"Nationals", "Mets"}); // JSON in a string
    CHECK(m.status == market_status::active);
    CHECK(m.volume.str() == "1234.5");
    REQUIRE(m.tokens.size() == 2);
    CHECK(m.tokens[0].token_id ==
          "115093477542595845459769642510663906754645636077470857739371815633441497856930");
    CHECK(m.tokens[0].outcome == "Nationals");
    CHECK(m.tokens[0].price.str() == "0.5"); // the catalog's until the CLOB says otherwise
    CHECK(m.tokens[1].token_id ==
          "111033623022233125288447078063536634338953857359981191096322678314504369414568");
    CHECK(m.tokens[1].outcome == "Mets");
    CHECK(m.tokens[1].price.str() == "0.5");
    CHECK(e->markets[0].on_book);

    SECTION("the listing's event: spec 2.13's keys, markets without eventId, status, volume") {
        auto const v = json::value_from(g::to_event(*e));
        CHECK(key_set(v) == std::set<std::string>{"eventId", "title", "category", "status",
                                                  "endDate", "volume", "liquidity", "markets"});
        CHECK(key_set(v.at("markets").at(0)) ==
              std::set<std::string>{"marketId", "question", "outcomes", "tokens"});
        CHECK(key_set(v.at("markets").at(0).at("tokens").at(0)) ==
              std::set<std::string>{"tokenId", "outcome", "price"});
    }
    SECTION("the event detail: every market complete (spec 2.14)") {
        auto const v = json::value_from(g::to_event_detail(*e));
        CHECK(key_set(v.at("markets").at(0)) ==
              std::set<std::string>{"marketId", "eventId", "question", "outcomes", "status",
                                    "volume", "tokens"});
        CHECK(v.at("markets").at(0).at("eventId") == "26359");
    }
}

TEST_CASE("gamma market: gamma.md's body, its event from the events back-reference",
          "[unit][gamma]") {
    auto const m = read_market(gamma_doc("market")).market;
    CHECK(m.market_id == "550834");
    CHECK(m.event_id == "26359");
    CHECK(m.status == market_status::active);
    CHECK(m.volume.str() == "1234.5");
    CHECK(json::value_from(m) == json::parse(R"({
        "marketId":"550834","eventId":"26359","question":"Nationals vs. Mets",
        "outcomes":["Nationals","Mets"],"status":"active","volume":"1234.5",
        "tokens":[
          {"tokenId":"115093477542595845459769642510663906754645636077470857739371815633441497856930",
           "outcome":"Nationals","price":"0.5"},
          {"tokenId":"111033623022233125288447078063536634338953857359981191096322678314504369414568",
           "outcome":"Mets","price":"0.5"}]})"));

    SECTION("without a back-reference, the event it was listed in") {
        auto v = market_with(R"({"events":null})");
        auto parsed = g::parse_market(v, "777", gamma_now);
        REQUIRE(parsed);
        CHECK(parsed->market.event_id == "777");
    }
}

TEST_CASE("gamma JSON-in-a-string fields: strings holding arrays, real arrays, numbers inside",
          "[unit][gamma]") {
    CHECK(g::string_list(json::value("[\"Yes\", \"No\"]")) ==
          std::vector<std::string>{"Yes", "No"});
    CHECK(g::string_list(json::parse(R"(["Yes","No"])")) == std::vector<std::string>{"Yes", "No"});
    CHECK(g::string_list(json::value("[0.5, 1]")) == std::vector<std::string>{"0.5", "1"});
    CHECK(g::string_list(json::value("[]")) == std::vector<std::string>{});
    CHECK_FALSE(g::string_list(json::value("Yes, No")));
    CHECK_FALSE(g::string_list(json::value("{\"a\":1}")));
    CHECK_FALSE(g::string_list(json::value(3)));

    SECTION("a market whose outcomePrices are numbers in the string") {
        auto const m = read_market(market_with(R"({"outcomePrices":"[0.25, 0.75]"})")).market;
        CHECK(m.tokens[0].price.str() == "0.25");
        CHECK(m.tokens[1].price.str() == "0.75");
    }
    SECTION("a market with no token ids has no tokens and is not asked of the CLOB") {
        auto const m = read_market(market_with(R"({"clobTokenIds":null})"));
        CHECK(m.market.outcomes.size() == 2);
        CHECK(m.market.tokens.empty());
        CHECK_FALSE(m.on_book);
    }
    SECTION("a garbled outcomePrices leaves the catalog price at 0") {
        auto const m = read_market(market_with(R"({"outcomePrices":"not json"})")).market;
        CHECK(m.tokens[0].price.str() == "0");
        CHECK(m.tokens[1].price.str() == "0");
    }
}

TEST_CASE("gamma numbers: strings or numbers in, plain decimal strings out", "[unit][gamma]") {
    SECTION("volumeNum wins over volume") {
        auto const m = read_market(market_with(R"({"volumeNum":1234.56,"volume":"1"})")).market;
        CHECK(m.volume.str() == "1234.56");
    }
    SECTION("volume (a string) when volumeNum is absent, trailing zeros dropped") {
        auto const m = read_market(market_with(R"({"volumeNum":null,"volume":"12.50"})")).market;
        CHECK(m.volume.str() == "12.5");
    }
    SECTION("a brand-new market without volume keys has volume 0") {
        auto const m = read_market(market_with(R"({"volumeNum":null,"volume":null})")).market;
        CHECK(m.volume.str() == "0");
    }
    SECTION("an event without volume and liquidity has 0 and 0") {
        auto ev = gamma_doc("event");
        ev.as_object().erase("volume");
        ev.as_object().erase("liquidity");
        auto e = g::parse_event(ev, gamma_now);
        REQUIRE(e);
        CHECK(e->volume.str() == "0");
        CHECK(e->liquidity.str() == "0");
    }
    SECTION("an exponent-sized number is written in plain notation") {
        auto ev = gamma_doc("event");
        ev.as_object()["volume"] = 3.68633505929e9;
        auto e = g::parse_event(ev, gamma_now);
        REQUIRE(e);
        CHECK(e->volume.str() == "3686335059.29");
    }
}

// ---------------------------------------------------------------------------------------------
// Status rules (gamma.md §2.6, CONTRACT §4)

TEST_CASE("gamma market status: resolved once a resolution is reported, else closed when closed, "
          "else active",
          "[unit][gamma]") {
    auto [changes, expected] = GENERATE(table<std::string, market_status>({
        // resolved: closed and a reported resolution
        {R"({"closed":true,"umaResolutionStatus":"resolved","outcomePrices":"[\"1\", \"0\"]"})",
         market_status::resolved},
        {R"({"closed":true,"umaResolutionStatus":"resolved"})", market_status::resolved},
        {R"({"closed":true,"outcomePrices":"[\"0\", \"1\"]"})", market_status::resolved},
        {R"({"closed":true,"outcomePrices":"[\"0.5\", \"0.5\"]"})", market_status::resolved},
        // closed: closed without a resolution, archived, inactive, ended and not accepting
        {R"({"closed":true,"umaResolutionStatus":"proposed","outcomePrices":"[\"0.9995\", \"0.0005\"]"})",
         market_status::closed},
        {R"({"closed":true,"outcomePrices":"[\"0.7\", \"0.3\"]"})", market_status::closed},
        {R"({"closed":true,"umaResolutionStatus":"disputed","outcomePrices":"[\"0.2\", \"0.8\"]"})",
         market_status::closed},
        {R"({"archived":true})", market_status::closed},
        {R"({"active":false})", market_status::closed},
        {R"({"acceptingOrders":false,"endDate":"2025-06-17T23:10:00Z"})", market_status::closed},
        // active: open, even with settled-looking prices or not accepting before its end
        {R"({"outcomePrices":"[\"1\", \"0\"]"})", market_status::active},
        {R"({"umaResolutionStatus":"resolved"})", market_status::active},
        {R"({"acceptingOrders":false,"endDate":"2027-01-01T00:00:00Z"})", market_status::active},
        {R"({"active":true,"closed":false})", market_status::active},
    }));
    CAPTURE(changes);
    auto const m = read_market(market_with(changes));
    CHECK(m.market.status == expected);
    // Only an open market with a book is asked of the CLOB.
    CHECK(m.on_book == !market_with(changes).at("closed").as_bool());
}

TEST_CASE("gamma event status: resolved when every market is, closed when closed, else active",
          "[unit][gamma]") {
    auto const resolved = R"({"closed":true,"umaResolutionStatus":"resolved",
                              "outcomePrices":"[\"1\", \"0\"]"})";
    auto const closed = R"({"closed":true,"outcomePrices":"[\"0.6\", \"0.4\"]"})";
    auto const open = R"({})";
    auto event_of = [](std::string const& event_changes, std::vector<char const*> markets) {
        auto ev = gamma_doc("event");
        auto const parsed = json::parse(event_changes);
        for (auto const& kv : parsed.as_object())
            ev.as_object()[kv.key()] = kv.value();
        json::array ms;
        int id = 1;
        for (auto const* m : markets) {
            auto mv = market_with(m);
            mv.as_object()["id"] = std::to_string(id++);
            ms.push_back(std::move(mv));
        }
        ev.as_object()["markets"] = std::move(ms);
        auto e = g::parse_event(ev, gamma_now);
        REQUIRE(e);
        return e->status;
    };
    CHECK(event_of(R"({"closed":true})", {resolved, resolved}) == market_status::resolved);
    CHECK(event_of(R"({"closed":false})", {resolved}) == market_status::resolved);
    CHECK(event_of(R"({"closed":true})", {resolved, closed}) == market_status::closed);
    CHECK(event_of(R"({"closed":true})", {}) == market_status::closed);
    CHECK(event_of(R"({"closed":false})", {closed, resolved}) == market_status::closed);
    CHECK(event_of(R"({"archived":true})", {open}) == market_status::closed);
    CHECK(event_of(R"({"active":false})", {open}) == market_status::closed);
    // A multi-market event stays open while one market still trades.
    CHECK(event_of(R"({"closed":false})", {resolved, open}) == market_status::active);
    CHECK(event_of(R"({"closed":false})", {}) == market_status::active);
}

// ---------------------------------------------------------------------------------------------
// Dates and categories

TEST_CASE("gamma dates: every upstream form as ISO 8601 UTC with milliseconds", "[unit][gamma]") {
    auto [text, iso] = GENERATE(table<std::string, std::string>({
        {"2025-06-10T23:10:00Z", "2025-06-10T23:10:00.000Z"},
        {"2025-06-09T08:02:22.334142Z", "2025-06-09T08:02:22.334Z"},
        {"2025-06-09T08:02:22.3Z", "2025-06-09T08:02:22.300Z"},
        {"2026-07-07 21:25:17+00", "2026-07-07T21:25:17.000Z"},
        {"2026-07-07T23:25:17+02:00", "2026-07-07T21:25:17.000Z"},
        {"2026-07-07T16:25:17-0500", "2026-07-07T21:25:17.000Z"},
        {"2026-12-09", "2026-12-09T00:00:00.000Z"},
        {"2026-12-09T12:00", "2026-12-09T12:00:00.000Z"},
        {"2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"},
    }));
    CAPTURE(text);
    auto const ms = g::parse_time(text);
    REQUIRE(ms);
    CHECK(util::iso8601_utc(*ms) == iso);

    SECTION("an event's endDate is written in that form") {
        auto ev = gamma_doc("event");
        ev.as_object()["endDate"] = text;
        auto e = g::parse_event(ev, gamma_now);
        REQUIRE(e);
        CHECK(e->end_date == iso);
    }
}

TEST_CASE("gamma dates: what is not a date is refused, and an event falls back to its markets'",
          "[unit][gamma]") {
    for (auto const* bad :
         {"", "yesterday", "2026-13-01", "2026-12-32", "2026/12/09", "2026-12-09X10:00",
          "2026-12-09T25:00:00Z", "2026-12-09T10:00:00.Z", "2026-12-09T10:00:00+5"}) {
        CAPTURE(bad);
        CHECK_FALSE(g::parse_time(bad));
    }
    auto ev = gamma_doc("event");
    ev.as_object().erase("endDate");
    auto e = g::parse_event(ev, gamma_now);
    REQUIRE(e);
    CHECK(e->end_date == "2025-06-17T23:10:00.000Z"); // its market's endDate

    ev.as_object()["endDate"] = "soon";
    ev.as_object()["markets"] = json::array{};
    e = g::parse_event(ev, gamma_now);
    REQUIRE(e);
    CHECK(e->end_date.empty());
}

TEST_CASE("gamma category: the event's category, else its first tag's label, else empty",
          "[unit][gamma]") {
    auto with = [](std::string const& changes) {
        auto ev = gamma_doc("event");
        auto const parsed = json::parse(changes);
        for (auto const& kv : parsed.as_object())
            ev.as_object()[kv.key()] = kv.value();
        return g::category_of(ev.as_object());
    };
    CHECK(with(R"({"category":"Politics"})") == "Politics");
    CHECK(with(R"({"category":null})") == "Sports");
    CHECK(with(R"({"category":""})") == "Sports");
    CHECK(with(R"({"category":null,"tags":[{"id":"2","label":"Politics"},{"label":"Sports"}]})") ==
          "Politics");
    CHECK(with(R"({"category":null,"tags":[]})").empty());
    auto ev = gamma_doc("event");
    ev.as_object().erase("category");
    ev.as_object().erase("tags");
    CHECK(g::category_of(ev.as_object()).empty());
}

// ---------------------------------------------------------------------------------------------
// Prices from the CLOB

TEST_CASE(
    "gamma midpoints: gamma.md's body, numbers too, and a token without one keeps the catalog "
    "price",
    "[unit][gamma]") {
    auto mids = g::parse_midpoints(gamma_doc("midpoints"));
    REQUIRE(mids);
    REQUIRE(mids->size() == 1);
    CHECK(mids->at("T").str() == "0.425");

    auto numbers = g::parse_midpoints(json::parse(R"({"A":0.425,"B":"0.5000"})"));
    REQUIRE(numbers);
    CHECK(numbers->at("A").str() == "0.425");
    CHECK(numbers->at("B").str() == "0.5");
    check_upstream_error(g::parse_midpoints(json::parse("[]")), "midpoints");
    check_upstream_error(g::parse_midpoints(json::parse(R"({"A":"x"})")), "midpoints (A)");

    auto m = read_market(gamma_doc("market"));
    auto const yes = m.market.tokens[0].token_id;
    auto const no = m.market.tokens[1].token_id;
    g::midpoints const only_yes{{yes, decimal::parse("0.515").value()}};
    g::apply_midpoints(m, only_yes);
    CHECK(m.market.tokens[0].price.str() == "0.515"); // the CLOB's midpoint
    CHECK(m.market.tokens[1].price.str() == "0.5");   // no book: the catalog's outcome price

    SECTION("a closed market's tokens keep the catalog's final prices") {
        auto closed =
            read_market(market_with(R"({"closed":true,"outcomePrices":"[\"1\", \"0\"]"})"));
        g::apply_midpoints(closed, g::midpoints{{yes, decimal::parse("0.3").value()}});
        CHECK(closed.market.tokens[0].price.str() == "1");
    }
    SECTION("the tokens asked: those of markets on the book, each once") {
        auto const again = read_market(gamma_doc("market"));
        auto const closed = read_market(market_with(R"({"closed":true})"));
        auto const tokens = g::book_tokens({&again, &closed, &again});
        CHECK(tokens == std::vector<std::string>{yes, no});
    }
}

// ---------------------------------------------------------------------------------------------
// Order books

TEST_CASE("gamma book: ccxt's recorded /book, bids high to low and asks low to high, cut to depth",
          "[unit][gamma]") {
    auto const body =
        gamma_fixture("ccxt-fetchOrderBook.json").at("entries").at(0).at("httpResponse");
    std::string const token =
        "16040015440196279900485035793550429453516625694844857319147506590755961451627";
    auto book = g::to_orderbook(body, token, 20);
    REQUIRE(book);
    CHECK(book->symbol == token);
    CHECK(book->timestamp == 1781289337944);
    REQUIRE(book->bids.size() == 5);
    REQUIRE(book->asks.size() == 5);
    CHECK(book->bids.front().price.str() == "0.005"); // the upstream's last bid is its best
    CHECK(book->bids.front().size.str() == "1000");
    CHECK(book->bids.back().price.str() == "0.001");
    CHECK(book->asks.front().price.str() == "0.995");
    CHECK(book->asks.front().size.str() == "222222");
    CHECK(book->asks.back().price.str() == "0.999");
    for (std::size_t i = 1; i < 5; ++i) {
        CHECK(book->bids[i - 1].price > book->bids[i].price);
        CHECK(book->asks[i - 1].price < book->asks[i].price);
    }

    auto two = g::to_orderbook(body, token, 2);
    REQUIRE(two);
    CHECK(two->bids.size() == 2);
    CHECK(two->asks.size() == 2);
    CHECK(two->bids[1].price.str() == "0.004");
    CHECK(two->asks[1].price.str() == "0.996");
}

TEST_CASE("gamma book: gamma.md's body, empty or missing sides, garbage refused", "[unit][gamma]") {
    auto book = g::to_orderbook(gamma_doc("book"), "T", 20);
    REQUIRE(book);
    CHECK(json::value_from(*book) == json::parse(R"({"symbol":"T",
        "bids":[{"price":"0.42","size":"150"},{"price":"0.01","size":"2260866.89"}],
        "asks":[{"price":"0.43","size":"120"},{"price":"0.99","size":"2253252.59"}],
        "timestamp":1786385407185})"));

    auto empty =
        g::to_orderbook(json::parse(R"({"asset_id":"T","bids":[],"timestamp":"5"})"), "T", 20);
    REQUIRE(empty);
    CHECK(empty->bids.empty());
    CHECK(empty->asks.empty());
    CHECK(empty->timestamp == 5);

    // Leading-dot prices (gamma.md §7.1) read leniently.
    auto dots = g::to_orderbook(json::parse(R"({"bids":[{"price":".48","size":"30"}]})"), "T", 20);
    REQUIRE(dots);
    CHECK(dots->bids.at(0).price.str() == "0.48");

    check_upstream_error(g::to_orderbook(json::parse("[]"), "T", 20), "book");
    check_upstream_error(g::to_orderbook(json::parse(R"({"bids":{}})"), "T", 20), "book bids");
    check_upstream_error(
        g::to_orderbook(json::parse(R"({"asks":[{"price":"x","size":"1"}]})"), "T", 20),
        "book asks[0]");
}

// ---------------------------------------------------------------------------------------------
// Malformed bodies and upstream errors

TEST_CASE("gamma: a body of the wrong kind, or an item without an id, is UPSTREAM_ERROR",
          "[unit][gamma]") {
    check_upstream_error(g::parse_event(json::parse("[]"), gamma_now), "event");
    check_upstream_error(g::parse_event(json::parse(R"({"title":"x"})"), gamma_now), "no id");
    check_upstream_error(g::parse_market(json::parse(R"({"question":"x"})"), "", gamma_now),
                         "no id");
    auto ev = gamma_doc("event");
    ev.as_object()["markets"] = json::parse(R"([{"question":"no id"}])");
    check_upstream_error(g::parse_event(ev, gamma_now), "market");
    ev.as_object()["markets"] = "[]";
    check_upstream_error(g::parse_event(ev, gamma_now), "markets");
    check_upstream_error(g::page_items(json::parse(R"({"data":[]})"), "gamma catalog /events"),
                         "/events");
    auto numeric = g::parse_event(json::parse(R"({"id":26359})"), gamma_now);
    REQUIRE(numeric);
    CHECK(numeric->event_id == "26359");
    CHECK(numeric->markets.empty());
}

TEST_CASE("gamma read errors: the upstream's 404 and invalid token mean missing, the rest upstream "
          "errors",
          "[unit][gamma]") {
    auto answer = [](unsigned status, std::string const& body) {
        upstream_answer a;
        a.status = status;
        boost::system::error_code ec;
        a.body = json::parse(body, ec);
        if (ec) {
            a.body = nullptr;
            a.text = body;
        }
        return a;
    };
    auto const no_book =
        g::read_error("gamma CLOB", answer(404, w::error_body(w::no_orderbook.msg)));
    CHECK(no_book.code == errc::upstream_error);
    CHECK(g::upstream_missing(no_book));
    CHECK(no_book.details.at("upstreamStatus") == 404);

    auto const not_found = g::read_error("gamma catalog", answer(404, R"({"error":"not found"})"));
    CHECK(g::upstream_missing(not_found));
    CHECK(not_found.message == "The gamma catalog upstream answered HTTP 404: not found.");

    auto const bad_token =
        g::read_error("gamma CLOB", answer(400, w::error_body(w::invalid_token_id.msg)));
    CHECK(g::upstream_missing(bad_token));

    auto const bad_payload =
        g::read_error("gamma CLOB", answer(400, w::error_body(w::invalid_payload.msg)));
    CHECK_FALSE(g::upstream_missing(bad_payload));
    CHECK(bad_payload.status == 502);
    CHECK(bad_payload.message == "The gamma CLOB upstream answered HTTP 400: Invalid payload.");

    auto const broken = g::read_error("gamma CLOB", answer(500, "oops"));
    CHECK(broken.code == errc::upstream_error);
    CHECK_FALSE(g::upstream_missing(broken));
    CHECK(broken.message == "The gamma CLOB upstream answered HTTP 500.");

    for (unsigned status : {425u, 503u}) {
        auto const restarting = g::read_error("gamma CLOB", answer(status, R"({"error":"x"})"));
        CHECK(restarting.code == errc::provider_unavailable);
        CHECK(restarting.status == 503);
        CHECK(restarting.retry_after.has_value());
        CHECK_FALSE(g::upstream_missing(restarting));
    }
    CHECK_FALSE(g::upstream_missing(make_error(errc::upstream_timeout, "slow")));
}

// ---------------------------------------------------------------------------------------------
// wire::gamma (shared with mock-gamma)

TEST_CASE("wire::gamma: request targets, batch bodies and ids", "[unit][gamma]") {
    CHECK(w::target(w::events_path, w::catalog_page(false, 100, 200)) ==
          "/events?closed=false&limit=100&offset=200");
    CHECK(w::target(w::markets_path, w::catalog_page(true, 5, 0)) ==
          "/markets?closed=true&limit=5&offset=0");
    CHECK(w::event_path("26359") == "/events/26359");
    CHECK(w::market_path("550834") == "/markets/550834");
    CHECK(w::target(w::book_path, w::token_query("123")) == "/book?token_id=123");
    CHECK(w::token_batch({"1", "22"}) == R"([{"token_id":"1"},{"token_id":"22"}])");
    CHECK(w::token_batch({}) == "[]");
    CHECK(w::is_catalog_id("26359"));
    CHECK_FALSE(w::is_catalog_id(""));
    CHECK_FALSE(w::is_catalog_id("../markets"));
    CHECK_FALSE(w::is_catalog_id("12a"));
    CHECK(w::is_token_id(
        "115093477542595845459769642510663906754645636077470857739371815633441497856930"));
    CHECK_FALSE(w::is_token_id("0x12"));
    CHECK_FALSE(w::is_token_id(std::string(79, '1')));
    CHECK(w::error_body("Invalid token id") == R"({"error":"Invalid token id"})");
    CHECK(w::error_message(json::parse(w::error_body("x\"y"))) == "x\"y");
    CHECK_FALSE(w::error_message(json::parse(R"({"code":1})")));
}

TEST_CASE("wire::gamma: endpoint limits become weights within one budget per upstream",
          "[unit][gamma]") {
    STATIC_REQUIRE(w::catalog_weight("/events") == 8); // 4000 / 500
    STATIC_REQUIRE(w::catalog_weight("/events/26359") == 8);
    STATIC_REQUIRE(w::catalog_weight("/markets") == 14); // 4000 / 300, rounded up
    STATIC_REQUIRE(w::catalog_weight("/markets/1") == 14);
    STATIC_REQUIRE(w::catalog_weight("/eventsx") == 1);
    STATIC_REQUIRE(w::catalog_weight("/sports") == 1);
    STATIC_REQUIRE(w::clob_weight("/book") == 6);   // 9000 / 1500
    STATIC_REQUIRE(w::clob_weight("/books") == 18); // 9000 / 500
    STATIC_REQUIRE(w::clob_weight("/midpoint") == 6);
    STATIC_REQUIRE(w::clob_weight("/midpoints") == 18);
    STATIC_REQUIRE(w::clob_weight("/tick-size") == 45); // 9000 / 200
    STATIC_REQUIRE(w::clob_weight("/") == 1);
    STATIC_REQUIRE(w::clob_weight("/time") == 1);
    // Spending a whole budget on one endpoint stays within that endpoint's own limit, and the
    // two listings together within their shared 900.
    for (auto const& l : w::catalog_limits)
        CHECK(w::catalog_budget / w::catalog_weight(l.path) <= l.per_window);
    for (auto const& l : w::clob_limits)
        CHECK(w::clob_budget / w::clob_weight(l.path) <= l.per_window);
    CHECK(w::catalog_budget / w::catalog_weight("/events") <= 900);
}
