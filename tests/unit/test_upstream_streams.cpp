// The upstream side of live streams without the mocks: the link's backoff, its reconnect,
// resubscribe, staleness and release against a fake upstream on loopback; alpha's and beta's
// frames mapped into the REST types; beta's local depth book rules (beta.md §9.2).
#include <catch2/catch.hpp>

#include "providers/alpha/alpha_streams.hpp"
#include "providers/beta/beta_streams.hpp"
#include "streams/upstream_link.hpp"
#include "support/catch_result.hpp"
#include "support/eventually.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/net/websocket.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <mutex>
#include <thread>

using namespace gateway;
using namespace gateway::server;
namespace asio = boost::asio;
namespace json = boost::json;
using stream::stream_status;
using namespace std::chrono_literals;

namespace {

decimal dec(std::string_view s) {
    return decimal::parse(s).value();
}

// ---------------------------------------------------------------------------------------------
// A fake upstream: "sub:<k>" / "unsub:<k>" control frames, "ping" -> "pong", and whatever the
// test pushes ("data:<k>:<json>").

class test_protocol final : public streams::link_protocol {
public:
    explicit test_protocol(std::string url)
        : url_(std::move(url)) {}
    asio::awaitable<result<streams::connect_target>>
    connect_url(std::vector<std::string>) override {
        co_return streams::connect_target{url_, 0};
    }
    std::vector<std::string> subscribe_frames(std::vector<std::string> const& keys) override {
        std::vector<std::string> out;
        for (auto const& k : keys)
            out.push_back("sub:" + k);
        return out;
    }
    std::vector<std::string> unsubscribe_frames(std::vector<std::string> const& keys) override {
        std::vector<std::string> out;
        for (auto const& k : keys)
            out.push_back("unsub:" + k);
        return out;
    }
    streams::inbound read(std::string_view text) const override {
        streams::inbound in;
        if (text == "pong") {
            in.what = streams::inbound::kind::pong;
        } else if (text.starts_with("data:")) {
            text.remove_prefix(5);
            auto const colon = text.find(':');
            in.what = streams::inbound::kind::data;
            in.key = std::string(text.substr(0, colon));
            in.payload = std::make_shared<json::value const>(json::parse(text.substr(colon + 1)));
        }
        return in;
    }
    std::optional<std::string> ping_frame() const override { return "ping"; }

private:
    std::string url_;
};

struct fake_upstream {
    asio::io_context ioc;
    std::shared_ptr<net::http_server> server;
    std::vector<std::thread> threads;
    std::mutex m;
    std::vector<std::string> received; ///< every frame, every connection
    std::shared_ptr<net::ws_session> current;
    int connections = 0;
    bool answer_pings = true;
    std::string url;

    fake_upstream() {
        server = std::make_shared<net::http_server>(
            ioc, net::server_options{},
            [](net::request&, net::tcp::endpoint const&)
                -> asio::awaitable<std::optional<net::response>> { co_return std::nullopt; });
        server->on_upgrade(
            [this](net::request&, net::tcp::endpoint const&,
                   net::ws_upgrade& up) -> asio::awaitable<std::optional<net::response>> {
                net::ws_options o;
                o.peer_timeout = 0ms;
                auto s = co_await up.accept(o);
                if (!s)
                    co_return std::nullopt;
                {
                    std::lock_guard lock(m);
                    current = s;
                    ++connections;
                }
                // Named: GCC 12 destroys temporaries of a co_await expression twice.
                net::ws_session::message_handler on_message = [this, s](std::string_view text) {
                    std::lock_guard lock(m);
                    received.emplace_back(text);
                    if (text == "ping" && answer_pings)
                        s->send("pong");
                };
                co_await s->run(on_message);
                co_return std::nullopt;
            });
        auto const ep = server->listen({asio::ip::make_address("127.0.0.1"), 0});
        server->start();
        url = "ws://127.0.0.1:" + std::to_string(ep.port()) + "/ws";
        threads.emplace_back([this] { ioc.run(); });
    }
    ~fake_upstream() {
        server->stop();
        {
            std::lock_guard lock(m);
            if (current)
                current->close();
        }
        ioc.stop();
        for (auto& t : threads)
            t.join();
    }
    std::size_t count(std::string const& frame) {
        std::lock_guard lock(m);
        return static_cast<std::size_t>(std::count(received.begin(), received.end(), frame));
    }
    void push(std::string const& frame) {
        std::lock_guard lock(m);
        REQUIRE(current);
        current->send(frame);
    }
    void drop() {
        std::lock_guard lock(m);
        REQUIRE(current);
        current->close(net::ws_code::going_away, "dropped");
    }
    int connection_count() {
        std::lock_guard lock(m);
        return connections;
    }
};

/// What a listener saw, in order. The listener shares the record: the link may still call it
/// until the token's release has run on its strand.
struct recorder {
    struct state {
        std::mutex m;
        std::vector<std::string> events; ///< "data <json>" or "status <name>"
    };
    std::shared_ptr<state> st = std::make_shared<state>();

