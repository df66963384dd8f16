#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

GATEWAY_DECL result<health_entry> parse_health_entry(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "health entry");
    health_entry h;
    f.required("status", h.status);
    f.required("latency", h.latency);
    return detail::finish(f, std::move(h));
}

GATEWAY_DECL result<aggregate_health> parse_aggregate_health(boost::json::value const& v,
                                                             strictness mode) {
    json_fields f(v, mode, "health");
    aggregate_health h;
    f.required("status", h.status);
    f.required("service", h.service);
    f.required("timestamp", h.timestamp);
    f.required("providers", h.providers, parse_health_entry);
    return detail::finish(f, std::move(h));
}

GATEWAY_DECL result<provider_health> parse_provider_health(boost::json::value const& v,
                                                           strictness mode) {
    json_fields f(v, mode, "provider health");
    provider_health h;
    f.required("provider", h.provider);
    f.required("status", h.status);
    f.required("latency", h.latency);
    f.required("checkedAt", h.checked_at);
    f.required("checkMethod", h.check_method);
    return detail::finish(f, std::move(h));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             health_entry const& h) {
    jv = detail::make_object({{"status", h.status}, {"latency", h.latency}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             aggregate_health const& h) {
    jv = detail::make_object({{"status", h.status},
                              {"service", h.service},
                              {"timestamp", h.timestamp},
                              {"providers", h.providers}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider_health const& h) {
    jv = detail::make_object({{"provider", h.provider},
                              {"status", h.status},
                              {"latency", h.latency},
                              {"checkedAt", h.checked_at},
                              {"checkMethod", h.check_method}});
}

GATEWAY_DECL boost::json::result<health_entry>
tag_invoke(boost::json::try_value_to_tag<health_entry>, boost::json::value const& v) {
    return detail::to_json_result(parse_health_entry(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<aggregate_health>
tag_invoke(boost::json::try_value_to_tag<aggregate_health>, boost::json::value const& v) {
    return detail::to_json_result(parse_aggregate_health(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<provider_health>
tag_invoke(boost::json::try_value_to_tag<provider_health>, boost::json::value const& v) {
    return detail::to_json_result(parse_provider_health(v, strictness::upstream));
}

} // namespace gateway
