#pragma once

#include <gateway/net/url.hpp>
#include <gateway/net/websocket.hpp>
#include <gateway/net/ws_frame.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <variant>

namespace gateway::net {

namespace ws_detail {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using tls_socket = asio::ssl::stream<tcp::socket>;
inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// Frames gathered into one write: a writer that fell behind catches up a batch per system call.
inline constexpr std::size_t write_batch = std::size_t{64} * 1024;
/// Free room asked of each read: a server reads small client frames, a client bursts of frames.
inline constexpr std::size_t server_read = 512;
inline constexpr std::size_t client_read = std::size_t{16} * 1024;
/// An empty read buffer above this size is given back (a large message passed through).
inline constexpr std::size_t read_keep = std::size_t{32} * 1024;

/// A view of buffers as a ConstBufferSequence: a gathered write walks the session's own vector
/// instead of copying it into the operation.
struct buffer_span {
    using value_type = asio::const_buffer;
    using const_iterator = asio::const_buffer const*;
    const_iterator first;
    std::size_t count;
    [[nodiscard]] const_iterator begin() const noexcept { return first; }
    [[nodiscard]] const_iterator end() const noexcept { return first + count; }
};

inline std::string base64(unsigned char const* data, std::size_t n) {
    std::string out(4 * ((n + 2) / 3), '\0');
    auto const written =
        ::EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(n));
    out.resize(static_cast<std::size_t>(written));
    return out;
}

/// Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC 6455 §4.2.2).
inline std::string accept_key(std::string_view key) {
    static constexpr std::string_view guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    std::string text(key);
    text.append(guid);
    std::array<unsigned char, SHA_DIGEST_LENGTH> digest{};
    ::SHA1(reinterpret_cast<unsigned char const*>(text.data()), text.size(), digest.data());
    return base64(digest.data(), digest.size());
}

/// A client's key is the base64 of 16 bytes: 24 characters ending in "==".
inline bool plausible_key(std::string_view key) {
    if (key.size() != 24 || key.substr(22) != "==")
        return false;
    return std::all_of(key.begin(), key.begin() + 22, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
    });
}

inline void random_bytes(unsigned char* out, std::size_t n) {
    if (::RAND_bytes(out, static_cast<int>(n)) != 1)
        throw std::runtime_error("websocket: no random bytes for a mask or key");
}

/// Whether a comma-separated header value holds `token` (case-insensitive).
inline bool has_token(std::string_view value, std::string_view token) {
    while (!value.empty()) {
        auto const comma = value.find(',');
        auto item = value.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
            item.remove_suffix(1);
        if (beast::iequals(item, token))
            return true;
        if (comma == std::string_view::npos)
            break;
        value.remove_prefix(comma + 1);
    }
    return false;
}
/// The innermost ws_send_batch of this thread, if any: the sessions whose writers it starts.
inline thread_local std::vector<std::shared_ptr<ws_session>>* current_batch = nullptr;
} // namespace ws_detail

struct ws_session::impl {
    template <class Io, class... Args>
    impl(std::in_place_type_t<Io> tag, bool is_client, ws_options const& o, Args&&... args)
        : io(tag, std::forward<Args>(args)...)
        , client(is_client)
        , opts(o)
        , ex(std::visit([](auto& s) { return s.get_executor(); }, io))
        , hard_close(ex)
        , keepalive(ex)
        , writer_done(ex)
        , reader(!is_client, opts.max_message) {}

