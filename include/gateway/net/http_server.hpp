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
 */
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <cstddef>
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
    bad_request,       ///< the request line or header could not be parsed
    payload_too_large, ///< the body is over `options::body_limit`
    internal,          ///< the handler threw; nothing about it is revealed
};

struct failure {
    failure_kind kind;
    std::string message; ///< one sentence, safe to show a client
};

struct server_options {
    std::size_t body_limit = 64 * 1024;            ///< CONTRACT §2: 413 over 64 KiB
    std::size_t header_limit = 16 * 1024;          ///< request line + fields
    std::chrono::milliseconds read_timeout{30000}; ///< per request, header and body
    std::chrono::milliseconds idle_timeout{60000}; ///< between keep-alive requests
    std::string server_name = "gateway";
};

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

    /// Starts accepting on the io_context.
    void start();

    /// Graceful stop: no new connections; idle ones close now, busy ones after their response.
    void stop();

    tcp::endpoint local_endpoint() const { return local_; }

    /// Connections open right now (for tests and stats).
    std::size_t connection_count() const;

private:
    struct connection;
    boost::asio::awaitable<void> accept_loop();
    boost::asio::awaitable<void> serve(std::shared_ptr<connection> c);
    boost::asio::awaitable<void> linger_close(std::shared_ptr<connection> c, response res);
    void forget(connection* c);

    boost::asio::io_context& ioc_;
    server_options options_;
    handler handler_;
    failure_renderer render_;
    inspector inspect_;
    tcp::acceptor acceptor_;
    tcp::endpoint local_;
    struct registry;
    std::unique_ptr<registry> registry_;
};

} // namespace gateway::net

#include <gateway/net/impl/http_server.hpp>
