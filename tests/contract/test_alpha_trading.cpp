// Provider alpha's signed writes through the SDK signer -> SDK client -> gatewayd -> mock-alpha's
// /exchange, offline (spec 2.10, 3, 4.2 writes, 4.4; CONTRACT §2, §5, §6.1, §7). The mock
// verifies signatures and nonces as the upstream does and matches orders against its book, so
// a passing write here is one the real upstream would accept.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/fetch.hpp"
#include "support/mock_control.hpp"
#include "support/test_gateway.hpp"
#include "support/trading.hpp"

#include <gateway/providers/alpha.hpp>
#include <gateway/sign/sign.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

namespace alpha_trading_test {

using namespace gateway;
using gateway::test::fetch;
using namespace gateway::test;
using verb = boost::beast::http::verb;
namespace json = boost::json;
namespace sa = gateway::sign::alpha;

namespace {

// The mock's markets (alpha.md §2 asset ids; szDecimals and maxLeverage from its meta).
constexpr sa::market_rules btc{0, 5, false, 40};
constexpr sa::market_rules eth{1, 4, false, 25};
constexpr sa::market_rules purr{10000, 0, true, 0};

/// Funds `who` on a mock (perps collateral and spot balances).
void fund(mocks::mock_server& m, address const& who) {
    mock_post(
        m, "/__mock/accounts",
        R"({"address":")" + who.str() +
            R"(","balances":{"USDC":"100000","PURR":"100000"},"spotBalances":{"USDC":"100000"}})");
}

/// Everything a trading test needs: gateway + mocks, a key, a funded wallet and its signer.
struct trading {
    test::test_gateway gw;
    std::string api_key = gw.create_key();
    client c = gw.client_with(api_key);
    sa::signer wallet{key(wallet_key)};

    explicit trading(test::test_gateway::tweak adjust = {})
        : gw(std::move(adjust)) {
        set_mark(*gw.alpha, "BTC", "65000");
        set_mark(*gw.alpha, "ETH", "3500");
        fund(*gw.alpha, wallet.address());
    }

    /// Signs as the wallet itself and places.
    result<place_result> place(place_order_request r, sa::market_rules const& m = btc) {
        REQUIRE(wallet.sign(r, m));
        return m.spot ? c.place_spot_order("alpha", r) : c.place_order("alpha", r);
    }

    result<cancel_result> cancel(std::string const& symbol, std::string const& id,
                                 sa::market_rules const& m = btc) {
        cancel_order_request r;
        r.symbol = symbol;
        r.order_id = id;
        REQUIRE(wallet.sign(r, m));
        return m.spot ? c.cancel_spot_order("alpha", r) : c.cancel_order("alpha", r);
    }

    std::vector<open_order> open_orders() {
        return c.open_orders("alpha", wallet.address().str()).value();
    }

    gateway::orderbook book(std::string const& symbol) {
        orderbook_params p;
        p.depth = 5;
        return c.orderbook("alpha", symbol, p).value();
    }
};

} // namespace

