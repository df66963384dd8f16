#pragma once
/**
 * @file orders.hpp
 * CONTRACT §6.2: the beta (Aster v3) parameter string a gateway body derives to, the market
 * filters it is checked against, the typed data a client signs for it, and the SDK signer that
 * fills `nonce`, `wallet`, `signer` and `signature` of a request.
 *
 * The derivation is deterministic and shared by both sides: the SDK signs what it derives, and
 * the gateway derives the same string from the same body to verify the signature before
 * forwarding it upstream. Parameters, in this order, each only when set: `symbol` (perps
 * BASE+`USDT`, spot `BASE/QUOTE` as BASEQUOTE), `side`, `type`, `timeInForce` (always for limit
 * and stop_limit, default GTC), `quantity`, `price`, `stopPrice`, `callbackRate`,
 * `activationPrice`, `reduceOnly` (`true` only when set), `newClientOrderId`; then `nonce` (the
 * body's milliseconds x 1000), `user` (wallet) and `signer` (the body's, default the wallet).
 * Cancel: `symbol`, `orderId`; leverage: `symbol`, `leverage`; then the same three.
 *
 * Prices and sizes are checked against the market's filters (upstreams/beta.md §4.1: tick,
 * step, minimum and maximum, minimum notional, percent price) and refused with a
 * VALIDATION_ERROR naming the field, never rounded.
 *
 * Everything but `signer::sign` and `next_nonce_ms` (which read the clock) is pure; all of it
 * is thread-safe and reports errors as `result`s.
 */
#include <gateway/config.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/nonce.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/util/percent.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::sign::beta {

/**
 * A market's filters (upstreams/beta.md §4.1). Zero means the filter is off or unknown. The
 * gateway learns them from exchangeInfo and leverageBracket; an SDK user gets the listed ones
 * from `client::markets` (`rules_of`).
 */
struct market_rules {
    /// A spot pair (`BASE/QUOTE`; market and limit orders only, no reduce-only, no leverage).
    bool spot = false;
    decimal tick_size, min_price, max_price;                  ///< PRICE_FILTER
    decimal step_size, min_qty, max_qty;                      ///< LOT_SIZE
    decimal market_step_size, market_min_qty, market_max_qty; ///< MARKET_LOT_SIZE
    decimal min_notional;                                     ///< MIN_NOTIONAL
    std::optional<decimal> multiplier_up, multiplier_down;    ///< PERCENT_PRICE
    /// Perps maximum leverage (leverage bracket 1); 0 = unknown (not checked).
    unsigned max_leverage = 0;
};

/// The rules of a market as the gateway lists them (`client::markets`): tick, step, minimum
/// notional and maximum leverage; `spot` for the spot vertical's list.
GATEWAY_DECL market_rules rules_of(market_info const& m, bool spot);

/// The callbackRate range of a trailing stop, in percent (beta.md §4.3).
inline constexpr std::string_view min_callback_rate = "0.1";
inline constexpr std::string_view max_callback_rate = "5";

/**
 * The upstream symbol: a perp's base asset + `USDT` (`BTC` -> `BTCUSDT`), a spot pair's base
 * and quote joined (`BTC/USDT` -> `BTCUSDT`).
 * @par Errors VALIDATION_ERROR naming `symbol` when it is not of the vertical's form.
 */
GATEWAY_DECL result<std::string> upstream_symbol(std::string_view symbol, bool spot);

/**
 * The business parameters of a new order (see the file comment), after the market's filters.
 * `mark` (the market's mark or last price, when known) enables the percent-price check and
 * the minimum notional of market orders; without it those are left to the upstream.
 * `wallet`, `signer`, `signature` and `nonce` are not read.
 * @par Errors
 * - UNSUPPORTED_ORDER_TYPE naming `type`: stop and trailing types on a spot market;
 * - VALIDATION_ERROR naming the field: `price` on a market, stop_market or trailing_stop order
 *   (beta's market orders carry no price), a missing one on limit types, `triggerPrice`,
 *   `callbackRate`, `activationPrice` or `timeInForce` where the type takes none,
 *   `callbackRate` outside 0.1-5, `reduceOnly` on spot, a malformed `clientOrderId`, a `size`
 *   off the step or outside the lot's minimum and maximum, a price off the tick or outside the
 *   price filter, a notional below the market minimum (naming `size`, unless reduce-only), a
 *   limit price beyond the percent-price band around `mark` (naming `price`).
 */
