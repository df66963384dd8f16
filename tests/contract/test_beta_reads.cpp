// Provider beta's reads through the SDK client -> gatewayd -> mock-beta, offline (spec 2.5-2.11,
// 4.3; CONTRACT §2-4, §6.2, §7, §10). Accounts are seeded, marks pinned and the gateway's read
// signer approved through the mock control API, so every value below is known in advance.
//
// The first test cases run one body against alpha and beta (GENERATE): the same request answers
// the same shape on both, a client switching provider changes one path segment. The rest are
// beta's own: the read signer, the rules listing, spot, rwas markets, the upstream economy.
#include <catch2/catch.hpp>

#include "embedded.hpp"
#include "support/accounts.hpp"
#include "support/api.hpp"
#include "support/catch_result.hpp"
#include "support/mock_control.hpp"
#include "support/shapes.hpp"
#include "support/test_gateway.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <sys/stat.h>

#include <barrier>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

using namespace gateway;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;

namespace {

constexpr char const* stranger = "0x3333333333333333333333333333333333333333";

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// The gateway's beta read signer, as its provider detail shows it (CONTRACT §6.2).
std::string read_signer(test_gateway const& gw) {
    auto d = gw.sdk->provider("beta");
    REQUIRE(d);
    REQUIRE(d->vertical_details.front().read_signer);
    return *d->vertical_details.front().read_signer;
}

/// `user` approves the gateway's read signer as an API wallet on `m` (CONTRACT §10).
void approve(test_gateway const& gw, mocks::mock_server& m, std::string const& user) {
    mock_post(m, "/__mock/agents",
              R"({"user":")" + user + R"(","signer":")" + read_signer(gw) + R"("})");
}

/// One provider's view of the shared test body: where its upstream is, how an account is seeded
/// there, and the names that differ.
struct venue {
    std::string provider;
    std::string rwa;        ///< the seeded real-world-asset perp: xyz:TSLA or TSLA
    std::string fee_asset;  ///< USDC or USDT
    std::string spot_asset; ///< a seeded spot balance: PURR or ASTER
    std::string trades_kind, book_kind, positions_kind; ///< mock stats kinds
    std::size_t trade_history; ///< trades a fresh mock holds per market (mocks/README.md)
    mocks::mock_server* (*live)(test_gateway&);
    mocks::mock_server* (*testnet)(test_gateway&);
    /// Seeds `trader`: collateral 100000, BTC long 0.5 @ 60000 (10x cross), the rwa perp short
    /// 10 @ 440 (5x isolated), 500 or 1000 of the spot asset, an ETH limit buy 1 @ 3000 and a
    /// BTC reduce-only stop_limit sell 0.1 @ 54000 triggered at 55000; marks BTC 65000, rwa 430.
    void (*seed)(test_gateway&, mocks::mock_server&);
};

std::string const shared_orders = R"("orders":[
      {"symbol":"ETH","side":"buy","type":"limit","price":"3000","size":"1"},
      {"symbol":"BTC","side":"sell","type":"stop_limit","price":"54000","triggerPrice":"55000",
       "size":"0.1","reduceOnly":true}])";

venue const alpha_venue{"alpha",
                        "xyz:TSLA",
                        "USDC",
                        "PURR",
                        "recentTrades",
                        "l2Book",
                        "clearinghouseState",
                        200,
                        [](test_gateway& gw) { return gw.alpha.get(); },
                        [](test_gateway& gw) { return gw.alpha_testnet.get(); },
                        [](test_gateway&, mocks::mock_server& m) {
                            set_mark(m, "BTC", "65000");
                            set_mark(m, "xyz:TSLA", "430");
                            mock_post(m, "/__mock/accounts",
                                      std::string(R"({"address":")") + trader + R"(",
            "balances":{"USDC":"100000","PURR":"500"},
            "positions":[
              {"symbol":"BTC","size":"0.5","entryPrice":"60000","leverage":10,"marginMode":"cross"},
              {"symbol":"xyz:TSLA","size":"-10","entryPrice":"440","leverage":5,
               "marginMode":"isolated"}],)" +
                                          shared_orders + "}");
                        }};

venue const beta_venue{"beta",
                       "TSLA",
                       "USDT",
                       "ASTER",
                       "GET /fapi/v3/trades",
                       "GET /fapi/v3/depth",
                       "GET /fapi/v3/positionRisk",
                       40,
                       [](test_gateway& gw) { return gw.beta.get(); },
                       [](test_gateway& gw) { return gw.beta_testnet.get(); },
                       [](test_gateway& gw, mocks::mock_server& m) {
                           set_mark(m, "BTC", "65000");
                           set_mark(m, "TSLA", "430");
                           mock_post(m, "/__mock/accounts",
                                     std::string(R"({"address":")") + trader + R"(",
            "balances":{"USDT":"100000"},
            "spotBalances":{"ASTER":"1000"},
            "positions":[
              {"symbol":"BTCUSDT","size":"0.5","entryPrice":"60000","leverage":10},
              {"symbol":"TSLAUSDT","size":"-10","entryPrice":"440","leverage":5,
               "marginType":"isolated"}],)" +
                                         shared_orders + "}");
                           approve(gw, m, trader);
                           approve(gw, m, nobody);
                       }};