TEST_CASE("alpha orders: every order type, partial fill, cancel and cancel again",
          "[contract][alpha][trading]") {
    trading t;

    SECTION("market: fills at once against the book, averagePrice set") {
        auto r = order("BTC", side::buy, order_type::market, "0.01", "68250"); // mid + 5%
        auto placed = t.place(r);
        REQUIRE(placed);
        CHECK(placed->status == place_status::filled);
        CHECK(placed->filled_size.str() == "0.01");
        REQUIRE(placed->average_price);
        CHECK(*placed->average_price > decimal::parse("65000").value());
        CHECK_FALSE(placed->order_id.empty());
        auto pos = t.c.positions("alpha", t.wallet.address().str()).value();
        REQUIRE(pos.size() == 1);
        CHECK(pos[0].symbol == "BTC");
        CHECK(pos[0].size.str() == "0.01");
        CHECK(pos[0].entry_price == *placed->average_price);
        auto fills = t.c.fills("alpha", t.wallet.address().str()).value();
        REQUIRE_FALSE(fills.empty());
        CHECK(fills[0].order_id == placed->order_id);
    }

    SECTION("limit: rests (open), is listed, cancels once, then 404 ORDER_NOT_FOUND") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        r.client_order_id = "0x00000000000000000000000000000abc";
        auto placed = t.place(r);
        REQUIRE(placed);
        CHECK(placed->status == place_status::open);
        CHECK(placed->filled_size.str() == "0");
        CHECK_FALSE(placed->average_price);
        CHECK(placed->client_order_id == r.client_order_id);
        auto open = t.open_orders();
        REQUIRE(open.size() == 1);
        CHECK(open[0].order_id == placed->order_id);
        CHECK(open[0].price->str() == "60000");

        auto canceled = t.cancel("BTC", placed->order_id);
        REQUIRE(canceled);
        CHECK(canceled->order_id == placed->order_id);
        CHECK(canceled->status == cancel_status::canceled);
        CHECK(t.open_orders().empty());

        auto again = t.cancel("BTC", placed->order_id);
        REQUIRE_FALSE(again);
        CHECK(again.error().code == errc::order_not_found);
        CHECK(again.error().status == 404);
    }

    SECTION("limit crossing the book: filled at the makers' prices") {
        auto const ask = t.book("BTC").asks.at(0);
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "66000");
        auto placed = t.place(r);
        REQUIRE(placed);
        CHECK(placed->status == place_status::filled);
        CHECK(*placed->average_price == ask.price);
    }

    SECTION("IOC larger than the best level: partially_filled, the rest canceled") {
        auto const ask = t.book("BTC").asks.at(0);
        auto r = order("BTC", side::buy, order_type::limit, "0", ask.price.str());
        r.size = decimal::parse(std::to_string(std::stod(ask.size.str()) + 0.5)).value();
        r.time_in_force = time_in_force::ioc;
        auto placed = t.place(r);
        REQUIRE(placed);
        CHECK(placed->status == place_status::partially_filled);
        CHECK(placed->filled_size == ask.size);
        CHECK(*placed->average_price == ask.price);
        CHECK(t.open_orders().empty()); // IOC: nothing rests
    }

    SECTION("Gtc larger than the best level: partially_filled, the rest rests") {
        auto const ask = t.book("BTC").asks.at(0);
        auto r = order("BTC", side::buy, order_type::limit, "0", ask.price.str());
        r.size = decimal::parse(std::to_string(std::stod(ask.size.str()) + 0.5)).value();
        auto placed = t.place(r);
        REQUIRE(placed);
        CHECK(placed->status == place_status::partially_filled);
        CHECK(placed->filled_size == ask.size);
        REQUIRE(placed->average_price);
        CHECK(*placed->average_price == ask.price);
        auto open = t.open_orders();
        REQUIRE(open.size() == 1);
        CHECK(open[0].order_id == placed->order_id);
        CHECK(open[0].filled_size == ask.size);
    }

    SECTION("stop_market: open until the mark crosses the trigger, then it fills") {
        // A long to protect, then a stop-loss sell below the market.
        REQUIRE(t.place(order("BTC", side::buy, order_type::market, "0.02", "68250")));
        auto stop = order("BTC", side::sell, order_type::stop_market, "0.02", "55000");
        stop.trigger_price = decimal::parse("60000").value();
        stop.reduce_only = true;
        auto placed = t.place(stop);
        REQUIRE(placed);
        CHECK(placed->status == place_status::open);
        auto open = t.open_orders();
        REQUIRE(open.size() == 1);
        CHECK(open[0].type == order_type::stop_market);
        CHECK(open[0].trigger_price->str() == "60000");

        set_mark(*t.gw.alpha, "BTC", "59000");
        CHECK(t.open_orders().empty());
        CHECK(t.c.positions("alpha", t.wallet.address().str()).value().empty());
        auto fills = t.c.fills("alpha", t.wallet.address().str()).value();
        REQUIRE(fills.size() >= 2);
        CHECK(fills[0].order_id == placed->order_id);
        CHECK(fills[0].side == side::sell);
    }

    SECTION("stop_limit: rests untriggered with its trigger price") {
        auto r = order("ETH", side::buy, order_type::stop_limit, "0.5", "3700");
        r.trigger_price = decimal::parse("3650").value();
        auto placed = t.place(r, eth);
        REQUIRE(placed);
        CHECK(placed->status == place_status::open);
        auto open = t.open_orders();
        REQUIRE(open.size() == 1);
        CHECK(open[0].type == order_type::stop_limit);
        CHECK(open[0].price->str() == "3700");
        CHECK(open[0].trigger_price->str() == "3650");
    }

    SECTION("spot: a limit buy of PURR/USDC crossing the book fills and moves balances") {
        set_mark(*t.gw.alpha, "PURR/USDC", "0.185");
        auto r = order("PURR/USDC", side::buy, order_type::limit, "100", "0.2");
        auto placed = t.place(r, purr);
        REQUIRE(placed);
        CHECK(placed->status == place_status::filled);
        auto balances = t.c.spot_balances("alpha", t.wallet.address().str()).value();
        bool saw = false;
        for (auto const& b : balances)
            if (b.asset == "PURR") {
                saw = true;
                CHECK(b.total > decimal::parse("100000").value());
            }
        CHECK(saw);
    }
}

