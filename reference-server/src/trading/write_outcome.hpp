#pragma once
/**
 * @file write_outcome.hpp
 * CONTRACT §2's answer to a write whose upstream call failed, shared by both write pipelines
 * (signed: trading/signed_write.hpp; credentialed: trading/credentialed_write.hpp), so every
 * provider says the same thing when a write's fate is unknown.
 */
#include <gateway/result.hpp>

#include <string>

namespace gateway::server {

/**
 * `e`, a provider's error for a write that was sent, worded for the client. When the outcome is
 * unknown (UPSTREAM_TIMEOUT; `details.outcomeUnknown`: a connection broken after sending, or an
 * answer that does not say whether the write executed, with `details.upstreamStatus`), the
 * message says what happened on `upstream` ("alpha testnet", "gamma"), then `unknown` (what is
 * unknown and where to look, one sentence: "the order's state is unknown: check GET ... before
 * placing it again."), then not to resend blindly. Any other error comes back unchanged.
 */
api_error outcome_unknown_answer(api_error e, std::string const& upstream,
                                 std::string const& unknown);

} // namespace gateway::server
