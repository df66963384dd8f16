#pragma once
/**
 * @file health.hpp
 * Aggregate and single-provider health (spec §2.3, §2.4, §3; CONTRACT §1).
 *
 * Every `parse_<type>` reads with `json_fields` in the given mode: inbound is strict (unknown
 * field: VALIDATION_ERROR; non-object: INVALID_JSON), upstream is lenient (UPSTREAM_ERROR).
 */
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace gateway {

/// One provider in the aggregate: `{status, latency}` (latency in ms).
struct health_entry {
    health_status status = health_status::ok;
    std::int64_t latency = 0;
};

/// Body of `GET /v1/health`; `status` is the worst of `providers` (see `worst`).
struct aggregate_health {
    health_status status = health_status::ok;
    std::string service;
    std::string timestamp; ///< ISO 8601 UTC
    std::map<std::string, health_entry, std::less<>> providers;
};

/// Body of `GET /v1/health/{provider}`.
struct provider_health {
    std::string provider;
    health_status status = health_status::ok;
    std::int64_t latency = 0; ///< ms; for `down`, the time until the failure was seen
    std::string checked_at;   ///< ISO 8601 UTC
    std::string check_method; ///< the upstream probe performed
};

/// Reads an aggregate `providers` entry.
GATEWAY_DECL result<health_entry> parse_health_entry(boost::json::value const& v, strictness mode);
/// Reads the aggregate health body.
GATEWAY_DECL result<aggregate_health> parse_aggregate_health(boost::json::value const& v,
                                                             strictness mode);
/// Reads a single-provider health body.
GATEWAY_DECL result<provider_health> parse_provider_health(boost::json::value const& v,
                                                           strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             health_entry const& h);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             aggregate_health const& h);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider_health const& h);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<health_entry>
tag_invoke(boost::json::try_value_to_tag<health_entry>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<aggregate_health>
tag_invoke(boost::json::try_value_to_tag<aggregate_health>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<provider_health>
tag_invoke(boost::json::try_value_to_tag<provider_health>, boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/health.hpp>
