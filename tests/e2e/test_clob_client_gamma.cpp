// Polymarket's own TypeScript CLOB client (@polymarket/clob-client, npm, pinned by
// tests/clob-client/package-lock.json), pointed at mock-gamma's CLOB: it reads the server
// time, walks every page of the market listing, reads one market, order books (single and
// batched, checking each book's hash with its own code), midpoints, prices, spread, last trade,
// tick size and neg-risk flag, and an unknown token (tests/clob-client/clob_client_gamma.mjs).
// A second test trades with the same client (tests/clob-client/clob_client_gamma_trading.mjs):
// L1 credentials created and derived, a limit order built, signed, posted, listed, fetched and
// canceled, a FOK market order filled, the trades and the API keys.
// Node.js and tests/clob-client/node_modules are installed by scripts/test.sh; without them
// these tests fail saying so, they never skip.
#include <catch2/catch.hpp>

#include "support/fetch.hpp"
#include "support/catch_result.hpp"
#include "support/mock_control.hpp"
#include "support/node_script.hpp"

#include <gateway/mocks/mock_server.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <filesystem>
#include <regex>
#include <set>
#include <string>

namespace clob_client_gamma_test {

using namespace gateway;
using gateway::test::fetch;
namespace json = boost::json;
namespace fs = std::filesystem;
namespace http = boost::beast::http;

namespace {

fs::path const clob_client_dir = fs::path(GATEWAY_FIXTURES_DIR) / ".." / "clob-client";

// The market of the recorded ccxt fixtures (tests/fixtures/gamma/ccxt-fetchOrderBook.json):
// "Will JD Vance win the 2028 US Presidential Election?", tick 0.001, neg risk.
constexpr char const* recorded_token =
    "16040015440196279900485035793550429453516625694844857319147506590755961451627";
constexpr char const* recorded_condition =
    "0x7ad403c3508f8e3912940fd1a913f227591145ca0614074208e0b962d5fcc422";

/// Fails (never skips) when the Node side is not installed.
void require_clob_client_installed() {
    if (!fs::exists(clob_client_dir / "node_modules" / "@polymarket" / "clob-client" /
                    "package.json"))
        FAIL("@polymarket/clob-client is not installed in " + clob_client_dir.string() +
             ": run `npm ci` there (scripts/test.sh does)");
}

json::value mock_get(mocks::mock_server const& m, std::string const& target) {
    auto const r = fetch(http::verb::get, m.base_url() + target);
    INFO(target << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

std::string first_token(json::value const& gamma_market) {
    auto const ids = json::parse(gamma_market.at("clobTokenIds").as_string());
    return std::string(ids.at(0).as_string());
}

} // namespace

TEST_CASE("@polymarket/clob-client reads server time, markets, order books and prices from "
          "mock-gamma",
          "[e2e][gamma][clob-client]") {
    require_clob_client_installed();
    auto m = mocks::mock_server::start({mocks::upstream::gamma});
    // Pinned marks: the books keep their prices while the walk runs (sizes still change).
    test::set_mark(*m, recorded_token, "0.152");
    auto const other = first_token(mock_get(*m, "/markets/516750"));
    test::set_mark(*m, other, "0.42");
    auto const closed = first_token(mock_get(*m, "/markets/253591"));
    // What the mock's own listing holds, to compare the client's walk with.
    std::size_t listed = 0;
    for (std::string cursor = "MA=="; cursor != "LTE=";) {
        auto const page = mock_get(*m, "/clob/markets?next_cursor=" + cursor);
        listed += page.at("data").as_array().size();
        cursor = std::string(page.at("next_cursor").as_string());
    }
    REQUIRE(listed > 500);
    test::reset_stats(*m);

    json::object input;
    input["host"] = m->base_url() + "/clob";
    input["token"] = recorded_token;
    input["tokens"] = json::array{recorded_token, json::string(other), json::string(closed)};
    input["conditionId"] = recorded_condition;
    auto const run =
        test::run_node_script(clob_client_dir / "clob_client_gamma.mjs", json::serialize(input));
    INFO("clob_client_gamma.mjs exited " << run.exit_code << "\nstdout: " << run.out
                                         << "\nstderr: " << run.err);
    if (run.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    REQUIRE(run.exit_code == 0);
    auto const s = json::parse(run.out);

    { // the mock saw exactly the client's calls: one each, the listing in two pages, the
      // tick size once (the client caches it)
        auto const stats = test::mock_stats(*m);
        CHECK(stats.at("byKind") == json::parse(std::string(R"({"GET /clob/":1,"GET /clob/time":1,
                "GET /clob/markets":2,"GET /clob/markets/)") +
                                                recorded_condition + R"(":1,
                "GET /clob/book":2,"POST /clob/books":1,"GET /clob/midpoint":1,
                "POST /clob/midpoints":1,"GET /clob/price":2,"POST /clob/prices":1,
                "GET /clob/spread":1,"GET /clob/last-trade-price":1,"GET /clob/tick-size":1,
                "GET /clob/neg-risk":1})"));
    }

    CHECK(s.at("ok") == "OK");
    auto const now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    REQUIRE(s.at("time").is_int64());
    CHECK(s.at("time").as_int64() >= now - 30);
    CHECK(s.at("time").as_int64() <= now + 5);

    { // markets: every page, every market once, the recorded one among them
        auto const& mk = s.at("markets");
        CHECK(mk.at("pages") == 2);
        CHECK(mk.at("count") == listed);
        CHECK(mk.at("conditionIds") == listed);
        auto const& sample = mk.at("sample");
        REQUIRE(sample.is_object());
        CHECK(sample.at("question") == "Will JD Vance win the 2028 US Presidential Election?");
        CHECK(sample.at("neg_risk") == true);
        CHECK(sample.at("minimum_tick_size") == "0.001");
        CHECK(sample.at("tokens").at(0).at("token_id") == recorded_token);
        CHECK(sample.at("tokens").at(0).at("price") == "0.152");
        CHECK(s.at("market") == sample);
    }
    { // one book: the recorded market's shape, the pinned mark one tick inside, its hash
        auto const& b = s.at("book");
        CHECK(b.at("asset_id") == recorded_token);
        CHECK(b.at("market") == recorded_condition);
        CHECK(b.at("tick_size") == "0.001");
        CHECK(b.at("neg_risk") == true);
        CHECK(b.at("bids").as_array().back().at("price") == "0.151");
        CHECK(b.at("asks").as_array().back().at("price") == "0.153");
        CHECK(s.at("bookHashMatches") == true);
    }
    { // the batch: the two open tokens' books, the closed one left out
        auto const& books = s.at("books").as_array();
        REQUIRE(books.size() == 2);
        CHECK(books[0].at("asset_id") == recorded_token);
        CHECK(books[1].at("asset_id").as_string() == other);
        CHECK(books[1].at("tick_size") == "0.01");
        CHECK(books[1].at("neg_risk") == false);
        CHECK(s.at("booksHashMatch") == json::parse("[true,true]"));
    }
    CHECK(s.at("midpoint") == json::parse(R"({"mid":"0.152"})"));
    CHECK(s.at("midpoints") == json::parse(std::string(R"({")") + recorded_token +
                                           R"(":"0.152",")" + other + R"(":"0.42"})"));
    CHECK(s.at("buy") == json::parse(R"({"price":"0.151"})"));
    CHECK(s.at("sell") == json::parse(R"({"price":"0.153"})"));
    CHECK(s.at("prices") == json::parse(std::string(R"({")") + recorded_token +
                                        R"(":{"BUY":"0.151","SELL":"0.153"}})"));
    CHECK(s.at("spread") == json::parse(R"({"spread":"0.002"})"));
    CHECK(s.at("lastTrade").at("price").is_string());
    CHECK((s.at("lastTrade").at("side") == "BUY" || s.at("lastTrade").at("side") == "SELL"));
    CHECK(s.at("tickSize") == "0.001");
    CHECK(s.at("tickSizeAgain") == "0.001");
    CHECK(s.at("negRisk") == true);
    CHECK(
        s.at("unknownBook") ==
        json::parse(R"({"error":"No orderbook exists for the requested token id","status":404})"));
}

TEST_CASE("@polymarket/clob-client derives credentials, posts, lists and cancels an order on "
          "mock-gamma",
          "[e2e][gamma][clob-client]") {
    require_clob_client_installed();
    auto m = mocks::mock_server::start({mocks::upstream::gamma});
    auto const token = first_token(mock_get(*m, "/markets/516750"));
    test::set_mark(*m, token, "0.42"); // the house quotes 0.41 / 0.43
    // Hardhat's third account (a public test key).
    constexpr char const* key_hex =
        "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
    auto const key = sign::private_key::from_hex(key_hex);
    REQUIRE(key);
    std::string const wallet = sign::address_of(*key).str();
    test::mock_post(*m, "/__mock/accounts",
                    R"({"address":")" + wallet + R"(","balances":{"USDC":"100"}})");
    test::reset_stats(*m);

    json::object input;
    input["host"] = m->base_url() + "/clob";
    input["token"] = token;
    input["privateKey"] = key_hex;
    auto const run = test::run_node_script(clob_client_dir / "clob_client_gamma_trading.mjs",
                                           json::serialize(input));
    INFO("clob_client_gamma_trading.mjs exited " << run.exit_code << "\nstdout: " << run.out
                                                 << "\nstderr: " << run.err);
    if (run.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    REQUIRE(run.exit_code == 0);
    auto const s = json::parse(run.out);

    // Credentials: created once, then the same key from create-or-derive and from derive.
    auto const& created = s.at("created");
    REQUIRE(created.at("key").is_string());
    std::string const api_key(created.at("key").as_string());
    CHECK(std::regex_match(api_key, std::regex("[0-9a-f-]{36}")));
    CHECK(s.at("createdAgain") == created);
    CHECK(s.at("derived") == created);
    CHECK(s.at("apiKeys") == json::parse(R"({"apiKeys":[")" + api_key + R"("]})"));

    // The client's order, signed by its wallet, accepted and resting.
    auto const& posted = s.at("posted");
    INFO(json::serialize(posted));
    CHECK(posted.at("success") == true);
    CHECK(posted.at("errorMsg") == "");
    CHECK(posted.at("status") == "live");
    std::string const id(posted.at("orderID").as_string());
    CHECK(std::regex_match(id, std::regex("0x[0-9a-f]{64}")));
    CHECK(s.at("order").at("makerAmount") == "4200000");
    CHECK(s.at("order").at("takerAmount") == "10000000");
    auto const& open = s.at("open").as_array();
    REQUIRE(open.size() == 1);
    CHECK(open[0].at("id").as_string() == id);
    CHECK(open[0].at("status") == "LIVE");
    CHECK(open[0].at("owner").as_string() == api_key);
    CHECK(open[0].at("maker_address").as_string() == wallet);
    CHECK(open[0].at("asset_id").as_string() == token);
    CHECK(open[0].at("side") == "BUY");
    CHECK(open[0].at("price") == "0.42");
    CHECK(open[0].at("original_size") == "10");
    CHECK(open[0].at("size_matched") == "0");
    CHECK(open[0].at("order_type") == "GTC");
    CHECK(s.at("one") == open[0]);

    // Canceled: gone from the open orders, CANCELED by id.
    CHECK(s.at("canceled") == json::parse(R"({"canceled":[")" + id + R"("],"not_canceled":{}})"));
    CHECK(s.at("openAfter") == json::array{});
    CHECK(s.at("oneAfter").at("status") == "CANCELED");

    // The market BUY of 4.3 USDC: 10 shares from the house's 0.43 ask.
    auto const& market = s.at("market");
    CHECK(market.at("success") == true);
    CHECK(market.at("status") == "matched");
    CHECK(market.at("makingAmount") == "4.3");
    CHECK(market.at("takingAmount") == "10");
    auto const& trades = s.at("trades").as_array();
    REQUIRE(trades.size() == 1);
    CHECK(trades[0].at("trader_side") == "TAKER");
    CHECK(trades[0].at("taker_order_id") == market.at("orderID"));
    CHECK(trades[0].at("side") == "BUY");
    CHECK(trades[0].at("price") == "0.43");
    CHECK(trades[0].at("size") == "10");

    // The mock saw the client's trading calls, and the account moved accordingly.
    auto const stats = test::mock_stats(*m).at("byKind");
    CHECK(stats.at("POST /clob/auth/api-key") == 2);
    CHECK(stats.at("GET /clob/auth/derive-api-key") == 2);
    CHECK(stats.at("POST /clob/order") == 2);
    CHECK(stats.at("DELETE /clob/order") == 1);
    CHECK(stats.at("GET /clob/data/orders") == 2);
    CHECK(stats.at("GET /clob/data/order/" + id) == 2);
    CHECK(stats.at("GET /clob/data/trades") == 1);
    CHECK(stats.at("GET /clob/auth/api-keys") == 1);
    auto const account = mock_get(*m, "/__mock/accounts/" + wallet);
    CHECK(account.at("balances") == json::parse(R"({"USDC":"95.7",")" + token + R"(":"10"})"));
    CHECK(account.at("locked").at("USDC") == "0");
}

} // namespace clob_client_gamma_test
