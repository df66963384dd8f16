#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <algorithm>
#include <array>
#include <exception>
#include <list>
#include <mutex>
#include <unordered_map>

#include <poll.h>
#include <sys/resource.h>

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

/**
 * Beast's request parser with the limits Beast lacks: chunk extensions and trailer fields
 * are counted against their limits, and trailer fields are dropped instead of merged into the
 * header (RFC 9110 §6.5.1: a recipient must not merge a trailer field it does not know to be
 * safe there; the inspector has already judged the header). The body goes into a string, as
 * with `string_body`. Memory is bounded before these callbacks run by the read buffer's
 * maximum, since Beast hands a chunk-size line or a trailer section over only once it is
 * complete in the buffer.
 */
class request_parser final : public http::basic_parser<true> {
public:
    request_parser(std::size_t trailer_limit, std::size_t extension_limit)
        : trailer_limit_(trailer_limit)
        , extension_limit_(extension_limit) {}

    request& get() { return msg_; }
    request release() { return std::move(msg_); }

    /// Set when a callback refused the request: the sentence a client sees.
    std::string const& violation() const { return violation_; }

private:
    void on_request_impl(http::verb method, boost::beast::string_view method_str,
                         boost::beast::string_view target, int version,
                         boost::system::error_code& ec) override {
        msg_.target(target);
        if (method != http::verb::unknown)
            msg_.method(method);
        else
            msg_.method_string(method_str);
        msg_.version(static_cast<unsigned>(version));
        ec = {};
    }

    void on_response_impl(int, boost::beast::string_view, int,
                          boost::system::error_code& ec) override {
        ec = http::error::bad_version; // a request parser never sees a status line
    }

    void on_field_impl(http::field name, boost::beast::string_view name_string,
                       boost::beast::string_view value, boost::system::error_code& ec) override {
        ec = {};
        if (!is_header_done()) {
            msg_.insert(name, name_string, value);
            return;
        }
        trailer_bytes_ += name_string.size() + value.size() + 4; // "name: value\r\n"
        if (trailer_bytes_ > trailer_limit_) {
            violation_ = "The request's trailer fields are over the limit of " +
                         std::to_string(trailer_limit_) + " bytes.";
            ec = http::error::header_limit;
        }
    }

    void on_header_impl(boost::system::error_code& ec) override { ec = {}; }

    void on_body_init_impl(boost::optional<std::uint64_t> const& length,
                           boost::system::error_code& ec) override {
        // Beast has checked the length against the body limit already.
        if (length)
            msg_.body().reserve(static_cast<std::size_t>(*length));
        ec = {};
    }

    std::size_t on_body_impl(boost::beast::string_view body,
                             boost::system::error_code& ec) override {
        msg_.body().append(body.data(), body.size());
        ec = {};
        return body.size();
    }

    void on_chunk_header_impl(std::uint64_t, boost::beast::string_view extensions,
                              boost::system::error_code& ec) override {
        extension_bytes_ += extensions.size();
        ec = {};
        if (extension_bytes_ > extension_limit_) {
            violation_ = "The request's chunk extensions are over the limit of " +
                         std::to_string(extension_limit_) + " bytes.";
            ec = http::error::bad_chunk_extension;
        }
    }

    std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view body,
                                   boost::system::error_code& ec) override {
        return on_body_impl(body, ec);
    }

    void on_finish_impl(boost::system::error_code& ec) override { ec = {}; }

    request msg_;
    std::size_t trailer_limit_;
    std::size_t extension_limit_;
    std::size_t trailer_bytes_ = 0;
    std::size_t extension_bytes_ = 0;
    std::string violation_;
};

/**
 * RFC 9112 §6.1-6.3: true when the body's framing is beyond doubt. Without Transfer-Encoding
 * Beast frames by Content-Length (or no body). With it, only one field line whose value is
 * exactly `chunked`, in HTTP/1.1, without Content-Length, and which Beast also reads as
 * chunked, is sound; anything else (gzip, identity, xchunked, `chunked, identity`,
 * `chunked, chunked`, Transfer-Encoding with Content-Length or in HTTP/1.0) could make a
 * body run as a second request.
 */
inline bool framing_is_sound(request_header const& h, bool parser_chunked) {
    auto const [first, last] = h.equal_range(http::field::transfer_encoding);
    if (first == last)
        return !parser_chunked;
    if (std::next(first) != last || h.version() != 11 ||
        h.find(http::field::content_length) != h.end())
        return false;
    auto v = first->value();
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t'))
        v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t'))
        v.remove_suffix(1);
    return boost::beast::iequals(v, "chunked") && parser_chunked;
}

