#pragma once
/**
 * @file upstream.hpp
 * The seam between the common mock core and one upstream's wire protocol.
 *
 * The core owns the control API, faults, stats, the market state and its walk timer; a router
 * only speaks its upstream's protocol. Later issues add accounts, matching, signature checks
 * and WebSocket behind the same seam.
 */
#include "market_state.hpp"
#include "ws_hub.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace gateway::mocks {

/// What a router learns about the caller.
struct caller {
    std::string address; ///< client IP, the key of per-IP rate limits
};

/// One upgraded WebSocket connection as an upstream serves it (its subscriptions, its protocol).
/// `on_message` runs on the connection's strand, one message at a time.
class ws_handler {
public:
    virtual ~ws_handler() = default;
    virtual void on_open() {}
    virtual void on_message(std::string_view text) = 0;
    /// The connection ended (either side); the core then removes it from the hub.
    virtual void on_close() {}
};

/// What an upstream makes of an upgrade request: an HTTP answer refusing it, or the handler
/// of the accepted connection (made once the connection exists).
struct ws_accept {
    std::function<std::unique_ptr<ws_handler>(std::shared_ptr<ws_conn> const& conn)> make;
};
using ws_route = std::variant<net::response, ws_accept>;

class upstream_router {
public:
    virtual ~upstream_router() = default;

    /// The stats kind of an upstream request (alpha: the `/info` type or `exchange:<action>`;
    /// beta/gamma: method + path without query, e.g. `GET /fapi/v3/ping`).
    virtual std::string classify(net::request const& req) const = 0;

    /// Answers an upstream request. Runs on a connection strand; must not block.
    virtual net::response handle(net::request const& req, caller const& who) = 0;

    /// The answer for a forced-status fault, in the upstream's own error body shape.
    virtual net::response forced_status(unsigned status, unsigned version) const = 0;

    /// The server's own failures (malformed HTTP, body too large), in the upstream's shape.
    virtual net::response render_failure(net::failure const& f, unsigned version) const = 0;

    /**
     * Upstream-specific control endpoints (CONTRACT §10), e.g. alpha's `/__mock/accounts`.
     * The core calls it for `/__mock/` targets the common control API does not own, outside
     * faults, rate limits and stats; nullopt means "not mine" (the core answers 404). Errors
     * use the control API's `{"error":"<sentence>"}` shape (`control_error`).
     */
    virtual std::optional<net::response> handle_control(net::request const& req) {
        (void)req;
        return std::nullopt;
    }

    /// The stats kind of a WebSocket upgrade request (e.g. `ws:connect`).
    virtual std::string classify_ws(net::request const& req) const {
        (void)req;
        return "ws:connect";
    }

    /// A WebSocket upgrade request (after faults and stats): refuse it with an answer, or accept
    /// it. By default there is no WebSocket: 404 in the upstream's shape.
    virtual ws_route ws_open(net::request const& req, caller const& who) {
        (void)who;
        return forced_status(404, req.version());
    }

    /// The market state changed (a walk step, `/__mock/mark`, `/__mock/tick`): streams follow.
    virtual void on_market_change() {}

    /// The mock's io executor, once, before it serves (timers of the streams); `stop` before
    /// the mock stops.
    virtual void start(boost::asio::any_io_executor ex) { (void)ex; }
    virtual void stop() {}
};

} // namespace gateway::mocks
