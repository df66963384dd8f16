#pragma once

#include <gateway/net/url.hpp>
#include <gateway/net/websocket.hpp>
#include <gateway/stream/client.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <utility>

namespace gateway::stream {

namespace client_detail {
namespace asio = boost::asio;
inline constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

/// The gateway's WebSocket URL for `base` (ws/wss/http/https, no path of its own needed).
inline std::optional<std::string> stream_url(std::string_view base, bool testnet) {
    auto const u = net::url::parse(base);
    if (!u)
        return std::nullopt;
    std::string const scheme = u->tls() ? "wss" : "ws";
    return scheme + "://" + u->authority() + u->prefix +
           (testnet ? "/ws/v1/testnet/perps" : "/ws/v1/perps");
}

inline api_error transport(std::string message) {
    return make_error(errc::transport_error, std::move(message));
}

/// A refused handshake's error, from its status and the contract's error body.
inline api_error refusal(net::ws_connect_error const& e) {
    boost::system::error_code ec;
    auto const body = boost::json::parse(e.body, ec);
    api_error err = error_from_json(ec ? boost::json::value{} : body, e.status);
    if (err.code == errc::transport_error)
        err.message = "The gateway refused the WebSocket handshake with HTTP " +
                      std::to_string(e.status) + " and no error body.";
    return err;
}

/// Whether a refusal will be the same on every retry (a bad key, a wrong path).
inline bool final_refusal(unsigned status) {
    return status >= 400 && status < 500 && status != 408 && status != 429;
}

/// What the client sends: defaults filled in the way the gateway acknowledges them.
inline subscription normalized(subscription s) {
    if (s.channel == channel::orderbook && s.depth == 0)
        s.depth = subscription::default_depth;
    for (auto& ch : s.address)
        ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    return s;
}

/// A frame the client cannot read: the server does not speak the contract.
inline api_error not_contract(api_error e, std::string_view what) {
    e.code = errc::transport_error;
    e.wire_code_text = "TRANSPORT_ERROR";
    e.message = "A " + std::string(what) + " frame does not match the contract: " + e.message;
    return e;
}

/// A data frame's payload as its channel's REST type (the types' own mappings), or the error.
template <class T>
result<T> payload_as(result<T> r, std::string_view what) {
    if (r)
        return r;
    return not_contract(r.error(), what);
}
} // namespace client_detail

struct stream_client::state : std::enable_shared_from_this<state> {
    using strand_type = boost::asio::strand<boost::asio::any_io_executor>;

    struct pending {
        enum class kind { subscribe, unsubscribe, ping, resubscribe };
        kind what = kind::ping;
        subscription sub;
        std::string frame;
        bool sent = false;
        std::optional<result<subscription>> answer;
        std::unique_ptr<boost::asio::steady_timer> wake; ///< null: nobody waits (resubscribe)
    };

    enum class phase { idle, connecting, live, reconnecting, ended };

    state(boost::asio::any_io_executor ex, client_options o, stream_handlers h, std::string u)
        : strand(boost::asio::make_strand(std::move(ex)))
        , opt(std::move(o))
        , on(std::move(h))
        , url(std::move(u))
        , backoff(strand)
        , rng(std::random_device{}()) {}

    strand_type strand;
    client_options const opt;
    stream_handlers const on;
    std::string const url;
    std::atomic<bool> closing{false};
    std::atomic<bool> up{false};
    std::atomic<std::uint64_t> reconnect_count{0};

    // Strand only:
    phase at = phase::idle;
    std::shared_ptr<net::ws_session> session;
    std::map<std::string, subscription> subscribed; ///< by key: resubscribed after a reconnect
    std::unordered_map<std::string, std::uint64_t> last_seq; ///< order books' last seq
    std::map<std::uint64_t, std::shared_ptr<pending>> requests;
    std::uint64_t next_id = 1;
    boost::asio::steady_timer backoff;
    std::mt19937_64 rng;
    bool closed_reported = false;

    bool live() const { return at == phase::live && session && !closing; }

    // ---- connection -------------------------------------------------------------------------

