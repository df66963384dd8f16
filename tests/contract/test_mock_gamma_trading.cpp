// Contract tests of mock-gamma's CLOB trading over HTTP (upstreams/gamma.md §4-§6), every
// request signed with the SDK's own gamma signing (ClobAuth, L2 headers, Orders): L1 create and
// derive, each L2 refusal, each order error row with the upstream's text, a BUY that rests and
// a crossing SELL that fills it in books, /data/orders and /data/trades, cancels, batches,
// the control API's accounts, and faults, stats and budgets on the new endpoints.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/signing.hpp>
#include <gateway/sign/hmac.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/decimal.hpp>

#include "support/catch_result.hpp"
#include "support/mock_control.hpp"
#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace mock_gamma_trading_test {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace sg = gateway::sign::gamma;
using gateway::address;
using gateway::decimal;
using gateway::mocks::mock_options;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::sign::private_key;
using gateway::test::fetch;
using gateway::test::raw_response;

/// "Will Bitcoin reach $150,000 in 2026?": tick 0.01, not neg-risk.
constexpr char const* btc_market = "516750";
/// The recorded "Will JD Vance win the 2028 US Presidential Election?" YES token: tick 0.001,
/// neg-risk.
constexpr char const* vance_token =
    "16040015440196279900485035793550429453516625694844857319147506590755961451627";

constexpr std::string_view l2_refused = "Unauthorized/Invalid api key";
constexpr std::string_view l1_refused = "Invalid L1 Request headers";

private_key key_of(char const* hex) {
    auto k = private_key::from_hex(hex);
    REQUIRE(k);
    return *k;
}

