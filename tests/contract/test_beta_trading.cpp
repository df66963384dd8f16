// Provider beta's signed writes through the SDK signer -> SDK client -> gatewayd -> mock-beta,
// offline (spec 2.10, 3, 4.3; CONTRACT §2, §5, §6, §6.2, §7, §10). What the gateway checks
// before any upstream call (market filters, leverage, signature, nonce) is asserted to add no
// order request on mock-beta's /__mock/stats; what it forwards is sent once, never retried, and
// the upstream's failures come back as CONTRACT §2 says.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/fetch.hpp"
#include "support/mock_control.hpp"
#include "support/test_gateway.hpp"
#include "support/trading.hpp"

#include <gateway/providers/beta.hpp>
#include <gateway/util/ascii.hpp>
#include <gateway/util/hex.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

namespace beta_trading_test {

using namespace gateway;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;
namespace sb = gateway::sign::beta;

namespace {

/// Order requests mock-beta has seen (futures and spot: place, cancel, leverage).
std::int64_t order_requests(mocks::mock_server& m) {
    std::int64_t n = 0;
    for (auto const* kind :
         {"POST /fapi/v3/order", "DELETE /fapi/v3/order", "POST /fapi/v3/leverage",
          "POST /api/v3/order", "DELETE /api/v3/order"})
        n += upstream_calls(m, kind);
    return n;
}

/// A gateway and mocks, an API key, the wallet's signer and the markets' rules as listed.
struct trading {
    test_gateway gw;
    std::string api_key = gw.create_key();
    client c = gw.client_with(api_key);
    sb::signer wallet{key(wallet_key)};
    sb::market_rules btc, tsla, spot_btc;

    trading() {
        set_mark(*gw.beta, "BTC", "65000");
        set_mark(*gw.beta_testnet, "BTC", "65000");
        btc = rules(vertical::perps, "BTC");
        tsla = rules(vertical::perps, "TSLA");
        spot_btc = rules(vertical::spot, "BTC/USDT");
    }

    sb::market_rules rules(vertical v, std::string const& symbol) const {
        auto all = c.markets(v, "beta");
        REQUIRE(all);
        for (auto const& m : *all)
            if (m.symbol == symbol)
                return sb::rules_of(m, v == vertical::spot);
        FAIL("no beta market " << symbol);
        return {};
    }

    /// A signed BTC limit buy inside the percent-price band, as a JSON body.
    json::object signed_limit(sb::signer const& s, std::int64_t nonce = 0) const {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "64000");
        r.nonce = nonce;
        REQUIRE(s.sign(r, btc));
        return body_of(r);
    }

    posted post(std::string const& path, json::value const& body, verb method = verb::post) const {
        return raw(gw, api_key, method, path, body);
    }
};

} // namespace

TEST_CASE("beta routes: every write and typed-data endpoint exists, also under /v1/testnet/",
          "[contract][beta][trading]") {
    trading t;
    struct route {
        verb method;
        char const* path;
    };
    for (auto const& r :
         {route{verb::post, "/perps/beta/orders"}, route{verb::delete_, "/perps/beta/orders"},
          route{verb::post, "/perps/beta/leverage"}, route{verb::post, "/spot/beta/orders"},
          route{verb::delete_, "/spot/beta/orders"}, route{verb::post, "/perps/beta/typed-data"},
          route{verb::post, "/spot/beta/typed-data"}})
        for (auto const* prefix : {"/v1", "/v1/testnet"}) {
            std::string const path = std::string(prefix) + r.path;
            CAPTURE(path);
            // An empty body reaches the field checks: the route and the provider exist.
            require_error(t.post(path, json::object{}, r.method), 400, "VALIDATION_ERROR");
        }
    CHECK(order_requests(*t.gw.beta) == 0);
    CHECK(order_requests(*t.gw.beta_testnet) == 0);
}

