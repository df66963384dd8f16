// Provider gamma's trading through the SDK signer -> SDK client -> gatewayd -> mock-gamma's CLOB,
// offline (spec 2.10, 3, 4.6, 5.2, 7; CONTRACT §2, §4, §5, §6, §6.3, §10). Every wallet derives
// its CLOB credentials from mock-gamma's L1 endpoint as a Polymarket client does, is funded
// through its control API, and trades a token whose mark is pinned (the house liquidity stops
// moving). What the gateway refuses before any upstream call (fields, tick and size rules, an
// unknown token, a signature that is not the wallet's) adds no order request on mock-gamma's
// /__mock/stats; neither do credentials the CLOB refuses (an L2 check before the order) nor a FOK
// its book cannot fill (the book read fresh); what only matching can refuse (the balance) is sent
// once and rests nothing; the credentials never reach a log line, an answer or a file.
#include <catch2/catch.hpp>

#include "log.hpp"
#include "support/catch_result.hpp"
#include "support/fetch.hpp"
#include "support/mock_control.hpp"
#include "support/test_gateway.hpp"
#include "support/trading.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/providers/gamma.hpp>
#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/signing.hpp>
#include <gateway/sign/eip712.hpp>
#include <gateway/util/hex.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace gamma_trading_test {

using namespace gateway;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;
namespace sg = gateway::sign::gamma;
namespace w = gateway::wire::gamma;

namespace {

/// CLOB order requests mock-gamma has seen (place and cancel, single and batch).
std::int64_t order_requests(mocks::mock_server& m) {
    std::int64_t n = 0;
    for (auto const* kind :
         {"POST /clob/order", "DELETE /clob/order", "POST /clob/orders", "DELETE /clob/orders"})
        n += upstream_calls(m, kind);
    return n;
}

/// The plain values of a credential triple (to tamper with, and to grep for).
struct clob_key {
    std::string api_key, secret, passphrase;

    sg::credentials make() const { return {api_key, secret, passphrase}; }
};

/// A wallet: its key, its signer and its CLOB credentials (derived through mock-gamma's L1
/// endpoint).
struct trader {
    explicit trader(char const* hex)
        : key_hex(hex) {}

    char const* key_hex;
    sg::signer signer{key(key_hex)};
    clob_key creds;

    std::string address() const { return signer.address().str(); }
};

/// `POST {clob}/auth/api-key` with the ClobAuth headers of `key` (gamma.md §4.1).
clob_key create_api_key(mocks::mock_server& m, sign::private_key const& key) {
    auto const ts = std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
    auto r = fetch(verb::post, m.base_url() + "/clob" + std::string(w::create_api_key_path), "",
                   {{std::string(w::l1_address_header), sign::address_of(key).str()},
                    {std::string(w::l1_signature_header), sg::sign_clob_auth(key, ts, 0)},
                    {std::string(w::l1_timestamp_header), ts},
                    {std::string(w::l1_nonce_header), "0"}});
    INFO(r.body);
    REQUIRE(r.status == 200);
    auto const body = json::parse(r.body);
    return {std::string(body.at("apiKey").as_string()), std::string(body.at("secret").as_string()),
            std::string(body.at("passphrase").as_string())};
}

/// A token's book on mock-gamma's CLOB, as the upstream sends it.
struct clob_book {
    decimal tick, best_bid, best_ask, min_size;
    bool neg_risk = false;
};

clob_book book_of(mocks::mock_server& m, std::string const& token) {
    auto r = fetch(verb::get, m.base_url() + "/clob/book?token_id=" + token);
    REQUIRE(r.status == 200);
    auto const b = json::parse(r.body);
    clob_book out;
    out.tick = decimal::parse(b.at("tick_size").as_string()).value();
    out.min_size = decimal::parse(b.at("min_order_size").as_string()).value();
    out.neg_risk = b.at("neg_risk").as_bool();
    // Bids ascending, asks descending: the best are last (gamma.md §3.2).
    auto const& bids = b.at("bids").as_array();
    auto const& asks = b.at("asks").as_array();
    REQUIRE_FALSE(bids.empty());
    REQUIRE_FALSE(asks.empty());
    out.best_bid = decimal::parse_lenient(bids.back().at("price").as_string()).value();
    out.best_ask = decimal::parse_lenient(asks.back().at("price").as_string()).value();
    return out;
}

decimal plus(decimal const& a, decimal const& b) {
    return exact_add(a, b).value();
}

/// A gateway and mock-gamma, an API key, three funded wallets with CLOB credentials, and an
/// active token with a pinned mark and a free price between the house's best bid and ask.
struct trading {
    test_gateway gw;
    std::string api_key = gw.create_key();
    client c = gw.client_with(api_key);
    trader alice{wallet_key};
    trader bob{agent_key};
    trader carol{stranger_key};
    std::string token;
    clob_book book;
    sg::token_rules rules;
    decimal free_price; ///< one tick above the house's best bid, below its best ask

