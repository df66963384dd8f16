// The gamma provider's pure mappings: Gamma catalog and CLOB answers -> contract types. The rules
// and the decisions the contract leaves open are listed in gamma_map.hpp.
#include "providers/gamma/gamma_map.hpp"

#include "providers/gamma/gamma_trading.hpp"

#include <gateway/providers/gamma/errors.hpp>
#include <gateway/util/time.hpp>

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <charconv>
#include <unordered_set>

namespace gateway::server::gamma {

namespace {

namespace json = boost::json;
namespace w = wire::gamma;

api_error map_unexpected(std::string_view what) {
    return make_error(errc::upstream_error, "The gamma upstream answered an unexpected shape for " +
                                                std::string(what) + ".");
}

/// `o[key]` when it is a bool, else nullopt.
std::optional<bool> flag(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (v && v->is_bool())
        return v->get_bool();
    return std::nullopt;
}

/// `o[key]` when it is a non-empty string, else nullopt.
std::optional<std::string_view> text(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (v && v->is_string() && !v->get_string().empty())
        return std::string_view(v->get_string());
    return std::nullopt;
}

/// An id (`"550834"`, or a JSON integer) as text, else nullopt.
std::optional<std::string> id_of(json::object const& o) {
    auto const* v = o.if_contains("id");
    if (!v)
        return std::nullopt;
    if (v->is_string() && !v->get_string().empty())
        return std::string(v->get_string());
    if (v->is_int64() && v->get_int64() >= 0)
        return std::to_string(v->get_int64());
    if (v->is_uint64())
        return std::to_string(v->get_uint64());
    return std::nullopt;
}

/// The first of `keys` that reads as a decimal (string or number), else zero.
decimal number_of(json::object const& o, std::initializer_list<std::string_view> keys) {
    for (auto key : keys)
        if (auto const* v = o.if_contains(key))
            if (auto d = decimal::from_json_lenient(*v))
                return *d;
    return decimal{};
}

/// Digits in [p, p + n) of `s` as a number, else nullopt.
std::optional<int> digits_at(std::string_view s, std::size_t p, std::size_t n) {
    if (p + n > s.size())
        return std::nullopt;
    int out = 0;
    for (std::size_t i = p; i < p + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return std::nullopt;
        out = out * 10 + (s[i] - '0');
    }
    return out;
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    std::int64_t const era = (y >= 0 ? y : y - 399) / 400;
    auto const yoe = static_cast<unsigned>(y - era * 400);
    unsigned const doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

/// Whether outcome prices show a settlement: one "1" and the rest "0", or all "0.5" (void).
bool settled(std::vector<std::string> const& prices) {
    if (prices.size() < 2)
        return false;
    std::size_t ones = 0, zeros = 0, halves = 0;
    for (auto const& p : prices) {
        auto const d = decimal::parse_lenient(p);
        if (!d)
            return false;
        ones += d->str() == "1" ? 1 : 0;
        zeros += d->is_zero() ? 1 : 0;
        halves += d->str() == "0.5" ? 1 : 0;
    }
    return (ones == 1 && zeros == prices.size() - 1) || (prices.size() == 2 && halves == 2);
}

/// The string list at `o[key]`, or empty.
std::vector<std::string> list_at(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (!v)
        return {};
    return string_list(*v).value_or(std::vector<std::string>{});
}

/// The upstream time at `o[key]` as ms, if it reads as one.
std::optional<std::int64_t> time_at(json::object const& o, std::string_view key) {
    auto const t = text(o, key);
    return t ? parse_time(*t) : std::nullopt;
}

/// One side of a `/book`: levels read, sorted best first (`bids` high to low).
result<std::vector<book_level>> book_side(json::object const& book, std::string_view name,
                                          bool bids) {
    auto const* side = book.if_contains(name);
    if (!side)
        return std::vector<book_level>{}; // an empty side may be left out
    if (!side->is_array())
        return map_unexpected("book " + std::string(name));
    std::vector<book_level> out;
    auto const& items = side->get_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
        auto const* l = items[i].if_object();
        std::optional<decimal> px, sz;
        if (l) {
            if (auto const* p = l->if_contains("price"))
                px = decimal::from_json_lenient(*p);
            if (auto const* s = l->if_contains("size"))
                sz = decimal::from_json_lenient(*s);
        }
        if (!px || !sz)
            return map_unexpected("book " + std::string(name) + "[" + std::to_string(i) + "]");
        if (!sz->is_zero())
            out.push_back({std::move(*px), std::move(*sz)});
    }
    std::stable_sort(out.begin(), out.end(), [bids](book_level const& a, book_level const& b) {
        return bids ? a.price > b.price : a.price < b.price;
    });
    return out;
}

} // namespace

std::optional<std::int64_t> parse_time(std::string_view s) {
    // Date: YYYY-MM-DD.
    auto const year = digits_at(s, 0, 4);
    auto const month = digits_at(s, 5, 2);
    auto const day = digits_at(s, 8, 2);
    if (!year || !month || !day || s[4] != '-' || s[7] != '-' || *month < 1 || *month > 12 ||
        *day < 1 || *day > 31)
        return std::nullopt;
    std::int64_t ms =
        days_from_civil(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day)) *
        86400000;
    std::size_t p = 10;
    if (p == s.size())
        return ms;
    // Time: [T ]HH:MM[:SS[.fraction]].
    if (s[p] != 'T' && s[p] != ' ')
        return std::nullopt;
    auto const hour = digits_at(s, p + 1, 2);
    auto const minute = digits_at(s, p + 4, 2);
    if (!hour || !minute || s[p + 3] != ':' || *hour > 23 || *minute > 59)
        return std::nullopt;
    ms += (std::int64_t{*hour} * 3600 + std::int64_t{*minute} * 60) * 1000;
    p += 6;
    if (p < s.size() && s[p] == ':') {
        auto const second = digits_at(s, p + 1, 2);
        if (!second || *second > 60)
            return std::nullopt;
        ms += std::int64_t{*second} * 1000;
        p += 3;
        if (p < s.size() && s[p] == '.') {
            std::size_t digits = 0;
            int milli = 0;
            for (++p; p < s.size() && s[p] >= '0' && s[p] <= '9'; ++p, ++digits)
                if (digits < 3)
                    milli = milli * 10 + (s[p] - '0');
            if (digits == 0)
                return std::nullopt;
            for (std::size_t d = digits; d < 3; ++d)
                milli *= 10;
            ms += milli;
        }
    }
    // Zone: none (UTC), Z, or +HH[:MM] / +HHMM / -...
    if (p == s.size() || (s[p] == 'Z' && p + 1 == s.size()))
        return ms;
    if (s[p] != '+' && s[p] != '-')
        return std::nullopt;
    int const sign = s[p] == '+' ? 1 : -1;
    auto const oh = digits_at(s, p + 1, 2);
    if (!oh)
        return std::nullopt;
    int om = 0;
    std::size_t const rest = p + 3;
    if (rest < s.size()) {
        std::size_t const at = s[rest] == ':' ? rest + 1 : rest;
        auto const m = digits_at(s, at, 2);
        if (!m || at + 2 != s.size())
            return std::nullopt;
        om = *m;
    }
    if (*oh > 23 || om > 59)
        return std::nullopt;
    return ms - sign * (std::int64_t{*oh} * 3600 + std::int64_t{om} * 60) * 1000;
}

