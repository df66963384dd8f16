// gatewayd as operators run it: the real binary on its embedded default, driven over HTTP.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/eventually.hpp"
#include "support/fetch.hpp"
#include "support/process.hpp"

#include <gateway/client/client.hpp>
#include <gateway/types/health.hpp>

#include <boost/json/parse.hpp>

#include <csignal>
#include <filesystem>

using namespace gateway;
using verb = boost::beast::http::verb;

namespace {

struct running_gatewayd {
    explicit running_gatewayd(std::vector<std::string> extra = {})
        : data_dir(
              std::filesystem::temp_directory_path() /
              ("gatewayd-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
        std::vector<std::string> argv{std::string(GATEWAY_BINARY_DIR) +
                                          "/reference-server/gatewayd",
                                      "serve",
                                      "--listen",
                                      "127.0.0.1:0",
                                      "--data-dir",
                                      data_dir.string()};
        argv.insert(argv.end(), extra.begin(), extra.end());
        proc = std::make_unique<test::child_process>(argv);
        std::string const line = proc->read_line();
        std::string const prefix = "gatewayd listening on ";
        REQUIRE(line.rfind(prefix, 0) == 0);
        base_url = line.substr(prefix.size());
    }
    ~running_gatewayd() {
        proc.reset();
        std::error_code ec;
        std::filesystem::remove_all(data_dir, ec);
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
    std::filesystem::path data_dir;
    std::unique_ptr<test::child_process> proc;
    std::string base_url;
};

} // namespace

TEST_CASE("gatewayd on its embedded default answers ok for all three providers",
          "[e2e][gatewayd]") {
    running_gatewayd gw;
    CHECK(gw.base_url.rfind("http://127.0.0.1:", 0) == 0);
    CHECK(std::filesystem::is_directory(gw.data_dir));
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
