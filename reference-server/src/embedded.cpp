#include "embedded.hpp"

#include "providers/beta/beta_provider.hpp"
#include "providers/beta/read_signer.hpp"

#include <gateway/mocks/mock_server.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <optional>
#include <string>
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

    mocks::mock_server& add(mocks::upstream kind, bool testnet, std::uint64_t seed,
                            std::optional<std::string> approved_signer = std::nullopt) {
        mocks::mock_options opt;
        opt.kind = kind;
        opt.testnet = testnet;
        opt.seed = seed;
        opt.approve_signer_for_all = std::move(approved_signer);
        mocks_.push_back(mocks::mock_server::start(opt));
        return *mocks_.back();
    }

private:
    std::vector<std::unique_ptr<mocks::mock_server>> mocks_;
};
} // namespace

std::unique_ptr<embedded_upstreams> embedded_upstreams::start(server_config& cfg) {
    auto e = std::make_unique<embedded_impl>();
    // CONTRACT §10: mock-beta takes every account to have approved the gateway's beta read signer
    // (the key beta's provider loads from the same place), so account reads work out of the box.
    auto const read_signer =
        sign::address_of(beta::load_read_signer(cfg.data_dir, beta::read_signer_key_file(cfg)))
            .str();
    for (auto kind : {mocks::upstream::alpha, mocks::upstream::beta}) {
        std::optional<std::string> approved;
        if (kind == mocks::upstream::beta)
            approved = read_signer;
        auto& main = e->add(kind, false, 42, approved);
        auto& test = e->add(kind, true, 4242, approved);
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