    streams::link_listener listener() {
        streams::link_listener l;
        l.on_data = [st = st](std::shared_ptr<json::value const> const& d) {
            std::lock_guard lock(st->m);
            st->events.push_back("data " + json::serialize(*d));
        };
        l.on_status = [st = st](stream_status s, std::string const&) {
            std::lock_guard lock(st->m);
            st->events.push_back(std::string("status ") + (s == stream_status::stale ? "stale"
                                                           : s == stream_status::reconnecting
                                                               ? "reconnecting"
                                                               : "restored"));
        };
        return l;
    }
    bool saw(std::string const& e) {
        std::lock_guard lock(st->m);
        return std::find(st->events.begin(), st->events.end(), e) != st->events.end();
    }
    std::vector<std::string> snapshot() {
        std::lock_guard lock(st->m);
        return st->events;
    }
};

} // namespace

TEST_CASE("link backoff: full jitter under an exponential ceiling capped at the maximum",
          "[unit][stream]") {
    streams::backoff b{100ms, 10000ms};
    CHECK(b.ceiling(0) == 100ms);
    CHECK(b.ceiling(1) == 200ms);
    CHECK(b.ceiling(3) == 800ms);
    CHECK(b.ceiling(7) == 10000ms); // 12800 capped
    CHECK(b.ceiling(1000) == 10000ms);
    std::mt19937_64 rng(7);
    std::set<std::int64_t> seen;
    for (unsigned attempt = 0; attempt < 20; ++attempt)
        for (int i = 0; i < 200; ++i) {
            auto const d = b.delay(attempt, rng);
            REQUIRE(d >= 0ms);
            REQUIRE(d <= b.ceiling(attempt));
            seen.insert(d.count());
        }
    CHECK(seen.size() > 100); // jittered, not a fixed schedule
}

TEST_CASE("connect pacer: at most 30 connections a minute, the rest booked in order",
          "[unit][stream]") {
    streams::connect_pacer pacer(30, std::chrono::minutes(1));
    auto const t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
    for (int i = 0; i < 30; ++i)
        REQUIRE(pacer.reserve(t0) == std::chrono::steady_clock::duration::zero());
    // The 31st and 32nd wait until the first ones are a minute old.
    CHECK(pacer.reserve(t0 + 10s) == 50s);
    CHECK(pacer.reserve(t0 + 10s) == 50s);
    // A minute on, the 33rd finds room at once; 28 more fill the minute's 30 ...
    for (int i = 0; i < 28; ++i)
        REQUIRE(pacer.reserve(t0 + 60s) == std::chrono::steady_clock::duration::zero());
    // ... and the next waits for a minute after the 31st.
    CHECK(pacer.reserve(t0 + 61s) == 59s);
}

