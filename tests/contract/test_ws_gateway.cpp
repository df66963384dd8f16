// /ws/v1/perps through the gateway's own WebSocket stack (key gate, session protocol, hub) over a
// scripted provider source, so every rule of CONTRACT §8 is driven exactly: handshake refusals,
// error frames, limits, one upstream subscription shared and released, book throttling and
// sequence, late joiners, slow consumers.
#include "auth/accounts.hpp"
#include "auth/api_key_gate.hpp"
#include "http/session.hpp"
#include "providers/provider.hpp"
#include "rate_limit.hpp"
#include "streams/hub.hpp"
#include "streams/ws_endpoint.hpp"
#include "support/eventually.hpp"
#include "support/raw_socket.hpp"
#include "support/test_clock.hpp"
#include "support/ws_client.hpp"

#include <catch2/catch.hpp>

#include <gateway/net/ws_frame.hpp>

#include <boost/json/serialize.hpp>

#include <filesystem>
#include <map>
#include <thread>
#include <unistd.h>

namespace {
using namespace gateway;
using namespace gateway::server;
using gateway::test::ws_client;
namespace json = boost::json;

/// A provider's streams as the test scripts them.
class scripted_source final : public perps_streams {
public:
    async_result<bool> check(call_context const&, stream::subscription const& s) override {
        if (s.symbol == "NOPE")
            co_return make_error(errc::market_not_found, "Market 'NOPE' not found.");
        co_return true;
    }

    std::shared_ptr<void> open(stream::subscription const& s, stream_sink sink,
                               std::optional<std::int64_t> account) override {
        std::lock_guard lock(m);
        ++opens;
        openers[s.key()] = account;
        auto const key = s.key();
        sinks[key] = std::move(sink);
        return std::shared_ptr<void>(nullptr, [this, key](void*) {
            std::lock_guard lock(m);
            ++releases;
            sinks.erase(key);
        });
    }

    /// Delivers `u` to the open subscription `s`; false when it is not open.
    bool push(stream::subscription const& s, stream_update u) {
        stream_sink sink;
        {
            std::lock_guard lock(m);
            auto it = sinks.find(s.key());
            if (it == sinks.end())
                return false;
            sink = it->second;
        }
        sink(std::move(u));
        return true;
    }

    bool is_open(stream::subscription const& s) {
        std::lock_guard lock(m);
        return sinks.contains(s.key());
    }

