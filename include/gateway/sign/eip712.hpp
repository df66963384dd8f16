#pragma once
/**
 * @file eip712.hpp
 * EIP-712 typed structured data hashing over `eth_signTypedData_v4` JSON:
 * `{"types":{...,"EIP712Domain":[...]},"primaryType":...,"domain":{...},"message":{...}}`.
 *
 * Supported member types: `uint8..uint256`, `int8..int256` (JSON numbers or decimal / `0x` hex
 * strings; negative values as 256-bit two's complement), `address`, `bool`, `bytes1..bytes32`,
 * `string`, `bytes`, fixed and dynamic arrays (`T[3]`, `T[]`, nested, of structs too) and
 * structs, including recursive ones. Encoding follows the EIP and MetaMask's
 * `eth-sig-util` v4: referenced struct types are appended to `encodeType` sorted by name, array
 * values hash the concatenation of their encoded elements, and a `null` struct value encodes
 * as 32 zero bytes.
 *
 * Every function is pure and reports problems as a VALIDATION_ERROR whose `details.field` is
 * the JSON path (`message.to.wallets[1]`, `types.Mail`) and whose message names the type.
 */
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace gateway::sign {

/**
 * A non-negative integer up to 2^256 - 1 as 32 big-endian bytes, from decimal digits or from
 * `0x` + up to 64 hex digits (leading zeros allowed).
 * @par Errors VALIDATION_ERROR naming `field` for anything else or for an overflow.
 */
GATEWAY_DECL result<hash256> parse_uint256(std::string_view text, std::string_view field = "value");

namespace eip712 {

/**
 * `encodeType(primary_type)`: `Name(type1 name1,...)` followed by every struct type it
 * references (transitively), sorted by name, e.g.
 * `Mail(Person from,Person to,string contents)Person(string name,address wallet)`.
 * @param types the `types` object of the typed data.
 * @par Errors VALIDATION_ERROR for an unknown struct or member type or a malformed definition.
 */
GATEWAY_DECL result<std::string> encode_type(boost::json::object const& types,
                                             std::string_view primary_type);

/// `typeHash = keccak256(encodeType(primary_type))`.
GATEWAY_DECL result<hash256> type_hash(boost::json::object const& types,
                                       std::string_view primary_type);

/**
 * `encodeData(primary_type, data)` = typeHash followed by one 32-byte word per member.
 * @param path the JSON path of `data`, used in `details.field` of errors.
 * @par Errors VALIDATION_ERROR for a missing member or a value its type refuses.
 */
GATEWAY_DECL result<bytes> encode_data(boost::json::object const& types,
                                       std::string_view primary_type,
                                       boost::json::value const& data,
                                       std::string_view path = "message");

/// `hashStruct(primary_type, data) = keccak256(encodeData(primary_type, data))`.
GATEWAY_DECL result<hash256> hash_struct(boost::json::object const& types,
                                         std::string_view primary_type,
                                         boost::json::value const& data,
                                         std::string_view path = "message");

/**
 * `hashStruct("EIP712Domain", typed_data.domain)`. When `types` lacks `EIP712Domain`, the
 * domain type is inferred from the members present, in the EIP's order (name, version,
 * chainId, verifyingContract, salt).
 * @par Errors VALIDATION_ERROR if `typed_data` is not the v4 shape or the domain is invalid.
 */
GATEWAY_DECL result<hash256> domain_separator(boost::json::value const& typed_data);

/**
 * The digest a wallet signs: `keccak256(0x19 0x01 || domainSeparator || hashStruct(message))`
 * (just `keccak256(0x19 0x01 || domainSeparator)` when `primaryType` is `EIP712Domain`).
 * @par Errors VALIDATION_ERROR as above.
 */
GATEWAY_DECL result<hash256> hash_typed_data(boost::json::value const& typed_data);

/// `sign_digest(hash_typed_data(typed_data), key)`.
GATEWAY_DECL result<signature> sign_typed_data(boost::json::value const& typed_data,
                                               private_key const& key);

/// `sign_typed_data` as a wallet answers it: `0x` + 130 hex (`r || s || v`, v 27/28).
GATEWAY_DECL result<std::string> sign_typed_data_hex(boost::json::value const& typed_data,
                                                     private_key const& key);

/**
 * The signer of `sig` over `typed_data`.
 * @par Errors VALIDATION_ERROR for invalid typed data; SIGNATURE_ERROR as `recover`.
 */
GATEWAY_DECL result<address> recover_typed_data(boost::json::value const& typed_data,
                                                std::span<std::uint8_t const> sig);

} // namespace eip712
} // namespace gateway::sign

#include <gateway/sign/impl/eip712.hpp>