GATEWAY_DECL result<query_params> order_params(place_order_request const& r, market_rules const& m,
                                               std::optional<decimal> const& mark = std::nullopt);

/**
 * `symbol`, `orderId` of a cancel.
 * @par Errors VALIDATION_ERROR naming `orderId` unless it is decimal digits fitting 64 bits.
 */
GATEWAY_DECL result<query_params> cancel_params(cancel_order_request const& r,
                                                market_rules const& m);

/**
 * `symbol`, `leverage` of a leverage change.
 * @par Errors VALIDATION_ERROR naming `symbol` on a spot market, `leverage` unless 1-125,
 * `marginMode` unless cross (beta changes the margin mode with another signed request);
 * MAX_LEVERAGE_EXCEEDED naming `leverage` (message and `details.maxLeverage` give the maximum)
 * above `m.max_leverage` when that is known.
 */
GATEWAY_DECL result<query_params> leverage_params(set_leverage_request const& r,
                                                  market_rules const& m);

/// What a client signs for a request, and the string the gateway sends with the signature.
struct signing_payload {
    std::string msg;               ///< `k=v&...&nonce=..&user=..&signer=..`
    boost::json::value typed_data; ///< `eth_signTypedData_v4` JSON of `Message{msg}`
    hash256 digest{};              ///< its EIP-712 digest
};

/**
 * The signed message of `business` for `wallet` at `nonce_ms` (sent as microseconds,
 * `nonce_ms` x 1000), signed by `signer` (default `wallet`), on mainnet (chainId 1666) or
 * testnet (714), with its typed data and digest.
 * @par Errors VALIDATION_ERROR naming `nonce` unless it is > 0 and fits in microseconds.
 */
GATEWAY_DECL result<signing_payload> signing_payload_for(query_params const& business,
                                                         std::int64_t nonce_ms,
                                                         gateway::address const& wallet,
                                                         std::optional<gateway::address> signer,
                                                         bool testnet);

/**
 * The SDK signer of beta writes: build the request, `sign` it, send it.
 *
 * The key is the wallet's own or an API wallet (agent) the wallet approved upstream. `sign`
 * fills `nonce` when it is 0 (milliseconds, strictly increasing within the process), `wallet`
 * when it is the zero address (the key's own address), `signer` when the key is not the
 * wallet's (the agent's address), and `signature` (`0x` + 130 hex). The request is changed
 * only on success.
 */
class signer {
public:
    explicit signer(private_key key, bool testnet = false);

    /// The key's address.
    gateway::address const& address() const noexcept { return address_; }
    /// Whether it signs in the testnet domain (chainId 714).
    bool testnet() const noexcept { return testnet_; }

    /// Errors: as `order_params` (no mark: the gateway checks the percent price), then
    /// `validate(r, body_kind::typed_data_params)`.
    GATEWAY_DECL result<void> sign(place_order_request& r, market_rules const& m) const;
    /// Errors: as `cancel_params`, then `validate`.
    GATEWAY_DECL result<void> sign(cancel_order_request& r, market_rules const& m) const;
    /// Errors: as `leverage_params`, then `validate`.
    GATEWAY_DECL result<void> sign(set_leverage_request& r, market_rules const& m) const;

    /**
     * Signs an `eth_signTypedData_v4` JSON (what the gateway's typed-data endpoint returns).
     * @return `0x` + 130 hex (`r || s || v`, v 27/28).
     * @par Errors VALIDATION_ERROR for invalid typed data.
     */
    GATEWAY_DECL result<std::string> sign_typed_data(boost::json::value const& typed_data) const;

private:
    private_key key_;
    gateway::address address_;
    bool testnet_ = false;
};

/// A nonce for a new request (gateway/sign/nonce.hpp: ms, strictly increasing, thread-safe).
using gateway::sign::next_nonce_ms;

} // namespace gateway::sign::beta

#include <gateway/providers/beta/impl/orders.hpp>