// Hardhat's first accounts (public test keys).
private_key const& alice_key() {
    static private_key const k =
        key_of("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    return k;
}
private_key const& bob_key() {
    static private_key const k =
        key_of("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    return k;
}

std::int64_t now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// A trader: a wallet key and, once created, its CLOB credentials.
struct trader {
    private_key key;
    address wallet;
    std::string api_key, secret, passphrase;

    explicit trader(private_key const& k)
        : key(k)
        , wallet(gateway::sign::address_of(k)) {}

    sg::credentials creds() const { return {api_key, secret, passphrase}; }
};

using headers = std::vector<std::pair<std::string, std::string>>;

headers l1_headers(private_key const& key, std::int64_t ts, std::uint64_t nonce,
                   std::string const& claimed = {}) {
    std::string const t = std::to_string(ts);
    return {{"POLY_ADDRESS", claimed.empty() ? gateway::sign::address_of(key).str() : claimed},
            {"POLY_SIGNATURE", sg::sign_clob_auth(key, t, nonce)},
            {"POLY_TIMESTAMP", t},
            {"POLY_NONCE", std::to_string(nonce)}};
}

json::value parse(raw_response const& r) {
    INFO(r.status << " " << r.body);
    return json::parse(r.body);
}

void check_error(raw_response const& r, unsigned status, std::string_view msg) {
    INFO(r.status << " " << r.body);
    CHECK(r.status == status);
    auto const e = json::parse(r.body);
    CHECK(e == json::object{{"error", msg}});
}

struct gamma {
    std::unique_ptr<mock_server> m;
    std::string yes, no, condition;

    explicit gamma(bool rate_limits = true) {
        mock_options o{upstream::gamma};
        o.rate_limits = rate_limits;
        m = mock_server::start(o);
        auto const mk = gateway::test::get_json(*m, std::string("/markets/") + btc_market);
        auto const ids = json::parse(mk.at("clobTokenIds").as_string());
        yes = std::string(ids.at(0).as_string());
        no = std::string(ids.at(1).as_string());
        condition = std::string(mk.at("conditionId").as_string());
        // A pinned mark: the house quotes 0.41 / 0.43 and keeps them.
        gateway::test::set_mark(*m, yes, "0.42");
    }

    std::string url(std::string const& path) const { return m->base_url() + "/clob" + path; }

    /// `POST /auth/api-key` (create) or `GET /auth/derive-api-key`, with fresh L1 headers.
    raw_response l1(bool create, private_key const& key, std::uint64_t nonce = 0) const {
        return fetch(create ? http::verb::post : http::verb::get,
                     url(create ? "/auth/api-key" : "/auth/derive-api-key"), {},
                     l1_headers(key, now_s(), nonce));
    }

    /// Creates `t`'s credentials (nonce 0).
    void login(trader& t) const {
        auto const r = l1(true, t.key);
        REQUIRE(r.status == 200);
        auto const c = parse(r);
        t.api_key = std::string(c.at("apiKey").as_string());
        t.secret = std::string(c.at("secret").as_string());
        t.passphrase = std::string(c.at("passphrase").as_string());
    }

    /// An L2 request signed with the SDK's `l2_headers` (`path` may carry a query).
    raw_response l2(trader const& t, http::verb method, std::string const& path,
                    std::string const& body = {}, std::int64_t ts = 0) const {
        auto const hs = sg::l2_headers(t.creds(), t.wallet, ts ? ts : now_s(),
                                       std::string(http::to_string(method)), path, body);
        REQUIRE(hs);
        headers h;
        for (auto const& x : *hs)
            h.emplace_back(x.name, x.value);
        return fetch(method, url(path), body, h);
    }

    json::value l2_json(trader const& t, http::verb method, std::string const& path,
                        std::string const& body = {}) const {
        auto const r = l2(t, method, path, body);
        INFO(path << " " << body << " -> " << r.status << " " << r.body);
        REQUIRE(r.status == 200);
        return json::parse(r.body);
    }

    void seed(trader const& t, std::string const& balances) const {
        gateway::test::mock_post(*m, "/__mock/accounts",
                                 R"({"address":")" + t.wallet.str() + R"(","balances":)" +
                                     balances + "}");
    }

    json::value account(trader const& t) const {
        return gateway::test::get_json(*m, "/__mock/accounts/" + t.wallet.str());
    }

    std::int64_t calls(std::string const& kind) const {
        return gateway::test::upstream_calls(*m, kind);
    }
};

/// A signed order: the Order, its signature and the `POST /order` body.
struct signed_order {
    sg::order order;
    std::string signature;
    std::string id; ///< the order hash
};

struct order_params {
    std::string token;
    gateway::side side = gateway::side::buy;
    std::string price;
    std::string size;
    std::string tick = "0.01";
    bool neg_risk = false;
    std::uint64_t expiration = 0;
    std::uint64_t fee_rate_bps = 0;
};

signed_order make_order(trader const& t, order_params const& p,
                        private_key const* signer = nullptr) {
    auto const price = decimal::parse(p.price);
    auto const size = decimal::parse(p.size);
    auto const tick = decimal::parse(p.tick);
    REQUIRE((price && size && tick));
    auto const amounts = sg::order_amounts(p.side, *price, *size, *tick);
    REQUIRE(amounts);
    signed_order s;
    s.order.salt = sg::new_salt();
    s.order.maker = t.wallet;
    s.order.signer = t.wallet;
    s.order.token_id = p.token;
    s.order.maker_amount = amounts->maker;
    s.order.taker_amount = amounts->taker;
    s.order.expiration = p.expiration;
    s.order.fee_rate_bps = p.fee_rate_bps;
    s.order.side = p.side == gateway::side::buy ? sg::order_side::buy : sg::order_side::sell;
    auto const exchange = sg::exchange_for(p.neg_risk);
    s.signature = sg::sign_order(s.order, exchange, signer ? *signer : t.key);
    s.id = gateway::sign::to_hex(sg::order_digest(s.order, exchange), true);
    return s;
}

/// Re-signs an order whose fields a test changed.
void resign(signed_order& s, private_key const& key, bool neg_risk = false) {
    auto const exchange = sg::exchange_for(neg_risk);
    s.signature = sg::sign_order(s.order, exchange, key);
    s.id = gateway::sign::to_hex(sg::order_digest(s.order, exchange), true);
}

json::object order_body_object(signed_order const& s, std::string const& owner,
                               std::string const& type = "GTC", bool post_only = false) {
    json::object o;
    o["order"] = sg::order_wire(s.order, s.signature);
    o["owner"] = owner;
    o["orderType"] = type;
    if (post_only)
        o["postOnly"] = true;
    return o;
}

std::string order_body(signed_order const& s, std::string const& owner,
                       std::string const& type = "GTC", bool post_only = false) {
    return json::serialize(order_body_object(s, owner, type, post_only));
}

std::set<std::string> key_set(json::value const& v) {
    std::set<std::string> out;
    for (auto const& kv : v.as_object())
        out.emplace(kv.key());
    return out;
}

std::size_t open_count(gamma const& g, trader const& t) {
    return g.l2_json(t, http::verb::get, "/data/orders").at("data").as_array().size();
}

} // namespace

TEST_CASE("gamma mock trading: L1 creates and derives credentials bound to the address",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    auto const created = g.l1(true, alice.key);
    REQUIRE(created.status == 200);
    auto const c = parse(created);
    CHECK(key_set(c) == std::set<std::string>{"apiKey", "secret", "passphrase"});
    std::string const key(c.at("apiKey").as_string());
    std::string const secret(c.at("secret").as_string());
    std::string const pass(c.at("passphrase").as_string());
    CHECK(std::regex_match(key, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                                           "[0-9a-f]{12}")));
    CHECK(std::regex_match(secret, std::regex("[A-Za-z0-9_-]{43}=")));
    auto const raw = gateway::sign::base64url_decode(secret);
    REQUIRE(raw);
    CHECK(raw->size() == 32);
    CHECK(std::regex_match(pass, std::regex("[0-9a-f]{64}")));

    // The same nonce cannot be created twice; derive answers the same credential.
    check_error(g.l1(true, alice.key), 400, "Could not create api key");
    CHECK(parse(g.l1(false, alice.key)) == c);
    CHECK(parse(g.l1(false, alice.key)) == c);
    // Another nonce: nothing to derive until created, then a different credential.
    check_error(g.l1(false, alice.key, 7), 400, "Could not derive api key!");
    auto const other = parse(g.l1(true, alice.key, 7));
    CHECK(other.at("apiKey") != c.at("apiKey"));
    CHECK(parse(g.l1(false, alice.key, 7)) == other);
    // Another wallet's nonce 0 is its own.
    trader bob(bob_key());
    g.login(bob);
    CHECK(bob.api_key != key);

    SECTION("L1 refusals") {
        // A signature by bob claiming alice's address.
        auto h = l1_headers(bob.key, now_s(), 0, alice.wallet.str());
        check_error(fetch(http::verb::get, g.url("/auth/derive-api-key"), {}, h), 401, l1_refused);
        // Stale and future timestamps.
        check_error(fetch(http::verb::get, g.url("/auth/derive-api-key"), {},
                          l1_headers(alice.key, now_s() - 120, 0)),
                    401, l1_refused);
        check_error(fetch(http::verb::post, g.url("/auth/api-key"), {},
                          l1_headers(alice.key, now_s() + 120, 3)),
                    401, l1_refused);
        // The signature covers the nonce.
        auto n = l1_headers(alice.key, now_s(), 0);
        n[3].second = "1";
        check_error(fetch(http::verb::get, g.url("/auth/derive-api-key"), {}, n), 401, l1_refused);
        // Missing headers.
        auto missing = l1_headers(alice.key, now_s(), 0);
        missing.erase(missing.begin() + 1);
        check_error(fetch(http::verb::get, g.url("/auth/derive-api-key"), {}, missing), 401,
                    l1_refused);
        // Checksummed address (what the TS and Python clients send) is fine.
        auto upper =
            l1_headers(alice.key, now_s(), 0, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        CHECK(fetch(http::verb::get, g.url("/auth/derive-api-key"), {}, upper).status == 200);
    }
    SECTION("L2 key management: list and delete") {
        alice.api_key = key;
        alice.secret = secret;
        alice.passphrase = pass;
        auto const keys = g.l2_json(alice, http::verb::get, "/auth/api-keys");
        CHECK(keys == json::parse(R"({"apiKeys":[")" + key + R"(",")" +
                                  std::string(other.at("apiKey").as_string()) + R"("]})"));
        CHECK(g.l2_json(alice, http::verb::get, "/auth/ban-status/closed-only") ==
              json::parse(R"({"closed_only":false})"));
        auto const del = g.l2(alice, http::verb::delete_, "/auth/api-key");
        CHECK(del.status == 200);
        CHECK(del.body == "\"OK\"");
        check_error(g.l2(alice, http::verb::get, "/auth/api-keys"), 401, l2_refused);
        // Its nonce is free again.
        CHECK(g.l1(true, alice.key).status == 200);
    }
    CHECK(g.calls("POST /clob/auth/api-key") >= 4);
    CHECK(g.calls("GET /clob/auth/derive-api-key") >= 4);
}

