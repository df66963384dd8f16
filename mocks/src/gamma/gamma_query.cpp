#include "gamma_query.hpp"

#include "gamma_time.hpp"

#include "../common/http_util.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <string_view>

namespace gateway::mocks::gamma {

namespace {

/// One sort key of an item: a number, a time or a text, or absent (null).
struct sort_key {
    bool present = false;
    decimal number;
    std::int64_t time = 0;
    std::string text;
};

enum class key_kind { number, time, text };

struct field {
    std::string_view name;
    key_kind kind;
};

// The order fields each list accepts (Gamma's column names; createdAt and creationDate alike).
constexpr std::array<field, 12> event_fields{{{"id", key_kind::number},
                                              {"volume", key_kind::number},
                                              {"volume24hr", key_kind::number},
                                              {"liquidity", key_kind::number},
                                              {"openInterest", key_kind::number},
                                              {"startDate", key_kind::time},
                                              {"endDate", key_kind::time},
                                              {"createdAt", key_kind::time},
                                              {"creationDate", key_kind::time},
                                              {"closedTime", key_kind::time},
                                              {"title", key_kind::text},
                                              {"slug", key_kind::text}}};
constexpr std::array<field, 12> market_fields{{{"id", key_kind::number},
                                               {"volume", key_kind::number},
                                               {"volumeNum", key_kind::number},
                                               {"volume24hr", key_kind::number},
                                               {"liquidity", key_kind::number},
                                               {"liquidityNum", key_kind::number},
                                               {"startDate", key_kind::time},
                                               {"endDate", key_kind::time},
                                               {"createdAt", key_kind::time},
                                               {"closedTime", key_kind::time},
                                               {"question", key_kind::text},
                                               {"slug", key_kind::text}}};

template <std::size_t N>
std::optional<key_kind> kind_of(std::array<field, N> const& fields, std::string_view name) {
    for (auto const& f : fields)
        if (f.name == name)
            return f.kind;
    return std::nullopt;
}

sort_key number_key(std::optional<std::string> const& text) {
    sort_key k;
    if (text) {
        if (auto d = decimal::parse_lenient(*text)) {
            k.present = true;
            k.number = *d;
        }
    }
    return k;
}

sort_key time_key(std::optional<std::string> const& text) {
    sort_key k;
    if (text) {
        if (auto t = parse_date(*text)) {
            k.present = true;
            k.time = *t;
        }
    }
    return k;
}

sort_key text_key(std::string const& text) {
    sort_key k;
    k.present = true;
    k.text = text;
    return k;
}

sort_key event_key(event_def const& e, std::string_view f) {
    if (f == "id")
        return number_key(e.id);
    if (f == "volume")
        return number_key(e.volume);
    if (f == "volume24hr")
        return number_key(e.volume_24hr);
    if (f == "liquidity")
        return number_key(e.liquidity);
    if (f == "openInterest")
        return number_key(e.open_interest);
    if (f == "startDate")
        return time_key(e.start_date);
    if (f == "endDate")
        return time_key(e.end_date);
    if (f == "createdAt" || f == "creationDate")
        return time_key(e.creation_date);
    if (f == "closedTime")
        return time_key(e.closed_time);
    if (f == "title")
        return text_key(e.title);
    return text_key(e.slug);
}

sort_key market_key(market_def const& m, std::string_view f) {
    if (f == "id")
        return number_key(m.id);
    if (f == "volume" || f == "volumeNum")
        return number_key(m.volume);
    if (f == "volume24hr")
        return number_key(m.volume_24hr);
    if (f == "liquidity" || f == "liquidityNum")
        return number_key(m.liquidity);
    if (f == "startDate")
        return time_key(m.start_date);
    if (f == "endDate")
        return time_key(m.end_date);
    if (f == "createdAt")
        return time_key(m.created_at);
    if (f == "closedTime")
        return time_key(m.closed_time);
    if (f == "question")
        return text_key(m.question);
    return text_key(m.slug);
}

int compare(sort_key const& a, sort_key const& b, key_kind kind) {
    if (kind == key_kind::number)
        return a.number < b.number ? -1 : b.number < a.number ? 1 : 0;
    if (kind == key_kind::time)
        return a.time < b.time ? -1 : b.time < a.time ? 1 : 0;
    return a.text.compare(b.text);
}

/// Sorts `items` by the query's fields (stable; items arrive in id order) and cuts the page.
template <class KeyOf, std::size_t N>
std::vector<std::size_t> order_and_page(std::vector<std::size_t> items, list_query const& q,
                                        std::array<field, N> const& fields, KeyOf key_of) {
    if (!q.order.empty() && !(q.order.size() == 1 && q.order[0] == "id" && q.ascending)) {
        std::vector<key_kind> kinds;
        for (auto const& f : q.order)
            kinds.push_back(*kind_of(fields, f));
        // One key vector per item, computed once.
        std::vector<std::vector<sort_key>> keys(items.size());
        for (std::size_t i = 0; i < items.size(); ++i)
            for (auto const& f : q.order)
                keys[i].push_back(key_of(items[i], f));
        std::vector<std::size_t> pos(items.size());
        std::iota(pos.begin(), pos.end(), std::size_t{0});
        std::stable_sort(pos.begin(), pos.end(), [&](std::size_t a, std::size_t b) {
            for (std::size_t k = 0; k < kinds.size(); ++k) {
                auto const& x = keys[a][k];
                auto const& y = keys[b][k];
                if (x.present != y.present) // NULLS LAST ascending, NULLS FIRST descending
                    return q.ascending ? x.present : !x.present;
                if (!x.present)
                    continue;
                int const c = compare(x, y, kinds[k]);
                if (c != 0)
                    return q.ascending ? c < 0 : c > 0;
            }
            return false;
        });
        std::vector<std::size_t> sorted;
        sorted.reserve(items.size());
        for (auto p : pos)
            sorted.push_back(items[p]);
        items = std::move(sorted);
    } else if (!q.ascending) {
        std::reverse(items.begin(), items.end());
    }
    if (q.offset >= items.size())
        return {};
    auto const first = items.begin() + static_cast<std::ptrdiff_t>(q.offset);
    auto const last = first + static_cast<std::ptrdiff_t>(
                                  std::min(q.limit, static_cast<std::size_t>(items.end() - first)));
    return {first, last};
}

/// Catalog indices sorted by numeric id.
template <class T>
std::vector<std::size_t> by_id(std::vector<T> const& rows) {
    std::vector<std::size_t> out(rows.size());
    std::iota(out.begin(), out.end(), std::size_t{0});
    std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
        auto const& x = rows[a].id;
        auto const& y = rows[b].id;
        return x.size() != y.size() ? x.size() < y.size() : x < y;
    });
    return out;
}

