// One upstream WebSocket connection with its topics: connect while something is held,
// resubscribe after a reconnect, keepalive, staleness, and paced control frames (see the header).
#include "streams/upstream_link.hpp"

#include "log.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <utility>

namespace gateway::server::streams {

void log_pool_full(std::string const& upstream_name) {
    log::warn("msg=\"stream limit reached\" upstream=\"" + upstream_name + "\"");
}

namespace asio = boost::asio;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;
using stream::stream_status;

// ---------------------------------------------------------------------------------------------
// backoff

std::chrono::steady_clock::duration connect_pacer::reserve(time_point now) {
    std::lock_guard lock(m_);
    auto at = now;
    if (per_window_ > 0 && booked_.size() >= per_window_)
        at = std::max(at, booked_[booked_.size() - per_window_] + window_);
    if (!booked_.empty())
        at = std::max(at, booked_.back());
    booked_.push_back(at);
    while (booked_.size() > per_window_)
        booked_.pop_front();
    return at - now;
}

std::chrono::milliseconds backoff::ceiling(unsigned attempt) const noexcept {
    auto const cap = std::max(max, initial);
    auto d = initial;
    for (unsigned i = 0; i < attempt && d < cap; ++i)
        d *= 2;
    return std::min(d, cap);
}

std::chrono::milliseconds backoff::delay(unsigned attempt, std::mt19937_64& rng) const {
    std::uniform_int_distribution<std::int64_t> pick(0, ceiling(attempt).count());
    return std::chrono::milliseconds(pick(rng));
}

// ---------------------------------------------------------------------------------------------
// the link

struct upstream_link::listener_entry {
    std::uint64_t id = 0;
    link_listener l;
};

struct upstream_link::topic {
    bool must_tick = false;
    std::vector<listener_entry> listeners;
    steady::time_point last_data{};
    bool stale = false;
};

/// A listener's lifetime: dropping it releases the listener (never blocks).
struct upstream_link::token {
    std::weak_ptr<upstream_link> link;
    std::string key;
    std::uint64_t id = 0;
    ~token() {
        if (auto l = link.lock())
            l->release(key, id);
    }
};

namespace {

/// A connect failure's reason without the URL (a listen key is a credential of sorts).
std::string reason_of(std::string const& message) {
    if (message.rfind("connect to ", 0) == 0)
        if (auto const colon = message.rfind(": "); colon != std::string::npos)
            return message.substr(colon + 2);
    return message;
}

} // namespace

upstream_link::upstream_link(asio::any_io_executor const& ex,
                             std::shared_ptr<link_protocol> protocol, link_options options)
    : strand_(asio::make_strand(ex))
    , protocol_(std::move(protocol))
    , options_(std::move(options))
    , retry_timer_(strand_)
    , pump_timer_(strand_)
    , watchdog_timer_(strand_)
    , rng_(std::random_device{}()) {}

upstream_link::~upstream_link() = default;

std::shared_ptr<upstream_link> upstream_link::create(asio::any_io_executor ex,
                                                     std::shared_ptr<link_protocol> protocol,
                                                     link_options options) {
    return std::shared_ptr<upstream_link>(
        new upstream_link(std::move(ex), std::move(protocol), std::move(options)));
}

std::shared_ptr<void> upstream_link::subscribe(std::string key, bool must_tick,
                                               link_listener listener) {
    auto const id = next_id_.fetch_add(1);
    {
        std::lock_guard lock(m_);
        ++held_[key];
    }
    auto t = std::make_shared<token>();
    t->link = weak_from_this();
    t->key = key;
    t->id = id;
    asio::post(strand_, [self = shared_from_this(), key = std::move(key), must_tick, id,
                         l = std::move(listener)]() mutable {
        self->add(std::move(key), must_tick, id, std::move(l));
    });
    return t;
}

void upstream_link::release(std::string const& key, std::uint64_t id) {
    {
        std::lock_guard lock(m_);
        if (auto it = held_.find(key); it != held_.end() && --it->second == 0)
            held_.erase(it);
    }
    asio::post(strand_, [self = shared_from_this(), key, id] { self->remove(key, id); });
}

std::size_t upstream_link::topic_count() const {
    std::lock_guard lock(m_);
    return held_.size();
}

bool upstream_link::holds(std::string_view key) const {
    std::lock_guard lock(m_);
    return held_.find(key) != held_.end();
}

void upstream_link::reconnect() {
    asio::post(strand_, [self = shared_from_this()] {
        if (self->session_)
            self->session_->close(net::ws_code::going_away, "reconnecting");
        else
            self->retry_timer_.cancel();
    });
}

void upstream_link::stop() {
    asio::post(strand_, [self = shared_from_this()] {
        self->stopped_ = true;
        self->topics_.clear();
        self->order_.clear();
        if (self->session_)
            self->session_->close(net::ws_code::going_away, "stopping");
        self->retry_timer_.cancel();
        self->pump_timer_.cancel();
        self->watchdog_timer_.cancel();
    });
}

void upstream_link::add(std::string const& key, bool must_tick, std::uint64_t id, link_listener l) {
    if (stopped_)
        return;
    auto [it, fresh] = topics_.try_emplace(key);
    auto& t = it->second;
    t.must_tick = t.must_tick || must_tick;
    if (fresh) {
        t.last_data = steady::now();
        order_.push_back(key);
        if (!pending_unsub_.erase(key))
            pending_sub_.insert(key);
    }
    bool const tell_down = down_ && l.on_status;
    t.listeners.push_back({id, std::move(l)});
    if (tell_down) // joins a link that is reconnecting: say so, `restored` follows
        t.listeners.back().l.on_status(stream_status::reconnecting,
                                       "The " + options_.name + " upstream is reconnecting.");
    pump();
    start_if_idle();
}

void upstream_link::remove(std::string const& key, std::uint64_t id) {
    auto it = topics_.find(key);
    if (it == topics_.end())
        return;
    auto& ls = it->second.listeners;
    std::erase_if(ls, [id](listener_entry const& e) { return e.id == id; });
    if (!ls.empty())
        return;
    topics_.erase(it);
    std::erase(order_, key);
    if (!pending_sub_.erase(key))
        pending_unsub_.insert(key);
    if (topics_.empty()) {
        // Nothing held: the connection closes (the run loop ends), a reconnect wait ends now.
        pending_sub_.clear();
        pending_unsub_.clear();
        outbox_.clear();
        down_ = false;
        if (session_) {
            closing_idle_ = true;
            session_->close(net::ws_code::normal, "no subscriptions");
        }
        retry_timer_.cancel();
        return;
    }
    pump();
}

void upstream_link::start_if_idle() {
    if (running_ || stopped_ || topics_.empty())
        return;
    running_ = true;
    asio::co_spawn(strand_, run(shared_from_this()), asio::detached);
}

// Coroutines are static functions with by-value parameters (GCC 12 and capturing lambdas).
// cppcheck-suppress passedByValue
asio::awaitable<void> upstream_link::run(std::shared_ptr<upstream_link> self) {
    co_await self->run_loop();
}

asio::awaitable<void> upstream_link::run_loop() {
    unsigned attempt = 0;
    auto const self = shared_from_this();
    while (!stopped_ && !topics_.empty()) {
        if (options_.pacer) {
            // The upstream's pace of new connections (all its links together).
            // A wait cut short (a reconnect asked for) still waits for its booked time.
            auto const asked = steady::now();
            auto const until = asked + options_.pacer->reserve(asked);
            while (!stopped_ && !topics_.empty() && steady::now() < until) {
                retry_timer_.expires_at(until);
                boost::system::error_code ec;
                co_await retry_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            }
            if (stopped_ || topics_.empty())
                break;
        }
        std::vector<std::string> const keys = order_;
        auto target = co_await protocol_->connect_url(keys);
        std::shared_ptr<net::ws_session> s;
        std::string why;
        if (!target) {
            why = target.error().message;
        } else {
            // Arguments named: GCC 12 destroys temporaries of a co_await expression twice.
            auto const ex = strand_.get_inner_executor();
            std::string const url = target->url;
            auto const opts = options_.connect;
            auto c = co_await net::ws_connect(ex, url, opts);
            if (c)
                s = *c;
            else
                why = reason_of(c.error().message);
        }
        if (stopped_ || topics_.empty()) {
            if (s)
                s->close(net::ws_code::normal, "no subscriptions");
            break;
        }
        if (s) {
            // Connected: every held topic the URL does not cover is subscribed again.
            ++generation_;
            auto const generation = generation_;
            session_ = s;
            closing_idle_ = false;
            connected_ = true;
            ++connections_;
            got_data_ = false;
            std::set<std::string> covered(
                keys.begin(),
                keys.begin() + static_cast<std::ptrdiff_t>(std::min(target->covered, keys.size())));
            outbox_.clear();
            pending_sub_.clear();
            pending_unsub_.clear();
            for (auto const& k : order_)
                if (!covered.count(k))
                    pending_sub_.insert(k);
            for (auto const& k : covered)
                if (!topics_.count(k))
                    pending_unsub_.insert(k); // left while connecting
            auto const now = steady::now();
            for (auto& [k, t] : topics_) {
                t.last_data = now;
                t.stale = false;
            }
            ping_sent_.reset();
            last_ping_ = now;
            if (down_) {
                down_ = false;
                notify_all(stream_status::restored,
                           "The " + options_.name + " upstream is connected again.");
            }
            pump();
            arm_watchdog(generation);
            net::ws_session::message_handler on_message =
                [self, generation, protocol = protocol_](std::string_view text) {
                    auto in = protocol->read(text);
                    if (in.what == inbound::kind::ignore)
                        return;
                    asio::post(self->strand_, [self, generation, in = std::move(in)]() mutable {
                        self->on_inbound(generation, std::move(in));
                    });
                };
            auto const session_ex = s->get_executor();
            auto serving = s->run(on_message);
            auto const end =
                co_await asio::co_spawn(session_ex, std::move(serving), asio::use_awaitable);
            connected_ = false;
            session_.reset();
            watchdog_timer_.cancel();
            pump_timer_.cancel();
            pump_armed_ = false;
            ++generation_; // frames of the old connection still queued are dropped
            if (got_data_)
                attempt = 0;
            if (stopped_ || topics_.empty())
                break;
            if (std::exchange(closing_idle_, false))
                continue; // closed for holding nothing, then asked for more: connect at once
            why = "closed (" + std::to_string(end.code) + (end.reason.empty() ? "" : " ") +
                  end.reason + ")";
        }
        log::warn("msg=\"upstream stream down\" upstream=\"" + options_.name + "\" reason=\"" +
                  why + "\" attempt=" + std::to_string(attempt));
        if (!down_) {
            down_ = true;
            notify_all(stream_status::reconnecting,
                       "The " + options_.name + " upstream connection was lost; reconnecting.");
        }
        retry_timer_.expires_after(options_.retry.delay(attempt, rng_));
        if (attempt < 64)
            ++attempt;
        boost::system::error_code ec;
        co_await retry_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    running_ = false;
    // A topic added while the loop was deciding to end starts it again.
    start_if_idle();
}

void upstream_link::on_inbound(std::uint64_t generation, inbound const& in) {
    if (generation != generation_ || stopped_)
        return; // a frame of a connection that is gone
    switch (in.what) {
    case inbound::kind::pong:
        ping_sent_.reset();
        return;
    case inbound::kind::error:
        log::warn("msg=\"upstream stream error\" upstream=\"" + options_.name + "\" text=\"" +
                  in.text.substr(0, 200) + "\"");
        return;
    case inbound::kind::ignore:
        return;
    case inbound::kind::data:
        break;
    }
    got_data_ = true;
    auto it = topics_.find(in.key);
    if (it == topics_.end())
        return; // unsubscribed meanwhile, or nobody asked for it
    auto& t = it->second;
    t.last_data = steady::now();
    if (t.stale) {
        t.stale = false;
        for (auto const& e : t.listeners)
            if (e.l.on_status)
                e.l.on_status(stream_status::restored,
                              "The " + options_.name + " upstream is sending again.");
    }
    // Listeners are removed by posted work only, so the list is stable during the calls.
    for (auto const& e : t.listeners)
        if (e.l.on_data)
            e.l.on_data(in.payload);
}

void upstream_link::notify_all(stream_status s, std::string const& message) {
    for (auto& [k, t] : topics_) {
        t.stale = false;
        for (auto const& e : t.listeners)
            if (e.l.on_status)
                e.l.on_status(s, message);
    }
}

void upstream_link::pump() {
    if (!session_ || !connected_)
        return;
    auto const limit = options_.max_control_per_second;
    for (;;) {
        if (outbox_.empty()) {
            if (!pending_unsub_.empty()) {
                std::vector<std::string> keys(pending_unsub_.begin(), pending_unsub_.end());
                pending_unsub_.clear();
                for (auto& f : protocol_->unsubscribe_frames(keys))
                    outbox_.push_back(std::move(f));
            } else if (!pending_sub_.empty()) {
                std::vector<std::string> keys;
                for (auto const& k : order_)
                    if (pending_sub_.count(k))
                        keys.push_back(k);
                pending_sub_.clear();
                for (auto& f : protocol_->subscribe_frames(keys))
                    outbox_.push_back(std::move(f));
            }
            if (outbox_.empty())
                return;
        }
        if (limit > 0) {
            auto const now = steady::now();
            while (!sent_.empty() && now - sent_.front() >= 1s)
                sent_.pop_front();
            if (sent_.size() >= limit) {
                if (!pump_armed_) {
                    pump_armed_ = true;
                    pump_timer_.expires_at(sent_.front() + 1s + 1ms);
                    pump_timer_.async_wait(
                        [self = shared_from_this()](boost::system::error_code ec) {
                            self->pump_armed_ = false;
                            if (!ec)
                                self->pump();
                        });
                }
                return;
            }
            sent_.push_back(now);
        }
        session_->send(std::move(outbox_.front()));
        outbox_.pop_front();
    }
}

void upstream_link::arm_watchdog(std::uint64_t generation) {
    auto tick = std::min({options_.stale_after, options_.ping_interval, options_.pong_timeout}) / 4;
    tick = std::clamp<std::chrono::milliseconds>(tick, 10ms, 1000ms);
    watchdog_timer_.expires_after(tick);
    watchdog_timer_.async_wait([self = shared_from_this(), generation](boost::system::error_code) {
        self->watchdog(generation);
    });
}

void upstream_link::watchdog(std::uint64_t generation) {
    if (generation != generation_ || stopped_ || !session_)
        return;
    auto const now = steady::now();
    for (auto& [k, t] : topics_) {
        if (!t.must_tick || t.stale || now - t.last_data < options_.stale_after)
            continue;
        t.stale = true;
        std::string const message = "No data from the " + options_.name + " upstream for " +
                                    std::to_string(options_.stale_after.count()) +
                                    " ms; the stream may be stale.";
        for (auto const& e : t.listeners)
            if (e.l.on_status)
                e.l.on_status(stream_status::stale, message);
    }
    if (auto ping = protocol_->ping_frame()) {
        if (ping_sent_ && now - *ping_sent_ >= options_.pong_timeout) {
            log::warn("msg=\"upstream stream pong missing\" upstream=\"" + options_.name + "\"");
            session_->close(net::ws_code::going_away, "pong timeout");
            return; // the run loop reconnects
        }
        if (!ping_sent_ && now - last_ping_ >= options_.ping_interval) {
            ping_sent_ = now;
            last_ping_ = now;
            session_->send(std::move(*ping));
        }
    }
    arm_watchdog(generation);
}

// ---------------------------------------------------------------------------------------------
// source

link_listener source::listener() {
    link_listener l;
    l.on_data = [self = shared_from_this()](std::shared_ptr<boost::json::value const> const& d) {
        event e;
        e.data = d;
        self->push(std::move(e));
    };
    l.on_status = [self = shared_from_this()](stream_status s, std::string const& message) {
        event e;
        e.what = event::kind::status;
        e.status = s;
        e.message = message;
        self->push(std::move(e));
    };
    return l;
}

void source::start() {
    asio::post(strand_, [self = shared_from_this()] {
        event e;
        e.what = event::kind::start;
        self->push(std::move(e));
    });
}

void source::push(event e) {
    if (!sink_->is_open())
        return;
    queue_.push_back(std::move(e));
    if (busy_)
        return;
    busy_ = true;
    asio::co_spawn(strand_, drain(shared_from_this()), asio::detached);
}

asio::awaitable<void> source::on_status(stream_status s, std::string message) {
    sink_->status(s, std::move(message));
    co_return;
}

// cppcheck-suppress passedByValue
asio::awaitable<void> source::drain(std::shared_ptr<source> self) {
    while (!self->queue_.empty() && self->sink_->is_open()) {
        auto e = std::move(self->queue_.front());
        self->queue_.pop_front();
        try {
            switch (e.what) {
            case event::kind::start:
                co_await self->on_start();
                break;
            case event::kind::data:
                co_await self->on_data(std::move(e.data));
                break;
            case event::kind::status:
                co_await self->on_status(e.status, std::move(e.message));
                break;
            }
        } catch (std::exception const& x) {
            log::error(std::string("msg=\"stream source failed\" what=\"") + x.what() + "\"");
        }
    }
    self->queue_.clear();
    self->busy_ = false;
}

} // namespace gateway::server::streams
