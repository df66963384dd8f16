// Provider alpha's reads through the SDK client -> gatewayd -> mock-alpha, offline (spec 2.5-2.9,
// 2.11, 2.12, 4.2, 4.4, 4.5; CONTRACT §2-4, §7). Accounts are seeded and marks pinned through the
// mock control API (CONTRACT §10), so every value below is known in advance.
#include <catch2/catch.hpp>

#include "support/accounts.hpp"
#include "support/catch_result.hpp"
#include "support/fetch.hpp"
#include "support/mock_control.hpp"
#include "support/shapes.hpp"
#include "support/test_gateway.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <barrier>
#include <set>
#include <thread>

using namespace gateway;
using gateway::test::fetch;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;

namespace {

/// The seeded trader: 100000 USDC, BTC long 0.5 @ 60000 (10x cross), xyz:TSLA short 10 @ 440
/// (5x isolated), 500 PURR, two resting orders; marks pinned at BTC 65000 and xyz:TSLA 430.
void seed_trader(mocks::mock_server& m) {
    set_mark(m, "BTC", "65000");
    set_mark(m, "xyz:TSLA", "430");
    mock_post(m, "/__mock/accounts", std::string(R"({"address":")") + trader + R"(",
        "balances":{"USDC":"100000","PURR":"500"},
        "positions":[
          {"symbol":"BTC","size":"0.5","entryPrice":"60000","leverage":10,"marginMode":"cross"},
          {"symbol":"xyz:TSLA","size":"-10","entryPrice":"440","leverage":5,"marginMode":"isolated"}],
        "orders":[
          {"symbol":"ETH","side":"buy","type":"limit","price":"3000","size":"1"},
          {"symbol":"BTC","side":"sell","type":"stop_limit","price":"54000","triggerPrice":"55000",
           "size":"0.1","reduceOnly":true}]})");
}

/// A raw gateway GET with a key: status and parsed body.
std::pair<unsigned, json::value> raw_get(test::test_gateway const& gw, std::string const& key,
                                         std::string const& path) {
    auto r = fetch(verb::get, gw.base_url + path, {}, {{"X-API-Key", key}});
    INFO(path << " -> " << r.status << " " << r.body);
    REQUIRE(r.message[boost::beast::http::field::content_type] == "application/json");
    return {r.status, json::parse(r.body)};
}

void require_error(std::pair<unsigned, json::value> const& r, unsigned status,
                   std::string const& code, std::string const& field = {}) {
    INFO(json::serialize(r.second));
    REQUIRE(r.first == status);
    auto const& e = r.second.at("error").as_object();
    CHECK(e.at("code").as_string() == code);
    CHECK_FALSE(e.at("message").as_string().empty());
    if (!field.empty())
        CHECK(e.at("details").at("field").as_string() == field);
}

} // namespace