TEST_CASE("upstream link: subscribe, data, drop -> reconnecting, resubscribe, restored, "
          "silence -> stale, release -> unsubscribe and close",
          "[unit][stream]") {
    fake_upstream up;
    asio::io_context ioc;
    auto work = asio::make_work_guard(ioc);
    std::thread io([&] { ioc.run(); });

    streams::link_options o;
    o.name = "test";
    o.stale_after = 300ms;
    o.retry = {10ms, 50ms};
    auto link = streams::upstream_link::create(ioc.get_executor(),
                                               std::make_shared<test_protocol>(up.url), o);
    recorder book, trades;
    auto t1 = link->subscribe("book", true, book.listener());
    auto t2 = link->subscribe("trades", false, trades.listener());
    CHECK(link->topic_count() == 2);
    REQUIRE(test::eventually([&] { return up.count("sub:book") == 1 && up.count("sub:trades"); }));

    up.push(R"(data:book:{"n":1})");
    up.push(R"(data:trades:[1])");
    REQUIRE(
        test::eventually([&] { return book.saw(R"(data {"n":1})") && trades.saw("data [1]"); }));

    SECTION("a drop reconnects, subscribes everything again and says so") {
        up.drop();
        REQUIRE(test::eventually([&] {
            return up.count("sub:book") == 2 && up.count("sub:trades") == 2 &&
                   book.saw("status restored") && trades.saw("status restored");
        }));
        CHECK(up.connection_count() == 2);
        auto const ev = trades.snapshot();
        auto const rec = std::find(ev.begin(), ev.end(), "status reconnecting");
        REQUIRE(rec != ev.end());
        CHECK(std::find(rec, ev.end(), "status restored") != ev.end());
        up.push(R"(data:book:{"n":2})");
        REQUIRE(test::eventually([&] { return book.saw(R"(data {"n":2})"); }));
    }

    SECTION("silence on a topic that must tick is stale; data again restores it") {
        REQUIRE(test::eventually([&] { return book.saw("status stale"); }));
        CHECK_FALSE(trades.saw("status stale")); // trades need not tick
        up.push(R"(data:book:{"n":3})");
        REQUIRE(test::eventually([&] {
            auto const ev = book.snapshot();
            auto const stale = std::find(ev.begin(), ev.end(), "status stale");
            auto const back = std::find(stale, ev.end(), "status restored");
            return back != ev.end() && std::find(back, ev.end(), R"(data {"n":3})") != ev.end();
        }));
    }

    SECTION("the last listener of a topic unsubscribes it; the last topic closes the link") {
        t2.reset();
        REQUIRE(test::eventually([&] { return up.count("unsub:trades") == 1; }));
        up.push(R"(data:trades:[2])");
        up.push(R"(data:book:{"n":4})");
        REQUIRE(test::eventually([&] { return book.saw(R"(data {"n":4})"); }));
        CHECK_FALSE(trades.saw("data [2]")); // never called after its token is gone
        t1.reset();
        REQUIRE(test::eventually([&] { return !link->connected(); }));
        CHECK(link->topic_count() == 0);
        // Used again: it connects again.
        recorder again;
        auto t3 = link->subscribe("book", true, again.listener());
        REQUIRE(test::eventually([&] { return up.count("sub:book") == 2; }));
        CHECK(up.connection_count() == 2);
    }

    SECTION("keepalive: the protocol's ping goes out; a missing pong reconnects") {
        link.reset();
        t1.reset();
        t2.reset();
        streams::link_options k = o;
        k.ping_interval = 50ms;
        k.pong_timeout = 100ms;
        k.stale_after = 60s;
        {
            std::lock_guard lock(up.m);
            up.answer_pings = false;
        }
        auto pinging = streams::upstream_link::create(ioc.get_executor(),
                                                      std::make_shared<test_protocol>(up.url), k);
        recorder r;
        auto t = pinging->subscribe("x", false, r.listener());
        REQUIRE(test::eventually([&] { return up.count("ping") >= 1; }));
        REQUIRE(test::eventually([&] { return r.saw("status reconnecting"); }));
        REQUIRE(test::eventually([&] { return r.saw("status restored"); }));
        pinging->stop();
    }

    t1.reset();
    t2.reset();
    if (link)
        link->stop();
    work.reset();
    ioc.stop();
    io.join();
}

