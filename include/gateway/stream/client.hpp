#pragma once
/**
 * @file client.hpp
 * `gateway::stream::stream_client`: the SDK's asynchronous client of the gateway's WebSocket
 * `/ws/v1/perps` (CONTRACT §8; the frames are protocol.hpp's). One connection carries any number
 * of subscriptions (up to the server's 100); every data frame arrives as the REST type it carries.
 *
 * @code
 *   namespace gs = gateway::stream;
 *   gs::stream_handlers h;
 *   h.book = [](gs::subscription const& s, gateway::orderbook const& b, std::uint64_t seq) {...};
 *   h.fills = [](gs::subscription const& s, std::vector<gateway::fill> const& f) {...};
 *   auto c = gs::stream_client::create(ioc.get_executor(),
 *                                      {.url = "ws://127.0.0.1:8080", .api_key = key}, h).value();
 *   // in a coroutine:
 *   if (auto ok = co_await c.connect(); !ok) ...;             // a refused key is final
 *   auto ack = co_await c.subscribe({.channel = gs::channel::orderbook, .provider = "alpha",
 *                                    .symbol = "BTC"});       // result<subscription>
 * @endcode
 *
 * @par Threads
 * The client works on a strand of the executor it is given: every handler runs on that strand,
 * one at a time. `subscribe`, `unsubscribe`, `ping` and `connect` may be awaited from any
 * coroutine (they hop to the strand and back); `close` may be called from any thread, and no
 * handler but `closed` starts after it returned.
 *
 * @par Reconnect
 * Once `connect` succeeded, the client keeps the connection up by itself: when it drops (the
 * gateway restarted, a network break, a close such as 1013 for a slow reader) the client raises
 * a local `reconnecting` status for each subscription, reconnects with jittered exponential
 * backoff (`reconnect_min` .. `reconnect_max`, full jitter), subscribes to everything again and
 * raises a local `restored` per subscription as its ack comes. Order books start over: the next
 * book is a fresh snapshot whose `seq` is taken as the new baseline. A handshake the gateway
 * refuses with 401/403 (or another 4xx but 408 and 429) is final: the error goes to `error` and
 * `closed`, and the client stops; an invalid or expired key is never retried.
 *
 * @par Errors
 * An awaited request returns the server's error frame as an `api_error` (its `code`, `message`,
 * `details`); no answer within `request_timeout`, or no connection, is `errc::transport_error`.
 * Errors no awaiting call takes (a failed resubscribe, a frame the client cannot read, a refused
 * reconnect) go to the `error` handler with the frame's `id` (null when it had none).
 */
#include <gateway/config.hpp>
#include <gateway/result.hpp>
#include <gateway/stream/protocol.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/market.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gateway::stream {

struct client_options {
    /// The gateway: `ws://host:port` or `wss://...`; its REST base (`http(s)://...`, the same
    /// listener) works too. The path (`/ws/v1/perps`) is added.
    std::string url = "ws://127.0.0.1:8080";
    /// Sent as `X-API-Key` in the handshake (never in the URL, never logged).
    std::optional<std::string> api_key;
    /// Connect to `/ws/v1/testnet/perps` (a `svc_test_` key can only use that).
    bool testnet = false;
    /// Resolve + connect + TLS + handshake of one attempt.
    std::chrono::milliseconds connect_timeout{10000};
    /// How long an awaited subscribe, unsubscribe or ping waits for its answer (a request made
    /// while the client is reconnecting waits for the connection within it).
    std::chrono::milliseconds request_timeout{10000};
    /// Reconnect delays: attempt n waits a uniformly random time in [0, min(max, min * 2^n)],
    /// at least 10 ms.
    std::chrono::milliseconds reconnect_min{100};
    std::chrono::milliseconds reconnect_max{10000};
    /// Silence from the gateway after which the connection is taken for dead (a ping goes out at
    /// half of it); the gateway pings too.
    std::chrono::milliseconds peer_timeout{30000};
    /// TLS context of `wss://` (null: the system trust store, peer verified).
    std::shared_ptr<boost::asio::ssl::context> tls;
};

/// A `status` frame of the gateway (`local` false), or the client's own connection going down
/// and coming back (`local` true: `reconnecting`, then `restored` once resubscribed).
struct status_event {
    subscription sub;
    stream_status status = stream_status::restored;
    std::string message;
    bool local = false;
};

