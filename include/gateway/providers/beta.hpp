#pragma once
/**
 * @file beta.hpp
 * Umbrella of provider beta's wire knowledge (Aster's Binance-style protocol,
 * `upstreams/beta.md`), shared by the SDK's users, the reference server and mock-beta: request
 * weights, the upstream's error codes and texts, request targets with the v3 signed query, the
 * v3 EIP-712 signing, and the order derivation with the SDK signer (orders.hpp). Include it,
 * or the exact header you need (weights and errors carry no crypto).
 */
#include <gateway/providers/beta/errors.hpp>
#include <gateway/providers/beta/orders.hpp>
#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/providers/beta/weights.hpp>
