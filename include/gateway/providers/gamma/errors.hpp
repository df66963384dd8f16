#pragma once
/**
 * @file errors.hpp
 * gamma's (Polymarket's) error bodies and texts, `upstreams/gamma.md` §3.2, §3.3, §4, §5.4 and
 * §6: the `{"error":"<message>"}` bodies mock-gamma answers and the gateway reads. One table for
 * both.
 *
 * The CLOB's texts are the upstream's (gamma.md §6). The catalog's error bodies are UNCONFIRMED
 * (gamma.md §2.4, §9.2); mock-gamma answers the CLOB's shape with the text `not found`.
 */
#include <gateway/config.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gateway::wire::gamma {

/// One upstream error: its fixed text and the HTTP status it comes with.
struct error_def {
    std::string_view msg;
    unsigned http_status;
};

/// A missing or malformed `token_id` (CLOB).
inline constexpr error_def invalid_token_id{"Invalid token id", 400};
/// A token without a book: unknown, or its market closed (CLOB `/book`, `/midpoint`, `/price`).
inline constexpr error_def no_orderbook{"No orderbook exists for the requested token id", 404};
/// A batch body that is not an array of `{"token_id":...}` (CLOB `/books`, `/midpoints`).
inline constexpr error_def invalid_payload{"Invalid payload", 400};
/// A batch of more than `max_batch` items (CLOB).
inline constexpr error_def payload_too_large{"Payload exceeds the limit", 400};
/// An unknown market (CLOB `/tick-size`).
inline constexpr error_def market_not_found{"market not found", 404};
/// An unknown event or market id (catalog; UNCONFIRMED text, mock-gamma's).
inline constexpr error_def catalog_not_found{"not found", 404};

/// L2 authentication refused: an unknown or expired key, a wrong passphrase, a bad HMAC, a
/// timestamp outside the window, a key of another address (gamma.md §4.2, §6).
inline constexpr error_def unauthorized{"Unauthorized/Invalid api key", 401};
/// L1 (ClobAuth) headers missing or not signed by `POLY_ADDRESS` (gamma.md §6).
inline constexpr error_def invalid_l1_headers{"Invalid L1 Request headers", 401};

/// The CLOB's order-processing texts (gamma.md §5.4, §6; docs.polymarket.com "Error Codes"):
/// what mock-gamma's matching answers and the gateway repeats when it refuses an order the CLOB
/// would refuse. Texts carrying an order id are built by mock-gamma (gamma_matching.hpp).
namespace order_errors {
inline constexpr std::string_view invalid_payload = "Invalid order payload";
inline constexpr std::string_view invalid_token = invalid_token_id.msg;
inline constexpr std::string_view no_orderbook = gamma::no_orderbook.msg;
inline constexpr std::string_view not_enough_balance = "not enough balance / allowance";
inline constexpr std::string_view invalid_expiration = "invalid expiration";
inline constexpr std::string_view post_only_crosses = "invalid post-only order: order crosses book";
/// UNCONFIRMED text (INVALID_POST_ONLY_ORDER_TYPE has no published message).
inline constexpr std::string_view post_only_type =
    "invalid post-only order: only GTC and GTD orders can be post-only";
inline constexpr std::string_view fok_not_filled =
    "order couldn't be fully filled. FOK orders are fully filled or killed.";
inline constexpr std::string_view fak_no_match =
    "no orders found to match with FAK order. FAK orders are partially filled or killed if no "
    "match is found.";
/// `not_canceled` reasons of the cancel endpoints.
inline constexpr std::string_view cancel_not_found =
    "order can't be found - already canceled or matched";
inline constexpr std::string_view cancel_already = "the order is already canceled";
} // namespace order_errors

/// The error body `{"error":"<message>"}`, compact.
GATEWAY_DECL std::string error_body(std::string_view message) {
    boost::json::object o;
    o["error"] = message;
    return boost::json::serialize(o);
}

/// The message of an error body (`{"error":"..."}`), if `v` is one.
GATEWAY_DECL std::optional<std::string> error_message(boost::json::value const& v) {
    auto const* o = v.if_object();
    auto const* e = o ? o->if_contains("error") : nullptr;
    if (!e || !e->is_string())
        return std::nullopt;
    return std::string(e->get_string());
}

/**
 * The reason an answer to `POST /order` gives for refusing the order, if it gives one: its
 * `error` text (an error body), else a non-empty `errorMsg` (a 200 with `success` false, or a 400
 * in the order-response shape).
 */
GATEWAY_DECL std::optional<std::string> order_refusal(boost::json::value const& v) {
    if (auto e = error_message(v))
        return e;
    auto const* o = v.if_object();
    auto const* m = o ? o->if_contains("errorMsg") : nullptr;
    if (m && m->is_string() && !m->get_string().empty())
        return std::string(m->get_string());
    return std::nullopt;
}

} // namespace gateway::wire::gamma
