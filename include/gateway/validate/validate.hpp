#pragma once
/**
 * @file validate.hpp
 * The rules a well-shaped request must also meet, shared by the SDK client (before sending) and
 * the reference server (before any upstream call): per-type checks on write bodies, and the
 * query parameters of reads with their limits (spec §8, CONTRACT §4).
 *
 * Everything here is pure (no I/O, no clock). Every failure is VALIDATION_ERROR whose
 * `details.field` names the field; the first failure wins.
 */
#include <gateway/result.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/util/percent.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gateway {

/// What a write body must carry (CONTRACT §6).
enum class body_kind {
    signed_write,      ///< the write itself: signature (gamma: salt, credentials too) required
    typed_data_params, ///< `params` of a typed-data request: those are not there yet
};

/**
 * Checks a place-order (or spot order) body: non-empty `symbol`; `size` > 0; `price` required
 * for limit and stop_limit; `triggerPrice` required for, and only on, stop_market and
 * stop_limit; `callbackRate` required for, and `activationPrice` only on, trailing_stop;
 * `timeInForce` only on limit and stop_limit; every price > 0; `clientOrderId` `0x` + 32 hex;
 * `nonce` > 0; `signature` present for a signed write. Provider-specific rules (alpha needs
 * `price` on every type, unsupported types, tick sizes) belong to the provider adapter.
 * @par Errors VALIDATION_ERROR naming the field.
 */
GATEWAY_DECL result<void> validate(place_order_request const& r,
                                   body_kind kind = body_kind::signed_write);
/**
 * Checks a cancel body: non-empty `symbol` and `orderId`, `nonce` > 0, `signature` present for
 * a signed write.
 * @par Errors VALIDATION_ERROR naming the field.
 */
GATEWAY_DECL result<void> validate(cancel_order_request const& r,
                                   body_kind kind = body_kind::signed_write);
/**
 * Checks a set-leverage body: non-empty `symbol`, `leverage` > 0 (the market maximum is the
 * adapter's MAX_LEVERAGE_EXCEEDED), `nonce` > 0, `signature` present for a signed write.
 * @par Errors VALIDATION_ERROR naming the field.
 */
GATEWAY_DECL result<void> validate(set_leverage_request const& r,
                                   body_kind kind = body_kind::signed_write);
/**
 * Checks a value that travels in an upstream HTTP header (gamma's credentials): printable ASCII
 * (0x20-0x7E) only, CONTRACT 6.3, so no CR, LF or NUL can split the upstream request. The
 * message names `field` and never repeats the value.
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<void> check_header_value(std::string_view field, std::string_view value);
/**
 * Checks a gamma order body: `tokenId` decimal digits, `size` > 0, 0 < `price` < 1,
 * `signatureType` 0..2, non-negative `feeRateBps`/`expiration`/`nonce`, an `expiration` when
 * and only when `timeInForce` is `gtd`; for a signed write also `salt`, `signature`, `apiKey`,
 * `apiSecret`, `passphrase`; the credentials printable ASCII (check_header_value). Messages
 * name fields, never repeat a credential.
 * @par Errors VALIDATION_ERROR naming the field.
 */
GATEWAY_DECL result<void> validate(gamma_order_request const& r,
                                   body_kind kind = body_kind::signed_write);
/**
 * Checks a gamma cancel body: non-empty `orderId`, `apiKey`, `apiSecret`, `passphrase`, the
 * credentials printable ASCII (check_header_value).
 * @par Errors VALIDATION_ERROR naming the field.
 */
GATEWAY_DECL result<void> validate(gamma_cancel_request const& r);

// ---------------------------------------------------------------------------------------------
// Query parameters

// `query_params` (decoded pairs in order) comes from <gateway/util/percent.hpp>.

/**
 * A query lookup: called with a parameter name, answers its decoded value or nullopt when the
 * parameter is absent. The views must stay valid while `from_query` runs.
 */
template <class L>
concept query_lookup = std::invocable<L&, std::string_view> &&
    std::convertible_to<std::invoke_result_t<L&, std::string_view>,
                        std::optional<std::string_view>>;

/// The first value of `name` in `q`, or nullopt (a lookup over `query_params`).
GATEWAY_DECL std::optional<std::string_view> find_param(query_params const& q,
                                                        std::string_view name) noexcept;

/**
 * Reads a `limit`-like parameter: absent gives `default_value`; otherwise a decimal integer in
 * 1..`max` (CONTRACT §4: no clamping).
 * @par Errors VALIDATION_ERROR naming `field` for non-integer text or a value out of range.
 */
GATEWAY_DECL result<std::int64_t> parse_limit(std::optional<std::string_view> raw,
                                              std::int64_t default_value, std::int64_t max,
                                              std::string_view field);

