// spec 4.1 through the SDK client -> gatewayd -> mock upstreams, offline.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/eventually.hpp"
#include "support/fetch.hpp"
#include "support/shapes.hpp"
#include "support/test_gateway.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>

#include <regex>
#include <set>

using namespace gateway;
using gateway::test::fetch;
using verb = boost::beast::http::verb;

namespace {

boost::json::object get_json(test::test_gateway& gw, std::string const& path) {
    auto r = fetch(verb::get, gw.base_url + path);
    INFO(path << " -> " << r.status << " " << r.body);
    REQUIRE(r.message[boost::beast::http::field::content_type] == "application/json");
    return boost::json::parse(r.body).as_object();
}

bool is_iso8601_utc(std::string const& s) {
    static std::regex const re(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$)");
    return std::regex_match(s, re);
}

void set_fault(mocks::mock_server& m, std::string const& body) {
    auto r = fetch(verb::post, m.base_url() + "/__mock/faults", body);
    REQUIRE(r.status == 200);
}

void clear_faults(mocks::mock_server& m) {
    auto r = fetch(verb::delete_, m.base_url() + "/__mock/faults");
    REQUIRE(r.status == 200);
}

} // namespace

TEST_CASE("GET /v1/providers lists the three providers with exactly the spec's fields",
          "[contract][public]") {
    test::test_gateway gw;
    auto raw = get_json(gw, "/v1/providers");
    REQUIRE(test::keys(raw) == std::set<std::string>{"providers"});
    auto const& arr = raw.at("providers").as_array();
    REQUIRE(arr.size() == 3);
    for (auto const& p : arr)
        CHECK(test::keys(p.as_object()) == std::set<std::string>{"id", "name", "verticals",
                                                                 "testnet", "authModel",
                                                                 "description"});

    auto list = gw.sdk->providers();
    REQUIRE(list);
    REQUIRE(list->providers.size() == 3);
    auto const& alpha = list->providers[0];
    CHECK(alpha.id == "alpha");
    CHECK(alpha.verticals ==
          std::vector<vertical>{vertical::perps, vertical::spot, vertical::rwas});
    CHECK(alpha.testnet);
    CHECK(alpha.auth_model == auth_model::eip712);
    auto const& beta = list->providers[1];
    CHECK(beta.id == "beta");
    CHECK(beta.testnet);
    auto const& gamma = list->providers[2];
    CHECK(gamma.id == "gamma");
    CHECK(gamma.verticals == std::vector<vertical>{vertical::predictions});
    CHECK_FALSE(gamma.testnet);
    CHECK(gamma.auth_model == auth_model::hmac);
}

