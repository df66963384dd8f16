// gateway::stream::stream_client against a scripted WebSocket peer (net::http_server's upgrade
// hook speaking protocol.hpp's frames): each channel's payload reaches its typed handler, acks
// and error frames answer the awaited calls, a skipped orderbook seq raises `gap`, a dropped
// connection is reconnected and resubscribed, and a refused handshake is final.
#include <catch2/catch.hpp>

#include "support/stream_recorder.hpp"
#include "support/values.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/net/websocket.hpp>
#include <gateway/stream/client.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace stream_client_unit_test {

using namespace gateway;
using gateway::test::dec;
namespace asio = boost::asio;
namespace json = boost::json;
namespace gs = gateway::stream;
namespace http = boost::beast::http;

namespace {

constexpr char const* good_key = "svc_live_unit_test_key";

/// A WebSocket peer on loopback: refuses handshakes without `good_key` (401 and the contract's
/// body) and answers every client frame with `script` (by default: acks and pongs).
struct scripted_gateway {
    using script_fn = std::function<void(gs::client_frame const&, net::ws_session&)>;

    explicit scripted_gateway(script_fn s = {})
        : script(std::move(s)) {
        server = std::make_shared<net::http_server>(
            ioc, net::server_options{},
            [](net::request&,
               net::tcp::endpoint const&) -> asio::awaitable<std::optional<net::response>> {
                co_return net::response{http::status::not_found, 11};
            });
        server->on_upgrade([this](net::request& req, net::tcp::endpoint const&, net::ws_upgrade& up)
                               -> asio::awaitable<std::optional<net::response>> {
            {
                std::lock_guard lock(m);
                ++handshakes;
                targets.emplace_back(req.target());
            }
            auto const key = req.find("X-API-Key");
            if (key == req.end() || key->value() != good_key || refuse_all) {
                net::response res{http::status::unauthorized, req.version()};
                res.set(http::field::content_type, "application/json");
                res.body() =
                    json::serialize(to_json(make_error(errc::invalid_api_key, "Invalid API key.")));
                res.prepare_payload();
                co_return res;
            }
            auto s = co_await up.accept(net::ws_options{});
            if (!s)
                co_return std::nullopt;
            std::size_t conn = 0;
            {
                std::lock_guard lock(m);
                sessions.push_back(s);
                conn = sessions.size() - 1;
            }
            // A named handler: GCC 12 destroys a temporary of a co_await expression twice
            // (a lambda converted to std::function here, which would release `s` twice).
            net::ws_session::message_handler const read = [this, s, conn](std::string_view text) {
                auto f = gs::parse_client_frame(text);
                {
                    std::lock_guard lock(m);
                    frames.push_back({conn, std::string(text)});
                }
                if (!f)
                    return;
                if (script)
                    script(*f, *s);
                else
                    answer(*f, *s);
            };
            co_await s->run(read);
            co_return std::nullopt;
        });
        port = server->listen({asio::ip::make_address("127.0.0.1"), 0}).port();
        server->start();
        thread = std::thread([this] { ioc.run(); });
    }

    ~scripted_gateway() {
        server->stop();
        std::vector<std::shared_ptr<net::ws_session>> all;
        {
            std::lock_guard lock(m);
            all = sessions;
        }
        for (auto& s : all)
            s->close(net::ws_code::going_away);
        ioc.stop();
        thread.join();
    }

    /// The default answer: an ack for (un)subscribe, a pong for ping.
    static void answer(gs::client_frame const& f, net::ws_session& s) {
        using op = gs::client_frame::op_kind;
        if (f.op == op::ping)
            s.send(gs::pong_frame(f.id));
        else
            s.send(gs::ack_frame(f.id, f.op == op::subscribe, f.sub));
    }

    /// Sends `frame` on the newest connection.
    void send(std::string frame) {
        std::lock_guard lock(m);
        REQUIRE(!sessions.empty());
        sessions.back()->send(std::move(frame));
    }

    /// Drops the newest connection (a close the client did not ask for).
    void drop() {
        std::lock_guard lock(m);
        REQUIRE(!sessions.empty());
        sessions.back()->close(1012, "service restart");
    }

    std::string url() const { return "ws://127.0.0.1:" + std::to_string(port); }

    /// The client frames connection `conn` received.
    std::vector<json::value> frames_of(std::size_t conn) const {
        std::lock_guard lock(m);
        std::vector<json::value> out;
        for (auto const& [c, text] : frames)
            if (c == conn)
                out.push_back(json::parse(text));
        return out;
    }

    template <class F>
    auto with(F&& f) const {
        std::lock_guard lock(m);
        return f(*this);
    }

