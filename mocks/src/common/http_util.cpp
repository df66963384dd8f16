#include "http_util.hpp"

#include "json_out.hpp"

#include <gateway/util/clock.hpp>
#include <gateway/util/percent.hpp>

#include <charconv>
#include <chrono>

namespace gateway::mocks {

target_parts split_target(std::string_view target) {
    // One percent rule for the tree (util/percent.hpp): a path with a malformed escape stays
    // undecoded and so matches no route (404), a query pair with one is left out.
    target_parts parts;
    auto const q = target.find('?');
    auto const raw_path = target.substr(0, q);
    parts.path = util::percent_decode(raw_path).value_or(std::string(raw_path));
    if (q != std::string_view::npos)
        parts.query = util::parse_query(target.substr(q + 1));
    return parts;
}

std::optional<std::string> query_get(query_params const& q, std::string_view key) {
    for (auto const& [k, v] : q)
        if (k == key)
            return v;
    return std::nullopt;
}

std::vector<std::string> query_list(query_params const& q, std::string_view key) {
    std::vector<std::string> out;
    for (auto const& [k, v] : q) {
        if (k != key)
            continue;
        std::string_view rest = v;
        while (!rest.empty()) {
            auto const comma = rest.find(',');
            if (auto item = rest.substr(0, comma); !item.empty())
                out.emplace_back(item);
            if (comma == std::string_view::npos)
                break;
            rest.remove_prefix(comma + 1);
        }
    }
    return out;
}

net::response make_response(http::status status, std::string body, std::string_view content_type,
                            unsigned version) {
    net::response res{status, version};
    res.set(http::field::content_type, content_type);
    res.body() = std::move(body);
    return res;
}

net::response json_response(http::status status, boost::json::value const& body, unsigned version) {
    return make_response(status, to_json(body), "application/json", version);
}

std::int64_t now_ms() {
    return util::wall_ms();
}

std::optional<std::uint64_t> parse_uint(std::string_view s) {
    std::uint64_t v = 0;
    if (s.empty() || s.size() > 19)
        return std::nullopt;
    auto const [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

} // namespace gateway::mocks
