#pragma once
// Synchronous raw HTTP for tests: one request through gateway::net::http_client on a private
// io_context. For talking to a mock's wire protocol or sending what the SDK would never send.
#include <gateway/net/http_client.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gateway::test {

struct raw_response {
    unsigned status = 0;
    std::string body;
    net::http_response message;
};

/// Sends one request; throws std::runtime_error when no HTTP answer came (refused, timeout).
/// Compiled once (support/fetch.cpp): its coroutine is most of Beast's client code.
raw_response fetch(boost::beast::http::verb method, std::string const& full_url,
                   std::string body = {},
                   std::vector<std::pair<std::string, std::string>> headers = {},
                   std::chrono::milliseconds timeout = std::chrono::seconds(10));

} // namespace gateway::test
