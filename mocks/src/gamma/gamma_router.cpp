#include "gamma_router.hpp"

#include "gamma_catalog.hpp"

#include "../common/format.hpp"
#include "../common/http_util.hpp"
#include "../common/json_out.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>

namespace gateway::mocks::gamma {

namespace {

namespace json = boost::json;

constexpr std::size_t book_depth = 15;
constexpr std::size_t max_page = 500; // gamma.md §2.1: /events caps at 500 per request [OBS]
constexpr std::string_view resolver = "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74";

net::response error(http::status st, std::string_view message, unsigned v) {
    json::object o;
    o["error"] = message;
    return json_response(st, o, v);
}

/// A JSON array of strings serialized into a string, Python style: `["Yes", "No"]`.
std::string json_in_string(std::vector<std::string> const& items) {
    std::string s = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            s += ", ";
        s += json::serialize(json::string(items[i]));
    }
    return s + "]";
}

std::string sha1_hex(std::string const& data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), md, &len, EVP_sha1(), nullptr);
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out.push_back(digits[md[i] >> 4]);
        out.push_back(digits[md[i] & 0xf]);
    }
    return out;
}

bool all_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Query filters shared by /events and /markets; `bad` names the first malformed parameter.
struct filters {
    std::optional<bool> closed, active, archived;
    std::vector<std::string> ids, slugs, token_ids, condition_ids;
    std::optional<std::string> tag_slug, tag_id;
    std::size_t limit = max_page;
    std::size_t offset = 0;
    std::string bad;

    explicit filters(query_params const& q) {
        auto boolean = [&](char const* key, std::optional<bool>& out) {
            if (auto v = query_get(q, key)) {
                if (*v == "true")
                    out = true;
                else if (*v == "false")
                    out = false;
                else if (bad.empty())
                    bad = key;
            }
        };
        auto number = [&](char const* key, std::size_t& out) {
            if (auto v = query_get(q, key)) {
                if (auto n = parse_uint(*v))
                    out = static_cast<std::size_t>(std::min<std::uint64_t>(*n, max_page * 1000));
                else if (bad.empty())
                    bad = key;
            }
        };
        boolean("closed", closed);
        boolean("active", active);
        boolean("archived", archived);
        number("limit", limit);
        number("offset", offset);
        limit = std::min(limit, max_page);
        ids = query_list(q, "id");
        for (auto const& id : ids)
            if (!all_digits(id) && bad.empty())
                bad = "id";
        slugs = query_list(q, "slug");
        token_ids = query_list(q, "clob_token_ids");
        condition_ids = query_list(q, "condition_ids");
        tag_slug = query_get(q, "tag_slug");
        tag_id = query_get(q, "tag_id");
    }

    static bool listed(std::vector<std::string> const& list, std::string const& v) {
        return list.empty() || std::find(list.begin(), list.end(), v) != list.end();
    }
};

bool has_tag(event_def const& e, std::optional<std::string> const& slug,
             std::optional<std::string> const& id) {
    return std::any_of(e.tags.begin(), e.tags.end(), [&](tag const& t) {
        return (!slug || t.slug == *slug) && (!id || t.id == *id);
    });
}

class router final : public upstream_router {
public:
    explicit router(market_state& markets)
        : markets_(markets)
        , catalog_(build_catalog()) {}

    std::string classify(net::request const& req) const override {
        return std::string(req.method_string()) + " " + split_target(req.target()).path;
    }

    net::response handle(net::request const& req, caller const&) override {
        auto const t = split_target(req.target());
        unsigned const v = req.version();
        std::string path = t.path;
        while (path.size() > 1 && path.back() == '/' && path != "/clob/")
            path.pop_back();
        if (req.method() != http::verb::get) {
            auto res = error(http::status::method_not_allowed, "method not allowed", v);
            res.set(http::field::allow, "GET");
            return res;
        }
        if (path == "/clob" || path == "/clob/")
            return make_response(http::status::ok, "\"OK\"", "application/json", v);
        if (path == "/clob/time")
            return make_response(http::status::ok, std::to_string(now_ms() / 1000),
                                 "application/json", v);
        if (path == "/clob/book" || path == "/clob/price" || path == "/clob/midpoint")
            return clob(path.substr(6), t.query, v);
        if (path == "/events")
            return list_events(t.query, v);
        if (path == "/markets")
            return list_markets(t.query, v);
        if (path.rfind("/events/", 0) == 0)
            return one_event(path.substr(8), v);
        if (path.rfind("/markets/", 0) == 0)
            return one_market(path.substr(9), v);
        return error(http::status::not_found, "not found", v);
    }

