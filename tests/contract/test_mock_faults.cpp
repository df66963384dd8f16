// Contract tests of the mock control API (CONTRACT §10) shared by every mock: faults (latency,
// forced status in the upstream's own error shape, drop), stats, marks, bad control bodies,
// and the mock_server lifecycle.
#include <gateway/mocks/mock_server.hpp>

#include "../support/fetch.hpp"
#include "../support/mock_control.hpp"
#include "../support/shapes.hpp"

#include <boost/json/parse.hpp>
#include <boost/system/system_error.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <set>
#include <string>
#include <thread>

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
using gateway::mocks::mock_options;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::control;
using gateway::test::fetch;
using gateway::test::keys;

/// One ordinary upstream request per mock kind.
struct probe {
    upstream kind;
    http::verb verb;
    char const* path;
    char const* body;
    char const* stats_kind;
};

probe probe_for(upstream kind) {
    switch (kind) {
    case upstream::alpha:
        return {kind, http::verb::post, "/info", R"({"type":"allMids"})", "allMids"};
    case upstream::beta:
        return {kind, http::verb::get, "/fapi/v3/ping", "", "GET /fapi/v3/ping"};
    case upstream::gamma:
        return {kind, http::verb::get, "/clob/", "", "GET /clob/"};
    }
    return {};
}

gateway::test::raw_response call(mock_server const& m, probe const& p) {
    return fetch(p.verb, m.base_url() + p.path, p.body);
}

} // namespace

TEST_CASE("mock faults: latency delays every upstream answer by at least the injected time",
          "[contract][mock][alpha][beta][gamma]") {
    auto const kind = GENERATE(upstream::alpha, upstream::beta, upstream::gamma);
    CAPTURE(gateway::mocks::to_string(kind));
    auto m = mock_server::start({kind});
    auto const p = probe_for(kind);
    auto const set = control(*m, http::verb::post, "/__mock/faults", R"({"latencyMs":150})");
    REQUIRE(set.status == 200);
    CHECK(json::parse(set.body) == json::parse(R"({"latencyMs":150,"status":null,"drop":false})"));

    auto const t0 = std::chrono::steady_clock::now();
    auto const r = call(*m, p);
    auto const took = std::chrono::steady_clock::now() - t0;
    CHECK(r.status == 200);
    CHECK(took >= std::chrono::milliseconds(150));

    REQUIRE(control(*m, http::verb::delete_, "/__mock/faults").status == 200);
    CHECK(call(*m, p).status == 200);
}

TEST_CASE("mock faults: a forced status answers in the upstream's own error shape",
          "[contract][mock][alpha][beta][gamma]") {
    auto const kind = GENERATE(upstream::alpha, upstream::beta, upstream::gamma);
    CAPTURE(gateway::mocks::to_string(kind));
    auto m = mock_server::start({kind});
    auto const p = probe_for(kind);
    REQUIRE(control(*m, http::verb::post, "/__mock/faults", R"({"status":503})").status == 200);
    auto const r = call(*m, p);
    CHECK(r.status == 503);
    switch (kind) {
    case upstream::alpha:
        CHECK(r.message[http::field::content_type].starts_with("text/plain"));
        CHECK(r.body == "Service Unavailable");
        break;
    case upstream::beta: {
        auto const e = json::parse(r.body);
        CHECK(keys(e) == std::set<std::string>{"code", "msg"});
        CHECK(e.at("code") == -1000);
        break;
    }
    case upstream::gamma: {
        auto const e = json::parse(r.body);
        CHECK(keys(e) == std::set<std::string>{"error"});
        CHECK(e.at("error").is_string());
        break;
    }
    }
    // The control API is never subject to faults.
    CHECK(control(*m, http::verb::get, "/__mock/stats").status == 200);
    REQUIRE(control(*m, http::verb::delete_, "/__mock/faults").status == 200);
    CHECK(call(*m, p).status == 200);
}