/// Every value of every item of a JSON array is a string, except the named keys.
void all_strings_but(json::value const& list, std::set<std::string> const& others) {
    for (auto const& item : list.as_array())
        for (auto const& kv : item.as_object())
            if (!others.count(std::string(kv.key()))) {
                CAPTURE(kv.key());
                CHECK(kv.value().is_string());
            }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// One body, two providers

TEST_CASE("account reads answer the same shapes and values on alpha and beta",
          "[contract][beta][alpha]") {
    auto const v = GENERATE(alpha_venue, beta_venue);
    CAPTURE(v.provider);
    test_gateway gw;
    auto& mock = *v.live(gw);
    v.seed(gw, mock);
    auto const key = gw.create_key();
    auto c = gw.client_with(key);
    std::string const base = "/v1/perps/" + v.provider + "/account/" + trader;

    SECTION("positions: long and short, entry, mark, PnL, leverage, margin") {
        auto pos = c.positions(v.provider, trader);
        REQUIRE(pos);
        REQUIRE(pos->size() == 2);
        auto const& btc = find_by(*pos, "BTC");
        CHECK(btc.side == position_side::long_);
        CHECK(btc.size.str() == "0.5");
        CHECK(btc.entry_price.str() == "60000");
        CHECK(btc.mark_price.str() == "65000");
        CHECK(btc.unrealized_pnl.str() == "2500");
        CHECK(btc.leverage.str() == "10");
        CHECK(btc.margin.str() == "3250");         // 0.5 x 65000 / 10, cross
        CHECK(btc.liquidation_price.str() == "0"); // 100000 behind a 32500 long
        auto const& rwa = find_by(*pos, v.rwa);
        CHECK(rwa.side == position_side::short_);
        CHECK(rwa.size.str() == "10");
        CHECK(rwa.entry_price.str() == "440");
        CHECK(rwa.mark_price.str() == "430");
        CHECK(rwa.unrealized_pnl.str() == "100");
        CHECK(rwa.leverage.str() == "5");
        CHECK(rwa.liquidation_price > decimal::parse("430").value()); // a short liquidates above

        auto raw = api_get(gw, key, base + "/positions");
        REQUIRE(raw.status == 200);
        for (auto const& p : raw.body.as_array())
            CHECK(keys(p) == std::set<std::string>{"symbol", "side", "size", "entryPrice",
                                                   "markPrice", "unrealizedPnl", "leverage",
                                                   "liquidationPrice", "margin"});
        all_strings_but(raw.body, {});
    }

    SECTION("a moved mark moves the position's PnL") {
        set_mark(mock, "BTC", "70000");
        auto pos = c.positions(v.provider, trader);
        REQUIRE(pos);
        CHECK(find_by(*pos, "BTC").unrealized_pnl.str() == "5000");
    }

    SECTION("account summary: PnL and position value over every position") {
        auto acct = c.account(v.provider, trader);
        REQUIRE(acct);
        CHECK(acct->unrealized_pnl.str() == "2600");            // 2500 + 100
        CHECK(acct->total_position_value.str() == "36800");     // 32500 + 4300
        CHECK(acct->equity > decimal::parse("100000").value()); // collateral + uPnL - fees
        CHECK(acct->used_margin > decimal{});
        CHECK(acct->available_margin < acct->equity);
        auto raw = api_get(gw, key, base);
        REQUIRE(raw.status == 200);
        CHECK(keys(raw.body) == std::set<std::string>{"equity", "availableMargin", "usedMargin",
                                                      "unrealizedPnl", "totalPositionValue"});
        for (auto const& kv : raw.body.as_object())
            CHECK(kv.value().is_string());
    }

    SECTION("open orders in the contract shape, newest first") {
        auto orders = c.open_orders(v.provider, trader);
        REQUIRE(orders);
        REQUIRE(orders->size() == 2);
        CHECK(orders->front().timestamp >= orders->back().timestamp);
        auto const& eth = find_by(*orders, "ETH");
        CHECK(eth.side == side::buy);
        CHECK(eth.type == order_type::limit);
        REQUIRE(eth.price);
        CHECK(eth.price->str() == "3000");
        CHECK_FALSE(eth.trigger_price);
        CHECK(eth.size.str() == "1");
        CHECK(eth.filled_size.str() == "0");
        CHECK_FALSE(eth.reduce_only);
        CHECK(eth.status == open_order_status::open);
        CHECK(std::all_of(eth.order_id.begin(), eth.order_id.end(),
                          [](char ch) { return ch >= '0' && ch <= '9'; }));
        auto const& stop = find_by(*orders, "BTC");
        CHECK(stop.side == side::sell);
        CHECK(stop.type == order_type::stop_limit);
        REQUIRE(stop.price);
        CHECK(stop.price->str() == "54000");
        REQUIRE(stop.trigger_price);
        CHECK(stop.trigger_price->str() == "55000");
        CHECK(stop.reduce_only);
        auto raw = api_get(gw, key, base + "/orders");
        REQUIRE(raw.status == 200);
        for (auto const& o : raw.body.as_array())
            CHECK(keys(o) == std::set<std::string>{"orderId", "clientOrderId", "symbol", "side",
                                                   "type", "price", "triggerPrice", "size",
                                                   "filledSize", "reduceOnly", "status",
                                                   "timestamp"});
    }

    SECTION("fills: newest first, limited, filtered by time") {
        auto all = c.fills(v.provider, trader);
        REQUIRE(all);
        REQUIRE(all->size() == 2); // the two seeded opens
        CHECK(all->front().timestamp >= all->back().timestamp);
        for (auto const& f : *all) {
            CHECK_FALSE(f.closed_pnl); // opening fills close nothing
            CHECK(f.fee_asset == v.fee_asset);
            CHECK(f.fee > decimal{});
        }
        CHECK(find_by(*all, "BTC").side == side::buy);
        CHECK(find_by(*all, "BTC").price.str() == "60000");
        CHECK(find_by(*all, v.rwa).side == side::sell);
        CHECK(find_by(*all, v.rwa).size.str() == "10");

        fills_params one;
        one.limit = 1;
        auto newest = c.fills(v.provider, trader, one);
        REQUIRE(newest);
        REQUIRE(newest->size() == 1);
        CHECK(newest->front().id == all->front().id);

        fills_params future;
        future.start_time = all->front().timestamp + 1;
        auto none = c.fills(v.provider, trader, future);
        REQUIRE(none);
        CHECK(none->empty());

        auto raw = api_get(gw, key, base + "/fills");
        REQUIRE(raw.status == 200);
        for (auto const& f : raw.body.as_array())
            CHECK(keys(f) == std::set<std::string>{"id", "orderId", "symbol", "side", "price",
                                                   "size", "fee", "feeAsset", "liquidity",
                                                   "closedPnl", "timestamp"});
    }

    SECTION("spot balances: available = total - locked") {
        auto bal = c.spot_balances(v.provider, trader);
        REQUIRE(bal);
        bool seen = false;
        for (auto const& b : *bal)
            if (b.asset == v.spot_asset) {
                seen = true;
                CHECK(b.total == b.available);
                CHECK(b.locked.str() == "0");
                CHECK(b.total > decimal{});
            }
        CHECK(seen);
        auto raw = api_get(gw, key, "/v1/spot/" + v.provider + "/balances/" + trader);
        REQUIRE(raw.status == 200);
        for (auto const& b : raw.body.as_array())
            CHECK(keys(b) == std::set<std::string>{"asset", "available", "locked", "total"});
        all_strings_but(raw.body, {});
    }

    SECTION("an address with no activity reads empty, not as an error") {
        auto pos = c.positions(v.provider, nobody);
        REQUIRE(pos);
        CHECK(pos->empty());
        auto orders = c.open_orders(v.provider, nobody);
        REQUIRE(orders);
        CHECK(orders->empty());
        auto fills = c.fills(v.provider, nobody);
        REQUIRE(fills);
        CHECK(fills->empty());
        auto bal = c.spot_balances(v.provider, nobody);
        REQUIRE(bal);
        CHECK(bal->empty());
        auto acct = c.account(v.provider, nobody);
        REQUIRE(acct);
        CHECK(acct->equity.str() == "0");
        CHECK(acct->unrealized_pnl.str() == "0");
        CHECK(acct->total_position_value.str() == "0");
    }
}

TEST_CASE("market reads answer the same shapes on alpha and beta", "[contract][beta][alpha]") {
    auto const v = GENERATE(alpha_venue, beta_venue);
    CAPTURE(v.provider);
    test_gateway gw;
    auto const key = gw.create_key();
    auto c = gw.client_with(key);

    SECTION("trades: newest first, default 50, at most the limit") {
        auto t = c.trades(v.provider, "BTC");
        REQUIRE(t);
        CHECK(t->size() == std::min<std::size_t>(50, v.trade_history));
        for (std::size_t i = 1; i < t->size(); ++i)
            CHECK((*t)[i - 1].timestamp >= (*t)[i].timestamp);
        trades_params p;
        p.limit = 3;
        auto three = c.trades(v.provider, "BTC", p);
        REQUIRE(three);
        CHECK(three->size() == 3);
        p.limit = 200;
        auto most = c.trades(v.provider, "BTC", p);
        REQUIRE(most);
        CHECK(most->size() == std::min<std::size_t>(200, v.trade_history));
        auto raw = api_get(gw, key, "/v1/perps/" + v.provider + "/markets/BTC/trades?limit=2");
        REQUIRE(raw.status == 200);
        for (auto const& x : raw.body.as_array())
            CHECK(keys(x) == std::set<std::string>{"id", "price", "size", "side", "timestamp"});
        all_strings_but(raw.body, {"timestamp"});
    }

    SECTION("candles: hourly, oldest first, for a perp and a real-world-asset perp") {
        candles_params p;
        p.interval = interval::h1;
        for (std::string const& sym : {std::string("BTC"), v.rwa}) {
            CAPTURE(sym);
            auto k = c.candles(v.provider, sym, p);
            REQUIRE(k);
            REQUIRE(k->size() > 10);
            for (std::size_t i = 1; i < k->size(); ++i)
                CHECK((*k)[i - 1].timestamp + 3'600'000 <= (*k)[i].timestamp);
            for (auto const& candle : *k) {
                CHECK(candle.low <= candle.open);
                CHECK(candle.high >= candle.close);
            }
        }
    }

    SECTION("orderbook: depth levels, bids high to low, asks low to high") {
        orderbook_params p;
        p.depth = 5;
        auto b = c.orderbook(v.provider, "ETH", p);
        REQUIRE(b);
        CHECK(b->symbol == "ETH");
        REQUIRE(b->bids.size() == 5);
        REQUIRE(b->asks.size() == 5);
        for (std::size_t i = 1; i < 5; ++i) {
            CHECK(b->bids[i - 1].price > b->bids[i].price);
            CHECK(b->asks[i - 1].price < b->asks[i].price);
        }
        CHECK(b->bids.front().price < b->asks.front().price);
        CHECK(b->timestamp > 0);
        auto raw = api_get(gw, key, "/v1/perps/" + v.provider + "/markets/ETH/orderbook");
        REQUIRE(raw.status == 200);
        CHECK(keys(raw.body) == std::set<std::string>{"symbol", "bids", "asks", "timestamp"});
        CHECK(raw.body.at("bids").as_array().size() == 20); // default depth
    }

    SECTION("prices: perps symbols only, by base asset") {
        auto prices = c.prices(v.provider);
        REQUIRE(prices);
        for (auto sym : {"BTC", "ETH", "SOL"})
            CHECK(prices->count(sym) == 1);
        for (auto const& [sym, px] : *prices) {
            CAPTURE(sym);
            CHECK(sym.find('/') == std::string::npos);
            CHECK(sym.find("USDT") == std::string::npos);
            CHECK(px > decimal{});
        }
    }

    SECTION("markets: every listed market with its rules") {
        auto m = c.markets(vertical::perps, v.provider);
        REQUIRE(m);
        auto const& btc = find_by(*m, "BTC");
        CHECK(btc.max_leverage > 0);
        if (v.provider == "beta") {
            CHECK(btc.tick_size);
            CHECK(btc.step_size);
            CHECK(btc.min_notional);
        } else {
            CHECK(btc.asset);
            CHECK(btc.sz_decimals);
        }
    }

    SECTION("rwas markets: the same item shape") {
        auto m = c.rwas_markets(v.provider);
        REQUIRE(m);
        auto const& rwa = find_by(*m, v.rwa);
        CHECK(rwa.max_leverage > 0);
        CHECK(rwa.mark_price > decimal{});
        auto raw = api_get(gw, key, "/v1/rwas/" + v.provider + "/markets");
        REQUIRE(raw.status == 200);
        for (auto const& x : raw.body.as_array())
            CHECK(keys(x) == std::set<std::string>{"symbol", "maxLeverage", "szDecimals",
                                                   "markPrice", "openInterest"});
    }
}

TEST_CASE("read errors are the same contract rows on alpha and beta", "[contract][beta][alpha]") {
    auto const v = GENERATE(alpha_venue, beta_venue);
    CAPTURE(v.provider);
    test_gateway gw;
    auto& mock = *v.live(gw);
    v.seed(gw, mock);
    auto const key = gw.create_key();
    auto c = gw.client_with(key);
    std::string const p = "/v1/perps/" + v.provider;

    SECTION("unknown symbol: 404 MARKET_NOT_FOUND") {
        for (auto const& path :
             {p + "/markets/DOGE/trades", p + "/markets/DOGE/candles?interval=1h",
              p + "/markets/PURR%2FUSDC/orderbook"})
            require_error(api_get(gw, key, path), 404, "MARKET_NOT_FOUND");
        auto t = c.trades(v.provider, "DOGE");
        REQUIRE_FALSE(t);
        CHECK(t.error().code == errc::market_not_found);
    }

    SECTION("malformed address, bad interval, limit and depth: 400 naming the field") {
        require_error(api_get(gw, key, p + "/account/0x123"), 400, "VALIDATION_ERROR", "address");
        require_error(api_get(gw, key, p + "/account/nope/positions"), 400, "VALIDATION_ERROR",
                      "address");
        require_error(api_get(gw, key, "/v1/spot/" + v.provider + "/balances/nope"), 400,
                      "VALIDATION_ERROR", "address");
        require_error(api_get(gw, key, p + "/markets/BTC/candles?interval=2m"), 400,
                      "VALIDATION_ERROR", "interval");
        require_error(api_get(gw, key, p + "/markets/BTC/candles"), 400, "VALIDATION_ERROR",
                      "interval");
        require_error(api_get(gw, key, p + "/markets/BTC/trades?limit=201"), 400,
                      "VALIDATION_ERROR", "limit");
        require_error(api_get(gw, key, p + "/markets/BTC/trades?limit=0"), 400, "VALIDATION_ERROR",
                      "limit");
        require_error(api_get(gw, key, p + "/markets/BTC/orderbook?depth=1001"), 400,
                      "VALIDATION_ERROR", "depth");
        require_error(api_get(gw, key, p + "/markets/BTC/orderbook?depth=0"), 400,
                      "VALIDATION_ERROR", "depth");
        require_error(api_get(gw, key, p + "/account/" + trader + "/fills?limit=501"), 400,
                      "VALIDATION_ERROR", "limit");
    }

    SECTION("the SDK refuses the same parameters before sending anything") {
        reset_stats(mock);
        trades_params tp;
        tp.limit = 201;
        auto t = c.trades(v.provider, "BTC", tp);
        REQUIRE_FALSE(t);
        CHECK(t.error().code == errc::validation_error);
        CHECK(t.error().field() == "limit");
        orderbook_params bp;
        bp.depth = 1001;
        auto b = c.orderbook(v.provider, "BTC", bp);
        REQUIRE_FALSE(b);
        CHECK(b.error().field() == "depth");
        auto a = c.positions(v.provider, "0xnothex");
        REQUIRE_FALSE(a);
        CHECK(a.error().field() == "address");
        CHECK(upstream_calls(mock, v.trades_kind) == 0);
        CHECK(upstream_calls(mock, v.book_kind) == 0);
        CHECK(upstream_calls(mock, v.positions_kind) == 0);
    }

    SECTION("upstream 500: 502 UPSTREAM_ERROR for market and account reads") {
        REQUIRE(c.markets(vertical::perps, v.provider)); // markets learned before the fault
        mock_post(mock, "/__mock/faults", R"({"status":500})");
        auto t = c.trades(v.provider, "SOL");
        REQUIRE_FALSE(t);
        CHECK(t.error().code == errc::upstream_error);
        CHECK(t.error().status == 502);
        auto pos = c.positions(v.provider, trader);
        REQUIRE_FALSE(pos);
        CHECK(pos.error().status == 502);
    }

    SECTION("upstream hang: 504 UPSTREAM_TIMEOUT within the configured timeout") {
        REQUIRE(c.markets(vertical::perps, v.provider));
        mock_post(mock, "/__mock/faults", R"({"latencyMs":5000})");
        // The upstream answers 200 after 5 s: a 504 means the gateway gave up at its own timeout
        // (1000 ms) without waiting for it (no bound on the wall clock, which flaked under load).
        auto b = c.orderbook(v.provider, "SOL");
        REQUIRE_FALSE(b);
        CHECK(b.error().code == errc::upstream_timeout);
        CHECK(b.error().status == 504);
    }

    SECTION("upstream 429: 503 PROVIDER_UNAVAILABLE with Retry-After") {
        REQUIRE(c.markets(vertical::perps, v.provider));
        mock_post(mock, "/__mock/faults", R"({"status":429})");
        auto raw = api_get(gw, key, p + "/markets/SOL/trades");
        require_error(raw, 503, "PROVIDER_UNAVAILABLE");
        CHECK(raw.raw.message.find(boost::beast::http::field::retry_after) !=
              raw.raw.message.end());
        auto pos = c.positions(v.provider, trader);
        REQUIRE_FALSE(pos);
        CHECK(pos.error().code == errc::provider_unavailable);
        CHECK(pos.error().retry_after);
    }
}

TEST_CASE("reads under /v1/testnet/ reach the provider's testnet upstream on alpha and beta",
          "[contract][beta][alpha]") {
    auto const v = GENERATE(alpha_venue, beta_venue);
    CAPTURE(v.provider);
    test_gateway gw;
    auto c = gw.client_with(gw.create_key(server::auth::key_env::test), true);
    reset_stats(*v.live(gw));
    reset_stats(*v.testnet(gw));
    REQUIRE(c.trades(v.provider, "ETH"));
    REQUIRE(c.orderbook(v.provider, "ETH"));
    CHECK(upstream_calls(*v.testnet(gw), v.trades_kind) == 1);
    CHECK(upstream_calls(*v.testnet(gw), v.book_kind) == 1);
    CHECK(upstream_calls(*v.live(gw), v.trades_kind) == 0);
    CHECK(upstream_calls(*v.live(gw), v.book_kind) == 0);
    // A test key stays on testnet paths.
    auto live = gw.client_with(gw.create_key(server::auth::key_env::test), false);
    auto refused = live.trades(v.provider, "ETH");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::testnet_key_only);
}

