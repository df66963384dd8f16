// gateway::net::http_server against hostile clients (issue 10): endless trailers and chunk
// extensions, framing that would smuggle a second request, connection floods and descriptor
// exhaustion. Every client here is a raw POSIX socket, so it can send what no HTTP client would.
#include <catch2/catch.hpp>

#include "support/eventually.hpp"
#include "support/raw_socket.hpp"

#include <gateway/net/http_server.hpp>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>

using namespace gateway;
namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace {

constexpr std::size_t mib = 1024 * 1024;

/// An http_server on 127.0.0.1 with one I/O thread, whose handler answers 200 and records
/// what it was called with. Stops (gracefully) when it goes out of scope.
struct running_server {
    explicit running_server(net::server_options options = {}) {
        server = std::make_shared<net::http_server>(
            ioc, std::move(options),
            [this](net::request& req,
                   net::tcp::endpoint const&) -> asio::awaitable<std::optional<net::response>> {
                {
                    std::lock_guard lock(m);
                    targets.emplace_back(req.target());
                    if (req.find("X-Trailer") != req.end())
                        saw_trailer_field = true;
                    bodies.push_back(req.body());
                }
                net::response res{http::status::ok, req.version()};
                res.body() = "ok";
                co_return res;
            });
        port = server->listen({asio::ip::make_address("127.0.0.1"), 0}).port();
        server->start();
        io = std::thread([this] { ioc.run(); });
    }
    ~running_server() {
        server->stop();
        io.join();
    }
    running_server(running_server const&) = delete;
    running_server& operator=(running_server const&) = delete;

    std::vector<std::string> handled() {
        std::lock_guard lock(m);
        return targets;
    }
    std::vector<std::string> handled_bodies() {
        std::lock_guard lock(m);
        return bodies;
    }
    bool trailer_field_seen() {
        std::lock_guard lock(m);
        return saw_trailer_field;
    }

    asio::io_context ioc;
    std::shared_ptr<net::http_server> server;
    std::uint16_t port = 0;
    std::thread io;
    std::mutex m;
    std::vector<std::string> targets;
    std::vector<std::string> bodies;
    bool saw_trailer_field = false;
};

std::string status_of(std::string const& wire) {
    return wire.size() >= 12 ? wire.substr(9, 3) : std::string();
}

/// Sends `head`, then `filler` over and over (from another thread) until `total` bytes went
/// or the server stopped taking them, while this thread reads what the server answers.
struct flood_result {
    std::string wire;
    bool closed = false;
    std::size_t sent = 0;
};
flood_result flood(std::uint16_t port, std::string const& head, std::string const& filler,
                   std::size_t total) {
    test::raw_socket client(port);
    REQUIRE(client.send_all(head));
    std::atomic<std::size_t> sent{0};
    std::thread writer([&] {
        while (sent < total && client.send_all(filler))
            sent += filler.size();
    });
    flood_result r;
    r.wire = client.read_until_close();
    r.closed = client.peer_closed();
    writer.join(); // ends once the server resets the connection, or after `total`
    r.sent = sent;
    return r;
}

std::string repeat_line(std::string const& line, std::size_t at_least) {
    std::string out;
    while (out.size() < at_least)
        out += line;
    return out;
}

} // namespace

TEST_CASE("a trailer section that never ends is refused once the read buffer is full",
          "[unit][http_server][hostile]") {
    running_server s;
    // 64 MiB of trailer fields after the last chunk: the server must answer and close long
    // before, having held at most its read buffer (32 KiB) of it. What the client still gets
    // into the socket is bounded by the kernel's buffers plus the short lingering drain.
    auto const r = flood(s.port,
                         "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                         "1\r\nA\r\n0\r\n",
                         repeat_line("X-Pad: " + std::string(120, 'a') + "\r\n", 65536), 64 * mib);
    CHECK(status_of(r.wire) == "400");
    CHECK(r.wire.find("Connection: close") != std::string::npos);
    CHECK(r.wire.find("over the limit of 32768 bytes") != std::string::npos);
    CHECK(r.closed);
    CHECK(test::count_responses(r.wire) == 1);
    CHECK(r.sent < 16 * mib);
    CHECK(s.handled().empty());
}