/// Why a read ended, as the sentence a client gets; nullopt when the connection closed or
/// timed out (nobody to answer).
inline std::optional<std::string> read_failure(boost::system::error_code const& ec,
                                               request_parser const& parser,
                                               std::size_t buffer_limit) {
    if (!parser.violation().empty())
        return parser.violation();
    if (ec == http::error::buffer_overflow)
        return "Malformed HTTP request: a header, chunk line or trailer is over the limit of " +
               std::to_string(buffer_limit) + " bytes.";
    if (is_parse_error(ec) || ec == http::error::header_limit)
        return "Malformed HTTP request: " + ec.message() + ".";
    return std::nullopt;
}

/// Accept errors that concern one client that is gone already: try the next one at once.
inline bool is_per_connection_accept_error(boost::system::error_code const& ec) {
    return ec == boost::asio::error::connection_aborted ||
           ec == boost::asio::error::connection_reset;
}

/// Accept errors that closing a connection can cure.
inline bool is_resource_exhaustion(boost::system::error_code const& ec) {
    return ec == boost::asio::error::no_descriptors ||
           ec == boost::system::errc::too_many_files_open_in_system ||
           ec == boost::asio::error::no_buffer_space || ec == boost::asio::error::no_memory;
}

/// True when a connection waits in the listen queue. At the descriptor limit Linux fails
/// accept() with EMFILE whether or not one does, so only this tells them apart.
inline bool connection_pending(tcp::acceptor& acceptor) {
    pollfd p{acceptor.native_handle(), POLLIN, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;
}

inline constexpr std::chrono::milliseconds accept_backoff_first{5};
inline constexpr std::chrono::milliseconds accept_backoff_last{250};
/// How long accept waits for a shed connection to close before it tries again anyway.
inline constexpr std::chrono::milliseconds shed_close_wait{1000};
} // namespace detail

inline std::uint64_t raise_open_file_limit() {
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur < rl.rlim_max) {
        rlimit raised = rl;
        raised.rlim_cur = rl.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            rl = raised;
    }
    return static_cast<std::uint64_t>(rl.rlim_cur);
}

inline std::size_t default_max_connections() {
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 768;
    std::uint64_t const limit = rl.rlim_cur == RLIM_INFINITY
                                    ? std::uint64_t{1} << 20
                                    : static_cast<std::uint64_t>(rl.rlim_cur);
    std::uint64_t const reserve = std::max<std::uint64_t>(64, limit / 4);
    return static_cast<std::size_t>(limit > reserve + 16 ? limit - reserve : 16);
}

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
    bool busy = false;           // strand-only: a request is being handled or answered
    bool closing = false;        // strand-only: stop() asked to close after the current response
    bool upgraded = false;       // strand-only: the stream now belongs to a WebSocket session
    std::function<void()> abort; // strand-only: closes the WebSocket session (stop())
    // Guarded by the registry's mutex:
    bool idle = false;          // waiting for the first byte of a request: in `registry::idle`
    bool shed = false;          // chosen to close under pressure: it ends without reading on
    bool wake_acceptor = false; // shed for a failed accept: its close retries the accept
    std::list<std::shared_ptr<connection>>::iterator idle_pos;
};

struct http_server::registry {
    mutable std::mutex m;
    std::unordered_map<connection const*, std::shared_ptr<connection>> live;
    /// Idle connections, the longest idle first: the first to shed under pressure.
    std::list<std::shared_ptr<connection>> idle;
    std::size_t shedding = 0; ///< shed but not closed yet: no longer counted against the cap
    bool stopped = false;
    server_stats stats;
};

inline http_server::http_server(boost::asio::io_context& ioc, server_options options, handler h,
                                failure_renderer render, inspector inspect)
    : ioc_(ioc)
    , options_(std::move(options))
    , handler_(std::move(h))
    , render_(render ? std::move(render) : failure_renderer(render_plain_failure))
    , inspect_(std::move(inspect))
    , acceptor_(boost::asio::make_strand(ioc))
    , accept_backoff_(acceptor_.get_executor())
    , registry_(std::make_unique<registry>()) {}

inline http_server::~http_server() = default;

inline tcp::endpoint http_server::listen(tcp::endpoint const& ep) {
    acceptor_.open(ep.protocol());
    acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen(boost::asio::socket_base::max_listen_connections);
    local_ = acceptor_.local_endpoint();
    max_connections_ =
        options_.max_connections != 0 ? options_.max_connections : default_max_connections();
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
        self->accept_backoff_.cancel();
    });
    std::vector<std::shared_ptr<connection>> live;
    {
        std::lock_guard lock(registry_->m);
        registry_->stopped = true;
        for (auto const& entry : registry_->live)
            live.push_back(entry.second);
    }
    for (auto& c : live) {
        boost::asio::post(c->stream.get_executor(), [c] {
            c->closing = true;
            if (c->abort)
                c->abort(); // a WebSocket session closes with 1001
            else if (!c->busy && !c->upgraded)
                c->stream.cancel(); // an idle keep-alive read ends now
        });
    }
}

