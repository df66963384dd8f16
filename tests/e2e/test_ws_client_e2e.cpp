// The npm `ws` client (pinned by tests/ws-client/package-lock.json), a WebSocket implementation
// written independently of this project, drives gatewayd's /ws/v1/perps over mock-alpha
// (tests/ws-client/ws_e2e.mjs): handshakes with the X-API-Key header and with `?apiKey=`, ping,
// an orderbook subscription's snapshot and its next seq after a mark move, error frames for an
// unknown channel and for a frame that is not JSON, unsubscribe, and 401 refusals. Node.js and
// tests/ws-client/node_modules are installed by scripts/test.sh (scripts/npm-deps.sh); without
// them this test fails saying so, it never skips.
#include <catch2/catch.hpp>

#include "support/node_script.hpp"
#include "support/test_gateway.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <filesystem>
#include <string>

namespace ws_client_e2e_test {

using namespace gateway;
namespace json = boost::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

fs::path const ws_client_dir = fs::path(GATEWAY_FIXTURES_DIR) / ".." / "ws-client";

} // namespace

TEST_CASE("the npm ws client drives /ws/v1/perps: handshakes, ping, an orderbook snapshot and "
          "its next seq, error frames, unsubscribe, 401 refusals",
          "[e2e][ws]") {
    if (!fs::exists(ws_client_dir / "node_modules" / "ws" / "package.json"))
        FAIL("ws is not installed in " + ws_client_dir.string() +
             ": run scripts/npm-deps.sh (scripts/test.sh does)");
    test::test_gateway gw({}, [](mocks::mock_options& m) { m.ws_book_interval = 50ms; });
    auto const key = gw.create_key();
    json::object input;
    input["url"] = "ws://127.0.0.1:" + std::to_string(gw.port);
    input["key"] = key;
    input["mock"] = gw.alpha->base_url();
    auto const run = test::run_node_script(ws_client_dir / "ws_e2e.mjs", json::serialize(input));
    if (run.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    INFO("ws_e2e.mjs exited " << run.exit_code << "\nstdout: " << run.out
                              << "\nstderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find(key) == std::string::npos);
    auto const s = json::parse(run.out).as_object();

    CHECK(s.at("headerHandshake") == true);
    CHECK(s.at("queryHandshake") == true);
    CHECK(s.at("pong") == json::parse(R"({"id":1,"type":"pong"})"));
    CHECK(s.at("subscribed") == json::parse(R"({"id":"book-1","type":"subscribed","subscription":
        {"channel":"orderbook","provider":"alpha","symbol":"BTC","depth":5}})"));
    auto const& book = s.at("firstBook").as_object();
    CHECK(book.at("provider") == "alpha");
    CHECK(book.at("symbol") == "BTC");
    CHECK(book.at("depth") == 5);
    CHECK(s.at("nextSeq").to_number<std::int64_t>() ==
          book.at("seq").to_number<std::int64_t>() + 1);

    auto const& unknown = s.at("unknownChannel").as_object();
    CHECK(unknown.at("id") == 7);
    CHECK(unknown.at("error").at("code") == "VALIDATION_ERROR");
    CHECK(unknown.at("error").at("details").at("field") == "channel");
    CHECK(s.at("notJson").at("error").at("code") == "INVALID_JSON");
    CHECK(s.at("unsubscribed").at("type") == "unsubscribed");
    CHECK(s.at("unsubscribed").at("id") == "book-2");
    CHECK(s.at("booksAfterUnsubscribe") == 0);

    for (auto const* refusal : {"invalidKey", "missingKey"}) {
        INFO(refusal);
        CHECK(s.at(refusal).at("status") == 401);
        CHECK(s.at(refusal).at("body").at("error").at("code") == "INVALID_API_KEY");
        CHECK_FALSE(s.at(refusal).at("body").at("error").at("message").as_string().empty());
    }
}

} // namespace ws_client_e2e_test
