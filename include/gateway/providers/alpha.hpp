#pragma once
/**
 * @file alpha.hpp
 * Umbrella of provider alpha's wire knowledge (Hyperliquid's protocol, `upstreams/alpha.md`),
 * shared by the SDK's users, the reference server and mock-alpha: request weights, `/info`
 * request builders, L1 action signing and the order derivation of CONTRACT §6.1 with its SDK
 * signer. Include it, or the exact header you need (weights and info builders carry no crypto).
 */
#include <gateway/providers/alpha/info.hpp>
#include <gateway/providers/alpha/orders.hpp>
#include <gateway/providers/alpha/signing.hpp>
#include <gateway/providers/alpha/weights.hpp>
