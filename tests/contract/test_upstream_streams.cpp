// The providers' live streams (perps_streams) against the real mocks' WebSocket: alpha's and
// beta's channels in the REST shapes, an order through the mock's own trading endpoint (alpha
// /exchange, beta signed POST /fapi/v3/order) on orders and fills, a mark
// move on prices, a dropped upstream (reconnecting, resubscribe, restored, the book equal to the
// REST book) and a stalled one (stale, then restored). Every wait is on a delivered update with
// a deadline.
#include <catch2/catch.hpp>

#include "config.hpp"
#include "providers/alpha/alpha_map.hpp"
#include "providers/alpha/alpha_provider.hpp"
#include "providers/alpha/alpha_streams.hpp"
#include "providers/beta/beta_map.hpp"
#include "providers/beta/beta_provider.hpp"
#include "providers/beta/beta_streams.hpp"
#include "support/catch_result.hpp"
#include "support/fetch.hpp"
#include "support/mock_beta.hpp"
#include "support/mock_control.hpp"

#include <gateway/mocks/mock_server.hpp>
#include <gateway/net/http_client.hpp>
#include <gateway/providers/alpha/signing.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/sign/nonce.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace upstream_streams_test {

using namespace gateway;
using namespace gateway::server;
namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
namespace sa = gateway::sign::alpha;
using stream::stream_status;
using namespace std::chrono_literals;

// upstreams/alpha.md §6 key (the upstream SDKs' public test key) and its address.
sign::private_key const key =
    sign::private_key::from_hex(
        "0x0123456789012345678901234567890123456789012345678901234567890123")
        .value();
std::string const user = "0x14791697260e4c9a71f18484c9f997b308e59325";

/// One order through mock-alpha's /exchange, signed by the wallet itself.
json::value exchange(mocks::mock_server const& m, bool buy, std::string const& px,
                     std::string const& sz, char const* tif) {
    json::object o;
    o["a"] = 0; // BTC
    o["b"] = buy;
    o["p"] = px;
    o["s"] = sz;
    o["r"] = false;
    o["t"] = json::object{{"limit", json::object{{"tif", tif}}}};
    json::object action{{"type", "order"}, {"orders", json::array{o}}, {"grouping", "na"}};
    auto const nonce = static_cast<std::uint64_t>(sign::next_nonce_ms());
    json::object body;
    body["action"] = action;
    body["nonce"] = nonce;
    body["signature"] =
        sa::signature_to_json(sa::sign_l1_action(action, nonce, key, false).value());
    body["vaultAddress"] = nullptr;
    auto const r = test::fetch(http::verb::post, m.base_url() + "/exchange", json::serialize(body));
    INFO(r.body);
    REQUIRE(r.status == 200);
    auto v = json::parse(r.body);
    REQUIRE(v.at("status") == "ok");
    return v.at("response").at("data").at("statuses").at(0);
}

/// What one subscription delivered, in order, with waits on it.
class collector {
public:
    stream_sink sink() {
        return [st = st_](stream_update u) {
            {
                std::lock_guard lock(st->m);
                st->updates.push_back(std::move(u));
            }
            st->cv.notify_all();
        };
    }

    /// Waits until `pred(updates)` holds; false after `within`.
    template <class Pred>
    bool wait(Pred pred, std::chrono::milliseconds within = 30s) {
        std::unique_lock lock(st_->m);
        return st_->cv.wait_for(lock, within,
                                [&] { return static_cast<bool>(pred(st_->updates)); });
    }

    /// The last data update of type T, if any.
    template <class T>
    std::optional<T> last() {
        std::lock_guard lock(st_->m);
        for (auto it = st_->updates.rbegin(); it != st_->updates.rend(); ++it)
            if (it->what == stream_update::kind::data)
                if (auto const* p = std::get_if<T>(&it->data))
                    return *p;
        return std::nullopt;
    }

    std::vector<stream_update> updates() {
        std::lock_guard lock(st_->m);
        return st_->updates;
    }

private:
    struct state {
        std::mutex m;
        std::condition_variable cv;
        std::vector<stream_update> updates;
    };
    std::shared_ptr<state> st_ = std::make_shared<state>();
};

/// The last data update of type T in `u`, if any.
template <class T>
std::optional<T> last_in(std::vector<stream_update> const& u) {
    for (auto it = u.rbegin(); it != u.rend(); ++it)
        if (it->what == stream_update::kind::data)
            if (auto const* p = std::get_if<T>(&it->data))
                return *p;
    return std::nullopt;
}

