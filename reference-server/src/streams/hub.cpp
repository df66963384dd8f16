#include "streams/hub.hpp"

#include <gateway/types/account.hpp>
#include <gateway/types/market.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/value_from.hpp>

#include <optional>
#include <utility>
#include <vector>

namespace gateway::server {

namespace {
using frame_ptr = std::shared_ptr<std::string const>;

/// Channels sent at most once per interval, the latest state winning: whole books and price
/// maps, where an intermediate state is worth nothing once a newer one exists.
bool is_throttled(stream::channel c) {
    return c == stream::channel::orderbook || c == stream::channel::prices;
}

bool is_snapshot(stream::channel c) {
    return c == stream::channel::prices || c == stream::channel::orderbook ||
           c == stream::channel::orders;
}

boost::json::value payload_json(stream_payload const& p, stream::subscription const& s) {
    return std::visit(
        [&](auto const& value) -> boost::json::value {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, orderbook>) {
                if (value.bids.size() <= s.depth && value.asks.size() <= s.depth)
                    return boost::json::value_from(value);
                orderbook cut = value; // the subscription's depth, whatever the source sent
                if (cut.bids.size() > s.depth)
                    cut.bids.resize(s.depth);
                if (cut.asks.size() > s.depth)
                    cut.asks.resize(s.depth);
                return boost::json::value_from(cut);
            } else {
                return boost::json::value_from(value);
            }
        },
        p);
}
/**
 * When a book held back by the rate limit goes out: the first point of the interval's grid (the
 * same for every topic) at least one interval after the last frame. On the grid, topics held
 * back together go out on one tick; and a held book waits for the grid, not for a timer started
 * by its own last frame, so the frame sent is not locked into a fixed phase with an upstream
 * that pushes faster than the limit (a timer chained to its own last firing would keep finding
 * the book that arrived just before the previous one, about one upstream period old).
 */
std::chrono::steady_clock::time_point slot_after(std::chrono::steady_clock::time_point last,
                                                 std::chrono::steady_clock::duration interval) {
    auto const earliest = last + interval;
    if (interval.count() <= 0)
        return earliest;
    auto const into = earliest.time_since_epoch() % interval;
    return into.count() == 0 ? earliest : earliest + (interval - into);
}
} // namespace

struct stream_hub::topic : std::enable_shared_from_this<topic> {
    topic(stream_hub& h, std::string k, stream::subscription s)
        : hub(&h)
        , hub_alive(h.alive_)
        , key(std::move(k))
        , sub(std::move(s))
        , interval(h.book_interval_) {}

    stream_hub* hub;
    std::weak_ptr<bool> hub_alive;
    std::string const key;
    stream::subscription const sub;
    std::chrono::steady_clock::duration const interval; ///< between two books or price maps

    std::mutex m; // guards everything below
    std::vector<std::pair<std::uint64_t, std::weak_ptr<net::ws_session>>> members;
    std::uint64_t next_member = 0;
    std::shared_ptr<void> upstream;
    frame_ptr snapshot;    ///< the last frame of a snapshot channel
    frame_ptr last_status; ///< the last status frame while not restored
    std::optional<boost::json::value> pending_book;
    std::uint64_t seq = 0;
    bool due = false; ///< on the hub's list of topics to flush
    /// Since when the topic has had no member (it lingers); empty while it has some.
    std::optional<std::chrono::steady_clock::time_point> idle_since;

    using time_point = std::chrono::steady_clock::time_point;

    /// When the last book or price map went out, the next may go one interval later; none before
    /// the first (not the clock's epoch: that is the boot, so a first book would wait out the
    /// interval's rest when the machine has run for less than one interval).
    std::optional<time_point> last_sent;

    /// When the next book or price map may go (m held): `now` when none went out yet or the last
    /// one is an interval old, else the grid point after that interval.
    time_point next_slot(time_point now) const {
        if (!last_sent || now >= *last_sent + interval)
            return now;
        return slot_after(*last_sent, interval);
    }

    void broadcast(frame_ptr const& frame) {
        std::vector<std::shared_ptr<net::ws_session>> to;
        {
            std::lock_guard lock(m);
            to.reserve(members.size());
            for (auto const& [id, w] : members)
                if (auto s = w.lock())
                    to.push_back(std::move(s));
        }
        for (auto const& s : to)
            s->send(frame);
    }

    /// The pending book or price map as the next frame when its slot has come by `now` (the
    /// hub's tick, whose grid point is `slot`, or `now` off the grid); otherwise null, and `next`
    /// is when it comes.
    frame_ptr take_due(time_point now, time_point slot, time_point& next) {
        std::lock_guard lock(m);
        if (!pending_book) {
            due = false;
            return nullptr;
        }
        if (auto const when = next_slot(now); when > now) {
            next = when;
            return nullptr;
        }
        due = false;
        last_sent = slot;
        auto frame =
            std::make_shared<std::string const>(stream::data_frame(sub, *pending_book, ++seq));
        pending_book.reset();
        snapshot = frame;
        return frame;
    }