// ---------------------------------------------------------------------------------------------
// alpha

TEST_CASE("alpha stream frames: topics, subscribe frames and routing", "[unit][stream]") {
    namespace aw = alpha::ws;
    stream::subscription s;
    s.provider = "alpha";
    s.channel = stream::channel::orderbook;
    s.symbol = "xyz:TSLA";
    CHECK(aw::topic_of(s) == "l2Book xyz:TSLA");
    CHECK(json::parse(aw::control_frame(true, aw::topic_of(s))) ==
          json::parse(
              R"({"method":"subscribe","subscription":{"type":"l2Book","coin":"xyz:TSLA"}})"));
    s.channel = stream::channel::candles;
    s.symbol = "BTC";
    s.interval = "15m";
    CHECK(
        json::parse(aw::control_frame(false, aw::topic_of(s))) ==
        json::parse(
            R"({"method":"unsubscribe","subscription":{"type":"candle","coin":"BTC","interval":"15m"}})"));
    s.channel = stream::channel::fills;
    s.address = "0xAbC0000000000000000000000000000000000001";
    CHECK(aw::topic_of(s) == "userFills 0xabc0000000000000000000000000000000000001");
    s.channel = stream::channel::prices;
    CHECK(aw::topic_of(s) == "allMids");

    using kind = streams::inbound::kind;
    CHECK(aw::read_frame("Websocket connection established.", "").what == kind::ignore);
    CHECK(aw::read_frame(R"({"channel":"pong"})", "").what == kind::pong);
    CHECK(aw::read_frame(R"({"channel":"subscriptionResponse","data":{}})", "").what ==
          kind::ignore);
    auto err = aw::read_frame(R"({"channel":"error","data":"Already subscribed: {}"})", "");
    CHECK(err.what == kind::error);
    CHECK(err.text == "Already subscribed: {}");
    CHECK(aw::read_frame(R"({"channel":"l2Book","data":{"coin":"BTC","time":1,"levels":[[],[]]}})",
                         "")
              .key == "l2Book BTC");
    CHECK(aw::read_frame(R"({"channel":"trades","data":[{"coin":"SOL"}]})", "").key ==
          "trades SOL");
    CHECK(aw::read_frame(R"({"channel":"candle","data":{"s":"BTC","i":"1m"}})", "").key ==
          "candle BTC 1m");
    CHECK(aw::read_frame(R"({"channel":"allMids","data":{"mids":{}}})", "").key == "allMids");
    CHECK(aw::read_frame(R"({"channel":"userFills","data":{"user":"0xAB","fills":[]}})", "").key ==
          "userFills 0xab");
    // orderUpdates name no user: the connection's one.
    CHECK(aw::read_frame(R"({"channel":"orderUpdates","data":[]})", "").what == kind::ignore);
    CHECK(aw::read_frame(R"({"channel":"orderUpdates","data":[]})", "0xab").key ==
          "orderUpdates 0xab");
}