TEST_CASE("alpha account reads: summary, positions over every dex, open orders, fills",
          "[contract][alpha]") {
    test::test_gateway gw;
    seed_trader(*gw.alpha);
    auto c = gw.client_with(gw.create_key());

    SECTION("positions: long and short, across the main dex and the builder dex") {
        auto pos = c.positions("alpha", trader);
        REQUIRE(pos);
        REQUIRE(pos->size() == 2);
        auto const& btc = find_by(*pos, "BTC");
        CHECK(btc.side == position_side::long_);
        CHECK(btc.size.str() == "0.5");
        CHECK(btc.entry_price.str() == "60000");
        CHECK(btc.mark_price.str() == "65000");
        CHECK(btc.unrealized_pnl.str() == "2500");
        CHECK(btc.leverage.str() == "10");
        CHECK(btc.margin.str() == "3250"); // 0.5 * 65000 / 10, cross
        // 100000 USDC behind a 32500 notional long: no liquidation price upstream -> "0".
        CHECK(btc.liquidation_price.str() == "0");
        auto const& tsla = find_by(*pos, "xyz:TSLA");
        CHECK(tsla.side == position_side::short_);
        CHECK(tsla.size.str() == "10");
        CHECK(tsla.entry_price.str() == "440");
        CHECK(tsla.mark_price.str() == "430");
        CHECK(tsla.unrealized_pnl.str() == "100");
        CHECK(tsla.leverage.str() == "5");
        CHECK(tsla.liquidation_price > decimal::parse("430").value()); // a short liquidates above

        // The wire shape: exactly the spec's fields, every number a string.
        auto raw = raw_get(gw, gw.create_key(),
                           "/v1/perps/alpha/account/" + std::string(trader) + "/positions");
        REQUIRE(raw.first == 200);
        for (auto const& p : raw.second.as_array()) {
            CHECK(keys(p) == std::set<std::string>{"symbol", "side", "size", "entryPrice",
                                                   "markPrice", "unrealizedPnl", "leverage",
                                                   "liquidationPrice", "margin"});
            for (auto const& kv : p.as_object())
                CHECK(kv.value().is_string());
        }
    }

    SECTION("a moved mark moves the position's PnL") {
        set_mark(*gw.alpha, "BTC", "70000");
        auto pos = c.positions("alpha", trader);
        REQUIRE(pos);
        CHECK(find_by(*pos, "BTC").unrealized_pnl.str() == "5000");
    }

    SECTION("account summary sums every dex's clearinghouse state") {
        auto acct = c.account("alpha", trader);
        REQUIRE(acct);
        CHECK(acct->unrealized_pnl.str() == "2600");        // 2500 + 100
        CHECK(acct->total_position_value.str() == "36800"); // 32500 + 4300
        // The same sums straight from the upstream, one call per dex.
        decimal equity, used;
        std::int64_t equity_units = 0, used_units = 0;
        for (std::string dex : {"", "xyz"}) {
            auto r = fetch(verb::post, gw.alpha->base_url() + "/info",
                           R"({"type":"clearinghouseState","user":")" + std::string(trader) +
                               R"(","dex":")" + dex + R"("})");
            auto const st = json::parse(r.body);
            auto const& ms = st.at("marginSummary");
            equity_units +=
                *decimal::parse_lenient(ms.at("accountValue").as_string())->to_scaled(8);
            used_units +=
                *decimal::parse_lenient(ms.at("totalMarginUsed").as_string())->to_scaled(8);
        }
        CHECK(acct->equity == decimal::from_scaled(equity_units, 8));
        CHECK(acct->used_margin == decimal::from_scaled(used_units, 8));
        CHECK(acct->equity > decimal::parse("100000").value()); // collateral + uPnL - fees
    }

    SECTION("open orders in the contract shape") {
        auto orders = c.open_orders("alpha", trader);
        REQUIRE(orders);
        REQUIRE(orders->size() == 2);
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
        CHECK_FALSE(eth.client_order_id);
        CHECK(std::all_of(eth.order_id.begin(), eth.order_id.end(),
                          [](char ch) { return ch >= '0' && ch <= '9'; }));
        auto const& stop = find_by(*orders, "BTC");
        CHECK(stop.type == order_type::stop_limit);
        REQUIRE(stop.trigger_price);
        CHECK(stop.trigger_price->str() == "55000");
        CHECK(stop.reduce_only);
        CHECK(stop.status == open_order_status::open);
    }

    SECTION("fills: newest first, limited, filtered by time") {
        auto all = c.fills("alpha", trader);
        REQUIRE(all);
        REQUIRE(all->size() == 2); // the two seeded opens
        CHECK(all->front().timestamp >= all->back().timestamp);
        for (auto const& f : *all) {
            CHECK_FALSE(f.closed_pnl); // opening fills close nothing
            CHECK(f.fee_asset == "USDC");
        }
        CHECK(find_by(*all, "BTC").side == side::buy);
        CHECK(find_by(*all, "xyz:TSLA").side == side::sell);

        fills_params one;
        one.limit = 1;
        auto newest = c.fills("alpha", trader, one);
        REQUIRE(newest);
        REQUIRE(newest->size() == 1);
        CHECK(newest->front().id == all->front().id);

        fills_params future;
        future.start_time = all->front().timestamp + 1;
        auto none = c.fills("alpha", trader, future);
        REQUIRE(none);
        CHECK(none->empty());
    }

    SECTION("spot balances: available = total - locked") {
        auto bal = c.spot_balances("alpha", trader);
        REQUIRE(bal);
        bool saw_purr = false;
        for (auto const& b : *bal) {
            if (b.asset == "PURR") {
                saw_purr = true;
                CHECK(b.total.str() == "500");
                CHECK(b.locked.str() == "0");
                CHECK(b.available.str() == "500");
            }
        }
        CHECK(saw_purr);
    }
}

