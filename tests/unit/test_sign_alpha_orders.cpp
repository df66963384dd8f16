// Unit tests of the CONTRACT §6.1 alpha derivation and the SDK signer
// (include/gateway/providers/alpha/orders.hpp): the action of every order type, the refusals, the
// upstreams/alpha.md §6 vectors that are order/cancel/updateLeverage actions, and signer round
// trips.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/values.hpp"

#include <gateway/providers/alpha.hpp>
#include <gateway/providers/alpha/orders.hpp>
#include <gateway/sign/sign.hpp>

#include <boost/json/serialize.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace sign = gateway::sign;
namespace alpha = gateway::sign::alpha;
using gateway::decimal;
using gateway::errc;
using gateway::order_type;
using gateway::place_order_request;
using gateway::time_in_force;

using gateway::test::dec;

namespace {

// upstreams/alpha.md §6 keys: the upstream SDKs' public test keys.
sign::private_key k1() {
    return sign::private_key::from_hex(
               "0x0123456789012345678901234567890123456789012345678901234567890123")
        .value();
}
sign::private_key k2() {
    return sign::private_key::from_hex(
               "0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff")
        .value();
}
sign::private_key k3() {
    return sign::private_key::from_hex(
               "0xe908f86dbb4d55ac876378565aafeabc187f6690f046459397b17d9b9a19688e")
        .value();
}
std::string const k1_address = "0x14791697260e4c9a71f18484c9f997b308e59325";

place_order_request order(order_type type, std::string_view size,
                          std::optional<std::string_view> price = std::nullopt,
                          gateway::side side = gateway::side::buy) {
    place_order_request r;
    r.symbol = "BTC";
    r.type = type;
    r.side = side;
    r.size = dec(size);
    if (price)
        r.price = dec(*price);
    return r;
}

alpha::market_rules perp(std::uint32_t asset, unsigned sz_decimals, unsigned max_leverage = 0) {
    return {asset, sz_decimals, false, max_leverage};
}

std::string json(boost::json::object const& o) {
    return boost::json::serialize(o);
}

std::string derive(place_order_request const& r, alpha::market_rules const& m) {
    auto a = alpha::order_action(r, m);
    REQUIRE(a);
    return json(*a);
}

std::string cid_of(boost::json::object const& action, std::uint64_t nonce) {
    return sign::to_hex(alpha::action_hash(action, nonce).value(), false);
}

/// `0x` + r || s || v.
std::string signature_0x(std::string const& r, std::string const& s, int v) {
    return "0x" + r + s + (v == 27 ? "1b" : "1c");
}

/// The error of a failed result, checked for its code and field.
template <class T>
gateway::api_error refused(gateway::result<T> const& r, errc code, std::string_view field) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == code);
    CHECK(r.error().field() == field);
    return r.error();
}

std::string wrap(std::string const& order_json) {
    return R"({"type":"order","orders":[)" + order_json + R"(],"grouping":"na"})";
}

} // namespace

