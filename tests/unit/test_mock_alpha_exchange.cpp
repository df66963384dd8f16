// Unit tests of mock alpha's /exchange engine (mocks/src/alpha/alpha_exchange.hpp), driven
// directly (no HTTP): order checks and their exact upstream texts (upstreams/alpha.md §4.6),
// price-time matching against the house ladder and user orders, trigger orders, the ledger
// state the fills leave behind, leverage updates, and the signature / nonce / agent checks
// with actions signed by the SDK (include/gateway/providers/alpha/signing.hpp).
//
// The mock's internal headers are not part of any public include path (mocks/src is private
// to the library), hence the relative includes.
#include "../../mocks/src/alpha/alpha_accounts.hpp"
#include "../../mocks/src/alpha/alpha_exchange.hpp"
#include "../../mocks/src/alpha/alpha_router.hpp"

#include <gateway/providers/alpha/orders.hpp>
#include <gateway/providers/alpha/signing.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include "support/mock_values.hpp"

#include <string>

namespace mock_alpha_exchange_test {

namespace {

namespace json = boost::json;
namespace sa = gateway::sign::alpha;
using gateway::mocks::amount;
using gateway::mocks::market_state;
using namespace gateway::mocks::alpha;

using gateway::test::alice;
using gateway::test::bob;
using gateway::test::carol;

constexpr std::uint32_t btc = 0;
constexpr std::uint32_t tsla = 110000;
constexpr std::uint32_t purr = 10000;

// upstreams/alpha.md §6 keys (the upstream SDKs' public test keys).
gateway::sign::private_key key(char const* hex) {
    return gateway::sign::private_key::from_hex(hex).value();
}
gateway::sign::private_key k1() {
    return key("0x0123456789012345678901234567890123456789012345678901234567890123");
}
gateway::sign::private_key k2() {
    return key("0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff");
}
gateway::sign::private_key k3() {
    return key("0xe908f86dbb4d55ac876378565aafeabc187f6690f046459397b17d9b9a19688e");
}
std::string const k1_address = "0x14791697260e4c9a71f18484c9f997b308e59325";
std::string const k2_address = "0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901";
std::string const k3_address = "0xcd49bbac6e85fdeb167eb7ca41a945d2b8758f6f";

constexpr std::int64_t t0 = 1'700'000'000'000;

using gateway::test::a;

amount a(json::value const& v) {
    auto r = amount::parse(v.as_string());
    REQUIRE(r);
    return *r;
}

/// A market state, ledger and engine on the mock's own markets, with a settable clock.
struct engine_fixture {
    std::int64_t now = t0;
    market_state markets{42, market_specs(), t0, 0};
    ledger book{42, instruments(), token_names()};
    exchange ex{book, markets, assets(markets), false, [this] {
                    return now;
                }};

    std::size_t market(char const* coin) const { return *markets.find(coin); }

    void fund(std::string const& who, char const* usdc) { book.credit(who, "USDC", a(usdc)); }

    void mark(char const* coin, std::int64_t px) { markets.set_mark(market(coin), px); }

    engine_book levels(char const* coin, std::size_t depth = 20) {
        ex.sync();
        return ex.book(market(coin), depth);
    }

    json::value run(std::string const& who, json::object const& action) {
        auto const r = ex.act(who, action);
        INFO(r.unprocessable);
        REQUIRE(r.json);
        return *r.json;
    }

    /// The status of a one-order batch.
    json::value place(std::string const& who, json::object const& action) {
        auto const r = run(who, action);
        INFO(json::serialize(r));
        REQUIRE(r.at("status") == "ok");
        REQUIRE(r.at("response").at("type") == "order");
        auto const& st = r.at("response").at("data").at("statuses").as_array();
        REQUIRE(st.size() == 1);
        return st[0];
    }

    json::value cancel(std::string const& who, std::uint32_t asset, std::uint64_t oid) {
        json::object c;
        c["a"] = asset;
        c["o"] = oid;
        json::object action;
        action["type"] = "cancel";
        action["cancels"] = json::array{c};
        auto const r = run(who, action);
        REQUIRE(r.at("response").at("type") == "cancel");
        return r.at("response").at("data").at("statuses").at(0);
    }

    std::optional<position_view> position(std::string const& who, std::string const& coin,
                                          std::string const& dex = "") {
        for (auto const& p : book.perp_state(who, dex, marks_of(markets)).positions)
            if (p.coin == coin)
                return p;
        return std::nullopt;
    }

