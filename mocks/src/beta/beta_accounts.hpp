#pragma once
/**
 * @file beta_accounts.hpp
 * mock-beta's account surface: the upstream wire shapes of the ledger's views
 * (upstreams/beta.md §4.2-4.3 and §5, keys as in the recorded fixtures) and the mock-only
 * control endpoints `POST /__mock/accounts`, `GET /__mock/accounts/{address}` and
 * `POST|DELETE /__mock/agents` (CONTRACT §10).
 *
 * Number formats (Binance style): USDT amounts with 8 decimals ("23.72469206"); prices and
 * quantities at the market's tick and step decimals (more when a seeded value has more);
 * `entryPrice` "0.0" and `liquidationPrice` "0" when there is none; ids, times and the
 * leverage of brackets are JSON numbers, position `leverage` a string.
 */
#include "beta_ledger.hpp"

#include "../common/market_state.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gateway::mocks::beta {

/// Taker and maker fee rates (the recorded commissionRate: 0.035% and 0.01%).
inline constexpr std::int64_t taker_fee_ppm = 350;
inline constexpr std::int64_t maker_fee_ppm = 100;

/// `a` rounded half away from zero to exactly `digits` decimals ("1.50000000").
std::string decimal_text(amount a, unsigned digits);
/// `a` at `digits` decimals when it has no more, else all its decimals (seeded values).
std::string scaled_text(amount a, unsigned digits);

/// Marks of the perps, from the market state.
ledger::mark_fn marks_of(market_state const& markets);

/// `GET /fapi/v3/account` (and accountWithJoinMargin) body.
boost::json::object account_json(futures_view const& v);
/// `GET /fapi/v3/balance` body.
boost::json::array balance_json(futures_view const& v, std::string const& address);
/// One `positionRisk` element.
boost::json::object position_risk_json(position_view const& p);
/// One `openOrders` element.
boost::json::object open_order_json(order_record const& o, contract const& c);
/// One `userTrades` element.
boost::json::object user_trade_json(fill_record const& f, contract const& c);
/// One `income` element.
boost::json::object income_json(income_record const& r);
/// `GET /api/v3/account` body.
boost::json::object
spot_account_json(std::vector<std::pair<std::string, spot_holding>> const& balances);

/// The control API's view of one account (mock-only shape, see mocks/README.md).
boost::json::object mock_account_json(ledger const& l, market_state const& markets,
                                      std::string const& address);

/**
 * `POST /__mock/accounts` (credit; seed positions, fills, orders, agents; answers the account)
 * and `GET /__mock/accounts/{address}`; nullopt for any other path.
 * @par Errors 400 `{"error":...}` for a bad body (nothing is applied), 404 for an unknown
 * account, 405 for another method.
 */
std::optional<net::response> accounts_control(net::request const& req, ledger& l,
                                              market_state const& markets);

/**
 * `POST /__mock/agents` `{"user","signer"}` approves `signer` as an API wallet of `user`,
 * `DELETE` with the same body revokes it; both answer `{"user","agents":[...]}`. nullopt for
 * any other path.
 * @par Errors 400 for a bad body, 405 for another method.
 */
std::optional<net::response> agents_control(net::request const& req, ledger& l);

} // namespace gateway::mocks::beta
