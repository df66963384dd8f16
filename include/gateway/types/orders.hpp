#pragma once
/**
 * @file orders.hpp
 * Write bodies and their results (spec §4.2-4.6, CONTRACT §5-6).
 *
 * Request parsers check shape only: JSON types, enum values, address syntax, and (inbound) no
 * unknown field. Signatures, nonces and credentials may be absent, because a typed-data request
 * carries the same body without them (CONTRACT §6); `validate()` in
 * `<gateway/validate/validate.hpp>` applies the per-type rules and requires them for a write.
 * Writers omit absent optional request keys; result types write nullables as `null`.
 */
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gateway {

/**
 * Place-order body for perps and spot on alpha and beta (spec §4.2, §4.4; CONTRACT §5, §6.2).
 * Spot symbols are `BASE/QUOTE`, perps symbols the base asset or `dex:SYMBOL`.
 */
struct place_order_request {
    std::string symbol;
    gateway::side side = gateway::side::buy;
    order_type type = order_type::market;
    decimal size;
    std::optional<decimal> price;            ///< limit types; alpha: every type (worst price)
    std::optional<decimal> trigger_price;    ///< stop types
    std::optional<decimal> callback_rate;    ///< trailing_stop (beta), percent
    std::optional<decimal> activation_price; ///< trailing_stop (beta)
    bool reduce_only = false;                ///< written only when true
    std::optional<gateway::time_in_force> time_in_force; ///< limit types; default gtc
    std::optional<std::string> client_order_id;          ///< 0x + 32 hex
    address wallet;                                      ///< main wallet
    std::optional<address> signer;                       ///< beta agent; default `wallet`
    std::string signature;                               ///< empty when absent
    std::int64_t nonce = 0;                              ///< ms
};

/// Spot orders have the place-order shape (spec §4.4).
using spot_order_request = place_order_request;

/// Cancel-order body for perps and spot on alpha and beta (spec §4.2).
struct cancel_order_request {
    std::string symbol;
    std::string order_id;
    address wallet;
    std::optional<address> signer; ///< beta agent; default `wallet`
    std::string signature;         ///< empty when absent
    std::int64_t nonce = 0;        ///< ms
};

/// Set-leverage body (spec §4.2, CONTRACT §5).
struct set_leverage_request {
    std::string symbol;
    std::int64_t leverage = 0;
    gateway::margin_mode margin_mode = gateway::margin_mode::cross;
    address wallet;
    std::optional<address> signer; ///< beta agent; default `wallet`
    std::string signature;         ///< empty when absent
    std::int64_t nonce = 0;        ///< ms
};

/// gamma order body (spec §4.6, CONTRACT §6.3): the order, its signed upstream fields, and the
/// credentials for the upstream HMAC headers (never stored or logged).
struct gamma_order_request {
    std::string token_id;
    gateway::side side = gateway::side::buy;
    decimal size;
    decimal price;
    address wallet;
    std::int64_t signature_type = 0; ///< 0 EOA, 1 proxy, 2 Gnosis safe
    std::int64_t fee_rate_bps = 0;
    std::int64_t expiration = 0;       ///< unix seconds; `gtd` orders only, 0 for none
    std::int64_t nonce = 0;            ///< upstream exchange nonce, normally 0
    std::optional<std::uint64_t> salt; ///< chosen by typed-data
    /// `gtc` (default), `fok`, or `gtd` (with `expiration`); not part of the signed Order.
    std::optional<prediction_time_in_force> time_in_force;
    std::string signature;  ///< empty when absent
    std::string api_key;    ///< empty when absent
    std::string api_secret; ///< empty when absent
    std::string passphrase; ///< empty when absent
};

/// gamma cancel body (CONTRACT §5).
struct gamma_cancel_request {
    std::string order_id;
    address wallet;
    std::string api_key;
    std::string api_secret;
    std::string passphrase;
};

/// Place-order result (CONTRACT §5); `average_price` is null when nothing filled.
struct place_result {
    std::string order_id;
    std::optional<std::string> client_order_id;
    place_status status = place_status::open;
    decimal filled_size;
    std::optional<decimal> average_price;
};

/// Cancel result (spec §2.10).
struct cancel_result {
    std::string order_id;
    cancel_status status = cancel_status::canceled;
};

/// Set-leverage result (CONTRACT §5).
struct leverage_result {
    std::string symbol;
    std::int64_t leverage = 0;
    gateway::margin_mode margin_mode = gateway::margin_mode::cross;
};

/// Typed-data request (CONTRACT §6): `params` is the operation's body without its signature.
struct typed_data_request {
    typed_data_operation operation = typed_data_operation::place_order;
    boost::json::object params;
};

/// Typed-data answer (CONTRACT §6): canonical params, `eth_signTypedData_v4` JSON and digest.
struct typed_data_response {
    boost::json::object params;
    boost::json::object typed_data;
    std::string digest; ///< 0x + 64 hex
};

/// Reads a place-order (or spot order) body.
GATEWAY_DECL result<place_order_request> parse_place_order_request(boost::json::value const& v,
                                                                   strictness mode);
/// Reads a cancel-order body.
GATEWAY_DECL result<cancel_order_request> parse_cancel_order_request(boost::json::value const& v,
                                                                     strictness mode);
/// Reads a set-leverage body.
GATEWAY_DECL result<set_leverage_request> parse_set_leverage_request(boost::json::value const& v,
                                                                     strictness mode);
/// Reads a gamma order body.
GATEWAY_DECL result<gamma_order_request> parse_gamma_order_request(boost::json::value const& v,
                                                                   strictness mode);
/// Reads a gamma cancel body.
GATEWAY_DECL result<gamma_cancel_request> parse_gamma_cancel_request(boost::json::value const& v,
                                                                     strictness mode);
/// Reads a place result.
GATEWAY_DECL result<place_result> parse_place_result(boost::json::value const& v, strictness mode);
/// Reads a cancel result.
GATEWAY_DECL result<cancel_result> parse_cancel_result(boost::json::value const& v,
                                                       strictness mode);
/// Reads a leverage result.
GATEWAY_DECL result<leverage_result> parse_leverage_result(boost::json::value const& v,
                                                           strictness mode);
/// Reads a typed-data request.
GATEWAY_DECL result<typed_data_request> parse_typed_data_request(boost::json::value const& v,
                                                                 strictness mode);
/// Reads a typed-data answer.
GATEWAY_DECL result<typed_data_response> parse_typed_data_response(boost::json::value const& v,
                                                                   strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             place_order_request const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             cancel_order_request const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             set_leverage_request const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             gamma_order_request const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             gamma_cancel_request const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             place_result const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             cancel_result const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             leverage_result const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             typed_data_request const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             typed_data_response const& r);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<place_order_request>
tag_invoke(boost::json::try_value_to_tag<place_order_request>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<cancel_order_request>
tag_invoke(boost::json::try_value_to_tag<cancel_order_request>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<set_leverage_request>
tag_invoke(boost::json::try_value_to_tag<set_leverage_request>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<gamma_order_request>
tag_invoke(boost::json::try_value_to_tag<gamma_order_request>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<gamma_cancel_request>
tag_invoke(boost::json::try_value_to_tag<gamma_cancel_request>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<place_result>
tag_invoke(boost::json::try_value_to_tag<place_result>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<cancel_result>
tag_invoke(boost::json::try_value_to_tag<cancel_result>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<leverage_result>
tag_invoke(boost::json::try_value_to_tag<leverage_result>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<typed_data_request>
tag_invoke(boost::json::try_value_to_tag<typed_data_request>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<typed_data_response>
tag_invoke(boost::json::try_value_to_tag<typed_data_response>, boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/orders.hpp>