    amount spot_total(std::string const& who, std::string const& token) {
        for (auto const& b : book.spot_state(who))
            if (b.coin == token)
                return b.total;
        return {};
    }
};

json::object limit(char const* tif) {
    json::object l;
    l["tif"] = tif;
    json::object t;
    t["limit"] = std::move(l);
    return t;
}

json::object trigger(bool is_market, char const* px, char const* tpsl) {
    json::object tr;
    tr["isMarket"] = is_market;
    tr["triggerPx"] = px;
    tr["tpsl"] = tpsl;
    json::object t;
    t["trigger"] = std::move(tr);
    return t;
}

/// `{"type":"order","orders":[{a,b,p,s,r,t[,c]}],"grouping":"na"}` in canonical key order.
json::object order(std::uint32_t asset, bool buy, std::string const& px, std::string const& sz,
                   json::object t, bool reduce_only = false,
                   std::optional<std::string> cloid = std::nullopt) {
    json::object o;
    o["a"] = asset;
    o["b"] = buy;
    o["p"] = px;
    o["s"] = sz;
    o["r"] = reduce_only;
    o["t"] = std::move(t);
    if (cloid)
        o["c"] = *cloid;
    json::object action;
    action["type"] = "order";
    action["orders"] = json::array{o};
    action["grouping"] = "na";
    return action;
}

json::object leverage(std::uint32_t asset, bool cross, std::int64_t value) {
    json::object action;
    action["type"] = "updateLeverage";
    action["asset"] = asset;
    action["isCross"] = cross;
    action["leverage"] = value;
    return action;
}

std::string error_of(json::value const& status) {
    INFO(json::serialize(status));
    REQUIRE(status.is_object());
    REQUIRE(status.as_object().contains("error"));
    return std::string(status.at("error").as_string());
}

std::uint64_t resting_oid(json::value const& status) {
    INFO(json::serialize(status));
    REQUIRE(status.as_object().contains("resting"));
    return status.at("resting").at("oid").to_number<std::uint64_t>();
}

json::object const& filled(json::value const& status) {
    INFO(json::serialize(status));
    REQUIRE(status.as_object().contains("filled"));
    return status.at("filled").as_object();
}

/// A signed /exchange body (SDK signing, alpha.md §5).
json::object signed_body(json::object const& action, std::uint64_t nonce,
                         gateway::sign::private_key const& k, bool testnet = false) {
    auto const sig = sa::sign_l1_action(action, nonce, k, testnet).value();
    json::object body;
    body["action"] = action;
    body["nonce"] = nonce;
    body["signature"] = sa::signature_to_json(sig);
    body["vaultAddress"] = nullptr;
    return body;
}

json::object approve_agent_body(std::string const& agent, std::string const& name,
                                std::uint64_t nonce, gateway::sign::private_key const& k,
                                char const* chain = "Mainnet") {
    json::object action;
    action["type"] = "approveAgent";
    action["signatureChainId"] = "0x66eee";
    action["hyperliquidChain"] = chain;
    action["agentAddress"] = agent;
    action["agentName"] = name;
    action["nonce"] = nonce;
    auto const sig = sa::sign_user_signed_action(action, k).value();
    if (name.empty())
        action.erase("agentName"); // SDK-py signs "" and drops the key
    json::object body;
    body["action"] = std::move(action);
    body["nonce"] = nonce;
    body["signature"] = sa::signature_to_json(sig);
    body["vaultAddress"] = nullptr;
    return body;
}

std::string text(json::value const& v) {
    INFO(json::serialize(v));
    REQUIRE(v.is_string());
    return std::string(v.as_string());
}

json::value reply_json(exchange_reply const& r) {
    INFO(r.unprocessable);
    REQUIRE(r.json);
    return *r.json;
}

} // namespace

TEST_CASE("mock alpha exchange: resting order, cancel, cancel again", "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    auto const oid =
        resting_oid(f.place(alice, order(btc, true, "60000", "0.01", limit("Gtc"), false,
                                         "0x000000000000000000000000000000A1")));
    auto const open = f.book.open_orders(alice);
    REQUIRE(open.size() == 1);
    CHECK(open[0].oid == oid);
    CHECK(open[0].spec.limit_px == a("60000"));
    CHECK(open[0].spec.tif == "Gtc");
    CHECK(open[0].spec.cloid == "0x000000000000000000000000000000a1");
    // The bid sits in the engine's book (l2Book), below the house ladder.
    auto const b = f.levels("BTC", 100);
    REQUIRE(!b.bids.empty());
    CHECK(b.bids.back().px == a("60000"));
    CHECK(b.bids.back().sz == a("0.01"));
    CHECK(b.bids.back().n == 1);

    CHECK(f.cancel(alice, btc, oid) == "success");
    CHECK(f.book.open_orders(alice).empty());
    CHECK(f.book.order_status(alice, oid)->status == "canceled");
    CHECK(error_of(f.cancel(alice, btc, oid)) ==
          "Order was never placed, already canceled, or filled.");
    CHECK(f.levels("BTC", 100).bids.back().px != a("60000"));

    SECTION("another user or another asset cannot cancel it") {
        auto const oid2 =
            resting_oid(f.place(alice, order(btc, true, "60000", "0.01", limit("Gtc"))));
        f.fund(bob, "10");
        CHECK(error_of(f.cancel(bob, btc, oid2)) ==
              "Order was never placed, already canceled, or filled.");
        CHECK(error_of(f.cancel(alice, 1, oid2)) ==
              "Order was never placed, already canceled, or filled.");
        CHECK(error_of(f.cancel(alice, 999, oid2)) ==
              "Order was never placed, already canceled, or filled.");
        CHECK(f.book.open_orders(alice).size() == 1);
    }
    SECTION("cancelByCloid finds the order by its cloid") {
        resting_oid(f.place(alice, order(btc, false, "70000", "0.01", limit("Gtc"), false,
                                         "0x000000000000000000000000000000B2")));
        json::object c;
        c["asset"] = btc;
        c["cloid"] = "0x000000000000000000000000000000b2";
        json::object action;
        action["type"] = "cancelByCloid";
        action["cancels"] = json::array{c, c};
        auto const r = f.run(alice, action);
        CHECK(r.at("response").at("type") == "cancel");
        auto const& st = r.at("response").at("data").at("statuses").as_array();
        CHECK(st[0] == "success");
        CHECK(error_of(st[1]) == "Order was never placed, already canceled, or filled.");
    }
}

TEST_CASE("mock alpha exchange: a crossing Gtc fills at the makers' prices, exact avgPx",
          "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    auto const before = f.levels("BTC");
    REQUIRE(before.asks.size() >= 2);
    auto const l0 = before.asks[0];
    auto const l1 = before.asks[1];
    amount const extra = a("0.00003");
    REQUIRE(extra < l1.sz);
    amount const total = l0.sz + extra;
    auto const st = f.place(alice, order(btc, true, l1.px.str(), total.str(), limit("Gtc")));
    auto const& fl = filled(st);
    CHECK(text(fl.at("totalSz")) == total.hl());
    amount const avg = (l0.px * l0.sz + l1.px * extra) / total;
    CHECK(text(fl.at("avgPx")) == avg.hl());
    CHECK(a(fl.at("avgPx")) > l0.px);
    CHECK(a(fl.at("avgPx")) < l1.px);
    auto const oid = fl.at("oid").to_number<std::uint64_t>();

    // Two fills at the makers' prices, taker side, same oid; the order is filled.
    auto const fills = f.book.fills(alice);
    REQUIRE(fills.size() == 2);
    CHECK(fills[1].px == l0.px); // newest first
    CHECK(fills[1].sz == l0.sz);
    CHECK(fills[0].px == l1.px);
    CHECK(fills[0].sz == extra);
    for (auto const& x : fills) {
        CHECK(x.oid == oid);
        CHECK(x.crossed);
        CHECK(x.dir == "Open Long");
        CHECK(x.fee == (x.px * x.sz).times(perps_taker_fee_ppm).over(1'000'000).rounded(6));
    }
    CHECK(fills[0].tid != fills[1].tid);
    CHECK(f.book.order_status(alice, oid)->status == "filled");
    CHECK(f.book.open_orders(alice).empty());

    // The book lost the first level and part of the second.
    auto const after = f.levels("BTC");
    CHECK(after.asks[0].px == l1.px);
    CHECK(after.asks[0].sz == l1.sz - extra);

    // Position: size-weighted entry, uPnL at the mark (67000).
    auto const p = f.position(alice, "BTC");
    REQUIRE(p);
    CHECK(p->szi == total);
    CHECK(p->entry_px == ((l0.px * l0.sz + l1.px * extra) / total).rounded(10));
    CHECK(p->unrealized_pnl == total * (a("67000") - p->entry_px));
    f.mark("BTC", 68000);
    auto const q = f.position(alice, "BTC");
    CHECK(q->unrealized_pnl == total * (a("68000") - p->entry_px));
    // Collateral paid the fees.
    amount fees;
    for (auto const& x : fills)
        fees += x.fee;
    CHECK(f.book.collateral(alice, "") == a("100000") - fees);

    SECTION("the trades print publicly (recentTrades, candles)") {
        auto const t = f.markets.trades(f.market("BTC"), 2);
        REQUIRE(t.size() == 2);
        CHECK(t[0].px == *l0.px.to_scaled(0));
        CHECK(t[1].px == *l1.px.to_scaled(0));
        CHECK(t[1].sz == *extra.to_scaled(5));
        CHECK(t[1].buyer_is_taker);
    }
}

TEST_CASE("mock alpha exchange: Ioc fills what crosses and cancels the rest", "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    auto const l0 = f.levels("BTC").asks[0];
    amount const want = l0.sz + a("0.001");
    auto const st = f.place(alice, order(btc, true, l0.px.str(), want.str(), limit("Ioc")));
    auto const& fl = filled(st);
    CHECK(text(fl.at("totalSz")) == l0.sz.hl());
    CHECK(a(fl.at("totalSz")) < want);
    CHECK(text(fl.at("avgPx")) == l0.px.hl());
    auto const oid = fl.at("oid").to_number<std::uint64_t>();
    CHECK(f.book.open_orders(alice).empty());
    auto const s = f.book.order_status(alice, oid);
    REQUIRE(s);
    CHECK(s->status == "canceled");
    CHECK(s->order.sz == a("0.001"));

    SECTION("nothing crossing: IocCancel") {
        auto const best_ask = f.levels("BTC").asks[0].px;
        CHECK(error_of(f.place(
                  alice, order(btc, true, (best_ask - a("1")).str(), "0.01", limit("Ioc")))) ==
              "Order could not immediately match against any resting orders.");
        CHECK(f.book.fills(alice).size() == 1);
    }
    SECTION("a market order (Ioc, aggressive price) sweeps levels") {
        auto const st2 = f.place(alice, order(btc, false, "63650", "1", limit("Ioc")));
        CHECK(a(filled(st2).at("totalSz")) == a("1"));
        CHECK(a(filled(st2).at("avgPx")) < a("67000"));
    }
}

TEST_CASE("mock alpha exchange: Alo that would cross is refused with the bbo", "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    auto const b = f.levels("BTC");
    std::string const bbo = b.bids[0].px.str() + "@" + b.asks[0].px.str();
    CHECK(bbo == "66999@67001");
    CHECK(error_of(f.place(alice, order(btc, true, "67001", "0.01", limit("Alo")))) ==
          "Post only order would have immediately matched, bbo was " + bbo + ".");
    CHECK(error_of(f.place(alice, order(btc, false, "66999", "0.01", limit("Alo")))) ==
          "Post only order would have immediately matched, bbo was " + bbo + ".");
    // Inside the spread it rests and becomes the best bid.
    auto const oid = resting_oid(f.place(alice, order(btc, true, "67000", "0.01", limit("Alo"))));
    CHECK(f.levels("BTC").bids[0].px == a("67000"));
    CHECK(f.book.order_status(alice, oid)->order.spec.tif == "Alo");
}

TEST_CASE("mock alpha exchange: reduce-only, margin, min notional, tick and size checks",
          "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    SECTION("reduce-only without a position or on the same side is refused; clipped otherwise") {
        CHECK(error_of(f.place(alice, order(btc, false, "60000", "0.01", limit("Ioc"), true))) ==
              "Reduce only order would increase position.");
        filled(f.place(alice, order(btc, true, "70000", "0.01", limit("Ioc"))));
        CHECK(error_of(f.place(alice, order(btc, true, "70000", "0.01", limit("Ioc"), true))) ==
              "Reduce only order would increase position.");
        auto const st = f.place(alice, order(btc, false, "60000", "0.05", limit("Ioc"), true));
        CHECK(filled(st).at("totalSz") == "0.01");
        CHECK(!f.position(alice, "BTC"));
        CHECK(error_of(f.place(alice, order(purr, false, "0.2", "100", limit("Gtc"), true))) ==
              "Reduce only order would increase position.");
    }
    SECTION("insufficient margin") {
        f.fund(bob, "100");
        // 1 BTC at 60000 and 20x needs 3000 USDC.
        CHECK(error_of(f.place(bob, order(btc, true, "60000", "1", limit("Gtc")))) ==
              "Insufficient margin to place order.");
        // 0.03 BTC needs 90: fits, then holds margin, so a second one does not.
        resting_oid(f.place(bob, order(btc, true, "60000", "0.03", limit("Gtc"))));
        CHECK(error_of(f.place(bob, order(btc, true, "60000", "0.03", limit("Gtc")))) ==
              "Insufficient margin to place order.");
        // A builder-dex order may use the main dex's free collateral (isolated, 10x max).
        f.fund(carol, "100");
        resting_oid(f.place(carol, order(tsla, true, "400", "2", limit("Gtc")))); // 80 at 10x
        CHECK(error_of(f.place(carol, order(tsla, true, "400", "2", limit("Gtc")))) ==
              "Insufficient margin to place order.");
    }
    SECTION("minimum notional: $10 perps, 10 USDC spot") {
        CHECK(error_of(f.place(alice, order(btc, true, "60000", "0.0001", limit("Gtc")))) ==
              "Order must have minimum value of $10.");
        f.book.credit_spot(alice, "USDC", a("100"));
        CHECK(error_of(f.place(alice, order(purr, true, "0.185", "10", limit("Gtc")))) ==
              "Order must have minimum value of 10 USDC.");
    }
    SECTION("tick and lot rules (alpha.md §5.5)") {
        auto err = [&](char const* px, char const* sz) {
            return error_of(f.place(alice, order(btc, true, px, sz, limit("Gtc"))));
        };
        CHECK(err("60000.5", "0.01") == "Price must be divisible by tick size."); // 6 sig figs
        CHECK(err("6000.05", "0.01") == "Price must be divisible by tick size."); // 2 decimals
        CHECK(err("60000", "0.000001") == "Order has invalid size.");
        CHECK(err("60000", "-1") == "Order has invalid size.");
        CHECK(err("60000", "0") == "Order has zero size.");
        CHECK(err("60000", "0.00000") == "Order has zero size.");
        CHECK(err("abc", "0.01") == "Order has invalid price.");
        CHECK(err("0", "0.01") == "Order has invalid price.");
        CHECK(err("-60000", "0.01") == "Order has invalid price.");
        // Integers are always allowed; trailing zeros do not count.
        resting_oid(f.place(alice, order(btc, true, "60001", "0.0100", limit("Gtc"))));
        resting_oid(f.place(alice, order(btc, true, "6000.1", "0.01", limit("Gtc"))));
        CHECK(error_of(f.place(alice, order(999, true, "60000", "0.01", limit("Gtc")))) ==
              "Order has invalid asset.");
    }
    SECTION("spot balance") {
        CHECK(error_of(f.place(alice, order(purr, false, "0.2", "100", limit("Gtc")))) ==
              "Order has insufficient spot balance to trade");
        CHECK(error_of(f.place(alice, order(purr, true, "0.2", "100", limit("Gtc")))) ==
              "Order has insufficient spot balance to trade");
        f.book.credit_spot(alice, "USDC", a("25"));
        resting_oid(f.place(alice, order(purr, true, "0.18", "100", limit("Gtc")))); // holds 18
        CHECK(error_of(f.place(alice, order(purr, true, "0.18", "100", limit("Gtc")))) ==
              "Order has insufficient spot balance to trade");
    }
    SECTION("one status per order, in request order") {
        json::object action = order(btc, true, "60000", "0.01", limit("Gtc"));
        auto& orders = action["orders"].as_array();
        json::value const first = orders[0];
        json::object second = first.as_object();
        second["s"] = "0";
        orders.push_back(second);
        orders.push_back(first);
        auto const r = f.run(alice, action);
        auto const& st = r.at("response").at("data").at("statuses").as_array();
        REQUIRE(st.size() == 3);
        auto const o1 = resting_oid(st[0]);
        CHECK(error_of(st[1]) == "Order has zero size.");
        CHECK(resting_oid(st[2]) > o1);
    }
}

