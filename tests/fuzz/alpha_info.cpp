// libFuzzer target: the parsers of alpha's `/info` answers (reference-server/src/alpha/
// alpha_map.hpp): meta, spotMeta, perpDexs, allMids, clearinghouseState (summary, positions),
// frontendOpenOrders, userFills, recentTrades, candleSnapshot, l2Book, spotClearinghouseState,
// metaAndAssetCtxs and perpDexStatus, orderStatus. The input is an upstream body, parsed as
// upstream.cpp parses it; every parser reads it (each refuses the shapes of the others).
//
// Checked beyond "no crash": a refusal is a well-formed UPSTREAM_ERROR (MARKET_NOT_FOUND for an
// unknown book); lists keep the promised order and bounds (trades newest first and at most
// `limit`, candles oldest first, fills newest first, at most `depth` book levels per side).
#include "fuzz_common.hpp"

#include "providers/alpha/alpha_map.hpp"

#include <array>
#include <vector>

namespace {

namespace json = boost::json;
namespace alpha = gateway::server::alpha;
using gateway::errc;
using gateway::fuzz::check_outcome;

/// A small universe: two main-dex perps, a builder dex with one market, two spot pairs.
alpha::universe make_universe() {
    alpha::universe u;
    alpha::perp_dex xyz;
    xyz.name = "xyz";
    xyz.full_name = "XYZ";
    xyz.index = 1;
    u.dexes.push_back(xyz);
    u.perps.push_back({"BTC", "", 0, 5, 50, false, false});
    u.perps.push_back({"ETH", "", 1, 4, 50, false, false});
    u.perps.push_back({"xyz:TSLA", "xyz", 110000, 3, 10, true, false});
    u.spot.push_back({"PURR/USDC", "PURR/USDC", 10000, 0, "PURR", "USDC"});
    u.spot.push_back({"HFUN/USDC", "@1", 10001, 2, "HFUN", "USDC"});
    return u;
}

template <class T>
void check_newest_first(std::vector<T> const& items) {
    for (std::size_t i = 1; i < items.size(); ++i)
        FUZZ_CHECK(items[i - 1].timestamp >= items[i].timestamp);
}

void universe_parsers(json::value const& v) {
    check_outcome(alpha::parse_perp_dexs(v), {errc::upstream_error});
    check_outcome(alpha::parse_meta(v, "", 0), {errc::upstream_error});
    check_outcome(alpha::parse_meta(v, "xyz", 1), {errc::upstream_error});
    check_outcome(alpha::parse_spot_meta(v), {errc::upstream_error});
}

void market_parsers(json::value const& v) {
    check_outcome(alpha::to_prices(v), {errc::upstream_error});
    for (std::size_t const limit : {1, 50, 200}) {
        auto trades = alpha::to_trades(v, limit);
        check_outcome(trades, {errc::upstream_error});
        if (trades) {
            FUZZ_CHECK(trades->size() <= limit);
            check_newest_first(*trades);
        }
    }
    auto candles = alpha::to_candles(v);
    check_outcome(candles, {errc::upstream_error});
    if (candles)
        for (std::size_t i = 1; i < candles->size(); ++i)
            FUZZ_CHECK((*candles)[i - 1].timestamp <= (*candles)[i].timestamp);
    for (std::size_t const depth : {1, 20}) {
        auto book = alpha::to_orderbook(v, "BTC", depth);
        check_outcome(book, {errc::upstream_error, errc::market_not_found});
        if (book)
            FUZZ_CHECK(book->bids.size() <= depth && book->asks.size() <= depth);
    }
}

void account_parsers(json::value const& v, alpha::universe const& u) {
    check_outcome(alpha::to_account_summary({v}), {errc::upstream_error});
    check_outcome(alpha::to_account_summary({v, v}), {errc::upstream_error});
    check_outcome(alpha::to_positions(v, u), {errc::upstream_error});
    check_outcome(alpha::to_open_orders(v), {errc::upstream_error});
    auto fills = alpha::to_fills(v, u);
    check_outcome(fills, {errc::upstream_error});
    if (fills)
        check_newest_first(*fills);
    check_outcome(alpha::to_spot_balances(v), {errc::upstream_error});
    (void)alpha::to_filled_size(v);
    (void)alpha::average_fill_price(v, "77738308");
}

void dex_parsers(json::value const& v, alpha::universe const& u) {
    auto const& d = u.dexes.front();
    check_outcome(alpha::to_dex_detail(d, v, u), {errc::upstream_error});
    check_outcome(alpha::to_dex_status(d, v, v, 1700000000000), {errc::upstream_error});
    // perpDexStatus and metaAndAssetCtxs as the two halves of a pair.
    if (auto const* a = v.if_array(); a && a->size() == 2)
        check_outcome(alpha::to_dex_status(d, (*a)[0], (*a)[1], 1700000000000),
                      {errc::upstream_error});
    check_outcome(alpha::to_dexes(u), {errc::upstream_error});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    static alpha::universe const u = make_universe();
    auto v = gateway::fuzz::parse_json(gateway::fuzz::as_text(data, size));
    if (!v)
        return 0; // the transport answers UPSTREAM_ERROR before any parser runs
    universe_parsers(*v);
    market_parsers(*v);
    account_parsers(*v, u);
    dex_parsers(*v, u);
    return 0;
}