/// Index of the first status `s` at or after `from`, or npos.
std::size_t find_status(std::vector<stream_update> const& u, stream_status s,
                        std::size_t from = 0) {
    for (std::size_t i = from; i < u.size(); ++i)
        if (u[i].what == stream_update::kind::status && u[i].status == s)
            return i;
    return std::string::npos;
}

template <class T>
bool has_data_after(std::vector<stream_update> const& u, std::size_t from) {
    for (std::size_t i = from; i < u.size(); ++i)
        if (u[i].what == stream_update::kind::data && std::holds_alternative<T>(u[i].data))
            return true;
    return false;
}

/// alpha's provider, as gatewayd builds it, over a mock-alpha of its own.
struct alpha_env {
    asio::io_context ioc;
    asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
    net::http_client http{ioc.get_executor()};
    util::real_clock clock;
    server_config cfg;
    std::unique_ptr<mocks::mock_server> mock;
    std::shared_ptr<provider_module> provider;
    std::vector<std::thread> threads;

    explicit alpha_env(std::chrono::milliseconds book_interval = 100ms) {
        mocks::mock_options o{mocks::upstream::alpha};
        o.ws_book_interval = book_interval;
        mock = mocks::mock_server::start(o);
        auto& e = cfg.providers["alpha"];
        e.base_url = e.testnet_base_url = mock->base_url();
        e.ws_url = e.testnet_ws_url = mock->ws_url();
        cfg.upstream_timeout = 3000ms;
        cfg.market_cache_ttl = 0ms;
        provider = alpha::make_provider({ioc.get_executor(), http, clock, cfg});
        REQUIRE(provider->live.streams);
        REQUIRE(provider->testnet.streams);
        provider->start();
        for (int i = 0; i < 2; ++i)
            threads.emplace_back([this] { ioc.run(); });
    }
    ~alpha_env() {
        provider->stop();
        provider.reset();
        work.reset();
        ioc.stop();
        for (auto& t : threads)
            t.join();
    }

    perps_streams& streams() { return *provider->live.streams; }

    /// Reads `user`'s open orders for `account` (the read an orders stream seeds with) until
    /// the account's share refuses one (429 scope "account"): how many were served.
    int reads_until_refused(std::int64_t account) {
        for (int served = 0; served < 100; ++served) {
            call_context ctx;
            ctx.now_ms = clock.now_ms();
            ctx.account = account;
            auto const who = *address::parse(user); // the coroutine holds a reference to it
            auto f =
                asio::co_spawn(ioc, provider->live.perps->open_orders(ctx, who), asio::use_future);
            auto r = f.get();
            if (!r) {
                INFO(r.error().message);
                CHECK(r.error().code == errc::rate_limited);
                CHECK(r.error().details.at("scope") == "account");
                return served;
            }
        }
        FAIL("the account's share never refused a read");
        return -1;
    }

    /// `check` run on the io threads.
    result<bool> check(stream::subscription const& s) {
        call_context ctx;
        ctx.now_ms = clock.now_ms();
        auto f = asio::co_spawn(ioc, streams().check(ctx, s), asio::use_future);
        return f.get();
    }

    /// The mock's own book of BTC, as the REST orderbook maps it.
    orderbook rest_book(std::size_t depth) {
        auto const r = test::fetch(http::verb::post, mock->base_url() + "/info",
                                   R"({"type":"l2Book","coin":"BTC"})");
        REQUIRE(r.status == 200);
        return alpha::to_orderbook(json::parse(r.body), "BTC", depth).value();
    }
};

stream::subscription sub(stream::channel c, std::string symbol = {}) {
    stream::subscription s;
    s.channel = c;
    s.provider = "alpha";
    s.symbol = std::move(symbol);
    if (c == stream::channel::orderbook)
        s.depth = 5;
    if (c == stream::channel::candles)
        s.interval = "1m";
    if (c == stream::channel::orders || c == stream::channel::fills)
        s.address = user;
    return s;
}

bool same_book(orderbook const& a, orderbook const& b) {
    auto same_side = [](std::vector<book_level> const& x, std::vector<book_level> const& y) {
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i].price != y[i].price || x[i].size != y[i].size)
                return false;
        return true;
    };
    return a.symbol == b.symbol && same_side(a.bids, b.bids) && same_side(a.asks, b.asks);
}

} // namespace upstream_streams_test

using namespace upstream_streams_test;