TEST_CASE("gamma mock trading: every L2 refusal answers 401 Unauthorized/Invalid api key",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    trader bob(bob_key());
    g.login(alice);
    g.login(bob);
    g.seed(alice, R"({"USDC":"100"})");
    auto const order = make_order(alice, {g.yes, gateway::side::buy, "0.3", "10"});
    std::string const body = order_body(order, alice.api_key);

    auto const post = [&](trader const& t, std::int64_t ts = 0) {
        return g.l2(t, http::verb::post, "/order", body, ts);
    };
    SECTION("wrong passphrase") {
        trader t(alice_key());
        t.api_key = alice.api_key;
        t.secret = alice.secret;
        t.passphrase = bob.passphrase;
        check_error(post(t), 401, l2_refused);
    }
    SECTION("wrong secret") {
        trader t(alice_key());
        t.api_key = alice.api_key;
        t.secret = bob.secret;
        t.passphrase = alice.passphrase;
        check_error(post(t), 401, l2_refused);
    }
    SECTION("unknown key") {
        trader t(alice_key());
        t.api_key = "00000000-0000-4000-8000-000000000000";
        t.secret = alice.secret;
        t.passphrase = alice.passphrase;
        check_error(post(t), 401, l2_refused);
    }
    SECTION("stale and future timestamps, 60 s either way") {
        check_error(post(alice, now_s() - 90), 401, l2_refused);
        check_error(post(alice, now_s() + 90), 401, l2_refused);
    }
    SECTION("another wallet's address with this key") {
        trader t(bob_key()); // POLY_ADDRESS bob, credentials alice's
        t.api_key = alice.api_key;
        t.secret = alice.secret;
        t.passphrase = alice.passphrase;
        check_error(post(t), 401, l2_refused);
    }
    SECTION("a body changed after signing") {
        auto const hs =
            sg::l2_headers(alice.creds(), alice.wallet, now_s(), "POST", "/order", body);
        REQUIRE(hs);
        headers h;
        for (auto const& x : *hs)
            h.emplace_back(x.name, x.value);
        auto changed = order_body_object(order, alice.api_key);
        changed["orderType"] = "FOK";
        check_error(fetch(http::verb::post, g.url("/order"), json::serialize(changed), h), 401,
                    l2_refused);
        // The signed path is the path: a query does not change it, another path does.
        auto const q = sg::l2_headers(alice.creds(), alice.wallet, now_s(), "GET", "/data/trades");
        REQUIRE(q);
        headers hq;
        for (auto const& x : *q)
            hq.emplace_back(x.name, x.value);
        CHECK(fetch(http::verb::get, g.url("/data/trades?next_cursor=MA=="), {}, hq).status == 200);
        check_error(fetch(http::verb::get, g.url("/data/orders"), {}, hq), 401, l2_refused);
    }
    SECTION("missing headers") {
        check_error(fetch(http::verb::post, g.url("/order"), body), 401, l2_refused);
        check_error(fetch(http::verb::get, g.url("/data/orders")), 401, l2_refused);
    }
    // Nothing refused reached the book or the account.
    CHECK(open_count(g, alice) == 0);
    CHECK(g.account(alice).at("locked").at("USDC") == "0");
    // The same request, properly signed, is accepted.
    auto const ok = post(alice);
    CHECK(ok.status == 200);
    CHECK(parse(ok).at("orderID").as_string() == order.id);
}

