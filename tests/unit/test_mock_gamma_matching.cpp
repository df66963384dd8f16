// Unit tests of mock-gamma's matching engine (mocks/src/gamma/gamma_matching.hpp), driven
// directly (no HTTP, no signatures): house liquidity, price-time priority, partial fills at the
// makers' prices, FOK / FAK / post-only, GTD expiry, the order checks and their upstream texts,
// balances locked and released, the CTF Exchange's fees (upstreams/gamma.md §5).
//
// The mock's internal headers are not part of any public include path (mocks/src is private
// to the library), hence the relative includes.
#include "../../mocks/src/gamma/gamma_ledger.hpp"
#include "../../mocks/src/gamma/gamma_matching.hpp"

#include <catch2/catch.hpp>

#include "support/mock_values.hpp"

#include <string>
#include <variant>

namespace mock_gamma_matching_test {

namespace {

using gateway::mocks::market_spec;
using gateway::mocks::market_state;
using namespace gateway::mocks::gamma;

using gateway::test::alice;
using gateway::test::bob;
using gateway::test::carol;

constexpr std::int64_t t0 = 1'700'000'000'000;
constexpr char const* yes = "1001";
constexpr char const* no = "1002";
constexpr char const* closed = "2001"; // a catalog token without a book
constexpr char const* condition =
    "0x00000000000000000000000000000000000000000000000000000000000000c1";

/// Micro units of a decimal literal ("0.5" -> 500000).
micros u(std::string_view text) {
    micros whole = 0;
    micros frac = 0;
    unsigned digits = 0;
    bool point = false;
    for (char const c : text) {
        if (c == '.') {
            point = true;
            continue;
        }
        if (point) {
            frac = frac * 10 + (c - '0');
            ++digits;
        } else {
            whole = whole * 10 + (c - '0');
        }
    }
    while (digits < 6) {
        frac *= 10;
        ++digits;
    }
    return whole * one_unit + frac;
}

std::vector<market_spec> specs() {
    market_spec y;
    y.symbol = yes;
    y.px_scale = 2;
    y.tick = 1;
    y.sz_scale = 2;
    y.mark = 50;
    y.min_px = 1;
    y.max_px = 99;
    y.step_ppm = 20000;
    y.lot = 50000; // 500 shares
    y.max_orders = 6;
    market_spec n = y;
    n.symbol = no;
    n.mark = 50;
    n.complement_of = 0;
    return {y, n};
}

/// A market state with one YES/NO pair, and the engine on it with a settable clock.
struct gamma_engine {
    std::int64_t now = t0;
    market_state markets{7, specs(), t0, 0};
    engine ex{markets,
              [this](std::string_view id) -> std::optional<token_info> {
                  token_info t;
                  t.token_id = std::string(id);
                  t.condition_id = condition;
                  if (id == yes || id == no) {
                      t.outcome = id == yes ? "Yes" : "No";
                      t.state = *markets.find(id);
                      return t;
                  }
                  if (id == closed)
                      return t;
                  return std::nullopt;
              },
              7,
              [this] {
                  return now;
              }};
    unsigned next_id = 0;

    gamma_engine() { mark("0.5"); }

    /// Pins the YES mark (as `/__mock/mark`) and moves the clock on.
    void mark(char const* px) {
        markets.set_mark(0, u(px) / 10'000);
        now += 1000;
    }

    /// A fresh order id.
    std::string id() {
        std::string digits = std::to_string(++next_id);
        return "0x" + std::string(64 - digits.size(), '0') + digits;
    }

    /// A limit order of `size` shares at `price` (gamma.md §5.2 amounts).
    new_order order(char const* maker, bool buy, char const* price, char const* size,
                    order_kind kind = order_kind::gtc, char const* token = yes) {
        new_order o;
        o.id = id();
        o.owner = std::string("key-") + maker;
        o.maker = maker;
        o.token_id = token;
        o.is_buy = buy;
        micros const shares = u(size);
        micros const usd = shares / 10'000 * (u(price) / 10'000) * 100; // shares x price
        o.maker_amount = buy ? usd : shares;
        o.taker_amount = buy ? shares : usd;
        o.kind = kind;
        return o;
    }

    placed ok(new_order const& o) {
        auto r = ex.place(o);
        if (auto const* e = std::get_if<refusal>(&r))
            FAIL("refused: " << e->message);
        return std::get<placed>(r);
    }

    refusal refused(new_order const& o) {
        auto r = ex.place(o);
        REQUIRE(std::holds_alternative<refusal>(r));
        return std::get<refusal>(r);
    }

