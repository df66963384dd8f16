// Provider alpha's reads (spec 4.2 reads, 4.4 balances, 4.5; CONTRACT §4) behind the seam's
// read interfaces: the symbol or dex against the learned universe (MARKET_NOT_FOUND,
// DEX_NOT_FOUND), then `/info` reads through the channel: market data cached and coalesced,
// account data coalesced per address only (the address is in the request, so never shared
// across addresses). The pure halves are wire::alpha::info (to upstream) and alpha_map (from
// upstream).
#include "providers/alpha/alpha_network.hpp"

#include <gateway/providers/alpha/info.hpp>

#include <algorithm>
#include <chrono>

namespace gateway::server::alpha {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace info = wire::alpha::info;
using namespace std::chrono_literals;
using json_ptr = network::json_ptr;
using universe_ptr = network::universe_ptr;

/// Waits for a read and hands back its JSON (or its error); `keep` holds it alive.
asio::awaitable<result<json::value const*>> await_json(std::shared_ptr<network::flight> const& f,
                                                       json_ptr& keep) {
    keep = co_await f->wait();
    if (!*keep)
        co_return keep->error();
    co_return &**keep;
}

/// A perps symbol (`BTC`, `xyz:TSLA`) of the universe. @par Errors MARKET_NOT_FOUND.
result<perp_market const*> perp_of(universe const& u, std::string const& symbol) {
    if (auto const* m = u.find_perp(symbol))
        return m;
    return make_error(errc::market_not_found, "Unknown perps market '" + symbol + "' on alpha.");
}

/// The dex a rwas read names. @par Errors DEX_NOT_FOUND.
result<perp_dex const*> dex_of(universe const& u, std::string const& name) {
    if (auto const* d = u.find_dex(name))
        return d;
    return make_error(errc::dex_not_found, "Unknown dex '" + name + "' on alpha.");
}

/// A market as the markets listing shows it: alpha's rules are the asset id and szDecimals.
market_info listed(std::string const& symbol, std::uint32_t asset, unsigned sz_decimals,
                   unsigned max_leverage) {
    market_info out;
    out.symbol = symbol;
    out.asset = asset;
    out.sz_decimals = sz_decimals;
    out.max_leverage = max_leverage;
    return out;
}

/// Every perp dex: "" (main) then the builder dexes.
std::vector<std::string> perp_dex_names(universe const& u) {
    std::vector<std::string> out{""};
    for (auto const& d : u.dexes)
        out.push_back(d.name);
    return out;
}

/// An account read over every perp dex: the universe and one answer per dex.
struct per_dex_answers {
    universe_ptr markets;
    std::vector<json_ptr> answers;
};

/// One per-dex account read (clearinghouseState, frontendOpenOrders) for every perp dex, in
/// parallel.
asio::awaitable<result<per_dex_answers>>
per_dex_read(network& n, call_context const& ctx, address const& user,
             json::object (*body_of)(std::string_view user, std::string_view dex)) {
    auto markets = co_await n.markets();
    if (!markets)
        co_return markets.error();
    std::vector<std::shared_ptr<network::flight>> flights;
    for (auto const& dex : perp_dex_names(**markets))
        flights.push_back(n.start_info(body_of(user.str(), dex), 0ms, ctx.account));
    per_dex_answers out{std::move(*markets), {}};
    for (auto const& f : flights) {
        auto v = co_await f->wait();
        if (!*v)
            co_return v->error();
        out.answers.push_back(std::move(v));
    }
    co_return out;
}

/// The market of a market-data read, after the parameters were checked by the route.
asio::awaitable<result<perp_market>> market_of(network& n, std::string const& symbol) {
    auto markets = co_await n.markets();
    if (!markets)
        co_return markets.error();
    auto m = perp_of(**markets, symbol);
    if (!m)
        co_return m.error();
    co_return **m;
}

class perps final : public perps_reads {
public:
    explicit perps(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<price_map> prices(call_context const& ctx, prices_params const& p) override {
        auto body = info::all_mids();
        if (p.dex && !p.dex->empty()) {
            auto markets = co_await n_->markets();
            if (!markets)
                co_return markets.error();
            auto d = dex_of(**markets, *p.dex);
            if (!d)
                co_return d.error();
            body = info::all_mids((*d)->name);
        }
        auto const answer = co_await n_->market_info(body, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_prices(**answer);
    }

    async_result<std::vector<market_info>> markets(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        std::vector<market_info> out;
        for (auto const& m : (*markets)->perps)
            if (!m.delisted)
                out.push_back(listed(m.symbol, m.asset, m.sz_decimals, m.max_leverage));
        co_return out;
    }

    async_result<std::vector<trade>> trades(call_context const& ctx, std::string const& symbol,
                                            trades_params const& p) override {
        auto m = co_await market_of(*n_, symbol);
        if (!m)
            co_return m.error();
        auto const body = info::recent_trades(m->symbol); // named: GCC 12 and co_await
        auto const answer = co_await n_->market_info(body, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_trades(
            **answer, static_cast<std::size_t>(p.limit.value_or(trades_params::default_limit)));
    }

    async_result<std::vector<candle>> candles(call_context const& ctx, std::string const& symbol,
                                              candles_params const& p) override {
        auto m = co_await market_of(*n_, symbol);
        if (!m)
            co_return m.error();
        // Defaults are resolved against the current second, so identical default reads within
        // the cache lifetime share one upstream call.
        auto range = p.resolve(ctx.now_ms / 1000 * 1000);
        if (!range)
            co_return range.error();
        auto const body = info::candle_snapshot(m->symbol, upstream_interval(*p.interval),
                                                range->start_time, range->end_time);
        auto const answer = co_await n_->market_info(body, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_candles(**answer);
    }

    async_result<orderbook> book(call_context const& ctx, std::string const& symbol,
                                 orderbook_params const& p) override {
        auto m = co_await market_of(*n_, symbol);
        if (!m)
            co_return m.error();
        auto const body = info::l2_book(m->symbol);
        auto const answer = co_await n_->market_info(body, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_orderbook(**answer, m->symbol, static_cast<std::size_t>(*p.depth));
    }

    async_result<account_summary> account(call_context const& ctx, address const& user) override {
        auto read = co_await per_dex_read(*n_, ctx, user, &info::clearinghouse_state);
        if (!read)
            co_return read.error();
        std::vector<json::value> bodies;
        for (auto const& st : read->answers)
            bodies.push_back(**st);
        co_return to_account_summary(bodies);
    }

    async_result<std::vector<position>> positions(call_context const& ctx,
                                                  address const& user) override {
        auto read = co_await per_dex_read(*n_, ctx, user, &info::clearinghouse_state);
        if (!read)
            co_return read.error();
        std::vector<position> all;
        for (auto const& st : read->answers) {
            auto some = to_positions(**st, *read->markets);
            if (!some)
                co_return some.error();
            all.insert(all.end(), some->begin(), some->end());
        }
        co_return all;
    }

    async_result<std::vector<open_order>> open_orders(call_context const& ctx,
                                                      address const& user) override {
        json::object (*body_of)(std::string_view, std::string_view) = &info::frontend_open_orders;
        auto read = co_await per_dex_read(*n_, ctx, user, body_of);
        if (!read)
            co_return read.error();
        std::vector<open_order> all;
        for (auto const& l : read->answers) {
            auto some = to_open_orders(**l);
            if (!some)
                co_return some.error();
            for (auto& o : *some)
                if (read->markets->find_perp(o.symbol))
                    all.push_back(std::move(o)); // perps only: spot orders are not perps orders
        }
        std::stable_sort(all.begin(), all.end(), [](open_order const& a, open_order const& b) {
            return a.timestamp > b.timestamp;
        });
        co_return all;
    }

    async_result<std::vector<fill>> fills(call_context const& ctx, address const& user,
                                          fills_params const& p) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto const body = p.start_time
                              ? info::user_fills_by_time(user.str(), *p.start_time, p.end_time)
                              : info::user_fills(user.str());
        auto const answer = co_await n_->info(body, 0ms, ctx.account);
        if (!*answer)
            co_return answer->error();
        auto out = to_fills(**answer, **markets);
        if (!out)
            co_return out.error();
        std::erase_if(*out, [&](fill const& f) {
            return (p.start_time && f.timestamp < *p.start_time) ||
                   (p.end_time && f.timestamp > *p.end_time);
        });
        auto const limit = static_cast<std::size_t>(p.limit.value_or(fills_params::default_limit));
        if (out->size() > limit)
            out->resize(limit);
        co_return out;
    }

private:
    std::shared_ptr<network> n_;
};

class spot final : public spot_reads {
public:
    explicit spot(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<price_map> prices(call_context const& ctx) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto const body = info::all_mids();
        auto const answer = co_await n_->market_info(body, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_spot_prices(**answer, **markets);
    }

    async_result<std::vector<market_info>> markets(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        std::vector<market_info> out;
        for (auto const& m : (*markets)->spot)
            out.push_back(listed(m.symbol, m.asset, m.sz_decimals, 0));
        co_return out;
    }

    async_result<std::vector<spot_balance>> balances(call_context const& ctx,
                                                     address const& user) override {
        auto const body = info::spot_clearinghouse_state(user.str());
        auto const answer = co_await n_->info(body, 0ms, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_spot_balances(**answer);
    }

private:
    std::shared_ptr<network> n_;
};

class rwas final : public rwas_reads {
public:
    explicit rwas(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    /// Every builder dex's listed markets (CONTRACT §4 rwas markets), from each dex's
    /// metaAndAssetCtxs read in parallel.
    async_result<std::vector<dex_market>> markets(call_context const& ctx) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        std::vector<std::shared_ptr<network::flight>> flights;
        for (auto const& d : (*markets)->dexes)
            flights.push_back(n_->start_info(info::meta_and_asset_ctxs(d.name),
                                             n_->options().market_ttl, ctx.account));
        std::vector<dex_market> out;
        for (std::size_t i = 0; i < flights.size(); ++i) {
            json_ptr keep;
            auto ctxs = co_await await_json(flights[i], keep);
            if (!ctxs)
                co_return ctxs.error();
            auto detail = to_dex_detail((*markets)->dexes[i], **ctxs, **markets);
            if (!detail)
                co_return detail.error();
            out.insert(out.end(), detail->markets.begin(), detail->markets.end());
        }
        co_return out;
    }

    async_result<std::vector<gateway::dex>> dexes(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        co_return to_dexes(**markets);
    }

    async_result<dex_detail> detail(call_context const& ctx, std::string const& name) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto d = dex_of(**markets, name);
        if (!d)
            co_return d.error();
        auto const body = info::meta_and_asset_ctxs((*d)->name);
        auto const answer = co_await n_->market_info(body, ctx.account);
        if (!*answer)
            co_return answer->error();
        co_return to_dex_detail(**d, **answer, **markets);
    }

    async_result<dex_status> status(call_context const& ctx, std::string const& name) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto d = dex_of(**markets, name);
        if (!d)
            co_return d.error();
        auto const ttl = n_->options().market_ttl;
        auto status_flight = n_->start_info(info::perp_dex_status((*d)->name), ttl, ctx.account);
        auto ctx_flight = n_->start_info(info::meta_and_asset_ctxs((*d)->name), ttl, ctx.account);
        json_ptr keep_status, keep_ctx;
        auto status = co_await await_json(status_flight, keep_status);
        auto ctxs = co_await await_json(ctx_flight, keep_ctx);
        if (!status)
            co_return status.error();
        if (!ctxs)
            co_return ctxs.error();
        co_return to_dex_status(**d, **status, **ctxs, ctx.now_ms);
    }

private:
    std::shared_ptr<network> n_;
};

} // namespace

std::shared_ptr<perps_reads> make_perps_reads(std::shared_ptr<network> n) {
    return std::make_shared<perps>(std::move(n));
}

std::shared_ptr<spot_reads> make_spot_reads(std::shared_ptr<network> n) {
    return std::make_shared<spot>(std::move(n));
}

std::shared_ptr<rwas_reads> make_rwas_reads(std::shared_ptr<network> n) {
    return std::make_shared<rwas>(std::move(n));
}

} // namespace gateway::server::alpha
