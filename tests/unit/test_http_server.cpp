// gateway::net::http_server on its own: keep-alive, early answers, graceful stop.
#include <catch2/catch.hpp>

#include "support/fetch.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <future>
#include <thread>

using namespace gateway;
namespace asio = boost::asio;
namespace http = boost::beast::http;

TEST_CASE("stop() lets an in-flight request finish, then refuses new connections",
          "[unit][http_server]") {
    asio::io_context ioc;
    std::promise<void> entered;
    asio::steady_timer release(ioc, std::chrono::hours(1));
    auto server = std::make_shared<net::http_server>(
        ioc, net::server_options{},
        [&](net::request& req,
            net::tcp::endpoint const&) -> asio::awaitable<std::optional<net::response>> {
            entered.set_value();
            co_await release.async_wait(asio::as_tuple(asio::use_awaitable));
            net::response res{http::status::ok, req.version()};
            res.body() = "finished";
            co_return res;
        });
    auto const ep = server->listen({asio::ip::make_address("127.0.0.1"), 0});
    server->start();
    std::thread io([&] { ioc.run(); });
    std::string const url = "http://127.0.0.1:" + std::to_string(ep.port()) + "/slow";

    auto in_flight =
        std::async(std::launch::async, [&] { return test::fetch(http::verb::get, url); });
    entered.get_future().wait();
    server->stop();
    asio::post(ioc, [&] { release.cancel(); });

    auto const r = in_flight.get();
    CHECK(r.status == 200);
    CHECK(r.body == "finished");
    CHECK_FALSE(r.message.keep_alive());
    io.join(); // run() returns: nothing is left once the last connection closed
    CHECK(server->connection_count() == 0);
    CHECK_THROWS(test::fetch(http::verb::get, url, {}, {}, std::chrono::milliseconds(500)));
}

TEST_CASE("the inspector answers before the body is read, or adds headers to the answer",
          "[unit][http_server]") {
    asio::io_context ioc;
    bool handler_ran = false;
    auto server = std::make_shared<net::http_server>(
        ioc, net::server_options{},
        [&](net::request& req,
            net::tcp::endpoint const&) -> asio::awaitable<std::optional<net::response>> {
            handler_ran = true;
            co_return net::response{http::status::ok, req.version()};
        },
        net::render_plain_failure,
        [](net::request_header const& h, net::tcp::endpoint const&) {
            net::inspection verdict;
            if (h["X-Deny"] == "yes")
                verdict.answer = net::response{http::status::unauthorized, h.version()};
            else
                verdict.headers.emplace_back("X-Inspected", "1");
            return verdict;
        });
    auto const ep = server->listen({asio::ip::make_address("127.0.0.1"), 0});
    server->start();
    std::thread io([&] { ioc.run(); });
    std::string const url = "http://127.0.0.1:" + std::to_string(ep.port()) + "/";
    auto denied = test::fetch(http::verb::post, url, std::string(1000, 'x'), {{"X-Deny", "yes"}});
    CHECK(denied.status == 401);
    CHECK_FALSE(handler_ran);
    auto allowed = test::fetch(http::verb::get, url);
    CHECK(allowed.status == 200);
    CHECK(allowed.message["X-Inspected"] == "1");
    CHECK(handler_ran);
    server->stop();
    io.join();
}

TEST_CASE("a handler that asks to drop closes the connection unanswered", "[unit][http_server]") {
    asio::io_context ioc;
    auto server = std::make_shared<net::http_server>(
        ioc, net::server_options{},
        [](net::request&, net::tcp::endpoint const&)
            -> asio::awaitable<std::optional<net::response>> { co_return std::nullopt; });
    auto const ep = server->listen({asio::ip::make_address("127.0.0.1"), 0});
    server->start();
    std::thread io([&] { ioc.run(); });
    CHECK_THROWS(
        test::fetch(http::verb::get, "http://127.0.0.1:" + std::to_string(ep.port()) + "/"));
    server->stop();
    io.join();
}