    script_fn script;
    std::atomic<bool> refuse_all{false};
    asio::io_context ioc;
    std::shared_ptr<net::http_server> server;
    std::uint16_t port = 0;
    std::thread thread;
    mutable std::mutex m;
    int handshakes = 0;
    std::vector<std::string> targets;
    std::vector<std::shared_ptr<net::ws_session>> sessions;
    std::vector<std::pair<std::size_t, std::string>> frames;
};

gs::client_options options_for(scripted_gateway const& gw, std::string key = good_key) {
    gs::client_options o;
    o.url = gw.url();
    o.api_key = std::move(key);
    o.reconnect_min = std::chrono::milliseconds(10);
    o.reconnect_max = std::chrono::milliseconds(50);
    o.request_timeout = std::chrono::seconds(5);
    return o;
}

gs::subscription book_sub(std::string provider = "alpha") {
    gs::subscription s;
    s.channel = gs::channel::orderbook;
    s.provider = std::move(provider);
    s.symbol = "BTC";
    return s;
}

gs::subscription sub_of(gs::channel c, std::string provider = "alpha") {
    return gateway::test::sample_subscription(c, std::move(provider), 20,
                                              "0x1111111111111111111111111111111111111111");
}

orderbook book_at(std::string const& bid) {
    orderbook b;
    b.symbol = "BTC";
    b.bids.push_back({dec(bid), dec("1.5")});
    b.asks.push_back({dec("65010"), dec("2")});
    b.timestamp = 1700000000000;
    return b;
}

} // namespace

TEST_CASE("stream client: each channel's frame reaches its typed handler", "[unit][stream]") {
    scripted_gateway gw;
    test::stream_recorder rec;
    test::stream_runner c(options_for(gw), rec.handlers());
    REQUIRE(c.connect().has_value());
    CHECK(gw.with([](auto const& g) { return g.targets; }) ==
          std::vector<std::string>{"/ws/v1/perps"});

    auto const ack = c.subscribe(book_sub());
    REQUIRE(ack.has_value());
    CHECK(ack->depth == 20); // the default, sent explicitly
    auto const sent = gw.frames_of(0);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].at("op") == "subscribe");
    CHECK(sent[0].at("channel") == "orderbook");
    CHECK(sent[0].at("depth") == 20);

    price_map prices{{"BTC", dec("65000.5")}, {"ETH", dec("3000")}};
    gw.send(gs::data_frame(sub_of(gs::channel::prices), json::value_from(prices)));
    trade t{"t1", dec("65000"), dec("0.01"), side::sell, 1700000000001};
    gw.send(gs::data_frame(sub_of(gs::channel::trades), json::value_from(std::vector<trade>{t})));
    gw.send(gs::data_frame(sub_of(gs::channel::orderbook), json::value_from(book_at("64990")), 7));
    candle k{dec("1"), dec("3"), dec("0.5"), dec("2"), dec("10"), 1700000000000};
    gw.send(gs::data_frame(sub_of(gs::channel::candles), json::value_from(std::vector<candle>{k})));
    open_order o;
    o.order_id = "42";
    o.symbol = "BTC";
    o.price = dec("60000");
    o.size = dec("0.1");
    o.filled_size = dec("0");
    o.timestamp = 1700000000002;
    gw.send(gs::data_frame(sub_of(gs::channel::orders, "beta"),
                           json::value_from(std::vector<open_order>{o})));
    fill f;
    f.id = "f1";
    f.order_id = "42";
    f.symbol = "BTC";
    f.price = dec("60000");
    f.size = dec("0.1");
    f.fee = dec("0.6");
    f.fee_asset = "USDC";
    f.timestamp = 1700000000003;
    gw.send(
        gs::data_frame(sub_of(gs::channel::fills, "beta"), json::value_from(std::vector<fill>{f})));

    REQUIRE(rec.wait_for([](auto const& r) { return r.fills.size() == 1; }));
    rec.with([&](auto const& r) {
        REQUIRE(r.prices.size() == 1);
        CHECK(r.prices[0].sub.provider == "alpha");
        CHECK(r.prices[0].value == prices);
        REQUIRE(r.trades.size() == 1);
        REQUIRE(r.trades[0].value.size() == 1);
        CHECK(r.trades[0].value[0].id == "t1");
        CHECK(r.trades[0].value[0].side == side::sell);
        CHECK(r.trades[0].value[0].price == dec("65000"));
        REQUIRE(r.books.size() == 1);
        CHECK(r.books[0].seq == 7);
        CHECK(r.books[0].sub.symbol == "BTC");
        CHECK(r.books[0].book.bids.at(0).price == dec("64990"));
        CHECK(r.books[0].book.asks.at(0).size == dec("2"));
        REQUIRE(r.candles.size() == 1);
        CHECK(r.candles[0].sub.interval == "1m");
        CHECK(r.candles[0].value.at(0).high == dec("3"));
        REQUIRE(r.orders.size() == 1);
        CHECK(r.orders[0].sub.provider == "beta");
        CHECK(r.orders[0].sub.address == "0x1111111111111111111111111111111111111111");
        CHECK(r.orders[0].value.at(0).order_id == "42");
        REQUIRE(r.fills.size() == 1);
        CHECK(r.fills[0].value.at(0).fee_asset == "USDC");
        CHECK(r.errors.empty());
        CHECK(r.gaps.empty());
        return 0;
    });
}

