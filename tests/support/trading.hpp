#pragma once
// What the signed-write contract tests share, for any provider: throwaway keys, an unsigned
// order request, its body as JSON (for raw posts and tampering), a raw post with its answer,
// and the CONTRACT §2 error check.
#include "support/fetch.hpp"
#include "support/test_gateway.hpp"

#include <gateway/gateway.hpp>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gateway::test {

// Throwaway keys (never funded anywhere real).
inline constexpr char const* wallet_key =
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
inline constexpr char const* agent_key =
    "0x0123456789012345678901234567890123456789012345678901234567890123";
inline constexpr char const* stranger_key =
    "0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f";

inline sign::private_key key(char const* hex) {
    return sign::private_key::from_hex(hex).value();
}

inline decimal d(std::string_view s) {
    return decimal::parse(s).value();
}

/// An order request, unsigned.
inline place_order_request order(std::string symbol, side s, order_type t, std::string_view size,
                                 std::optional<std::string_view> price = std::nullopt) {
    place_order_request r;
    r.symbol = std::move(symbol);
    r.side = s;
    r.type = t;
    r.size = d(size);
    if (price)
        r.price = d(*price);
    return r;
}

/// The signed body as JSON (for raw posts and tampering).
inline boost::json::object body_of(place_order_request const& r) {
    return boost::json::value_from(r).as_object();
}

/// A raw answer: status, JSON body and Retry-After.
struct posted {
    unsigned status;
    boost::json::value body;
    std::string retry_after;
};

inline posted raw(test_gateway const& gw, std::string const& api_key,
                  boost::beast::http::verb method, std::string const& path,
                  boost::json::value const& body) {
    auto r =
        fetch(method, gw.base_url + path, boost::json::serialize(body), {{"X-API-Key", api_key}});
    INFO(path << " -> " << r.status << " " << r.body);
    REQUIRE(r.message[boost::beast::http::field::content_type] == "application/json");
    return {r.status, boost::json::parse(r.body),
            std::string(r.message[boost::beast::http::field::retry_after])};
}

inline boost::json::object const& error_of(posted const& r) {
    return r.body.at("error").as_object();
}

/// A CONTRACT §2 error answer with `status` and `code` (and `details.field` when given).
inline void require_error(posted const& r, unsigned status, std::string const& code,
                          std::string const& field = {}) {
    INFO(boost::json::serialize(r.body));
    REQUIRE(r.status == status);
    CHECK(error_of(r).at("code").as_string() == code);
    CHECK_FALSE(error_of(r).at("message").as_string().empty());
    if (!field.empty())
        CHECK(error_of(r).at("details").at("field").as_string() == field);
}

inline bool contains(std::string_view hay, std::string_view needle) {
    return hay.find(needle) != std::string_view::npos;
}

} // namespace gateway::test