    std::variant<ws_detail::tcp::socket, ws_detail::tls_socket> io;
    bool client;
    ws_options opts;
    boost::asio::any_io_executor ex;
    boost::asio::steady_timer hard_close;  // a close the peer does not take in time
    boost::asio::steady_timer keepalive;   // pings a quiet peer, gives up on a silent one
    boost::asio::steady_timer writer_done; // the reader waits on it for a last close frame
    // Guarded by `qm`: senders on any thread push without a handler each; the writer is started
    // (one post) only when it is idle.
    std::mutex qm;
    std::deque<std::shared_ptr<std::string const>> queue;
    bool writer_idle = true;
    bool refusing = false; ///< closing or ended: frames are dropped
    // Strand-only:
    std::string control; ///< framed keepalive pings, written before any data
    // The pong owed to the peer's latest ping (RFC 6455 §5.5.3 lets a pong answer only the most
    // recent ping): a peer that pings without reading costs one pong, not one per ping.
    std::string pong_payload;
    bool pong_due = false;
    std::optional<std::pair<std::uint16_t, std::string>> pending_close;
    bool close_sent = false;  ///< the close frame is written (or being written)
    bool peer_closed = false; ///< the peer's close frame arrived
    bool timed_out = false;   ///< the peer left a ping unanswered past peer_timeout
    bool ended = false;
    bool writing = false;         ///< a write is in flight
    bool writer_finished = false; ///< the close frame is out, or a write failed: no more writes
    std::string wbuf; ///< the batch being written (copied frames), or its control frames
    // A server's batch on plain TCP is gathered instead: each frame's header from `heads`, its
    // payload from the shared frame itself (held until written), so a frame fanned out to
    // thousands of clients is never copied per client.
    std::string heads;
    std::vector<std::shared_ptr<std::string const>> held;
    std::vector<boost::asio::const_buffer> gather;
    // The peer is alive while it answers our pings: only a pong echoing the outstanding ping's
    // payload counts, so a peer that sends (pings, pongs, messages) but never reads is dead.
    std::chrono::steady_clock::time_point last_alive = std::chrono::steady_clock::now();
    std::string ping_payload;        ///< the outstanding keepalive ping's payload; empty: none
    std::vector<unsigned char> rbuf; ///< received bytes [rbeg, rend) not yet read as frames
    std::size_t rbeg = 0;
    std::size_t rend = 0;
    net::ws_frame::reader reader;
    /// The accepting server's hold on the connection, released when the session ends.
    std::shared_ptr<void> lease;
    // Any thread:
    std::atomic<std::size_t> queued{0};
    std::atomic<std::size_t> queued_bytes{0}; ///< payload bytes of the `queued` frames
    std::atomic<bool> open{true};

    void shut_transport() {
        boost::system::error_code ignored;
        std::visit([&](auto& s) { s.lowest_layer().close(ignored); }, io);
    }

    /// Appends one frame to `out`, masked with a fresh key on the client side.
    void frame(std::string& out, net::ws_frame::opcode op, std::string_view payload) const {
        if (!client) {
            net::ws_frame::append_frame(out, op, payload);
            return;
        }
        std::array<unsigned char, 4> key{};
        ws_detail::random_bytes(key.data(), key.size());
        net::ws_frame::append_frame(out, op, payload, &key);
    }

    /// Starts the closing handshake (strand): what is queued is dropped, the writer sends the
    /// close frame next.
    void begin_close(std::uint16_t code, std::string reason,
                     std::shared_ptr<ws_session> const& owner) {
        if (pending_close || ended)
            return;
        open = false;
        pending_close.emplace(code, std::move(reason));
        refuse_frames();
        kick(owner);
    }

    /// From now on frames are dropped, those queued included (any thread).
    void refuse_frames() {
        std::lock_guard lock(qm);
        refusing = true;
        std::size_t bytes = 0;
        for (auto const& f : queue)
            bytes += f->size();
        queued.fetch_sub(queue.size(), std::memory_order_relaxed);
        queued_bytes.fetch_sub(bytes, std::memory_order_relaxed);
        queue.clear();
    }

    /// Cuts the transport off if the closing handshake is not over within the close timeout.
    void arm_hard_close(std::shared_ptr<ws_session> const& owner) {
        hard_close.expires_after(opts.handshake_timeout);
        hard_close.async_wait([owner](boost::system::error_code ec) {
            if (!ec)
                owner->impl_->shut_transport();
        });
    }

    /// Starts the writer if it is idle (strand); `owner` keeps the session alive meanwhile.
    void kick(std::shared_ptr<ws_session> const& owner) {
        if (!writing && !writer_finished && !ended)
            write_next(owner);
    }

