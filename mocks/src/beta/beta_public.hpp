#pragma once
/**
 * @file beta_public.hpp
 * mock-beta's market data (upstreams/beta.md §4.1 futures, §5 spot): depth, trades, klines,
 * ticker/price, ticker/24hr, ticker/bookTicker, premiumIndex and openInterest, from the seeded
 * market state and its candle history.
 *
 * Spot BTCUSDT and ETHUSDT are views of the perp's market printed at the spot pair's decimals
 * (beta_markets.hpp). Derived numbers, all exact:
 * - klines: quote volume `volume * close` per underlying bucket; taker buy base a seeded 35-65 %
 *   of the volume (truncated to the step), its quote `takerBuyBase * close`.
 * - ticker/24hr: the 1-minute candles of the last 24 h (open, high, low, volume, quote volume,
 *   count), the newest trade (lastPrice, lastQty, lastId); weightedAvgPrice = quoteVolume /
 *   volume at the tick's decimals.
 * - premiumIndex: markPrice = indexPrice = estimatedSettlePrice = the mark; funding rate and
 *   interest rate 0.0001; nextFundingTime the next 8-hour boundary (00, 08, 16 UTC).
 * - openInterest: a seeded base per perp plus the long positions of every ledger account.
 */
#include "beta_ledger.hpp"
#include "beta_markets.hpp"

#include "../common/candles.hpp"
#include "../common/market_state.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/util/percent.hpp>

#include <cstdint>
#include <optional>

namespace gateway::mocks::beta {

enum class venue { futures, spot };

class market_data {
public:
    market_data(market_state const& markets, candle_history const& candles, ledger const& l,
                std::uint64_t seed);

    net::response depth(venue where, query_params const& q, unsigned v) const;
    net::response trades(venue where, query_params const& q, unsigned v) const;
    net::response klines(venue where, query_params const& q, unsigned v) const;
    net::response ticker_price(venue where, query_params const& q, unsigned v) const;
    net::response ticker_24hr(venue where, query_params const& q, unsigned v) const;
    net::response book_ticker(venue where, query_params const& q, unsigned v) const;
    net::response premium_index(query_params const& q, unsigned v) const;
    net::response open_interest(query_params const& q, unsigned v) const;

private:
    /// A symbol of a venue on its market: the output decimals and the source's.
    struct view {
        std::size_t index;
        std::string_view symbol;
        std::string_view base;
        unsigned px_scale, sz_scale; ///< printed
        unsigned src_px, src_sz;     ///< the market state's
        std::int64_t px(std::int64_t m) const;
        std::int64_t sz(std::int64_t m) const;
    };

    std::optional<view> find(venue where, std::string_view symbol) const;
    std::vector<view> all(venue where) const;
    boost::json::object ticker_24hr_item(venue where, view const& m, std::int64_t now) const;
    boost::json::object book_ticker_item(venue where, view const& m, std::int64_t now) const;
    boost::json::object premium_item(view const& m, std::int64_t now) const;

    market_state const& markets_;
    candle_history const& candles_;
    ledger const& ledger_;
    std::uint64_t seed_;
    std::int64_t update_base_;
};

} // namespace gateway::mocks::beta