TEST_CASE("alpha spot and rwas orders: the spot cancel path and a builder-dex asset",
          "[contract][alpha][trading]") {
    trading t;
    constexpr sa::market_rules tsla{110000, 3, false, 10};

    SECTION("spot: a resting PURR/USDC sell cancels through DELETE /v1/spot/alpha/orders") {
        set_mark(*t.gw.alpha, "PURR/USDC", "0.185");
        auto placed =
            t.place(order("PURR/USDC", side::sell, order_type::limit, "100", "0.3"), purr);
        REQUIRE(placed);
        CHECK(placed->status == place_status::open);
        auto canceled = t.cancel("PURR/USDC", placed->order_id, purr);
        REQUIRE(canceled);
        CHECK(canceled->status == cancel_status::canceled);
        auto again = t.cancel("PURR/USDC", placed->order_id, purr);
        REQUIRE_FALSE(again);
        CHECK(again.error().code == errc::order_not_found);
    }

    SECTION("rwas: xyz:TSLA trades as asset 110000 on the perps path") {
        set_mark(*t.gw.alpha, "xyz:TSLA", "430");
        auto r = order("xyz:TSLA", side::buy, order_type::market, "1", "451.5");
        REQUIRE(t.wallet.sign(r, tsla));
        auto placed = t.c.place_order("alpha", r);
        REQUIRE(placed);
        CHECK(placed->status == place_status::filled);
        auto pos = t.c.positions("alpha", t.wallet.address().str()).value();
        REQUIRE(pos.size() == 1);
        CHECK(pos[0].symbol == "xyz:TSLA");
        CHECK(pos[0].size.str() == "1");
    }
}

TEST_CASE("alpha orders refused by the upstream: 400 ORDER_REJECTED with its reason",
          "[contract][alpha][trading]") {
    trading t;

    SECTION("reduce-only with no position") {
        auto r = order("ETH", side::sell, order_type::limit, "0.5", "3600");
        r.reduce_only = true;
        auto placed = t.place(r, eth);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "Reduce only order would increase position."));
    }

    SECTION("post-only that would cross") {
        auto const ask = t.book("BTC").asks.at(0);
        auto r = order("BTC", side::buy, order_type::limit, "0.01", ask.price.str());
        r.time_in_force = time_in_force::alo;
        auto placed = t.place(r);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "Post only order would have immediately matched"));
    }

    SECTION("below the $10 minimum notional") {
        auto placed = t.place(order("BTC", side::buy, order_type::limit, "0.0001", "60000"));
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::order_rejected);
        CHECK(contains(placed.error().message, "minimum value of $10"));
    }
}

