#pragma once
/**
 * @file http_server.hpp
 * An embeddable asynchronous HTTP/1.1 server: the plumbing shared by the reference server
 * (`gatewayd`) and the mock upstreams, so both speak HTTP the same way.
 *
 * One coroutine per connection on its own strand (Beast's advanced_server_flex shape), no
 * thread per connection. Each connection reads the header first, lets an optional `inspect`
 * hook answer early (oversized body, and later authentication, before the body is read), then
 * reads the body under a size limit and a deadline, calls the handler, writes, and loops while
 * keep-alive holds. `stop()` closes the listener, closes idle connections at once and lets
 * in-flight requests finish before their connection closes.
 *
 * What the server says on its own (malformed request, body over the limit, handler threw) is
 * rendered by the owner's `render_failure`, so the gateway answers the contract's JSON errors
 * and a mock its upstream's own shapes.
 *
 * @par Hostile clients
 * - Memory per connection is bounded: the read buffer never grows past `read_buffer_limit`
 *   (a header, a chunk-size line or a trailer section that does not fit is refused), chunk
 *   extensions count against `chunk_extension_limit` and trailer fields against
 *   `trailer_limit`; trailer fields are read and discarded, never merged into the header
 *   (RFC 9110 §6.5.1). Each of these answers 400 (`failure_kind::bad_request`) and closes.
 * - Framing (RFC 9112 §6): a request body is delimited by Content-Length or by exactly one
 *   `Transfer-Encoding: chunked` in an HTTP/1.1 request. Any other Transfer-Encoding (an
 *   unknown or non-final coding, `chunked` twice, several field lines), or Transfer-Encoding
 *   beside Content-Length (refused rather than "chunked, close after": the safer reading), or
 *   in HTTP/1.0, answers 400 and closes; the bytes after the header are never parsed as a
 *   further request.
 * - Connections: at most `max_connections` (default: see `default_max_connections`). A
 *   connection is idle while it waits for the first byte of a request, its first or a
 *   keep-alive one. At the cap a new connection closes the oldest idle one; when none is idle
 *   the new connection is refused by closing it at once, unanswered (the server never reads
 *   from it, and a TCP close is what a client or balancer retries on). When accept fails for
 *   want of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) while a client waits in
 *   the listen queue, the oldest idle connection is closed and accept tries again once it has
 *   closed (1 s at most). With no client waiting (at the limit Linux fails accept() even
 *   then), none idle, or any other persistent error, accept waits 5 ms, twice as long each
 *   time up to 250 ms, reset by a success. Every retry follows a freed descriptor or a wait:
 *   the loop never spins.
 */
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gateway::net {

namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using request = http::request<http::string_body>;
using response = http::response<http::string_body>;
using request_header = http::request_header<>;

/// Why the server answered without calling the handler.
enum class failure_kind {
    bad_request,       ///< unparseable or over a framing limit (header, trailer, chunk line)
    payload_too_large, ///< the body is over `options::body_limit`
    internal,          ///< the handler threw; nothing about it is revealed
};

struct failure {
    failure_kind kind;
    std::string message; ///< one sentence, safe to show a client
};

struct server_options {
    std::size_t body_limit = 64 * 1024;       ///< CONTRACT §2: 413 over 64 KiB
    std::size_t header_limit = 16 * 1024;     ///< request line + fields
    std::size_t trailer_limit = 4 * 1024;     ///< trailer fields of a chunked body, together
    std::size_t chunk_extension_limit = 1024; ///< chunk extensions of one request, together
    /// Most bytes a connection holds unparsed: bounds a header, one chunk-size line with its
    /// extensions, a trailer section and pipelined requests. Never below `header_limit`.
    std::size_t read_buffer_limit = 32 * 1024;
    /// Open connections at most; 0 takes `default_max_connections()` at `listen()`.
    std::size_t max_connections = 0;
    std::chrono::milliseconds read_timeout{30000}; ///< per request, header and body
    std::chrono::milliseconds idle_timeout{60000}; ///< between keep-alive requests
    std::string server_name = "gateway";
};

/// What the server did about connections since it started (for tests and stats).
struct server_stats {
    std::uint64_t accepted = 0;        ///< connections admitted
    std::uint64_t refused = 0;         ///< closed unanswered: at the cap with none idle
    std::uint64_t shed = 0;            ///< idle connections closed to make room
    std::uint64_t accept_failures = 0; ///< failed accepts (EMFILE, ENFILE...); each backs off
    std::size_t idle = 0;              ///< connections waiting for a request right now
};

/**
 * Raises this process's soft RLIMIT_NOFILE to its hard limit (the soft one is often 1,024
 * while the hard one is far higher) and returns the soft limit now in force; when the limit
 * cannot be changed it stays as it was. Programs call it once at start, before `listen()`:
 * the server itself never changes process-wide limits.
 */
std::uint64_t raise_open_file_limit();

/**
 * The default connection cap: the soft RLIMIT_NOFILE minus a reserve of a quarter of it, at
 * least 64, for everything else the process opens (upstream connections, embedded servers,
 * files, the database); never below 16. 1,024 descriptors give 768 connections.
 */
std::size_t default_max_connections();

/// The request handler: returns the response, or nullopt to close the connection without
/// answering (mocks use this for fault injection). Runs on the connection's strand.
using handler = std::function<boost::asio::awaitable<std::optional<response>>(
    request& req, tcp::endpoint const& remote)>;

/// What an inspector decided about a request whose header has been read.
struct inspection {
    /// Sent at once, and the connection closed, without reading the body or calling the
    /// handler (e.g. a failed authentication).
    std::optional<response> answer;
    /// Otherwise: headers added to the handler's response where it did not set them (e.g.
    /// rate-limit headers of the authenticated caller).
    std::vector<std::pair<std::string, std::string>> headers;
};

/// Runs after the header is read and before the body is. May be empty.
using inspector =
    std::function<inspection(request_header const& header, tcp::endpoint const& remote)>;

class ws_upgrade; // websocket.hpp

/**
 * The hook for requests asking for a WebSocket upgrade (see websocket.hpp): returns an HTTP
 * answer to refuse it (sent, then the connection closes), or nullopt once it has accepted and
 * served the session. Without a hook an upgrade request is an ordinary request.
 */
using upgrade_handler = std::function<boost::asio::awaitable<std::optional<response>>(
    request& req, tcp::endpoint const& remote, ws_upgrade& upgrade)>;

/// Renders the server's own failures (see `failure_kind`).
using failure_renderer = std::function<response(failure const& f, unsigned http_version)>;

/// Plain-text renderer used when the owner gives none.
response render_plain_failure(failure const& f, unsigned http_version);

/**
 * The server. Create it with `make_shared`, `listen()`, then `start()`; drive the io_context
 * from any number of threads.
 *
 * @par Thread safety
 * `listen`, `start` and `stop` may be called from any thread; handlers run concurrently on
 * different connections (each connection is serialised on its own strand).
 */
class http_server : public std::enable_shared_from_this<http_server> {
public:
    http_server(boost::asio::io_context& ioc, server_options options, handler h,
                failure_renderer render = render_plain_failure, inspector inspect = {});
    ~http_server();

    /// Binds and listens; port 0 picks a free one. Throws `boost::system::system_error` when
    /// the address cannot be bound (a start-up failure).
    tcp::endpoint listen(tcp::endpoint const& ep);

    /// Sets the WebSocket upgrade hook; before `start()`. An upgraded connection counts against
    /// `max_connections` until its session ends; `stop()` closes it with 1001.
    void on_upgrade(upgrade_handler h) { upgrade_ = std::move(h); }

    /// Starts accepting on the io_context.
    void start();

    /// Graceful stop: no new connections; idle ones close now, busy ones after their response.
    void stop();

    tcp::endpoint local_endpoint() const { return local_; }

    /// Connections open right now (for tests and stats).
    std::size_t connection_count() const;

    /// The connection cap in force (known after `listen()`).
    std::size_t max_connections() const { return max_connections_; }

    server_stats stats() const;

private:
    struct connection;
    boost::asio::awaitable<void> accept_loop();
    boost::asio::awaitable<void> serve(std::shared_ptr<connection> c);
    boost::asio::awaitable<void> linger_close(std::shared_ptr<connection> c, response res);
    void admit(tcp::socket socket);
    bool shed_oldest_idle(bool wake_acceptor);
    void park(std::shared_ptr<connection> const& c);
    bool unpark(connection& c);
    bool is_shed(connection const& c) const;
    void forget(connection* c);

    boost::asio::io_context& ioc_;
    server_options options_;
    handler handler_;
    failure_renderer render_;
    inspector inspect_;
    upgrade_handler upgrade_;
    tcp::acceptor acceptor_;
    boost::asio::steady_timer accept_backoff_; ///< on the acceptor's strand
    std::size_t max_connections_ = 0;
    tcp::endpoint local_;
    struct registry;
    std::unique_ptr<registry> registry_;
};

} // namespace gateway::net

#include <gateway/net/websocket.hpp> // ws_upgrade, which the server's bodies use
#ifndef GATEWAY_NET_IN_WEBSOCKET_HPP // else websocket.hpp includes it once it is declared
#include <gateway/net/impl/http_server.hpp>
#endif