    std::mutex m;
    std::map<std::string, stream_sink> sinks;
    std::map<std::string, std::optional<std::int64_t>> openers; ///< the account that opened each
    int opens = 0;
    int releases = 0;
};

struct ws_stack {
    explicit ws_stack(std::size_t max_queued = 1000, double key_rate = 20,
                      std::chrono::milliseconds book_interval = std::chrono::milliseconds(100),
                      std::function<void(ws_endpoint_options&)> const& tune = {}) {
        static std::atomic<int> counter{0};
        dir = std::filesystem::temp_directory_path() /
              ("gateway-ws-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::create_directories(dir);
        auth::account_options ao;
        ao.scrypt_n = 1024;
        ao.now_ms = [this] {
            return clock.now_ms();
        };
        accounts = auth::open_account_service(dir, ao);
        gate = std::make_unique<api_key_gate>(*accounts, limiter, clock,
                                              gate_options{key_rate, 2 * key_rate});
        auto module = std::make_shared<provider_module>();
        module->info.id = "alpha";
        module->info.verticals = {vertical::perps};
        module->info.testnet = true;
        module->live.streams = source;
        module->testnet.streams = source;
        providers.add(module);
        auto gamma = std::make_shared<provider_module>();
        gamma->info.id = "gamma";
        gamma->info.verticals = {vertical::predictions};
        providers.add(gamma);
        hub = std::make_unique<stream_hub>(ioc.get_executor(), book_interval, clock);
        ws_endpoint_options wo;
        wo.session.max_queued = max_queued;
        if (tune)
            tune(wo);
        endpoint = std::make_unique<ws_endpoint>(providers, *gate, *hub, clock, wo);
        server = std::make_shared<net::http_server>(
            ioc, net::server_options{},
            [](net::request&,
               net::tcp::endpoint const&) -> boost::asio::awaitable<std::optional<net::response>> {
                co_return net::response{boost::beast::http::status::not_found, 11};
            },
            &session_layer::render_failure);
        server->on_upgrade(
            [this](net::request& req, net::tcp::endpoint const& remote, net::ws_upgrade& up) {
                return endpoint->upgrade(req, remote, up);
            });
        port = server->listen({boost::asio::ip::make_address("127.0.0.1"), 0}).port();
        server->start();
        for (int i = 0; i < 2; ++i)
            threads.emplace_back([this] { ioc.run(); });
        auto acct = accounts->sign_up("ws@example.com", "correct horse battery").value();
        account = acct.id;
    }

    ~ws_stack() {
        server->stop();
        hub->stop();
        work.reset();
        for (auto& t : threads)
            t.join();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    std::string key(auth::key_env env = auth::key_env::live,
                    std::optional<std::chrono::seconds> expires = std::nullopt) {
        auth::new_key_params p;
        p.name = "ws";
        p.env = env;
        p.expires_in = expires;
        return accounts->create_key(account, p).value().key;
    }

    std::string url(bool testnet = false) const {
        return "ws://127.0.0.1:" + std::to_string(port) +
               (testnet ? "/ws/v1/testnet/perps" : "/ws/v1/perps");
    }

    net::ws_connect_options with_key(std::string const& k) const {
        net::ws_connect_options o;
        o.headers = {{"X-API-Key", k}};
        return o;
    }

    std::filesystem::path dir;
    test::test_clock clock;
    std::unique_ptr<auth::account_service> accounts;
    memory_rate_limiter limiter;
    std::unique_ptr<api_key_gate> gate;
    std::shared_ptr<scripted_source> source = std::make_shared<scripted_source>();
    registry providers;
    boost::asio::io_context ioc{2};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{
        ioc.get_executor()};
    std::unique_ptr<stream_hub> hub;
    std::unique_ptr<ws_endpoint> endpoint;
    std::shared_ptr<net::http_server> server;
    std::vector<std::thread> threads;
    std::uint16_t port = 0;
    std::int64_t account = 0;
};

stream::subscription book_sub(std::string symbol = "BTC", unsigned depth = 20) {
    stream::subscription s;
    s.channel = stream::channel::orderbook;
    s.provider = "alpha";
    s.symbol = std::move(symbol);
    s.depth = depth;
    return s;
}

std::string subscribe_text(stream::subscription const& s, int id) {
    return stream::subscribe_frame(stream::client_frame::op_kind::subscribe, s, id);
}

orderbook book_at(std::string const& bid) {
    orderbook b;
    b.symbol = "BTC";
    b.bids.push_back({decimal::parse(bid).value(), decimal::parse("1").value()});
    b.asks.push_back({decimal::parse("70000").value(), decimal::parse("2").value()});
    b.timestamp = 1;
    return b;
}

stream_update update_of(stream_payload p) {
    stream_update u;
    u.data = std::move(p);
    return u;
}

std::string error_code_of(json::value const& frame) {
    return std::string(frame.at("error").at("code").as_string());
}

/// Subscribes and waits for the ack.
void subscribe(ws_client& c, stream::subscription const& s, int id) {
    c.send(subscribe_text(s, id));
    auto ack = c.next_type("subscribed");
    REQUIRE(ack);
    REQUIRE(ack->at("id").as_int64() == id);
}

/// Subscribes `c` to alpha BTC trades, stops reading, pushes up to `frames` trades whose ids are
/// `id_chars` long until the source refuses, then reads again: the close that came.
auto flood_held_client(ws_stack& stack, ws_client& c, std::size_t id_chars, int frames) {
    stream::subscription t;
    t.channel = stream::channel::trades;
    t.provider = "alpha";
    t.symbol = "BTC";
    subscribe(c, t, 1);
    c.hold(); // stops reading at the next frame
    trade tr;
    tr.id = std::string(id_chars, '7');
    tr.price = decimal::parse("1").value();
    tr.size = decimal::parse("1").value();
    for (int i = 0; i < frames && stack.source->push(t, update_of(std::vector<trade>{tr})); ++i) {
    }
    c.release();
    return c.wait_closed();
}

/// A WebSocket client on a blocking socket that reads only when asked: a client that sends
/// without reading. Its receive buffer is small, so what the server cannot send stays in the
/// server's queue rather than in this socket.
class raw_ws {
public:
    raw_ws(std::uint16_t port, std::string const& key)
        : sock_(std::chrono::seconds(20)) {
        int const rcvbuf = 16 * 1024;
        ::setsockopt(sock_.fd(), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
        sock_.connect(port);
        REQUIRE(sock_.send_all("GET /ws/v1/perps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               "Sec-WebSocket-Version: 13\r\nX-API-Key: " +
                               key + "\r\n\r\n"));
        auto head = sock_.read_response();
        REQUIRE(head);
        REQUIRE(head->starts_with("HTTP/1.1 101"));
    }

    /// False once the server closed or reset the connection.
    bool send(net::ws_frame::opcode op, std::string_view payload) {
        std::array<unsigned char, 4> const mask{1, 2, 3, 4};
        std::string out;
        net::ws_frame::append_frame(out, op, payload, &mask);
        return sock_.send_all(out);
    }

    /// Reads until the server's close frame: its code (0 when the connection ended first).
    std::uint16_t close_code() {
        std::vector<unsigned char> wire;
        std::size_t at = 0;
        net::ws_frame::reader reader(false, std::size_t{1} << 20);
        std::array<unsigned char, 65536> buf{};
        for (;;) {
            std::size_t consumed = 0;
            auto const ev = reader.next(wire.data() + at, wire.size() - at, consumed);
            at += consumed;
            switch (ev.what) {
            case net::ws_frame::event::kind::close:
                return ev.code;
            case net::ws_frame::event::kind::fail:
                return 0;
            case net::ws_frame::event::kind::message:
                reader.release();
                continue;
            case net::ws_frame::event::kind::need_more:
                if (consumed > 0)
                    continue;
                break;
            default:
                continue;
            }
            wire.erase(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(at));
            at = 0;
            auto const n = ::recv(sock_.fd(), buf.data(), buf.size(), 0);
            if (n <= 0)
                return 0;
            wire.insert(wire.end(), buf.begin(), buf.begin() + n);
        }
    }

private:
    test::raw_socket sock_;
};

} // namespace

TEST_CASE("ws handshake: refused with the REST key rules, never upgraded", "[contract][ws]") {
    ws_stack stack;
    auto refused = [&](std::string const& url, net::ws_connect_options o) {
        ws_client c(url, std::move(o));
        REQUIRE_FALSE(c.connected());
        REQUIRE(c.error());
        return *c.error();
    };
    SECTION("missing key") {
        auto e = refused(stack.url(), {});
        CHECK(e.status == 401);
        auto body = json::parse(e.body);
        CHECK(body.at("error").at("code") == "INVALID_API_KEY");
        CHECK(body.at("error").at("message") == "Missing X-API-Key header");
    }
    SECTION("invalid key, by header and by query") {
        auto e = refused(stack.url(), stack.with_key("svc_live_nope"));
        CHECK(e.status == 401);
        CHECK(json::parse(e.body).at("error").at("message") == "Invalid API key");
        auto q = refused(stack.url() + "?apiKey=svc_live_nope", {});
        CHECK(q.status == 401);
        CHECK(json::parse(q.body).at("error").at("message") == "Invalid API key");
    }
    SECTION("expired key") {
        auto const k = stack.key(auth::key_env::live, std::chrono::seconds(60));
        stack.clock.advance(std::chrono::minutes(2));
        auto e = refused(stack.url(), stack.with_key(k));
        CHECK(e.status == 401);
        CHECK(json::parse(e.body).at("error").at("message") == "API key has expired");
    }
    SECTION("test key outside the testnet path, accepted on it") {
        auto const k = stack.key(auth::key_env::test);
        auto e = refused(stack.url(), stack.with_key(k));
        CHECK(e.status == 403);
        CHECK(json::parse(e.body).at("error").at("code") == "TESTNET_KEY_ONLY");
        ws_client ok(stack.url(true), stack.with_key(k));
        CHECK(ok.connected());
    }
    SECTION("a live key by query parameter") {
        ws_client ok(stack.url() + "?apiKey=" + stack.key(), {});
        CHECK(ok.connected());
    }
    SECTION("a Sec-WebSocket-Version other than 13: 426 UPGRADE_REQUIRED with the error body") {
        auto o = stack.with_key(stack.key());
        o.headers.emplace_back("Sec-WebSocket-Version", "8");
        auto e = refused(stack.url(), o);
        CHECK(e.status == 426);
        auto body = json::parse(e.body);
        CHECK(body.at("error").at("code") == "UPGRADE_REQUIRED");
        CHECK(std::string(body.at("error").at("message").as_string()).find("13") !=
              std::string::npos);
    }
    SECTION("a malformed Sec-WebSocket-Key: 400 VALIDATION_ERROR naming the header") {
        auto o = stack.with_key(stack.key());
        o.headers.emplace_back("Sec-WebSocket-Key", "not-a-key");
        auto e = refused(stack.url(), o);
        CHECK(e.status == 400);
        auto body = json::parse(e.body);
        CHECK(body.at("error").at("code") == "VALIDATION_ERROR");
        CHECK(body.at("error").at("details").at("field") == "Sec-WebSocket-Key");
    }
    SECTION("another path") {
        auto e = refused("ws://127.0.0.1:" + std::to_string(stack.port) + "/ws/v2/perps",
                         stack.with_key(stack.key()));
        CHECK(e.status == 404);
    }
}

TEST_CASE("ws protocol: pong, acks and error frames with the contract's codes", "[contract][ws]") {
    ws_stack stack;
    ws_client c(stack.url(), stack.with_key(stack.key()));
    REQUIRE(c.connected());

    c.send(R"({"id":"p1","op":"ping"})");
    auto pong = c.next_type("pong");
    REQUIRE(pong);
    CHECK(pong->at("id") == "p1");

    auto error_for = [&](std::string const& frame) {
        c.send(frame);
        auto e = c.next_type("error");
        REQUIRE(e);
        return *e;
    };
    auto e = error_for("not json");
    CHECK(error_code_of(e) == "INVALID_JSON");
    CHECK(e.at("id").is_null());
    e = error_for(R"({"id":7,"op":"subscribe","channel":"weather","provider":"alpha"})");
    CHECK(error_code_of(e) == "VALIDATION_ERROR");
    CHECK(e.at("id") == 7);
    CHECK(e.at("error").at("details").at("field") == "channel");
    e = error_for(
        R"({"id":8,"op":"subscribe","channel":"trades","provider":"zeta","symbol":"BTC"})");
    CHECK(error_code_of(e) == "PROVIDER_NOT_FOUND");
    e = error_for(
        R"({"id":9,"op":"subscribe","channel":"trades","provider":"gamma","symbol":"X"})");
    CHECK(error_code_of(e) == "PROVIDER_NOT_FOUND");
    e = error_for(
        R"({"id":10,"op":"subscribe","channel":"trades","provider":"alpha","symbol":"NOPE"})");
    CHECK(error_code_of(e) == "MARKET_NOT_FOUND");
    CHECK(e.at("id") == 10);
    e = error_for(
        R"({"id":11,"op":"subscribe","channel":"orders","provider":"alpha","address":"0x12"})");
    CHECK(error_code_of(e) == "VALIDATION_ERROR");
    e = error_for(
        R"({"id":12,"op":"subscribe","channel":"orderbook","provider":"alpha","symbol":"BTC","depth":0})");
    CHECK(e.at("error").at("details").at("field") == "depth");
    e = error_for(
        R"({"id":13,"op":"subscribe","channel":"candles","provider":"alpha","symbol":"BTC","interval":"2m"})");
    CHECK(e.at("error").at("details").at("field") == "interval");
    e = error_for(R"({"id":14,"op":"dance"})");
    CHECK(e.at("error").at("details").at("field") == "op");

    auto const s = book_sub();
    subscribe(c, s, 20);
    e = error_for(subscribe_text(s, 21));
    CHECK(error_code_of(e) == "VALIDATION_ERROR");
    CHECK(std::string(e.at("error").at("message").as_string()).find("Already subscribed") == 0);
    c.send(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, s, 22));
    auto un = c.next_type("unsubscribed");
    REQUIRE(un);
    CHECK(un->at("subscription").at("channel") == "orderbook");
    CHECK(un->at("subscription").at("depth") == 20);
    e = error_for(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, s, 23));
    CHECK(std::string(e.at("error").at("message").as_string()).find("Not subscribed") == 0);
}

TEST_CASE("ws hub: one upstream subscription shared, books throttled with seq, late joiners "
          "served, released 30 s after the last client left",
          "[contract][ws]") {
    ws_stack stack;
    auto const key = stack.key();
    auto const s = book_sub();
    auto a = std::make_unique<ws_client>(stack.url(), stack.with_key(key));
    auto b = std::make_unique<ws_client>(stack.url(), stack.with_key(key));
    subscribe(*a, s, 1);
    subscribe(*b, s, 1);
    CHECK(stack.source->opens == 1);

    // A burst of 50 books: throttled to at most one per 100 ms, the last one always delivered.
    // How many frames that allows depends on how long the burst and its delivery took, which a
    // loaded machine stretches: the bound is derived from that span (a fixed "< 10" assumed
    // the burst and its delivery take under a second), one frame per interval plus the first.
    auto const burst_began = std::chrono::steady_clock::now();
    for (int i = 0; i < 50; ++i)
        REQUIRE(stack.source->push(s, update_of(book_at(std::to_string(60000 + i)))));
    auto is_last = [](json::value const& v) {
        return v.at("type") == "orderbook" && v.at("data").at("bids").at(0).at("price") == "60049";
    };
    REQUIRE(a->next(is_last));
    auto const span = std::chrono::steady_clock::now() - burst_began;
    REQUIRE(b->next(is_last));
    std::vector<std::int64_t> seqs;
    for (auto const& f :
         a->received([](json::value const& v) { return v.at("type") == "orderbook"; }))
        seqs.push_back(f.at("seq").as_int64());
    // The first goes at once, then at most one per interval (grid points) within the span.
    auto const allowed = 2 + static_cast<std::size_t>(span / std::chrono::milliseconds(100));
    CHECK(seqs.size() <= allowed);
    for (std::size_t i = 1; i < seqs.size(); ++i)
        CHECK(seqs[i] == seqs[i - 1] + 1);

    // A late joiner gets the current book at once, with the current seq.
    ws_client late(stack.url(), stack.with_key(key));
    subscribe(late, s, 5);
    auto snap = late.next_type("orderbook");
    REQUIRE(snap);
    CHECK(snap->at("data").at("bids").at(0).at("price") == "60049");
    CHECK(snap->at("seq").as_int64() == seqs.back());
    CHECK(stack.source->opens == 1);

    // Status frames reach every member.
    stream_update st;
    st.what = stream_update::kind::status;
    st.status = stream::stream_status::stale;
    st.message = "no book update for 5 s";
    REQUIRE(stack.source->push(s, st));
    auto stale = late.next_type("status");
    REQUIRE(stale);
    CHECK(stale->at("status") == "stale");
    CHECK(stale->at("subscription").at("symbol") == "BTC");

    a.reset();
    b.reset();
    CHECK(stack.source->releases == 0);
    late.send(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, s, 6));
    REQUIRE(late.next_type("unsubscribed"));
    stack.hub->sweep();
    CHECK(stack.source->releases == 0); // lingers
    CHECK(stack.hub->stats().topics == 1);
    stack.clock.advance(std::chrono::seconds(30));
    CHECK(test::eventually([&] { return stack.source->releases == 1; }));
    CHECK_FALSE(stack.source->is_open(s));
    CHECK(stack.hub->stats().topics == 0);
}

