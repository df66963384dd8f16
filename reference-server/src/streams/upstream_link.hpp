#pragma once
/**
 * @file upstream_link.hpp
 * One upstream WebSocket connection holding a set of upstream subscriptions ("topics"), for the
 * providers' live streams (perps_streams). Generic: what a frame means, how a topic is
 * subscribed and where a message belongs is the provider's `link_protocol`.
 *
 * - Topics are opaque keys (`"l2Book BTC"`, `"btcusdt@depth@100ms"`); several listeners may
 *   share one: the upstream subscription is made for the first and dropped after the last.
 * - The link connects while it holds a topic and closes when the last one is gone.
 * - A broken connection is reopened after a jittered exponential backoff (full jitter: a
 *   uniform delay in [0, min(max, initial * 2^attempt)]), every topic is subscribed again,
 *   listeners get `reconnecting` once when it broke and `restored` once it is back.
 * - Keepalive: the protocol's own ping (alpha's `{"method":"ping"}`) every `ping_interval`; no
 *   pong within `pong_timeout` closes the connection (and reconnects). WebSocket pings and the
 *   dead-peer close come from the session (`connect.session.peer_timeout`).
 * - Staleness: a topic that must tick (books, prices) without data for `stale_after` gets
 *   `stale`; its next data `restored` first.
 * - Control frames (subscribe, unsubscribe) keep to `max_control_per_second` (beta: 10);
 *   subscriptions waiting meanwhile are batched into the next frame.
 *
 * @par Threads
 * The link runs on a strand of the executor it is given; listeners are called on it, so one
 * listener is never called concurrently with itself (nor with any other of the link). The
 * link's public members may be called from any thread. Destroying a subscription's token never
 * blocks: the removal is posted to the strand, and the listener is not called after it ran.
 */
#include "providers/provider.hpp"

#include <gateway/net/websocket.hpp>
#include <gateway/result.hpp>
#include <gateway/stream/protocol.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gateway::server::streams {

/// Logs that every connection of `upstream_name` is at its limit (pick_link).
void log_pool_full(std::string const& upstream_name);

/// Reconnect delays: full jitter over an exponential ceiling.
struct backoff {
    std::chrono::milliseconds initial{100};
    std::chrono::milliseconds max{10000};

    /// min(max, initial * 2^attempt): the longest delay of attempt `attempt` (0 = first retry).
    std::chrono::milliseconds ceiling(unsigned attempt) const noexcept;
    /// A uniform delay in [0, ceiling(attempt)].
    std::chrono::milliseconds delay(unsigned attempt, std::mt19937_64& rng) const;
};

/**
 * New connections to one upstream kept to its limit (CONTRACT §8; alpha: 30 a minute): at most
 * `per_window` connection attempts in any `window`. Shared by every link of the upstream (a
 * reconnect counts as well). Thread-safe; time is passed in, so tests drive it.
 */
class connect_pacer {
public:
    using time_point = std::chrono::steady_clock::time_point;
    connect_pacer(std::size_t per_window, std::chrono::steady_clock::duration window)
        : per_window_(per_window)
        , window_(window) {}

    /// Books an attempt at the earliest time at or after `now` that keeps to the limit; returns
    /// how long from `now` that is (zero: at once).
    std::chrono::steady_clock::duration reserve(time_point now);

private:
    std::mutex m_;
    std::size_t per_window_;
    std::chrono::steady_clock::duration window_;
    std::deque<time_point> booked_; ///< the last `per_window_` attempts, in order
};

/// What a provider makes of one incoming text frame.
struct inbound {
    enum class kind {
        ignore, ///< acks, greetings, events nobody listens to
        data,   ///< `payload` for topic `key`
        pong,   ///< the answer to the protocol's ping
        error,  ///< the upstream refused something (`text`); logged
    };
    kind what = kind::ignore;
    std::string key;
    std::shared_ptr<boost::json::value const> payload;
    std::string text;
};

/// Where a link connects: the URL, and how many of the wanted keys (the first ones) it already
/// subscribes by itself (beta's `/stream?streams=a/b`, a listen key's `/ws/<key>`).
struct connect_target {
    std::string url;
    std::size_t covered = 0;
};

/// A provider's wire protocol on one link. `read` may be called from any thread (the
/// session's); the others run on the link's strand.
class link_protocol {
public:
    virtual ~link_protocol() = default;
    /// The URL for a connection wanting `keys` (in subscription order). An error fails this
    /// attempt (the link backs off and tries again).
    virtual boost::asio::awaitable<result<connect_target>>
    connect_url(std::vector<std::string> keys) = 0;
    /// The control frames subscribing `keys` (one frame may carry several).
    virtual std::vector<std::string> subscribe_frames(std::vector<std::string> const& keys) = 0;
    virtual std::vector<std::string> unsubscribe_frames(std::vector<std::string> const& keys) = 0;
    /// What `text` is.
    virtual inbound read(std::string_view text) const = 0;
    /// The protocol's own ping frame, if it has one.
    virtual std::optional<std::string> ping_frame() const { return std::nullopt; }
};

