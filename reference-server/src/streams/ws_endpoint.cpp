#include "streams/ws_endpoint.hpp"

#include "http/session.hpp"
#include "log.hpp"

#include <gateway/util/ascii.hpp>
#include <gateway/util/percent.hpp>
#include <gateway/util/utf8.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace gateway::server {

namespace {
namespace http = boost::beast::http;
using stream::client_frame;

constexpr std::string_view live_path = "/ws/v1/perps";
constexpr std::string_view testnet_path = "/ws/v1/testnet/perps";

std::string describe(stream::subscription const& s) {
    std::string out = "'" + std::string(stream::to_string(s.channel)) + "' on '" + s.provider + "'";
    if (!s.symbol.empty())
        out += " for " + s.symbol;
    if (!s.address.empty())
        out += " for " + s.address;
    return out;
}
/// A client's Sec-WebSocket-Key is the base64 of 16 bytes: 24 characters ending in "==".
bool plausible_ws_key(std::string_view key) {
    if (key.size() != 24 || key.substr(22) != "==")
        return false;
    return std::all_of(key.begin(), key.begin() + 22, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
    });
}
} // namespace

/// The upstream user-stream slots accounts hold (CONTRACT §8): per account and upstream, the
/// distinct addresses whose `orders` or `fills` its connections subscribe to, each counted once
/// however many subscriptions share it. Any thread.
struct ws_endpoint::user_slots : std::enable_shared_from_this<user_slots> {
    std::mutex m;
    std::map<std::string, std::map<std::string, std::size_t>> held; ///< owner -> address -> refs

    /// A hold on `address`'s slot for `owner` (released when dropped); null when `owner`
    /// already holds `limit` other addresses.
    std::shared_ptr<void> take(std::string const& owner, std::string const& address,
                               std::size_t limit) {
        std::lock_guard lock(m);
        auto& mine = held[owner];
        if (!mine.contains(address) && mine.size() >= limit) {
            if (mine.empty())
                held.erase(owner);
            return nullptr;
        }
        ++mine[address];
        return std::shared_ptr<void>(
            this, [self = shared_from_this(), owner, address](user_slots*) {
                std::lock_guard lock(self->m);
                auto it = self->held.find(owner);
                if (it == self->held.end())
                    return;
                if (auto a = it->second.find(address); a != it->second.end() && --a->second == 0)
                    it->second.erase(a);
                if (it->second.empty())
                    self->held.erase(it);
            });
    }
};

/// The sessions open now, for `queues()`.
struct ws_endpoint::live_sessions {
    std::mutex m;
    std::map<net::ws_session const*, std::weak_ptr<net::ws_session>> all;
};

ws_endpoint::queue_stats ws_endpoint::queues() const {
    queue_stats out;
    std::lock_guard lock(live_->m);
    for (auto const& [p, weak] : live_->all)
        if (auto s = weak.lock()) {
            ++out.sessions;
            if (!s->is_open())
                ++out.closing;
            out.max_queued_bytes = std::max(out.max_queued_bytes, s->queued_bytes());
        }
    return out;
}

ws_endpoint::ws_endpoint(registry const& providers, api_key_gate const& gate, stream_hub& hub,
                         util::clock const& time, ws_endpoint_options options)
    : providers_(providers)
    , gate_(gate)
    , hub_(hub)
    , time_(time)
    , options_(std::move(options))
    , user_slots_(std::make_shared<user_slots>())
    , live_(std::make_shared<live_sessions>()) {}

/// One client connection's subscriptions; touched on the connection's strand only.
struct ws_endpoint::client_state {
    std::shared_ptr<net::ws_session> session;
    bool testnet = false;
    rate_identity caller;
    std::string api_key; ///< checked again while the connection lives; never logged
    std::optional<boost::asio::steady_timer> key_timer;
    std::string request_id;
    std::map<std::string, std::shared_ptr<void>> subs; ///< key -> hub membership
    std::set<std::string> pending;                     ///< subscribes waiting for `check`
    bool closed = false;
};

bool ws_endpoint::handles(std::string_view target) {
    auto const path = target.substr(0, target.find('?'));
    return path == live_path || path == testnet_path;
}

