// net::ws_session against an implementation nobody here wrote: Boost.Beast's WebSocket stream,
// as the peer of both ends. The server end (http_server's upgrade, then ws_session) takes Beast's
// client: the opening handshake, masked text both ways, a fragmented message, ping and pong, a
// close from either side with its code, and 1009 for a message over the limit. The client end
// (ws_connect) takes Beast's server: a frame sent right behind the 101, an echo, the server's
// ping answered, the server's close.
#include <catch2/catch.hpp>

#include "support/eventually.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/net/websocket.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <future>
#include <optional>
#include <string>
#include <thread>

namespace ws_interop_test {

using namespace gateway;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

/// http_server on loopback, on a thread of its own: 404 to plain requests, upgrades to `hook`.
struct loopback_server {
    explicit loopback_server(net::upgrade_handler hook) {
        server = std::make_shared<net::http_server>(
            ioc, net::server_options{},
            [](net::request&,
               net::tcp::endpoint const&) -> asio::awaitable<std::optional<net::response>> {
                co_return net::response{http::status::not_found, 11};
            });
        server->on_upgrade(std::move(hook));
        port = server->listen({asio::ip::make_address("127.0.0.1"), 0}).port();
        server->start();
        thread = std::thread([this] { ioc.run(); });
    }
    ~loopback_server() { shutdown(); }
    /// Stops the server and its thread (the io_context stays until destruction).
    void shutdown() {
        if (!thread.joinable())
            return;
        server->stop();
        ioc.stop();
        thread.join();
    }
    loopback_server(loopback_server const&) = delete;
    loopback_server& operator=(loopback_server const&) = delete;

    asio::io_context ioc;
    std::shared_ptr<net::http_server> server;
    unsigned short port = 0;
    std::thread thread;
};

/// gatewayd's WebSocket end on loopback: every text message is echoed; the session's end is
/// kept. `max_message` is small so that 1009 is cheap to reach.
struct echo_server {
    std::shared_ptr<net::ws_session> session;
    std::promise<net::ws_end> ended;
    loopback_server http{
        [this](net::request&, net::tcp::endpoint const&,
               net::ws_upgrade& up) -> asio::awaitable<std::optional<net::response>> {
            net::ws_options o;
            o.max_message = 1024;
            auto s = co_await up.accept(o);
            if (!s)
                co_return std::nullopt;
            session = s;
            net::ws_session::message_handler const echo = [s](std::string_view text) {
                s->send(std::string(text));
            };
            auto const end = co_await s->run(echo);
            ended.set_value(end);
            co_return std::nullopt;
        }};
    unsigned short port = http.port;

    // The session's timers belong to the server's io_context: it goes first.
    ~echo_server() {
        http.shutdown();
        session.reset();
    }
    echo_server() = default;
    echo_server(echo_server const&) = delete;
    echo_server& operator=(echo_server const&) = delete;
};

/// Runs an echo session to its end (spawned, not awaited, by the detached server's hook).
asio::awaitable<void> run_echo(std::shared_ptr<net::ws_session> s) {
    net::ws_session::message_handler const echo = [s](std::string_view text) {
        s->send(std::string(text));
    };
    co_await s->run(echo);
}

/// A server whose hook starts the session and returns at once, as gatewayd's endpoint does, so
/// the HTTP connection's coroutine ends while the session goes on.
struct detached_server {
    std::atomic<int> hooks_done{0};
    loopback_server http{
        [this](net::request&, net::tcp::endpoint const&,
               net::ws_upgrade& up) -> asio::awaitable<std::optional<net::response>> {
            auto s = co_await up.accept(net::ws_options{});
            if (s)
                asio::co_spawn(s->get_executor(), run_echo(s), asio::detached);
            hooks_done.fetch_add(1);
            co_return std::nullopt;
        }};
    unsigned short port = http.port;
};

/// Beast's client, connected and through the handshake.
struct beast_client {
    explicit beast_client(unsigned short port) {
        beast::get_lowest_layer(ws).connect({asio::ip::make_address("127.0.0.1"), port});
        ws.handshake("127.0.0.1:" + std::to_string(port), "/ws");
        ws.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
            if (kind == websocket::frame_type::pong)
                pongs.emplace_back(payload);
        });
    }
    std::string read() {
        beast::flat_buffer b;
        ws.read(b);
        return beast::buffers_to_string(b.data());
    }

    asio::io_context ioc;
    websocket::stream<tcp::socket> ws{ioc};
    std::vector<std::string> pongs;
};
} // namespace