TEST_CASE("beta writes refused before any upstream order request", "[contract][beta][trading]") {
    trading t;
    auto const fake_signed = [&](json::object body) {
        body["wallet"] = t.wallet.address().str();
        body["nonce"] = sb::next_nonce_ms();
        body["signature"] = "0x" + std::string(130, '1');
        return body;
    };

    SECTION("a price off the tick: 400 VALIDATION_ERROR naming price, not rounded") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "64000.05");
        REQUIRE_FALSE(t.wallet.sign(r, t.btc)); // the SDK refuses to sign it too
        require_error(t.post("/v1/perps/beta/orders", fake_signed(body_of(r))), 400,
                      "VALIDATION_ERROR", "price");
    }
    SECTION("a size off the step and a notional below the minimum: naming size") {
        auto r = order("BTC", side::buy, order_type::limit, "0.0105", "64000");
        require_error(t.post("/v1/perps/beta/orders", fake_signed(body_of(r))), 400,
                      "VALIDATION_ERROR", "size");
        r.size = d("0.001");
        r.price = d("4000");
        auto res = t.post("/v1/perps/beta/orders", fake_signed(body_of(r)));
        require_error(res, 400, "VALIDATION_ERROR", "size");
        CHECK(contains(error_of(res).at("message").as_string(), "minimum"));
    }
    SECTION("a limit price beyond the percent-price band around the mark: naming price") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "70000"); // mark 65000 x 1.05
        REQUIRE(t.wallet.sign(r, t.btc)); // the SDK does not know the mark
        auto res = t.post("/v1/perps/beta/orders", body_of(r));
        require_error(res, 400, "VALIDATION_ERROR", "price");
        CHECK(contains(error_of(res).at("message").as_string(), "65000"));
    }
    SECTION("trailing_stop: callbackRate outside 0.1-5; not on spot") {
        auto r = order("BTC", side::sell, order_type::trailing_stop, "0.01");
        r.callback_rate = d("6");
        require_error(t.post("/v1/perps/beta/orders", fake_signed(body_of(r))), 400,
                      "VALIDATION_ERROR", "callbackRate");
        r.symbol = "BTC/USDT";
        r.callback_rate = d("1");
        require_error(t.post("/v1/spot/beta/orders", fake_signed(body_of(r))), 400,
                      "UNSUPPORTED_ORDER_TYPE", "type");
    }
    SECTION("leverage above the bracket's maximum: 400 MAX_LEVERAGE_EXCEEDED naming it") {
        set_leverage_request l;
        l.symbol = "TSLA";
        l.leverage = 11;
        REQUIRE_FALSE(t.wallet.sign(l, t.tsla));
        auto res = t.post("/v1/perps/beta/leverage", fake_signed(json::value_from(l).as_object()));
        require_error(res, 400, "MAX_LEVERAGE_EXCEEDED", "leverage");
        CHECK(contains(error_of(res).at("message").as_string(), "10"));
    }
    SECTION("leverage far above every bracket (1000): MAX_LEVERAGE_EXCEEDED naming the "
            "market's maximum, as on alpha") {
        set_leverage_request l;
        l.symbol = "BTC";
        l.leverage = 1000;
        auto res = t.post("/v1/perps/beta/leverage", fake_signed(json::value_from(l).as_object()));
        require_error(res, 400, "MAX_LEVERAGE_EXCEEDED", "leverage");
        REQUIRE(t.btc.max_leverage != 0);
        CHECK(error_of(res).at("details").at("maxLeverage").as_int64() ==
              static_cast<std::int64_t>(t.btc.max_leverage));
        CHECK(contains(error_of(res).at("message").as_string(),
                       "maximum of " + std::to_string(t.btc.max_leverage)));
        l.leverage = 0;
        require_error(
            t.post("/v1/perps/beta/leverage", fake_signed(json::value_from(l).as_object())), 400,
            "VALIDATION_ERROR", "leverage");
    }
    SECTION("an unknown market: 404 MARKET_NOT_FOUND") {
        auto r = order("NOPE", side::buy, order_type::market, "1");
        require_error(t.post("/v1/perps/beta/orders", fake_signed(body_of(r))), 404,
                      "MARKET_NOT_FOUND");
    }
    SECTION("a body changed after signing: 401 SIGNATURE_ERROR naming both addresses") {
        auto body = t.signed_limit(t.wallet);
        body["size"] = "0.02";
        auto res = t.post("/v1/perps/beta/orders", body);
        require_error(res, 401, "SIGNATURE_ERROR", "signature");
        auto const& details = error_of(res).at("details");
        CHECK(details.at("expected").as_string() == t.wallet.address().str());
        CHECK(details.at("recovered").as_string() != t.wallet.address().str());
    }
    SECTION("a stranger's key signing as the wallet: 401 naming the stranger") {
        sb::signer stranger{key(stranger_key)};
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "64000");
        r.wallet = t.wallet.address();
        r.nonce = sb::next_nonce_ms();
        auto payload = sb::signing_payload_for(sb::order_params(r, t.btc).value(), r.nonce,
                                               r.wallet, std::nullopt, false);
        REQUIRE(payload);
        r.signature = sb::sign_message(payload->msg, key(stranger_key), false);
        auto placed = t.c.place_order("beta", r);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::signature_error);
        CHECK(contains(placed.error().message, stranger.address().str()));
        CHECK(contains(placed.error().message, t.wallet.address().str()));
    }
    SECTION("a malformed signature: 401 SIGNATURE_ERROR") {
        auto body = t.signed_limit(t.wallet);
        body["signature"] = "0x1234";
        require_error(t.post("/v1/perps/beta/orders", body), 401, "SIGNATURE_ERROR", "signature");
    }
    SECTION("a chainId 714 (testnet) signature on a mainnet path: 401 SIGNATURE_ERROR") {
        sb::signer testnet{key(wallet_key), true};
        auto res = t.post("/v1/perps/beta/orders", t.signed_limit(testnet));
        require_error(res, 401, "SIGNATURE_ERROR", "signature");
        CHECK(contains(error_of(res).at("message").as_string(), "1666"));
    }
    SECTION("a stale and a future nonce (10 s window): 401 INVALID_NONCE") {
        auto const now = t.gw.clock->now_ms();
        require_error(t.post("/v1/perps/beta/orders", t.signed_limit(t.wallet, now - 11'000)), 401,
                      "INVALID_NONCE", "nonce");
        require_error(t.post("/v1/perps/beta/orders", t.signed_limit(t.wallet, now + 11'000)), 401,
                      "INVALID_NONCE", "nonce");
    }
    SECTION("cancel: an orderId that is not a decimal id") {
        cancel_order_request c;
        c.symbol = "BTC";
        c.order_id = "abc";
        auto body = json::value_from(c).as_object();
        require_error(t.post("/v1/perps/beta/orders", fake_signed(body), verb::delete_), 400,
                      "VALIDATION_ERROR", "orderId");
    }
    CHECK(order_requests(*t.gw.beta) == 0);
    CHECK(order_requests(*t.gw.beta_testnet) == 0);
}

TEST_CASE("beta nonces: a replay is 401 INVALID_NONCE without a second upstream request",
          "[contract][beta][trading]") {
    trading t;
    auto const body = t.signed_limit(t.wallet);
    auto const first = t.post("/v1/perps/beta/orders", body);
    // Verified and forwarded: the (unfunded) wallet's order is the upstream's to refuse,
    // -2019 "Margin is insufficient." (CONTRACT §2: 400 ORDER_REJECTED with its reason).
    require_error(first, 400, "ORDER_REJECTED");
    CHECK(error_of(first).at("details").at("upstreamCode") == -2019);
    CHECK(order_requests(*t.gw.beta) == 1);
    require_error(t.post("/v1/perps/beta/orders", body), 401, "INVALID_NONCE", "nonce");
    t.gw.restart(); // the journal keeps it across a restart
    require_error(raw(t.gw, t.api_key, verb::post, "/v1/perps/beta/orders", body), 401,
                  "INVALID_NONCE", "nonce");
    CHECK(order_requests(*t.gw.beta) == 1);
}

TEST_CASE("beta testnet: chainId 714 signatures go to the testnet upstream only",
          "[contract][beta][trading]") {
    trading t;
    sb::signer testnet{key(wallet_key), true};
    auto const res = t.post("/v1/testnet/perps/beta/orders", t.signed_limit(testnet));
    // Verified and forwarded: the testnet upstream refuses the unfunded wallet's order.
    require_error(res, 400, "ORDER_REJECTED");
    CHECK(error_of(res).at("details").at("upstreamCode") == -2019);
    CHECK(order_requests(*t.gw.beta_testnet) == 1);
    // A mainnet signature on the testnet path is someone else's.
    require_error(t.post("/v1/testnet/perps/beta/orders", t.signed_limit(t.wallet)), 401,
                  "SIGNATURE_ERROR", "signature");
    CHECK(order_requests(*t.gw.beta_testnet) == 1);
    CHECK(order_requests(*t.gw.beta) == 0);
}

TEST_CASE("beta upstream failures: sent once, never retried, mapped per CONTRACT 2",
          "[contract][beta][trading]") {
    trading t;
    auto const body = t.signed_limit(t.wallet);

    SECTION("a refusal in the upstream's shape: 400 ORDER_REJECTED carrying its reason") {
        mock_post(*t.gw.beta, "/__mock/faults", R"({"status":400})");
        auto res = t.post("/v1/perps/beta/orders", body);
        require_error(res, 400, "ORDER_REJECTED");
        CHECK(contains(error_of(res).at("message").as_string(),
                       wire::beta::unknown.msg)); // the upstream's -1000 text
        CHECK(error_of(res).at("details").at("upstreamCode").as_int64() == -1000);
    }
    for (auto const* status : {"500", "503"}) {
        SECTION(std::string("HTTP ") + status + ": the execution status is unknown (502)") {
            mock_post(*t.gw.beta, "/__mock/faults", std::string(R"({"status":)") + status + "}");
            auto res = t.post("/v1/perps/beta/orders", body);
            require_error(res, 502, "UPSTREAM_ERROR");
            auto const msg = error_of(res).at("message").as_string();
            CHECK(contains(msg, "unknown"));
            CHECK(contains(msg, "/v1/perps/beta/account/" + t.wallet.address().str() + "/orders"));
            CHECK(error_of(res).at("details").at("outcomeUnknown").as_bool());
        }
    }
    SECTION("HTTP 429: 503 PROVIDER_UNAVAILABLE with Retry-After; nothing executed") {
        mock_post(*t.gw.beta, "/__mock/faults", R"({"status":429})");
        auto res = t.post("/v1/perps/beta/orders", body);
        require_error(res, 503, "PROVIDER_UNAVAILABLE");
        CHECK_FALSE(res.retry_after.empty());
    }
    SECTION("no answer in time: 504 UPSTREAM_TIMEOUT, the order's state unknown") {
        mock_post(*t.gw.beta, "/__mock/faults", R"({"latencyMs":1500})");
        auto res = t.post("/v1/perps/beta/orders", body);
        require_error(res, 504, "UPSTREAM_TIMEOUT");
        CHECK(contains(error_of(res).at("message").as_string(), "unknown"));
        CHECK(contains(error_of(res).at("message").as_string(), "/orders"));
    }
    SECTION("the connection dropped after sending: 502 saying the outcome is unknown") {
        mock_post(*t.gw.beta, "/__mock/faults", R"({"drop":true})");
        auto res = t.post("/v1/perps/beta/orders", body);
        require_error(res, 502, "UPSTREAM_ERROR");
        CHECK(contains(error_of(res).at("message").as_string(), "unknown"));
    }
    REQUIRE(fetch(verb::delete_, t.gw.beta->base_url() + "/__mock/faults").status == 200);
    CHECK(upstream_calls(*t.gw.beta, "POST /fapi/v3/order") == 1);
}

TEST_CASE("beta typed-data: params, typed data and digest any wallet can sign",
          "[contract][beta][trading]") {
    trading t;

    SECTION("a trailing stop: the message is the SDK's derivation; signed, it is verified") {
        typed_data_request req;
        req.operation = typed_data_operation::place_order;
        req.params["symbol"] = "BTC";
        req.params["side"] = "sell";
        req.params["type"] = "trailing_stop";
        req.params["size"] = "0.01";
        req.params["callbackRate"] = "1";
        req.params["activationPrice"] = "70000";
        req.params["reduceOnly"] = true;
        req.params["wallet"] = t.wallet.address().str();
        auto td = t.c.typed_data(vertical::perps, "beta", req);
        REQUIRE(td);
        CHECK(td->typed_data.at("primaryType").as_string() == "Message");
        CHECK(td->typed_data.at("domain").at("name").as_string() == "AsterSignTransaction");
        CHECK(td->typed_data.at("domain").at("chainId").as_int64() == 1666);
        auto const nonce = td->params.at("nonce").to_number<std::int64_t>();
        CHECK(std::abs(nonce - t.gw.clock->now_ms()) < 5000); // picked by the gateway
        std::string const msg(td->typed_data.at("message").at("msg").as_string());
        CHECK(msg == "symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01&"
                     "callbackRate=1&activationPrice=70000&reduceOnly=true&nonce=" +
                         std::to_string(nonce) + "000&user=" + t.wallet.address().str() +
                         "&signer=" + t.wallet.address().str());
        CHECK(td->digest == "0x" + util::to_hex(sb::digest(msg, false), false));
        auto digest = sign::eip712::hash_typed_data(td->typed_data);
        REQUIRE(digest);
        CHECK(td->digest == "0x" + util::to_hex(*digest, false));
        CHECK_FALSE(td->params.contains("signature"));

        auto sig = t.wallet.sign_typed_data(td->typed_data);
        REQUIRE(sig);
        json::object body = td->params;
        body["signature"] = *sig;
        auto res = t.post("/v1/perps/beta/orders", body);
        INFO(json::serialize(res.body));
        REQUIRE(res.status == 200); // accepted: a trailing stop waits for its trigger
        CHECK(res.body.at("status") == "open");
        CHECK(res.body.at("averagePrice").is_null());
        CHECK(order_requests(*t.gw.beta) == 1);
    }

    SECTION("cancel and setLeverage: the SDK signs the same digest; testnet is chainId 714") {
        typed_data_request req;
        req.operation = typed_data_operation::set_leverage;
        req.params["symbol"] = "BTC";
        req.params["leverage"] = 20;
        req.params["wallet"] = t.wallet.address().str();
        req.params["nonce"] = 1700000000000;
        auto td = t.c.typed_data(vertical::perps, "beta", req);
        REQUIRE(td);
        set_leverage_request l;
        l.symbol = "BTC";
        l.leverage = 20;
        auto payload = sb::signing_payload_for(sb::leverage_params(l, t.btc).value(), 1700000000000,
                                               t.wallet.address(), std::nullopt, false);
        REQUIRE(payload);
        CHECK(td->digest == "0x" + util::to_hex(payload->digest, false));

        req.operation = typed_data_operation::cancel_order;
        req.params.erase("leverage");
        req.params["symbol"] = "BTC/USDT";
        req.params["orderId"] = "42";
        auto test_client = t.gw.client_with(t.api_key, true);
        auto spot = test_client.typed_data(vertical::spot, "beta", req);
        REQUIRE(spot);
        CHECK(spot->typed_data.at("domain").at("chainId").as_int64() == 714);
        CHECK(contains(spot->typed_data.at("message").at("msg").as_string(),
                       "symbol=BTCUSDT&orderId=42&nonce=1700000000000000&"));

        req.operation = typed_data_operation::set_leverage;
        auto on_spot = t.c.typed_data(vertical::spot, "beta", req);
        REQUIRE_FALSE(on_spot);
        CHECK(on_spot.error().code == errc::validation_error);
    }
    CHECK(order_requests(*t.gw.beta_testnet) == 0);
}

TEST_CASE("beta markets list the rules the SDK signer checks", "[contract][beta][trading]") {
    trading t;
    CHECK(t.btc.tick_size == d("0.1"));
    CHECK(t.btc.step_size == d("0.001"));
    CHECK(t.btc.min_notional == d("5"));
    CHECK(t.btc.max_leverage == 125);
    CHECK(t.tsla.max_leverage == 10);
    CHECK(t.spot_btc.spot);
    // The SDK refuses what the gateway refuses: a size off the step.
    auto r = order("BTC", side::buy, order_type::limit, "0.0105", "64000");
    auto refused = t.wallet.sign(r, t.btc);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().details.at("field").as_string() == "size");
}

// ---------------------------------------------------------------------------------------------
// Against mock-beta's matching engine (its signed order, cancel and leverage endpoints).

namespace {

/// A funded wallet that approved the gateway's read signer (so its orders, positions and fills
/// read back), on mainnet and testnet.
struct funded : trading {
    funded() {
        for (auto* m : {gw.beta.get(), gw.beta_testnet.get()}) {
            mock_post(*m, "/__mock/accounts",
                      R"({"address":")" + wallet.address().str() +
                          R"(","balances":{"USDT":"100000"},"spotBalances":{"USDT":"100000"}})");
            mock_post(*m, "/__mock/agents",
                      R"({"user":")" + wallet.address().str() + R"(","signer":")" + read_signer() +
                          R"("})");
        }
    }

    std::string read_signer() const {
        auto p = gw.sdk->provider("beta");
        REQUIRE(p);
        REQUIRE(p->vertical_details.front().read_signer);
        return *p->vertical_details.front().read_signer;
    }

    result<place_result> place(place_order_request r, sb::market_rules const& m) const {
        REQUIRE(wallet.sign(r, m));
        return m.spot ? c.place_spot_order("beta", r) : c.place_order("beta", r);
    }

    result<cancel_result> cancel(std::string const& symbol, std::string const& id,
                                 sb::market_rules const& m) const {
        cancel_order_request r;
        r.symbol = symbol;
        r.order_id = id;
        REQUIRE(wallet.sign(r, m));
        return m.spot ? c.cancel_spot_order("beta", r) : c.cancel_order("beta", r);
    }

    std::vector<open_order> open_orders() const {
        return c.open_orders("beta", wallet.address().str()).value();
    }
    std::vector<position> positions() const {
        return c.positions("beta", wallet.address().str()).value();
    }
};

} // namespace

