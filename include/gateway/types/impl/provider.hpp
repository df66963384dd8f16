#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

namespace detail {
// The list fields, shared by `provider` and `provider_detail` so one reader checks them all.
GATEWAY_DECL void read_fields(json_fields& f, provider& p) {
    f.required("id", p.id);
    f.required("name", p.name);
    f.required("verticals", p.verticals);
    f.required("testnet", p.testnet);
    f.required("authModel", p.auth_model);
    f.required("description", p.description);
}

GATEWAY_DECL boost::json::object write_fields(provider const& p) {
    return make_object({{"id", p.id},
                        {"name", p.name},
                        {"verticals", p.verticals},
                        {"testnet", p.testnet},
                        {"authModel", p.auth_model},
                        {"description", p.description}});
}
} // namespace detail

GATEWAY_DECL result<rate_limit> parse_rate_limit(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "rate limit");
    rate_limit r;
    f.required("requests", r.requests);
    f.required("windowSeconds", r.window_seconds);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<vertical_detail> parse_vertical_detail(boost::json::value const& v,
                                                           strictness mode) {
    json_fields f(v, mode, "vertical detail");
    vertical_detail d;
    f.required("vertical", d.vertical);
    f.required("baseUrl", d.base_url);
    f.required("wsUrl", d.ws_url);
    f.optional("testnetBaseUrl", d.testnet_base_url);
    f.optional("testnetWsUrl", d.testnet_ws_url);
    f.optional("clobBaseUrl", d.clob_base_url);
    f.optional("readSigner", d.read_signer);
    return detail::finish(f, std::move(d));
}

GATEWAY_DECL result<provider> parse_provider(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "provider");
    provider p;
    detail::read_fields(f, p);
    return detail::finish(f, std::move(p));
}

GATEWAY_DECL result<provider_detail> parse_provider_detail(boost::json::value const& v,
                                                           strictness mode) {
    json_fields f(v, mode, "provider detail");
    provider_detail p;
    detail::read_fields(f, p);
    f.required("verticalDetails", p.vertical_details, parse_vertical_detail);
    f.required("orderTypes", p.order_types);
    f.required("rateLimit", p.rate_limit, parse_rate_limit);
    f.required("docsUrl", p.docs_url);
    return detail::finish(f, std::move(p));
}

GATEWAY_DECL result<provider_list> parse_provider_list(boost::json::value const& v,
                                                       strictness mode) {
    json_fields f(v, mode, "provider list");
    provider_list l;
    f.required("providers", l.providers, parse_provider);
    return detail::finish(f, std::move(l));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             rate_limit const& r) {
    jv = detail::make_object({{"requests", r.requests}, {"windowSeconds", r.window_seconds}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             vertical_detail const& d) {
    auto o = detail::make_object(
        {{"vertical", d.vertical}, {"baseUrl", d.base_url}, {"wsUrl", d.ws_url}});
    detail::put_if(o, "testnetBaseUrl", d.testnet_base_url);
    detail::put_if(o, "testnetWsUrl", d.testnet_ws_url);
    detail::put_if(o, "clobBaseUrl", d.clob_base_url);
    detail::put_if(o, "readSigner", d.read_signer);
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider const& p) {
    jv = detail::write_fields(p);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider_detail const& p) {
    auto o = detail::write_fields(p);
    o.emplace("verticalDetails", boost::json::value_from(p.vertical_details));
    o.emplace("orderTypes", boost::json::value_from(p.order_types));
    o.emplace("rateLimit", boost::json::value_from(p.rate_limit));
    o.emplace("docsUrl", p.docs_url);
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider_list const& l) {
    jv = detail::make_object({{"providers", l.providers}});
}

GATEWAY_DECL boost::json::result<rate_limit> tag_invoke(boost::json::try_value_to_tag<rate_limit>,
                                                        boost::json::value const& v) {
    return detail::to_json_result(parse_rate_limit(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<vertical_detail>
tag_invoke(boost::json::try_value_to_tag<vertical_detail>, boost::json::value const& v) {
    return detail::to_json_result(parse_vertical_detail(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<provider> tag_invoke(boost::json::try_value_to_tag<provider>,
                                                      boost::json::value const& v) {
    return detail::to_json_result(parse_provider(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<provider_detail>
tag_invoke(boost::json::try_value_to_tag<provider_detail>, boost::json::value const& v) {
    return detail::to_json_result(parse_provider_detail(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<provider_list>
tag_invoke(boost::json::try_value_to_tag<provider_list>, boost::json::value const& v) {
    return detail::to_json_result(parse_provider_list(v, strictness::upstream));
}

} // namespace gateway
