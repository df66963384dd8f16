// libFuzzer target: the parsers of gamma's REST answers (reference-server/src/providers/gamma/
// gamma_map.hpp): a catalog event, market and page, the CLOB's `/book` and `POST /midpoints`, and
// the error body of a refused read; and the trading answers (gamma_trading.hpp: a token's rules
// from its book, `POST /order`, `DELETE /order`, the `/data/orders` and `/data/trades` pages, a
// refused write). The input is an upstream body, parsed as the channel parses it; every parser
// reads it (each refuses the shapes of the others).
//
// Checked beyond "no crash": a refusal is a well-formed contract error of the codes the parser
// documents; tokens are index-aligned with outcomes (never more tokens than outcomes); `endDate`
// is "" or the API's ISO 8601 UTC form; a resolved event has only resolved markets; book sides
// are sorted (bids high to low, asks low to high) and at most `depth` long; and whatever the
// gateway writes from a body, the SDK reads back (its own parser, upstream mode). A place result
// never fills more than the order's size, has an average price only with a fill and that price
// within (0, 1]; a cancel names the order asked about; a fill belongs to the wallet asked about.
#include "fuzz_common.hpp"

#include "providers/gamma/gamma_map.hpp"
#include "providers/gamma/gamma_trading.hpp"

#include <gateway/types/market.hpp>
#include <gateway/types/predictions.hpp>

#include <boost/json/value_from.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

namespace json = boost::json;
namespace gamma = gateway::server::gamma;
using gateway::errc;
using gateway::market_status;
using gateway::strictness;
using gateway::fuzz::check_error;
using gateway::fuzz::check_outcome;

constexpr std::int64_t now_ms = 1'767'225'600'000; // 2026-01-01T00:00:00Z

/// "" or "YYYY-MM-DDTHH:MM:SS.sssZ".
bool iso_or_empty(std::string const& s) {
    if (s.empty())
        return true;
    if (s.size() != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
        s[16] != ':' || s[19] != '.' || s[23] != 'Z')
        return false;
    for (std::size_t const i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22})
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

void check_market(gateway::prediction_market const& m) {
    FUZZ_CHECK(!m.market_id.empty());
    FUZZ_CHECK(m.tokens.size() <= m.outcomes.size());
    for (std::size_t i = 0; i < m.tokens.size(); ++i)
        FUZZ_CHECK(m.tokens[i].outcome == m.outcomes[i]);
    FUZZ_CHECK(gateway::parse_prediction_market(json::value_from(m), strictness::upstream));
}

void catalog_parsers(json::value const& v) {
    auto market = gamma::parse_market(v, "7", now_ms);
    check_outcome(market, {errc::upstream_error});
    if (market) {
        check_market(market->market);
        FUZZ_CHECK(!market->on_book || !market->market.tokens.empty());
    }
    auto event = gamma::parse_event(v, now_ms);
    check_outcome(event, {errc::upstream_error});
    if (event) {
        FUZZ_CHECK(!event->event_id.empty() && iso_or_empty(event->end_date));
        for (auto const& m : event->markets) {
            check_market(m.market);
            FUZZ_CHECK(event->status != market_status::resolved ||
                       m.market.status == market_status::resolved);
        }
        // The CLOB is asked about each on-book token once; a midpoint prices exactly its token.
        std::vector<gamma::catalog_market const*> ms;
        for (auto const& m : event->markets)
            ms.push_back(&m);
        auto const tokens = gamma::book_tokens(ms);
        for (std::size_t i = 0; i < tokens.size(); ++i)
            for (std::size_t j = i + 1; j < tokens.size(); ++j)
                FUZZ_CHECK(tokens[i] != tokens[j]);
        gamma::midpoints mids;
        for (auto const& t : tokens)
            mids.emplace(t, *gateway::decimal::parse("0.5"));
        for (auto m : event->markets) {
            gamma::apply_midpoints(m, mids);
            check_market(m.market);
        }
        FUZZ_CHECK(gateway::parse_prediction_event(json::value_from(gamma::to_event(*event)),
                                                   strictness::upstream));
        FUZZ_CHECK(gateway::parse_prediction_event_detail(
            json::value_from(gamma::to_event_detail(*event)), strictness::upstream));
    }
    auto items = gamma::page_items(v, "events");
    check_outcome(items, {errc::upstream_error});
    if (items)
        for (auto const& item : **items)
            check_outcome(gamma::parse_event(item, now_ms), {errc::upstream_error});
    (void)gamma::string_list(v);
    if (auto const* s = v.if_string())
        (void)gamma::parse_time(*s);
}