TEST_CASE("trailer fields count against their own limit and are never merged into the header",
          "[unit][http_server][hostile]") {
    running_server s;
    SECTION("a small trailer is read and dropped") {
        test::raw_socket c(s.port);
        REQUIRE(c.send_all("POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                           "5\r\nhello\r\n0\r\nX-Trailer: yes\r\n\r\n"));
        auto const res = c.read_response();
        REQUIRE(res);
        CHECK(status_of(*res) == "200");
        REQUIRE(s.handled() == std::vector<std::string>{"/t"});
        CHECK(s.handled_bodies() == std::vector<std::string>{"hello"});
        CHECK_FALSE(s.trailer_field_seen());
    }
    SECTION("trailer fields over trailer_limit fit the buffer but are refused") {
        test::raw_socket c(s.port);
        REQUIRE(c.send_all("POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                           "5\r\nhello\r\n0\r\n" +
                           repeat_line("X-Trailer: " + std::string(100, 'b') + "\r\n", 8192) +
                           "\r\n"));
        auto const wire = c.read_until_close();
        CHECK(status_of(wire) == "400");
        CHECK(wire.find("trailer fields are over the limit of 4096 bytes") != std::string::npos);
        CHECK(c.peer_closed());
        CHECK(s.handled().empty());
    }
}

TEST_CASE("a chunk extension line that never ends is refused once the read buffer is full",
          "[unit][http_server][hostile]") {
    running_server s;
    auto const r = flood(
        s.port, "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;ext=",
        std::string(65536, 'e'), 64 * mib);
    CHECK(status_of(r.wire) == "400");
    CHECK(r.closed);
    CHECK(test::count_responses(r.wire) == 1);
    CHECK(r.sent < 16 * mib);
    CHECK(s.handled().empty());
}

TEST_CASE("chunk extensions of one request count together against their limit",
          "[unit][http_server][hostile]") {
    running_server s;
    SECTION("a short extension is still accepted") {
        test::raw_socket c(s.port);
        REQUIRE(c.send_all("POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                           "5;name=value\r\nhello\r\n0\r\n\r\n"));
        auto const res = c.read_response();
        REQUIRE(res);
        CHECK(status_of(*res) == "200");
    }
    SECTION("many chunks whose extensions add up past 1 KiB are refused") {
        std::string body;
        for (int i = 0; i < 8; ++i)
            body += "1;e=" + std::string(200, 'x') + "\r\nA\r\n";
        test::raw_socket c(s.port);
        REQUIRE(c.send_all("POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                           body + "0\r\n\r\n"));
        auto const wire = c.read_until_close();
        CHECK(status_of(wire) == "400");
        CHECK(wire.find("chunk extensions are over the limit of 1024 bytes") != std::string::npos);
        CHECK(c.peer_closed());
        CHECK(s.handled().empty());
    }
}

TEST_CASE("a Transfer-Encoding other than a single chunked is refused and the body never runs",
          "[unit][http_server][hostile]") {
    // Each request carries a second one in its body. Where Beast alone would see no body
    // (a coding it does not take for chunked) the second request follows the header at once;
    // where it would see chunked, after the last chunk. A server that misreads the framing
    // answers it too: request smuggling.
    std::string const smuggled =
        "GET /smuggled HTTP/1.1\r\nHost: x\r\nX-Request-Id: SMUGGLED\r\n\r\n";
    std::string const chunked_then = "0\r\n\r\n" + smuggled;
    using row = std::pair<std::string, std::string>; // header fields, body
    auto const [fields, body] = GENERATE_COPY(values<row>({
        {"Transfer-Encoding: gzip\r\n", smuggled},
        {"Transfer-Encoding: identity\r\n", smuggled},
        {"Transfer-Encoding: xchunked\r\n", smuggled},
        {"Transfer-Encoding: chunked, identity\r\n", smuggled},
        {"Transfer-Encoding: chunked, chunked\r\n", smuggled},
        {"Transfer-Encoding: chunked,\r\n", chunked_then},
        {"Transfer-Encoding: gzip, chunked\r\n", chunked_then},
        {"Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", chunked_then},
        {"Transfer-Encoding: gzip\r\nContent-Length: 5\r\n", "hello" + smuggled},
        {"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", chunked_then},
        {"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", chunked_then},
    }));
    auto const version = GENERATE(as<std::string>{}, "HTTP/1.1", "HTTP/1.0");
    CAPTURE(fields, version);
    running_server s;
    test::raw_socket c(s.port);
    REQUIRE(c.send_all("POST /v1/health " + version + "\r\nHost: x\r\nConnection: keep-alive\r\n" +
                       fields + "\r\n" + body));
    auto const wire = c.read_until_close();
    CHECK(status_of(wire) == "400");
    CHECK(test::count_responses(wire) == 1);
    CHECK(c.peer_closed());
    CHECK(s.handled().empty());
}

TEST_CASE("a single chunked coding and Content-Length framing still work, pipelined too",
          "[unit][http_server][hostile]") {
    running_server s;
    test::raw_socket c(s.port);
    REQUIRE(c.send_all("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked \r\n\r\n"
                       "5\r\nhello\r\n0\r\n\r\n"
                       "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"));
    for (int i = 0; i < 2; ++i) {
        auto const res = c.read_response();
        REQUIRE(res);
        CHECK(status_of(*res) == "200");
    }
    CHECK(s.handled() == std::vector<std::string>{"/a", "/b"});
    CHECK(s.handled_bodies() == std::vector<std::string>{"hello", "abc"});
}

TEST_CASE("at the connection cap the longest idle connection makes room, else the new one is "
          "refused",
          "[unit][http_server][hostile]") {
    net::server_options o;
    o.max_connections = 3;
    running_server s(o);
    REQUIRE(s.server->max_connections() == 3);
    std::vector<test::raw_socket> idle;
    for (std::size_t i = 0; i < 3; ++i) {
        idle.emplace_back(s.port);
        REQUIRE(test::eventually([&] { return s.server->stats().accepted == i + 1; }));
    }
    std::string const get = "GET /late HTTP/1.1\r\nHost: x\r\n\r\n";

    SECTION("an idle flood cannot keep a new client out") {
        test::raw_socket late(s.port);
        REQUIRE(late.send_all(get));
        auto const res = late.read_response();
        REQUIRE(res);
        CHECK(status_of(*res) == "200");
        CHECK(idle[0].closed_by_peer()); // the oldest went
        REQUIRE(idle[1].send_all(get));  // the younger ones are still served
        auto const again = idle[1].read_response();
        REQUIRE(again);
        CHECK(status_of(*again) == "200");
        auto const st = s.server->stats();
        CHECK(st.shed == 1);
        CHECK(st.refused == 0);
        CHECK(s.server->connection_count() <= 3);
    }
    SECTION("with every connection busy the next is closed unanswered, until one is idle") {
        for (auto& c : idle)
            REQUIRE(c.send_all("GET /held HTTP/1.1\r\n")); // a request begun, not finished
        REQUIRE(test::eventually([&] { return s.server->stats().idle == 0; }));
        test::raw_socket refused(s.port);
        CHECK(refused.closed_by_peer());
        CHECK(s.server->stats().refused == 1);
        CHECK(s.server->connection_count() == 3);

        REQUIRE(idle[2].send_all("Host: x\r\n\r\n")); // finished: answered, then idle
        auto const res = idle[2].read_response();
        REQUIRE(res);
        CHECK(status_of(*res) == "200");
        REQUIRE(test::eventually([&] { return s.server->stats().idle == 1; }));
        test::raw_socket late(s.port);
        REQUIRE(late.send_all(get));
        auto const served = late.read_response();
        REQUIRE(served);
        CHECK(status_of(*served) == "200");
        CHECK(idle[2].closed_by_peer());
    }
}

// Not in the sanitized build: UBSan's vptr check probes memory through pipe(2), which this test
// starves on purpose, so the tool reports a false "invalid vptr" (seen on shared_ptr's control
// block, errno EMFILE). The release build of the suite runs it.
#ifndef GATEWAY_SANITIZED
namespace {

/// Lowers this process's soft descriptor limit so that exactly `spare` more descriptors can
/// be opened (holes below the highest open descriptor are filled first); restores it after.
class descriptor_ration {
public:
    explicit descriptor_ration(int spare) {
        REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved_) == 0);
        int top = 0;
        for (auto const& entry : std::filesystem::directory_iterator("/proc/self/fd"))
            top = std::max(top, std::stoi(entry.path().filename().string()));
        for (;;) {
            int const fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            REQUIRE(fd >= 0);
            if (fd > top) {
                ::close(fd);
                break;
            }
            fillers_.push_back(fd);
        }
        rlimit lowered = saved_;
        lowered.rlim_cur = static_cast<rlim_t>(top + 1 + spare);
        REQUIRE(::setrlimit(RLIMIT_NOFILE, &lowered) == 0);
    }
    ~descriptor_ration() {
        ::setrlimit(RLIMIT_NOFILE, &saved_);
        for (int fd : fillers_)
            ::close(fd);
    }
    descriptor_ration(descriptor_ration const&) = delete;
    descriptor_ration& operator=(descriptor_ration const&) = delete;

private:
    rlimit saved_{};
    std::vector<int> fillers_;
};

} // namespace

TEST_CASE("out of descriptors, accept sheds the longest idle connection for a waiting client "
          "and otherwise backs off instead of spinning",
          "[unit][http_server][hostile]") {
    net::server_options o;
    o.max_connections = 10000; // the descriptor limit binds first here
    running_server s(o);
    // Every client socket exists before the limit drops; the server may open 3 more.
    std::vector<test::raw_socket> idle(4);
    test::raw_socket late;
    test::raw_socket waiting;
    descriptor_ration ration(3);
    auto stats = [&] {
        return s.server->stats();
    };

    for (std::size_t i = 0; i < 3; ++i) {
        idle[i].connect(s.port);
        REQUIRE(test::eventually([&] { return stats().accepted == i + 1; }));
    }
    // No descriptor left. A client arrives: accept fails with EMFILE, so the longest idle
    // connection goes and the newcomer takes its descriptor.
    idle[3].connect(s.port);
    CHECK(idle[0].closed_by_peer());
    REQUIRE(test::eventually([&] { return stats().accepted == 4; }));
    CHECK(stats().accept_failures >= 1);

    late.connect(s.port); // the same again, and this client is served
    std::string const get = "GET /late HTTP/1.1\r\nHost: x\r\n\r\n";
    REQUIRE(late.send_all(get));
    auto const res = late.read_response();
    REQUIRE(res);
    CHECK(status_of(*res) == "200");
    CHECK(idle[1].closed_by_peer());
    CHECK(stats().shed == 2); // one per waiting client, none while nobody waited

    // Now nothing is idle: every open connection has begun a request.
    for (auto* c : {&idle[2], &idle[3], &late})
        REQUIRE(c->send_all("GET /held HTTP/1.1\r\n"));
    REQUIRE(test::eventually([&] { return stats().idle == 0; }));
    auto const t0 = std::chrono::steady_clock::now();
    auto const failures_before = stats().accept_failures;
    waiting.connect(s.port);
    REQUIRE(test::eventually([&] { return stats().accept_failures >= failures_before + 4; }));
    // Four failed attempts are at least 5 + 10 + 20 ms apart: a loop that retried at once
    // would make them within microseconds.
    CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(35));

    // One request finishes; its connection is idle, so the next attempt sheds it.
    REQUIRE(idle[2].send_all("Host: x\r\n\r\n"));
    auto const finished = idle[2].read_response();
    REQUIRE(finished);
    CHECK(status_of(*finished) == "200");
    REQUIRE(waiting.send_all(get));
    auto const served = waiting.read_response();
    REQUIRE(served);
    CHECK(status_of(*served) == "200");
    CHECK(idle[2].closed_by_peer());
    CHECK(stats().shed == 3);
    // Backed off all along (5 ms to 250 ms apart); a spinning loop makes millions a second.
    CHECK(stats().accept_failures - failures_before < 100);
}
#endif

TEST_CASE("the descriptor limit is raised to the hard limit and sizes the default cap",
          "[unit][http_server]") {
    auto const soft = net::raise_open_file_limit();
    rlimit rl{};
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &rl) == 0);
    CHECK(soft == rl.rlim_cur);
    if (rl.rlim_max != RLIM_INFINITY) // the kernel refuses an unlimited soft limit
        CHECK(rl.rlim_cur == rl.rlim_max);
    auto const reserve = std::max<std::uint64_t>(64, soft / 4);
    CHECK(net::default_max_connections() == soft - reserve);
    asio::io_context ioc;
    auto server = std::make_shared<net::http_server>(
        ioc, net::server_options{},
        [](net::request&, net::tcp::endpoint const&)
            -> asio::awaitable<std::optional<net::response>> { co_return std::nullopt; });
    server->listen({asio::ip::make_address("127.0.0.1"), 0});
    CHECK(server->max_connections() == soft - reserve);
}
