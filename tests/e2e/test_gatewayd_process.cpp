// gatewayd as operators run it: the real binary on its embedded default, driven over HTTP.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/eventually.hpp"
#include "support/fetch.hpp"
#include "support/gatewayd_process.hpp"
#include "support/process.hpp"

#include <gateway/client/client.hpp>
#include <gateway/types/health.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <csignal>
#include <filesystem>

namespace gatewayd_process_test {

using namespace gateway;
using verb = boost::beast::http::verb;

using test::running_gatewayd;

TEST_CASE("gatewayd on its embedded default answers ok for all three providers",
          "[e2e][gatewayd]") {
    running_gatewayd gw;
    CHECK(gw.base_url.rfind("http://127.0.0.1:", 0) == 0);
    CHECK(std::filesystem::is_directory(gw.data_dir));
    // gatewayd created it: owner-only (issue 10), like the 0600 files in it.
    CHECK(std::filesystem::status(gw.data_dir).permissions() == std::filesystem::perms::owner_all);
    client_options opt;
    opt.base_url = gw.base_url;
    auto c = client::create(opt).value();
    auto h = c.health();
    REQUIRE(h);
    CHECK(h->status == health_status::ok);
    CHECK(h->providers.size() == 3);
    for (auto const& [name, entry] : h->providers) {
        CAPTURE(name);
        CHECK(entry.status == health_status::ok);
    }
    gw.proc->signal(SIGTERM);
    CHECK(gw.proc->wait() == 0);
}

TEST_CASE("a SIGTERM during start-up finishes gatewayd gracefully (exit 0, not killed)",
          "[e2e][gatewayd]") {
    // Sent as soon as the server listens, while the embedded default still makes its demo key:
    // the signal handler must already be in place (a killed process exits 128 + 15).
    auto const dir = std::filesystem::temp_directory_path() /
                     ("gatewayd-e2e-term-" + std::to_string(::getpid()));
    test::child_process proc({std::string(GATEWAY_BINARY_DIR) + "/reference-server/gatewayd",
                              "serve", "--listen", "127.0.0.1:0", "--data-dir", dir.string()});
    REQUIRE(proc.read_line().rfind("gatewayd listening on ", 0) == 0);
    proc.signal(SIGTERM);
    CHECK(proc.wait() == 0);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

TEST_CASE("latency injected into an embedded mock turns that provider and the aggregate "
          "degraded within a probe interval",
          "[e2e][gatewayd]") {
    running_gatewayd gw({"--probe-interval-ms", "200", "--degraded-threshold-ms", "300"});
    client_options opt;
    opt.base_url = gw.base_url;
    auto c = client::create(opt).value();
    REQUIRE(test::eventually([&] {
        auto h = c.health();
        return h && h->status == health_status::ok;
    }));
    // The embedded mock's address is public in the provider detail.
    auto alpha = c.provider("alpha").value();
    std::string const mock = alpha.vertical_details.at(0).base_url;
    REQUIRE(test::fetch(verb::post, mock + "/__mock/faults", R"({"latencyMs":600})").status == 200);
    REQUIRE(test::eventually([&] {
        auto h = c.health();
        return h && h->status == health_status::degraded &&
               h->providers.at("alpha").status == health_status::degraded &&
               h->providers.at("beta").status == health_status::ok;
    }));
    REQUIRE(test::fetch(verb::delete_, mock + "/__mock/faults").status == 200);
    CHECK(test::eventually([&] {
        auto h = c.health();
        return h && h->status == health_status::ok;
    }));
    gw.proc->signal(SIGINT);
    CHECK(gw.proc->wait() == 0);
}

TEST_CASE("gatewayd rejects bad options with a message and exit code 2", "[e2e][gatewayd]") {
    test::child_process p(
        {std::string(GATEWAY_BINARY_DIR) + "/reference-server/gatewayd", "--no-such-option", "1"});
    CHECK(p.wait() == 2);
    test::child_process help(
        {std::string(GATEWAY_BINARY_DIR) + "/reference-server/gatewayd", "--help"});
    CHECK(help.read_line().rfind("Usage: gatewayd", 0) == 0);
    CHECK(help.wait() == 0);
}

TEST_CASE("the embedded default prints a working demo key", "[e2e][gatewayd]") {
    running_gatewayd gw;
    CHECK(gw.demo_key.rfind("svc_live_", 0) == 0);
    client_options opt;
    opt.base_url = gw.base_url;
    opt.api_key = gw.demo_key;
    auto prices = client::create(opt).value().prices("alpha");
    REQUIRE(prices);
    CHECK(prices->count("BTC") == 1);
    opt.api_key = gw.demo_key + "x";
    auto refused = client::create(opt).value().prices("alpha");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == errc::invalid_api_key);
}

TEST_CASE("examples/alpha_trading places, lists, cancels and re-levers on the embedded default",
          "[e2e][gatewayd][alpha]") {
    running_gatewayd gw;
    test::child_process example(
        {std::string(GATEWAY_BINARY_DIR) + "/examples/alpha_trading", gw.demo_key, gw.base_url});
    std::vector<std::string> lines;
    for (std::string line = example.read_line(); !line.empty(); line = example.read_line())
        lines.push_back(line);
    REQUIRE(example.wait() == 0);
    auto has = [&](std::string const& prefix) {
        for (auto const& l : lines)
            if (l.rfind(prefix, 0) == 0)
                return true;
        return false;
    };
    INFO([&] {
        std::string all;
        for (auto const& l : lines)
            all += l + "\n";
        return all;
    }());
    CHECK(has("wallet 0x"));
    CHECK(has("leverage BTC 5x cross"));
    CHECK(has("placed "));
    CHECK(has("open "));
    CHECK(has("canceled "));
    CHECK(has("leverage BTC 10x isolated"));
}

TEST_CASE("examples/beta_trading levers, places, lists, cancels and trails on the embedded default",
          "[e2e][gatewayd][beta]") {
    running_gatewayd gw;
    test::child_process example(
        {std::string(GATEWAY_BINARY_DIR) + "/examples/beta_trading", gw.demo_key, gw.base_url});
    std::vector<std::string> lines;
    for (std::string line = example.read_line(); !line.empty(); line = example.read_line())
        lines.push_back(line);
    INFO([&] {
        std::string all;
        for (auto const& l : lines)
            all += l + "\n";
        return all;
    }());
    REQUIRE(example.wait() == 0);
    auto has = [&](std::string const& prefix) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](std::string const& l) { return l.rfind(prefix, 0) == 0; });
    };
    CHECK(has("wallet 0x"));
    CHECK(has("leverage BTC 5x cross"));
    CHECK(has("placed "));
    CHECK(has("open "));
    CHECK(has("canceled "));
    CHECK(has("bought 0.01 at "));
    CHECK(has("trailing "));
}

} // namespace gatewayd_process_test