TEST_CASE("stream client: a skipped orderbook seq raises gap, status frames pass through",
          "[unit][stream]") {
    scripted_gateway gw;
    test::stream_recorder rec;
    test::stream_runner c(options_for(gw), rec.handlers());
    REQUIRE(c.connect().has_value());
    REQUIRE(c.subscribe(book_sub()).has_value());
    auto const s = sub_of(gs::channel::orderbook);
    for (std::uint64_t seq : {5, 6, 9})
        gw.send(gs::data_frame(s, json::value_from(book_at("64990")), seq));
    gw.send(gs::status_frame(s, gs::stream_status::stale, "no update for 5000 ms"));
    gw.send(gs::status_frame(s, gs::stream_status::restored, "live again"));
    gw.send(gs::data_frame(s, json::value_from(book_at("64991")), 40)); // a fresh book
    gw.send(gs::data_frame(s, json::value_from(book_at("64992")), 41));
    REQUIRE(rec.wait_for([](auto const& r) { return r.books.size() == 5; }));
    rec.with([](auto const& r) {
        REQUIRE(r.gaps.size() == 1); // 6 -> 9; nothing after `restored`
        CHECK(r.gaps[0].expected == 7);
        CHECK(r.gaps[0].got == 9);
        REQUIRE(r.statuses.size() == 2);
        CHECK(r.statuses[0].status == gs::stream_status::stale);
        CHECK(r.statuses[0].message == "no update for 5000 ms");
        CHECK_FALSE(r.statuses[0].local);
        CHECK(r.statuses[1].status == gs::stream_status::restored);
        return 0;
    });
}

TEST_CASE("stream client: error frames answer the call or reach the error handler",
          "[unit][stream]") {
    scripted_gateway gw([](gs::client_frame const& f, net::ws_session& s) {
        if (f.op == gs::client_frame::op_kind::subscribe && f.sub.symbol == "NOPE") {
            s.send(
                gs::error_frame(f.id, make_error(errc::market_not_found, "Unknown market NOPE.")));
            return;
        }
        scripted_gateway::answer(f, s);
    });
    test::stream_recorder rec;
    test::stream_runner c(options_for(gw), rec.handlers());
    REQUIRE(c.connect().has_value());
    auto bad = book_sub();
    bad.symbol = "NOPE";
    auto const r = c.subscribe(bad);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == errc::market_not_found);
    CHECK(r.error().message == "Unknown market NOPE.");
    CHECK(c.ping().has_value());

    // Unsolicited: an error frame without a pending id, and a data frame that is not the
    // contract's shape.
    gw.send(gs::error_frame("x-1", make_error(errc::invalid_json, "The frame is not JSON.")));
    gw.send(R"({"type":"trades","provider":"alpha","symbol":"BTC","data":{"not":"a list"}})");
    REQUIRE(rec.wait_for([](auto const& r) { return r.errors.size() == 2; }));
    rec.with([](auto const& r) {
        CHECK(r.errors[0].id == R"("x-1")");
        CHECK(r.errors[0].error.code == errc::invalid_json);
        CHECK(r.errors[1].id == "null");
        CHECK(r.errors[1].error.code == errc::transport_error);
        CHECK(r.trades.empty());
        return 0;
    });
}