TEST_CASE("alpha order_action derives every order type in the upstream key order", "[unit][sign]") {
    auto const m = perp(1, 0);

    SECTION("market is an Ioc limit at the worst price") {
        CHECK(
            derive(order(order_type::market, "100", "100"), m) ==
            wrap(R"({"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"limit":{"tif":"Ioc"}}})"));
    }
    SECTION("limit takes timeInForce, default gtc") {
        auto r = order(order_type::limit, "100", "100", gateway::side::sell);
        CHECK(derive(r, m) == wrap(R"({"a":1,"b":false,"p":"100","s":"100","r":false,)"
                                   R"("t":{"limit":{"tif":"Gtc"}}})"));
        r.time_in_force = time_in_force::gtc;
        CHECK(derive(r, m).find(R"({"tif":"Gtc"})") != std::string::npos);
        r.time_in_force = time_in_force::ioc;
        CHECK(derive(r, m).find(R"({"tif":"Ioc"})") != std::string::npos);
        r.time_in_force = time_in_force::alo;
        CHECK(derive(r, m).find(R"({"tif":"Alo"})") != std::string::npos);
    }
    SECTION("stop_market is a market trigger; p is the slippage bound") {
        auto r = order(order_type::stop_market, "100", "100");
        r.trigger_price = dec("103");
        CHECK(derive(r, m) ==
              wrap(R"({"a":1,"b":true,"p":"100","s":"100","r":false,)"
                   R"("t":{"trigger":{"isMarket":true,"triggerPx":"103","tpsl":"sl"}}})"));
    }
    SECTION("stop_limit is a limit trigger (gtc, its default, is accepted)") {
        auto r = order(order_type::stop_limit, "100", "99", gateway::side::sell);
        r.trigger_price = dec("101.5");
        auto const expected =
            wrap(R"({"a":1,"b":false,"p":"99","s":"100","r":false,)"
                 R"("t":{"trigger":{"isMarket":false,"triggerPx":"101.5","tpsl":"sl"}}})");
        CHECK(derive(r, m) == expected);
        r.time_in_force = time_in_force::gtc;
        CHECK(derive(r, m) == expected);
    }
    SECTION("reduceOnly and clientOrderId (last, lower-cased)") {
        auto r = order(order_type::limit, "100", "100");
        r.reduce_only = true;
        r.client_order_id = "0x1234567890ABCDEF1234567890abcdef";
        CHECK(derive(r, m) ==
              wrap(R"({"a":1,"b":true,"p":"100","s":"100","r":true,"t":{"limit":{"tif":"Gtc"}},)"
                   R"("c":"0x1234567890abcdef1234567890abcdef"})"));
        r.type = order_type::stop_market;
        r.time_in_force.reset();
        r.trigger_price = dec("90");
        CHECK(derive(r, m) ==
              wrap(R"({"a":1,"b":true,"p":"100","s":"100","r":true,)"
                   R"("t":{"trigger":{"isMarket":true,"triggerPx":"90","tpsl":"sl"}},)"
                   R"("c":"0x1234567890abcdef1234567890abcdef"})"));
    }
    SECTION("prices and sizes go as normalized strings") {
        auto r = order(order_type::limit, "3.50", "2000.0");
        CHECK(
            derive(r, perp(1, 2)) ==
            wrap(R"({"a":1,"b":true,"p":"2000","s":"3.5","r":false,"t":{"limit":{"tif":"Gtc"}}})"));
    }
    SECTION("spot and HIP-3 asset ids come from the market rules") {
        // Spot PURR/USDC = 10000 + 0; spot prices may carry 8 - szDecimals decimals.
        auto r = order(order_type::limit, "12", "0.0001234");
        alpha::market_rules const spot{10000, 0, true, 0};
        CHECK(derive(r, spot) == wrap(R"({"a":10000,"b":true,"p":"0.0001234","s":"12","r":false,)"
                                      R"("t":{"limit":{"tif":"Gtc"}}})"));
        alpha::market_rules const spot107{10107, 2, true, 0};
        r = order(order_type::market, "1.25", "25.1", gateway::side::sell);
        CHECK(derive(r, spot107) == wrap(R"({"a":10107,"b":false,"p":"25.1","s":"1.25","r":false,)"
                                         R"("t":{"limit":{"tif":"Ioc"}}})"));
        // The same price is too fine for a perp with those szDecimals.
        CHECK_FALSE(alpha::order_action(order(order_type::limit, "12", "0.0001234"), perp(0, 0)));
        r = order(order_type::limit, "0.5", "25451");
        CHECK(derive(r, perp(110000, 4)) ==
              wrap(R"({"a":110000,"b":true,"p":"25451","s":"0.5","r":false,)"
                   R"("t":{"limit":{"tif":"Gtc"}}})"));
    }
}

TEST_CASE("alpha cancel_action and leverage_action", "[unit][sign]") {
    gateway::cancel_order_request c;
    c.symbol = "BTC";
    c.order_id = "77738308";
    auto a = alpha::cancel_action(c, perp(0, 5));
    REQUIRE(a);
    CHECK(json(*a) == R"({"type":"cancel","cancels":[{"a":0,"o":77738308}]})");
    c.order_id = "18446744073709551615"; // uint64 max still fits
    CHECK(alpha::cancel_action(c, perp(3, 5)));

    gateway::set_leverage_request l;
    l.symbol = "BTC";
    l.leverage = 10;
    auto u = alpha::leverage_action(l, perp(0, 5, 50));
    REQUIRE(u);
    CHECK(json(*u) == R"({"type":"updateLeverage","asset":0,"isCross":true,"leverage":10})");
    l.margin_mode = gateway::margin_mode::isolated;
    l.leverage = 50; // the maximum itself is allowed
    u = alpha::leverage_action(l, perp(110000, 2, 50));
    REQUIRE(u);
    CHECK(json(*u) == R"({"type":"updateLeverage","asset":110000,"isCross":false,"leverage":50})");
    l.leverage = 500; // unknown maximum: not checked
    CHECK(alpha::leverage_action(l, perp(0, 5, 0)));
}

