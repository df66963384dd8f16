#pragma once
/**
 * @file alpha.hpp
 * alpha's (Hyperliquid's) signing, `upstreams/alpha.md` §5: the L1 action hash
 * (connectionId), the phantom-agent EIP-712 message, user-signed actions, the signature JSON
 * form and the number formatting rules for prices and sizes.
 *
 * All functions are pure and thread-safe; none throws on bad input (errors are `result`s).
 */
#include <gateway/result.hpp>
#include <gateway/sign/eip712.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/msgpack.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gateway::sign::alpha {

/// The optional trailing parts of the L1 action hash (`upstreams/alpha.md` §5.1).
struct l1_options {
    /// `vaultAddress` when trading for a vault or sub-account; absent = `null`.
    std::optional<address> vault;
    /// `expiresAfter` (ms); absent = the whole 9-byte block is omitted.
    std::optional<std::uint64_t> expires_after;
};

/**
 * The bytes the connectionId hashes: `msgpack(action) || u64be(nonce) || (0x00 | 0x01 ||
 * vault) [|| 0x00 || u64be(expiresAfter)]`. Key order of `action` is kept as given.
 * @par Errors VALIDATION_ERROR if `action` holds a floating-point number.
 */
GATEWAY_DECL result<bytes> action_hash_input(boost::json::value const& action, std::uint64_t nonce,
                                             l1_options const& options = {});

/// connectionId = keccak256(`action_hash_input(...)`). Errors as `action_hash_input`.
GATEWAY_DECL result<hash256> action_hash(boost::json::value const& action, std::uint64_t nonce,
                                         l1_options const& options = {});

/**
 * The phantom agent as `eth_signTypedData_v4` JSON: domain `Exchange`/`1`/chainId 1337/
 * verifyingContract zero (mainnet and testnet alike), primary type
 * `Agent(string source,bytes32 connectionId)`, `source` `"a"` on mainnet, `"b"` on testnet.
 */
GATEWAY_DECL boost::json::value phantom_agent_typed_data(hash256 const& connection_id,
                                                         bool testnet);

/// The EIP-712 digest of `phantom_agent_typed_data(connection_id, testnet)`.
GATEWAY_DECL hash256 l1_digest(hash256 const& connection_id, bool testnet);

/**
 * Signs an L1 action (order, cancel, updateLeverage, ...) as an agent or the account key.
 * @par Errors VALIDATION_ERROR as `action_hash_input`.
 */
GATEWAY_DECL result<signature> sign_l1_action(boost::json::value const& action, std::uint64_t nonce,
                                              private_key const& key, bool testnet,
                                              l1_options const& options = {});

/**
 * The address that signed an L1 action (the agent, or the account itself).
 * @param sig 65 bytes `r || s || v` (see `signature_from_json` / `signature_from_hex`).
 * @par Errors VALIDATION_ERROR as `action_hash_input`; SIGNATURE_ERROR as `recover`.
 */
GATEWAY_DECL result<address> recover_l1_signer(boost::json::value const& action,
                                               std::uint64_t nonce,
                                               std::span<std::uint8_t const> sig, bool testnet,
                                               l1_options const& options = {});

/// One member of a user-signed action's EIP-712 struct.
struct user_signed_field {
    std::string_view type;
    std::string_view name;
};

/**
 * The EIP-712 typed data of a user-signed action (`upstreams/alpha.md` §5.8): domain
 * `HyperliquidSignTransaction`/`1`/chainId `int(action.signatureChainId, 16)`/zero contract,
 * primary type `primary_type` (e.g. `HyperliquidTransaction:UsdSend`) made of `fields`, whose
 * values are taken from `action` (`type` and `signatureChainId` are not hashed).
 * @par Errors VALIDATION_ERROR naming `action.<field>` if a field is missing or invalid.
 */
GATEWAY_DECL result<boost::json::value>
user_signed_typed_data(boost::json::object const& action, std::string_view primary_type,
                       std::span<user_signed_field const> fields);

/**
 * As above for the known action types, picked by `action.type`: `approveAgent`,
 * `usdSend`, `withdraw3`, `spotSend`, `usdClassTransfer`, `approveBuilderFee`, `sendAsset`.
 * A missing `agentName` in `approveAgent` signs as `""` (the unnamed agent: SDK-py signs the
 * empty name and drops the key from the posted action).
 * @par Errors VALIDATION_ERROR naming `action.type` for another type, else as above.
 */