TEST_CASE("mock alpha exchange: a stop-market sell fires when the mark drops below it",
          "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    filled(f.place(alice, order(btc, true, "70000", "0.1", limit("Ioc"))));
    REQUIRE(f.position(alice, "BTC")->szi == a("0.1"));
    auto const oid = resting_oid(
        f.place(alice, order(btc, false, "60000", "0.1", trigger(true, "66000", "sl"), true)));
    auto const open = f.book.open_orders(alice);
    REQUIRE(open.size() == 1);
    CHECK(open[0].oid == oid);
    CHECK(open[0].spec.is_trigger);
    CHECK(open[0].spec.order_type == "Stop Market");
    CHECK(open[0].spec.trigger_px == a("66000"));
    CHECK(open[0].spec.trigger_condition == "Price below 66000");
    CHECK(!open[0].spec.tif);
    auto const json_order = frontend_order_json(open[0]);
    CHECK(json_order.at("isTrigger") == true);
    CHECK(json_order.at("triggerPx") == "66000.0");
    CHECK(json_order.at("orderType") == "Stop Market");

    f.mark("BTC", 66500); // above the trigger: nothing happens
    f.ex.sync();
    CHECK(f.book.open_orders(alice).size() == 1);

    f.mark("BTC", 65900);
    f.ex.sync(); // fires it against the new ladder
    CHECK(f.book.open_orders(alice).empty());
    CHECK(!f.position(alice, "BTC"));
    auto const fills = f.book.fills(alice);
    REQUIRE(fills.size() >= 2);
    CHECK(fills[0].oid == oid);
    CHECK(!fills[0].is_buy);
    CHECK(fills[0].px == a("65899")); // the new best bid
    CHECK(fills[0].dir == "Close Long");
    CHECK(f.book.order_status(alice, oid)->status == "filled");

    SECTION("a take-profit limit buy rests as a Gtc once the mark falls to it") {
        f.fund(bob, "100000");
        auto const tp = resting_oid(
            f.place(bob, order(btc, true, "64000", "0.01", trigger(false, "65000", "tp"))));
        CHECK(f.book.open_orders(bob)[0].spec.order_type == "Take Profit Limit");
        CHECK(f.book.open_orders(bob)[0].spec.trigger_condition == "Price below 65000");
        f.mark("BTC", 65000);
        f.ex.sync();
        auto const o = f.book.open_orders(bob);
        REQUIRE(o.size() == 1);
        CHECK(o[0].oid == tp);
        CHECK(!o[0].spec.is_trigger);
        CHECK(o[0].spec.tif == "Gtc");
        CHECK(f.levels("BTC", 100).bids.back().px == a("64000"));
        CHECK(f.cancel(bob, btc, tp) == "success");
    }
    SECTION("an untriggered trigger order can be canceled") {
        auto const t2 = resting_oid(
            f.place(alice, order(btc, false, "50000", "0.01", trigger(true, "55000", "sl"))));
        CHECK(f.cancel(alice, btc, t2) == "success");
        CHECK(f.book.open_orders(alice).empty());
        f.mark("BTC", 54000);
        f.ex.sync();
        CHECK(f.book.order_status(alice, t2)->status == "canceled");
    }
}

