#pragma once

#include <gateway/util/hex.hpp>

namespace gateway::util {

GATEWAY_DECL std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size())
                return std::nullopt;
            int const hi = hex_value(s[i + 1]);
            int const lo = hex_value(s[i + 2]);
            if (hi < 0 || lo < 0)
                return std::nullopt;
            out.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
        } else if (plus_is_space && s[i] == '+') {
            out.push_back(' ');
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

GATEWAY_DECL std::string percent_encode(std::string_view s, std::string_view extra) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        bool const unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                                (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                                c == '~' ||
                                extra.find(static_cast<char>(c)) != std::string_view::npos;
        if (unreserved) {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xf]);
        }
    }
    return out;
}

GATEWAY_DECL query_params parse_query(std::string_view query) {
    query_params out;
    while (!query.empty()) {
        auto const amp = query.find('&');
        std::string_view const pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (pair.empty())
            continue;
        auto const eq = pair.find('=');
        auto key = percent_decode(pair.substr(0, eq), true);
        auto value = percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1), true);
        if (key && value && !key->empty())
            out.emplace_back(std::move(*key), std::move(*value));
    }
    return out;
}

GATEWAY_DECL std::string encode_query(query_params const& q, std::string_view extra) {
    std::string out;
    for (auto const& [k, v] : q) {
        out += out.empty() ? "?" : "&";
        out += percent_encode(k, extra) + "=" + percent_encode(v, extra);
    }
    return out;
}

} // namespace gateway::util