TEST_CASE("alpha derivation refusals", "[unit][sign]") {
    auto const m = perp(1, 2);

    SECTION("trailing_stop is unsupported") {
        auto r = order(order_type::trailing_stop, "1", "100");
        r.callback_rate = dec("1");
        refused(alpha::order_action(r, m), errc::unsupported_order_type, "type");
    }
    SECTION("stop types on spot are unsupported") {
        auto r = order(order_type::stop_market, "1", "100");
        r.trigger_price = dec("90");
        refused(alpha::order_action(r, {10000, 2, true, 0}), errc::unsupported_order_type, "type");
        r.type = order_type::stop_limit;
        refused(alpha::order_action(r, {10000, 2, true, 0}), errc::unsupported_order_type, "type");
    }
    SECTION("price is required for every type") {
        for (auto t : {order_type::market, order_type::limit, order_type::stop_market,
                       order_type::stop_limit}) {
            auto r = order(t, "1");
            r.trigger_price = dec("90");
            auto const e = refused(alpha::order_action(r, m), errc::validation_error, "price");
            CHECK(e.message.find("price") != std::string::npos);
        }
    }
    SECTION("triggerPrice: required on stop types, refused elsewhere") {
        refused(alpha::order_action(order(order_type::stop_market, "1", "100"), m),
                errc::validation_error, "triggerPrice");
        refused(alpha::order_action(order(order_type::stop_limit, "1", "100"), m),
                errc::validation_error, "triggerPrice");
        auto r = order(order_type::limit, "1", "100");
        r.trigger_price = dec("90");
        refused(alpha::order_action(r, m), errc::validation_error, "triggerPrice");
        r.type = order_type::market;
        refused(alpha::order_action(r, m), errc::validation_error, "triggerPrice");
    }
    SECTION("timeInForce only on limit types") {
        auto r = order(order_type::market, "1", "100");
        r.time_in_force = time_in_force::ioc;
        refused(alpha::order_action(r, m), errc::validation_error, "timeInForce");
        r.type = order_type::stop_market;
        r.trigger_price = dec("90");
        r.time_in_force = time_in_force::gtc;
        refused(alpha::order_action(r, m), errc::validation_error, "timeInForce");
        r.type = order_type::stop_limit;
        r.time_in_force = time_in_force::alo; // alpha triggers have no time in force
        refused(alpha::order_action(r, m), errc::validation_error, "timeInForce");
    }
    SECTION("trailing_stop fields on other types") {
        auto r = order(order_type::limit, "1", "100");
        r.callback_rate = dec("1");
        refused(alpha::order_action(r, m), errc::validation_error, "callbackRate");
        r.callback_rate.reset();
        r.activation_price = dec("100");
        refused(alpha::order_action(r, m), errc::validation_error, "activationPrice");
    }
    SECTION("tick rules: refused, never rounded") {
        // szDecimals 2 on a perp: at most 4 decimals, 5 significant figures unless integer.
        refused(alpha::order_action(order(order_type::limit, "1", "1234.56"), m),
                errc::validation_error, "price");
        refused(alpha::order_action(order(order_type::limit, "1", "0.00001"), m),
                errc::validation_error, "price");
        refused(alpha::order_action(order(order_type::market, "1", "0"), m), errc::validation_error,
                "price");
        refused(alpha::order_action(order(order_type::market, "1", "-5"), m),
                errc::validation_error, "price");
        CHECK(alpha::order_action(order(order_type::limit, "1", "123456"), m)); // integer: ok
        CHECK(alpha::order_action(order(order_type::limit, "1", "1234.5"), m));
        auto r = order(order_type::stop_limit, "1", "100");
        r.trigger_price = dec("100.123"); // 6 significant figures
        refused(alpha::order_action(r, m), errc::validation_error, "triggerPrice");
        r.trigger_price = dec("100.12");
        CHECK(alpha::order_action(r, m));
    }
    SECTION("lot rules and positive sizes") {
        refused(alpha::order_action(order(order_type::limit, "0.123", "100"), m),
                errc::validation_error, "size");
        refused(alpha::order_action(order(order_type::limit, "0", "100"), m),
                errc::validation_error, "size");
        refused(alpha::order_action(order(order_type::limit, "-1", "100"), m),
                errc::validation_error, "size");
        refused(alpha::order_action(order(order_type::limit, "1.5", "100"), perp(0, 0)),
                errc::validation_error, "size");
    }
    SECTION("clientOrderId shape") {
        auto r = order(order_type::limit, "1", "100");
        r.client_order_id = "0x1234";
        refused(alpha::order_action(r, m), errc::validation_error, "clientOrderId");
        r.client_order_id = "0x1234567890abcdef1234567890abcdeg";
        refused(alpha::order_action(r, m), errc::validation_error, "clientOrderId");
    }
    SECTION("leverage above the market maximum names the maximum") {
        gateway::set_leverage_request l;
        l.symbol = "BTC";
        l.leverage = 60;
        auto const e = refused(alpha::leverage_action(l, perp(0, 5, 50)),
                               errc::max_leverage_exceeded, "leverage");
        CHECK(e.message.find("50") != std::string::npos);
        CHECK(e.details.at("maxLeverage").as_int64() == 50);
        CHECK(e.status == 400);
        l.leverage = 0;
        refused(alpha::leverage_action(l, perp(0, 5, 50)), errc::validation_error, "leverage");
    }
    SECTION("orderId must be decimal digits") {
        gateway::cancel_order_request c;
        c.symbol = "BTC";
        for (char const* bad :
             {"abc", "12a", "", "-1", "+1", "0x1f", "1.5", " 1", "18446744073709551616"}) {
            c.order_id = bad;
            refused(alpha::cancel_action(c, perp(0, 5)), errc::validation_error, "orderId");
        }
    }
}

