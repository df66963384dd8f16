#pragma once

#include <gateway/util/percent.hpp>

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
        auto d = util::percent_decode(s);
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