TEST_CASE("mock alpha exchange: a house re-quote fills a resting user limit at its price",
          "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    auto const oid = resting_oid(f.place(alice, order(btc, true, "66500", "0.01", limit("Gtc"))));
    f.mark("BTC", 66000);
    auto const b = f.levels("BTC");
    CHECK(b.asks[0].px == a("66001"));
    CHECK(b.bids[0].px < a("66000"));
    auto const fills = f.book.fills(alice);
    REQUIRE(fills.size() == 1);
    CHECK(fills[0].px == a("66500"));
    CHECK(fills[0].oid == oid);
    CHECK(!fills[0].crossed);
    CHECK(fills[0].fee == (a("66500") * a("0.01")).times(perps_maker_fee_ppm).over(1'000'000));
    CHECK(f.position(alice, "BTC")->entry_px == a("66500"));
    CHECK(f.book.order_status(alice, oid)->status == "filled");
}

TEST_CASE("mock alpha exchange: a pinned, untouched house ladder is stable, taken liquidity "
          "refills at the next step",
          "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    f.mark("BTC", 67000);
    auto const same = [](engine_book const& x, engine_book const& y) {
        auto eq = [](std::vector<engine_level> const& a1, std::vector<engine_level> const& a2) {
            if (a1.size() != a2.size())
                return false;
            for (std::size_t i = 0; i < a1.size(); ++i)
                if (a1[i].px != a2[i].px || a1[i].sz != a2[i].sz || a1[i].n != a2[i].n)
                    return false;
            return true;
        };
        return eq(x.bids, y.bids) && eq(x.asks, y.asks);
    };
    auto const b0 = f.levels("BTC");
    f.markets.step(t0 + 1000); // a walk step: new version, same pinned mark
    CHECK(same(f.levels("BTC"), b0));

    auto const l0 = b0.asks[0];
    filled(f.place(alice, order(btc, true, l0.px.str(), l0.sz.str(), limit("Ioc"))));
    CHECK(f.levels("BTC").asks[0].px != l0.px);
    CHECK(f.levels("BTC").asks[0].px == b0.asks[1].px);
    f.markets.step(t0 + 2000);
    auto const b3 = f.levels("BTC");
    CHECK(b3.asks[0].px == a("67001")); // re-quoted around the same mark
    CHECK(b3.bids[0].px == a("66999"));
    CHECK(!same(b3, b0)); // a new ladder (new sizes)
}

