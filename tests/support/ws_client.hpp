#pragma once
// The tests' blocking WebSocket client over net::ws_connect: its own io thread, every received
// JSON frame kept in order (other frames skipped), and waits on frames with a deadline (never a
// sleep to tune). `hold()` stops it from reading (its io thread blocks in the callback) to play a
// slow consumer.
#include <gateway/net/websocket.hpp>

#include <catch2/catch.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace gateway::test {

class ws_client {
public:
    using clock = std::chrono::steady_clock;
    using match_fn = std::function<bool(boost::json::value const&)>;
    static constexpr std::chrono::milliseconds default_wait{30000};

    /// Connects; `error()` says why when it could not (a refused upgrade carries its status).
    explicit ws_client(std::string const& url, net::ws_connect_options options = {})
        : work_(ioc_.get_executor())
        , thread_([this] { ioc_.run(); }) {
        auto fut = boost::asio::co_spawn(ioc_, net::ws_connect(ioc_.get_executor(), url, options),
                                         boost::asio::use_future);
        auto r = fut.get();
        if (!r) {
            error_ = r.error();
            return;
        }
        session_ = *r;
        boost::asio::co_spawn(
            session_->get_executor(),
            [this, s = session_]() -> boost::asio::awaitable<void> {
                net::ws_session::message_handler on_message = [this](std::string_view text) {
                    on_frame(text);
                };
                auto served = s->run(std::move(on_message));
                auto end = co_await std::move(served);
                std::lock_guard lock(m_);
                end_ = end;
                cv_.notify_all();
            },
            boost::asio::detached);
    }

    /// Connects, or answers why not (for tests of refused handshakes).
    static std::variant<std::unique_ptr<ws_client>, net::ws_connect_error>
    connect(std::string const& url, net::ws_connect_options options = {}) {
        auto c = std::make_unique<ws_client>(url, std::move(options));
        if (!c->connected())
            return *c->error();
        return c;
    }

    ~ws_client() {
        release();
        if (session_)
            session_->close();
        {
            std::unique_lock lock(m_);
            cv_.wait_for(lock, std::chrono::seconds(5), [&] { return end_.has_value(); });
        }
        work_.reset();
        ioc_.stop();
        thread_.join();
    }

    ws_client(ws_client const&) = delete;
    ws_client& operator=(ws_client const&) = delete;

    bool connected() const { return session_ != nullptr; }
    std::optional<net::ws_connect_error> const& error() const { return error_; }

    void send(std::string text) { session_->send(std::move(text)); }

    /// The next frame (in order, after those already taken) that `match` accepts, skipping the
    /// others; nullopt when none arrives within `within`.
    std::optional<boost::json::value> next(match_fn const& match,
                                           std::chrono::milliseconds within = default_wait) {
        auto const deadline = clock::now() + within;
        std::unique_lock lock(m_);
        for (;;) {
            while (read_ < frames_.size())
                if (auto const& v = frames_[read_++]; match(v))
                    return v;
            if (end_ || cv_.wait_until(lock, deadline) == std::cv_status::timeout)
                if (read_ == frames_.size())
                    return std::nullopt;
        }
    }

    /// The next frame whose `type` is `type`.
    std::optional<boost::json::value> next_type(std::string const& type,
                                                std::chrono::milliseconds within = default_wait) {
        return next(
            [&](boost::json::value const& v) {
                auto const* o = v.if_object();
                auto const* t = o ? o->if_contains("type") : nullptr;
                return t && t->is_string() && t->get_string() == type;
            },
            within);
    }

    /// Any frame received (earlier or within `within`) that `match` accepts, whatever came
    /// before it; takes nothing. For frames whose relative order is not part of the contract.
    std::optional<boost::json::value> find(match_fn const& match,
                                           std::chrono::milliseconds within = default_wait) {
        auto const deadline = clock::now() + within;
        std::unique_lock lock(m_);
        std::size_t seen = 0;
        for (;;) {
            for (; seen < frames_.size(); ++seen)
                if (match(frames_[seen]))
                    return frames_[seen];
            if (end_ || cv_.wait_until(lock, deadline) == std::cv_status::timeout)
                if (seen == frames_.size())
                    return std::nullopt;
        }
    }

    /// Frames received so far that `match` accepts (taking nothing).
    std::vector<boost::json::value> received(match_fn const& match) const {
        std::lock_guard lock(m_);
        std::vector<boost::json::value> out;
        for (auto const& f : frames_)
            if (match(f))
                out.push_back(f);
        return out;
    }

    std::size_t count(match_fn const& match) const { return received(match).size(); }

    /// How the session ended, or nullopt when it is still open after `within`.
    std::optional<net::ws_end> wait_closed(std::chrono::milliseconds within = default_wait) {
        std::unique_lock lock(m_);
        cv_.wait_for(lock, within, [&] { return end_.has_value(); });
        return end_;
    }

    /// Stops reading at the next frame until `release()`.
    void hold() {
        std::lock_guard lock(m_);
        held_ = true;
    }
    void release() {
        std::lock_guard lock(m_);
        held_ = false;
        cv_.notify_all();
    }

private:
    void on_frame(std::string_view text) {
        boost::system::error_code ec;
        auto v = boost::json::parse(text, ec);
        std::unique_lock lock(m_);
        if (!ec) // a non-JSON frame (a greeting) is skipped, as the upstreams' clients do
            frames_.push_back(std::move(v));
        cv_.notify_all();
        cv_.wait(lock, [&] { return !held_; });
    }

    boost::asio::io_context ioc_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    std::thread thread_;
    std::shared_ptr<net::ws_session> session_;
    std::optional<net::ws_connect_error> error_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::vector<boost::json::value> frames_;
    std::size_t read_ = 0;
    std::optional<net::ws_end> end_;
    bool held_ = false;
};

/// Connects or fails the test.
inline std::unique_ptr<ws_client> ws_open(std::string const& url,
                                          net::ws_connect_options options = {}) {
    auto c = std::make_unique<ws_client>(url, std::move(options));
    if (!c->connected())
        FAIL("ws connect " << url << ": " << c->error()->message << " " << c->error()->body);
    return c;
}

} // namespace gateway::test