    /// One handshake; the session is not yet run.
    boost::asio::awaitable<result<std::shared_ptr<net::ws_session>>> open() {
        net::ws_connect_options o;
        o.timeout = opt.connect_timeout;
        o.tls = opt.tls;
        o.session.peer_timeout = opt.peer_timeout;
        o.session.handshake_timeout = opt.connect_timeout;
        o.session.max_message = 16 * 1024 * 1024; // the gateway's frames: a prices map can be big
        if (opt.api_key)
            o.headers.emplace_back("X-API-Key", *opt.api_key);
        // The session's strand is a strand of ours: its reads, writes and our state are
        // serialised by one strand.
        boost::asio::any_io_executor const ex = strand; // named: see ping()
        auto r = co_await net::ws_connect(ex, url, std::move(o));
        if (r)
            co_return std::move(*r);
        // ws_connect reports a default response's 200 when no answer came at all: only an
        // answer that is not a success is a refusal.
        if (r.error().status >= 300)
            co_return client_detail::refusal(r.error());
        co_return client_detail::transport(r.error().status != 0
                                               ? "Could not open a WebSocket to " + url +
                                                     ": no handshake answer."
                                               : r.error().message);
    }

    /// A new connection is up: everything subscribed is subscribed again, then the requests
    /// that waited for a connection go out.
    void on_connected(std::shared_ptr<net::ws_session> s) {
        session = std::move(s);
        at = phase::live;
        up = true;
        last_seq.clear();
        std::vector<std::shared_ptr<pending>> waiting;
        for (auto& [id, p] : requests)
            waiting.push_back(p);
        for (auto const& [key, sub] : subscribed) {
            auto p = std::make_shared<pending>();
            p->what = pending::kind::resubscribe;
            p->sub = sub;
            auto const id = next_id++;
            p->frame = subscribe_frame(client_frame::op_kind::subscribe, sub, id);
            requests.emplace(id, p);
            session->send(p->frame);
            p->sent = true;
        }
        for (auto& p : waiting) {
            session->send(p->frame);
            p->sent = true;
        }
    }

    /// Reads the live connection, and reconnects when it drops, until closed. `self` keeps the
    /// state alive as long as the connection is served.
    boost::asio::awaitable<void> serve(std::shared_ptr<state> self) {
        (void)self;
        for (;;) {
            auto s = session;
            net::ws_session::message_handler const read = [this](std::string_view text) {
                on_frame(text);
            };
            auto served = s->run(read);
            auto const end = co_await std::move(served);
            session.reset();
            up = false;
            if (closing || at == phase::ended)
                break;
            at = phase::reconnecting;
            // The requests sent on the lost connection go out again on the next one.
            for (auto& [id, p] : requests)
                p->sent = false;
            std::erase_if(requests, [](auto const& kv) {
                return kv.second->what == pending::kind::resubscribe;
            });
            std::string const why =
                "connection lost" +
                (end.code ? " (close " + std::to_string(end.code) + ")" : std::string()) +
                ": reconnecting";
            for (auto const& [key, sub] : subscribed)
                raise_status({sub, stream_status::reconnecting, why, true});
            bool reconnected = false;
            for (unsigned attempt = 0; !closing; ++attempt) {
                backoff.expires_after(delay(attempt));
                co_await backoff.async_wait(client_detail::use_tuple);
                if (closing)
                    break;
                auto r = co_await open();
                if (closing) {
                    if (r)
                        (*r)->close(net::ws_code::normal);
                    break;
                }
                if (r) {
                    ++reconnect_count;
                    on_connected(std::move(*r));
                    reconnected = true;
                    break;
                }
                if (r.error().status != 0 && client_detail::final_refusal(r.error().status)) {
                    finish(r.error());
                    co_return;
                }
            }
            if (!reconnected)
                break;
        }
        finish(std::nullopt);
    }

    std::chrono::milliseconds delay(unsigned attempt) {
        auto const lo = std::max<std::int64_t>(opt.reconnect_min.count(), 1);
        auto const hi = std::max<std::int64_t>(opt.reconnect_max.count(), lo);
        std::int64_t cap = lo;
        for (unsigned i = 0; i < attempt && cap < hi; ++i)
            cap *= 2;
        cap = std::min(cap, hi);
        std::uniform_int_distribution<std::int64_t> pick(0, cap);
        return std::chrono::milliseconds(std::max<std::int64_t>(pick(rng), 10));
    }

