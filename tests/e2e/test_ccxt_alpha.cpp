// ccxt's `hyperliquid` class, a widely used Hyperliquid client written independently of this
// project (npm, pinned by tests/ccxt/package-lock.json), pointed at mock-alpha: it loads the
// markets, reads a ticker, a book, candles and the wallet's fills, and signs (msgpack action
// hash + phantom agent, with its own code) a builder-fee approval, a resting limit order, its
// cancel and a market order (tests/ccxt/ccxt_alpha.mjs). Node.js and tests/ccxt/node_modules
// are installed by scripts/test.sh; without them this test fails saying so, it never skips.
#include <catch2/catch.hpp>

#include "support/fetch.hpp"
#include "support/mock_control.hpp"
#include "support/node_script.hpp"

#include <gateway/mocks/mock_server.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <filesystem>
#include <set>
#include <string>

namespace ccxt_alpha_test {

using namespace gateway;
using gateway::test::fetch;
using gateway::test::mock_post;
namespace json = boost::json;
namespace fs = std::filesystem;
namespace http = boost::beast::http;

namespace {

// Throwaway key (never funded anywhere real) and an arbitrary builder address.
constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
constexpr char const* builder = "0xb01de00000000000000000000000000000000001";

fs::path const ccxt_dir = fs::path(GATEWAY_FIXTURES_DIR) / ".." / "ccxt";

/// Fails (never skips) when the Node side is not installed.
void require_ccxt_installed() {
    if (!fs::exists(ccxt_dir / "node_modules" / "ccxt" / "package.json"))
        FAIL("ccxt is not installed in " + ccxt_dir.string() +
             ": run `npm ci` there (scripts/test.sh does)");
}

json::value info(mocks::mock_server& m, std::string const& body) {
    auto const r = fetch(http::verb::post, m.base_url() + "/info", body);
    INFO(body << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

double num(json::value const& v) {
    return v.to_number<double>();
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

TEST_CASE("ccxt's hyperliquid class loads markets, reads and trades against mock-alpha",
          "[e2e][alpha][ccxt]") {
    require_ccxt_installed();
    auto m = mocks::mock_server::start({mocks::upstream::alpha});
    auto const wallet = sign::address_of(sign::private_key::from_hex(wallet_key).value()).str();
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + wallet + R"(","balances":{"USDC":"100000"}})");
    // A builder needs 100 USDC of perps account value before a user can approve it.
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + std::string(builder) + R"(","balances":{"USDC":"100"}})");
    test::set_mark(*m, "BTC", "65000");
    test::reset_stats(*m);

