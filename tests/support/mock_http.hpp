#pragma once
// What the mock-upstream contract tests share: GET against a mock, reading recorded fixtures
// and comparing key sets (shapes.hpp).
#include "support/fetch.hpp"
#include "support/shapes.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace gateway::test {

inline raw_response get(mocks::mock_server const& m, std::string const& target) {
    return fetch(boost::beast::http::verb::get, m.base_url() + target);
}

/// A 200 JSON answer of the mock, parsed.
inline boost::json::value get_json(mocks::mock_server const& m, std::string const& target) {
    auto const r = get(m, target);
    INFO(target << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    REQUIRE(r.message[boost::beast::http::field::content_type].starts_with("application/json"));
    return boost::json::parse(r.body);
}

/// The whole JSON document tests/fixtures/<path>.
inline boost::json::value fixture_document(std::string const& path) {
    std::ifstream in(std::string(GATEWAY_FIXTURES_DIR) + "/" + path);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return boost::json::parse(ss.str());
}

} // namespace gateway::test
