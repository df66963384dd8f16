// ccxt's `aster` class with a private key trades on mock-beta: it creates a limit order, lists
// it among the open orders, cancels it and sees it gone (tests/ccxt/ccxt_beta_trading.mjs). An
// independent Aster client signing with its own code, so mock-beta's order endpoints (and the
// SDK verification code they use) accept what real clients send. Node.js and
// tests/ccxt/node_modules are installed by scripts/test.sh; without them this test fails saying
// so, it never skips.
#include <catch2/catch.hpp>

#include "support/mock_control.hpp"
#include "support/node_script.hpp"

#include <gateway/mocks/mock_server.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <string>

namespace ccxt_beta_trading_test {

using namespace gateway;
namespace json = boost::json;
namespace fs = std::filesystem;

TEST_CASE("ccxt's aster class creates, lists and cancels an order on mock-beta",
          "[e2e][beta][ccxt][trading]") {
    fs::path const dir = fs::path(GATEWAY_FIXTURES_DIR) / ".." / "ccxt";
    if (!fs::exists(dir / "node_modules" / "ccxt" / "package.json"))
        FAIL("ccxt is not installed in " + dir.string() +
             ": run `npm ci` there (scripts/test.sh does)");
    constexpr char const* key =
        "0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f";
    auto m = mocks::mock_server::start({mocks::upstream::beta});
    auto const wallet = sign::address_of(sign::private_key::from_hex(key).value()).str();
    test::mock_post(*m, "/__mock/accounts",
                    R"({"address":")" + wallet + R"(","balances":{"USDT":"100000"}})");
    test::set_mark(*m, "BTC", "65000");
    test::reset_stats(*m);

    json::object input;
    input["baseUrl"] = m->base_url();
    input["privateKey"] = key;
    input["symbol"] = "BTC/USDT:USDT";
    input["amount"] = 0.01;
    input["price"] = 64000; // under the market, inside the percent-price band: it rests
    auto const run = test::run_node_script(dir / "ccxt_beta_trading.mjs", json::serialize(input));
    INFO("ccxt_beta_trading.mjs exited " << run.exit_code << "\nstdout: " << run.out
                                         << "\nstderr: " << run.err);
    if (run.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    REQUIRE(run.exit_code == 0);
    auto const s = json::parse(run.out);

    auto const& created = s.at("created");
    REQUIRE(created.at("id").is_string());
    std::string const id(created.at("id").as_string());
    CHECK_FALSE(id.empty());
    CHECK(created.at("status").as_string() == "open");
    auto const& open = s.at("open").as_array();
    REQUIRE(open.size() == 1);
    CHECK(open[0].at("id").as_string() == id);
    CHECK(open[0].at("symbol").as_string() == "BTC/USDT:USDT");
    CHECK(open[0].at("side").as_string() == "buy");
    CHECK(open[0].at("price").to_number<double>() == 64000);
    CHECK(open[0].at("amount").to_number<double>() == 0.01);
    CHECK(s.at("canceled").at("id").as_string() == id);
    CHECK(s.at("canceled").at("status").as_string() == "canceled");
    CHECK(s.at("after").as_array().empty());

    // One signed request each, on v3 paths.
    CHECK(test::upstream_calls(*m, "POST /fapi/v3/order") == 1);
    CHECK(test::upstream_calls(*m, "DELETE /fapi/v3/order") == 1);
    CHECK(test::upstream_calls(*m, "GET /fapi/v3/openOrders") == 2);
}

} // namespace ccxt_beta_trading_test
