// Any wallet library can sign what the typed-data endpoint returns (CONTRACT §6): ethers v6,
// a wallet implementation independent of the SDK, signs the gateway's eth_signTypedData_v4 JSON
// in a Node process (tests/ethers/sign.mjs), and posting `params` + that signature places the
// order through gatewayd and mock-alpha's /exchange. Node.js and tests/ethers/node_modules are
// installed by scripts/test.sh; without them this test fails, it never skips.
#include <catch2/catch.hpp>

#include "support/fetch.hpp"
#include "support/mock_control.hpp"
#include "support/node_script.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/alpha.hpp>
#include <gateway/sign/sign.hpp>
#include <gateway/util/ascii.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

namespace ethers_signing_test {

using namespace gateway;
using gateway::test::fetch;
using gateway::test::mock_post;
using verb = boost::beast::http::verb;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// Throwaway keys (never funded anywhere real).
constexpr char const* wallet_key =
    "0x6c8f1f0a1b9e7f2d4c3b5a69788766554433221100ffeeddccbbaa9988776655";
constexpr char const* stranger_key =
    "0x2f1e0d9c8b7a69584736251403f2e1d0c9b8a7968574635241302f1e0d9c8b7a";

fs::path const ethers_dir = fs::path(GATEWAY_FIXTURES_DIR) / ".." / "ethers";

/// Runs `node tests/ethers/sign.mjs` with `input` on stdin.
test::node_run run_sign_script(std::string const& input) {
    return test::run_node_script(ethers_dir / "sign.mjs", input);
}

/// Fails (never skips) when the Node side is not installed.
void require_node_and_ethers() {
    auto const probe = run_sign_script("{}");
    INFO("node " << (ethers_dir / "sign.mjs").string() << " exited " << probe.exit_code << ": "
                 << probe.err);
    if (probe.exit_code == 127)
        FAIL("`node` was not found on PATH: install Node.js (scripts/test.sh does)");
    if (!fs::exists(ethers_dir / "node_modules" / "ethers" / "package.json"))
        FAIL("ethers is not installed in " + ethers_dir.string() +
             ": run `npm ci` there (scripts/test.sh does)");
}

struct ethers_signature {
    std::string signature;
    std::string address;
    std::string digest;
};

/// ethers signs `typed_data` with `private_key_hex`.
ethers_signature ethers_sign(std::string const& private_key_hex, json::object const& typed_data) {
    json::object input;
    input["privateKey"] = private_key_hex;
    input["typedData"] = typed_data;
    auto const r = run_sign_script(json::serialize(input));
    INFO("sign.mjs exited " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    auto const v = json::parse(r.out).as_object();
    ethers_signature s{std::string(v.at("signature").as_string()),
                       std::string(v.at("address").as_string()),
                       std::string(v.at("digest").as_string())};
    CHECK(s.signature.size() == 132);
    CHECK(s.signature.rfind("0x", 0) == 0);
    return s;
}

struct posted {
    unsigned status;
    json::value body;
};

posted post(test::test_gateway const& gw, std::string const& key, std::string const& path,
            json::value const& body) {
    auto r = fetch(verb::post, gw.base_url + path, json::serialize(body), {{"X-API-Key", key}});
    INFO("POST " << path << " " << json::serialize(body) << " -> " << r.status << " " << r.body);
    REQUIRE(r.message[boost::beast::http::field::content_type] == "application/json");
    return {r.status, json::parse(r.body)};
}

/// A funded wallet (address derived by the SDK), a key, and BTC's mark pinned at 65000.
struct setup {
    test::test_gateway gw;
    std::string api_key = gw.create_key();
    std::string wallet =
        sign::alpha::signer{sign::private_key::from_hex(wallet_key).value()}.address().str();

    setup() {
        mock_post(*gw.alpha, "/__mock/mark", R"({"symbol":"BTC","price":"65000"})");
        mock_post(*gw.alpha, "/__mock/accounts",
                  R"({"address":")" + wallet + R"(","balances":{"USDC":"100000"}})");
    }

    /// The gateway's typed data for a placeOrder with `params`.
    json::object typed_data(json::object params) {
        json::object req;
        req["operation"] = "placeOrder";
        req["params"] = std::move(params);
        auto r = post(gw, api_key, "/v1/perps/alpha/typed-data", req);
        INFO(json::serialize(r.body));
        REQUIRE(r.status == 200);
        auto const& o = r.body.as_object();
        REQUIRE(o.at("params").is_object());
        REQUIRE(o.at("typedData").is_object());
        REQUIRE(o.at("digest").is_string());
        CHECK_FALSE(o.at("params").as_object().contains("signature"));
        return o;
    }

    /// Posts the returned params plus `signature` as an order.
    posted place(json::object const& td, std::string const& signature) {
        json::object body = td.at("params").as_object();
        body["signature"] = signature;
        return post(gw, api_key, "/v1/perps/alpha/orders", body);
    }

    json::object order_params(std::string const& type) const {
        json::object p;
        p["symbol"] = "BTC";
        p["side"] = "buy";
        p["type"] = type;
        p["size"] = "0.01";
        p["wallet"] = wallet;
        // The wallet picks its nonce (ms); each section runs on fresh mocks and a fresh gateway.
        p["nonce"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
        return p;
    }
};

void check_place_result(posted const& r, std::string const& status) {
    INFO(json::serialize(r.body));
    REQUIRE(r.status == 200);
    auto const& o = r.body.as_object();
    CHECK(o.size() == 5);
    REQUIRE(o.at("orderId").is_string());
    CHECK_FALSE(o.at("orderId").as_string().empty());
    CHECK(o.contains("clientOrderId"));
    CHECK(o.contains("averagePrice"));
    CHECK(o.at("filledSize").is_string());
    CHECK(o.at("status").as_string() == status);
}

} // namespace

TEST_CASE("ethers signs the gateway's alpha typed data and the order is accepted",
          "[e2e][alpha][ethers]") {
    require_node_and_ethers();
    setup s;

    SECTION("limit buy below the market rests: open") {
        auto p = s.order_params("limit");
        p["price"] = "60000";
        auto const td = s.typed_data(p);
        CHECK(td.at("params").at("price").as_string() == "60000");

        auto const sig = ethers_sign(wallet_key, td.at("typedData").as_object());
        CHECK(sig.digest == td.at("digest").as_string());
        CHECK(util::to_lower(sig.address) == s.wallet);

        auto const r = s.place(td, sig.signature);
        check_place_result(r, "open");
        CHECK(r.body.at("filledSize").as_string() == "0");
        CHECK(r.body.at("averagePrice").is_null());
    }

    SECTION("market buy without price: the gateway fills in the bound, the order fills") {
        auto const td = s.typed_data(s.order_params("market"));
        REQUIRE(td.at("params").as_object().contains("price"));

        auto const sig = ethers_sign(wallet_key, td.at("typedData").as_object());
        CHECK(sig.digest == td.at("digest").as_string());
        CHECK(util::to_lower(sig.address) == s.wallet);

        auto const r = s.place(td, sig.signature);
        check_place_result(r, "filled");
        CHECK(r.body.at("filledSize").as_string() == "0.01");
        CHECK(r.body.at("averagePrice").is_string());
    }

    SECTION("signed by another key for the funded wallet: 401 SIGNATURE_ERROR naming the signer") {
        auto p = s.order_params("limit");
        p["price"] = "60000";
        auto const td = s.typed_data(p);

        auto const sig = ethers_sign(stranger_key, td.at("typedData").as_object());
        CHECK(sig.digest == td.at("digest").as_string()); // same data, another signer
        auto const stranger = util::to_lower(sig.address);
        REQUIRE(stranger != s.wallet);

        auto const r = s.place(td, sig.signature);
        INFO(json::serialize(r.body));
        REQUIRE(r.status == 401);
        auto const& e = r.body.at("error").as_object();
        CHECK(e.at("code").as_string() == "SIGNATURE_ERROR");
        CHECK(util::to_lower(std::string(e.at("message").as_string())).find(stranger) !=
              std::string::npos);
    }
}

TEST_CASE("ethers signs the gateway's beta typed data (Message, chainId 1666/714) and the "
          "gateway verifies and forwards it",
          "[e2e][beta][ethers]") {
    require_node_and_ethers();
    setup s;
    mock_post(*s.gw.beta, "/__mock/mark", R"({"symbol":"BTC","price":"65000"})");
    mock_post(*s.gw.beta_testnet, "/__mock/mark", R"({"symbol":"BTC","price":"65000"})");
    auto const order_requests = [](mocks::mock_server& m) {
        return test::upstream_calls(m, "POST /fapi/v3/order");
    };
    auto const typed_data = [&](std::string const& prefix, json::object params) {
        json::object req;
        req["operation"] = "placeOrder";
        req["params"] = std::move(params);
        auto r = post(s.gw, s.api_key, prefix + "/perps/beta/typed-data", req);
        INFO(json::serialize(r.body));
        REQUIRE(r.status == 200);
        return r.body.as_object();
    };
    auto p = s.order_params("limit");
    p["price"] = "64000";

    for (bool testnet : {false, true}) {
        std::string const prefix = testnet ? "/v1/testnet" : "/v1";
        CAPTURE(prefix);
        p["nonce"] = p.at("nonce").to_number<std::int64_t>() + 1; // one nonce per order
        auto const td = typed_data(prefix, p);
        auto const& typed = td.at("typedData").as_object();
        CHECK(typed.at("primaryType").as_string() == "Message");
        CHECK(typed.at("domain").at("chainId").to_number<std::int64_t>() == (testnet ? 714 : 1666));

        auto const sig = ethers_sign(wallet_key, typed);
        CHECK(sig.digest == td.at("digest").as_string());
        CHECK(util::to_lower(sig.address) == s.wallet);

        auto& upstream = testnet ? *s.gw.beta_testnet : *s.gw.beta;
        auto const before = order_requests(upstream);
        json::object body = td.at("params").as_object();
        body["signature"] = sig.signature;
        auto const r = post(s.gw, s.api_key, prefix + "/perps/beta/orders", body);
        INFO(json::serialize(r.body));
        // The signature and nonce passed; the upstream refused the unfunded wallet's order
        // (CONTRACT §2: 400 ORDER_REJECTED with its reason, -2019 "Margin is insufficient.").
        REQUIRE(r.status == 400);
        CHECK(r.body.at("error").at("code") == "ORDER_REJECTED");
        CHECK(r.body.at("error").at("details").at("upstreamCode") == -2019);
        CHECK(order_requests(upstream) == before + 1);

        // Another key over the same typed data: refused locally, nothing sent.
        auto const other = ethers_sign(stranger_key, typed);
        body["signature"] = other.signature;
        auto const refused = post(s.gw, s.api_key, prefix + "/perps/beta/orders", body);
        REQUIRE(refused.status == 401);
        CHECK(refused.body.at("error").at("code").as_string() == "SIGNATURE_ERROR");
        CHECK(order_requests(upstream) == before + 1);
    }
}

} // namespace ethers_signing_test