TEST_CASE("ws hub: a book whose slot is free goes out at once, one sooner waits for its slot",
          "[contract][ws]") {
    // An interval far longer than any wait below: the first book can only arrive in time if it
    // is sent on arrival, and the later ones cannot have gone out when the late joiner asks.
    // Longer, too, than the steady clock has run (its epoch is the boot): a topic that has sent
    // nothing yet has its slot free, however young the machine. With a fixed 10 minutes this
    // failed only within 10 minutes of boot (a fresh CI machine), the hub taking the clock's
    // epoch for the time of a last frame.
    auto const since_boot = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now().time_since_epoch());
    ws_stack stack(1000, 20, since_boot + std::chrono::minutes(10));
    auto const key = stack.key();
    auto const s = book_sub();
    ws_client a(stack.url(), stack.with_key(key));
    subscribe(a, s, 1);
    REQUIRE(stack.source->push(s, update_of(book_at("60000"))));
    auto first = a.next_type("orderbook");
    REQUIRE(first);
    CHECK(first->at("data").at("bids").at(0).at("price") == "60000");
    CHECK(first->at("seq") == 1);

    // Within the interval: held (the latest wins when the slot comes), so the topic's current
    // book is still the first one.
    REQUIRE(stack.source->push(s, update_of(book_at("60001"))));
    REQUIRE(stack.source->push(s, update_of(book_at("60002"))));
    ws_client late(stack.url(), stack.with_key(key));
    subscribe(late, s, 2);
    auto snap = late.next_type("orderbook");
    REQUIRE(snap);
    CHECK(snap->at("data").at("bids").at(0).at("price") == "60000");
    CHECK(snap->at("seq") == 1);
}