TEST_CASE("gamma mock trading: the Python and Rust clients' quote rewrite of the body verifies",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    g.login(alice);
    std::string const sent = R"({"market":"it's","asset_id":"1"})";
    std::string const signed_text = R"({"market":"it"s","asset_id":"1"})";
    auto const sig = gateway::sign::build_l2_signature(
        alice.secret, std::to_string(now_s()), "DELETE", "/cancel-market-orders", signed_text);
    REQUIRE(sig);
    headers h{{"POLY_ADDRESS", alice.wallet.str()},
              {"POLY_SIGNATURE", *sig},
              {"POLY_TIMESTAMP", std::to_string(now_s())},
              {"POLY_API_KEY", alice.api_key},
              {"POLY_PASSPHRASE", alice.passphrase}};
    auto const r = fetch(http::verb::delete_, g.url("/cancel-market-orders"), sent, h);
    CHECK(r.status == 200);
    CHECK(parse(r) == json::parse(R"({"canceled":[],"not_canceled":{}})"));
    // The raw bytes verify too.
    CHECK(g.l2(alice, http::verb::delete_, "/cancel-market-orders", sent).status == 200);
}

TEST_CASE("gamma mock trading: a BUY rests, a crossing SELL fills it, both in orders and trades",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    trader bob(bob_key());
    g.login(alice);
    g.login(bob);
    g.seed(alice, R"({"USDC":"100"})");
    g.seed(bob, R"({")" + g.yes + R"(":"50"})");

    // alice bids 10 at 0.42, between the house's 0.41 and 0.43: it rests.
    auto const buy = make_order(alice, {g.yes, gateway::side::buy, "0.42", "10"});
    auto const placed =
        g.l2_json(alice, http::verb::post, "/order", order_body(buy, alice.api_key));
    CHECK(placed == json::parse(R"({"success":true,"errorMsg":"","orderID":")" + buy.id +
                                R"(","transactionsHashes":[],"status":"live","takingAmount":"",)"
                                R"("makingAmount":""})"));
    auto const book = gateway::test::get_json(*g.m, "/clob/book?token_id=" + g.yes);
    CHECK(book.at("bids").as_array().back() == json::parse(R"({"price":"0.42","size":"10"})"));
    CHECK(book.at("asks").as_array().back().at("price") == "0.43");
    CHECK(gateway::test::get_json(*g.m, "/clob/price?token_id=" + g.yes + "&side=BUY") ==
          json::parse(R"({"price":"0.42"})"));
    CHECK(gateway::test::get_json(*g.m, "/clob/midpoint?token_id=" + g.yes) ==
          json::parse(R"({"mid":"0.425"})"));

    auto const open = g.l2_json(alice, http::verb::get, "/data/orders");
    CHECK(open.at("next_cursor") == "LTE=");
    CHECK(open.at("count") == 1);
    REQUIRE(open.at("data").as_array().size() == 1);
    auto const& o = open.at("data").at(0);
    CHECK(o == json::parse(R"({"id":")" + buy.id + R"(","status":"LIVE","owner":")" +
                           alice.api_key + R"(","maker_address":")" + alice.wallet.str() +
                           R"(","market":")" + g.condition + R"(","asset_id":")" + g.yes +
                           R"(","side":"BUY","original_size":"10","size_matched":"0",)"
                           R"("price":"0.42","associate_trades":[],"outcome":"Yes","created_at":)" +
                           std::to_string(o.at("created_at").as_int64()) +
                           R"(,"expiration":"0","order_type":"GTC"})"));
    CHECK(std::abs(o.at("created_at").as_int64() - now_s()) <= 5);
    CHECK(g.account(alice).at("locked").at("USDC") == "4.2");

    // bob sells 10 at 0.42: it fills alice's bid (the best, above the house's 0.41).
    auto const sell = make_order(bob, {g.yes, gateway::side::sell, "0.42", "10"});
    auto const filled = g.l2_json(bob, http::verb::post, "/order", order_body(sell, bob.api_key));
    CHECK(filled.at("success") == true);
    CHECK(filled.at("status") == "matched");
    CHECK(filled.at("orderID").as_string() == sell.id);
    CHECK(filled.at("makingAmount") == "10");
    CHECK(filled.at("takingAmount") == "4.2");
    REQUIRE(filled.at("transactionsHashes").as_array().size() == 1);
    std::string const tx(filled.at("transactionsHashes").at(0).as_string());
    CHECK(std::regex_match(tx, std::regex("0x[0-9a-f]{64}")));

    CHECK(g.l2_json(alice, http::verb::get, "/data/orders").at("data").as_array().empty());
    auto const done = g.l2_json(alice, http::verb::get, "/data/order/" + buy.id);
    CHECK(done.at("status") == "MATCHED");
    CHECK(done.at("size_matched") == "10");
    REQUIRE(done.at("associate_trades").as_array().size() == 1);
    std::string const trade_id(done.at("associate_trades").at(0).as_string());

    auto const at = g.l2_json(alice, http::verb::get, "/data/trades");
    CHECK(at.at("next_cursor") == "LTE=");
    REQUIRE(at.at("data").as_array().size() == 1);
    auto const& mt = at.at("data").at(0);
    auto const bt = g.l2_json(bob, http::verb::get, "/data/trades?asset_id=" + g.yes);
    REQUIRE(bt.at("data").as_array().size() == 1);
    auto const& tt = bt.at("data").at(0);
    json::value const expected = json::parse(
        R"({"id":")" + trade_id + R"(","taker_order_id":")" + sell.id + R"(","market":")" +
        g.condition + R"(","asset_id":")" + g.yes +
        R"(","side":"SELL","size":"10","fee_rate_bps":"0","price":"0.42","status":"CONFIRMED",)"
        R"("match_time":")" +
        std::string(tt.at("match_time").as_string()) + R"(","last_update":")" +
        std::string(tt.at("match_time").as_string()) +
        R"(","outcome":"Yes","bucket_index":0,"owner":")" + bob.api_key + R"(","maker_address":")" +
        bob.wallet.str() + R"(","transaction_hash":")" + tx +
        R"(","trader_side":"TAKER","maker_orders":[{"order_id":")" + buy.id + R"(","owner":")" +
        alice.api_key + R"(","maker_address":")" + alice.wallet.str() +
        R"(","matched_amount":"10","price":"0.42","fee_rate_bps":"0","asset_id":")" + g.yes +
        R"(","outcome":"Yes","side":"BUY"}]})");
    CHECK(tt == expected);
    auto maker_view = expected;
    maker_view.as_object()["trader_side"] = "MAKER";
    CHECK(mt == maker_view);
    // Filters and the trade's own id.
    CHECK(g.l2_json(alice, http::verb::get, "/data/trades?id=" + trade_id)
              .at("data")
              .as_array()
              .size() == 1);
    CHECK(g.l2_json(alice, http::verb::get, "/data/trades?asset_id=" + g.no)
              .at("data")
              .as_array()
              .empty());
    CHECK(g.l2_json(alice, http::verb::get, "/data/trades?market=" + g.condition)
              .at("data")
              .as_array()
              .size() == 1);
    CHECK(g.l2_json(alice, http::verb::get, "/data/trades?after=" + std::to_string(now_s() + 100))
              .at("data")
              .as_array()
              .empty());

    // Balances moved: alice paid 4.2 for 10 shares, bob the other way.
    CHECK(g.account(alice) ==
          json::parse(R"({"address":")" + alice.wallet.str() + R"(","balances":{"USDC":"95.8",")" +
                      g.yes + R"(":"10"},"locked":{"USDC":"0",")" + g.yes +
                      R"(":"0"},"openOrders":0})"));
    CHECK(g.account(bob).at("balances") ==
          json::parse(R"({"USDC":"4.2",")" + g.yes + R"(":"40"})"));
    // The tape shows the trade; the book lost alice's bid.
    CHECK(gateway::test::get_json(*g.m, "/clob/last-trade-price?token_id=" + g.yes) ==
          json::parse(R"({"price":"0.42","side":"SELL"})"));
    CHECK(gateway::test::get_json(*g.m, "/clob/book?token_id=" + g.yes)
              .at("bids")
              .as_array()
              .back()
              .at("price") == "0.41");
    // Unknown and foreign orders.
    check_error(g.l2(bob, http::verb::get, "/data/order/" + buy.id), 404, "order not found");
    check_error(g.l2(bob, http::verb::get, "/data/order/0x12"), 400, "Invalid orderID");
}