    net::response forced_status(unsigned status, unsigned version) const override {
        auto const st = static_cast<http::status>(status);
        auto const reason = http::obsolete_reason(st);
        return error(st, reason.empty() ? "error" : std::string(reason), version);
    }

    net::response render_failure(net::failure const& f, unsigned version) const override {
        auto const st = f.kind == net::failure_kind::bad_request ? http::status::bad_request
                        : f.kind == net::failure_kind::payload_too_large
                            ? http::status::payload_too_large
                            : http::status::internal_server_error;
        return error(st, f.message, version);
    }

private:
    // -----------------------------------------------------------------------------------------
    // Gamma catalog

    /// A market's live numbers: from the market state when active, fixed when closed.
    json::object market_json(market_def const& m, bool with_event) const {
        json::object o;
        o["id"] = m.id;
        o["question"] = m.question;
        o["conditionId"] = m.condition_id;
        o["questionID"] = m.question_id;
        o["slug"] = m.slug;
        o["description"] = m.description;
        o["outcomes"] = json_in_string({m.outcomes[0], m.outcomes[1]});
        std::optional<std::size_t> yes, no;
        if (!m.closed) {
            yes = markets_.find(m.token_ids[0]);
            no = markets_.find(m.token_ids[1]);
        }
        if (yes && no)
            o["outcomePrices"] = json_in_string({canonical(markets_.mark(*yes), m.px_scale),
                                                 canonical(markets_.mark(*no), m.px_scale)});
        else
            o["outcomePrices"] = json_in_string({m.final_prices[0], m.final_prices[1]});
        o["clobTokenIds"] = json_in_string({m.token_ids[0], m.token_ids[1]});
        // gamma.md §2.1: on markets volume/liquidity are strings, their *Num twins numbers.
        o["volume"] = m.volume;
        o["volumeNum"] = raw_number(m.volume);
        o["liquidity"] = m.liquidity;
        o["liquidityNum"] = raw_number(m.liquidity);
        o["volume24hr"] = raw_number(m.volume_24hr);
        o["active"] = true; // Gamma keeps active:true on closed markets (gamma.md §2.6)
        o["closed"] = m.closed;
        o["archived"] = false;
        o["acceptingOrders"] = !m.closed;
        o["enableOrderBook"] = true;
        o["startDate"] = m.start_date;
        o["endDate"] = m.end_date;
        o["endDateIso"] = m.end_date_iso;
        if (m.closed_time)
            o["closedTime"] = *m.closed_time;
        else
            o["closedTime"] = nullptr;
        o["orderPriceMinTickSize"] = raw_number(canonical(1, m.px_scale));
        o["orderMinSize"] = 5;
        if (yes) {
            auto const b = markets_.book(*yes, 1);
            auto const last = markets_.trades(*yes, 1);
            if (!b.bids.empty() && !b.asks.empty()) {
                o["bestBid"] = raw_number(canonical(b.bids.front().px, m.px_scale));
                o["bestAsk"] = raw_number(canonical(b.asks.front().px, m.px_scale));
            }
            if (!last.empty())
                o["lastTradePrice"] = raw_number(canonical(last.back().px, m.px_scale));
            if (!b.bids.empty() && !b.asks.empty())
                o["spread"] =
                    raw_number(canonical(b.asks.front().px - b.bids.front().px, m.px_scale));
        } else {
            o["lastTradePrice"] = raw_number(m.last_trade);
        }
        o["negRisk"] = catalog_.events[m.event].neg_risk;
        if (!m.closed) {
            o["umaResolutionStatus"] = nullptr;
            o["umaResolutionStatuses"] = "[]";
        } else {
            o["umaResolutionStatus"] = m.resolved ? "resolved" : "proposed";
            o["umaResolutionStatuses"] = m.resolved ? json_in_string({"proposed", "resolved"})
                                                    : json_in_string({"proposed"});
        }
        o["resolvedBy"] = resolver;
        if (with_event) {
            auto const& e = catalog_.events[m.event];
            json::object ref;
            ref["id"] = e.id;
            ref["slug"] = e.slug;
            ref["title"] = e.title;
            o["events"] = json::array{std::move(ref)};
        }
        return o;
    }

