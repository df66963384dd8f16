#pragma once

#include <array>
#include <optional>
#include <string>
#include <system_error>

namespace gateway {

namespace detail {
template <class E>
struct enum_row {
    E value;
    std::string_view text;
};

// One table per enum: wire names exactly as spec/CONTRACT spell them.
template <>
struct enum_traits<side> {
    static constexpr auto rows = std::to_array<enum_row<side>>({
        {side::buy, "buy"},
        {side::sell, "sell"},
    });
};
template <>
struct enum_traits<position_side> {
    static constexpr auto rows = std::to_array<enum_row<position_side>>({
        {position_side::long_, "long"},
        {position_side::short_, "short"},
    });
};
template <>
struct enum_traits<order_type> {
    static constexpr auto rows = std::to_array<enum_row<order_type>>({
        {order_type::market, "market"},
        {order_type::limit, "limit"},
        {order_type::stop_market, "stop_market"},
        {order_type::stop_limit, "stop_limit"},
        {order_type::trailing_stop, "trailing_stop"},
    });
};
template <>
struct enum_traits<time_in_force> {
    static constexpr auto rows = std::to_array<enum_row<time_in_force>>({
        {time_in_force::gtc, "gtc"},
        {time_in_force::ioc, "ioc"},
        {time_in_force::alo, "alo"},
    });
};
template <>
struct enum_traits<prediction_time_in_force> {
    static constexpr auto rows = std::to_array<enum_row<prediction_time_in_force>>({
        {prediction_time_in_force::gtc, "gtc"},
        {prediction_time_in_force::fok, "fok"},
        {prediction_time_in_force::gtd, "gtd"},
    });
};
template <>
struct enum_traits<interval> {
    static constexpr auto rows = std::to_array<enum_row<interval>>({
        {interval::m1, "1m"},
        {interval::m5, "5m"},
        {interval::m15, "15m"},
        {interval::m30, "30m"},
        {interval::h1, "1h"},
        {interval::h4, "4h"},
        {interval::d1, "1d"},
        {interval::w1, "1w"},
    });
};
template <>
struct enum_traits<health_status> {
    static constexpr auto rows = std::to_array<enum_row<health_status>>({
        {health_status::ok, "ok"},
        {health_status::degraded, "degraded"},
        {health_status::down, "down"},
    });
};
template <>
struct enum_traits<vertical> {
    static constexpr auto rows = std::to_array<enum_row<vertical>>({
        {vertical::perps, "perps"},
        {vertical::spot, "spot"},
        {vertical::rwas, "rwas"},
        {vertical::predictions, "predictions"},
    });
};
template <>
struct enum_traits<auth_model> {
    static constexpr auto rows = std::to_array<enum_row<auth_model>>({
        {auth_model::eip712, "eip712"},
        {auth_model::hmac, "hmac"},
    });
};
template <>
struct enum_traits<market_status> {
    static constexpr auto rows = std::to_array<enum_row<market_status>>({
        {market_status::active, "active"},
        {market_status::closed, "closed"},
        {market_status::resolved, "resolved"},
    });
};
template <>
struct enum_traits<open_order_status> {
    static constexpr auto rows = std::to_array<enum_row<open_order_status>>({
        {open_order_status::open, "open"},
        {open_order_status::triggered, "triggered"},
    });
};
template <>
struct enum_traits<place_status> {
    static constexpr auto rows = std::to_array<enum_row<place_status>>({
        {place_status::open, "open"},
        {place_status::filled, "filled"},
        {place_status::partially_filled, "partially_filled"},
    });
};
template <>
struct enum_traits<liquidity> {
    static constexpr auto rows = std::to_array<enum_row<liquidity>>({
        {liquidity::maker, "maker"},
        {liquidity::taker, "taker"},
    });
};
template <>
struct enum_traits<margin_mode> {
    static constexpr auto rows = std::to_array<enum_row<margin_mode>>({
        {margin_mode::cross, "cross"},
        {margin_mode::isolated, "isolated"},
    });
};
template <>
struct enum_traits<dex_state> {
    static constexpr auto rows = std::to_array<enum_row<dex_state>>({
        {dex_state::active, "active"},
        {dex_state::halted, "halted"},
    });
};
template <>
struct enum_traits<cancel_status> {
    static constexpr auto rows = std::to_array<enum_row<cancel_status>>({
        {cancel_status::canceled, "canceled"},
    });
};
template <>
struct enum_traits<typed_data_operation> {
    static constexpr auto rows = std::to_array<enum_row<typed_data_operation>>({
        {typed_data_operation::place_order, "placeOrder"},
        {typed_data_operation::cancel_order, "cancelOrder"},
        {typed_data_operation::set_leverage, "setLeverage"},
    });
};

/// Row `i` of every table holds enumerator `i`, so `to_string` can index instead of search.
template <class E>
constexpr bool rows_in_order() {
    auto const& rows = enum_traits<E>::rows;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (static_cast<std::size_t>(rows[i].value) != i)
            return false;
    return true;
}

template <class E>
constexpr std::optional<E> enum_from_text(std::string_view text) noexcept {
    for (auto const& entry : enum_traits<E>::rows)
        if (entry.text == text)
            return entry.value;
    return std::nullopt;
}
} // namespace detail

template <detail::table_enum E>
constexpr std::string_view to_string(E e) noexcept {
    static_assert(detail::rows_in_order<E>(),
                  "enum_traits<E>::rows must list every enumerator once, in declaration order");
    auto const i = static_cast<std::size_t>(e);
    auto const& rows = detail::enum_traits<E>::rows;
    return i < rows.size() ? rows[i].text : std::string_view{};
}

template <detail::table_enum E>
result<E> parse_enum(std::string_view text, std::string_view field) {
    if (auto e = detail::enum_from_text<E>(text))
        return *e;
    std::string message = "'" + std::string(field) + "' must be one of: ";
    bool first = true;
    for (auto const& row : detail::enum_traits<E>::rows) {
        message += first ? "" : ", ";
        message += row.text;
        first = false;
    }
    return field_error(field, message + ".");
}

template <detail::table_enum E>
result<E> parse_text(std::type_identity<E>, std::string_view text, std::string_view field) {
    return parse_enum<E>(text, field);
}

GATEWAY_DECL result<side> parse_side(std::string_view text, std::string_view field) {
    return parse_enum<side>(text, field);
}
GATEWAY_DECL result<position_side> parse_position_side(std::string_view text,
                                                       std::string_view field) {
    return parse_enum<position_side>(text, field);
}
GATEWAY_DECL result<order_type> parse_order_type(std::string_view text, std::string_view field) {
    return parse_enum<order_type>(text, field);
}
GATEWAY_DECL result<time_in_force> parse_time_in_force(std::string_view text,
                                                       std::string_view field) {
    return parse_enum<time_in_force>(text, field);
}
GATEWAY_DECL result<prediction_time_in_force>
parse_prediction_time_in_force(std::string_view text, std::string_view field) {
    return parse_enum<prediction_time_in_force>(text, field);
}
GATEWAY_DECL result<interval> parse_interval(std::string_view text, std::string_view field) {
    return parse_enum<interval>(text, field);
}
GATEWAY_DECL result<health_status> parse_health_status(std::string_view text,
                                                       std::string_view field) {
    return parse_enum<health_status>(text, field);
}
GATEWAY_DECL result<vertical> parse_vertical(std::string_view text, std::string_view field) {
    return parse_enum<vertical>(text, field);
}
GATEWAY_DECL result<auth_model> parse_auth_model(std::string_view text, std::string_view field) {
    return parse_enum<auth_model>(text, field);
}
GATEWAY_DECL result<market_status> parse_market_status(std::string_view text,
                                                       std::string_view field) {
    return parse_enum<market_status>(text, field);
}
GATEWAY_DECL result<open_order_status> parse_open_order_status(std::string_view text,
                                                               std::string_view field) {
    return parse_enum<open_order_status>(text, field);
}
GATEWAY_DECL result<place_status> parse_place_status(std::string_view text,
                                                     std::string_view field) {
    return parse_enum<place_status>(text, field);
}
GATEWAY_DECL result<liquidity> parse_liquidity(std::string_view text, std::string_view field) {
    return parse_enum<liquidity>(text, field);
}
GATEWAY_DECL result<margin_mode> parse_margin_mode(std::string_view text, std::string_view field) {
    return parse_enum<margin_mode>(text, field);
}
GATEWAY_DECL result<dex_state> parse_dex_state(std::string_view text, std::string_view field) {
    return parse_enum<dex_state>(text, field);
}
GATEWAY_DECL result<cancel_status> parse_cancel_status(std::string_view text,
                                                       std::string_view field) {
    return parse_enum<cancel_status>(text, field);
}
GATEWAY_DECL result<typed_data_operation> parse_typed_data_operation(std::string_view text,
                                                                     std::string_view field) {
    return parse_enum<typed_data_operation>(text, field);
}

constexpr std::int64_t interval_ms(interval i) noexcept {
    constexpr std::int64_t minute = 60'000;
    constexpr std::array<std::int64_t, 8> ms{minute,         5 * minute,     15 * minute,
                                             30 * minute,    60 * minute,    240 * minute,
                                             1'440 * minute, 10'080 * minute};
    static_assert(ms.size() == detail::enum_traits<interval>::rows.size(),
                  "interval_ms needs one length per interval");
    return ms[static_cast<std::size_t>(i)];
}

template <detail::table_enum E>
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, E e) {
    jv = to_string(e);
}

template <detail::table_enum E>
boost::json::result<E> tag_invoke(boost::json::try_value_to_tag<E>, boost::json::value const& jv) {
    if (!jv.is_string())
        return boost::json::make_error_code(boost::json::error::not_string);
    if (auto e = detail::enum_from_text<E>(jv.get_string()))
        return *e;
    return boost::system::error_code(std::make_error_code(std::errc::invalid_argument));
}

} // namespace gateway