GATEWAY_DECL result<boost::json::value> user_signed_typed_data(boost::json::object const& action);

/// Signs a known user-signed action (must be the account's own key). Errors as above.
GATEWAY_DECL result<signature> sign_user_signed_action(boost::json::object const& action,
                                                       private_key const& key);

/// The signer of a known user-signed action. Errors as above, or SIGNATURE_ERROR.
GATEWAY_DECL result<address> recover_user_signed_signer(boost::json::object const& action,
                                                        std::span<std::uint8_t const> sig);

/// `{"r":"0x<64 hex>","s":"0x<64 hex>","v":27|28}`, zero-padded as our adapter sends it.
GATEWAY_DECL boost::json::object signature_to_json(signature const& sig);

/**
 * Reads `{"r","s","v"}`: `r`/`s` are `0x` + 1..64 hex digits (SDK-py omits leading zeros),
 * `v` is 27/28 (0/1 are accepted and stored as 27/28).
 * @par Errors SIGNATURE_ERROR naming `field` (or `field.r`, ...).
 */
GATEWAY_DECL result<signature> signature_from_json(boost::json::value const& jv,
                                                   std::string_view field = "signature");

/**
 * SDK-py `float_to_wire` on an exact decimal: rounds to 8 decimals (half-even), fails if that
 * moved the value by >= 1e-12, then strips trailing zeros and the point; `-0` is `"0"`.
 * `"1670.1"` -> `"1670.1"`, `"100.0"` -> `"100"`, `"2000.0"` -> `"2000"`.
 * @param text plain decimal notation `-?digits(.digits)?`.
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<std::string> float_to_wire(std::string_view text,
                                               std::string_view field = "value");
/// SDK-py `float_to_wire` on a binary double (`f"{x:.8f}"`, same checks).
GATEWAY_DECL result<std::string> float_to_wire(double x, std::string_view field = "value");

/**
 * SDK-py `float_to_int_for_hashing` (`power` 8) and `float_to_usd_int` (`power` 6):
 * `round(x * 10^power)` (half-even), failing if that rounding moved the value by >= 1e-3.
 * E.g. `"0.00001231"` -> 1231, `"123123123123"` -> 12312312312300000000 (a uint64).
 * @return an integer JSON value (int64, or uint64 above the int64 range), ready for an action.
 * @par Errors VALIDATION_ERROR naming `field`, also outside the 64-bit ranges.
 */
GATEWAY_DECL result<boost::json::value> float_to_int(std::string_view text, unsigned power = 8,
                                                     std::string_view field = "value");

/**
 * Checks a limit/trigger price against alpha's tick rules (`upstreams/alpha.md` §5.5):
 * positive, at most `(spot ? 8 : 6) - sz_decimals` decimals and, unless it is an integer, at
 * most 5 significant figures. Never rounds (CONTRACT §6.1: refusal, not rounding).
 * @return the normalized wire text (trailing zeros stripped).
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<std::string> check_price(std::string_view price, unsigned sz_decimals,
                                             bool spot, std::string_view field = "price");

/// Checks a size: positive, at most `sz_decimals` decimals; returns the normalized wire text.
GATEWAY_DECL result<std::string> check_size(std::string_view size, unsigned sz_decimals,
                                            std::string_view field = "size");

/**
 * The adapter's price rounding for market orders (mid x (1 +/- slippage)): an integer is kept
 * as is; otherwise round to 5 significant figures, then to `(spot ? 8 : 6) - sz_decimals`
 * decimals (half-even, as Python's `round`), rendered without exponent or trailing zeros.
 * @par Errors VALIDATION_ERROR naming `field` for a non-positive or malformed price.
 */
GATEWAY_DECL result<std::string> round_price(std::string_view price, unsigned sz_decimals,
                                             bool spot, std::string_view field = "price");

/**
 * Rounds a size down to `sz_decimals` decimals.
 * @par Errors VALIDATION_ERROR naming `field` if malformed, non-positive, or it rounds to 0.
 */
GATEWAY_DECL result<std::string> round_size(std::string_view size, unsigned sz_decimals,
                                            std::string_view field = "size");

} // namespace gateway::sign::alpha

#include <gateway/providers/alpha/impl/signing.hpp>