    /// The client has stopped: pending requests fail, `closed` runs once.
    void finish(std::optional<api_error> const& why) {
        at = phase::ended;
        up = false;
        closing = true;
        api_error const failure =
            why ? *why : client_detail::transport("The stream client was closed.");
        for (auto& [id, p] : requests)
            answer(*p, failure);
        requests.clear();
        if (why && on.error)
            on.error(boost::json::value(), *why);
        if (!closed_reported) {
            closed_reported = true;
            if (on.closed)
                on.closed(why);
        }
    }

    void shut() {
        closing = true;
        backoff.cancel();
        if (session)
            session->close(net::ws_code::normal, "client closing");
        else if (at == phase::idle)
            finish(std::nullopt);
        // connecting / reconnecting: serve() or connect() sees `closing` and finishes.
    }

    // ---- requests ---------------------------------------------------------------------------

    static void answer(pending& p, result<subscription> r) {
        p.answer = std::move(r);
        if (p.wake)
            p.wake->cancel();
    }

    boost::asio::awaitable<result<subscription>> request(pending::kind what, subscription sub) {
        using kind = pending::kind;
        if (closing || at == phase::ended)
            co_return client_detail::transport("The stream client is closed.");
        if (at == phase::idle || at == phase::connecting)
            co_return client_detail::transport("The stream client is not connected: call "
                                               "connect() first.");
        if (what == kind::unsubscribe && !live()) {
            // Nothing is subscribed on a connection that does not exist yet.
            subscribed.erase(sub.key());
            last_seq.erase(sub.key());
            co_return sub;
        }
        auto p = std::make_shared<pending>();
        p->what = what;
        p->sub = sub;
        auto const id = next_id++;
        p->frame = what == kind::ping ? subscribe_frame(client_frame::op_kind::ping, sub, id)
                                      : subscribe_frame(what == kind::subscribe
                                                            ? client_frame::op_kind::subscribe
                                                            : client_frame::op_kind::unsubscribe,
                                                        sub, id);
        p->wake = std::make_unique<boost::asio::steady_timer>(strand);
        p->wake->expires_after(opt.request_timeout);
        requests.emplace(id, p);
        if (live()) {
            session->send(p->frame);
            p->sent = true;
        }
        co_await p->wake->async_wait(client_detail::use_tuple);
        requests.erase(id);
        if (p->answer)
            co_return std::move(*p->answer);
        co_return client_detail::transport(
            std::string(p->sent ? "No answer from the gateway within "
                                : "No connection to the gateway within ") +
            std::to_string(opt.request_timeout.count()) + " ms.");
    }

    // ---- frames -----------------------------------------------------------------------------

    void raise_status(status_event const& e) {
        if (!closing && on.status)
            on.status(e);
    }

    void raise_error(boost::json::value const& id, api_error const& e) {
        if (!closing && on.error)
            on.error(id, e);
    }

    std::shared_ptr<pending> take(boost::json::value const& id) {
        std::uint64_t n = 0;
        if (auto const* u = id.if_uint64())
            n = *u;
        else if (auto const* i = id.if_int64(); i && *i > 0)
            n = static_cast<std::uint64_t>(*i);
        else
            return nullptr;
        auto it = requests.find(n);
        if (it == requests.end())
            return nullptr;
        auto p = it->second;
        if (!p->wake) // nobody awaits it: done with it now
            requests.erase(it);
        return p;
    }

