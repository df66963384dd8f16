#pragma once
/**
 * @file ws_hub.hpp
 * Generic WebSocket plumbing of every mock: one `ws_conn` per upgraded connection (the session
 * plus the WebSocket faults of CONTRACT §10) and a `ws_hub` that fans published frames out to
 * the connections subscribed to a topic. Wire formats stay in each upstream's folder: a topic is
 * an opaque string the upstream names ("l2Book:BTC", "btcusdt@depth"), a payload an already
 * serialised frame.
 *
 * Faults (read at every frame from the core's `fault_switch`):
 * - `wsStall`: data frames are dropped while it is on (a frozen stream; the connection stays
 *   open, replies such as pongs, acks and errors still go out);
 * - `wsDelayMs`: every data frame leaves that much later, in order;
 * - `wsDrop` (one-shot): `ws_hub::drop_all` closes every open connection at once.
 *
 * @par Thread safety
 * Every member of both classes is safe to call from any thread. The hub's lock is held while it
 * queues frames on sessions (which never blocks) and never while calling out otherwise.
 */
#include "faults.hpp"

#include <gateway/net/websocket.hpp>

#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::mocks {

using ws_frame = std::shared_ptr<std::string const>;

/// One upgraded connection of a mock.
class ws_conn : public std::enable_shared_from_this<ws_conn> {
public:
    ws_conn(std::shared_ptr<net::ws_session> session, fault_switch const& faults, std::string peer);

    /// A data frame (stream payload): subject to wsStall and wsDelayMs.
    void send_data(ws_frame frame);
    /// A reply to the client (ack, error, pong, result): never stalled nor delayed.
    void send_reply(std::string frame);
    void close(std::uint16_t code, std::string reason);

    std::uint64_t id() const noexcept { return id_; }
    /// The client's address (per-IP limits).
    std::string const& peer() const noexcept { return peer_; }
    bool is_open() const noexcept { return session_->is_open(); }

private:
    void pump(); ///< on the session's strand: sends the delayed frames that are due

    std::shared_ptr<net::ws_session> session_;
    fault_switch const& faults_;
    std::string peer_;
    std::uint64_t id_;
    // Strand-only:
    std::deque<std::pair<std::chrono::steady_clock::time_point, ws_frame>> delayed_;
    boost::asio::steady_timer timer_;
    bool timer_armed_ = false;
};

/// Topic fan-out.
class ws_hub {
public:
    /// A frame as one subscription receives it: `prefix + payload + suffix` (beta's combined
    /// streams wrap each payload as `{"stream":..,"data":..}`; alpha sends it bare).
    struct envelope {
        std::string prefix;
        std::string suffix;
    };

    void add(std::shared_ptr<ws_conn> c);
    /// Forgets a connection and every subscription it held.
    void remove(ws_conn const& c);
    /// wsDrop: closes every open connection now (each then ends and is removed).
    void drop_all(std::uint16_t code, std::string const& reason);
    std::size_t connections() const;

    /**
     * Subscribes `c` to `topic`; false when it already was. With `hold`, published frames are
     * kept back (with their event ids) until `release`, so a snapshot read after subscribing
     * still goes out before anything published meanwhile.
     */
    bool subscribe(std::shared_ptr<ws_conn> const& c, std::string const& topic, envelope env = {},
                   bool hold = false);
    /// False when `c` was not subscribed.
    bool unsubscribe(ws_conn const& c, std::string const& topic);
    bool subscribed(ws_conn const& c, std::string const& topic) const;
    /// Topics `c` holds.
    std::vector<std::string> topics_of(ws_conn const& c) const;

    /**
     * Ends a hold: sends `first` (data frames, already enveloped), then the frames kept back,
     * except those whose event id `covered` says the snapshot already holds.
     */
    void release(ws_conn const& c, std::string const& topic, std::vector<ws_frame> first,
                 std::function<bool(std::uint64_t event_id)> const& covered = {});

    bool has_subscribers(std::string const& topic) const;
    /// Every topic with at least one subscriber.
    std::vector<std::string> active_topics() const;

    /// Sends `payload` to every subscriber of `topic` as a data frame. `event_id` (0: none)
    /// lets a held subscription skip what its snapshot covered.
    void publish(std::string const& topic, std::string const& payload, std::uint64_t event_id = 0);

private:
    struct held {
        ws_frame frame;
        std::uint64_t event_id;
    };
    struct subscription {
        std::shared_ptr<ws_conn> conn;
        envelope env;
        bool holding = false;
        std::vector<held> kept;
    };

    mutable std::mutex m_;
    std::map<std::uint64_t, std::shared_ptr<ws_conn>> conns_;
    std::map<std::string, std::map<std::uint64_t, subscription>, std::less<>> topics_;
};

} // namespace gateway::mocks