bool listed(std::vector<std::string> const& list, std::string const& v) {
    return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
}

bool all_digits_text(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool in_range(std::optional<std::string> const& value, std::optional<decimal> const& lo,
              std::optional<decimal> const& hi) {
    if (!lo && !hi)
        return true;
    // An absent number counts as 0 (a brand-new market has no volume yet).
    decimal const v = value ? decimal::parse_lenient(*value).value_or(decimal{}) : decimal{};
    return (!lo || !(v < *lo)) && (!hi || !(*hi < v));
}

bool in_time(std::string const& value, std::optional<std::int64_t> lo,
             std::optional<std::int64_t> hi) {
    if (!lo && !hi)
        return true;
    auto const t = parse_date(value);
    return t && (!lo || *t >= *lo) && (!hi || *t <= *hi);
}

bool event_has_tag(event_def const& e, list_query const& q) {
    if (q.tag_id &&
        std::none_of(e.tags.begin(), e.tags.end(), [&](tag const& t) { return t.id == *q.tag_id; }))
        return false;
    if (q.tag_slug && std::none_of(e.tags.begin(), e.tags.end(),
                                   [&](tag const& t) { return t.slug == *q.tag_slug; }))
        return false;
    return std::none_of(e.tags.begin(), e.tags.end(), [&](tag const& t) {
        return std::find(q.exclude_tag_ids.begin(), q.exclude_tag_ids.end(), t.id) !=
               q.exclude_tag_ids.end();
    });
}

} // namespace