TEST_CASE("alpha writes checked before any upstream call", "[contract][alpha][trading]") {
    trading t;
    auto const exchange_calls = [&] {
        return upstream_calls(*t.gw.alpha, "exchange:order") +
               upstream_calls(*t.gw.alpha, "exchange:cancel") +
               upstream_calls(*t.gw.alpha, "exchange:updateLeverage");
    };

    SECTION("leverage above the market maximum: 400 MAX_LEVERAGE_EXCEEDED naming 40") {
        set_leverage_request r;
        r.symbol = "BTC";
        r.leverage = 50;
        REQUIRE_FALSE(t.wallet.sign(r, btc)); // the SDK refuses to sign it
        r.wallet = t.wallet.address();
        r.nonce = sa::next_nonce_ms();
        r.signature = "0x" + std::string(130, '1');
        auto res =
            raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/leverage", json::value_from(r));
        require_error(res, 400, "MAX_LEVERAGE_EXCEEDED");
        CHECK(contains(res.body.at("error").at("message").as_string(), "40"));
        CHECK(exchange_calls() == 0);
    }

    SECTION("leverage within the maximum: answered and applied") {
        set_leverage_request r;
        r.symbol = "BTC";
        r.leverage = 10;
        r.margin_mode = margin_mode::isolated;
        REQUIRE(t.wallet.sign(r, btc));
        auto res = t.c.set_leverage("alpha", r);
        REQUIRE(res);
        CHECK(res->symbol == "BTC");
        CHECK(res->leverage == 10);
        CHECK(res->margin_mode == margin_mode::isolated);
        CHECK(exchange_calls() == 1);
    }

    SECTION("trailing_stop: 400 UNSUPPORTED_ORDER_TYPE") {
        auto body = body_of(order("BTC", side::sell, order_type::trailing_stop, "0.01", "60000"));
        body["callbackRate"] = "1";
        body["wallet"] = t.wallet.address().str();
        body["nonce"] = sa::next_nonce_ms();
        body["signature"] = "0x" + std::string(130, '1');
        require_error(raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body), 400,
                      "UNSUPPORTED_ORDER_TYPE");
        CHECK(exchange_calls() == 0);
    }

    SECTION("a price off the tick rules and a missing price: 400 VALIDATION_ERROR naming price") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        REQUIRE(t.wallet.sign(r, btc));
        auto body = body_of(r);
        body["price"] = "60000.5"; // 6 significant figures
        require_error(raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body), 400,
                      "VALIDATION_ERROR", "price");
        body.erase("price");
        body["type"] = "market";
        require_error(raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body), 400,
                      "VALIDATION_ERROR", "price");
        CHECK(exchange_calls() == 0);
    }

    SECTION("an unknown market: 404 MARKET_NOT_FOUND") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        REQUIRE(t.wallet.sign(r, btc));
        auto body = body_of(r);
        body["symbol"] = "NOPE";
        require_error(raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body), 404,
                      "MARKET_NOT_FOUND");
        require_error(raw(t.gw, t.api_key, verb::post, "/v1/spot/alpha/orders", body_of(r)), 404,
                      "MARKET_NOT_FOUND");
    }

    SECTION("a body changed after signing: 401 SIGNATURE_ERROR") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        REQUIRE(t.wallet.sign(r, btc));
        auto body = body_of(r);
        body["size"] = "0.02";
        auto res = raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body);
        require_error(res, 401, "SIGNATURE_ERROR", "signature");
        CHECK(res.body.at("error").at("details").at("expected").as_string() ==
              t.wallet.address().str());
        CHECK(exchange_calls() == 0);
    }

    SECTION("an unapproved key: 401 naming the recovered address") {
        sa::signer stranger{key(stranger_key)};
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        r.wallet = t.wallet.address();
        REQUIRE(stranger.sign(r, btc));
        auto placed = t.c.place_order("alpha", r);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::signature_error);
        CHECK(contains(placed.error().message, stranger.address().str()));
        CHECK(contains(placed.error().message, t.wallet.address().str()));
        CHECK(exchange_calls() == 0);
    }

    SECTION("a malformed signature: 401 SIGNATURE_ERROR") {
        auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        REQUIRE(t.wallet.sign(r, btc));
        auto body = body_of(r);
        body["signature"] = "0x1234";
        require_error(raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body), 401,
                      "SIGNATURE_ERROR", "signature");
    }
}

