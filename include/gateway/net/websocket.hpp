#pragma once
/**
 * @file websocket.hpp
 * WebSocket for the gateway, the mocks and the SDK: one session type serves both ends (a
 * connection `http_server` upgraded, or one `ws_connect` opened, over TCP or TLS).
 *
 * A session reads text frames and hands each to a callback on its own strand; `send()` queues
 * frames from any thread and one writer drains the queue in order. Shared frames
 * (`std::shared_ptr<std::string const>`) let a fan-out serialise a message once for every
 * subscriber. What a hostile or slow peer can cost is bounded:
 * - a frame (message) over `max_message` bytes closes the session with 1009 (message too big);
 * - more than `max_queued` frames, or more than `max_queued_bytes` of them, waiting to be
 *   written closes it with 1013 (try again later), dropping what is queued: a client that cannot
 *   keep up is cut off, never buffered without bound; a peer's control pings are answered with
 *   one pong for the latest (RFC 6455 §5.5.3), so they cannot pile up either;
 * - the session pings the peer every half `peer_timeout` and closes it when none of its pings
 *   was answered for `peer_timeout` (a dead peer, or one that sends but never reads).
 *
 * Only text frames are read; binary frames are handed over as they come (callers reject what
 * they cannot parse).
 */
#define GATEWAY_NET_IN_WEBSOCKET_HPP
#include <gateway/config.hpp>
#include <gateway/net/http_server.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::net {

/// Close codes this code base uses (RFC 6455 §7.4.1).
namespace ws_code {
inline constexpr std::uint16_t normal = 1000;
inline constexpr std::uint16_t going_away = 1001;
inline constexpr std::uint16_t protocol_error = 1002;
inline constexpr std::uint16_t policy = 1008;
inline constexpr std::uint16_t too_big = 1009;
inline constexpr std::uint16_t try_again_later = 1013;
} // namespace ws_code

struct ws_options {
    std::size_t max_message = std::size_t{64} * 1024; ///< larger incoming messages: close 1009
    std::size_t max_queued = 1000; ///< more frames waiting to be written: close 1013
    /// More payload bytes waiting to be written (the frame in flight included): close 1013.
    std::size_t max_queued_bytes = std::size_t{4} * 1024 * 1024;
    /// How long the peer may leave our pings unanswered before it is taken for dead and
    /// closed; a ping goes out every half of it. Zero: no pings, no idle close.
    std::chrono::milliseconds peer_timeout{30000};
    std::chrono::milliseconds handshake_timeout{10000}; ///< opening and closing handshakes
};

/// How a session ended.
struct ws_end {
    std::uint16_t code = 0; ///< the close code sent or received; 0 when the transport broke
    std::string reason;     ///< the close frame's reason, or what broke
    bool by_peer = false;   ///< the peer closed (or vanished), not this side
};

class ws_session : public std::enable_shared_from_this<ws_session> {
public:
    using message_handler = std::function<void(std::string_view text)>;

    ~ws_session();
    ws_session(ws_session const&) = delete;
    ws_session& operator=(ws_session const&) = delete;

    /// Queues a frame; any thread. Past `max_queued` waiting frames the session closes with
    /// 1013 instead. Ignored once the session is closing.
    void send(std::shared_ptr<std::string const> frame);
    void send(std::string frame);

    /// Closes with `code` after the frames already being written; any thread; idempotent.
    void close(std::uint16_t code = ws_code::normal, std::string reason = {});

    /// Frames waiting to be written (approximate when read from another thread).
    std::size_t queued() const noexcept;
    /// Their payload bytes (approximate when read from another thread).
    std::size_t queued_bytes() const noexcept;
    /// False once the session is closing or closed.
    bool is_open() const noexcept;

    /// The session's strand: `on_message` runs on it.
    boost::asio::any_io_executor get_executor() const;

    /**
     * Serves the session: reads messages and hands each to `on_message` (on the session's
     * strand, whatever executor awaits this) while the writer drains the queue, until either
     * side closes or the transport breaks. Call once.
     */
    boost::asio::awaitable<ws_end> run(message_handler on_message);

    struct impl;
    explicit ws_session(std::unique_ptr<impl> p);

private:
    friend class ws_send_batch;
    boost::asio::awaitable<ws_end> serve(message_handler on_message);
    void start_writer(); ///< posts the writer's start to the strand
    std::unique_ptr<impl> impl_;
};

/**
 * While one lives on this thread, a `send()` that would start an idle writer leaves the start to
 * the end of its scope: a fan-out of several frames to the same sessions starts each writer
 * once, and each session writes them in one system call. Nested scopes join the outer one. For
 * synchronous scopes only, never across a `co_await`.
 */
class ws_send_batch {
public:
    ws_send_batch();
    ~ws_send_batch();
    ws_send_batch(ws_send_batch const&) = delete;
    ws_send_batch& operator=(ws_send_batch const&) = delete;

private:
    std::vector<std::shared_ptr<ws_session>> started_;
    bool outer_ = false;
};

/// The handshake step of an upgrade request, handed to the server's upgrade hook.
class ws_upgrade {
public:
    /// `lease` is the server's hold on the connection (its count against the connection cap,
    /// `stop()` reaching it): a session that takes the connection keeps it until it ends.
    ws_upgrade(boost::beast::tcp_stream& stream, request& req, std::function<void()>& abort,
               std::shared_ptr<void> lease = nullptr)
        : stream_(stream)
        , req_(req)
        , abort_(abort)
        , lease_(std::move(lease)) {}

    /**
     * Completes the handshake (101) and returns the session, which the hook then `run()`s; null
     * when the handshake failed (the connection is gone). After this the HTTP connection
     * belongs to the session; the server's `stop()` closes it with 1001. The hook need not await
     * `run()`: the server goes on counting the connection until the session ends, and the
     * hook's and the HTTP connection's coroutine frames are freed meanwhile.
     */
    boost::asio::awaitable<std::shared_ptr<ws_session>> accept(ws_options const& options);

    /// Whether `accept` took the connection (the server then leaves it to the session).
    bool taken() const noexcept { return taken_; }

private:
    bool taken_ = false;
    boost::beast::tcp_stream& stream_;
    request& req_;
    std::function<void()>& abort_;
    std::shared_ptr<void> lease_;
};

/// Why `ws_connect` failed.
struct ws_connect_error {
    std::string message; ///< one sentence naming the step
    unsigned status = 0; ///< the HTTP status when the server answered but refused the upgrade
    std::string body;    ///< its body
};

struct ws_connect_options {
    std::chrono::milliseconds timeout{10000}; ///< resolve, connect, TLS and handshake together
    std::vector<std::pair<std::string, std::string>> headers; ///< extra handshake fields
    ws_options session;
    /// TLS context of `wss://` (null: the system trust store, peer verified).
    std::shared_ptr<boost::asio::ssl::context> tls;
};

/**
 * Opens a client session to `ws://host[:port]/path[?query]` or `wss://...`; the caller then
 * `run()`s it. The session's strand is a new strand of `ex`.
 */
GATEWAY_IO_DECL
boost::asio::awaitable<boost::system::result<std::shared_ptr<ws_session>, ws_connect_error>>
ws_connect(boost::asio::any_io_executor ex, std::string_view url, ws_connect_options options = {});

} // namespace gateway::net

#undef GATEWAY_NET_IN_WEBSOCKET_HPP
#include <gateway/net/impl/http_server.hpp>

#if !defined(GATEWAY_SEPARATE_COMPILATION)
#include <gateway/net/impl/websocket.hpp>
#endif