TEST_CASE("alpha streams over mock-alpha: every channel delivers the REST shapes, an order "
          "shows on orders, fills and trades, a mark move on prices",
          "[contract][stream]") {
    alpha_env env;
    test::set_mark(*env.mock, "BTC", "67000");
    test::mock_post(*env.mock, "/__mock/accounts",
                    R"({"address":")" + user + R"(","balances":{"USDC":"100000"}})");

    for (auto c : {stream::channel::prices, stream::channel::trades, stream::channel::orderbook,
                   stream::channel::candles, stream::channel::orders, stream::channel::fills})
        CHECK(env.check(sub(c, "BTC")).value());

    collector prices, trades, book, candles, orders, fills;
    auto h1 = env.streams().open(sub(stream::channel::prices), prices.sink(), std::nullopt);
    auto h2 = env.streams().open(sub(stream::channel::trades, "BTC"), trades.sink(), std::nullopt);
    auto h3 = env.streams().open(sub(stream::channel::orderbook, "BTC"), book.sink(), std::nullopt);
    auto h4 =
        env.streams().open(sub(stream::channel::candles, "BTC"), candles.sink(), std::nullopt);
    auto h5 = env.streams().open(sub(stream::channel::orders), orders.sink(), std::nullopt);
    auto h6 = env.streams().open(sub(stream::channel::fills), fills.sink(), std::nullopt);

    // Prices: perps symbols only, as GET .../prices.
    REQUIRE(prices.wait([&](auto const& u) { return last_in<price_map>(u).has_value(); }));
    auto const p = *prices.last<price_map>();
    CHECK(p.count("BTC"));
    CHECK_FALSE(p.count("PURR/USDC"));
    CHECK(p.at("BTC").str() == "67000");

    // The book: whole, cut to depth.
    REQUIRE(book.wait([&](auto const& u) { return last_in<orderbook>(u).has_value(); }));
    auto const b = *book.last<orderbook>();
    CHECK(b.symbol == "BTC");
    CHECK(b.bids.size() <= 5);
    CHECK(b.asks.size() <= 5);
    CHECK_FALSE(b.bids.empty());

    // Orders: seeded (empty), then the resting order appears.
    REQUIRE(orders.wait([&](auto const& u) { return last_in<std::vector<open_order>>(u); }));
    CHECK(orders.last<std::vector<open_order>>()->empty());
    auto const rest = exchange(*env.mock, true, "60000", "0.01", "Gtc");
    auto const oid = std::to_string(rest.at("resting").at("oid").to_number<std::int64_t>());
    REQUIRE(orders.wait([&](auto const& u) {
        auto l = last_in<std::vector<open_order>>(u);
        return l && l->size() == 1 && l->front().order_id == oid;
    }));
    auto const o = orders.last<std::vector<open_order>>()->front();
    CHECK(o.symbol == "BTC");
    CHECK(o.side == side::buy);
    CHECK(o.price->str() == "60000");
    CHECK(o.size.str() == "0.01");

    // A taker order fills: a new fill, a trade, a candle.
    exchange(*env.mock, true, "70000", "0.02", "Ioc");
    REQUIRE(fills.wait([&](auto const& u) { return last_in<std::vector<fill>>(u).has_value(); }));
    auto const f = fills.last<std::vector<fill>>()->front();
    CHECK(f.symbol == "BTC");
    CHECK(f.side == side::buy);
    CHECK(f.liquidity == liquidity::taker);
    REQUIRE(trades.wait([&](auto const& u) { return last_in<std::vector<trade>>(u); }));
    CHECK_FALSE(trades.last<std::vector<trade>>()->empty());
    REQUIRE(candles.wait([&](auto const& u) { return last_in<std::vector<candle>>(u); }));
    CHECK(candles.last<std::vector<candle>>()->size() == 1);
    // The fills snapshot (history) was never delivered as news: only fills of this order.
    for (auto const& u : fills.updates())
        if (auto const* list = std::get_if<std::vector<fill>>(&u.data))
            for (auto const& x : *list)
                CHECK(x.timestamp >= f.timestamp - 60000);

    // A mark move shows on prices.
    test::set_mark(*env.mock, "BTC", "61000");
    REQUIRE(prices.wait([&](auto const& u) {
        auto l = last_in<price_map>(u);
        return l && l->count("BTC") && l->at("BTC").str() == "61000";
    }));

    SECTION("check: unknown symbols, and an 11th distinct user") {
        auto unknown = env.check(sub(stream::channel::orderbook, "NOPE"));
        REQUIRE_FALSE(unknown);
        CHECK(unknown.error().code == errc::market_not_found);
        std::vector<std::shared_ptr<void>> held;
        std::vector<collector> sinks(10);
        for (int i = 1; i < 10; ++i) { // `user` holds one already
            auto s = sub(stream::channel::fills);
            s.address = "0x00000000000000000000000000000000000000" + std::to_string(10 + i);
            REQUIRE(env.check(s).value());
            held.push_back(env.streams().open(s, sinks[i].sink(), std::nullopt));
        }
        auto s = sub(stream::channel::orders);
        s.address = "0x0000000000000000000000000000000000000099";
        auto refused = env.check(s);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code == errc::stream_capacity);
        CHECK(env.check(sub(stream::channel::orders)).value()); // a user already counted
        held.pop_back();
        CHECK(env.check(s).value()); // one released: room again
    }
}

