#pragma once
/**
 * @file orders.hpp
 * CONTRACT §6.3: the upstream CTF Exchange `Order` a gateway gamma order body stands for, its
 * amounts (`upstreams/gamma.md` §5.2), and the SDK signer that fills `salt`, `wallet` and
 * `signature` of a request.
 *
 * The derivation is deterministic and shared by both sides: the SDK signs the Order it derives
 * from a body, and the gateway derives the same Order from the same body to verify the
 * signature before one `POST /order`. The Order is: `maker` = `signer` = `wallet`
 * (signatureType 0, an EOA trading its own funds), `taker` zero, `tokenId`, `side`, the amounts
 * below, and the body's `salt`, `expiration`, `nonce`, `feeRateBps`, `signatureType`. It is
 * signed for the CTF Exchange, or the Neg-Risk CTF Exchange for a neg-risk token, on Polygon
 * (chainId 137).
 *
 * Amounts use integer math and are exact: `s_c = size x 100`, `p4 = price x 10^4`,
 * `usd = s_c x p4` (USDC units, 6 decimals), `shares = s_c x 10^4` (token units, 6 decimals);
 * BUY gives `usd` for `shares` (makerAmount, takerAmount), SELL the reverse. Where the official
 * clients round (price to the tick's decimals, size floored to 2 decimals), the gateway
 * refuses: a value that would be rounded is a VALIDATION_ERROR naming the field.
 *
 * Everything but `new_salt` and `signer::sign` (which draw random salts) is pure; all of it is
 * thread-safe and reports errors as `result`s.
 */
#include <gateway/config.hpp>
#include <gateway/providers/gamma/signing.hpp>
#include <gateway/result.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/orders.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>

namespace gateway::sign::gamma {

/// What the Order of a token depends on (the gateway reads them from the CLOB's `/book`,
/// `/tick-size` and `/neg-risk`, gamma.md §3).
struct token_rules {
    decimal tick_size;     ///< the token's price grid, e.g. `0.01`
    bool neg_risk = false; ///< signs for the Neg-Risk CTF Exchange
    decimal min_size;      ///< the smallest order in shares; 0 = unknown (not checked)
};

/// makerAmount and takerAmount of an Order, in 6-decimal units.
struct amounts {
    std::uint64_t maker = 0, taker = 0;
};

/**
 * gamma.md §5.2's amounts of a limit order of `size` shares at `price` (see the file comment),
 * e.g. BUY 0.56 x 21.04 -> {11782400, 21040000}.
 * @par Errors VALIDATION_ERROR, never a rounding:
 * - naming `price`: not a multiple of `tick_size`, or outside [tick, 1 - tick], or a tick
 *   size that is not positive, below 0.5 and of at most 4 decimals;
 * - naming `size`: not > 0, more than 2 decimals, or amounts that overflow 64 bits.
 */
GATEWAY_DECL result<amounts> order_amounts(gateway::side side, decimal const& price,
                                           decimal const& size, decimal const& tick_size);

/**
 * The upstream Order a gateway body stands for (see the file comment). `signature`, `apiKey`,
 * `apiSecret`, `passphrase` and `timeInForce` are not read.
 * @par Errors VALIDATION_ERROR naming the field:
 * - `signatureType` unless 0 (1 and 2 sign for a proxy or Safe funder, and the gateway's body
 *   has no funder field);
 * - `salt` when missing or not below 2^53 (the official clients carry it as a JS number);
 * - `wallet` when it is the zero address;
 * - `tokenId` unless decimal digits below 2^256;
 * - `expiration`, `nonce`, `feeRateBps` when negative;
 * - `size` below `rules.min_size` (when that is known);
 * - as `order_amounts` for `price` and `size`.
 */
GATEWAY_DECL result<order> order_of(gamma_order_request const& r, token_rules const& rules);

/// The largest salt `order_of` accepts: 2^53 - 1.
inline constexpr std::uint64_t max_salt = (std::uint64_t{1} << 53) - 1;

/// A random salt (OpenSSL's CSPRNG) in [1, 2^53 - 1]. Thread-safe.
GATEWAY_DECL std::uint64_t new_salt();

/**
 * The SDK signer of gamma orders: build the request, `sign` it, send it.
 *
 * `sign` fills `salt` when it is missing (`new_salt`), `wallet` when it is the zero address
 * (the key's address), and `signature` (`0x` + 130 hex) over `order_of(r, rules)` on the
 * exchange `rules.neg_risk` selects, chainId 137. The request is changed only on success. The
 * credentials are not touched: set `apiKey`, `apiSecret`, `passphrase` yourself.
 */
class signer {
public:
    GATEWAY_DECL explicit signer(private_key key);

    /// The key's address.
    gateway::address const& address() const noexcept { return address_; }

    /**
     * @par Errors as `order_of`, then `validate(r, body_kind::typed_data_params)`; VALIDATION_ERROR
     * naming `wallet` when it is set to an address other than the key's (signatureType 0 orders
     * are signed by the wallet itself).
     */
    GATEWAY_DECL result<void> sign(gamma_order_request& r, token_rules const& rules) const;

    /**
     * Signs an `eth_signTypedData_v4` JSON (what the gateway's typed-data endpoint returns).
     * @return `0x` + 130 hex (`r || s || v`, v 27/28).
     * @par Errors VALIDATION_ERROR for invalid typed data.
     */
    GATEWAY_DECL result<std::string> sign_typed_data(boost::json::value const& typed_data) const;

private:
    private_key key_;
    gateway::address address_;
};

} // namespace gateway::sign::gamma

#include <gateway/providers/gamma/impl/orders.hpp>
