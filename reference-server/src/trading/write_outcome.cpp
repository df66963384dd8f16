#include "trading/write_outcome.hpp"

#include <boost/json/serialize.hpp>

namespace gateway::server {

api_error outcome_unknown_answer(api_error e, std::string const& upstream,
                                 std::string const& unknown) {
    if (e.code == errc::upstream_timeout)
        e.message = "The " + upstream + " upstream did not answer in time, so " + unknown +
                    " Do not resend blindly.";
    else if (auto const* status = e.details.if_contains("upstreamStatus");
             status && e.details.contains("outcomeUnknown"))
        // An answer that does not say whether the write executed (beta's 503).
        e.message = "The " + upstream + " upstream answered HTTP " +
                    boost::json::serialize(*status) +
                    " without saying whether the request executed, so " + unknown +
                    " Do not resend blindly.";
    else if (e.details.contains("outcomeUnknown"))
        e.message = "The connection to the " + upstream +
                    " upstream broke after the request was sent, so " + unknown +
                    " Do not resend blindly.";
    return e;
}

} // namespace gateway::server