TEST_CASE("gamma mock trading: a BUY that crosses the house fills at the house's prices",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    g.login(alice);
    g.seed(alice, R"({"USDC":"1000"})");
    auto const book = gateway::test::get_json(*g.m, "/clob/book?token_id=" + g.yes);
    auto const best = book.at("asks").as_array().back();
    auto const size = decimal::parse(best.at("size").as_string());
    REQUIRE(size);
    auto const buy = make_order(
        alice, {g.yes, gateway::side::buy, "0.43", std::string(best.at("size").as_string())});
    auto const r =
        g.l2_json(alice, http::verb::post, "/order", order_body(buy, alice.api_key, "FOK"));
    CHECK(r.at("status") == "matched");
    CHECK(r.at("takingAmount") == best.at("size"));
    auto const t = g.l2_json(alice, http::verb::get, "/data/trades").at("data").at(0);
    CHECK(t.at("trader_side") == "TAKER");
    CHECK(t.at("maker_orders").at(0).at("maker_address") ==
          "0x0000000000000000000000000000000000000b0b");
    CHECK(t.at("maker_orders").at(0).at("owner") == "00000000-0000-0000-0000-000000000000");
    CHECK(t.at("price") == "0.43");
}

TEST_CASE("gamma mock trading: every order error row answers the upstream's text",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    trader bob(bob_key());
    g.login(alice);
    g.login(bob);
    g.seed(alice, R"({"USDC":"20"})");
    auto const post = [&](std::string const& body) {
        return g.l2(alice, http::verb::post, "/order", body);
    };
    auto const buy = [&](char const* price, char const* size) {
        return make_order(alice, {g.yes, gateway::side::buy, price, size});
    };

    SECTION("off the tick: a price changed after signing, re-signed") {
        auto o = buy("0.3", "10");
        o.order.maker_amount = 3'050'000; // 0.305 a share
        resign(o, alice.key);
        check_error(post(order_body(o, alice.api_key)), 400,
                    "order " + o.id +
                        " is invalid. Price (0.305) breaks minimum tick size "
                        "rule: 0.01");
    }
    SECTION("a price changed after signing, not re-signed: the signature no longer recovers") {
        auto o = buy("0.3", "10");
        o.order.maker_amount = 3'100'000;
        check_error(post(order_body(o, alice.api_key)), 400, "invalid signature");
    }
    SECTION("a size changed after signing") {
        auto o = buy("0.3", "10");
        o.order.taker_amount = 20'000'000;
        check_error(post(order_body(o, alice.api_key)), 400, "invalid signature");
    }
    SECTION("below the minimum size") {
        auto const o = buy("0.3", "4");
        check_error(post(order_body(o, alice.api_key)), 400,
                    "order " + o.id + " is invalid. Size (4) lower than the minimum: 5");
    }
    SECTION("amount precision") {
        auto o = buy("0.3", "10");
        o.order.taker_amount = 10'001'000;
        o.order.maker_amount = 3'000'300;
        resign(o, alice.key);
        check_error(post(order_body(o, alice.api_key)), 400,
                    "invalid amounts, the buy orders maker amount supports a max accuracy of 4 "
                    "decimals, taker amount a max of 2 decimals");
    }
    SECTION("a duplicate") {
        auto const o = buy("0.3", "10");
        CHECK(post(order_body(o, alice.api_key)).status == 200);
        check_error(post(order_body(o, alice.api_key)), 400,
                    "order " + o.id + " is invalid. Duplicated.");
    }
    SECTION("GTD expiring too soon") {
        auto const o = make_order(alice, {g.yes, gateway::side::buy, "0.3", "10", "0.01", false,
                                          static_cast<std::uint64_t>(now_s() + 30)});
        check_error(post(order_body(o, alice.api_key, "GTD")), 400, "invalid expiration");
        auto const later = make_order(alice, {g.yes, gateway::side::buy, "0.3", "10", "0.01", false,
                                              static_cast<std::uint64_t>(now_s() + 600)});
        CHECK(post(order_body(later, alice.api_key, "GTD")).status == 200);
    }
    SECTION("not enough balance, and no shares to sell") {
        check_error(post(order_body(buy("0.3", "100"), alice.api_key)), 400,
                    "not enough balance / allowance");
        auto const sell = make_order(alice, {g.yes, gateway::side::sell, "0.6", "10"});
        check_error(post(order_body(sell, alice.api_key)), 400, "not enough balance / allowance");
    }
    SECTION("post-only crossing the book") {
        check_error(post(order_body(buy("0.43", "10"), alice.api_key, "GTC", true)), 400,
                    "invalid post-only order: order crosses book");
        CHECK(post(order_body(buy("0.41", "10"), alice.api_key, "GTC", true)).status == 200);
    }
    SECTION("FOK that cannot fill") {
        check_error(post(order_body(buy("0.3", "10"), alice.api_key, "FOK")), 400,
                    "order couldn't be fully filled. FOK orders are fully filled or killed.");
    }
    SECTION("FAK with nothing to match") {
        check_error(post(order_body(buy("0.3", "10"), alice.api_key, "FAK")), 400,
                    "no orders found to match with FAK order. FAK orders are partially filled "
                    "or killed if no match is found.");
    }
    SECTION("owner is not the calling key") {
        check_error(post(order_body(buy("0.3", "10"), bob.api_key)), 400,
                    "the order owner has to be the owner of the API KEY");
    }
    SECTION("another wallet's order on this key") {
        auto const o = make_order(bob, {g.yes, gateway::side::buy, "0.3", "10"});
        check_error(post(order_body(o, alice.api_key)), 400,
                    "the order owner has to be the owner of the API KEY");
    }
    SECTION("signer is not the key's address") {
        auto o = buy("0.3", "10");
        o.order.signer = bob.wallet;
        resign(o, bob.key);
        check_error(post(order_body(o, alice.api_key)), 400,
                    "the order signer address has to be the address of the API KEY");
    }
    SECTION("signed by another key") {
        auto o = buy("0.3", "10");
        resign(o, bob.key);
        check_error(post(order_body(o, alice.api_key)), 400, "invalid signature");
    }
    SECTION("signed for the wrong exchange (neg-risk) of a normal market") {
        auto const o = make_order(alice, {g.yes, gateway::side::buy, "0.3", "10", "0.01", true});
        check_error(post(order_body(o, alice.api_key)), 400, "invalid signature");
    }
    SECTION("signature types 1 and 2 (proxy wallets) are not emulated") {
        auto o = buy("0.3", "10");
        o.order.signature_type = 2;
        resign(o, alice.key);
        check_error(post(order_body(o, alice.api_key)), 400, "invalid signature");
    }
    SECTION("unknown token") {
        auto const o = make_order(alice, {"12345", gateway::side::buy, "0.3", "10"});
        check_error(post(order_body(o, alice.api_key)), 400, "Invalid token id");
    }
    SECTION("malformed payloads") {
        check_error(post("{"), 400, "Invalid order payload");
        check_error(post("[]"), 400, "Invalid order payload");
        auto body = order_body_object(buy("0.3", "10"), alice.api_key);
        body["orderType"] = "IOC";
        check_error(post(json::serialize(body)), 400, "Invalid order payload");
        body["orderType"] = "GTC";
        body["order"].as_object().erase("signature");
        check_error(post(json::serialize(body)), 400, "Invalid order payload");
    }
    // Nothing refused rests or locks anything; at most the one accepted order of a section.
    CHECK(open_count(g, alice) <= 1);
    auto const acct = g.account(alice);
    CHECK(acct.at("balances").at("USDC") == "20");
}

