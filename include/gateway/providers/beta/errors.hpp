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
/// -1002 UNAUTHORIZED: the other code beta.md §3.3 names for a signer the user has not
/// approved (the mock answers -2015); a client treats both alike.
inline constexpr std::int64_t unauthorized_code = -1002;
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

// ---- Trading (mock-beta's matching engine and the order endpoints; beta.md §4.3, §5, §7) ----
// Texts are Binance USD-M's (spot: Binance spot's), which Aster copies; where beta.md gives no
// text the choice is UNCONFIRMED (marked).

/// -1013 spot filter failure (text: `filter_failure_msg`, e.g. "Filter failure: LOT_SIZE").
inline constexpr error_def filter_failure{-1013, "", 400};
/// -1106 PARAM_NOT_REQUIRED (text: `param_not_required_msg`).
inline constexpr error_def param_not_required{-1106, "", 400};
/// -1111 BAD_PRECISION: more decimals than the symbol's precision.
inline constexpr error_def bad_precision{
    -1111, "Precision is over the maximum defined for this asset.", 400};
/// -1115 INVALID_TIF.
inline constexpr error_def invalid_tif{-1115, "Invalid timeInForce.", 400};
/// -1116 INVALID_ORDER_TYPE.
inline constexpr error_def invalid_order_type{-1116, "Invalid orderType.", 400};
/// -1117 INVALID_SIDE.
inline constexpr error_def invalid_side{-1117, "Invalid side.", 400};
/// -2010 NEW_ORDER_REJECTED: a spot order the free balance cannot cover.
inline constexpr error_def insufficient_balance{
    -2010, "Account has insufficient balance for requested action.", 400};
/// -2019 MARGIN_NOT_SUFFICIEN.
inline constexpr error_def margin_insufficient{-2019, "Margin is insufficient.", 400};
/// -2021 ORDER_WOULD_IMMEDIATELY_TRIGGER (also a trailing activation price on the wrong side).
inline constexpr error_def would_immediately_trigger{-2021, "Order would immediately trigger.",
                                                     400};
/// -2022 REDUCE_ONLY_REJECT.
inline constexpr error_def reduce_only_rejected{-2022, "ReduceOnly Order is rejected.", 400};
/// -2027 MAX_LEVERAGE_RATIO: the open position exceeds the new leverage's maximum notional.
inline constexpr error_def max_leverage_ratio{
    -2027, "Exceeded the maximum allowable position at current leverage.", 400};
/// -4002 PRICE_GREATER_THAN_MAX_PRICE.
inline constexpr error_def price_above_max{-4002, "Price greater than max price.", 400};
/// -4003 QTY_LESS_THAN_ZERO.
inline constexpr error_def quantity_not_positive{-4003, "Quantity less than or equal to zero.",
                                                 400};
/// -4004 QTY_LESS_THAN_MIN_QTY.
inline constexpr error_def quantity_below_min{-4004, "Quantity less than min quantity.", 400};
/// -4005 QTY_GREATER_THAN_MAX_QTY.
inline constexpr error_def quantity_above_max{-4005, "Quantity greater than max quantity.", 400};
/// -4013 PRICE_LESS_THAN_MIN_PRICE.
inline constexpr error_def price_below_min{-4013, "Price less than min price.", 400};
/// -4014 PRICE_NOT_INCREASED_BY_TICK_SIZE.
inline constexpr error_def price_off_tick{-4014, "Price not increased by tick size.", 400};
/// -4015 INVALID_CL_ORD_ID_LEN: newClientOrderId not `^[\.A-Z\:/a-z0-9_-]{1,36}$`.
inline constexpr error_def invalid_client_id{-4015, "Client order id is not valid.", 400};
/// Whether `id` is a valid `newClientOrderId` (`^[\.A-Z\:/a-z0-9_-]{1,36}$`, beta.md 4.3).
inline bool valid_client_order_id(std::string_view id) {
    if (id.empty() || id.size() > 36)
        return false;
    for (char const c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == ':' || c == '/' || c == '_' || c == '-'))
            return false;
    return true;
}
/// -4016 PERCENT_PRICE: a BUY limit above mark * multiplierUp (text: `price_above_cap_msg`).
inline constexpr error_def price_above_cap{-4016, "", 400};
/// -4024 PERCENT_PRICE: a SELL limit below mark * multiplierDown (text: `price_below_floor_msg`).
inline constexpr error_def price_below_floor{-4024, "", 400};
/// -4028 INVALID_LEVERAGE (text: `invalid_leverage_msg`).
inline constexpr error_def invalid_leverage{-4028, "", 400};
/// -4061 POSITION_SIDE_NOT_MATCH: LONG/SHORT sent in one-way mode.
inline constexpr error_def position_side_mismatch{
    -4061, "Order's position side does not match user's setting.", 400};
/// -4116 DUPLICATED_CLIENT_ORDER_ID among the open orders. UNCONFIRMED (Binance's; not in
/// beta.md).
inline constexpr error_def duplicate_client_id{-4116, "ClientOrderId is duplicated.", 400};
/// -4137 closePosition=true with a quantity.
inline constexpr error_def quantity_with_close_position{
    -4137, "Quantity must be zero with closePosition equals true.", 400};
/// -4164 MIN_NOTIONAL (text: `min_notional_msg`).
inline constexpr error_def min_notional{-4164, "", 400};

/// "Filter failure: LOT_SIZE".
GATEWAY_DECL std::string filter_failure_msg(std::string_view filter) {
    return "Filter failure: " + std::string(filter);
}

/// "Parameter 'closePosition' sent when not required."
GATEWAY_DECL std::string param_not_required_msg(std::string_view param) {
    return "Parameter '" + std::string(param) + "' sent when not required.";
}

/// "Limit price can't be higher than 68250.0."
GATEWAY_DECL std::string price_above_cap_msg(std::string_view cap) {
    return "Limit price can't be higher than " + std::string(cap) + ".";
}

/// "Limit price can't be lower than 61750.0."
GATEWAY_DECL std::string price_below_floor_msg(std::string_view floor) {
    return "Limit price can't be lower than " + std::string(floor) + ".";
}

/// "Leverage 200 is not valid" (beta.md §7).
GATEWAY_DECL std::string invalid_leverage_msg(std::string_view leverage) {
    return "Leverage " + std::string(leverage) + " is not valid";
}

/// "Order's notional must be no smaller than 5 (unless you choose reduce only)."
GATEWAY_DECL std::string min_notional_msg(std::string_view minimum) {
    return "Order's notional must be no smaller than " + std::string(minimum) +
           " (unless you choose reduce only).";
}

} // namespace gateway::wire::beta
