// libFuzzer target: the router, percent-decoding and the query string, as app.cpp uses them on
// a request target: split at the first '?', the path matched (segments percent-decoded) against
// the gateway's route table, the query split into decoded pairs (also the grammar of the
// account forms' x-www-form-urlencoded bodies). The input is the request target.
//
// The table below is the gateway's route patterns (the routes register them with handlers that
// need the whole server); the router only compares segments, so the patterns are what matters.
//
// Checked beyond "no crash":
// - a found route has no Allow list and a non-empty value for each capture; a path that exists
//   for one method exists for all; a missing path matches nothing;
// - the path rebuilt from the matched pattern and the percent-encoded captures matches the same
//   route with the same captures;
// - percent_decode inverts percent-encoding, and leaves text without '%' (and '+') unchanged;
// - parse_query yields only pairs with a non-empty key, at most one per '&'-separated piece.
#include "fuzz_common.hpp"

#include "http/router.hpp"

#include <gateway/util/percent.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace {

namespace http = boost::beast::http;
using gateway::server::basic_router;
using gateway::util::parse_query;
using gateway::util::percent_decode;

using route = std::pair<http::verb, char const*>; // method, pattern

constexpr std::array<char const*, 18> vertical_patterns{
    "/perps/{provider}/prices",
    "/spot/{provider}/prices",
    "/rwas/{provider}/markets",
    "/perps/{provider}/account/{address}",
    "/perps/{provider}/account/{address}/positions",
    "/perps/{provider}/account/{address}/orders",
    "/perps/{provider}/account/{address}/fills",
    "/perps/{provider}/markets",
    "/spot/{provider}/markets",
    "/perps/{provider}/markets/{symbol}/trades",
    "/perps/{provider}/markets/{symbol}/candles",
    "/perps/{provider}/markets/{symbol}/orderbook",
    "/spot/{provider}/balances/{address}",
    "/rwas/{provider}/dexes",
    "/rwas/{provider}/dexes/{dex}",
    "/rwas/{provider}/dexes/{dex}/status",
    "/perps/{provider}/typed-data",
    "/spot/{provider}/typed-data",
};

constexpr std::array<route, 19> plain_routes{{
    {http::verb::get, "/v1/providers"},
    {http::verb::get, "/v1/providers/{provider}"},
    {http::verb::get, "/v1/health"},
    {http::verb::get, "/v1/health/{provider}"},
    {http::verb::get, "/account"},
    {http::verb::post, "/account/signup"},
    {http::verb::post, "/account/signin"},
    {http::verb::post, "/account/signout"},
    {http::verb::post, "/account/keys"},
    {http::verb::post, "/account/keys/{id}/revoke"},
    {http::verb::post, "/v1/account/signup"},
    {http::verb::post, "/v1/account/session"},
    {http::verb::delete_, "/v1/account/session"},
    {http::verb::get, "/v1/account/keys"},
    {http::verb::post, "/v1/account/keys"},
    {http::verb::delete_, "/v1/account/keys/{id}"},
    {http::verb::post, "/v1/perps/{provider}/orders"},
    {http::verb::delete_, "/v1/perps/{provider}/orders"},
    {http::verb::post, "/v1/perps/{provider}/leverage"},
}};

using router = basic_router<std::string>; // the target is the pattern itself

router make_router() {
    router r;
    for (auto const& [method, pattern] : plain_routes)
        r.add(method, pattern, pattern);
    for (char const* p : vertical_patterns) {
        auto const method =
            std::string_view(p).ends_with("typed-data") ? http::verb::post : http::verb::get;
        for (std::string prefix : {"/v1", "/v1/testnet"})
            r.add(method, prefix + p, prefix + p);
    }
    for (std::string prefix : {"/v1/testnet", "/v1"}) {
        r.add(http::verb::post, prefix + "/spot/{provider}/orders",
              prefix + "/spot/{provider}/orders");
        r.add(http::verb::delete_, prefix + "/spot/{provider}/orders",
              prefix + "/spot/{provider}/orders");
    }
    return r;
}

std::string percent_encode(std::string_view s) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : s) {
        auto const u = static_cast<unsigned char>(c);
        out += '%';
        out += hex[u >> 4];
        out += hex[u & 15];
    }
    return out;
}

/// The path of `pattern` with each capture replaced by its encoded value from `params`.
std::string rebuild(std::string_view pattern, gateway::server::path_params const& params) {
    std::string out;
    std::size_t next = 0;
    std::size_t pos = 0;
    while (pos < pattern.size()) {
        auto const open = pattern.find('{', pos);
        if (open == std::string_view::npos) {
            out.append(pattern.substr(pos));
            break;
        }
        auto const close = pattern.find('}', open);
        out.append(pattern.substr(pos, open - pos));
        FUZZ_CHECK(next < params.size());
        FUZZ_CHECK(params[next].first == pattern.substr(open + 1, close - open - 1));
        out.append(percent_encode(params[next].second));
        ++next;
        pos = close + 1;
    }
    FUZZ_CHECK(next == params.size());
    return out;
}

void check_path(router const& r, std::string_view path) {
    constexpr std::array<http::verb, 4> methods{http::verb::get, http::verb::post,
                                                http::verb::delete_, http::verb::put};
    bool exists = false;
    bool first = true;
    for (auto const m : methods) {
        auto const match = r.find(m, path);
        if (first)
            exists = match.path_exists();
        first = false;
        FUZZ_CHECK(match.path_exists() == exists);
        if (!match.target) {
            FUZZ_CHECK(match.params.empty());
            continue;
        }
        FUZZ_CHECK(match.allow.empty());
        for (auto const& [name, value] : match.params)
            FUZZ_CHECK(!name.empty() && !value.empty());
        auto const again = r.find(m, rebuild(*match.target, match.params));
        FUZZ_CHECK(again.target == match.target);
        FUZZ_CHECK(again.params == match.params);
    }
}

void check_decode(std::string_view s) {
    auto const plain = percent_decode(s);
    auto const form = percent_decode(s, true);
    FUZZ_CHECK(plain.has_value() == form.has_value());
    if (s.find('%') == std::string_view::npos) {
        FUZZ_CHECK(plain && *plain == s);
        if (s.find('+') == std::string_view::npos)
            FUZZ_CHECK(form && *form == s);
    }
    if (plain)
        FUZZ_CHECK(plain->size() <= s.size());
    auto const round = percent_decode(percent_encode(s), true);
    FUZZ_CHECK(round && *round == s);
}

void check_query(std::string_view query) {
    auto const pairs = parse_query(query);
    FUZZ_CHECK(pairs.size() <=
               static_cast<std::size_t>(std::count(query.begin(), query.end(), '&')) + 1);
    for (auto const& [k, v] : pairs) {
        FUZZ_CHECK(!k.empty());
        FUZZ_CHECK(k.size() + v.size() <= query.size());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    static router const r = make_router();
    std::string_view const target = gateway::fuzz::as_text(data, size);
    auto const qmark = target.find('?');
    std::string_view const path = target.substr(0, qmark);
    std::string_view const query =
        qmark == std::string_view::npos ? std::string_view{} : target.substr(qmark + 1);
    check_path(r, path);
    check_decode(target);
    check_query(query);
    return 0;
}