    explicit trading(test_gateway::tweak adjust = {})
        : gw(std::move(adjust)) {
        pick_token();
        for (auto* t : {&alice, &bob, &carol}) {
            t->creds = create_api_key(*gw.gamma, key(t->key_hex));
            mock_post(*gw.gamma, "/__mock/accounts",
                      R"({"address":")" + t->address() + R"(","balances":{"USDC":"1000",")" +
                          token + R"(":"100"}})");
        }
        reset_stats(*gw.gamma);
    }

    /// The first active token whose pinned book leaves a free tick inside the spread.
    void pick_token() {
        markets_params p;
        p.status = market_status::active;
        p.limit = 50;
        auto markets = c.prediction_markets("gamma", p);
        REQUIRE(markets);
        for (auto const& m : *markets)
            for (auto const& t : m.tokens) {
                if (fetch(verb::get, gw.gamma->base_url() + "/clob/book?token_id=" + t.token_id)
                        .status != 200)
                    continue;
                set_mark(*gw.gamma, t.token_id, "0.5");
                auto const b = book_of(*gw.gamma, t.token_id);
                auto const inside = plus(b.best_bid, b.tick);
                if (!(inside < b.best_ask))
                    continue;
                token = t.token_id;
                book = b;
                free_price = inside;
                rules = {b.tick, b.neg_risk, b.min_size};
                return;
            }
        FAIL("no active gamma token with a free tick inside its spread");
    }

    /// A tenth of the tick: added to a price, it leaves the grid.
    decimal sub_tick() const { return exact_div(rules.tick_size, d("10"), 6).value(); }

    /// An order on `token`, unsigned.
    static gamma_order_request order(std::string const& token, side s, std::string_view size,
                                     decimal const& price) {
        gamma_order_request r;
        r.token_id = token;
        r.side = s;
        r.size = d(size);
        r.price = price;
        return r;
    }

    gamma_order_request order(side s, std::string_view size, decimal const& price) const {
        return order(token, s, size, price);
    }

    /// `r` signed by `t` (the SDK signer), as the JSON body with `creds`.
    json::object signed_body(trader const& t, gamma_order_request r, clob_key const& creds) const {
        REQUIRE(t.signer.sign(r, rules));
        auto body = json::value_from(r).as_object();
        body["apiKey"] = creds.api_key;
        body["apiSecret"] = creds.secret;
        body["passphrase"] = creds.passphrase;
        return body;
    }

    result<place_result> place(trader const& t, gamma_order_request r) const {
        REQUIRE(t.signer.sign(r, rules));
        return c.place_prediction_order("gamma", r, t.creds.make());
    }

    result<cancel_result> cancel(trader const& t, std::string const& order_id) const {
        gamma_cancel_request r;
        r.order_id = order_id;
        r.wallet = t.signer.address();
        return c.cancel_prediction_order("gamma", r, t.creds.make());
    }

    std::vector<open_order> open_orders(trader const& t) const {
        return c.prediction_open_orders("gamma", t.address(), t.creds.make()).value();
    }

    std::vector<fill> fills(trader const& t) const {
        return c.prediction_fills("gamma", t.address(), t.creds.make()).value();
    }

    posted post(std::string const& path, json::value const& body, verb method = verb::post) const {
        return raw(gw, api_key, method, path, body);
    }

    /// Orders resting on mock-gamma for `t` (its account view).
    std::int64_t resting(trader const& t) const {
        auto r = fetch(verb::get, gw.gamma->base_url() + "/__mock/accounts/" + t.address());
        if (r.status == 404)
            return 0;
        REQUIRE(r.status == 200);
        return json::parse(r.body).at("openOrders").to_number<std::int64_t>();
    }
};

/// A raw GET with the credential headers (to see the gateway's exact answer).
raw_response get_with(trading const& t, std::string const& path,
                      std::vector<std::pair<std::string, std::string>> headers) {
    headers.emplace_back("X-API-Key", t.api_key);
    return fetch(verb::get, t.gw.base_url + path, "", std::move(headers));
}

std::vector<std::pair<std::string, std::string>> credential_headers(clob_key const& k) {
    return {{"X-Gamma-Api-Key", k.api_key},
            {"X-Gamma-Api-Secret", k.secret},
            {"X-Gamma-Passphrase", k.passphrase}};
}

std::string message_of(posted const& r) {
    return std::string(error_of(r).at("message").as_string());
}

} // namespace

TEST_CASE("gamma trading routes: every endpoint exists, none under /v1/testnet/",
          "[contract][gamma][trading]") {
    trading t;
    struct route {
        verb method;
        char const* path;
    };
    for (auto const& r : {route{verb::post, "/predictions/gamma/orders"},
                          route{verb::delete_, "/predictions/gamma/orders"},
                          route{verb::post, "/predictions/gamma/typed-data"}}) {
        std::string const path = std::string("/v1") + r.path;
        CAPTURE(path);
        // An empty body reaches the field checks: the route and the provider exist.
        require_error(t.post(path, json::object{}, r.method), 400, "VALIDATION_ERROR");
        require_error(t.post(std::string("/v1/testnet") + r.path, json::object{}, r.method), 404,
                      "PROVIDER_NOT_FOUND");
    }
    for (auto const* leaf : {"orders", "fills"}) {
        CAPTURE(leaf);
        auto const path =
            std::string("/v1/predictions/gamma/") + leaf + "?wallet=" + t.alice.address();
        auto res = get_with(t, path, {});
        CHECK(res.status == 400);
        auto const body = json::parse(res.body);
        CHECK(body.at("error").at("code").as_string() == "VALIDATION_ERROR");
        CHECK(body.at("error").at("details").at("field").as_string() == "X-Gamma-Api-Key");
        auto missing_wallet = get_with(t, std::string("/v1/predictions/gamma/") + leaf,
                                       credential_headers(t.alice.creds));
        CHECK(missing_wallet.status == 400);
        CHECK(json::parse(missing_wallet.body).at("error").at("details").at("field") == "wallet");
        auto testnet =
            get_with(t, "/v1/testnet" + path.substr(3), credential_headers(t.alice.creds));
        CHECK(testnet.status == 404);
        CHECK(json::parse(testnet.body).at("error").at("code") == "PROVIDER_NOT_FOUND");
    }
    // The SDK refuses the testnet before sending anything too (the server's answer).
    auto testnet_client = t.gw.client_with(t.api_key, true);
    auto r = t.order(side::buy, "10", t.free_price);
    REQUIRE(t.alice.signer.sign(r, t.rules));
    auto placed = testnet_client.place_prediction_order("gamma", r, t.alice.creds.make());
    REQUIRE_FALSE(placed);
    CHECK(placed.error().code == errc::provider_not_found);
    CHECK(order_requests(*t.gw.gamma) == 0);
}

