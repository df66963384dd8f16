#pragma once
// Raw calls to the in-process gateway and the contract's error checks, shared by the contract
// suites: for what the SDK would never send (malformed bodies, foreign headers) and for
// asserting the exact error envelope (CONTRACT §2).
#include "support/fetch.hpp"
#include "support/test_gateway.hpp"

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace gateway::test {

/// A gateway answer: status, parsed JSON body (null when it is not JSON) and the raw message.
struct api_answer {
    unsigned status = 0;
    boost::json::value body;
    raw_response raw;
};

/// `method path` with `X-API-Key: key` and, when given, a JSON body.
inline api_answer api_call(test_gateway const& gw, std::string const& key,
                           boost::beast::http::verb method, std::string const& path,
                           boost::json::value const* body = nullptr) {
    auto r = fetch(method, gw.base_url + path, body ? boost::json::serialize(*body) : "",
                   {{"X-API-Key", key}});
    INFO(path << " -> " << r.status << " " << r.body);
    boost::system::error_code ec;
    auto parsed = boost::json::parse(r.body, ec);
    return {r.status, ec ? boost::json::value() : std::move(parsed), std::move(r)};
}

/// `GET path` with `X-API-Key: key`; the answer must be JSON.
inline api_answer api_get(test_gateway const& gw, std::string const& key, std::string const& path) {
    auto a = api_call(gw, key, boost::beast::http::verb::get, path);
    REQUIRE(a.raw.message[boost::beast::http::field::content_type] == "application/json");
    return a;
}

/// The answer is the contract error `code` with `status`, a non-empty message and, when given,
/// `details.field` == `field`.
inline void require_error(api_answer const& a, unsigned status, std::string const& code,
                          std::string const& field = {}) {
    INFO(boost::json::serialize(a.body));
    REQUIRE(a.status == status);
    REQUIRE(a.body.is_object());
    auto const& e = a.body.at("error").as_object();
    CHECK(e.at("code").as_string() == code);
    CHECK_FALSE(e.at("message").as_string().empty());
    if (!field.empty())
        CHECK(e.at("details").at("field").as_string() == field);
}

} // namespace gateway::test
