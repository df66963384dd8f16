#include "beta_public.hpp"

#include "beta_accounts.hpp"
#include "beta_replies.hpp"

#include "../common/format.hpp"
#include "../common/rng.hpp"

#include <gateway/providers/beta/weights.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <limits>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;
namespace w = gateway::wire::beta;

constexpr std::int64_t update_id_base = 148'964'776'071;
constexpr std::int64_t minute = 60'000;
constexpr std::int64_t day = 1440 * minute;
constexpr std::int64_t funding_period = 8 * 60 * minute;
constexpr std::size_t max_trades = 1000;
constexpr std::size_t default_trades = 500;
constexpr std::size_t max_klines = 1500;
constexpr std::size_t default_klines = 500;
constexpr std::size_t max_candle_query = 5000;
static_assert(market_state::trades_kept >= max_trades, "the market state keeps too few trades");

/// beta.md §2: the kline intervals.
struct named_interval {
    std::string_view name;
    candle_interval iv;
};
constexpr std::array<named_interval, 15> intervals{{
    {"1m", {minute, false}},
    {"3m", {3 * minute, false}},
    {"5m", {5 * minute, false}},
    {"15m", {15 * minute, false}},
    {"30m", {30 * minute, false}},
    {"1h", {60 * minute, false}},
    {"2h", {120 * minute, false}},
    {"4h", {240 * minute, false}},
    {"6h", {360 * minute, false}},
    {"8h", {480 * minute, false}},
    {"12h", {720 * minute, false}},
    {"1d", {day, false}},
    {"3d", {3 * day, false}},
    {"1w", {7 * day, false}},
    {"1M", {0, true}},
}};

/// An optional unsigned parameter: absent, a number, or a reply for a malformed one.
struct uint_param {
    std::optional<std::uint64_t> value;
    std::optional<net::response> error;
};

uint_param read_uint(query_params const& q, std::string_view key, unsigned v) {
    auto const text = query_get(q, key);
    if (!text)
        return {};
    auto const n = parse_uint(*text);
    if (!n)
        return {std::nullopt, illegal_chars(key, v)};
    return {n, std::nullopt};
}

/// `mantissa` (at `scale`) as an amount.
amount at(std::int64_t mantissa, unsigned scale) {
    return amount::from_scaled(mantissa, scale);
}

} // namespace

std::int64_t market_data::view::px(std::int64_t m) const {
    return rescale(m, src_px, px_scale);
}

std::int64_t market_data::view::sz(std::int64_t m) const {
    return rescale(m, src_sz, sz_scale);
}

market_data::market_data(market_state const& markets, candle_history const& candles,
                         ledger const& l, std::uint64_t seed)
    : markets_(markets)
    , candles_(candles)
    , ledger_(l)
    , seed_(seed)
    , update_base_(update_id_base + static_cast<std::int64_t>(seed % 1'000'000) * 1000) {}

std::optional<market_data::view> market_data::find(venue where, std::string_view symbol) const {
    if (where == venue::futures) {
        auto const* p = find_perp(symbol);
        if (!p)
            return std::nullopt;
        auto const i = markets_.find(p->symbol);
        if (!i)
            return std::nullopt;
        return view{*i, p->symbol, p->base, p->px_scale, p->sz_scale, p->px_scale, p->sz_scale};
    }
    auto const* s = find_spot(symbol);
    if (!s)
        return std::nullopt;
    auto const i = markets_.find(s->perp.empty() ? s->symbol : s->perp);
    if (!i)
        return std::nullopt;
    auto const& spec = markets_.spec(*i);
    return view{*i, s->symbol, s->base, s->px_scale, s->sz_scale, spec.px_scale, spec.sz_scale};
}

