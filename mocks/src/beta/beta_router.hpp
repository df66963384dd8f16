#pragma once
/**
 * @file beta_router.hpp
 * Mock of upstream "beta" (Aster, Binance-style REST; upstreams/beta.md §1-5, §7, §8, §10).
 * Futures (`/fapi/v3/...`) and spot (`/api/v3/...`) share one port.
 *
 * Futures public GET: ping, time, exchangeInfo, depth, trades, klines, ticker/price,
 * ticker/24hr, ticker/bookTicker, premiumIndex, openInterest (beta_public.hpp). Futures signed
 * GET (v3 EIP-712 signatures and nonces, beta_auth.hpp): account, accountWithJoinMargin,
 * balance, positionRisk, openOrders, userTrades, income, leverageBracket. Spot public GET:
 * ping, time, exchangeInfo, depth, trades, klines, ticker/price, ticker/24hr,
 * ticker/bookTicker; spot signed GET: account. Account reads come from a per-address ledger
 * (beta_ledger.hpp) seeded through `POST /__mock/accounts` (beta_accounts.hpp).
 *
 * Trading (signed; beta_orders.hpp for parameters and answers, beta_matching.hpp for the
 * engine that moves the ledger): `POST|DELETE|GET /fapi/v3/order`, `DELETE
 * /fapi/v3/allOpenOrders`, `POST /fapi/v3/leverage`, spot `POST|DELETE|GET /api/v3/order`.
 * Every request first lets the engine catch up with the marks (house re-quotes, triggers).
 *
 * Errors are `{"code":<negative int>,"msg":"..."}` with the codes of
 * `gateway::wire::beta` (include/gateway/providers/beta/errors.hpp); an unknown path or method
 * is 404 -5000. Every answer of a weighted endpoint carries `X-MBX-USED-WEIGHT-1M` (weights of
 * `gateway::wire::beta::weight`, charged before any other check); over the per-IP budget
 * (futures 2400, spot 6000 per sliding minute) the answer is HTTP 429 `{"code":-1003,...}`
 * with `Retry-After`.
 *
 * Control extensions: `POST /__mock/accounts`, `GET /__mock/accounts/{address}`,
 * `POST|DELETE /__mock/agents`.
 *
 * Markets: perps BTCUSDT, ETHUSDT, SOLUSDT, TSLAUSDT and NVDAUSDT (stock), XAUUSDT (RWA gold);
 * spot BTCUSDT and ETHUSDT (views of the perps) and ASTERUSDT (beta_markets.hpp).
 */
#include "beta_markets.hpp"

#include "../common/market_state.hpp"
#include "../common/upstream.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <memory>
#include <vector>

namespace gateway::mocks::beta {

std::unique_ptr<upstream_router> make_router(market_state& markets, ws_hub& hub,
                                             mock_options const& options);

} // namespace gateway::mocks::beta
