// ccxt's `aster` class, a widely used Aster client written independently of this project (npm,
// pinned by tests/ccxt/package-lock.json), pointed at mock-beta: it loads the spot and futures
// markets, reads a ticker, a book, candles and trades, and with a wallet key signs (EIP-712
// `AsterSignTransaction`, v3 nonces, with its own code) the futures balance, the spot account,
// the leverage brackets and the positions (tests/ccxt/ccxt_beta.mjs). Node.js and
// tests/ccxt/node_modules are installed by scripts/test.sh; without them this test fails
// saying so, it never skips.
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
#include <map>
#include <set>
#include <string>

namespace ccxt_beta_test {

using namespace gateway;
using gateway::test::fetch;
using gateway::test::mock_post;
namespace json = boost::json;
namespace fs = std::filesystem;
namespace http = boost::beast::http;

namespace {

// Throwaway key (never funded anywhere real).
constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

fs::path const ccxt_dir = fs::path(GATEWAY_FIXTURES_DIR) / ".." / "ccxt";

/// Fails (never skips) when the Node side is not installed.
void require_ccxt_installed() {
    if (!fs::exists(ccxt_dir / "node_modules" / "ccxt" / "package.json"))
        FAIL("ccxt is not installed in " + ccxt_dir.string() +
             ": run `npm ci` there (scripts/test.sh does)");
}

json::value get_json(mocks::mock_server& m, std::string const& target) {
    auto const r = fetch(http::verb::get, m.base_url() + target);
    INFO(target << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

double num(json::value const& v) {
    return v.to_number<double>();
}

double text_num(json::value const& v) {
    return std::stod(std::string(v.as_string()));
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

TEST_CASE("ccxt's aster class loads markets, reads market data and signed account reads "
          "against mock-beta",
          "[e2e][beta][ccxt]") {
    require_ccxt_installed();
    auto m = mocks::mock_server::start({mocks::upstream::beta});
    auto const wallet = sign::address_of(sign::private_key::from_hex(wallet_key).value()).str();
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + wallet +
                  R"(","balances":{"USDT":"100000"},"spotBalances":{"USDT":"250","ASTER":"1000"},
                  "positions":[{"symbol":"BTCUSDT","size":"0.5","entryPrice":"60000","leverage":10},
                               {"symbol":"ETHUSDT","size":"-2","entryPrice":"3500","leverage":20,
                                "marginType":"isolated"}]})");
    test::set_mark(*m, "BTC", "65000");
    test::set_mark(*m, "ETH", "3400");
    // 60 walk steps print about 60 trades, all one tick from the pinned marks (the chance that
    // fewer than 5 print is far below 1e-9), so the newest trades are known.
    mock_post(*m, "/__mock/tick", R"({"steps":60})");
    test::reset_stats(*m);

    json::object input;
    input["baseUrl"] = m->base_url();
    input["privateKey"] = wallet_key;
    input["symbol"] = "BTC/USDT:USDT";
    input["bookLimit"] = 10;
    input["timeframe"] = "1m";
    // 30 one-minute candles from a whole minute 40 minutes back: backfilled history, complete.
    std::int64_t const minute = 60'000;
    std::int64_t const since = (now_ms() / minute - 40) * minute;
    input["since"] = since;
    input["candles"] = 30;
    input["trades"] = 5;
    auto const run = test::run_node_script(ccxt_dir / "ccxt_beta.mjs", json::serialize(input));
    INFO("ccxt_beta.mjs exited " << run.exit_code << "\nstdout: " << run.out
                                 << "\nstderr: " << run.err);
    if (run.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    REQUIRE(run.exit_code == 0);
    auto const s = json::parse(run.out);

    { // the mock saw exactly what ccxt sends: v3 paths only, each read once
        auto const stats = test::mock_stats(*m);
        CHECK(stats.at("byKind") == json::parse(R"({
            "GET /api/v3/exchangeInfo": 2, "GET /fapi/v3/exchangeInfo": 1,
            "GET /fapi/v3/ticker/24hr": 1, "GET /fapi/v3/depth": 1, "GET /fapi/v3/klines": 1,
            "GET /fapi/v3/trades": 1, "GET /fapi/v3/balance": 1, "GET /api/v3/account": 1,
            "GET /fapi/v3/leverageBracket": 1, "GET /fapi/v3/positionRisk": 1})"));
    }

    { // markets: every perp (stock and gold included) and spot pair, precisions from filters
        std::map<std::string, json::value> by_symbol;
        for (auto const& mk : s.at("markets").as_array())
            by_symbol[std::string(mk.at("symbol").as_string())] = mk;
        std::set<std::string> symbols;
        for (auto const& [k, v] : by_symbol)
            symbols.insert(k);
        CHECK(symbols == std::set<std::string>{"BTC/USDT:USDT", "ETH/USDT:USDT", "SOL/USDT:USDT",
                                               "TSLA/USDT:USDT", "NVDA/USDT:USDT", "XAU/USDT:USDT",
                                               "BTC/USDT", "ETH/USDT", "ASTER/USDT"});
        auto const& btc = by_symbol.at("BTC/USDT:USDT");
        CHECK(btc.at("id") == "BTCUSDT");
        CHECK(btc.at("type") == "swap");
        CHECK(num(btc.at("amountPrecision")) == 0.001);
        CHECK(num(btc.at("pricePrecision")) == 0.1);
        CHECK(num(btc.at("minAmount")) == 0.001);
        CHECK(num(btc.at("minCost")) == 5);
        // TSLAUSDT's pricePrecision (6) is not its tick: ccxt takes the tick from PRICE_FILTER.
        CHECK(num(by_symbol.at("TSLA/USDT:USDT").at("pricePrecision")) == 0.01);
        auto const& spot = by_symbol.at("BTC/USDT");
        CHECK(spot.at("type") == "spot");
        CHECK(num(spot.at("amountPrecision")) == 0.00001);
        CHECK(num(spot.at("pricePrecision")) == 0.01);
        CHECK(num(spot.at("minCost")) == 5); // spot MIN_NOTIONAL's key is minNotional
    }

    { // ticker: the last trade is one tick from the pinned mark, inside the day's range
        auto const& t = s.at("ticker");
        CHECK(t.at("symbol") == "BTC/USDT:USDT");
        double const last = num(t.at("last"));
        CHECK((last == 64999.9 || last == 65000.1));
        CHECK(num(t.at("low")) <= last);
        CHECK(num(t.at("high")) >= last);
        CHECK(num(t.at("baseVolume")) > 0);
        CHECK(num(t.at("quoteVolume")) > 0);
    }

    { // order book: ten levels a side, best bid and ask one tick either side of the mark
        auto const& b = s.at("orderBook");
        CHECK(b.at("symbol") == "BTC/USDT:USDT");
        CHECK(b.at("depth") == json::array{10, 10});
        CHECK(num(b.at("bids").at(0).at(0)) == 64999.9);
        CHECK(num(b.at("asks").at(0).at(0)) == 65000.1);
        CHECK(num(b.at("bids").at(1).at(0)) < 64999.9);
        CHECK(num(b.at("asks").at(1).at(0)) > 65000.1);
        CHECK(num(b.at("bids").at(0).at(1)) > 0);
    }

    { // OHLCV: 30 one-minute candles from `since`, as the mock's own klines have them
        auto const& c = s.at("ohlcv").at("candles").as_array();
        REQUIRE(c.size() == 30);
        auto const raw =
            get_json(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1m&limit=30&startTime=" +
                             std::to_string(since));
        REQUIRE(raw.as_array().size() == 30);
        for (std::size_t i = 0; i < c.size(); ++i) {
            CAPTURE(i, json::serialize(c[i]));
            CHECK(c[i].at(0).to_number<std::int64_t>() ==
                  since + static_cast<std::int64_t>(i) * minute);
            for (std::size_t k = 1; k <= 5; ++k)
                CHECK(num(c[i].at(k)) == text_num(raw.at(i).at(k)));
            CHECK(num(c[i].at(3)) <= num(c[i].at(1)));
            CHECK(num(c[i].at(2)) >= num(c[i].at(4)));
            CHECK(num(c[i].at(5)) > 0);
        }
    }

    { // trades: the newest five, oldest first, each one tick from the pinned mark
        auto const& trades = s.at("trades").as_array();
        REQUIRE(trades.size() == 5);
        for (auto const& t : trades) {
            CAPTURE(json::serialize(t));
            double const px = num(t.at("price"));
            CHECK((px == 64999.9 || px == 65000.1));
            // The taker's side: a buyer lifts the ask, a seller hits the bid.
            CHECK(t.at("side") == (px == 65000.1 ? "buy" : "sell"));
            CHECK(num(t.at("amount")) > 0);
        }
        for (std::size_t i = 1; i < trades.size(); ++i)
            CHECK(num(trades[i].at("timestamp")) >= num(trades[i - 1].at("timestamp")));
    }

    { // signed reads: ccxt's v3 signatures and nonces pass the mock's checks
        CHECK(s.at("wallet").as_string() == wallet);
        // Futures wallet: 100000 - fees (0.035% of 30000 and of 7000) - ETH's isolated margin
        // (7000 / 20) is the cross wallet 99637.05; with the isolated margin 99987.05. Free is
        // availableBalance: cross wallet + BTC's uPnL (0.5 x 5000) - its margin (32500 / 10).
        auto const& usdt = s.at("swapBalance").at("USDT");
        CHECK(num(usdt.at("total")) == 99987.05);
        CHECK(num(usdt.at("free")) == 98887.05);
        auto const& spot = s.at("spotBalance");
        CHECK(num(spot.at("USDT").at("free")) ==
              100250); // balances credits spot USDT too (CONTRACT §10)
        CHECK(num(spot.at("ASTER").at("free")) == 1000);
        CHECK(num(spot.at("ASTER").at("used")) == 0);

        std::map<std::string, json::value> positions;
        for (auto const& p : s.at("positions").as_array())
            positions[std::string(p.at("symbol").as_string())] = p;
        REQUIRE(positions.size() == 2);
        auto const& btc = positions.at("BTC/USDT:USDT");
        CHECK(btc.at("side") == "long");
        CHECK(num(btc.at("contracts")) == 0.5);
        CHECK(num(btc.at("entryPrice")) == 60000);
        CHECK(num(btc.at("markPrice")) == 65000);
        CHECK(num(btc.at("unrealizedPnl")) == 2500);
        CHECK(num(btc.at("leverage")) == 10);
        CHECK(btc.at("marginMode") == "cross");
        CHECK(btc.at("liquidationPrice").is_null()); // "0": the cross wallet covers it
        auto const& eth = positions.at("ETH/USDT:USDT");
        CHECK(eth.at("side") == "short");
        CHECK(num(eth.at("contracts")) == 2);
        CHECK(num(eth.at("unrealizedPnl")) == 200);
        CHECK(eth.at("marginMode") == "isolated");
        // (350 + 2 x 3500) / (2 x 0.0065 + 2), rounded to the tick.
        CHECK(num(eth.at("liquidationPrice")) == 3651.27);
        CHECK(num(eth.at("collateral")) == 550); // isolatedMargin: wallet 350 + uPnL 200
    }
}

} // namespace ccxt_beta_test
