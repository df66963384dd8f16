#pragma once
/**
 * @file signing.hpp
 * gamma's (Polymarket's) CLOB signing, `upstreams/gamma.md` §4-5: the EIP-712 CTF Exchange
 * `Order` (domain `Polymarket CTF Exchange` / `1` / chainId / the exchange contract), its
 * `POST /order` wire form, the L1 `ClobAuth` signature that creates and derives API
 * credentials, and the L2 HMAC headers of every trading request. Shared by the SDK's signer,
 * the gateway (which verifies a client's Order signature before forwarding it) and mock-gamma
 * (which verifies as the upstream does).
 *
 * Every function is pure and thread-safe. None of them logs, and no error message repeats a
 * credential or a key.
 */
#include <gateway/config.hpp>
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::sign::gamma {

/// The chain of every order and credential the gateway handles (Polygon mainnet, gamma.md §1).
inline constexpr std::uint64_t polygon_chain_id = 137;
/// Polygon Amoy: the chain of the official clients' test vectors (gamma.md §4.1, §5.1).
inline constexpr std::uint64_t amoy_chain_id = 80002;

/// The CTF Exchange of normal markets (verifyingContract, gamma.md §5.1):
/// `0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e`.
GATEWAY_DECL address ctf_exchange();
/// The Neg-Risk CTF Exchange of `neg_risk` markets: `0xc5d563a36ae78145c45a50134d48a1215220f80a`.
GATEWAY_DECL address neg_risk_ctf_exchange();
/// The exchange an order on a token signs for: `neg_risk_ctf_exchange()` for a neg-risk token.
GATEWAY_DECL address exchange_for(bool neg_risk);

// ---- Order (gamma.md §5.1) -------------------------------------------------------------------

/// The Order's `side` (uint8): 0 BUY (the maker gives USDC), 1 SELL (the maker gives tokens).
enum class order_side : std::uint8_t { buy = 0, sell = 1 };

/**
 * The CTF Exchange `Order`, field for field (gamma.md §5.1):
 * `Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,
 * uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,
 * uint8 side,uint8 signatureType)`.
 */
struct order {
    std::uint64_t salt = 0;         ///< random; keep below 2^53 (JS clients read it as a number)
    address maker;                  ///< the funder (= signer for signatureType 0)
    address signer;                 ///< the EOA that signs
    address taker;                  ///< zero: a public order
    std::string token_id;           ///< the outcome token, decimal uint256 text
    std::uint64_t maker_amount = 0; ///< what the maker gives, 6-decimal units
    std::uint64_t taker_amount = 0; ///< what the maker receives, 6-decimal units
    std::uint64_t expiration = 0;   ///< unix seconds (GTD), 0 for none
    std::uint64_t nonce = 0;        ///< the exchange nonce, normally 0
    std::uint64_t fee_rate_bps = 0;
    order_side side = order_side::buy;
    std::uint8_t signature_type = 0; ///< 0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE
};

/**
 * The `eth_signTypedData_v4` JSON of `o` on `exchange` (what a wallet signs). uint256 members
 * are decimal strings (`tokenId` does not fit a JSON number), `side` and `signatureType`
 * numbers, addresses lower case, `chainId` a number.
 */
GATEWAY_DECL boost::json::value order_typed_data(order const& o, address const& exchange,
                                                 std::uint64_t chain_id = polygon_chain_id);

/**
 * The EIP-712 digest of `o` on `exchange`, computed directly (the value
 * `eip712::hash_typed_data(order_typed_data(...))` gives; the unit tests hold both to gamma.md
 * §5.1's vectors). It is also the upstream's `orderID` (`0x` + its hex).
 * @pre `o.token_id` is decimal digits below 2^256 (`order_of` and `parse_order_wire` ensure
 * it); any other text hashes as token 0, which no honest signature covers (`recover_order`
 * refuses it before hashing).
 */
GATEWAY_DECL hash256 order_digest(order const& o, address const& exchange,
                                  std::uint64_t chain_id = polygon_chain_id);

/// The Order's struct hash (`hashStruct(Order)`, gamma.md §5.1 [DERIVED]).
GATEWAY_DECL hash256 order_struct_hash(order const& o);

/// The domain separator of `exchange` on `chain_id`.
GATEWAY_DECL hash256 order_domain_separator(address const& exchange,
                                            std::uint64_t chain_id = polygon_chain_id);

/// Signs `o` for `exchange` with `key`: `0x` + 130 hex, v 27/28 (deterministic, RFC 6979).
GATEWAY_DECL std::string sign_order(order const& o, address const& exchange, private_key const& key,
                                    std::uint64_t chain_id = polygon_chain_id);

/**
 * The address that signed `o` for `exchange` with `signature` (`0x` + 130 hex, v 27/28). The
 * caller compares it with `o.signer` (the gateway with `wallet`).
 * @par Errors SIGNATURE_ERROR naming `signature` when it is malformed or recovers nothing;
 * VALIDATION_ERROR naming `tokenId` when `o.token_id` is not decimal uint256 text.
 */
GATEWAY_DECL result<address> recover_order(order const& o, address const& exchange,
                                           std::string_view signature,
                                           std::uint64_t chain_id = polygon_chain_id);

/**
 * The `"order"` object of a `POST /order` body (gamma.md §5.3), in the official clients' member
 * order and with their exact JSON types: `salt` a number; `maker`, `signer`, `taker` strings;
 * `tokenId`, `makerAmount`, `takerAmount`, `expiration`, `nonce`, `feeRateBps` decimal strings;
 * `side` `"BUY"`/`"SELL"`; `signatureType` a number; `signature` as given.
 */
GATEWAY_DECL boost::json::object order_wire(order const& o, std::string_view signature);

/**
 * Reads an `"order"` object of `POST /order`: the inverse of `order_wire`, accepting what the
 * official TypeScript, Python and Rust clients send: `salt` a number (or decimal string);
 * the uint256 members decimal strings (or non-negative integer numbers); addresses in any
 * case; `side` `"BUY"`/`"SELL"` in any case; `signatureType` a number (or decimal string).
 * Unknown members are ignored. `signature` is not part of `order`: read the member yourself
 * and give it to `recover_order`.
 * @par Errors VALIDATION_ERROR naming the member (`salt`, `maker`, ..., or `order` when `v` is
 * not an object) when it is missing or its value is out of range for its type (amounts, salt,
 * expiration, nonce and feeRateBps must fit 64 bits; tokenId 256 bits; signatureType 0-255).
 */
GATEWAY_DECL result<order> parse_order_wire(boost::json::value const& v);

/// `"BUY"` or `"SELL"`.
GATEWAY_DECL std::string_view to_string(order_side s) noexcept;

// ---- L1: ClobAuth (gamma.md §4.1) ------------------------------------------------------------

/// The fixed `message` member of ClobAuth.
inline constexpr std::string_view clob_auth_message =
    "This message attests that I control the given wallet";

/**
 * The `eth_signTypedData_v4` JSON of `ClobAuth{wallet, timestamp, nonce, message}` in the
 * domain `ClobAuthDomain` / `1` / `chain_id` (no verifyingContract). `timestamp` is unix
 * seconds as text, exactly as sent in `POLY_TIMESTAMP`; `nonce` as in `POLY_NONCE`.
 */
GATEWAY_DECL boost::json::value clob_auth_typed_data(address const& wallet,
                                                     std::string_view timestamp,
                                                     std::uint64_t nonce,
                                                     std::uint64_t chain_id = polygon_chain_id);

/// Its EIP-712 digest, computed directly (equal to `eip712::hash_typed_data` of the above).
GATEWAY_DECL hash256 clob_auth_digest(address const& wallet, std::string_view timestamp,
                                      std::uint64_t nonce,
                                      std::uint64_t chain_id = polygon_chain_id);

/// `POLY_SIGNATURE` of an L1 request: the key's ClobAuth signature, `0x` + 130 hex, v 27/28.
GATEWAY_DECL std::string sign_clob_auth(private_key const& key, std::string_view timestamp,
                                        std::uint64_t nonce,
                                        std::uint64_t chain_id = polygon_chain_id);

/**
 * The address that signed `ClobAuth{claimed, timestamp, nonce}` with `signature` (the L1
 * headers `POLY_ADDRESS`, `POLY_TIMESTAMP`, `POLY_NONCE`, `POLY_SIGNATURE`). The request is
 * genuine when the result equals `claimed`; the caller compares.
 * @par Errors SIGNATURE_ERROR naming `signature` when it is malformed or recovers nothing.
 */
GATEWAY_DECL result<address> recover_clob_auth(address const& claimed, std::string_view timestamp,
                                               std::uint64_t nonce, std::string_view signature,
                                               std::uint64_t chain_id = polygon_chain_id);

// ---- L2: API credentials and HMAC headers (gamma.md §4.2) ------------------------------------

/**
 * A CLOB API credential triple: `apiKey`, `secret` (url-safe base64), `passphrase`.
 *
 * It exists only for the duration of the calls it signs. Its bytes are wiped
 * (`OPENSSL_cleanse`) when it is destroyed and when it is moved from; the constructor wipes
 * the strings it was given. It cannot be copied (every copy would be one more place a secret
 * stays in memory): move it. There is deliberately no `operator<<`, no `to_string` and no
 * JSON mapping.
 */
class credentials {
public:
    GATEWAY_DECL credentials(std::string api_key, std::string secret, std::string passphrase);
    credentials(credentials const&) = delete;
    credentials& operator=(credentials const&) = delete;
    GATEWAY_DECL credentials(credentials&& other) noexcept;
    GATEWAY_DECL credentials& operator=(credentials&& other) noexcept;
    GATEWAY_DECL ~credentials();

    std::string_view api_key() const noexcept { return api_key_; }
    /// Handle with care: never log it.
    std::string_view secret() const noexcept { return secret_; }
    /// Handle with care: never log it.
    std::string_view passphrase() const noexcept { return passphrase_; }

private:
    std::string api_key_, secret_, passphrase_;
};

/// One HTTP header of an L2 request.
struct l2_header {
    std::string name, value;
};

/**
 * The five L2 headers of one request, in this order: `POLY_ADDRESS` (`wallet`, lower case; the
 * upstream compares case-insensitively), `POLY_SIGNATURE` (`build_l2_signature` of
 * `timestamp_s + method + path + body`, path without its query string), `POLY_TIMESTAMP`
 * (`timestamp_s` in decimal), `POLY_API_KEY`, `POLY_PASSPHRASE`. `body` must be the exact
 * bytes sent (empty when there is none). The headers carry the passphrase: drop them after the
 * call.
 * @par Errors VALIDATION_ERROR naming `apiSecret` when the secret is not base64 (the message
 * never repeats it).
 */
GATEWAY_DECL result<std::vector<l2_header>>
l2_headers(credentials const& creds, address const& wallet, std::int64_t timestamp_s,
           std::string_view method, std::string_view path, std::string_view body = {});

} // namespace gateway::sign::gamma

#include <gateway/providers/gamma/impl/signing.hpp>
