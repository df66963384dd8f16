#pragma once
// An in-process gateway for contract tests: the five mock upstreams (alpha and beta mainnet +
// testnet, gamma) on free loopback ports, gatewayd's app on a free port pointed at them, and
// an SDK client for it. Everything stops when the object goes out of scope.
#include "app.hpp"
#include "auth/accounts.hpp"
#include "config.hpp"
#include "support/test_clock.hpp"

#include <gateway/client/client.hpp>
#include <gateway/mocks/mock_server.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <unistd.h>

namespace gateway::test {

struct test_gateway {
    using tweak = std::function<void(server::server_config&)>;
    using mock_tweak = std::function<void(mocks::mock_options&)>;

    explicit test_gateway(tweak adjust = {}, mock_tweak const& adjust_mocks = {}) {
        using mocks::upstream;
        alpha = start(upstream::alpha, false, adjust_mocks);
        alpha_testnet = start(upstream::alpha, true, adjust_mocks);
        beta = start(upstream::beta, false, adjust_mocks);
        beta_testnet = start(upstream::beta, true, adjust_mocks);
        gamma = start(upstream::gamma, false, adjust_mocks);
        server::server_config cfg;
        cfg.listen = "127.0.0.1:0";
        cfg.threads = 2;
        cfg.probe_interval = std::chrono::milliseconds(60000); // tests probe on demand
        cfg.probe_timeout = std::chrono::milliseconds(1000);
        cfg.degraded_threshold = std::chrono::milliseconds(200);
        cfg.upstream_timeout = std::chrono::milliseconds(1000);
        cfg.scrypt_n = 1024; // cheap passwords: tests sign up many accounts
        static std::atomic<int> counter{0};
        data_dir = std::filesystem::temp_directory_path() /
                   ("gateway-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::remove_all(data_dir);
        std::filesystem::create_directories(data_dir);
        cfg.data_dir = data_dir.string();
        auto endpoints = [](mocks::mock_server const& live, mocks::mock_server const* test) {
            server::upstream_endpoints e;
            e.base_url = live.base_url();
            e.ws_url = live.ws_url();
            if (test) {
                e.testnet_base_url = test->base_url();
                e.testnet_ws_url = test->ws_url();
            }
            return e;
        };
        cfg.providers["alpha"] = endpoints(*alpha, alpha_testnet.get());
        cfg.providers["beta"] = endpoints(*beta, beta_testnet.get());
        cfg.providers["gamma"] = endpoints(*gamma, nullptr);
        cfg.providers["gamma"].clob_base_url = gamma->base_url() + "/clob";
        if (adjust)
            adjust(cfg);
        config = cfg;
        boot();
    }

    /// Stops gatewayd and starts it again on the same data directory (keys, nonce journal),
    /// like an operator restart; `base_url` and `sdk` follow the new port.
    void restart() {
        app->stop();
        app->wait();
        app.reset();
        boot();
    }

    ~test_gateway() {
        app->stop();
        app->wait();
        app.reset();
        std::error_code ec;
        std::filesystem::remove_all(data_dir, ec);
    }

    /// A new account (once) and a new key of `env` for it.
    std::string create_key(server::auth::key_env env = server::auth::key_env::live,
                           std::optional<double> rate = std::nullopt,
                           std::optional<std::chrono::seconds> expires_in = std::nullopt) {
        auto& accounts = app->accounts();
        if (!account_id) {
            auto acct = accounts.sign_up("owner@example.com", "correct horse battery");
            account_id = acct.value().id;
        }
        server::auth::new_key_params p;
        p.name = "test";
        p.env = env;
        p.rate_per_second = rate;
        p.expires_in = expires_in;
        return accounts.create_key(*account_id, p).value().key;
    }

    /// An SDK client using `key` (testnet routes when `testnet`).
    client client_with(std::string const& key, bool testnet = false) const {
        client_options opt;
        opt.base_url = base_url;
        opt.api_key = key;
        opt.testnet = testnet;
        return client::create(opt).value();
    }

    std::filesystem::path data_dir;
    server::server_config config;
    std::optional<std::int64_t> account_id;
    /// gatewayd's clock: tests move it (`clock->advance`) instead of waiting.
    std::shared_ptr<test_clock> clock = std::make_shared<test_clock>();

    std::unique_ptr<mocks::mock_server> alpha, alpha_testnet, beta, beta_testnet, gamma;
    std::unique_ptr<server::gateway_app> app;
    std::string base_url;
    /// gatewayd's port (for raw sockets); follows a restart.
    std::uint16_t port = 0;
    std::unique_ptr<client> sdk;

private:
    void boot() {
        app = std::make_unique<server::gateway_app>(config, clock);
        auto const ep = app->start();
        port = ep.port();
        base_url = "http://127.0.0.1:" + std::to_string(port);
        client_options opt;
        opt.base_url = base_url;
        sdk = std::make_unique<client>(client::create(opt).value());
    }

    static std::unique_ptr<mocks::mock_server> start(mocks::upstream kind, bool testnet,
                                                     mock_tweak const& adjust) {
        mocks::mock_options opt;
        opt.kind = kind;
        opt.testnet = testnet;
        if (adjust)
            adjust(opt);
        return mocks::mock_server::start(opt);
    }
};

} // namespace gateway::test
