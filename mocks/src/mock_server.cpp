#include <gateway/mocks/mock_server.hpp>

#include "alpha/alpha_router.hpp"
#include "beta/beta_router.hpp"
#include "common/core.hpp"
#include "common/http_util.hpp"
#include "gamma/gamma_router.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/net/websocket.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gateway::mocks {

namespace {
/// How long `stop()` lets in-flight answers (e.g. ones delayed by a latency fault) finish
/// before abandoning them.
constexpr auto stop_grace = std::chrono::seconds(2);
constexpr auto walk_period = std::chrono::milliseconds(1000);

net::tcp::endpoint resolve_endpoint(boost::asio::io_context& ioc, std::string const& host,
                                    std::uint16_t port) {
    boost::system::error_code ec;
    auto const addr = boost::asio::ip::make_address(host, ec);
    if (!ec)
        return {addr, port};
    net::tcp::resolver resolver(ioc);
    auto const results = resolver.resolve(host, std::to_string(port), ec);
    if (ec || results.empty())
        throw std::invalid_argument("mock_server: cannot resolve host '" + host + "'");
    return results.begin()->endpoint();
}

std::shared_ptr<mock_core> make_core(mock_options const& o) {
    auto const now = now_ms();
    switch (o.kind) {
    case upstream::alpha:
        return std::make_shared<mock_core>(
            std::make_unique<market_state>(o.seed, alpha::market_specs(), now,
                                           alpha::initial_trades),
            [&](market_state& m, ws_hub& h) { return alpha::make_router(m, h, o); });
    case upstream::beta:
        return std::make_shared<mock_core>(
            std::make_unique<market_state>(o.seed, beta::market_specs(), now),
            [&](market_state& m, ws_hub& h) { return beta::make_router(m, h, o); });
    case upstream::gamma:
        return std::make_shared<mock_core>(
            std::make_unique<market_state>(o.seed, gamma::market_specs(), now),
            [&](market_state& m, ws_hub&) { return gamma::make_router(m, o); });
    }
    throw std::invalid_argument("mock_server: unknown upstream kind");
}
} // namespace

char const* to_string(upstream kind) noexcept {
    switch (kind) {
    case upstream::alpha:
        return "alpha";
    case upstream::beta:
        return "beta";
    case upstream::gamma:
        return "gamma";
    }
    return "unknown";
}

struct mock_server::impl {
    explicit impl(mock_options o)
        : opts(std::move(o))
        , ioc(static_cast<int>(opts.threads == 0 ? 1 : opts.threads))
        , work(ioc.get_executor()) {}

    ~impl() { stop(); }

    void run_threads() {
        unsigned const n = opts.threads == 0 ? 1 : opts.threads;
        running = n;
        for (unsigned i = 0; i < n; ++i) {
            threads.emplace_back([this] {
                ioc.run();
                std::lock_guard lock(run_m);
                --running;
                run_cv.notify_all();
            });
        }
    }

    void stop() {
        {
            std::lock_guard lock(stop_m);
            if (stopped)
                return;
            stopped = true;
        }
        if (core)
            core->stop_walk();
        if (server)
            server->stop();
        work.reset();
        {
            // Let in-flight answers finish, but never hang on a long latency fault.
            std::unique_lock lock(run_m);
            if (!run_cv.wait_for(lock, stop_grace, [this] { return running == 0; }))
                ioc.stop();
        }
        for (auto& t : threads)
            if (t.joinable())
                t.join();
        threads.clear();
    }

    mock_options opts;
    boost::asio::io_context ioc;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work;
    std::shared_ptr<mock_core> core;
    std::shared_ptr<net::http_server> server;
    net::tcp::endpoint local;
    std::vector<std::thread> threads;

    std::mutex stop_m;
    bool stopped = false;
    std::mutex run_m;
    std::condition_variable run_cv;
    unsigned running = 0;
};

std::unique_ptr<mock_server> mock_server::start(mock_options options) {
    auto p = std::make_unique<impl>(std::move(options));
    p->core = make_core(p->opts);
    net::server_options so;
    so.server_name = std::string("mock-") + to_string(p->opts.kind);
    so.body_limit = 1024 * 1024;
    std::shared_ptr<mock_core> core = p->core;
    p->server = std::make_shared<net::http_server>(
        p->ioc, so,
        [core](net::request& req, net::tcp::endpoint const& remote) {
            return mock_core::serve(core, req, remote);
        },
        [core](net::failure const& f, unsigned version) {
            return core->render_failure(f, version);
        });
    p->server->on_upgrade(
        [core](net::request& req, net::tcp::endpoint const& remote, net::ws_upgrade& up) {
            return mock_core::upgrade(core, req, remote, up);
        });
    p->local = p->server->listen(resolve_endpoint(p->ioc, p->opts.host, p->opts.port));
    p->server->start();
    p->core->start_walk(p->ioc.get_executor(), walk_period);
    p->run_threads();
    return std::unique_ptr<mock_server>(new mock_server(std::move(p)));
}

mock_server::mock_server(std::unique_ptr<impl> p)
    : impl_(std::move(p)) {}

mock_server::~mock_server() = default;

std::uint16_t mock_server::port() const {
    return impl_->local.port();
}

std::string mock_server::base_url() const {
    auto addr = impl_->local.address();
    if (addr.is_unspecified())
        addr = addr.is_v6() ? boost::asio::ip::address(boost::asio::ip::address_v6::loopback())
                            : boost::asio::ip::address(boost::asio::ip::address_v4::loopback());
    std::string const host = addr.is_v6() ? "[" + addr.to_string() + "]" : addr.to_string();
    return "http://" + host + ":" + std::to_string(port());
}

std::string mock_server::ws_url() const {
    return "ws" + base_url().substr(4) + "/ws";
}

upstream mock_server::kind() const {
    return impl_->opts.kind;
}

void mock_server::stop() {
    impl_->stop();
}

} // namespace gateway::mocks