    void on_update(stream_update const& u) {
        if (u.what == stream_update::kind::status) {
            auto frame =
                std::make_shared<std::string const>(stream::status_frame(sub, u.status, u.message));
            {
                std::lock_guard lock(m);
                last_status = u.status == stream::stream_status::restored ? nullptr : frame;
            }
            broadcast(frame);
            return;
        }
        auto value = payload_json(u.data, sub);
        if (is_throttled(sub.channel)) {
            bool schedule = false;
            time_point when{};
            {
                std::lock_guard lock(m);
                pending_book = std::move(value); // the latest wins
                schedule = !std::exchange(due, true);
                when = next_slot(std::chrono::steady_clock::now());
            }
            if (schedule && !hub_alive.expired())
                hub->schedule(shared_from_this(), when);
            return;
        }
        auto frame = std::make_shared<std::string const>(stream::data_frame(sub, value));
        if (is_snapshot(sub.channel)) {
            std::lock_guard lock(m);
            snapshot = frame;
        }
        broadcast(frame);
    }
};

stream_hub::stream_hub(boost::asio::any_io_executor ex, std::chrono::milliseconds book_interval,
                       util::clock const& time, std::chrono::milliseconds linger)
    : ex_(std::move(ex))
    , book_interval_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(book_interval))
    , strand_(boost::asio::make_strand(ex_))
    , tick_(strand_)
    , alive_(std::make_shared<bool>(true))
    , time_(time)
    , linger_(linger)
    , sweep_timer_(strand_) {}

stream_hub::~stream_hub() {
    stop();
    std::unordered_map<std::string, std::shared_ptr<topic>> topics;
    {
        std::lock_guard lock(m_);
        topics.swap(topics_);
    }
    for (auto& [key, t] : topics) {
        std::lock_guard lock(t->m);
        t->upstream.reset();
    }
}

void stream_hub::stop() {
    // Nothing lingers any more: what lingers now is released (its upstream links may then
    // close), and a topic whose last member leaves from now on is released at once.
    std::vector<std::shared_ptr<void>> released;
    {
        std::lock_guard lock(m_);
        sweep_stopped_ = true;
        for (auto it = topics_.begin(); it != topics_.end();) {
            auto const keep = it->second;
            std::lock_guard tlock(keep->m);
            if (keep->members.empty() && keep->idle_since) {
                released.push_back(std::move(keep->upstream));
                it = topics_.erase(it);
            } else {
                ++it;
            }
        }
    }
    if (!released.empty()) // on the hub's executor, like every release
        boost::asio::post(ex_, [released = std::move(released)]() mutable { released.clear(); });
    boost::asio::post(strand_, [this, alive = std::weak_ptr<bool>(alive_)] {
        if (!alive.expired())
            sweep_timer_.cancel();
    });
    std::lock_guard lock(tick_m_);
    stopped_ = true;
    due_.clear();
    tick_.cancel();
}

void stream_hub::schedule(std::shared_ptr<topic> const& t, time_point when) {
    std::lock_guard lock(tick_m_);
    if (stopped_)
        return;
    due_.emplace_back(t);
    arm(when);
}

void stream_hub::arm(time_point when) {
    if (stopped_)
        return;
    if (when <= std::chrono::steady_clock::now()) {
        // The slot is free: a tick at once, posted, so that every update of the same upstream
        // read (several books arriving together) goes out in one pass.
        if (!std::exchange(tick_posted_, true))
            boost::asio::post(strand_, [this, alive = std::weak_ptr<bool>(alive_)] {
                if (!alive.expired())
                    tick();
            });
        return;
    }
    if (when >= tick_at_)
        return; // the timer already fires sooner
    tick_at_ = when;
    tick_.expires_at(when);
    tick_.async_wait([this, alive = std::weak_ptr<bool>(alive_)](boost::system::error_code ec) {
        if (!ec && !alive.expired())
            tick();
    });
}

void stream_hub::tick() {
    std::vector<std::weak_ptr<topic>> due;
    time_point now;
    time_point slot;
    {
        std::lock_guard lock(tick_m_);
        due.swap(due_);
        tick_posted_ = false;
        now = std::chrono::steady_clock::now();
        slot = now;
        if (tick_at_ <= now) {
            slot = tick_at_; // the timer's grid point: the next slot is one interval after it
            tick_at_ = time_point::max();
        }
    }
    // Every book and price map whose slot has come goes out in one pass (one slot time, so
    // topics flushed together stay due together), and each client's writer starts once for all
    // of its frames: one write per client per tick.
    std::vector<std::weak_ptr<topic>> later;
    auto next = time_point::max();
    {
        net::ws_send_batch batch;
        for (auto& w : due) {
            auto t = w.lock();
            if (!t)
                continue;
            auto when = time_point::max();
            if (auto frame = t->take_due(now, slot, when))
                t->broadcast(frame);
            else if (when != time_point::max()) {
                next = std::min(next, when);
                later.push_back(std::move(w));
            }
        }
    }
    if (later.empty())
        return;
    std::lock_guard lock(tick_m_);
    due_.insert(due_.end(), std::make_move_iterator(later.begin()),
                std::make_move_iterator(later.end()));
    arm(next);
}

