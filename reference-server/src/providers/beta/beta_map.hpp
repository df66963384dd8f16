#pragma once
/**
 * @file beta_map.hpp
 * The beta provider's pure half (`from_upstream(body)`): what Aster's REST answers
 * (upstreams/beta.md §4-5, §7) become in contract types (spec §2.5-2.11, CONTRACT §1, §2, §4).
 * No I/O, no clock, no exceptions: every malformed upstream body is an UPSTREAM_ERROR naming the
 * request and the offending field. The other direction (paths, symbols, the signed query) is
 * `gateway::wire::beta` (include/gateway/providers/beta/requests.hpp), shared with mock-beta.
 *
 * Decisions where the contract is silent:
 * - Numbers: upstream decimals (strings, or JSON numbers in leverageBracket) are read leniently
 *   and written in CONTRACT §1 normal form (`"6563.66500"` -> `"6563.665"`); ids and times may
 *   be JSON integers or digit strings (ccxt's recordings carry both).
 * - Symbols: a perp (stock and commodity perps included) is named by its base asset
 *   (`BTCUSDT` -> `BTC`, `TSLAUSDT` -> `TSLA`; CONTRACT §1, §4): the universe holds the TRADING
 *   USDT-quoted PERPETUAL contracts only. A spot pair is `BASE/QUOTE` from exchangeInfo's
 *   baseAsset and quoteAsset; TRADING pairs only, the upstream's internal `TEST...` pairs left
 *   out (beta.md §5). Items of a symbol outside the universe are left out of market lists;
 *   account items keep the upstream symbol's base (a position in a perp that stopped trading is
 *   still the account's).
 * - Rules: tickSize, stepSize and minNotional from the PRICE_FILTER, LOT_SIZE and MIN_NOTIONAL
 *   filters (never pricePrecision/quantityPrecision: beta.md §4.1; futures spell the minimum
 *   `notional`, spot `minNotional`); maxLeverage is the highest initialLeverage of the symbol's
 *   leverageBracket (bracket 1), 0 while unknown.
 * - Prices (spec 2.9): `ticker/price`, the last price of each market of the universe.
 * - Orderbook: `T` (transaction time), else `E`, is the timestamp; levels cut to `depth`.
 * - Trades: side is the taker's (`isBuyerMaker` true -> `sell`); newest first.
 * - Candles: a kline's open time, OHLC and base volume; oldest first.
 * - Account summary (spec 2.5, alpha's shape): equity = totalMarginBalance, availableMargin =
 *   availableBalance, usedMargin = totalInitialMargin, unrealizedPnl = totalUnrealizedProfit,
 *   totalPositionValue = sum of |positionAmt| x markPrice over positionRisk (USDT totals).
 * - Position: side from the sign of positionAmt (size 0 is not an open position); margin =
 *   isolatedMargin for an isolated position, else the initial margin |positionAmt| x markPrice /
 *   leverage, rounded half-even to 8 decimals; liquidationPrice as the upstream gives it (`"0"`
 *   when it has none).
 * - Open order: MARKET market; LIMIT limit; STOP_MARKET and TAKE_PROFIT_MARKET stop_market; STOP
 *   and TAKE_PROFIT stop_limit; TRAILING_STOP_MARKET trailing_stop with triggerPrice =
 *   activatePrice and callbackRate = priceRate. price is null for the market types, triggerPrice
 *   = stopPrice for the stop types and null for market and limit; clientOrderId null when empty;
 *   status `open` (NEW and PARTIALLY_FILLED rest); timestamp `time`, else `updateTime`; newest
 *   first.
 * - Fill: fee = commission as the upstream signs it (paid positive, a rebate negative), feeAsset
 *   = commissionAsset, liquidity from `maker`, closedPnl = realizedPnl, null when it is zero
 *   (the fill closed nothing); newest first.
 * - Spot balance: available = free, locked, total = free + locked; assets with a zero total are
 *   left out (the upstream lists every asset an account ever held).
 * - rwas markets (CONTRACT §4): the universe's perps whose underlyingSubType holds STOCK or RWA;
 *   markPrice from premiumIndex, openInterest (base units) from openInterest, szDecimals the
 *   step size's decimals.
 * - Errors (read_error): -2015 and -1002 (the signer may not act for the account) are 403
 *   SIGNER_NOT_APPROVED naming the read signer to approve; -1121 is 404 MARKET_NOT_FOUND; every
 *   other answer is 502 UPSTREAM_ERROR carrying the upstream's code (`details.upstreamCode`).
 */
#include "upstream/answer.hpp"

#include <gateway/result.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/rwas.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::beta {

/// A market's trading rules from its exchangeInfo filters (zero: the filter is off or absent).
struct filters {
    decimal tick_size, min_price, max_price;                  ///< PRICE_FILTER
    decimal step_size, min_qty, max_qty;                      ///< LOT_SIZE
    decimal market_step_size, market_min_qty, market_max_qty; ///< MARKET_LOT_SIZE
    decimal min_notional;                                     ///< MIN_NOTIONAL
    std::optional<decimal> multiplier_up, multiplier_down;    ///< PERCENT_PRICE
};

/// A USDT-margined perpetual, as learned from `/fapi/v3/exchangeInfo`.
struct perp_market {
    std::string symbol;   ///< the gateway's: base asset, "BTC", "TSLA"
    std::string upstream; ///< "BTCUSDT"
    bool rwa = false;     ///< underlyingSubType STOCK or RWA (CONTRACT §4 rwas markets)
    filters rules;
    unsigned max_leverage = 0; ///< from leverageBracket; 0 until learned
};

