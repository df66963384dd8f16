// gateway::net::http_client against a scripted peer: no answer reaches a request it does not
// belong to, and no request leaves with bytes that would split it in two (CONTRACT 6.3).
#include <catch2/catch.hpp>

#include <gateway/net/http_client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace gateway;
namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace {

std::string answer(std::string const& body) {
    return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nContent-Type: text/plain\r\n\r\n" + body;
}

/**
 * A peer on 127.0.0.1 that serves its connections one after another, each until the client
 * closes it. `script(connection, request)` gives the bytes to write for the n-th request (from
 * 0) on the n-th connection (from 0); `after_first` runs once the first answer is written.
 */
class scripted_peer {
public:
    using script_fn = std::function<std::string(int connection, int request)>;
    scripted_peer(script_fn script, std::function<void(asio::ip::tcp::socket&)> after_first = {})
        : acceptor_(ioc_, {asio::ip::make_address("127.0.0.1"), 0})
        , script_(std::move(script))
        , after_first_(std::move(after_first)) {
        thread_ = std::thread([this] { serve(); });
    }
    ~scripted_peer() {
        // A blocking accept() is not woken by closing the acceptor: wake it with a connection.
        stopping_ = true;
        boost::system::error_code ec;
        asio::ip::tcp::socket wake(ioc_);
        wake.connect(acceptor_.local_endpoint(), ec);
        thread_.join();
    }
    scripted_peer(scripted_peer const&) = delete;
    scripted_peer& operator=(scripted_peer const&) = delete;

    net::url base() const {
        return *net::url::parse("http://127.0.0.1:" +
                                std::to_string(acceptor_.local_endpoint().port()));
    }
    /// Connections accepted and requests read, per connection (read once the peer is done).
    std::vector<int> requests_per_connection() {
        std::lock_guard lock(m_);
        return requests_;
    }

private:
    void serve() {
        for (int conn = 0;; ++conn) {
            asio::ip::tcp::socket s(ioc_);
            boost::system::error_code ec;
            acceptor_.accept(s, ec);
            if (ec || stopping_)
                return;
            {
                std::lock_guard lock(m_);
                requests_.push_back(0);
            }
            asio::streambuf in;
            for (int req = 0;; ++req) {
                asio::read_until(s, in, "\r\n\r\n", ec);
                if (ec)
                    break; // the client closed it
                in.consume(in.size());
                {
                    std::lock_guard lock(m_);
                    ++requests_.back();
                }
                asio::write(s, asio::buffer(script_(conn, req)), ec);
                if (conn == 0 && req == 0 && after_first_)
                    after_first_(s);
            }
        }
    }

    asio::io_context ioc_;
    asio::ip::tcp::acceptor acceptor_;
    script_fn script_;
    std::function<void(asio::ip::tcp::socket&)> after_first_;
    std::atomic<bool> stopping_{false};
    std::mutex m_;
    std::vector<int> requests_;
    std::thread thread_;
};

using fetch_result = boost::system::result<net::http_response, net::fetch_error>;

/// Sends the requests one after another on one client (one pool), as the gateway does.
std::vector<fetch_result> send_in_turn(net::url const& base, std::vector<net::http_request> reqs,
                                       std::function<void(std::size_t)> between = {}) {
    asio::io_context ioc;
    net::http_client client(ioc.get_executor());
    std::vector<fetch_result> out;
    for (std::size_t i = 0; i < reqs.size(); ++i) {
        if (i > 0 && between)
            between(i);
        asio::co_spawn(
            ioc,
            [&, i]() -> asio::awaitable<void> {
                out.push_back(co_await client.async_request(base, std::move(reqs[i])));
            },
            [](std::exception_ptr const& e) {
                if (e)
                    std::rethrow_exception(e);
            });
        ioc.run();
        ioc.restart();
    }
    return out;
}

/// "first" answered the first request and "second" the next, each on a connection of its own.
void check_own_answers(std::vector<fetch_result> const& r, scripted_peer& peer) {
    REQUIRE(r.size() == 2);
    REQUIRE(r[0]);
    CHECK(r[0]->body() == "first");
    REQUIRE(r[1]);
    CHECK(r[1]->body() == "second");
    CHECK(peer.requests_per_connection() == std::vector<int>{1, 1});
}

net::http_request get(std::string target) {
    return net::http_request{http::verb::get, std::move(target), 11};
}

} // namespace

TEST_CASE("http_client: a peer that answers twice cannot hand its second answer to the next "
          "request",
          "[unit][http_client]") {
    scripted_peer peer([](int conn, int req) {
        if (conn == 0 && req == 0)
            return answer("first") + answer("smuggled"); // both in one write
        return answer(conn == 0 ? "reused" : "second");
    });
    auto const r = send_in_turn(peer.base(), {get("/a"), get("/b")});
    check_own_answers(r, peer);
}

TEST_CASE("http_client: bytes that arrive on an idle pooled connection close it",
          "[unit][http_client]") {
    std::promise<void> unsolicited_sent;
    scripted_peer peer([](int conn, int) { return answer(conn == 0 ? "first" : "second"); },
                       [&](asio::ip::tcp::socket& s) {
                           boost::system::error_code ec;
                           asio::write(s, asio::buffer(answer("unsolicited")), ec);
                           unsolicited_sent.set_value();
                       });
    auto sent = unsolicited_sent.get_future();
    auto const r = send_in_turn(peer.base(), {get("/a"), get("/b")}, [&](std::size_t) {
        sent.wait(); // written to loopback: in the client's socket buffer now
    });
    check_own_answers(r, peer);
}

TEST_CASE("http_client: CR, LF or NUL in a header or the target is refused and nothing is sent",
          "[unit][http_client]") {
    scripted_peer peer([](int, int) { return answer("ok"); });
    std::string const bad =
        GENERATE(std::string("a\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n"), std::string("a\nb"),
                 std::string("a\rb"), std::string("a\0b", 3));
    auto in_value = get("/a");
    in_value.set("POLY_PASSPHRASE", bad);
    auto in_name = get("/a");
    in_name.set(bad, "v");
    auto in_target = get("/a?x=" + bad);
    auto const r = send_in_turn(
        peer.base(), {std::move(in_value), std::move(in_name), std::move(in_target), get("/ok")});
    REQUIRE(r.size() == 4);
    for (std::size_t i = 0; i < 3; ++i) {
        REQUIRE_FALSE(r[i]);
        CHECK(r[i].error().what == net::fetch_error::kind::refused);
        CHECK_FALSE(r[i].error().maybe_delivered);
    }
    REQUIRE(r[3]);
    CHECK(r[3]->body() == "ok");
    CHECK(peer.requests_per_connection() == std::vector<int>{1}); // only the clean request
}