TEST_CASE("beta orders on mock-beta: market fills into a position, limit rests and cancels",
          "[contract][beta][trading]") {
    funded t;

    SECTION("market: filled, shows in positions and fills") {
        auto placed = t.place(order("BTC", side::buy, order_type::market, "0.01"), t.btc);
        REQUIRE(placed);
        CHECK(placed->status == place_status::filled);
        CHECK(placed->filled_size.str() == "0.01");
        REQUIRE(placed->average_price);
        auto pos = t.positions();
        REQUIRE(pos.size() == 1);
        CHECK(pos[0].symbol == "BTC");
        CHECK(pos[0].size.str() == "0.01");
        CHECK(pos[0].entry_price == *placed->average_price);
        auto fills = t.c.fills("beta", t.wallet.address().str()).value();
        REQUIRE_FALSE(fills.empty());
        CHECK(fills[0].order_id == placed->order_id);
        CHECK(fills[0].liquidity == liquidity::taker);
    }

    SECTION("limit: open, listed, canceled once, then 404 ORDER_NOT_FOUND") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "64000");
        r.client_order_id = "0x00000000000000000000000000000abc";
        auto placed = t.place(r, t.btc);
        REQUIRE(placed);
        CHECK(placed->status == place_status::open);
        CHECK(placed->filled_size.str() == "0");
        CHECK_FALSE(placed->average_price);
        CHECK(placed->client_order_id == r.client_order_id);
        auto open = t.open_orders();
        REQUIRE(open.size() == 1);
        CHECK(open[0].order_id == placed->order_id);
        CHECK(open[0].price->str() == "64000");

        auto canceled = t.cancel("BTC", placed->order_id, t.btc);
        REQUIRE(canceled);
        CHECK(canceled->order_id == placed->order_id);
        CHECK(canceled->status == cancel_status::canceled);
        CHECK(t.open_orders().empty());
        auto again = t.cancel("BTC", placed->order_id, t.btc);
        REQUIRE_FALSE(again);
        CHECK(again.error().code == errc::order_not_found);
        CHECK(again.error().status == 404);
    }

    SECTION("leverage: applied, cross") {
        set_leverage_request l;
        l.symbol = "BTC";
        l.leverage = 20;
        REQUIRE(t.wallet.sign(l, t.btc));
        auto res = t.c.set_leverage("beta", l);
        REQUIRE(res);
        CHECK(res->symbol == "BTC");
        CHECK(res->leverage == 20);
        CHECK(res->margin_mode == margin_mode::cross);
    }

    SECTION("spot: a resting BTC/USDT buy cancels through DELETE /v1/spot/beta/orders") {
        auto placed =
            t.place(order("BTC/USDT", side::buy, order_type::limit, "0.01", "64000"), t.spot_btc);
        REQUIRE(placed);
        CHECK(placed->status == place_status::open);
        auto canceled = t.cancel("BTC/USDT", placed->order_id, t.spot_btc);
        REQUIRE(canceled);
        CHECK(canceled->status == cancel_status::canceled);
        CHECK(upstream_calls(*t.gw.beta, "POST /api/v3/order") == 1);
        CHECK(upstream_calls(*t.gw.beta, "DELETE /api/v3/order") == 1);
    }
}

