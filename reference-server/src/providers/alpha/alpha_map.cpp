// The alpha adapter's pure mappings: Hyperliquid `/info` answers -> contract types. The rules
// and the decisions the contract leaves open are listed in alpha_map.hpp.
#include "providers/alpha/alpha_map.hpp"

#include <gateway/types/fixed.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <utility>

namespace gateway::server::alpha {

namespace {

namespace json = boost::json;

// ---------------------------------------------------------------------------------------------
// Reading upstream bodies.

api_error unexpected(std::string_view what) {
    return make_error(errc::upstream_error,
                      "The upstream answered an unexpected shape for " + std::string(what) + ".");
}

api_error unexpected_field(std::string_view what, std::string_view field) {
    return make_error(errc::upstream_error, "The upstream answered an unexpected " +
                                                std::string(what) + " (field '" +
                                                std::string(field) + "').");
}

api_error too_large(std::string_view what, std::string_view field) {
    return make_error(errc::upstream_error, "The upstream answered " + std::string(what) +
                                                " values whose " + std::string(field) +
                                                " cannot be computed exactly.");
}

std::string item_name(std::string_view what, std::size_t i) {
    return std::string(what) + "[" + std::to_string(i) + "]";
}

bool all_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A non-negative integer: a JSON integer, or a string of decimal digits (ccxt's recordings).
std::optional<std::uint64_t> as_uint(json::value const& v) {
    if (v.is_uint64())
        return v.get_uint64();
    if (v.is_int64())
        return v.get_int64() < 0
                   ? std::nullopt
                   : std::optional<std::uint64_t>(static_cast<std::uint64_t>(v.get_int64()));
    if (v.is_string() && all_digits(v.get_string())) {
        std::string_view const s = v.get_string();
        std::uint64_t out = 0;
        auto const [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (ec == std::errc{} && p == s.data() + s.size())
            return out;
    }
    return std::nullopt;
}

/// A required id (`oid`, `tid`) as its decimal text.
bool id_field(json_fields& f, std::string_view key, std::string& out) {
    if (!f.ok())
        return false;
    auto const* v = f.raw(key);
    auto const n = v ? as_uint(*v) : std::nullopt;
    if (!n) {
        f.fail(key, {});
        return false;
    }
    out = std::to_string(*n);
    return true;
}

/// A required millisecond timestamp.
bool time_field(json_fields& f, std::string_view key, std::int64_t& out) {
    if (!f.ok())
        return false;
    auto const* v = f.raw(key);
    auto const n = v ? as_uint(*v) : std::nullopt;
    if (!n || *n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        f.fail(key, {});
        return false;
    }
    out = static_cast<std::int64_t>(*n);
    return true;
}

/// A small non-negative integer (`szDecimals`, `maxLeverage`, token indexes).
bool uint_field(json_fields& f, std::string_view key, unsigned& out) {
    if (!f.ok())
        return false;
    auto const* v = f.raw(key);
    auto const n = v ? as_uint(*v) : std::nullopt;
    if (!n || *n > 0xffffffffu) {
        f.fail(key, {});
        return false;
    }
    out = static_cast<unsigned>(*n);
    return true;
}

/// `"B"` buy, `"A"` sell (alpha.md §2).
bool side_field(json_fields& f, std::string_view key, side& out) {
    std::string text;
    if (!f.required(key, text))
        return false;
    if (text == "B")
        out = side::buy;
    else if (text == "A")
        out = side::sell;
    else {
        f.fail(key, {});
        return false;
    }
    return true;
}

/// The member `key` of `f` when it is of kind `k`, or nullptr (failure recorded).
json::value const* field_of_kind(json_fields& f, std::string_view key, json::kind k) {
    if (!f.ok())
        return nullptr;
    auto const* v = f.raw(key);
    if (!v || v->kind() != k) {
        f.fail(key, {});
        return nullptr;
    }
    return v;
}

/// The nested object `key` of `f`, read by a reader of its own, or nullptr (failure recorded).
json::value const* object_field(json_fields& f, std::string_view key) {
    return field_of_kind(f, key, json::kind::object);
}

json::array const* array_field(json_fields& f, std::string_view key) {
    auto const* v = field_of_kind(f, key, json::kind::array);
    return v ? &v->get_array() : nullptr;
}

/// Spot coins are `@N` or `BASE/QUOTE` (alpha.md §2); never a perps symbol.
bool is_spot_coin(std::string_view coin) {
    return coin.starts_with('@') || coin.find('/') != std::string_view::npos;
}

/// Newest first by `timestamp`; equal times keep the upstream's newest-first order (an answer
/// that runs oldest first is reversed before the stable sort).
template <class T>
void newest_first(std::vector<T>& items) {
    if (items.size() > 1 && items.front().timestamp < items.back().timestamp)
        std::reverse(items.begin(), items.end());
    std::stable_sort(items.begin(), items.end(),
                     [](T const& a, T const& b) { return a.timestamp > b.timestamp; });
}

/// One `assetPositions[i].position` as far as the account summary and positions need it.
struct upstream_position {
    std::string coin;
    decimal szi, entry_px, position_value, unrealized_pnl, margin_used, leverage;
    std::optional<decimal> liquidation_px;
};

result<upstream_position> read_position(json::value const& item, std::string const& what) {
    json_fields outer(item, strictness::upstream, what);
    auto const* pos = object_field(outer, "position");
    if (auto ok = outer.finish(); !ok)
        return ok.error();
    std::string const inner_what = what + ".position";
    json_fields f(*pos, strictness::upstream, inner_what);
    upstream_position p;
    f.required("coin", p.coin);
    f.required("szi", p.szi);
    f.required("entryPx", p.entry_px);
    f.required("positionValue", p.position_value);
    f.required("unrealizedPnl", p.unrealized_pnl);
    f.optional("liquidationPx", p.liquidation_px);
    f.required("marginUsed", p.margin_used);
    if (auto const* lev = object_field(f, "leverage")) {
        json_fields l(*lev, strictness::upstream, inner_what + ".leverage");
        l.required("value", p.leverage);
        if (auto ok = l.finish(); !ok)
            return ok.error();
    }
    if (auto ok = f.finish(); !ok)
        return ok.error();
    return p;
}

/// `assetPositions` of one clearinghouseState.
result<std::vector<upstream_position>> read_positions(json::value const& state,
                                                      std::string const& what) {
    json_fields f(state, strictness::upstream, what);
    auto const* list = array_field(f, "assetPositions");
    if (auto ok = f.finish(); !ok)
        return ok.error();
    std::vector<upstream_position> out;
    out.reserve(list->size());
    for (std::size_t i = 0; i < list->size(); ++i) {
        auto p = read_position((*list)[i], item_name(what + ".assetPositions", i));
        if (!p)
            return p.error();
        out.push_back(std::move(*p));
    }
    return out;
}

/// A sum of decimals that fails cleanly instead of rounding or overflowing.
struct exact_sum {
    decimal total;
    bool ok = true;
    void add(decimal const& d) {
        if (!ok)
            return;
        auto s = exact_add(total, d);
        ok = s.has_value();
        if (s)
            total = std::move(*s);
    }
};

/// One market of a dex's metaAndAssetCtxs.
struct market_ctx {
    perp_market market;
    decimal mark_px;
    decimal open_interest;
};

result<std::vector<market_ctx>> read_meta_and_ctxs(json::value const& v, perp_dex const& d) {
    constexpr std::string_view what = "alpha metaAndAssetCtxs";
    auto const* pair = v.if_array();
    if (!pair || pair->size() < 2 || !(*pair)[1].is_array())
        return unexpected(what);
    auto markets = parse_meta((*pair)[0], d.name, d.index);
    if (!markets)
        return markets.error();
    auto const& ctxs = (*pair)[1].get_array();
    if (ctxs.size() != markets->size())
        return make_error(errc::upstream_error,
                          "The upstream answered alpha metaAndAssetCtxs with " +
                              std::to_string(ctxs.size()) + " asset contexts for " +
                              std::to_string(markets->size()) + " markets.");
    std::vector<market_ctx> out;
    out.reserve(ctxs.size());
    for (std::size_t i = 0; i < ctxs.size(); ++i) {
        json_fields f(ctxs[i], strictness::upstream, item_name(std::string(what) + " ctxs", i));
        market_ctx m{std::move((*markets)[i]), {}, {}};
        f.required("markPx", m.mark_px);
        f.required("openInterest", m.open_interest);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// universe

perp_market const* universe::find_perp(std::string_view symbol) const {
    for (auto const& m : perps)
        if (m.symbol == symbol)
            return &m;
    return nullptr;
}

spot_market const* universe::find_spot(std::string_view symbol) const {
    for (auto const& m : spot)
        if (m.symbol == symbol)
            return &m;
    return nullptr;
}

spot_market const* universe::find_spot_coin(std::string_view coin) const {
    for (auto const& m : spot)
        if (m.coin == coin)
            return &m;
    return nullptr;
}

perp_dex const* universe::find_dex(std::string_view name) const {
    for (auto const& d : dexes)
        if (d.name == name)
            return &d;
    return nullptr;
}

std::size_t universe::market_count(std::string_view dex) const {
    return static_cast<std::size_t>(std::count_if(
        perps.begin(), perps.end(), [&](auto const& m) { return m.dex == dex && !m.delisted; }));
}

// ---------------------------------------------------------------------------------------------
// Universe bodies

result<std::vector<perp_dex>> parse_perp_dexs(json::value const& v) {
    constexpr std::string_view what = "alpha perpDexs";
    auto const* arr = v.if_array();
    if (!arr)
        return unexpected(what);
    std::vector<perp_dex> out;
    // Element 0 is the main dex (`null`); a builder dex's index is its position.
    for (std::size_t i = 1; i < arr->size(); ++i) {
        if ((*arr)[i].is_null())
            continue;
        json_fields f((*arr)[i], strictness::upstream, item_name(what, i));
        perp_dex d;
        std::optional<std::string> full_name;
        f.required("name", d.name);
        f.optional("fullName", full_name);
        f.required("deployer", d.deployer);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (d.name.empty())
            return unexpected_field(item_name(what, i), "name");
        d.full_name = full_name.value_or("");
        d.index = static_cast<std::uint32_t>(i);
        out.push_back(std::move(d));
    }
    return out;
}

result<std::vector<perp_market>> parse_meta(json::value const& meta, std::string_view dex,
                                            std::uint32_t dex_index) {
    std::string const what = dex.empty() ? "alpha meta" : "alpha meta of dex " + std::string(dex);
    json_fields top(meta, strictness::upstream, what);
    auto const* list = array_field(top, "universe");
    if (auto ok = top.finish(); !ok)
        return ok.error();
    if (dex_index > 0 && list->size() > 10000)
        return make_error(errc::upstream_error, "The upstream answered " + what + " with " +
                                                    std::to_string(list->size()) +
                                                    " markets; asset ids allow 10000 per dex.");
    std::string const prefix = dex.empty() ? std::string() : std::string(dex) + ":";
    std::vector<perp_market> out;
    out.reserve(list->size());
    for (std::size_t i = 0; i < list->size(); ++i) {
        json_fields f((*list)[i], strictness::upstream, item_name(what + ".universe", i));
        perp_market m;
        std::optional<std::string> margin_mode;
        f.required("name", m.symbol);
        uint_field(f, "szDecimals", m.sz_decimals);
        uint_field(f, "maxLeverage", m.max_leverage);
        f.with_default("onlyIsolated", m.only_isolated);
        f.with_default("isDelisted", m.delisted);
        f.optional("marginMode", margin_mode);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        if (m.symbol.empty())
            return unexpected_field(item_name(what + ".universe", i), "name");
        if (!prefix.empty() && !m.symbol.starts_with(prefix))
            m.symbol.insert(0, prefix);
        if (margin_mode == "strictIsolated" || margin_mode == "noCross")
            m.only_isolated = true;
        m.dex = std::string(dex);
        auto const index = static_cast<std::uint32_t>(i);
        m.asset = dex_index == 0 ? index : 100000 + dex_index * 10000 + index;
        out.push_back(std::move(m));
    }
    return out;
}

result<std::vector<spot_market>> parse_spot_meta(json::value const& v) {
    constexpr std::string_view what = "alpha spotMeta";
    json_fields top(v, strictness::upstream, what);
    auto const* tokens = array_field(top, "tokens");
    auto const* pairs = array_field(top, "universe");
    if (auto ok = top.finish(); !ok)
        return ok.error();

    struct token {
        unsigned index = 0;
        std::string name;
        unsigned sz_decimals = 0;
    };
    std::vector<token> known;
    known.reserve(tokens->size());
    for (std::size_t i = 0; i < tokens->size(); ++i) {
        json_fields f((*tokens)[i], strictness::upstream,
                      item_name(std::string(what) + ".tokens", i));
        token t;
        f.required("name", t.name);
        uint_field(f, "index", t.index);
        uint_field(f, "szDecimals", t.sz_decimals);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        known.push_back(std::move(t));
    }
    auto const find_token = [&](unsigned index) -> token const* {
        for (auto const& t : known)
            if (t.index == index)
                return &t;
        return nullptr;
    };

    std::vector<spot_market> out;
    out.reserve(pairs->size());
    for (std::size_t i = 0; i < pairs->size(); ++i) {
        std::string const item = item_name(std::string(what) + ".universe", i);
        json_fields f((*pairs)[i], strictness::upstream, item);
        spot_market m;
        unsigned index = 0;
        f.required("name", m.coin);
        uint_field(f, "index", index);
        auto const* pair_tokens = array_field(f, "tokens");
        if (auto ok = f.finish(); !ok)
            return ok.error();
        auto const base = pair_tokens->size() == 2 ? as_uint((*pair_tokens)[0]) : std::nullopt;
        auto const quote = pair_tokens->size() == 2 ? as_uint((*pair_tokens)[1]) : std::nullopt;
        token const* b =
            base && *base <= 0xffffffffu ? find_token(static_cast<unsigned>(*base)) : nullptr;
        token const* q =
            quote && *quote <= 0xffffffffu ? find_token(static_cast<unsigned>(*quote)) : nullptr;
        if (!b || !q || index >= 90000)
            return unexpected_field(item, !b || !q ? "tokens" : "index");
        m.base = b->name;
        m.quote = q->name;
        m.symbol = m.base + "/" + m.quote;
        m.sz_decimals = b->sz_decimals;
        m.asset = 10000 + index;
        out.push_back(std::move(m));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Market data

result<price_map> to_prices(json::value const& all_mids) {
    constexpr std::string_view what = "alpha allMids";
    auto const* obj = all_mids.if_object();
    if (!obj)
        return unexpected(what);
    price_map out;
    for (auto const& kv : *obj) {
        std::string_view const coin = kv.key();
        if (is_spot_coin(coin))
            continue; // CONTRACT §1: the prices map holds perps symbols only
        auto price = decimal::from_json_lenient(kv.value());
        if (!price)
            return unexpected_field(what, coin);
        out.emplace(std::string(coin), std::move(*price));
    }
    return out;
}

result<price_map> to_spot_prices(json::value const& all_mids, universe const& u) {
    constexpr std::string_view what = "alpha allMids";
    auto const* obj = all_mids.if_object();
    if (!obj)
        return unexpected(what);
    price_map out;
    for (auto const& kv : *obj) {
        auto const* m = u.find_spot_coin(kv.key());
        if (!m)
            continue; // a perps coin, or a pair the universe does not list
        auto price = decimal::from_json_lenient(kv.value());
        if (!price)
            return unexpected_field(what, kv.key());
        out.emplace(m->symbol, std::move(*price));
    }
    return out;
}

result<std::vector<trade>> to_trades(json::value const& recent_trades, std::size_t limit) {
    constexpr std::string_view what = "alpha recentTrades";
    auto const* arr = recent_trades.if_array();
    if (!arr)
        return unexpected(what);
    std::vector<trade> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        json_fields f((*arr)[i], strictness::upstream, item_name(what, i));
        trade t;
        id_field(f, "tid", t.id);
        f.required("px", t.price);
        f.required("sz", t.size);
        side_field(f, "side", t.side);
        time_field(f, "time", t.timestamp);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        out.push_back(std::move(t));
    }
    newest_first(out);
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

result<std::vector<candle>> to_candles(json::value const& candle_snapshot) {
    constexpr std::string_view what = "alpha candleSnapshot";
    auto const* arr = candle_snapshot.if_array();
    if (!arr)
        return unexpected(what);
    std::vector<candle> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        json_fields f((*arr)[i], strictness::upstream, item_name(what, i));
        candle c;
        time_field(f, "t", c.timestamp);
        f.required("o", c.open);
        f.required("h", c.high);
        f.required("l", c.low);
        f.required("c", c.close);
        f.required("v", c.volume);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](candle const& a, candle const& b) { return a.timestamp < b.timestamp; });
    return out;
}

result<orderbook> to_orderbook(json::value const& l2_book, std::string const& symbol,
                               std::size_t depth) {
    constexpr std::string_view what = "alpha l2Book";
    if (l2_book.is_null()) // the upstream's answer for a coin it does not know
        return make_error(errc::market_not_found, "Unknown market '" + symbol + "' on alpha.");
    json_fields f(l2_book, strictness::upstream, what);
    orderbook book;
    book.symbol = symbol;
    auto const* levels = array_field(f, "levels");
    time_field(f, "time", book.timestamp);
    if (auto ok = f.finish(); !ok)
        return ok.error();
    if (levels->size() < 2 || !(*levels)[0].is_array() || !(*levels)[1].is_array())
        return unexpected_field(what, "levels");
    for (std::size_t s = 0; s < 2; ++s) {
        auto const& side_levels = (*levels)[s].get_array();
        auto& into = s == 0 ? book.bids : book.asks;
        std::string const side_what = std::string(what) + (s == 0 ? ".levels[0]" : ".levels[1]");
        for (std::size_t i = 0; i < side_levels.size() && into.size() < depth; ++i) {
            json_fields l(side_levels[i], strictness::upstream, item_name(side_what, i));
            book_level level;
            l.required("px", level.price);
            l.required("sz", level.size);
            if (auto ok = l.finish(); !ok)
                return ok.error();
            into.push_back(std::move(level));
        }
    }
    return book;
}

// ---------------------------------------------------------------------------------------------
// Account

result<account_summary> to_account_summary(std::vector<json::value> const& clearinghouse_states) {
    exact_sum equity, used, available, total_ntl, upnl;
    for (std::size_t k = 0; k < clearinghouse_states.size(); ++k) {
        std::string const what = clearinghouse_states.size() == 1
                                     ? std::string("alpha clearinghouseState")
                                     : item_name("alpha clearinghouseState", k);
        auto const& state = clearinghouse_states[k];
        json_fields f(state, strictness::upstream, what);
        decimal withdrawable;
        f.required("withdrawable", withdrawable);
        auto const* ms = object_field(f, "marginSummary");
        if (auto ok = f.finish(); !ok)
            return ok.error();
        json_fields m(*ms, strictness::upstream, what + ".marginSummary");
        decimal account_value, margin_used, ntl_pos;
        m.required("accountValue", account_value);
        m.required("totalMarginUsed", margin_used);
        m.required("totalNtlPos", ntl_pos);
        if (auto ok = m.finish(); !ok)
            return ok.error();
        auto positions = read_positions(state, what);
        if (!positions)
            return positions.error();
        equity.add(account_value);
        used.add(margin_used);
        available.add(withdrawable);
        total_ntl.add(ntl_pos);
        for (auto const& p : *positions)
            upnl.add(p.unrealized_pnl);
    }
    if (!equity.ok || !used.ok || !available.ok || !total_ntl.ok || !upnl.ok)
        return too_large("alpha clearinghouseState", "account sum");
    return account_summary{equity.total, available.total, used.total, upnl.total, total_ntl.total};
}

result<std::vector<position>> to_positions(json::value const& clearinghouse_state,
                                           universe const& u) {
    std::string const what = "alpha clearinghouseState";
    auto positions = read_positions(clearinghouse_state, what);
    if (!positions)
        return positions.error();
    std::vector<position> out;
    out.reserve(positions->size());
    for (auto& p : *positions) {
        if (p.szi.is_zero())
            continue; // no open position
        position o;
        o.symbol = p.coin;
        o.side = p.szi.is_negative() ? position_side::short_ : position_side::long_;
        o.size = p.szi.abs();
        o.entry_price = std::move(p.entry_px);
        // Perps prices carry at most 6 - szDecimals decimals (alpha.md §5.5).
        auto const* market = u.find_perp(p.coin);
        unsigned const sz_decimals = market ? market->sz_decimals : 0;
        unsigned const px_decimals = sz_decimals < 6 ? 6 - sz_decimals : 0;
        auto mark = exact_div(p.position_value.abs(), o.size, px_decimals);
        if (!mark)
            return too_large(what, "markPrice of " + p.coin);
        o.mark_price = std::move(*mark);
        o.unrealized_pnl = std::move(p.unrealized_pnl);
        o.leverage = std::move(p.leverage);
        o.liquidation_price = p.liquidation_px.value_or(decimal());
        o.margin = std::move(p.margin_used);
        out.push_back(std::move(o));
    }
    return out;
}

result<std::vector<open_order>> to_open_orders(json::value const& frontend_open_orders) {
    constexpr std::string_view what = "alpha frontendOpenOrders";
    auto const* arr = frontend_open_orders.if_array();
    if (!arr)
        return unexpected(what);
    std::vector<open_order> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        std::string const item = item_name(what, i);
        json_fields f((*arr)[i], strictness::upstream, item);
        open_order o;
        decimal limit_px, remaining;
        std::optional<decimal> orig_sz, trigger_px;
        std::optional<std::string> order_type, trigger_condition;
        bool is_trigger = false;
        id_field(f, "oid", o.order_id);
        f.optional("cloid", o.client_order_id);
        f.required("coin", o.symbol);
        side_field(f, "side", o.side);
        f.required("limitPx", limit_px);
        f.required("sz", remaining);
        f.optional("origSz", orig_sz);
        f.optional("orderType", order_type);
        f.with_default("isTrigger", is_trigger);
        f.optional("triggerPx", trigger_px);
        f.optional("triggerCondition", trigger_condition);
        f.with_default("reduceOnly", o.reduce_only);
        time_field(f, "timestamp", o.timestamp);
        if (auto ok = f.finish(); !ok)
            return ok.error();

        std::string_view const name = order_type ? std::string_view(*order_type) : "Limit";
        if (name == "Limit")
            o.type = order_type::limit;
        else if (name == "Market")
            o.type = order_type::market;
        else if (name == "Stop Market" || name == "Take Profit Market")
            o.type = order_type::stop_market;
        else if (name == "Stop Limit" || name == "Take Profit Limit")
            o.type = order_type::stop_limit;
        else // Twap Slice, Vault Close, Spot Dust Conversion, names yet to come
            o.type = is_trigger ? order_type::stop_limit : order_type::limit;

        // A trigger order that fired is reported with isTrigger false and this condition.
        bool const triggered = trigger_condition == "Triggered";
        o.status = triggered ? open_order_status::triggered : open_order_status::open;
        if (o.type != order_type::market && o.type != order_type::stop_market)
            o.price = std::move(limit_px);
        if (is_trigger || triggered) {
            if (!trigger_px)
                return unexpected_field(item, "triggerPx");
            o.trigger_price = std::move(*trigger_px);
        }
        o.size = orig_sz.value_or(remaining);
        auto filled = exact_sub(o.size, remaining);
        if (!filled)
            return too_large(item, "filled size");
        if (filled->is_negative())
            return unexpected_field(item, "sz");
        o.filled_size = std::move(*filled);
        out.push_back(std::move(o));
    }
    return out;
}

result<std::vector<fill>> to_fills(json::value const& user_fills, universe const& u) {
    constexpr std::string_view what = "alpha userFills";
    auto const* arr = user_fills.if_array();
    if (!arr)
        return unexpected(what);
    std::vector<fill> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        json_fields f((*arr)[i], strictness::upstream, item_name(what, i));
        fill x;
        f.required("coin", x.symbol);
        if (f.ok() && (is_spot_coin(x.symbol) || u.find_spot_coin(x.symbol)))
            continue; // spot fills are not perps fills
        std::optional<std::string> fee_token, dir;
        std::optional<decimal> closed_pnl;
        bool crossed = false;
        id_field(f, "tid", x.id);
        id_field(f, "oid", x.order_id);
        side_field(f, "side", x.side);
        f.required("px", x.price);
        f.required("sz", x.size);
        f.required("fee", x.fee);
        f.optional("feeToken", fee_token);
        f.required("crossed", crossed);
        f.optional("dir", dir);
        f.optional("closedPnl", closed_pnl);
        time_field(f, "time", x.timestamp);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        // Fee token: USDC when absent (fills recorded before the field existed).
        x.fee_asset = fee_token.value_or("USDC");
        x.liquidity = crossed ? liquidity::taker : liquidity::maker;
        bool const opening = dir && dir->starts_with("Open");
        if (!opening) {
            if (!closed_pnl)
                return unexpected_field(item_name(what, i), "closedPnl");
            x.closed_pnl = std::move(closed_pnl);
        }
        out.push_back(std::move(x));
    }
    newest_first(out);
    return out;
}

result<std::vector<spot_balance>> to_spot_balances(json::value const& spot_clearinghouse_state) {
    constexpr std::string_view what = "alpha spotClearinghouseState";
    json_fields top(spot_clearinghouse_state, strictness::upstream, what);
    auto const* list = array_field(top, "balances");
    if (auto ok = top.finish(); !ok)
        return ok.error();
    std::vector<spot_balance> out;
    out.reserve(list->size());
    for (std::size_t i = 0; i < list->size(); ++i) {
        std::string const item = item_name(std::string(what) + ".balances", i);
        json_fields f((*list)[i], strictness::upstream, item);
        spot_balance b;
        f.required("coin", b.asset);
        f.required("total", b.total);
        f.required("hold", b.locked);
        if (auto ok = f.finish(); !ok)
            return ok.error();
        auto available = exact_sub(b.total, b.locked);
        if (!available)
            return too_large(item, "available balance");
        b.available = std::move(*available);
        out.push_back(std::move(b));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// rwas dexes

result<std::vector<dex>> to_dexes(universe const& u) {
    std::vector<dex> out;
    out.reserve(u.dexes.size());
    for (auto const& d : u.dexes)
        out.push_back(dex{d.name, d.deployer, static_cast<std::int64_t>(u.market_count(d.name)),
                          d.full_name.empty() ? d.name : d.full_name});
    return out;
}

result<dex_detail> to_dex_detail(perp_dex const& d, json::value const& meta_and_asset_ctxs,
                                 universe const& u) {
    auto markets = read_meta_and_ctxs(meta_and_asset_ctxs, d);
    if (!markets)
        return markets.error();
    dex_detail out;
    // The list fields come from the universe, as in the list, so list and detail agree.
    out.name = d.name;
    out.deployer = d.deployer;
    out.market_count = static_cast<std::int64_t>(u.market_count(d.name));
    out.description = d.full_name.empty() ? d.name : d.full_name;
    for (auto& m : *markets) {
        if (m.market.delisted)
            continue;
        out.markets.push_back(dex_market{std::move(m.market.symbol), m.market.max_leverage,
                                         m.market.sz_decimals, std::move(m.mark_px),
                                         std::move(m.open_interest)});
    }
    return out;
}

result<dex_status> to_dex_status(perp_dex const& d, json::value const& perp_dex_status,
                                 json::value const& meta_and_asset_ctxs, std::int64_t now_ms) {
    dex_status out;
    out.name = d.name;
    out.checked_at = now_ms;
    json_fields f(perp_dex_status, strictness::upstream, "alpha perpDexStatus");
    f.required("totalNetDeposit", out.total_net_deposit);
    if (auto ok = f.finish(); !ok)
        return ok.error();
    auto markets = read_meta_and_ctxs(meta_and_asset_ctxs, d);
    if (!markets)
        return markets.error();
    bool const any_listed = std::any_of(markets->begin(), markets->end(),
                                        [](market_ctx const& m) { return !m.market.delisted; });
    out.status = any_listed ? dex_state::active : dex_state::halted;
    exact_sum notional;
    for (auto const& m : *markets) {
        auto const n = exact_mul(m.open_interest, m.mark_px);
        if (!n)
            return too_large("alpha metaAndAssetCtxs", "open interest notional");
        notional.add(*n);
    }
    if (!notional.ok)
        return too_large("alpha metaAndAssetCtxs", "open interest notional");
    out.open_interest = std::move(notional.total);
    return out;
}

std::string_view upstream_interval(interval i) {
    // candleSnapshot spells each of the API's intervals as the API does (alpha.md §3.10).
    return to_string(i);
}

std::optional<decimal> to_filled_size(json::value const& order_status) {
    auto const* top = order_status.if_object();
    if (!top)
        return std::nullopt;
    auto const* wrapper = top->if_contains("order");
    if (!wrapper || !wrapper->is_object())
        return std::nullopt;
    auto const* order = wrapper->get_object().if_contains("order");
    if (!order || !order->is_object())
        return std::nullopt;
    auto const* orig = order->get_object().if_contains("origSz");
    auto const* left = order->get_object().if_contains("sz");
    auto const o = orig ? decimal::from_json_lenient(*orig) : std::nullopt;
    auto const l = left ? decimal::from_json_lenient(*left) : std::nullopt;
    if (!o || !l)
        return std::nullopt;
    return exact_sub(*o, *l);
}

std::optional<decimal> average_fill_price(json::value const& user_fills, std::string_view oid) {
    auto const* arr = user_fills.if_array();
    if (!arr)
        return std::nullopt;
    std::optional<decimal> notional = decimal{}, size = decimal{};
    for (auto const& f : *arr) {
        auto const* o = f.if_object();
        auto const* id = o ? o->if_contains("oid") : nullptr;
        if (!id)
            continue;
        std::string const text = id->is_string()   ? std::string(id->get_string())
                                 : id->is_uint64() ? std::to_string(id->get_uint64())
                                 : id->is_int64()  ? std::to_string(id->get_int64())
                                                   : std::string();
        if (text != oid)
            continue;
        auto const* px = o->if_contains("px");
        auto const* sz = o->if_contains("sz");
        auto const p = px ? decimal::from_json_lenient(*px) : std::nullopt;
        auto const q = sz ? decimal::from_json_lenient(*sz) : std::nullopt;
        if (!p || !q)
            return std::nullopt;
        auto const pq = exact_mul(*p, *q);
        notional = notional && pq ? exact_add(*notional, *pq) : std::nullopt;
        size = size ? exact_add(*size, *q) : std::nullopt;
    }
    if (!notional || !size || size->is_zero())
        return std::nullopt;
    return exact_div(*notional, *size, 10);
}

} // namespace gateway::server::alpha
