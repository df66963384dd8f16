#pragma once
/**
 * @file alpha_router.hpp
 * Mock of upstream "alpha" (Hyperliquid info API, upstreams/alpha.md §1-3, §8, §10).
 *
 * `POST /info` types: market data (allMids, exchangeStatus, meta, metaAndAssetCtxs, spotMeta,
 * perpDexs, perpDexStatus, perpDexLimits, l2Book, recentTrades, candleSnapshot) and account
 * reads from the ledger (clearinghouseState, spotClearinghouseState, openOrders,
 * frontendOpenOrders, userFills, userFillsByTime, orderStatus, historicalOrders, extraAgents,
 * userRole, userRateLimit, activeAssetData). Malformed bodies, unknown types and bad fields
 * (a `user` that is not 0x + 40 hex) get HTTP 422 text/plain
 * `Failed to deserialize the JSON body into the target type: ...`. `POST /exchange` runs
 * signed actions (order, cancel, cancelByCloid, updateLeverage, approveAgent) through the
 * matching engine of alpha_exchange.hpp; l2Book, allMids and the account reads show its
 * book and the ledger it drives. IP rate limit: 1200 weight per sliding 60 s per client
 * address (§8 weights, plus the per-item extras charged after answering) -> HTTP 429.
 *
 * Control extensions (`upstream_router::handle_control`): `POST /__mock/accounts`,
 * `GET /__mock/accounts/{address}` (alpha_accounts.hpp).
 *
 * Candles come from a `candle_history` fed by every trade the market state prints, with a
 * backfilled history (common/candles.hpp).
 *
 * Markets: main dex perps BTC, ETH, SOL; builder dex `xyz` with xyz:TSLA, xyz:NVDA, xyz:GOLD;
 * spot PURR/USDC (index 0) and @1 (HFUN/USDC, index 1).
 */
#include "alpha_exchange.hpp"
#include "alpha_ledger.hpp"

#include "../common/market_state.hpp"
#include "../common/upstream.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <memory>
#include <string>
#include <vector>

namespace gateway::mocks::alpha {

/// Trades printed per market before start (alpha's market_state), so recentTrades is full.
inline constexpr unsigned initial_trades = 200;

std::vector<market_spec> market_specs();

/// The ledger's instruments (every perp and spot pair) and spot tokens in index order.
std::vector<instrument> instruments();
std::vector<std::string> token_names();

/// The asset ids of signed actions (alpha.md §2: perps by index, builder dex `xyz` 110000 +
/// index, spot 10000 + pair index) mapped onto a market state built from `market_specs()`.
std::vector<asset_info> assets(market_state const& markets);

/// The router; its WebSocket `/ws` (alpha_ws.hpp) publishes through `hub`.
std::unique_ptr<upstream_router> make_router(market_state& markets, ws_hub& hub,
                                             mock_options const& options);

} // namespace gateway::mocks::alpha
