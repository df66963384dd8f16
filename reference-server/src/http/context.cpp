#include "http/context.hpp"

#include <gateway/util/ascii.hpp>

#include <boost/json/parse.hpp>

namespace gateway::server {

std::string const& request_context::param(std::string_view name) const {
    for (auto const& [k, v] : params)
        if (k == name)
            return v;
    static std::string const empty;
    return empty;
}

std::optional<std::string_view> request_context::query_param(std::string_view name) const {
    for (auto const& [k, v] : query)
        if (k == name)
            return std::string_view(v);
    return std::nullopt;
}

bool has_media_type(std::optional<std::string_view> content_type, std::string_view type) {
    if (!content_type)
        return false;
    auto const v = util::trim(content_type->substr(0, content_type->find(';')));
    return util::iequals(v, type);
}

result<boost::json::value> json_body(request_context const& ctx) {
    if (!has_media_type(ctx.header("Content-Type"), "application/json"))
        return make_error(errc::unsupported_media_type, "Send the body as application/json.");
    boost::system::error_code ec;
    auto v = boost::json::parse(ctx.body(), ec);
    if (ec)
        return make_error(errc::invalid_json, "The request body is not valid JSON.");
    if (!v.is_object())
        return make_error(errc::invalid_json, "The request body must be a JSON object.");
    return v;
}

void add_vertical_route(router& r, boost::beast::http::verb method, std::string const& pattern,
                        route_handler const& handler) {
    r.add(method, "/v1" + pattern, handler);
    r.add(method, "/v1/testnet" + pattern, handler);
}

} // namespace gateway::server