boost::asio::awaitable<std::optional<net::response>>
ws_endpoint::upgrade(net::request& req, net::tcp::endpoint const& remote,
                     net::ws_upgrade& up) const {
    std::string_view const target = req.target();
    auto const qmark = target.find('?');
    std::string_view const path = target.substr(0, qmark);
    std::string const request_id = request_id_for(header_of(req, "X-Request-Id"));
    auto refuse = [&](api_error const& e, auto const& headers) {
        auto res = error_response(e, req.version());
        res.set("X-Request-Id", request_id);
        for (auto const& [k, v] : headers)
            res.set(k, v);
        return res;
    };
    if (path != live_path && path != testnet_path) {
        co_return refuse(make_error(errc::not_found, "No WebSocket endpoint at " +
                                                         util::escape_for_log(path) +
                                                         "; use /ws/v1/perps."),
                         std::vector<std::pair<std::string, std::string>>{});
    }
    // The key: the header, else the `apiKey` query parameter (spec 5.3).
    std::optional<std::string> query_key;
    if (qmark != std::string_view::npos)
        for (auto& [k, v] : util::parse_query(target.substr(qmark + 1)))
            if (k == "apiKey")
                query_key = std::move(v);
    request_head head{http::verb::get, path, [&](std::string_view name) {
                          auto h = header_of(req, name);
                          if (!h && util::iequals(name, "X-API-Key") && query_key)
                              return std::optional<std::string_view>(*query_key);
                          return h;
                      }};
    auto verdict = gate_.check(head);
    if (verdict.refusal)
        co_return refuse(*verdict.refusal, verdict.headers);
    if (!verdict.caller) // the gate accepted without a key: cannot happen on these paths
        co_return refuse(make_error(errc::invalid_api_key, "Missing X-API-Key header"),
                         verdict.headers);

    // The upgrade itself (RFC 6455 §4.2.1), checked here so that every refusal carries the
    // contract's error body (CONTRACT §8): a version other than 13 is 426 naming the one spoken,
    // a missing or malformed key 400 naming the header.
    auto const version = header_of(req, "Sec-WebSocket-Version");
    if (!version || *version != "13") {
        auto headers = verdict.headers;
        headers.emplace_back("Sec-WebSocket-Version", "13");
        co_return refuse(make_error(errc::upgrade_required,
                                    "Sec-WebSocket-Version must be 13, the only WebSocket "
                                    "version spoken here."),
                         headers);
    }
    if (!plausible_ws_key(header_of(req, "Sec-WebSocket-Key").value_or(""))) {
        co_return refuse(field_error("Sec-WebSocket-Key",
                                     "Sec-WebSocket-Key is missing or is not the base64 of 16 "
                                     "bytes."),
                         verdict.headers);
    }

    auto session = co_await up.accept(options_.session);
    if (!session)
        co_return std::nullopt;
    auto state = std::make_shared<client_state>();
    state->session = session;
    state->testnet = path == testnet_path;
    state->caller = *verdict.caller;
    if (auto h = header_of(req, "X-API-Key"))
        state->api_key = std::string(*h);
    else if (query_key)
        state->api_key = *query_key;
    state->request_id = request_id;
    ++*connections_;
    {
        std::lock_guard lock(live_->m);
        live_->all.emplace(session.get(), session);
    }
    log::info("request_id=" + request_id + " ws=open path=" + std::string(path) +
              " remote=" + remote.address().to_string());

    // A named std::function: GCC 12 mishandles temporaries inside a co_await expression.
    net::ws_session::message_handler on_message = [this, state](std::string_view text) {
        auto& s = *state->session;
        boost::json::value id;
        auto frame = stream::parse_client_frame(text, &id);
        if (!frame) {
            s.send(stream::error_frame(id, frame.error()));
            return;
        }
        if (frame->op == client_frame::op_kind::ping) {
            s.send(stream::pong_frame(frame->id));
            return;
        }
        // A key revoked or expired meanwhile ends the connection before anything else
        // (CONTRACT §8); then subscribes and unsubscribes alike draw from its rate limit.
        if (auto revoked = gate_.recheck(state->api_key)) {
            s.close(net::ws_code::policy, revoked->message);
            return;
        }
        if (auto limited = gate_.charge(state->caller)) {
            s.send(stream::error_frame(frame->id, *limited));
            return;
        }
        auto const& sub = frame->sub;
        std::string const key = sub.key();
        if (frame->op == client_frame::op_kind::unsubscribe) {
            auto it = state->subs.find(key);
            if (it == state->subs.end()) {
                s.send(stream::error_frame(frame->id,
                                           make_error(errc::validation_error,
                                                      "Not subscribed to " + describe(sub) + ".")));
                return;
            }
            state->subs.erase(it); // leaves the hub
            s.send(stream::ack_frame(frame->id, false, sub));
            return;
        }
        if (state->subs.contains(key) || state->pending.contains(key)) {
            s.send(stream::error_frame(frame->id,
                                       make_error(errc::validation_error,
                                                  "Already subscribed to " + describe(sub) + ".")));
            return;
        }
        if (state->subs.size() + state->pending.size() >= options_.max_subscriptions) {
            s.send(stream::error_frame(
                frame->id, make_error(errc::validation_error,
                                      "At most " + std::to_string(options_.max_subscriptions) +
                                          " subscriptions per connection.")));
            return;
        }
        auto source = providers_.streams(sub.provider, state->testnet);
        if (!source) {
            s.send(stream::error_frame(frame->id, source.error()));
            return;
        }
        // A user channel takes one of the account's user-stream slots on that upstream.
        std::shared_ptr<void> slot;
        if (sub.channel == stream::channel::orders || sub.channel == stream::channel::fills) {
            slot = user_slots_->take(std::to_string(state->caller.account) + " " + sub.provider +
                                         (state->testnet ? " testnet" : ""),
                                     util::to_lower(sub.address), options_.max_user_streams);
            if (!slot) {
                auto e =
                    make_error(errc::stream_capacity,
                               "An account streams the orders and fills of at most " +
                                   std::to_string(options_.max_user_streams) + " addresses on '" +
                                   sub.provider + "' at a time; unsubscribe from one first.");
                e.details["limit"] = options_.max_user_streams;
                s.send(stream::error_frame(frame->id, e));
                return;
            }
        }
        state->pending.insert(key);
        boost::asio::co_spawn(
            s.get_executor(),
            [this, state, source = *source, sub, key, id = frame->id,
             slot = std::move(slot)]() mutable -> boost::asio::awaitable<void> {
                call_context ctx;
                ctx.testnet = state->testnet;
                ctx.now_ms = time_.now_ms();
                ctx.request_id = state->request_id;
                result<bool> ok = make_error(errc::internal_error, "Internal error.");
                try {
                    ok = co_await source->check(ctx, sub);
                } catch (std::exception const& ex) {
                    log::error("request_id=" + state->request_id +
                               " msg=\"stream check threw\" what=\"" +
                               util::escape_for_log(ex.what()) + "\"");
                }
                state->pending.erase(key);
                if (state->closed)
                    co_return;
                if (!ok) {
                    state->session->send(stream::error_frame(id, ok.error()));
                    co_return;
                }
                state->session->send(stream::ack_frame(id, true, sub));
                // The slot outlives the membership: released after the hub let go.
                auto membership =
                    hub_.join(*source, state->testnet, sub, state->caller.account, state->session);
                state->subs[key] =
                    std::make_shared<std::pair<std::shared_ptr<void>, std::shared_ptr<void>>>(
                        std::move(slot), std::move(membership));
            },
            boost::asio::detached);
    };

    // The session runs on its own: this coroutine, and the HTTP connection's that awaits it,
    // end now, so a connection open for hours holds neither frame nor the upgrade request.
    boost::asio::co_spawn(session->get_executor(), serve_client(state, std::move(on_message)),
                          boost::asio::detached);
    co_return std::nullopt;
}