TEST_CASE("ws limits: 101st subscription, subscribe rate, 64 KiB frames, slow consumers",
          "[contract][ws]") {
    SECTION("the 101st subscription is refused") {
        ws_stack stack(1000, 1000);
        ws_client c(stack.url(), stack.with_key(stack.key()));
        for (int i = 0; i < 100; ++i)
            c.send(subscribe_text(book_sub("S" + std::to_string(i)), i));
        for (int i = 0; i < 100; ++i)
            REQUIRE(c.next_type("subscribed"));
        c.send(subscribe_text(book_sub("S100"), 100));
        auto e = c.next_type("error");
        REQUIRE(e);
        CHECK(e->at("id") == 100);
        CHECK(std::string(e->at("error").at("message").as_string()) ==
              "At most 100 subscriptions per connection.");
    }
    SECTION("subscribe frames draw from the key's rate limit") {
        ws_stack stack(1000, 2); // 2/s, burst 4; the handshake took one token
        ws_client c(stack.url(), stack.with_key(stack.key()));
        for (int i = 0; i < 6; ++i)
            c.send(subscribe_text(book_sub("R" + std::to_string(i)), i));
        auto e = c.next_type("error");
        REQUIRE(e);
        CHECK(error_code_of(*e) == "RATE_LIMITED");
    }
    SECTION("unsubscribe frames draw from the key's rate limit too") {
        ws_stack stack(1000, 2); // 2/s, burst 4; the handshake took one token, the subscribe one
        ws_client c(stack.url(), stack.with_key(stack.key()));
        auto const s = book_sub();
        subscribe(c, s, 1);
        for (int i = 0; i < 6; ++i)
            c.send(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, s, 10 + i));
        auto e = c.next([](json::value const& v) {
            return v.at("type") == "error" && v.at("error").at("code") == "RATE_LIMITED";
        });
        REQUIRE(e);
        CHECK(stack.source->opens == 1);
    }
    SECTION("a frame over 64 KiB closes with 1009") {
        ws_stack stack;
        ws_client c(stack.url(), stack.with_key(stack.key()));
        c.send(std::string(70 * 1024, 'x'));
        auto end = c.wait_closed();
        REQUIRE(end);
        INFO(end->reason);
        CHECK(end->code == 1009);
    }
    SECTION("a client too far behind is closed with 1013") {
        ws_stack stack(50);
        ws_client c(stack.url(), stack.with_key(stack.key()));
        auto end = flood_held_client(stack, c, 8000, 2000);
        REQUIRE(end);
        CHECK(end->code == 1013);
    }
}

