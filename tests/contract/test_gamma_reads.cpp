// Provider gamma's reads through the SDK client -> gatewayd -> mock-gamma, offline (spec 2.13,
// 2.14, 4.6, 8; CONTRACT §1-4, §7, §10). The Gamma catalog and the CLOB are two mock-gamma
// instances here (the catalog at the test gateway's mock, the CLOB at a second one with another
// seed), so a token's price shows which upstream it came from: marks are pinned apart on the two
// through the mock control API, and each upstream's calls are counted on its own /__mock/stats.
//
// mock-gamma's catalog (mocks/src/gamma/gamma_catalog.hpp): 184 events, 91 open upstream and 93
// closed, 512 markets; 16085 (Fed, negRisk, 3 open markets, tags Economy), 903 (Politics,
// resolved), 15877 (closed, resolution proposed), 20131 (archived, every market resolved), 20129
// (open, 2 of its 6 markets resolved), 600466 (an AMM-era market without a book), 600014 (a
// brand-new market without volume keys). Through the gateway: 91 events active, 11 closed, 82
// resolved; markets 253 active, 25 closed (19 proposed, 6 disputed), 234 resolved.
#include <catch2/catch.hpp>

#include "support/api.hpp"
#include "support/catch_result.hpp"
#include "support/mock_control.hpp"
#include "support/shapes.hpp"
#include "support/test_gateway.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <thread>

using namespace gateway;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;

