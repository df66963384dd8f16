// Provider beta's reads (spec 4.3, 2.5-2.11; CONTRACT §4, §6.2) behind the seam's read
// interfaces: the symbol against the learned universe (MARKET_NOT_FOUND), then Aster REST reads
// through the network's channels: market data public, cached and coalesced; account data signed
// by the gateway's read signer, coalesced per address only. The pure half is beta_map.
#include "providers/beta/beta_network.hpp"

#include <gateway/providers/beta/weights.hpp>

#include <algorithm>
#include <chrono>

namespace gateway::server::beta {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using json_ptr = network::json_ptr;
using flight_ptr = std::shared_ptr<upstream_channel::flight>;

/// The upstream's limits on one request (beta.md §4.1).
constexpr std::int64_t max_klines = 1500;
constexpr std::int64_t max_user_trades = 1000;
constexpr std::int64_t user_trades_window_ms = std::int64_t{7} * 24 * 3600 * 1000;

/// Waits for a read; `keep` holds the answer alive.
asio::awaitable<result<json::value const*>> await_json(flight_ptr const& f, json_ptr& keep) {
    keep = co_await f->wait();
    if (!*keep)
        co_return keep->error();
    co_return &**keep;
}

/// A perps market of the universe. @par Errors MARKET_NOT_FOUND.
result<perp_market const*> perp_of(universe const& u, std::string const& symbol,
                                   std::string const& name) {
    if (auto const* m = u.find_perp(symbol))
        return m;
    api_error e = make_error(errc::market_not_found,
                             "Unknown perps market '" + symbol + "' on " + name +
                                 " (perps and stock perps use the base asset: BTC, TSLA).");
    e.details["field"] = "symbol";
    return e;
}

class perps final : public perps_reads {
public:
    explicit perps(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<price_map> prices(call_context const&, prices_params const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto f = n_->start_get(false, "/fapi/v3/ticker/price", {}, n_->options().market_ttl);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        co_return to_prices(**answer, **markets, false);
    }

    async_result<std::vector<market_info>> markets(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        std::vector<market_info> out;
        for (auto const& m : (*markets)->perps) {
            market_info i;
            i.symbol = m.symbol;
            i.tick_size = m.rules.tick_size;
            i.step_size = m.rules.step_size;
            i.min_notional = m.rules.min_notional;
            i.max_leverage = m.max_leverage;
            out.push_back(std::move(i));
        }
        co_return out;
    }

    async_result<std::vector<trade>> trades(call_context const&, std::string const& symbol,
                                            trades_params const& p) override {
        auto m = co_await market(symbol);
        if (!m)
            co_return m.error();
        auto f = n_->start_get(false, "/fapi/v3/trades",
                               {{"symbol", m->upstream}, {"limit", std::to_string(*p.limit)}},
                               n_->options().market_ttl);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        co_return to_trades(**answer, static_cast<std::size_t>(*p.limit));
    }

    async_result<std::vector<candle>> candles(call_context const& ctx, std::string const& symbol,
                                              candles_params const& p) override {
        auto m = co_await market(symbol);
        if (!m)
            co_return m.error();
        // Defaults against the current second: identical default reads share the cache.
        auto range = p.resolve(ctx.now_ms / 1000 * 1000);
        if (!range)
            co_return range.error();
        // The upstream gives at most 1500 klines a call: page through the range in order.
        auto const step = interval_ms(*p.interval);
        std::vector<flight_ptr> pages;
        for (auto start = range->start_time; start <= range->end_time; start += max_klines * step) {
            auto const end = std::min(range->end_time, start + max_klines * step - 1);
            pages.push_back(
                n_->start_get(false, "/fapi/v3/klines",
                              {{"symbol", m->upstream},
                               {"interval", std::string(upstream_interval(*p.interval))},
                               {"startTime", std::to_string(start)},
                               {"endTime", std::to_string(end)},
                               {"limit", std::to_string(max_klines)}},
                              n_->options().market_ttl));
        }
        std::vector<candle> out;
        for (auto const& page : pages) {
            json_ptr keep;
            auto body = co_await await_json(page, keep);
            if (!body)
                co_return body.error();
            auto some = to_candles(**body);
            if (!some)
                co_return some.error();
            out.insert(out.end(), some->begin(), some->end());
        }
        co_return out;
    }

    async_result<orderbook> book(call_context const&, std::string const& symbol,
                                 orderbook_params const& p) override {
        auto m = co_await market(symbol);
        if (!m)
            co_return m.error();
        // CONTRACT §4: the smallest upstream limit that holds `depth`, cut to `depth`.
        auto const limit = wire::beta::depth_limit_for(*p.depth).value_or(1000);
        auto f = n_->start_get(false, "/fapi/v3/depth",
                               {{"symbol", m->upstream}, {"limit", std::to_string(limit)}},
                               n_->options().market_ttl);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        co_return to_orderbook(**answer, m->symbol, static_cast<std::size_t>(*p.depth));
    }

    async_result<account_summary> account(call_context const&, address const& user) override {
        auto account_flight = n_->start_signed_get(false, "/fapi/v3/account", {}, user);
        auto risk_flight = n_->start_signed_get(false, "/fapi/v3/positionRisk", {}, user);
        json_ptr keep_account, keep_risk;
        auto account = co_await await_json(account_flight, keep_account);
        auto risk = co_await await_json(risk_flight, keep_risk);
        if (!account)
            co_return account.error();
        if (!risk)
            co_return risk.error();
        co_return to_account_summary(**account, **risk);
    }

    async_result<std::vector<position>> positions(call_context const&,
                                                  address const& user) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto f = n_->start_signed_get(false, "/fapi/v3/positionRisk", {}, user);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        co_return to_positions(**answer, **markets);
    }