TEST_CASE("beta trailing stop on mock-beta: activates, trails the best mark, fires",
          "[contract][beta][trading]") {
    funded t;
    REQUIRE(t.place(order("BTC", side::buy, order_type::market, "0.01"), t.btc));
    auto trail = order("BTC", side::sell, order_type::trailing_stop, "0.01");
    trail.callback_rate = d("1");
    trail.activation_price = d("66000");
    trail.reduce_only = true;
    auto placed = t.place(trail, t.btc);
    REQUIRE(placed);
    CHECK(placed->status == place_status::open);
    auto open = t.open_orders();
    REQUIRE(open.size() == 1);
    CHECK(open[0].type == order_type::trailing_stop);
    REQUIRE(open[0].callback_rate);
    CHECK(open[0].callback_rate->str() == "1");

    // Each mark is seen by the next request (the mock's engine syncs per request).
    for (auto const* mark : {"66500", "67000", "66800"}) {
        set_mark(*t.gw.beta, "BTC", mark);
        CHECK(t.open_orders().size() == 1); // activated at 66500, highest 67000, 66800 > 66330
    }
    set_mark(*t.gw.beta, "BTC", "66300"); // <= 67000 x 0.99: fires
    CHECK(t.open_orders().empty());
    CHECK(t.positions().empty());
    auto fills = t.c.fills("beta", t.wallet.address().str()).value();
    REQUIRE(fills.size() >= 2);
    CHECK(fills[0].order_id == placed->order_id);
    CHECK(fills[0].side == side::sell);
}

