#pragma once
/**
 * @file beta_map.hpp
 * The beta provider's pure half (`from_upstream(body)`): what Aster's REST answers
 * (upstreams/beta.md §4-5) become in contract types (spec §2.5-2.11, CONTRACT §1, §4). No I/O,
 * no clock, no exceptions: every malformed upstream body is an UPSTREAM_ERROR naming the request
 * and the offending field.
 *
 * Decisions where the contract is silent:
 * - Symbols: perps and rwas markets are named by their base asset (`BTCUSDT` -> `BTC`, `TSLAUSDT`
 *   -> `TSLA`; CONTRACT §1, §4: only USDT-quoted perpetuals exist for the gateway), spot pairs
 *   `BASE/QUOTE` from exchangeInfo's baseAsset and quoteAsset. Markets not TRADING are left out.
 * - Rules: tickSize, stepSize and minNotional from the PRICE_FILTER, LOT_SIZE and MIN_NOTIONAL
 *   filters (never pricePrecision: beta.md §4.1); maxLeverage from bracket 1 of
 *   leverageBracket.
 * - Account summary (spec 2.5, alpha's shape): equity = totalMarginBalance, availableMargin =
 *   availableBalance, usedMargin = totalInitialMargin, unrealizedPnl = totalUnrealizedProfit,
 *   totalPositionValue = sum of |positionAmt| x markPrice over positionRisk.
 * - Position: side from the sign of positionAmt (zero sizes are not positions), margin =
 *   isolatedMargin for isolated positions, else |positionAmt| x markPrice / leverage (the initial
 *   margin), rounded half-even to 8 decimals; liquidationPrice "0" when the upstream has none.
 * - Open order: MARKET market, LIMIT limit, STOP_MARKET and TAKE_PROFIT_MARKET stop_market, STOP
 *   and TAKE_PROFIT stop_limit, TRAILING_STOP_MARKET trailing_stop with `callbackRate` =
 *   priceRate and `triggerPrice` = activatePrice; price null for the market types and
 *   triggerPrice = stopPrice for stops; status `open`.
 * - Fill: fee = |commission| in commissionAsset, liquidity from `maker`, closedPnl =
 *   realizedPnl, null when it is zero (nothing closed).
 * - Trades: side is the taker's (isBuyerMaker -> sell); the upstream's oldest-first list is
 *   returned newest first.
 */
#include <gateway/result.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/rwas.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::beta {

/// A market's trading rules from exchangeInfo filters (zero = the filter is off).
struct filters {
    decimal tick_size, min_price, max_price;                  ///< PRICE_FILTER
    decimal step_size, min_qty, max_qty;                      ///< LOT_SIZE
    decimal market_step_size, market_min_qty, market_max_qty; ///< MARKET_LOT_SIZE
    decimal min_notional;                                     ///< MIN_NOTIONAL
    std::optional<decimal> multiplier_up, multiplier_down;    ///< PERCENT_PRICE
};

/// A USDT-margined perpetual as learned from `/fapi/v3/exchangeInfo`.
struct perp_market {
    std::string symbol;   ///< the gateway's: base asset, "BTC", "TSLA"
    std::string upstream; ///< "BTCUSDT"
    bool rwa = false;     ///< underlyingSubType STOCK or RWA (CONTRACT §4 rwas markets)
    filters rules;
    unsigned max_leverage = 0; ///< bracket 1's initialLeverage; 0 until learned
};

/// A spot pair as learned from `/api/v3/exchangeInfo`.
struct spot_market {
    std::string symbol;   ///< "BTC/USDT"
    std::string upstream; ///< "BTCUSDT"
    filters rules;
};

/// The market universe of one network.
struct universe {
    std::vector<perp_market> perps;
    std::vector<spot_market> spot;

    perp_market const* find_perp(std::string_view symbol) const;
    perp_market const* find_perp_upstream(std::string_view upstream) const;
    spot_market const* find_spot(std::string_view symbol) const;
    spot_market const* find_spot_upstream(std::string_view upstream) const;
};