TEST_CASE("alpha account reads of an address with no activity are empty, not errors",
          "[contract][alpha]") {
    test::test_gateway gw;
    auto c = gw.client_with(gw.create_key());
    auto pos = c.positions("alpha", nobody);
    REQUIRE(pos);
    CHECK(pos->empty());
    auto orders = c.open_orders("alpha", nobody);
    REQUIRE(orders);
    CHECK(orders->empty());
    auto fills = c.fills("alpha", nobody);
    REQUIRE(fills);
    CHECK(fills->empty());
    auto bal = c.spot_balances("alpha", nobody);
    REQUIRE(bal);
    CHECK(bal->empty());
    auto acct = c.account("alpha", nobody);
    REQUIRE(acct);
    CHECK(acct->equity.str() == "0");
    CHECK(acct->unrealized_pnl.str() == "0");
    CHECK(acct->total_position_value.str() == "0");
    // Mixed case is accepted and answered in lower case (CONTRACT §1).
    auto upper = c.positions("alpha", "0xAbCdEf0123456789aBcDeF0123456789ABCDEF01");
    CHECK(upper);
}

TEST_CASE("alpha market reads: trades, candles, orderbook, prices", "[contract][alpha]") {
    test::test_gateway gw;
    auto c = gw.client_with(gw.create_key());

    SECTION("trades: newest first, default 50, at most the limit") {
        auto t = c.trades("alpha", "BTC");
        REQUIRE(t);
        // mock-alpha holds 200 trades per market, so the default of 50 is exactly 50.
        CHECK(t->size() == 50);
        for (std::size_t i = 1; i < t->size(); ++i)
            CHECK((*t)[i - 1].timestamp >= (*t)[i].timestamp);
        trades_params p;
        p.limit = 3;
        auto three = c.trades("alpha", "BTC", p);
        REQUIRE(three);
        CHECK(three->size() == 3);
        p.limit = 200;
        CHECK(c.trades("alpha", "BTC", p));
    }

    SECTION("candles: hourly, oldest first, for a perp and a rwas market") {
        candles_params p;
        p.interval = interval::h1;
        for (std::string sym : {"BTC", "xyz:TSLA"}) {
            auto k = c.candles("alpha", sym, p);
            REQUIRE(k);
            REQUIRE(k->size() > 10);
            for (std::size_t i = 1; i < k->size(); ++i)
                CHECK((*k)[i - 1].timestamp + 3'600'000 <= (*k)[i].timestamp);
            for (auto const& candle : *k) {
                CHECK(candle.low <= candle.open);
                CHECK(candle.high >= candle.close);
            }
        }
        // The path segment may come percent-encoded (CONTRACT §1).
        auto raw =
            raw_get(gw, gw.create_key(), "/v1/perps/alpha/markets/xyz%3ATSLA/candles?interval=1h");
        CHECK(raw.first == 200);
    }

    SECTION("orderbook: depth levels, bids high to low, asks low to high") {
        orderbook_params p;
        p.depth = 5;
        auto b = c.orderbook("alpha", "ETH", p);
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
        auto raw = raw_get(gw, gw.create_key(), "/v1/perps/alpha/markets/ETH/orderbook");
        REQUIRE(raw.first == 200);
        CHECK(keys(raw.second) == std::set<std::string>{"symbol", "bids", "asks", "timestamp"});
        CHECK(raw.second.at("bids").as_array().size() == 20); // default depth
    }

    SECTION("prices: perps only; a dex's markets with dex=") {
        auto main = c.prices("alpha");
        REQUIRE(main);
        CHECK(main->count("BTC") == 1);
        CHECK(main->count("ETH") == 1);
        CHECK(main->count("SOL") == 1);
        CHECK(main->count("PURR/USDC") == 0);
        CHECK(main->count("@1") == 0);
        auto xyz = c.prices("alpha", "xyz");
        REQUIRE(xyz);
        CHECK(xyz->count("xyz:TSLA") == 1);
        CHECK(xyz->count("xyz:NVDA") == 1);
        CHECK(xyz->count("xyz:GOLD") == 1);
        auto nope = c.prices("alpha", "nope");
        REQUIRE_FALSE(nope);
        CHECK(nope.error().code == errc::dex_not_found);
    }
}

