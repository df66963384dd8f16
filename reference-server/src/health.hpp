#pragma once
// Provider health from real upstream probes (spec 2.3, 2.4, 3; CONTRACT §1).
//
// Each provider is probed in the background every `interval`, independently of the others (a
// slow upstream never delays another provider's probe), and on demand when its last result is
// stale. A health request never waits longer than the probe timeout: it waits for the
// in-flight probe or for its own deadline, whichever comes first.
#include <gateway/net/url.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/verb.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server {

/// What to call upstream to learn whether a provider is alive.
struct probe_target {
    std::string provider;
    net::url base;
    boost::beast::http::verb method = boost::beast::http::verb::get;
    std::string path;         ///< under `base`
    std::string body;         ///< JSON body for POST probes
    std::string check_method; ///< human text for `checkMethod`
    /// Called before each probe is sent: the provider's adapter charges the probe's weight to
    /// its upstream budget (CONTRACT §3), since the upstream counts it too.
    std::function<void()> before_send;
};

struct probe_outcome {
    health_status status = health_status::down;
    std::int64_t latency_ms = 0;    ///< probe latency; for `down`, time until failure was seen
    std::int64_t checked_at_ms = 0; ///< wall clock, ms since the epoch
    std::string reason;             ///< why (for logs), never shown to clients as internals
};

/// How a probe reaches the upstream (health_transport.hpp).
class probe_transport;

/// Classification of spec §3: an error or no answer is `down`; an answer slower than the
/// threshold is `degraded`; else `ok`.
health_status classify(bool answered_ok, std::chrono::milliseconds latency,
                       std::chrono::milliseconds degraded_threshold);

struct health_options {
    std::chrono::milliseconds interval{10000};
    std::chrono::milliseconds timeout{5000};
    std::chrono::milliseconds degraded_threshold{3000};
};

class health_monitor : public std::enable_shared_from_this<health_monitor> {
public:
    health_monitor(boost::asio::io_context& ioc, probe_transport& transport,
                   util::clock const& clock, std::vector<probe_target> targets,
                   health_options options);
    ~health_monitor();

    /// Starts the background probe loops.
    void start();
    /// Stops them (in-flight probes finish on their own deadline).
    void stop();

    bool knows(std::string_view provider) const;
    probe_target const& target(std::string_view provider) const;

    /**
     * The provider's health: the last result when fresh, else the result of a probe started
     * now (or already in flight), waiting at most the probe timeout.
     * @pre `knows(provider)`
     */
    boost::asio::awaitable<probe_outcome> current(std::string provider);

    /// `current` for every provider at once: the waits overlap, so the whole call also takes
    /// at most the probe timeout. Results in target order.
    boost::asio::awaitable<std::vector<std::pair<std::string, probe_outcome>>> current_all();

    /// Runs one probe now and records it (used by the loops and by tests).
    boost::asio::awaitable<probe_outcome> probe_now(std::string provider);

private:
    struct slot;
    /// The provider's slot; throws std::logic_error for an unknown one (a caller bug).
    std::shared_ptr<slot> const& find(std::string_view provider) const;
    boost::asio::awaitable<void> loop(std::shared_ptr<slot> s);
    boost::asio::awaitable<probe_outcome> run_probe(std::shared_ptr<slot> s);
    /// Either a fresh result, or a waiter armed with the timeout (a probe is in flight).
    struct pending {
        std::shared_ptr<slot> s;
        std::optional<probe_outcome> ready;
        std::shared_ptr<boost::asio::steady_timer> waiter;
        std::chrono::steady_clock::time_point asked_at;
    };
    pending begin(std::shared_ptr<slot> s, boost::asio::any_io_executor ex);
    boost::asio::awaitable<probe_outcome> finish(pending p);

    boost::asio::io_context& ioc_;
    probe_transport& transport_;
    util::clock const& clock_;
    health_options options_;
    std::vector<std::shared_ptr<slot>> slots_;
    std::atomic<bool> stopped_{false};
};

} // namespace gateway::server
