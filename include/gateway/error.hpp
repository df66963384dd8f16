#pragma once
/**
 * @file error.hpp
 * The one error vocabulary of the gateway: CONTRACT §2 as an enum, the table that maps it to
 * HTTP status and wire code, and `api_error`, the value carried by every failed `result`.
 */
#include <gateway/config.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace gateway {

/// Every error code of CONTRACT §2, plus `transport_error` (client side only: the server could
/// not be reached or answered something that is not the contract) and `unknown` (a code this
/// SDK version does not know yet; the wire code is kept in `api_error::wire_code_text`).
enum class errc {
    validation_error = 1,   ///< 400 missing/invalid field; `details.field` names it
    invalid_json,           ///< 400 body is not JSON or not an object
    unsupported_order_type, ///< 400 the provider lacks this order type
    max_leverage_exceeded,  ///< 400 leverage above the market maximum
    order_rejected,         ///< 400 upstream refused a well-formed order
    invalid_api_key,        ///< 401 missing, invalid or expired key
    signature_error,        ///< 401 signature malformed or from the wrong signer
    invalid_nonce,          ///< 401 nonce reused or outside the window
    invalid_credentials,    ///< 401 gamma credentials refused upstream
    testnet_key_only,       ///< 403 test key outside /v1/testnet/
    signer_not_approved,    ///< 403 beta: the account has not approved the read signer
    csrf_rejected,          ///< 403 cookie-session account request without a valid CSRF token
    provider_not_found,     ///< 404 unknown alias, or vertical/testnet the provider lacks
    market_not_found,       ///< 404 unknown symbol
    dex_not_found,          ///< 404 unknown dex
    event_not_found,        ///< 404 unknown event
    order_not_found,        ///< 404 order missing or already filled
    not_found,              ///< 404 no such route
    method_not_allowed,     ///< 405 route exists for other methods
    key_limit_reached,      ///< 409 the account holds its maximum of usable keys
    gone,                   ///< 410 removed route
    payload_too_large,      ///< 413 body over the limit
    unsupported_media_type, ///< 415 write without application/json
    upgrade_required,       ///< 426 WebSocket handshake with a version other than 13
    rate_limited,           ///< 429 per-key limit or the account's upstream share hit
    internal_error,         ///< 500 a bug; never carries internals
    upstream_error,         ///< 502 upstream error or unparseable body
    provider_unavailable,   ///< 503 provider down or upstream budget spent
    upstream_timeout,       ///< 504 upstream did not answer in time
    stream_capacity,        ///< WebSocket error frame only: no upstream user-stream slot left
    transport_error,        ///< client only: no contract answer from the server
    unknown,                ///< client only: a wire code this SDK does not know
};

namespace detail {
struct errc_row {
    errc code;
    unsigned http_status;
    std::string_view wire;
};
inline constexpr std::array<errc_row, 32> errc_table{{
    {errc::validation_error, 400, "VALIDATION_ERROR"},
    {errc::invalid_json, 400, "INVALID_JSON"},
    {errc::unsupported_order_type, 400, "UNSUPPORTED_ORDER_TYPE"},
    {errc::max_leverage_exceeded, 400, "MAX_LEVERAGE_EXCEEDED"},
    {errc::order_rejected, 400, "ORDER_REJECTED"},
    {errc::invalid_api_key, 401, "INVALID_API_KEY"},
    {errc::signature_error, 401, "SIGNATURE_ERROR"},
    {errc::invalid_nonce, 401, "INVALID_NONCE"},
    {errc::invalid_credentials, 401, "INVALID_CREDENTIALS"},
    {errc::testnet_key_only, 403, "TESTNET_KEY_ONLY"},
    {errc::signer_not_approved, 403, "SIGNER_NOT_APPROVED"},
    {errc::csrf_rejected, 403, "CSRF_REJECTED"},
    {errc::provider_not_found, 404, "PROVIDER_NOT_FOUND"},
    {errc::market_not_found, 404, "MARKET_NOT_FOUND"},
    {errc::dex_not_found, 404, "DEX_NOT_FOUND"},
    {errc::event_not_found, 404, "EVENT_NOT_FOUND"},
    {errc::order_not_found, 404, "ORDER_NOT_FOUND"},
    {errc::not_found, 404, "NOT_FOUND"},
    {errc::method_not_allowed, 405, "METHOD_NOT_ALLOWED"},
    {errc::key_limit_reached, 409, "KEY_LIMIT_REACHED"},
    {errc::gone, 410, "GONE"},
    {errc::payload_too_large, 413, "PAYLOAD_TOO_LARGE"},
    {errc::unsupported_media_type, 415, "UNSUPPORTED_MEDIA_TYPE"},
    {errc::upgrade_required, 426, "UPGRADE_REQUIRED"},
    {errc::rate_limited, 429, "RATE_LIMITED"},
    {errc::internal_error, 500, "INTERNAL_ERROR"},
    {errc::upstream_error, 502, "UPSTREAM_ERROR"},
    {errc::provider_unavailable, 503, "PROVIDER_UNAVAILABLE"},
    {errc::upstream_timeout, 504, "UPSTREAM_TIMEOUT"},
    {errc::stream_capacity, 0, "STREAM_CAPACITY"},
    {errc::transport_error, 0, "TRANSPORT_ERROR"},
    {errc::unknown, 0, "UNKNOWN"},
}};
static_assert(errc_table.size() == static_cast<std::size_t>(errc::unknown),
              "errc_table needs exactly one row per errc enumerator");

GATEWAY_DECL constexpr errc_row const& row(errc e) noexcept {
    return errc_table[static_cast<std::size_t>(e) - 1];
}
} // namespace detail