std::optional<std::vector<std::string>> string_list(json::value const& v) {
    json::value parsed;
    json::value const* list = &v;
    if (v.is_string()) {
        boost::system::error_code ec;
        parsed = json::parse(v.get_string(), ec);
        if (ec)
            return std::nullopt;
        list = &parsed;
    }
    if (!list->is_array())
        return std::nullopt;
    std::vector<std::string> out;
    for (auto const& item : list->get_array()) {
        if (item.is_string()) {
            out.emplace_back(item.get_string());
        } else if (auto d = decimal::from_json_lenient(item)) {
            out.push_back(d->str());
        } else {
            return std::nullopt;
        }
    }
    return out;
}

market_status market_status_of(json::object const& m, std::int64_t now_ms) {
    bool const closed = flag(m, "closed").value_or(false);
    if (closed) {
        auto const uma = text(m, "umaResolutionStatus");
        if ((uma && *uma == "resolved") || settled(list_at(m, "outcomePrices")))
            return market_status::resolved;
        return market_status::closed;
    }
    if (flag(m, "archived").value_or(false) || !flag(m, "active").value_or(true))
        return market_status::closed;
    if (!flag(m, "acceptingOrders").value_or(true)) {
        auto const end = time_at(m, "endDate");
        if (end && *end < now_ms)
            return market_status::closed;
    }
    return market_status::active;
}

