#pragma once
/**
 * @file sign.hpp
 * Umbrella of the signing helpers: Keccak-256 and hex, secp256k1 keys/signatures, EIP-712,
 * MessagePack, HMAC/base64url: the primitives. A provider's own signing (alpha's L1 actions, beta's
 * v3 messages, gamma's orders) lives with its wire knowledge under <gateway/providers/>.
 * These and the provider signing headers are the only SDK headers that include crypto++,
 * libsecp256k1 and OpenSSL's HMAC.
 */
#include <gateway/sign/eip712.hpp>
#include <gateway/sign/hmac.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/msgpack.hpp>
#include <gateway/sign/nonce.hpp>
#include <gateway/sign/secp256k1.hpp>