TEST_CASE("ws bounds: clients that send 60 KB-id pings without reading are closed with 1013, "
          "their queues within 4 MiB",
          "[contract][ws]") {
    ws_stack stack;
    auto const key = stack.key();
    constexpr int clients = 8;
    // Each pong echoes a 60,000-character id: 240 of them (14 MB) are more than the kernel's
    // buffers (the client's is small, the server's at most tcp_wmem's 4 MiB) and the 4 MiB
    // queue together, far fewer than the 1,000-frame bound.
    std::string const ping = R"({"op":"ping","id":")" + std::string(60000, 'x') + R"("})";
    std::vector<std::unique_ptr<raw_ws>> conns;
    for (int i = 0; i < clients; ++i)
        conns.push_back(std::make_unique<raw_ws>(stack.port, key));
    std::vector<std::thread> senders;
    for (int i = 0; i < clients; ++i)
        senders.emplace_back([&, i] {
            for (int n = 0; n < 240 && conns[i]->send(net::ws_frame::opcode::text, ping); ++n) {
            }
        });
    for (auto& t : senders)
        t.join();
    // The server works through the pings (the kernel holds what it has not read yet); each
    // connection's queue stays within 4 MiB until the bound closes it. Only then do the
    // clients read.
    constexpr std::size_t bound = std::size_t{4} * 1024 * 1024;
    std::size_t most = 0;
    REQUIRE(test::eventually([&] {
        auto const q = stack.endpoint->queues();
        most = std::max(most, q.max_queued_bytes);
        return q.closing == clients;
    }));
    CHECK(most <= bound);
    std::vector<std::uint16_t> codes(clients, 0);
    for (int i = 0; i < clients; ++i)
        codes[i] = conns[i]->close_code();
    for (int i = 0; i < clients; ++i) {
        INFO("client " << i);
        CHECK(codes[i] == 1013);
    }
}