namespace {

/// A second mock-gamma serving gamma's CLOB (seed 7: its walk differs from the catalog's).
std::unique_ptr<mocks::mock_server> start_clob_mock() {
    mocks::mock_options o;
    o.kind = mocks::upstream::gamma;
    o.seed = 7;
    return mocks::mock_server::start(o);
}

/// A test gateway whose gamma CLOB is `clob`; `extra` adjusts the configuration further.
std::unique_ptr<test_gateway>
gamma_gateway(mocks::mock_server const& clob,
              std::function<void(server::server_config&)> const& extra = {}) {
    return std::make_unique<test_gateway>([&](server::server_config& cfg) {
        cfg.providers["gamma"].clob_base_url = clob.base_url() + "/clob";
        if (extra)
            extra(cfg);
    });
}

/// A JSON-in-a-string list of the upstream (`"[\"Yes\", \"No\"]"`).
std::vector<std::string> gamma_list(json::value const& v) {
    auto const parsed = json::parse(v.as_string()); // kept: the list is read from it
    auto const& items = parsed.as_array();
    std::vector<std::string> out(items.size());
    std::transform(items.begin(), items.end(), out.begin(),
                   [](json::value const& item) { return std::string(item.as_string()); });
    return out;
}

/// The outcome token ids of catalog market `id`, read from the mock directly.
std::vector<std::string> gamma_tokens(mocks::mock_server const& catalog, std::string const& id) {
    auto r = fetch(verb::get, catalog.base_url() + "/markets/" + id);
    REQUIRE(r.status == 200);
    return gamma_list(json::parse(r.body).at("clobTokenIds"));
}

/// Requests a mock saw whose kind (`GET /events`, `POST /clob/midpoints`) passes `counts`.
template <class Pred>
std::int64_t gamma_count(mocks::mock_server& m, Pred counts) {
    auto const s = mock_stats(m);
    auto const& kinds = s.at("byKind").as_object();
    return std::accumulate(kinds.begin(), kinds.end(), std::int64_t{0},
                           [&](std::int64_t n, json::key_value_pair const& kv) {
                               return counts(std::string_view(kv.key()))
                                          ? n + kv.value().to_number<std::int64_t>()
                                          : n;
                           });
}

/// Requests a mock saw whose kind starts with `prefix` ("GET /events" counts `/events/{id}`).
std::int64_t gamma_calls(mocks::mock_server& m, std::string const& prefix) {
    return gamma_count(m, [&](std::string_view kind) { return kind.starts_with(prefix); });
}

/// Every event, paged through with `params` (limit and offset set here) until a short page.
std::vector<prediction_event> gamma_all_events(client const& c, events_params params,
                                               std::int64_t page) {
    std::vector<prediction_event> out;
    params.limit = page;
    for (std::int64_t offset = 0;; offset += page) {
        params.offset = offset;
        auto some = c.events("gamma", params);
        INFO("offset " << offset);
        REQUIRE(some);
        out.insert(out.end(), some->begin(), some->end());
        if (static_cast<std::int64_t>(some->size()) < page)
            return out;
        REQUIRE(offset < 1000); // the mock has 184
    }
}

/// Market-data requests the CLOB mock saw: all but the gateway's health probe (`GET /`).
std::int64_t gamma_clob_reads(mocks::mock_server& clob) {
    return gamma_count(clob, [](std::string_view kind) { return kind != "GET /clob/"; });
}

std::vector<std::string> gamma_ids(std::vector<prediction_event> const& events) {
    std::vector<std::string> out(events.size());
    std::transform(events.begin(), events.end(), out.begin(),
                   [](prediction_event const& e) { return e.event_id; });
    return out;
}

prediction_event const& gamma_by_id(std::vector<prediction_event> const& items,
                                    std::string const& id) {
    auto const it = std::find_if(items.begin(), items.end(),
                                 [&](prediction_event const& e) { return e.event_id == id; });
    REQUIRE(it != items.end());
    return *it;
}

prediction_market const& gamma_by_id(std::vector<prediction_market> const& items,
                                     std::string const& id) {
    auto const it = std::find_if(items.begin(), items.end(),
                                 [&](prediction_market const& m) { return m.market_id == id; });
    REQUIRE(it != items.end());
    return *it;
}

bool iso_utc(std::string const& s) {
    static std::regex const re(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
    return std::regex_match(s, re);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Events

TEST_CASE("gamma events: the contract's fields and types, 25 by default, tokens priced from the "
          "CLOB midpoint",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto const key = gw->create_key();
    auto c = gw->client_with(key);
    // 516701 (Fed, 25 bps cut): the CLOB's mid 0.62, the catalog's outcome price 0.3.
    auto const fed = gamma_tokens(*gw->gamma, "516701");
    set_mark(*clob, fed[0], "0.62");
    set_mark(*gw->gamma, fed[0], "0.3");

    auto events = c.events("gamma");
    REQUIRE(events);
    CHECK(events->size() == 25);
    auto const& e = gamma_by_id(*events, "16085");
    CHECK(e.title == "Fed decision in December?");
    CHECK(e.category == "Economy"); // no `category` upstream: its first tag
    CHECK(e.status == market_status::active);
    CHECK(e.end_date == "2026-12-09T12:00:00.000Z");
    CHECK(e.volume.str() == "48213977.31");
    CHECK(e.liquidity.str() == "3265115.42");
    REQUIRE(e.markets.size() == 3);
    auto const& cut = e.markets[0];
    CHECK(cut.market_id == "516701");
    CHECK(cut.outcomes == std::vector<std::string>{"Yes", "No"});
    REQUIRE(cut.tokens.size() == 2);
    CHECK(cut.tokens[0].token_id == fed[0]);
    CHECK(cut.tokens[0].outcome == "Yes");
    CHECK(cut.tokens[0].price.str() == "0.62"); // the CLOB's, not the catalog's 0.3
    CHECK(cut.tokens[1].token_id == fed[1]);
    CHECK(cut.tokens[1].price.str() == "0.38");

    SECTION("on the wire: exact keys, decimal strings, ISO 8601 UTC dates") {
        auto raw = api_get(*gw, key, "/v1/predictions/gamma/events?limit=100");
        REQUIRE(raw.status == 200);
        REQUIRE(raw.body.as_array().size() == 100);
        for (auto const& ev : raw.body.as_array()) {
            CHECK(keys(ev) == std::set<std::string>{"eventId", "title", "category", "status",
                                                    "endDate", "volume", "liquidity", "markets"});
            for (auto const* k :
                 {"eventId", "title", "category", "status", "endDate", "volume", "liquidity"})
                CHECK(ev.at(k).is_string());
            CHECK(iso_utc(std::string(ev.at("endDate").as_string())));
            CHECK(decimal::parse(ev.at("volume").as_string()).has_value());
            for (auto const& m : ev.at("markets").as_array()) {
                CHECK(keys(m) ==
                      std::set<std::string>{"marketId", "question", "outcomes", "tokens"});
                CHECK(m.at("tokens").as_array().size() == m.at("outcomes").as_array().size());
                for (auto const& t : m.at("tokens").as_array()) {
                    CHECK(keys(t) == std::set<std::string>{"tokenId", "outcome", "price"});
                    CHECK(decimal::parse(t.at("price").as_string()).has_value());
                }
            }
        }
    }
}

TEST_CASE("gamma events: status filters give exactly the events of that status, across both "
          "upstream listings",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto c = gw->client_with(gw->create_key());
    auto const all = gamma_all_events(c, {}, 100);
    CHECK(all.size() == 184);
    auto const all_ids = gamma_ids(all);
    CHECK(std::set<std::string>(all_ids.begin(), all_ids.end()).size() == 184);
    std::map<market_status, std::vector<std::string>> by_status;
    for (auto const& e : all)
        by_status[e.status].push_back(e.event_id);
    CHECK(gamma_by_id(all, "16085").status == market_status::active);
    CHECK(gamma_by_id(all, "903").status == market_status::resolved);
    CHECK(gamma_by_id(all, "15877").status == market_status::closed);   // resolution proposed
    CHECK(gamma_by_id(all, "20131").status == market_status::resolved); // archived
    CHECK(gamma_by_id(all, "20129").status == market_status::active);   // 4 of 6 markets open
    CHECK(by_status[market_status::active].size() == 91);
    CHECK(by_status[market_status::closed].size() == 11);
    CHECK(by_status[market_status::resolved].size() == 82);

    auto status = GENERATE(market_status::active, market_status::closed, market_status::resolved);
    CAPTURE(to_string(status));
    events_params p;
    p.status = status;
    auto const filtered = gamma_all_events(c, p, 25);
    CHECK_FALSE(filtered.empty());
    for (auto const& e : filtered)
        CHECK(e.status == status);
    // The same events as the unfiltered listing's of that status (the walk order may differ
    // for closed, which reads the closed listing first).
    auto got = gamma_ids(filtered);
    auto want = by_status[status];
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    CHECK(got == want);
}

TEST_CASE("gamma events: a category filter walks every upstream page, case-insensitively",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    // 10 catalog items a page: the 184 events span 20 upstream pages.
    auto gw = gamma_gateway(*clob, [](server::server_config& cfg) {
        cfg.providers["gamma"].options["catalogPageSize"] = "10";
    });
    auto c = gw->client_with(gw->create_key());
    events_params p;
    p.category = "sPoRtS";
    p.limit = 100;
    auto sports = c.events("gamma", p);
    REQUIRE(sports);
    CHECK(sports->size() == 57); // 26 open, 31 closed
    for (auto const& e : *sports)
        CHECK(e.category == "Sports");
    CHECK(gamma_calls(*gw->gamma, "GET /events") == 20); // 10 pages of each listing
    std::set<market_status> statuses;
    for (auto const& e : *sports)
        statuses.insert(e.status);
    CHECK(statuses.size() == 3);

    SECTION("the same events as the unfiltered listing's Sports ones, in its order") {
        auto const all = gamma_all_events(c, {}, 100);
        std::vector<std::string> want;
        for (auto const& e : all)
            if (e.category == "Sports")
                want.push_back(e.event_id);
        CHECK(gamma_ids(*sports) == want);
    }
    SECTION("with a status too, and paged") {
        events_params q;
        q.category = "crypto";
        q.status = market_status::resolved;
        auto const crypto = gamma_all_events(c, q, 5);
        std::vector<std::string> want;
        for (auto const& e : gamma_all_events(c, {}, 100))
            if (e.category == "Crypto" && e.status == market_status::resolved)
                want.push_back(e.event_id);
        CHECK(want.size() > 5);
        CHECK(gamma_ids(crypto) == want);
    }
    SECTION("a category nothing has: an empty list") {
        events_params q;
        q.category = "Astrology";
        auto none = c.events("gamma", q);
        REQUIRE(none);
        CHECK(none->empty());
    }
}

TEST_CASE("gamma events: a client pages through everything with offset, and the gateway resumes "
          "where the previous page ended",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    // 2 items a page (93 upstream pages), no cache: every page walked is an upstream call.
    auto gw = gamma_gateway(*clob, [](server::server_config& cfg) {
        cfg.providers["gamma"].options["catalogPageSize"] = "2";
        cfg.market_cache_ttl = std::chrono::milliseconds(0);
    });
    auto c = gw->client_with(gw->create_key());
    auto const pages = gamma_all_events(c, {}, 25); // 8 requests
    CHECK(pages.size() == 184);
    auto ids = gamma_ids(pages);
    CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == 184);
    // 46 + 47 upstream pages, each request re-reading at most the page its predecessor ended
    // in: not one walk from the start per request (which would also pass 50 pages, the most
    // one request reads).
    auto const walked = gamma_calls(*gw->gamma, "GET /events");
    CHECK(walked >= 93);
    CHECK(walked <= 93 + 8);

    SECTION("an offset far beyond what one request may walk: 400 naming offset") {
        gw->clock->advance(std::chrono::minutes(2)); // the checkpoints expire
        auto const key = gw->create_key();
        auto a = api_get(*gw, key, "/v1/predictions/gamma/events?offset=150");
        require_error(a, 400, "VALIDATION_ERROR", "offset");
    }
    SECTION("an offset past the end: an empty page") {
        events_params p;
        p.offset = 184;
        auto none = c.events("gamma", p);
        REQUIRE(none);
        CHECK(none->empty());
    }
}

TEST_CASE("gamma event detail: the event with its full markets", "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto const key = gw->create_key();
    auto c = gw->client_with(key);
    auto const fed = gamma_tokens(*gw->gamma, "516703");
    set_mark(*clob, fed[0], "0.021");
    set_mark(*gw->gamma, fed[0], "0.5");

    auto e = c.event("gamma", "16085");
    REQUIRE(e);
    CHECK(e->event_id == "16085");
    CHECK(e->category == "Economy");
    CHECK(e->status == market_status::active);
    REQUIRE(e->markets.size() == 3);
    for (auto const& m : e->markets) {
        CHECK(m.event_id == "16085");
        CHECK(m.status == market_status::active);
    }
    auto const& hike = gamma_by_id(e->markets, "516703");
    CHECK(hike.tokens[0].price.str() == "0.021"); // tick 0.001
    CHECK(hike.tokens[1].price.str() == "0.979");
    auto raw = api_get(*gw, key, "/v1/predictions/gamma/events/16085");
    REQUIRE(raw.status == 200);
    CHECK(keys(raw.body.at("markets").at(0)) ==
          std::set<std::string>{"marketId", "eventId", "question", "outcomes", "status", "volume",
                                "tokens"});

    SECTION("a resolved event: every market resolved at its final prices, no CLOB call") {
        reset_stats(*clob);
        auto r = c.event("gamma", "903");
        REQUIRE(r);
        CHECK(r->category == "Politics");
        CHECK(r->status == market_status::resolved);
        CHECK(r->end_date == "2024-11-05T12:00:00.000Z");
        auto const& trump = gamma_by_id(r->markets, "253591");
        CHECK(trump.status == market_status::resolved);
        CHECK(trump.tokens[0].price.str() == "1");
        CHECK(trump.tokens[1].price.str() == "0");
        CHECK(gamma_clob_reads(*clob) == 0);
    }
    SECTION("closed with a resolution only proposed") {
        auto r = c.event("gamma", "15877");
        REQUIRE(r);
        CHECK(r->status == market_status::closed);
        CHECK(r->markets.at(0).status == market_status::closed);
    }
}

// ---------------------------------------------------------------------------------------------
// Markets

TEST_CASE("gamma markets: one event's, every status, paged through every market",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto const key = gw->create_key();
    auto c = gw->client_with(key);

    SECTION("an event's markets, with eventId, status and volume") {
        markets_params p;
        p.event_id = "16085";
        auto ms = c.prediction_markets("gamma", p);
        REQUIRE(ms);
        REQUIRE(ms->size() == 3);
        for (auto const& m : *ms) {
            CHECK(m.event_id == "16085");
            CHECK(m.status == market_status::active);
            CHECK(m.tokens.size() == 2);
        }
        p.status = market_status::closed;
        CHECK(c.prediction_markets("gamma", p)->empty());
        markets_params mixed;
        mixed.event_id = "20129";
        mixed.status = market_status::active;
        CHECK(c.prediction_markets("gamma", mixed)->size() == 4);
        mixed.status = std::nullopt;
        mixed.offset = 4;
        CHECK(c.prediction_markets("gamma", mixed)->size() == 2);
        auto raw = api_get(*gw, key, "/v1/predictions/gamma/markets?eventId=16085");
        for (auto const& m : raw.body.as_array()) {
            CHECK(keys(m) == std::set<std::string>{"marketId", "eventId", "question", "outcomes",
                                                   "status", "volume", "tokens"});
            for (auto const* k : {"marketId", "eventId", "question", "status", "volume"})
                CHECK(m.at(k).is_string());
        }
    }
    SECTION("every market once, paged with offset; each status filter its own subset") {
        std::vector<prediction_market> all;
        markets_params p;
        p.limit = 100;
        for (std::int64_t offset = 0;; offset += 100) {
            p.offset = offset;
            auto some = c.prediction_markets("gamma", p);
            REQUIRE(some);
            all.insert(all.end(), some->begin(), some->end());
            if (some->size() < 100)
                break;
        }
        CHECK(all.size() == 512);
        std::map<market_status, std::size_t> counts;
        std::set<std::string> ids;
        for (auto const& m : all) {
            ++counts[m.status];
            ids.insert(m.market_id);
            CHECK_FALSE(m.event_id.empty());
        }
        CHECK(ids.size() == 512);
        CHECK(counts[market_status::resolved] == 234);
        CHECK(counts[market_status::closed] == 25); // 19 proposed, 6 disputed
        for (auto status :
             {market_status::active, market_status::closed, market_status::resolved}) {
            markets_params q;
            q.status = status;
            q.limit = 100;
            std::size_t n = 0;
            for (std::int64_t offset = 0;; offset += 100) {
                q.offset = offset;
                auto some = c.prediction_markets("gamma", q);
                REQUIRE(some);
                for (auto const& m : *some)
                    CHECK(m.status == status);
                n += some->size();
                if (some->size() < 100)
                    break;
            }
            CHECK(n == counts[status]);
        }
    }
}

TEST_CASE("gamma market detail: one market, its event, prices from the CLOB or, without a book, "
          "the catalog",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto c = gw->client_with(gw->create_key());
    auto const tokens = gamma_tokens(*gw->gamma, "516801");
    set_mark(*clob, tokens[0], "0.57");
    set_mark(*gw->gamma, tokens[0], "0.4");

    auto m = c.prediction_market("gamma", "516801");
    REQUIRE(m);
    CHECK(m->market_id == "516801");
    CHECK(m->event_id == "16112");
    CHECK(m->question == "Yankees vs. Red Sox");
    CHECK(m->outcomes == std::vector<std::string>{"Yankees", "Red Sox"});
    CHECK(m->status == market_status::active);
    CHECK(m->volume.str() == "151032.4");
    CHECK(m->tokens[0].outcome == "Yankees");
    CHECK(m->tokens[0].price.str() == "0.57");
    CHECK(m->tokens[1].price.str() == "0.43");

    SECTION("an AMM-era market without a book: the catalog's prices, the CLOB not asked") {
        reset_stats(*clob);
        auto amm = c.prediction_market("gamma", "600466");
        REQUIRE(amm);
        auto const raw =
            json::parse(fetch(verb::get, gw->gamma->base_url() + "/markets/600466").body);
        auto const prices = gamma_list(raw.at("outcomePrices"));
        CHECK(amm->tokens.at(0).price == decimal::parse_lenient(prices.at(0)).value());
        CHECK(amm->tokens.at(1).price == decimal::parse_lenient(prices.at(1)).value());
        CHECK(gamma_clob_reads(*clob) == 0);
    }
    SECTION("a brand-new market without volume keys: volume 0") {
        auto fresh = c.prediction_market("gamma", "600014");
        REQUIRE(fresh);
        CHECK(fresh->volume.str() == "0");
        CHECK(fresh->status == market_status::active);
    }
}

// ---------------------------------------------------------------------------------------------
// Token order books

TEST_CASE("gamma token orderbook: the CLOB's book in the contract shape, cut to depth",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto const key = gw->create_key();
    auto c = gw->client_with(key);
    auto const tokens = gamma_tokens(*gw->gamma, "516701");
    set_mark(*clob, tokens[0], "0.62");

    auto book = c.token_orderbook("gamma", tokens[0]);
    REQUIRE(book);
    CHECK(book->symbol == tokens[0]);
    CHECK(book->timestamp > 0);
    REQUIRE_FALSE(book->bids.empty());
    REQUIRE_FALSE(book->asks.empty());
    CHECK(book->bids.size() <= 20);
    CHECK(book->bids.front().price.str() == "0.61");
    CHECK(book->asks.front().price.str() == "0.63");
    for (std::size_t i = 1; i < book->bids.size(); ++i)
        CHECK(book->bids[i - 1].price > book->bids[i].price);
    for (std::size_t i = 1; i < book->asks.size(); ++i)
        CHECK(book->asks[i - 1].price < book->asks[i].price);

    orderbook_params p;
    p.depth = 3;
    auto three = c.token_orderbook("gamma", tokens[1], p); // the NO token mirrors YES
    REQUIRE(three);
    CHECK(three->bids.size() == 3);
    CHECK(three->asks.size() == 3);
    CHECK(three->bids.front().price.str() == "0.37");
    CHECK(three->asks.front().price.str() == "0.39");

    auto raw = api_get(*gw, key, "/v1/predictions/gamma/tokens/" + tokens[0] + "/orderbook");
    CHECK(keys(raw.body) == std::set<std::string>{"symbol", "bids", "asks", "timestamp"});
    CHECK(raw.body.at("timestamp").is_int64());
    CHECK(keys(raw.body.at("bids").at(0)) == std::set<std::string>{"price", "size"});
    CHECK(raw.body.at("bids").at(0).at("size").is_string());
}

// ---------------------------------------------------------------------------------------------
// Errors (CONTRACT §2) and testnet (§7)

TEST_CASE("gamma read errors: unknown event, market or token 404, bad parameters 400 naming the "
          "field",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto const key = gw->create_key();
    std::string const base = "/v1/predictions/gamma";
    auto const resolved_token = gamma_tokens(*gw->gamma, "253591")[0];

    auto [path, status, code, field] =
        GENERATE_COPY(table<std::string, unsigned, std::string, std::string>({
            {"/events/1", 404, "EVENT_NOT_FOUND", ""},
            {"/events/not-an-id", 404, "EVENT_NOT_FOUND", ""},
            {"/markets?eventId=1", 404, "EVENT_NOT_FOUND", ""},
            {"/markets/1", 404, "MARKET_NOT_FOUND", ""},
            {"/markets/0x5387", 404, "MARKET_NOT_FOUND", ""},
            {"/tokens/12345/orderbook", 404, "MARKET_NOT_FOUND", ""},
            {"/tokens/abc/orderbook", 404, "MARKET_NOT_FOUND", ""},
            {"/tokens/" + resolved_token + "/orderbook", 404, "MARKET_NOT_FOUND", ""},
            {"/events?status=open", 400, "VALIDATION_ERROR", "status"},
            {"/events?limit=0", 400, "VALIDATION_ERROR", "limit"},
            {"/events?limit=101", 400, "VALIDATION_ERROR", "limit"},
            {"/events?limit=ten", 400, "VALIDATION_ERROR", "limit"},
            {"/events?offset=-1", 400, "VALIDATION_ERROR", "offset"},
            {"/events?offset=x", 400, "VALIDATION_ERROR", "offset"},
            {"/events?category=", 400, "VALIDATION_ERROR", "category"},
            {"/markets?status=settled", 400, "VALIDATION_ERROR", "status"},
            {"/markets?limit=101", 400, "VALIDATION_ERROR", "limit"},
            {"/markets?offset=1.5", 400, "VALIDATION_ERROR", "offset"},
            {"/markets?eventId=", 400, "VALIDATION_ERROR", "eventId"},
            {"/tokens/" + resolved_token + "/orderbook?depth=0", 400, "VALIDATION_ERROR", "depth"},
            {"/tokens/1/orderbook?depth=1001", 400, "VALIDATION_ERROR", "depth"},
            // Parameters before the event (CONTRACT §2's order).
            {"/markets?eventId=1&limit=0", 400, "VALIDATION_ERROR", "limit"},
        }));
    CAPTURE(path);
    require_error(api_get(*gw, key, base + path), status, code, field);

    SECTION("the messages are the contract's sentences") {
        auto const bad = [&](std::string const& p) {
            return std::string(
                api_get(*gw, key, base + p).body.at("error").at("message").as_string());
        };
        CHECK(bad("/events?status=open") == "'status' must be one of: active, closed, resolved.");
        CHECK(bad("/events?limit=101") == "'limit' must be an integer from 1 to 100.");
        CHECK(bad("/markets?offset=-1") == "'offset' must be a non-negative integer.");
        CHECK(bad("/events/1") == "Unknown event '1' on gamma.");
        CHECK(bad("/markets/1") == "Unknown market '1' on gamma.");
    }
}

TEST_CASE("gamma: the SDK refuses bad parameters before sending, with the server's errors",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto c = gw->client_with(gw->create_key());
    reset_stats(*gw->gamma);
    events_params e;
    e.limit = 101;
    CHECK(c.events("gamma", e).error().field() == "limit");
    e.limit = std::nullopt;
    e.offset = -3;
    CHECK(c.events("gamma", e).error().field() == "offset");
    markets_params m;
    m.limit = 0;
    CHECK(c.prediction_markets("gamma", m).error().field() == "limit");
    orderbook_params o;
    o.depth = 5000;
    CHECK(c.token_orderbook("gamma", "1", o).error().field() == "depth");
    CHECK(c.event("gamma", "").error().field() == "eventId");
    CHECK(c.prediction_market("gamma", "").error().field() == "marketId");
    CHECK(c.token_orderbook("gamma", "").error().field() == "tokenId");
    CHECK(mock_stats(*gw->gamma).at("requests") == 0);
}

TEST_CASE("gamma has no testnet: every /v1/testnet/predictions/gamma path is 404 "
          "PROVIDER_NOT_FOUND",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob);
    auto const key = gw->create_key();
    auto const test_key = gw->create_key(server::auth::key_env::test);
    reset_stats(*gw->gamma);
    auto path = GENERATE(as<std::string>{}, "/events", "/events/16085", "/events?status=nope",
                         "/markets", "/markets?eventId=16085", "/markets/516701",
                         "/tokens/1/orderbook", "/tokens/1/orderbook?depth=0");
    CAPTURE(path);
    for (auto const& k : {key, test_key}) {
        auto a = api_get(*gw, k, "/v1/testnet/predictions/gamma" + path);
        require_error(a, 404, "PROVIDER_NOT_FOUND");
        CHECK(a.body.at("error").at("message") ==
              "Provider 'gamma' does not offer predictions on testnet.");
    }
    CHECK(mock_stats(*gw->gamma).at("requests") == 0);

    SECTION("the SDK's testnet client") {
        auto tc = gw->client_with(test_key, true);
        CHECK(tc.events("gamma").error().code == errc::provider_not_found);
        CHECK(tc.event("gamma", "16085").error().code == errc::provider_not_found);
        CHECK(tc.token_orderbook("gamma", "1").error().code == errc::provider_not_found);
    }
    SECTION("a provider without predictions, and no key") {
        require_error(api_get(*gw, key, "/v1/predictions/alpha/events"), 404, "PROVIDER_NOT_FOUND");
        require_error(api_get(*gw, key, "/v1/predictions/nobody/markets"), 404,
                      "PROVIDER_NOT_FOUND");
        auto none = fetch(verb::get, gw->base_url + "/v1/predictions/gamma/events");
        CHECK(none.status == 401);
    }
}

TEST_CASE("gamma upstream faults: 500 is 502, 429 and 503 are 503 with Retry-After, a hang is "
          "504",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob, [](server::server_config& cfg) {
        cfg.market_cache_ttl = std::chrono::milliseconds(0);
    });
    auto const key = gw->create_key();
    auto const token = gamma_tokens(*gw->gamma, "516701")[0];