    void on_frame(std::string_view text) {
        if (closing)
            return;
        auto f = parse_server_frame(text);
        if (!f) {
            raise_error(boost::json::value(), client_detail::not_contract(f.error(), "server"));
            return;
        }
        using kind = server_frame::kind;
        switch (f->what) {
        case kind::subscribed:
        case kind::unsubscribed: {
            auto p = take(f->id);
            auto const key = f->sub.key();
            if (f->what == kind::subscribed) {
                subscribed[key] = f->sub;
                last_seq.erase(key);
            } else {
                subscribed.erase(key);
                last_seq.erase(key);
            }
            if (p && p->what == pending::kind::resubscribe)
                raise_status(
                    {f->sub, stream_status::restored, "resubscribed after reconnecting", true});
            else if (p)
                answer(*p, f->sub);
            return;
        }
        case kind::pong:
            if (auto p = take(f->id))
                answer(*p, subscription{});
            return;
        case kind::error: {
            auto p = take(f->id);
            if (p && p->wake) {
                answer(*p, f->error);
                return;
            }
            if (p) // a resubscribe the gateway refused now: it is no longer subscribed
                subscribed.erase(p->sub.key());
            raise_error(f->id, f->error);
            return;
        }
        case kind::status:
            if (f->status == stream_status::restored)
                last_seq.erase(f->sub.key()); // a fresh book follows
            raise_status({f->sub, f->status, f->message, false});
            return;
        case kind::data:
            on_data(*f);
            return;
        }
    }

    void on_data(server_frame const& f) {
        using client_detail::payload_as;
        auto const& s = f.sub;
        auto fail = [&](api_error const& e) {
            raise_error(boost::json::value(), e);
        };
        switch (s.channel) {
        case channel::prices: {
            auto r = payload_as(parse_prices(f.data, strictness::upstream), "prices");
            if (!r)
                return fail(r.error());
            if (on.prices)
                on.prices(s, *r);
            return;
        }
        case channel::trades: {
            auto r = payload_as(parse_list(f.data, strictness::upstream, &parse_trade, "trades"),
                                "trades");
            if (!r)
                return fail(r.error());
            if (on.trades)
                on.trades(s, *r);
            return;
        }
        case channel::orderbook: {
            auto r = payload_as(parse_orderbook(f.data, strictness::upstream), "orderbook");
            if (!r)
                return fail(r.error());
            auto const key = s.key();
            auto it = last_seq.find(key);
            if (it != last_seq.end() && f.seq != it->second + 1 && on.gap)
                on.gap(s, it->second + 1, f.seq);
            last_seq[key] = f.seq;
            if (on.book)
                on.book(s, *r, f.seq);
            return;
        }
        case channel::candles: {
            auto r = payload_as(parse_list(f.data, strictness::upstream, &parse_candle, "candles"),
                                "candles");
            if (!r)
                return fail(r.error());
            if (on.candles)
                on.candles(s, *r);
            return;
        }
        case channel::orders: {
            auto r = payload_as(
                parse_list(f.data, strictness::upstream, &parse_open_order, "orders"), "orders");
            if (!r)
                return fail(r.error());
            if (on.orders)
                on.orders(s, *r);
            return;
        }
        case channel::fills: {
            auto r =
                payload_as(parse_list(f.data, strictness::upstream, &parse_fill, "fills"), "fills");
            if (!r)
                return fail(r.error());
            if (on.fills)
                on.fills(s, *r);
            return;
        }
        }
    }

    // ---- entry points (on the strand) -------------------------------------------------------

