#pragma once
/**
 * @file beta_replies.hpp
 * mock-beta's error answers: `{"code":<int>,"msg":"..."}` with the HTTP status of
 * `gateway::wire::beta` (include/gateway/providers/beta/errors.hpp).
 */
#include "../common/http_util.hpp"

#include <gateway/providers/beta/errors.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace gateway::mocks::beta {

inline net::response error_reply(wire::beta::error_def const& e, std::string_view msg,
                                 unsigned version) {
    boost::json::object o;
    o["code"] = e.code;
    o["msg"] = msg;
    return json_response(static_cast<http::status>(e.http_status), o, version);
}

/// The error with its fixed text.
inline net::response error_reply(wire::beta::error_def const& e, unsigned version) {
    return error_reply(e, e.msg, version);
}

/// -1102 naming `param`.
inline net::response missing_param(std::string_view param, unsigned version) {
    return error_reply(wire::beta::mandatory_param, wire::beta::mandatory_param_msg(param),
                       version);
}

/// -1100 naming `param` (not a decimal integer).
inline net::response illegal_chars(std::string_view param, unsigned version) {
    return error_reply(wire::beta::illegal_chars, wire::beta::illegal_chars_msg(param), version);
}

/// -1130 naming `param` (out of range).
inline net::response invalid_parameter(std::string_view param, unsigned version) {
    return error_reply(wire::beta::invalid_parameter, wire::beta::invalid_parameter_msg(param),
                       version);
}

/// -1121 "Invalid symbol."
inline net::response invalid_symbol(unsigned version) {
    return error_reply(wire::beta::invalid_symbol, version);
}

} // namespace gateway::mocks::beta