struct link_options {
    std::string name = "upstream"; ///< in logs and status messages ("alpha", "beta testnet")
    std::chrono::milliseconds stale_after{5000};
    /// The protocol's ping (when it has one) and how long its pong may take.
    std::chrono::milliseconds ping_interval{30000};
    std::chrono::milliseconds pong_timeout{10000};
    /// Control frames sent at most per second; 0: no limit.
    std::size_t max_control_per_second = 0;
    backoff retry;
    net::ws_connect_options connect;
    /// The upstream's pace of new connections, shared by its links; null: unpaced.
    std::shared_ptr<connect_pacer> pacer;
};

/// A listener of one topic: data in arrival order, statuses as they happen.
struct link_listener {
    std::function<void(std::shared_ptr<boost::json::value const> const&)> on_data;
    std::function<void(stream::stream_status, std::string const&)> on_status;
};

class upstream_link : public std::enable_shared_from_this<upstream_link> {
public:
    static std::shared_ptr<upstream_link> create(boost::asio::any_io_executor ex,
                                                 std::shared_ptr<link_protocol> protocol,
                                                 link_options options);
    ~upstream_link();
    upstream_link(upstream_link const&) = delete;
    upstream_link& operator=(upstream_link const&) = delete;

    /**
     * Listens to topic `key` (subscribed upstream for its first listener; `must_tick` topics are
     * watched for silence). The listener lasts until the returned token is destroyed.
     */
    std::shared_ptr<void> subscribe(std::string key, bool must_tick, link_listener listener);

    /// Topics held (listened to by someone), as of the last subscribe or token drop.
    std::size_t topic_count() const;
    /// Whether topic `key` is held.
    bool holds(std::string_view key) const;

    /// Closes the current connection (if any) and connects again with every topic: e.g. after
    /// the upstream said the connection's credentials expired.
    void reconnect();
    /// Closes for good: no reconnect, listeners are not called any more.
    void stop();

    /// The strand the listeners run on.
    boost::asio::strand<boost::asio::any_io_executor> const& strand() const noexcept {
        return strand_;
    }
    link_options const& options() const noexcept { return options_; }

    /// Connections made so far (successful handshakes), and whether one is up.
    std::uint64_t connections() const noexcept { return connections_.load(); }
    bool connected() const noexcept { return connected_.load(); }

private:
    struct topic;
    struct listener_entry;
    struct token;
    upstream_link(boost::asio::any_io_executor const& ex, std::shared_ptr<link_protocol> protocol,
                  link_options options);

    // Strand only.
    void release(std::string const& key, std::uint64_t id); // any thread
    void add(std::string const& key, bool must_tick, std::uint64_t id, link_listener l);
    void remove(std::string const& key, std::uint64_t id);
    void start_if_idle();
    static boost::asio::awaitable<void> run(std::shared_ptr<upstream_link> self);
    boost::asio::awaitable<void> run_loop();
    void on_inbound(std::uint64_t generation, inbound const& in);
    void notify_all(stream::stream_status s, std::string const& message);
    void pump();
    void arm_watchdog(std::uint64_t generation);
    void watchdog(std::uint64_t generation);

    boost::asio::strand<boost::asio::any_io_executor> strand_;
    std::shared_ptr<link_protocol> protocol_;
    link_options options_;

    mutable std::mutex m_; // guards held_ (placement reads it from any thread)
    std::map<std::string, std::size_t, std::less<>> held_;

    // Strand only.
    std::map<std::string, topic, std::less<>> topics_;
    std::vector<std::string> order_; ///< keys in subscription order
    std::set<std::string> pending_sub_, pending_unsub_;
    std::deque<std::string> outbox_;
    std::deque<std::chrono::steady_clock::time_point> sent_;
    std::shared_ptr<net::ws_session> session_;
    std::uint64_t generation_ = 0;
    bool running_ = false;
    bool down_ = false; ///< listeners were told `reconnecting`
    bool stopped_ = false;
    bool closing_idle_ = false; ///< the connection is closing because nothing is held
    std::optional<std::chrono::steady_clock::time_point> ping_sent_;
    std::chrono::steady_clock::time_point last_ping_{};
    boost::asio::steady_timer retry_timer_;
    boost::asio::steady_timer pump_timer_;
    boost::asio::steady_timer watchdog_timer_;
    bool pump_armed_ = false;
    bool got_data_ = false; ///< the current connection delivered data (resets the backoff)
    std::mt19937_64 rng_;

    std::atomic<std::uint64_t> connections_{0};
    std::atomic<bool> connected_{false};
    std::atomic<std::uint64_t> next_id_{1};
};

