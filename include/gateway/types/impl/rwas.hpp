#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

namespace detail {
// The list fields, shared by `dex` and `dex_detail` so one reader checks them all.
GATEWAY_DECL void read_fields(json_fields& f, dex& d) {
    f.required("name", d.name);
    f.required("deployer", d.deployer);
    f.required("marketCount", d.market_count);
    f.required("description", d.description);
}

GATEWAY_DECL boost::json::object write_fields(dex const& d) {
    return make_object({{"name", d.name},
                        {"deployer", d.deployer},
                        {"marketCount", d.market_count},
                        {"description", d.description}});
}
} // namespace detail

GATEWAY_DECL result<dex> parse_dex(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "dex");
    dex d;
    detail::read_fields(f, d);
    return detail::finish(f, std::move(d));
}

GATEWAY_DECL result<dex_market> parse_dex_market(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "dex market");
    dex_market m;
    f.required("symbol", m.symbol);
    f.required("maxLeverage", m.max_leverage);
    f.required("szDecimals", m.sz_decimals);
    f.required("markPrice", m.mark_price);
    f.required("openInterest", m.open_interest);
    return detail::finish(f, std::move(m));
}

GATEWAY_DECL result<dex_detail> parse_dex_detail(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "dex detail");
    dex_detail d;
    detail::read_fields(f, d);
    f.required("markets", d.markets, parse_dex_market);
    return detail::finish(f, std::move(d));
}

GATEWAY_DECL result<dex_status> parse_dex_status(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "dex status");
    dex_status s;
    f.required("name", s.name);
    f.required("status", s.status);
    f.required("totalNetDeposit", s.total_net_deposit);
    f.required("openInterest", s.open_interest);
    f.required("checkedAt", s.checked_at);
    return detail::finish(f, std::move(s));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, dex const& d) {
    jv = detail::write_fields(d);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             dex_market const& m) {
    jv = detail::make_object({{"symbol", m.symbol},
                              {"maxLeverage", m.max_leverage},
                              {"szDecimals", m.sz_decimals},
                              {"markPrice", m.mark_price},
                              {"openInterest", m.open_interest}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             dex_detail const& d) {
    auto o = detail::write_fields(d);
    o.emplace("markets", boost::json::value_from(d.markets));
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             dex_status const& s) {
    jv = detail::make_object({{"name", s.name},
                              {"status", s.status},
                              {"totalNetDeposit", s.total_net_deposit},
                              {"openInterest", s.open_interest},
                              {"checkedAt", s.checked_at}});
}

GATEWAY_DECL boost::json::result<dex> tag_invoke(boost::json::try_value_to_tag<dex>,
                                                 boost::json::value const& v) {
    return detail::to_json_result(parse_dex(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<dex_market> tag_invoke(boost::json::try_value_to_tag<dex_market>,
                                                        boost::json::value const& v) {
    return detail::to_json_result(parse_dex_market(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<dex_detail> tag_invoke(boost::json::try_value_to_tag<dex_detail>,
                                                        boost::json::value const& v) {
    return detail::to_json_result(parse_dex_detail(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<dex_status> tag_invoke(boost::json::try_value_to_tag<dex_status>,
                                                        boost::json::value const& v) {
    return detail::to_json_result(parse_dex_status(v, strictness::upstream));
}

} // namespace gateway