TEST_CASE("alpha derivation reproduces the upstreams/alpha.md §6 vectors", "[unit][sign]") {
    SECTION("V1: market (Ioc) order, connectionId") {
        for (auto t : {order_type::market, order_type::limit}) {
            auto r = order(t, "0.0147", "1670.1");
            if (t == order_type::limit)
                r.time_in_force = time_in_force::ioc;
            auto a = alpha::order_action(r, perp(4, 4));
            REQUIRE(a);
            CHECK(cid_of(*a, 1677777606040) ==
                  "0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908");
        }
    }

    struct vector_case {
        char const* name;
        place_order_request request;
        alpha::market_rules rules;
        std::string cid;
        std::string main_sig;
        std::string test_sig;
    };
    auto v5 = order(order_type::limit, "100", "100");
    v5.client_order_id = "0x00000000000000000000000000000001";
    auto v6 = order(order_type::stop_market, "100", "100");
    v6.trigger_price = dec("103");
    vector_case const k1_nonce0[] = {
        {"V4", order(order_type::limit, "100", "100"), perp(1, 0),
         "884f2c32bb6dbdd65f6033e32fb28c0cb6f5b345db0f6471fd3366d85c9252c1",
         signature_0x("d65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e",
                      "2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e", 28),
         signature_0x("82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54",
                      "6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5", 27)},
        {"V5", v5, perp(1, 0), "0ba500cedd8f4ba6ded620a0b1cd04f124d9ba745e2e2893fcc763bcc1444af5",
         signature_0x("041ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3",
                      "3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da", 27),
         signature_0x("eba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d",
                      "7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988", 28)},
        {"V6", v6, perp(1, 0), "430a86fb9876e901920d931f5bb20c9d011f6389bd179f39a73c09e6219adcad",
         signature_0x("98343f2b5ae8e26bb2587daad3863bc70d8792b09af1841b6fdd530a2065a3f9",
                      "6b5bb6bb0633b710aa22b721dd9dee6d083646a5f8e581a20b545be6c1feb405", 27),
         signature_0x("971c554d917c44e0e1b6cc45d8f9404f32172a9d3b3566262347d0302896a2e4",
                      "206257b104788f80450f8e786c329daa589aa0b32ba96948201ae556d5637eac", 28)},
    };
    SECTION("V4, V5, V6 (K1, nonce 0): connectionId, digest and signatures") {
        for (auto const& v : k1_nonce0) {
            INFO(v.name);
            auto a = alpha::order_action(v.request, v.rules);
            REQUIRE(a);
            CHECK(cid_of(*a, 0) == v.cid);
            for (bool testnet : {false, true}) {
                auto p = alpha::signing_payload_for(*a, 0, testnet);
                REQUIRE(p);
                CHECK(sign::signature_to_hex(sign::sign_digest(p->digest, k1())) ==
                      (testnet ? v.test_sig : v.main_sig));
                alpha::signer const s(k1(), testnet);
                auto sig = s.sign_action(*a, 0);
                REQUIRE(sig);
                CHECK(*sig == (testnet ? v.test_sig : v.main_sig));
                auto who = alpha::recover_signer(*a, 0, *sig, testnet);
                REQUIRE(who);
                CHECK(who->str() == k1_address);
            }
        }
        auto a = alpha::order_action(k1_nonce0[0].request, k1_nonce0[0].rules).value();
        CHECK(sign::to_hex(alpha::signing_payload_for(a, 0, false)->digest, false) ==
              "a5cfed1f2d7948de30aecacc7fea3c5e05c1e759020e96239847879b906f801e");
        CHECK(sign::to_hex(alpha::signing_payload_for(a, 0, true)->digest, false) ==
              "606be2d25f68768f876dc04a2c3c86ceafd2d6a3c3cbb963454462d6734ebfa6");
    }
    SECTION("V9 base (K2) through the signer") {
        for (bool testnet : {false, true}) {
            auto r = order(order_type::limit, "0.1", "30000");
            r.nonce = 1234567890;
            alpha::signer const s(k2(), testnet);
            REQUIRE(s.sign(r, perp(0, 5)));
            CHECK(r.nonce == 1234567890);
            CHECK(cid_of(alpha::order_action(r, perp(0, 5)).value(), 1234567890) ==
                  "25367e0dba84351148288c2233cd6130ed6cec5967ded0c0b7334f36f957cc90");
            CHECK(r.signature ==
                  (testnet
                       ? signature_0x(
                             "6b0283a894d87b996ad0182b86251cc80d27d61ef307449a2ed249a508ded1f7",
                             "6f884e79f4a0a10af62db831af6f8e03b3f11d899eb49b352f836746ee9226da", 27)
                       : signature_0x(
                             "61078d8ffa3cb591de045438a1ae2ed299b271891d1943a33901e7cfb3a31ed8",
                             "0e91df4f9841641d3322dad8d932874b74d7e082cdb5b533f804964a6963aef9",
                             28)));
        }
    }
    SECTION("V12 (K3) through the signer") {
        auto r = order(order_type::limit, "0.02", "1800");
        r.nonce = 1690393044548;
        alpha::signer const s(k3());
        REQUIRE(s.sign(r, perp(1, 4)));
        CHECK(cid_of(alpha::order_action(r, perp(1, 4)).value(), 1690393044548) ==
              "b8ed9e5a4ea7b2aebdb09fd794221c2599487f6dc8d3bf8f38656ab295f36120");
        CHECK(r.signature ==
              signature_0x("380b70e9e76181609c7d9f2ece74cf7717a0254f9d751137ffaedff685e81cc7",
                           "27c1e43069db58d728e996b91112aff57a24f3d9221635adc053f20aa4283ad8", 27));
    }
    SECTION("V11 cancel (K3) through the signer") {
        for (bool testnet : {false, true}) {
            gateway::cancel_order_request c;
            c.symbol = "ETH";
            c.order_id = "82382";
            c.nonce = 1583838;
            alpha::signer const s(k3(), testnet);
            REQUIRE(s.sign(c, perp(1, 4)));
            CHECK(cid_of(alpha::cancel_action(c, perp(1, 4)).value(), 1583838) ==
                  "a53262329d1e221a88ff73e5ce330e0e47fb646091cae7020c34c346e592b77e");
            CHECK(c.signature ==
                  (testnet
                       ? signature_0x(
                             "6ffebadfd48067663390962539fbde76cfa36f53be65abe2ab72c9db6d0db444",
                             "57720db9d7c4860f142a484f070c84eb4b9694c3a617c83f0d698a27e55fd5e0", 28)
                       : signature_0x(
                             "02f76cc5b16e0810152fa0e14e7b219f49c361e3325f771544c6f54e157bf9fa",
                             "17ed0afc11a98596be85d5cd9f86600aad515337318f7ab346e5ccc1b03425d5",
                             27)));
        }
    }
    SECTION("V11 orders hash an un-normalized \"2000.0\": the derivation sends \"2000\"") {
        auto a = alpha::order_action(order(order_type::market, "3.5", "2000.0"), perp(1, 2));
        REQUIRE(a);
        CHECK(json(*a).find(R"("p":"2000")") != std::string::npos);
        CHECK(cid_of(*a, 1583838) !=
              "5983a9453b8d32668daefa9310e1a81bc1f4d7da50a9ad8869a4011d12068ea0");
    }
    SECTION("§6.2 DERIVED (K1, nonce 1700000000000)") {
        std::int64_t const nonce = 1700000000000;
        for (bool testnet : {false, true}) {
            alpha::signer const s(k1(), testnet);

            gateway::set_leverage_request l;
            l.symbol = "BTC";
            l.leverage = 10;
            l.nonce = nonce;
            REQUIRE(s.sign(l, perp(0, 5, 50)));
            CHECK(cid_of(alpha::leverage_action(l, perp(0, 5)).value(), nonce) ==
                  "e69c035a0297dd24d9b288c3e8509ae251baf7bf43a43b895327a2cab098389e");
            CHECK(l.signature ==
                  (testnet
                       ? signature_0x(
                             "d4498ef57bf0c1361161ef3cd6da84a912a93c162257f2d45f7211711115f238",
                             "1f351995d1950021ddcc17c1f9b1ad60870c56ab7d87bc3f32210970229b6bbf", 27)
                       : signature_0x(
                             "4fa0ed1f37b56019934737616f720140dc2d415064df1f02ef44e0a6431dc02d",
                             "0541f7b41434b08725ae4d5908e3dc426e8a9ae09833f907d077fc4e32df6c2e",
                             27)));

            auto o = order(order_type::limit, "0.0183", "25451", gateway::side::sell);
            o.time_in_force = time_in_force::alo;
            o.client_order_id = "0x1234567890abcdef1234567890abcdef";
            o.nonce = nonce;
            REQUIRE(s.sign(o, perp(110000, 4)));
            CHECK(cid_of(alpha::order_action(o, perp(110000, 4)).value(), nonce) ==
                  "c44a2d41f39e31d46c45a85656dda1f75f8388eadd58e262c0c91416bc36ff3f");
            CHECK(o.signature ==
                  (testnet
                       ? signature_0x(
                             "c6ab2b1fb48bef0ea01235eea2e97c23525114ec0cba0bb9e0bee8cc6a3d29e8",
                             "11a878437619c1d1eec0f5b262afc80c7ca441d8c1a4e118ba883eb410fd94ed", 28)
                       : signature_0x(
                             "daaac85a590f2c16d2ece4e0fc6d8e0ed7be27d4bdea0badd968a9d009fd6594",
                             "63823727b078a2a1c8e9f86d429674fb9ab11e72d83435716059b82d033bce60",
                             27)));

            gateway::cancel_order_request c;
            c.symbol = "BTC";
            c.order_id = "77738308";
            c.nonce = nonce;
            REQUIRE(s.sign(c, perp(0, 5)));
            CHECK(cid_of(alpha::cancel_action(c, perp(0, 5)).value(), nonce) ==
                  "99f95e9c3ec4a58b28dd8ea91529b4d305494e7601c1b6e6fe631fac3168c298");
            CHECK(c.signature ==
                  (testnet
                       ? signature_0x(
                             "0a876c94b495d3375032883b6041cf71188c3b6531360b6287a8758ef93b4c99",
                             "04b8356458b78d972dfe9cd9e1677ecac04af978d34caa1ebedfc91ee579842c", 28)
                       : signature_0x(
                             "02d25f8bb8b4dd16863fc6ebbfca6dbe41c256d6cafbcec7d9fca8caa03418e7",
                             "669f38877442b2f5491e40229f7f2e9dc54cd3e8583cdce0bf468a9c51af27de",
                             28)));
        }
    }
}

