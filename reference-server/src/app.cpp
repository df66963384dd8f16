#include "app.hpp"

#include "health.hpp"
#include "log.hpp"
#include "providers.hpp"
#include "services.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>

namespace gateway::server {

namespace asio = boost::asio;
namespace http = boost::beast::http;

std::string const& request_context::param(std::string_view name) const {
    for (auto const& [k, v] : params)
        if (k == name)
            return v;
    static std::string const empty;
    return empty;
}

std::optional<std::string_view> request_context::query_param(std::string_view name) const {
    for (auto const& [k, v] : query)
        if (k == name)
            return std::string_view(v);
    return std::nullopt;
}

namespace {

/// A client's X-Request-Id is echoed when it is short and printable; else we make one.
std::string request_id_for(net::request const& req) {
    auto const it = req.find("X-Request-Id");
    if (it != req.end()) {
        auto const v = it->value();
        bool ok = !v.empty() && v.size() <= 128;
        for (char c : v)
            ok = ok && c > 0x20 && c < 0x7f;
        if (ok)
            return std::string(v);
    }
    thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char hex[] = "0123456789abcdef";
    std::string id(32, '0');
    for (int half = 0; half < 2; ++half) {
        auto bits = rng();
        for (int i = 0; i < 16; ++i, bits >>= 4)
            id[static_cast<std::size_t>(half * 16 + i)] = hex[bits & 0xf];
    }
    return id;
}

net::response json_response(unsigned status, boost::json::value const& body, unsigned version) {
    net::response res{static_cast<http::status>(status), version};
    res.set(http::field::content_type, "application/json");
    res.set(http::field::cache_control, "no-store");
    res.body() = boost::json::serialize(body);
    return res;
}

net::response error_response(api_error const& e, unsigned version) {
    auto res = json_response(e.status, to_json(e), version);
    if (e.retry_after)
        res.set(http::field::retry_after, std::to_string(*e.retry_after));
    return res;
}

/// The server's own failures in the contract's error shape (CONTRACT §2).
net::response render_failure(net::failure const& f, unsigned version) {
    api_error e = f.kind == net::failure_kind::bad_request
                      ? make_error(errc::validation_error, f.message)
                  : f.kind == net::failure_kind::payload_too_large
                      ? make_error(errc::payload_too_large, f.message)
                      : make_error(errc::internal_error, "Internal error.");
    auto res = error_response(e, version);
    thread_local std::mt19937_64 rng{std::random_device{}()};
    res.set("X-Request-Id", std::to_string(rng()));
    return res;
}

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
    explicit impl(server_config c)
        : cfg(std::move(c))
        , ioc(static_cast<int>(cfg.threads))
        , upstream(ioc.get_executor())
        , transport(upstream) {}

    asio::awaitable<std::optional<net::response>> handle(net::request& req,
                                                         net::tcp::endpoint const& remote) {
        auto const started = std::chrono::steady_clock::now();
        std::string request_id = request_id_for(req);
        std::string_view const target = req.target();
        auto const qmark = target.find('?');
        std::string_view const path = target.substr(0, qmark);
        std::string_view const query =
            qmark == std::string_view::npos ? std::string_view{} : target.substr(qmark + 1);

        result<reply> outcome = make_error(errc::internal_error, "Internal error.");
        auto const match = routes.find(req.method(), path);
        if (!match.target) {
            if (match.path_exists()) {
                api_error e = make_error(errc::method_not_allowed,
                                         "Method " + std::string(req.method_string()) +
                                             " is not allowed here; allowed: " + match.allow + ".");
                outcome = e;
            } else {
                outcome =
                    make_error(errc::not_found, "No route for " + std::string(req.method_string()) +
                                                    " " + std::string(path) + ".");
            }
        } else {
            request_context ctx{req, match.params, parse_query(query), remote, request_id};
            try {
                outcome = co_await (*match.target)(ctx);
            } catch (std::exception const& ex) {
                log::error("msg=\"handler threw\" request_id=" + request_id + " what=\"" +
                           ex.what() + "\"");
                outcome = make_error(errc::internal_error, "Internal error.");
            }
        }
        net::response res = outcome ? json_response(outcome->status, outcome->body, req.version())
                                    : error_response(outcome.error(), req.version());
        if (outcome) {
            for (auto const& [k, v] : outcome->headers)
                res.set(k, v);
        } else if (outcome.error().code == errc::method_not_allowed) {
            res.set(http::field::allow, match.allow);
        }
        res.set("X-Request-Id", request_id);
        auto const ms = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count();
        if (log::threshold() <= log::level::info)
            log::info("request_id=" + request_id + " method=" + std::string(req.method_string()) +
                      " path=" + std::string(path) + " status=" + std::to_string(res.result_int()) +
                      " us=" + std::to_string(ms));
        co_return res;
    }

    server_config cfg;
    asio::io_context ioc;
    net::http_client upstream;
    http_probe_transport transport;
    system_probe_clock clock;
    std::shared_ptr<health_monitor> health;
    router routes;
    std::shared_ptr<net::http_server> server;
    std::vector<std::thread> threads;
    std::atomic<bool> stopped{false};
};

gateway_app::gateway_app(server_config cfg)
    : impl_(std::make_unique<impl>(std::move(cfg))) {
    auto& i = *impl_;
    health_options ho;
    ho.interval = i.cfg.probe_interval;
    ho.timeout = i.cfg.probe_timeout;
    ho.degraded_threshold = i.cfg.degraded_threshold;
    i.health = std::make_shared<health_monitor>(i.ioc, i.transport, i.clock,
                                                make_probe_targets(i.cfg), ho);
    services s{i.cfg, *i.health, i.upstream};
    add_public_routes(i.routes, s);

    net::server_options so;
    so.body_limit = i.cfg.body_limit;
    so.read_timeout = i.cfg.read_timeout;
    so.server_name = "gatewayd";
    i.server = std::make_shared<net::http_server>(
        i.ioc, so,
        [&i](net::request& req, net::tcp::endpoint const& remote) { return i.handle(req, remote); },
        render_failure);
}

gateway_app::~gateway_app() {
    stop();
    wait();
}

server_config const& gateway_app::config() const {
    return impl_->cfg;
}

net::tcp::endpoint gateway_app::start() {
    auto& i = *impl_;
    auto const ep = i.server->listen(parse_listen(i.cfg.listen));
    i.server->start();
    i.health->start();
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
    i.health->stop();
    i.upstream.clear_pool();
}

void gateway_app::wait() {
    for (auto& t : impl_->threads)
        if (t.joinable())
            t.join();
    impl_->threads.clear();
}

} // namespace gateway::server
