#include <catch2/catch.hpp>
#include <catch2/trompeloeil.hpp>

#include "health.hpp"
#include "health_transport.hpp"
#include "support/catch_result.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

using namespace gateway;
using namespace gateway::server;
using namespace std::chrono;
using fetch_result = boost::system::result<net::http_response, net::fetch_error>;

namespace {

class mock_transport : public probe_transport {
public:
    MAKE_MOCK0(next, fetch_result());
    boost::asio::awaitable<fetch_result> send(probe_target const&, milliseconds) override {
        co_return next();
    }
};

class mock_clock : public gateway::util::clock {
public:
    MAKE_CONST_MOCK0(steady_now, steady_clock::time_point(), override);
    MAKE_CONST_MOCK0(now_ms, std::int64_t(), override);
};

fetch_result answer(unsigned status) {
    return net::http_response{static_cast<boost::beast::http::status>(status), 11};
}

fetch_result connection_refused() {
    net::fetch_error e;
    e.what = net::fetch_error::kind::connect;
    e.message = "connect to http://127.0.0.1:1: Connection refused";
    return e;
}

probe_outcome probe_once(health_monitor& m, boost::asio::io_context& ioc) {
    probe_outcome out;
    boost::asio::co_spawn(
        ioc, [&]() -> boost::asio::awaitable<void> { out = co_await m.probe_now("alpha"); },
        boost::asio::detached);
    ioc.run();
    ioc.restart();
    return out;
}

} // namespace

TEST_CASE("classify maps answers and latency to ok, degraded and down", "[unit][health]") {
    CHECK(classify(true, 10ms, 3000ms) == health_status::ok);
    CHECK(classify(true, 3000ms, 3000ms) == health_status::ok);
    CHECK(classify(true, 3001ms, 3000ms) == health_status::degraded);
    CHECK(classify(false, 1ms, 3000ms) == health_status::down);
}

TEST_CASE("a probe's latency comes from the injected clock and decides the status",
          "[unit][health]") {
    boost::asio::io_context ioc;
    mock_transport transport;
    mock_clock clock;
    probe_target t{"alpha",
                   *net::url::parse("http://127.0.0.1:1"),
                   boost::beast::http::verb::post,
                   "/info",
                   "{}",
                   "POST /info",
                   {}};
    auto monitor = std::make_shared<health_monitor>(
        ioc, transport, clock, std::vector<probe_target>{t},
        health_options{seconds(10), seconds(5), milliseconds(3000)});
    steady_clock::time_point const t0{};
    ALLOW_CALL(clock, now_ms()).RETURN(1'700'000'000'000);

    SECTION("a fast 200 is ok") {
        trompeloeil::sequence seq;
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0);
        REQUIRE_CALL(transport, next()).IN_SEQUENCE(seq).RETURN(answer(200));
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0 + 42ms);
        auto out = probe_once(*monitor, ioc);
        CHECK(out.status == health_status::ok);
        CHECK(out.latency_ms == 42);
        CHECK(out.checked_at_ms == 1'700'000'000'000);
    }
    SECTION("a 200 slower than the threshold is degraded") {
        trompeloeil::sequence seq;
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0);
        REQUIRE_CALL(transport, next()).IN_SEQUENCE(seq).RETURN(answer(200));
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0 + 3500ms);
        auto out = probe_once(*monitor, ioc);
        CHECK(out.status == health_status::degraded);
        CHECK(out.latency_ms == 3500);
    }
    SECTION("an upstream 5xx is down, with the time until it was seen") {
        trompeloeil::sequence seq;
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0);
        REQUIRE_CALL(transport, next()).IN_SEQUENCE(seq).RETURN(answer(503));
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0 + 7ms);
        auto out = probe_once(*monitor, ioc);
        CHECK(out.status == health_status::down);
        CHECK(out.latency_ms == 7);
    }
    SECTION("a refused connection is down") {
        trompeloeil::sequence seq;
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0);
        REQUIRE_CALL(transport, next()).IN_SEQUENCE(seq).RETURN(connection_refused());
        REQUIRE_CALL(clock, steady_now()).IN_SEQUENCE(seq).RETURN(t0 + 1ms);
        auto out = probe_once(*monitor, ioc);
        CHECK(out.status == health_status::down);
        CHECK(out.reason.find("refused") != std::string::npos);
    }
}