TEST_CASE("ws bounds: a session counts its queue in bytes, closed with 1013 past max_queued_bytes",
          "[contract][ws]") {
    // Through the gateway: a held client, frames of 60 KB, a 1 MiB byte bound and a frame bound
    // far above what is sent.
    ws_stack stack(100000, 20, std::chrono::milliseconds(100), [](ws_endpoint_options& o) {
        o.session.max_queued_bytes = std::size_t{1} << 20;
    });
    ws_client c(stack.url(), stack.with_key(stack.key()));
    auto end = flood_held_client(stack, c, 60000, 600);
    REQUIRE(end);
    CHECK(end->code == 1013);
    CHECK(end->reason.find("bytes queued") != std::string::npos);
}

TEST_CASE("ws bounds: a client that sends control pings and pongs but never reads is closed as "
          "dead",
          "[contract][ws]") {
    ws_stack stack(1000, 20, std::chrono::milliseconds(100), [](ws_endpoint_options& o) {
        o.session.peer_timeout = std::chrono::milliseconds(400);
    });
    raw_ws c(stack.port, stack.key());
    REQUIRE(test::eventually([&] { return stack.endpoint->connections() == 1; }));
    // Pings and unsolicited pongs keep arriving; none answers the server's ping, which this
    // client never reads.
    CHECK(test::eventually([&] {
        c.send(net::ws_frame::opcode::ping, "are you there");
        c.send(net::ws_frame::opcode::pong, "keepalive");
        return stack.endpoint->connections() == 0;
    }));
}

