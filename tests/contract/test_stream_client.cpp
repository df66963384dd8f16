// The SDK's stream client -> gatewayd's /ws/v1/perps -> mock-alpha's and mock-beta's WebSocket:
// every channel on both providers through one connection, an order placed through the REST SDK
// client showing up on `orders` and `fills`, a mark move on `prices`, each handshake refusal as
// an api_error that is never retried, and the client's own connection dropping (gatewayd
// restarted on the same port) followed by reconnect, resubscribe and live data again. Every
// wait is on a delivered event with a deadline.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/mock_control.hpp"
#include "support/stream_recorder.hpp"
#include "support/test_gateway.hpp"
#include "support/trading.hpp"

#include <gateway/providers/alpha.hpp>
#include <gateway/providers/beta.hpp>
#include <gateway/stream/client.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace stream_client_contract_test {

using namespace gateway;
using namespace gateway::test;
using namespace std::chrono_literals;
namespace gs = gateway::stream;
namespace sa = gateway::sign::alpha;
namespace sb = gateway::sign::beta;

namespace {

constexpr auto deadline = std::chrono::seconds(20);

// mock-alpha's BTC (alpha.md §2: asset 0, szDecimals 5, max leverage 40).
constexpr sa::market_rules alpha_btc{0, 5, false, 40};

gs::subscription sub(gs::channel c, std::string provider, std::string const& wallet = {}) {
    return gateway::test::sample_subscription(c, std::move(provider), 5, wallet);
}

constexpr gs::channel all_channels[] = {gs::channel::prices,    gs::channel::trades,
                                        gs::channel::orderbook, gs::channel::candles,
                                        gs::channel::orders,    gs::channel::fills};

/// gatewayd + mocks (books every 50 ms upstream), a key, a wallet funded on alpha and beta that
/// approved beta's read signer, and the REST SDK client.
struct streams_env {
    test_gateway gw{[](server::server_config& cfg) { cfg.market_cache_ttl = 0ms; },
                    [](mocks::mock_options& m) {
                        m.ws_book_interval = 50ms;
                        m.rate_limits = false;
                    }};
    std::string api_key = gw.create_key(server::auth::key_env::live, 1000.0);
    client c = gw.client_with(api_key);
    sa::signer alpha_wallet{key(wallet_key)};
    sb::signer beta_wallet{key(wallet_key)};
    std::string wallet = alpha_wallet.address().str();

    streams_env() {
        set_mark(*gw.alpha, "BTC", "65000");
        set_mark(*gw.beta, "BTC", "65000");
        mock_post(*gw.alpha, "/__mock/accounts",
                  R"({"address":")" + wallet + R"(","balances":{"USDC":"100000"}})");
        mock_post(*gw.beta, "/__mock/accounts",
                  R"({"address":")" + wallet + R"(","balances":{"USDT":"100000"}})");
        auto p = gw.sdk->provider("beta");
        REQUIRE(p);
        REQUIRE(p->vertical_details.front().read_signer);
        mock_post(*gw.beta, "/__mock/agents",
                  R"({"user":")" + wallet + R"(","signer":")" +
                      *p->vertical_details.front().read_signer + R"("})");
    }

    gs::client_options options(std::optional<std::string> key) const {
        gs::client_options o;
        o.url = gw.base_url;
        o.api_key = std::move(key);
        o.reconnect_min = 20ms;
        o.reconnect_max = 200ms;
        o.request_timeout = 15s;
        return o;
    }

    sb::market_rules beta_btc() const {
        for (auto const& m : c.markets(vertical::perps, "beta").value())
            if (m.symbol == "BTC")
                return sb::rules_of(m, false);
        FAIL("beta lists no BTC market");
        return {};
    }

    result<place_result> place(std::string const& provider, place_order_request r) {
        if (provider == "alpha")
            REQUIRE(alpha_wallet.sign(r, alpha_btc));
        else
            REQUIRE(beta_wallet.sign(r, beta_btc()));
        return c.place_order(provider, r);
    }
};

bool has_order(std::vector<open_order> const& list, std::string const& id) {
    return std::any_of(list.begin(), list.end(), [&](auto const& o) { return o.order_id == id; });
}

} // namespace