TEST_CASE("beta refusals from mock-beta: 400 ORDER_REJECTED with the upstream's reason",
          "[contract][beta][trading]") {
    funded t;

    SECTION("reduce-only with no position") {
        auto r = order("BTC", side::sell, order_type::market, "0.01");
        r.reduce_only = true;
        auto placed = t.place(r, t.btc);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "ReduceOnly Order is rejected."));
    }
    SECTION("post-only that would cross: expires unfilled") {
        auto const ask = t.c.orderbook("beta", "BTC").value().asks.at(0);
        auto r = order("BTC", side::buy, order_type::limit, "0.01");
        r.price = ask.price;
        r.time_in_force = time_in_force::alo;
        auto placed = t.place(r, t.btc);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(t.open_orders().empty());
    }
    SECTION("margin the account does not have") {
        auto placed = t.place(order("BTC", side::buy, order_type::market, "100"), t.btc);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "Margin is insufficient."));
    }
    SECTION("a stop that would trigger at once") {
        auto r = order("BTC", side::sell, order_type::stop_market, "0.01");
        r.trigger_price = d("66000"); // a sell stop above the mark
        auto placed = t.place(r, t.btc);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "immediately trigger"));
    }
}

TEST_CASE("beta API wallets: an approved signer trades for the wallet, another is refused "
          "upstream",
          "[contract][beta][trading]") {
    funded t;
    sb::signer agent{key(stranger_key)};
    auto r = order("BTC", side::buy, order_type::limit, "0.01", "64000");
    r.wallet = t.wallet.address();
    REQUIRE(agent.sign(r, t.btc));
    REQUIRE(r.signer);

    // Not approved: the gateway verifies the signature (it is the body's signer), the upstream
    // refuses the signer.
    auto before = t.c.place_order("beta", r);
    REQUIRE_FALSE(before);
    CHECK(before.error().code == errc::signature_error);
    CHECK(contains(before.error().message, agent.address().str()));

    mock_post(*t.gw.beta, "/__mock/agents",
              R"({"user":")" + t.wallet.address().str() + R"(","signer":")" +
                  agent.address().str() + R"("})");
    r.nonce = 0; // a fresh nonce and signature
    REQUIRE(agent.sign(r, t.btc));
    auto placed = t.c.place_order("beta", r);
    REQUIRE(placed);
    CHECK(placed->status == place_status::open);
    auto open = t.open_orders();
    REQUIRE(open.size() == 1); // booked for the wallet
    CHECK(open[0].order_id == placed->order_id);
}

TEST_CASE("beta testnet on mock-beta: a chainId 714 order fills on the testnet upstream",
          "[contract][beta][trading]") {
    funded t;
    sb::signer testnet{key(wallet_key), true};
    auto r = order("BTC", side::buy, order_type::market, "0.01");
    REQUIRE(testnet.sign(r, t.btc));
    auto placed = t.gw.client_with(t.api_key, true).place_order("beta", r);
    REQUIRE(placed);
    CHECK(placed->status == place_status::filled);
    CHECK(upstream_calls(*t.gw.beta_testnet, "POST /fapi/v3/order") == 1);
    CHECK(upstream_calls(*t.gw.beta, "POST /fapi/v3/order") == 0);
    CHECK(t.gw.client_with(t.api_key, true).positions("beta", t.wallet.address().str())->size() ==
          1);
    CHECK(t.positions().empty());
}

} // namespace beta_trading_test
