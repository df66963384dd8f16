#pragma once
// A blocking WebSocket test client over net::ws_connect: frames are collected as they arrive and
// a test waits for the one it expects with a deadline (never a sleep). `hold()` stops it from
// reading (its I/O thread blocks in the callback) to play a slow consumer.
#include <gateway/net/websocket.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace gateway::test {

class ws_test_client {
public:
    using clock = std::chrono::steady_clock;

    /// Connects; `error()` says why when it could not (handshake refusals carry the status).
    explicit ws_test_client(std::string const& url, net::ws_connect_options options = {})
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

    ~ws_test_client() {
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

    bool connected() const { return session_ != nullptr; }
    std::optional<net::ws_connect_error> const& error() const { return error_; }

    void send(std::string text) { session_->send(std::move(text)); }

    /// The next frame satisfying `match` (earlier non-matching frames are skipped and kept in
    /// `seen()`), or null after `within`.
    std::optional<boost::json::value>
    wait_for(std::function<bool(boost::json::value const&)> const& match,
             std::chrono::milliseconds within = std::chrono::seconds(10)) {
        auto const deadline = clock::now() + within;
        std::unique_lock lock(m_);
        for (;;) {
            while (!inbox_.empty()) {
                auto v = std::move(inbox_.front());
                inbox_.pop_front();
                seen_.push_back(v);
                if (match(v))
                    return v;
            }
            if (end_ || cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
                if (inbox_.empty())
                    return std::nullopt;
            }
        }
    }

    /// The next frame whose `type` is `type`.
    std::optional<boost::json::value>
    wait_type(std::string const& type,
              std::chrono::milliseconds within = std::chrono::seconds(10)) {
        return wait_for(
            [&](boost::json::value const& v) {
                auto const* t = v.as_object().if_contains("type");
                return t && t->is_string() && t->get_string() == type;
            },
            within);
    }

    /// How the session ended, once it has (waits up to `within`).
    std::optional<net::ws_end>
    wait_end(std::chrono::milliseconds within = std::chrono::seconds(10)) {
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

    std::vector<boost::json::value> seen() const {
        std::lock_guard lock(m_);
        return seen_;
    }

private:
    void on_frame(std::string_view text) {
        boost::system::error_code ec;
        auto v = boost::json::parse(text, ec);
        std::unique_lock lock(m_);
        if (!ec && v.is_object())
            inbox_.push_back(std::move(v));
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
    std::deque<boost::json::value> inbox_;
    std::vector<boost::json::value> seen_;
    std::optional<net::ws_end> end_;
    bool held_ = false;
};

} // namespace gateway::test
