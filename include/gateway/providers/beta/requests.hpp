#pragma once
/**
 * @file requests.hpp
 * Pure builders of beta's (Aster's) REST request targets, `upstreams/beta.md` §3-5: the one place
 * that spells the upstream's paths, the symbol mapping and the v3 signed query string, used by
 * the gateway and by anyone testing against mock-beta. No I/O; the nonce is the caller's.
 */
#include <gateway/config.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>
#include <gateway/util/percent.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gateway::wire::beta {

/// Path prefixes of the two REST upstreams (beta.md §1): futures (perps, stock and commodity
/// perps) and spot. They live on different hosts upstream; mock-beta serves both on one port.
inline constexpr std::string_view futures_prefix = "/fapi/v3/";
inline constexpr std::string_view spot_prefix = "/api/v3/";

/// Every perp is quoted and margined in USDT (beta.md §2): the gateway names it by its base.
inline constexpr std::string_view perp_quote = "USDT";

/// The upstream symbol of a perp named by its base asset (`BTC` -> `BTCUSDT`, `TSLA` ->
/// `TSLAUSDT`).
GATEWAY_DECL std::string perp_symbol(std::string_view base) {
    return std::string(base) + std::string(perp_quote);
}

/// `path` (`/fapi/v3/depth`) with its query (`?symbol=BTCUSDT&limit=20`; nothing when empty).
GATEWAY_DECL std::string target(std::string_view path, query_params const& query) {
    return std::string(path) + util::encode_query(query);
}

/**
 * The message a v3 signed request signs (beta.md §3.1 steps 1-3): the business parameters as
 * sent (`k=v&...`, each side percent-encoded, which is the identity for symbols, decimals and
 * addresses), then `nonce` (microseconds), `user` and `signer`.
 */
GATEWAY_DECL std::string signed_message(query_params const& business, std::uint64_t nonce_us,
                                        address const& user, address const& signer) {
    std::string msg = util::encode_query(business);
    if (!msg.empty())
        msg.erase(0, 1); // the '?'
    if (!msg.empty())
        msg += '&';
    msg += "nonce=" + std::to_string(nonce_us) + "&user=" + user.str() + "&signer=" + signer.str();
    return msg;
}

/**
 * A signed GET target (beta.md §3.1 steps 4-7): `path?<signed_message>&signature=0x...`, the
 * signature over EIP-712 `Message{msg}` in beta's domain on `testnet` or mainnet, made with
 * `key` (whose address must be `signer`). The key is only used here, never copied.
 */
GATEWAY_DECL std::string signed_target(std::string_view path, query_params const& business,
                                       std::uint64_t nonce_us, address const& user,
                                       address const& signer, sign::private_key const& key,
                                       bool testnet) {
    std::string const msg = signed_message(business, nonce_us, user, signer);
    return std::string(path) + "?" + msg +
           "&signature=" + sign::beta::sign_message(msg, key, testnet);
}

} // namespace gateway::wire::beta