TEST_CASE("ws keys: a connection whose key is revoked or expires is closed with 1008",
          "[contract][ws]") {
    ws_stack stack;
    auto const s = book_sub();
    SECTION("revoked through the store (what the settings page, the JSON API and the admin "
            "command line all do)") {
        auth::new_key_params p;
        p.name = "ws";
        auto const created = stack.accounts->create_key(stack.account, p).value();
        ws_client c(stack.url(), stack.with_key(created.key));
        subscribe(c, s, 1);
        REQUIRE(stack.accounts->revoke_key(stack.account, created.info.id));
        auto end = c.wait_closed();
        REQUIRE(end);
        CHECK(end->code == 1008);
        CHECK(end->reason == "API key has been revoked");
    }
    SECTION("expired on the injected clock") {
        ws_client c(stack.url(),
                    stack.with_key(stack.key(auth::key_env::live, std::chrono::seconds(60))));
        subscribe(c, s, 1);
        stack.clock.advance(std::chrono::seconds(61));
        auto end = c.wait_closed();
        REQUIRE(end);
        CHECK(end->code == 1008);
        CHECK(end->reason == "API key has expired");
    }
    SECTION("a subscribe after the revocation is not served: the connection closes") {
        ws_stack quiet(1000, 20, std::chrono::milliseconds(100), [](ws_endpoint_options& o) {
            o.key_recheck = std::chrono::milliseconds(0); // only the per-frame check
        });
        auth::new_key_params p;
        p.name = "ws";
        auto const created = quiet.accounts->create_key(quiet.account, p).value();
        ws_client c(quiet.url(), quiet.with_key(created.key));
        subscribe(c, s, 1);
        REQUIRE(quiet.accounts->revoke_key(quiet.account, created.info.id));
        c.send(subscribe_text(book_sub("ETH"), 2));
        auto end = c.wait_closed();
        REQUIRE(end);
        CHECK(end->code == 1008);
        CHECK(quiet.source->opens == 1);
    }
}