TEST_CASE("alpha stream payloads map into the REST types", "[unit][stream]") {
    SECTION("allMids -> perps prices only") {
        auto p = alpha::to_prices(
            json::parse(R"({"BTC":"67890.50","@1":"1.2","PURR/USDC":"0.1","xyz:TSLA":"430"})"));
        REQUIRE(p);
        CHECK(p->size() == 2);
        CHECK(p->at("BTC").str() == "67890.5");
    }
    SECTION("l2Book push -> orderbook cut to depth") {
        auto b = alpha::to_orderbook(json::parse(R"({"coin":"SOL","time":1717000000500,"levels":[
              [{"px":"142.34","sz":"10.5","n":3},{"px":"142.33","sz":"1","n":1}],
              [{"px":"142.36","sz":"7.1","n":2}]]})"),
                                     "SOL", 1);
        REQUIRE(b);
        CHECK(b->bids.size() == 1);
        CHECK(b->bids[0].price.str() == "142.34");
        CHECK(b->asks[0].size.str() == "7.1");
        CHECK(b->timestamp == 1717000000500);
    }
    SECTION("orderUpdates keep the whole open-orders list") {
        std::vector<open_order> list;
        open_order seeded;
        seeded.order_id = "7";
        seeded.symbol = "BTC";
        seeded.type = order_type::stop_limit;
        seeded.trigger_price = dec("55000");
        seeded.reduce_only = true;
        seeded.size = dec("1");
        seeded.timestamp = 10;
        list.push_back(seeded);
        auto placed = alpha::ws::to_order_updates(json::parse(R"([
          {"order":{"coin":"SOL","side":"B","limitPx":"140.0","sz":"1.0","oid":77,"timestamp":20,"origSz":"1.0"},"status":"open","statusTimestamp":20},
          {"order":{"coin":"@1","side":"B","limitPx":"1","sz":"1","oid":78,"timestamp":21},"status":"open","statusTimestamp":21}])"));
        REQUIRE(placed);
        REQUIRE(placed->size() == 1); // the spot order is no perps order
        alpha::ws::apply(list, *placed);
        REQUIRE(list.size() == 2);
        CHECK(list[0].order_id == "77"); // newest first
        CHECK(list[0].price->str() == "140");

        auto partly = alpha::ws::to_order_updates(json::parse(R"([
          {"order":{"coin":"BTC","side":"A","limitPx":"54000","sz":"0.4","oid":7,"timestamp":10,"origSz":"1"},"status":"open","statusTimestamp":30}])"));
        REQUIRE(partly);
        alpha::ws::apply(list, *partly);
        auto const& btc = list[1];
        CHECK(btc.filled_size.str() == "0.6");
        CHECK(btc.type == order_type::stop_limit); // kept from the seed
        CHECK(btc.trigger_price->str() == "55000");
        CHECK(btc.reduce_only);

        auto done = alpha::ws::to_order_updates(json::parse(R"([
          {"order":{"coin":"SOL","side":"B","limitPx":"140","sz":"0","oid":77,"timestamp":20,"origSz":"1"},"status":"filled","statusTimestamp":40}])"));
        REQUIRE(done);
        alpha::ws::apply(list, *done);
        REQUIRE(list.size() == 1);
        CHECK(list[0].order_id == "7");
    }
    SECTION("userFills: the snapshot flag and the REST fill mapping") {
        alpha::universe u;
        auto m =
            alpha::ws::to_fills_message(json::parse(R"({"user":"0xab","isSnapshot":true,"fills":[
          {"coin":"BTC","px":"65000","sz":"0.1","side":"B","time":5,"startPosition":"0","dir":"Open Long",
           "closedPnl":"0","hash":"0x1","oid":9,"crossed":true,"fee":"1.3","tid":42,"feeToken":"USDC"}]})"),
                                        u);
        REQUIRE(m);
        CHECK(m->snapshot);
        REQUIRE(m->fills.size() == 1);
        CHECK(m->fills[0].id == "42");
        CHECK(m->fills[0].liquidity == liquidity::taker);
        CHECK_FALSE(m->fills[0].closed_pnl);
        auto live = alpha::ws::to_fills_message(json::parse(R"({"user":"0xab","fills":[]})"), u);
        REQUIRE(live);
        CHECK_FALSE(live->snapshot);
    }
    SECTION("a candle push is one REST candle") {
        json::array one;
        one.push_back(json::parse(R"({"t":1717000020000,"T":1717000079999,"s":"SOL","i":"1m",
          "o":"142.3","c":"142.35","h":"142.4","l":"142.2","v":"512.7","n":88})"));
        auto c = alpha::to_candles(one);
        REQUIRE(c);
        REQUIRE(c->size() == 1);
        CHECK((*c)[0].close.str() == "142.35");
        CHECK((*c)[0].timestamp == 1717000020000);
    }
}

// ---------------------------------------------------------------------------------------------
// beta

