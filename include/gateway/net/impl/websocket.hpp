#pragma once

#include <gateway/net/url.hpp>
#include <gateway/net/websocket.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <openssl/ssl.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <variant>

namespace gateway::net {

namespace ws_detail {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
using plain_stream = websocket::stream<beast::tcp_stream>;
using tls_stream = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

template <class Ws>
void apply_options(Ws& ws, ws_options const& o, beast::role_type role) {
    beast::get_lowest_layer(ws).expires_never(); // the websocket stream keeps its own time
    websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(role);
    t.handshake_timeout = o.handshake_timeout;
    if (o.peer_timeout.count() > 0) {
        t.idle_timeout = o.peer_timeout;
        t.keep_alive_pings = true;
    } else {
        t.idle_timeout = websocket::stream_base::none();
        t.keep_alive_pings = false;
    }
    ws.set_option(t);
    ws.read_message_max(o.max_message);
    ws.auto_fragment(false);
}
/// Connect, TLS (wss), then the opening handshake, within `deadline`.
template <class Ws>
asio::awaitable<boost::system::error_code>
open_steps(Ws& ws, asio::ip::tcp::resolver::results_type const& results,
           std::chrono::steady_clock::time_point deadline, url const& u, std::string const& target,
           std::vector<std::pair<std::string, std::string>> const& headers,
           websocket::response_type& answer) {
    auto& tcp = beast::get_lowest_layer(ws);
    tcp.expires_at(deadline);
    auto [cec, ep] = co_await tcp.async_connect(results, use_tuple);
    if (cec)
        co_return cec;
    if constexpr (std::is_same_v<Ws, tls_stream>) {
        auto& ssl = ws.next_layer();
        if (!SSL_set_tlsext_host_name(ssl.native_handle(), u.host.c_str()))
            co_return boost::system::error_code(static_cast<int>(::ERR_get_error()),
                                                asio::error::get_ssl_category());
        ssl.set_verify_callback(asio::ssl::host_name_verification(u.host));
        auto [hec] = co_await ssl.async_handshake(asio::ssl::stream_base::client, use_tuple);
        if (hec)
            co_return hec;
    }
    ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
        req.set(boost::beast::http::field::user_agent, "gateway-sdk");
        for (auto const& [name, value] : headers)
            req.set(name, value);
    }));
    auto [wec] = co_await ws.async_handshake(answer, u.authority(), target, use_tuple);
    co_return wec;
}

template <class Ws>
asio::awaitable<void> close_step(Ws& ws, websocket::close_reason const& cr) {
    co_await ws.async_close(cr, use_tuple);
}

template <class Ws>
asio::awaitable<std::tuple<boost::system::error_code, std::size_t>>
write_step(Ws& ws, std::shared_ptr<std::string const> frame) {
    ws.text(true);
    co_return co_await ws.async_write(asio::buffer(*frame), use_tuple);
}

template <class Ws>
asio::awaitable<std::tuple<boost::system::error_code, std::size_t>>
read_step(Ws& ws, beast::flat_buffer& buffer) {
    co_return co_await ws.async_read(buffer, use_tuple);
}
} // namespace ws_detail

struct ws_session::impl {
    template <class Ws>
    impl(std::in_place_type_t<Ws> tag, ws_options o, auto&&... args)
        : ws(tag, std::forward<decltype(args)>(args)...)
        , opts(std::move(o))
        , ex(std::visit([](auto& s) { return s.get_executor(); }, ws))
        , wake(ex)
        , hard_close(ex) {}

    std::variant<ws_detail::plain_stream, ws_detail::tls_stream> ws;
    ws_options opts;
    boost::asio::any_io_executor ex;
    boost::asio::steady_timer wake;       // the writer waits on it while the queue is empty
    boost::asio::steady_timer hard_close; // a close the peer does not take in time
    // Guarded by `qm`: senders on any thread push without a handler each; the writer is woken
    // (one post) only when it waits on an empty queue.
    std::mutex qm;
    std::deque<std::shared_ptr<std::string const>> queue;
    bool writer_waiting = false;
    bool refusing = false; ///< closing or ended: frames are dropped
    // Strand-only:
    std::optional<boost::beast::websocket::close_reason> pending_close;
    bool ended = false;
    bool writer_running = false;
    // Any thread:
    std::atomic<std::size_t> queued{0};
    std::atomic<bool> open{true};

    void shut_transport() {
        boost::system::error_code ignored;
        std::visit([&](auto& s) { boost::beast::get_lowest_layer(s).socket().close(ignored); }, ws);
    }
};

GATEWAY_IO_DECL ws_session::ws_session(std::unique_ptr<impl> p)
    : impl_(std::move(p)) {}

GATEWAY_IO_DECL ws_session::~ws_session() = default;

GATEWAY_IO_DECL std::size_t ws_session::queued() const noexcept {
    return impl_->queued.load(std::memory_order_relaxed);
}

GATEWAY_IO_DECL bool ws_session::is_open() const noexcept {
    return impl_->open.load(std::memory_order_relaxed);
}

