#pragma once
/**
 * @file weights.hpp
 * beta's (Aster's) request weights and limits, `upstreams/beta.md` §4, §5 and §8: one table for
 * the gateway, which keeps to the upstream's per-IP budget, and for mock-beta, which enforces it.
 */
#include <gateway/config.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gateway::wire::beta {

/// Futures REST weight per minute per IP (beta.md §8; exchangeInfo `rateLimits`).
inline constexpr std::uint32_t futures_budget = 2400;
/// Spot REST weight per minute per IP (real spot exchangeInfo, Jan 2026; beta.md §8).
inline constexpr std::uint32_t spot_budget = 6000;
/// The budgets' window in seconds.
inline constexpr std::uint32_t window_seconds = 60;
/// The response header carrying the upstream's count of the window's weight.
inline constexpr std::string_view used_weight_header = "X-MBX-USED-WEIGHT-1M";

/// The order-book limits the upstream accepts (`/depth?limit=`), smallest first.
inline constexpr std::array<unsigned, 7> depth_limits{5, 10, 20, 50, 100, 500, 1000};

/// The smallest upstream depth limit >= `depth` (CONTRACT §4); nullopt above 1000.
GATEWAY_DECL constexpr std::optional<unsigned> depth_limit_for(std::int64_t depth) noexcept {
    for (auto l : depth_limits)
        if (depth <= static_cast<std::int64_t>(l))
            return l;
    return std::nullopt;
}

/// `/depth` weight by limit: 2 up to 50, 5 at 100, 10 at 500, 20 at 1000.
GATEWAY_DECL constexpr std::uint32_t depth_weight(unsigned limit) noexcept {
    return limit <= 50 ? 2 : limit <= 100 ? 5 : limit <= 500 ? 10 : 20;
}

/// `/klines` weight by limit: 1 below 100, 2 below 500, 5 up to 1000, 10 above.
GATEWAY_DECL constexpr std::uint32_t klines_weight(unsigned limit) noexcept {
    return limit < 100 ? 1 : limit < 500 ? 2 : limit <= 1000 ? 5 : 10;
}

/**
 * The weight of a request to `path` (`/fapi/v3/...` or `/api/v3/...`, no query): `has_symbol`
 * says whether a `symbol` parameter was given (the all-symbols forms weigh more), `limit` the
 * `limit` parameter where the weight depends on it (depth, klines; 0 = the default).
 */
GATEWAY_DECL constexpr std::uint32_t weight(std::string_view path, bool has_symbol,
                                            unsigned limit) noexcept {
    auto const leaf =
        path.substr(path.rfind("/v3/") == std::string_view::npos ? 0 : path.rfind("/v3/") + 4);
    bool const spot = path.substr(0, 5) == "/api/";
    if (leaf == "depth")
        return depth_weight(limit == 0 ? (spot ? 100 : 500) : limit);
    if (leaf == "klines" || leaf == "indexPriceKlines" || leaf == "markPriceKlines")
        return klines_weight(limit == 0 ? 500 : limit);
    if (leaf == "ticker/price" || leaf == "ticker/bookTicker")
        return has_symbol ? 1 : 2;
    if (leaf == "ticker/24hr" || leaf == "openOrders")
        return has_symbol ? 1 : 40;
    if (leaf == "historicalTrades" || leaf == "aggTrades" || leaf == "commissionRate")
        return 20;
    if (leaf == "account" || leaf == "accountWithJoinMargin" || leaf == "balance" ||
        leaf == "positionRisk" || leaf == "userTrades" || leaf == "allOrders" ||
        leaf == "batchOrders" || leaf == "asset/wallet/transfer")
        return 5;
    if (leaf == "income")
        return 30;
    if (leaf == "countdownCancelAll")
        return 10;
    return 1; // ping, time, exchangeInfo, trades, premiumIndex, order, leverage, ...
}

} // namespace gateway::wire::beta