TEST_CASE("alpha agents: an agent approved by the wallet signs for it",
          "[contract][alpha][trading]") {
    // Refusals are not cached here, so the approval is seen on the very next order.
    trading t([](server::server_config& cfg) { cfg.agent_miss_ttl = {}; });
    sa::signer agent{key(agent_key)};
    auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
    r.wallet = t.wallet.address();
    REQUIRE(agent.sign(r, btc));

    // Not approved yet: refused locally, naming the agent.
    auto before = t.c.place_order("alpha", r);
    REQUIRE_FALSE(before);
    CHECK(before.error().code == errc::signature_error);
    CHECK(contains(before.error().message, agent.address().str()));

    // The wallet approves the agent upstream (a user-signed action, alpha.md §4.5).
    json::object approve;
    approve["type"] = "approveAgent";
    approve["hyperliquidChain"] = "Mainnet";
    approve["signatureChainId"] = "0x66eee";
    approve["agentAddress"] = agent.address().str();
    approve["agentName"] = "gw1";
    auto const nonce = sa::next_nonce_ms();
    approve["nonce"] = nonce;
    auto sig = sa::sign_user_signed_action(approve, key(wallet_key));
    REQUIRE(sig);
    json::object envelope;
    envelope["action"] = approve;
    envelope["nonce"] = nonce;
    envelope["signature"] = sa::signature_to_json(*sig);
    envelope["vaultAddress"] = nullptr;
    auto ok = fetch(verb::post, t.gw.alpha->base_url() + "/exchange", json::serialize(envelope));
    REQUIRE(ok.status == 200);
    REQUIRE(json::parse(ok.body).at("status").as_string() == "ok");

    r.nonce = 0; // a fresh nonce and signature
    REQUIRE(agent.sign(r, btc));
    auto placed = t.c.place_order("alpha", r);
    REQUIRE(placed);
    CHECK(placed->status == place_status::open);
    auto open = t.open_orders();
    REQUIRE(open.size() == 1); // booked for the wallet, not the agent
    CHECK(open[0].order_id == placed->order_id);
}

TEST_CASE("alpha agents: a refused signer is remembered briefly, costing no upstream weight",
          "[contract][alpha][trading]") {
    trading t;
    sa::signer stranger{key(stranger_key)};
    auto const lookups = [&] {
        return upstream_calls(*t.gw.alpha, "extraAgents") + upstream_calls(*t.gw.alpha, "userRole");
    };
    auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
    r.wallet = t.wallet.address();
    REQUIRE(stranger.sign(r, btc));
    REQUIRE_FALSE(t.c.place_order("alpha", r));
    CHECK(lookups() == 2); // extraAgents of the wallet, then userRole of the signer
    for (int i = 0; i < 5; ++i) {
        auto again = t.c.place_order("alpha", r);
        REQUIRE_FALSE(again);
        CHECK(again.error().code == errc::signature_error);
    }
    CHECK(lookups() == 2);
    CHECK(upstream_calls(*t.gw.alpha, "exchange:order") == 0);
}

