#pragma once
/**
 * @file weights.hpp
 * alpha's (Hyperliquid's) request weights, `upstreams/alpha.md` §8: one table for the gateway,
 * which keeps to the upstream's IP budget, and for mock-alpha, which enforces it. Written once
 * so the two can never drift.
 */
#include <gateway/config.hpp>

#include <boost/json/object.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gateway::wire::alpha {

/// The upstream's IP budget: weight per window (alpha.md §8).
inline constexpr std::uint32_t ip_budget = 1200;
/// The budget's sliding window in seconds.
inline constexpr std::uint32_t ip_window_seconds = 60;

/// The weight of an `/info` request of `type` (2, 60 for userRole, else 20).
GATEWAY_DECL constexpr std::uint32_t info_weight(std::string_view type) noexcept {
    constexpr std::array<std::string_view, 6> light{
        "l2Book",        "allMids", "clearinghouseState", "orderStatus", "spotClearinghouseState",
        "exchangeStatus"};
    for (auto t : light)
        if (t == type)
            return 2;
    if (type == "userRole")
        return 60;
    return 20;
}

/// The extra weight of an `/info` answer with `items` elements, charged once it is known:
/// +1 per 20 items for the history types, +1 per 60 for candleSnapshot.
GATEWAY_DECL constexpr std::uint32_t info_item_weight(std::string_view type,
                                                      std::size_t items) noexcept {
    constexpr std::array<std::string_view, 12> per_20{"recentTrades",
                                                      "historicalOrders",
                                                      "userFills",
                                                      "userFillsByTime",
                                                      "fundingHistory",
                                                      "userFunding",
                                                      "userNonFundingLedgerUpdates",
                                                      "twapHistory",
                                                      "userTwapSliceFills",
                                                      "userTwapSliceFillsByTime",
                                                      "delegatorHistory",
                                                      "delegatorRewards"};
    for (auto t : per_20)
        if (t == type)
            return static_cast<std::uint32_t>(items / 20);
    if (type == "candleSnapshot")
        return static_cast<std::uint32_t>(items / 60);
    return 0;
}

/// The weight of any `/exchange` action: 1 + floor(batch / 40), `batch` the length of its
/// `orders`, `cancels` or `modifies` (0 for actions without one).
GATEWAY_DECL constexpr std::uint32_t exchange_weight(std::size_t batch) noexcept {
    return 1 + static_cast<std::uint32_t>(batch / 40);
}

/// The batch length of an `/exchange` action: the size of its `orders`, `cancels` or `modifies`
/// array, 0 when it has none.
GATEWAY_DECL std::size_t batch_length(boost::json::object const& action) noexcept {
    for (char const* key : {"orders", "cancels", "modifies"})
        if (auto const* v = action.if_contains(key); v && v->is_array())
            return v->get_array().size();
    return 0;
}

/// The weight of an `/exchange` action (see `exchange_weight(std::size_t)`).
GATEWAY_DECL std::uint32_t exchange_weight(boost::json::object const& action) noexcept {
    return exchange_weight(batch_length(action));
}

} // namespace gateway::wire::alpha