/// HTTP status CONTRACT §2 gives `e` (0 for the client-only codes).
GATEWAY_DECL constexpr unsigned http_status(errc e) noexcept {
    return detail::row(e).http_status;
}

/// Wire code of `e`, e.g. `"VALIDATION_ERROR"`.
GATEWAY_DECL constexpr std::string_view wire_code(errc e) noexcept {
    return detail::row(e).wire;
}

/// Inverse of `wire_code`; `errc::unknown` for a code this SDK does not know.
GATEWAY_DECL constexpr errc errc_from_wire(std::string_view code) noexcept {
    for (auto const& r : detail::errc_table)
        if (r.wire == code && r.code < errc::transport_error)
            return r.code;
    return errc::unknown;
}

namespace detail {
class gateway_category final : public boost::system::error_category {
public:
    char const* name() const noexcept override { return "gateway"; }
    std::string message(int ev) const override {
        auto const e = static_cast<errc>(ev);
        if (ev < 1 || ev > static_cast<int>(errc::unknown))
            return "unknown gateway error";
        return std::string(wire_code(e));
    }
};
} // namespace detail

/// The `"gateway"` error category (stable name, one instance).
GATEWAY_DECL boost::system::error_category const& gateway_category() noexcept {
    static detail::gateway_category const cat;
    return cat;
}

GATEWAY_DECL boost::system::error_code make_error_code(errc e) noexcept {
    return {static_cast<int>(e), gateway_category()};
}

/**
 * A contract error: what the server answers as `{"error":{"code","message","details"}}` and
 * what every failed SDK call returns.
 *
 * `status` is the HTTP status seen (or the contract's for `e`); `wire_code_text` keeps the code
 * string exactly as received so an `errc::unknown` still shows what the server said.
 */
struct api_error {
    errc code = errc::internal_error;
    std::string message;
    boost::json::object details;
    unsigned status = 500;
    std::string wire_code_text = "INTERNAL_ERROR";
    /// Seconds to wait before retrying, from `Retry-After` (429 and 503).
    std::optional<unsigned> retry_after;

    /// The wire code, e.g. `"VALIDATION_ERROR"`.
    std::string_view wire() const noexcept { return wire_code_text; }
    /// The field named by `details.field`, or empty.
    std::string_view field() const noexcept {
        if (auto const* f = details.if_contains("field"); f && f->is_string())
            return f->get_string();
        return {};
    }
};

/// Builds the error CONTRACT §2 defines for `e` with `message`.
GATEWAY_DECL api_error make_error(errc e, std::string message) {
    api_error err;
    err.code = e;
    err.message = std::move(message);
    err.status = http_status(e);
    err.wire_code_text = std::string(wire_code(e));
    return err;
}

/// A VALIDATION_ERROR (or `e`) whose `details.field` names `field`.
GATEWAY_DECL api_error field_error(std::string_view field, std::string message,
                                   errc e = errc::validation_error) {
    api_error err = make_error(e, std::move(message));
    err.details["field"] = field;
    return err;
}

/// The error body of spec §7: `{"error":{"code","message"[,"details"]}}`.
GATEWAY_DECL boost::json::value to_json(api_error const& e) {
    boost::json::object inner;
    inner["code"] = e.wire_code_text;
    inner["message"] = e.message;
    if (!e.details.empty())
        inner["details"] = e.details;
    boost::json::object body;
    body["error"] = std::move(inner);
    return body;
}

/// Reads an error body. Anything that is not the contract's shape yields `transport_error`
/// carrying `status` so the caller still sees what happened.
GATEWAY_DECL api_error error_from_json(boost::json::value const& body, unsigned status) {
    api_error err;
    err.status = status;
    auto const* obj = body.if_object();
    auto const* inner = obj ? obj->if_contains("error") : nullptr;
    auto const* io = inner ? inner->if_object() : nullptr;
    auto const* code = io ? io->if_contains("code") : nullptr;
    auto const* msg = io ? io->if_contains("message") : nullptr;
    if (!code || !code->is_string() || !msg || !msg->is_string()) {
        err.code = errc::transport_error;
        err.wire_code_text = "TRANSPORT_ERROR";
        err.message = "server answered HTTP " + std::to_string(status) + " without an error body";
        return err;
    }
    err.wire_code_text = std::string(code->get_string());
    err.code = errc_from_wire(err.wire_code_text);
    err.message = std::string(msg->get_string());
    if (auto const* d = io->if_contains("details"); d && d->is_object())
        err.details = d->get_object();
    return err;
}

/// Thrown by `result<T>::value()` on an error; carries the `api_error`.
class api_exception : public std::runtime_error {
public:
    explicit api_exception(api_error e)
        : std::runtime_error(std::string(e.wire()) + ": " + e.message)
        , error_(std::move(e)) {}
    api_error const& error() const noexcept { return error_; }

private:
    api_error error_;
};

} // namespace gateway

namespace boost::system {
template <>
struct is_error_code_enum<gateway::errc> : std::true_type {};
} // namespace boost::system
