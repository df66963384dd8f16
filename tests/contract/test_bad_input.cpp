// Issue 10, the bad-input suite: raw requests and bodies a hostile or careless client sends,
// each with the answer CONTRACT §2 gives it (status and code), so every case stays fixed. Every
// answer is a JSON error envelope in valid UTF-8 with an X-Request-Id; framing errors also close
// the connection. One gateway serves the whole table.
#include <catch2/catch.hpp>

#include "support/raw_socket.hpp"
#include "support/test_gateway.hpp"

#include <gateway/util/utf8.hpp>

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

using namespace gateway;

namespace {

struct bad_input {
    char const* name;
    std::string wire; ///< the bytes sent; "{KEY}" is replaced by a live API key
    unsigned status;  ///< expected status
    char const* code; ///< expected error code
    bool closes;      ///< the server closes the connection after answering
};

/// A well-framed request: Host, Connection: close and Content-Length (when there is a body)
/// added; `headers` as "Name: value\r\n" lines.
std::string request(std::string const& method, std::string const& target,
                    std::string const& headers, std::string const& body = {}) {
    std::string out =
        method + " " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + headers;
    if (!body.empty() || method == "POST")
        out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    return out + "\r\n" + body;
}

std::string const keyed = "X-API-Key: {KEY}\r\n";
std::string const json_keyed = keyed + "Content-Type: application/json\r\n";

std::string const order_path = "/v1/perps/alpha/orders";

std::vector<bad_input> table() {
    std::string const deep(20000, '[');
    return {
        // HTTP framing (RFC 9112): 400 and close.
        {"request line that is not HTTP", "GARBAGE\r\n\r\n", 400, "VALIDATION_ERROR", true},
        {"Transfer-Encoding gzip without chunked",
         "POST /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc", 400,
         "VALIDATION_ERROR", true},
        {"Transfer-Encoding chunked, identity",
         "POST /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n", 400,
         "VALIDATION_ERROR", true},
        {"Transfer-Encoding xchunked",
         "POST /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n", 400,
         "VALIDATION_ERROR", true},
        {"two different Content-Length values",
         "POST /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n"
         "abc",
         400, "VALIDATION_ERROR", true},
        {"Content-Length that is not a number",
         "POST /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", 400,
         "VALIDATION_ERROR", true},
        {"chunk size that is not hex",
         "POST /v1/account/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         "Transfer-Encoding: chunked\r\n\r\nzz\r\n",
         400, "VALIDATION_ERROR", true},
        {"body over the limit", request("POST", order_path, json_keyed, std::string(70000, ' ')),
         413, "PAYLOAD_TOO_LARGE", true},

        // Routing and the key gate.
        {"unknown path", request("GET", "/v1/nothing", keyed), 404, "NOT_FOUND", false},
        {"wrong method", request("DELETE", "/v1/providers", ""), 405, "METHOD_NOT_ALLOWED", false},
        {"no API key", request("GET", "/v1/perps/alpha/prices", ""), 401, "INVALID_API_KEY", false},
        {"unknown API key", request("GET", "/v1/perps/alpha/prices", "X-API-Key: gw_nope\r\n"), 401,
         "INVALID_API_KEY", false},
        {"unknown provider", request("GET", "/v1/perps/zeta/prices", keyed), 404,
         "PROVIDER_NOT_FOUND", false},
        {"invalid UTF-8 in a provider", request("GET", "/v1/health/%FF%FE", ""), 404,
         "PROVIDER_NOT_FOUND", false},
        {"invalid UTF-8 in a symbol",
         request("GET", "/v1/perps/alpha/markets/%FF%FE/trades", keyed), 404, "MARKET_NOT_FOUND",
         false},
        {"malformed percent escape", request("GET", "/v1/health/%G1", ""), 404, "NOT_FOUND", false},

        // Query parameters (CONTRACT §1, §4).
        {"candle interval not in the list",
         request("GET", "/v1/perps/alpha/markets/BTC/candles?interval=7m", keyed), 400,
         "VALIDATION_ERROR", false},
        {"trades limit 0", request("GET", "/v1/perps/alpha/markets/BTC/trades?limit=0", keyed), 400,
         "VALIDATION_ERROR", false},
        {"trades limit above the cap",
         request("GET", "/v1/perps/alpha/markets/BTC/trades?limit=100000", keyed), 400,
         "VALIDATION_ERROR", false},
        {"address that is not hex", request("GET", "/v1/perps/alpha/account/0xZZ/positions", keyed),
         400, "VALIDATION_ERROR", false},

        // Bodies.
        {"order body as text/plain",
         request("POST", order_path, keyed + "Content-Type: text/plain\r\n", "{}"), 415,
         "UNSUPPORTED_MEDIA_TYPE", false},
        {"order body that is not JSON", request("POST", order_path, json_keyed, "{"), 400,
         "INVALID_JSON", false},
        {"order body that is an array", request("POST", order_path, json_keyed, "[]"), 400,
         "INVALID_JSON", false},
        {"order body nested 20000 deep", request("POST", order_path, json_keyed, deep), 400,
         "INVALID_JSON", false},
        {"order type the provider does not take",
         request("POST", order_path, json_keyed,
                 R"({"symbol":"BTC","side":"buy","type":"trailing_stop","size":"0.01"})"),
         400, "UNSUPPORTED_ORDER_TYPE", false},
        {"typed-data for an empty symbol",
         request("POST", "/v1/perps/alpha/typed-data", json_keyed,
                 R"({"action":"place_order","order":{"symbol":"","side":"buy","type":"limit",)"
                 R"("size":"0.01","price":"1"}})"),
         400, "VALIDATION_ERROR", false},
        {"sign-up without a password",
         request("POST", "/v1/account/signup", "Content-Type: application/json\r\n",
                 R"({"email":"a@example.com"})"),
         400, "VALIDATION_ERROR", false},
        {"sign-in with invalid UTF-8 in the email",
         request("POST", "/v1/account/session", "Content-Type: application/json\r\n",
                 "{\"email\":\"\xff\xfe@x\",\"password\":\"p\"}"),
         400, "INVALID_JSON", false},
    };
}

} // namespace

TEST_CASE("bad input gets CONTRACT 2's answer, never a crash or a 500", "[contract][bad-input]") {
    test::test_gateway gw;
    auto const key = gw.create_key();
    for (auto c : table()) {
        for (auto at = c.wire.find("{KEY}"); at != std::string::npos; at = c.wire.find("{KEY}"))
            c.wire.replace(at, 5, key);
        INFO(c.name);
        test::raw_socket s(gw.port);
        REQUIRE(s.send_all(c.wire));
        auto const wire = s.read_until_close();
        auto const head_end = wire.find("\r\n\r\n");
        REQUIRE(head_end != std::string::npos);
        INFO(wire.substr(0, 2000));
        CHECK(wire.rfind("HTTP/1.1 " + std::to_string(c.status) + " ", 0) == 0);
        CHECK(wire.find("X-Request-Id: ") < head_end);
        if (c.closes)
            CHECK(wire.find("Connection: close") < head_end);
        auto const body = wire.substr(head_end + 4);
        CHECK(util::is_valid_utf8(body));
        boost::system::error_code ec;
        auto const v = boost::json::parse(body, ec);
        REQUIRE_FALSE(ec);
        CHECK(v.at("error").at("code").as_string() == c.code);
        CHECK_FALSE(v.at("error").at("message").as_string().empty());
        CHECK(test::count_responses(wire) == 1);
    }
}
