#pragma once
/**
 * @file alpha_map.hpp
 * The alpha adapter's pure half (STYLE "Server layers": `from_upstream(body)`): what
 * Hyperliquid's `/info` answers (upstreams/alpha.md §2-3) become in contract types (spec §2.5-2.12,
 * CONTRACT §1 and §4). No I/O, no clock (the caller passes `now_ms`), no exceptions: every
 * malformed upstream body is an UPSTREAM_ERROR whose message names the request type and the
 * offending field or item.
 *
 * Decisions where the contract is silent:
 * - Numbers: every upstream decimal (string, or a JSON number) is read leniently and written in
 *   CONTRACT §1 normal form (`"0.0"` -> `"0"`, `"2986.30"` -> `"2986.3"`). Sums, differences and
 *   products are exact (128-bit fixed point); a value beyond 38 significant digits is an
 *   UPSTREAM_ERROR, never a rounding.
 * - Ids and timestamps (`oid`, `tid`, `time`, `timestamp`, `t`) are JSON integers on the wire;
 *   a string of decimal digits is accepted too (ccxt's recordings carry them so).
 * - Symbols: the upstream coin name is the contract symbol (`BTC`, `xyz:TSLA`); spot coins
 *   (`@N`, `BASE/QUOTE`) are never perps symbols and are dropped where a perps list is built.
 * - Account summary: equity = sum of `marginSummary.accountValue`, usedMargin = sum of
 *   `marginSummary.totalMarginUsed`, availableMargin = sum of `withdrawable`,
 *   totalPositionValue = sum of `marginSummary.totalNtlPos`, unrealizedPnl = sum of the
 *   positions' `unrealizedPnl`, over one clearinghouseState per perp dex.
 * - Position: markPrice = positionValue / |szi|, rounded half-even to at most
 *   6 - szDecimals decimals (the upstream's perps price rule; szDecimals from the universe, 0 when
 *   the coin is not in it yet). leverage = `leverage.value`; liquidationPrice `"0"` when null.
 *   A position of size 0 is not an open position and is left out.
 * - Open order: type from `orderType` ("Limit" limit, "Market" market, "Stop Market" and
 *   "Take Profit Market" stop_market, "Stop Limit" and "Take Profit Limit" stop_limit; any other
 *   name is limit, or stop_limit when `isTrigger`); price = limitPx except for market and
 *   stop_market (null). status is `triggered` when `triggerCondition` is "Triggered" (the
 *   upstream then reports `isTrigger` false), else `open`. triggerPrice = triggerPx for an
 *   untriggered trigger order and for a triggered one, else null. `orderType`, `isTrigger`,
 *   `reduceOnly`, `origSz` may be absent (plain `openOrders` items): limit, false, false, `sz`.
 *   Spot orders are kept (the caller filters by universe).
 * - Fill: `feeToken` absent (captures before it existed) means USDC. `tid` is required: without
 *   it no unique id exists. closedPnl is null when `dir` starts with "Open".
 * - Lists that must be newest (oldest) first are sorted by time; equal times keep the upstream's
 *   newest-first order (an oldest-first answer is reversed first).
 * - Dexes: marketCount counts the dex's listed markets (delisted ones are left out, in the list,
 *   the detail and `market_count`); description = fullName, or the name when fullName is empty
 *   or null. Detail: the list fields exactly as in the list (marketCount from the universe), plus
 *   the listed markets of the dex's metaAndAssetCtxs (markPrice = markPx, openInterest in base
 *   units as upstream).
 *   Status: `halted` when the dex has no market or every market is delisted, else `active`;
 *   openInterest = sum over the dex's markets of openInterest x markPx (USD notional, exact).
 */
#include <gateway/result.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/rwas.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::alpha {

/// A perps market, main dex or builder (HIP-3) dex, as learned from `meta`.
struct perp_market {
    std::string symbol;      ///< upstream coin name: "BTC", or "xyz:TSLA" for a builder dex
    std::string dex;         ///< "" = main dex
    std::uint32_t asset = 0; ///< CONTRACT 6.1: main index; 100000 + dex_index*10000 + index
    unsigned sz_decimals = 0;
    unsigned max_leverage = 0;
    bool only_isolated = false; ///< `onlyIsolated`, or `marginMode` strictIsolated / noCross
    bool delisted = false;
};

/// A spot pair, as learned from `spotMeta`.
struct spot_market {
    std::string symbol;       ///< normalized "BASE/QUOTE" from token names (e.g. "HFUN/USDC")
    std::string coin;         ///< upstream coin: "PURR/USDC" or "@1"
    std::uint32_t asset = 0;  ///< 10000 + pair index
    unsigned sz_decimals = 0; ///< the base token's szDecimals
    std::string base, quote;
};

/// A builder-deployed perp dex (`perpDexs[1..]`).
struct perp_dex {
    std::string name;
    std::string full_name; ///< "" when the upstream has none
    address deployer;
    std::uint32_t index = 0; ///< position in perpDexs (1 = first builder dex)
};

/// The market universe learned from meta / spotMeta / perpDexs.
struct universe {
    std::vector<perp_dex> dexes;    ///< builder dexes only (perpDexs[1..])
    std::vector<perp_market> perps; ///< main dex first, then each builder dex
    std::vector<spot_market> spot;