    /// The writer (strand): the control frames, then the close frame or as many queued frames
    /// as fit one batch, in one write. Idle when there is nothing to write.
    void write_next(std::shared_ptr<ws_session> const& owner) {
        namespace wf = net::ws_frame;
        if (writing || writer_finished || ended)
            return;
        wbuf.clear();
        wbuf.swap(control);
        if (pong_due) {
            frame(wbuf, wf::opcode::pong, pong_payload);
            pong_due = false;
        }
        std::size_t frames = 0;
        std::size_t frame_bytes = 0;
        bool closing = false;
        if (pending_close && !close_sent) {
            frame(wbuf, wf::opcode::close,
                  wf::close_payload(pending_close->first, pending_close->second));
            close_sent = closing = true;
        } else if (!close_sent) {
            std::lock_guard lock(qm);
            std::size_t bytes = wbuf.size();
            std::size_t n = 0;
            for (auto const& f : queue) {
                if (n > 0 && bytes + f->size() + wf::max_header > ws_detail::write_batch)
                    break;
                bytes += f->size() + wf::max_header;
                ++n;
            }
            if (gathers()) {
                heads.reserve(n * wf::max_header); // no reallocation: the buffers point into it
                gather.reserve(2 * n + 1);
                if (!wbuf.empty())
                    gather.emplace_back(wbuf.data(), wbuf.size());
                for (; frames < n; ++frames) {
                    auto& f = queue.front();
                    frame_bytes += f->size();
                    std::size_t const at = heads.size();
                    wf::append_header(heads, wf::opcode::text, f->size());
                    gather.emplace_back(heads.data() + at, heads.size() - at);
                    gather.emplace_back(f->data(), f->size());
                    held.push_back(std::move(f));
                    queue.pop_front();
                }
            } else {
                wbuf.reserve(bytes);
                for (; frames < n; ++frames) {
                    frame(wbuf, wf::opcode::text, *queue.front());
                    frame_bytes += queue.front()->size();
                    queue.pop_front();
                }
            }
            if (wbuf.empty() && frames == 0)
                writer_idle = true;
        }
        if (wbuf.empty() && frames == 0)
            return;
        writing = true;
        auto write_done = [this, frames, frame_bytes, closing, owner](boost::system::error_code ec,
                                                                      std::size_t) {
            writing = false;
            queued.fetch_sub(frames, std::memory_order_relaxed);
            queued_bytes.fetch_sub(frame_bytes, std::memory_order_relaxed);
            std::string().swap(wbuf); // an idle session holds no write buffer
            held.clear();             // the frames' payloads go back to their owners
            heads.clear();
            gather.clear();
            if (ec || closing) {
                writer_finished = true;
                if (ec)
                    shut_transport();
                else if (!peer_closed && !ended) {
                    arm_hard_close(owner); // a peer that never answers the close is cut off
                }
                writer_done.cancel();
                return;
            }
            write_next(owner);
        };
        if (!gather.empty()) {
            boost::asio::async_write(std::get<ws_detail::tcp::socket>(io),
                                     ws_detail::buffer_span{gather.data(), gather.size()},
                                     std::move(write_done));
            return;
        }
        std::visit(
            [&](auto& s) {
                boost::asio::async_write(s, boost::asio::buffer(wbuf), std::move(write_done));
            },
            io);
    }

    /// Whether batches are gathered: a server's frames (never masked) on plain TCP. A client
    /// masks each payload, so it copies; TLS would seal each small buffer as a record of its own.
    [[nodiscard]] bool gathers() const {
        return !client && std::holds_alternative<ws_detail::tcp::socket>(io);
    }
};

GATEWAY_IO_DECL ws_session::ws_session(std::unique_ptr<impl> p)
    : impl_(std::move(p)) {}

GATEWAY_IO_DECL ws_session::~ws_session() = default;

GATEWAY_IO_DECL std::size_t ws_session::queued() const noexcept {
    return impl_->queued.load(std::memory_order_relaxed);
}

