#pragma once

namespace gateway::server {

namespace detail {
inline std::vector<std::string_view> split_path(std::string_view path) {
    std::vector<std::string_view> out;
    if (path.empty() || path.front() != '/')
        return out;
    path.remove_prefix(1);
    while (true) {
        auto const slash = path.find('/');
        out.push_back(path.substr(0, slash));
        if (slash == std::string_view::npos)
            break;
        path.remove_prefix(slash + 1);
    }
    return out;
}
} // namespace detail

inline std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space) {
    std::string out;
    out.reserve(s.size());
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size() || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0)
                return std::nullopt;
            out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
            i += 2;
        } else if (plus_is_space && s[i] == '+') {
            out.push_back(' ');
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

inline path_params parse_query(std::string_view query) {
    path_params out;
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

template <class Target>
void basic_router<Target>::add(boost::beast::http::verb method, std::string_view pattern,
                               Target target) {
    route r{method, {}, std::move(target)};
    for (auto seg : detail::split_path(pattern))
        r.segments.emplace_back(seg);
    routes_.push_back(std::move(r));
}

template <class Target>
typename basic_router<Target>::match basic_router<Target>::find(boost::beast::http::verb method,
                                                                std::string_view path) const {
    match m;
    auto const raw = detail::split_path(path);
    std::vector<std::string> segs;
    segs.reserve(raw.size());
    for (auto s : raw) {
        auto d = percent_decode(s);
        if (!d)
            return m; // a malformed escape matches nothing: 404
        segs.push_back(std::move(*d));
    }
    for (auto const& r : routes_) {
        if (r.segments.size() != segs.size())
            continue;
        path_params params;
        bool ok = true;
        for (std::size_t i = 0; i < segs.size() && ok; ++i) {
            auto const& p = r.segments[i];
            if (p.size() >= 2 && p.front() == '{' && p.back() == '}') {
                if (segs[i].empty())
                    ok = false;
                else
                    params.emplace_back(p.substr(1, p.size() - 2), segs[i]);
            } else {
                ok = p == segs[i];
            }
        }
        if (!ok)
            continue;
        if (r.method == method && !m.target) {
            m.target = &r.target;
            m.params = std::move(params);
        }
        std::string const name(boost::beast::http::to_string(r.method));
        if (m.allow.find(name) == std::string::npos)
            m.allow += (m.allow.empty() ? "" : ", ") + name;
    }
    if (m.target)
        m.allow.clear();
    return m;
}

} // namespace gateway::server
