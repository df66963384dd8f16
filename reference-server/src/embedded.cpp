#include "embedded.hpp"

#include <gateway/mocks/mock_server.hpp>

#include <vector>

namespace gateway::server {

namespace {
class embedded_impl final : public embedded_upstreams {
public:
    void stop() override {
        for (auto& m : mocks_)
            m->stop();
    }
    ~embedded_impl() override { stop(); }

    mocks::mock_server& add(mocks::upstream kind, bool testnet, std::uint64_t seed) {
        mocks::mock_options opt;
        opt.kind = kind;
        opt.testnet = testnet;
        opt.seed = seed;
        mocks_.push_back(mocks::mock_server::start(opt));
        return *mocks_.back();
    }

private:
    std::vector<std::unique_ptr<mocks::mock_server>> mocks_;
};
} // namespace

std::unique_ptr<embedded_upstreams> embedded_upstreams::start(server_config& cfg) {
    auto e = std::make_unique<embedded_impl>();
    for (auto kind : {mocks::upstream::alpha, mocks::upstream::beta}) {
        auto& main = e->add(kind, false, 42);
        auto& test = e->add(kind, true, 4242);
        auto& p = cfg.providers[kind == mocks::upstream::alpha ? "alpha" : "beta"];
        p.base_url = main.base_url();
        p.ws_url = main.ws_url();
        p.testnet_base_url = test.base_url();
        p.testnet_ws_url = test.ws_url();
    }
    auto& gamma = e->add(mocks::upstream::gamma, false, 42);
    auto& g = cfg.providers["gamma"];
    g.base_url = gamma.base_url();
    g.clob_base_url = gamma.base_url() + "/clob";
    g.ws_url = gamma.ws_url();
    return e;
}

} // namespace gateway::server