    SECTION("the catalog failing fails every catalog read") {
        auto [fault, status, code] = GENERATE(table<std::string, unsigned, std::string>({
            {R"({"status":500})", 502, "UPSTREAM_ERROR"},
            {R"({"status":429})", 503, "PROVIDER_UNAVAILABLE"},
            {R"({"status":503})", 503, "PROVIDER_UNAVAILABLE"},
            {R"({"drop":true})", 502, "UPSTREAM_ERROR"},
            {R"({"latencyMs":1500})", 504, "UPSTREAM_TIMEOUT"},
        }));
        CAPTURE(fault);
        mock_post(*gw->gamma, "/__mock/faults", fault);
        for (auto const* p : {"/events", "/events/16085", "/markets", "/markets/516701",
                              "/markets?eventId=16085"}) {
            CAPTURE(p);
            auto a = api_get(*gw, key, std::string("/v1/predictions/gamma") + p);
            require_error(a, status, code);
            if (status == 503)
                CHECK(a.raw.message.count("Retry-After") == 1);
        }
        // The CLOB is another upstream: its books still answer.
        auto book = api_get(*gw, key, "/v1/predictions/gamma/tokens/" + token + "/orderbook");
        CHECK(book.status == 200);
    }
    SECTION("the CLOB failing fails reads that price live tokens, not the others") {
        mock_post(*clob, "/__mock/faults", R"({"status":500})");
        require_error(api_get(*gw, key, "/v1/predictions/gamma/events"), 502, "UPSTREAM_ERROR");
        require_error(api_get(*gw, key, "/v1/predictions/gamma/markets/516701"), 502,
                      "UPSTREAM_ERROR");
        require_error(api_get(*gw, key, "/v1/predictions/gamma/tokens/" + token + "/orderbook"),
                      502, "UPSTREAM_ERROR");
        // A resolved event has no live token: nothing to ask the CLOB.
        CHECK(api_get(*gw, key, "/v1/predictions/gamma/events/903").status == 200);
        CHECK(api_get(*gw, key, "/v1/predictions/gamma/events?status=resolved").status == 200);
    }
}