GATEWAY_IO_DECL boost::asio::any_io_executor ws_session::get_executor() const {
    return impl_->ex;
}

GATEWAY_IO_DECL void ws_session::send(std::string frame) {
    send(std::make_shared<std::string const>(std::move(frame)));
}

GATEWAY_IO_DECL void ws_session::send(std::shared_ptr<std::string const> frame) {
    if (!is_open())
        return;
    if (impl_->queued.fetch_add(1, std::memory_order_relaxed) >= impl_->opts.max_queued) {
        impl_->queued.fetch_sub(1, std::memory_order_relaxed);
        close(ws_code::try_again_later,
              "too slow: more than " + std::to_string(impl_->opts.max_queued) + " frames queued");
        return;
    }
    auto& i = *impl_;
    bool wake = false;
    {
        std::lock_guard lock(i.qm);
        if (i.refusing) {
            i.queued.fetch_sub(1, std::memory_order_relaxed);
            return;
        }
        i.queue.push_back(std::move(frame));
        wake = std::exchange(i.writer_waiting, false);
    }
    if (wake)
        boost::asio::post(i.ex, [self = shared_from_this()] { self->impl_->wake.cancel(); });
}

GATEWAY_IO_DECL void ws_session::close(std::uint16_t code, std::string reason) {
    if (!impl_->open.exchange(false))
        return;
    boost::asio::post(impl_->ex,
                      [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
                          auto& i = *self->impl_;
                          if (i.ended)
                              return;
                          boost::beast::websocket::close_reason cr(code);
                          cr.reason = std::move(reason);
                          i.pending_close = std::move(cr);
                          {
                              std::lock_guard lock(i.qm);
                              i.refusing = true;
                              i.queued.fetch_sub(i.queue.size(), std::memory_order_relaxed);
                              i.queue.clear();
                          }
                          i.wake.cancel();
                          // A peer that reads nothing never lets the close frame out: cut it off.
                          i.hard_close.expires_after(i.opts.handshake_timeout);
                          i.hard_close.async_wait([self](boost::system::error_code ec) {
                              if (!ec)
                                  self->impl_->shut_transport();
                          });
                      });
}

GATEWAY_IO_DECL boost::asio::awaitable<ws_end> ws_session::run(message_handler on_message) {
    // On the session's strand: a coroutine awaited runs on its awaiter's executor, and the
    // reads must not race the writer.
    auto served =
        boost::asio::co_spawn(impl_->ex, serve(std::move(on_message)), boost::asio::use_awaitable);
    co_return co_await std::move(served);
}

GATEWAY_IO_DECL boost::asio::awaitable<ws_end> ws_session::serve(message_handler on_message) {
    namespace beast = boost::beast;
    namespace websocket = beast::websocket;
    using ws_detail::use_tuple;
    auto self = shared_from_this();
    auto& i = *impl_;

    // The writer: one write at a time, in queue order, then the close frame if one is pending.
    i.writer_running = true;
    boost::asio::co_spawn(
        i.ex,
        [self]() -> boost::asio::awaitable<void> {
            auto& w = *self->impl_;
            while (!w.ended) {
                if (w.pending_close) {
                    auto const cr = *w.pending_close;
                    if (auto* plain = std::get_if<ws_detail::plain_stream>(&w.ws))
                        co_await ws_detail::close_step(*plain, cr);
                    else
                        co_await ws_detail::close_step(std::get<ws_detail::tls_stream>(w.ws), cr);
                    break;
                }
                std::shared_ptr<std::string const> frame;
                {
                    std::lock_guard lock(w.qm);
                    if (!w.queue.empty()) {
                        frame = std::move(w.queue.front());
                        w.queue.pop_front();
                    } else {
                        w.writer_waiting = true;
                    }
                }
                if (frame) {
                    std::tuple<boost::system::error_code, std::size_t> written;
                    if (auto* plain = std::get_if<ws_detail::plain_stream>(&w.ws))
                        written = co_await ws_detail::write_step(*plain, frame);
                    else
                        written = co_await ws_detail::write_step(
                            std::get<ws_detail::tls_stream>(w.ws), frame);
                    auto const ec = std::get<0>(written);
                    w.queued.fetch_sub(1, std::memory_order_relaxed);
                    if (ec)
                        break;
                    continue;
                }
                w.wake.expires_at(boost::asio::steady_timer::time_point::max());
                co_await w.wake.async_wait(use_tuple);
            }
            w.writer_running = false;
        },
        boost::asio::detached);

    ws_end end;
    beast::flat_buffer buffer;
    for (;;) {
        std::tuple<boost::system::error_code, std::size_t> got;
        if (auto* plain = std::get_if<ws_detail::plain_stream>(&i.ws))
            got = co_await ws_detail::read_step(*plain, buffer);
        else
            got = co_await ws_detail::read_step(std::get<ws_detail::tls_stream>(i.ws), buffer);
        auto const ec = std::get<0>(got);
        if (ec) {
            auto const cr = std::visit([](auto& s) { return s.reason(); }, i.ws);
            if (ec == websocket::error::closed || cr.code != websocket::close_code::none) {
                // The peer's close frame arrived (even when the transport then broke).
                end.code = cr.code;
                end.reason = std::string(cr.reason.data(), cr.reason.size());
                end.by_peer = !i.pending_close;
            } else if (ec == websocket::error::message_too_big) {
                end.code = ws_code::too_big; // Beast has sent the close frame
                end.reason = "message over " + std::to_string(i.opts.max_message) + " bytes";
            } else {
                end.code = i.pending_close ? i.pending_close->code : 0;
                end.reason = i.pending_close ? std::string(i.pending_close->reason.data(),
                                                           i.pending_close->reason.size())
                                             : ec.message();
                end.by_peer = !i.pending_close;
            }
            break;
        }
        auto const data = buffer.cdata();
        on_message(std::string_view(static_cast<char const*>(data.data()), data.size()));
        buffer.consume(buffer.size());
    }
    i.open = false;
    i.ended = true;
    {
        std::lock_guard lock(i.qm);
        i.refusing = true;
        i.queued.fetch_sub(i.queue.size(), std::memory_order_relaxed);
        i.queue.clear();
    }
    i.wake.cancel();
    i.hard_close.cancel();
    i.shut_transport(); // ends a write the peer never takes
    co_return end;
}