TEST_CASE("ws user streams: an account holds at most 2 user-stream slots, STREAM_CAPACITY past "
          "them, other accounts unaffected",
          "[contract][ws]") {
    ws_stack stack;
    auto user = [](stream::channel ch, int n) {
        stream::subscription s;
        s.channel = ch;
        s.provider = "alpha";
        s.address = "0x00000000000000000000000000000000000000" + std::to_string(10 + n);
        return s;
    };
    auto const fills = stream::channel::fills;
    auto const orders = stream::channel::orders;
    ws_client a(stack.url(), stack.with_key(stack.key()));
    subscribe(a, user(fills, 1), 1);
    subscribe(a, user(orders, 1), 2); // the same address: the same slot
    subscribe(a, user(fills, 2), 3);
    a.send(subscribe_text(user(fills, 3), 4));
    auto e = a.next_type("error");
    REQUIRE(e);
    CHECK(e->at("id") == 4);
    CHECK(error_code_of(*e) == "STREAM_CAPACITY");
    CHECK(e->at("error").at("details").at("limit") == 2);
    CHECK(std::string(e->at("error").at("message").as_string()).find("at most 2") !=
          std::string::npos);

    // Another connection of the same account draws on the same slots.
    ws_client a2(stack.url(), stack.with_key(stack.key()));
    a2.send(subscribe_text(user(orders, 3), 1));
    auto e2 = a2.next_type("error");
    REQUIRE(e2);
    CHECK(error_code_of(*e2) == "STREAM_CAPACITY");
    subscribe(a2, user(orders, 2), 2); // an address the account holds already

    // Another account is not affected.
    auto const other = stack.accounts->sign_up("other@example.com", "correct horse battery");
    REQUIRE(other);
    auth::new_key_params p;
    p.name = "b";
    ws_client b(stack.url(), stack.with_key(stack.accounts->create_key(other->id, p).value().key));
    subscribe(b, user(orders, 3), 1);
    subscribe(b, user(fills, 4), 2);
    {
        // Each upstream subscription was opened for its opener's account: that account pays
        // its REST seeds (CONTRACT 3).
        std::lock_guard lock(stack.source->m);
        CHECK(stack.source->openers.at(user(fills, 1).key()) == stack.account);
        CHECK(stack.source->openers.at(user(orders, 3).key()) == other->id);
    }

    // A slot given back is free for the account's next address.
    a.send(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, user(fills, 2), 5));
    REQUIRE(a.next_type("unsubscribed"));
    a2.send(
        stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, user(orders, 2), 3));
    REQUIRE(a2.next_type("unsubscribed"));
    subscribe(a, user(fills, 3), 6);
}

TEST_CASE("ws hub: subscribe/unsubscribe churn reuses one lingering upstream subscription",
          "[contract][ws]") {
    ws_stack stack(1000, 1000);
    ws_client c(stack.url(), stack.with_key(stack.key()));
    auto const s = book_sub();
    for (int i = 0; i < 50; ++i) {
        subscribe(c, s, 2 * i);
        c.send(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, s, 2 * i + 1));
        REQUIRE(c.next_type("unsubscribed"));
    }
    CHECK(stack.source->opens == 1);
    CHECK(stack.source->releases == 0);

    // 29 s after the last unsubscribe it still lingers; at 30 s it is released upstream.
    stack.clock.advance(std::chrono::seconds(29));
    stack.hub->sweep();
    CHECK(stack.source->releases == 0);
    stack.clock.advance(std::chrono::seconds(1));
    stack.hub->sweep();
    CHECK(test::eventually([&] { return stack.source->releases == 1; }));
    CHECK(stack.hub->stats().topics == 0);

    // User channels are released at once (their upstream slots are few).
    stream::subscription f;
    f.channel = stream::channel::fills;
    f.provider = "alpha";
    f.address = "0x0000000000000000000000000000000000000011";
    subscribe(c, f, 500);
    c.send(stream::subscribe_frame(stream::client_frame::op_kind::unsubscribe, f, 501));
    REQUIRE(c.next_type("unsubscribed"));
    CHECK(test::eventually([&] { return stack.source->releases == 2; }));
}
