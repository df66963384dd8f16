#pragma once
// The router: a pure function from (method, path) to a route and its path parameters, deciding
// 404 NOT_FOUND versus 405 METHOD_NOT_ALLOWED (+ Allow). No I/O, no Beast messages.
#include <boost/beast/http/verb.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::server {

using path_params = std::vector<std::pair<std::string, std::string>>;

template <class Target>
class basic_router {
public:
    struct match {
        Target const* target = nullptr; ///< null: no route for this method
        path_params params;
        std::string allow; ///< for 405: the methods the path has, e.g. "GET, POST"
        bool path_exists() const { return target || !allow.empty(); }
    };

    /// Adds a route; `pattern` segments in braces (`/v1/providers/{provider}`) capture.
    void add(boost::beast::http::verb method, std::string_view pattern, Target target);

    /// Finds the route for `path` (no query string).
    match find(boost::beast::http::verb method, std::string_view path) const;

private:
    struct route {
        boost::beast::http::verb method;
        std::vector<std::string> segments; // "{name}" marks a capture
        Target target;
    };
    std::vector<route> routes_;
};

} // namespace gateway::server

#include "http/router_impl.hpp"
