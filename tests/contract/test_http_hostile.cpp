// Issue 10 against the in-process gateway: hostile framing answers CONTRACT §2's 400
// VALIDATION_ERROR and closes; idle connections cannot keep a client out (maxConnections).
#include <catch2/catch.hpp>

#include "support/fetch.hpp"
#include "support/raw_socket.hpp"
#include "support/test_gateway.hpp"

#include <atomic>
#include <thread>

using namespace gateway;

namespace {

void check_contract_400(std::string const& wire) {
    CHECK(wire.rfind("HTTP/1.1 400", 0) == 0);
    CHECK(wire.find("\"code\":\"VALIDATION_ERROR\"") != std::string::npos);
    CHECK(wire.find("X-Request-Id") != std::string::npos);
    CHECK(wire.find("Connection: close") != std::string::npos);
    CHECK(test::count_responses(wire) == 1);
}
} // namespace

TEST_CASE("gatewayd refuses Transfer-Encoding: gzip without running the body as a request",
          "[contract][hostile]") {
    test::test_gateway gw;
    test::raw_socket c(gw.port);
    REQUIRE(c.send_all("GET /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"
                       "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: SMUGGLED\r\n\r\n"));
    auto const wire = c.read_until_close();
    check_contract_400(wire);
    CHECK(wire.find("SMUGGLED") == std::string::npos);
    CHECK(c.peer_closed());
}

TEST_CASE("gatewayd answers an endless trailer with 400 after a bounded read",
          "[contract][hostile]") {
    test::test_gateway gw;
    test::raw_socket c(gw.port);
    REQUIRE(c.send_all("GET /v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "0\r\n"));
    std::string fields;
    while (fields.size() < 65536)
        fields += "X-Pad: " + std::string(120, 'a') + "\r\n";
    std::atomic<std::size_t> sent{0};
    std::thread writer([&] {
        while (sent < 64u * 1024 * 1024 && c.send_all(fields))
            sent += fields.size();
    });
    auto const wire = c.read_until_close();
    bool const closed = c.peer_closed();
    writer.join();
    check_contract_400(wire);
    CHECK(closed);
    CHECK(sent < 16u * 1024 * 1024); // of 64 MiB: the kernel's buffers, not the server's
}

TEST_CASE("gatewayd's maxConnections: at the cap the longest idle connection makes room",
          "[contract][hostile]") {
    test::test_gateway gw([](server::server_config& c) { c.max_connections = 2; });
    // Two connections that never send: admitted in order, idle from the start.
    test::raw_socket first(gw.port);
    test::raw_socket second(gw.port);
    test::raw_socket client(gw.port);
    REQUIRE(client.send_all("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"));
    auto const res = client.read_response();
    REQUIRE(res);
    CHECK(res->rfind("HTTP/1.1 200", 0) == 0);
    CHECK(first.closed_by_peer());
    REQUIRE(second.send_all("GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    auto const wire = second.read_until_close();
    CHECK(wire.rfind("HTTP/1.1 200", 0) == 0);
}