TEST_CASE("alpha streams over mock-alpha: an orders stream's REST seed counts against its "
          "opener's upstream share, a book's against nobody's",
          "[contract][stream]") {
    alpha_env env;
    // What one account may read alone before its share (25% of alpha's budget) refuses.
    int const alone = env.reads_until_refused(8);
    REQUIRE(alone > 1);
    // Account 7 opens an orders stream: the seed is the same open-orders read, and it is 7's.
    collector orders;
    auto h = env.streams().open(sub(stream::channel::orders), orders.sink(), 7);
    REQUIRE(orders.wait([&](auto const& u) { return last_in<std::vector<open_order>>(u); }));
    CHECK(env.reads_until_refused(7) == alone - 1);
    // A market-data stream's REST reads are the gateway's own, whoever opened it.
    collector book;
    auto hb = env.streams().open(sub(stream::channel::orderbook, "BTC"), book.sink(), 9);
    REQUIRE(book.wait([&](auto const& u) { return last_in<orderbook>(u).has_value(); }));
    CHECK(env.reads_until_refused(9) == alone);
}

TEST_CASE("alpha streams over mock-alpha: a dropped upstream reconnects, resubscribes and "
          "restores, the book afterwards equals the REST book",
          "[contract][stream]") {
    alpha_env env;
    collector book, prices;
    auto s = sub(stream::channel::orderbook, "BTC");
    s.depth = 20;
    auto h = env.streams().open(s, book.sink(), std::nullopt);
    auto hp = env.streams().open(sub(stream::channel::prices), prices.sink(), std::nullopt);
    REQUIRE(book.wait([&](auto const& u) { return last_in<orderbook>(u).has_value(); }));
    auto const connects = test::upstream_calls(*env.mock, "ws:connect");

    test::mock_post(*env.mock, "/__mock/faults", R"({"wsDrop":true})");
    REQUIRE(book.wait([](auto const& u) {
        auto const down = find_status(u, stream_status::reconnecting);
        return down != std::string::npos &&
               find_status(u, stream_status::restored, down) != std::string::npos;
    }));
    REQUIRE(prices.wait([](auto const& u) {
        auto const down = find_status(u, stream_status::reconnecting);
        return down != std::string::npos &&
               find_status(u, stream_status::restored, down) != std::string::npos;
    }));
    CHECK(test::upstream_calls(*env.mock, "ws:connect") > connects);
    // After restored: a whole book, and the stream carries on (resubscribed).
    REQUIRE(book.wait([](auto const& u) {
        auto const back = find_status(u, stream_status::restored);
        return back != std::string::npos && has_data_after<orderbook>(u, back);
    }));
    test::set_mark(*env.mock, "BTC", "64000"); // a change the resubscribed stream must carry
    bool equal = false;
    for (int i = 0; i < 200 && !equal; ++i) {
        auto const rest = env.rest_book(20);
        equal = book.wait(
            [&](auto const& u) {
                auto l = last_in<orderbook>(u);
                return l && same_book(*l, rest);
            },
            100ms);
    }
    CHECK(equal);
}

