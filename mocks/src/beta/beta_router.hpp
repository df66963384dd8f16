#pragma once
/**
 * @file beta_router.hpp
 * Mock of upstream "beta" (Aster, Binance-style REST; upstreams/beta.md §1, §2, §4.1, §5, §7,
 * §8, §10). Futures (`/fapi/v3/...`) and spot (`/api/v3/...`) share one port.
 *
 * Futures: `GET /fapi/v3/ping`, `time`, `exchangeInfo`, `depth`, `trades`, `ticker/price`.
 * Spot: `GET /api/v3/ping`, `time`, `ticker/price`.
 * Errors are `{"code":<negative int>,"msg":"..."}` (-1102 missing symbol, -1121 unknown symbol,
 * -4021 bad depth limit, -5000 unknown path). Every answer of a weighted endpoint carries
 * `X-MBX-USED-WEIGHT-1M`; over the per-IP budget (futures 2400, spot 6000 per sliding
 * minute) the answer is HTTP 429 `{"code":-1003,...}` with `Retry-After`.
 *
 * Markets: perps BTCUSDT, ETHUSDT, SOLUSDT, TSLAUSDT (stock), XAUUSDT (RWA gold); spot
 * BTCUSDT and ETHUSDT (priced from the perp marks) and ASTERUSDT.
 */
#include "../common/market_state.hpp"
#include "../common/upstream.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <memory>
#include <vector>

namespace gateway::mocks::beta {

std::vector<market_spec> market_specs();

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const& options);

} // namespace gateway::mocks::beta