    json::object event_json(event_def const& e) const {
        json::object o;
        o["id"] = e.id;
        o["ticker"] = e.slug;
        o["slug"] = e.slug;
        o["title"] = e.title;
        o["description"] = e.description;
        o["startDate"] = e.start_date;
        o["creationDate"] = e.creation_date;
        o["endDate"] = e.end_date;
        if (e.category)
            o["category"] = *e.category;
        o["active"] = true;
        o["closed"] = e.closed;
        o["archived"] = false;
        o["restricted"] = true;
        // gamma.md §2.1: on events volume/liquidity/openInterest are numbers.
        o["volume"] = raw_number(e.volume);
        o["liquidity"] = raw_number(e.liquidity);
        o["openInterest"] = raw_number(e.open_interest);
        o["volume24hr"] = raw_number(e.volume_24hr);
        o["negRisk"] = e.neg_risk;
        if (e.neg_risk_market_id.empty())
            o["negRiskMarketID"] = nullptr;
        else
            o["negRiskMarketID"] = e.neg_risk_market_id;
        o["enableOrderBook"] = true;
        if (e.closed_time)
            o["closedTime"] = *e.closed_time;
        else
            o["closedTime"] = nullptr;
        json::array tags;
        for (auto const& t : e.tags) {
            json::object x;
            x["id"] = t.id;
            x["label"] = t.label;
            x["slug"] = t.slug;
            tags.push_back(std::move(x));
        }
        o["tags"] = std::move(tags);
        json::array ms;
        for (auto i : e.markets)
            ms.push_back(market_json(catalog_.markets[i], false));
        o["markets"] = std::move(ms);
        return o;
    }

    net::response list_events(query_params const& q, unsigned v) const {
        filters f(q);
        if (!f.bad.empty())
            return error(http::status::bad_request, "invalid query parameter: " + f.bad, v);
        json::array out;
        std::size_t skipped = 0;
        for (auto const& e : catalog_.events) {
            if ((f.closed && *f.closed != e.closed) || (f.active && !*f.active) ||
                (f.archived && *f.archived) || !filters::listed(f.ids, e.id) ||
                !filters::listed(f.slugs, e.slug) ||
                ((f.tag_slug || f.tag_id) && !has_tag(e, f.tag_slug, f.tag_id)))
                continue;
            if (skipped++ < f.offset)
                continue;
            if (out.size() >= f.limit)
                break;
            out.push_back(event_json(e));
        }
        return json_response(http::status::ok, out, v);
    }

    net::response list_markets(query_params const& q, unsigned v) const {
        filters f(q);
        if (!f.bad.empty())
            return error(http::status::bad_request, "invalid query parameter: " + f.bad, v);
        json::array out;
        std::size_t skipped = 0;
        for (auto const& m : catalog_.markets) {
            auto const& e = catalog_.events[m.event];
            bool const token_hit =
                f.token_ids.empty() ||
                std::any_of(f.token_ids.begin(), f.token_ids.end(), [&](std::string const& t) {
                    return t == m.token_ids[0] || t == m.token_ids[1];
                });
            if ((f.closed && *f.closed != m.closed) || (f.active && !*f.active) ||
                (f.archived && *f.archived) || !filters::listed(f.ids, m.id) ||
                !filters::listed(f.slugs, m.slug) ||
                !filters::listed(f.condition_ids, m.condition_id) || !token_hit ||
                ((f.tag_slug || f.tag_id) && !has_tag(e, f.tag_slug, f.tag_id)))
                continue;
            if (skipped++ < f.offset)
                continue;
            if (out.size() >= f.limit)
                break;
            out.push_back(market_json(m, true));
        }
        return json_response(http::status::ok, out, v);
    }

    net::response one_event(std::string const& id, unsigned v) const {
        for (auto const& e : catalog_.events)
            if (e.id == id)
                return json_response(http::status::ok, event_json(e), v);
        return error(http::status::not_found, "not found", v);
    }