TEST_CASE("mock alpha exchange: price-time priority among user orders", "[unit][mock]") {
    engine_fixture f;
    for (auto const* who : {alice, bob, carol})
        f.fund(who, "100000");
    auto const first = resting_oid(f.place(bob, order(btc, false, "67000", "0.01", limit("Gtc"))));
    auto const second =
        resting_oid(f.place(carol, order(btc, false, "67000", "0.01", limit("Gtc"))));
    auto const lv = f.levels("BTC");
    CHECK(lv.asks[0].px == a("67000"));
    CHECK(lv.asks[0].sz == a("0.02"));
    CHECK(lv.asks[0].n == 2);
    auto const st = f.place(alice, order(btc, true, "67000", "0.015", limit("Gtc")));
    CHECK(filled(st).at("totalSz") == "0.015");
    CHECK(filled(st).at("avgPx") == "67000.0");
    CHECK(f.book.order_status(bob, first)->status == "filled");
    auto const rest = f.book.open_orders(carol);
    REQUIRE(rest.size() == 1);
    CHECK(rest[0].oid == second);
    CHECK(rest[0].sz == a("0.005"));
    CHECK(f.position(bob, "BTC")->szi == a("-0.01"));
    CHECK(f.position(carol, "BTC")->szi == a("-0.005"));
    CHECK(f.book.fills(carol)[0].crossed == false);

    SECTION("a Gtc partly filled rests the rest and answers resting") {
        auto const st2 = f.place(alice, order(btc, true, "67000", "0.02", limit("Gtc")));
        auto const oid = resting_oid(st2);
        CHECK(f.book.order_status(alice, oid)->order.sz == a("0.015"));
        CHECK(f.levels("BTC").bids[0].px == a("67000"));
        CHECK(f.book.open_orders(carol).empty());
    }
}