TEST_CASE("stream client: every channel on alpha and beta through one connection: REST orders "
          "show on orders and fills, a mark move on prices",
          "[contract][stream]") {
    streams_env env;
    stream_recorder rec;
    stream_runner ws(env.options(env.api_key), rec.handlers());
    REQUIRE(ws.connect());

    for (auto const* provider : {"alpha", "beta"})
        for (auto c : all_channels) {
            auto const ack = ws.subscribe(sub(c, provider, env.wallet));
            INFO(provider << " " << to_string(c));
            REQUIRE(ack);
            CHECK(*ack == sub(c, provider, env.wallet));
        }

    for (std::string const provider : {"alpha", "beta"}) {
        INFO(provider);
        // The book: whole, at most the subscribed depth, bids below asks.
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                return std::any_of(r.books.begin(), r.books.end(),
                                   [&](auto const& b) { return b.sub.provider == provider; });
            },
            deadline));
        rec.with([&](auto const& r) {
            for (auto const& b : r.books) {
                if (b.sub.provider != provider)
                    continue;
                CHECK(b.book.symbol == "BTC");
                CHECK(b.sub.depth == 5);
                REQUIRE_FALSE(b.book.bids.empty());
                REQUIRE_FALSE(b.book.asks.empty());
                CHECK(b.book.bids.size() <= 5);
                CHECK(b.book.asks.size() <= 5);
                CHECK(b.book.bids.front().price.str() != b.book.asks.front().price.str());
            }
            return 0;
        });

        // A mark move shows on prices.
        set_mark(provider == "alpha" ? *env.gw.alpha : *env.gw.beta, "BTC", "66100");
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                return std::any_of(r.prices.begin(), r.prices.end(), [&](auto const& p) {
                    auto const it = p.value.find("BTC");
                    return p.sub.provider == provider && it != p.value.end() &&
                           it->second.str() == "66100";
                });
            },
            deadline));

        // A resting order placed through REST appears on `orders`; canceled, it leaves.
        auto const resting =
            env.place(provider, order("BTC", side::buy, order_type::limit, "0.01", "64000"));
        REQUIRE(resting);
        auto const rid = resting->order_id;
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                return !r.orders.empty() && r.orders.back().sub.provider == provider &&
                       has_order(r.orders.back().value, rid);
            },
            deadline));
        rec.with([&](auto const& r) {
            auto const& list = r.orders.back().value;
            auto const it = std::find_if(list.begin(), list.end(),
                                         [&](auto const& o) { return o.order_id == rid; });
            CHECK(it->symbol == "BTC");
            CHECK(it->side == side::buy);
            CHECK(it->price->str() == "64000");
            CHECK(it->size.str() == "0.01");
            CHECK(r.orders.back().sub.address == env.wallet);
            return 0;
        });
        cancel_order_request cancel;
        cancel.symbol = "BTC";
        cancel.order_id = rid;
        if (provider == "alpha")
            REQUIRE(env.alpha_wallet.sign(cancel, alpha_btc));
        else
            REQUIRE(env.beta_wallet.sign(cancel, env.beta_btc()));
        REQUIRE(env.c.cancel_order(provider, cancel));
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                for (auto it = r.orders.rbegin(); it != r.orders.rend(); ++it)
                    if (it->sub.provider == provider)
                        return !has_order(it->value, rid);
                return false;
            },
            deadline));

        // A market order fills: its fill on `fills` (as REST lists it), a trade, a candle.
        // alpha's market orders carry their worst acceptable price (mark 66100 + 5%).
        auto market = order("BTC", side::buy, order_type::market, "0.01");
        if (provider == "alpha")
            market.price = d("69400");
        auto const taken = env.place(provider, market);
        REQUIRE(taken);
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                for (auto const& f : r.fills)
                    if (f.sub.provider == provider)
                        for (auto const& x : f.value)
                            if (x.order_id == taken->order_id)
                                return true;
                return false;
            },
            deadline));
        auto const rest_fills = env.c.fills(provider, env.wallet).value();
        REQUIRE_FALSE(rest_fills.empty());
        rec.with([&](auto const& r) {
            for (auto const& f : r.fills)
                for (auto const& x : f.value)
                    if (f.sub.provider == provider && x.order_id == taken->order_id) {
                        CHECK(x.symbol == "BTC");
                        CHECK(x.side == side::buy);
                        CHECK(x.liquidity == liquidity::taker);
                        auto const same = std::find_if(rest_fills.begin(), rest_fills.end(),
                                                       [&](auto const& y) { return y.id == x.id; });
                        REQUIRE(same != rest_fills.end());
                        CHECK(same->price == x.price);
                        CHECK(same->size == x.size);
                        CHECK(same->fee == x.fee);
                    }
            return 0;
        });
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                return std::any_of(r.trades.begin(), r.trades.end(), [&](auto const& t) {
                    return t.sub.provider == provider && !t.value.empty();
                });
            },
            deadline));
        REQUIRE(rec.wait_for(
            [&](auto const& r) {
                return std::any_of(r.candles.begin(), r.candles.end(), [&](auto const& k) {
                    return k.sub.provider == provider && k.sub.interval == "1m" &&
                           k.value.size() == 1;
                });
            },
            deadline));
    }
    rec.with([](auto const& r) {
        CHECK(r.errors.empty());
        return 0;
    });
}

TEST_CASE("stream client: subscriptions the gateway refuses come back as api_errors",
          "[contract][stream]") {
    streams_env env;
    stream_recorder rec;
    stream_runner ws(env.options(env.api_key), rec.handlers());
    REQUIRE(ws.connect());
    auto unknown_market = sub(gs::channel::orderbook, "alpha");
    unknown_market.symbol = "NOPE";
    auto r = ws.subscribe(unknown_market);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::market_not_found);
    r = ws.subscribe(sub(gs::channel::prices, "nowhere"));
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::provider_not_found);
    REQUIRE(ws.subscribe(sub(gs::channel::prices, "alpha")));
    r = ws.subscribe(sub(gs::channel::prices, "alpha")); // the same again
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::validation_error);
    CHECK(ws.ping());
    CHECK(ws.client.connected()); // errors are frames, the connection stays
}

