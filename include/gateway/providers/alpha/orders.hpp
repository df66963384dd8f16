#pragma once
/**
 * @file alpha_orders.hpp
 * CONTRACT §6.1: the alpha (Hyperliquid) L1 action a gateway body derives to, the typed data a
 * client signs for it, and the SDK signer that fills `nonce` and `signature` of a request.
 *
 * The derivation is deterministic and shared by both sides: the SDK signs what it derives, and
 * the gateway derives the same action from the same body to verify the signature
 * (`recover_signer`) before forwarding it upstream. Prices and sizes are checked against the
 * market's tick and lot rules (`upstreams/alpha.md` §5.5) and refused, never rounded.
 *
 * Everything but `signer::sign` (which reads the clock when `nonce` is 0) is pure; all of it is
 * thread-safe and reports errors as `result`s.
 */
#include <gateway/providers/alpha/signing.hpp>
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/nonce.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/orders.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gateway::sign::alpha {

/**
 * What the derivation needs to know about a market. The gateway learns it from
 * `meta`/`spotMeta`/`perpDexs`; an SDK user gets it from the gateway or hard-codes it.
 */
struct market_rules {
    /// CONTRACT §6.1 asset id: perps = index in `meta`; `dex:SYM` = 100000 + dex index x 10000
    /// + index in that dex; spot `BASE/QUOTE` = 10000 + spot pair index.
    std::uint32_t asset = 0;
    /// `szDecimals`: sizes carry at most this many decimals, prices at most
    /// `(spot ? 8 : 6) - sz_decimals`.
    unsigned sz_decimals = 0;
    /// A spot pair (only `market` and `limit` orders; 8 price decimals instead of 6).
    bool spot = false;
    /// Perps maximum leverage; 0 = unknown (not checked).
    unsigned max_leverage = 0;
};

/// The rules of a market as the gateway lists them (`client::markets`); `spot` for the spot
/// vertical's list.
inline market_rules rules_of(market_info const& m, bool spot) {
    return market_rules{static_cast<std::uint32_t>(m.asset.value_or(0)),
                        static_cast<unsigned>(m.sz_decimals.value_or(0)), spot,
                        static_cast<unsigned>(m.max_leverage)};
}

/**
 * placeOrder -> `{"type":"order","orders":[{"a","b","p","s","r","t"[,"c"]}],"grouping":"na"}`
 * in this exact key order. `t` is `{"limit":{"tif":"Gtc"|"Ioc"|"Alo"}}` for limit (from
 * `timeInForce`, default gtc), `{"limit":{"tif":"Ioc"}}` for market,
 * `{"trigger":{"isMarket":true,"triggerPx","tpsl":"sl"}}` for stop_market and the same with
 * `isMarket:false` for stop_limit. `c` (clientOrderId, lower-cased) only when given.
 *
 * `wallet`, `signer`, `signature`, `nonce` and `symbol` are not read.
 * @par Errors
 * - UNSUPPORTED_ORDER_TYPE naming `type`: trailing_stop, or a stop type on a spot market;
 * - VALIDATION_ERROR naming the field: `price` missing (alpha needs it for every type: for
 *   market and stop_market it is the worst acceptable price), `triggerPrice` missing on a
 *   stop type or present on another, `callbackRate`/`activationPrice` present,
 *   `timeInForce` on market or stop_market (and anything but gtc on stop_limit: alpha's
 *   trigger orders have no time in force), a malformed `clientOrderId`, a `size` that is not
 *   > 0 or has more than `sz_decimals` decimals, a `price`/`triggerPrice` that is not > 0 or
 *   breaks the tick rules.
 */
GATEWAY_DECL result<boost::json::object> order_action(place_order_request const& r,
                                                      market_rules const& m);

/**
 * cancelOrder -> `{"type":"cancel","cancels":[{"a","o"}]}`, `o` = `orderId` as an integer.
 * @par Errors VALIDATION_ERROR naming `orderId` unless it is decimal digits fitting 64 bits.
 */
GATEWAY_DECL result<boost::json::object> cancel_action(cancel_order_request const& r,
                                                       market_rules const& m);

/**
 * setLeverage -> `{"type":"updateLeverage","asset","isCross","leverage"}`,
 * `isCross` = `marginMode == cross`.
 * @par Errors VALIDATION_ERROR naming `leverage` unless it is > 0; MAX_LEVERAGE_EXCEEDED
 * (naming `leverage`, message and `details.maxLeverage` giving the maximum) above
 * `m.max_leverage` when that is known.
 */
GATEWAY_DECL result<boost::json::object> leverage_action(set_leverage_request const& r,
                                                         market_rules const& m);

/// The `eth_signTypedData_v4` JSON a client signs for an action, and its EIP-712 digest.
struct signing_payload {
    boost::json::value typed_data;
    hash256 digest{};
};

/**
 * The phantom-agent typed data of `action` (source `"a"`, `"b"` when `testnet`), connectionId
 * over `nonce` with no vault and no expiresAfter (CONTRACT §6.1).
 * @par Errors VALIDATION_ERROR naming `nonce` if negative; as `action_hash` otherwise.
 */
GATEWAY_DECL result<signing_payload> signing_payload_for(boost::json::object const& action,
                                                         std::int64_t nonce, bool testnet);

/**
 * The worst price of a market order on alpha (CONTRACT §5): `mid` x 1.05 for a buy, x 0.95 for
 * a sell, computed exactly and rounded with `round_price` to the market's tick rules.
 * @par Errors VALIDATION_ERROR naming `price` if `mid` is not > 0 or the result rounds to 0.
 */
GATEWAY_DECL result<decimal> market_order_price(decimal const& mid, gateway::side s,
                                                market_rules const& m);

/**
 * The SDK signer of alpha writes: build the request, `sign` it, send it.
 *
 * The key is an agent approved by the wallet, or the wallet's own key. `sign` fills `nonce`
 * when it is 0 (milliseconds, strictly increasing within the process), `wallet` when it is the
 * zero address (the signer's own address: signing as the wallet itself) and `signature`
 * (`0x` + 130 hex). The request is changed only on success.
 */
class signer {
public:
    explicit signer(private_key key, bool testnet = false);

    /// The signer's address (the agent's, or the wallet's when it signs for itself).
    gateway::address const& address() const noexcept { return address_; }
    /// Whether it signs with the testnet phantom-agent source `"b"`.
    bool testnet() const noexcept { return testnet_; }

    /// Errors: as `order_action`, then `validate(r, body_kind::typed_data_params)`.
    GATEWAY_DECL result<void> sign(place_order_request& r, market_rules const& m) const;
    /// Errors: as `cancel_action`, then `validate(r, body_kind::typed_data_params)`.
    GATEWAY_DECL result<void> sign(cancel_order_request& r, market_rules const& m) const;
    /// Errors: as `leverage_action`, then `validate(r, body_kind::typed_data_params)`.
    GATEWAY_DECL result<void> sign(set_leverage_request& r, market_rules const& m) const;

    /**
     * Signs an `eth_signTypedData_v4` JSON (what the gateway's typed-data endpoint returns).
     * @return `0x` + 130 hex (`r || s || v`, v 27/28).
     * @par Errors VALIDATION_ERROR for invalid typed data.
     */
    GATEWAY_DECL result<std::string> sign_typed_data(boost::json::value const& typed_data) const;

    /// The signature of an already derived action at `nonce` (`0x` + 130 hex).
    GATEWAY_DECL result<std::string> sign_action(boost::json::object const& action,
                                                 std::int64_t nonce) const;

private:
    private_key key_;
    gateway::address address_;
    bool testnet_ = false;
};

/**
 * The gateway side: the address that signed `action` at `nonce` with `signature`
 * (`0x` + 130 hex, v 27 or 28). The caller then checks it is `wallet` or one of its agents.
 * @par Errors SIGNATURE_ERROR naming `signature` for a malformed signature or one from which
 * no key recovers; VALIDATION_ERROR naming `nonce` if negative.
 */
GATEWAY_DECL result<gateway::address> recover_signer(boost::json::object const& action,
                                                     std::int64_t nonce, std::string_view signature,
                                                     bool testnet);

/// A nonce for a new request (gateway/sign/nonce.hpp: ms, strictly increasing, thread-safe).
using gateway::sign::next_nonce_ms;

} // namespace gateway::sign::alpha

#include <gateway/providers/alpha/impl/orders.hpp>