    boost::asio::awaitable<result<void>> do_connect(std::shared_ptr<state> self) {
        if (closing || at == phase::ended)
            co_return client_detail::transport("The stream client is closed.");
        if (at == phase::live || at == phase::reconnecting)
            co_return result<void>();
        if (at == phase::connecting)
            co_return client_detail::transport("connect() is already in progress.");
        at = phase::connecting;
        auto r = co_await open();
        if (closing) {
            if (r)
                (*r)->close(net::ws_code::normal);
            finish(std::nullopt);
            co_return client_detail::transport("The stream client was closed.");
        }
        if (!r) {
            auto const e = r.error();
            if (e.status != 0 && client_detail::final_refusal(e.status)) {
                at = phase::ended;
                closing = true;
                if (!closed_reported) {
                    closed_reported = true;
                    if (on.closed)
                        on.closed(e);
                }
            } else {
                at = phase::idle;
            }
            co_return e;
        }
        on_connected(std::move(*r));
        boost::asio::co_spawn(strand, serve(self), boost::asio::detached);
        co_return result<void>();
    }
};

GATEWAY_IO_DECL stream_client::stream_client(std::shared_ptr<state> s) noexcept
    : st_(std::move(s)) {}

GATEWAY_IO_DECL stream_client::stream_client(stream_client&&) noexcept = default;

GATEWAY_IO_DECL stream_client& stream_client::operator=(stream_client&& other) noexcept {
    if (this != &other) {
        close();
        st_ = std::move(other.st_);
    }
    return *this;
}

GATEWAY_IO_DECL stream_client::~stream_client() {
    close();
}

GATEWAY_IO_DECL result<stream_client> stream_client::create(boost::asio::any_io_executor ex,
                                                            client_options options,
                                                            stream_handlers handlers) {
    auto url = client_detail::stream_url(options.url, options.testnet);
    if (!url)
        return field_error("url", "Field 'url' must be a ws://, wss://, http:// or https:// base "
                                  "URL, e.g. ws://127.0.0.1:8080.");
    return stream_client(std::make_shared<state>(std::move(ex), std::move(options),
                                                 std::move(handlers), std::move(*url)));
}

GATEWAY_IO_DECL boost::asio::awaitable<result<void>> stream_client::connect() {
    auto st = st_;
    return boost::asio::co_spawn(st->strand, st->do_connect(st), boost::asio::use_awaitable);
}

GATEWAY_IO_DECL boost::asio::awaitable<result<subscription>>
stream_client::subscribe(subscription s) {
    auto st = st_;
    return boost::asio::co_spawn(
        st->strand,
        [st, s = client_detail::normalized(
                 std::move(s))]() -> boost::asio::awaitable<result<subscription>> {
            co_return co_await st->request(state::pending::kind::subscribe, s);
        },
        boost::asio::use_awaitable);
}

GATEWAY_IO_DECL boost::asio::awaitable<result<subscription>>
stream_client::unsubscribe(subscription s) {
    auto st = st_;
    return boost::asio::co_spawn(
        st->strand,
        [st, s = client_detail::normalized(
                 std::move(s))]() -> boost::asio::awaitable<result<subscription>> {
            co_return co_await st->request(state::pending::kind::unsubscribe, s);
        },
        boost::asio::use_awaitable);
}

GATEWAY_IO_DECL void stream_client::subscribe(subscription s,
                                              std::function<void(result<subscription>)> done) {
    auto st = st_;
    boost::asio::co_spawn(
        st->strand,
        [st, s = client_detail::normalized(
                 std::move(s))]() -> boost::asio::awaitable<result<subscription>> {
            co_return co_await st->request(state::pending::kind::subscribe, s);
        },
        [done = std::move(done)](std::exception_ptr, result<subscription> r) {
            if (done)
                done(std::move(r));
        });
}

GATEWAY_IO_DECL void stream_client::unsubscribe(subscription s,
                                                std::function<void(result<subscription>)> done) {
    auto st = st_;
    boost::asio::co_spawn(
        st->strand,
        [st, s = client_detail::normalized(
                 std::move(s))]() -> boost::asio::awaitable<result<subscription>> {
            co_return co_await st->request(state::pending::kind::unsubscribe, s);
        },
        [done = std::move(done)](std::exception_ptr, result<subscription> r) {
            if (done)
                done(std::move(r));
        });
}

GATEWAY_IO_DECL boost::asio::awaitable<result<void>> stream_client::ping() {
    auto st = st_;
    return boost::asio::co_spawn(
        st->strand,
        [st]() -> boost::asio::awaitable<result<void>> {
            // A named argument: GCC 12 destroys a temporary in a co_await expression twice.
            subscription const none;
            auto r = co_await st->request(state::pending::kind::ping, none);
            if (!r)
                co_return r.error();
            co_return result<void>();
        },
        boost::asio::use_awaitable);
}

GATEWAY_IO_DECL void stream_client::close() {
    if (!st_ || st_->closing.exchange(true))
        return;
    auto st = st_;
    if (st->strand.running_in_this_thread())
        st->shut();
    else
        boost::asio::post(st->strand, [st] { st->shut(); });
}

GATEWAY_IO_DECL bool stream_client::connected() const noexcept {
    return st_ && st_->up.load(std::memory_order_relaxed);
}

GATEWAY_IO_DECL std::uint64_t stream_client::reconnects() const noexcept {
    return st_ ? st_->reconnect_count.load(std::memory_order_relaxed) : 0;
}

} // namespace gateway::stream