    /// Exact perps symbol ("BTC", "xyz:TSLA"), or nullptr.
    perp_market const* find_perp(std::string_view symbol) const;
    /// Spot pair by "BASE/QUOTE", or nullptr.
    spot_market const* find_spot(std::string_view symbol) const;
    /// Spot pair by upstream coin ("@1", "PURR/USDC"), or nullptr.
    spot_market const* find_spot_coin(std::string_view coin) const;
    /// Builder dex by name, or nullptr.
    perp_dex const* find_dex(std::string_view name) const;
    /// Listed (not delisted) perps markets of `dex` ("" = main dex).
    std::size_t market_count(std::string_view dex) const;
};

/**
 * Reads `perpDexs`: element 0 (`null`, the main dex) is skipped, every other element is a dex
 * whose `index` is its position.
 * @par Errors UPSTREAM_ERROR (not an array, an item without a name, a malformed deployer).
 */
result<std::vector<perp_dex>> parse_perp_dexs(boost::json::value const& v);

/**
 * Reads `meta` of one dex. A builder dex's names carry the `dex:` prefix upstream; a name that
 * lacks it gets it. @param dex_index 0 = main dex, else the position in perpDexs.
 * @par Errors UPSTREAM_ERROR.
 */
result<std::vector<perp_market>> parse_meta(boost::json::value const& meta, std::string_view dex,
                                            std::uint32_t dex_index);

/**
 * Reads `spotMeta`: one market per `universe` pair, token names looked up by token `index`.
 * @par Errors UPSTREAM_ERROR (also for a pair naming an unknown token).
 */
result<std::vector<spot_market>> parse_spot_meta(boost::json::value const& v);

/// `allMids` -> prices map of perps symbols only: `@N` and `X/Y` keys are dropped (CONTRACT §1).
/// @par Errors UPSTREAM_ERROR (not an object, a value that is no decimal).
result<price_map> to_prices(boost::json::value const& all_mids);
/// `allMids` -> prices of the universe's spot pairs, keyed `BASE/QUOTE` (spec 2.9's map).
/// @par Errors UPSTREAM_ERROR.
result<price_map> to_spot_prices(boost::json::value const& all_mids, universe const& u);

/// One `clearinghouseState` per perp dex (main + builder dexes) -> the summed summary.
/// @par Errors UPSTREAM_ERROR.
result<account_summary>
to_account_summary(std::vector<boost::json::value> const& clearinghouse_states);

/// `clearinghouseState.assetPositions` -> positions (upstream order). @par Errors UPSTREAM_ERROR.
result<std::vector<position>> to_positions(boost::json::value const& clearinghouse_state,
                                           universe const& u);

/// `frontendOpenOrders` (or `openOrders`) -> open orders (upstream order).
/// @par Errors UPSTREAM_ERROR.
result<std::vector<open_order>> to_open_orders(boost::json::value const& frontend_open_orders);

/// `userFills` / `userFillsByTime` -> perps fills only, newest first. @par Errors UPSTREAM_ERROR.
result<std::vector<fill>> to_fills(boost::json::value const& user_fills, universe const& u);

/// `recentTrades` -> trades, newest first, at most `limit`. @par Errors UPSTREAM_ERROR.
result<std::vector<trade>> to_trades(boost::json::value const& recent_trades, std::size_t limit);

/// `candleSnapshot` -> candles, oldest first (`t` is the timestamp). @par Errors UPSTREAM_ERROR.
result<std::vector<candle>> to_candles(boost::json::value const& candle_snapshot);

/**
 * `l2Book` -> orderbook of `symbol`, at most `depth` levels per side (bids as upstream, high to
 * low; asks low to high).
 * @par Errors MARKET_NOT_FOUND for a `null` answer (the upstream's unknown coin), else
 * UPSTREAM_ERROR.
 */
result<orderbook> to_orderbook(boost::json::value const& l2_book, std::string const& symbol,
                               std::size_t depth);

/// `spotClearinghouseState` -> balances: total, locked = hold, available = total - hold.
/// @par Errors UPSTREAM_ERROR.
result<std::vector<spot_balance>>
to_spot_balances(boost::json::value const& spot_clearinghouse_state);

/// The builder dexes of the universe as the rwas list (spec §2.12). @par Errors none today.
result<std::vector<dex>> to_dexes(universe const& u);

/// One dex with its listed markets from its `metaAndAssetCtxs` (`[meta, ctxs]`).
/// @par Errors UPSTREAM_ERROR.
result<dex_detail> to_dex_detail(perp_dex const& d, boost::json::value const& meta_and_asset_ctxs,
                                 universe const& u);

/// Dex status from `perpDexStatus` and `metaAndAssetCtxs`; `checkedAt` = `now_ms`.
/// @par Errors UPSTREAM_ERROR.
result<dex_status> to_dex_status(perp_dex const& d, boost::json::value const& perp_dex_status,
                                 boost::json::value const& meta_and_asset_ctxs,
                                 std::int64_t now_ms);

/// Upstream interval name (identical names for the contract's eight values: "1m".."1w").
std::string_view upstream_interval(interval i);

/// `orderStatus` -> how much of the order has filled (`origSz - sz`); nullopt for an answer
/// without an order (`unknownOid`) or a malformed one.
std::optional<decimal> to_filled_size(boost::json::value const& order_status);

/// The size-weighted average price of the fills of order `oid` in a `userFills` answer (exact,
/// rounded half-even to 10 decimals); nullopt when it has none.
std::optional<decimal> average_fill_price(boost::json::value const& user_fills,
                                          std::string_view oid);

} // namespace gateway::server::alpha
