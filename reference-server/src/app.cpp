#include "app.hpp"

#include "alpha/alpha_adapter.hpp"
#include "health.hpp"
#include "log.hpp"
#include "providers.hpp"
#include "rate_limit.hpp"
#include "services.hpp"
#include "trading/nonce_guard.hpp"

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
std::string request_id_for(net::request_header const& req) {
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
    for (std::size_t half = 0; half < 2; ++half) {
        auto bits = rng();
        for (std::size_t i = 0; i < 16; ++i, bits >>= 4)
            id[half * 16 + i] = hex[bits & 0xf];
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

/// Who may call a path (spec 4.1, 5.1): the four public endpoints and the account pages need
/// no API key; every other route does.
enum class access { open, api_key };

access access_for(std::string_view path) {
    auto starts = [&](std::string_view p) {
        return path.substr(0, p.size()) == p;
    };
    auto one_segment_after = [&](std::string_view p) {
        return starts(p) && path.size() > p.size() &&
               path.find('/', p.size()) == std::string_view::npos;
    };
    if (path == "/v1/health" || path == "/v1/providers" || one_segment_after("/v1/health/") ||
        one_segment_after("/v1/providers/"))
        return access::open;
    if (path == "/account" || starts("/account/") || starts("/v1/account/"))
        return access::open;
    return access::api_key;
}

void add_rate_headers(std::vector<std::pair<std::string, std::string>>& h, rate_decision const& d) {
    auto num = [](double v) {
        auto const i = static_cast<std::int64_t>(v);
        return static_cast<double>(i) == v ? std::to_string(i) : std::to_string(v);
    };
    h.emplace_back("X-RateLimit-Limit", num(d.limit));
    h.emplace_back("X-RateLimit-Remaining", std::to_string(d.remaining));
    h.emplace_back("X-RateLimit-Reset", std::to_string(d.reset_seconds));
}

bool is_json(net::request_header const& h) {
    auto const ct = h[http::field::content_type];
    auto const semi = ct.find(';');
    std::string v(ct.substr(0, semi));
    while (!v.empty() && v.back() == ' ')
        v.pop_back();
    for (auto& ch : v)
        ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    return v == "application/json";
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
            request_context ctx{req,    match.params, parse_query(query),
                                remote, request_id,   path.substr(0, 12) == "/v1/testnet/"};
            try {
                outcome = co_await (*match.target)(ctx);
            } catch (std::exception const& ex) {
                log::error("msg=\"handler threw\" request_id=" + request_id + " what=\"" +
                           ex.what() + "\"");
                outcome = make_error(errc::internal_error, "Internal error.");
            }
        }
        net::response res =
            !outcome ? error_response(outcome.error(), req.version())
            : outcome->raw_body
                ? net::response{static_cast<http::status>(outcome->status), req.version()}
                : json_response(outcome->status, outcome->body, req.version());
        if (outcome && outcome->raw_body) {
            res.set(http::field::content_type, outcome->content_type);
            res.set(http::field::cache_control, "no-store");
            res.body() = std::move(*outcome->raw_body);
        }
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

    /// Runs before the body is read (net::inspector): API key, test-key scope, rate limit,
    /// media type. CONTRACT §2, §3, §7; spec 5.1.
    net::inspection inspect(net::request_header const& h, net::tcp::endpoint const&) {
        net::inspection verdict;
        std::string_view const target = h.target();
        std::string_view const path = target.substr(0, target.find('?'));
        auto reject = [&](api_error const& e) {
            auto res = error_response(e, h.version());
            res.set("X-Request-Id", request_id_for(h));
            for (auto const& [k, v] : verdict.headers)
                res.set(k, v);
            verdict.answer = std::move(res);
            return verdict;
        };
        if (!routes.find(h.method(), path).path_exists())
            return verdict; // the handler answers 404 NOT_FOUND
        if (access_for(path) == access::api_key) {
            auto const it = h.find("X-API-Key");
            auth::key_check check;
            try {
                check = accounts->check_key(
                    it == h.end() ? std::nullopt : std::optional<std::string_view>(it->value()));
            } catch (std::exception const& ex) {
                // The store failed (disk, lock): say so in the log, never in the answer.
                log::error(std::string("msg=\"key check failed\" what=\"") + ex.what() + "\"");
                return reject(make_error(errc::internal_error, "Internal error."));
            }
            using verdict_t = auth::key_check::verdict;
            if (check.outcome == verdict_t::missing)
                return reject(make_error(errc::invalid_api_key, "Missing X-API-Key header"));
            if (check.outcome == verdict_t::expired)
                return reject(make_error(errc::invalid_api_key, "API key has expired"));
            if (check.outcome != verdict_t::ok || !check.key)
                return reject(make_error(errc::invalid_api_key, "Invalid API key"));
            auto const& key = *check.key;
            if (key.env == auth::key_env::test && path.substr(0, 12) != "/v1/testnet/")
                return reject(make_error(errc::testnet_key_only,
                                         "A test key (svc_test_) can only call /v1/testnet/ "
                                         "endpoints; use a live key here."));
            double const rate = key.rate_per_second.value_or(cfg.key_rate_per_second);
            double const burst = key.rate_per_second ? 2 * rate : cfg.key_burst;
            auto const d =
                limiter.take(std::to_string(key.id), rate, burst, std::chrono::steady_clock::now());
            add_rate_headers(verdict.headers, d);
            if (!d.allowed) {
                api_error e = make_error(errc::rate_limited,
                                         "Rate limit of " + std::to_string(static_cast<int>(rate)) +
                                             " requests per second exceeded for this API key.");
                e.retry_after = static_cast<unsigned>(d.retry_after_seconds);
                return reject(e);
            }
        }
        bool const write = h.method() == http::verb::post || h.method() == http::verb::put ||
                           h.method() == http::verb::patch ||
                           (h.method() == http::verb::delete_ &&
                            ((h.find(http::field::content_length) != h.end() &&
                              h[http::field::content_length] != "0") ||
                             h.find(http::field::transfer_encoding) != h.end()));
        if (write && path.substr(0, 4) == "/v1/" && !is_json(h))
            return reject(
                make_error(errc::unsupported_media_type, "Send the body as application/json."));
        return verdict;
    }

    server_config cfg;
    asio::io_context ioc;
    net::http_client upstream;
    http_probe_transport transport;
    system_probe_clock clock;
    std::unique_ptr<auth::account_service> accounts;
    memory_rate_limiter limiter;
    std::shared_ptr<health_monitor> health;
    std::shared_ptr<alpha::adapter> alpha_live;
    std::shared_ptr<alpha::adapter> alpha_testnet;
    std::unique_ptr<nonce_guard> nonces;
    router routes;
    std::unique_ptr<services> svc; // route handlers hold a reference: lives as long as routes
    std::shared_ptr<net::http_server> server;
    std::vector<std::thread> threads;
    std::atomic<bool> stopped{false};
};

gateway_app::gateway_app(server_config cfg, std::function<std::int64_t()> now_ms)
    : impl_(std::make_unique<impl>(std::move(cfg))) {
    auto& i = *impl_;
    health_options ho;
    ho.interval = i.cfg.probe_interval;
    ho.timeout = i.cfg.probe_timeout;
    ho.degraded_threshold = i.cfg.degraded_threshold;
    auth::account_options ao;
    ao.scrypt_n = i.cfg.scrypt_n;
    ao.session_lifetime = i.cfg.session_lifetime;
    ao.now_ms = std::move(now_ms);
    i.accounts = auth::open_account_service(i.cfg.data_dir, ao);
    auto alpha_adapter = [&i](bool testnet) {
        auto const& up = i.cfg.providers.at("alpha");
        alpha::adapter_options o;
        o.name = testnet ? "alpha testnet" : "alpha";
        // Unset (a test configuration without upstreams): calls fail as unreachable, 503.
        o.base = net::url::parse(testnet ? up.testnet_base_url : up.base_url)
                     .value_or(net::url{"http", "127.0.0.1", "9", ""});
        o.timeout = i.cfg.upstream_timeout;
        o.meta_refresh = i.cfg.meta_refresh_interval;
        o.budget = i.cfg.alpha_budget;
        o.agent_miss_ttl = i.cfg.agent_miss_ttl;
        return std::make_shared<alpha::adapter>(i.ioc.get_executor(), i.upstream, o);
    };
    i.alpha_live = alpha_adapter(false);
    i.alpha_testnet = alpha_adapter(true);
    auto targets = make_probe_targets(i.cfg);
    for (auto& t : targets)
        if (t.provider == "alpha")
            t.before_send = [a = i.alpha_live.get()] {
                a->charge(2);
            }; // exchangeStatus
    i.health =
        std::make_shared<health_monitor>(i.ioc, i.transport, i.clock, std::move(targets), ho);
    i.nonces = nonce_guard::open(std::filesystem::path(i.cfg.data_dir) / "nonces.journal");
    i.svc = std::make_unique<services>(services{i.cfg, *i.health, i.upstream, *i.accounts,
                                                *i.alpha_live, *i.alpha_testnet, *i.nonces});
    add_public_routes(i.routes, *i.svc);
    add_market_routes(i.routes, *i.svc);
    add_alpha_routes(i.routes, *i.svc);
    add_alpha_trading_routes(i.routes, *i.svc);
    add_account_routes(i.routes, *i.svc);

    net::server_options so;
    so.body_limit = i.cfg.body_limit;
    so.max_connections = i.cfg.max_connections;
    so.read_timeout = i.cfg.read_timeout;
    so.server_name = "gatewayd";
    i.server = std::make_shared<net::http_server>(
        i.ioc, so,
        [&i](net::request& req, net::tcp::endpoint const& remote) { return i.handle(req, remote); },
        render_failure,
        [&i](net::request_header const& h, net::tcp::endpoint const& remote) {
            return i.inspect(h, remote);
        });
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
    i.alpha_live->start();
    i.alpha_testnet->start();
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
    i.alpha_live->stop();
    i.alpha_testnet->stop();
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
