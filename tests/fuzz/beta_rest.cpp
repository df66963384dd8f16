// libFuzzer target: the parsers of beta's REST answers (reference-server/src/providers/beta/
// beta_map.hpp): futures and spot exchangeInfo, leverageBracket, ticker/price, depth, trades,
// klines, positionRisk, account, openOrders, userTrades, spot account, income, openInterest,
// premiumIndex, the error body of a refused read, and the answers to signed writes
// (beta_trading.hpp: new order, cancel, leverage, and a refused write). The input is an upstream
// body, parsed as the channel parses it; every parser reads it (each refuses the shapes of the
// others).
//
// Checked beyond "no crash": a refusal is a well-formed contract error of the codes the parser
// documents; lists keep the promised order and bounds (trades newest first and at most `limit`,
// candles oldest first, open orders and fills newest first, at most `depth` book levels a side,
// spot balances never zero); a listing names only markets of the universe.
#include "fuzz_common.hpp"

#include "providers/beta/beta_map.hpp"
#include "providers/beta/beta_trading.hpp"

#include <map>
#include <string>
#include <vector>

namespace {

namespace json = boost::json;
namespace beta = gateway::server::beta;
using gateway::errc;
using gateway::fuzz::check_error;
using gateway::fuzz::check_outcome;

/// A small universe: a crypto perp, a stock perp, one spot pair.
beta::universe make_universe() {
    std::vector<beta::perp_market> perps(2);
    perps[0].symbol = "BTC";
    perps[0].upstream = "BTCUSDT";
    perps[1].symbol = "TSLA";
    perps[1].upstream = "TSLAUSDT";
    perps[1].rwa = true;
    std::vector<beta::spot_market> spot(1);
    spot[0].symbol = "BTC/USDT";
    spot[0].upstream = "BTCUSDT";
    return {std::move(perps), std::move(spot)};
}

template <class T>
void check_newest_first(std::vector<T> const& items) {
    for (std::size_t i = 1; i < items.size(); ++i)
        FUZZ_CHECK(items[i - 1].timestamp >= items[i].timestamp);
}

void universe_parsers(json::value const& v) {
    check_outcome(beta::parse_futures_exchange_info(v), {errc::upstream_error});
    check_outcome(beta::parse_spot_exchange_info(v), {errc::upstream_error});
    check_outcome(beta::parse_leverage_brackets(v), {errc::upstream_error});
    // A universe learned from this body lists what it learned, each market findable by name.
    if (auto perps = beta::parse_futures_exchange_info(v)) {
        beta::universe const u{*perps, {}};
        for (auto const& m : u.perps())
            FUZZ_CHECK(u.find_perp(m.symbol) != nullptr && u.find_perp_upstream(m.upstream));
        FUZZ_CHECK(beta::to_market_infos(u, beta::venue::futures).size() == u.perps().size());
    }
}

void market_parsers(json::value const& v, beta::universe const& u) {
    for (auto const venue : {beta::venue::futures, beta::venue::spot}) {
        auto prices = beta::to_prices(v, u, venue);
        check_outcome(prices, {errc::upstream_error});
        if (prices)
            for (auto const& [symbol, price] : *prices)
                FUZZ_CHECK(venue == beta::venue::futures ? u.find_perp(symbol) != nullptr
                                                         : u.find_spot(symbol) != nullptr);
    }
    for (std::size_t const limit : {1, 40, 1000}) {
        auto trades = beta::to_trades(v, limit);
        check_outcome(trades, {errc::upstream_error});
        if (trades) {
            FUZZ_CHECK(trades->size() <= limit);
            check_newest_first(*trades);
        }
    }
    auto candles = beta::to_candles(v);
    check_outcome(candles, {errc::upstream_error});
    if (candles)
        for (std::size_t i = 1; i < candles->size(); ++i)
            FUZZ_CHECK((*candles)[i - 1].timestamp <= (*candles)[i].timestamp);
    for (std::size_t const depth : {1, 20}) {
        auto book = beta::to_orderbook(v, "BTC", depth);
        check_outcome(book, {errc::upstream_error});
        if (book)
            FUZZ_CHECK(book->bids.size() <= depth && book->asks.size() <= depth);
    }
    check_outcome(beta::to_open_interest(v), {errc::upstream_error});
    check_outcome(beta::to_rwas_markets(u, v, {}), {errc::upstream_error});
}

void account_parsers(json::value const& v, beta::universe const& u) {
    check_outcome(beta::to_positions(v, u), {errc::upstream_error});
    check_outcome(beta::to_account_summary(v, v), {errc::upstream_error});
    // account and positionRisk as the two halves of a pair.
    if (auto const* a = v.if_array(); a && a->size() == 2)
        check_outcome(beta::to_account_summary((*a)[0], (*a)[1]), {errc::upstream_error});
    auto orders = beta::to_open_orders(v, u);
    check_outcome(orders, {errc::upstream_error});
    if (orders)
        check_newest_first(*orders);
    auto fills = beta::to_fills(v, u);
    check_outcome(fills, {errc::upstream_error});
    if (fills)
        check_newest_first(*fills);
    auto balances = beta::to_spot_balances(v);
    check_outcome(balances, {errc::upstream_error});
    if (balances)
        for (auto const& b : *balances)
            FUZZ_CHECK(!b.total.is_zero());
    check_outcome(beta::to_commissions(v), {errc::upstream_error});
}

void error_parsers(json::value const& v) {
    static auto const signer =
        *gateway::address::parse("0x5e9ee1089755c3435139848e47e6635505d5a13a");
    (void)beta::error_body(v);
    for (unsigned const status : {400U, 401U, 403U, 404U, 500U}) {
        auto const e = beta::read_error("beta", {status, v, {}}, signer);
        check_error(e, {errc::signer_not_approved, errc::market_not_found, errc::upstream_error});
    }
}

/// A write's outcome: its answer, or an error body mapped as `write_error` maps it.
template <class T>
void check_write(gateway::result<T> const& r) {
    check_outcome(r, {errc::order_rejected, errc::order_not_found, errc::invalid_nonce,
                      errc::signature_error, errc::market_not_found, errc::max_leverage_exceeded,
                      errc::upstream_error});
}

void trading_parsers(json::value const& v) {
    static auto const signer =
        *gateway::address::parse("0x5e9ee1089755c3435139848e47e6635505d5a13a");
    static auto const size = *gateway::decimal::parse("0.01");
    auto placed = beta::to_place_result("beta", v, size, std::string("0x1"));
    check_write(placed);
    if (placed) {
        // Never more filled than ordered, a price only with a fill, and the body's client id.
        FUZZ_CHECK(!placed->order_id.empty());
        FUZZ_CHECK(placed->filled_size <= size && !placed->filled_size.is_negative());
        FUZZ_CHECK(!placed->average_price || !placed->filled_size.is_zero());
        FUZZ_CHECK(placed->client_order_id == std::string("0x1"));
    }
    auto canceled = beta::to_cancel_result("beta", v, "42");
    check_write(canceled);
    if (canceled)
        FUZZ_CHECK(canceled->order_id == "42");
    auto leverage = beta::to_leverage_result("beta", v, "BTC");
    check_write(leverage);
    if (leverage)
        FUZZ_CHECK(leverage->symbol == "BTC" && leverage->leverage >= 1);
    for (auto const kind :
         {beta::write_kind::place, beta::write_kind::cancel, beta::write_kind::leverage})
        for (unsigned const status : {400U, 401U, 404U, 500U, 503U})
            check_error(beta::write_error("beta", {status, v, {}}, kind, signer),
                        {errc::order_rejected, errc::order_not_found, errc::invalid_nonce,
                         errc::signature_error, errc::market_not_found, errc::max_leverage_exceeded,
                         errc::upstream_error});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    static beta::universe const u = make_universe();
    auto v = gateway::fuzz::parse_json(gateway::fuzz::as_text(data, size));
    if (!v)
        return 0; // the channel answers UPSTREAM_ERROR before any parser runs
    universe_parsers(*v);
    market_parsers(*v, u);
    account_parsers(*v, u);
    error_parsers(*v);
    trading_parsers(*v);
    return 0;
}