inline std::size_t http_server::connection_count() const {
    std::lock_guard lock(registry_->m);
    return registry_->live.size();
}

inline server_stats http_server::stats() const {
    std::lock_guard lock(registry_->m);
    server_stats out = registry_->stats;
    out.idle = registry_->idle.size();
    return out;
}

inline void http_server::forget(connection* c) {
    bool wake = false;
    {
        std::lock_guard lock(registry_->m);
        if (c->idle) {
            registry_->idle.erase(c->idle_pos);
            c->idle = false;
        }
        if (c->shed)
            --registry_->shedding;
        wake = c->wake_acceptor;
        registry_->live.erase(c);
    }
    if (wake) // its descriptor is free now: the accept loop need not wait any longer
        boost::asio::post(acceptor_.get_executor(),
                          [self = shared_from_this()] { self->accept_backoff_.cancel(); });
}

inline void http_server::park(std::shared_ptr<connection> const& c) {
    std::lock_guard lock(registry_->m);
    if (c->shed)
        return;
    c->idle_pos = registry_->idle.insert(registry_->idle.end(), c);
    c->idle = true;
}

inline bool http_server::is_shed(connection const& c) const {
    std::lock_guard lock(registry_->m);
    return c.shed;
}

/// True when the connection was shed while idle: it must close now.
inline bool http_server::unpark(connection& c) {
    std::lock_guard lock(registry_->m);
    if (c.idle) {
        registry_->idle.erase(c.idle_pos);
        c.idle = false;
    }
    return c.shed;
}

/// Closes the longest-idle connection; false when none is idle. With `wake_acceptor`, its
/// close ends the accept loop's wait.
inline bool http_server::shed_oldest_idle(bool wake_acceptor) {
    std::shared_ptr<connection> victim;
    {
        std::lock_guard lock(registry_->m);
        if (registry_->idle.empty())
            return false;
        victim = std::move(registry_->idle.front());
        registry_->idle.pop_front();
        victim->idle = false;
        victim->shed = true;
        victim->wake_acceptor = wake_acceptor;
        ++registry_->shedding;
        ++registry_->stats.shed;
    }
    // Its read is pending on its own strand: cancel it there; serve() sees `shed` and closes.
    boost::asio::post(victim->stream.get_executor(), [victim] { victim->stream.cancel(); });
    return true;
}

inline void http_server::admit(tcp::socket socket) {
    boost::system::error_code rec;
    auto remote = socket.remote_endpoint(rec);
    // Answers leave at once: with Nagle's algorithm the last segment of a large answer waits
    // for the client's delayed ACK (up to 40 ms on Linux).
    socket.set_option(tcp::no_delay(true), rec);
    auto c = std::make_shared<connection>(std::move(socket), remote);
    bool room = false;
    {
        std::lock_guard lock(registry_->m);
        if (registry_->stopped)
            return; // closes the socket
        room = registry_->live.size() - registry_->shedding < max_connections_;
    }
    if (!room && !shed_oldest_idle(false)) {
        std::lock_guard lock(registry_->m);
        ++registry_->stats.refused;
        return; // every connection is busy: refuse this one by closing it
    }
    {
        std::lock_guard lock(registry_->m);
        if (registry_->stopped)
            return;
        registry_->live.emplace(c.get(), c);
        ++registry_->stats.accepted;
        // Idle from the start: a connection that never sends is the first to go.
        c->idle_pos = registry_->idle.insert(registry_->idle.end(), c);
        c->idle = true;
    }
    boost::asio::co_spawn(c->stream.get_executor(), serve(c), boost::asio::detached);
}