TEST_CASE("alpha signer round trip and recover_signer", "[unit][sign]") {
    alpha::signer const s(k1());
    alpha::signer const t(k1(), true);
    CHECK(s.address().str() == k1_address);
    CHECK(t.address() == s.address());
    CHECK_FALSE(s.testnet());
    CHECK(t.testnet());
    auto const m = perp(0, 5, 40);

    SECTION("sign fills nonce, wallet and signature; recover gives the signer") {
        auto r = order(order_type::limit, "0.01", "65000");
        REQUIRE(s.sign(r, m));
        CHECK(r.nonce > 1700000000000);
        CHECK(r.wallet == s.address()); // zero wallet: the key signs as the wallet itself
        REQUIRE(r.signature.size() == 132);
        CHECK(r.signature.starts_with("0x"));
        auto const action = alpha::order_action(r, m).value();
        auto who = alpha::recover_signer(action, r.nonce, r.signature, false);
        REQUIRE(who);
        CHECK(*who == s.address());
        CHECK(gateway::validate(r));

        // A second request gets a later nonce even within the same millisecond.
        auto r2 = order(order_type::limit, "0.01", "65000");
        REQUIRE(s.sign(r2, m));
        CHECK(r2.nonce > r.nonce);

        // An agent signs for another wallet: the wallet is kept and is not signed.
        auto r3 = order(order_type::limit, "0.01", "65000");
        r3.wallet = gateway::address::parse("0x1234567890123456789012345678901234567890").value();
        r3.nonce = r.nonce;
        REQUIRE(s.sign(r3, m));
        CHECK(r3.wallet.str() == "0x1234567890123456789012345678901234567890");
        CHECK(r3.signature == r.signature);
    }
    SECTION("testnet (source b) signs differently; the wrong network recovers someone else") {
        auto a = order(order_type::market, "0.01", "65000");
        a.nonce = 1700000000001;
        auto b = a;
        REQUIRE(s.sign(a, m));
        REQUIRE(t.sign(b, m));
        CHECK(a.signature != b.signature);
        auto const action = alpha::order_action(a, m).value();
        CHECK(alpha::recover_signer(action, b.nonce, b.signature, true).value() == t.address());
        CHECK(alpha::recover_signer(action, b.nonce, b.signature, false).value() != t.address());
        auto const pa = alpha::signing_payload_for(action, a.nonce, false).value();
        auto const pb = alpha::signing_payload_for(action, a.nonce, true).value();
        CHECK(pa.digest != pb.digest);
        CHECK(pa.typed_data.at("message").at("source") == "a");
        CHECK(pb.typed_data.at("message").at("source") == "b");
    }
    SECTION("a tampered action or nonce recovers a different address") {
        auto r = order(order_type::limit, "0.01", "65000");
        REQUIRE(s.sign(r, m));
        auto tampered = r;
        tampered.size = dec("0.02");
        auto const action = alpha::order_action(tampered, m).value();
        auto who = alpha::recover_signer(action, r.nonce, r.signature, false);
        REQUIRE(who);
        CHECK(*who != s.address());
        auto const original = alpha::order_action(r, m).value();
        CHECK(alpha::recover_signer(original, r.nonce + 1, r.signature, false).value() !=
              s.address());
        auto other = original;
        other["orders"].as_array()[0].as_object()["a"] = 1;
        CHECK(alpha::recover_signer(other, r.nonce, r.signature, false).value() != s.address());
    }
    SECTION("cancel and leverage round trips") {
        gateway::cancel_order_request c;
        c.symbol = "BTC";
        c.order_id = "123";
        REQUIRE(s.sign(c, m));
        CHECK(alpha::recover_signer(alpha::cancel_action(c, m).value(), c.nonce, c.signature, false)
                  .value() == s.address());
        gateway::set_leverage_request l;
        l.symbol = "BTC";
        l.leverage = 20;
        REQUIRE(t.sign(l, m));
        CHECK(
            alpha::recover_signer(alpha::leverage_action(l, m).value(), l.nonce, l.signature, true)
                .value() == t.address());
    }
    SECTION("the typed data of the payload signs to the same signature") {
        auto r = order(order_type::limit, "0.01", "65000");
        REQUIRE(s.sign(r, m));
        auto const p =
            alpha::signing_payload_for(alpha::order_action(r, m).value(), r.nonce, false).value();
        CHECK(sign::eip712::hash_typed_data(p.typed_data).value() == p.digest);
        auto sig = s.sign_typed_data(p.typed_data);
        REQUIRE(sig);
        CHECK(*sig == r.signature);
        CHECK(s.sign_typed_data(boost::json::value{{"types", 1}}).error().code ==
              errc::validation_error);
    }
    SECTION("a failed sign leaves the request unchanged") {
        auto r = order(order_type::trailing_stop, "0.01", "65000");
        r.callback_rate = dec("1");
        refused(s.sign(r, m), errc::unsupported_order_type, "type");
        CHECK(r.nonce == 0);
        CHECK(r.signature.empty());
        CHECK(r.wallet.is_zero());
        auto e = order(order_type::limit, "0.01", "65000");
        e.symbol.clear(); // shape rules of validate() apply too
        refused(s.sign(e, m), errc::validation_error, "symbol");
        gateway::set_leverage_request l;
        l.symbol = "BTC";
        l.leverage = 41;
        refused(s.sign(l, m), errc::max_leverage_exceeded, "leverage");
        CHECK(l.signature.empty());
    }
    SECTION("malformed signatures and nonces") {
        auto const action = alpha::order_action(order(order_type::limit, "1", "100"), m).value();
        std::string good = s.sign_action(action, 5).value();
        refused(alpha::recover_signer(action, 5, "", false), errc::signature_error, "signature");
        refused(alpha::recover_signer(action, 5, good.substr(0, 130), false), errc::signature_error,
                "signature");
        refused(alpha::recover_signer(action, 5, good.substr(2), false), errc::signature_error,
                "signature");
        for (char const* v : {"00", "01", "1d"}) {
            auto bad = good;
            bad.replace(130, 2, v);
            refused(alpha::recover_signer(action, 5, bad, false), errc::signature_error,
                    "signature");
        }
        auto zero = "0x" + std::string(128, '0') + "1b";
        refused(alpha::recover_signer(action, 5, zero, false), errc::signature_error, "signature");
        refused(alpha::recover_signer(action, -1, good, false), errc::validation_error, "nonce");
        refused(alpha::signing_payload_for(action, -1, false), errc::validation_error, "nonce");
    }
}