TEST_CASE("mock alpha exchange: a spot buy moves USDC to PURR", "[unit][mock]") {
    engine_fixture f;
    f.book.credit_spot(alice, "USDC", a("1000"));
    auto const l0 = f.levels("PURR/USDC").asks[0];
    CHECK(l0.px == a("0.18501"));
    auto const st = f.place(alice, order(purr, true, "0.19", "1000", limit("Ioc")));
    amount const got = a(filled(st).at("totalSz"));
    amount const avg = a(filled(st).at("avgPx"));
    CHECK(got == a("1000"));
    amount paid;
    amount fee;
    for (auto const& x : f.book.fills(alice)) {
        paid += x.px * x.sz;
        fee += x.fee;
        CHECK(x.fee_token == "PURR");
        CHECK(x.dir == "Buy");
    }
    CHECK(avg == paid / got);
    CHECK(fee == a("0.7")); // 0.07% of 1000 PURR
    CHECK(f.spot_total(alice, "USDC") == a("1000") - paid);
    CHECK(f.spot_total(alice, "PURR") == a("1000") - fee);
    // Spot fills do not touch perps collateral.
    CHECK(f.book.collateral(alice, "").is_zero());

    SECTION("selling it back pays USDC minus the fee in USDC") {
        auto const st2 = f.place(alice, order(purr, false, "0.17", "999", limit("Ioc")));
        CHECK(filled(st2).at("totalSz") == "999.0");
        CHECK(f.spot_total(alice, "PURR") == a("0.3"));
        CHECK(f.book.fills(alice)[0].fee_token == "USDC");
    }
}

TEST_CASE("mock alpha exchange: updateLeverage", "[unit][mock]") {
    engine_fixture f;
    f.fund(alice, "100000");
    auto ok = [](json::value const& r) {
        return r == json::parse(R"({"status":"ok","response":{"type":"default"}})");
    };
    CHECK(ok(f.run(alice, leverage(btc, true, 10))));
    CHECK(f.book.leverage_of(alice, "BTC").value == 10);
    CHECK(f.book.leverage_of(alice, "BTC").mode == margin_mode::cross);
    CHECK(ok(f.run(alice, leverage(btc, false, 40))));
    CHECK(f.book.leverage_of(alice, "BTC").mode == margin_mode::isolated);
    auto const bad = json::parse(R"({"status":"err","response":"Invalid leverage value"})");
    CHECK(f.run(alice, leverage(btc, true, 41)) == bad);
    CHECK(f.run(alice, leverage(btc, true, 0)) == bad);
    CHECK(f.run(alice, leverage(tsla, true, 5)) ==
          json::parse(
              R"({"status":"err","response":"Cross margin is not allowed for this asset."})"));
    CHECK(ok(f.run(alice, leverage(tsla, false, 5))));
    CHECK(f.book.leverage_of(alice, "xyz:TSLA").value == 5);
    CHECK(f.run(alice, leverage(purr, false, 2)) ==
          json::parse(R"({"status":"err","response":"Invalid asset."})"));

    SECTION("the setting applies to the next position and to margin checks") {
        filled(f.place(alice, order(btc, true, "70000", "0.1", limit("Ioc"))));
        auto const p = f.position(alice, "BTC");
        CHECK(p->leverage.mode == margin_mode::isolated);
        CHECK(p->leverage.value == 40);
    }
}

