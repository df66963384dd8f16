// Provider beta's factory: its catalog row (spec 2.1/2.2), its health probe and, for now, one
// read: perps prices over its futures channel. The rest of beta's reads and its trading come
// with their own issues; until then the registry answers 404 NOT_FOUND for them.
#include "providers/beta/beta_provider.hpp"

#include "config.hpp"
#include "upstream/channel.hpp"

#include <gateway/providers/beta/weights.hpp>
#include <gateway/types/decimal.hpp>

#include <stdexcept>

namespace gateway::server::beta {

namespace {

provider_info catalog_row() {
    return {"beta",
            "Beta",
            "Perpetual futures (including stock and commodity perps) and spot quoted in a stable "
            "asset, with EIP-712 signed requests in the provider's own domain.",
            {vertical::perps, vertical::spot, vertical::rwas},
            true,
            auth_model::eip712,
            {order_type::market, order_type::limit, order_type::stop_market, order_type::stop_limit,
             order_type::trailing_stop},
            wire::beta::futures_budget,
            wire::beta::window_seconds,
            "https://github.com/asterdex/api-docs"};
}

/// `ticker/price` (all symbols) -> prices keyed by base asset (BTCUSDT -> BTC).
result<price_map> to_prices(boost::json::value const& body) {
    auto const* arr = body.if_array();
    if (!arr)
        return make_error(errc::upstream_error, "The beta upstream answered an unexpected shape.");
    price_map out;
    for (auto const& item : *arr) {
        auto const* o = item.if_object();
        auto const* sym = o ? o->if_contains("symbol") : nullptr;
        auto const* px = o ? o->if_contains("price") : nullptr;
        if (!sym || !sym->is_string() || !px)
            return make_error(errc::upstream_error,
                              "The beta upstream answered an unexpected ticker.");
        std::string_view s = sym->get_string();
        if (s.size() <= 4 || s.substr(s.size() - 4) != "USDT")
            continue; // not quoted in the stable asset: no normalized symbol
        auto d = decimal::from_json_lenient(*px);
        if (!d)
            return make_error(errc::upstream_error, "The beta upstream answered an unparseable "
                                                    "price for " +
                                                        std::string(s) + ".");
        out.emplace(std::string(s.substr(0, s.size() - 4)), std::move(*d));
    }
    return out;
}

/// beta's perps reads: prices only so far.
class perps final : public perps_reads {
public:
    perps(std::shared_ptr<upstream_channel> futures, std::chrono::milliseconds ttl)
        : futures_(std::move(futures))
        , ttl_(ttl) {}

    async_result<price_map> prices(call_context const&, prices_params const&) override {
        upstream_call call;
        call.target = "/fapi/v3/ticker/price";
        call.weight = wire::beta::weight(call.target, false, 0);
        auto const answer = co_await futures_->read(std::move(call), ttl_);
        if (!*answer)
            co_return answer->error();
        co_return to_prices(**answer);
    }
    async_result<std::vector<market_info>> markets(call_context const&) override {
        co_return not_yet();
    }
    async_result<std::vector<trade>> trades(call_context const&, std::string const&,
                                            trades_params const&) override {
        co_return not_yet();
    }
    async_result<std::vector<candle>> candles(call_context const&, std::string const&,
                                              candles_params const&) override {
        co_return not_yet();
    }
    async_result<orderbook> book(call_context const&, std::string const&,
                                 orderbook_params const&) override {
        co_return not_yet();
    }
    async_result<account_summary> account(call_context const&, address const&) override {
        co_return not_yet();
    }
    async_result<std::vector<position>> positions(call_context const&, address const&) override {
        co_return not_yet();
    }
    async_result<std::vector<open_order>> open_orders(call_context const&,
                                                      address const&) override {
        co_return not_yet();
    }
    async_result<std::vector<fill>> fills(call_context const&, address const&,
                                          fills_params const&) override {
        co_return not_yet();
    }

private:
    static api_error not_yet() { return endpoint_not_available("beta"); }

    std::shared_ptr<upstream_channel> futures_;
    std::chrono::milliseconds ttl_;
};

/// The futures channel of one network (an unset URL, as in a test configuration without
/// upstreams, fails every call as unreachable: 503).
std::shared_ptr<upstream_channel> futures_channel(provider_deps const& deps, bool testnet) {
    auto const& cfg = deps.config;
    auto const& up = cfg.providers.at("beta");
    std::string const& url = testnet ? up.testnet_base_url : up.base_url;
    channel_options o;
    o.name = testnet ? "beta testnet" : "beta";
    o.base = net::url::parse(url).value_or(net::url{"http", "127.0.0.1", "9", ""});
    o.timeout = cfg.upstream_timeout;
    o.budget = cfg.beta_budget;
    o.window = std::chrono::seconds(wire::beta::window_seconds);
    o.used_weight_header = wire::beta::used_weight_header;
    return std::make_shared<upstream_channel>(deps.executor, deps.http, deps.clock, std::move(o));
}

} // namespace

std::shared_ptr<provider_module> make_provider(provider_deps const& deps) {
    auto p = std::make_shared<provider_module>();
    p->info = catalog_row();
    p->endpoints = deps.config.providers.at("beta");
    auto live = futures_channel(deps, false);
    auto testnet = futures_channel(deps, true);
    p->live.perps = std::make_shared<perps>(live, deps.config.market_cache_ttl);
    p->testnet.perps = std::make_shared<perps>(testnet, deps.config.market_cache_ttl);
    auto base = net::url::parse(p->endpoints.base_url);
    if (!base)
        throw std::runtime_error("upstream address of beta is not a URL: " + p->endpoints.base_url);
    p->probe = {"beta",
                *base,
                boost::beast::http::verb::get,
                "/fapi/v3/ping",
                "",
                "GET /fapi/v3/ping (futures REST connectivity, weight 1)",
                [channel = live] {
                    channel->charge(1);
                }};
    return p;
}

} // namespace gateway::server::beta