TEST_CASE("GET /v1/providers/{provider} shows the configured upstreams, order types and budget",
          "[contract][public]") {
    test::test_gateway gw;
    SECTION("alpha") {
        auto raw = get_json(gw, "/v1/providers/alpha");
        CHECK(test::keys(raw) == std::set<std::string>{"id", "name", "verticals", "testnet",
                                                       "authModel", "description",
                                                       "verticalDetails", "orderTypes", "rateLimit",
                                                       "docsUrl"});
        CHECK(raw.at("rateLimit") == boost::json::parse(R"({"requests":1200,"windowSeconds":60})"));
        CHECK(raw.at("orderTypes") ==
              boost::json::parse(R"(["market","limit","stop_market","stop_limit"])"));
        auto const& vds = raw.at("verticalDetails").as_array();
        REQUIRE(vds.size() == 3);
        for (auto const& vd : vds) {
            CHECK(test::keys(vd.as_object()) == std::set<std::string>{"vertical", "baseUrl",
                                                                      "wsUrl", "testnetBaseUrl",
                                                                      "testnetWsUrl"});
            CHECK(vd.at("baseUrl").as_string() == gw.alpha->base_url());
            CHECK(vd.at("testnetBaseUrl").as_string() == gw.alpha_testnet->base_url());
            CHECK(vd.at("wsUrl").as_string() == gw.alpha->ws_url());
        }
        auto typed = gw.sdk->provider("alpha");
        REQUIRE(typed);
        CHECK(typed->rate_limit.requests == 1200);
        CHECK(typed->rate_limit.window_seconds == 60);
        CHECK_FALSE(typed->docs_url.empty());
        CHECK(typed->order_types.size() == 4);
    }
    SECTION("beta supports trailing stops") {
        auto typed = gw.sdk->provider("beta");
        REQUIRE(typed);
        CHECK(std::find(typed->order_types.begin(), typed->order_types.end(),
                        order_type::trailing_stop) != typed->order_types.end());
        REQUIRE(typed->vertical_details.size() == 3);
        CHECK(typed->vertical_details[0].base_url == gw.beta->base_url());
    }
    SECTION("gamma has a CLOB address and no testnet addresses") {
        auto raw = get_json(gw, "/v1/providers/gamma");
        auto const& vds = raw.at("verticalDetails").as_array();
        REQUIRE(vds.size() == 1);
        CHECK(test::keys(vds[0].as_object()) ==
              std::set<std::string>{"vertical", "baseUrl", "wsUrl", "clobBaseUrl"});
        CHECK(vds[0].at("vertical").as_string() == "predictions");
        CHECK(vds[0].at("clobBaseUrl").as_string() == gw.gamma->base_url() + "/clob");
    }
}

TEST_CASE("an unknown provider is 404 PROVIDER_NOT_FOUND on every public path",
          "[contract][public]") {
    test::test_gateway gw;
    auto detail = gw.sdk->provider("delta");
    REQUIRE_FALSE(detail);
    CHECK(detail.error().code == errc::provider_not_found);
    CHECK(detail.error().status == 404);
    CHECK(detail.error().message.find("delta") != std::string::npos);

    auto health = gw.sdk->health("delta");
    REQUIRE_FALSE(health);
    CHECK(health.error().code == errc::provider_not_found);

    auto raw = fetch(verb::get, gw.base_url + "/v1/health/delta");
    CHECK(raw.status == 404);
    auto body = boost::json::parse(raw.body).as_object();
    CHECK(test::keys(body) == std::set<std::string>{"error"});
    CHECK(test::keys(body.at("error").as_object()) == std::set<std::string>{"code", "message"});
}

TEST_CASE("GET /v1/health aggregates live probes of every provider", "[contract][public]") {
    test::test_gateway gw;
    auto raw = get_json(gw, "/v1/health");
    CHECK(test::keys(raw) == std::set<std::string>{"status", "service", "timestamp", "providers"});
    CHECK(raw.at("status").as_string() == "ok");
    CHECK(is_iso8601_utc(std::string(raw.at("timestamp").as_string())));
    auto const& providers = raw.at("providers").as_object();
    CHECK(test::keys(providers) == std::set<std::string>{"alpha", "beta", "gamma"});
    for (auto const& kv : providers) {
        CHECK(test::keys(kv.value().as_object()) == std::set<std::string>{"status", "latency"});
        CHECK(kv.value().at("status").as_string() == "ok");
        CHECK(kv.value().at("latency").is_number());
    }
    // The probes really reached the upstreams.
    auto stats = boost::json::parse(fetch(verb::get, gw.alpha->base_url() + "/__mock/stats").body);
    CHECK(stats.at("byKind").at("exchangeStatus").to_number<int>() >= 1);
    auto beta_stats =
        boost::json::parse(fetch(verb::get, gw.beta->base_url() + "/__mock/stats").body);
    CHECK(beta_stats.at("byKind").at("GET /fapi/v3/ping").to_number<int>() >= 1);
}

