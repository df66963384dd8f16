#pragma once
/**
 * @file gamma.hpp
 * Umbrella of provider gamma's wire knowledge (Polymarket's Gamma catalog and CLOB,
 * `upstreams/gamma.md`), shared by the SDK's users, the reference server and mock-gamma: request
 * budgets and weights, request targets, the upstream's error bodies. No crypto.
 */
#include <gateway/providers/gamma/errors.hpp>
#include <gateway/providers/gamma/requests.hpp>
#include <gateway/providers/gamma/weights.hpp>
