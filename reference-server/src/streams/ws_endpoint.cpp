#include "streams/ws_endpoint.hpp"

#include "http/session.hpp"
#include "log.hpp"

#include <gateway/util/ascii.hpp>
#include <gateway/util/percent.hpp>
#include <gateway/util/utf8.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

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
} // namespace

/// One client connection's subscriptions; touched on the connection's strand only.
struct ws_endpoint::client_state {
    std::shared_ptr<net::ws_session> session;
    bool testnet = false;
    rate_identity caller;
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

    auto session = co_await up.accept(options_.session);
    if (!session)
        co_return std::nullopt;
    auto state = std::make_shared<client_state>();
    state->session = session;
    state->testnet = path == testnet_path;
    state->caller = *verdict.caller;
    state->request_id = request_id;
    ++*connections_;
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
        if (auto limited = gate_.charge(state->caller)) {
            s.send(stream::error_frame(frame->id, *limited));
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
        state->pending.insert(key);
        boost::asio::co_spawn(
            s.get_executor(),
            [this, state, source = *source, sub, key,
             id = frame->id]() -> boost::asio::awaitable<void> {
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
                state->subs[key] = hub_.join(*source, state->testnet, sub, state->session);
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
    auto served = state->session->run(std::move(on_message));
    auto const end = co_await std::move(served);
    state->closed = true;
    auto const count = state->subs.size();
    state->subs.clear();
    --*connections_;
    log::info("request_id=" + state->request_id + " ws=close code=" + std::to_string(end.code) +
              " by=" + (end.by_peer ? "client" : "server") +
              " subscriptions=" + std::to_string(count));
}

} // namespace gateway::server
