#pragma once
/**
 * @file beta_trading.hpp
 * Pure pieces of beta's signed writes (CONTRACT §2, §5, §6.2; upstreams/beta.md §4.2-4.3, §5,
 * §7): the market filters the SDK's derivation checks, and what Aster's answers to a signed
 * `order` (POST, DELETE) and `leverage` become. No I/O here; beta_signing.cpp holds the hooks.
 *
 * Decisions where the contract is silent:
 * - Place result: the upstream's order object (`newOrderRespType` is not part of the signed
 *   string, so the default answer): FILLED -> filled; PARTIALLY_FILLED, or NEW with some
 *   `executedQty` -> partially_filled; NEW -> open (a stop waiting for its trigger too);
 *   EXPIRED/CANCELED with some fill -> partially_filled (the rest of an IOC or market order was
 *   canceled), without any -> 400 ORDER_REJECTED (nothing to match, or a post-only order that
 *   would have crossed); REJECTED -> ORDER_REJECTED. averagePrice = avgPrice, else
 *   cumQuote / executedQty, null when nothing filled. clientOrderId is the body's.
 * - Upstream refusals ({code,msg}, any 4xx): -2011 and -2013 on a cancel -> 404
 *   ORDER_NOT_FOUND; -4225 -> 401 INVALID_NONCE; -1022 -> 401 SIGNATURE_ERROR; -2015/-1002 (the
 *   signer is not an API wallet the account approved) -> 401 SIGNATURE_ERROR naming the signer;
 *   -1121 -> 404 MARKET_NOT_FOUND; -4028 -> 400 MAX_LEVERAGE_EXCEEDED; every other one (margin,
 *   balance, reduce-only, post-only, would-trigger, filters, precision...) -> 400
 *   ORDER_REJECTED carrying the upstream's reason (`details.reason`, `details.upstreamCode`).
 * - A 5xx answer (beta.md §2: 503 means the execution status is unknown; the other 5xx are
 *   treated alike, never as a refusal) -> 502 UPSTREAM_ERROR with `details.outcomeUnknown`
 *   and `details.upstreamStatus`: the pipeline then says where to look. 429/418 are the
 *   channel's (503 PROVIDER_UNAVAILABLE with Retry-After, nothing executed).
 */
#include "providers/beta/beta_map.hpp"
#include "upstream/answer.hpp"

#include <gateway/providers/beta/orders.hpp>
#include <gateway/result.hpp>
#include <gateway/types/orders.hpp>

#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace gateway::server::beta {

/// The SDK's derivation rules of a learned market (its exchangeInfo filters, its bracket).
sign::beta::market_rules rules_of(perp_market const& m);
sign::beta::market_rules rules_of(spot_market const& m);

/// Which signed write an answer belongs to.
enum class write_kind { place, cancel, leverage };

/**
 * A non-2xx answer to a signed write as a contract error (see the file comment). `name` is the
 * channel's ("beta", "beta testnet spot"), `signer` the address that signed.
 */
api_error write_error(std::string const& name, upstream_answer const& a, write_kind kind,
                      address const& signer);

/**
 * The upstream's order object answering a new order -> the place result (see the file
 * comment). `size` is the order's, `client_order_id` the body's.
 * @par Errors ORDER_REJECTED (expired unfilled, rejected); an error body as `write_error`;
 * UPSTREAM_ERROR for a body that is neither, or that executed more than `size`.
 */
result<place_result> to_place_result(std::string const& name, boost::json::value const& order,
                                     decimal const& size,
                                     std::optional<std::string> const& client_order_id);

/// The order object answering a cancel -> `{orderId, canceled}`. @par Errors an error body as
/// `write_error`; UPSTREAM_ERROR for a body that is neither.
result<cancel_result> to_cancel_result(std::string const& name, boost::json::value const& order,
                                       std::string const& order_id);

/// `{"leverage":N,"maxNotionalValue","symbol"}` -> the leverage result of `symbol` (the
/// gateway's name), cross margin. @par Errors an error body as `write_error`; UPSTREAM_ERROR
/// for a body that is neither.
result<leverage_result> to_leverage_result(std::string const& name,
                                           boost::json::value const& answer,
                                           std::string const& symbol);

} // namespace gateway::server::beta
