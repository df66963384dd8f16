#pragma once
/**
 * @file ws_endpoint.hpp
 * `/ws/v1/perps` and `/ws/v1/testnet/perps` (spec 5.3; CONTRACT §7, §8): the handshake's
 * authentication and the session protocol of one client connection.
 *
 * The handshake is checked by the same API-key gate as REST, with the key taken from the
 * `X-API-Key` header or the `apiKey` query parameter (never logged: the access line names the
 * path only); a refusal answers the upgrade request with the contract's error (401, 403, 429),
 * never upgrading. Then, per connection: at most 100 subscriptions, each subscribe frame drawn
 * from the key's rate limit, frames over 64 KiB closed with 1009, a client more than
 * `ws_max_queued` frames behind closed with 1013, pings and a close of dead peers
 * (`ws_peer_timeout`).
 */
#include "auth/api_key_gate.hpp"
#include "providers/provider.hpp"
#include "streams/hub.hpp"

#include <gateway/net/websocket.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/awaitable.hpp>

#include <optional>

namespace gateway::server {

struct ws_endpoint_options {
    std::size_t max_subscriptions = 100;
    net::ws_options session; ///< max_message 64 KiB, max_queued, peer_timeout
};

class ws_endpoint {
public:
    ws_endpoint(registry const& providers, api_key_gate const& gate, stream_hub& hub,
                util::clock const& time, ws_endpoint_options options)
        : providers_(providers)
        , gate_(gate)
        , hub_(hub)
        , time_(time)
        , options_(std::move(options)) {}

    /// Whether `target` (path and query) is one of the WebSocket paths.
    static bool handles(std::string_view target);

    /// net::upgrade_handler.
    boost::asio::awaitable<std::optional<net::response>>
    upgrade(net::request& req, net::tcp::endpoint const& remote, net::ws_upgrade& up) const;

    /// Connections open right now.
    std::size_t connections() const noexcept { return connections_->load(); }

private:
    struct client_state;
    /// Runs an accepted session until it ends, then releases its subscriptions.
    boost::asio::awaitable<void> serve_client(std::shared_ptr<client_state> state,
                                              net::ws_session::message_handler on_message) const;

    registry const& providers_;
    api_key_gate const& gate_;
    stream_hub& hub_;
    util::clock const& time_;
    ws_endpoint_options options_;
    std::shared_ptr<std::atomic<std::size_t>> connections_ =
        std::make_shared<std::atomic<std::size_t>>(0);
};

} // namespace gateway::server
