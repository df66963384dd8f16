#pragma once
/**
 * @file gamma_trading.hpp
 * Pure pieces of gamma's trading (spec 4.6; CONTRACT §2, §4, §5, §6.3; upstreams/gamma.md §3.2,
 * §4-6): a token's trading rules from its book, and what the CLOB answers to `POST /order`,
 * `DELETE /order`, `/data/orders` and `/data/trades` in contract types. No I/O, no clock;
 * gamma_orders.cpp holds the calls.
 *
 * Decisions where the contract is silent:
 * - Token rules: the CLOB's `/book` (`tick_size`, `neg_risk`, `min_order_size`), the one read
 *   that carries all three (`/tick-size` weighs 45, `/book` 6) and the one the orderbook
 *   endpoint caches; gamma.md §5.3 names either.
 * - Credentials refused (any 401: `Unauthorized/Invalid api key`: an unknown key, a wrong
 *   secret or passphrase, a key of another wallet) -> 401 INVALID_CREDENTIALS. The message
 *   names the three fields, never their values, nor the upstream's text (which might).
 * - Order refusals (a 4xx other than 401, or a 200 with `success` false; its `error` text or
 *   `errorMsg` code) -> 400 ORDER_REJECTED with the upstream's reason (`details.reason`). 425
 *   and 503 (matching engine restarting, trading disabled or cancel-only: nothing executed) ->
 *   503 PROVIDER_UNAVAILABLE with Retry-After. Any other 5xx (500 "order timed out") -> 502
 *   UPSTREAM_ERROR with `details.outcomeUnknown`: the order may exist.
 * - Place result: `orderID` (the Order's EIP-712 digest); shares filled are `takingAmount` of a
 *   BUY (`makingAmount` of a SELL), USDC the other one (`""` is 0); `averagePrice` = USDC /
 *   shares (at most 6 decimals, toward zero), null when nothing filled. Status: all of `size`
 *   filled -> filled; some -> partially_filled (the rest rests); none -> open (`live`, and
 *   `delayed`/`unmatched`, which the upstream accepted). A `matched` answer without amounts
 *   filled the whole order at most at its price: filled, average the order's price.
 * - Cancel: the id in `canceled` -> canceled; in `not_canceled` (or `notCanceled`) -> 404
 *   ORDER_NOT_FOUND with the upstream's reason; a 404 too; other refusals ORDER_REJECTED.
 * - Open order (`/data/orders` item): orderId `id`, symbol `asset_id`, side from `side`, type
 *   limit, price, size `original_size`, filledSize `size_matched`, status open, timestamp
 *   `created_at` (seconds) x 1000; clientOrderId and triggerPrice null.
 * - Fills (`/data/trades` items): a trade gives `wallet` a taker fill when `trader_side` is
 *   TAKER and its `maker_address` is the wallet (id: the trade's; orderId `taker_order_id`;
 *   side, price, size: the trade's), and a maker fill per `maker_orders[]` item of the wallet
 *   (id: `<trade id>:<order id>`; side, price, `matched_amount`: the item's). The fee is the
 *   CTF Exchange's at the fill's price p and the order's `fee_rate_bps`: a BUY pays
 *   bps/10^4 x min(p, 1-p) / p x size in the token it bought (feeAsset: the token id), a SELL
 *   bps/10^4 x min(p, 1-p) x size in USDC; timestamp `match_time` (seconds) x 1000; closedPnl
 *   null.
 */
#include "upstream/answer.hpp"

#include <gateway/providers/gamma/orders.hpp>
#include <gateway/result.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/orders.hpp>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::gamma {

/**
 * The trading rules of a token from its `/book` answer: `tick_size` (a decimal string or
 * number), `neg_risk`, `min_order_size` (0 when absent). @par Errors UPSTREAM_ERROR naming
 * `name` when the tick size is missing or not positive.
 */
result<sign::gamma::token_rules> token_rules_of(std::string const& name,
                                                boost::json::value const& book);

/// 401 INVALID_CREDENTIALS: `name` ("gamma CLOB") refused the credentials.
api_error credentials_refused(std::string const& name);

/// Which CLOB write an answer belongs to.
enum class clob_write { place, cancel };

/// A non-2xx answer to `POST /order` or `DELETE /order` as a contract error (file comment).
api_error write_error(std::string const& name, upstream_answer const& a, clob_write kind);

/**
 * A 2xx answer to `POST /order` -> the place result (file comment). `s` and `size`, `price` are
 * the order's. @par Errors ORDER_REJECTED (`success` false); UPSTREAM_ERROR for a body that is
 * not an order response.
 */
result<place_result> to_place_result(std::string const& name, boost::json::value const& answer,
                                     gateway::side s, decimal const& size, decimal const& price);

/// A 2xx answer to `DELETE /order` for `order_id` -> `{orderId, canceled}`.
/// @par Errors ORDER_NOT_FOUND; UPSTREAM_ERROR for a body that does not mention the order.
result<cancel_result> to_cancel_result(std::string const& name, boost::json::value const& answer,
                                       std::string const& order_id);

/// One page of `/data/orders` or `/data/trades`: its items and the cursor of the next one
/// (empty at the end: `LTE=`, or none given).
struct clob_page {
    boost::json::array const* items = nullptr;
    std::string next_cursor;
};
/// @par Errors UPSTREAM_ERROR naming `name` when `v` is not `{"data":[...], ...}`.
result<clob_page> clob_page_of(std::string const& name, boost::json::value const& v);

/// A `/data/orders` item -> an open order (file comment). @par Errors UPSTREAM_ERROR.
result<open_order> to_open_order(std::string const& name, boost::json::value const& item);

/// The fills of `wallet` in one `/data/trades` item (file comment). @par Errors UPSTREAM_ERROR.
result<std::vector<fill>> fills_of(std::string const& name, boost::json::value const& trade,
                                   address const& wallet);

/// Whether `id` can be a CLOB order id: `0x` + 64 hex digits.
bool is_order_id(std::string_view id) noexcept;

} // namespace gateway::server::gamma