namespace {

beta::ws::depth_event ev(std::int64_t U, std::int64_t u, std::int64_t pu,
                         std::vector<std::pair<std::string, std::string>> bids = {},
                         std::vector<std::pair<std::string, std::string>> asks = {}) {
    beta::ws::depth_event e;
    e.first = U;
    e.last = u;
    e.prev = pu;
    e.time = u;
    for (auto& [p, q] : bids)
        e.bids.emplace_back(dec(p), dec(q));
    for (auto& [p, q] : asks)
        e.asks.emplace_back(dec(p), dec(q));
    return e;
}

beta::ws::depth_snapshot snap(std::int64_t id) {
    beta::ws::depth_snapshot s;
    s.last_update_id = id;
    s.bids = {{dec("100"), dec("1")}, {dec("99"), dec("2")}, {dec("98"), dec("3")}};
    s.asks = {{dec("101"), dec("1")}, {dec("102"), dec("2")}};
    return s;
}

beta::universe beta_universe() {
    beta::perp_market btc;
    btc.symbol = "BTC";
    btc.upstream = "BTCUSDT";
    beta::perp_market eth;
    eth.symbol = "ETH";
    eth.upstream = "ETHUSDT";
    return beta::universe({btc, eth}, {});
}

} // namespace

TEST_CASE("beta depth sync: buffer, drop u < lastUpdateId, first U <= id <= u, then pu chain",
          "[unit][stream]") {
    using step = beta::ws::depth_sync::step;
    beta::ws::depth_sync sync;
    CHECK(sync.on_event(ev(95, 98, 94)) == step::buffered); // before the snapshot
    CHECK(sync.on_event(ev(99, 102, 98, {{"100", "5"}})) == step::buffered);
    CHECK(sync.on_event(ev(103, 105, 102, {{"99", "0"}}, {{"101.5", "4"}})) == step::buffered);
    CHECK_FALSE(sync.synced());

    // Snapshot 100: 95..98 is dropped, 99..102 straddles it, 103..105 continues.
    CHECK(sync.on_snapshot(snap(100)) == step::applied);
    CHECK(sync.synced());
    CHECK(sync.last_update_id() == 105);
    auto b = sync.book("BTC", 20);
    REQUIRE(b.bids.size() == 2);
    CHECK(b.bids[0].price.str() == "100");
    CHECK(b.bids[0].size.str() == "5");   // absolute quantity
    CHECK(b.bids[1].price.str() == "98"); // 99 removed by quantity 0
    REQUIRE(b.asks.size() == 3);
    CHECK(b.asks[0].price.str() == "101");
    CHECK(b.asks[1].price.str() == "101.5");

    SECTION("an event already in the book is dropped, not applied twice") {
        CHECK(sync.on_event(ev(103, 105, 102, {{"100", "9"}})) == step::dropped);
        CHECK(sync.book("BTC", 20).bids[0].size.str() == "5");
    }
    SECTION("a pu that is not the previous u is a gap: resync from the next snapshot") {
        CHECK(sync.on_event(ev(108, 110, 107, {{"97", "1"}})) == step::gap);
        CHECK_FALSE(sync.synced());
        CHECK(sync.buffered() == 1); // the event that showed the gap waits for the snapshot
        CHECK(sync.on_event(ev(111, 112, 110)) == step::buffered);
        // A snapshot older than what is buffered does not continue it: another gap.
        CHECK(sync.on_snapshot(snap(105)) == step::gap);
        CHECK_FALSE(sync.synced());
        // A newer one does: 108..110 straddles 109, 111..112 follows.
        CHECK(sync.on_snapshot(snap(109)) == step::applied);
        CHECK(sync.last_update_id() == 112);
        CHECK(sync.book("BTC", 20).bids.size() == 4); // 100, 99, 98 + 97
    }
    SECTION("the book is cut to depth a side") {
        auto one = sync.book("BTC", 1);
        CHECK(one.bids.size() == 1);
        CHECK(one.asks.size() == 1);
        CHECK(one.symbol == "BTC");
    }
    SECTION("a snapshot with nothing buffered is the book; the first event must straddle it") {
        beta::ws::depth_sync fresh;
        CHECK(fresh.on_snapshot(snap(200)) == step::applied);
        CHECK(fresh.on_event(ev(150, 199, 149)) == step::dropped);
        CHECK(fresh.on_event(ev(201, 203, 200)) == step::gap); // U > lastUpdateId: missed 201
    }
    SECTION("a snapshot deeper than the levels the diffs follow is cut to them") {
        // The diffs follow two levels a side: the snapshot's third bid would never be
        // corrected, so it is not kept; a level the diffs bring in later is.
        beta::ws::depth_sync two(2);
        CHECK(two.on_snapshot(snap(300)) == step::applied);
        auto cut = two.book("BTC", 20);
        REQUIRE(cut.bids.size() == 2);
        CHECK(cut.bids[1].price.str() == "99");
        CHECK(cut.asks.size() == 2);
        CHECK(two.on_event(ev(300, 301, 299, {{"100", "0"}, {"97.5", "4"}})) == step::applied);
        cut = two.book("BTC", 20);
        REQUIRE(cut.bids.size() == 2);
        CHECK(cut.bids[0].price.str() == "99");
        CHECK(cut.bids[1].price.str() == "97.5"); // not the snapshot's 98
    }
}