TEST_CASE("alpha streams over mock-alpha: a stalled upstream is stale, then restored once it "
          "sends again",
          "[contract][stream]") {
    alpha_env env;
    REQUIRE(alpha::set_stale_after(env.streams(), 700ms));
    collector prices;
    auto h = env.streams().open(sub(stream::channel::prices), prices.sink(), std::nullopt);
    REQUIRE(prices.wait([&](auto const& u) { return last_in<price_map>(u).has_value(); }));

    test::mock_post(*env.mock, "/__mock/faults", R"({"wsStall":true})");
    test::set_mark(*env.mock, "BTC", "60000"); // published while stalled: never arrives
    REQUIRE(prices.wait(
        [](auto const& u) { return find_status(u, stream_status::stale) != std::string::npos; }));
    REQUIRE(test::fetch(http::verb::delete_, env.mock->base_url() + "/__mock/faults").status ==
            200);
    test::set_mark(*env.mock, "BTC", "60010");
    REQUIRE(prices.wait([&](auto const& u) {
        auto const stale = find_status(u, stream_status::stale);
        auto const back = find_status(u, stream_status::restored, stale);
        auto l = last_in<price_map>(u);
        return back != std::string::npos && has_data_after<price_map>(u, back) && l &&
               l->at("BTC").str() == "60010";
    }));
    // No reconnect was needed: the connection stayed open.
    CHECK(find_status(prices.updates(), stream_status::reconnecting) == std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// beta (Aster) over mock-beta's WebSocket

namespace upstream_streams_test {

namespace mb = gateway::test::mock_beta;

/// The trader (alice), the gateway's read signer (bob, approved by alice) and an account that
/// never approved it (carol): mock_beta.hpp's throwaway keys.
mb::wallet const& trader() {
    return mb::alice();
}
mb::wallet const& signer() {
    return mb::bob();
}
mb::wallet const& stranger() {
    return mb::carol();
}

/// beta's provider, as gatewayd builds it, over a mock-beta of its own; the read signer is
/// `signer()` (a key file), approved by `trader()` only.
struct beta_env {
    asio::io_context ioc;
    asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
    net::http_client http{ioc.get_executor()};
    util::real_clock clock;
    server_config cfg;
    std::filesystem::path dir;
    std::unique_ptr<mocks::mock_server> mock;
    std::shared_ptr<provider_module> provider;
    std::vector<std::thread> threads;

    beta_env() {
        mock = mocks::mock_server::start({mocks::upstream::beta});
        dir = std::filesystem::temp_directory_path() /
              ("beta-streams-" + std::to_string(::getpid()) + "-" + std::to_string(mock->port()));
        std::filesystem::create_directories(dir);
        {
            std::ofstream out(dir / "signer.key");
            out << "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318\n";
        }
        auto& e = cfg.providers["beta"];
        e.base_url = e.testnet_base_url = mock->base_url();
        e.ws_url = e.testnet_ws_url = mock->ws_url();
        e.options["readSignerKeyFile"] = (dir / "signer.key").string();
        cfg.data_dir = dir.string();
        cfg.upstream_timeout = 3000ms;
        cfg.market_cache_ttl = 0ms;
        provider = beta::make_provider({ioc.get_executor(), http, clock, cfg});
        REQUIRE(provider->live.streams);
        REQUIRE(provider->testnet.streams);
        provider->start();
        for (int i = 0; i < 2; ++i)
            threads.emplace_back([this] { ioc.run(); });
        test::mock_post(*mock, "/__mock/agents",
                        R"({"user":")" + trader().address + R"(","signer":")" + signer().address +
                            R"("})");
    }
    ~beta_env() {
        provider->stop();
        provider.reset();
        work.reset();
        ioc.stop();
        for (auto& t : threads)
            t.join();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    perps_streams& streams() { return *provider->live.streams; }

    /// `op` run on the io threads.
    template <class T>
    T run(asio::awaitable<T> op) {
        return asio::co_spawn(ioc, std::move(op), asio::use_future).get();
    }
    call_context ctx() {
        call_context c;
        c.now_ms = clock.now_ms();
        return c;
    }
    result<bool> check(stream::subscription const& s) { return run(streams().check(ctx(), s)); }

    /// The mock's own depth of BTC (`limit` levels), as the REST orderbook maps it.
    orderbook rest_book(std::size_t depth) {
        auto const r = test::fetch(
            http::verb::get,
            mock->base_url() + "/fapi/v3/depth?symbol=BTCUSDT&limit=" + std::to_string(depth));
        REQUIRE(r.status == 200);
        return beta::to_orderbook(json::parse(r.body), "BTC", depth).value();
    }

    /// A signed mock-beta request by the trader for herself (beta.md §3.1), in the form body.
    json::value trade(std::string const& path, std::string params) {
        params += "&nonce=" + std::to_string(sign::beta::next_nonce_us()) +
                  "&user=" + trader().address + "&signer=" + trader().address;
        auto const body =
            params + "&signature=" + sign::beta::sign_message(params, trader().key, false);
        auto const r = test::fetch(http::verb::post, mock->base_url() + path, body,
                                   {{"Content-Type", "application/x-www-form-urlencoded"}});
        INFO(r.status << " " << r.body);
        REQUIRE(r.status == 200);
        return json::parse(r.body);
    }
};

stream::subscription beta_sub(stream::channel c, std::string symbol = {}) {
    auto s = sub(c, std::move(symbol));
    s.provider = "beta";
    if (c == stream::channel::orders || c == stream::channel::fills)
        s.address = trader().address;
    return s;
}

/// Whether the book stream's last book equals mock-beta's REST depth at some moment within
/// ~20 s (the book moves every walk step, so each REST read is compared with what the stream
/// delivers right after it); `seen` the last pair compared, for the failure message.
bool converges_to_rest(beta_env& env, collector& book, std::size_t depth, std::string& seen) {
    for (int i = 0; i < 200; ++i) {
        auto const rest = env.rest_book(depth);
        if (book.wait(
                [&](auto const& u) {
                    auto l = last_in<orderbook>(u);
                    return l && same_book(*l, rest);
                },
                100ms))
            return true;
        auto const l = book.last<orderbook>();
        seen = "REST " + json::serialize(json::value_from(rest)) + "\nstream " +
               (l ? json::serialize(json::value_from(*l)) : "-");
    }
    return false;
}

} // namespace upstream_streams_test

TEST_CASE("beta streams over mock-beta: every channel delivers the REST shapes, a signed order "
          "shows on orders, fills, trades and candles, a mark move on prices",
          "[contract][stream]") {
    beta_env env;
    test::set_mark(*env.mock, "BTC", "65000");
    test::mock_post(*env.mock, "/__mock/accounts",
                    R"({"address":")" + trader().address + R"(","balances":{"USDT":"100000"}})");

    for (auto c : {stream::channel::prices, stream::channel::trades, stream::channel::orderbook,
                   stream::channel::candles, stream::channel::orders, stream::channel::fills})
        CHECK(env.check(beta_sub(c, "BTC")).value());

    collector prices, trades, book, candles, orders, fills;
    auto h1 = env.streams().open(beta_sub(stream::channel::prices), prices.sink(), std::nullopt);
    auto h2 =
        env.streams().open(beta_sub(stream::channel::trades, "BTC"), trades.sink(), std::nullopt);
    auto h3 =
        env.streams().open(beta_sub(stream::channel::orderbook, "BTC"), book.sink(), std::nullopt);
    auto h4 =
        env.streams().open(beta_sub(stream::channel::candles, "BTC"), candles.sink(), std::nullopt);
    auto h5 = env.streams().open(beta_sub(stream::channel::orders), orders.sink(), std::nullopt);
    auto h6 = env.streams().open(beta_sub(stream::channel::fills), fills.sink(), std::nullopt);

    // Prices from !markPrice@arr: the perps by base asset, the same keys as REST prices.
    REQUIRE(prices.wait([&](auto const& u) { return last_in<price_map>(u).has_value(); }));
    auto const p = *prices.last<price_map>();
    CHECK(p.at("BTC").str() == "65000");
    auto const rest_prices = env.run(env.provider->live.perps->prices(env.ctx(), {})).value();
    std::set<std::string> streamed, listed;
    for (auto const& [k, v] : p)
        streamed.insert(k);
    for (auto const& [k, v] : rest_prices)
        listed.insert(k);
    CHECK(streamed == listed);

    // The book: synced from REST depth, cut to depth, and equal to REST.
    REQUIRE(book.wait([&](auto const& u) { return last_in<orderbook>(u).has_value(); }));
    auto const b = *book.last<orderbook>();
    CHECK(b.symbol == "BTC");
    CHECK(b.bids.size() == 5);
    CHECK(b.asks.size() == 5);
    CHECK(b.bids.front().price < b.asks.front().price);
    {
        std::string seen;
        auto const equal = converges_to_rest(env, book, 5, seen);
        INFO(seen);
        CHECK(equal);
    }

    // Orders: seeded (empty), then the resting order appears as REST open orders shows it.
    REQUIRE(orders.wait([&](auto const& u) { return last_in<std::vector<open_order>>(u); }));
    CHECK(orders.last<std::vector<open_order>>()->empty());
    auto const placed = env.trade("/fapi/v3/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&"
                                                    "quantity=0.01&price=60000&timeInForce=GTC");
    auto const oid = std::to_string(placed.at("orderId").to_number<std::uint64_t>());
    REQUIRE(orders.wait([&](auto const& u) {
        auto l = last_in<std::vector<open_order>>(u);
        return l && l->size() == 1 && l->front().order_id == oid;
    }));
    auto const o = orders.last<std::vector<open_order>>()->front();
    CHECK(o.symbol == "BTC");
    CHECK(o.side == side::buy);
    CHECK(o.price->str() == "60000");
    CHECK(o.size.str() == "0.01");
    auto const user = address::parse(trader().address).value();
    auto const rest_orders =
        env.run(env.provider->live.perps->open_orders(env.ctx(), user)).value();
    REQUIRE(rest_orders.size() == 1);
    CHECK(json::value_from(o) == json::value_from(rest_orders.front()));

    // A taker order fills: a new fill (as REST fills shows it), a trade, a candle; it never
    // rests, so the open orders stay the one above.
    auto const taker = env.trade("/fapi/v3/order", "symbol=BTCUSDT&side=BUY&type=MARKET&"
                                                   "quantity=0.02");
    auto const taker_id = std::to_string(taker.at("orderId").to_number<std::uint64_t>());
    REQUIRE(fills.wait([&](auto const& u) { return last_in<std::vector<fill>>(u).has_value(); }));
    auto const f = fills.last<std::vector<fill>>()->front();
    CHECK(f.symbol == "BTC");
    CHECK(f.side == side::buy);
    CHECK(f.order_id == taker_id);
    CHECK(f.liquidity == liquidity::taker);
    fills_params recent;
    recent.limit = fills_params::default_limit;
    auto const rest_fills =
        env.run(env.provider->live.perps->fills(env.ctx(), user, recent)).value();
    auto const same = std::find_if(rest_fills.begin(), rest_fills.end(),
                                   [&](fill const& x) { return x.id == f.id; });
    INFO("streamed " << json::serialize(json::value_from(f)) << "\nREST "
                     << json::serialize(json::value_from(rest_fills)));
    REQUIRE(same != rest_fills.end());
    CHECK(json::value_from(f) == json::value_from(*same));
    REQUIRE(trades.wait([&](auto const& u) { return last_in<std::vector<trade>>(u); }));
    CHECK(trades.last<std::vector<trade>>()->size() == 1);
    REQUIRE(candles.wait([&](auto const& u) { return last_in<std::vector<candle>>(u); }));
    CHECK(candles.last<std::vector<candle>>()->size() == 1);
    // Every fill delivered once, each the taker's.
    std::set<std::string> ids;
    for (auto const& u : fills.updates())
        if (auto const* list = std::get_if<std::vector<fill>>(&u.data))
            for (auto const& x : *list) {
                CHECK(ids.insert(x.id).second);
                CHECK(x.order_id == taker_id);
            }
    auto const after = orders.last<std::vector<open_order>>();
    REQUIRE(after);
    CHECK(after->size() == 1);

    // A mark move shows on prices.
    test::set_mark(*env.mock, "BTC", "61000");
    REQUIRE(prices.wait([&](auto const& u) {
        auto l = last_in<price_map>(u);
        return l && l->count("BTC") && l->at("BTC").str() == "61000";
    }));

    SECTION("check: an unknown symbol; an account that has not approved the read signer") {
        auto unknown = env.check(beta_sub(stream::channel::orderbook, "NOPE"));
        REQUIRE_FALSE(unknown);
        CHECK(unknown.error().code == errc::market_not_found);
        for (auto c : {stream::channel::orders, stream::channel::fills}) {
            auto s = beta_sub(c);
            s.address = stranger().address;
            auto refused = env.check(s);
            REQUIRE_FALSE(refused);
            CHECK(refused.error().code == errc::signer_not_approved);
            CHECK(refused.error().status == 403);
            CHECK(refused.error().wire() == "SIGNER_NOT_APPROVED");
            CHECK(refused.error().message.find(signer().address) != std::string::npos);
        }
        // Once the account approves the read signer, the same subscription is accepted.
        test::mock_post(*env.mock, "/__mock/agents",
                        R"({"user":")" + stranger().address + R"(","signer":")" + signer().address +
                            R"("})");
        auto s = beta_sub(stream::channel::orders);
        s.address = stranger().address;
        CHECK(env.check(s).value());
    }
}

