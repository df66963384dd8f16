#pragma once
/**
 * @file gamma_router.hpp
 * Mock of upstream "gamma" (Polymarket; upstreams/gamma.md §1, §2, §3, §6). One port serves
 * both hosts: the Gamma catalog at `/` and the CLOB under `/clob`.
 *
 * Catalog: `GET /events` (query `closed`, `active`, `archived`, `id`, `slug`, `tag_slug`,
 * `tag_id`, `limit`, `offset`), `GET /events/{id}`, `GET /markets` (also `clob_token_ids`,
 * `condition_ids`), `GET /markets/{id}`; markets carry the JSON-in-a-string fields
 * `outcomes`, `outcomePrices`, `clobTokenIds` and gamma.md §2.1's string/number quirks.
 * CLOB: `GET /clob/` -> `"OK"`, `/clob/time`, `/clob/book`, `/clob/price`, `/clob/midpoint`;
 * errors `{"error":"..."}` (400 `Invalid token id`, 404 `No orderbook exists for the
 * requested token id`).
 *
 * Market-state symbols are the outcome token ids of active markets; a NO token's price is
 * the complement of its YES token's.
 */
#include "../common/market_state.hpp"
#include "../common/upstream.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <memory>
#include <vector>

namespace gateway::mocks::gamma {

std::vector<market_spec> market_specs();

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const& options);

} // namespace gateway::mocks::gamma