TEST_CASE("mock faults: drop closes connections without an answer until cleared",
          "[contract][mock][alpha][beta][gamma]") {
    auto const kind = GENERATE(upstream::alpha, upstream::beta, upstream::gamma);
    CAPTURE(gateway::mocks::to_string(kind));
    auto m = mock_server::start({kind});
    auto const p = probe_for(kind);
    REQUIRE(control(*m, http::verb::post, "/__mock/faults", R"({"drop":true})").status == 200);
    CHECK_THROWS_AS(call(*m, p), std::runtime_error);
    CHECK(json::parse(control(*m, http::verb::get, "/__mock/faults").body).at("drop") == true);
    // Dropped requests still arrived, so they count.
    auto const s = json::parse(control(*m, http::verb::get, "/__mock/stats").body);
    CHECK(s.at("requests") == 1);
    CHECK(s.at("byKind").at(p.stats_kind) == 1);

    auto const cleared = control(*m, http::verb::delete_, "/__mock/faults");
    CHECK(json::parse(cleared.body) ==
          json::parse(R"({"latencyMs":0,"status":null,"drop":false})"));
    CHECK(call(*m, p).status == 200);
}

TEST_CASE("mock faults: posting faults replaces the whole configuration",
          "[contract][mock][alpha]") {
    auto m = mock_server::start({upstream::alpha});
    auto const p = probe_for(upstream::alpha);
    REQUIRE(control(*m, http::verb::post, "/__mock/faults", R"({"status":500,"latencyMs":10})")
                .status == 200);
    CHECK(call(*m, p).status == 500);
    auto const r = control(*m, http::verb::post, "/__mock/faults", R"({"latencyMs":10})");
    CHECK(json::parse(r.body) == json::parse(R"({"latencyMs":10,"status":null,"drop":false})"));
    CHECK(call(*m, p).status == 200);
}

TEST_CASE("mock control: stats count upstream requests by kind and reset",
          "[contract][mock][alpha][beta][gamma]") {
    auto const kind = GENERATE(upstream::alpha, upstream::beta, upstream::gamma);
    CAPTURE(gateway::mocks::to_string(kind));
    auto m = mock_server::start({kind});
    auto const p = probe_for(kind);
    auto const empty = json::parse(control(*m, http::verb::get, "/__mock/stats").body);
    CHECK(empty == json::parse(R"({"requests":0,"byKind":{}})"));
    call(*m, p);
    call(*m, p);
    call(*m, p);
    control(*m, http::verb::get, "/__mock/faults"); // control requests are not counted
    auto const s = json::parse(control(*m, http::verb::get, "/__mock/stats").body);
    CHECK(s.at("requests") == 3);
    CHECK(s.at("byKind").as_object().size() == 1);
    CHECK(s.at("byKind").at(p.stats_kind) == 3);
    auto const reset = control(*m, http::verb::delete_, "/__mock/stats");
    CHECK(reset.status == 200);
    CHECK(json::parse(reset.body) == json::parse(R"({"requests":0,"byKind":{}})"));
    CHECK(json::parse(control(*m, http::verb::get, "/__mock/stats").body).at("requests") == 0);
}

TEST_CASE("mock control: bad bodies are 400 with a JSON message", "[contract][mock][beta]") {
    auto m = mock_server::start({upstream::beta});
    auto const body = GENERATE(as<std::string>{}, "", "not json", "[1]", R"({"latencyMs":-1})",
                               R"({"latencyMs":"150"})", R"({"status":99})", R"({"status":200})",
                               R"({"status":700})", R"({"drop":"yes"})", R"({"speed":1})");
    CAPTURE(body);
    auto const r = control(*m, http::verb::post, "/__mock/faults", body);
    CHECK(r.status == 400);
    CHECK(r.message[http::field::content_type] == "application/json");
    CHECK(json::parse(r.body).at("error").is_string());
    // Nothing was applied.
    CHECK(call(*m, probe_for(upstream::beta)).status == 200);
}