TEST_CASE("ws interop: the server end talks to Beast's client", "[unit][ws]") {
    echo_server server;
    beast_client client(server.port);

    client.ws.write(asio::buffer(std::string("hello")));
    CHECK(client.read() == "hello");

    // A message in many small frames (Beast fragments at its write buffer size) is one message.
    std::string const long_text(700, 'z');
    client.ws.auto_fragment(true);
    client.ws.write_buffer_bytes(64);
    client.ws.write(asio::buffer(long_text));
    CHECK(client.read() == long_text);

    // A ping is answered with a pong carrying its payload (seen while reading the next echo).
    client.ws.ping("are you there");
    client.ws.write(asio::buffer(std::string("after ping")));
    CHECK(client.read() == "after ping");
    REQUIRE(client.pongs.size() == 1);
    CHECK(client.pongs[0] == "are you there");

    // Beast's close reaches the session with its code; Beast sees the echo and a clean end.
    client.ws.close(websocket::close_reason(websocket::close_code::normal, "bye"));
    auto ended = server.ended.get_future();
    REQUIRE(ended.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    auto const end = ended.get();
    CHECK(end.code == 1000);
    CHECK(end.reason == "bye");
    CHECK(end.by_peer);
}

TEST_CASE("ws interop: the server's close and the 1009 limit reach Beast's client", "[unit][ws]") {
    SECTION("the server closes") {
        echo_server server;
        beast_client client(server.port);
        client.ws.write(asio::buffer(std::string("x")));
        CHECK(client.read() == "x");
        server.session->close(net::ws_code::try_again_later, "too slow");
        beast::flat_buffer b;
        beast::error_code ec;
        client.ws.read(b, ec);
        CHECK(ec == websocket::error::closed);
        CHECK(client.ws.reason().code == 1013);
        CHECK(std::string(client.ws.reason().reason.c_str()) == "too slow");
        auto ended = server.ended.get_future();
        REQUIRE(ended.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
        auto const end = ended.get();
        CHECK(end.code == 1013); // Beast's echo of our code
        CHECK_FALSE(end.by_peer);
    }
    SECTION("a message over the limit") {
        echo_server server;
        beast_client client(server.port);
        client.ws.write(asio::buffer(std::string(2000, 'b')));
        beast::flat_buffer b;
        beast::error_code ec;
        client.ws.read(b, ec);
        CHECK(ec == websocket::error::closed);
        CHECK(client.ws.reason().code == 1009);
        auto ended = server.ended.get_future();
        REQUIRE(ended.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
        CHECK(ended.get().code == 1009);
    }
}

TEST_CASE("ws interop: a handshake without version 13 or a key is refused", "[unit][ws]") {
    echo_server server;
    auto ask = [&](std::string const& version, std::string const& key) {
        asio::io_context ioc;
        tcp::socket s(ioc);
        s.connect({asio::ip::make_address("127.0.0.1"), server.port});
        http::request<http::empty_body> req{http::verb::get, "/ws", 11};
        req.set(http::field::host, "127.0.0.1");
        req.set(http::field::upgrade, "websocket");
        req.set(http::field::connection, "Upgrade");
        req.set(http::field::sec_websocket_version, version);
        if (!key.empty())
            req.set(http::field::sec_websocket_key, key);
        http::write(s, req);
        beast::flat_buffer b;
        http::response<http::string_body> res;
        http::read(s, b, res);
        return res;
    };
    auto const old = ask("8", "dGhlIHNhbXBsZSBub25jZQ==");
    CHECK(old.result() == http::status::upgrade_required);
    CHECK(old[http::field::sec_websocket_version] == "13");
    CHECK(old.body().find(R"("code":"UPGRADE_REQUIRED")") != std::string::npos);
    CHECK(ask("13", "").result() == http::status::bad_request);
    auto const bad_key = ask("13", "short");
    CHECK(bad_key.result() == http::status::bad_request);
    CHECK(bad_key[http::field::content_type] == "application/json");
    CHECK(bad_key.body().find(R"("field":"Sec-WebSocket-Key")") != std::string::npos);
}

TEST_CASE("ws interop: the client end talks to Beast's server", "[unit][ws]") {
    // Beast's server on loopback, in a thread: pings, then greets right behind the 101 and the
    // ping; reads the client's answer (our pong comes first: it was due before the greeting was
    // read), echoes it, then closes with 1001.
    asio::io_context server_ioc;
    tcp::acceptor acceptor(server_ioc, {asio::ip::make_address("127.0.0.1"), 0});
    auto const port = acceptor.local_endpoint().port();
    std::promise<std::string> server_saw;
    std::thread server([&] {
        try {
            websocket::stream<tcp::socket> ws(acceptor.accept());
            http::request<http::string_body> req;
            beast::flat_buffer hb;
            http::read(ws.next_layer(), hb, req);
            bool const key_ok = req[http::field::sec_websocket_key].size() == 24;
            ws.accept(req);
            bool ponged = false;
            ws.control_callback([&](websocket::frame_type kind, beast::string_view payload) {
                if (kind == websocket::frame_type::pong && payload == "beat")
                    ponged = true;
            });
            ws.ping("beat");
            ws.text(true);
            ws.write(asio::buffer(std::string("greeting")));
            beast::flat_buffer b;
            ws.read(b);
            std::string const answer = beast::buffers_to_string(b.data());
            bool const ponged_first = ponged;
            ws.write(b.data());
            // Beast's close waits for the client's close answer and then the TCP close.
            beast::error_code ec;
            ws.close(websocket::close_reason(websocket::close_code::going_away, "restart"), ec);
            server_saw.set_value(answer + "|" + (ponged_first ? "pong" : "no pong") + "|" +
                                 (key_ok ? "key" : "no key") + "|" +
                                 (ec ? ec.message() : "closed"));
        } catch (std::exception const& e) {
            server_saw.set_value(std::string("server failed: ") + e.what());
        }
    });

    asio::io_context ioc;
    std::vector<std::string> got;
    auto run = [&]() -> asio::awaitable<net::ws_end> {
        auto opened = co_await net::ws_connect(ioc.get_executor(),
                                               "ws://127.0.0.1:" + std::to_string(port) + "/feed");
        if (!opened)
            co_return net::ws_end{0, opened.error().message, false};
        auto s = *opened;
        net::ws_session::message_handler const on = [&, s](std::string_view text) {
            got.emplace_back(text);
            if (got.size() == 1)
                s->send(std::string("echo me"));
        };
        co_return co_await s->run(on);
    };
    auto ended = asio::co_spawn(ioc, run(), asio::use_future);
    ioc.run();
    server.join();
    auto const end = ended.get();
    REQUIRE(got.size() >= 2);
    CHECK(got[0] == "greeting");
    CHECK(got[1] == "echo me");
    CHECK(server_saw.get_future().get() == "echo me|pong|key|closed");
    CHECK(end.code == 1001);
    CHECK(end.reason == "restart");
    CHECK(end.by_peer);
}

TEST_CASE("ws interop: a session that outlives its upgrade hook stays counted and stop() closes "
          "it with 1001",
          "[unit][ws]") {
    detached_server server;
    beast_client client(server.port);
    client.ws.write(asio::buffer(std::string("still here")));
    CHECK(client.read() == "still here"); // the hook has returned, the session serves on
    CHECK(server.hooks_done == 1);
    CHECK(server.http.server->connection_count() == 1); // counted against the cap all the same

    server.http.server->stop();
    beast::flat_buffer b;
    beast::error_code ec;
    client.ws.read(b, ec);
    CHECK(ec == websocket::error::closed);
    CHECK(client.ws.reason().code == websocket::close_code::going_away);
    CHECK(test::eventually([&] { return server.http.server->connection_count() == 0; }));
}

} // namespace ws_interop_test
