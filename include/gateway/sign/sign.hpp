#pragma once
/**
 * @file sign.hpp
 * Umbrella of the signing helpers: Keccak-256 and hex, secp256k1 keys/signatures, EIP-712,
 * MessagePack, alpha's L1 and user-signed actions, HMAC/base64url and gamma's L2 signature.
 * These are the only SDK headers that include crypto++, libsecp256k1 and OpenSSL's HMAC.
 */
#include <gateway/sign/alpha.hpp>
#include <gateway/sign/alpha_orders.hpp>
#include <gateway/sign/eip712.hpp>
#include <gateway/sign/hmac.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/msgpack.hpp>
#include <gateway/sign/secp256k1.hpp>
