#pragma once
/**
 * @file session.hpp
 * The gateway's HTTP session layer between the server plumbing (net::http_server) and the
 * routes: the route matched once, `X-Request-Id` (echoed or generated), the API-key gate before
 * the body is read, the handler's result rendered as the contract's JSON (CONTRACT §2 envelope)
 * and one access-log line. The only gateway code that touches Beast messages.
 */
#include "auth/api_key_gate.hpp"
#include "http/context.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace gateway::server {

class session_layer {
public:
    session_layer(router const& routes, api_key_gate const& gate, util::clock const& time)
        : routes_(routes)
        , gate_(gate)
        , time_(time) {}

    /// net::inspector: the gate, before the body is read.
    net::inspection inspect(net::request_header const& h, net::tcp::endpoint const& remote) const;
    /// net::handler: the route, rendered.
    boost::asio::awaitable<std::optional<net::response>> handle(net::request& req,
                                                                net::tcp::endpoint remote) const;

    /// The server's own failures (malformed request, body over the limit) in the contract's
    /// error shape (net::failure_renderer).
    static net::response render_failure(net::failure const& f, unsigned version);

    /// The raw Beast request behind a context (for the account pages: cookies and forms).
    static net::request const& raw_request(request_context const& ctx);

private:
    router const& routes_;
    api_key_gate const& gate_;
    util::clock const& time_;
};

/// The `X-Request-Id` of a request: the client's when it is 1..128 visible ASCII characters,
/// else 32 random hex digits (one format for every answer, the server's own failures too).
std::string request_id_for(std::optional<std::string_view> client_value);

/// A header field's value, if the request has it.
std::optional<std::string_view> header_of(net::request_header const& h, std::string_view name);

/// A contract error as an HTTP response (status, JSON envelope, `Retry-After`).
net::response error_response(api_error const& e, unsigned version);

} // namespace gateway::server