TEST_CASE("gamma orders refused before any upstream order request", "[contract][gamma][trading]") {
    trading t;
    auto const body = [&](gamma_order_request r) {
        return t.signed_body(t.alice, std::move(r), t.alice.creds);
    };
    auto const unsigned_body = [&](gamma_order_request r) {
        r.wallet = t.alice.signer.address();
        r.salt = 42;
        r.signature = "0x" + std::string(130, '1');
        auto b = json::value_from(r).as_object();
        b["apiKey"] = t.alice.creds.api_key;
        b["apiSecret"] = t.alice.creds.secret;
        b["passphrase"] = t.alice.creds.passphrase;
        return b;
    };

    SECTION("a price off the tick grid: 400 VALIDATION_ERROR naming price, not rounded") {
        auto const off = plus(t.free_price, t.sub_tick());
        auto r = t.order(side::buy, "10", off);
        REQUIRE_FALSE(t.alice.signer.sign(r, t.rules)); // the SDK refuses to sign it too
        auto res = t.post("/v1/predictions/gamma/orders", unsigned_body(r));
        require_error(res, 400, "VALIDATION_ERROR", "price");
        CHECK(contains(message_of(res), "tick"));
    }
    SECTION("a price of 0 or 1 and beyond the tick range: naming price") {
        for (auto const* p : {"0", "1", "1.5"}) {
            CAPTURE(p);
            require_error(t.post("/v1/predictions/gamma/orders",
                                 unsigned_body(t.order(side::buy, "10", d(p)))),
                          400, "VALIDATION_ERROR", "price");
        }
    }
    SECTION("a size with 3 decimals, or below the token's minimum: naming size") {
        require_error(t.post("/v1/predictions/gamma/orders",
                             unsigned_body(t.order(side::buy, "10.001", t.free_price))),
                      400, "VALIDATION_ERROR", "size");
        auto res = t.post("/v1/predictions/gamma/orders",
                          unsigned_body(t.order(side::buy, "1", t.free_price)));
        require_error(res, 400, "VALIDATION_ERROR", "size");
        CHECK(contains(message_of(res), "minimum"));
    }
    SECTION("an unknown token: 404 MARKET_NOT_FOUND") {
        require_error(t.post("/v1/predictions/gamma/orders",
                             unsigned_body(trading::order("12345", side::buy, "10", d("0.5")))),
                      404, "MARKET_NOT_FOUND");
    }
    SECTION("the price changed after signing: 401 SIGNATURE_ERROR naming both addresses") {
        auto b = body(t.order(side::buy, "10", t.free_price));
        b["price"] = t.book.best_bid.str();
        auto res = t.post("/v1/predictions/gamma/orders", b);
        require_error(res, 401, "SIGNATURE_ERROR", "signature");
        auto const& details = error_of(res).at("details");
        CHECK(details.at("expected").as_string() == t.alice.address());
        CHECK(details.at("recovered").as_string() != t.alice.address());
        CHECK(contains(message_of(res), t.alice.address()));
        CHECK(contains(message_of(res), std::string(details.at("recovered").as_string())));
    }
    SECTION("the size changed after signing: 401 SIGNATURE_ERROR") {
        auto b = body(t.order(side::buy, "10", t.free_price));
        b["size"] = "11";
        require_error(t.post("/v1/predictions/gamma/orders", b), 401, "SIGNATURE_ERROR",
                      "signature");
    }
    SECTION("another key signing as the wallet: 401 naming the signer and the wallet") {
        auto r = t.order(side::buy, "10", t.free_price);
        r.wallet = t.alice.signer.address();
        r.salt = 7;
        auto const order = sg::order_of(r, t.rules).value();
        r.signature = sg::sign_order(order, sg::exchange_for(t.rules.neg_risk), key(stranger_key));
        auto placed = t.c.place_prediction_order("gamma", r, t.alice.creds.make());
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::signature_error);
        CHECK(contains(placed.error().message, t.carol.address()));
        CHECK(contains(placed.error().message, t.alice.address()));
    }
    SECTION("signed for the other exchange: 401 SIGNATURE_ERROR naming the exchange to use") {
        auto r = t.order(side::buy, "10", t.free_price);
        r.wallet = t.alice.signer.address();
        r.salt = 8;
        auto const order = sg::order_of(r, t.rules).value();
        r.signature = sg::sign_order(order, sg::exchange_for(!t.rules.neg_risk), key(wallet_key));
        auto placed = t.c.place_prediction_order("gamma", r, t.alice.creds.make());
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::signature_error);
        CHECK(contains(placed.error().message, sg::exchange_for(t.rules.neg_risk).str()));
    }
    SECTION("a malformed signature: 401 SIGNATURE_ERROR") {
        auto b = body(t.order(side::buy, "10", t.free_price));
        b["signature"] = "0x1234";
        require_error(t.post("/v1/predictions/gamma/orders", b), 401, "SIGNATURE_ERROR",
                      "signature");
    }
    SECTION("signatureType 2 (a Safe funder the body cannot name): naming signatureType") {
        auto b = unsigned_body(t.order(side::buy, "10", t.free_price));
        b["signatureType"] = 2;
        require_error(t.post("/v1/predictions/gamma/orders", b), 400, "VALIDATION_ERROR",
                      "signatureType");
    }
    SECTION("timeInForce: gtd needs an expiration a minute ahead, others none") {
        auto r = t.order(side::buy, "10", t.free_price);
        r.time_in_force = prediction_time_in_force::gtd;
        auto b = unsigned_body(r);
        require_error(t.post("/v1/predictions/gamma/orders", b), 400, "VALIDATION_ERROR",
                      "expiration");
        b["expiration"] = t.gw.clock->now_ms() / 1000 + 10;
        require_error(t.post("/v1/predictions/gamma/orders", b), 400, "VALIDATION_ERROR",
                      "expiration");
        b.erase("timeInForce");
        require_error(t.post("/v1/predictions/gamma/orders", b), 400, "VALIDATION_ERROR",
                      "expiration");
        b["timeInForce"] = "ioc";
        require_error(t.post("/v1/predictions/gamma/orders", b), 400, "VALIDATION_ERROR",
                      "timeInForce");
    }
    SECTION("credentials missing, or a secret that is not base64: naming the field, not its "
            "value") {
        auto b = body(t.order(side::buy, "10", t.free_price));
        auto no_key = b;
        no_key.erase("apiKey");
        require_error(t.post("/v1/predictions/gamma/orders", no_key), 400, "VALIDATION_ERROR",
                      "apiKey");
        b["apiSecret"] = "%%%%%%%%";
        auto res = t.post("/v1/predictions/gamma/orders", b);
        require_error(res, 400, "VALIDATION_ERROR", "apiSecret");
        CHECK_FALSE(contains(json::serialize(res.body), "%%%"));
        CHECK_FALSE(contains(json::serialize(res.body), t.alice.creds.passphrase));
    }
    SECTION("the SDK refuses what the gateway refuses, sending nothing") {
        auto r = t.order(side::buy, "10", t.free_price);
        REQUIRE(t.alice.signer.sign(r, t.rules));
        r.salt.reset();
        auto placed = t.c.place_prediction_order("gamma", r, t.alice.creds.make());
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::validation_error);
        CHECK(placed.error().details.at("field").as_string() == "salt");
        CHECK(placed.error().status == 400);
    }
    CHECK(order_requests(*t.gw.gamma) == 0);
    CHECK(t.resting(t.alice) == 0);
}

