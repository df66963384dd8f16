#pragma once
/**
 * @file gamma_router.hpp
 * Mock of upstream "gamma" (Polymarket; upstreams/gamma.md §1, §2, §3, §6). One port serves
 * both hosts: the Gamma catalog at `/` and the CLOB under `/clob` (gamma_clob.hpp).
 *
 * Catalog (gamma_catalog.hpp, gamma_query.hpp): `GET /events` and `GET /markets` (bare arrays;
 * limit/offset paging, at most 500 a page; order/ascending; filters), `GET /events/{id}`,
 * `GET /events/slug/{slug}`, `GET /events/{id}/tags`, `GET /markets/{id}`,
 * `GET /markets/slug/{slug}`, `GET /markets/{id}/tags`. Markets carry the JSON-in-a-string
 * fields `outcomes`, `outcomePrices`, `clobTokenIds` and gamma.md §2.1's string/number quirks.
 * Catalog errors (their body is UNCONFIRMED upstream, gamma.md §9.2): 404 `{"error":"not
 * found"}`, 400 `{"error":"invalid query parameter: <name>"}`, 405 `{"error":"method not
 * allowed"}`.
 *
 * Request budgets per client address (gamma_limits.hpp) unless `mock_options::rate_limits` is
 * off: over one, 429 `{"error":"Too Many Requests"}` with `Retry-After` (seconds).
 *
 * Market-state symbols are the outcome token ids of open markets with a book; a NO token's
 * price is the complement of its YES token's.
 */
#include "../common/market_state.hpp"
#include "../common/upstream.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <memory>
#include <vector>

namespace gateway::mocks::gamma {

/// The market_state specs of the shared catalog.
std::vector<market_spec> market_specs();

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const& options);

} // namespace gateway::mocks::gamma
