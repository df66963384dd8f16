#include "app.hpp"

#include "auth/api_key_gate.hpp"
#include "health.hpp"
#include "health_transport.hpp"
#include "http/session.hpp"
#include "log.hpp"
#include "providers/alpha/alpha_provider.hpp"
#include "providers/beta/beta_provider.hpp"
#include "providers/gamma/gamma_provider.hpp"
#include "providers/provider.hpp"
#include "rate_limit.hpp"
#include "routes/routes.hpp"
#include "streams/hub.hpp"
#include "streams/ws_endpoint.hpp"
#include "trading/nonce_guard.hpp"
#include "trading/signed_write.hpp"

#include <gateway/net/http_client.hpp>
#include <gateway/net/http_server.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>

namespace gateway::server {

namespace asio = boost::asio;

std::vector<provider_setting> const& provider_settings() {
    static std::vector<provider_setting> const all = [] {
        std::vector<provider_setting> out;
        for (auto const& module : {alpha::settings(), beta::settings(), gamma::settings()})
            out.insert(out.end(), module.begin(), module.end());
        return out;
    }();
    return all;
}

namespace {

net::tcp::endpoint parse_listen(std::string const& listen) {
    auto const colon = listen.rfind(':');
    std::string host = listen.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host == "localhost")
        host = "127.0.0.1";
    boost::system::error_code ec;
    auto const addr = asio::ip::make_address(host, ec);
    int const port = std::atoi(listen.substr(colon + 1).c_str());
    if (ec || port < 0 || port > 65535)
        throw std::runtime_error("cannot listen on '" + listen + "': expected IP:PORT");
    return {addr, static_cast<unsigned short>(port)};
}

} // namespace

struct gateway_app::impl {
    impl(server_config c, std::shared_ptr<util::clock const> t)
        : cfg(std::move(c))
        , time(t ? std::move(t) : std::make_shared<util::real_clock const>())
        , ioc(static_cast<int>(cfg.threads))
        , upstream(ioc.get_executor())
        , transport(upstream) {}

    server_config cfg;
    std::shared_ptr<util::clock const> time;
    asio::io_context ioc;
    net::http_client upstream;
    http_probe_transport transport;
    std::unique_ptr<auth::account_service> accounts;
    memory_rate_limiter limiter;
    registry providers;
    std::shared_ptr<health_monitor> health;
    std::unique_ptr<nonce_guard> nonces;
    std::unique_ptr<signed_write_pipeline> trading;
    // Route handlers hold references to these: they live as long as the routes.
    std::unique_ptr<services> svc;
    std::unique_ptr<trading_env> trading_routes;
    router routes;
    std::unique_ptr<api_key_gate> gate;
    // WebSocket: the hub outlives the connections that joined it (destroyed after the server).
    std::unique_ptr<stream_hub> hub;
    std::unique_ptr<ws_endpoint> ws;
    std::unique_ptr<session_layer> session;
    std::shared_ptr<net::http_server> server;
    std::vector<std::thread> threads;
    std::atomic<bool> stopped{false};
};