TEST_CASE("gamma credentials refused upstream: 401 INVALID_CREDENTIALS, no order request",
          "[contract][gamma][trading]") {
    trading t;
    auto creds = t.alice.creds;
    std::string what;
    SECTION("a wrong passphrase") {
        what = "passphrase";
        creds.passphrase = std::string(64, 'a');
    }
    SECTION("a wrong secret (valid base64)") {
        what = "secret";
        creds.secret = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    }
    SECTION("an unknown key") {
        what = "key";
        creds.api_key = "00000000-0000-4000-8000-000000000001";
    }
    SECTION("another wallet's key") {
        what = "bob's credentials";
        creds = t.bob.creds;
    }
    CAPTURE(what);
    auto res = t.post("/v1/predictions/gamma/orders",
                      t.signed_body(t.alice, t.order(side::buy, "10", t.free_price), creds));
    require_error(res, 401, "INVALID_CREDENTIALS");
    for (auto const& secret : {creds.api_key, creds.secret, creds.passphrase})
        CHECK_FALSE(contains(json::serialize(res.body), secret));
    CHECK(upstream_calls(*t.gw.gamma, "POST /clob/order") == 0);
    CHECK(upstream_calls(*t.gw.gamma, "GET /clob/auth/ban-status/closed-only") == 1);
    CHECK(t.resting(t.alice) == 0);

    // Refused credentials are not remembered: asked again, refused again, still no order.
    require_error(t.post("/v1/predictions/gamma/orders",
                         t.signed_body(t.alice, t.order(side::buy, "10", t.free_price), creds)),
                  401, "INVALID_CREDENTIALS");
    CHECK(upstream_calls(*t.gw.gamma, "GET /clob/auth/ban-status/closed-only") == 2);
    CHECK(upstream_calls(*t.gw.gamma, "POST /clob/order") == 0);

    // The reads with the same credentials: refused the same way.
    auto orders = t.c.prediction_open_orders("gamma", t.alice.address(), creds.make());
    REQUIRE_FALSE(orders);
    CHECK(orders.error().code == errc::invalid_credentials);
    auto fills = t.c.prediction_fills("gamma", t.alice.address(), creds.make());
    REQUIRE_FALSE(fills);
    CHECK(fills.error().code == errc::invalid_credentials);
    gamma_cancel_request cancel;
    cancel.order_id = "0x" + std::string(64, 'a');
    cancel.wallet = t.alice.signer.address();
    auto canceled = t.c.cancel_prediction_order("gamma", cancel, creds.make());
    REQUIRE_FALSE(canceled);
    CHECK(canceled.error().code == errc::invalid_credentials);
}

TEST_CASE("gamma credentials that would split the upstream request: 400 naming the field, "
          "nothing sent, and every caller after it gets its own answer",
          "[contract][gamma][trading][security]") {
    trading t;
    // alice has an order resting: what a smuggled read of hers would leak.
    auto resting = t.place(t.alice, t.order(side::buy, "10", t.book.best_bid));
    REQUIRE(resting);
    reset_stats(*t.gw.gamma);
    // The probe's smuggled request (a second CLOB read with alice's headers), and the single
    // bytes that end or cut a header line, or are not printable ASCII.
    std::string const smuggled = "x\r\nContent-Length: 0\r\n\r\nGET /clob/data/orders HTTP/1.1\r\n"
                                 "Host: clob\r\nPOLY_ADDRESS: " +
                                 t.alice.address() + "\r\nX-Pad: ";
    auto const bad = GENERATE_COPY(values<std::string>(
        {smuggled, "a\nb", "a\rb", std::string("a\0b", 3), "a\tb", "a\x7f", "caf\xc3\xa9"}));
    CAPTURE(bad);

    for (std::string const field : {"apiKey", "apiSecret", "passphrase"}) {
        CAPTURE(field);
        auto body = t.signed_body(t.bob, t.order(side::sell, "10", t.book.best_ask), t.bob.creds);
        body[field] = bad;
        require_error(t.post("/v1/predictions/gamma/orders", body), 400, "VALIDATION_ERROR", field);
        json::object cancel{{"orderId", resting->order_id},
                            {"wallet", t.bob.address()},
                            {"apiKey", t.bob.creds.api_key},
                            {"apiSecret", t.bob.creds.secret},
                            {"passphrase", t.bob.creds.passphrase}};
        cancel[field] = bad;
        require_error(t.post("/v1/predictions/gamma/orders", cancel, verb::delete_), 400,
                      "VALIDATION_ERROR", field);
    }
    // On reads the credentials are headers: what an HTTP client can put in one (the gateway's
    // HTTP parser answers 400 to CR, LF and NUL in a header itself) is refused naming it.
    if (bad.find_first_of(std::string("\r\n\0", 3)) == std::string::npos) {
        for (std::string const header :
             {"X-Gamma-Api-Key", "X-Gamma-Api-Secret", "X-Gamma-Passphrase"}) {
            CAPTURE(header);
            auto headers = credential_headers(t.bob.creds);
            for (auto& [name, value] : headers)
                if (name == header)
                    value = bad;
            for (auto const* path : {"/orders", "/fills"}) {
                auto r = get_with(
                    t, "/v1/predictions/gamma" + std::string(path) + "?wallet=" + t.bob.address(),
                    headers);
                INFO(r.body);
                REQUIRE(r.status == 400);
                auto const e = json::parse(r.body).at("error");
                CHECK(e.at("code").as_string() == "VALIDATION_ERROR");
                // DEL is refused by the HTTP parser itself (its 400 names no field); the rest
                // reaches the gateway's own check, which names the header.
                if (bad.find('\x7f') == std::string::npos)
                    CHECK(e.at("details").at("field").as_string() == header);
            }
        }
    }
    CHECK(mock_stats(*t.gw.gamma).at("requests") == 0); // nothing reached the upstream

    // The next callers each get their own answers: bob has no order, alice has hers.
    CHECK(t.open_orders(t.bob).empty());
    auto const mine = t.open_orders(t.alice);
    REQUIRE(mine.size() == 1);
    CHECK(mine.front().order_id == resting->order_id);
}

