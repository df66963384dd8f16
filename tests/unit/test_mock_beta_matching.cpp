// Unit tests of mock beta's matching engine (mocks/src/beta/beta_matching.hpp), driven directly
// (no HTTP): price-time priority and partial fills, IOC / FOK / GTX, reduce-only, trigger and
// trailing-stop orders on mark moves, house re-quotes, fees, margin, spot locks, leverage and
// the liquidation price the fills leave in the ledger (upstreams/beta.md §4.3, §5).
//
// The mock's internal headers are not part of any public include path (mocks/src is private
// to the library), hence the relative includes.
#include "../../mocks/src/beta/beta_accounts.hpp"
#include "../../mocks/src/beta/beta_ledger.hpp"
#include "../../mocks/src/beta/beta_markets.hpp"
#include "../../mocks/src/beta/beta_matching.hpp"

#include <gateway/providers/beta/errors.hpp>

#include <catch2/catch.hpp>

#include "support/mock_values.hpp"

#include <string>
#include <variant>

namespace mock_beta_matching_test {

namespace {

namespace wb = gateway::wire::beta;
using gateway::mocks::amount;
using gateway::mocks::market_state;
using namespace gateway::mocks::beta;

using gateway::test::a;
using gateway::test::alice;
using gateway::test::bob;
using gateway::test::carol;

constexpr std::int64_t t0 = 1'700'000'000'000;

/// A market state, ledger and engine on mock-beta's own markets, with a settable clock.
struct beta_engine {
    std::int64_t now = t0;
    market_state markets{7, market_specs(), t0, 0};
    ledger book{7, contracts(), {"USDT", "BTC", "ETH", "ASTER"}};
    engine ex{book, markets, [this] {
                  return now;
              }};

    beta_engine() {
        mark("BTCUSDT", "65000");
        ex.sync();
    }

    /// Pins a mark (as `/__mock/mark`) and lets the engine see it (as the next request does).
    void mark(char const* symbol, char const* px) {
        auto const i = *markets.find(symbol);
        auto const m = a(px).to_scaled(markets.spec(i).px_scale);
        REQUIRE(m);
        markets.set_mark(i, *m);
        ++now;
        ex.sync();
    }

    void fund(std::string const& who, char const* usdt) {
        book.credit_futures(who, "USDT", a(usdt), now);
    }

    placed_order place(std::string const& who, order_spec spec, venue where = venue::futures) {
        auto r = ex.place(where, who, std::move(spec));
        auto const* e = std::get_if<refusal>(&r);
        INFO((e ? std::to_string(e->error.code) + " " + e->msg : std::string()));
        REQUIRE(e == nullptr);
        return std::get<placed_order>(r);
    }

    int refused(std::string const& who, order_spec spec, venue where = venue::futures) {
        auto r = ex.place(where, who, std::move(spec));
        REQUIRE(std::holds_alternative<refusal>(r));
        return std::get<refusal>(r).error.code;
    }

    order_record order(std::string const& who, std::uint64_t id) {
        auto o = book.order(who, id);
        REQUIRE(o);
        return *o;
    }

