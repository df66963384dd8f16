#pragma once
/**
 * @file http_client.hpp
 * The one HTTP client of the tree: asynchronous (C++20 coroutines), keep-alive pooled per
 * origin, TLS through OpenSSL for https, one deadline over connect + write + read.
 *
 * The reference server uses it for every upstream call; the SDK's synchronous client drives it
 * on a private io_context. Failures are values (`fetch_error`), never exceptions.
 */
#include <gateway/config.hpp>
#include <gateway/net/url.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/result.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gateway::net {

namespace http = boost::beast::http;

/// Why a request got no HTTP answer.
struct fetch_error {
    enum class kind {
        connect, ///< resolve or connect failed (refused, unreachable, TLS handshake)
        timeout, ///< no complete answer before the deadline
        io,      ///< the connection broke mid-request or the answer was not HTTP
        refused, ///< the request itself was refused before sending (CR, LF or NUL in a header)
    };
    kind what = kind::io;
    std::string message; ///< one sentence naming the step, e.g. "connect to http://..: refused"
    /// True when the request may have reached the peer (write done), so a write's fate is
    /// unknown.
    bool maybe_delivered = false;
};

using http_response = http::response<http::string_body>;
using http_request = http::request<http::string_body>;

/// Options of one call.
struct fetch_options {
    std::chrono::milliseconds timeout{10000};
    /// Idempotent requests are retried once on a fresh connection when a pooled connection
    /// turns out to be stale; others never are.
    bool idempotent = true;
    std::size_t body_limit = 64 * 1024 * 1024;
};

/**
 * @par Thread safety
 * Safe to share: the pool is guarded by a mutex, and each call owns its connection.
 */
class http_client {
public:
    explicit http_client(boost::asio::any_io_executor ex,
                         std::shared_ptr<boost::asio::ssl::context> tls = nullptr,
                         std::size_t max_idle_per_origin = 16);
    ~http_client();
    http_client(http_client const&) = delete;
    http_client& operator=(http_client const&) = delete;

    /**
     * Sends `req` to `base` (its target is taken as a path under `base.prefix`) and reads the
     * answer. Host, User-Agent and Content-Length are filled in.
     *
     * A request whose target, header names or header values hold CR, LF or NUL is refused with
     * `fetch_error::kind::refused` and nothing is sent: such bytes would split one request into
     * two on a pooled connection. A connection goes back to the pool only when its answer ended
     * exactly at the end of what was read; one holding bytes nobody asked for is closed, so no
     * answer can ever reach another request.
     */
    boost::asio::awaitable<boost::system::result<http_response, fetch_error>>
    async_request(url const& base, http_request req, fetch_options opt = {});

    /// Drops every pooled idle connection.
    void clear_pool();

private:
    struct connection;
    boost::asio::awaitable<boost::system::result<http_response, fetch_error>>
    attempt(url const& base, http_request& req, fetch_options const& opt,
            std::chrono::steady_clock::time_point deadline, bool allow_reuse, bool& reused);
    std::unique_ptr<connection> take(std::string const& origin);
    void give_back(std::string const& origin, std::unique_ptr<connection> c);

    boost::asio::any_io_executor ex_;
    std::shared_ptr<boost::asio::ssl::context> tls_;
    std::size_t max_idle_;
    std::mutex m_;
    std::unordered_map<std::string, std::vector<std::unique_ptr<connection>>> idle_;
};

/// A TLS client context that verifies peers against the system trust store.
std::shared_ptr<boost::asio::ssl::context> make_client_tls_context();

} // namespace gateway::net

#ifndef GATEWAY_SEPARATE_COMPILATION
#include <gateway/net/impl/http_client.hpp>
#endif
