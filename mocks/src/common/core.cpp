#include "core.hpp"

#include "http_util.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace gateway::mocks {

namespace {
/// The close code of `wsDrop`: 1012 "service restart", what an upstream restarting sends.
constexpr std::uint16_t ws_drop_code = 1012;
/// A peer silent this long is closed (alpha drops a connection after 60 s without a message);
/// the session pings at half of it.
constexpr auto ws_peer_timeout = std::chrono::seconds(60);
/// Frames a client may fall behind before the mock cuts it off (1013).
constexpr std::size_t ws_max_queued = 10000;
} // namespace

boost::asio::awaitable<std::optional<net::response>>
mock_core::serve(std::shared_ptr<mock_core> self, net::request req, net::tcp::endpoint remote) {
    if (is_control_target(req.target())) {
        auto drop_ws = [hub = &self->hub_] {
            hub->drop_all(ws_drop_code, "mock wsDrop");
        };
        if (auto common =
                handle_control(req, {self->faults_, self->stats_, *self->markets_, drop_ws})) {
            auto const path = split_target(req.target()).path;
            if (req.method() == http::verb::post && common->result() == http::status::ok &&
                (path == "/__mock/mark" || path == "/__mock/tick"))
                self->router_->on_market_change();
            co_return std::move(*common);
        }
        if (auto own = self->router_->handle_control(req))
            co_return std::move(*own);
        co_return control_not_found(req);
    }

    self->stats_.count(self->router_->classify(req));
    fault_config const f = self->faults_.get();
    if (f.latency.count() > 0) {
        // Never sleep on the io_context: a timer parks only this connection.
        boost::asio::steady_timer t(co_await boost::asio::this_coro::executor, f.latency);
        co_await t.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }
    if (f.drop)
        co_return std::nullopt;
    if (f.status)
        co_return self->router_->forced_status(*f.status, req.version());
    co_return self->router_->handle(req, caller{remote.address().to_string()});
}

boost::asio::awaitable<std::optional<net::response>>
mock_core::upgrade(std::shared_ptr<mock_core> self, net::request& req, net::tcp::endpoint remote,
                   net::ws_upgrade& up) {
    self->stats_.count(self->router_->classify_ws(req));
    fault_config const f = self->faults_.get();
    if (f.latency.count() > 0) {
        boost::asio::steady_timer t(co_await boost::asio::this_coro::executor, f.latency);
        co_await t.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
    }
    if (f.drop)
        co_return std::nullopt; // not accepted: the server closes the connection unanswered
    if (f.status)
        co_return self->router_->forced_status(*f.status, req.version());
    auto route = self->router_->ws_open(req, caller{remote.address().to_string()});
    if (auto* refused = std::get_if<net::response>(&route))
        co_return std::move(*refused);
    net::ws_options opts;
    opts.peer_timeout = ws_peer_timeout;
    opts.max_queued = ws_max_queued;
    auto session = co_await up.accept(opts);
    if (!session)
        co_return std::nullopt;
    auto conn = std::make_shared<ws_conn>(session, self->faults_, remote.address().to_string());
    std::unique_ptr<ws_handler> handler = std::get<ws_accept>(route).make(conn);
    self->hub_.add(conn);
    handler->on_open();
    // A named handler: GCC 12 mishandles temporaries inside a co_await expression.
    net::ws_session::message_handler on_message = [&handler](std::string_view text) {
        handler->on_message(text);
    };
    auto served = session->run(std::move(on_message));
    co_await std::move(served);
    handler->on_close();
    self->hub_.remove(*conn);
    co_return std::nullopt;
}

void mock_core::start_walk(boost::asio::any_io_executor ex, std::chrono::milliseconds period) {
    if (!router_started_) {
        router_started_ = true;
        router_->start(ex);
    }
    walk_period_ = period;
    walk_timer_ = std::make_unique<boost::asio::steady_timer>(boost::asio::make_strand(ex));
    walking_ = true;
    boost::asio::post(walk_timer_->get_executor(),
                      [self = shared_from_this()] { self->schedule_walk(); });
}

void mock_core::schedule_walk() {
    if (!walking_)
        return;
    walk_timer_->expires_after(walk_period_);
    walk_timer_->async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (ec || !self->walking_)
            return;
        self->markets_->step(now_ms());
        self->router_->on_market_change();
        self->schedule_walk();
    });
}

void mock_core::stop_walk() {
    router_->stop();
    if (!walk_timer_ || !walking_.exchange(false))
        return;
    boost::asio::post(walk_timer_->get_executor(),
                      [self = shared_from_this()] { self->walk_timer_->cancel(); });
}

} // namespace gateway::mocks
