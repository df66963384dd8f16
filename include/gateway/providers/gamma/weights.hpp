#pragma once
/**
 * @file weights.hpp
 * gamma's (Polymarket's) request budgets, `upstreams/gamma.md` §6: one table for the gateway,
 * which keeps to them, and for mock-gamma, which may enforce them.
 *
 * The upstream counts requests in sliding 10-second windows, with a general limit per API (the
 * Gamma catalog 4000, the CLOB 9000) and tighter limits per endpoint (`/events` 500, `/book`
 * 1500, `/midpoints` 500...). The gateway keeps one weight budget per upstream (CONTRACT §3), so
 * an endpoint's limit becomes a weight: the general limit divided by the endpoint's, rounded up.
 * Spending the whole budget on one endpoint then stays within that endpoint's own limit, and
 * any mix stays within the general one.
 */
#include <gateway/config.hpp>

#include <array>
#include <cstdint>
#include <string_view>

namespace gateway::wire::gamma {

/// The window of every gamma limit, in seconds (gamma.md §6: "per 10 s unless noted").
inline constexpr std::uint32_t window_seconds = 10;
/// The Gamma catalog's general limit per window (gamma.md §6).
inline constexpr std::uint32_t catalog_budget = 4000;
/// The CLOB's general limit per window (gamma.md §6).
inline constexpr std::uint32_t clob_budget = 9000;

/// One endpoint's own limit per window: `path` exactly, or every path below it when
/// `prefix` (`/events` also covers `/events/{id}`).
struct endpoint_limit {
    std::string_view path;
    std::uint32_t per_window;
    bool prefix;
};

/// The catalog's endpoint limits (gamma.md §6). `/events` and `/markets` also share a listing
/// limit of 900, which their weights (8 + 14 per pair) keep to as well.
inline constexpr std::array<endpoint_limit, 5> catalog_limits{{
    {"/events", 500, true},
    {"/markets", 300, true},
    {"/comments", 200, true},
    {"/tags", 200, true},
    {"/public-search", 350, true},
}};

/// The CLOB's public market-data, trading and API-key limits (gamma.md §6). `/order` takes the
/// burst limit of `POST /order` (3500; `DELETE /order` allows 3000, the same weight 3); `/auth`
/// covers the API-key endpoints (100).
inline constexpr std::array<endpoint_limit, 12> clob_limits{{
    {"/book", 1500, false},
    {"/books", 500, false},
    {"/price", 1500, false},
    {"/prices", 500, false},
    {"/midpoint", 1500, false},
    {"/midpoints", 500, false},
    {"/prices-history", 1000, false},
    {"/tick-size", 200, false},
    {"/order", 3500, false},
    {"/data/orders", 500, false},
    {"/data/trades", 500, false},
    {"/auth", 100, true},
}};

namespace detail {
template <std::size_t N>
GATEWAY_DECL constexpr std::uint32_t weight_in(std::array<endpoint_limit, N> const& limits,
                                               std::uint32_t general,
                                               std::string_view path) noexcept {
    for (auto const& l : limits) {
        bool const hit = path == l.path ||
                         (l.prefix && path.size() > l.path.size() &&
                          path.substr(0, l.path.size()) == l.path && path[l.path.size()] == '/');
        if (hit)
            return (general + l.per_window - 1) / l.per_window;
    }
    return 1;
}
} // namespace detail

/// The weight of a catalog request to `path` (no query): `/events` 8, `/markets` 14, others 1.
GATEWAY_DECL constexpr std::uint32_t catalog_weight(std::string_view path) noexcept {
    return detail::weight_in(catalog_limits, catalog_budget, path);
}

/// The weight of a CLOB request to `path` (no query, without any base path): `/book` 6,
/// `/midpoints` 18, `/tick-size` 45, `/order` 3, `/data/orders` and `/data/trades` 18, `/auth/...`
/// 90, others
/// (`/`, `/time`, `/neg-risk`) 1.
GATEWAY_DECL constexpr std::uint32_t clob_weight(std::string_view path) noexcept {
    return detail::weight_in(clob_limits, clob_budget, path);
}

} // namespace gateway::wire::gamma