GATEWAY_IO_DECL std::size_t ws_session::queued_bytes() const noexcept {
    return impl_->queued_bytes.load(std::memory_order_relaxed);
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
    auto& i = *impl_;
    std::size_t const size = frame->size();
    auto const frames = i.queued.fetch_add(1, std::memory_order_relaxed) + 1;
    auto const bytes = i.queued_bytes.fetch_add(size, std::memory_order_relaxed) + size;
    if (frames > i.opts.max_queued || bytes > i.opts.max_queued_bytes) {
        i.queued.fetch_sub(1, std::memory_order_relaxed);
        i.queued_bytes.fetch_sub(size, std::memory_order_relaxed);
        close(ws_code::try_again_later,
              frames > i.opts.max_queued
                  ? "too slow: more than " + std::to_string(i.opts.max_queued) + " frames queued"
                  : "too slow: more than " + std::to_string(i.opts.max_queued_bytes) +
                        " bytes queued");
        return;
    }
    bool start = false;
    {
        std::lock_guard lock(i.qm);
        if (i.refusing) {
            i.queued.fetch_sub(1, std::memory_order_relaxed);
            i.queued_bytes.fetch_sub(size, std::memory_order_relaxed);
            return;
        }
        i.queue.push_back(std::move(frame));
        start = std::exchange(i.writer_idle, false);
    }
    if (!start)
        return;
    if (auto* batch = ws_detail::current_batch)
        batch->push_back(shared_from_this()); // started once, when the batch ends
    else
        start_writer();
}

GATEWAY_IO_DECL void ws_session::start_writer() {
    boost::asio::post(impl_->ex, [self = shared_from_this()] { self->impl_->kick(self); });
}

GATEWAY_IO_DECL ws_send_batch::ws_send_batch() {
    if (!ws_detail::current_batch) {
        ws_detail::current_batch = &started_;
        outer_ = true;
    }
}

GATEWAY_IO_DECL ws_send_batch::~ws_send_batch() {
    if (!outer_)
        return;
    ws_detail::current_batch = nullptr;
    for (auto const& s : started_)
        s->start_writer();
}