    holding held(char const* who, std::string const& asset) {
        for (auto const& [a, h] : ex.holdings(who))
            if (a == asset)
                return h;
        return {};
    }

    book_view book(char const* token = yes) {
        auto b = ex.book(token);
        REQUIRE(b);
        return *b;
    }
};

std::string const usdc(usdc_asset);

} // namespace

TEST_CASE("mock gamma engine: the house quotes the seeded ladder around the mark",
          "[unit][mock][gamma]") {
    gamma_engine g;
    auto const b = g.book();
    auto const snap = g.markets.book(0, house_depth);
    REQUIRE(b.bids.size() == snap.bids.size());
    REQUIRE(b.asks.size() == snap.asks.size());
    for (std::size_t i = 0; i < snap.bids.size(); ++i) {
        CHECK(b.bids[i].price == snap.bids[i].px * 10'000);
        CHECK(b.bids[i].size == snap.bids[i].sz * 10'000);
    }
    CHECK(b.bids.front().price == u("0.49"));
    CHECK(b.asks.front().price == u("0.51"));
    // The NO token's house mirrors the YES ladder (its own book).
    auto const n = g.book(no);
    CHECK(n.bids.front().price == u("0.49"));
    CHECK(n.asks.front().price == u("0.51"));
    CHECK_FALSE(g.ex.book(closed));
    CHECK_FALSE(g.ex.book("9999"));
}

TEST_CASE("mock gamma engine: price-time priority, partial fills at the makers' prices",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("100"));
    g.ex.credit(bob, usdc, u("100"));
    g.ex.credit(carol, yes, u("100"));

    auto const a = g.ok(g.order(alice, true, "0.5", "10"));
    auto const b = g.ok(g.order(bob, true, "0.5", "10"));
    CHECK(a.status() == "live");
    CHECK(a.trades.empty());
    CHECK(g.book().bids.front().price == u("0.5"));
    CHECK(g.book().bids.front().size == u("20"));

    // carol sells 15 at 0.45: alice (first at the best price) fills entirely, then bob 5.
    auto const c = g.ok(g.order(carol, false, "0.45", "15"));
    CHECK(c.status() == "matched");
    REQUIRE(c.trades.size() == 2);
    CHECK(c.trades[0].maker_order_id == a.order.id);
    CHECK(c.trades[0].size == u("10"));
    CHECK(c.trades[0].price == u("0.5")); // the maker's price, not carol's 0.45
    CHECK(c.trades[1].maker_order_id == b.order.id);
    CHECK(c.trades[1].size == u("5"));
    CHECK(c.making == u("15"));  // shares given
    CHECK(c.taking == u("7.5")); // USDC received
    CHECK(c.order.status == "MATCHED");

    auto const alice_order = g.ex.order(alice, a.order.id);
    REQUIRE(alice_order);
    CHECK(alice_order->status == "MATCHED");
    CHECK(alice_order->matched == u("10"));
    CHECK(alice_order->trades == std::vector<std::string>{c.trades[0].id});
    auto const bob_open = g.ex.open_orders(bob, {});
    REQUIRE(bob_open.size() == 1);
    CHECK(bob_open[0].matched == u("5"));
    CHECK(bob_open[0].remaining() == u("5"));
    CHECK(g.book().bids.front().size == u("5"));

    // Balances: alice paid 5 and holds 10 shares; bob paid 2.5, 2.5 still locked; carol.
    CHECK(g.held(alice, usdc).balance == u("95"));
    CHECK(g.held(alice, usdc).locked == 0);
    CHECK(g.held(alice, yes).balance == u("10"));
    CHECK(g.held(bob, usdc).balance == u("97.5"));
    CHECK(g.held(bob, usdc).locked == u("2.5"));
    CHECK(g.held(carol, usdc).balance == u("7.5"));
    CHECK(g.held(carol, yes).balance == u("85"));

    // Both sides see the trade: carol as taker, alice as maker.
    auto const ct = g.ex.trades(carol, {});
    REQUIRE(ct.size() == 2);
    CHECK_FALSE(ct[0].as_maker);
    auto const at = g.ex.trades(alice, {});
    REQUIRE(at.size() == 1);
    CHECK(at[0].as_maker);
    CHECK(at[0].trade.id == c.trades[0].id);
    CHECK(at[0].trade.taker_address == carol);
    CHECK(at[0].trade.maker_address == alice);
    CHECK(g.ex.trades(alice, {c.trades[1].id, "", ""}).empty());
}

TEST_CASE("mock gamma engine: a BUY sweeps the house asks up to its price, the rest rests",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("10000"));
    auto const before = g.book();
    REQUIRE(before.asks.size() >= 3);
    // Buy everything the two best ask levels hold, plus 1 share more, at the second level's
    // price: both levels fill at their own prices and 1 share rests at the limit.
    micros const want = before.asks[0].size + before.asks[1].size + u("1");
    std::string const price = micros_text(before.asks[1].price);
    std::string const size = micros_text(want);
    auto const p = g.ok(g.order(alice, true, price.c_str(), size.c_str()));
    REQUIRE(p.trades.size() >= 2);
    micros filled = 0;
    micros paid = 0;
    for (auto const& t : p.trades) {
        CHECK(t.maker_address == house_address);
        CHECK(t.maker_owner == house_owner);
        CHECK(t.price <= before.asks[1].price);
        filled += t.size;
        paid += t.size * (t.price / 10'000) / 100;
    }
    CHECK(filled == want - u("1"));
    CHECK(p.order.matched == filled);
    CHECK(p.making == paid);
    CHECK(p.status() == "matched");
    auto const after = g.book();
    CHECK(after.bids.front().price == before.asks[1].price);
    CHECK(after.bids.front().size == u("1"));
    CHECK(after.asks.front().price == before.asks[2].price);
    CHECK(g.held(alice, usdc).balance == u("10000") - paid);
    CHECK(g.held(alice, usdc).locked == before.asks[1].price); // 1 share at the limit
    CHECK(g.held(alice, yes).balance == filled);
}

TEST_CASE("mock gamma engine: FOK fills entirely or is refused untouched, FAK fills what it can",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("100000"));
    auto const best = g.book().asks.front();
    std::string const px = micros_text(best.price);

    SECTION("FOK larger than the crossable liquidity") {
        std::string const size = micros_text(best.size + u("1"));
        auto const r = g.refused(g.order(alice, true, px.c_str(), size.c_str(), order_kind::fok));
        CHECK(r.status == 400);
        CHECK(r.message == errors::fok_not_filled);
        CHECK(g.book().asks.front().size == best.size);
        CHECK(g.held(alice, usdc).balance == u("100000"));
        CHECK(g.ex.trades(alice, {}).empty());
    }
    SECTION("FOK that fits") {
        std::string const size = micros_text(best.size);
        auto const p = g.ok(g.order(alice, true, px.c_str(), size.c_str(), order_kind::fok));
        CHECK(p.status() == "matched");
        CHECK(p.order.matched == best.size);
        CHECK(p.order.status == "MATCHED");
        CHECK(g.book().asks.front().price > best.price);
        CHECK(g.ex.open_orders(alice, {}).empty());
    }
    SECTION("FAK with nothing to match") {
        auto const r = g.refused(g.order(alice, true, "0.5", "10", order_kind::fak));
        CHECK(r.message == errors::fak_no_match);
    }
    SECTION("FAK fills the crossable part and the rest dies") {
        std::string const size = micros_text(best.size + u("7"));
        auto const p = g.ok(g.order(alice, true, px.c_str(), size.c_str(), order_kind::fak));
        CHECK(p.order.matched == best.size);
        CHECK(p.order.status == "MATCHED");
        CHECK(g.ex.open_orders(alice, {}).empty());
        CHECK(g.held(alice, usdc).locked == 0);
        CHECK(g.book().bids.front().price == u("0.49")); // nothing rested
    }
}

TEST_CASE("mock gamma engine: post-only rests or is refused, never takes", "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("1000"));
    auto crossing = g.order(alice, true, "0.51", "10");
    crossing.post_only = true;
    CHECK(g.refused(crossing).message == errors::post_only_crosses);
    auto resting = g.order(alice, true, "0.5", "10");
    resting.post_only = true;
    CHECK(g.ok(resting).status() == "live");
    auto fok = g.order(alice, true, "0.51", "10", order_kind::fok);
    fok.post_only = true;
    CHECK(g.refused(fok).message == errors::post_only_type);
    CHECK(g.ex.trades(alice, {}).empty());
}

TEST_CASE("mock gamma engine: balances are locked by resting orders and released by cancels",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("100"));
    auto const first = g.ok(g.order(alice, true, "0.4", "100")); // locks 40
    CHECK(g.held(alice, usdc).locked == u("40"));
    CHECK(g.held(alice, usdc).available() == u("60"));
    // 61 > 60 available
    CHECK(g.refused(g.order(alice, true, "0.3", "203.34")).message == errors::not_enough_balance);
    auto const second = g.ok(g.order(alice, true, "0.3", "200")); // locks 60
    CHECK(g.held(alice, usdc).available() == 0);
    CHECK(g.refused(g.order(alice, true, "0.01", "5")).message == errors::not_enough_balance);

