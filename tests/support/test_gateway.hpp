#pragma once
// An in-process gateway for contract tests: the five mock upstreams (alpha and beta mainnet +
// testnet, gamma) on free loopback ports, gatewayd's app on a free port pointed at them, and
// an SDK client for it. Everything stops when the object goes out of scope.
#include "app.hpp"
#include "config.hpp"

#include <gateway/client/client.hpp>
#include <gateway/mocks/mock_server.hpp>

#include <functional>
#include <memory>
#include <string>

namespace gateway::test {

struct test_gateway {
    using tweak = std::function<void(server::server_config&)>;

    explicit test_gateway(tweak adjust = {}) {
        using mocks::upstream;
        alpha = start(upstream::alpha, false);
        alpha_testnet = start(upstream::alpha, true);
        beta = start(upstream::beta, false);
        beta_testnet = start(upstream::beta, true);
        gamma = start(upstream::gamma, false);
        server::server_config cfg;
        cfg.listen = "127.0.0.1:0";
        cfg.threads = 2;
        cfg.probe_interval = std::chrono::milliseconds(60000); // tests probe on demand
        cfg.probe_timeout = std::chrono::milliseconds(1000);
        cfg.degraded_threshold = std::chrono::milliseconds(200);
        cfg.upstream_timeout = std::chrono::milliseconds(1000);
        cfg.providers["alpha"] = {alpha->base_url(), alpha->ws_url(), alpha_testnet->base_url(),
                                  alpha_testnet->ws_url(), ""};
        cfg.providers["beta"] = {beta->base_url(), beta->ws_url(), beta_testnet->base_url(),
                                 beta_testnet->ws_url(), ""};
        cfg.providers["gamma"] = {gamma->base_url(), gamma->ws_url(), "", "",
                                  gamma->base_url() + "/clob"};
        if (adjust)
            adjust(cfg);
        app = std::make_unique<server::gateway_app>(cfg);
        auto const ep = app->start();
        base_url = "http://127.0.0.1:" + std::to_string(ep.port());
        client_options opt;
        opt.base_url = base_url;
        sdk = std::make_unique<client>(client::create(opt).value());
    }

    ~test_gateway() {
        app->stop();
        app->wait();
    }

    std::unique_ptr<mocks::mock_server> alpha, alpha_testnet, beta, beta_testnet, gamma;
    std::unique_ptr<server::gateway_app> app;
    std::string base_url;
    std::unique_ptr<client> sdk;

private:
    static std::unique_ptr<mocks::mock_server> start(mocks::upstream kind, bool testnet) {
        mocks::mock_options opt;
        opt.kind = kind;
        opt.testnet = testnet;
        return mocks::mock_server::start(opt);
    }
};

} // namespace gateway::test