GATEWAY_IO_DECL void ws_session::close(std::uint16_t code, std::string reason) {
    if (!impl_->open.exchange(false))
        return;
    boost::asio::post(impl_->ex,
                      [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
                          self->impl_->begin_close(code, std::move(reason), self);
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
    namespace asio = boost::asio;
    namespace wf = net::ws_frame;
    using ws_detail::use_tuple;
    auto self = shared_from_this();
    auto& i = *impl_;
    i.last_alive = std::chrono::steady_clock::now();

    i.kick(self); // frames sent before run() was called

    // Pings the peer every half peer_timeout; a peer that answered none of them for all of it
    // is taken for dead (whatever else it sends: one that never reads never answers).
    if (i.opts.peer_timeout.count() > 0) {
        asio::co_spawn(
            i.ex,
            [self]() -> asio::awaitable<void> {
                auto& k = *self->impl_;
                auto const half = k.opts.peer_timeout / 2;
                while (!k.ended) {
                    k.keepalive.expires_after(half);
                    co_await k.keepalive.async_wait(use_tuple);
                    if (k.ended || k.close_sent)
                        break;
                    auto const idle = std::chrono::steady_clock::now() - k.last_alive;
                    if (idle >= k.opts.peer_timeout) {
                        k.timed_out = true;
                        k.shut_transport();
                        break;
                    }
                    if (idle >= half && k.ping_payload.empty() && !k.pending_close) {
                        // Unpredictable: a peer that does not read cannot answer it blind.
                        std::array<unsigned char, 8> nonce{};
                        ws_detail::random_bytes(nonce.data(), nonce.size());
                        k.ping_payload = ws_detail::base64(nonce.data(), nonce.size());
                        k.frame(k.control, wf::opcode::ping, k.ping_payload);
                        k.kick(self);
                    }
                }
            },
            asio::detached);
    }

    ws_end end;
    bool done = false;
    bool transport_ok = true;
    while (!done) {
        std::size_t consumed = 0;
        auto const ev = i.reader.next(i.rbuf.data() + i.rbeg, i.rend - i.rbeg, consumed);
        i.rbeg += consumed;
        switch (ev.what) {
        case wf::event::kind::need_more: {
            if (consumed > 0)
                break; // a fragment was taken in
            // Move what is left to the front, give back a large buffer, make room, read.
            std::size_t const have = i.rend - i.rbeg;
            if (have == 0) {
                i.rbeg = i.rend = 0;
                if (i.rbuf.size() > ws_detail::read_keep)
                    std::vector<unsigned char>().swap(i.rbuf);
            } else if (i.rbeg > 0) {
                std::memmove(i.rbuf.data(), i.rbuf.data() + i.rbeg, have);
                i.rbeg = 0;
                i.rend = have;
            }
            std::size_t const room = i.client ? ws_detail::client_read : ws_detail::server_read;
            std::size_t const want = std::max(ev.frame_size, i.rend + room);
            if (i.rbuf.size() < want)
                i.rbuf.resize(want);
            auto read = std::visit(
                [&](auto& s) {
                    return s.async_read_some(
                        asio::buffer(i.rbuf.data() + i.rend, i.rbuf.size() - i.rend), use_tuple);
                },
                i.io);
            auto const [ec, n] = co_await std::move(read);
            if (ec) {
                transport_ok = false;
                if (i.pending_close) {
                    end.code = i.pending_close->first;
                    end.reason = i.pending_close->second;
                } else {
                    end.reason = i.timed_out
                                     ? "no answer to a ping from the peer for " +
                                           std::to_string(i.opts.peer_timeout.count()) + " ms"
                                     : ec.message();
                    end.by_peer = true;
                }
                done = true;
                break;
            }
            i.rend += n;
            break;
        }
        case wf::event::kind::message:
            if (!i.pending_close)
                on_message(ev.payload);
            i.reader.release();
            break;
        case wf::event::kind::ping:
            if (!i.pending_close) {
                i.pong_payload.assign(ev.payload);
                i.pong_due = true;
                i.kick(self);
            }
            break;
        case wf::event::kind::pong:
            if (!i.ping_payload.empty() && ev.payload == i.ping_payload) {
                i.ping_payload.clear();
                i.last_alive = std::chrono::steady_clock::now();
            }
            break;
        case wf::event::kind::close:
            // The peer's close: the answer to ours, or its own, which is echoed.
            end.code = ev.code;
            end.reason = std::string(ev.payload);
            end.by_peer = !i.pending_close;
            i.peer_closed = true;
            i.begin_close(ev.code == 1005 ? std::uint16_t{0} : ev.code, {}, self);
            done = true;
            break;
        case wf::event::kind::fail:
            end.code = ev.code;
            end.reason = ev.code == ws_code::too_big
                             ? "message over " + std::to_string(i.opts.max_message) + " bytes"
                             : std::string(ev.payload);
            i.begin_close(end.code, end.reason, self);
            done = true;
            break;
        }
    }
    i.open = false;
    i.refuse_frames();
    // A close frame still to go out (an echo, or 1009/1002) gets the close timeout to leave.
    if (i.pending_close && !i.writer_finished) {
        i.kick(self);
        if (i.writing) {
            i.writer_done.expires_after(i.opts.handshake_timeout);
            co_await i.writer_done.async_wait(use_tuple);
        }
    }
    if (transport_ok && i.close_sent && i.writer_finished) {
        // Linger: send FIN and read until the peer closes too (within the close timeout), so
        // that the last frames are not lost to a reset from unread data.
        boost::system::error_code ignored;
        std::visit(
            [&](auto& s) {
                s.lowest_layer().shutdown(ws_detail::tcp::socket::shutdown_send, ignored);
            },
            i.io);
        i.arm_hard_close(self);
        i.rbuf.resize(std::max<std::size_t>(i.rbuf.size(), ws_detail::server_read));
        for (;;) {
            auto read = std::visit(
                [&](auto& s) { return s.async_read_some(asio::buffer(i.rbuf), use_tuple); }, i.io);
            auto const [ec, n] = co_await std::move(read);
            if (ec)
                break;
        }
    }
    i.ended = true;
    i.keepalive.cancel();
    i.hard_close.cancel();
    i.shut_transport(); // ends a write the peer never takes
    i.lease.reset();    // the descriptor is closed: the server stops counting the connection
    co_return end;
}

GATEWAY_IO_DECL boost::asio::awaitable<std::shared_ptr<ws_session>>
ws_upgrade::accept(ws_options const& options) {
    namespace http = boost::beast::http;
    using ws_detail::use_tuple;
    taken_ = true;
    ws_detail::tcp::socket socket = stream_.release_socket();
    auto const key = req_[http::field::sec_websocket_key];
    bool const version_ok = req_[http::field::sec_websocket_version] == "13";
    if (!version_ok || !ws_detail::plausible_key(key)) {
        // RFC 6455 §4.2.2: a version we do not speak is answered 426 with the one we do.
        http::response<http::string_body> res{version_ok ? http::status::bad_request
                                                         : http::status::upgrade_required,
                                              req_.version()};
        if (!version_ok)
            res.set(http::field::sec_websocket_version, "13");
        // The contract's error body (CONTRACT §2, §8), as the gateway's own hook answers.
        res.set(http::field::content_type, "application/json");
        res.body() =
            version_ok ? R"({"error":{"code":"VALIDATION_ERROR","message":"Sec-WebSocket-Key is )"
                         R"(missing or malformed.","details":{"field":"Sec-WebSocket-Key"}}})"
                       : R"({"error":{"code":"UPGRADE_REQUIRED","message":"Sec-WebSocket-Version )"
                         R"(must be 13, the only WebSocket version spoken here."}})";
        res.keep_alive(false);
        res.prepare_payload();
        co_await http::async_write(socket, res, use_tuple);
        boost::system::error_code ignored;
        socket.shutdown(ws_detail::tcp::socket::shutdown_both, ignored);
        co_return nullptr;
    }
    http::response<http::empty_body> res{http::status::switching_protocols, 11};
    res.set(http::field::upgrade, "websocket");
    res.set(http::field::connection, "Upgrade");
    res.set(http::field::sec_websocket_accept, ws_detail::accept_key(key));
    auto [ec, n] = co_await http::async_write(socket, res, use_tuple);
    if (ec)
        co_return nullptr;
    auto state = std::make_unique<ws_session::impl>(std::in_place_type<ws_detail::tcp::socket>,
                                                    false, options, std::move(socket));
    state->lease = std::move(lease_);
    auto session = std::make_shared<ws_session>(std::move(state));
    abort_ = [weak = std::weak_ptr<ws_session>(session)] {
        if (auto s = weak.lock())
            s->close(ws_code::going_away, "server stopping");
    };
    co_return session;
}

