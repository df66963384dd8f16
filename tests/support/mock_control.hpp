#pragma once
// The mock control API (CONTRACT §10) from tests: every helper REQUIREs the call succeeded.
#include "support/fetch.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace gateway::test {

/// `{verb} {mock}{path}` with `body`, whatever it answers.
inline raw_response control(mocks::mock_server const& m, boost::beast::http::verb verb,
                            std::string const& path, std::string body = {}) {
    return fetch(verb, m.base_url() + path, std::move(body));
}

/// `POST {mock}{path}` with a JSON body; must answer 200.
inline void mock_post(mocks::mock_server& m, std::string const& path, std::string const& body) {
    auto r = fetch(boost::beast::http::verb::post, m.base_url() + path, body);
    INFO(path << " " << body << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
}

/// Pins a market's mark (`POST /__mock/mark`).
inline void set_mark(mocks::mock_server& m, std::string const& symbol, std::string const& price) {
    mock_post(m, "/__mock/mark", R"({"symbol":")" + symbol + R"(","price":")" + price + R"("})");
}

/// `GET /__mock/stats`.
inline boost::json::value mock_stats(mocks::mock_server& m) {
    return boost::json::parse(
        fetch(boost::beast::http::verb::get, m.base_url() + "/__mock/stats").body);
}

/// `DELETE /__mock/stats`.
inline void reset_stats(mocks::mock_server& m) {
    REQUIRE(fetch(boost::beast::http::verb::delete_, m.base_url() + "/__mock/stats").status == 200);
}

/// Requests of one upstream kind the mock has seen ("l2Book", "exchange:order", ...).
inline std::int64_t upstream_calls(mocks::mock_server& m, std::string const& kind) {
    auto const s = mock_stats(m);
    auto const* n = s.at("byKind").as_object().if_contains(kind);
    return n ? n->to_number<std::int64_t>() : 0;
}

} // namespace gateway::test