TEST_CASE("alpha nonces: a replay is 401 INVALID_NONCE, also after a restart",
          "[contract][alpha][trading]") {
    trading t;
    auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
    REQUIRE(t.wallet.sign(r, btc));
    REQUIRE(t.c.place_order("alpha", r));
    auto const sent = upstream_calls(*t.gw.alpha, "exchange:order");

    auto replay = t.c.place_order("alpha", r);
    REQUIRE_FALSE(replay);
    CHECK(replay.error().code == errc::invalid_nonce);
    CHECK(replay.error().status == 401);

    t.gw.restart();
    auto c = t.gw.client_with(t.api_key);
    auto after = c.place_order("alpha", r);
    REQUIRE_FALSE(after);
    CHECK(after.error().code == errc::invalid_nonce);
    CHECK(upstream_calls(*t.gw.alpha, "exchange:order") == sent);

    SECTION("a nonce outside the window (now - 2 days .. now + 1 day)") {
        auto old = order("BTC", side::buy, order_type::limit, "0.01", "60000");
        old.nonce = sa::next_nonce_ms() - 3LL * 24 * 3600 * 1000;
        REQUIRE(t.wallet.sign(old, btc));
        auto res = c.place_order("alpha", old);
        REQUIRE_FALSE(res);
        CHECK(res.error().code == errc::invalid_nonce);
    }
}

TEST_CASE("alpha testnet: source \"b\" signatures are accepted only under /v1/testnet/",
          "[contract][alpha][trading]") {
    trading t;
    set_mark(*t.gw.alpha_testnet, "BTC", "65000");
    fund(*t.gw.alpha_testnet, t.wallet.address());
    sa::signer test_signer{key(wallet_key), true};
    auto testnet_client = t.gw.client_with(t.api_key, true);

    auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
    REQUIRE(test_signer.sign(r, btc));
    auto on_mainnet = t.c.place_order("alpha", r);
    REQUIRE_FALSE(on_mainnet);
    CHECK(on_mainnet.error().code == errc::signature_error);

    auto on_testnet = testnet_client.place_order("alpha", r);
    REQUIRE(on_testnet);
    CHECK(on_testnet->status == place_status::open);
    CHECK(upstream_calls(*t.gw.alpha_testnet, "exchange:order") == 1);
    CHECK(upstream_calls(*t.gw.alpha, "exchange:order") == 0);
}

TEST_CASE("alpha typed-data: canonical params and digest, signed and accepted",
          "[contract][alpha][trading]") {
    trading t;

    SECTION("a market order without price gets mid +/- 5% in params") {
        typed_data_request req;
        req.operation = typed_data_operation::place_order;
        req.params["symbol"] = "BTC";
        req.params["side"] = "buy";
        req.params["type"] = "market";
        req.params["size"] = "0.01";
        req.params["wallet"] = t.wallet.address().str();
        auto td = t.c.typed_data(vertical::perps, "alpha", req);
        REQUIRE(td);
        auto const price = decimal::parse(td->params.at("price").as_string()).value();
        CHECK(price > decimal::parse("68000").value()); // mid 65000 (pinned) x 1.05 = 68250
        CHECK(price < decimal::parse("68500").value());
        CHECK(td->params.contains("nonce"));
        CHECK_FALSE(td->params.contains("signature"));
        CHECK(td->typed_data.at("primaryType").as_string() == "Agent");
        CHECK(td->digest.size() == 66);

        // Any wallet signs the typed data; posting params + signature places the order.
        auto sig = t.wallet.sign_typed_data(td->typed_data);
        REQUIRE(sig);
        // The digest is what the typed data hashes to.
        auto digest = sign::eip712::hash_typed_data(td->typed_data);
        REQUIRE(digest);
        CHECK(sign::to_hex(*digest) == td->digest);
        json::object body = td->params;
        body["signature"] = *sig;
        auto res = raw(t.gw, t.api_key, verb::post, "/v1/perps/alpha/orders", body);
        INFO(json::serialize(res.body));
        REQUIRE(res.status == 200);
        CHECK(res.body.at("status").as_string() == "filled");
    }

    SECTION("cancel and setLeverage typed data sign the same actions as the SDK") {
        typed_data_request req;
        req.operation = typed_data_operation::set_leverage;
        req.params["symbol"] = "BTC";
        req.params["leverage"] = 5;
        req.params["wallet"] = t.wallet.address().str();
        req.params["nonce"] = 1700000000000;
        auto td = t.c.typed_data(vertical::perps, "alpha", req);
        REQUIRE(td);
        set_leverage_request r;
        r.symbol = "BTC";
        r.leverage = 5;
        r.wallet = t.wallet.address();
        r.nonce = 1700000000000;
        auto action = sa::leverage_action(r, btc);
        REQUIRE(action);
        auto payload = sa::signing_payload_for(*action, r.nonce, false);
        REQUIRE(payload);
        CHECK(sign::to_hex(payload->digest) == td->digest);

        req.operation = typed_data_operation::set_leverage;
        auto spot = t.c.typed_data(vertical::spot, "alpha", req);
        REQUIRE_FALSE(spot);
        CHECK(spot.error().code == errc::validation_error);
    }
}