std::shared_ptr<void> stream_hub::join(perps_streams& source, bool testnet,
                                       stream::subscription const& s,
                                       std::optional<std::int64_t> account,
                                       std::shared_ptr<net::ws_session> const& client) {
    std::string key = (testnet ? "test|" : "live|") + s.key();
    std::shared_ptr<topic> t;
    bool fresh = false;
    {
        std::lock_guard lock(m_);
        auto& slot = topics_[key];
        if (!slot) {
            slot = std::make_shared<topic>(*this, key, s);
            fresh = true;
        }
        t = slot;
    }
    std::uint64_t id = 0;
    frame_ptr snapshot;
    frame_ptr status;
    {
        std::lock_guard lock(t->m);
        id = t->next_member++;
        t->members.emplace_back(id, client);
        t->idle_since.reset(); // a lingering topic is taken over as it is
        snapshot = t->snapshot;
        status = t->last_status;
    }
    if (snapshot)
        client->send(snapshot);
    if (status)
        client->send(status);
    if (fresh) {
        auto handle = source.open(
            s,
            [weak = std::weak_ptr<topic>(t)](stream_update const& u) {
                if (auto live = weak.lock())
                    live->on_update(u);
            },
            account);
        std::lock_guard lock(t->m);
        t->upstream = std::move(handle);
    }
    // The token: leaving removes the member; the last member releases the topic.
    struct membership {
        membership(std::shared_ptr<topic> tp, std::uint64_t i)
            : t(std::move(tp))
            , id(i) {}
        membership(membership const&) = delete;
        membership& operator=(membership const&) = delete;
        std::shared_ptr<topic> t;
        std::uint64_t id;
        ~membership() {
            bool empty = false;
            {
                std::lock_guard lock(t->m);
                std::erase_if(t->members, [&](auto const& m) { return m.first == id; });
                empty = t->members.empty();
            }
            if (empty && !t->hub_alive.expired())
                t->hub->release(t->key, t.get());
        }
    };
    return std::make_shared<membership>(std::move(t), id);
}

void stream_hub::release(std::string const& key, topic const* which) {
    std::shared_ptr<topic> t;
    {
        std::lock_guard lock(m_);
        auto it = topics_.find(key);
        if (it == topics_.end() || it->second.get() != which)
            return;
        {
            std::lock_guard tlock(it->second->m);
            if (!it->second->members.empty())
                return; // someone joined in between
            auto const ch = it->second->sub.channel;
            if (linger_.count() > 0 && !sweep_stopped_ && ch != stream::channel::orders &&
                ch != stream::channel::fills) {
                it->second->idle_since = time_.steady_now(); // lingers; `sweep` releases it
                arm_sweep();
                return;
            }
        }
        t = std::move(it->second);
        topics_.erase(it);
    }
    std::shared_ptr<void> upstream;
    {
        std::lock_guard lock(t->m);
        upstream = std::move(t->upstream);
    }
    // Released on the hub's executor, never inside a provider's callback or a client's strand.
    boost::asio::post(ex_, [upstream = std::move(upstream)]() mutable { upstream.reset(); });
}

void stream_hub::arm_sweep() {
    if (sweep_armed_ || sweep_stopped_)
        return;
    sweep_armed_ = true;
    boost::asio::post(strand_, [this, alive = std::weak_ptr<bool>(alive_)] {
        if (alive.expired())
            return;
        sweep_timer_.expires_after(
            std::min<std::chrono::steady_clock::duration>(linger_, std::chrono::seconds(1)));
        sweep_timer_.async_wait([this, alive](boost::system::error_code ec) {
            if (ec || alive.expired())
                return;
            {
                std::lock_guard lock(m_);
                sweep_armed_ = false;
            }
            sweep();
        });
    });
}

void stream_hub::sweep() {
    std::vector<std::shared_ptr<void>> released;
    {
        std::lock_guard lock(m_);
        auto const now = time_.steady_now();
        bool lingering = false;
        for (auto it = topics_.begin(); it != topics_.end();) {
            auto const keep = it->second; // outlives the lock on its mutex
            std::lock_guard tlock(keep->m);
            auto& t = *keep;
            if (!t.members.empty() || !t.idle_since) {
                ++it;
                continue;
            }
            if (now - *t.idle_since < linger_) {
                lingering = true;
                ++it;
                continue;
            }
            released.push_back(std::move(t.upstream));
            it = topics_.erase(it);
        }
        if (lingering)
            arm_sweep();
    }
    if (released.empty())
        return;
    // Released on the hub's executor, never inside a provider's callback or a client's strand.
    boost::asio::post(ex_, [released = std::move(released)]() mutable { released.clear(); });
}

hub_stats stream_hub::stats() const {
    hub_stats out;
    std::lock_guard lock(m_);
    out.topics = topics_.size();
    for (auto const& [key, t] : topics_) {
        std::lock_guard tlock(t->m);
        out.members += t->members.size();
    }
    return out;
}

} // namespace gateway::server