    json::object input;
    input["baseUrl"] = m->base_url();
    input["privateKey"] = wallet_key;
    input["walletAddress"] = wallet;
    input["builder"] = builder;
    input["symbol"] = "BTC/USDC:USDC";
    input["amount"] = 0.001;
    input["restingPrice"] = 60000;
    input["timeframe"] = "1m";
    // 30 one-minute candles from a whole minute 40 minutes back: all in the past, so all there.
    std::int64_t const minute = 60'000;
    std::int64_t const since = (now_ms() / minute - 40) * minute;
    input["since"] = since;
    input["candles"] = 30;
    auto const run = test::run_node_script(ccxt_dir / "ccxt_alpha.mjs", json::serialize(input));
    INFO("ccxt_alpha.mjs exited " << run.exit_code << "\nstdout: " << run.out
                                  << "\nstderr: " << run.err);
    if (run.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    REQUIRE(run.exit_code == 0);
    auto const s = json::parse(run.out);

    { // the mock saw exactly what ccxt sends: its /info types and signed actions
        auto const stats = test::mock_stats(*m);
        CHECK(stats.at("byKind") == json::parse(R"({
            "spotMeta": 1, "userAbstraction": 1, "exchange:approveBuilderFee": 1,
            "exchange:setReferrer": 1, "metaAndAssetCtxs": 4, "spotMetaAndAssetCtxs": 2,
            "perpDexs": 2, "l2Book": 1, "candleSnapshot": 1, "exchange:order": 2,
            "exchange:cancel": 1, "userFills": 1})"));
    }

    { // markets: every perp, builder-dex perp and spot pair, with their precisions
        std::set<std::string> symbols;
        for (auto const& mk : s.at("markets").as_array())
            symbols.insert(std::string(mk.at("symbol").as_string()));
        CHECK(symbols == std::set<std::string>{"BTC/USDC:USDC", "ETH/USDC:USDC", "SOL/USDC:USDC",
                                               "XYZ-TSLA/USDC:USDC", "XYZ-NVDA/USDC:USDC",
                                               "XYZ-GOLD/USDC:USDC", "PURR/USDC", "HFUN/USDC"});
        for (auto const& mk : s.at("markets").as_array()) {
            CAPTURE(json::serialize(mk));
            if (mk.at("symbol") == "BTC/USDC:USDC") {
                CHECK(mk.at("id") == "0"); // the asset id orders are signed with
                CHECK(num(mk.at("amountPrecision")) == 0.00001);
                CHECK(num(mk.at("pricePrecision")) == 1);
            }
            if (mk.at("symbol") == "XYZ-TSLA/USDC:USDC")
                CHECK(mk.at("id") == "110000");
            if (mk.at("symbol") == "HFUN/USDC") {
                CHECK(mk.at("id") == "@1");
                CHECK(mk.at("type") == "spot");
            }
        }
        CHECK(s.at("builderFeeApproved") == true);
    }

    { // ticker: last is the pinned mark, the book's best bid and ask around it
        auto const& t = s.at("ticker");
        CHECK(t.at("symbol") == "BTC/USDC:USDC");
        CHECK(num(t.at("last")) == 65000);
        CHECK(num(t.at("bid")) == 64999);
        CHECK(num(t.at("ask")) == 65001);
    }

    { // order book: best bid below best ask, one tick either side of the mark
        auto const& b = s.at("orderBook");
        CHECK(b.at("symbol") == "BTC/USDC:USDC");
        REQUIRE(!b.at("bids").as_array().empty());
        REQUIRE(!b.at("asks").as_array().empty());
        double const bid = num(b.at("bids").at(0).at(0));
        double const ask = num(b.at("asks").at(0).at(0));
        CHECK(bid < ask);
        CHECK(bid == 64999);
        CHECK(ask == 65001);
        CHECK(num(b.at("bids").at(1).at(0)) < bid);
        CHECK(num(b.at("asks").at(1).at(0)) > ask);
        CHECK(b.at("depth") == json::array{20, 20});
    }

    { // OHLCV: 30 one-minute candles from `since`, one minute apart
        auto const& c = s.at("ohlcv").at("candles").as_array();
        REQUIRE(c.size() == 30);
        for (std::size_t i = 0; i < c.size(); ++i) {
            CAPTURE(i, json::serialize(c[i]));
            CHECK(c[i].at(0).to_number<std::int64_t>() ==
                  since + static_cast<std::int64_t>(i) * minute);
            double const h = num(c[i].at(2));
            double const l = num(c[i].at(3));
            CHECK(l <= num(c[i].at(1)));
            CHECK(l <= num(c[i].at(4)));
            CHECK(h >= num(c[i].at(1)));
            CHECK(h >= num(c[i].at(4)));
            CHECK(num(c[i].at(5)) > 0);
        }
    }

    { // a resting limit order, canceled; a market order filled; its fill read back
        // ccxt leaves createOrder's status unset; its info is the upstream's order status.
        auto const& limit = s.at("limitOrder");
        REQUIRE(limit.at("id").is_string());
        auto const oid = std::string(limit.at("id").as_string());
        CHECK(limit.at("info").at("resting").at("oid").as_string() == oid);
        CHECK(s.at("cancel").at("status") == "success");
        auto const st =
            info(*m, R"({"type":"orderStatus","user":")" + wallet + R"(","oid":)" + oid + "}");
        CHECK(st.at("order").at("status") == "canceled");
        CHECK(st.at("order").at("order").at("limitPx") == "60000.0");
        CHECK(st.at("order").at("order").at("origSz") == "0.001");

        // ccxt's market buy: an Ioc bounded at last x 1.05 that takes the best ask.
        auto const& market = s.at("marketOrder");
        REQUIRE(market.at("id").is_string());
        CHECK(market.at("info").at("filled").at("totalSz") == "0.001");
        CHECK(market.at("info").at("filled").at("avgPx") == "65001.0");
        CHECK(num(market.at("filled")) == 0.001);
        CHECK(num(market.at("average")) == 65001);
        auto const done = info(*m, R"({"type":"orderStatus","user":")" + wallet + R"(","oid":)" +
                                       std::string(market.at("id").as_string()) + "}");
        CHECK(done.at("order").at("status") == "filled");
        CHECK(done.at("order").at("order").at("limitPx") == "68250.0");
        CHECK(done.at("order").at("order").at("tif") == "Ioc");

        // fetchTrades reads the wallet's fills: the market order took the best ask.
        auto const& trades = s.at("trades").as_array();
        REQUIRE(trades.size() == 1);
        CHECK(trades[0].at("order") == market.at("id"));
        CHECK(trades[0].at("side") == "buy");
        CHECK(num(trades[0].at("price")) == 65001);
        CHECK(num(trades[0].at("amount")) == 0.001);
        CHECK(trades[0].at("takerOrMaker") == "taker");
        // The fill: taker fee 0.045% of 65.001 (0.02925) plus the approved builder fee (ccxt's
        // 10 tenths of a bp: 0.0065); `fee` includes `builderFee` (alpha.md §3.8, as the
        // recorded ccxt-fetchMyTrades.json fills add up).
        auto const fills = info(*m, R"({"type":"userFills","user":")" + wallet + R"("})");
        REQUIRE(fills.as_array().size() == 1);
        CHECK(fills.at(0).at("fee") == "0.03575");
        CHECK(fills.at(0).at("builderFee") == "0.0065");
        // ccxt 4.5.57 adds builderFee to fee once more when it parses a fill.
        CHECK(num(trades[0].at("fee").at("cost")) == 0.04225);
        CHECK(info(*m, R"({"type":"maxBuilderFee","user":")" + wallet + R"(","builder":")" +
                           builder + R"("})") == 10);
    }
}

} // namespace ccxt_alpha_test
