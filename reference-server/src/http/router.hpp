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

/// Decodes %XX escapes; nullopt for a malformed escape. `plus_is_space` for query strings.
std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space = false);

/// Splits a query string into decoded pairs (malformed pairs are skipped: CONTRACT §1 says
/// unknown query parameters are ignored, and a mangled one is unknown).
path_params parse_query(std::string_view query);

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

#include "router_impl.hpp"