market_status event_status_of(json::object const& e, std::vector<catalog_market> const& markets) {
    auto const all = [&](auto pred) {
        return !markets.empty() && std::all_of(markets.begin(), markets.end(), pred);
    };
    if (all([](catalog_market const& m) { return m.market.status == market_status::resolved; }))
        return market_status::resolved;
    if (flag(e, "closed").value_or(false) || flag(e, "archived").value_or(false) ||
        !flag(e, "active").value_or(true) ||
        all([](catalog_market const& m) { return m.market.status != market_status::active; }))
        return market_status::closed;
    return market_status::active;
}

std::string category_of(json::object const& e) {
    if (auto c = text(e, "category"))
        return std::string(*c);
    if (auto const* tags = e.if_contains("tags"); tags && tags->is_array())
        for (auto const& t : tags->get_array())
            if (auto const* o = t.if_object())
                if (auto label = text(*o, "label"))
                    return std::string(*label);
    return {};
}

result<catalog_market> parse_market(json::value const& v, std::string_view parent_event_id,
                                    std::int64_t now_ms) {
    auto const* o = v.if_object();
    auto id = o ? id_of(*o) : std::nullopt;
    if (!id)
        return map_unexpected("a market (no id)");
    catalog_market out;
    auto& m = out.market;
    m.market_id = std::move(*id);
    m.question = std::string(text(*o, "question").value_or(""));
    m.event_id = std::string(parent_event_id);
    if (auto const* events = o->if_contains("events"); events && events->is_array())
        for (auto const& e : events->get_array())
            if (auto const* eo = e.if_object())
                if (auto eid = id_of(*eo)) {
                    m.event_id = std::move(*eid);
                    break;
                }
    m.outcomes = list_at(*o, "outcomes");
    m.status = market_status_of(*o, now_ms);
    m.volume = number_of(*o, {"volumeNum", "volume"});
    auto const token_ids = list_at(*o, "clobTokenIds");
    auto const prices = list_at(*o, "outcomePrices");
    for (std::size_t i = 0; i < m.outcomes.size() && i < token_ids.size(); ++i) {
        prediction_token t;
        t.token_id = token_ids[i];
        t.outcome = m.outcomes[i];
        if (i < prices.size())
            t.price = decimal::parse_lenient(prices[i]).value_or(decimal{});
        m.tokens.push_back(std::move(t));
    }
    out.on_book = !flag(*o, "closed").value_or(false) &&
                  flag(*o, "enableOrderBook").value_or(true) && !m.tokens.empty();
    return out;
}

result<catalog_event> parse_event(json::value const& v, std::int64_t now_ms) {
    auto const* o = v.if_object();
    auto id = o ? id_of(*o) : std::nullopt;
    if (!id)
        return map_unexpected("an event (no id)");
    catalog_event out;
    out.event_id = std::move(*id);
    out.title = std::string(text(*o, "title").value_or(""));
    out.category = category_of(*o);
    out.volume = number_of(*o, {"volume"});
    out.liquidity = number_of(*o, {"liquidity"});
    std::optional<std::int64_t> latest_market_end;
    if (auto const* ms = o->if_contains("markets"); ms && ms->is_array()) {
        for (auto const& mv : ms->get_array()) {
            auto m = parse_market(mv, out.event_id, now_ms);
            if (!m)
                return m.error();
            // An event's market belongs to it, whatever the market's back-reference says.
            m->market.event_id = out.event_id;
            if (auto end = time_at(mv.get_object(), "endDate"))
                latest_market_end = std::max(latest_market_end.value_or(*end), *end);
            out.markets.push_back(std::move(*m));
        }
    } else if (o->contains("markets") && !o->at("markets").is_null()) {
        return map_unexpected("event " + out.event_id + " markets");
    }
    out.status = event_status_of(*o, out.markets);
    if (auto end = time_at(*o, "endDate").value_or(latest_market_end.value_or(-1)); end >= 0)
        out.end_date = util::iso8601_utc(end);
    return out;
}

result<json::array const*> page_items(json::value const& v, std::string_view what) {
    if (auto const* a = v.if_array())
        return a;
    return map_unexpected(what);
}