TEST_CASE("gamma mock trading: a neg-risk token's orders sign for the Neg-Risk CTF Exchange",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    g.login(alice);
    g.seed(alice, R"({"USDC":"100"})");
    gateway::test::set_mark(*g.m, vance_token, "0.152");
    auto const wrong = make_order(alice, {vance_token, gateway::side::buy, "0.15", "10", "0.001"});
    check_error(g.l2(alice, http::verb::post, "/order", order_body(wrong, alice.api_key)), 400,
                "invalid signature");
    auto const right =
        make_order(alice, {vance_token, gateway::side::buy, "0.15", "10", "0.001", true});
    auto const r = g.l2_json(alice, http::verb::post, "/order", order_body(right, alice.api_key));
    CHECK(r.at("status") == "live");
    CHECK(r.at("orderID").as_string() == right.id);
    // Tick 0.001: prices with 3 decimals are on the grid, amounts with 5 decimals.
    auto const fine =
        make_order(alice, {vance_token, gateway::side::buy, "0.152", "10.5", "0.001", true});
    CHECK(g.l2(alice, http::verb::post, "/order", order_body(fine, alice.api_key)).status == 200);
    auto const b = gateway::test::get_json(*g.m, "/clob/book?token_id=" + std::string(vance_token));
    CHECK(b.at("bids").as_array().back() == json::parse(R"({"price":"0.152","size":"10.5"})"));
}

