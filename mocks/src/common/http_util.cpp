#include "http_util.hpp"

#include "json_out.hpp"

#include <charconv>
#include <chrono>

namespace gateway::mocks {

namespace {
int hex_value(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
} // namespace

std::string percent_decode(std::string_view s, bool plus_is_space) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        char const c = s[i];
        if (c == '%' && i + 2 < s.size()) {
            int const hi = hex_value(s[i + 1]);
            int const lo = hex_value(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out.push_back(static_cast<char>(hi * 16 + lo));
                i += 2;
                continue;
            }
        }
        out.push_back(plus_is_space && c == '+' ? ' ' : c);
    }
    return out;
}

target_parts split_target(std::string_view target) {
    target_parts parts;
    auto const q = target.find('?');
    parts.path = percent_decode(target.substr(0, q), false);
    if (q == std::string_view::npos)
        return parts;
    std::string_view rest = target.substr(q + 1);
    if (auto const hash = rest.find('#'); hash != std::string_view::npos)
        rest = rest.substr(0, hash);
    while (!rest.empty()) {
        auto const amp = rest.find('&');
        std::string_view const pair = rest.substr(0, amp);
        if (!pair.empty()) {
            auto const eq = pair.find('=');
            parts.query.emplace_back(percent_decode(pair.substr(0, eq), true),
                                     eq == std::string_view::npos
                                         ? std::string()
                                         : percent_decode(pair.substr(eq + 1), true));
        }
        if (amp == std::string_view::npos)
            break;
        rest.remove_prefix(amp + 1);
    }
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
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
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