// ---------------------------------------------------------------------------------------------
// beta's own

TEST_CASE("beta account reads are signed by the gateway's read signer: 403 until approved",
          "[contract][beta]") {
    test_gateway gw;
    auto const key = gw.create_key();
    auto c = gw.client_with(key);
    auto const signer = read_signer(gw);
    CHECK(address::parse(signer)); // 0x + 40 hex, lower case
    CHECK(signer == address::parse(signer)->str());
    mock_post(*gw.beta, "/__mock/accounts",
              std::string(R"({"address":")") + stranger + R"(","balances":{"USDT":"5000"}})");

    std::string const p = std::string("/v1/perps/beta/account/") + stranger;
    for (auto const& path : {p, p + "/positions", p + "/orders", p + "/fills",
                             std::string("/v1/spot/beta/balances/") + stranger}) {
        auto const raw = api_get(gw, key, path);
        require_error(raw, 403, "SIGNER_NOT_APPROVED");
        // The message names the address the account has to approve.
        CHECK_THAT(std::string(raw.body.at("error").at("message").as_string()),
                   Catch::Contains(signer));
    }
    auto refused = c.positions("beta", stranger);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::signer_not_approved);
    CHECK(refused.error().status == 403);

    approve(gw, *gw.beta, stranger);
    auto acct = c.account("beta", stranger);
    REQUIRE(acct);
    CHECK(acct->equity.str() == "5000");
    CHECK(acct->available_margin.str() == "5000");
    CHECK(c.positions("beta", stranger));
    CHECK(c.spot_balances("beta", stranger));

    // Revoked upstream: refused again (nothing is cached).
    auto const revoke =
        fetch(verb::delete_, gw.beta->base_url() + "/__mock/agents",
              R"({"user":")" + std::string(stranger) + R"(","signer":")" + signer + R"("})");
    REQUIRE(revoke.status == 200);
    auto again = c.positions("beta", stranger);
    REQUIRE_FALSE(again);
    CHECK(again.error().code == errc::signer_not_approved);

    // The read signer is the same in every vertical's detail; it never signs as anyone else.
    auto d = gw.sdk->provider("beta");
    REQUIRE(d);
    REQUIRE(d->vertical_details.size() == 3);
    for (auto const& vd : d->vertical_details)
        CHECK(vd.read_signer == signer);
    CHECK(d->rate_limit.requests == 2400);
    CHECK(d->rate_limit.window_seconds == 60);
    // alpha has no read signer.
    auto const alpha = gw.sdk->provider("alpha");
    REQUIRE(alpha);
    for (auto const& vd : alpha->vertical_details)
        CHECK_FALSE(vd.read_signer);
}

