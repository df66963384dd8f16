// Unit tests of mock alpha's ledger (mocks/src/alpha/alpha_ledger.hpp): the position, margin,
// liquidation and spot arithmetic behind clearinghouseState / spotClearinghouseState /
// userFills, with every expected value computed by hand in the comments. Also the exact
// `amount` type and the candle history the mock aggregates from trades.
//
// The mock's internal headers are not part of any public include path (mocks/src is private
// to the library), hence the relative includes.
#include "../../mocks/src/alpha/alpha_ledger.hpp"
#include "../../mocks/src/common/candles.hpp"

#include <catch2/catch.hpp>

#include "support/mock_values.hpp"

#include <map>

namespace mock_alpha_ledger_test {

namespace {

using gateway::mocks::amount;
using gateway::mocks::candle_history;
using gateway::mocks::candle_interval;
using gateway::test::a;
using gateway::test::alice;
using gateway::test::bob;
using namespace gateway::mocks::alpha;

ledger make_ledger() {
    std::vector<instrument> ins;
    ins.push_back({"BTC", "", false, "", "", 40, false});
    ins.push_back({"ETH", "", false, "", "", 25, false});
    ins.push_back({"xyz:TSLA", "xyz", false, "", "", 10, true});
    ins.push_back({"PURR/USDC", "", true, "PURR", "USDC", 1, false});
    return ledger(42, std::move(ins), {"USDC", "PURR"});
}

fill_event fill(char const* coin, bool buy, char const* px, char const* sz, char const* fee = "0") {
    fill_event e;
    e.coin = coin;
    e.is_buy = buy;
    e.px = a(px);
    e.sz = a(sz);
    e.fee = a(fee);
    e.time_ms = 1'700'000'000'000;
    return e;
}

order_spec order(char const* coin, bool buy, char const* px, char const* sz,
                 std::int64_t timestamp) {
    order_spec o;
    o.coin = coin;
    o.is_buy = buy;
    o.limit_px = a(px);
    o.sz = a(sz);
    o.timestamp = timestamp;
    return o;
}

/// A mark source with fixed prices.
ledger::mark_fn marks(std::map<std::string, std::string> prices) {
    return [prices](std::string const& coin) -> std::optional<amount> {
        auto const it = prices.find(coin);
        if (it == prices.end())
            return std::nullopt;
        return amount::parse(it->second);
    };
}

position_view const& only_position(perp_view const& v) {
    REQUIRE(v.positions.size() == 1);
    return v.positions.front();
}

} // namespace

TEST_CASE("mock amount: exact parsing, canonical text and half-away-from-zero rounding",
          "[unit][mock][alpha]") {
    CHECK(a("0.1").str() == "0.1");
    CHECK(a("-12.50").str() == "-12.5");
    CHECK(a("007").str() == "7");
    CHECK(a("0").str() == "0");
    CHECK(a("30135").hl() == "30135.0");
    CHECK(a("-0.0000001").hl(6) == "0.0");
    CHECK(a("2.0000005").hl(6) == "2.000001");
    CHECK(a("-2.0000005").hl(6) == "-2.000001");
    CHECK((a("0.1") + a("0.2")).str() == "0.3");
    CHECK((a("1.5") * a("-0.3")).str() == "-0.45");
    CHECK((a("2") / a("3")).str() == "0.6666666667");
    CHECK((a("1") / a("0")).str() == "0");
    CHECK(a("100").over(3).str() == "33.3333333333");
    CHECK(a("123.45").to_scaled(2) == 12345);
    CHECK_FALSE(a("123.45").to_scaled(1));
    for (auto const* bad : {"", "-", "1.", ".5", "+1", "1e3", "0.00000000001", "abc", "1.2.3"}) {
        CAPTURE(bad);
        CHECK_FALSE(amount::parse(bad));
    }
}

TEST_CASE("mock alpha ledger: addresses are 0x + 40 hex in any case, stored lowercase",
          "[unit][mock][alpha]") {
    CHECK(ledger::normalize_address("0xAbCdEf0123456789aBcDeF0123456789ABCDEF01") ==
          "0xabcdef0123456789abcdef0123456789abcdef01");
    for (auto const* bad : {"0x123", "abcdef0123456789abcdef0123456789abcdef0101",
                            "0xgbcdef0123456789abcdef0123456789abcdef01", ""})
        CHECK_FALSE(ledger::normalize_address(bad));
}

TEST_CASE("mock alpha ledger: open, increase with a weighted entry, partial close with closedPnl "
          "and fees",
          "[unit][mock][alpha]") {
    auto l = make_ledger();
    REQUIRE(l.credit(alice, "USDC", a("10000")));

    // Open long 1 BTC @ 60000, fee 27 -> collateral 9973.
    auto f1 = l.apply_fill(alice, fill("BTC", true, "60000", "1", "27"));
    REQUIRE(f1);
    CHECK(f1->dir == "Open Long");
    CHECK(f1->start_position.str() == "0");
    CHECK(f1->closed_pnl.str() == "0");
    CHECK(f1->fee.str() == "27");
    CHECK(f1->fee_token == "USDC");
    CHECK(l.collateral(alice, "").str() == "9973");

    // Increase by 1 @ 62000: entry (60000 + 62000) / 2 = 61000.
    auto f2 = l.apply_fill(alice, fill("BTC", true, "62000", "1"));
    REQUIRE(f2);
    CHECK(f2->dir == "Open Long");
    CHECK(f2->start_position.str() == "1");
    auto p = l.positions(alice);
    REQUIRE(p.size() == 1);
    CHECK(p[0].szi.str() == "2");
    CHECK(p[0].entry_px.str() == "61000");

    // Sell 0.5 @ 63000, fee 1.5: closedPnl 0.5 * (63000 - 61000) = 1000; entry unchanged;
    // collateral 9973 + 1000 - 1.5 = 10971.5.
    auto f3 = l.apply_fill(alice, fill("BTC", false, "63000", "0.5", "1.5"));
    REQUIRE(f3);
    CHECK(f3->dir == "Close Long");
    CHECK(f3->start_position.str() == "2");
    CHECK(f3->closed_pnl.str() == "1000");
    p = l.positions(alice);
    CHECK(p[0].szi.str() == "1.5");
    CHECK(p[0].entry_px.str() == "61000");
    CHECK(l.collateral(alice, "").str() == "10971.5");

    // A rebate (negative fee) is credited.
    REQUIRE(l.apply_fill(alice, fill("BTC", false, "61000", "0.5", "-0.3")));
    CHECK(l.collateral(alice, "").str() == "10971.8"); // closedPnl 0

    SECTION("a weighted entry that does not terminate rounds at 10 decimals") {
        // (1 * 100 + 2 * 101) / 3 = 100.666...
        REQUIRE(l.apply_fill(alice, fill("ETH", true, "100", "1")));
        REQUIRE(l.apply_fill(alice, fill("ETH", true, "101", "2")));
        auto const eth = l.positions(alice);
        REQUIRE(eth.size() == 2);
        CHECK(eth[1].coin == "ETH");
        CHECK(eth[1].entry_px.str() == "100.6666666667");
    }
    SECTION("fills: newest first; by time: oldest first, inclusive") {
        auto const all = l.fills(alice);
        REQUIRE(all.size() == 4);
        CHECK(all.front().tid > all.back().tid);
        CHECK(all.front().dir == "Close Long");
        CHECK(all.back().dir == "Open Long");
        auto const by_time = l.fills_by_time(alice, 1'700'000'000'000, 1'700'000'000'000);
        REQUIRE(by_time.size() == 4);
        CHECK(by_time.front().tid == all.back().tid);
        CHECK(l.fills_by_time(alice, 1'700'000'000'001, 1'800'000'000'000).empty());
        CHECK(all.front().hash.size() == 66);
        CHECK(all.front().oid != 0);
    }
}

TEST_CASE(
    "mock alpha ledger: flips report Long > Short and Short > Long and re-open at the fill price",
    "[unit][mock][alpha]") {
    auto l = make_ledger();
    l.credit(alice, "USDC", a("100000"));
    REQUIRE(l.apply_fill(alice, fill("BTC", true, "61000", "1.5")));

    // Sell 2 @ 64000 from +1.5: closes 1.5 (closedPnl 1.5 * 3000 = 4500), opens -0.5 @ 64000.
    auto f = l.apply_fill(alice, fill("BTC", false, "64000", "2"));
    REQUIRE(f);
    CHECK(f->dir == "Long > Short");
    CHECK(f->start_position.str() == "1.5");
    CHECK(f->closed_pnl.str() == "4500");
    auto p = l.positions(alice);
    REQUIRE(p.size() == 1);
    CHECK(p[0].szi.str() == "-0.5");
    CHECK(p[0].entry_px.str() == "64000");
    CHECK(l.collateral(alice, "").str() == "104500");

    // Buy 1 @ 63000 from -0.5: closes 0.5 (closedPnl -0.5 * (63000 - 64000) = 500), opens +0.5.
    f = l.apply_fill(alice, fill("BTC", true, "63000", "1"));
    REQUIRE(f);
    CHECK(f->dir == "Short > Long");
    CHECK(f->start_position.str() == "-0.5");
    CHECK(f->closed_pnl.str() == "500");
    p = l.positions(alice);
    CHECK(p[0].szi.str() == "0.5");
    CHECK(p[0].entry_px.str() == "63000");

    // Sell exactly 0.5 @ 62000: Close Long with a loss of 500; the position is gone.
    f = l.apply_fill(alice, fill("BTC", false, "62000", "0.5"));
    REQUIRE(f);
    CHECK(f->dir == "Close Long");
    CHECK(f->closed_pnl.str() == "-500");
    CHECK(l.positions(alice).empty());
    CHECK(l.collateral(alice, "").str() == "104500");

    // Short side: Open Short then Close Short.
    CHECK(perp_direction(a("0"), false, a("1")) == "Open Short");
    CHECK(perp_direction(a("-1"), false, a("1")) == "Open Short");
    CHECK(perp_direction(a("-1"), true, a("1")) == "Close Short");
    CHECK(perp_direction(a("1"), true, a("1")) == "Open Long");
}

TEST_CASE("mock alpha ledger: cross margin summary and the liquidation price of a long",
          "[unit][mock][alpha]") {
    auto l = make_ledger();
    l.credit(alice, "USDC", a("10000"));
    l.set_leverage(alice, "BTC", {margin_mode::cross, 10});
    REQUIRE(l.apply_fill(alice, fill("BTC", true, "60000", "1")));

    auto const v = l.perp_state(alice, "", marks({{"BTC", "58000"}}));
    auto const& p = only_position(v);
    CHECK(p.position_value.str() == "58000");
    CHECK(p.unrealized_pnl.str() == "-2000");
    CHECK(p.margin_used.str() == "5800");               // 58000 / 10
    CHECK(p.return_on_equity.str() == "-0.3333333333"); // -2000 * 10 / 60000
    CHECK(p.max_leverage == 40);
    CHECK_FALSE(p.raw_usd);
    // account value 10000 - 2000 = 8000; maintenance 58000 / (2 * 40) = 725;
    // liq = 58000 - 7275 * 80 / (1 * 79) = 58000 - 7367.0886075949 = 50632.9113924051.
    CHECK(v.cross.account_value.str() == "8000");
    CHECK(v.cross.total_raw_usd.str() == "-50000"); // 10000 - 1 * 60000
    CHECK(v.cross.total_ntl_pos.str() == "58000");
    CHECK(v.cross.total_margin_used.str() == "5800");
    CHECK(v.cross_maintenance_margin_used.str() == "725");
    CHECK(v.withdrawable.str() == "2200");
    CHECK(v.all.account_value == v.cross.account_value);
    REQUIRE(p.liquidation_px);
    CHECK(p.liquidation_px->str() == "50632.9113924051");

    SECTION("plenty of collateral: no liquidation price") {
        l.credit(alice, "USDC", a("1000000"));
        auto const rich = l.perp_state(alice, "", marks({{"BTC", "58000"}}));
        CHECK_FALSE(only_position(rich).liquidation_px);
    }
    SECTION("the mark moves the PnL") {
        auto const up = l.perp_state(alice, "", marks({{"BTC", "65000"}}));
        CHECK(only_position(up).unrealized_pnl.str() == "5000");
        CHECK(up.cross.account_value.str() == "15000");
    }
    SECTION("an unknown address reads as zero") {
        auto const none = l.perp_state(bob, "", marks({}));
        CHECK(none.positions.empty());
        CHECK(none.all.account_value.str() == "0");
        CHECK(none.withdrawable.str() == "0");
        CHECK_FALSE(l.known(bob));
    }
}

TEST_CASE("mock alpha ledger: the liquidation price of a cross short", "[unit][mock][alpha]") {
    auto l = make_ledger();
    l.credit(alice, "USDC", a("10000"));
    l.set_leverage(alice, "ETH", {margin_mode::cross, 5});
    REQUIRE(l.apply_fill(alice, fill("ETH", false, "3000", "2")));
    auto const v = l.perp_state(alice, "", marks({{"ETH", "3100"}}));
    auto const& p = only_position(v);
    CHECK(p.szi.str() == "-2");
    CHECK(p.position_value.str() == "6200");
    CHECK(p.unrealized_pnl.str() == "-200");
    CHECK(p.margin_used.str() == "1240");
    CHECK(p.return_on_equity.str() == "-0.1666666667");
    // account 9800, maintenance 6200 / 50 = 124, available 9676;
    // liq = 3100 + 9676 * 50 / (2 * 51) = 3100 + 4743.1372549020 = 7843.137254902.
    CHECK(v.cross_maintenance_margin_used.str() == "124");
    REQUIRE(p.liquidation_px);
    CHECK(p.liquidation_px->str() == "7843.137254902");
    // The formula on its own, for a short with nothing to spare: at the mark.
    CHECK(liquidation_price(a("100"), a("-1"), a("0"), 10)->str() == "100");
    CHECK_FALSE(liquidation_price(a("100"), a("0"), a("5"), 10));
    CHECK_FALSE(liquidation_price(a("100"), a("1"), a("1000"), 10)); // <= 0 -> none
}

TEST_CASE(
    "mock alpha ledger: isolated margin moves into the position, a builder dex pulls from main",
    "[unit][mock][alpha]") {
    auto l = make_ledger();
    l.credit(alice, "USDC", a("1000"));
    // xyz:TSLA is isolated-only: the default setting is isolated.
    CHECK(l.leverage_of(alice, "xyz:TSLA").mode == margin_mode::isolated);
    l.set_leverage(alice, "xyz:TSLA", {margin_mode::isolated, 5});
    // Short 10 @ 440: margin 4400 / 5 = 880 pulled from the main dex (1000 -> 120).
    auto f = l.apply_fill(alice, fill("xyz:TSLA", false, "440", "10"));
    REQUIRE(f);
    CHECK(f->dir == "Open Short");
    CHECK(l.collateral(alice, "").str() == "120");
    CHECK(l.collateral(alice, "xyz").str() == "0");

    auto const v = l.perp_state(alice, "xyz", marks({{"xyz:TSLA", "430"}}));
    auto const& p = only_position(v);
    CHECK(p.position_value.str() == "4300");
    CHECK(p.unrealized_pnl.str() == "100");
    CHECK(p.margin_used.str() == "980"); // 880 + 100
    REQUIRE(p.raw_usd);
    CHECK(p.raw_usd->str() == "5280");                 // 880 - (-10 * 440)
    CHECK(p.return_on_equity.str() == "0.1136363636"); // 100 * 5 / 4400
    // maintenance 4300 / 20 = 215, available 980 - 215 = 765;
    // liq = 430 + 765 * 20 / (10 * 21) = 430 + 72.8571428571 = 502.8571428571.
    REQUIRE(p.liquidation_px);
    CHECK(p.liquidation_px->str() == "502.8571428571");
    CHECK(v.all.account_value.str() == "980");
    CHECK(v.all.total_margin_used.str() == "980");
    CHECK(v.all.total_raw_usd.str() == "5280");
    CHECK(v.cross.account_value.str() == "0");
    CHECK(v.withdrawable.str() == "0");
    // The main dex does not show the builder dex's position.
    CHECK(l.perp_state(alice, "", marks({})).positions.empty());

    // Buy back 4 @ 420: closedPnl 4 * 20 = 80, releases 880 * 4 / 10 = 352 into xyz.
    f = l.apply_fill(alice, fill("xyz:TSLA", true, "420", "4"));
    REQUIRE(f);
    CHECK(f->dir == "Close Short");
    CHECK(f->closed_pnl.str() == "80");
    CHECK(l.collateral(alice, "xyz").str() == "432");
    auto const after = l.positions(alice);
    REQUIRE(after.size() == 1);
    CHECK(after[0].szi.str() == "-6");
    CHECK(after[0].isolated_margin.str() == "528");
}

TEST_CASE("mock alpha ledger: cross vs isolated on the same position size", "[unit][mock][alpha]") {
    auto cross = make_ledger();
    auto iso = make_ledger();
    for (auto* l : {&cross, &iso})
        l->credit(alice, "USDC", a("5000"));
    cross.set_leverage(alice, "ETH", {margin_mode::cross, 10});
    iso.set_leverage(alice, "ETH", {margin_mode::isolated, 10});
    REQUIRE(cross.apply_fill(alice, fill("ETH", true, "3000", "1")));
    REQUIRE(iso.apply_fill(alice, fill("ETH", true, "3000", "1")));
    auto const m = marks({{"ETH", "2900"}});
    auto const c = cross.perp_state(alice, "", m);
    auto const i = iso.perp_state(alice, "", m);
    // Cross: margin 2900 / 10 = 290, the whole account backs it.
    CHECK(only_position(c).margin_used.str() == "290");
    CHECK(c.cross.account_value.str() == "4900");
    // account 4900, maintenance 2900 / 50 = 58: liq = 2900 - 4842 * 50 / 49 = -2040.8... -> none.
    CHECK_FALSE(only_position(c).liquidation_px);
    // Isolated: 300 moved in, margin used 300 - 100 = 200, cross keeps 4700.
    CHECK(only_position(i).margin_used.str() == "200");
    CHECK(only_position(i).raw_usd->str() == "-2700"); // 300 - 3000
    CHECK(i.cross.account_value.str() == "4700");
    CHECK(i.all.account_value.str() == "4900");
    CHECK(i.withdrawable.str() == "4700");
    // available 200 - 58 = 142: liq = 2900 - 142 * 50 / 49 = 2900 - 144.8979591837.
    REQUIRE(only_position(i).liquidation_px);
    CHECK(only_position(i).liquidation_px->str() == "2755.1020408163");
    // Going cross releases the isolated margin.
    iso.set_leverage(alice, "ETH", {margin_mode::cross, 10});
    CHECK(iso.collateral(alice, "").str() == "5000");
}

TEST_CASE("mock alpha ledger: spot buys and sells move token balances, entry notional and hold",
          "[unit][mock][alpha]") {
    auto l = make_ledger();
    REQUIRE(l.credit_spot(alice, "USDC", a("1000")));
    CHECK_FALSE(l.credit(alice, "DOGE", a("1")));

    // Buy 100 PURR @ 0.2: PURR 100 (entry 20), USDC 980.
    auto f = l.apply_fill(alice, fill("PURR/USDC", true, "0.2", "100"));
    REQUIRE(f);
    CHECK(f->dir == "Buy");
    CHECK(f->start_position.str() == "0");
    CHECK(f->fee_token == "PURR");
    // Sell 40 @ 0.25, fee 0.01 USDC: cost 20 * 40 / 100 = 8, proceeds 10, closedPnl 2.
    f = l.apply_fill(alice, fill("PURR/USDC", false, "0.25", "40", "0.01"));
    REQUIRE(f);
    CHECK(f->dir == "Sell");
    CHECK(f->start_position.str() == "100");
    CHECK(f->closed_pnl.str() == "2");
    CHECK(f->fee_token == "USDC");

    l.add_order(alice, order("PURR/USDC", false, "0.3", "10", 1));
    l.add_order(alice, order("PURR/USDC", true, "0.1", "100", 2));
    auto const s = l.spot_state(alice);
    REQUIRE(s.size() == 2);
    CHECK(s[0].coin == "USDC");
    CHECK(s[0].token == 0);
    CHECK(s[0].total.str() == "989.99"); // 980 + 10 - 0.01
    CHECK(s[0].hold.str() == "10");      // 100 * 0.1
    CHECK(s[0].entry_ntl.str() == "0");
    CHECK(s[1].coin == "PURR");
    CHECK(s[1].token == 1);
    CHECK(s[1].total.str() == "60");
    CHECK(s[1].hold.str() == "10");
    CHECK(s[1].entry_ntl.str() == "12");
    // Spot never touches perps collateral.
    CHECK(l.collateral(alice, "").str() == "0");
    CHECK(l.perp_state(alice, "", marks({})).positions.empty());
}

TEST_CASE("mock alpha ledger: orders, order status, history, agents, roles and rate limits",
          "[unit][mock][alpha]") {
    auto l = make_ledger();
    order_spec limit = order("BTC", true, "60000", "0.1", 1000);
    limit.cloid = "0x0000000000000000000000000000abcd";
    auto const first = l.add_order(alice, limit);
    auto const second = l.add_order(alice, order("xyz:TSLA", false, "450", "1", 2000));
    auto const third = l.add_order(alice, order("PURR/USDC", false, "1", "5", 3000));
    CHECK(second == first + 1);
    CHECK(third == second + 1);

    auto const main = l.open_orders(alice, "");
    REQUIRE(main.size() == 2); // BTC and the spot order; newest first
    CHECK(main[0].oid == third);
    CHECK(main[1].oid == first);
    REQUIRE(l.open_orders(alice, "xyz").size() == 1);
    CHECK(l.open_orders(alice).size() == 3);

    REQUIRE(l.set_order_size(alice, first, a("0.04")));
    auto st = l.order_status(alice, first);
    REQUIRE(st);
    CHECK(st->status == "open");
    CHECK(st->order.sz.str() == "0.04");
    CHECK(st->status_timestamp == 1000);
    auto removed = l.remove_order(alice, first, "canceled", 5000);
    REQUIRE(removed);
    CHECK_FALSE(l.remove_order(alice, first, "canceled", 5000));
    st = l.order_status_by_cloid(alice, "0x0000000000000000000000000000abcd");
    REQUIRE(st);
    CHECK(st->status == "canceled");
    CHECK(st->status_timestamp == 5000);
    CHECK_FALSE(l.order_status(alice, 1));
    CHECK_FALSE(l.order_status(bob, second));
    auto const hist = l.historical_orders(alice);
    REQUIRE(hist.size() == 3);
    CHECK(hist[0].order.oid == first); // newest status first
    CHECK(hist[0].status == "canceled");

    CHECK(l.role(alice).role == "user");
    CHECK(l.role(bob).role == "missing");
    l.add_agent(alice, {bob, "bot", 1'800'000'000'000});
    l.add_agent(alice, {"0x00000000000000000000000000000000000000c3", "", std::nullopt});
    CHECK(l.role(bob).role == "agent");
    CHECK(l.role(bob).master == alice);
    auto const agents = l.extra_agents(alice);
    REQUIRE(agents.size() == 1); // the unnamed agent is not listed
    CHECK(agents[0].name == "bot");
    CHECK(agents[0].valid_until == 1'800'000'000'000);

    l.credit(alice, "USDC", a("100000"));
    REQUIRE(l.apply_fill(alice, fill("BTC", true, "60000", "0.5")));
    l.note_action(alice);
    auto const r = l.rate_limit(alice);
    CHECK(r.cum_vlm.str() == "30000");
    CHECK(r.requests_used == 1);
    CHECK(r.requests_cap == 40000);
    CHECK(l.rate_limit(bob).requests_cap == 10000);
    CHECK(l.net_deposits("").str() == "100000");
}

TEST_CASE("mock candle history: trades aggregate into every interval, months by the calendar",
          "[unit][mock][alpha]") {
    gateway::mocks::market_spec s;
    s.symbol = "TEST";
    s.mark = 1000;
    s.lot = 10;
    // Backfill ends at t = 10 h; live trades follow.
    std::int64_t const h = 3'600'000;
    candle_history c(7, {s}, 10 * h);
    c.record(0, 10 * h + 1'000, 1005, 2);
    c.record(0, 10 * h + 61'000, 990, 3);
    c.record(0, 10 * h + 62'000, 1001, 1);
    auto const minutes = c.query(0, {60'000, false}, 10 * h, 11 * h, 5000);
    REQUIRE(minutes.size() == 2);
    CHECK(minutes[0].t == 10 * h);
    CHECK(minutes[0].o == 1005);
    CHECK(minutes[0].n == 1);
    CHECK(minutes[1].t == 10 * h + 60'000);
    CHECK(minutes[1].o == 990);
    CHECK(minutes[1].c == 1001);
    CHECK(minutes[1].h == 1001);
    CHECK(minutes[1].l == 990);
    CHECK(minutes[1].v == 4);
    CHECK(minutes[1].n == 2);
    // The hour opening at 10 h holds exactly those three trades.
    auto const hour = c.query(0, {h, false}, 10 * h, 10 * h, 5000);
    REQUIRE(hour.size() == 1);
    CHECK(hour[0].n == 3);
    CHECK(hour[0].v == 6);
    // History before the live trades is backfilled, ascending, with sane wicks.
    auto const past = c.query(0, {h, false}, 0, 10 * h - 1, 5000);
    REQUIRE(past.size() == 10);
    for (std::size_t i = 0; i < past.size(); ++i) {
        CHECK(past[i].t == static_cast<std::int64_t>(i) * h);
        CHECK(past[i].l <= std::min(past[i].o, past[i].c));
        CHECK(past[i].h >= std::max(past[i].o, past[i].c));
        CHECK(past[i].n > 0);
    }
    // Deterministic for a seed.
    candle_history again(7, {s}, 10 * h);
    auto const same = again.query(0, {h, false}, 0, 10 * h - 1, 5000);
    REQUIRE(same.size() == past.size());
    for (std::size_t i = 0; i < same.size(); ++i)
        CHECK((same[i].o == past[i].o && same[i].c == past[i].c && same[i].v == past[i].v));
    // Calendar months: 2024-02-01 .. 2024-03-01 (leap year), epoch-aligned weeks.
    candle_interval const month{0, true};
    std::int64_t const feb = 1'706'745'600'000; // 2024-02-01T00:00:00Z
    std::int64_t const mar = 1'709'251'200'000; // 2024-03-01T00:00:00Z
    CHECK(gateway::mocks::bucket_open(month, feb + 5 * 86'400'000) == feb);
    CHECK(gateway::mocks::bucket_next(month, feb) == mar);
    CHECK(gateway::mocks::bucket_next(month, 1'701'388'800'000) ==
          1'704'067'200'000); // Dec 2023 -> Jan 2024
    CHECK(gateway::mocks::bucket_open({604'800'000, false}, 604'800'000 + 5) == 604'800'000);
}

} // namespace mock_alpha_ledger_test
