#include "gamma_view.hpp"

#include "../common/format.hpp"
#include "../common/json_out.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

namespace gateway::mocks::gamma {

namespace {

namespace json = boost::json;

constexpr std::string_view resolver = "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74";
constexpr std::string_view image_host = "https://polymarket-upload.s3.us-east-2.amazonaws.com/";

json::value null_or(std::optional<std::string> const& v) {
    if (v)
        return json::value(json::string(*v));
    return nullptr;
}

json::array tag_array(std::vector<tag> const& tags) {
    json::array out;
    for (auto const& t : tags) {
        json::object x;
        x["id"] = t.id;
        x["label"] = t.label;
        x["slug"] = t.slug;
        out.push_back(std::move(x));
    }
    return out;
}

bool has_book(market_def const& m) {
    return !m.closed && m.order_book;
}

} // namespace

std::string json_in_string(std::vector<std::string> const& items) {
    std::string s = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            s += ", ";
        s += json::serialize(json::string(items[i]));
    }
    return s + "]";
}

std::vector<market_spec> market_specs(catalog const& c) {
    std::vector<market_spec> out;
    for (auto const& m : c.markets) {
        if (!has_book(m))
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

catalog_view::catalog_view(catalog const& c, market_state& markets)
    : c_(c)
    , markets_(markets)
    , yes_state_(c.markets.size()) {
    for (std::size_t i = 0; i < c.markets.size(); ++i) {
        auto const& m = c.markets[i];
        for (unsigned k = 0; k < 2; ++k) {
            token_ref t{i, k, std::nullopt};
            if (has_book(m))
                t.state = markets_.find(m.token_ids[k]);
            tokens_.emplace(m.token_ids[k], t);
            if (k == 0)
                yes_state_[i] = t.state;
        }
        market_ids_.emplace(m.id, i);
        conditions_.emplace(m.condition_id, i);
        market_slugs_.emplace(m.slug, i);
    }
    for (std::size_t i = 0; i < c.events.size(); ++i) {
        event_ids_.emplace(c.events[i].id, i);
        event_slugs_.emplace(c.events[i].slug, i);
    }
}

std::optional<token_ref> catalog_view::token(std::string_view id) const {
    auto const it = tokens_.find(std::string(id));
    if (it == tokens_.end())
        return std::nullopt;
    return it->second;
}

namespace {
template <class Map>
std::optional<std::size_t> lookup(Map const& map, std::string_view key) {
    auto const it = map.find(std::string(key));
    if (it == map.end())
        return std::nullopt;
    return it->second;
}
} // namespace

std::optional<std::size_t> catalog_view::market_by_id(std::string_view id) const {
    return lookup(market_ids_, id);
}
std::optional<std::size_t> catalog_view::market_by_condition(std::string_view id) const {
    return lookup(conditions_, id);
}
std::optional<std::size_t> catalog_view::event_by_id(std::string_view id) const {
    return lookup(event_ids_, id);
}
std::optional<std::size_t> catalog_view::event_by_slug(std::string_view slug) const {
    return lookup(event_slugs_, slug);
}
std::optional<std::size_t> catalog_view::market_by_slug(std::string_view slug) const {
    return lookup(market_slugs_, slug);
}

std::vector<std::string> catalog_view::outcome_prices(std::size_t i) const {
    auto const& m = c_.markets[i];
    if (auto const yes = yes_state_[i]) {
        std::int64_t const mark = markets_.mark(*yes);
        return {canonical(mark, m.px_scale), canonical(pow10(m.px_scale) - mark, m.px_scale)};
    }
    return {m.final_prices[0], m.final_prices[1]};
}

json::object catalog_view::market_json(std::size_t i, market_render how) const {
    auto const& m = c_.markets[i];
    auto const& e = c_.events[m.event];
    json::object o;
    o["id"] = m.id;
    o["question"] = m.question;
    o["conditionId"] = m.condition_id;
    o["slug"] = m.slug;
    o["resolutionSource"] = e.resolution_source;
    o["endDate"] = m.end_date;
    // gamma.md §2.1: on markets volume/liquidity are strings, their *Num twins numbers; a
    // brand-new market has none of them.
    if (m.liquidity)
        o["liquidity"] = *m.liquidity;
    o["startDate"] = m.start_date;
    o["image"] = std::string(image_host) + m.slug + ".png";
    o["icon"] = std::string(image_host) + m.slug + ".png";
    o["description"] = m.description;
    o["outcomes"] = json_in_string({m.outcomes[0], m.outcomes[1]});
    o["outcomePrices"] = json_in_string(outcome_prices(i));
    if (m.volume)
        o["volume"] = *m.volume;
    o["active"] = true; // Gamma keeps active:true on closed markets (gamma.md §2.6)
    o["closed"] = m.closed;
    o["marketMakerAddress"] = "";
    o["createdAt"] = m.created_at;
    o["new"] = !m.volume;
    o["featured"] = false;
    o["archived"] = e.archived;
    o["resolvedBy"] = resolver;
    o["restricted"] = true;
    if (!m.group_item_title.empty())
        o["groupItemTitle"] = m.group_item_title;
    o["questionID"] = m.question_id;
    o["enableOrderBook"] = m.order_book;
    o["orderPriceMinTickSize"] = raw_number(canonical(1, m.px_scale));
    o["orderMinSize"] = 5;
    if (m.volume)
        o["volumeNum"] = raw_number(*m.volume);
    if (m.liquidity)
        o["liquidityNum"] = raw_number(*m.liquidity);
    o["endDateIso"] = m.end_date_iso;
    o["startDateIso"] = m.start_date.substr(0, 10);
    o["volume24hr"] = raw_number(m.volume_24hr);
    o["clobTokenIds"] = json_in_string({m.token_ids[0], m.token_ids[1]});
    if (m.volume)
        o["volumeClob"] = raw_number(*m.volume);
    if (m.liquidity)
        o["liquidityClob"] = raw_number(*m.liquidity);
    o["acceptingOrders"] = has_book(m);
    o["negRisk"] = e.neg_risk;
    if (e.neg_risk) {
        o["negRiskMarketID"] = e.neg_risk_market_id;
        o["negRiskRequestID"] = m.neg_risk_request_id;
    }
    o["cyom"] = false;
    if (auto const yes = yes_state_[i]) {
        auto const b = markets_.book(*yes, 1);
        auto const last = markets_.trades(*yes, 1);
        if (!b.bids.empty() && !b.asks.empty())
            o["spread"] = raw_number(canonical(b.asks.front().px - b.bids.front().px, m.px_scale));
        if (!last.empty())
            o["lastTradePrice"] = raw_number(canonical(last.back().px, m.px_scale));
        if (!b.bids.empty())
            o["bestBid"] = raw_number(canonical(b.bids.front().px, m.px_scale));
        if (!b.asks.empty())
            o["bestAsk"] = raw_number(canonical(b.asks.front().px, m.px_scale));
    } else {
        o["lastTradePrice"] = raw_number(m.last_trade);
    }
    if (!m.closed) {
        o["umaResolutionStatuses"] = "[]";
    } else if (m.uma_status == "proposed") {
        o["umaResolutionStatuses"] = json_in_string({"proposed"});
    } else {
        o["umaResolutionStatuses"] = json_in_string({"proposed", m.uma_status});
    }
    o["closedTime"] = null_or(m.closed_time);
    if (m.closed)
        o["umaResolutionStatus"] = m.uma_status;
    else
        o["umaResolutionStatus"] = nullptr;
    if (how.event_ref)
        o["events"] = json::array{event_json(m.event, false, false)};
    if (how.tags)
        o["tags"] = tag_array(e.tags);
    return o;
}

json::object catalog_view::event_json(std::size_t i, bool markets, bool tags) const {
    auto const& e = c_.events[i];
    json::object o;
    o["id"] = e.id;
    o["ticker"] = e.slug;
    o["slug"] = e.slug;
    o["title"] = e.title;
    o["description"] = e.description;
    o["resolutionSource"] = e.resolution_source;
    o["startDate"] = e.start_date;
    o["creationDate"] = e.creation_date;
    o["endDate"] = e.end_date;
    o["image"] = std::string(image_host) + e.slug + ".png";
    o["icon"] = std::string(image_host) + e.slug + ".png";
    o["active"] = true;
    o["closed"] = e.closed;
    o["archived"] = e.archived;
    o["new"] = false;
    o["featured"] = e.featured;
    o["restricted"] = true;
    if (e.category)
        o["category"] = *e.category;
    // gamma.md §2.1: on events volume/liquidity/openInterest are numbers.
    o["liquidity"] = raw_number(e.liquidity);
    o["volume"] = raw_number(e.volume);
    o["openInterest"] = raw_number(e.open_interest);
    o["createdAt"] = e.creation_date;
    o["volume24hr"] = raw_number(e.volume_24hr);
    bool book = false;
    for (auto m : e.markets)
        book = book || c_.markets[m].order_book;
    o["enableOrderBook"] = book;
    o["negRisk"] = e.neg_risk;
    if (e.neg_risk_market_id.empty())
        o["negRiskMarketID"] = nullptr;
    else
        o["negRiskMarketID"] = e.neg_risk_market_id;
    o["enableNegRisk"] = e.neg_risk;
    o["cyom"] = false;
    o["closedTime"] = null_or(e.closed_time);
    if (e.price_to_beat) {
        json::object meta;
        meta["priceToBeat"] = raw_number(*e.price_to_beat);
        o["eventMetadata"] = std::move(meta);
    }
    if (tags)
        o["tags"] = tag_array(e.tags);
    if (markets) {
        json::array ms;
        for (auto m : e.markets)
            ms.push_back(market_json(m, {}));
        o["markets"] = std::move(ms);
    }
    return o;
}

json::object catalog_view::clob_market_json(std::size_t i) const {
    auto const& m = c_.markets[i];
    auto const& e = c_.events[m.event];
    json::object o;
    o["enable_order_book"] = m.order_book;
    o["active"] = true;
    o["closed"] = m.closed;
    o["archived"] = e.archived;
    o["accepting_orders"] = has_book(m);
    o["minimum_order_size"] = "5";
    o["minimum_tick_size"] = canonical(1, m.px_scale);
    o["condition_id"] = m.condition_id;
    o["question_id"] = m.question_id;
    o["question"] = m.question;
    o["description"] = m.description;
    o["market_slug"] = m.slug;
    o["end_date_iso"] = m.end_date;
    o["seconds_delay"] = 0;
    o["maker_base_fee"] = 0;
    o["taker_base_fee"] = 0;
    o["neg_risk"] = e.neg_risk;
    o["neg_risk_market_id"] = e.neg_risk_market_id;
    o["neg_risk_request_id"] = m.neg_risk_request_id;
    o["icon"] = std::string(image_host) + m.slug + ".png";
    o["image"] = std::string(image_host) + m.slug + ".png";
    bool const void_result = m.resolved && m.final_prices[0] == "0.5";
    o["is_50_50_outcome"] = void_result;
    auto const prices = outcome_prices(i);
    json::array tokens;
    for (unsigned k = 0; k < 2; ++k) {
        json::object t;
        t["token_id"] = m.token_ids[k];
        t["outcome"] = m.outcomes[k];
        t["price"] = prices[k];
        t["winner"] = m.resolved && prices[k] == "1";
        tokens.push_back(std::move(t));
    }
    o["tokens"] = std::move(tokens);
    json::array tags;
    for (auto const& t : e.tags)
        tags.emplace_back(t.label);
    o["tags"] = std::move(tags);
    return o;
}

} // namespace gateway::mocks::gamma