/// `/fapi/v3/exchangeInfo` -> the TRADING USDT perpetuals. @par Errors UPSTREAM_ERROR.
result<std::vector<perp_market>> parse_futures_exchange_info(boost::json::value const& v);
/// `/api/v3/exchangeInfo` -> the TRADING spot pairs. @par Errors UPSTREAM_ERROR.
result<std::vector<spot_market>> parse_spot_exchange_info(boost::json::value const& v);
/// `/fapi/v3/leverageBracket` -> upstream symbol -> maximum leverage (bracket 1).
/// @par Errors UPSTREAM_ERROR.
result<std::map<std::string, unsigned>> parse_leverage_brackets(boost::json::value const& v);

/// `ticker/price` (all symbols) -> prices of the universe's perps (`spot` false, keys `BTC`) or
/// spot pairs (`spot` true, keys `BTC/USDT`). @par Errors UPSTREAM_ERROR.
result<price_map> to_prices(boost::json::value const& ticker, universe const& u, bool spot);

/// `/depth` -> the orderbook of `symbol`, cut to `depth` levels a side. @par Errors UPSTREAM_ERROR.
result<orderbook> to_orderbook(boost::json::value const& depth, std::string const& symbol,
                               std::size_t levels);

/// `/trades` -> trades, newest first, at most `limit`. @par Errors UPSTREAM_ERROR.
result<std::vector<trade>> to_trades(boost::json::value const& trades, std::size_t limit);

/// `/klines` -> candles, oldest first. @par Errors UPSTREAM_ERROR.
result<std::vector<candle>> to_candles(boost::json::value const& klines);

/// `positionRisk` -> open positions (upstream order). @par Errors UPSTREAM_ERROR.
result<std::vector<position>> to_positions(boost::json::value const& position_risk,
                                           universe const& u);

/// `account` and `positionRisk` -> the account summary. @par Errors UPSTREAM_ERROR.
result<account_summary> to_account_summary(boost::json::value const& account,
                                           boost::json::value const& position_risk);

/// `openOrders` -> open orders, newest first. @par Errors UPSTREAM_ERROR.
result<std::vector<open_order>> to_open_orders(boost::json::value const& open_orders,
                                               universe const& u);

/// `userTrades` -> fills (upstream order). @par Errors UPSTREAM_ERROR.
result<std::vector<fill>> to_fills(boost::json::value const& user_trades, universe const& u);

/// Spot `account` -> balances (assets with anything in them). @par Errors UPSTREAM_ERROR.
result<std::vector<spot_balance>> to_spot_balances(boost::json::value const& spot_account);

/// `income` -> the upstream symbols the account paid a commission on (it traded them).
/// @par Errors UPSTREAM_ERROR.
result<std::set<std::string>> traded_symbols(boost::json::value const& income);

/// The universe's stock and commodity perps as rwas market items (CONTRACT §4): markPrice from
/// `premiumIndex` (all symbols), openInterest from `openInterest` answers by upstream symbol,
/// szDecimals the step size's decimals. @par Errors UPSTREAM_ERROR.
result<std::vector<dex_market>>
to_rwas_markets(universe const& u, boost::json::value const& premium_index,
                std::map<std::string, decimal> const& open_interest);

/// `openInterest?symbol=` -> its open interest. @par Errors UPSTREAM_ERROR.
result<decimal> to_open_interest(boost::json::value const& v);

/// An upstream `{"code":N,"msg":"..."}` error body's code and message, if it is one.
struct upstream_error_body {
    std::int64_t code = 0;
    std::string msg;
};
std::optional<upstream_error_body> error_body(boost::json::value const& v);

/// The contract interval's upstream name (the eight contract intervals are Aster's names too).
std::string_view upstream_interval(interval i);

} // namespace gateway::server::beta