inline boost::asio::awaitable<void> http_server::accept_loop() {
    auto self = shared_from_this();
    auto delay = detail::accept_backoff_first;
    for (;;) {
        auto [ec, socket] =
            co_await acceptor_.async_accept(boost::asio::make_strand(ioc_), detail::use_tuple);
        if (ec == boost::asio::error::operation_aborted || !acceptor_.is_open())
            co_return;
        if (ec && detail::is_per_connection_accept_error(ec))
            continue; // that client left before we took it; the next one is unaffected
        if (ec) {
            // The pending connection stays queued, so trying again at once would spin. When
            // descriptors or memory ran out and a client is waiting, close the longest-idle
            // connection and try again once it has closed (its forget() ends the wait); with
            // no client waiting, nothing idle, or any other error, wait 5 ms, twice as long
            // each time up to 250 ms.
            {
                std::lock_guard lock(registry_->m);
                ++registry_->stats.accept_failures;
            }
            bool const shed = detail::is_resource_exhaustion(ec) &&
                              detail::connection_pending(acceptor_) && shed_oldest_idle(true);
            accept_backoff_.expires_after(shed ? detail::shed_close_wait : delay);
            co_await accept_backoff_.async_wait(detail::use_tuple); // cancelled: fine too
            if (!acceptor_.is_open())
                co_return;
            if (!shed)
                delay = std::min(delay * 2, detail::accept_backoff_last);
            continue;
        }
        delay = detail::accept_backoff_first;
        admit(std::move(socket));
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
    // The connection is forgotten (no longer counted, out of stop()'s reach) when the last
    // holder lets go: this coroutine, or the WebSocket session that took the connection over.
    // Weak: a session kept by the server's own handler state (a mock's subscriber list) must
    // not keep the server, and through its handler that state, alive in a cycle.
    std::shared_ptr<void> lease(nullptr, [weak = weak_from_this(), raw = c.get()](void*) {
        if (auto server = weak.lock())
            server->forget(raw);
    });
    std::size_t const buffer_limit = std::max(options_.read_buffer_limit, options_.header_limit);
    beast::flat_buffer buffer(buffer_limit);
    bool first = true;
    // A response the server produced itself (bad request, too large, refused by the
    // inspector): sent after the loop, then the connection ends.
    std::optional<response> early;
    std::string const too_large =
        "The request body is over the limit of " + std::to_string(options_.body_limit) + " bytes.";
    auto bad_request = [&](std::string message, unsigned version) {
        return render_({failure_kind::bad_request, std::move(message)}, version);
    };

    for (;;) {
        detail::request_parser parser(options_.trailer_limit, options_.chunk_extension_limit);
        parser.header_limit(static_cast<std::uint32_t>(options_.header_limit));
        parser.body_limit(options_.body_limit);
        c->stream.expires_after(first ? options_.read_timeout : options_.idle_timeout);
        if (buffer.size() == 0) {
            // Idle until the first byte of a request: only now may the connection be shed
            // to make room for a new one (see the file comment). admit() parked it for the
            // first request; a shed that came before this read started is seen here, and
            // one after it cancels the read.
            if (!first)
                park(c);
            else if (is_shed(*c))
                break;
            auto [iec, in] = co_await c->stream.async_read_some(
                buffer.prepare(beast::read_size(buffer, 4096)), detail::use_tuple);
            buffer.commit(in);
            if (unpark(*c) || iec)
                break;
        }
        if (!first)
            c->stream.expires_after(options_.read_timeout);
        first = false;
        auto [ec, n] =
            co_await http::async_read_header(c->stream, buffer, parser, detail::use_tuple);
        if (ec == http::error::body_limit) {
            // Beast checks Content-Length against the body limit while reading the header.
            early = render_({failure_kind::payload_too_large, too_large}, parser.get().version());
            break;
        }
        if (ec) {
            if (auto why = detail::read_failure(ec, parser, buffer_limit))
                early = bad_request(std::move(*why), 11);
            break;
        }
        c->busy = true;
        auto const& header = parser.get();
        if (!detail::framing_is_sound(header.base(), parser.chunked())) {
            early = bad_request("Malformed HTTP request: the only Transfer-Encoding accepted is "
                                "a single chunked, without Content-Length, in HTTP/1.1.",
                                header.version());
            break;
        }
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
            if (auto why = detail::read_failure(bec, parser, buffer_limit))
                early = bad_request(std::move(*why), header.version());
            break;
        }
        request req = parser.release();
        std::optional<response> res;
        if (upgrade_ && boost::beast::websocket::is_upgrade(req)) {
            // The session lives in this frame for hours: give back the request buffer's
            // memory (a client sends no frame before the 101, so it is empty).
            if (buffer.size() == 0) {
                buffer.clear();
                buffer.shrink_to_fit();
            }
            ws_upgrade up(c->stream, req, c->abort, lease);
            try {
                res = co_await upgrade_(req, c->remote, up);
            } catch (std::exception const&) {
                res = render_({failure_kind::internal, "Internal error."}, req.version());
            }
            c->upgraded = up.taken();
            if (!c->upgraded)
                c->abort = nullptr;
            if (res && !c->upgraded)
                early = std::move(res); // refused: answered, then closed
            break;
        }
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
    if (!c->upgraded) {
        boost::system::error_code ignored;
        c->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
        c->stream.close();
    }
    lease.reset();
}

} // namespace gateway::net