    auto const c = g.ex.cancel(alice, {first.order.id, first.order.id, g.id()});
    CHECK(c.canceled == std::vector<std::string>{first.order.id});
    REQUIRE(c.not_canceled.size() == 2);
    CHECK(c.not_canceled[0].second == errors::cancel_already);
    CHECK(c.not_canceled[1].second == errors::cancel_not_found);
    CHECK(g.held(alice, usdc).locked == u("60"));
    // bob cannot cancel alice's order
    auto const foreign = g.ex.cancel(bob, {second.order.id});
    CHECK(foreign.canceled.empty());
    CHECK(foreign.not_canceled.at(0).second == errors::cancel_not_found);
    auto const all = g.ex.cancel_all(alice);
    CHECK(all.canceled == std::vector<std::string>{second.order.id});
    CHECK(g.held(alice, usdc).locked == 0);
    CHECK(g.held(alice, usdc).balance == u("100"));
    CHECK(g.ex.order(alice, second.order.id)->status == "CANCELED");

    // SELL needs the shares: none yet, then a fill brings them and a resting SELL locks them.
    CHECK(g.refused(g.order(alice, false, "0.6", "10")).message == errors::not_enough_balance);
    g.ok(g.order(alice, true, "0.51", "10", order_kind::fok));
    CHECK(g.held(alice, yes).balance == u("10"));
    auto const sell = g.ok(g.order(alice, false, "0.6", "10"));
    CHECK(g.held(alice, yes).locked == u("10"));
    CHECK(g.refused(g.order(alice, false, "0.7", "5")).message == errors::not_enough_balance);
    g.ex.cancel_market(alice, condition, yes);
    CHECK(g.held(alice, yes).locked == 0);
    CHECK(g.ex.order(alice, sell.order.id)->status == "CANCELED");
}

