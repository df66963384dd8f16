#include "core.hpp"

#include "http_util.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace gateway::mocks {

boost::asio::awaitable<std::optional<net::response>>
mock_core::serve(std::shared_ptr<mock_core> self, net::request req, net::tcp::endpoint remote) {
    if (is_control_target(req.target())) {
        if (auto common = handle_control(req, {self->faults_, self->stats_, *self->markets_}))
            co_return std::move(*common);
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

void mock_core::start_walk(boost::asio::any_io_executor ex, std::chrono::milliseconds period) {
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
        self->schedule_walk();
    });
}

void mock_core::stop_walk() {
    if (!walk_timer_ || !walking_.exchange(false))
        return;
    boost::asio::post(walk_timer_->get_executor(),
                      [self = shared_from_this()] { self->walk_timer_->cancel(); });
}

} // namespace gateway::mocks
