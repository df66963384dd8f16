#pragma once
/**
 * @file alpha_router.hpp
 * Mock of upstream "alpha" (Hyperliquid info API, upstreams/alpha.md §1-3, §8, §10).
 *
 * `POST /info` types: allMids, exchangeStatus, meta, metaAndAssetCtxs, spotMeta, perpDexs,
 * l2Book, recentTrades. Malformed bodies and unknown types get HTTP 422 text/plain
 * `Failed to deserialize the JSON body into the target type: ...`. `POST /exchange` is
 * counted and rate-limited but answers `{"status":"err",...}` until accounts arrive.
 * IP rate limit: 1200 weight per sliding 60 s per client address (§8 weights) -> HTTP 429.
 *
 * Markets: main dex perps BTC, ETH, SOL; builder dex `xyz` with xyz:TSLA, xyz:NVDA, xyz:GOLD;
 * spot PURR/USDC (index 0) and @1 (HFUN/USDC, index 1).
 */
#include "../common/market_state.hpp"
#include "../common/upstream.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <memory>
#include <vector>

namespace gateway::mocks::alpha {

std::vector<market_spec> market_specs();

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const& options);

} // namespace gateway::mocks::alpha