TEST_CASE("beta stream frames and payloads map into the REST types", "[unit][stream]") {
    namespace bw = beta::ws;
    stream::subscription s;
    s.provider = "beta";
    s.channel = stream::channel::orderbook;
    s.symbol = "BTC";
    CHECK(bw::stream_of(s) == "btcusdt@depth@100ms");
    s.channel = stream::channel::trades;
    CHECK(bw::stream_of(s) == "btcusdt@aggTrade");
    s.channel = stream::channel::candles;
    s.interval = "1h";
    CHECK(bw::stream_of(s) == "btcusdt@kline_1h");
    s.channel = stream::channel::prices;
    CHECK(bw::stream_of(s) == "!markPrice@arr@1s");
    CHECK(json::parse(bw::control_frame(true, {"a@depth", "b@aggTrade"}, 7)) ==
          json::parse(R"({"method":"SUBSCRIBE","params":["a@depth","b@aggTrade"],"id":7})"));

    using kind = streams::inbound::kind;
    CHECK(bw::read_combined(R"({"result":null,"id":1})").what == kind::ignore);
    CHECK(bw::read_combined(R"({"error":{"code":2,"msg":"Invalid request"},"id":3})").what ==
          kind::error);
    auto d = bw::read_combined(R"({"stream":"btcusdt@depth@100ms","data":{"U":1}})");
    CHECK(d.what == kind::data);
    CHECK(d.key == "btcusdt@depth@100ms");
    CHECK(bw::read_user(R"({"e":"ACCOUNT_UPDATE"})").key == "user");

    SECTION("markPrice@arr: the universe's perps by base asset, merged into the whole map") {
        auto const u = beta_universe();
        price_map prices;
        REQUIRE(bw::merge_mark_prices(json::parse(R"([
            {"e":"markPriceUpdate","E":1,"s":"BTCUSDT","p":"11794.15000000","i":"1","P":"1","r":"0","T":2},
            {"e":"markPriceUpdate","E":1,"s":"XYZUSDT","p":"1","i":"1","P":"1","r":"0","T":2}])"),
                                      u, prices));
        REQUIRE(bw::merge_mark_prices(json::parse(R"([{"s":"ETHUSDT","p":"3000.5"}])"), u, prices));
        CHECK(prices.size() == 2);
        CHECK(prices.at("BTC").str() == "11794.15");
        CHECK(prices.at("ETH").str() == "3000.5");
    }
    SECTION("aggTrade: the taker's side") {
        auto t = bw::to_agg_trades(json::parse(
            R"({"e":"aggTrade","E":123456789,"s":"BTCUSDT","a":5933014,"p":"0.001","q":"100","f":100,"l":105,"T":123456785,"m":true})"));
        REQUIRE(t);
        REQUIRE(t->size() == 1);
        CHECK((*t)[0].id == "5933014");
        CHECK((*t)[0].side == side::sell); // the buyer was the maker
        CHECK((*t)[0].timestamp == 123456785);
    }
    SECTION("kline: one candle") {
        auto c = bw::to_kline(json::parse(
            R"({"e":"kline","E":1,"s":"BTCUSDT","k":{"t":60000,"T":119999,"s":"BTCUSDT","i":"1m","o":"1","c":"2","h":"3","l":"0.5","v":"10","n":3,"x":false}})"));
        REQUIRE(c);
        REQUIRE(c->size() == 1);
        CHECK((*c)[0].high.str() == "3");
        CHECK((*c)[0].timestamp == 60000);
    }
    SECTION("depthUpdate events") {
        auto e = bw::to_depth_event(json::parse(
            R"({"e":"depthUpdate","E":123456789,"T":123456788,"s":"BTCUSDT","U":157,"u":160,"pu":149,"b":[["0.0024","10"]],"a":[["0.0026","100"]]})"));
        REQUIRE(e);
        CHECK(e->first == 157);
        CHECK(e->last == 160);
        CHECK(e->prev == 149);
        CHECK(e->time == 123456788);
        CHECK_FALSE(bw::to_depth_event(json::parse(R"({"e":"depthUpdate","b":[],"a":[]})")));
    }
    SECTION("ORDER_TRADE_UPDATE: resting orders, fills, and removal") {
        auto const u = beta_universe();
        std::vector<open_order> list;
        auto placed =
            bw::to_order_event(json::parse(R"({"e":"ORDER_TRADE_UPDATE","E":100,"T":99,"o":{
            "s":"BTCUSDT","c":"mine","S":"BUY","o":"LIMIT","f":"GTC","q":"0.01","p":"60000","ap":"0","sp":"0",
            "x":"NEW","X":"NEW","i":8886774,"l":"0","z":"0","L":"0","T":99,"t":0,"m":false,"R":false}})"),
                               u);
        REQUIRE(placed);
        REQUIRE(placed->resting);
        CHECK_FALSE(placed->trade);
        CHECK(placed->resting->symbol == "BTC");
        CHECK(placed->resting->price->str() == "60000");
        CHECK(placed->resting->client_order_id == "mine");
        bw::apply(list, *placed);
        REQUIRE(list.size() == 1);

        auto partial =
            bw::to_order_event(json::parse(R"({"e":"ORDER_TRADE_UPDATE","E":200,"T":199,"o":{
            "s":"BTCUSDT","c":"mine","S":"BUY","o":"LIMIT","q":"0.01","p":"60000","sp":"0",
            "x":"TRADE","X":"PARTIALLY_FILLED","i":8886774,"l":"0.004","z":"0.004","L":"60000",
            "N":"USDT","n":"0.012","T":199,"t":555,"m":true,"R":false,"rp":"0"}})"),
                               u);
        REQUIRE(partial);
        REQUIRE(partial->trade);
        CHECK(partial->trade->id == "555");
        CHECK(partial->trade->order_id == "8886774");
        CHECK(partial->trade->size.str() == "0.004");
        CHECK(partial->trade->liquidity == liquidity::maker);
        CHECK(partial->trade->fee.str() == "0.012");
        bw::apply(list, *partial);
        REQUIRE(list.size() == 1);
        CHECK(list[0].filled_size.str() == "0.004");
        CHECK(list[0].timestamp == 99); // the order's creation time is kept

        auto filled = bw::to_order_event(json::parse(R"({"e":"ORDER_TRADE_UPDATE","E":300,"o":{
            "s":"BTCUSDT","S":"BUY","o":"LIMIT","q":"0.01","p":"60000","x":"TRADE","X":"FILLED",
            "i":8886774,"l":"0.006","z":"0.01","L":"60000","T":299,"t":556,"m":false}})"),
                                         u);
        REQUIRE(filled);
        CHECK_FALSE(filled->resting);
        REQUIRE(filled->trade);
        CHECK(filled->trade->fee_asset == "USDT"); // no commission: zero in the quote asset
        bw::apply(list, *filled);
        CHECK(list.empty());
    }
}