TEST_CASE("mock alpha exchange: malformed actions are 422s", "[unit][mock]") {
    engine_fixture f;
    for (
        auto const* text :
        {R"({"type":"order","orders":[{"a":0,"b":true,"p":"1","s":"1","r":false}],"grouping":"na"})",
         R"({"type":"order","orders":[{"a":0,"b":true,"p":1,"s":"1","r":false,"t":{"limit":{"tif":"Gtc"}}}],"grouping":"na"})",
         R"({"type":"order","orders":[{"a":0,"b":true,"p":"1","s":"1","r":false,"t":{"limit":{"tif":"Day"}}}],"grouping":"na"})",
         R"({"type":"order","orders":[],"grouping":"nope"})",
         R"({"type":"cancel","cancels":[{"a":0}]})", R"({"type":"updateLeverage","asset":0})",
         R"({"type":"teleport"})"}) {
        CAPTURE(text);
        auto const r = f.ex.act(alice, json::parse(text).as_object());
        CHECK(!r.json);
        CHECK(!r.unprocessable.empty());
    }
    auto const r = f.ex.act(
        alice, json::parse(R"({"type":"order","orders":[],"grouping":"normalTpsl"})").as_object());
    REQUIRE(r.json);
    CHECK(r.json->at("status") == "err");
}

// =============================================================================================
// Signatures, nonces, agents