TEST_CASE("gamma orders on mock-gamma: a BUY rests, a crossing SELL of another wallet fills it, "
          "both in orders and fills",
          "[contract][gamma][trading]") {
    trading t;
    auto const price = t.free_price;
    auto buy = t.place(t.alice, t.order(side::buy, "10", price));
    REQUIRE(buy);
    CHECK(buy->status == place_status::open);
    CHECK(buy->filled_size.str() == "0");
    CHECK_FALSE(buy->average_price);
    CHECK_FALSE(buy->client_order_id);
    CHECK(buy->order_id.size() == 66);

    auto open = t.open_orders(t.alice);
    REQUIRE(open.size() == 1);
    CHECK(open[0].order_id == buy->order_id);
    CHECK(open[0].symbol == t.token);
    CHECK(open[0].side == side::buy);
    CHECK(open[0].type == order_type::limit);
    CHECK(open[0].price == price);
    CHECK(open[0].size.str() == "10");
    CHECK(open[0].filled_size.str() == "0");
    CHECK(open[0].status == open_order_status::open);
    CHECK(book_of(*t.gw.gamma, t.token).best_bid == price); // the best bid is alice's

    auto sell = t.place(t.bob, t.order(side::sell, "10", price));
    REQUIRE(sell);
    CHECK(sell->status == place_status::filled);
    CHECK(sell->filled_size.str() == "10");
    REQUIRE(sell->average_price);
    CHECK(*sell->average_price == price);
    CHECK(sell->order_id != buy->order_id);

    CHECK(t.open_orders(t.alice).empty());
    auto maker = t.fills(t.alice);
    REQUIRE(maker.size() == 1);
    CHECK(maker[0].order_id == buy->order_id);
    CHECK(maker[0].symbol == t.token);
    CHECK(maker[0].side == side::buy);
    CHECK(maker[0].price == price);
    CHECK(maker[0].size.str() == "10");
    CHECK(maker[0].liquidity == liquidity::maker);
    CHECK(maker[0].fee.str() == "0");
    CHECK(maker[0].fee_asset == t.token); // a BUY's fee is in the token it bought
    auto taker = t.fills(t.bob);
    REQUIRE(taker.size() == 1);
    CHECK(taker[0].order_id == sell->order_id);
    CHECK(taker[0].side == side::sell);
    CHECK(taker[0].price == price);
    CHECK(taker[0].size.str() == "10");
    CHECK(taker[0].liquidity == liquidity::taker);
    CHECK(taker[0].timestamp >= maker[0].timestamp - 1000);

    // Time filters and limits (CONTRACT §4): nothing before the trade, one at most.
    fills_params before;
    before.end_time = taker[0].timestamp - 60'000;
    CHECK(t.c.prediction_fills("gamma", t.bob.address(), t.bob.creds.make(), before)->empty());
    CHECK(upstream_calls(*t.gw.gamma, "POST /clob/order") == 2);
    // Each wallet's credentials were checked once before its first order.
    CHECK(upstream_calls(*t.gw.gamma, "GET /clob/auth/ban-status/closed-only") == 2);
}

TEST_CASE("gamma cancels: an open order cancels once, then 404 ORDER_NOT_FOUND",
          "[contract][gamma][trading]") {
    trading t;
    auto buy = t.place(t.alice, t.order(side::buy, "10", t.book.best_bid));
    REQUIRE(buy);
    CHECK(buy->status == place_status::open);
    REQUIRE(t.open_orders(t.alice).size() == 1);

    // Someone else's credentials cannot cancel it (the upstream's answer: not theirs).
    auto foreign = t.cancel(t.bob, buy->order_id);
    REQUIRE_FALSE(foreign);
    CHECK(foreign.error().code == errc::order_not_found);
    CHECK(t.open_orders(t.alice).size() == 1);

    auto canceled = t.cancel(t.alice, buy->order_id);
    REQUIRE(canceled);
    CHECK(canceled->order_id == buy->order_id);
    CHECK(canceled->status == cancel_status::canceled);
    CHECK(t.open_orders(t.alice).empty());
    auto again = t.cancel(t.alice, buy->order_id);
    REQUIRE_FALSE(again);
    CHECK(again.error().code == errc::order_not_found);
    CHECK(again.error().status == 404);
    CHECK(upstream_calls(*t.gw.gamma, "DELETE /clob/order") == 3);

    // An id that is no gamma order id never leaves the gateway.
    auto bad = t.cancel(t.alice, "42");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == errc::validation_error);
    CHECK(bad.error().details.at("field").as_string() == "orderId");
    CHECK(upstream_calls(*t.gw.gamma, "DELETE /clob/order") == 3);
}