TEST_CASE("GET /v1/health/{provider} names the probe and when it ran", "[contract][public]") {
    test::test_gateway gw;
    auto raw = get_json(gw, "/v1/health/beta");
    CHECK(test::keys(raw) ==
          std::set<std::string>{"provider", "status", "latency", "checkedAt", "checkMethod"});
    CHECK(raw.at("provider").as_string() == "beta");
    CHECK(raw.at("latency").is_number());
    CHECK(is_iso8601_utc(std::string(raw.at("checkedAt").as_string())));
    CHECK(std::string(raw.at("checkMethod").as_string()).find("/fapi/v3/ping") !=
          std::string::npos);
    auto typed = gw.sdk->health("gamma");
    REQUIRE(typed);
    CHECK(typed->provider == "gamma");
    CHECK(typed->status == health_status::ok);
}

TEST_CASE("health moves ok -> degraded -> down -> ok as faults are injected and cleared",
          "[contract][public][health]") {
    test::test_gateway gw([](server::server_config& c) {
        c.probe_interval = std::chrono::milliseconds(100);
        c.degraded_threshold = std::chrono::milliseconds(200);
        c.probe_timeout = std::chrono::milliseconds(1000);
    });
    auto alpha_is = [&](health_status want) {
        return test::eventually([&] {
            auto h = gw.sdk->health("alpha");
            return h && h->status == want;
        });
    };
    auto aggregate_is = [&](health_status want) {
        auto h = gw.sdk->health();
        return h && h->status == want;
    };
    REQUIRE(alpha_is(health_status::ok));

    set_fault(*gw.alpha, R"({"latencyMs":400})");
    REQUIRE(alpha_is(health_status::degraded));
    CHECK(gw.sdk->health("alpha")->latency >= 200);
    CHECK(test::eventually([&] { return aggregate_is(health_status::degraded); }));
    CHECK(gw.sdk->health("beta")->status == health_status::ok);

    clear_faults(*gw.alpha);
    set_fault(*gw.alpha, R"({"status":500})");
    REQUIRE(alpha_is(health_status::down));
    CHECK(test::eventually([&] { return aggregate_is(health_status::down); }));

    clear_faults(*gw.alpha);
    set_fault(*gw.alpha, R"({"drop":true})");
    REQUIRE(alpha_is(health_status::down));

    clear_faults(*gw.alpha);
    REQUIRE(alpha_is(health_status::ok));
    CHECK(test::eventually([&] { return aggregate_is(health_status::ok); }));
}

TEST_CASE("a hanging upstream is down without waiting for its answer and never delays the others",
          "[contract][public][health]") {
    // Asserted by events, not by the wall clock (a bound on how long a call took flaked under
    // load): the upstream holds every answer for ten minutes, far longer than the wait below
    // (a hang guard only), so every health answer that comes at all came without it.
    test::test_gateway gw([](server::server_config& c) {
        c.probe_interval = std::chrono::milliseconds(100);
        c.probe_timeout = std::chrono::milliseconds(2000); // beta's probe answers within it
    });
    REQUIRE(test::eventually([&] {
        auto h = gw.sdk->health("alpha");
        return h && h->status == health_status::ok;
    }));
    set_fault(*gw.alpha, R"({"latencyMs":600000})");
    // Alpha is down once a probe has timed out: its answer never waits for the upstream's.
    REQUIRE(test::eventually(
        [&] {
            auto h = gw.sdk->health("alpha");
            return h && h->status == health_status::down;
        },
        std::chrono::seconds(60)));
    // Beta, probed on its own, is ok while alpha's probes hang: a beta probe queued behind
    // alpha's would have timed out (down) instead.
    auto beta = gw.sdk->health("beta");
    REQUIRE(beta);
    CHECK(beta->status == health_status::ok);
    clear_faults(*gw.alpha);
}

