#pragma once
/**
 * @file predictions.hpp
 * Prediction markets: event (spec §2.13), market (§2.14), outcome token, and the event detail
 * (spec §4.6: "one event with full market details").
 *
 * Every `parse_<type>` reads with `json_fields` in the given mode: inbound is strict (unknown
 * field: VALIDATION_ERROR; non-object: INVALID_JSON), upstream is lenient (UPSTREAM_ERROR).
 */
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <string>
#include <vector>

namespace gateway {

/// An outcome token: `{tokenId, outcome, price}`; `token_id` is the upstream's decimal id.
struct prediction_token {
    std::string token_id;
    std::string outcome;
    decimal price;
};

/// A market as listed inside an event (spec §2.13): without `eventId`, `status`, `volume`.
struct event_market {
    std::string market_id;
    std::string question;
    std::vector<std::string> outcomes;
    std::vector<prediction_token> tokens;
};

/// A prediction market (spec §2.14): the event-market fields plus the three below.
struct prediction_market : event_market {
    std::string event_id;
    market_status status = market_status::active;
    decimal volume;
};

/// A prediction event (spec §2.13).
struct prediction_event {
    std::string event_id;
    std::string title;
    std::string category;
    market_status status = market_status::active;
    std::string end_date; ///< ISO 8601 UTC
    decimal volume;
    decimal liquidity;
    std::vector<event_market> markets;
};

/**
 * One event with full market details (spec §4.6, `GET /v1/predictions/{provider}/events/{id}`):
 * the event's fields (spec §2.13) with each market complete (spec §2.14: also `eventId`,
 * `status`, `volume`), a superset of the listing's event.
 */
struct prediction_event_detail {
    std::string event_id;
    std::string title;
    std::string category;
    market_status status = market_status::active;
    std::string end_date; ///< ISO 8601 UTC
    decimal volume;
    decimal liquidity;
    std::vector<prediction_market> markets;
};

/// Reads an outcome token.
GATEWAY_DECL result<prediction_token> parse_prediction_token(boost::json::value const& v,
                                                             strictness mode);
/// Reads a market listed inside an event.
GATEWAY_DECL result<event_market> parse_event_market(boost::json::value const& v, strictness mode);
/// Reads a prediction market.
GATEWAY_DECL result<prediction_market> parse_prediction_market(boost::json::value const& v,
                                                               strictness mode);
/// Reads a prediction event.
GATEWAY_DECL result<prediction_event> parse_prediction_event(boost::json::value const& v,
                                                             strictness mode);
/// Reads an event with its full markets.
GATEWAY_DECL result<prediction_event_detail>
parse_prediction_event_detail(boost::json::value const& v, strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_token const& t);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             event_market const& m);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_market const& m);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_event const& e);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             prediction_event_detail const& e);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<prediction_token>
tag_invoke(boost::json::try_value_to_tag<prediction_token>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<event_market>
tag_invoke(boost::json::try_value_to_tag<event_market>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<prediction_market>
tag_invoke(boost::json::try_value_to_tag<prediction_market>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<prediction_event>
tag_invoke(boost::json::try_value_to_tag<prediction_event>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<prediction_event_detail>
tag_invoke(boost::json::try_value_to_tag<prediction_event_detail>, boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/predictions.hpp>