TEST_CASE("mock alpha exchange: signatures, nonces and agents", "[unit][mock]") {
    engine_fixture f;
    f.now = sa::next_nonce_ms();
    auto const n0 = static_cast<std::uint64_t>(f.now);
    f.fund(k1_address, "100000");
    auto const resting_action = order(btc, true, "60000", "0.01", limit("Gtc"));

    // The account key signs for itself.
    auto const ok = reply_json(f.ex.handle(signed_body(resting_action, n0, k1())));
    CHECK(ok.at("status") == "ok");
    resting_oid(ok.at("response").at("data").at("statuses").at(0));
    CHECK(f.book.open_orders(k1_address).size() == 1);
    CHECK(f.book.rate_limit(k1_address).requests_used == 1);

    SECTION("an unknown signer is named in the error") {
        auto const r = reply_json(f.ex.handle(signed_body(resting_action, n0, k3())));
        CHECK(r == json::parse(R"({"status":"err","response":"L1 error: User or API Wallet )" +
                               k3_address + R"( does not exist."})"));
    }
    SECTION("a reused nonce is a duplicate; the first one counted once") {
        auto const r = reply_json(f.ex.handle(signed_body(resting_action, n0, k1())));
        CHECK(r.at("status") == "err");
        CHECK(text(r.at("response")) == "Invalid nonce: duplicate nonce " + std::to_string(n0));
        CHECK(f.book.open_orders(k1_address).size() == 1);
        CHECK(f.book.rate_limit(k1_address).requests_used == 1);
    }
    SECTION("nonces outside (now - 2 days, now + 1 day) are refused") {
        for (auto const n : {n0 - 3 * 86'400'000ULL, n0 + 2 * 86'400'000ULL}) {
            auto const r = reply_json(f.ex.handle(signed_body(resting_action, n, k1())));
            CHECK(r.at("status") == "err");
            CHECK(std::string(r.at("response").as_string()).rfind("Invalid nonce: ", 0) == 0);
        }
    }
    SECTION("with 100 kept, a nonce below the smallest is too low") {
        json::object c;
        c["a"] = btc;
        c["o"] = 1;
        json::object cancel;
        cancel["type"] = "cancel";
        cancel["cancels"] = json::array{c};
        for (std::uint64_t i = 1; i <= 100; ++i)
            REQUIRE(reply_json(f.ex.handle(signed_body(cancel, n0 + 10 * i, k1()))).at("status") ==
                    "ok");
        // Kept: n0+10 .. n0+1000 (n0 fell out).
        auto const r = reply_json(f.ex.handle(signed_body(cancel, n0 + 5, k1())));
        CHECK(text(r.at("response")) == "Invalid nonce: nonce too low " + std::to_string(n0 + 5) +
                                            " < " + std::to_string(n0 + 10));
        CHECK(reply_json(f.ex.handle(signed_body(cancel, n0 + 15, k1()))).at("status") == "ok");
        // Now n0+10 fell out too.
        CHECK(text(reply_json(f.ex.handle(signed_body(cancel, n0 + 12, k1()))).at("response")) ==
              "Invalid nonce: nonce too low " + std::to_string(n0 + 12) + " < " +
                  std::to_string(n0 + 15));
    }
    SECTION("the testnet source \"b\" recovers another address on a mainnet mock") {
        auto const r = reply_json(f.ex.handle(signed_body(resting_action, n0 + 1, k1(), true)));
        CHECK(r.at("status") == "err");
        std::string const text(r.at("response").as_string());
        CHECK(text.rfind("L1 error: User or API Wallet 0x", 0) == 0);
        CHECK(text.find(k1_address) == std::string::npos);
        CHECK(text.size() ==
              std::string("L1 error: User or API Wallet  does not exist.").size() + 42);
        SECTION("and a testnet mock accepts it") {
            exchange testnet{f.book, f.markets, assets(f.markets), true, [&] {
                                 return f.now;
                             }};
            auto const t =
                reply_json(testnet.handle(signed_body(resting_action, n0 + 1, k1(), true)));
            CHECK(t.at("status") == "ok");
        }
    }
    SECTION("an altered action recovers another signer") {
        auto body = signed_body(resting_action, n0 + 1, k1());
        body["action"].as_object()["orders"].as_array()[0].as_object()["s"] = "0.02";
        auto const r = reply_json(f.ex.handle(body));
        CHECK(std::string(r.at("response").as_string()).rfind("L1 error: User or API Wallet", 0) ==
              0);
    }
    SECTION("non-normalized numbers are hashed normalized (alpha.md §5.5)") {
        auto sent = order(btc, true, "60000.0", "0.0100", limit("Gtc"));
        auto const sig =
            sa::sign_l1_action(order(btc, true, "60000", "0.01", limit("Gtc")), n0 + 1, k1(), false)
                .value();
        json::object body;
        body["action"] = sent;
        body["nonce"] = n0 + 1;
        body["signature"] = sa::signature_to_json(sig);
        CHECK(reply_json(f.ex.handle(body)).at("status") == "ok");
    }
    SECTION("unpadded r and s are accepted") {
        // Find a nonce whose signature has a leading zero digit in r (1 in 16).
        std::uint64_t n = n0 + 1;
        json::object body;
        for (;; ++n) {
            body = signed_body(resting_action, n, k1());
            if (body["signature"].at("r").as_string().starts_with("0x0"))
                break;
        }
        auto& sig = body["signature"].as_object();
        std::string r(sig["r"].as_string());
        r.erase(2, r.find_first_not_of('0', 2) - 2);
        sig["r"] = r;
        CHECK(reply_json(f.ex.handle(body)).at("status") == "ok");
    }
    SECTION("a signature that recovers nothing") {
        auto body = signed_body(resting_action, n0 + 1, k1());
        body["signature"].as_object()["r"] = "0x0";
        CHECK(reply_json(f.ex.handle(body)) ==
              json::parse(R"({"status":"err","response":"Unable to recover signer."})"));
    }
    SECTION("malformed envelopes are 422s") {
        auto body = signed_body(resting_action, n0 + 1, k1());
        for (auto const* k : {"signature", "nonce", "action"}) {
            auto b = body;
            b.erase(k);
            auto const r = f.ex.handle(b);
            CHECK(!r.json);
            CHECK(r.unprocessable == std::string("missing field `") + k + "`");
        }
        auto b = body;
        b["signature"].as_object()["r"] = "zz";
        CHECK(!f.ex.handle(b).json);
        b = body;
        b["action"].as_object()["type"] = "teleport";
        CHECK(!f.ex.handle(b).json);
        b = body;
        b["action"].as_object()["type"] = "usdSend";
        CHECK(f.ex.handle(b).json->at("status") == "err");
    }

    SECTION("approveAgent, then the agent acts for its master") {
        auto const approved =
            reply_json(f.ex.handle(approve_agent_body(k2_address, "bot", n0 + 5, k1())));
        CHECK(approved == json::parse(R"({"status":"ok","response":{"type":"default"}})"));
        auto const agents = f.book.extra_agents(k1_address);
        REQUIRE(agents.size() == 1);
        CHECK(agents[0].address == k2_address);
        CHECK(agents[0].name == "bot");
        CHECK(f.book.role(k2_address).role == "agent");
        CHECK(f.book.role(k2_address).master == k1_address);

        // The agent signs with its own nonce set (n0 is fine for it).
        auto const r = reply_json(
            f.ex.handle(signed_body(order(btc, true, "61000", "0.01", limit("Gtc")), n0, k2())));
        CHECK(r.at("status") == "ok");
        resting_oid(r.at("response").at("data").at("statuses").at(0));
        CHECK(f.book.open_orders(k1_address).size() == 2);
        CHECK(f.book.open_orders(k2_address).empty());
        auto const dup = reply_json(
            f.ex.handle(signed_body(order(btc, true, "61000", "0.01", limit("Gtc")), n0, k2())));
        CHECK(text(dup.at("response")) == "Invalid nonce: duplicate nonce " + std::to_string(n0));

        SECTION("a new approval with the same name replaces the agent") {
            CHECK(reply_json(f.ex.handle(approve_agent_body(k3_address, "bot", n0 + 6, k1())))
                      .at("status") == "ok");
            CHECK(f.book.extra_agents(k1_address).size() == 1);
            CHECK(f.book.role(k2_address).role == "missing");
            auto const gone = reply_json(f.ex.handle(
                signed_body(order(btc, true, "61000", "0.01", limit("Gtc")), n0 + 1, k2())));
            CHECK(text(gone.at("response")) ==
                  "L1 error: User or API Wallet " + k2_address + " does not exist.");
        }
        SECTION("an unnamed agent is not listed but acts; a new unnamed one replaces it") {
            CHECK(reply_json(f.ex.handle(approve_agent_body(k3_address, "", n0 + 6, k1())))
                      .at("status") == "ok");
            CHECK(f.book.extra_agents(k1_address).size() == 1);
            CHECK(f.book.role(k3_address).master == k1_address);
            CHECK(reply_json(f.ex.handle(signed_body(
                                 order(btc, true, "61000", "0.01", limit("Gtc")), n0, k3())))
                      .at("status") == "ok");
        }
        SECTION("an agent cannot approve agents") {
            auto const no =
                reply_json(f.ex.handle(approve_agent_body(k3_address, "x", n0 + 7, k2())));
            CHECK(text(no.at("response")) ==
                  "Must deposit before performing actions. User: " + k2_address);
        }
    }
    SECTION("approveAgent needs a known user and this network's chain") {
        auto const unknown =
            reply_json(f.ex.handle(approve_agent_body(k2_address, "bot", n0 + 5, k3())));
        CHECK(text(unknown.at("response")) ==
              "Must deposit before performing actions. User: " + k3_address);
        auto const wrong =
            reply_json(f.ex.handle(approve_agent_body(k2_address, "bot", n0 + 5, k1(), "Testnet")));
        CHECK(wrong.at("status") == "err");
        CHECK(f.book.role(k2_address).role == "missing");
    }
}

} // namespace mock_alpha_exchange_test