TEST_CASE("beta testnet account reads are signed for chainId 714 and approved on the testnet",
          "[contract][beta]") {
    test_gateway gw;
    auto c = gw.client_with(gw.create_key(server::auth::key_env::test), true);
    mock_post(*gw.beta_testnet, "/__mock/accounts",
              std::string(R"({"address":")") + stranger + R"(","balances":{"USDT":"700"}})");
    // An approval on mainnet says nothing about the testnet account.
    approve(gw, *gw.beta, stranger);
    auto refused = c.account("beta", stranger);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::signer_not_approved);
    approve(gw, *gw.beta_testnet, stranger);
    reset_stats(*gw.beta);
    auto acct = c.account("beta", stranger);
    REQUIRE(acct); // the testnet mock verifies with chainId 714
    CHECK(acct->equity.str() == "700");
    CHECK(upstream_calls(*gw.beta_testnet, "GET /fapi/v3/account") >= 1);
    CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/account") == 0);
}

TEST_CASE("beta open orders and fills: trailing stops, and fills older than one upstream window",
          "[contract][beta]") {
    test_gateway gw;
    auto const key = gw.create_key();
    auto c = gw.client_with(key);
    set_mark(*gw.beta, "BTC", "65000");
    auto const now = now_ms();
    auto const day = std::int64_t{86'400'000};
    mock_post(*gw.beta, "/__mock/accounts",
              std::string(R"({"address":")") + trader + R"(",
        "balances":{"USDT":"100000"},
        "fills":[
          {"symbol":"SOLUSDT","side":"buy","price":"150","size":"10","time":)" +
                  std::to_string(now - 10 * day) + R"(},
          {"symbol":"SOLUSDT","side":"sell","price":"160","size":"4","time":)" +
                  std::to_string(now - 2 * day) + R"(,"maker":true},
          {"symbol":"BTCUSDT","side":"buy","price":"64000","size":"0.01","time":)" +
                  std::to_string(now - day) + R"(}],
        "orders":[{"symbol":"BTCUSDT","side":"sell","type":"trailing_stop","size":"0.01",
                   "callbackRate":"0.3","activationPrice":"70000","reduceOnly":true,
                   "clientOrderId":"trail-1"}]})");
    approve(gw, *gw.beta, trader);

    auto orders = c.open_orders("beta", trader);
    REQUIRE(orders);
    REQUIRE(orders->size() == 1);
    auto const& trail = orders->front();
    CHECK(trail.type == order_type::trailing_stop);
    CHECK(trail.side == side::sell);
    CHECK_FALSE(trail.price);
    REQUIRE(trail.trigger_price);
    CHECK(trail.trigger_price->str() == "70000");
    REQUIRE(trail.callback_rate);
    CHECK(trail.callback_rate->str() == "0.3");
    CHECK(trail.client_order_id == "trail-1");
    CHECK(trail.reduce_only);
    auto raw = api_get(gw, key, std::string("/v1/perps/beta/account/") + trader + "/orders");
    CHECK(raw.body.at(0).at("callbackRate").as_string() == "0.3");

    // Without startTime: the last 7 days (the upstream's window).
    auto recent = c.fills("beta", trader);
    REQUIRE(recent);
    REQUIRE(recent->size() == 2);
    CHECK(recent->at(0).symbol == "BTC");
    CHECK(recent->at(1).symbol == "SOL");
    CHECK(recent->at(1).side == side::sell);
    CHECK(recent->at(1).liquidity == liquidity::maker);
    REQUIRE(recent->at(1).closed_pnl);
    CHECK(recent->at(1).closed_pnl->str() == "40"); // 4 x (160 - 150)

    // A range wider than one userTrades window (7 days) reaches the older fill.
    reset_stats(*gw.beta);
    fills_params wide;
    wide.start_time = now - 12 * day;
    auto all = c.fills("beta", trader, wide);
    REQUIRE(all);
    REQUIRE(all->size() == 3);
    CHECK(all->at(2).price.str() == "150");
    CHECK(all->at(2).timestamp == now - 10 * day);
    // SOL spans 8 days: two userTrades windows; BTC one; income once.
    CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/userTrades") == 3);
    CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/income") == 1);

    fills_params between;
    between.start_time = now - 11 * day;
    between.end_time = now - 3 * day;
    auto old = c.fills("beta", trader, between);
    REQUIRE(old);
    REQUIRE(old->size() == 1);
    CHECK(old->front().symbol == "SOL");
    CHECK(old->front().side == side::buy);
}

TEST_CASE("beta market listings: rules for signing, spot pairs, rwas perps, no dexes",
          "[contract][beta]") {
    test_gateway gw;
    auto const key = gw.create_key();
    auto c = gw.client_with(key);

    SECTION("perps markets: tick, step, minimum notional, maximum leverage") {
        auto m = c.markets(vertical::perps, "beta");
        REQUIRE(m);
        std::set<std::string> names;
        for (auto const& i : *m)
            names.insert(i.symbol);
        for (auto sym : {"BTC", "ETH", "SOL", "TSLA", "NVDA", "XAU"})
            CHECK(names.count(sym) == 1);
        auto const& btc = find_by(*m, "BTC");
        CHECK(btc.max_leverage == 125); // leverageBracket bracket 1
        CHECK(find_by(*m, "TSLA").max_leverage == 10);
        REQUIRE(btc.tick_size);
        REQUIRE(btc.step_size);
        REQUIRE(btc.min_notional);
        CHECK(*btc.tick_size > decimal{});
        CHECK(*btc.step_size > decimal{});
        CHECK(*btc.min_notional > decimal{});
        // The rules are exchangeInfo's, as the upstream gives them.
        auto info =
            json::parse(fetch(verb::get, gw.beta->base_url() + "/fapi/v3/exchangeInfo").body);
        for (auto const& s : info.at("symbols").as_array()) {
            if (s.at("symbol").as_string() != "BTCUSDT")
                continue;
            for (auto const& f : s.at("filters").as_array()) {
                if (f.at("filterType").as_string() == "PRICE_FILTER")
                    CHECK(*btc.tick_size == *decimal::parse_lenient(f.at("tickSize").as_string()));
                if (f.at("filterType").as_string() == "LOT_SIZE")
                    CHECK(*btc.step_size == *decimal::parse_lenient(f.at("stepSize").as_string()));
            }
        }
        auto raw = api_get(gw, key, "/v1/perps/beta/markets");
        REQUIRE(raw.status == 200);
        for (auto const& i : raw.body.as_array())
            CHECK(keys(i) == std::set<std::string>{"symbol", "tickSize", "stepSize", "minNotional",
                                                   "maxLeverage"});
    }

    SECTION("spot: BASE/QUOTE markets and prices") {
        auto m = c.markets(vertical::spot, "beta");
        REQUIRE(m);
        std::set<std::string> names;
        for (auto const& i : *m) {
            names.insert(i.symbol);
            CHECK(i.max_leverage == 0);
            CHECK(i.tick_size);
        }
        CHECK(names == std::set<std::string>{"BTC/USDT", "ETH/USDT", "ASTER/USDT"});
        auto prices = c.spot_prices("beta");
        REQUIRE(prices);
        CHECK(keys(json::value_from(*prices)) == names);
        for (auto const& [pair, px] : *prices)
            CHECK(px > decimal{});
        // perps prices never carry spot pairs (CONTRACT §1)
        auto perps = c.prices("beta");
        REQUIRE(perps);
        CHECK(perps->count("ASTER/USDT") == 0);
    }

    SECTION("rwas markets: the stock and commodity perps") {
        set_mark(*gw.beta, "TSLA", "431.5");
        auto m = c.rwas_markets("beta");
        REQUIRE(m);
        std::set<std::string> names;
        for (auto const& i : *m)
            names.insert(i.symbol);
        CHECK(names == std::set<std::string>{"TSLA", "NVDA", "XAU"});
        auto const& tsla = find_by(*m, "TSLA");
        CHECK(tsla.mark_price.str() == "431.5");
        CHECK(tsla.max_leverage == 10);
        CHECK(find_by(*m, "XAU").max_leverage == 50);
        CHECK(tsla.open_interest >= decimal{});
        // Read and traded as perps.
        CHECK(c.orderbook("beta", "TSLA"));
        CHECK(c.prices("beta")->count("XAU") == 1);
    }

    SECTION("no builder dexes: 404 NOT_FOUND pointing at the rwas markets") {
        for (auto path :
             {"/v1/rwas/beta/dexes", "/v1/rwas/beta/dexes/xyz", "/v1/rwas/beta/dexes/xyz/status"}) {
            auto raw = api_get(gw, key, path);
            require_error(raw, 404, "NOT_FOUND");
            CHECK_THAT(std::string(raw.body.at("error").at("message").as_string()),
                       Catch::Contains("/v1/rwas/beta/markets"));
        }
    }

    SECTION("orderbook: the smallest upstream limit holding depth, cut to depth") {
        orderbook_params p;
        p.depth = 7; // upstream limit 10
        auto b = c.orderbook("beta", "BTC", p);
        REQUIRE(b);
        CHECK(b->bids.size() == 7);
        CHECK(b->asks.size() == 7);
        p.depth = 1000;
        auto deep = c.orderbook("beta", "BTC", p);
        REQUIRE(deep);
        CHECK(deep->bids.size() <= 1000);
        CHECK(deep->bids.size() > 7);
    }
}

TEST_CASE("beta upstream economy: market data cached and coalesced, account data never shared",
          "[contract][beta]") {
    SECTION("identical concurrent reads share one upstream call") {
        test_gateway gw([](server::server_config& cfg) {
            cfg.market_cache_ttl = std::chrono::milliseconds(0);
        });
        auto const key = gw.create_key(server::auth::key_env::live, 1000.0);
        REQUIRE(gw.client_with(key).markets(vertical::perps, "beta")); // markets learned
        mock_post(*gw.beta, "/__mock/faults", R"({"latencyMs":400})");
        reset_stats(*gw.beta);
        constexpr int readers = 8;
        std::barrier start(readers);
        std::vector<std::thread> threads;
        std::vector<result<orderbook>> answers(readers, make_error(errc::internal_error, "unset"));
        for (int i = 0; i < readers; ++i)
            threads.emplace_back([&, i] {
                auto c = gw.client_with(key);
                start.arrive_and_wait();
                answers[static_cast<std::size_t>(i)] = c.orderbook("beta", "BTC");
            });
        for (auto& t : threads)
            t.join();
        for (auto const& a : answers)
            REQUIRE(a);
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/depth") == 1);
        REQUIRE(gw.client_with(key).orderbook("beta", "BTC"));
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/depth") == 2);
    }

    SECTION("market data from the cache; account reads always upstream, per address") {
        test_gateway gw([](server::server_config& cfg) {
            cfg.market_cache_ttl = std::chrono::milliseconds(60000);
        });
        auto c = gw.client_with(gw.create_key());
        approve(gw, *gw.beta, trader);
        approve(gw, *gw.beta, nobody);
        REQUIRE(c.trades("beta", "BTC"));
        reset_stats(*gw.beta);
        for (int i = 0; i < 3; ++i) {
            REQUIRE(c.trades("beta", "BTC"));
            REQUIRE(c.positions("beta", trader));
        }
        REQUIRE(c.positions("beta", nobody));
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/trades") == 0);
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/positionRisk") == 4);
    }

    SECTION("X-MBX-USED-WEIGHT-1M corrects the local count: the gateway never outruns the "
            "upstream") {
        test_gateway gw([](server::server_config& cfg) {
            cfg.market_cache_ttl = std::chrono::milliseconds(0);
            cfg.providers["beta"].options["budget"] = "200";
            cfg.budget_share_percent = 100; // one account may spend it all: the budget's test
        });
        auto const key = gw.create_key(server::auth::key_env::live, 1000.0);
        auto c = gw.client_with(key);
        REQUIRE(c.markets(vertical::perps, "beta")); // a few weight of 200
        REQUIRE(c.trades("beta", "BTC"));
        // Another client of the same address spends 200 weight upstream behind the gateway.
        for (int i = 0; i < 100; ++i)
            REQUIRE(fetch(verb::get, gw.beta->base_url() + "/fapi/v3/ticker/price").status == 200);
        reset_stats(*gw.beta);
        // The next answer reports the upstream's count; the gateway books the difference.
        REQUIRE(c.trades("beta", "BTC"));
        auto spent = api_get(gw, key, "/v1/perps/beta/markets/BTC/trades");
        require_error(spent, 503, "PROVIDER_UNAVAILABLE");
        CHECK(spent.raw.message.find(boost::beast::http::field::retry_after) !=
              spent.raw.message.end());
        CHECK(upstream_calls(*gw.beta, "GET /fapi/v3/trades") == 1);
    }
}

TEST_CASE("beta's read signer: generated once into the data directory, or configured",
          "[contract][beta]") {
    SECTION("generated with mode 0600 and kept across restarts") {
        test_gateway gw;
        auto const first = read_signer(gw);
        auto const file = gw.data_dir / "beta-read-signer.key";
        REQUIRE(std::filesystem::exists(file));
        struct stat st {};
        REQUIRE(::stat(file.c_str(), &st) == 0);
        CHECK((st.st_mode & 0777) == 0600);
        gw.restart();
        CHECK(read_signer(gw) == first);
    }
    SECTION("a configured key file is used as it is") {
        auto const dir =
            std::filesystem::temp_directory_path() / ("beta-signer-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        auto const file = dir / "signer.key";
        {
            std::ofstream out(file);
            // beta.md §3.2's published demo key.
            out << "  0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1\n";
        }
        test_gateway gw([&](server::server_config& cfg) {
            cfg.providers["beta"].options["readSignerKeyFile"] = file.string();
        });
        CHECK(read_signer(gw) == "0x21cf8ae13bb72632562c6fff438652ba1a151bb0");
        CHECK_FALSE(std::filesystem::exists(gw.data_dir / "beta-read-signer.key"));
        approve(gw, *gw.beta, trader);
        CHECK(gw.client_with(gw.create_key()).positions("beta", trader));
        std::filesystem::remove_all(dir);
    }
}

TEST_CASE("the embedded default approves beta's read signer for every account",
          "[contract][beta]") {
    server::server_config cfg;
    cfg.listen = "127.0.0.1:0";
    cfg.scrypt_n = 1024;
    cfg.probe_interval = std::chrono::milliseconds(60000);
    auto const dir =
        std::filesystem::temp_directory_path() / ("gateway-embedded-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    cfg.data_dir = dir.string();
    auto embedded = server::embedded_upstreams::start(cfg);
    {
        server::gateway_app app(cfg);
        auto const ep = app.start();
        auto const base = "http://127.0.0.1:" + std::to_string(ep.port());
        auto& accounts = app.accounts();
        auto const id = accounts.sign_up("owner@example.com", "correct horse battery").value().id;
        server::auth::new_key_params kp;
        kp.name = "t";
        auto const key = accounts.create_key(id, kp).value().key;
        client_options opt;
        opt.base_url = base;
        opt.api_key = key;
        auto c = client::create(opt).value();
        // Any account, never approved explicitly: readable.
        auto pos = c.positions("beta", stranger);
        REQUIRE(pos);
        CHECK(pos->empty());
        auto bal = c.spot_balances("beta", nobody);
        CHECK(bal);
        opt.testnet = true;
        CHECK(client::create(opt).value().account("beta", stranger));
        app.stop();
        app.wait();
    }
    embedded->stop();
    std::filesystem::remove_all(dir);
}