TEST_CASE("gamma refusals from mock-gamma's matching: 400 ORDER_REJECTED with the upstream's "
          "reason, nothing rests",
          "[contract][gamma][trading]") {
    trading t;

    std::int64_t sent = 0;
    SECTION("a FOK that cannot fill: refused from the book, never sent") {
        auto r = t.order(side::buy, "10", t.free_price); // nothing to take at this price
        r.time_in_force = prediction_time_in_force::fok;
        auto placed = t.place(t.alice, r);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "FOK"));
        CHECK(placed.error().details.contains("reason"));
    }
    SECTION("more than the account's balance: only matching knows, sent once") {
        auto placed = t.place(t.alice, t.order(side::buy, "5000", t.free_price)); // 1000 USDC
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "balance"));
        sent = 1;
    }
    CHECK(upstream_calls(*t.gw.gamma, "POST /clob/order") == sent); // never retried
    CHECK(t.resting(t.alice) == 0);
    CHECK(t.open_orders(t.alice).empty());
}

TEST_CASE("gamma FOK and GTD orders: a FOK that can fill fills whole, a GTD rests",
          "[contract][gamma][trading]") {
    trading t;
    auto fok = t.order(side::buy, "5", t.book.best_ask); // the house's best ask
    fok.time_in_force = prediction_time_in_force::fok;
    auto filled = t.place(t.alice, fok);
    REQUIRE(filled);
    CHECK(filled->status == place_status::filled);
    CHECK(filled->filled_size.str() == "5");
    CHECK(*filled->average_price == t.book.best_ask);

    auto gtd = t.order(side::buy, "5", t.book.best_bid);
    gtd.time_in_force = prediction_time_in_force::gtd;
    gtd.expiration = t.gw.clock->now_ms() / 1000 + 3600;
    auto resting = t.place(t.alice, gtd);
    REQUIRE(resting);
    CHECK(resting->status == place_status::open);
    REQUIRE(t.open_orders(t.alice).size() == 1);
}

TEST_CASE("gamma typed-data: tick size and exchange looked up, amounts, a fresh salt, the Order "
          "any wallet can sign",
          "[contract][gamma][trading]") {
    trading t;
    auto r = t.order(side::buy, "10", t.free_price);
    r.wallet = t.alice.signer.address();
    auto td = t.c.prediction_typed_data("gamma", r);
    REQUIRE(td);
    CHECK(td->typed_data.at("primaryType").as_string() == "Order");
    auto const& domain = td->typed_data.at("domain");
    CHECK(domain.at("name").as_string() == "Polymarket CTF Exchange");
    CHECK(domain.at("chainId").to_number<std::int64_t>() == 137);
    CHECK(domain.at("verifyingContract").as_string() == sg::exchange_for(t.rules.neg_risk).str());
    auto const& message = td->typed_data.at("message");
    auto const amounts = sg::order_amounts(side::buy, t.free_price, d("10"), t.rules.tick_size);
    REQUIRE(amounts);
    CHECK(message.at("makerAmount").as_string() == std::to_string(amounts->maker));
    CHECK(message.at("takerAmount").as_string() == std::to_string(amounts->taker));
    CHECK(message.at("tokenId").as_string() == t.token);
    CHECK(message.at("maker").as_string() == t.alice.address());

    // The params: the body to sign and post, the salt picked (fresh each time).
    auto const params = parse_gamma_order_request(td->params, strictness::inbound);
    REQUIRE(params);
    REQUIRE(params->salt);
    CHECK(*params->salt <= sg::max_salt);
    CHECK(params->token_id == t.token);
    CHECK(params->price == t.free_price);
    CHECK_FALSE(td->params.contains("signature"));
    CHECK_FALSE(td->params.contains("apiKey"));
    auto again = t.c.prediction_typed_data("gamma", r);
    REQUIRE(again);
    CHECK(again->params.at("salt") != td->params.at("salt"));

    // The digest is the typed data's, and the Order's id upstream.
    auto digest = sign::eip712::hash_typed_data(td->typed_data);
    REQUIRE(digest);
    CHECK(td->digest == util::to_hex(*digest));
    CHECK(td->digest == util::to_hex(sg::order_digest(sg::order_of(*params, t.rules).value(),
                                                      sg::exchange_for(t.rules.neg_risk))));

    // Signed by any wallet library and posted with the credentials: placed under that id.
    auto sig = t.alice.signer.sign_typed_data(td->typed_data);
    REQUIRE(sig);
    auto signed_order = *params;
    signed_order.signature = *sig;
    auto placed = t.c.place_prediction_order("gamma", signed_order, t.alice.creds.make());
    REQUIRE(placed);
    CHECK(placed->order_id == td->digest);
    CHECK(placed->status == place_status::open);

    SECTION("credentials never go into typed-data params, nor come back") {
        json::object body{{"operation", "placeOrder"}, {"params", json::value_from(r)}};
        body["params"].as_object()["apiKey"] = t.alice.creds.api_key;
        auto res = t.post("/v1/predictions/gamma/typed-data", body);
        require_error(res, 400, "VALIDATION_ERROR", "apiKey");
        CHECK_FALSE(contains(json::serialize(res.body), t.alice.creds.api_key));
    }
    SECTION("cancels have no typed data (credentials only)") {
        json::object body{{"operation", "cancelOrder"}, {"params", json::object{}}};
        require_error(t.post("/v1/predictions/gamma/typed-data", body), 400, "VALIDATION_ERROR",
                      "operation");
    }
    SECTION("an unknown token: 404 MARKET_NOT_FOUND; an off-tick price: naming price") {
        auto unknown = r;
        unknown.token_id = "12345";
        auto res = t.c.prediction_typed_data("gamma", unknown);
        REQUIRE_FALSE(res);
        CHECK(res.error().code == errc::market_not_found);
        auto off = r;
        off.price = plus(t.free_price, t.sub_tick());
        res = t.c.prediction_typed_data("gamma", off);
        REQUIRE_FALSE(res);
        CHECK(res.error().details.at("field").as_string() == "price");
    }
}