/// A spot pair, as learned from `/api/v3/exchangeInfo`.
struct spot_market {
    std::string symbol;   ///< "BTC/USDT"
    std::string upstream; ///< "BTCUSDT"
    filters rules;
};

/// The market universe of one network, with lookups by either name.
class universe {
public:
    universe() = default;
    universe(std::vector<perp_market> perps, std::vector<spot_market> spot);

    std::vector<perp_market> const& perps() const noexcept { return perps_; }
    std::vector<spot_market> const& spot() const noexcept { return spot_; }

    perp_market const* find_perp(std::string_view symbol) const;
    perp_market const* find_perp_upstream(std::string_view upstream) const;
    spot_market const* find_spot(std::string_view symbol) const;
    spot_market const* find_spot_upstream(std::string_view upstream) const;

private:
    std::vector<perp_market> perps_;
    std::vector<spot_market> spot_;
    std::map<std::string, std::size_t, std::less<>> perp_by_symbol_, perp_by_upstream_;
    std::map<std::string, std::size_t, std::less<>> spot_by_symbol_, spot_by_upstream_;
};

/// Which REST upstream a body came from (some shapes differ).
enum class venue { futures, spot };

/// `/fapi/v3/exchangeInfo` -> the TRADING USDT perpetuals. @par Errors UPSTREAM_ERROR.
result<std::vector<perp_market>> parse_futures_exchange_info(boost::json::value const& v);
/// `/api/v3/exchangeInfo` -> the TRADING spot pairs. @par Errors UPSTREAM_ERROR.
result<std::vector<spot_market>> parse_spot_exchange_info(boost::json::value const& v);
/// `/fapi/v3/leverageBracket` (one object or an array of them) -> upstream symbol -> maximum
/// leverage. @par Errors UPSTREAM_ERROR.
result<std::map<std::string, unsigned, std::less<>>>
parse_leverage_brackets(boost::json::value const& v);

/// The markets listing items (CONTRACT §4): symbol, tickSize, stepSize, minNotional and
/// maxLeverage (0 for spot).
market_info to_market_info(perp_market const& m);
market_info to_market_info(spot_market const& m);
/// The markets listing of one venue of the universe, in exchangeInfo's order.
std::vector<market_info> to_market_infos(universe const& u, venue v);

/// `ticker/price` (all symbols) -> the prices of the universe's perps (keys `BTC`) or spot
/// pairs (keys `BTC/USDT`). @par Errors UPSTREAM_ERROR.
result<price_map> to_prices(boost::json::value const& ticker, universe const& u, venue v);

/// `depth` -> the orderbook of `symbol`, at most `levels` a side. @par Errors UPSTREAM_ERROR.
result<orderbook> to_orderbook(boost::json::value const& depth, std::string const& symbol,
                               std::size_t levels);

/// `trades` (oldest first) -> trades, newest first, at most `limit`. @par Errors UPSTREAM_ERROR.
result<std::vector<trade>> to_trades(boost::json::value const& trades, std::size_t limit);

/// `klines` -> candles, oldest first. @par Errors UPSTREAM_ERROR.
result<std::vector<candle>> to_candles(boost::json::value const& klines);

/// `positionRisk` -> the open positions, in upstream order. @par Errors UPSTREAM_ERROR.
result<std::vector<position>> to_positions(boost::json::value const& position_risk,
                                           universe const& u);

/// `account` and `positionRisk` -> the account summary. @par Errors UPSTREAM_ERROR.
result<account_summary> to_account_summary(boost::json::value const& account,
                                           boost::json::value const& position_risk);

/// `openOrders` -> open orders, newest first. @par Errors UPSTREAM_ERROR.
result<std::vector<open_order>> to_open_orders(boost::json::value const& open_orders,
                                               universe const& u);

/// `userTrades` -> fills, newest first. @par Errors UPSTREAM_ERROR.
result<std::vector<fill>> to_fills(boost::json::value const& user_trades, universe const& u);

/// Spot `account` -> the balances held. @par Errors UPSTREAM_ERROR.
result<std::vector<spot_balance>> to_spot_balances(boost::json::value const& spot_account);

/// One COMMISSION entry of `income`: one per fill of the account (beta.md §4.2).
struct commission_entry {
    std::string upstream; ///< the symbol traded, "BTCUSDT"
    std::int64_t time = 0;
    std::string tran_id; ///< unique per entry (pages overlap on equal times)
};
/// `income` -> its COMMISSION entries, in upstream order (oldest first).
/// @par Errors UPSTREAM_ERROR.
result<std::vector<commission_entry>> to_commissions(boost::json::value const& income);

/// `openInterest?symbol=` -> its open interest. @par Errors UPSTREAM_ERROR.
result<decimal> to_open_interest(boost::json::value const& v);

/// The universe's stock and commodity perps as rwas market items (CONTRACT §4): markPrice from
/// `premiumIndex` (all symbols), openInterest by upstream symbol. @par Errors UPSTREAM_ERROR.
result<std::vector<dex_market>>
to_rwas_markets(universe const& u, boost::json::value const& premium_index,
                std::map<std::string, decimal, std::less<>> const& open_interest);

/// An upstream `{"code":N,"msg":"..."}` error body.
struct upstream_error_body {
    std::int64_t code = 0;
    std::string msg;
};
/// The error body in `v`, if it is one (`code` a number or a digit string, `msg` a string).
std::optional<upstream_error_body> error_body(boost::json::value const& v);

/**
 * A read's non-2xx answer as a contract error (channel_options::read_error): see the file
 * comment. `name` is the channel's ("beta", "beta testnet"), `read_signer` the address an
 * account approves.
 */
api_error read_error(std::string const& name, upstream_answer const& a, address const& read_signer);

} // namespace gateway::server::beta
