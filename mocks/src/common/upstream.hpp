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

#include <gateway/net/http_server.hpp>

#include <memory>
#include <optional>
#include <string>

namespace gateway::mocks {

/// What a router learns about the caller.
struct caller {
    std::string address; ///< client IP, the key of per-IP rate limits
};

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
};

} // namespace gateway::mocks