TEST_CASE("unknown routes are 404 NOT_FOUND and wrong methods 405 with Allow",
          "[contract][public]") {
    test::test_gateway gw;
    // Under /v1/ the key's checks come first (CONTRACT 2): an unknown route is 404 with a key.
    auto nf =
        fetch(verb::get, gw.base_url + "/v1/nothing/here", {}, {{"X-API-Key", gw.create_key()}});
    CHECK(nf.status == 404);
    CHECK(boost::json::parse(nf.body).at("error").at("code").as_string() == "NOT_FOUND");

    auto na = fetch(verb::post, gw.base_url + "/v1/health", "{}");
    CHECK(na.status == 405);
    CHECK(boost::json::parse(na.body).at("error").at("code").as_string() == "METHOD_NOT_ALLOWED");
    CHECK(na.message[boost::beast::http::field::allow] == "GET");

    auto sdk = gw.sdk->call(verb::delete_, "/v1/providers");
    REQUIRE_FALSE(sdk);
    CHECK(sdk.error().code == errc::method_not_allowed);
}

TEST_CASE("every response carries X-Request-Id, echoed when the client sent one",
          "[contract][public]") {
    test::test_gateway gw;
    auto echoed =
        fetch(verb::get, gw.base_url + "/v1/providers", {}, {{"X-Request-Id", "abc-123"}});
    CHECK(echoed.message["X-Request-Id"] == "abc-123");
    auto generated = fetch(verb::get, gw.base_url + "/v1/nothing");
    CHECK(generated.message["X-Request-Id"].size() >= 16);
    auto other = fetch(verb::get, gw.base_url + "/v1/nothing");
    CHECK(other.message["X-Request-Id"] != generated.message["X-Request-Id"]);
}

TEST_CASE("a malformed request line gets a JSON 400, an oversized body a JSON 413",
          "[contract][public]") {
    test::test_gateway gw;
    namespace asio = boost::asio;
    auto raw_exchange = [&](std::string const& bytes) {
        asio::io_context ioc;
        asio::ip::tcp::socket sock(ioc);
        sock.connect({asio::ip::make_address("127.0.0.1"),
                      static_cast<unsigned short>(std::stoi(gw.base_url.substr(17)))});
        asio::write(sock, asio::buffer(bytes));
        std::string reply;
        boost::system::error_code ec;
        char buf[4096];
        for (;;) {
            auto n = sock.read_some(asio::buffer(buf), ec);
            reply.append(buf, n);
            if (ec)
                break;
        }
        return reply;
    };
    SECTION("malformed request line") {
        auto reply = raw_exchange("THIS IS NOT HTTP\r\n\r\n");
        CHECK(reply.rfind("HTTP/1.1 400", 0) == 0);
        CHECK(reply.find("\"code\":\"VALIDATION_ERROR\"") != std::string::npos);
        CHECK(reply.find("X-Request-Id") != std::string::npos);
    }
    SECTION("body over 64 KiB") {
        std::string body(70 * 1024, 'x');
        auto r = fetch(verb::post, gw.base_url + "/v1/providers", body);
        CHECK(r.status == 413);
        CHECK(boost::json::parse(r.body).at("error").at("code").as_string() == "PAYLOAD_TOO_LARGE");
    }
    SECTION("chunked body over 64 KiB") {
        std::string chunk(8192, 'y');
        std::string bytes = "POST /v1/providers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                            "chunked\r\nContent-Type: application/json\r\n\r\n";
        for (int i = 0; i < 10; ++i)
            bytes += "2000\r\n" + chunk + "\r\n";
        bytes += "0\r\n\r\n";
        auto reply = raw_exchange(bytes);
        CHECK(reply.rfind("HTTP/1.1 413", 0) == 0);
        CHECK(reply.find("PAYLOAD_TOO_LARGE") != std::string::npos);
    }
}

TEST_CASE("the SDK reports an unreachable gateway as a transport error", "[contract][public]") {
    // A port that was just free: bind, note it, close.
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
    auto const port = a.local_endpoint().port();
    a.close();
    client_options opt;
    opt.base_url = "http://127.0.0.1:" + std::to_string(port);
    opt.timeout = std::chrono::milliseconds(2000);
    auto c = client::create(opt).value();
    auto r = c.health();
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::transport_error);
    CHECK_THROWS_AS(c.providers().value(), api_exception);
}
