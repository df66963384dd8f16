#pragma once
/**
 * @file signing.hpp
 * beta's (Aster's) v3 request signing, `upstreams/beta.md` §3.1: EIP-712 `Message(string msg)`
 * in the domain `AsterSignTransaction` / `1` / chainId 1666 (714 on testnet) / verifyingContract
 * zero, over the literal parameter string that is sent (`k1=v1&k2=v2&...`, without
 * `&signature=`). Shared by the SDK's signer, the gateway (which verifies client signatures and
 * signs its own reads) and mock-beta (which verifies as the upstream does).
 *
 * All functions are pure and thread-safe, except `next_nonce_us` and `next_read_nonce_us`, which
 * read the clock.
 */
#include <gateway/config.hpp>
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/address.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gateway::sign::beta {

/// EIP-712 chainId of beta's domain (beta.md §3.1).
inline constexpr std::uint64_t mainnet_chain_id = 1666;
inline constexpr std::uint64_t testnet_chain_id = 714;

/// The chainId of a network.
constexpr std::uint64_t chain_id(bool testnet) noexcept {
    return testnet ? testnet_chain_id : mainnet_chain_id;
}

/// The `eth_signTypedData_v4` JSON of `Message{msg}` in beta's domain (what a wallet signs).
GATEWAY_DECL boost::json::value typed_data(std::string_view msg, bool testnet);

/// Its EIP-712 digest: keccak(0x1901 || domainSeparator(chainId) || keccak(typeHash ||
/// keccak(msg))), computed directly (the same value `eip712::hash_typed_data(typed_data(...))`
/// gives; the unit tests hold both to beta.md §3.2's vectors).
GATEWAY_DECL hash256 digest(std::string_view msg, bool testnet);

/// The domain separator of a network (beta.md §3.1 constants).
GATEWAY_DECL hash256 domain_separator(bool testnet);

/// Signs `msg` with `key`: `0x` + 130 hex, v 27/28 (beta.md §3.1 step 6).
GATEWAY_DECL std::string sign_message(std::string_view msg, private_key const& key, bool testnet);

/**
 * The address that signed `msg` with `signature` (`0x` optional, v 27/28 or 0/1 as the upstream
 * accepts; beta.md §3.3).
 * @par Errors SIGNATURE_ERROR naming `signature`.
 */
GATEWAY_DECL result<address> recover_message(std::string_view msg, std::string_view signature,
                                             bool testnet);

/// A microsecond nonce for a new request: now, or one more than the last one this process
/// handed out (beta.md §3.1 nonce rules: unique and within 10 s). Thread-safe.
GATEWAY_DECL std::uint64_t next_nonce_us();

/**
 * A microsecond nonce, as `next_nonce_us` (strictly increasing together with it), that is never a
 * multiple of 1000. For a party that signs requests for an account whose own requests carry
 * milliseconds x 1000 (the gateway's read signer; CONTRACT 6.2 writes): the upstream keeps the
 * nonces it has seen per user (beta.md §3.1), so the two can never spend each other's nonce.
 */
GATEWAY_DECL std::uint64_t next_read_nonce_us();

} // namespace gateway::sign::beta

#include <gateway/providers/beta/impl/signing.hpp>