TEST_CASE("gamma mock trading: cancels by id, by list, by market and all",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    trader bob(bob_key());
    g.login(alice);
    g.login(bob);
    g.seed(alice, R"({"USDC":"1000"})");
    std::vector<std::string> ids;
    for (char const* px : {"0.30", "0.31", "0.32", "0.33", "0.34"}) {
        auto const o = make_order(alice, {g.yes, gateway::side::buy, px, "10"});
        CHECK(g.l2(alice, http::verb::post, "/order", order_body(o, alice.api_key)).status == 200);
        ids.push_back(o.id);
    }
    auto const no_order = make_order(alice, {g.no, gateway::side::buy, "0.2", "10"});
    CHECK(g.l2(alice, http::verb::post, "/order", order_body(no_order, alice.api_key)).status ==
          200);
    CHECK(open_count(g, alice) == 6);
    CHECK(g.account(alice).at("locked").at("USDC") == "18");

    // orderID (TS, Python) and orderId (Rust).
    CHECK(g.l2_json(alice, http::verb::delete_, "/order", R"({"orderID":")" + ids[0] + R"("})") ==
          json::parse(R"({"canceled":[")" + ids[0] + R"("],"not_canceled":{}})"));
    CHECK(g.l2_json(alice, http::verb::delete_, "/order", R"({"orderId":")" + ids[1] + R"("})") ==
          json::parse(R"({"canceled":[")" + ids[1] + R"("],"not_canceled":{}})"));
    // Again: already canceled; bob cannot see it; an unknown id.
    CHECK(g.l2_json(alice, http::verb::delete_, "/order", R"({"orderID":")" + ids[0] + R"("})") ==
          json::parse(R"({"canceled":[],"not_canceled":{")" + ids[0] +
                      R"(":"the order is already canceled"}})"));
    CHECK(g.l2_json(bob, http::verb::delete_, "/order", R"({"orderID":")" + ids[2] + R"("})") ==
          json::parse(R"({"canceled":[],"not_canceled":{")" + ids[2] +
                      R"(":"order can't be found - already canceled or matched"}})"));
    check_error(g.l2(alice, http::verb::delete_, "/order", R"({"orderID":"0x1234"})"), 400,
                "Invalid orderID");
    check_error(g.l2(alice, http::verb::delete_, "/order", R"({"id":"x"})"), 400,
                "Invalid order payload");

    // A list, the market's orders of one token, then all.
    CHECK(g.l2_json(alice, http::verb::delete_, "/orders", R"([")" + ids[2] + R"("])") ==
          json::parse(R"({"canceled":[")" + ids[2] + R"("],"not_canceled":{}})"));
    auto const by_market =
        g.l2_json(alice, http::verb::delete_, "/cancel-market-orders",
                  R"({"market":")" + g.condition + R"(","asset_id":")" + g.yes + R"("})");
    CHECK(by_market.at("canceled").as_array().size() == 2);
    CHECK(open_count(g, alice) == 1);
    auto const all = g.l2_json(alice, http::verb::delete_, "/cancel-all");
    CHECK(all == json::parse(R"({"canceled":[")" + no_order.id + R"("],"not_canceled":{}})"));
    CHECK(open_count(g, alice) == 0);
    CHECK(g.account(alice).at("locked").at("USDC") == "0");
    CHECK(g.l2_json(alice, http::verb::get, "/data/order/" + ids[3]).at("status") == "CANCELED");
    CHECK(g.calls("DELETE /clob/order") == 6);
    CHECK(g.calls("DELETE /clob/orders") == 1);
    CHECK(g.calls("DELETE /clob/cancel-market-orders") == 1);
    CHECK(g.calls("DELETE /clob/cancel-all") == 1);
}

TEST_CASE("gamma mock trading: POST /orders takes up to 15 and answers each",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    g.login(alice);
    g.seed(alice, R"({"USDC":"1000"})");
    auto const a = make_order(alice, {g.yes, gateway::side::buy, "0.3", "10"});
    auto const b = make_order(alice, {g.yes, gateway::side::buy, "0.3", "4"});
    auto const c = make_order(alice, {g.yes, gateway::side::buy, "0.43", "5"});
    json::array batch{order_body_object(a, alice.api_key), order_body_object(b, alice.api_key),
                      order_body_object(c, alice.api_key, "FOK")};
    auto const r = g.l2_json(alice, http::verb::post, "/orders", json::serialize(batch));
    REQUIRE(r.as_array().size() == 3);
    CHECK(r.at(0).at("success") == true);
    CHECK(r.at(0).at("status") == "live");
    CHECK(r.at(0).at("orderID").as_string() == a.id);
    CHECK(r.at(1) == json::parse(R"({"success":false,"errorMsg":"order )" + b.id +
                                 R"( is invalid. Size (4) lower than the minimum: 5",)"
                                 R"("orderID":"","transactionsHashes":[],"status":"",)"
                                 R"("takingAmount":"","makingAmount":""})"));
    CHECK(r.at(2).at("status") == "matched");
    CHECK(r.at(2).at("takingAmount") == "5");
    CHECK(r.at(2).at("makingAmount") == "2.15");

    json::array big;
    for (int i = 0; i < 16; ++i)
        big.push_back(order_body_object(a, alice.api_key));
    check_error(g.l2(alice, http::verb::post, "/orders", json::serialize(big)), 400,
                "Too many orders in payload: 16, max allowed: 15");
    CHECK(g.calls("POST /clob/orders") == 2);
}