TEST_CASE("alpha rwas dexes: list, detail and status", "[contract][alpha]") {
    test::test_gateway gw;
    auto c = gw.client_with(gw.create_key());
    auto list = c.dexes("alpha");
    REQUIRE(list);
    REQUIRE(list->size() == 1);
    CHECK(list->front().name == "xyz");
    CHECK(list->front().deployer.str() == "0x88806a71d74ad0a510b350545c9ae490912f0888");
    CHECK(list->front().market_count == 3);
    CHECK_FALSE(list->front().description.empty());

    auto detail = c.dex("alpha", "xyz");
    REQUIRE(detail);
    CHECK(detail->name == "xyz");
    std::set<std::string> symbols;
    for (auto const& m : detail->markets) {
        symbols.insert(m.symbol);
        CHECK(m.max_leverage > 0);
        CHECK(m.mark_price > decimal{});
    }
    CHECK(symbols == std::set<std::string>{"xyz:TSLA", "xyz:NVDA", "xyz:GOLD"});

    auto status = c.dex_status("alpha", "xyz");
    REQUIRE(status);
    CHECK(status->name == "xyz");
    CHECK(status->status == dex_state::active);
    CHECK(status->checked_at > 0);

    auto raw = raw_get(gw, gw.create_key(), "/v1/rwas/alpha/dexes/xyz/status");
    REQUIRE(raw.first == 200);
    CHECK(keys(raw.second) ==
          std::set<std::string>{"name", "status", "totalNetDeposit", "openInterest", "checkedAt"});

    for (auto path : {"/v1/rwas/alpha/dexes/nope", "/v1/rwas/alpha/dexes/nope/status"})
        require_error(raw_get(gw, gw.create_key(), path), 404, "DEX_NOT_FOUND");
}

