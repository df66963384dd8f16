#pragma once
// A blocking WebSocket test client over net::ws_connect: its own io thread, every received
// frame kept in order, and waits on frames with a deadline (never a sleep to tune).
#include <gateway/net/websocket.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

namespace gateway::test {

class ws_client {
public:
    using clock = std::chrono::steady_clock;

    ~ws_client() {
        if (session_)
            session_->close();
        {
            std::unique_lock lock(m_);
            cv_.wait_for(lock, std::chrono::seconds(3), [&] { return ended_; });
        }
        work_.reset();
        ioc_.stop();
        if (thread_.joinable())
            thread_.join();
    }

    /// Connects; on refusal returns the error (status and body of a refused upgrade).
    static std::variant<std::unique_ptr<ws_client>, net::ws_connect_error>
    connect(std::string const& url) {
        auto c = std::unique_ptr<ws_client>(new ws_client());
        auto fut = boost::asio::co_spawn(c->ioc_, net::ws_connect(c->ioc_.get_executor(), url),
                                         boost::asio::use_future);
        auto r = fut.get();
        if (!r)
            return r.error();
        c->session_ = *r;
        boost::asio::co_spawn(
            c->ioc_,
            [c = c.get(), s = c->session_]() -> boost::asio::awaitable<void> {
                net::ws_session::message_handler on_message = [c](std::string_view text) {
                    std::lock_guard lock(c->m_);
                    c->frames_.emplace_back(text);
                    c->cv_.notify_all();
                };
                auto served = s->run(std::move(on_message));
                auto end = co_await std::move(served);
                std::lock_guard lock(c->m_);
                c->end_ = end;
                c->ended_ = true;
                c->cv_.notify_all();
            },
            boost::asio::detached);
        return c;
    }

    void send(std::string text) { session_->send(std::move(text)); }

    /// The next received frame (in order) that `match` accepts, skipping the others; nullopt
    /// when none arrives within `within`.
    std::optional<boost::json::value>
    next(std::function<bool(boost::json::value const&)> const& match,
         std::chrono::milliseconds within = std::chrono::seconds(5)) {
        auto const deadline = clock::now() + within;
        std::unique_lock lock(m_);
        for (;;) {
            while (read_ < frames_.size()) {
                auto v = parse(frames_[read_++]);
                if (v && match(*v))
                    return v;
            }
            if (ended_ || cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
                if (read_ < frames_.size())
                    continue;
                return std::nullopt;
            }
        }
    }

    /// Any frame received (earlier or within `within`) that `match` accepts, whatever came
    /// before it; does not consume. For frames whose relative order is not part of the contract.
    std::optional<boost::json::value>
    find(std::function<bool(boost::json::value const&)> const& match,
         std::chrono::milliseconds within = std::chrono::seconds(5)) {
        auto const deadline = clock::now() + within;
        std::unique_lock lock(m_);
        std::size_t seen = 0;
        for (;;) {
            for (; seen < frames_.size(); ++seen)
                if (auto v = parse(frames_[seen]); v && match(*v))
                    return v;
            if (ended_ || cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
                if (seen < frames_.size())
                    continue;
                return std::nullopt;
            }
        }
    }

    /// Frames received so far that `match` accepts (without consuming them).
    std::size_t count(std::function<bool(boost::json::value const&)> const& match) {
        std::lock_guard lock(m_);
        std::size_t n = 0;
        for (auto const& f : frames_)
            if (auto v = parse(f); v && match(*v))
                ++n;
        return n;
    }

    /// Waits for the session to end; its end, or nullopt when it is still open at the deadline.
    std::optional<net::ws_end>
    wait_closed(std::chrono::milliseconds within = std::chrono::seconds(5)) {
        std::unique_lock lock(m_);
        if (!cv_.wait_for(lock, within, [&] { return ended_; }))
            return std::nullopt;
        return end_;
    }

private:
    ws_client()
        : work_(ioc_.get_executor()) {
        thread_ = std::thread([this] { ioc_.run(); });
    }

    static std::optional<boost::json::value> parse(std::string const& text) {
        boost::system::error_code ec;
        auto v = boost::json::parse(text, ec);
        if (ec)
            return std::nullopt;
        return v;
    }

    boost::asio::io_context ioc_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    std::thread thread_;
    std::shared_ptr<net::ws_session> session_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::string> frames_;
    std::size_t read_ = 0;
    bool ended_ = false;
    net::ws_end end_;
};

/// Connects or fails the test.
inline std::unique_ptr<ws_client> ws_open(std::string const& url) {
    auto r = ws_client::connect(url);
    if (auto* e = std::get_if<net::ws_connect_error>(&r))
        FAIL("ws connect " << url << ": " << e->message << " " << e->body);
    return std::move(std::get<std::unique_ptr<ws_client>>(r));
}

} // namespace gateway::test