std::vector<market_data::view> market_data::all(venue where) const {
    std::vector<view> out;
    if (where == venue::futures) {
        for (auto const& p : perps())
            if (auto v = find(where, p.symbol))
                out.push_back(*v);
    } else {
        for (auto const& s : spots())
            if (auto v = find(where, s.symbol))
                out.push_back(*v);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// depth, trades

net::response market_data::depth(venue where, query_params const& q, unsigned v) const {
    auto const symbol = query_get(q, "symbol");
    if (!symbol || symbol->empty())
        return missing_param("symbol", v);
    unsigned limit = where == venue::futures ? 500 : 100; // beta.md §4.1, §5
    auto const l = read_uint(q, "limit", v);
    if (l.error)
        return *l.error;
    if (l.value) {
        if (std::find(w::depth_limits.begin(), w::depth_limits.end(), *l.value) ==
            w::depth_limits.end())
            return error_reply(w::invalid_depth_limit, v);
        limit = static_cast<unsigned>(*l.value);
    }
    auto const m = find(where, *symbol);
    if (!m)
        return invalid_symbol(v);
    auto const b = markets_.book(m->index, limit);
    auto side = [&](std::vector<book_level> const& levels) {
        json::array out;
        for (auto const& lv : levels)
            out.push_back(json::array{fixed(m->px(lv.px), m->px_scale, m->px_scale),
                                      fixed(m->sz(lv.sz), m->sz_scale, m->sz_scale)});
        return out;
    };
    std::int64_t const now = now_ms();
    json::object o;
    o["lastUpdateId"] = update_base_ + static_cast<std::int64_t>(b.version) * 100;
    o["E"] = now;
    o["T"] = now - 7;
    o["bids"] = side(b.bids);
    o["asks"] = side(b.asks);
    return json_response(http::status::ok, o, v);
}

net::response market_data::trades(venue where, query_params const& q, unsigned v) const {
    auto const symbol = query_get(q, "symbol");
    if (!symbol || symbol->empty())
        return missing_param("symbol", v);
    std::size_t limit = default_trades;
    auto const l = read_uint(q, "limit", v);
    if (l.error)
        return *l.error;
    if (l.value) {
        if (*l.value == 0)
            return invalid_parameter("limit", v);
        limit = static_cast<std::size_t>(std::min<std::uint64_t>(*l.value, max_trades));
    }
    auto const m = find(where, *symbol);
    if (!m)
        return invalid_symbol(v);
    json::array out;
    for (auto const& t : markets_.trades(m->index, limit)) {
        std::int64_t const px = m->px(t.px);
        std::int64_t const sz = m->sz(t.sz);
        json::object o;
        o["id"] = t.id;
        o["price"] = fixed(px, m->px_scale, m->px_scale);
        if (where == venue::futures) {
            o["qty"] = fixed(sz, m->sz_scale, m->sz_scale);
            o["quoteQty"] = fixed(px * sz, m->px_scale + m->sz_scale, m->px_scale);
        } else {
            // beta.md §5: in the docs' sample `qty` is the quote amount and `baseQty` the base
            // quantity (qty / price). UNCONFIRMED; mocks/README.md.
            o["qty"] = decimal_text(at(px, m->px_scale) * at(sz, m->sz_scale), 8);
            o["baseQty"] = decimal_text(at(sz, m->sz_scale), 8);
        }
        o["time"] = t.time_ms;
        o["isBuyerMaker"] = !t.buyer_is_taker;
        out.push_back(std::move(o));
    }
    return json_response(http::status::ok, out, v);
}

// ---------------------------------------------------------------------------------------------
// klines

net::response market_data::klines(venue where, query_params const& q, unsigned v) const {
    auto const symbol = query_get(q, "symbol");
    if (!symbol || symbol->empty())
        return missing_param("symbol", v);
    auto const iname = query_get(q, "interval");
    if (!iname || iname->empty())
        return missing_param("interval", v);
    auto const it = std::find_if(intervals.begin(), intervals.end(),
                                 [&](named_interval const& n) { return n.name == *iname; });
    if (it == intervals.end())
        return error_reply(w::bad_interval, v);
    std::size_t limit = default_klines;
    auto const l = read_uint(q, "limit", v);
    if (l.error)
        return *l.error;
    if (l.value) {
        if (*l.value == 0 || *l.value > max_klines)
            return invalid_parameter("limit", v);
        limit = static_cast<std::size_t>(*l.value);
    }
    auto const st = read_uint(q, "startTime", v);
    if (st.error)
        return *st.error;
    auto const et = read_uint(q, "endTime", v);
    if (et.error)
        return *et.error;
    auto const m = find(where, *symbol);
    if (!m)
        return invalid_symbol(v);
    constexpr auto max_time =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 2);
    std::int64_t end =
        et.value ? static_cast<std::int64_t>(std::min(*et.value, max_time)) : now_ms();
    std::vector<candle> cs;
    if (st.value) {
        // Binance: with startTime, the `limit` candles from there on.
        auto const start = static_cast<std::int64_t>(std::min(*st.value, max_time));
        if (!it->iv.month)
            end = std::min(end, start + static_cast<std::int64_t>(limit) * it->iv.ms);
        cs = candles_.query(m->index, it->iv, start, end, max_candle_query);
        if (cs.size() > limit)
            cs.resize(limit);
    } else {
        cs = candles_.query(m->index, it->iv, 0, end, limit);
    }
    json::array out;
    for (auto const& c : cs) {
        amount const close = at(m->px(c.c), m->px_scale);
        amount const volume = at(m->sz(c.v), m->sz_scale);
        splitmix64 r(mix_seed(seed_, m->index, static_cast<std::uint64_t>(c.t), 0x7a4e));
        auto const share = static_cast<std::int64_t>(35 + r.below(31));
        amount const taker_base = at(m->sz(c.v) * share / 100, m->sz_scale);
        unsigned const quote_scale = m->px_scale + m->sz_scale;
        json::array row;
        row.push_back(c.t);
        row.push_back(json::string(fixed(m->px(c.o), m->px_scale, m->px_scale)));
        row.push_back(json::string(fixed(m->px(c.h), m->px_scale, m->px_scale)));
        row.push_back(json::string(fixed(m->px(c.l), m->px_scale, m->px_scale)));
        row.push_back(json::string(fixed(m->px(c.c), m->px_scale, m->px_scale)));
        row.push_back(json::string(decimal_text(volume, m->sz_scale)));
        row.push_back(bucket_next(it->iv, c.t) - 1);
        row.push_back(json::string(decimal_text(volume * close, quote_scale)));
        row.push_back(c.n);
        row.push_back(json::string(decimal_text(taker_base, m->sz_scale)));
        row.push_back(json::string(decimal_text(taker_base * close, quote_scale)));
        if (where == venue::futures)
            row.push_back("0"); // futures rows have 12 elements, spot rows 11 (beta.md §5)
        out.push_back(std::move(row));
    }
    return json_response(http::status::ok, out, v);
}

// ---------------------------------------------------------------------------------------------
// tickers

net::response market_data::ticker_price(venue where, query_params const& q, unsigned v) const {
    std::int64_t const now = now_ms();
    auto item = [&](view const& m) {
        json::object o;
        o["symbol"] = m.symbol;
        o["price"] = fixed(m.px(markets_.mark(m.index)), m.px_scale, m.px_scale);
        o["time"] = now;
        return o;
    };
    if (auto const symbol = query_get(q, "symbol")) {
        if (symbol->empty())
            return missing_param("symbol", v);
        auto const m = find(where, *symbol);
        if (!m)
            return invalid_symbol(v);
        return json_response(http::status::ok, item(*m), v);
    }
    json::array out;
    for (auto const& m : all(where))
        out.push_back(item(m));
    return json_response(http::status::ok, out, v);
}

json::object market_data::ticker_24hr_item(venue where, view const& m, std::int64_t now) const {
    auto const cs = candles_.query(m.index, {minute, false}, now - day, now, 2 * 1440);
    amount open, high, low, volume, quote;
    std::uint64_t count = 0;
    bool first = true;
    for (auto const& c : cs) {
        amount const h = at(m.px(c.h), m.px_scale);
        amount const l = at(m.px(c.l), m.px_scale);
        if (first) {
            open = at(m.px(c.o), m.px_scale);
            high = h;
            low = l;
            first = false;
        }
        high = std::max(high, h);
        low = std::min(low, l);
        amount const vol = at(m.sz(c.v), m.sz_scale);
        volume += vol;
        quote += vol * at(m.px(c.c), m.px_scale);
        count += c.n;
    }
    auto const last_trades = markets_.trades(m.index, 1);
    amount last = at(m.px(markets_.mark(m.index)), m.px_scale);
    amount last_qty;
    std::uint64_t last_id = 0;
    if (!last_trades.empty()) {
        last = at(m.px(last_trades.back().px), m.px_scale);
        last_qty = at(m.sz(last_trades.back().sz), m.sz_scale);
        last_id = last_trades.back().id;
    }
    if (first)
        open = high = low = last;
    amount const change = last - open;
    amount const percent = open.is_zero() ? amount{} : (change.times(100) / open).rounded(3);
    amount const vwap = volume.is_zero() ? last : (quote / volume).rounded(m.px_scale);
    std::uint64_t const first_id = last_id >= count ? last_id - count + 1 : 0;
    bool const spot = where == venue::spot;
    // The recorded spot ticker carries times and counts as strings, the futures one as numbers
    // (tests/fixtures/beta/ccxt-fetchTicker.json).
    auto number = [&](std::int64_t n) -> json::value {
        if (spot)
            return json::string(std::to_string(n));
        return n;
    };
    json::object o;
    o["symbol"] = m.symbol;
    o["priceChange"] = decimal_text(change, m.px_scale);
    o["priceChangePercent"] = decimal_text(percent, 3);
    o["weightedAvgPrice"] = decimal_text(vwap, spot ? 8 : m.px_scale);
    o["lastPrice"] = decimal_text(last, m.px_scale);
    o["lastQty"] = decimal_text(last_qty, m.sz_scale);
    o["openPrice"] = decimal_text(open, m.px_scale);
    o["highPrice"] = decimal_text(high, m.px_scale);
    o["lowPrice"] = decimal_text(low, m.px_scale);
    o["volume"] = decimal_text(volume, m.sz_scale);
    o["quoteVolume"] = decimal_text(quote, spot ? 8 : 2);
    o["openTime"] = number(now - day);
    o["closeTime"] = number(now);
    o["firstId"] = number(static_cast<std::int64_t>(first_id));
    o["lastId"] = number(static_cast<std::int64_t>(last_id));
    o["count"] = number(static_cast<std::int64_t>(count));
    if (spot) {
        auto const b = markets_.book(m.index, 1);
        o["baseAsset"] = m.base;
        o["quoteAsset"] = "USDT";
        auto level = [&](std::vector<book_level> const& side, char const* px_key,
                         char const* qty_key) {
            o[px_key] = side.empty() ? fixed(0, 0, m.px_scale)
                                     : fixed(m.px(side.front().px), m.px_scale, m.px_scale);
            o[qty_key] = side.empty() ? fixed(0, 0, m.sz_scale)
                                      : fixed(m.sz(side.front().sz), m.sz_scale, m.sz_scale);
        };
        level(b.bids, "bidPrice", "bidQty");
        level(b.asks, "askPrice", "askQty");
    }
    return o;
}

net::response market_data::ticker_24hr(venue where, query_params const& q, unsigned v) const {
    std::int64_t const now = now_ms();
    if (auto const symbol = query_get(q, "symbol")) {
        if (symbol->empty())
            return missing_param("symbol", v);
        auto const m = find(where, *symbol);
        if (!m)
            return invalid_symbol(v);
        return json_response(http::status::ok, ticker_24hr_item(where, *m, now), v);
    }
    json::array out;
    for (auto const& m : all(where))
        out.push_back(ticker_24hr_item(where, m, now));
    return json_response(http::status::ok, out, v);
}

json::object market_data::book_ticker_item(venue where, view const& m, std::int64_t now) const {
    auto const b = markets_.book(m.index, 1);
    json::object o;
    o["symbol"] = m.symbol;
    auto level = [&](std::vector<book_level> const& side, char const* px_key, char const* qty_key) {
        o[px_key] = side.empty() ? fixed(0, 0, m.px_scale)
                                 : fixed(m.px(side.front().px), m.px_scale, m.px_scale);
        o[qty_key] = side.empty() ? fixed(0, 0, m.sz_scale)
                                  : fixed(m.sz(side.front().sz), m.sz_scale, m.sz_scale);
    };
    level(b.bids, "bidPrice", "bidQty");
    level(b.asks, "askPrice", "askQty");
    o["time"] = now;
    if (where == venue::futures)
        o["lastUpdateId"] = update_base_ + static_cast<std::int64_t>(b.version) * 100;
    return o;
}

net::response market_data::book_ticker(venue where, query_params const& q, unsigned v) const {
    std::int64_t const now = now_ms();
    if (auto const symbol = query_get(q, "symbol")) {
        if (symbol->empty())
            return missing_param("symbol", v);
        auto const m = find(where, *symbol);
        if (!m)
            return invalid_symbol(v);
        return json_response(http::status::ok, book_ticker_item(where, *m, now), v);
    }
    json::array out;
    for (auto const& m : all(where))
        out.push_back(book_ticker_item(where, m, now));
    return json_response(http::status::ok, out, v);
}

// ---------------------------------------------------------------------------------------------
// premiumIndex, openInterest (futures only)

json::object market_data::premium_item(view const& m, std::int64_t now) const {
    std::string const mark =
        decimal_text(at(markets_.mark(m.index), markets_.spec(m.index).px_scale), 8);
    json::object o;
    o["symbol"] = m.symbol;
    o["markPrice"] = mark;
    o["indexPrice"] = mark;
    o["estimatedSettlePrice"] = mark;
    o["lastFundingRate"] = "0.00010000";
    o["interestRate"] = "0.00010000";
    o["nextFundingTime"] = (now / funding_period + 1) * funding_period;
    o["time"] = now;
    return o;
}

net::response market_data::premium_index(query_params const& q, unsigned v) const {
    std::int64_t const now = now_ms();
    if (auto const symbol = query_get(q, "symbol")) {
        if (symbol->empty())
            return missing_param("symbol", v);
        auto const m = find(venue::futures, *symbol);
        if (!m)
            return invalid_symbol(v);
        return json_response(http::status::ok, premium_item(*m, now), v);
    }
    json::array out;
    for (auto const& m : all(venue::futures))
        out.push_back(premium_item(m, now));
    return json_response(http::status::ok, out, v);
}

net::response market_data::open_interest(query_params const& q, unsigned v) const {
    auto const symbol = query_get(q, "symbol");
    if (!symbol || symbol->empty())
        return missing_param("symbol", v);
    auto const* p = find_perp(*symbol);
    if (!p)
        return invalid_symbol(v);
    amount const oi = at(p->open_interest, p->sz_scale) + ledger_.long_open_interest(*symbol);
    json::object o;
    o["openInterest"] = scaled_text(oi, p->sz_scale);
    o["symbol"] = p->symbol;
    o["time"] = now_ms();
    return json_response(http::status::ok, o, v);
}

} // namespace gateway::mocks::beta