list_query parse_list_query(query_params const& q, bool markets) {
    list_query out;
    auto fail = [&](std::string_view key) {
        if (out.bad.empty())
            out.bad = key;
    };
    auto boolean = [&](std::string_view key, std::optional<bool>& into) {
        if (auto v = query_get(q, key)) {
            if (*v == "true")
                into = true;
            else if (*v == "false")
                into = false;
            else
                fail(key);
        }
    };
    auto count = [&](std::string_view key, std::size_t& into) {
        if (auto v = query_get(q, key)) {
            if (auto n = parse_uint(*v))
                into = static_cast<std::size_t>(std::min<std::uint64_t>(*n, 1'000'000'000));
            else
                fail(key);
        }
    };
    auto number = [&](std::string_view key, std::optional<decimal>& into) {
        if (auto v = query_get(q, key)) {
            if (auto d = decimal::parse_lenient(*v))
                into = *d;
            else
                fail(key);
        }
    };
    auto date = [&](std::string_view key, std::optional<std::int64_t>& into) {
        if (auto v = query_get(q, key)) {
            if (auto t = parse_date(*v))
                into = *t;
            else
                fail(key);
        }
    };
    auto integers = [&](std::string_view key) {
        auto list = query_list(q, key);
        for (auto const& x : list)
            if (!all_digits_text(x))
                fail(key);
        return list;
    };

    count("limit", out.limit);
    out.limit = std::min(out.limit, max_page);
    count("offset", out.offset);
    for (auto const& f : query_list(q, "order")) {
        bool const known =
            markets ? kind_of(market_fields, f).has_value() : kind_of(event_fields, f).has_value();
        if (!known)
            fail("order");
        out.order.push_back(f);
    }
    std::optional<bool> asc;
    boolean("ascending", asc);
    out.ascending = asc.value_or(true);
    boolean("closed", out.closed);
    boolean("active", out.active);
    boolean("archived", out.archived);
    boolean("cyom", out.cyom);
    out.ids = integers("id");
    out.slugs = query_list(q, "slug");
    if (auto v = query_get(q, "tag_id")) {
        if (!all_digits_text(*v))
            fail("tag_id");
        out.tag_id = *v;
    }
    date("start_date_min", out.start_min);
    date("start_date_max", out.start_max);
    date("end_date_min", out.end_min);
    date("end_date_max", out.end_max);
    // related_tags, include_chat, include_template: accepted, no effect on this catalog.
    std::optional<bool> ignored;
    boolean("related_tags", ignored);
    if (!markets) {
        boolean("featured", out.featured);
        out.tag_slug = query_get(q, "tag_slug");
        out.exclude_tag_ids = integers("exclude_tag_id");
        number("volume_min", out.volume_min);
        number("volume_max", out.volume_max);
        number("liquidity_min", out.liquidity_min);
        number("liquidity_max", out.liquidity_max);
        boolean("include_chat", ignored);
        boolean("include_template", ignored);
    } else {
        out.token_ids = query_list(q, "clob_token_ids");
        out.condition_ids = query_list(q, "condition_ids");
        out.question_ids = query_list(q, "question_ids");
        out.uma_status = query_get(q, "uma_resolution_status");
        number("volume_num_min", out.volume_min);
        number("volume_num_max", out.volume_max);
        number("liquidity_num_min", out.liquidity_min);
        number("liquidity_num_max", out.liquidity_max);
        std::optional<bool> tag;
        boolean("include_tag", tag);
        out.include_tag = tag.value_or(false);
    }
    return out;
}

std::vector<std::size_t> select_events(catalog const& c, list_query const& q) {
    std::vector<std::size_t> hits;
    for (auto i : by_id(c.events)) {
        auto const& e = c.events[i];
        // Every event is active:true and cyom:false on this catalog (Gamma keeps active:true
        // after close, gamma.md §2.6).
        if ((q.closed && *q.closed != e.closed) || (q.active && !*q.active) ||
            (q.cyom && *q.cyom) || (q.archived && *q.archived != e.archived) ||
            (q.featured && *q.featured != e.featured) || !listed(q.ids, e.id) ||
            !listed(q.slugs, e.slug) || !event_has_tag(e, q) ||
            !in_range(e.volume, q.volume_min, q.volume_max) ||
            !in_range(e.liquidity, q.liquidity_min, q.liquidity_max) ||
            !in_time(e.start_date, q.start_min, q.start_max) ||
            !in_time(e.end_date, q.end_min, q.end_max))
            continue;
        hits.push_back(i);
    }
    return order_and_page(std::move(hits), q, event_fields, [&](std::size_t i, std::string_view f) {
        return event_key(c.events[i], f);
    });
}

std::vector<std::size_t> select_markets(catalog const& c, list_query const& q) {
    std::vector<std::size_t> hits;
    for (auto i : by_id(c.markets)) {
        auto const& m = c.markets[i];
        auto const& e = c.events[m.event];
        bool const token_hit =
            q.token_ids.empty() ||
            std::any_of(q.token_ids.begin(), q.token_ids.end(), [&](std::string const& t) {
                return t == m.token_ids[0] || t == m.token_ids[1];
            });
        if ((q.closed && *q.closed != m.closed) || (q.active && !*q.active) ||
            (q.cyom && *q.cyom) || (q.archived && *q.archived != e.archived) ||
            !listed(q.ids, m.id) || !listed(q.slugs, m.slug) ||
            !listed(q.condition_ids, m.condition_id) || !listed(q.question_ids, m.question_id) ||
            !token_hit || (q.uma_status && *q.uma_status != m.uma_status) || !event_has_tag(e, q) ||
            !in_range(m.volume, q.volume_min, q.volume_max) ||
            !in_range(m.liquidity, q.liquidity_min, q.liquidity_max) ||
            !in_time(m.start_date, q.start_min, q.start_max) ||
            !in_time(m.end_date, q.end_min, q.end_max))
            continue;
        hits.push_back(i);
    }
    return order_and_page(
        std::move(hits), q, market_fields,
        [&](std::size_t i, std::string_view f) { return market_key(c.markets[i], f); });
}

} // namespace gateway::mocks::gamma
