#pragma once
/**
 * @file errors.hpp
 * beta's (Aster's) error codes and texts, `upstreams/beta.md` §7: the `{"code":<int>,"msg":...}`
 * bodies mock-beta answers and the gateway maps. One table for both, so they cannot drift apart.
 *
 * Codes and texts are the upstream's (Binance USD-M's, which Aster copies) where beta.md names
 * them. Where beta.md leaves the choice open they are marked UNCONFIRMED here and in
 * mocks/README.md: the code for a signer that may not act for the user (-2015, beta.md §3.3
 * says -2015 or -1002), the HTTP status of each code (beta.md §7: "assumed 400 like Binance";
 * -2015 is 401 as Binance's REJECTED_MBX_KEY), one code (-4225) for every nonce refusal
 * (beta.md §3.3 step 5), and -1127/-1128 for userTrades time ranges (Binance's texts; not in
 * beta.md).
 */
#include <gateway/config.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gateway::wire::beta {

/// One upstream error: its code, its fixed text (empty when the text names a parameter, see
/// the `*_msg` functions) and the HTTP status it comes with.
struct error_def {
    std::int32_t code;
    std::string_view msg;
    unsigned http_status;
};

// ---- Transport and authentication -------------------------------------------------------

/// -1000 UNKNOWN.
inline constexpr error_def unknown{-1000, "An unknown error occured while processing the request.",
                                   500};
/// -1003 TOO_MANY_REQUESTS, with HTTP 429 and `Retry-After` (text: `too_many_requests_msg`).
inline constexpr error_def too_many_requests{-1003, "", 429};
/// -1022 INVALID_SIGNATURE: the signature does not recover to `signer` (or is not last, or
/// is not 65 bytes of hex). HTTP 400 (UNCONFIRMED, as Binance).
inline constexpr error_def invalid_signature{-1022, "Signature for this request is not valid.",
                                             400};
/// -2015 REJECTED_MBX_KEY: `signer` is neither `user` nor an API wallet `user` approved.
/// UNCONFIRMED (beta.md §3.3: -2015 or -1002); HTTP 401 as Binance's.
inline constexpr error_def rejected_signer{-2015, "Invalid API-key, IP, or permissions for action.",
                                           401};
/// -4225: the nonce is outside ±10 s of the server's clock, already used by the user, or below
/// the smallest of the user's 100 kept nonces (beta.md §3.1; one code for all three is
/// UNCONFIRMED). HTTP 400.
inline constexpr error_def nonce_expired{-4225, "Nonce Expired", 400};

// ---- Request parameters -------------------------------------------------------------------

/// -1100 ILLEGAL_CHARS (text: `illegal_chars_msg`).
inline constexpr error_def illegal_chars{-1100, "", 400};
/// -1102 MANDATORY_PARAM_EMPTY_OR_MALFORMED (text: `mandatory_param_msg`); also a missing
/// `signature`, `signer` or `nonce`.
inline constexpr error_def mandatory_param{-1102, "", 400};
/// -1120 BAD_INTERVAL.
inline constexpr error_def bad_interval{-1120, "Invalid interval.", 400};
/// -1121 BAD_SYMBOL.
inline constexpr error_def invalid_symbol{-1121, "Invalid symbol.", 400};
/// -1127: startTime and endTime more than 7 days apart (userTrades). UNCONFIRMED (Binance's).
inline constexpr error_def lookup_interval_too_big{
    -1127, "More than 168 hours between startTime and endTime.", 400};
/// -1128: `fromId` sent with `startTime`/`endTime` (userTrades). UNCONFIRMED (Binance's).
inline constexpr error_def invalid_combination{-1128, "Combination of optional parameters invalid.",
                                               400};
/// -1130 INVALID_PARAMETER (text: `invalid_parameter_msg`).
inline constexpr error_def invalid_parameter{-1130, "", 400};
/// -4021 INVALID_DEPTH_LIMIT (a `limit` outside `depth_limits`).
inline constexpr error_def invalid_depth_limit{-4021, "Invalid depth limit.", 400};

// ---- Orders -------------------------------------------------------------------------------

/// -2011 CANCEL_REJECTED.
inline constexpr error_def cancel_rejected{-2011, "Unknown order sent.", 400};
/// -2013 NO_SUCH_ORDER.
inline constexpr error_def no_such_order{-2013, "Order does not exist.", 400};

// ---- Texts that name a parameter ----------------------------------------------------------

/// "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."
GATEWAY_DECL std::string mandatory_param_msg(std::string_view param) {
    return "Mandatory parameter '" + std::string(param) +
           "' was not sent, was empty/null, or malformed.";
}

/// "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'."
GATEWAY_DECL std::string illegal_chars_msg(std::string_view param) {
    return "Illegal characters found in parameter '" + std::string(param) +
           "'; legal range is '^[0-9]{1,20}$'.";
}

/// "Data sent for parameter 'limit' is not valid."
GATEWAY_DECL std::string invalid_parameter_msg(std::string_view param) {
    return "Data sent for parameter '" + std::string(param) + "' is not valid.";
}

/// The -1003 text naming the client address and the budget.
GATEWAY_DECL std::string too_many_requests_msg(std::string_view ip, std::uint32_t limit) {
    return "Too many requests; current limit of IP(" + std::string(ip) + ") is " +
           std::to_string(limit) +
           " requests per minute. Please use the websocket for live updates to avoid polling "
           "the API.";
}

} // namespace gateway::wire::beta
