#pragma once
/**
 * @file hub.hpp
 * The fan-out between the providers' upstream subscriptions and the WebSocket clients
 * (CONTRACT §8: one upstream subscription per (provider, network, channel, key), shared by
 * every client).
 *
 * A topic is one (network, subscription). The first client to join opens it upstream
 * (`perps_streams::open`); the last to leave releases it. Each update is serialised into a
 * frame once and the same bytes are queued on every member's connection. Snapshot channels
 * (`prices`, `orderbook`, `orders`) keep their last frame, so a late joiner gets the current
 * state at once instead of waiting for the next change. Books and price maps go out at most
 * once per `book_interval` (the latest wins; nothing older is ever sent after a newer one): a
 * change whose topic sent nothing for an interval goes out at once, and one that comes sooner
 * waits for the end of that interval. Ticks are shared between topics: topics flushed together
 * come due together, so under a steady stream a client subscribed to several books gets all of
 * a tick's frames in one write. Books carry the topic's `seq`, which grows by one per frame.
 *
 * A topic whose last member left lingers `linger` (30 s; measured on the injected clock, swept
 * about once a second) before it is released upstream; a client joining meanwhile takes it over
 * with no upstream traffic, so client churn never reaches the upstream. User channels (`orders`,
 * `fills`) are released at once: their upstream slots are few (CONTRACT §8).
 */
#include "providers/provider.hpp"

#include <gateway/net/websocket.hpp>
#include <gateway/stream/protocol.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace gateway::server {

struct hub_stats {
    std::size_t topics = 0;  ///< upstream subscriptions open
    std::size_t members = 0; ///< client subscriptions
};

class stream_hub {
public:
    stream_hub(boost::asio::any_io_executor ex, std::chrono::milliseconds book_interval,
               util::clock const& time = util::default_clock(),
               std::chrono::milliseconds linger = std::chrono::seconds(30));
    ~stream_hub();
    stream_hub(stream_hub const&) = delete;
    stream_hub& operator=(stream_hub const&) = delete;

    /**
     * Adds `client` to the topic (testnet, s), opening it on `source` for `account` when it is
     * new (the opener's account pays a user channel's REST seeds); the client stays a member
     * until the returned token is destroyed. The topic's last snapshot,
     * if any, is queued on `client` at once.
     */
    std::shared_ptr<void> join(perps_streams& source, bool testnet, stream::subscription const& s,
                               std::optional<std::int64_t> account,
                               std::shared_ptr<net::ws_session> const& client);

    hub_stats stats() const;

    /// Releases now the lingering topics whose time is up (also done about once a second).
    void sweep();

    /// No more ticks: the pending timer is cancelled, so the I/O threads can run out of work.
    /// Frames held for their slot are dropped (the connections are closing anyway).
    void stop();

    struct topic;

private:
    friend struct topic;
    using time_point = std::chrono::steady_clock::time_point;
    void release(std::string const& key, topic const* t);
    /// Puts `t`'s pending book or price map on a tick at `when` (its last frame plus one
    /// interval): at once when that has passed.
    void schedule(std::shared_ptr<topic> const& t, time_point when);
    void arm(time_point when); ///< with tick_m_ held
    void tick();
    void arm_sweep(); ///< with m_ held

    boost::asio::any_io_executor ex_;
    std::chrono::steady_clock::duration book_interval_;
    mutable std::mutex m_;
    std::unordered_map<std::string, std::shared_ptr<topic>> topics_;
    boost::asio::strand<boost::asio::any_io_executor> strand_; ///< runs every tick
    std::mutex tick_m_;                                        // guards the five below
    std::vector<std::weak_ptr<topic>> due_;
    bool tick_posted_ = false;
    bool stopped_ = false;
    time_point tick_at_ = time_point::max(); ///< when the timer fires, max when it is idle
    boost::asio::steady_timer tick_;
    std::shared_ptr<bool> alive_;
    util::clock const& time_;
    std::chrono::steady_clock::duration linger_;
    boost::asio::steady_timer sweep_timer_; ///< on strand_; armed while a topic lingers
    bool sweep_armed_ = false;              ///< guarded by m_
    bool sweep_stopped_ = false;            ///< guarded by m_
};

} // namespace gateway::server