/**
 * Reads an `offset`-like parameter: absent gives 0; otherwise a non-negative decimal integer.
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<std::int64_t> parse_offset(std::optional<std::string_view> raw,
                                               std::string_view field);

/**
 * Reads a millisecond timestamp parameter: absent gives nullopt; otherwise a non-negative
 * decimal integer.
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<std::optional<std::int64_t>> parse_time_ms(std::optional<std::string_view> raw,
                                                               std::string_view field);

/// Query of prices (spec §2.9): `dex` names an alpha builder dex (`xyz`); empty or absent is the
/// main dex. Providers without dexes ignore it (CONTRACT §1: unknown parameters are ignored).
struct prices_params {
    std::optional<std::string> dex;

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads the parameters (none can be invalid).
    template <query_lookup Lookup>
    static result<prices_params> from_query(Lookup&& lookup);
};

/// Query of public trades (spec §4.2): `limit` default 50, 1..200.
struct trades_params {
    static constexpr std::int64_t default_limit = 50;
    static constexpr std::int64_t max_limit = 200;

    std::optional<std::int64_t> limit; ///< `from_query` sets the default

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads and checks the parameters. @par Errors VALIDATION_ERROR naming the parameter.
    template <query_lookup Lookup>
    static result<trades_params> from_query(Lookup&& lookup);
};

/// A resolved candle time range in ms, both ends inclusive.
struct time_range {
    std::int64_t start_time = 0;
    std::int64_t end_time = 0;
};

/**
 * Query of candles (CONTRACT §4): `interval` required; `startTime`, `endTime` ms optional;
 * `endTime` defaults to now and `startTime` to `endTime` - 500 intervals; a range that could
 * hold more than 5000 candles is refused (no truncation).
 */
struct candles_params {
    static constexpr std::int64_t default_candles = 500;
    static constexpr std::int64_t max_candles = 5000;

    std::optional<gateway::interval> interval; ///< required
    std::optional<std::int64_t> start_time;
    std::optional<std::int64_t> end_time;

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads and checks the parameters. @par Errors VALIDATION_ERROR naming the parameter.
    template <query_lookup Lookup>
    static result<candles_params> from_query(Lookup&& lookup);
    /**
     * The range to serve at `now_ms`, defaults applied.
     * @par Errors VALIDATION_ERROR (`interval` missing, `startTime` after `endTime`, or more
     * than `max_candles` candles).
     */
    GATEWAY_DECL result<time_range> resolve(std::int64_t now_ms) const;
};

/// Query of an orderbook (CONTRACT §4): `depth` default 20, 1..1000.
struct orderbook_params {
    static constexpr std::int64_t default_depth = 20;
    static constexpr std::int64_t max_depth = 1000;

    std::optional<std::int64_t> depth; ///< `from_query` sets the default

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads and checks the parameters. @par Errors VALIDATION_ERROR naming the parameter.
    template <query_lookup Lookup>
    static result<orderbook_params> from_query(Lookup&& lookup);
};

/// Query of fills (CONTRACT §4): `startTime`, `endTime` ms optional; `limit` default 100, 1..500.
struct fills_params {
    static constexpr std::int64_t default_limit = 100;
    static constexpr std::int64_t max_limit = 500;

    std::optional<std::int64_t> start_time;
    std::optional<std::int64_t> end_time;
    std::optional<std::int64_t> limit; ///< `from_query` sets the default

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads and checks the parameters. @par Errors VALIDATION_ERROR naming the parameter.
    template <query_lookup Lookup>
    static result<fills_params> from_query(Lookup&& lookup);
};

/**
 * Query of prediction events (spec §4.6, §8; CONTRACT §4): `status`, `category` (matched
 * case-insensitively by the provider); `limit` default 25, 1..100; `offset` default 0, the
 * number of matching events to skip, so a client pages through every event.
 */
struct events_params {
    static constexpr std::int64_t default_limit = 25;
    static constexpr std::int64_t max_limit = 100;

    std::optional<market_status> status;
    std::optional<std::string> category;
    std::optional<std::int64_t> limit;                 ///< `from_query` sets the default
    std::optional<std::int64_t> offset = std::nullopt; ///< `from_query` sets the default (0)

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads and checks the parameters. @par Errors VALIDATION_ERROR naming the parameter.
    template <query_lookup Lookup>
    static result<events_params> from_query(Lookup&& lookup);
};

/**
 * Query of prediction markets (CONTRACT §4): `eventId` (an event's markets only), `status`;
 * `limit` default 25, 1..100; `offset` default 0, as events.
 */
struct markets_params {
    static constexpr std::int64_t default_limit = 25;
    static constexpr std::int64_t max_limit = 100;

    std::optional<std::string> event_id;
    std::optional<market_status> status;
    std::optional<std::int64_t> limit;                 ///< `from_query` sets the default
    std::optional<std::int64_t> offset = std::nullopt; ///< `from_query` sets the default (0)

    /// The set parameters.
    GATEWAY_DECL query_params to_query() const;
    /// Reads and checks the parameters. @par Errors VALIDATION_ERROR naming the parameter.
    template <query_lookup Lookup>
    static result<markets_params> from_query(Lookup&& lookup);
};

/// A read's parameter struct above: `to_query()` and `from_query(lookup)`.
template <class P>
concept query_params_type = requires(P const& p,
                                     std::optional<std::string_view> (*lookup)(std::string_view)) {
    { p.to_query() } -> std::same_as<query_params>;
    { P::from_query(lookup) } -> std::same_as<result<P>>;
};

/**
 * Checks read parameters built in code by the rules the server applies: `from_query` over
 * `to_query()`, so client and server share one path.
 * @par Errors VALIDATION_ERROR naming the parameter.
 */
template <query_params_type P>
result<void> validate(P const& params);

} // namespace gateway

#include <gateway/validate/impl/validate.hpp>