/// What the client reports; every member may be left empty. All run on the client's strand.
struct stream_handlers {
    std::function<void(subscription const&, price_map const&)> prices;
    std::function<void(subscription const&, std::vector<trade> const&)> trades;
    /// A whole book (a snapshot, never a delta) and its `seq`.
    std::function<void(subscription const&, orderbook const&, std::uint64_t seq)> book;
    std::function<void(subscription const&, std::vector<candle> const&)> candles;
    /// The address's open orders after a change, whole.
    std::function<void(subscription const&, std::vector<open_order> const&)> orders;
    /// The address's new fills.
    std::function<void(subscription const&, std::vector<fill> const&)> fills;
    std::function<void(status_event const&)> status;
    /// An order book's `seq` skipped: frames `expected` .. `got - 1` were lost (the book
    /// itself, a whole snapshot, is still delivered to `book`).
    std::function<void(subscription const&, std::uint64_t expected, std::uint64_t got)> gap;
    /// An error no awaiting call returned, with the frame's `id` (null when none).
    std::function<void(boost::json::value const& id, api_error const&)> error;
    /// The client stopped for good: nullopt after `close()`, else the final refusal.
    std::function<void(std::optional<api_error> const&)> closed;
};

/**
 * @par Lifetime
 * A move-only handle; destroying it closes the client. Its work keeps the executor busy until
 * `close()` (or a final refusal), after which everything it started ends.
 */
class stream_client {
public:
    /// @par Errors VALIDATION_ERROR naming `url` when it is not a ws(s)/http(s) base URL.
    GATEWAY_IO_DECL static result<stream_client>
    create(boost::asio::any_io_executor ex, client_options options, stream_handlers handlers = {});

    GATEWAY_IO_DECL stream_client(stream_client&&) noexcept;
    GATEWAY_IO_DECL stream_client& operator=(stream_client&&) noexcept;
    stream_client(stream_client const&) = delete;
    stream_client& operator=(stream_client const&) = delete;
    GATEWAY_IO_DECL ~stream_client();

    /**
     * Opens the connection (one attempt; call again to retry). From then on the client
     * reconnects by itself. Already connected: success at once.
     * @par Errors the handshake's refusal as the gateway's `api_error` (INVALID_API_KEY 401,
     * TESTNET_KEY_ONLY 403: final, the client is closed), TRANSPORT_ERROR when no WebSocket
     * answered.
     */
    GATEWAY_IO_DECL boost::asio::awaitable<result<void>> connect();

    /**
     * Subscribes and waits for the ack; returns the subscription as the gateway acknowledged it
     * (an orderbook's depth defaults to 20, an address in lower case). Resubscribed after each
     * reconnect until `unsubscribe`.
     * @par Errors the gateway's: VALIDATION_ERROR, PROVIDER_NOT_FOUND, MARKET_NOT_FOUND,
     * RATE_LIMITED, SIGNER_NOT_APPROVED, ...; TRANSPORT_ERROR on no answer.
     */
    GATEWAY_IO_DECL boost::asio::awaitable<result<subscription>> subscribe(subscription s);
    /// Unsubscribes and waits for the ack (while disconnected: forgets it at once).
    GATEWAY_IO_DECL boost::asio::awaitable<result<subscription>> unsubscribe(subscription s);
    /// The same with a callback instead (run on the client's strand).
    GATEWAY_IO_DECL void subscribe(subscription s, std::function<void(result<subscription>)> done);
    GATEWAY_IO_DECL void unsubscribe(subscription s,
                                     std::function<void(result<subscription>)> done);
    /// A protocol ping; succeeds when the pong came.
    GATEWAY_IO_DECL boost::asio::awaitable<result<void>> ping();

    /// Closes the connection (1000) and stops reconnecting; pending requests fail with
    /// TRANSPORT_ERROR. Any thread; idempotent.
    GATEWAY_IO_DECL void close();

    /// Whether a connection is up now (approximate from other threads).
    GATEWAY_IO_DECL bool connected() const noexcept;
    /// How many times the connection came back after dropping.
    GATEWAY_IO_DECL std::uint64_t reconnects() const noexcept;

private:
    struct state;
    explicit stream_client(std::shared_ptr<state> s) noexcept;
    std::shared_ptr<state> st_;
};

} // namespace gateway::stream

#ifndef GATEWAY_SEPARATE_COMPILATION
#include <gateway/stream/impl/client.hpp>
#endif