    async_result<std::vector<open_order>> open_orders(call_context const&,
                                                      address const& user) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto f = n_->start_signed_get(false, "/fapi/v3/openOrders", {}, user);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        co_return to_open_orders(**answer, **markets);
    }

    /**
     * Fills across every symbol. The upstream's userTrades needs a symbol and spans at most 7
     * days: the account's COMMISSION income (one entry per fill) names the symbols it traded in
     * the window, then each symbol's trades are read, 7 days at a time from the newest, until
     * `limit` fills are in hand or the window is done.
     */
    async_result<std::vector<fill>> fills(call_context const& ctx, address const& user,
                                          fills_params const& p) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        std::int64_t const end = p.end_time.value_or(ctx.now_ms);
        std::int64_t const start = p.start_time.value_or(end - user_trades_window_ms + 1);
        auto const limit = static_cast<std::size_t>(*p.limit);
        std::vector<fill> out;
        for (std::int64_t to = end; to >= start && out.size() < limit;
             to -= user_trades_window_ms) {
            auto const from = std::max(start, to - user_trades_window_ms + 1);
            auto income_flight = n_->start_signed_get(false, "/fapi/v3/income",
                                                      {{"incomeType", "COMMISSION"},
                                                       {"startTime", std::to_string(from)},
                                                       {"endTime", std::to_string(to)},
                                                       {"limit", "1000"}},
                                                      user);
            auto const income = co_await income_flight->wait();
            if (!*income)
                co_return income->error();
            auto symbols = traded_symbols(**income);
            if (!symbols)
                co_return symbols.error();
            std::vector<flight_ptr> reads;
            for (auto const& s : *symbols)
                reads.push_back(n_->start_signed_get(false, "/fapi/v3/userTrades",
                                                     {{"symbol", s},
                                                      {"startTime", std::to_string(from)},
                                                      {"endTime", std::to_string(to)},
                                                      {"limit", std::to_string(max_user_trades)}},
                                                     user));
            for (auto const& r : reads) {
                json_ptr keep;
                auto body = co_await await_json(r, keep);
                if (!body)
                    co_return body.error();
                auto some = to_fills(**body, **markets);
                if (!some)
                    co_return some.error();
                out.insert(out.end(), some->begin(), some->end());
            }
        }
        std::erase_if(out, [&](fill const& f) { return f.timestamp < start || f.timestamp > end; });
        std::stable_sort(out.begin(), out.end(),
                         [](fill const& a, fill const& b) { return a.timestamp > b.timestamp; });
        if (out.size() > limit)
            out.resize(limit);
        co_return out;
    }

private:
    asio::awaitable<result<perp_market>> market(std::string const& symbol) {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto m = perp_of(**markets, symbol, n_->options().name);
        if (!m)
            co_return m.error();
        co_return **m;
    }

    std::shared_ptr<network> n_;
};

class spot final : public spot_reads {
public:
    explicit spot(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<price_map> prices(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto f = n_->start_get(true, "/api/v3/ticker/price", {}, n_->options().market_ttl);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        co_return to_prices(**answer, **markets, true);
    }

    async_result<std::vector<market_info>> markets(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        std::vector<market_info> out;
        for (auto const& m : (*markets)->spot) {
            market_info i;
            i.symbol = m.symbol;
            i.tick_size = m.rules.tick_size;
            i.step_size = m.rules.step_size;
            i.min_notional = m.rules.min_notional;
            out.push_back(std::move(i));
        }
        co_return out;
    }

    async_result<std::vector<spot_balance>> balances(call_context const&,
                                                     address const& user) override {
        auto f = n_->start_signed_get(true, "/api/v3/account", {}, user);
        auto const answer = co_await f->wait();
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

    async_result<std::vector<dex_market>> markets(call_context const&) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto const ttl = n_->options().market_ttl;
        auto marks_flight = n_->start_get(false, "/fapi/v3/premiumIndex", {}, ttl);
        std::vector<std::pair<std::string, flight_ptr>> oi;
        for (auto const& m : (*markets)->perps)
            if (m.rwa)
                oi.emplace_back(m.upstream, n_->start_get(false, "/fapi/v3/openInterest",
                                                          {{"symbol", m.upstream}}, ttl));
        json_ptr keep_marks;
        auto marks = co_await await_json(marks_flight, keep_marks);
        if (!marks)
            co_return marks.error();
        std::map<std::string, decimal> open_interest;
        for (auto const& [symbol, f] : oi) {
            json_ptr keep;
            auto body = co_await await_json(f, keep);
            if (!body)
                co_return body.error();
            auto v = to_open_interest(**body);
            if (!v)
                co_return v.error();
            open_interest[symbol] = std::move(*v);
        }
        co_return to_rwas_markets(**markets, **marks, open_interest);
    }

    // beta has no builder dexes (CONTRACT §4): its real-world assets are perps.
    async_result<std::vector<gateway::dex>> dexes(call_context const&) override {
        co_return no_dexes();
    }
    async_result<dex_detail> detail(call_context const&, std::string const&) override {
        co_return no_dexes();
    }
    async_result<dex_status> status(call_context const&, std::string const&) override {
        co_return no_dexes();
    }

private:
    static api_error no_dexes() {
        return make_error(errc::not_found,
                          "beta has no builder dexes: its stock and commodity markets are perps, "
                          "listed at /v1/rwas/beta/markets and traded through /v1/perps/beta/.");
    }
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

} // namespace gateway::server::beta