TEST_CASE("gamma mock trading: /data/orders pages by 100 with next_cursor",
          "[contract][mock][gamma]") {
    gamma g(false);
    trader alice(alice_key());
    g.login(alice);
    g.seed(alice, R"({"USDC":"1000"})");
    json::array batch;
    std::size_t placed = 0;
    auto const flush = [&] {
        auto const r = g.l2_json(alice, http::verb::post, "/orders", json::serialize(batch));
        for (auto const& x : r.as_array())
            placed += x.at("success") == true ? 1 : 0;
        batch.clear();
    };
    for (int i = 0; i < 101; ++i) {
        batch.push_back(order_body_object(
            make_order(alice, {g.yes, gateway::side::buy, "0.01", "5"}), alice.api_key));
        if (batch.size() == 15)
            flush();
    }
    flush();
    REQUIRE(placed == 101);
    auto const first = g.l2_json(alice, http::verb::get, "/data/orders");
    CHECK(first.at("data").as_array().size() == 100);
    CHECK(first.at("count") == 100);
    CHECK(first.at("limit") == 100);
    CHECK(first.at("next_cursor") == "MTAw"); // base64 "100"
    auto const second = g.l2_json(alice, http::verb::get, "/data/orders?next_cursor=MTAw");
    CHECK(second.at("data").as_array().size() == 1);
    CHECK(second.at("next_cursor") == "LTE=");
    check_error(g.l2(alice, http::verb::get, "/data/orders?next_cursor=%25%25"), 400,
                "invalid order params payload");
}

TEST_CASE("gamma mock trading: /__mock/accounts credits USDC and tokens, refusing bad bodies",
          "[contract][mock][gamma]") {
    gamma g;
    gateway::test::reset_stats(*g.m);
    auto const post = [&](std::string const& body) {
        return fetch(http::verb::post, g.m->base_url() + "/__mock/accounts", body);
    };
    std::string const addr = "0x00000000000000000000000000000000000000A1";
    auto const r = post(R"({"address":")" + addr + R"(","balances":{"USDC":"1000.5",")" + g.yes +
                        R"(":"7"}})");
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body) ==
          json::parse(R"({"address":"0x00000000000000000000000000000000000000a1","balances":{)"
                      R"("USDC":"1000.5",")" +
                      g.yes + R"(":"7"},"locked":{"USDC":"0",")" + g.yes +
                      R"(":"0"},"openOrders":0})"));
    // Credits add up.
    post(R"({"address":")" + addr + R"(","balances":{"USDC":"0.5"}})");
    CHECK(gateway::test::get_json(*g.m, "/__mock/accounts/" + addr).at("balances").at("USDC") ==
          "1001");
    for (
        auto const* bad :
        {R"({"address":"0x12","balances":{"USDC":"1"}})",
         R"({"address":"0x00000000000000000000000000000000000000a1","balances":{"BTC":"1"}})",
         R"({"address":"0x00000000000000000000000000000000000000a1","balances":{"USDC":1}})",
         R"({"address":"0x00000000000000000000000000000000000000a1","balances":{"USDC":"0.0000001"}})",
         R"({"address":"0x00000000000000000000000000000000000000a1","balances":[]})",
         R"({"address":"0x00000000000000000000000000000000000000a1","extra":1})", "[]"}) {
        INFO(bad);
        auto const e = post(bad);
        CHECK(e.status == 400);
        CHECK(json::parse(e.body).at("error").is_string());
    }
    CHECK(fetch(http::verb::get, g.m->base_url() + "/__mock/accounts/0x" + std::string(40, 'f'))
              .status == 404);
    CHECK(fetch(http::verb::delete_, g.m->base_url() + "/__mock/accounts").status == 405);
    // Control calls are not upstream requests.
    CHECK(gateway::test::mock_stats(*g.m).at("byKind").as_object().empty());
}

TEST_CASE("gamma mock trading: faults, stats and budgets apply to the trading endpoints",
          "[contract][mock][gamma]") {
    gamma g;
    trader alice(alice_key());
    g.login(alice);
    g.seed(alice, R"({"USDC":"100"})");
    gateway::test::reset_stats(*g.m);
    auto const o = make_order(alice, {g.yes, gateway::side::buy, "0.3", "10"});
    std::string const body = order_body(o, alice.api_key);

    gateway::test::mock_post(*g.m, "/__mock/faults", R"({"status":503})");
    check_error(g.l2(alice, http::verb::post, "/order", body), 503, "Service Unavailable");
    gateway::test::mock_post(*g.m, "/__mock/faults", R"({"drop":true})");
    CHECK_THROWS_AS(g.l2(alice, http::verb::post, "/order", body), std::runtime_error);
    REQUIRE(fetch(http::verb::delete_, g.m->base_url() + "/__mock/faults").status == 200);
    CHECK(open_count(g, alice) == 0); // neither reached the engine
    CHECK(g.l2(alice, http::verb::post, "/order", body).status == 200);
    CHECK(gateway::test::mock_stats(*g.m).at("byKind") ==
          json::parse(R"({"POST /clob/order":3,"GET /clob/data/orders":1})"));

    // DELETE /cancel-all: 250 per 10 s (gamma.md §6), then 429 in the CLOB's shape.
    for (int i = 0; i < 250; ++i)
        REQUIRE(g.l2(alice, http::verb::delete_, "/cancel-all").status == 200);
    auto const over = g.l2(alice, http::verb::delete_, "/cancel-all");
    check_error(over, 429, "Too Many Requests");
    CHECK(!over.message[http::field::retry_after].empty());
    // Other endpoints keep their own budgets.
    CHECK(g.l2(alice, http::verb::get, "/data/orders").status == 200);
}

} // namespace mock_gamma_trading_test
