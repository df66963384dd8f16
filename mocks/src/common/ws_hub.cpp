#include "ws_hub.hpp"

#include <boost/asio/post.hpp>

#include <atomic>

namespace gateway::mocks {

namespace {
std::atomic<std::uint64_t> next_conn_id{1};
} // namespace

ws_conn::ws_conn(std::shared_ptr<net::ws_session> session, fault_switch const& faults,
                 std::string peer)
    : session_(std::move(session))
    , faults_(faults)
    , peer_(std::move(peer))
    , id_(next_conn_id.fetch_add(1))
    , timer_(session_->get_executor()) {}

void ws_conn::send_reply(std::string frame) {
    session_->send(std::move(frame));
}

void ws_conn::close(std::uint16_t code, std::string reason) {
    session_->close(code, std::move(reason));
}

void ws_conn::send_data(ws_frame frame) {
    fault_config const f = faults_.get();
    if (f.ws_stall)
        return;
    auto const due = std::chrono::steady_clock::now() + f.ws_delay;
    // Through the strand: frames delayed earlier (perhaps under another delay) keep their order.
    boost::asio::post(session_->get_executor(),
                      [self = shared_from_this(), due, frame = std::move(frame)]() mutable {
                          if (self->delayed_.empty() && due <= std::chrono::steady_clock::now()) {
                              self->session_->send(std::move(frame));
                              return;
                          }
                          self->delayed_.emplace_back(due, std::move(frame));
                          self->pump();
                      });
}

void ws_conn::pump() {
    auto const now = std::chrono::steady_clock::now();
    while (!delayed_.empty() && delayed_.front().first <= now) {
        session_->send(std::move(delayed_.front().second));
        delayed_.pop_front();
    }
    if (delayed_.empty() || timer_armed_ || !session_->is_open())
        return;
    timer_armed_ = true;
    timer_.expires_at(delayed_.front().first);
    timer_.async_wait([self = shared_from_this()](boost::system::error_code) {
        self->timer_armed_ = false;
        self->pump();
    });
}

// ---------------------------------------------------------------------------------------------

void ws_hub::add(std::shared_ptr<ws_conn> c) {
    std::lock_guard lock(m_);
    conns_.emplace(c->id(), std::move(c));
}

void ws_hub::remove(ws_conn const& c) {
    std::lock_guard lock(m_);
    conns_.erase(c.id());
    for (auto it = topics_.begin(); it != topics_.end();) {
        it->second.erase(c.id());
        it = it->second.empty() ? topics_.erase(it) : std::next(it);
    }
}

void ws_hub::drop_all(std::uint16_t code, std::string const& reason) {
    std::vector<std::shared_ptr<ws_conn>> all;
    {
        std::lock_guard lock(m_);
        for (auto const& [id, c] : conns_)
            all.push_back(c);
    }
    for (auto const& c : all)
        c->close(code, reason);
}

std::size_t ws_hub::connections() const {
    std::lock_guard lock(m_);
    return conns_.size();
}

bool ws_hub::subscribe(std::shared_ptr<ws_conn> const& c, std::string const& topic, envelope env,
                       bool hold) {
    std::lock_guard lock(m_);
    auto& subs = topics_[topic];
    return subs.emplace(c->id(), subscription{c, std::move(env), hold, {}}).second;
}

bool ws_hub::unsubscribe(ws_conn const& c, std::string const& topic) {
    std::lock_guard lock(m_);
    auto const it = topics_.find(topic);
    if (it == topics_.end() || it->second.erase(c.id()) == 0)
        return false;
    if (it->second.empty())
        topics_.erase(it);
    return true;
}

bool ws_hub::subscribed(ws_conn const& c, std::string const& topic) const {
    std::lock_guard lock(m_);
    auto const it = topics_.find(topic);
    return it != topics_.end() && it->second.contains(c.id());
}

std::vector<std::string> ws_hub::topics_of(ws_conn const& c) const {
    std::lock_guard lock(m_);
    std::vector<std::string> out;
    for (auto const& [topic, subs] : topics_)
        if (subs.contains(c.id()))
            out.push_back(topic);
    return out;
}

void ws_hub::release(ws_conn const& c, std::string const& topic, std::vector<ws_frame> first,
                     std::function<bool(std::uint64_t)> const& covered) {
    std::lock_guard lock(m_);
    auto const it = topics_.find(topic);
    if (it == topics_.end())
        return;
    auto const s = it->second.find(c.id());
    if (s == it->second.end())
        return;
    auto& sub = s->second;
    for (auto& f : first)
        sub.conn->send_data(std::move(f));
    for (auto& k : sub.kept)
        if (k.event_id == 0 || !covered || !covered(k.event_id))
            sub.conn->send_data(std::move(k.frame));
    sub.kept.clear();
    sub.holding = false;
}

bool ws_hub::has_subscribers(std::string const& topic) const {
    std::lock_guard lock(m_);
    return topics_.contains(topic);
}

std::vector<std::string> ws_hub::active_topics() const {
    std::lock_guard lock(m_);
    std::vector<std::string> out;
    out.reserve(topics_.size());
    for (auto const& [topic, subs] : topics_)
        out.push_back(topic);
    return out;
}

void ws_hub::publish(std::string const& topic, std::string const& payload, std::uint64_t event_id) {
    std::lock_guard lock(m_);
    auto const it = topics_.find(topic);
    if (it == topics_.end())
        return;
    // One serialised frame per distinct envelope (usually one or two per topic).
    std::vector<std::pair<envelope const*, ws_frame>> built;
    for (auto& [id, sub] : it->second) {
        ws_frame frame;
        for (auto const& [env, f] : built)
            if (env->prefix == sub.env.prefix && env->suffix == sub.env.suffix)
                frame = f;
        if (!frame) {
            frame = std::make_shared<std::string const>(sub.env.prefix + payload + sub.env.suffix);
            built.emplace_back(&sub.env, frame);
        }
        if (sub.holding)
            sub.kept.push_back({frame, event_id});
        else
            sub.conn->send_data(frame);
    }
}

} // namespace gateway::mocks
