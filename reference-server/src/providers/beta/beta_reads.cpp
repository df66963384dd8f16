// Provider beta's reads (spec 4.3, 2.5-2.11; CONTRACT §4, §6.2) behind the seam's read
// interfaces: the symbol against the learned universe (MARKET_NOT_FOUND), then Aster REST reads
// through the network's channels: market data public, cached and coalesced; account data signed
// by the gateway's read signer, coalesced per account only. The pure halves are
// wire::beta (to upstream) and beta_map (from upstream).
#include "providers/beta/beta_network.hpp"

#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/weights.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <utility>

namespace gateway::server::beta {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace w = wire::beta;
using namespace std::chrono_literals;
using json_ptr = network::json_ptr;
using flight_ptr = std::shared_ptr<network::flight>;

/// The upstream's limits on one request (beta.md §4.1, §4.2).
constexpr std::int64_t max_klines = 1500;
constexpr std::int64_t max_user_trades = 1000;
constexpr std::int64_t max_income = 1000;
/// userTrades spans at most 7 days per request; without a startTime fills cover the 7 days
/// before endTime (the upstream's own default window).
constexpr std::int64_t user_trades_window_ms = std::int64_t{7} * 24 * 3600 * 1000;
/// Income pages read at most for one fills request (10000 fills in the range).
constexpr int max_income_pages = 10;

std::string futures(std::string_view leaf) {
    return std::string(w::futures_prefix) + std::string(leaf);
}
std::string spot_path(std::string_view leaf) {
    return std::string(w::spot_prefix) + std::string(leaf);
}

/// Waits for a read and hands back its JSON (or its error); `keep` holds it alive.
asio::awaitable<result<json::value const*>> await_json(flight_ptr const& f, json_ptr& keep) {
    keep = co_await f->wait();
    if (!*keep)
        co_return keep->error();
    co_return &**keep;
}

/// The perp of a market read, after the parameters were checked by the route.
/// @par Errors MARKET_NOT_FOUND.
asio::awaitable<result<perp_market>> market_of(network& n, std::string const& symbol) {
    auto known = co_await n.markets();
    if (!known)
        co_return known.error();
    if (auto const* m = (*known)->find_perp(symbol))
        co_return *m;
    co_return make_error(errc::market_not_found,
                         "Unknown perps market '" + symbol + "' on " + n.name() +
                             " (perps, stock and commodity perps are named by their base asset: "
                             "BTC, TSLA, XAU).");
}

/// A futures read of `user` answering a list of account items, mapped with `map`.
template <class T>
asio::awaitable<result<std::vector<T>>>
account_list(network& n, call_context const& ctx, address const& user, std::string path,
             result<std::vector<T>> (*map)(json::value const&, universe const&)) {
    auto known = co_await n.markets();
    if (!known)
        co_return known.error();
    auto f = n.start_signed_get(venue::futures, std::move(path), {}, user, ctx.account);
    json_ptr keep;
    auto body = co_await await_json(f, keep);
    if (!body)
        co_return body.error();
    co_return map(**body, **known);
}

class perps final : public perps_reads {
public:
    explicit perps(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<price_map> prices(call_context const& ctx, prices_params const&) override {
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        auto f = n_->start_get(venue::futures, futures("ticker/price"), {}, ttl(), ctx.account);
        json_ptr keep;
        auto body = co_await await_json(f, keep);
        if (!body)
            co_return body.error();
        co_return to_prices(**body, **known, venue::futures);
    }

    async_result<std::vector<market_info>> markets(call_context const&) override {
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        co_return to_market_infos(**known, venue::futures);
    }

    async_result<std::vector<trade>> trades(call_context const& ctx, std::string const& symbol,
                                            trades_params const& p) override {
        auto m = co_await market_of(*n_, symbol);
        if (!m)
            co_return m.error();
        auto const limit = p.limit.value_or(trades_params::default_limit);
        query_params q{{"symbol", m->upstream}, {"limit", std::to_string(limit)}};
        auto f = n_->start_get(venue::futures, futures("trades"), std::move(q), ttl(), ctx.account);
        json_ptr keep;
        auto body = co_await await_json(f, keep);
        if (!body)
            co_return body.error();
        co_return to_trades(**body, static_cast<std::size_t>(limit));
    }

    async_result<std::vector<candle>> candles(call_context const& ctx, std::string const& symbol,
                                              candles_params const& p) override {
        auto m = co_await market_of(*n_, symbol);
        if (!m)
            co_return m.error();
        // Defaults against the current second: identical default reads share the cache.
        auto range = p.resolve(ctx.now_ms / 1000 * 1000);
        if (!range)
            co_return range.error();
        // At most 1500 klines a request: the range in pages, all requested at once. A page asks
        // for as many klines as its span can hold (the weight grows with `limit`).
        auto const step = interval_ms(*p.interval);
        std::vector<flight_ptr> pages;
        for (auto start = range->start_time; start <= range->end_time; start += max_klines * step) {
            auto const end = std::min(range->end_time, start + max_klines * step - 1);
            auto const limit = std::min(max_klines, (end - start) / step + 2);
            query_params q{{"symbol", m->upstream},
                           {"interval", std::string(to_string(*p.interval))},
                           {"startTime", std::to_string(start)},
                           {"endTime", std::to_string(end)},
                           {"limit", std::to_string(limit)}};
            pages.push_back(
                n_->start_get(venue::futures, futures("klines"), std::move(q), ttl(), ctx.account));
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
            for (auto& c : *some)
                if (out.empty() || c.timestamp > out.back().timestamp)
                    out.push_back(std::move(c));
        }
        co_return out;
    }

    async_result<orderbook> book(call_context const& ctx, std::string const& symbol,
                                 orderbook_params const& p) override {
        auto m = co_await market_of(*n_, symbol);
        if (!m)
            co_return m.error();
        // CONTRACT §4: the smallest upstream limit that holds `depth`, cut to `depth`.
        auto const limit = w::depth_limit_for(*p.depth).value_or(w::depth_limits.back());
        query_params q{{"symbol", m->upstream}, {"limit", std::to_string(limit)}};
        auto f = n_->start_get(venue::futures, futures("depth"), std::move(q), ttl(), ctx.account);
        json_ptr keep;
        auto body = co_await await_json(f, keep);
        if (!body)
            co_return body.error();
        co_return to_orderbook(**body, m->symbol, static_cast<std::size_t>(*p.depth));
    }

    async_result<account_summary> account(call_context const& ctx, address const& user) override {
        // Both at once: the totals, and the positions' marks for their value.
        auto account_flight =
            n_->start_signed_get(venue::futures, futures("account"), {}, user, ctx.account);
        auto risk_flight =
            n_->start_signed_get(venue::futures, futures("positionRisk"), {}, user, ctx.account);
        json_ptr keep_account, keep_risk;
        auto account = co_await await_json(account_flight, keep_account);
        auto risk = co_await await_json(risk_flight, keep_risk);
        if (!account)
            co_return account.error();
        if (!risk)
            co_return risk.error();
        co_return to_account_summary(**account, **risk);
    }

    async_result<std::vector<position>> positions(call_context const& ctx,
                                                  address const& user) override {
        std::string const path = futures("positionRisk"); // named: GCC 12 and co_await
        co_return co_await account_list<position>(*n_, ctx, user, path, &to_positions);
    }

    async_result<std::vector<open_order>> open_orders(call_context const& ctx,
                                                      address const& user) override {
        std::string const path = futures("openOrders"); // named: GCC 12 and co_await
        co_return co_await account_list<open_order>(*n_, ctx, user, path, &to_open_orders);
    }

    /**
     * Fills across every symbol. userTrades needs a symbol and spans at most 7 days, so the
     * account's COMMISSION income (one entry per fill) in the range names the fills first; the
     * newest `limit` of them give the symbols and, per symbol, the span to read, 7 days a
     * request.
     */
    async_result<std::vector<fill>> fills(call_context const& ctx, address const& user,
                                          fills_params const& p) override {
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        std::int64_t const end = p.end_time.value_or(ctx.now_ms);
        std::int64_t const start = p.start_time.value_or(end - user_trades_window_ms + 1);
        auto const limit = static_cast<std::size_t>(p.limit.value_or(fills_params::default_limit));
        if (start > end)
            co_return std::vector<fill>{};

        auto entries = co_await commissions(user, start, end, ctx.account);
        if (!entries)
            co_return entries.error();
        std::stable_sort(
            entries->begin(), entries->end(),
            [](commission_entry const& a, commission_entry const& b) { return a.time > b.time; });
        if (entries->size() > limit)
            entries->resize(limit);
        std::map<std::string, std::pair<std::int64_t, std::int64_t>, std::less<>> spans;
        for (auto const& e : *entries) {
            auto const it = spans.try_emplace(e.upstream, e.time, e.time).first;
            it->second.first = std::min(it->second.first, e.time);
            it->second.second = std::max(it->second.second, e.time);
        }
        std::vector<flight_ptr> reads;
        for (auto const& [symbol, span] : spans)
            for (auto from = span.first; from <= span.second; from += user_trades_window_ms) {
                auto const to = std::min(span.second, from + user_trades_window_ms - 1);
                query_params q{{"symbol", symbol},
                               {"startTime", std::to_string(from)},
                               {"endTime", std::to_string(to)},
                               {"limit", std::to_string(max_user_trades)}};
                reads.push_back(n_->start_signed_get(venue::futures, futures("userTrades"),
                                                     std::move(q), user, ctx.account));
            }
        std::vector<fill> out;
        for (auto const& r : reads) {
            json_ptr keep;
            auto body = co_await await_json(r, keep);
            if (!body)
                co_return body.error();
            auto some = to_fills(**body, **known);
            if (!some)
                co_return some.error();
            out.insert(out.end(), std::make_move_iterator(some->begin()),
                       std::make_move_iterator(some->end()));
        }
        std::erase_if(out, [&](fill const& f) { return f.timestamp < start || f.timestamp > end; });
        std::stable_sort(out.begin(), out.end(),
                         [](fill const& a, fill const& b) { return a.timestamp > b.timestamp; });
        if (out.size() > limit)
            out.resize(limit);
        co_return out;
    }

private:
    std::chrono::milliseconds ttl() const { return n_->options().market_ttl; }

    /// Every COMMISSION entry of `user` in [start, end], oldest first, read a page of 1000 at a
    /// time. @par Errors VALIDATION_ERROR (`startTime`) past `max_income_pages` pages.
    asio::awaitable<result<std::vector<commission_entry>>>
    commissions(address const& user, std::int64_t start, std::int64_t end,
                std::optional<std::int64_t> account) {
        std::vector<commission_entry> out;
        std::set<std::string> seen;
        std::int64_t from = start;
        for (int page = 0; page < max_income_pages; ++page) {
            query_params q{{"incomeType", "COMMISSION"},
                           {"startTime", std::to_string(from)},
                           {"endTime", std::to_string(end)},
                           {"limit", std::to_string(max_income)}};
            auto f = n_->start_signed_get(venue::futures, futures("income"), std::move(q), user,
                                          account);
            json_ptr keep;
            auto body = co_await await_json(f, keep);
            if (!body)
                co_return body.error();
            auto some = to_commissions(**body);
            if (!some)
                co_return some.error();
            bool const full = (**body).as_array().size() >= static_cast<std::size_t>(max_income);
            for (auto& e : *some) {
                from = std::max(from, e.time); // the next page starts at the last time seen
                std::string id =
                    e.tran_id.empty() ? e.upstream + "@" + std::to_string(e.time) : e.tran_id;
                if (seen.insert(std::move(id)).second)
                    out.push_back(std::move(e));
            }
            if (!full)
                co_return out;
        }
        api_error e = make_error(errc::validation_error,
                                 "More than " + std::to_string(max_income_pages * max_income) +
                                     " fills between startTime and endTime on " + n_->name() +
                                     "; ask for a shorter range.");
        e.details["field"] = "startTime";
        co_return e;
    }

    std::shared_ptr<network> n_;
};

class spot final : public spot_reads {
public:
    explicit spot(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<price_map> prices(call_context const& ctx) override {
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        auto f = n_->start_get(venue::spot, spot_path("ticker/price"), {}, n_->options().market_ttl,
                               ctx.account);
        json_ptr keep;
        auto body = co_await await_json(f, keep);
        if (!body)
            co_return body.error();
        co_return to_prices(**body, **known, venue::spot);
    }

    async_result<std::vector<market_info>> markets(call_context const&) override {
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        co_return to_market_infos(**known, venue::spot);
    }

    async_result<std::vector<spot_balance>> balances(call_context const& ctx,
                                                     address const& user) override {
        auto f = n_->start_signed_get(venue::spot, spot_path("account"), {}, user, ctx.account);
        json_ptr keep;
        auto body = co_await await_json(f, keep);
        if (!body)
            co_return body.error();
        co_return to_spot_balances(**body);
    }

private:
    std::shared_ptr<network> n_;
};

class rwas final : public rwas_reads {
public:
    explicit rwas(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    /// The stock and commodity perps (CONTRACT §4): marks of every perp in one read, each
    /// market's open interest alongside, all at once.
    async_result<std::vector<dex_market>> markets(call_context const& ctx) override {
        auto known = co_await n_->markets();
        if (!known)
            co_return known.error();
        auto const ttl = n_->options().market_ttl;
        auto marks_flight =
            n_->start_get(venue::futures, futures("premiumIndex"), {}, ttl, ctx.account);
        std::vector<std::pair<std::string, flight_ptr>> oi;
        for (auto const& m : (*known)->perps())
            if (m.rwa)
                oi.emplace_back(m.upstream, n_->start_get(venue::futures, futures("openInterest"),
                                                          query_params{{"symbol", m.upstream}}, ttl,
                                                          ctx.account));
        json_ptr keep_marks;
        auto marks = co_await await_json(marks_flight, keep_marks);
        if (!marks)
            co_return marks.error();
        std::map<std::string, decimal, std::less<>> open_interest;
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
        co_return to_rwas_markets(**known, **marks, open_interest);
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
                          "listed at /v1/rwas/beta/markets and read and traded through "
                          "/v1/perps/beta/.");
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
