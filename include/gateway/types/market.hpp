#pragma once
/**
 * @file market.hpp
 * Market data: trade (spec §2.7), candle (§2.8), prices map (§2.9), orderbook (CONTRACT §4).
 *
 * Every `parse_<type>` reads with `json_fields` in the given mode: inbound is strict (unknown
 * field: VALIDATION_ERROR; non-object: INVALID_JSON), upstream is lenient (UPSTREAM_ERROR).
 */
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gateway {

/// A public trade (spec §2.7); lists are newest first.
struct trade {
    std::string id;
    decimal price;
    decimal size;
    gateway::side side = gateway::side::buy;
    std::int64_t timestamp = 0;
};

/// One candle (spec §2.8); `timestamp` is the open time. Lists are oldest first.
struct candle {
    decimal open;
    decimal high;
    decimal low;
    decimal close;
    decimal volume;
    std::int64_t timestamp = 0;
};

/// Prices map (spec §2.9): market symbol to price, ordered by symbol. Written by Boost.JSON's
/// map conversion as an object of decimal strings.
using price_map = std::map<std::string, decimal, std::less<>>;

/// One orderbook level.
struct book_level {
    decimal price;
    decimal size;
};

/// Level-2 orderbook (CONTRACT §4): bids high to low, asks low to high.
struct orderbook {
    std::string symbol;
    std::vector<book_level> bids;
    std::vector<book_level> asks;
    std::int64_t timestamp = 0;
};

/// Reads a trade.
GATEWAY_DECL result<trade> parse_trade(boost::json::value const& v, strictness mode);
/**
 * A tradable market and the rules a signer needs for it (CONTRACT §4 markets listing,
 * `GET /v1/{perps|spot}/{provider}/markets`): the fields a provider's rules need, the others
 * absent. alpha: `asset` (the upstream asset id of CONTRACT §6.1) and `szDecimals` (prices get
 * `(spot ? 8 : 6) - szDecimals`); beta: `tickSize`, `stepSize` and `minNotional` (the upstream's
 * PRICE_FILTER, LOT_SIZE and MIN_NOTIONAL). `maxLeverage` is 0 for spot.
 */
struct market_info {
    std::string symbol;
    std::optional<std::int64_t> asset;
    std::optional<std::int64_t> sz_decimals;
    std::optional<decimal> tick_size;
    std::optional<decimal> step_size;
    std::optional<decimal> min_notional;
    std::int64_t max_leverage = 0;
};

/// Reads a market info.
GATEWAY_DECL result<market_info> parse_market_info(boost::json::value const& v, strictness mode);
/// Reads a candle.
GATEWAY_DECL result<candle> parse_candle(boost::json::value const& v, strictness mode);
/// Reads a prices map: every value must be a decimal (lenient in upstream mode).
GATEWAY_DECL result<price_map> parse_prices(boost::json::value const& v, strictness mode);
/// Reads an orderbook level.
GATEWAY_DECL result<book_level> parse_book_level(boost::json::value const& v, strictness mode);
/// Reads an orderbook.
GATEWAY_DECL result<orderbook> parse_orderbook(boost::json::value const& v, strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, trade const& t);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, candle const& c);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             book_level const& l);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             orderbook const& b);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             market_info const& m);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<trade> tag_invoke(boost::json::try_value_to_tag<trade>,
                                                   boost::json::value const& v);
GATEWAY_DECL boost::json::result<candle> tag_invoke(boost::json::try_value_to_tag<candle>,
                                                    boost::json::value const& v);
GATEWAY_DECL boost::json::result<book_level> tag_invoke(boost::json::try_value_to_tag<book_level>,
                                                        boost::json::value const& v);
GATEWAY_DECL boost::json::result<orderbook> tag_invoke(boost::json::try_value_to_tag<orderbook>,
                                                       boost::json::value const& v);
GATEWAY_DECL boost::json::result<market_info> tag_invoke(boost::json::try_value_to_tag<market_info>,
                                                         boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/market.hpp>