    amount position(std::string const& who, char const* symbol = "BTCUSDT") {
        return book.position_amt(who, symbol);
    }
};

order_spec limit(bool is_buy, char const* qty, char const* px, char const* tif = "GTC") {
    order_spec s;
    s.symbol = "BTCUSDT";
    s.is_buy = is_buy;
    s.type = "LIMIT";
    s.time_in_force = tif;
    s.quantity = a(qty);
    s.price = a(px);
    return s;
}

order_spec market(bool is_buy, char const* qty) {
    order_spec s;
    s.symbol = "BTCUSDT";
    s.is_buy = is_buy;
    s.type = "MARKET";
    s.quantity = a(qty);
    return s;
}

order_spec stop_market(bool is_buy, char const* qty, char const* stop) {
    order_spec s = market(is_buy, qty);
    s.type = "STOP_MARKET";
    s.stop_price = a(stop);
    return s;
}

order_spec trailing(bool is_buy, char const* qty, char const* rate,
                    std::optional<char const*> activation) {
    order_spec s = market(is_buy, qty);
    s.type = "TRAILING_STOP_MARKET";
    s.callback_rate = a(rate);
    if (activation)
        s.activation_price = a(*activation);
    return s;
}

} // namespace

TEST_CASE("mock beta matching: the house quotes around the mark", "[unit][mock][beta]") {
    beta_engine f;
    auto const b = f.ex.book(venue::futures, "BTCUSDT", 5);
    REQUIRE(b.bids.size() == 5);
    REQUIRE(b.asks.size() == 5);
    CHECK(b.bids.front().px == a("64999.9"));
    CHECK(b.asks.front().px == a("65000.1"));
    auto const spot = f.ex.book(venue::spot, "BTCUSDT", 1);
    REQUIRE(spot.asks.size() == 1);
    CHECK(spot.asks.front().px == a("65000.1")); // the perp's ladder, in a book of its own
}

TEST_CASE("mock beta matching: price-time priority, partial fills, maker and taker fees",
          "[unit][mock][beta]") {
    beta_engine f;
    for (auto const* who : {alice, bob, carol})
        f.fund(who, "100000");
    // Inside the house spread (64999.9 / 65000.1): two asks at one price, bob first.
    auto const first = f.place(bob, limit(false, "0.01", "65000"));
    f.now += 5;
    auto const second = f.place(carol, limit(false, "0.01", "65000"));
    CHECK(first.final.status == "NEW");
    auto const bid = f.ex.book(venue::futures, "BTCUSDT", 1);
    REQUIRE(bid.asks.front().px == a("65000"));
    CHECK(bid.asks.front().sz == a("0.02"));
    CHECK(bid.asks.front().n == 2);

    auto const taker = f.place(alice, limit(true, "0.015", "65000"));
    CHECK(taker.accepted.status == "NEW");
    CHECK(taker.accepted.executed_qty.is_zero());
    CHECK(taker.final.status == "FILLED");
    CHECK(taker.final.executed_qty == a("0.015"));
    CHECK(taker.final.cum_quote == a("975"));

    auto const bob_order = f.order(bob, first.final.order_id);
    CHECK(bob_order.status == "FILLED");
    CHECK(bob_order.executed_qty == a("0.01"));
    auto const carol_order = f.order(carol, second.final.order_id);
    CHECK(carol_order.status == "PARTIALLY_FILLED");
    CHECK(carol_order.executed_qty == a("0.005"));
    CHECK(f.ex.book(venue::futures, "BTCUSDT", 1).asks.front().sz == a("0.005"));

    auto const taker_fills = f.book.fills(alice);
    REQUIRE(taker_fills.size() == 2);
    CHECK(!taker_fills[0].maker);
    CHECK(taker_fills[0].qty == a("0.01"));
    CHECK(taker_fills[0].commission == a("0.2275")); // 650 * 0.035%
    auto const maker_fills = f.book.fills(bob);
    REQUIRE(maker_fills.size() == 1);
    CHECK(maker_fills[0].maker);
    CHECK(maker_fills[0].commission == a("0.065")); // 650 * 0.01%
    CHECK(maker_fills[0].id == taker_fills[0].id);  // one trade, two sides
    CHECK(f.position(alice) == a("0.015"));
    CHECK(f.position(bob) == a("-0.01"));
    CHECK(f.position(carol) == a("-0.005"));
}

TEST_CASE("mock beta matching: IOC, FOK and GTX", "[unit][mock][beta]") {
    beta_engine f;
    f.fund(alice, "100000");
    f.fund(bob, "100000");
    auto const ask = f.place(bob, limit(false, "0.01", "65000"));

    SECTION("IOC fills what crosses and expires the rest") {
        auto const r = f.place(alice, limit(true, "0.02", "65000", "IOC"));
        CHECK(r.final.status == "EXPIRED");
        CHECK(r.final.executed_qty == a("0.01"));
        CHECK(f.book.open_orders(alice).empty());
        CHECK(f.order(alice, r.final.order_id).status == "EXPIRED");
    }
    SECTION("FOK that cannot fill entirely expires untouched") {
        auto const r = f.place(alice, limit(true, "0.02", "65000", "FOK"));
        CHECK(r.final.status == "EXPIRED");
        CHECK(r.final.executed_qty.is_zero());
        CHECK(f.order(bob, ask.final.order_id).status == "NEW");
        CHECK(f.book.fills(alice).empty());
        auto const full = f.place(alice, limit(true, "0.01", "65000", "FOK"));
        CHECK(full.final.status == "FILLED");
    }
    SECTION("GTX that would take expires; one that would not rests") {
        auto const r = f.place(alice, limit(true, "0.01", "65000", "GTX"));
        CHECK(r.final.status == "EXPIRED");
        CHECK(r.final.executed_qty.is_zero());
        CHECK(f.book.fills(alice).empty());
        auto const maker = f.place(alice, limit(true, "0.01", "64000", "GTX"));
        CHECK(maker.final.status == "NEW");
        CHECK(f.book.open_orders(alice).size() == 1);
    }
    SECTION("MARKET walks the house ladder") {
        auto const r = f.place(alice, market(true, "0.5"));
        CHECK(r.final.status == "FILLED");
        CHECK(r.final.executed_qty == a("0.5"));
        CHECK(f.position(alice) == a("0.5"));
        CHECK(f.order(bob, ask.final.order_id).status == "FILLED"); // best price first
    }
}

TEST_CASE("mock beta matching: reduce-only", "[unit][mock][beta]") {
    beta_engine f;
    f.fund(alice, "100000");
    order_spec ro = market(false, "0.05");
    ro.reduce_only = true;
    CHECK(f.refused(alice, ro) == wb::reduce_only_rejected.code); // no position
    f.place(alice, market(true, "0.01"));
    order_spec same_side = market(true, "0.01");
    same_side.reduce_only = true;
    CHECK(f.refused(alice, same_side) == wb::reduce_only_rejected.code);
    // Larger than the position: closes it, never flips, and expires the rest.
    auto const r = f.place(alice, ro);
    CHECK(r.final.executed_qty == a("0.01"));
    CHECK(r.final.status == "EXPIRED");
    CHECK(f.position(alice).is_zero());

    SECTION("a resting reduce-only order expires when the position is gone") {
        f.place(alice, market(true, "0.01"));
        order_spec rest = limit(false, "0.01", "66000");
        rest.reduce_only = true;
        auto const resting = f.place(alice, rest);
        CHECK(resting.final.status == "NEW");
        f.place(alice, market(false, "0.01")); // flat again
        f.fund(bob, "100000");
        f.mark("BTCUSDT", "67000"); // the house re-quote crosses it
        CHECK(f.order(alice, resting.final.order_id).status == "EXPIRED");
        CHECK(f.position(alice).is_zero());
    }
}

TEST_CASE("mock beta matching: a house re-quote fills a resting limit at its price",
          "[unit][mock][beta]") {
    beta_engine f;
    f.fund(alice, "100000");
    auto const bid = f.place(alice, limit(true, "0.01", "64000"));
    CHECK(bid.final.status == "NEW");
    f.mark("BTCUSDT", "64500");
    CHECK(f.order(alice, bid.final.order_id).status == "NEW");
    f.mark("BTCUSDT", "63000");
    auto const done = f.order(alice, bid.final.order_id);
    CHECK(done.status == "FILLED");
    auto const fills = f.book.fills(alice);
    REQUIRE(fills.size() == 1);
    CHECK(fills[0].price == a("64000"));
    CHECK(fills[0].maker);
    CHECK(fills[0].commission == a("0.064"));
}

TEST_CASE("mock beta matching: stop orders trigger on the mark", "[unit][mock][beta]") {
    beta_engine f;
    f.fund(alice, "100000");
    f.place(alice, market(true, "0.02"));
    CHECK(f.refused(alice, stop_market(false, "0.02", "65100")) ==
          wb::would_immediately_trigger.code); // a SELL stop above the mark
    order_spec sl = stop_market(false, "0.02", "64000");
    sl.reduce_only = true;
    auto const stop = f.place(alice, sl);
    CHECK(stop.final.status == "NEW");
    f.mark("BTCUSDT", "64100");
    CHECK(f.order(alice, stop.final.order_id).status == "NEW");
    f.mark("BTCUSDT", "63990");
    auto const fired = f.order(alice, stop.final.order_id);
    CHECK(fired.status == "FILLED");
    CHECK(fired.spec.type == "MARKET");
    CHECK(fired.spec.orig_type == "STOP_MARKET");
    CHECK(f.position(alice).is_zero());

    SECTION("a stop limit rests at its price once triggered") {
        order_spec s = limit(true, "0.01", "63000");
        s.type = "STOP";
        s.stop_price = a("64500");
        auto const r = f.place(alice, s);
        f.mark("BTCUSDT", "64600");
        auto const o = f.order(alice, r.final.order_id);
        CHECK(o.status == "NEW"); // a LIMIT at 63000 under the market
        CHECK(o.spec.type == "LIMIT");
        CHECK(o.spec.orig_type == "STOP");
        CHECK(f.ex.book(venue::futures, "BTCUSDT", 50).bids.back().px <= a("63000"));
    }
}

TEST_CASE("mock beta matching: trailing stop activation and callback", "[unit][mock][beta]") {
    beta_engine f;
    f.fund(alice, "100000");
    f.place(alice, market(true, "0.01"));
    CHECK(f.refused(alice, trailing(false, "0.01", "1", "64000")) ==
          wb::would_immediately_trigger.code); // a SELL activates above the mark
    auto const t = f.place(alice, trailing(false, "0.01", "1", "66000"));
    auto const id = t.final.order_id;
    f.mark("BTCUSDT", "65800"); // below the activation: nothing
    f.mark("BTCUSDT", "64000"); // a 1.5% drop, but not active yet
    CHECK(f.order(alice, id).status == "NEW");
    f.mark("BTCUSDT", "66500"); // activates, highest 66500
    f.mark("BTCUSDT", "65900"); // above 66500 * 0.99 = 65835
    CHECK(f.order(alice, id).status == "NEW");
    f.mark("BTCUSDT", "67000"); // new highest: the stop follows to 66330
    f.mark("BTCUSDT", "66400");
    CHECK(f.order(alice, id).status == "NEW");
    f.mark("BTCUSDT", "66330");
    auto const fired = f.order(alice, id);
    CHECK(fired.status == "FILLED");
    CHECK(fired.spec.orig_type == "TRAILING_STOP_MARKET");
    CHECK(f.position(alice).is_zero());
    auto const fills = f.book.fills(alice);
    REQUIRE(fills.size() == 2);
    CHECK(fills[1].price == a("66329.9")); // the house bid under the new mark

    SECTION("without an activation price it tracks from the mark it was placed at") {
        f.place(alice, market(false, "0.01")); // short 0.01
        auto const buy = f.place(alice, trailing(true, "0.01", "0.5", std::nullopt));
        CHECK(buy.final.spec.activation_price == a("66330"));
        f.mark("BTCUSDT", "66600"); // lowest 66330 (when placed): fires at 66661.65
        CHECK(f.order(alice, buy.final.order_id).status == "NEW");
        f.mark("BTCUSDT", "66700");
        CHECK(f.order(alice, buy.final.order_id).status == "FILLED");
        CHECK(f.position(alice).is_zero());
    }
}

TEST_CASE("mock beta matching: margin, leverage and the liquidation price", "[unit][mock][beta]") {
    beta_engine f;
    f.fund(alice, "1000");
    CHECK(f.refused(alice, market(true, "1")) == wb::margin_insufficient.code); // 65000 / 20

    auto lev = f.ex.set_leverage(alice, "BTCUSDT", 200);
    REQUIRE(std::holds_alternative<refusal>(lev));
    CHECK(std::get<refusal>(lev).msg == "Leverage 200 is not valid");
    lev = f.ex.set_leverage(alice, "BTCUSDT", 10);
    REQUIRE(std::holds_alternative<amount>(lev));
    CHECK(std::get<amount>(lev) == a("30000000")); // bracket 5 (10x) caps 30M

    auto const r = f.place(alice, market(true, "0.1"));
    REQUIRE(r.final.status == "FILLED");
    auto const v = f.book.futures(alice, marks_of(f.markets));
    auto const& p = v.positions.front();
    REQUIRE(p.symbol == "BTCUSDT");
    CHECK(p.amt == a("0.1"));
    CHECK(p.entry == a("65000.1"));
    CHECK(p.setting.leverage == 10);
    // Cross, one position, bracket 1 (mmr 0.4%, cum 0): (WB - q * entry) / (q * mmr - q).
    amount const wb = a("1000") - a("2.2750035"); // less the taker fee (6500.01 * 0.035%)
    CHECK(v.cross_wallet == wb);
    amount const expected = (wb - a("6500.01")) / (a("0.0004") - a("0.1"));
    REQUIRE(p.liquidation_price);
    CHECK(*p.liquidation_price == expected);
    CHECK(p.unrealized == a("-0.01")); // mark 65000 against entry 65000.1
}

TEST_CASE("mock beta matching: spot locks, fills and cancels", "[unit][mock][beta]") {
    beta_engine f;
    f.book.credit_spot(alice, "USDT", a("1000"));
    order_spec s = limit(true, "0.001", "60000");
    auto const bid = f.place(alice, s, venue::spot);
    CHECK(bid.final.status == "NEW");
    CHECK(f.book.spot_balance(alice, "USDT").free == a("940"));
    CHECK(f.book.spot_balance(alice, "USDT").locked == a("60"));
    CHECK(f.book.open_orders(alice).empty()); // spot orders never show as futures orders
    CHECK(f.book.spot_open_orders(alice).size() == 1);

    auto const canceled =
        f.ex.cancel(venue::spot, alice, "BTCUSDT", bid.final.order_id, std::string());
    REQUIRE(std::holds_alternative<order_record>(canceled));
    CHECK(std::get<order_record>(canceled).status == "CANCELED");
    CHECK(f.book.spot_balance(alice, "USDT").free == a("1000"));
    CHECK(f.book.spot_balance(alice, "USDT").locked.is_zero());
    auto const again =
        f.ex.cancel(venue::spot, alice, "BTCUSDT", bid.final.order_id, std::string());
    REQUIRE(std::holds_alternative<refusal>(again));
    CHECK(std::get<refusal>(again).error.code == wb::cancel_rejected.code);

    auto const buy = f.place(alice, market(true, "0.01"), venue::spot);
    CHECK(buy.final.status == "FILLED");
    CHECK(f.book.spot_balance(alice, "USDT").free == a("349.999"));  // 1000 - 650.001
    CHECK(f.book.spot_balance(alice, "BTC").free == a("0.0099965")); // less 0.035% in BTC
    CHECK(f.refused(alice, market(true, "0.01"), venue::spot) == wb::insufficient_balance.code);
    CHECK(f.refused(bob, limit(false, "0.01", "70000"), venue::spot) ==
          wb::insufficient_balance.code);
}

} // namespace mock_beta_matching_test