TEST_CASE("beta streams over mock-beta: a dropped upstream reconnects, resubscribes and "
          "restores, the book afterwards equals the REST depth",
          "[contract][stream]") {
    beta_env env;
    collector book, prices, orders;
    auto s = beta_sub(stream::channel::orderbook, "BTC");
    s.depth = 20;
    auto h = env.streams().open(s, book.sink(), std::nullopt);
    auto hp = env.streams().open(beta_sub(stream::channel::prices), prices.sink(), std::nullopt);
    auto ho = env.streams().open(beta_sub(stream::channel::orders), orders.sink(), std::nullopt);
    REQUIRE(book.wait([&](auto const& u) { return last_in<orderbook>(u).has_value(); }));
    REQUIRE(orders.wait([&](auto const& u) { return last_in<std::vector<open_order>>(u); }));
    auto const connects = test::upstream_calls(*env.mock, "ws:connect /stream");
    auto const user_connects = test::upstream_calls(*env.mock, "ws:connect /ws");

    test::mock_post(*env.mock, "/__mock/faults", R"({"wsDrop":true})");
    auto down_then_back = [](auto const& u) {
        auto const down = find_status(u, stream_status::reconnecting);
        return down != std::string::npos &&
               find_status(u, stream_status::restored, down) != std::string::npos;
    };
    REQUIRE(book.wait(down_then_back));
    REQUIRE(prices.wait(down_then_back));
    REQUIRE(orders.wait(down_then_back));
    CHECK(test::upstream_calls(*env.mock, "ws:connect /stream") > connects);
    CHECK(test::upstream_calls(*env.mock, "ws:connect /ws") > user_connects);
    // After restored: a whole book, and the streams carry on (resubscribed).
    REQUIRE(book.wait([](auto const& u) {
        auto const back = find_status(u, stream_status::restored);
        return back != std::string::npos && has_data_after<orderbook>(u, back);
    }));
    test::set_mark(*env.mock, "BTC", "64000"); // a change the resubscribed streams must carry
    REQUIRE(prices.wait([&](auto const& u) {
        auto l = last_in<price_map>(u);
        return l && l->count("BTC") && l->at("BTC").str() == "64000";
    }));
    {
        std::string seen;
        auto const equal = converges_to_rest(env, book, 20, seen);
        INFO(seen);
        CHECK(equal);
    }
    // The user stream is back too: an order placed now shows.
    test::mock_post(*env.mock, "/__mock/accounts",
                    R"({"address":")" + trader().address + R"(","balances":{"USDT":"100000"}})");
    auto const placed = env.trade("/fapi/v3/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&"
                                                    "quantity=0.01&price=60000&timeInForce=GTC");
    auto const oid = std::to_string(placed.at("orderId").to_number<std::uint64_t>());
    REQUIRE(orders.wait([&](auto const& u) {
        auto l = last_in<std::vector<open_order>>(u);
        return l && l->size() == 1 && l->front().order_id == oid;
    }));
}