TEST_CASE("stream client: each refused handshake is an api_error, final, never retried",
          "[contract][stream]") {
    streams_env env;
    struct refusal {
        char const* what;
        std::optional<std::string> key;
        bool testnet;
        errc code;
        unsigned status;
    };
    auto const expiring =
        env.gw.create_key(server::auth::key_env::live, std::nullopt, std::chrono::seconds(60));
    env.gw.clock->advance(61'000ms);
    std::vector<refusal> const cases{
        {"missing key", std::nullopt, false, errc::invalid_api_key, 401},
        {"invalid key", std::string("svc_live_") + std::string(40, 'a'), false,
         errc::invalid_api_key, 401},
        {"expired key", expiring, false, errc::invalid_api_key, 401},
        {"test key outside testnet", env.gw.create_key(server::auth::key_env::test), false,
         errc::testnet_key_only, 403},
    };
    for (auto const& c : cases) {
        INFO(c.what);
        stream_recorder rec;
        auto o = env.options(c.key);
        o.testnet = c.testnet;
        stream_runner ws(o, rec.handlers());
        auto const r = ws.connect();
        REQUIRE_FALSE(r);
        CHECK(r.error().code == c.code);
        CHECK(r.error().status == c.status);
        CHECK_FALSE(r.error().message.empty());
        REQUIRE(rec.wait_for([](auto const& x) { return x.closed.has_value(); }));
        CHECK_FALSE(ws.client.connected());
        auto const again = ws.connect(); // closed for good: not even tried
        REQUIRE_FALSE(again);
        CHECK(again.error().code == errc::transport_error);
    }

    SECTION("a test key on the testnet path is admitted") {
        stream_recorder rec;
        auto o = env.options(env.gw.create_key(server::auth::key_env::test));
        o.testnet = true;
        stream_runner ws(o, rec.handlers());
        REQUIRE(ws.connect());
        REQUIRE(ws.subscribe(sub(gs::channel::orderbook, "alpha")));
        REQUIRE(rec.wait_for([](auto const& x) { return !x.books.empty(); }, deadline));
    }
}

TEST_CASE("stream client: its connection dropped (gatewayd restarted) it reconnects, resubscribes "
          "and streams again, and a key revoked meanwhile ends it",
          "[contract][stream]") {
    streams_env env;
    stream_recorder rec;
    stream_runner ws(env.options(env.api_key), rec.handlers());
    REQUIRE(ws.connect());
    auto const book = sub(gs::channel::orderbook, "alpha");
    auto const fills = sub(gs::channel::fills, "beta", env.wallet);
    REQUIRE(ws.subscribe(book));
    REQUIRE(ws.subscribe(fills));
    REQUIRE(rec.wait_for([](auto const& r) { return !r.books.empty(); }, deadline));

    // The same port after the restart, so the client finds it again.
    env.gw.config.listen = "127.0.0.1:" + std::to_string(env.gw.port);
    env.gw.restart();

    auto const local = [](auto const& r, gs::stream_status s) {
        return std::count_if(r.statuses.begin(), r.statuses.end(),
                             [&](auto const& e) { return e.local && e.status == s; });
    };
    REQUIRE(rec.wait_for([&](auto const& r) { return local(r, gs::stream_status::restored) == 2; },
                         deadline));
    CHECK(ws.client.reconnects() == 1);
    std::size_t const books_before = rec.with([](auto const& r) { return r.books.size(); });
    rec.with([&](auto const& r) {
        CHECK(local(r, gs::stream_status::reconnecting) == 2);
        CHECK(r.errors.empty());
        return 0;
    });
    // Live again: a fresh book (a new seq baseline, no gap) and a fill of a new order.
    REQUIRE(
        rec.wait_for([&](auto const& r) { return r.books.size() >= books_before + 2; }, deadline));
    auto const taken = env.place("beta", order("BTC", side::buy, order_type::market, "0.01"));
    REQUIRE(taken);
    REQUIRE(rec.wait_for(
        [&](auto const& r) {
            for (auto const& f : r.fills)
                for (auto const& x : f.value)
                    if (x.order_id == taken->order_id)
                        return true;
            return false;
        },
        deadline));
    rec.with([](auto const& r) {
        CHECK(r.gaps.empty());
        return 0;
    });

    // The key revoked, then the connection drops again: the reconnect is refused, for good.
    auto& accounts = env.gw.app->accounts();
    auto const keys = accounts.list_keys(*env.gw.account_id);
    REQUIRE(keys.size() == 1);
    REQUIRE(accounts.revoke_key(*env.gw.account_id, keys[0].id));
    env.gw.restart();
    REQUIRE(rec.wait_for([](auto const& r) { return r.closed.has_value(); }, deadline));
    rec.with([](auto const& r) {
        REQUIRE(r.closed->has_value());
        CHECK((*r.closed)->code == errc::invalid_api_key);
        return 0;
    });
    CHECK_FALSE(ws.client.connected());
    CHECK(ws.client.reconnects() == 1);
}

} // namespace stream_client_contract_test