TEST_CASE("mock gamma engine: fees follow the CTF Exchange formula on each side",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.mark("0.6"); // house bid 0.59, ask 0.61
    g.ex.credit(alice, usdc, u("100"));
    g.ex.credit(bob, yes, u("100"));
    // bob rests a SELL of 10 at 0.6 with 200 bps; alice's BUY (100 bps) takes it.
    auto s = g.order(bob, false, "0.6", "10");
    s.fee_rate_bps = 200;
    auto const maker = g.ok(s);
    auto b = g.order(alice, true, "0.6", "10");
    b.fee_rate_bps = 100;
    auto const taker = g.ok(b);
    REQUIRE(taker.trades.size() == 1);
    auto const& t = taker.trades[0];
    CHECK(t.maker_order_id == maker.order.id);
    // BUY: 100/10^4 x min(0.6, 0.4) / 0.6 x 10 shares = 0.0666.. -> 0.066666 shares
    CHECK(t.taker_fee == u("0.066666"));
    // SELL: 200/10^4 x min(0.6, 0.4) x 10 shares = 0.08 USDC
    CHECK(t.maker_fee == u("0.08"));
    CHECK(t.taker_fee_rate_bps == 100);
    CHECK(t.maker_fee_rate_bps == 200);
    CHECK(g.held(alice, yes).balance == u("10") - u("0.066666"));
    CHECK(g.held(alice, usdc).balance == u("94"));
    CHECK(g.held(bob, usdc).balance == u("6") - u("0.08"));
    CHECK(g.held(bob, yes).balance == u("90"));
    CHECK(g.held(bob, yes).locked == 0);
    // The house charges nothing, and a zero rate is free.
    auto const free = g.ok(g.order(alice, true, "0.61", "5", order_kind::fok));
    CHECK(free.trades.at(0).taker_fee == 0);
    CHECK(free.trades.at(0).maker_fee == 0);
}

TEST_CASE("mock gamma engine: a GTD order leaves the book at its expiration",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("100"));
    auto early = g.order(alice, true, "0.4", "10", order_kind::gtd);
    early.expiration = static_cast<std::uint64_t>(g.now / 1000 + 59);
    CHECK(g.refused(early).message == errors::invalid_expiration);
    auto gtd = g.order(alice, true, "0.4", "10", order_kind::gtd);
    gtd.expiration = static_cast<std::uint64_t>(g.now / 1000 + 120);
    auto const p = g.ok(gtd);
    CHECK(g.held(alice, usdc).locked == u("4"));
    g.now += 119'000;
    CHECK(g.ex.open_orders(alice, {}).size() == 1);
    g.now += 1'000;
    CHECK(g.ex.open_orders(alice, {}).empty());
    CHECK(g.ex.order(alice, p.order.id)->status == "CANCELED");
    CHECK(g.held(alice, usdc).locked == 0);
    CHECK(g.book().bids.front().price == u("0.49"));
}