GATEWAY_IO_DECL boost::asio::awaitable<std::shared_ptr<ws_session>>
ws_upgrade::accept(ws_options const& options) {
    namespace websocket = boost::beast::websocket;
    auto p = std::make_unique<ws_session::impl>(std::in_place_type<ws_detail::plain_stream>,
                                                options, std::move(stream_));
    taken_ = true;
    auto& ws = std::get<ws_detail::plain_stream>(p->ws);
    ws_detail::apply_options(ws, options, boost::beast::role_type::server);
    auto [ec] = co_await ws.async_accept(req_, ws_detail::use_tuple);
    if (ec)
        co_return nullptr;
    auto session = std::make_shared<ws_session>(std::move(p));
    abort_ = [weak = std::weak_ptr<ws_session>(session)] {
        if (auto s = weak.lock())
            s->close(ws_code::going_away, "server stopping");
    };
    co_return session;
}

GATEWAY_IO_DECL
boost::asio::awaitable<boost::system::result<std::shared_ptr<ws_session>, ws_connect_error>>
ws_connect(boost::asio::any_io_executor ex, std::string_view text, ws_connect_options options) {
    namespace asio = boost::asio;
    namespace beast = boost::beast;
    namespace websocket = beast::websocket;
    using ws_detail::use_tuple;
    using failure = ws_connect_error;

    // url::parse takes no query: split it off the target.
    std::string_view query;
    if (auto const q = text.find('?'); q != std::string_view::npos) {
        query = text.substr(q);
        text = text.substr(0, q);
    }
    auto const u = url::parse(text);
    if (!u || (u->scheme != "ws" && u->scheme != "wss"))
        co_return failure{"not a ws:// or wss:// URL: " + std::string(text), 0, {}};
    std::string const target = (u->prefix.empty() ? "/" : u->prefix) + std::string(query);
    auto const strand = asio::make_strand(ex);

    asio::ip::tcp::resolver resolver(strand);
    auto [rec, results] = co_await resolver.async_resolve(u->host, u->port, use_tuple);
    if (rec)
        co_return failure{"resolve " + u->host + ": " + rec.message(), 0, {}};

    std::unique_ptr<ws_session::impl> p;
    if (u->tls()) {
        auto tls = options.tls;
        if (!tls) {
            tls = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
            tls->set_default_verify_paths();
            tls->set_verify_mode(asio::ssl::verify_peer);
        }
        p = std::make_unique<ws_session::impl>(std::in_place_type<ws_detail::tls_stream>,
                                               options.session, strand, *tls);
    } else {
        p = std::make_unique<ws_session::impl>(std::in_place_type<ws_detail::plain_stream>,
                                               options.session, strand);
    }
    auto const deadline = std::chrono::steady_clock::now() + options.timeout;
    websocket::response_type answer;
    boost::system::error_code ec;
    if (auto* plain = std::get_if<ws_detail::plain_stream>(&p->ws))
        ec = co_await ws_detail::open_steps(*plain, results, deadline, *u, target, options.headers,
                                            answer);
    else
        ec = co_await ws_detail::open_steps(std::get<ws_detail::tls_stream>(p->ws), results,
                                            deadline, *u, target, options.headers, answer);
    if (ec) {
        failure f;
        if (ec == websocket::error::upgrade_declined) { // the server answered, not with 101
            f.status = answer.result_int();
            f.body = answer.body();
            f.message = "handshake refused with HTTP " + std::to_string(f.status);
        } else {
            // The origin only: a path may carry a secret (a listen key, a query key).
            f.message = "connect to " + u->scheme + "://" + u->authority() + ": " + ec.message();
        }
        co_return f;
    }
    std::visit(
        [&](auto& ws) { ws_detail::apply_options(ws, options.session, beast::role_type::client); },
        p->ws);
    co_return std::make_shared<ws_session>(std::move(p));
}

} // namespace gateway::net
