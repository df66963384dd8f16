#pragma once
// Pure pieces of alpha's signed writes (CONTRACT §5-6.1, upstreams/alpha.md §4): the /exchange
// envelope the gateway forwards and the mapping of the upstream's answers to the contract.
// No I/O here; the routes (alpha_trading_routes.cpp) verify, guard the nonce and send.
#include <gateway/result.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/orders.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::server::alpha {

/**
 * `{"action","nonce","signature":{"r","s","v"},"vaultAddress":null}` (alpha.md §4.1) for a
 * signature already checked to be `0x` + 130 hex.
 * @par Errors SIGNATURE_ERROR naming `signature` when it is not.
 */
result<boost::json::object> exchange_envelope(boost::json::object const& action, std::int64_t nonce,
                                              std::string_view signature);

/**
 * A whole-action refusal `{"status":"err","response":text}` as a contract error: an unknown
 * signer or an unrecoverable signature is 401 SIGNATURE_ERROR, a nonce complaint 401
 * INVALID_NONCE, anything else 400 ORDER_REJECTED carrying the upstream's text.
 */
api_error exchange_refusal(std::string_view text);

/// What one order of an `order` answer said.
struct placed_order {
    /// The contract result; `order_id` is empty when the upstream answered a bare
    /// "waitingForTrigger"/"waitingForFill" without an oid (the caller looks it up).
    place_result result;
};

/**
 * The answer to an `order` action of one order (alpha.md §4.2): `resting` -> open,
 * `filled` -> filled, or partially_filled when `totalSz` < `size` (the rest was canceled or
 * rests), a per-order `error` -> 400 ORDER_REJECTED with the upstream reason.
 * @par Errors as above; `exchange_refusal` for `status:"err"`; UPSTREAM_ERROR for a body that
 * is neither.
 */
result<placed_order> to_place_result(boost::json::value const& answer, decimal const& size,
                                     std::optional<std::string> const& client_order_id);

/**
 * The answer to a `cancel` action of one order: `"success"` -> canceled; the missing-order
 * error -> 404 ORDER_NOT_FOUND; another per-order error -> 400 ORDER_REJECTED.
 */
result<cancel_result> to_cancel_result(boost::json::value const& answer,
                                       std::string const& order_id);

/// The answer to `updateLeverage`: `{"status":"ok","response":{"type":"default"}}`.
result<void> to_leverage_ok(boost::json::value const& answer);

} // namespace gateway::server::alpha
