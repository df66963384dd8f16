#pragma once
/**
 * @file enums.hpp
 * The closed value sets of the contract as enums (spec §2-4, CONTRACT §4-6).
 *
 * Each enum has exactly one constexpr table of wire names (`detail::enum_traits<E>::rows` in
 * `impl/enums.hpp`); `to_string`, the `parse_<enum>` functions, `json_fields` and the JSON
 * mapping all go through one generic lookup over that table.
 */
#include <gateway/result.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace gateway {

/// Order or trade side: `buy`, `sell`.
enum class side { buy, sell };
/// Position direction: `long`, `short` (CONTRACT §4: from the sign of the upstream size).
enum class position_side { long_, short_ };
/// Order type: `market`, `limit`, `stop_market`, `stop_limit`, `trailing_stop` (beta only).
enum class order_type { market, limit, stop_market, stop_limit, trailing_stop };
/// Time in force of limit types: `gtc`, `ioc`, `alo` (CONTRACT §5).
enum class time_in_force { gtc, ioc, alo };
/// Time in force of a prediction order (gamma): `gtc`, `fok` (filled whole at once or
/// refused), `gtd` (good until its `expiration`).
enum class prediction_time_in_force { gtc, fok, gtd };
/// Candle interval: `1m`, `5m`, `15m`, `30m`, `1h`, `4h`, `1d`, `1w` (spec §4.2).
enum class interval { m1, m5, m15, m30, h1, h4, d1, w1 };
/// Health: `ok` < `degraded` < `down`, so the worst status is the largest (spec §3).
enum class health_status { ok, degraded, down };
/// Vertical: `perps`, `spot`, `rwas`, `predictions`.
enum class vertical { perps, spot, rwas, predictions };
/// Trading authentication scheme: `eip712`, `hmac`.
enum class auth_model { eip712, hmac };
/// Prediction market and event status: `active`, `closed`, `resolved`.
enum class market_status { active, closed, resolved };
/// Open-order status: `open`, `triggered` (CONTRACT §4).
enum class open_order_status { open, triggered };
/// Place-result status: `open`, `filled`, `partially_filled` (CONTRACT §5).
enum class place_status { open, filled, partially_filled };
/// Fill liquidity: `maker`, `taker`.
enum class liquidity { maker, taker };
/// Margin mode: `cross`, `isolated` (CONTRACT §5).
enum class margin_mode { cross, isolated };
/// Dex status: `active`, `halted` (CONTRACT §4).
enum class dex_state { active, halted };
/// Cancel-result status: `canceled` (spec §2.10).
enum class cancel_status { canceled };
/// Typed-data operation: `placeOrder`, `cancelOrder`, `setLeverage` (CONTRACT §6).
enum class typed_data_operation { place_order, cancel_order, set_leverage };

namespace detail {
/// The wire-name table of `E`; specialised once per enum in `impl/enums.hpp`.
template <class E>
struct enum_traits;

/// An enum of this header: one with a wire-name table.
template <class E>
concept table_enum = std::is_enum_v<E> && requires {
    enum_traits<E>::rows;
};
} // namespace detail

/// The wire name of `e`, e.g. `"stop_market"`, `"1h"`.
template <detail::table_enum E>
constexpr std::string_view to_string(E e) noexcept;

/**
 * Parses the wire name of an `E` (exact, case-sensitive).
 * @param field the name reported in `details.field` on failure.
 * @par Errors VALIDATION_ERROR naming `field` and listing the allowed values.
 */
template <detail::table_enum E>
result<E> parse_enum(std::string_view text, std::string_view field);

/// `parse_enum<side>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<side> parse_side(std::string_view text, std::string_view field);
/// `parse_enum<position_side>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<position_side> parse_position_side(std::string_view text,
                                                       std::string_view field);
/// `parse_enum<order_type>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<order_type> parse_order_type(std::string_view text, std::string_view field);
/// `parse_enum<time_in_force>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<time_in_force> parse_time_in_force(std::string_view text,
                                                       std::string_view field);
/// `parse_enum<prediction_time_in_force>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<prediction_time_in_force>
parse_prediction_time_in_force(std::string_view text, std::string_view field);
/// `parse_enum<interval>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<interval> parse_interval(std::string_view text, std::string_view field);
/// `parse_enum<health_status>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<health_status> parse_health_status(std::string_view text,
                                                       std::string_view field);
/// `parse_enum<vertical>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<vertical> parse_vertical(std::string_view text, std::string_view field);
/// `parse_enum<auth_model>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<auth_model> parse_auth_model(std::string_view text, std::string_view field);
/// `parse_enum<market_status>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<market_status> parse_market_status(std::string_view text,
                                                       std::string_view field);
/// `parse_enum<open_order_status>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<open_order_status> parse_open_order_status(std::string_view text,
                                                               std::string_view field);
/// `parse_enum<place_status>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<place_status> parse_place_status(std::string_view text, std::string_view field);
/// `parse_enum<liquidity>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<liquidity> parse_liquidity(std::string_view text, std::string_view field);
/// `parse_enum<margin_mode>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<margin_mode> parse_margin_mode(std::string_view text, std::string_view field);
/// `parse_enum<dex_state>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<dex_state> parse_dex_state(std::string_view text, std::string_view field);
/// `parse_enum<cancel_status>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<cancel_status> parse_cancel_status(std::string_view text,
                                                       std::string_view field);
/// `parse_enum<typed_data_operation>`. @par Errors VALIDATION_ERROR naming `field`.
GATEWAY_DECL result<typed_data_operation> parse_typed_data_operation(std::string_view text,
                                                                     std::string_view field);

/// Length of one `i` candle in milliseconds (`1w` is 7 days).
constexpr std::int64_t interval_ms(interval i) noexcept;

/// The worse of two health statuses (the aggregate rule of spec §3).
constexpr health_status worst(health_status a, health_status b) noexcept {
    return a < b ? b : a;
}

/// `json_fields` hook: reads an enum field through its table, keeping the allowed-values message.
template <detail::table_enum E>
result<E> parse_text(std::type_identity<E>, std::string_view text, std::string_view field);

/// JSON: the wire name as a string.
template <detail::table_enum E>
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, E e);

/// JSON: a string holding one of the wire names; anything else is `invalid_argument`.
template <detail::table_enum E>
boost::json::result<E> tag_invoke(boost::json::try_value_to_tag<E>, boost::json::value const& jv);

} // namespace gateway

#include <gateway/types/impl/enums.hpp>
