#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

namespace detail {
// The event-market fields, shared by `event_market` and `prediction_market`.
GATEWAY_DECL void read_fields(json_fields& f, event_market& m) {
    f.required("marketId", m.market_id);
    f.required("question", m.question);
    f.required("outcomes", m.outcomes);
    f.required("tokens", m.tokens, parse_prediction_token);
}
} // namespace detail

GATEWAY_DECL result<prediction_token> parse_prediction_token(boost::json::value const& v,
                                                             strictness mode) {
    json_fields f(v, mode, "token");
    prediction_token t;
    f.required("tokenId", t.token_id);
    f.required("outcome", t.outcome);
    f.required("price", t.price);
    return detail::finish(f, std::move(t));
}

GATEWAY_DECL result<event_market> parse_event_market(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "event market");
    event_market m;
    detail::read_fields(f, m);
    return detail::finish(f, std::move(m));
}

GATEWAY_DECL result<prediction_market> parse_prediction_market(boost::json::value const& v,
                                                               strictness mode) {
    json_fields f(v, mode, "prediction market");
    prediction_market m;
    detail::read_fields(f, m);
    f.required("eventId", m.event_id);
    f.required("status", m.status);
    f.required("volume", m.volume);
    return detail::finish(f, std::move(m));
}

namespace detail {
// The event fields but `markets`, shared by `prediction_event` and `prediction_event_detail`.
template <class Event>
void read_event_fields(json_fields& f, Event& e) {
    f.required("eventId", e.event_id);
    f.required("title", e.title);
    f.required("category", e.category);
    f.required("status", e.status);
    f.required("endDate", e.end_date);
    f.required("volume", e.volume);
    f.required("liquidity", e.liquidity);
}

template <class Event>
boost::json::value write_event(Event const& e) {
    return make_object({{"eventId", e.event_id},
                        {"title", e.title},
                        {"category", e.category},
                        {"status", e.status},
                        {"endDate", e.end_date},
                        {"volume", e.volume},
                        {"liquidity", e.liquidity},
                        {"markets", e.markets}});
}
} // namespace detail

GATEWAY_DECL result<prediction_event> parse_prediction_event(boost::json::value const& v,
                                                             strictness mode) {
    json_fields f(v, mode, "prediction event");
    prediction_event e;
    detail::read_event_fields(f, e);
    f.required("markets", e.markets, parse_event_market);
    return detail::finish(f, std::move(e));
}

GATEWAY_DECL result<prediction_event_detail>
parse_prediction_event_detail(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "prediction event");
    prediction_event_detail e;
    detail::read_event_fields(f, e);
    f.required("markets", e.markets, parse_prediction_market);
    return detail::finish(f, std::move(e));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_token const& t) {
    jv = detail::make_object({{"tokenId", t.token_id}, {"outcome", t.outcome}, {"price", t.price}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             event_market const& m) {
    jv = detail::make_object({{"marketId", m.market_id},
                              {"question", m.question},
                              {"outcomes", m.outcomes},
                              {"tokens", m.tokens}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_market const& m) {
    jv = detail::make_object({{"marketId", m.market_id},
                              {"eventId", m.event_id},
                              {"question", m.question},
                              {"outcomes", m.outcomes},
                              {"status", m.status},
                              {"volume", m.volume},
                              {"tokens", m.tokens}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_event const& e) {
    jv = detail::write_event(e);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_event_detail const& e) {
    jv = detail::write_event(e);
}

GATEWAY_DECL boost::json::result<prediction_token>
tag_invoke(boost::json::try_value_to_tag<prediction_token>, boost::json::value const& v) {
    return detail::to_json_result(parse_prediction_token(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<event_market>
tag_invoke(boost::json::try_value_to_tag<event_market>, boost::json::value const& v) {
    return detail::to_json_result(parse_event_market(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<prediction_market>
tag_invoke(boost::json::try_value_to_tag<prediction_market>, boost::json::value const& v) {
    return detail::to_json_result(parse_prediction_market(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<prediction_event>
tag_invoke(boost::json::try_value_to_tag<prediction_event>, boost::json::value const& v) {
    return detail::to_json_result(parse_prediction_event(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<prediction_event_detail>
tag_invoke(boost::json::try_value_to_tag<prediction_event_detail>, boost::json::value const& v) {
    return detail::to_json_result(parse_prediction_event_detail(v, strictness::upstream));
}

} // namespace gateway
