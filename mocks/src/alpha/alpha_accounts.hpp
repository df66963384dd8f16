#pragma once
/**
 * @file alpha_accounts.hpp
 * Mock alpha's account surface: the upstream wire shapes of the ledger's views
 * (upstreams/alpha.md §3.4-3.8, §3.13, matched field by field with the recorded fixtures)
 * and the mock-only control endpoints `POST /__mock/accounts`, `GET /__mock/accounts/{addr}`.
 *
 * Number formats: decimal strings in Hyperliquid style (an integer keeps ".0"); USD amounts
 * (account values, position values, PnL, margin, fees) are rounded half away from zero to 6
 * decimals, prices and sizes are exact, `returnOnEquity` and `liquidationPx` carry up to 10
 * decimals. Ids, times, token indexes and leverage values are JSON numbers.
 */
#include "alpha_ledger.hpp"

#include "../common/market_state.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gateway::mocks::alpha {

/// Perps taker fee of the base tier (0.045%), charged on seeded positions.
inline constexpr std::int64_t perps_taker_fee_ppm = 450;

/// Marks of the ledger's coins, from the market state (upstream names only).
ledger::mark_fn marks_of(market_state const& markets);

/// `clearinghouseState` body.
boost::json::object clearinghouse_json(perp_view const& v, std::int64_t time_ms);
/// `spotClearinghouseState` body.
boost::json::object spot_clearinghouse_json(std::vector<spot_balance_view> const& balances);
/// `openOrders` element: coin, side, limitPx, sz, oid, timestamp, origSz, and cloid /
/// `reduceOnly:true` only when set.
boost::json::object open_order_json(order_record const& o);
/// `frontendOpenOrders` element (also the `order` of orderStatus / historicalOrders).
boost::json::object frontend_order_json(order_record const& o);
/// `userFills` element.
boost::json::object fill_json(fill_record const& f);
/// `{"order":{...},"status":"...","statusTimestamp":ms}`.
boost::json::object order_status_json(order_status_record const& r);
/// `extraAgents` body.
boost::json::array agents_json(std::vector<agent_record> const& agents);
/// `userRole` body.
boost::json::object role_json(role_view const& r);
/// `userRateLimit` body.
boost::json::object rate_limit_json(rate_view const& r);

/// The control API's view of one account (mock-only shape, see mocks/README.md).
boost::json::object account_json(ledger const& l, market_state const& markets,
                                 std::string const& address, std::vector<std::string> const& dexes);

/**
 * `POST /__mock/accounts` (credit, seed positions/orders/agents; answers the account) and
 * `GET /__mock/accounts/{address}`; nullopt for any other path.
 * @par Errors 400 `{"error":...}` for a bad body (nothing is applied), 404 for an unknown
 * account, 405 for another method.
 */
std::optional<net::response> accounts_control(net::request const& req, ledger& l,
                                              market_state const& markets,
                                              std::vector<std::string> const& dexes);

} // namespace gateway::mocks::alpha