TEST_CASE("beta streams over mock-beta: a stalled upstream is stale, the book resyncs, and both "
          "are restored once it sends again",
          "[contract][stream]") {
    beta_env env;
    // Above the mock's one-second walk, so only the stall makes the streams silent.
    REQUIRE(beta::set_stale_after(env.streams(), 1500ms));
    collector prices, book;
    auto h = env.streams().open(beta_sub(stream::channel::prices), prices.sink(), std::nullopt);
    auto s = beta_sub(stream::channel::orderbook, "BTC");
    s.depth = 20;
    auto hb = env.streams().open(s, book.sink(), std::nullopt);
    REQUIRE(prices.wait([&](auto const& u) { return last_in<price_map>(u).has_value(); }));
    REQUIRE(book.wait([&](auto const& u) { return last_in<orderbook>(u).has_value(); }));
    auto const depth_reads = test::upstream_calls(*env.mock, "GET /fapi/v3/depth");

    test::mock_post(*env.mock, "/__mock/faults", R"({"wsStall":true})");
    test::set_mark(*env.mock, "BTC", "60000"); // published while stalled: never arrives
    auto const is_stale = [](auto const& u) {
        return find_status(u, stream_status::stale) != std::string::npos;
    };
    REQUIRE(prices.wait(is_stale));
    REQUIRE(book.wait(is_stale));
    REQUIRE(test::fetch(http::verb::delete_, env.mock->base_url() + "/__mock/faults").status ==
            200);
    test::set_mark(*env.mock, "BTC", "60010");
    REQUIRE(prices.wait([&](auto const& u) {
        auto const stale = find_status(u, stream_status::stale);
        auto const back = find_status(u, stream_status::restored, stale);
        auto l = last_in<price_map>(u);
        return back != std::string::npos && has_data_after<price_map>(u, back) && l &&
               l->at("BTC").str() == "60010";
    }));
    // The book lost diffs while stalled: restored comes with a book resynced from REST.
    REQUIRE(book.wait([](auto const& u) {
        auto const stale = find_status(u, stream_status::stale);
        auto const back = find_status(u, stream_status::restored, stale);
        return back != std::string::npos && has_data_after<orderbook>(u, back);
    }));
    CHECK(test::upstream_calls(*env.mock, "GET /fapi/v3/depth") > depth_reads);
    {
        std::string seen;
        auto const equal = converges_to_rest(env, book, 20, seen);
        INFO(seen);
        CHECK(equal);
    }
    // No reconnect was needed: the connection stayed open.
    CHECK(find_status(prices.updates(), stream_status::reconnecting) == std::string::npos);
    CHECK(find_status(book.updates(), stream_status::reconnecting) == std::string::npos);
}
