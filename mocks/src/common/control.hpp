#pragma once
/**
 * @file control.hpp
 * The mock control API of CONTRACT §10, served by every mock under `/__mock/` and never
 * subject to faults, rate limits or stats:
 *
 * - `POST /__mock/faults` `{"latencyMs":N,"status":N,"drop":true}` (status 400-599; any subset; the
 * posted object replaces the whole configuration, absent switches are off), `GET` shows it,
 *   `DELETE` clears it. Each answers the configuration now in force. WebSocket faults:
 *   `"wsStall":true`, `"wsDelayMs":N` (switches, shown only when set) and `"wsDrop":true` (one
 *   shot: closes every open WebSocket connection now; not kept).
 * - `GET /__mock/stats` `{"requests":N,"byKind":{...}}`, `DELETE` resets it.
 * - `POST /__mock/mark` `{"symbol":"BTC","price":"65000"}` moves (and pins) a mark; unknown
 *   symbol 404. `GET /__mock/mark` lists every mark.
 * - `POST /__mock/tick` `{"steps":N}` advances the random walk N steps at once (tests that
 *   want market movement without waiting for the timer).
 *
 * Errors are `{"error":"<one sentence>"}`: 400 bad body, 404 unknown endpoint or symbol,
 * 405 wrong method. Other `/__mock/` paths belong to the upstream router
 * (`upstream_router::handle_control`), e.g. alpha's `/__mock/accounts`.
 */
#include "faults.hpp"
#include "market_state.hpp"
#include "stats.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/json/object.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::mocks {

struct control_plane {
    fault_switch& faults;
    request_stats& stats;
    market_state& markets;
    /// `wsDrop`: closes every open WebSocket connection (may be empty).
    std::function<void()> drop_ws = {};
};

/// True for targets under `/__mock/`.
bool is_control_target(std::string_view target) noexcept;

/// The common control endpoints; nullopt for a path they do not own.
std::optional<net::response> handle_control(net::request const& req, control_plane cp);

/// 404 `{"error":"No control endpoint <path>."}`.
net::response control_not_found(net::request const& req);

/// `{"error":"<message>"}` with `status`.
net::response control_error(boost::beast::http::status status, std::string message,
                            unsigned version);

/// 405 with `Allow: <allow>`.
net::response control_not_allowed(std::string_view allow, unsigned version);

/// Parses a control body that must be a JSON object; `why` is a sentence for a 400.
std::optional<boost::json::object> parse_control_object(net::request const& req, std::string& why);

} // namespace gateway::mocks
