#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <openssl/ssl.h>

#include <optional>
#include <string_view>

namespace gateway::net {

struct http_client::connection {
    explicit connection(boost::asio::any_io_executor const& ex)
        : plain(ex) {
        // Beast reads at most the buffer's free capacity at a time (at least 512 bytes): without
        // room, a large answer arrives 512 bytes a read, each an I/O completion.
        buffer.reserve(read_buffer_size);
    }
    static constexpr std::size_t read_buffer_size = 64 * 1024;
    boost::beast::tcp_stream plain;
    std::unique_ptr<boost::beast::ssl_stream<boost::beast::tcp_stream&>> tls;
    boost::beast::flat_buffer buffer;
    std::chrono::steady_clock::time_point idle_since;
};

GATEWAY_IO_DECL std::shared_ptr<boost::asio::ssl::context> make_client_tls_context() {
    auto ctx = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
    ctx->set_default_verify_paths();
    ctx->set_verify_mode(boost::asio::ssl::verify_peer);
    return ctx;
}

GATEWAY_IO_DECL http_client::http_client(boost::asio::any_io_executor ex,
                                         std::shared_ptr<boost::asio::ssl::context> tls,
                                         std::size_t max_idle_per_origin)
    : ex_(std::move(ex))
    , tls_(std::move(tls))
    , max_idle_(max_idle_per_origin) {}

GATEWAY_IO_DECL http_client::~http_client() = default;

GATEWAY_IO_DECL void http_client::clear_pool() {
    std::lock_guard lock(m_);
    idle_.clear();
}

GATEWAY_IO_DECL std::unique_ptr<http_client::connection>
http_client::take(std::string const& origin) {
    std::lock_guard lock(m_);
    auto it = idle_.find(origin);
    auto const now = std::chrono::steady_clock::now();
    while (it != idle_.end() && !it->second.empty()) {
        auto c = std::move(it->second.back());
        it->second.pop_back();
        // Servers close idle keep-alive connections; don't bet a request on an old one. Bytes
        // that arrived while it sat idle answer nothing we asked: such a connection is closed.
        boost::system::error_code ec;
        if (now - c->idle_since < std::chrono::seconds(20) && c->plain.socket().is_open() &&
            c->buffer.size() == 0 && c->plain.socket().available(ec) == 0 && !ec)
            return c;
    }
    return nullptr;
}

GATEWAY_IO_DECL void http_client::give_back(std::string const& origin,
                                            std::unique_ptr<connection> c) {
    c->idle_since = std::chrono::steady_clock::now();
    std::lock_guard lock(m_);
    auto& v = idle_[origin];
    if (v.size() < max_idle_)
        v.push_back(std::move(c));
}

namespace detail {
/// True when `s` holds no CR, LF or NUL: the bytes that end or cut an HTTP/1.1 header line.
constexpr bool header_safe(std::string_view s) noexcept {
    for (char const ch : s)
        if (ch == '\r' || ch == '\n' || ch == '\0')
            return false;
    return true;
}

/// The refusal of a request that would not travel as one HTTP message, or nothing.
GATEWAY_IO_DECL std::optional<fetch_error> unsafe_request(url const& base,
                                                          http_request const& req) {
    std::string_view what;
    if (!header_safe(req.target()))
        what = "its target";
    for (auto const& f : req) {
        if (!what.empty())
            break;
        if (!header_safe(f.name_string()) || !header_safe(f.value()))
            what = "a header";
    }
    if (what.empty())
        return std::nullopt;
    fetch_error e;
    e.what = fetch_error::kind::refused;
    e.message = "refused to send a request to " + base.str() + ": " + std::string(what) +
                " holds CR, LF or NUL";
    return e;
}
} // namespace detail

GATEWAY_IO_DECL boost::asio::awaitable<boost::system::result<http_response, fetch_error>>
http_client::async_request(url const& base, http_request req, fetch_options opt) {
    auto const deadline = std::chrono::steady_clock::now() + opt.timeout;
    if (auto refused = detail::unsafe_request(base, req))
        co_return *refused;
    req.target(base.target(req.target()));
    req.set(http::field::host, base.authority());
    if (req.find(http::field::user_agent) == req.end())
        req.set(http::field::user_agent, "gateway");
    req.keep_alive(true);
    req.prepare_payload();
    bool reused = false;
    auto r = co_await attempt(base, req, opt, deadline, true, reused);
    if (!r && reused && opt.idempotent && r.error().what != fetch_error::kind::timeout &&
        std::chrono::steady_clock::now() < deadline) {
        // The pooled connection was stale; a fresh one is safe for an idempotent request.
        r = co_await attempt(base, req, opt, deadline, false, reused);
    }
    co_return r;
}

namespace detail {
/// What is left until `deadline` (zero once it has passed). A function, not a lambda in the
/// coroutine: a lambda's type has no linkage, which a separately compiled frame must not hold.
GATEWAY_IO_DECL std::chrono::steady_clock::duration
time_left(std::chrono::steady_clock::time_point deadline) {
    auto const left = deadline - std::chrono::steady_clock::now();
    return left > std::chrono::steady_clock::duration::zero()
               ? left
               : std::chrono::steady_clock::duration::zero();
}
/// A failed step of a request (a named function: a lambda in the coroutine frame would have no
/// linkage, -Wsubobject-linkage).
GATEWAY_IO_DECL fetch_error failure(url const& base, fetch_error::kind k, std::string const& step,
                                    boost::system::error_code const& ec, bool delivered) {
    fetch_error e;
    e.what = ec == boost::beast::error::timeout ? fetch_error::kind::timeout : k;
    e.message =
        step + " " + base.str() +
        (e.what == fetch_error::kind::timeout ? ": no answer in time" : ": " + ec.message());
    e.maybe_delivered = delivered;
    return e;
}
} // namespace detail

GATEWAY_IO_DECL boost::asio::awaitable<boost::system::result<http_response, fetch_error>>
http_client::attempt(url const& base, http_request& req, fetch_options const& opt,
                     std::chrono::steady_clock::time_point deadline, bool allow_reuse,
                     bool& reused) {
    namespace asio = boost::asio;
    namespace beast = boost::beast;
    constexpr auto tok = asio::as_tuple(asio::use_awaitable);
    auto const origin = base.origin();

    std::unique_ptr<connection> c = allow_reuse ? take(origin) : nullptr;
    reused = c != nullptr;
    if (!c) {
        c = std::make_unique<connection>(ex_);
        asio::ip::tcp::resolver resolver(ex_);
        auto [rec, results] = co_await resolver.async_resolve(base.host, base.port, tok);
        if (rec)
            co_return detail::failure(base, fetch_error::kind::connect, "resolve", rec, false);
        c->plain.expires_after(detail::time_left(deadline));
        auto [cec, ep] = co_await c->plain.async_connect(results, tok);
        if (cec)
            co_return detail::failure(base, fetch_error::kind::connect, "connect to", cec, false);
        c->plain.socket().set_option(asio::ip::tcp::no_delay(true));
        if (base.tls()) {
            if (!tls_)
                tls_ = make_client_tls_context();
            c->tls = std::make_unique<beast::ssl_stream<beast::tcp_stream&>>(c->plain, *tls_);
            if (!SSL_set_tlsext_host_name(c->tls->native_handle(), base.host.c_str()))
                co_return detail::failure(base, fetch_error::kind::connect, "TLS SNI for", {},
                                          false);
            c->tls->set_verify_callback(asio::ssl::host_name_verification(base.host));
            c->plain.expires_after(detail::time_left(deadline));
            auto [hec] = co_await c->tls->async_handshake(asio::ssl::stream_base::client, tok);
            if (hec)
                co_return detail::failure(base, fetch_error::kind::connect, "TLS handshake with",
                                          hec, false);
        }
    }

    http::response_parser<http::string_body> parser;
    parser.body_limit(opt.body_limit);
    if (req.method() == http::verb::head)
        parser.skip(true);
    c->plain.expires_after(detail::time_left(deadline));
    boost::system::error_code wec, ec;
    if (c->tls) {
        std::tie(wec, std::ignore) = co_await http::async_write(*c->tls, req, tok);
        if (!wec)
            std::tie(ec, std::ignore) = co_await http::async_read(*c->tls, c->buffer, parser, tok);
    } else {
        std::tie(wec, std::ignore) = co_await http::async_write(c->plain, req, tok);
        if (!wec)
            std::tie(ec, std::ignore) = co_await http::async_read(c->plain, c->buffer, parser, tok);
    }
    if (wec)
        co_return detail::failure(base, fetch_error::kind::io, "send to", wec, !reused);
    if (ec)
        co_return detail::failure(base, fetch_error::kind::io, "read from", ec, true);
    http_response res = parser.release();
    // Bytes past the end of this answer answer no request of ours (a peer that answered twice,
    // or a smuggled request's answer): reusing the connection would hand them to the next caller.
    if (res.keep_alive() && c->buffer.size() == 0)
        give_back(origin, std::move(c));
    co_return res;
}

} // namespace gateway::net