// ---------------------------------------------------------------------------------------------
// Upstream economy (CONTRACT §3)

TEST_CASE("gamma upstream economy: one midpoints batch per answer, cached and coalesced reads",
          "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob, [](server::server_config& cfg) {
        cfg.market_cache_ttl = std::chrono::milliseconds(60000); // nothing expires by itself
    });
    auto const key = gw->create_key();
    auto c = gw->client_with(key);

    SECTION("events?limit=100: two catalog pages and one midpoints call per 500 live tokens "
            "cold, nothing warm") {
        // The live tokens of those 100 events (the 91 open upstream, then 9 closed ones, which
        // have none), counted on the catalog itself: open markets with an order book.
        std::int64_t live_tokens = 0;
        auto const open = json::parse(
            fetch(verb::get, gw->gamma->base_url() + "/events?closed=false&limit=100").body);
        for (auto const& e : open.as_array()) {
            auto const& ms = e.at("markets").as_array();
            live_tokens += std::accumulate(
                ms.begin(), ms.end(), std::int64_t{0}, [](std::int64_t n, json::value const& m) {
                    bool const live =
                        !m.at("closed").as_bool() && m.at("enableOrderBook").as_bool();
                    return live ? n + static_cast<std::int64_t>(
                                          gamma_list(m.at("clobTokenIds")).size())
                                : n;
                });
        }
        reset_stats(*gw->gamma);
        CAPTURE(live_tokens);
        auto const batches = (live_tokens + 499) / 500; // at most 500 tokens a batch
        CHECK(batches == 2);                            // 506 tokens

        events_params p;
        p.limit = 100;
        auto cold = c.events("gamma", p);
        REQUIRE(cold);
        REQUIRE(cold->size() == 100);
        CHECK(gamma_calls(*gw->gamma, "GET /events") == 2); // closed=false (91), closed=true
        CHECK(mock_stats(*gw->gamma).at("requests") == 2);
        CHECK(gamma_calls(*clob, "POST /clob/midpoints") == batches);
        CHECK(gamma_clob_reads(*clob) == batches); // no per-token call, no book read

        auto warm = c.events("gamma", p);
        REQUIRE(warm);
        CHECK(gamma_ids(*warm) == gamma_ids(*cold));
        CHECK(mock_stats(*gw->gamma).at("requests") == 2);
        CHECK(gamma_clob_reads(*clob) == batches);

        // The tokens priced a moment ago are not asked again for another answer.
        markets_params m;
        m.event_id = "16085";
        REQUIRE(c.prediction_markets("gamma", m));
        CHECK(gamma_clob_reads(*clob) == batches);
        CHECK(gamma_calls(*gw->gamma, "GET /events/16085") == 1);

        // After the cache's time, both upstreams again.
        gw->clock->advance(std::chrono::seconds(61));
        REQUIRE(c.events("gamma", p));
        CHECK(mock_stats(*gw->gamma).at("requests") == 5);
        CHECK(gamma_clob_reads(*clob) == 2 * batches);
    }
    SECTION("a page with fewer than 500 live tokens: one midpoints call") {
        events_params p;
        p.limit = 50;
        auto some = c.events("gamma", p);
        REQUIRE(some);
        std::size_t tokens = 0;
        for (auto const& e : *some)
            tokens += std::accumulate(
                e.markets.begin(), e.markets.end(), std::size_t{0},
                [](std::size_t n, event_market const& mk) { return n + mk.tokens.size(); });
        CHECK(tokens > 200);
        CHECK(gamma_calls(*clob, "POST /clob/midpoints") == 1);
        CHECK(gamma_clob_reads(*clob) == 1);
    }
    SECTION("identical concurrent reads share one upstream call each") {
        constexpr int readers = 8;
        std::vector<std::thread> threads;
        std::atomic<int> ok{0};
        for (int i = 0; i < readers; ++i)
            threads.emplace_back([&] {
                auto mine = gw->client_with(key);
                if (mine.event("gamma", "16085"))
                    ++ok;
            });
        for (auto& t : threads)
            t.join();
        CHECK(ok == readers);
        CHECK(gamma_calls(*gw->gamma, "GET /events/16085") == 1);
        CHECK(gamma_calls(*clob, "POST /clob/midpoints") == 1);
    }
    SECTION("books cached too") {
        auto const token = gamma_tokens(*gw->gamma, "516750")[0];
        REQUIRE(c.token_orderbook("gamma", token));
        REQUIRE(c.token_orderbook("gamma", token));
        CHECK(gamma_calls(*clob, "GET /clob/book") == 1);
    }
}

