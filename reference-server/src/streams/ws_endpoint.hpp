#pragma once
/**
 * @file ws_endpoint.hpp
 * `/ws/v1/perps` and `/ws/v1/testnet/perps` (spec 5.3; CONTRACT §7, §8): the handshake's
 * authentication and the session protocol of one client connection.
 *
 * The handshake is checked by the same API-key gate as REST, with the key taken from the
 * `X-API-Key` header or the `apiKey` query parameter (never logged: the access line names the
 * path only); a refusal answers the upgrade request with the contract's error (401, 403, 429),
 * never upgrading; so does a malformed upgrade (400 VALIDATION_ERROR naming the header) and a
 * `Sec-WebSocket-Version` other than 13 (426 UPGRADE_REQUIRED). Then, per connection: at most
 * 100 subscriptions, each subscribe and unsubscribe frame drawn from the key's rate limit, frames
 * over 64 KiB closed with 1009, a client more than `ws_max_queued` frames or 4 MiB behind closed
 * with 1013, pings and a close of dead peers (`ws_peer_timeout`), and the key checked again every
 * `key_recheck` (and before each subscribe or unsubscribe): revoked or expired, the connection
 * is closed with 1008.
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
    net::ws_options session; ///< max_message 64 KiB, max_queued (frames and bytes), peer_timeout
    /// How often an open connection's key is checked again: a key revoked (or expired) is
    /// closed with 1008 within this of the revocation reaching the store. Zero: never.
    std::chrono::milliseconds key_recheck{250};
    /// Upstream user-stream slots one account may hold on each upstream: the distinct addresses
    /// whose `orders` or `fills` its connections subscribe to (both of one address: one slot).
    std::size_t max_user_streams = 2;
};

class ws_endpoint {
public:
    ws_endpoint(registry const& providers, api_key_gate const& gate, stream_hub& hub,
                util::clock const& time, ws_endpoint_options options);

    /// Whether `target` (path and query) is one of the WebSocket paths.
    static bool handles(std::string_view target);

    /// net::upgrade_handler.
    boost::asio::awaitable<std::optional<net::response>>
    upgrade(net::request& req, net::tcp::endpoint const& remote, net::ws_upgrade& up) const;

    /// Connections open right now.
    std::size_t connections() const noexcept { return connections_->load(); }

    /// The connections' send queues right now (CONTRACT §8 bounds).
    struct queue_stats {
        std::size_t sessions = 0; ///< connections not yet ended
        std::size_t closing = 0;  ///< of them, closing (a bound crossed, a close sent or asked)
        std::size_t max_queued_bytes = 0; ///< the largest unsent bytes of one connection
    };
    queue_stats queues() const;

private:
    struct client_state;
    struct user_slots;
    /// Runs an accepted session until it ends, then releases its subscriptions.
    boost::asio::awaitable<void> serve_client(std::shared_ptr<client_state> state,
                                              net::ws_session::message_handler on_message) const;
    /// Checks the connection's key every `key_recheck` until it is refused (close 1008) or the
    /// connection ends.
    boost::asio::awaitable<void> watch_key(std::shared_ptr<client_state> state) const;

    registry const& providers_;
    api_key_gate const& gate_;
    stream_hub& hub_;
    util::clock const& time_;
    ws_endpoint_options options_;
    std::shared_ptr<std::atomic<std::size_t>> connections_ =
        std::make_shared<std::atomic<std::size_t>>(0);
    std::shared_ptr<user_slots> user_slots_;
    struct live_sessions;
    std::shared_ptr<live_sessions> live_;
};

} // namespace gateway::server