TEST_CASE("mock gamma engine: a house re-quote that crosses a resting order fills it",
          "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("100"));
    auto const p = g.ok(g.order(alice, true, "0.5", "10"));
    g.mark("0.45"); // the house now asks from 0.46: alice's bid at 0.5 is crossed
    auto const r = g.ex.order(alice, p.order.id);
    REQUIRE(r);
    CHECK(r->status == "MATCHED");
    auto const t = g.ex.trades(alice, {});
    REQUIRE_FALSE(t.empty());
    for (auto const& v : t) {
        CHECK(v.as_maker);
        CHECK(v.trade.price == u("0.5")); // the maker's (alice's) price
        CHECK(v.trade.taker_address == house_address);
    }
    CHECK(g.held(alice, yes).balance == u("10"));
    CHECK(g.held(alice, usdc).balance == u("95"));
    CHECK(g.held(alice, usdc).locked == 0);
}

TEST_CASE("mock gamma engine: order checks answer the upstream's texts", "[unit][mock][gamma]") {
    gamma_engine g;
    g.ex.credit(alice, usdc, u("1000"));
    g.ex.credit(alice, yes, u("1000"));

    SECTION("off the tick grid") {
        auto o = g.order(alice, true, "0.5", "10");
        o.maker_amount = u("5.05"); // 0.505 a share
        auto const r = g.refused(o);
        CHECK(r.message == tick_error(o.id, "0.505", "0.01"));
        CHECK(r.message ==
              "order " + o.id + " is invalid. Price (0.505) breaks minimum tick size rule: 0.01");
    }
    SECTION("price outside [tick, 1 - tick]") {
        auto o = g.order(alice, true, "0.5", "10");
        o.maker_amount = u("10"); // 1.0 a share
        CHECK(g.refused(o).message == tick_error(o.id, "1", "0.01"));
    }
    SECTION("amount precision") {
        auto o = g.order(alice, true, "0.5", "10");
        o.taker_amount = u("10.001");
        CHECK(g.refused(o).message == "invalid amounts, the buy orders maker amount supports a "
                                      "max accuracy of 4 decimals, taker amount a max of 2 "
                                      "decimals");
        auto s = g.order(alice, false, "0.5", "10");
        s.taker_amount = u("5.00001");
        CHECK(g.refused(s).message == amounts_error(false, 4));
    }
    SECTION("below the minimum size") {
        auto const o = g.order(alice, true, "0.5", "4.99");
        CHECK(g.refused(o).message ==
              "order " + o.id + " is invalid. Size (4.99) lower than the minimum: 5");
    }
    SECTION("a duplicate") {
        auto const o = g.order(alice, true, "0.3", "10");
        g.ok(o);
        CHECK(g.refused(o).message == "order " + o.id + " is invalid. Duplicated.");
        g.ex.cancel(alice, {o.id});
        CHECK(g.refused(o).message == duplicated_error(o.id)); // ever accepted, not just open
    }
    SECTION("tokens") {
        CHECK(g.refused(g.order(alice, true, "0.5", "10", order_kind::gtc, "9999")).message ==
              errors::invalid_token);
        CHECK(g.refused(g.order(alice, true, "0.5", "10", order_kind::gtc, closed)).message ==
              errors::no_orderbook);
    }
    SECTION("payload") {
        auto o = g.order(alice, true, "0.5", "10");
        o.taker_amount = 0;
        CHECK(g.refused(o).message == errors::invalid_payload);
        auto f = g.order(alice, true, "0.5", "10");
        f.fee_rate_bps = max_fee_rate_bps + 1;
        CHECK(g.refused(f).message == errors::invalid_payload);
    }
    SECTION("a past expiration on any order type") {
        auto o = g.order(alice, true, "0.5", "10");
        o.expiration = static_cast<std::uint64_t>(g.now / 1000);
        CHECK(g.refused(o).message == errors::invalid_expiration);
    }
    // Nothing refused changed the account.
    CHECK(g.held(alice, usdc).locked == 0);
}

TEST_CASE("mock gamma engine: micro amounts print as canonical decimals", "[unit][mock][gamma]") {
    CHECK(micros_text(0) == "0");
    CHECK(micros_text(u("1.08")) == "1.08");
    CHECK(micros_text(5'000'000) == "5");
    CHECK(micros_text(1) == "0.000001");
    CHECK(micros_text(-2'500'000) == "-2.5");
}

} // namespace mock_gamma_matching_test