namespace ws_detail {
/// Connect, TLS (wss), then the opening handshake, on the session's strand; `answer` keeps a
/// refusal's status and body, `early` the bytes that came after the 101.
template <class Io>
asio::awaitable<std::optional<std::string>>
open_steps(Io& io, tcp::resolver::results_type const& results, url const& u,
           std::string const& target,
           std::vector<std::pair<std::string, std::string>> const& headers,
           http::response<http::string_body>& answer, beast::flat_buffer& early) {
    auto& socket = io.lowest_layer();
    auto [cec, ep] = co_await asio::async_connect(socket, results, use_tuple);
    if (cec)
        co_return cec.message();
    if constexpr (std::is_same_v<Io, tls_socket>) {
        if (!SSL_set_tlsext_host_name(io.native_handle(), u.host.c_str()))
            co_return "TLS server name not accepted";
        io.set_verify_callback(asio::ssl::host_name_verification(u.host));
        auto [hec] = co_await io.async_handshake(asio::ssl::stream_base::client, use_tuple);
        if (hec)
            co_return hec.message();
    }
    std::array<unsigned char, 16> nonce{};
    random_bytes(nonce.data(), nonce.size());
    std::string const key = base64(nonce.data(), nonce.size());
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, u.authority());
    req.set(http::field::upgrade, "websocket");
    req.set(http::field::connection, "Upgrade");
    req.set(http::field::sec_websocket_key, key);
    req.set(http::field::sec_websocket_version, "13");
    req.set(http::field::user_agent, "gateway-sdk");
    for (auto const& [name, value] : headers)
        req.set(name, value);
    auto [wec, wn] = co_await http::async_write(io, req, use_tuple);
    if (wec)
        co_return wec.message();
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{64} * 1024);
    parser.skip(false);
    auto [rec, rn] = co_await http::async_read(io, early, parser, use_tuple);
    if (rec)
        co_return rec.message();
    answer = parser.release();
    if (answer.result() != http::status::switching_protocols)
        co_return std::nullopt; // refused: the caller reports the status and body
    if (!has_token(answer[http::field::upgrade], "websocket") ||
        !has_token(answer[http::field::connection], "upgrade") ||
        answer[http::field::sec_websocket_accept] != accept_key(key))
        co_return "the answer is not a WebSocket upgrade";
    co_return std::nullopt;
}
} // namespace ws_detail