TEST_CASE("alpha reads: every error row of the contract", "[contract][alpha]") {
    test::test_gateway gw;
    auto const key = gw.create_key();
    auto c = gw.client_with(key);

    SECTION("unknown symbol: 404 MARKET_NOT_FOUND") {
        for (auto path : {"/v1/perps/alpha/markets/DOGE/trades",
                          "/v1/perps/alpha/markets/xyz:NOPE/candles?interval=1h",
                          "/v1/perps/alpha/markets/PURR%2FUSDC/orderbook"})
            require_error(raw_get(gw, key, path), 404, "MARKET_NOT_FOUND");
        auto t = c.trades("alpha", "DOGE");
        REQUIRE_FALSE(t);
        CHECK(t.error().code == errc::market_not_found);
    }

    SECTION("malformed address, bad interval, limit and depth: 400 naming the field") {
        require_error(raw_get(gw, key, "/v1/perps/alpha/account/0x123"), 400, "VALIDATION_ERROR",
                      "address");
        require_error(raw_get(gw, key, "/v1/spot/alpha/balances/nope"), 400, "VALIDATION_ERROR",
                      "address");
        require_error(raw_get(gw, key, "/v1/perps/alpha/markets/BTC/candles?interval=2m"), 400,
                      "VALIDATION_ERROR", "interval");
        require_error(raw_get(gw, key, "/v1/perps/alpha/markets/BTC/candles"), 400,
                      "VALIDATION_ERROR", "interval");
        require_error(raw_get(gw, key, "/v1/perps/alpha/markets/BTC/trades?limit=201"), 400,
                      "VALIDATION_ERROR", "limit");
        require_error(raw_get(gw, key, "/v1/perps/alpha/markets/BTC/trades?limit=0"), 400,
                      "VALIDATION_ERROR", "limit");
        require_error(raw_get(gw, key, "/v1/perps/alpha/markets/BTC/orderbook?depth=1001"), 400,
                      "VALIDATION_ERROR", "depth");
        require_error(
            raw_get(gw, key, "/v1/perps/alpha/account/" + std::string(trader) + "/fills?limit=501"),
            400, "VALIDATION_ERROR", "limit");
    }

    SECTION("the SDK refuses the same parameters before sending anything") {
        reset_stats(*gw.alpha);
        trades_params p;
        p.limit = 201;
        auto t = c.trades("alpha", "BTC", p);
        REQUIRE_FALSE(t);
        CHECK(t.error().code == errc::validation_error);
        CHECK(t.error().field() == "limit");
        auto a = c.positions("alpha", "0xnothex");
        REQUIRE_FALSE(a);
        CHECK(a.error().field() == "address");
        CHECK(upstream_calls(*gw.alpha, "recentTrades") == 0);
    }

    SECTION("a provider without the vertical: 404 PROVIDER_NOT_FOUND") {
        require_error(raw_get(gw, key, "/v1/perps/gamma/markets/BTC/trades"), 404,
                      "PROVIDER_NOT_FOUND");
        require_error(raw_get(gw, key, "/v1/rwas/nope/dexes"), 404, "PROVIDER_NOT_FOUND");
    }

    SECTION("upstream 500: 502 UPSTREAM_ERROR") {
        REQUIRE(c.dexes("alpha")); // markets learned before the fault
        mock_post(*gw.alpha, "/__mock/faults", R"({"status":500})");
        auto t = c.trades("alpha", "SOL");
        REQUIRE_FALSE(t);
        CHECK(t.error().code == errc::upstream_error);
        CHECK(t.error().status == 502);
        auto p = c.positions("alpha", trader);
        REQUIRE_FALSE(p);
        CHECK(p.error().status == 502);
    }

    SECTION("upstream hang: 504 UPSTREAM_TIMEOUT within the configured timeout") {
        REQUIRE(c.dexes("alpha"));
        mock_post(*gw.alpha, "/__mock/faults", R"({"latencyMs":5000})");
        // The upstream answers 200 after 5 s: a 504 means the gateway gave up at its own timeout
        // (1000 ms) without waiting for it (no bound on the wall clock, which flaked under load).
        auto b = c.orderbook("alpha", "SOL");
        REQUIRE_FALSE(b);
        CHECK(b.error().code == errc::upstream_timeout);
        CHECK(b.error().status == 504);
    }
}

TEST_CASE("alpha reads under /v1/testnet/ reach the testnet upstream", "[contract][alpha]") {
    test::test_gateway gw;
    auto c = gw.client_with(gw.create_key(server::auth::key_env::test), true);
    reset_stats(*gw.alpha);
    auto t = c.trades("alpha", "ETH");
    REQUIRE(t);
    auto d = c.dexes("alpha");
    REQUIRE(d);
    CHECK(upstream_calls(*gw.alpha_testnet, "recentTrades") == 1);
    CHECK(upstream_calls(*gw.alpha, "recentTrades") == 0);
    // A test key stays on testnet paths.
    auto live = gw.client_with(gw.create_key(server::auth::key_env::test), false);
    auto refused = live.trades("alpha", "ETH");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::testnet_key_only);
}