/**
 * A sink guarded against its handle: `deliver` calls it until `close`, and `close` returns only
 * when no call is running on another thread (a handle dropped from inside its own sink, on the
 * same thread, is allowed). A provider's `open` hands out a handle that closes one.
 */
class guarded_sink {
public:
    explicit guarded_sink(stream_sink sink)
        : sink_(std::move(sink)) {}

    void deliver(stream_update u) {
        std::lock_guard lock(m_);
        if (open_ && sink_)
            sink_(std::move(u));
    }
    void data(stream_payload p) {
        stream_update u;
        u.data = std::move(p);
        deliver(std::move(u));
    }
    void status(stream::stream_status s, std::string message) {
        stream_update u;
        u.what = stream_update::kind::status;
        u.status = s;
        u.message = std::move(message);
        deliver(std::move(u));
    }
    void close() {
        std::lock_guard lock(m_);
        open_ = false;
    }
    bool is_open() const {
        std::lock_guard lock(m_);
        return open_;
    }

private:
    mutable std::recursive_mutex m_;
    bool open_ = true;
    stream_sink sink_;
};

/**
 * One provider subscription behind a link: its events (start, data, statuses) are handled one
 * at a time, in order, on the link's strand; a handler may co_await (a REST seed or resync)
 * while later events wait their turn. The sink is called from the handlers only, so serially.
 */
class source : public std::enable_shared_from_this<source> {
public:
    source(boost::asio::strand<boost::asio::any_io_executor> strand,
           std::shared_ptr<guarded_sink> sink)
        : strand_(std::move(strand))
        , sink_(std::move(sink)) {}
    virtual ~source() = default;

    /// The link listener feeding this source.
    link_listener listener();
    /// Queues `on_start` (before any data); any thread.
    void start();

protected:
    virtual boost::asio::awaitable<void> on_start() { co_return; }
    virtual boost::asio::awaitable<void>
    on_data(std::shared_ptr<boost::json::value const> data) = 0;
    /// Default: the status goes to the sink as it is.
    virtual boost::asio::awaitable<void> on_status(stream::stream_status s, std::string message);

    guarded_sink& sink() noexcept { return *sink_; }
    boost::asio::strand<boost::asio::any_io_executor> const& strand() const noexcept {
        return strand_;
    }

private:
    struct event {
        enum class kind { start, data, status } what = kind::data;
        std::shared_ptr<boost::json::value const> data;
        stream::stream_status status = stream::stream_status::restored;
        std::string message;
    };
    void push(event e); // strand only
    static boost::asio::awaitable<void> drain(std::shared_ptr<source> self);

    boost::asio::strand<boost::asio::any_io_executor> strand_;
    std::shared_ptr<guarded_sink> sink_;
    std::deque<event> queue_;
    bool busy_ = false;
};

/// What `perps_streams::open` returns: closes the sink first (no call after the handle is
/// gone), then drops what it keeps (link tokens, user counts) in order.
struct stream_handle {
    std::shared_ptr<guarded_sink> sink;
    std::vector<std::shared_ptr<void>> keep;
    ~stream_handle() {
        if (sink)
            sink->close();
        while (!keep.empty())
            keep.pop_back();
    }
};

/// A provider's WebSocket URL: `ws_url` when configured, else its REST base with ws(s):// and
/// `suffix` (the embedded mocks serve both on one port).
inline std::string ws_url_of(std::string const& ws_url, std::string const& base_url,
                             std::string_view suffix) {
    if (!ws_url.empty())
        return ws_url;
    if (base_url.rfind("http", 0) != 0)
        return {};
    return "ws" + base_url.substr(4) + std::string(suffix);
}

/**
 * Which of a provider's upstream connections carries `key` (the upstream's limits on connections
 * and subscriptions per connection): the one holding it already; else the fullest one `fits`
 * (fewer connections); else a new one from `make` while under `max_connections`; else, logged,
 * the least loaded (the limit is exceeded rather than the subscription refused). `link_of(slot)`
 * is the slot's `upstream_link`. The caller holds its pool's lock.
 */
template <class Slot, class LinkOf, class Fits, class Make>
Slot& pick_link(std::vector<Slot>& slots, std::string const& key, LinkOf link_of, Fits fits,
                std::size_t max_connections, Make make, std::string const& upstream_name) {
    for (auto& s : slots)
        if (link_of(s)->holds(key))
            return s;
    Slot* chosen = nullptr;
    for (auto& s : slots)
        if (fits(s) && (!chosen || link_of(s)->topic_count() > link_of(*chosen)->topic_count()))
            chosen = &s;
    if (chosen)
        return *chosen;
    if (slots.size() < max_connections || slots.empty()) {
        slots.push_back(make());
        return slots.back();
    }
    log_pool_full(upstream_name);
    return *std::min_element(slots.begin(), slots.end(), [&](Slot const& a, Slot const& b) {
        return link_of(a)->topic_count() < link_of(b)->topic_count();
    });
}

} // namespace gateway::server::streams