TEST_CASE("alpha market_order_price: mid +/- 5% rounded to the tick rules", "[unit][sign]") {
    using gateway::side;
    auto price = [](std::string_view mid, side s, alpha::market_rules const& m) {
        auto p = alpha::market_order_price(dec(mid), s, m);
        REQUIRE(p);
        // Always a price the derivation accepts.
        CHECK(alpha::check_price(p->str(), m.sz_decimals, m.spot));
        return p->str();
    };
    CHECK(price("1000.123", side::buy, perp(0, 2)) == "1050.1");  // 1050.12915
    CHECK(price("1000.123", side::sell, perp(0, 2)) == "950.12"); // 950.11685
    CHECK(price("100", side::buy, perp(0, 2)) == "105");
    CHECK(price("100", side::sell, perp(0, 2)) == "95");
    CHECK(price("65432", side::buy, perp(0, 5)) == "68704"); // 68703.6: 5 significant figures
    CHECK(price("20", side::buy, perp(0, 5)) == "21");       // an integer is kept
    CHECK(price("0.0012345", side::buy, {10000, 0, true, 0}) == "0.0012962");
    CHECK(price("0.0012345", side::sell, {10000, 0, true, 0}) == "0.0011728");
    CHECK(price("0.0012345", side::buy, perp(0, 2)) == "0.0013");
    refused(alpha::market_order_price(dec("0"), side::buy, perp(0, 2)), errc::validation_error,
            "price");
    refused(alpha::market_order_price(dec("-1"), side::sell, perp(0, 2)), errc::validation_error,
            "price");
    refused(alpha::market_order_price(dec("0.0000001"), side::sell, perp(0, 2)),
            errc::validation_error, "price");
}
