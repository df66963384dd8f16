#pragma once
/**
 * @file info.hpp
 * Pure builders of alpha's (Hyperliquid's) `POST /info` request bodies, `upstreams/alpha.md` §3:
 * the one place that spells the upstream's request types and parameter names, used by the
 * gateway and by anyone testing against mock-alpha. Keys are written in the upstream's order.
 */
#include <gateway/config.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace gateway::wire::alpha::info {

namespace detail {
GATEWAY_DECL boost::json::object typed(std::string_view type) {
    boost::json::object o;
    o["type"] = type;
    return o;
}
GATEWAY_DECL boost::json::object for_user(std::string_view type, std::string_view user) {
    auto o = typed(type);
    o["user"] = user;
    return o;
}
} // namespace detail

/// `allMids` of the main dex, or of builder dex `dex` when it is not empty (§3.1).
GATEWAY_DECL boost::json::object all_mids(std::string_view dex = {}) {
    auto o = detail::typed("allMids");
    if (!dex.empty())
        o["dex"] = dex;
    return o;
}
/// `meta` of the main dex or of `dex` (§3.2).
GATEWAY_DECL boost::json::object meta(std::string_view dex = {}) {
    auto o = detail::typed("meta");
    if (!dex.empty())
        o["dex"] = dex;
    return o;
}
/// `metaAndAssetCtxs` of `dex` ("" = main) (§3.2).
GATEWAY_DECL boost::json::object meta_and_asset_ctxs(std::string_view dex) {
    auto o = detail::typed("metaAndAssetCtxs");
    o["dex"] = dex;
    return o;
}
/// `spotMeta` (§3.3).
GATEWAY_DECL boost::json::object spot_meta() {
    return detail::typed("spotMeta");
}
/// `perpDexs` (§3.12).
GATEWAY_DECL boost::json::object perp_dexs() {
    return detail::typed("perpDexs");
}
/// `perpDexStatus` of `dex` (§3.12).
GATEWAY_DECL boost::json::object perp_dex_status(std::string_view dex) {
    auto o = detail::typed("perpDexStatus");
    o["dex"] = dex;
    return o;
}
/// `clearinghouseState` of `user` on `dex` ("" = main) (§3.4).
GATEWAY_DECL boost::json::object clearinghouse_state(std::string_view user, std::string_view dex) {
    auto o = detail::for_user("clearinghouseState", user);
    o["dex"] = dex;
    return o;
}
/// `frontendOpenOrders` of `user` on `dex` ("" = main) (§3.6).
GATEWAY_DECL boost::json::object frontend_open_orders(std::string_view user, std::string_view dex) {
    auto o = detail::for_user("frontendOpenOrders", user);
    o["dex"] = dex;
    return o;
}
/// `frontendOpenOrders` of `user` on the main dex, without a `dex` key (§3.6).
GATEWAY_DECL boost::json::object frontend_open_orders(std::string_view user) {
    return detail::for_user("frontendOpenOrders", user);
}
/// `spotClearinghouseState` of `user` (§3.5).
GATEWAY_DECL boost::json::object spot_clearinghouse_state(std::string_view user) {
    return detail::for_user("spotClearinghouseState", user);
}
/// `userFills` of `user` (§3.8); `aggregateByTime` always sent.
GATEWAY_DECL boost::json::object user_fills(std::string_view user, bool aggregate = false) {
    auto o = detail::for_user("userFills", user);
    o["aggregateByTime"] = aggregate;
    return o;
}
/// `userFillsByTime` of `user` from `start` (ms), to `end` when given (§3.8).
GATEWAY_DECL boost::json::object user_fills_by_time(std::string_view user, std::int64_t start,
                                                    std::optional<std::int64_t> end,
                                                    bool aggregate = false) {
    auto o = detail::for_user("userFillsByTime", user);
    o["startTime"] = start;
    if (end)
        o["endTime"] = *end;
    o["aggregateByTime"] = aggregate;
    return o;
}
/// `orderStatus` of order `oid` of `user` (§3.7).
GATEWAY_DECL boost::json::object order_status(std::string_view user, std::uint64_t oid) {
    auto o = detail::for_user("orderStatus", user);
    o["oid"] = oid;
    return o;
}
/// `l2Book` of `coin` (§3.9).
GATEWAY_DECL boost::json::object l2_book(std::string_view coin) {
    auto o = detail::typed("l2Book");
    o["coin"] = coin;
    return o;
}
/// `recentTrades` of `coin` (§3.11).
GATEWAY_DECL boost::json::object recent_trades(std::string_view coin) {
    auto o = detail::typed("recentTrades");
    o["coin"] = coin;
    return o;
}
/// `candleSnapshot` of `coin` (§3.10): `interval` the upstream's name, times in ms.
GATEWAY_DECL boost::json::object candle_snapshot(std::string_view coin, std::string_view interval,
                                                 std::int64_t start, std::int64_t end) {
    boost::json::object req;
    req["coin"] = coin;
    req["interval"] = interval;
    req["startTime"] = start;
    req["endTime"] = end;
    auto o = detail::typed("candleSnapshot");
    o["req"] = std::move(req);
    return o;
}
/// `extraAgents` of `user` (§3.13).
GATEWAY_DECL boost::json::object extra_agents(std::string_view user) {
    return detail::for_user("extraAgents", user);
}
/// `userRole` of `user` (§3.13).
GATEWAY_DECL boost::json::object user_role(std::string_view user) {
    return detail::for_user("userRole", user);
}
/// `exchangeStatus` (§3.13): the health probe.
GATEWAY_DECL boost::json::object exchange_status() {
    return detail::typed("exchangeStatus");
}

} // namespace gateway::wire::alpha::info