TEST_CASE("alpha write without an answer: the order's state is unknown, never retried",
          "[contract][alpha][trading]") {
    trading t;
    REQUIRE(t.c.positions("alpha", t.wallet.address().str())); // markets learned
    auto r = order("BTC", side::buy, order_type::limit, "0.01", "60000");
    REQUIRE(t.wallet.sign(r, btc));

    SECTION("no answer in time: 504 UPSTREAM_TIMEOUT") {
        mock_post(*t.gw.alpha, "/__mock/faults", R"({"latencyMs":1500})");
        auto placed = t.c.place_order("alpha", r);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::upstream_timeout);
        CHECK(contains(placed.error().message, "unknown"));
        CHECK(contains(placed.error().message, "/orders"));
    }
    SECTION("the connection dropped after sending: 502 saying the outcome is unknown") {
        mock_post(*t.gw.alpha, "/__mock/faults", R"({"drop":true})");
        auto placed = t.c.place_order("alpha", r);
        REQUIRE_FALSE(placed);
        CHECK(placed.error().code == errc::upstream_error);
        CHECK(contains(placed.error().message, "unknown"));
        CHECK(contains(placed.error().message, "/orders"));
    }
    REQUIRE(fetch(verb::delete_, t.gw.alpha->base_url() + "/__mock/faults").status == 200);
    CHECK(upstream_calls(*t.gw.alpha, "exchange:order") == 1); // sent once, never retried
}

TEST_CASE("alpha markets list the rules a signer needs", "[contract][alpha][trading]") {
    test::test_gateway gw;
    auto c = gw.client_with(gw.create_key());
    auto perps = c.markets(vertical::perps, "alpha");
    REQUIRE(perps);
    auto find = [](std::vector<market_info> const& all, std::string const& symbol) {
        for (auto const& m : all)
            if (m.symbol == symbol)
                return m;
        FAIL("no market " << symbol);
        return market_info{};
    };
    auto const b = sa::rules_of(find(*perps, "BTC"), false);
    CHECK(b.asset == btc.asset);
    CHECK(b.sz_decimals == btc.sz_decimals);
    CHECK(b.max_leverage == btc.max_leverage);
    CHECK(find(*perps, "xyz:TSLA").asset == 110000); // builder dex 1, index 0 (CONTRACT §6.1)
    auto spot = c.markets(vertical::spot, "alpha");
    REQUIRE(spot);
    auto const p = sa::rules_of(find(*spot, "PURR/USDC"), true);
    CHECK(p.asset == purr.asset);
    CHECK(p.sz_decimals == purr.sz_decimals);
    CHECK(find(*spot, "HFUN/USDC").asset == 10001);
    // beta's rules are other fields (tick and step sizes), alpha's are not there.
    auto beta = c.markets(vertical::perps, "beta");
    REQUIRE(beta);
    auto const& beta_btc = find(*beta, "BTC");
    CHECK_FALSE(beta_btc.asset);
    CHECK_FALSE(beta_btc.sz_decimals);
    CHECK(beta_btc.tick_size);
}

} // namespace alpha_trading_test
