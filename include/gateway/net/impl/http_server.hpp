#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <array>
#include <exception>
#include <mutex>
#include <unordered_set>

namespace gateway::net {

namespace detail {
namespace asio = boost::asio;
namespace beast = boost::beast;
inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// Parse errors are the client's fault (400); anything else on a read is a closed or timed-out
/// connection, which deserves no answer.
inline bool is_parse_error(boost::system::error_code const& ec) {
    return ec.category() == http::make_error_code(http::error::bad_target).category() &&
           ec != http::error::end_of_stream && ec != http::error::partial_message &&
           ec != http::error::body_limit && ec != http::error::header_limit &&
           ec != http::error::buffer_overflow;
}
} // namespace detail

inline response render_plain_failure(failure const& f, unsigned http_version) {
    http::status const st = f.kind == failure_kind::bad_request ? http::status::bad_request
                            : f.kind == failure_kind::payload_too_large
                                ? http::status::payload_too_large
                                : http::status::internal_server_error;
    response res{st, http_version};
    res.set(http::field::content_type, "text/plain");
    res.body() = f.message;
    return res;
}

struct http_server::connection {
    explicit connection(tcp::socket s, tcp::endpoint r)
        : stream(std::move(s))
        , remote(std::move(r)) {}
    boost::beast::tcp_stream stream;
    tcp::endpoint remote;
    bool busy = false;    // strand-only: a request is being handled or answered
    bool closing = false; // strand-only: stop() asked to close after the current response
};

struct http_server::registry {
    mutable std::mutex m;
    std::unordered_set<std::shared_ptr<connection>> live;
    bool stopped = false;
};

inline http_server::http_server(boost::asio::io_context& ioc, server_options options, handler h,
                                failure_renderer render, inspector inspect)
    : ioc_(ioc)
    , options_(std::move(options))
    , handler_(std::move(h))
    , render_(render ? std::move(render) : failure_renderer(render_plain_failure))
    , inspect_(std::move(inspect))
    , acceptor_(boost::asio::make_strand(ioc))
    , registry_(std::make_unique<registry>()) {}

inline http_server::~http_server() = default;

inline tcp::endpoint http_server::listen(tcp::endpoint const& ep) {
    acceptor_.open(ep.protocol());
    acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen(boost::asio::socket_base::max_listen_connections);
    local_ = acceptor_.local_endpoint();
    return local_;
}

inline void http_server::start() {
    boost::asio::co_spawn(acceptor_.get_executor(), accept_loop(), boost::asio::detached);
}

inline void http_server::stop() {
    auto self = shared_from_this();
    boost::asio::post(acceptor_.get_executor(), [self] {
        boost::system::error_code ignored;
        self->acceptor_.close(ignored);
    });
    std::vector<std::shared_ptr<connection>> live;
    {
        std::lock_guard lock(registry_->m);
        registry_->stopped = true;
        live.assign(registry_->live.begin(), registry_->live.end());
    }
    for (auto& c : live) {
        boost::asio::post(c->stream.get_executor(), [c] {
            c->closing = true;
            if (!c->busy)
                c->stream.cancel(); // an idle keep-alive read ends now
        });
    }
}

inline std::size_t http_server::connection_count() const {
    std::lock_guard lock(registry_->m);
    return registry_->live.size();
}

inline void http_server::forget(connection* c) {
    std::lock_guard lock(registry_->m);
    for (auto it = registry_->live.begin(); it != registry_->live.end(); ++it) {
        if (it->get() == c) {
            registry_->live.erase(it);
            return;
        }
    }
}

inline boost::asio::awaitable<void> http_server::accept_loop() {
    auto self = shared_from_this();
    for (;;) {
        auto [ec, socket] =
            co_await acceptor_.async_accept(boost::asio::make_strand(ioc_), detail::use_tuple);
        if (ec == boost::asio::error::operation_aborted || !acceptor_.is_open())
            co_return;
        if (ec)
            continue; // e.g. EMFILE or a peer that reset before accept: keep serving others
        boost::system::error_code rec;
        auto remote = socket.remote_endpoint(rec);
        auto c = std::make_shared<connection>(std::move(socket), remote);
        {
            std::lock_guard lock(registry_->m);
            if (registry_->stopped)
                co_return;
            registry_->live.insert(c);
        }
        boost::asio::co_spawn(c->stream.get_executor(), serve(c), boost::asio::detached);
    }
}

inline boost::asio::awaitable<void> http_server::linger_close(std::shared_ptr<connection> c,
                                                              response res) {
    // The request body may still be arriving: after the answer, half-close and drain it
    // briefly, so the client reads our answer instead of a reset (a "lingering close").
    res.keep_alive(false);
    res.set(http::field::server, options_.server_name);
    res.prepare_payload();
    c->stream.expires_after(options_.read_timeout);
    auto [wec, wn] = co_await http::async_write(c->stream, res, detail::use_tuple);
    if (wec)
        co_return;
    boost::system::error_code ec;
    c->stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    std::array<char, 16384> sink{};
    std::size_t drained = 0;
    c->stream.expires_after(std::chrono::seconds(2));
    while (!ec && drained < 4 * options_.body_limit) {
        auto [rec, n] =
            co_await c->stream.async_read_some(boost::asio::buffer(sink), detail::use_tuple);
        ec = rec;
        drained += n;
    }
}

inline boost::asio::awaitable<void> http_server::serve(std::shared_ptr<connection> c) {
    namespace beast = boost::beast;
    auto self = shared_from_this();
    beast::flat_buffer buffer;
    bool first = true;
    // A response the server produced itself (bad request, too large, refused by the
    // inspector): sent after the loop, then the connection ends.
    std::optional<response> early;
    std::string const too_large =
        "The request body is over the limit of " + std::to_string(options_.body_limit) + " bytes.";

    for (;;) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(options_.header_limit));
        parser.body_limit(options_.body_limit);
        c->stream.expires_after(first ? options_.read_timeout : options_.idle_timeout);
        first = false;
        auto [ec, n] =
            co_await http::async_read_header(c->stream, buffer, parser, detail::use_tuple);
        if (ec == http::error::body_limit) {
            // Beast checks Content-Length against the body limit while reading the header.
            early = render_({failure_kind::payload_too_large, too_large}, parser.get().version());
            break;
        }
        if (ec) {
            if (detail::is_parse_error(ec) || ec == http::error::header_limit)
                early = render_(
                    {failure_kind::bad_request, "Malformed HTTP request: " + ec.message() + "."},
                    11);
            break;
        }
        c->busy = true;
        auto const& header = parser.get();
        if (auto len = parser.content_length(); len && *len > options_.body_limit) {
            early = render_({failure_kind::payload_too_large, too_large}, header.version());
            break;
        }
        inspection verdict;
        if (inspect_) {
            verdict = inspect_(header.base(), c->remote);
            if (verdict.answer) {
                early = std::move(verdict.answer);
                early->version(header.version());
                break;
            }
        }
        c->stream.expires_after(options_.read_timeout);
        auto [bec, bn] = co_await http::async_read(c->stream, buffer, parser, detail::use_tuple);
        if (bec == http::error::body_limit) {
            early = render_({failure_kind::payload_too_large, too_large}, header.version());
            break;
        }
        if (bec) {
            if (detail::is_parse_error(bec))
                early = render_(
                    {failure_kind::bad_request, "Malformed HTTP request: " + bec.message() + "."},
                    header.version());
            break;
        }
        request req = parser.release();
        std::optional<response> res;
        try {
            res = co_await handler_(req, c->remote);
        } catch (std::exception const&) {
            // A bug in a handler must not take the process down or leak internals.
            res = render_({failure_kind::internal, "Internal error."}, req.version());
        }
        if (!res)
            break; // the handler asked to drop the connection unanswered
        for (auto const& [name, value] : verdict.headers)
            if (res->find(name) == res->end())
                res->set(name, value);
        bool const keep = req.keep_alive() && !c->closing;
        res->version(req.version());
        res->keep_alive(keep);
        if (res->find(http::field::server) == res->end())
            res->set(http::field::server, options_.server_name);
        res->prepare_payload();
        c->stream.expires_after(options_.read_timeout);
        auto [wec, wn] = co_await http::async_write(c->stream, *res, detail::use_tuple);
        c->busy = false;
        // stop() may have run while the write was in flight: it saw `busy` and left the
        // closing to us, after keep-alive was already decided.
        if (wec || !keep || c->closing)
            break;
    }
    if (early)
        co_await linger_close(c, std::move(*early));
    boost::system::error_code ignored;
    c->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    c->stream.close();
    forget(c.get());
}

} // namespace gateway::net
