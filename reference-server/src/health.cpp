#include "health.hpp"
#include "health_transport.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>

#include <stdexcept>

namespace gateway::server {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using namespace std::chrono;

struct health_monitor::slot {
    explicit slot(asio::io_context& ioc, probe_target t)
        : strand(asio::make_strand(ioc))
        , target(std::move(t))
        , timer(strand) {}
    asio::strand<asio::io_context::executor_type> strand;
    probe_target target;
    asio::steady_timer timer; // the background loop's, used on `strand` only

    std::mutex m; // guards the fields below; never held across co_await
    std::optional<probe_outcome> last;
    steady_clock::time_point last_at{};
    bool in_flight = false;
    std::vector<std::shared_ptr<asio::steady_timer>> waiters;
};

asio::awaitable<boost::system::result<net::http_response, net::fetch_error>>
http_probe_transport::send(probe_target const& target, milliseconds timeout) {
    if (target.before_send)
        target.before_send();
    net::http_request req{target.method, target.path, 11};
    if (!target.body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = target.body;
    }
    net::fetch_options opt;
    opt.timeout = timeout;
    opt.idempotent = true;
    co_return co_await client_.async_request(target.base, std::move(req), opt);
}

health_status classify(bool answered_ok, milliseconds latency, milliseconds degraded_threshold) {
    if (!answered_ok)
        return health_status::down;
    return latency > degraded_threshold ? health_status::degraded : health_status::ok;
}

health_monitor::health_monitor(asio::io_context& ioc, probe_transport& transport,
                               util::clock const& clock, std::vector<probe_target> targets,
                               health_options options)
    : ioc_(ioc)
    , transport_(transport)
    , clock_(clock)
    , options_(options) {
    for (auto& t : targets)
        slots_.push_back(std::make_shared<slot>(ioc, std::move(t)));
}

health_monitor::~health_monitor() = default;

void health_monitor::start() {
    for (auto const& s : slots_)
        asio::co_spawn(s->strand, loop(s), asio::detached);
}

void health_monitor::stop() {
    stopped_ = true;
    for (auto const& s : slots_)
        asio::post(s->strand, [s] { s->timer.cancel(); });
}

bool health_monitor::knows(std::string_view provider) const {
    for (auto const& s : slots_)
        if (s->target.provider == provider)
            return true;
    return false;
}

std::shared_ptr<health_monitor::slot> const& health_monitor::find(std::string_view provider) const {
    for (auto const& s : slots_)
        if (s->target.provider == provider)
            return s;
    throw std::logic_error("health_monitor: unknown provider"); // caller broke the precondition
}

probe_target const& health_monitor::target(std::string_view provider) const {
    return find(provider)->target;
}

asio::awaitable<void> health_monitor::loop(std::shared_ptr<slot> s) {
    auto self = shared_from_this();
    while (!stopped_) {
        auto const started = steady_clock::now();
        bool mine = false;
        {
            std::lock_guard lock(s->m);
            if (!s->in_flight)
                mine = s->in_flight = true;
        }
        if (mine)
            co_await run_probe(s);
        // stop() sets the flag before posting the cancel to this strand, so checking here
        // closes the window where the cancel lands while a probe is in flight.
        if (stopped_)
            break;
        s->timer.expires_at(started + options_.interval);
        co_await s->timer.async_wait(asio::as_tuple(asio::use_awaitable));
    }
}

asio::awaitable<probe_outcome> health_monitor::run_probe(std::shared_ptr<slot> s) {
    // Precondition: the caller set s->in_flight.
    auto const t0 = clock_.steady_now();
    auto r = co_await transport_.send(s->target, options_.timeout);
    auto const latency = duration_cast<milliseconds>(clock_.steady_now() - t0);
    probe_outcome out;
    bool const answered_ok = r && r->result_int() >= 200 && r->result_int() < 300;
    out.status = classify(answered_ok, latency, options_.degraded_threshold);
    out.latency_ms = latency.count();
    out.checked_at_ms = clock_.now_ms();
    out.reason = r ? "HTTP " + std::to_string(r->result_int()) : r.error().message;
    std::vector<std::shared_ptr<asio::steady_timer>> waiters;
    {
        std::lock_guard lock(s->m);
        s->last = out;
        s->last_at = steady_clock::now();
        s->in_flight = false;
        waiters.swap(s->waiters);
    }
    for (auto& w : waiters)
        asio::post(w->get_executor(), [w] { w->cancel(); });
    co_return out;
}

// Coroutines take their arguments by value (STYLE "Async"): a reference could dangle.
// cppcheck-suppress passedByValue
asio::awaitable<probe_outcome> health_monitor::probe_now(std::string provider) {
    auto s = find(provider);
    {
        std::lock_guard lock(s->m);
        s->in_flight = true;
    }
    co_return co_await run_probe(s);
}

health_monitor::pending health_monitor::begin(std::shared_ptr<slot> s, asio::any_io_executor ex) {
    pending p{s, std::nullopt, nullptr, steady_clock::now()};
    bool start_probe = false;
    {
        std::lock_guard lock(s->m);
        // Fresh enough: the background loop refreshes every interval; allow one more interval
        // of slack for a probe that is itself slow.
        if (s->last && p.asked_at - s->last_at <= 2 * options_.interval) {
            p.ready = *s->last;
            return p;
        }
        start_probe = !s->in_flight;
        s->in_flight = true;
        p.waiter = std::make_shared<asio::steady_timer>(ex);
        p.waiter->expires_after(options_.timeout);
        s->waiters.push_back(p.waiter);
    }
    if (start_probe)
        asio::co_spawn(s->strand, run_probe(s), asio::detached);
    return p;
}

asio::awaitable<probe_outcome> health_monitor::finish(pending p) {
    if (p.ready)
        co_return *p.ready;
    co_await p.waiter->async_wait(asio::as_tuple(asio::use_awaitable));
    {
        std::lock_guard lock(p.s->m);
        if (p.s->last && p.s->last_at >= p.asked_at)
            co_return *p.s->last;
    }
    // The probe did not finish within the timeout: by definition no answer in time.
    probe_outcome out;
    out.status = health_status::down;
    out.latency_ms = options_.timeout.count();
    out.checked_at_ms = clock_.now_ms();
    out.reason = "probe did not finish within the timeout";
    co_return out;
}

// cppcheck-suppress passedByValue
asio::awaitable<probe_outcome> health_monitor::current(std::string provider) {
    co_return co_await finish(begin(find(provider), co_await asio::this_coro::executor));
}

asio::awaitable<std::vector<std::pair<std::string, probe_outcome>>> health_monitor::current_all() {
    auto ex = co_await asio::this_coro::executor;
    std::vector<pending> started;
    for (auto const& s : slots_)
        started.push_back(begin(s, ex));
    std::vector<std::pair<std::string, probe_outcome>> out;
    for (auto& p : started) {
        auto name = p.s->target.provider;
        out.emplace_back(std::move(name), co_await finish(std::move(p)));
    }
    co_return out;
}

} // namespace gateway::server
