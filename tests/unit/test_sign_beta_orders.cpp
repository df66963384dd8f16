// beta's order derivation (CONTRACT §6.2, upstreams/beta.md §3.2, §4.1, §4.3, §6): the v3
// parameter string of every order type and option, the market filters it is checked against
// (refused, never rounded), cancel and leverage strings, beta.md 3.2's vectors reproduced from
// gateway bodies, and the SDK signer (`sign::beta::signer`).
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"

#include <gateway/providers/beta/orders.hpp>
#include <gateway/util/ascii.hpp>
#include <gateway/util/hex.hpp>

#include <algorithm>

using namespace gateway;

namespace beta_orders_test {

namespace sb = gateway::sign::beta;

// beta.md 3.2's demo key material (not a real account).
std::string const demo_user = "0x63DD5aCC6b1aa0f563956C0e534DD30B6dcF7C4e";
std::string const demo_signer = "0x21cF8Ae13Bb72632562c6Fff438652Ba1a151bb0";
std::string const demo_key = "0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1";
// A throwaway wallet key (never funded anywhere real).
std::string const wallet_key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

decimal d(std::string_view s) {
    return decimal::parse(s).value();
}

/// BTCUSDT as mock-beta and the real upstream list it (beta.md §4.1): tick 0.1, step 0.001,
/// minimum notional 5, percent price 0.95-1.05, max leverage 125.
sb::market_rules btc() {
    sb::market_rules m;
    m.tick_size = d("0.1");
    m.min_price = d("0.1");
    m.max_price = d("1000000");
    m.step_size = d("0.001");
    m.min_qty = d("0.001");
    m.max_qty = d("1000");
    m.market_step_size = d("0.001");
    m.market_min_qty = d("0.001");
    m.market_max_qty = d("120");
    m.min_notional = d("5");
    m.multiplier_up = d("1.05");
    m.multiplier_down = d("0.95");
    m.max_leverage = 125;
    return m;
}

sb::market_rules spot_btc() {
    sb::market_rules m = btc();
    m.spot = true;
    m.max_leverage = 0;
    return m;
}

place_order_request order(std::string symbol, side s, order_type t, std::string_view size) {
    place_order_request r;
    r.symbol = std::move(symbol);
    r.side = s;
    r.type = t;
    r.size = d(size);
    return r;
}

/// The parameter string of `q` (`k=v&...`, no `?`).
std::string text(query_params const& q) {
    auto s = util::encode_query(q);
    return s.empty() ? s : s.substr(1);
}

std::string derived(place_order_request const& r, sb::market_rules const& m = btc(),
                    std::optional<decimal> mark = std::nullopt) {
    auto q = sb::order_params(r, m, mark);
    REQUIRE(q);
    return text(*q);
}

void require_refused(place_order_request const& r, sb::market_rules const& m,
                     std::string const& field, errc code = errc::validation_error,
                     std::optional<decimal> mark = std::nullopt) {
    auto q = sb::order_params(r, m, mark);
    REQUIRE_FALSE(q);
    CHECK(q.error().code == code);
    CHECK(q.error().details.at("field").as_string() == field);
}

/// The business parameters of a v3 message (everything before `nonce=`), sorted.
std::vector<std::string> sorted_params(std::string_view msg) {
    std::vector<std::string> out;
    std::string_view rest = msg.substr(0, msg.find("&nonce="));
    while (!rest.empty()) {
        auto const amp = rest.find('&');
        out.emplace_back(rest.substr(0, amp));
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The test cases live in the namespace too: this file shares a unity TU with others.

TEST_CASE("beta derivation: every order type and option in CONTRACT 6.2's order",
          "[unit][sign][beta]") {
    auto r = order("BTC", side::buy, order_type::market, "0.01");
    CHECK(derived(r) == "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01");

    r.reduce_only = true;
    r.side = side::sell;
    CHECK(derived(r) == "symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.01&reduceOnly=true");

    auto l = order("BTC", side::buy, order_type::limit, "0.010");
    l.price = d("60000.50");
    CHECK(derived(l) == "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&"
                        "price=60000.5"); // default GTC, normalized decimals
    l.time_in_force = time_in_force::ioc;
    CHECK(derived(l) ==
          "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&quantity=0.01&price=60000.5");
    l.time_in_force = time_in_force::alo;
    l.client_order_id = "0x00000000000000000000000000000abc";
    CHECK(derived(l) == "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTX&quantity=0.01&"
                        "price=60000.5&newClientOrderId=0x00000000000000000000000000000abc");

    auto sm = order("BTC", side::sell, order_type::stop_market, "0.02");
    sm.trigger_price = d("60000");
    sm.reduce_only = true;
    CHECK(derived(sm) == "symbol=BTCUSDT&side=SELL&type=STOP_MARKET&quantity=0.02&"
                         "stopPrice=60000&reduceOnly=true");

    auto sl = order("BTC", side::buy, order_type::stop_limit, "0.5");
    sl.price = d("70100");
    sl.trigger_price = d("70000");
    CHECK(derived(sl) == "symbol=BTCUSDT&side=BUY&type=STOP&timeInForce=GTC&quantity=0.5&"
                         "price=70100&stopPrice=70000");
    sl.time_in_force = time_in_force::ioc;
    CHECK(derived(sl) == "symbol=BTCUSDT&side=BUY&type=STOP&timeInForce=IOC&quantity=0.5&"
                         "price=70100&stopPrice=70000");

    auto ts = order("BTC", side::sell, order_type::trailing_stop, "0.01");
    ts.callback_rate = d("1");
    CHECK(derived(ts) ==
          "symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01&callbackRate=1");
    ts.activation_price = d("70000");
    ts.reduce_only = true;
    ts.client_order_id = "0xABCDEF00000000000000000000000001";
    CHECK(derived(ts) == "symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01&"
                         "callbackRate=1&activationPrice=70000&reduceOnly=true&"
                         "newClientOrderId=0xABCDEF00000000000000000000000001");

    // Stock perps by their base; spot pairs joined.
    auto tsla = order("TSLA", side::buy, order_type::market, "1");
    CHECK(derived(tsla, sb::market_rules{}) == "symbol=TSLAUSDT&side=BUY&type=MARKET&quantity=1");
    auto spot = order("BTC/USDT", side::buy, order_type::limit, "0.01");
    spot.price = d("60000");
    CHECK(derived(spot, spot_btc()) ==
          "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=60000");
}

TEST_CASE("beta derivation: cancel and leverage strings, then nonce, user and signer",
          "[unit][sign][beta]") {
    cancel_order_request c;
    c.symbol = "BTC";
    c.order_id = "22542179";
    auto cq = sb::cancel_params(c, btc());
    REQUIRE(cq);
    CHECK(text(*cq) == "symbol=BTCUSDT&orderId=22542179");
    c.symbol = "ETH/USDT";
    CHECK(text(sb::cancel_params(c, spot_btc()).value()) == "symbol=ETHUSDT&orderId=22542179");
    c.symbol = "BTC";
    for (auto const* bad : {"", "12a", "-1", "99999999999999999999999"}) {
        c.order_id = bad;
        auto refused = sb::cancel_params(c, btc());
        REQUIRE_FALSE(refused);
        CHECK(refused.error().details.at("field").as_string() == "orderId");
    }

    set_leverage_request l;
    l.symbol = "BTC";
    l.leverage = 20;
    CHECK(text(sb::leverage_params(l, btc()).value()) == "symbol=BTCUSDT&leverage=20");

    auto const wallet = address::parse(demo_user).value();
    auto const agent = address::parse(demo_signer).value();
    auto p = sb::signing_payload_for(*cq, 1748310859508, wallet, agent, false);
    REQUIRE(p);
    CHECK(p->msg == "symbol=BTCUSDT&orderId=22542179&nonce=1748310859508000&user=" +
                        util::to_lower(demo_user) + "&signer=" + util::to_lower(demo_signer));
    // No signer: the wallet signs for itself.
    auto own = sb::signing_payload_for(*cq, 1748310859508, wallet, std::nullopt, true);
    REQUIRE(own);
    CHECK(own->msg.ends_with("&user=" + util::to_lower(demo_user) +
                             "&signer=" + util::to_lower(demo_user)));
    CHECK(own->digest == sb::digest(own->msg, true));
    CHECK(own->typed_data.at("domain").at("chainId").as_uint64() == 714);
    CHECK_FALSE(sb::signing_payload_for(*cq, 0, wallet, std::nullopt, false));
}

TEST_CASE("beta derivation: beta.md 3.2 vectors from gateway bodies", "[unit][sign][beta]") {
    auto const key = sign::private_key::from_hex(demo_key).value();
    auto const auth = "&nonce=1748310859508867&user=" + demo_user + "&signer=" + demo_signer;

    // V5 is in CONTRACT 6.2's order: the body derives its parameters byte for byte.
    auto ts = order("BTC", side::sell, order_type::trailing_stop, "0.01");
    ts.callback_rate = d("1");
    ts.activation_price = d("70000");
    ts.reduce_only = true;
    std::string const v5 = derived(ts) + auth;
    CHECK(util::to_hex(sb::digest(v5, false), false) ==
          "4b30789562016567700d2488505881a8ff00430d813749e06a574b8ded3690cb");
    CHECK(sb::sign_message(v5, key, false) ==
          "0xfb5bf9d4b9b448babe4adfa2bce552b67cbb1b10319205a79f5ae530cb73a97b7f4ef3897b7023976f31a8"
          "1fcf65881cd19c3839c1e97487a2211e0c49bc56ed1b");

    // V1/V2 and V4 put `type` before `side` (the upstream takes any order; the gateway's is
    // fixed): the same parameters, and the vector's signature verifies against its own string.
    auto v1 = order("ASTER", side::buy, order_type::limit, "20");
    v1.price = d("0.5");
    CHECK(sorted_params(derived(v1, sb::market_rules{})) ==
          sorted_params("symbol=ASTERUSDT&type=LIMIT&side=BUY&timeInForce=GTC&quantity=20&"
                        "price=0.5&nonce=1"));
    auto v4 = order("ASTER", side::buy, order_type::limit, "100");
    v4.price = d("0.4");
    CHECK(sorted_params(derived(v4, sb::market_rules{})) ==
          sorted_params("symbol=ASTERUSDT&type=LIMIT&side=BUY&timeInForce=GTC&quantity=100&"
                        "price=0.4&nonce=1"));

    // The SDK signer over the derived V1 body: mainnet and testnet signatures recover to the
    // demo signer on their own network only.
    for (bool testnet : {false, true}) {
        sb::signer s{key, testnet};
        CHECK(s.address().str() == util::to_lower(demo_signer));
        auto r = v1;
        r.wallet = address::parse(demo_user).value();
        r.nonce = 1748310859508;
        REQUIRE(s.sign(r, sb::market_rules{}));
        REQUIRE(r.signer);
        CHECK(*r.signer == s.address());
        auto payload = sb::signing_payload_for(sb::order_params(r, sb::market_rules{}).value(),
                                               r.nonce, r.wallet, r.signer, testnet);
        REQUIRE(payload);
        CHECK(sb::recover_message(payload->msg, r.signature, testnet).value() == s.address());
        CHECK(sb::recover_message(payload->msg, r.signature, !testnet).value() != s.address());
    }
}

TEST_CASE("beta derivation: fields the type does not take, and spot's limits",
          "[unit][sign][beta]") {
    auto m = order("BTC", side::buy, order_type::market, "0.01");
    m.price = d("65000"); // alpha's worst price: beta's market orders carry none
    require_refused(m, btc(), "price");
    m.price.reset();
    m.time_in_force = time_in_force::ioc;
    require_refused(m, btc(), "timeInForce");

    auto l = order("BTC", side::buy, order_type::limit, "0.01");
    require_refused(l, btc(), "price");
    l.price = d("60000");
    l.trigger_price = d("60000");
    require_refused(l, btc(), "triggerPrice");
    l.trigger_price.reset();
    l.activation_price = d("60000");
    require_refused(l, btc(), "activationPrice");
    l.activation_price.reset();
    l.client_order_id = "0x123";
    require_refused(l, btc(), "clientOrderId");

    auto ts = order("BTC", side::sell, order_type::trailing_stop, "0.01");
    require_refused(ts, btc(), "callbackRate");
    for (auto const* rate : {"0.09", "5.01", "10"}) {
        ts.callback_rate = d(rate);
        require_refused(ts, btc(), "callbackRate");
    }
    for (auto const* rate : {"0.1", "2.5", "5"}) {
        ts.callback_rate = d(rate);
        CHECK(sb::order_params(ts, btc()));
    }

    auto sm = order("BTC", side::sell, order_type::stop_market, "0.01");
    require_refused(sm, btc(), "triggerPrice");

    auto spot = order("BTC/USDT", side::sell, order_type::stop_market, "0.01");
    spot.trigger_price = d("60000");
    require_refused(spot, spot_btc(), "type", errc::unsupported_order_type);
    auto spot_ro = order("BTC/USDT", side::sell, order_type::market, "0.01");
    spot_ro.reduce_only = true;
    require_refused(spot_ro, spot_btc(), "reduceOnly");
    require_refused(order("BTC", side::sell, order_type::market, "0.01"), spot_btc(), "symbol");
    require_refused(order("BTC/USDT", side::sell, order_type::market, "0.01"), btc(), "symbol");
}

TEST_CASE("beta filters: tick, step, lot, notional and percent price refuse, never round",
          "[unit][sign][beta]") {
    auto l = order("BTC", side::buy, order_type::limit, "0.01");
    l.price = d("60000.05"); // tick 0.1
    require_refused(l, btc(), "price");
    l.price = d("60000.1");
    CHECK(sb::order_params(l, btc()));
    l.price = d("2000000"); // above maxPrice
    require_refused(l, btc(), "price");

    l.price = d("60000");
    l.size = d("0.0105"); // step 0.001
    require_refused(l, btc(), "size");
    l.size = d("0.0001"); // below minQty
    require_refused(l, btc(), "size");
    l.size = d("1001"); // above maxQty
    require_refused(l, btc(), "size");

    auto mkt = order("BTC", side::buy, order_type::market, "121"); // MARKET_LOT_SIZE max 120
    require_refused(mkt, btc(), "size");
    mkt.size = d("100");
    CHECK(sb::order_params(mkt, btc()));

    // Minimum notional 5: the limit price, the trigger, the activation price, else the mark.
    l.size = d("0.001");
    l.price = d("4000"); // 4 USDT
    auto refused = sb::order_params(l, btc());
    REQUIRE_FALSE(refused);
    CHECK(refused.error().details.at("field").as_string() == "size");
    CHECK(refused.error().details.at("minNotional").as_string() == "5");
    l.reduce_only = true; // exempt
    CHECK(sb::order_params(l, btc()));
    auto small_market = order("BTC", side::buy, order_type::market, "0.001");
    CHECK(sb::order_params(small_market, btc())); // no mark: left to the upstream
    require_refused(small_market, btc(), "size", errc::validation_error, d("4000"));
    CHECK(sb::order_params(small_market, btc(), d("65000")));
    auto stop = order("BTC", side::sell, order_type::stop_market, "0.001");
    stop.trigger_price = d("4000");
    require_refused(stop, btc(), "size");
    stop.trigger_price = d("4000.05"); // and the trigger is on the tick too
    require_refused(stop, btc(), "triggerPrice");

    // Percent price around the mark 65000: buys up to 68250, sells down to 61750.
    auto buy = order("BTC", side::buy, order_type::limit, "0.01");
    buy.price = d("68250");
    CHECK(sb::order_params(buy, btc(), d("65000")));
    buy.price = d("68250.1");
    require_refused(buy, btc(), "price", errc::validation_error, d("65000"));
    CHECK(sb::order_params(buy, btc())); // no mark known: the upstream checks it
    auto sell = order("BTC", side::sell, order_type::limit, "0.01");
    sell.price = d("61749.9");
    require_refused(sell, btc(), "price", errc::validation_error, d("65000"));
    sell.price = d("61750");
    CHECK(sb::order_params(sell, btc(), d("65000")));
}

TEST_CASE("beta leverage: the bracket's maximum, cross only, perps only", "[unit][sign][beta]") {
    set_leverage_request l;
    l.symbol = "BTC";
    l.leverage = 126;
    auto m = btc();
    m.max_leverage = 0; // unknown: only the upstream's 1-125
    CHECK_FALSE(sb::leverage_params(l, m));
    m.max_leverage = 20;
    l.leverage = 21;
    auto over = sb::leverage_params(l, m);
    REQUIRE_FALSE(over);
    CHECK(over.error().code == errc::max_leverage_exceeded);
    CHECK(over.error().message.find("20") != std::string::npos);
    CHECK(over.error().details.at("maxLeverage").as_int64() == 20);
    l.leverage = 20;
    CHECK(sb::leverage_params(l, m));
    l.margin_mode = margin_mode::isolated;
    auto isolated = sb::leverage_params(l, m);
    REQUIRE_FALSE(isolated);
    CHECK(isolated.error().details.at("field").as_string() == "marginMode");
    l.margin_mode = margin_mode::cross;
    CHECK_FALSE(sb::leverage_params(l, spot_btc()));
}

TEST_CASE("beta signer: fills nonce, wallet and signer, an agent signs for a wallet",
          "[unit][sign][beta]") {
    auto const own_key = sign::private_key::from_hex(wallet_key).value();
    sb::signer wallet{own_key};
    auto r = order("BTC", side::buy, order_type::limit, "0.01");
    r.price = d("60000");
    REQUIRE(wallet.sign(r, btc()));
    CHECK(r.wallet == wallet.address());
    CHECK_FALSE(r.signer); // the default: the wallet itself
    CHECK(r.nonce > 1'700'000'000'000);
    CHECK(r.signature.size() == 132);
    auto p = sb::signing_payload_for(sb::order_params(r, btc()).value(), r.nonce, r.wallet,
                                     r.signer, false);
    REQUIRE(p);
    CHECK(p->msg.find("&nonce=" + std::to_string(r.nonce) + "000&") != std::string::npos);
    CHECK(sb::recover_message(p->msg, r.signature, false).value() == wallet.address());

    // A second signature gets a fresh nonce when asked for one.
    auto again = r;
    again.nonce = 0;
    REQUIRE(wallet.sign(again, btc()));
    CHECK(again.nonce > r.nonce);

    // An agent key signing for the wallet names itself as `signer`.
    sb::signer agent{sign::private_key::from_hex(demo_key).value()};
    auto a = order("BTC", side::buy, order_type::limit, "0.01");
    a.price = d("60000");
    a.wallet = wallet.address();
    REQUIRE(agent.sign(a, btc()));
    REQUIRE(a.signer);
    CHECK(*a.signer == agent.address());
    auto ap = sb::signing_payload_for(sb::order_params(a, btc()).value(), a.nonce, a.wallet,
                                      a.signer, false);
    CHECK(sb::recover_message(ap.value().msg, a.signature, false).value() == agent.address());

    // Refused by the filters: nothing signed, the request unchanged.
    auto bad = order("BTC", side::buy, order_type::limit, "0.01");
    bad.price = d("60000.05");
    auto const before = bad.nonce;
    REQUIRE_FALSE(wallet.sign(bad, btc()));
    CHECK(bad.signature.empty());
    CHECK(bad.nonce == before);

    // The typed data the gateway returns is what the signer signs.
    auto sig = wallet.sign_typed_data(sb::typed_data(p->msg, false));
    REQUIRE(sig);
    CHECK(sb::recover_message(p->msg, *sig, false).value() == wallet.address());
}

TEST_CASE("beta rules from the gateway's markets listing", "[unit][sign][beta]") {
    market_info mi;
    mi.symbol = "BTC";
    mi.tick_size = d("0.1");
    mi.step_size = d("0.001");
    mi.min_notional = d("5");
    mi.max_leverage = 125;
    auto const r = sb::rules_of(mi, false);
    CHECK(r.tick_size == d("0.1"));
    CHECK(r.step_size == d("0.001"));
    CHECK(r.min_notional == d("5"));
    CHECK(r.max_leverage == 125);
    CHECK_FALSE(r.spot);
    CHECK(sb::rules_of(mi, true).spot);
    CHECK(sb::rules_of(mi, true).max_leverage == 0);
}

} // namespace beta_orders_test