TEST_CASE("mock control: mark validation", "[contract][mock][alpha]") {
    auto m = mock_server::start({upstream::alpha});
    auto mark = [&](std::string const& body) {
        return control(*m, http::verb::post, "/__mock/mark", body);
    };
    CHECK(mark(R"({"symbol":"NOPE","price":"1"})").status == 404);
    CHECK(json::parse(mark(R"({"symbol":"NOPE","price":"1"})").body).at("error").is_string());
    for (auto const* bad :
         {R"({"symbol":"BTC"})", R"({"price":"1"})", R"({"symbol":"BTC","price":"abc"})",
          R"({"symbol":"BTC","price":"0"})", R"({"symbol":1,"price":"1"})",
          R"({"symbol":"BTC","price":"1","x":1})", "nope"}) {
        CAPTURE(bad);
        CHECK(mark(bad).status == 400);
    }
    CHECK(mark(R"({"symbol":"ETH","price":3000})").status == 200); // a JSON number is fine too
    auto const marks = json::parse(control(*m, http::verb::get, "/__mock/mark").body);
    CHECK(marks.at("ETH") == "3000");
    CHECK(marks.as_object().contains("xyz:TSLA"));
}

TEST_CASE("mock control: unknown endpoints are 404 and wrong methods 405",
          "[contract][mock][gamma]") {
    auto m = mock_server::start({upstream::gamma});
    CHECK(control(*m, http::verb::get, "/__mock/nope").status == 404);
    auto const r = control(*m, http::verb::put, "/__mock/stats", "{}");
    CHECK(r.status == 405);
    CHECK(r.message[http::field::allow] == "GET, DELETE");
}

TEST_CASE("mock control: tick advances the random walk on demand", "[contract][mock][beta]") {
    auto m = mock_server::start({upstream::beta});
    auto const r = control(*m, http::verb::post, "/__mock/tick", R"({"steps":50})");
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body).at("steps").as_int64() >= 50);
    CHECK(control(*m, http::verb::post, "/__mock/tick", R"({"steps":0})").status == 400);
}

TEST_CASE("mock server: the same seed gives the same market history", "[contract][mock][beta]") {
    auto trades = [](std::uint64_t seed) {
        mock_options o{upstream::beta};
        o.seed = seed;
        auto m = mock_server::start(o);
        auto const r =
            fetch(http::verb::get, m->base_url() + "/fapi/v3/trades?symbol=BTCUSDT&limit=1000");
        REQUIRE(r.status == 200);
        // The first 40 trades are the seeded history; later ones depend on timing.
        json::array out;
        for (std::size_t i = 0; i < 40; ++i) {
            auto t = json::parse(r.body).at(i).as_object();
            t.erase("time");
            out.push_back(std::move(t));
        }
        return out;
    };
    CHECK(trades(7) == trades(7));
    CHECK(trades(7) != trades(8));
}

TEST_CASE("mock server: stop is graceful and idempotent, binding a used port throws",
          "[contract][mock][gamma]") {
    mock_options o{upstream::gamma};
    o.threads = 2;
    auto m = mock_server::start(o);
    auto const url = m->base_url();
    CHECK(fetch(http::verb::get, url + "/clob/").status == 200);

    mock_options same_port{upstream::alpha};
    same_port.port = m->port();
    CHECK_THROWS_AS(mock_server::start(same_port), boost::system::system_error);

    m->stop();
    m->stop();
    CHECK_THROWS_AS(fetch(http::verb::get, url + "/clob/"), std::runtime_error);
}

TEST_CASE("mock server: stop does not wait out a long latency fault", "[contract][mock][alpha]") {
    auto m = mock_server::start({upstream::alpha});
    REQUIRE(control(*m, http::verb::post, "/__mock/faults", R"({"latencyMs":60000})").status ==
            200);
    // One request parked behind the latency timer (Catch2 assertions stay on this thread)...
    bool answered = false;
    std::thread client([url = m->base_url(), &answered] {
        try {
            fetch(http::verb::post, url + "/info", R"({"type":"allMids"})", {},
                  std::chrono::seconds(4));
            answered = true;
        } catch (std::runtime_error const&) {
        }
    });
    // ...which has arrived once the stats count it (stats count before faults apply).
    bool arrived = false;
    for (int i = 0; i < 2000 && !arrived; ++i)
        arrived =
            json::parse(control(*m, http::verb::get, "/__mock/stats").body).at("requests") == 1;
    CHECK(arrived);
    // A stop that waited out the parked request would take the whole minute of latency; the
    // bound is that minute (a property of the fault, not a guess at how fast a loaded machine is).
    auto const t0 = std::chrono::steady_clock::now();
    m->stop();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60));
    m.reset(); // closes the abandoned connection
    client.join();
    CHECK(!answered);
}
