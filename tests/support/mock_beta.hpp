#pragma once
// What the contract tests of mock-beta share (its reads and its trading): recorded bodies,
// decimals as Aster writes them, JSON kinds, the test wallets and the upstream's error check.
#include "support/mock_http.hpp"
#include "support/shapes.hpp"

#include <gateway/providers/beta/errors.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/decimal.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace gateway::test::mock_beta {

/// The recorded upstream body of entry `i` of tests/fixtures/beta/<name>.
inline boost::json::value fixture(std::string const& name, std::size_t i = 0) {
    return fixture_document("beta/" + name).at("entries").at(i).at("httpResponse");
}

/// The row of `list` whose `key` is `value` (a market's by "symbol", a balance's by "asset").
inline boost::json::value const& row(boost::json::value const& list, std::string_view value,
                                     std::string_view key = "symbol") {
    for (auto const& x : list.as_array())
        if (x.at(key).as_string() == value)
            return x;
    FAIL("no row with " << key << " " << value);
    return list; // not reached
}

inline decimal dec_text(std::string_view s) {
    auto d = decimal::parse_lenient(s);
    REQUIRE(d);
    return *d;
}

inline decimal dec(boost::json::value const& v) {
    return dec_text(v.as_string());
}

/// The JSON kind of every key of an object (any integer is int64).
inline std::map<std::string, boost::json::kind> kinds(boost::json::value const& v) {
    std::map<std::string, boost::json::kind> out;
    for (auto const& kv : v.as_object())
        out[std::string(kv.key())] =
            kv.value().is_uint64() ? boost::json::kind::int64 : kv.value().kind();
    return out;
}

/// The upstream's error answer: HTTP status, exactly `{code, msg}`, and the text (`msg`, or the
/// error's fixed text when it has one).
inline void check_error(raw_response const& r, wire::beta::error_def const& e,
                        std::string const& msg = {}) {
    INFO(r.body);
    CHECK(r.status == e.http_status);
    auto const body = boost::json::parse(r.body);
    CHECK(keys(body) == std::set<std::string>{"code", "msg"});
    CHECK(body.at("code") == e.code);
    CHECK(body.at("msg").is_string());
    if (!msg.empty())
        CHECK(body.at("msg").as_string() == msg);
    else if (!e.msg.empty())
        CHECK(body.at("msg").as_string() == e.msg);
}

struct wallet {
    sign::private_key key;
    std::string address; ///< lowercase
};

inline wallet make_wallet(char const* hex) {
    auto key = sign::private_key::from_hex(hex).value();
    auto address = sign::address_of(key).str();
    return {std::move(key), std::move(address)};
}

// Throwaway keys: beta.md §3.2's published demo signer key, and two more never funded anywhere.
inline wallet const& alice() {
    static wallet const w =
        make_wallet("0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1");
    return w;
}
inline wallet const& bob() {
    static wallet const w =
        make_wallet("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318");
    return w;
}
inline wallet const& carol() {
    static wallet const w =
        make_wallet("0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f");
    return w;
}

} // namespace gateway::test::mock_beta