namespace ws_detail {
using connect_outcome = boost::system::result<std::shared_ptr<ws_session>, ws_connect_error>;

/// ws_connect's steps, all on the session's strand, so that the deadline's close cannot race
/// an operation being started.
inline asio::awaitable<connect_outcome>
connect_steps(asio::any_io_executor strand, url u, std::string target, ws_connect_options options) {
    using failure = ws_connect_error;
    asio::ip::tcp::resolver resolver(strand);
    auto [rec, results] = co_await resolver.async_resolve(u.host, u.port, use_tuple);
    if (rec)
        co_return failure{"resolve " + u.host + ": " + rec.message(), 0, {}};
    std::unique_ptr<ws_session::impl> p;
    if (u.tls()) {
        auto tls = options.tls;
        if (!tls) {
            tls = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_client);
            tls->set_default_verify_paths();
            tls->set_verify_mode(asio::ssl::verify_peer);
        }
        p = std::make_unique<ws_session::impl>(std::in_place_type<ws_detail::tls_socket>, true,
                                               options.session, strand, *tls);
    } else {
        p = std::make_unique<ws_session::impl>(std::in_place_type<ws_detail::tcp::socket>, true,
                                               options.session, strand);
    }
    // The deadline covers connect, TLS and the handshake: past it the socket is closed,
    // which ends whichever step is under way.
    auto expired = std::make_shared<bool>(false);
    asio::steady_timer deadline(strand, options.timeout);
    deadline.async_wait([expired, io = p.get()](boost::system::error_code ec) {
        if (!ec && !*expired) {
            *expired = true;
            io->shut_transport();
        }
    });
    http::response<http::string_body> answer;
    beast::flat_buffer early;
    std::optional<std::string> broke;
    if (auto* plain = std::get_if<ws_detail::tcp::socket>(&p->io)) {
        auto opening =
            ws_detail::open_steps(*plain, results, u, target, options.headers, answer, early);
        broke = co_await std::move(opening);
    } else {
        auto opening = ws_detail::open_steps(std::get<ws_detail::tls_socket>(p->io), results, u,
                                             target, options.headers, answer, early);
        broke = co_await std::move(opening);
    }
    bool const timed_out = *expired;
    *expired = true; // the deadline's handler, if already queued, leaves the socket alone
    deadline.cancel();
    if (timed_out)
        broke = "timed out after " + std::to_string(options.timeout.count()) + " ms";
    if (broke) // the origin only: a path may carry a secret (a listen key, a query key)
        co_return failure{"connect to " + u.scheme + "://" + u.authority() + ": " + *broke, 0, {}};
    if (answer.result() != http::status::switching_protocols) {
        failure f;
        f.status = answer.result_int();
        f.body = answer.body();
        f.message = "handshake refused with HTTP " + std::to_string(f.status);
        co_return f;
    }
    // Frames the server sent right behind its 101 are the session's first bytes.
    auto const data = early.cdata();
    p->rbuf.assign(static_cast<unsigned char const*>(data.data()),
                   static_cast<unsigned char const*>(data.data()) + data.size());
    p->rend = p->rbuf.size();
    co_return std::make_shared<ws_session>(std::move(p));
}
} // namespace ws_detail

GATEWAY_IO_DECL
boost::asio::awaitable<boost::system::result<std::shared_ptr<ws_session>, ws_connect_error>>
ws_connect(boost::asio::any_io_executor ex, std::string_view text, ws_connect_options options) {
    namespace asio = boost::asio;
    namespace beast = boost::beast;
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

    auto opened =
        asio::co_spawn(strand, ws_detail::connect_steps(strand, *u, target, std::move(options)),
                       asio::use_awaitable);
    co_return co_await std::move(opened);
}

} // namespace gateway::net