gateway_app::gateway_app(server_config cfg, std::shared_ptr<util::clock const> clock)
    : impl_(std::make_unique<impl>(std::move(cfg), std::move(clock))) {
    auto& i = *impl_;
    util::clock const& time = *i.time;

    auth::account_options ao;
    ao.scrypt_n = i.cfg.scrypt_n;
    ao.session_lifetime = i.cfg.session_lifetime;
    ao.signup_per_address = {i.cfg.signup_per_address_per_hour, i.cfg.signup_per_address_burst};
    ao.signup_global = {i.cfg.signup_global_per_hour, i.cfg.signup_global_burst};
    ao.db_busy_timeout = i.cfg.db_busy_timeout;
    ao.max_usable_keys = i.cfg.max_keys_per_account;
    ao.now_ms = [&time] {
        return time.now_ms();
    };
    i.accounts = auth::open_account_service(i.cfg.data_dir, ao);

    // The providers: one registration line each (providers/<alias>/).
    provider_deps const deps{i.ioc.get_executor(), i.upstream, time, i.cfg};
    i.providers.add(alpha::make_provider(deps));
    i.providers.add(beta::make_provider(deps));
    i.providers.add(gamma::make_provider(deps));

    health_options ho;
    ho.interval = i.cfg.probe_interval;
    ho.timeout = i.cfg.probe_timeout;
    ho.degraded_threshold = i.cfg.degraded_threshold;
    std::vector<probe_target> targets;
    for (auto const& p : i.providers.all())
        targets.push_back(p->probe);
    i.health = std::make_shared<health_monitor>(i.ioc, i.transport, time, std::move(targets), ho);

    i.nonces = nonce_guard::open(std::filesystem::path(i.cfg.data_dir) / "nonces.journal");
    i.trading = std::make_unique<signed_write_pipeline>(*i.nonces);
    i.svc = std::make_unique<services>(services{i.cfg, *i.health, *i.accounts, i.providers});
    i.trading_routes = std::make_unique<trading_env>(trading_env{i.providers, *i.trading});
    add_public_routes(i.routes, *i.svc);
    add_market_routes(i.routes, i.providers);
    add_account_read_routes(i.routes, i.providers);
    add_rwas_routes(i.routes, i.providers);
    add_prediction_routes(i.routes, i.providers);
    add_prediction_trading_routes(i.routes, i.providers);
    add_trading_routes(i.routes, *i.trading_routes);
    add_account_routes(i.routes, *i.svc);

    i.gate = std::make_unique<api_key_gate>(
        *i.accounts, i.limiter, time, gate_options{i.cfg.key_rate_per_second, i.cfg.key_burst});
    i.session = std::make_unique<session_layer>(i.routes, *i.gate, time);
    net::server_options so;
    so.body_limit = i.cfg.body_limit;
    so.max_connections = i.cfg.max_connections;
    so.read_timeout = i.cfg.read_timeout;
    so.server_name = "gatewayd";
    i.server = std::make_shared<net::http_server>(
        i.ioc, so,
        [&i](net::request& req, net::tcp::endpoint const& remote) {
            return i.session->handle(req, remote);
        },
        &session_layer::render_failure,
        [&i](net::request_header const& h, net::tcp::endpoint const& remote) {
            return i.session->inspect(h, remote);
        });
    i.hub = std::make_unique<stream_hub>(i.ioc.get_executor(), i.cfg.ws_book_interval, time);
    ws_endpoint_options wo;
    wo.session.max_queued = i.cfg.ws_max_queued;
    wo.session.peer_timeout = i.cfg.ws_peer_timeout;
    wo.max_user_streams = i.cfg.ws_max_user_streams;
    i.ws = std::make_unique<ws_endpoint>(i.providers, *i.gate, *i.hub, time, wo);
    i.server->on_upgrade([&i](net::request& req, net::tcp::endpoint const& remote,
                              net::ws_upgrade& up) { return i.ws->upgrade(req, remote, up); });
}

gateway_app::~gateway_app() {
    stop();
    wait();
}

server_config const& gateway_app::config() const {
    return impl_->cfg;
}

auth::account_service& gateway_app::accounts() {
    return *impl_->accounts;
}

net::tcp::endpoint gateway_app::start() {
    auto& i = *impl_;
    auto const ep = i.server->listen(parse_listen(i.cfg.listen));
    i.server->start();
    i.health->start();
    for (auto const& p : i.providers.all())
        if (p->start)
            p->start();
    for (unsigned n = 0; n < i.cfg.threads; ++n)
        i.threads.emplace_back([&i] { i.ioc.run(); });
    log::info("msg=\"listening\" address=" + ep.address().to_string() + ":" +
              std::to_string(ep.port()));
    return ep;
}

void gateway_app::stop() {
    auto& i = *impl_;
    if (i.stopped.exchange(true))
        return;
    i.server->stop();
    i.hub->stop();
    i.health->stop();
    for (auto const& p : i.providers.all())
        if (p->stop)
            p->stop();
    i.upstream.clear_pool();
    i.accounts->flush_last_used();
}

void gateway_app::wait() {
    for (auto& t : impl_->threads)
        if (t.joinable())
            t.join();
    impl_->threads.clear();
}

} // namespace gateway::server