    net::response one_market(std::string const& id, unsigned v) const {
        for (auto const& m : catalog_.markets)
            if (m.id == id)
                return json_response(http::status::ok, market_json(m, true), v);
        return error(http::status::not_found, "not found", v);
    }

    // -----------------------------------------------------------------------------------------
    // CLOB

    /// The catalog market holding `token`, if any.
    market_def const* market_of(std::string const& token) const {
        for (auto const& m : catalog_.markets)
            if (m.token_ids[0] == token || m.token_ids[1] == token)
                return &m;
        return nullptr;
    }

    net::response clob(std::string const& what, query_params const& q, unsigned v) const {
        auto const token = query_get(q, "token_id");
        if (!token || !all_digits(*token))
            return error(http::status::bad_request, "Invalid token id", v);
        auto const* m = market_of(*token);
        auto const idx = m && !m->closed ? markets_.find(*token) : std::nullopt;
        if (!idx)
            return error(http::status::not_found, "No orderbook exists for the requested token id",
                         v);
        unsigned const scale = m->px_scale;
        if (what == "book")
            return book(*m, *token, *idx, v);
        auto const b = markets_.book(*idx, 1);
        if (what == "price") {
            // gamma.md §3.4: BUY answers the best bid, SELL the best ask.
            auto const side = query_get(q, "side");
            if (!side || (*side != "BUY" && *side != "SELL"))
                return error(http::status::bad_request, "Invalid side", v);
            auto const& levels = *side == "BUY" ? b.bids : b.asks;
            json::object o;
            o["price"] = levels.empty() ? "0" : canonical(levels.front().px, scale);
            return json_response(http::status::ok, o, v);
        }
        json::object o;
        if (b.bids.empty() || b.asks.empty())
            o["mid"] = canonical(markets_.mark(*idx), scale);
        else
            o["mid"] = canonical((b.bids.front().px + b.asks.front().px) * 5, scale + 1);
        return json_response(http::status::ok, o, v);
    }

    net::response book(market_def const& m, std::string const& token, std::size_t idx,
                       unsigned v) const {
        unsigned const scale = m.px_scale;
        auto const b = markets_.book(idx, book_depth);
        auto const last = markets_.trades(idx, 1);
        // gamma.md §3.2: bids ascending and asks descending, so the best of each is last.
        auto side = [&](std::vector<book_level> const& levels) {
            json::array out;
            for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
                json::object l;
                l["price"] = canonical(it->px, scale);
                l["size"] = canonical(it->sz, markets_.spec(idx).sz_scale);
                out.push_back(std::move(l));
            }
            return out;
        };
        json::object o;
        o["market"] = m.condition_id;
        o["asset_id"] = token;
        o["timestamp"] = std::to_string(b.time_ms);
        o["hash"] = "";
        o["bids"] = side(b.bids);
        o["asks"] = side(b.asks);
        o["min_order_size"] = "5";
        o["tick_size"] = canonical(1, scale);
        o["neg_risk"] = catalog_.events[m.event].neg_risk;
        o["last_trade_price"] = last.empty() ? "" : fixed(last.back().px, scale, 3);
        // py-clob-client recomputes the hash as SHA-1 of the compact body with hash "".
        o["hash"] = sha1_hex(to_json(o));
        return json_response(http::status::ok, o, v);
    }

    market_state& markets_;
    catalog catalog_;
};

} // namespace

std::vector<market_spec> market_specs() {
    std::vector<market_spec> out;
    for (auto const& m : build_catalog().markets) {
        if (m.closed)
            continue;
        std::int64_t const one = pow10(m.px_scale);
        market_spec yes;
        yes.symbol = m.token_ids[0];
        yes.px_scale = m.px_scale;
        yes.tick = 1;
        yes.sz_scale = 2;
        yes.mark = m.yes_px;
        yes.min_px = 1;
        yes.max_px = one - 1;
        yes.step_ppm = 20000;
        yes.lot = 50000; // 500 shares
        yes.max_orders = 6;
        market_spec no = yes;
        no.symbol = m.token_ids[1];
        no.mark = one - m.yes_px;
        no.complement_of = out.size();
        out.push_back(std::move(yes));
        out.push_back(std::move(no));
    }
    return out;
}

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const&) {
    return std::make_unique<router>(markets);
}

} // namespace gateway::mocks::gamma