TEST_CASE("alpha market data: identical concurrent reads share one upstream call",
          "[contract][alpha]") {
    // No cache at all: what is shared is the one call in flight.
    test::test_gateway gw(
        [](server::server_config& cfg) { cfg.market_cache_ttl = std::chrono::milliseconds(0); });
    auto const key = gw.create_key(server::auth::key_env::live, 1000.0);
    REQUIRE(gw.client_with(key).dexes("alpha")); // markets learned
    // The upstream holds each answer long enough for every reader to join the first call.
    mock_post(*gw.alpha, "/__mock/faults", R"({"latencyMs":400})");
    reset_stats(*gw.alpha);
    constexpr int readers = 8;
    std::barrier start(readers);
    std::vector<std::thread> threads;
    std::vector<result<orderbook>> answers(readers, make_error(errc::internal_error, "unset"));
    for (int i = 0; i < readers; ++i)
        threads.emplace_back([&, i] {
            auto c = gw.client_with(key);
            start.arrive_and_wait();
            answers[static_cast<std::size_t>(i)] = c.orderbook("alpha", "BTC");
        });
    for (auto& t : threads)
        t.join();
    for (auto const& a : answers)
        REQUIRE(a);
    CHECK(upstream_calls(*gw.alpha, "l2Book") == 1);
    // Sequential reads after the flight each go upstream again (no cache configured).
    REQUIRE(gw.client_with(key).orderbook("alpha", "BTC"));
    CHECK(upstream_calls(*gw.alpha, "l2Book") == 2);
}

TEST_CASE("alpha market data is served from the short cache, account data never crosses "
          "addresses",
          "[contract][alpha]") {
    test::test_gateway gw([](server::server_config& cfg) {
        cfg.market_cache_ttl = std::chrono::milliseconds(60000);
    });
    auto c = gw.client_with(gw.create_key());
    REQUIRE(c.prices("alpha"));
    reset_stats(*gw.alpha);
    REQUIRE(c.prices("alpha"));
    REQUIRE(c.trades("alpha", "BTC"));
    REQUIRE(c.trades("alpha", "BTC"));
    CHECK(upstream_calls(*gw.alpha, "allMids") == 0);
    CHECK(upstream_calls(*gw.alpha, "recentTrades") == 1);
    REQUIRE(c.spot_balances("alpha", trader));
    REQUIRE(c.spot_balances("alpha", nobody));
    REQUIRE(c.spot_balances("alpha", trader));
    CHECK(upstream_calls(*gw.alpha, "spotClearinghouseState") == 3);
}

TEST_CASE("the gateway keeps within its alpha upstream budget: 503 before the upstream's 429",
          "[contract][alpha]") {
    test::test_gateway gw([](server::server_config& cfg) {
        cfg.providers["alpha"].options["budget"] = "300";
        cfg.budget_share_percent = 100; // one account may spend it all: the budget's test
    });
    auto c = gw.client_with(gw.create_key(server::auth::key_env::live, 1000.0));
    REQUIRE(c.dexes("alpha")); // markets learned: perpDexs + 2 x meta + spotMeta = 80
    // Each fills read is one userFills call of weight 20; the budget runs out after 11.
    int ok = 0;
    std::optional<api_error> refused;
    for (int i = 0; i < 40 && !refused; ++i) {
        auto f = c.fills("alpha", trader);
        if (f)
            ++ok;
        else
            refused = f.error();
    }
    REQUIRE(refused);
    CHECK(refused->code == errc::provider_unavailable);
    CHECK(refused->status == 503);
    CHECK(refused->message.find("budget") != std::string::npos);
    REQUIRE(refused->retry_after);
    CHECK(*refused->retry_after >= 1);
    CHECK(ok >= 10);
    CHECK(ok <= 11);
    // The upstream itself never had to refuse anything.
    CHECK(upstream_calls(*gw.alpha, "userFills") == ok);
}
