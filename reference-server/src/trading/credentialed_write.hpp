#pragma once
/**
 * @file credentialed_write.hpp
 * The one pipeline of a credentialed prediction write (spec 4.6, 5.2; CONTRACT §5, §6.3; gamma)
 * and of the typed-data request that prepares one. It owns CONTRACT §2's order of checks:
 *
 *   body (415 / INVALID_JSON: the route) -> fields (VALIDATION_ERROR, the SDK's `validate`)
 *   -> the credentials moved out of the body into the wiping `api_credentials` (the body's own
 *   copies wiped) -> token, its rules and the derivation (provider: MARKET_NOT_FOUND,
 *   VALIDATION_ERROR) -> the signer recovered from `signature` over the derived digest, which
 *   must be `wallet` (SIGNATURE_ERROR naming both addresses) -> one upstream request carrying
 *   the credentials, never retried (provider), its answer mapped; an unknown outcome says where
 *   to look (trading/write_outcome.hpp).
 *
 * There is no nonce journal here: the credentials authenticate the request and the signed
 * Order's salt makes it unique upstream (a replayed order is the upstream's duplicate). The
 * credentials never outlive the request: no log line, cache key, error message or file sees
 * them.
 */
#include "providers/provider.hpp"
#include "trading/signed_write.hpp"

#include <gateway/types/orders.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace gateway::server {

/**
 * `POST /v1/predictions/{provider}/orders`: the order body (a JSON object) checked, verified and
 * placed (see the file comment).
 */
async_result<place_result> place_prediction_order(call_context ctx, predictions_trading& provider,
                                                  write_target target, boost::json::value body);

/// `DELETE /v1/predictions/{provider}/orders`: `{orderId, wallet, apiKey, apiSecret,
/// passphrase}` checked, then one upstream cancel.
async_result<cancel_result> cancel_prediction_order(call_context ctx, predictions_trading& provider,
                                                    write_target target, boost::json::value body);

/**
 * `POST /v1/predictions/{provider}/typed-data` (CONTRACT §6, §6.3): `{"operation":"placeOrder",
 * "params":{...}}` -> the canonical params (salt picked), the Order typed data and its digest.
 * Params carry no credentials (VALIDATION_ERROR naming the field: an answer never echoes one);
 * a `signature` in them is ignored.
 */
async_result<typed_data_response> prediction_typed_data(call_context ctx,
                                                        predictions_trading& provider,
                                                        write_target target,
                                                        boost::json::value body);

/**
 * The credentials of a read, from the three values its headers carried (CONTRACT §4); each
 * `std::nullopt` or empty is 400 VALIDATION_ERROR naming its header (`X-Gamma-Api-Key`,
 * `X-Gamma-Api-Secret`, `X-Gamma-Passphrase`), in that order.
 */
result<api_credentials> read_credentials(std::optional<std::string_view> api_key,
                                         std::optional<std::string_view> secret,
                                         std::optional<std::string_view> passphrase);

/// The headers of `read_credentials`.
inline constexpr std::string_view api_key_header = "X-Gamma-Api-Key";
inline constexpr std::string_view api_secret_header = "X-Gamma-Api-Secret";
inline constexpr std::string_view passphrase_header = "X-Gamma-Passphrase";

} // namespace gateway::server