void clob_parsers(json::value const& v) {
    auto mids = gamma::parse_midpoints(v);
    check_outcome(mids, {errc::upstream_error});
    for (std::size_t const depth : {1, 20}) {
        auto book = gamma::to_orderbook(v, "123", depth);
        check_outcome(book, {errc::upstream_error});
        if (!book)
            continue;
        FUZZ_CHECK(book->symbol == "123");
        FUZZ_CHECK(book->bids.size() <= depth && book->asks.size() <= depth);
        for (std::size_t i = 1; i < book->bids.size(); ++i)
            FUZZ_CHECK(book->bids[i - 1].price >= book->bids[i].price);
        for (std::size_t i = 1; i < book->asks.size(); ++i)
            FUZZ_CHECK(book->asks[i - 1].price <= book->asks[i].price);
        FUZZ_CHECK(gateway::parse_orderbook(json::value_from(*book), strictness::upstream));
    }
}

void error_parsers(json::value const& v) {
    for (unsigned const status : {400U, 404U, 425U, 500U, 503U}) {
        auto const e = gamma::read_error("gamma CLOB", {status, v, {}});
        check_error(e, {errc::upstream_error, errc::provider_unavailable});
        (void)gamma::upstream_missing(e);
    }
}

/// A write's outcome: its answer, or a refusal of the codes gamma_trading.hpp documents.
template <class T>
void check_write(gateway::result<T> const& r) {
    check_outcome(r, {errc::order_rejected, errc::order_not_found, errc::invalid_credentials,
                      errc::provider_unavailable, errc::upstream_error});
}

void trading_parsers(json::value const& v) {
    static auto const wallet =
        *gateway::address::parse("0x5e9ee1089755c3435139848e47e6635505d5a13a");
    static auto const size = *gateway::decimal::parse("10");
    static auto const price = *gateway::decimal::parse("0.45");
    static std::string const order_id = "0x" + std::string(64, 'a');
    auto rules = gamma::token_rules_of("gamma CLOB", v);
    check_outcome(rules, {errc::upstream_error});
    for (auto const s : {gateway::side::buy, gateway::side::sell}) {
        auto placed = gamma::to_place_result("gamma CLOB", v, s, size, price);
        check_write(placed);
        if (!placed)
            continue;
        FUZZ_CHECK(!placed->order_id.empty());
        FUZZ_CHECK(!placed->filled_size.is_negative() && placed->filled_size <= size);
        FUZZ_CHECK(!placed->average_price || !placed->filled_size.is_zero());
        if (placed->average_price)
            FUZZ_CHECK(!placed->average_price->is_negative() && !placed->average_price->is_zero());
    }
    auto canceled = gamma::to_cancel_result("gamma CLOB", v, order_id);
    check_write(canceled);
    if (canceled)
        FUZZ_CHECK(canceled->order_id == order_id);
    auto page = gamma::clob_page_of("gamma CLOB", v);
    check_outcome(page, {errc::upstream_error});
    if (page) {
        FUZZ_CHECK(page->items != nullptr);
        for (auto const& item : *page->items) {
            auto o = gamma::to_open_order("gamma CLOB", item);
            check_outcome(o, {errc::upstream_error});
            if (o)
                FUZZ_CHECK(gateway::parse_open_order(json::value_from(*o), strictness::upstream));
            auto fills = gamma::fills_of("gamma CLOB", item, wallet);
            check_outcome(fills, {errc::upstream_error});
            if (fills)
                for (auto const& f : *fills)
                    FUZZ_CHECK(gateway::parse_fill(json::value_from(f), strictness::upstream));
        }
    }
    for (auto const kind : {gamma::clob_write::place, gamma::clob_write::cancel})
        for (unsigned const status : {400U, 401U, 404U, 425U, 500U, 503U})
            check_error(gamma::write_error("gamma CLOB", {status, v, {}}, kind),
                        {errc::order_rejected, errc::order_not_found, errc::invalid_credentials,
                         errc::provider_unavailable, errc::upstream_error});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    auto v = gateway::fuzz::parse_json(gateway::fuzz::as_text(data, size));
    if (!v)
        return 0; // the channel answers UPSTREAM_ERROR before any parser runs
    catalog_parsers(*v);
    clob_parsers(*v);
    error_parsers(*v);
    trading_parsers(*v);
    return 0;
}