boost::asio::awaitable<void>
ws_endpoint::serve_client(std::shared_ptr<client_state> state,
                          net::ws_session::message_handler on_message) const {
    if (options_.key_recheck.count() > 0)
        boost::asio::co_spawn(state->session->get_executor(), watch_key(state),
                              boost::asio::detached);
    auto served = state->session->run(std::move(on_message));
    auto const end = co_await std::move(served);
    state->closed = true;
    if (state->key_timer)
        state->key_timer->cancel();
    auto const count = state->subs.size();
    state->subs.clear();
    {
        std::lock_guard lock(live_->m);
        live_->all.erase(state->session.get());
    }
    --*connections_;
    log::info("request_id=" + state->request_id + " ws=close code=" + std::to_string(end.code) +
              " by=" + (end.by_peer ? "client" : "server") +
              " subscriptions=" + std::to_string(count));
}

boost::asio::awaitable<void> ws_endpoint::watch_key(std::shared_ptr<client_state> state) const {
    // On the session's strand, like everything else touching `state`.
    auto& timer = state->key_timer.emplace(state->session->get_executor());
    while (!state->closed) {
        timer.expires_after(options_.key_recheck);
        auto [ec] = co_await timer.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
        if (ec || state->closed)
            break;
        if (auto revoked = gate_.recheck(state->api_key)) {
            log::info("request_id=" + state->request_id + " ws=key_refused msg=\"" +
                      revoked->message + "\"");
            state->session->close(net::ws_code::policy, revoked->message);
            break;
        }
    }
}

} // namespace gateway::server