namespace {

/// A "gateway" on 127.0.0.1 answering every request with `body` (200, JSON).
struct canned_server {
    explicit canned_server(std::string body)
        : body_(std::move(body)) {
        namespace asio = boost::asio;
        server = std::make_shared<net::http_server>(
            ioc, net::server_options{},
            [this](net::request& req,
                   net::tcp::endpoint const&) -> asio::awaitable<std::optional<net::response>> {
                net::response res{boost::beast::http::status::ok, req.version()};
                res.set(boost::beast::http::field::content_type, "application/json");
                res.body() = body_;
                co_return res;
            });
        port = server->listen({asio::ip::make_address("127.0.0.1"), 0}).port();
        server->start();
        io = std::thread([this] { ioc.run(); });
    }
    ~canned_server() {
        server->stop();
        io.join();
    }
    canned_server(canned_server const&) = delete;
    canned_server& operator=(canned_server const&) = delete;

    std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port); }

    std::string body_;
    boost::asio::io_context ioc;
    std::shared_ptr<net::http_server> server;
    std::uint16_t port = 0;
    std::thread io;
};

} // namespace

TEST_CASE("gamma SDK signing through typed-data: the gateway's Order is signed only when it is "
          "the order's own",
          "[contract][gamma][trading]") {
    trading t;
    auto r = t.order(side::buy, "10", t.free_price);
    REQUIRE(t.c.sign_prediction_order("gamma", r, t.alice.signer));
    REQUIRE(r.salt);
    CHECK(r.wallet == t.alice.signer.address());
    auto placed = t.c.place_prediction_order("gamma", r, t.alice.creds.make());
    REQUIRE(placed);
    CHECK(placed->status == place_status::open);

    // A gateway that answers another Order (more USDC for the same shares) gets no signature.
    auto ask = t.order(side::buy, "10", t.free_price);
    ask.wallet = t.alice.signer.address();
    auto td = t.c.prediction_typed_data("gamma", ask);
    REQUIRE(td);
    auto tampered = json::value_from(*td).as_object();
    auto& message = tampered["typedData"].as_object()["message"].as_object();
    message["makerAmount"] =
        std::to_string(std::stoull(std::string(message["makerAmount"].as_string())) * 2);
    canned_server liar(json::serialize(tampered));
    client_options o;
    o.base_url = liar.base_url();
    o.api_key = t.api_key;
    auto lied_to = client::create(o).value();
    auto victim = t.order(side::buy, "10", t.free_price);
    auto refused = lied_to.sign_prediction_order("gamma", victim, t.alice.signer);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::transport_error);
    CHECK(victim.signature.empty());
    CHECK_FALSE(victim.salt);
}

TEST_CASE("gamma upstream failures: an order is sent once, never retried, an unknown outcome says "
          "where to look",
          "[contract][gamma][trading]") {
    // The book (tick size, exchange) stays cached while the faults are on, and the credentials
    // are known good from a read: only the order itself meets them.
    trading t([](server::server_config& cfg) { cfg.market_cache_ttl = std::chrono::minutes(5); });
    auto const body = t.signed_body(t.alice, t.order(side::buy, "10", t.free_price), t.alice.creds);
    auto warm = t.order(side::buy, "10", t.free_price);
    warm.wallet = t.alice.signer.address();
    REQUIRE(t.c.prediction_typed_data("gamma", warm));
    REQUIRE(t.c.prediction_open_orders("gamma", t.alice.address(), t.alice.creds.make()));
    std::string sent = "POST /clob/order";

    SECTION("no answer in time: 504 UPSTREAM_TIMEOUT, the order's state unknown") {
        mock_post(*t.gw.gamma, "/__mock/faults", R"({"latencyMs":1500})");
        auto res = t.post("/v1/predictions/gamma/orders", body);
        require_error(res, 504, "UPSTREAM_TIMEOUT");
        auto const msg = message_of(res);
        CHECK(contains(msg, "unknown"));
        CHECK(contains(msg, "/v1/predictions/gamma/orders?wallet=" + t.alice.address()));
        CHECK(contains(msg, "/fills"));
    }
    SECTION("the connection dropped after sending: 502, the outcome unknown") {
        mock_post(*t.gw.gamma, "/__mock/faults", R"({"drop":true})");
        auto res = t.post("/v1/predictions/gamma/orders", body);
        require_error(res, 502, "UPSTREAM_ERROR");
        CHECK(contains(message_of(res), "unknown"));
        CHECK(error_of(res).at("details").at("outcomeUnknown").as_bool());
    }
    SECTION("HTTP 500: the outcome is unknown") {
        mock_post(*t.gw.gamma, "/__mock/faults", R"({"status":500})");
        auto res = t.post("/v1/predictions/gamma/orders", body);
        require_error(res, 502, "UPSTREAM_ERROR");
        CHECK(contains(message_of(res), "unknown"));
    }
    SECTION("HTTP 503 (trading halted): 503 PROVIDER_UNAVAILABLE, nothing executed") {
        mock_post(*t.gw.gamma, "/__mock/faults", R"({"status":503})");
        auto res = t.post("/v1/predictions/gamma/orders", body);
        require_error(res, 503, "PROVIDER_UNAVAILABLE");
        CHECK_FALSE(res.retry_after.empty());
    }
    SECTION("a cancel that times out: whether it was canceled is unknown") {
        mock_post(*t.gw.gamma, "/__mock/faults", R"({"latencyMs":1500})");
        json::object cancel{{"orderId", "0x" + std::string(64, 'a')},
                            {"wallet", t.alice.address()},
                            {"apiKey", t.alice.creds.api_key},
                            {"apiSecret", t.alice.creds.secret},
                            {"passphrase", t.alice.creds.passphrase}};
        auto res = t.post("/v1/predictions/gamma/orders", cancel, verb::delete_);
        require_error(res, 504, "UPSTREAM_TIMEOUT");
        CHECK(contains(message_of(res), "canceled is unknown"));
        sent = "DELETE /clob/order";
    }
    REQUIRE(fetch(verb::delete_, t.gw.gamma->base_url() + "/__mock/faults").status == 200);
    CHECK(upstream_calls(*t.gw.gamma, sent) == 1);
}