result<midpoints> parse_midpoints(json::value const& v) {
    auto const* o = v.if_object();
    if (!o)
        return map_unexpected("midpoints");
    midpoints out;
    for (auto const& kv : *o) {
        auto d = decimal::from_json_lenient(kv.value());
        if (!d)
            return map_unexpected("midpoints (" + std::string(kv.key()) + ")");
        out.emplace(std::string(kv.key()), std::move(*d));
    }
    return out;
}

std::vector<std::string> book_tokens(std::vector<catalog_market const*> const& markets) {
    std::vector<std::string> out;
    std::unordered_set<std::string_view> seen;
    for (auto const* m : markets)
        if (m->on_book)
            for (auto const& t : m->market.tokens)
                if (seen.insert(t.token_id).second)
                    out.push_back(t.token_id);
    return out;
}

void apply_midpoints(catalog_market& m, midpoints const& mids) {
    if (!m.on_book)
        return;
    for (auto& t : m.market.tokens)
        if (auto it = mids.find(t.token_id); it != mids.end())
            t.price = it->second;
}

prediction_event to_event(catalog_event const& e) {
    prediction_event out;
    out.event_id = e.event_id;
    out.title = e.title;
    out.category = e.category;
    out.status = e.status;
    out.end_date = e.end_date;
    out.volume = e.volume;
    out.liquidity = e.liquidity;
    for (auto const& m : e.markets)
        out.markets.push_back(static_cast<event_market const&>(m.market));
    return out;
}

prediction_event_detail to_event_detail(catalog_event const& e) {
    prediction_event_detail out;
    out.event_id = e.event_id;
    out.title = e.title;
    out.category = e.category;
    out.status = e.status;
    out.end_date = e.end_date;
    out.volume = e.volume;
    out.liquidity = e.liquidity;
    for (auto const& m : e.markets)
        out.markets.push_back(m.market);
    return out;
}

result<orderbook> to_orderbook(json::value const& book, std::string const& token,
                               std::size_t depth) {
    auto const* o = book.if_object();
    if (!o)
        return map_unexpected("book");
    orderbook out;
    out.symbol = token;
    if (auto const* ts = o->if_contains("timestamp")) {
        if (auto d = decimal::from_json_lenient(*ts); d && d->scale() == 0)
            out.timestamp = d->to_scaled(0).value_or(0);
    }
    auto bids = book_side(*o, "bids", true);
    if (!bids)
        return bids.error();
    auto asks = book_side(*o, "asks", false);
    if (!asks)
        return asks.error();
    out.bids = std::move(*bids);
    out.asks = std::move(*asks);
    if (out.bids.size() > depth)
        out.bids.resize(depth);
    if (out.asks.size() > depth)
        out.asks.resize(depth);
    return out;
}

api_error read_error(std::string const& name, upstream_answer const& a) {
    auto const message = w::error_message(a.body);
    std::string said = message ? ": " + *message : std::string();
    if (said.empty() || said.back() != '.')
        said += '.';
    if (a.status == w::unauthorized.http_status)
        return credentials_refused(name); // an L2 read (gamma_trading.hpp)
    if (a.status == 425 || a.status == 503) {
        // The CLOB's matching engine restarting (425, ~90 s) or trading halted (503).
        api_error e = make_error(errc::provider_unavailable,
                                 "The " + name + " upstream is unavailable" + said);
        e.retry_after = 30;
        return e;
    }
    api_error e = make_error(errc::upstream_error, "The " + name + " upstream answered HTTP " +
                                                       std::to_string(a.status) + said);
    e.details["upstreamStatus"] = a.status;
    if (message)
        e.details["upstreamMessage"] = *message;
    return e;
}

bool upstream_missing(api_error const& e) {
    if (e.code != errc::upstream_error)
        return false;
    auto const* st = e.details.if_contains("upstreamStatus");
    if (!st || !st->is_number())
        return false;
    auto const status = st->to_number<unsigned>();
    if (status == w::no_orderbook.http_status)
        return true;
    auto const* msg = e.details.if_contains("upstreamMessage");
    return status == w::invalid_token_id.http_status && msg && msg->is_string() &&
           msg->get_string() == w::invalid_token_id.msg;
}

} // namespace gateway::server::gamma