TEST_CASE("gamma's two upstreams each spend their own budget", "[contract][gamma]") {
    auto clob = start_clob_mock();
    auto gw = gamma_gateway(*clob, [](server::server_config& cfg) {
        cfg.market_cache_ttl = std::chrono::milliseconds(0);
        // Two /midpoints (weight 18 each) and the health probe (1) a 10 s window: below the
        // operators' minimum of 100, set directly to spend it in a test.
        cfg.providers["gamma"].options["clobBudget"] = "37";
        cfg.budget_share_percent = 100; // one account may spend it all: the budget's test
    });
    auto const key = gw->create_key();
    REQUIRE(api_get(*gw, key, "/v1/predictions/gamma/events?limit=1").status == 200);
    REQUIRE(api_get(*gw, key, "/v1/predictions/gamma/events?limit=2").status == 200);
    auto spent = api_get(*gw, key, "/v1/predictions/gamma/events?limit=3");
    require_error(spent, 503, "PROVIDER_UNAVAILABLE");
    CHECK(spent.raw.message.count("Retry-After") == 1);
    CHECK_THAT(std::string(spent.body.at("error").at("message").as_string()),
               Catch::Contains("gamma CLOB"));
    CHECK(gamma_calls(*clob, "POST /clob/midpoints") == 2);
    // The catalog's budget is untouched: reads without live tokens still answer.
    CHECK(api_get(*gw, key, "/v1/predictions/gamma/events/903").status == 200);
    CHECK(api_get(*gw, key, "/v1/predictions/gamma/markets?status=resolved").status == 200);
    // The provider detail reports the CLOB's budget.
    auto d = gw->sdk->provider("gamma");
    REQUIRE(d);
    CHECK(d->rate_limit.requests == 37);
    CHECK(d->rate_limit.window_seconds == 10);
}