namespace {

/// Every byte of every regular file under `dir`.
std::string all_files(std::filesystem::path const& dir) {
    std::string out;
    for (auto const& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file())
            continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        out += s.str();
    }
    return out;
}

/// Captures this process's stderr (the gateway's log) into a file while it lives, with every
/// log level on.
class stderr_capture {
public:
    explicit stderr_capture(std::filesystem::path file)
        : file_(std::move(file)) {
        std::fflush(stderr);
        saved_ = ::dup(STDERR_FILENO);
        int const fd = ::open(file_.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
        ::dup2(fd, STDERR_FILENO);
        ::close(fd);
        server::log::set_threshold(server::log::level::debug);
    }
    /// Stops capturing; the captured text.
    std::string finish() {
        if (saved_ >= 0) {
            server::log::set_threshold(std::nullopt);
            std::fflush(stderr);
            ::dup2(saved_, STDERR_FILENO);
            ::close(saved_);
            saved_ = -1;
        }
        std::ifstream in(file_, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    ~stderr_capture() { finish(); }
    stderr_capture(stderr_capture const&) = delete;
    stderr_capture& operator=(stderr_capture const&) = delete;

private:
    std::filesystem::path file_;
    int saved_ = -1;
};

} // namespace

TEST_CASE("gamma credentials are never logged, answered or stored: a session of trading, then "
          "every log line, answer and data-dir file grepped",
          "[contract][gamma][trading]") {
    trading t;
    auto const log_file = t.gw.data_dir.parent_path() /
                          ("gamma-credentials-log-" + std::to_string(::getpid()) + ".txt");
    std::vector<std::string> answers;
    std::string log;
    {
        stderr_capture capture(log_file);
        auto keep = [&](posted const& p) {
            answers.push_back(json::serialize(p.body));
        };
        auto const path = std::string("/v1/predictions/gamma/orders");
        // Placed, crossed, read, canceled, refused every way the credentials can be.
        auto const buy = t.post(
            path, t.signed_body(t.alice, t.order(side::buy, "10", t.free_price), t.alice.creds));
        keep(buy);
        REQUIRE(buy.status == 200);
        keep(t.post(path,
                    t.signed_body(t.bob, t.order(side::sell, "5", t.free_price), t.bob.creds)));
        auto wrong = t.alice.creds;
        wrong.passphrase = std::string(64, 'b');
        keep(
            t.post(path, t.signed_body(t.alice, t.order(side::buy, "10", t.book.best_bid), wrong)));
        auto bad_secret =
            t.signed_body(t.alice, t.order(side::buy, "10", t.book.best_bid), t.alice.creds);
        bad_secret["apiSecret"] = "!" + t.alice.creds.secret;
        keep(t.post(path, bad_secret));
        auto bad_field =
            t.signed_body(t.alice, t.order(side::buy, "10", t.book.best_bid), t.alice.creds);
        bad_field["size"] = "ten";
        keep(t.post(path, bad_field));
        auto tampered =
            t.signed_body(t.alice, t.order(side::buy, "10", t.book.best_bid), t.alice.creds);
        tampered["size"] = "11";
        keep(t.post(path, tampered));
        json::object td{{"operation", "placeOrder"},
                        {"params", json::value_from(t.order(side::buy, "10", t.free_price))}};
        td["params"].as_object()["wallet"] = t.alice.address();
        keep(t.post("/v1/predictions/gamma/typed-data", td));
        td["params"].as_object()["passphrase"] = t.alice.creds.passphrase;
        keep(t.post("/v1/predictions/gamma/typed-data", td));
        for (auto const* leaf : {"orders", "fills"})
            for (auto const& creds : {t.alice.creds, wrong}) {
                auto r = get_with(t,
                                  std::string("/v1/predictions/gamma/") + leaf +
                                      "?wallet=" + t.alice.address(),
                                  credential_headers(creds));
                answers.push_back(r.body);
            }
        json::object cancel{{"orderId", buy.body.at("orderId")},
                            {"wallet", t.alice.address()},
                            {"apiKey", t.alice.creds.api_key},
                            {"apiSecret", t.alice.creds.secret},
                            {"passphrase", t.alice.creds.passphrase}};
        keep(t.post(path, cancel, verb::delete_));
        keep(t.post(path, cancel, verb::delete_)); // 404: already canceled
        mock_post(*t.gw.gamma, "/__mock/faults", R"({"drop":true})");
        keep(t.post(path, t.signed_body(t.alice, t.order(side::buy, "10", t.book.best_bid),
                                        t.alice.creds)));
        REQUIRE(fetch(verb::delete_, t.gw.gamma->base_url() + "/__mock/faults").status == 200);
        log = capture.finish();
    }
    std::filesystem::remove(log_file);
    // Not vacuous: the session was logged, line by line.
    CHECK(contains(log, "path=/v1/predictions/gamma/orders"));
    CHECK(contains(log, "path=/v1/predictions/gamma/fills"));
    CHECK(answers.size() == 15);
    auto const files = all_files(t.gw.data_dir);
    CHECK_FALSE(files.empty());
    for (auto const* who : {&t.alice, &t.bob}) {
        for (auto const& secret : {who->creds.api_key, who->creds.secret, who->creds.passphrase}) {
            CAPTURE(secret);
            CHECK_FALSE(contains(log, secret));
            CHECK_FALSE(contains(files, secret));
            for (auto const& a : answers)
                CHECK_FALSE(contains(a, secret));
        }
    }
    CHECK_FALSE(contains(log, std::string(64, 'b')));
}

} // namespace gamma_trading_test
