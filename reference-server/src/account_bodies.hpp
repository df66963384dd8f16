#pragma once
// The JSON bodies of sign-up and sign-in (`{email, password}`, CONTRACT §9), read strictly. Pure
// and header-only, so the account routes and the fuzz target (tests/fuzz) read them one way.
#include <gateway/result.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>

#include <string>

namespace gateway::server {

struct credentials {
    std::string email;
    std::string password;
};

/// `{email, password}`, both strings, nothing else. @par Errors INVALID_JSON, VALIDATION_ERROR.
inline result<credentials> parse_credentials(boost::json::value const& body) {
    json_fields f(body, strictness::inbound, "request body");
    credentials c;
    f.required("email", c.email);
    f.required("password", c.password);
    if (auto done = f.finish(); !done)
        return done.error();
    return c;
}

} // namespace gateway::server