TEST_CASE("stream client: a dropped connection is reconnected and everything resubscribed",
          "[unit][stream]") {
    scripted_gateway gw;
    test::stream_recorder rec;
    test::stream_runner c(options_for(gw), rec.handlers());
    REQUIRE(c.connect().has_value());
    REQUIRE(c.subscribe(book_sub("alpha")).has_value());
    REQUIRE(c.subscribe(sub_of(gs::channel::fills, "beta")).has_value());
    auto const s = sub_of(gs::channel::orderbook);
    gw.send(gs::data_frame(s, json::value_from(book_at("64990")), 100));
    REQUIRE(rec.wait_for([](auto const& r) { return r.books.size() == 1; }));

    gw.drop();
    // Two local `reconnecting`, then two local `restored` once both acks came back.
    REQUIRE(rec.wait_for([](auto const& r) { return r.statuses.size() == 4; }));
    CHECK(c.client.reconnects() == 1);
    CHECK(c.client.connected());
    rec.with([](auto const& r) {
        for (int i = 0; i < 4; ++i) {
            CHECK(r.statuses[i].local);
            CHECK(r.statuses[i].status ==
                  (i < 2 ? gs::stream_status::reconnecting : gs::stream_status::restored));
        }
        return 0;
    });
    auto const again = gw.frames_of(1);
    REQUIRE(again.size() == 2);
    std::set<std::string> channels;
    for (auto const& f : again) {
        CHECK(f.at("op") == "subscribe");
        channels.insert(std::string(f.at("channel").as_string()));
    }
    CHECK(channels == std::set<std::string>{"orderbook", "fills"});

    // The book starts over: a new seq far from the old one is a baseline, not a gap.
    gw.send(gs::data_frame(s, json::value_from(book_at("64995")), 3));
    gw.send(gs::data_frame(s, json::value_from(book_at("64996")), 4));
    REQUIRE(rec.wait_for([](auto const& r) { return r.books.size() == 3; }));
    rec.with([](auto const& r) {
        CHECK(r.gaps.empty());
        return 0;
    });

    // An unsubscribe holds across the next reconnect.
    REQUIRE(c.unsubscribe(book_sub("alpha")).has_value());
    gw.drop();
    REQUIRE(rec.wait_for([](auto const& r) { return r.statuses.size() == 6; }));
    auto const third = gw.frames_of(2);
    REQUIRE(third.size() == 1);
    CHECK(third[0].at("channel") == "fills");
}

TEST_CASE("stream client: a refused handshake is an api_error and final", "[unit][stream]") {
    scripted_gateway gw;
    SECTION("at connect") {
        test::stream_recorder rec;
        test::stream_runner c(options_for(gw, "svc_live_wrong"), rec.handlers());
        auto const r = c.connect();
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().code == errc::invalid_api_key);
        CHECK(r.error().status == 401);
        CHECK(r.error().message == "Invalid API key.");
        REQUIRE(rec.wait_for([](auto const& r) { return r.closed.has_value(); }));
        // Closed: nothing more is tried.
        auto const again = c.connect();
        REQUIRE_FALSE(again.has_value());
        CHECK(again.error().code == errc::transport_error);
        CHECK(gw.with([](auto const& g) { return g.handshakes; }) == 1);
    }
    SECTION("when reconnecting: the key was revoked meanwhile") {
        test::stream_recorder rec;
        test::stream_runner c(options_for(gw), rec.handlers());
        REQUIRE(c.connect().has_value());
        REQUIRE(c.subscribe(book_sub()).has_value());
        gw.refuse_all = true;
        gw.drop();
        REQUIRE(rec.wait_for([](auto const& r) { return r.closed.has_value(); }));
        rec.with([](auto const& r) {
            REQUIRE(r.closed->has_value());
            CHECK((*r.closed)->code == errc::invalid_api_key);
            REQUIRE(r.errors.size() == 1);
            CHECK(r.errors[0].error.code == errc::invalid_api_key);
            return 0;
        });
        CHECK(gw.with([](auto const& g) { return g.handshakes; }) == 2);
        CHECK_FALSE(c.client.connected());
        auto const r = c.subscribe(book_sub("beta"));
        REQUIRE_FALSE(r.has_value());
        CHECK(r.error().code == errc::transport_error);
    }
}

TEST_CASE("stream client: close ends the client's work and fails what waits", "[unit][stream]") {
    scripted_gateway gw([](gs::client_frame const&, net::ws_session&) {}); // never answers
    test::stream_recorder rec;
    auto o = options_for(gw);
    o.testnet = true;
    test::stream_runner c(o, rec.handlers());
    REQUIRE(c.connect().has_value());
    CHECK(gw.with([](auto const& g) { return g.targets; }) ==
          std::vector<std::string>{"/ws/v1/testnet/perps"});
    auto pending = asio::co_spawn(c.ioc, c.client.subscribe(book_sub()), asio::use_future);
    REQUIRE(test::eventually([&] { return !gw.frames_of(0).empty(); }));
    c.client.close();
    auto const r = pending.get();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == errc::transport_error);
    REQUIRE(rec.wait_for([](auto const& r) { return r.closed.has_value(); }));
    rec.with([](auto const& r) {
        CHECK_FALSE(r.closed->has_value());
        return 0;
    });
}

TEST_CASE("stream client: a URL that is not a base URL is a validation error", "[unit][stream]") {
    asio::io_context ioc;
    gs::client_options o;
    o.url = "ftp://example.com";
    auto const c = gs::stream_client::create(ioc.get_executor(), o);
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().field() == "url");
}

} // namespace stream_client_unit_test
