#pragma once
/**
 * @file beta_markets.hpp
 * mock-beta's markets (upstreams/beta.md §0, §4.1, §5): the USDT perpetuals (crypto, stock and
 * commodity) and the spot pairs, their exchangeInfo bodies with every filter, their leverage
 * brackets, and the market_state specs they are simulated with.
 *
 * Spot BTCUSDT and ETHUSDT have no market of their own: their prices, books, trades and candles
 * are the perp's, printed at the spot pair's decimals (an exact rescale). Spot ASTERUSDT is its
 * own market.
 */
#include "../common/amount.hpp"
#include "../common/market_state.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::mocks::beta {

/// One leverage bracket as configured (`maintMarginRatio` as text, so it stays exact).
struct bracket_def {
    unsigned initial_leverage;
    std::int64_t notional_floor;
    std::int64_t notional_cap;
    std::string_view maint_margin_ratio;
};

/// A USDT perpetual.
struct perp_def {
    std::string_view symbol;
    std::string_view base;
    std::string_view sub_type; ///< "" (crypto), "STOCK" or "RWA"
    std::string_view name;     ///< stock/RWA display name
    std::string_view channel;  ///< stock/RWA price source
    unsigned px_scale;         ///< tick decimals; prices print with this many decimals
    unsigned price_precision;  ///< as the real exchangeInfo says (may differ from the tick!)
    unsigned sz_scale;         ///< step decimals
    std::string_view min_qty, max_qty, market_max_qty;
    std::int64_t mark; ///< initial mark, px_scale units
    std::int64_t lot;  ///< typical size of one book level, sz_scale units
    std::uint32_t step_ppm;
    std::int64_t onboard_date;
    std::int64_t open_interest; ///< seeded open interest, sz_scale units
    std::span<bracket_def const> brackets;
};

/// A spot pair.
struct spot_def {
    std::string_view symbol;
    std::string_view base;
    std::string_view perp; ///< priced from this perp's market, or "" for its own market
    unsigned px_scale;
    unsigned sz_scale;
    std::string_view max_qty;
    std::int64_t mark; ///< own market only (px_scale units)
    std::int64_t lot;  ///< own market only (sz_scale units)
    std::int64_t listing_time;
};

/// One computed bracket: `cum` is the maintenance amount Binance subtracts
/// (`cum_n = cum_{n-1} + floor_n * (mmr_n - mmr_{n-1})`).
struct bracket {
    unsigned number;
    unsigned initial_leverage;
    amount floor;
    amount cap;
    amount mmr;
    amount cum;
};

std::span<perp_def const> perps();
std::span<spot_def const> spots();
/// Exact upstream symbol; nullptr when unknown.
perp_def const* find_perp(std::string_view symbol);
spot_def const* find_spot(std::string_view symbol);

/// A perp's brackets with `cum` computed, lowest notional first.
std::vector<bracket> brackets_of(perp_def const& p);
/// The bracket holding a position of `notional` (the last one above every cap).
bracket const& bracket_for(std::vector<bracket> const& b, amount notional);
/// The most notional a position may have at `leverage` (`maxNotionalValue`): the cap of the
/// last bracket whose initialLeverage is at least `leverage`.
amount max_notional(std::vector<bracket> const& b, unsigned leverage);
/// Bracket 1's initialLeverage.
unsigned max_leverage(perp_def const& p);
/// The leverage a position opens with when the account never set one: 20, or less when the
/// market allows less.
unsigned default_leverage(perp_def const& p);

/// Futures exchangeInfo (beta.md §4.1).
boost::json::object futures_exchange_info(std::int64_t now_ms);
/// Spot exchangeInfo (beta.md §5: `minNotional`, NOTIONAL, PERCENT_PRICE_BY_SIDE, ...).
boost::json::object spot_exchange_info(std::int64_t now_ms);
/// One leverageBracket item `{"symbol","brackets":[...]}` (numbers, as the docs show them).
boost::json::object leverage_bracket_json(perp_def const& p);

/// The simulated markets: every perp, then the spot pairs with their own market.
std::vector<market_spec> market_specs();

} // namespace gateway::mocks::beta
