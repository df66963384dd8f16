#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

GATEWAY_DECL result<account_summary> parse_account_summary(boost::json::value const& v,
                                                           strictness mode) {
    json_fields f(v, mode, "account summary");
    account_summary a;
    f.required("equity", a.equity);
    f.required("availableMargin", a.available_margin);
    f.required("usedMargin", a.used_margin);
    f.required("unrealizedPnl", a.unrealized_pnl);
    f.required("totalPositionValue", a.total_position_value);
    return detail::finish(f, std::move(a));
}

GATEWAY_DECL result<position> parse_position(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "position");
    position p;
    f.required("symbol", p.symbol);
    f.required("side", p.side);
    f.required("size", p.size);
    f.required("entryPrice", p.entry_price);
    f.required("markPrice", p.mark_price);
    f.required("unrealizedPnl", p.unrealized_pnl);
    f.required("leverage", p.leverage);
    f.required("liquidationPrice", p.liquidation_price);
    f.required("margin", p.margin);
    return detail::finish(f, std::move(p));
}

GATEWAY_DECL result<spot_balance> parse_spot_balance(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "spot balance");
    spot_balance b;
    f.required("asset", b.asset);
    f.required("available", b.available);
    f.required("locked", b.locked);
    f.required("total", b.total);
    return detail::finish(f, std::move(b));
}

GATEWAY_DECL result<open_order> parse_open_order(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "open order");
    open_order o;
    f.required("orderId", o.order_id);
    f.optional("clientOrderId", o.client_order_id);
    f.required("symbol", o.symbol);
    f.required("side", o.side);
    f.required("type", o.type);
    f.optional("price", o.price);
    f.optional("triggerPrice", o.trigger_price);
    f.required("size", o.size);
    f.required("filledSize", o.filled_size);
    f.required("reduceOnly", o.reduce_only);
    f.required("status", o.status);
    f.required("timestamp", o.timestamp);
    f.optional("callbackRate", o.callback_rate);
    return detail::finish(f, std::move(o));
}

GATEWAY_DECL result<fill> parse_fill(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "fill");
    fill x;
    f.required("id", x.id);
    f.required("orderId", x.order_id);
    f.required("symbol", x.symbol);
    f.required("side", x.side);
    f.required("price", x.price);
    f.required("size", x.size);
    f.required("fee", x.fee);
    f.required("feeAsset", x.fee_asset);
    f.required("liquidity", x.liquidity);
    f.optional("closedPnl", x.closed_pnl);
    f.required("timestamp", x.timestamp);
    return detail::finish(f, std::move(x));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             account_summary const& a) {
    jv = detail::make_object({{"equity", a.equity},
                              {"availableMargin", a.available_margin},
                              {"usedMargin", a.used_margin},
                              {"unrealizedPnl", a.unrealized_pnl},
                              {"totalPositionValue", a.total_position_value}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             position const& p) {
    jv = detail::make_object({{"symbol", p.symbol},
                              {"side", p.side},
                              {"size", p.size},
                              {"entryPrice", p.entry_price},
                              {"markPrice", p.mark_price},
                              {"unrealizedPnl", p.unrealized_pnl},
                              {"leverage", p.leverage},
                              {"liquidationPrice", p.liquidation_price},
                              {"margin", p.margin}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             spot_balance const& b) {
    jv = detail::make_object(
        {{"asset", b.asset}, {"available", b.available}, {"locked", b.locked}, {"total", b.total}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             open_order const& o) {
    jv = detail::make_object({{"orderId", o.order_id},
                              {"clientOrderId", o.client_order_id},
                              {"symbol", o.symbol},
                              {"side", o.side},
                              {"type", o.type},
                              {"price", o.price},
                              {"triggerPrice", o.trigger_price},
                              {"size", o.size},
                              {"filledSize", o.filled_size},
                              {"reduceOnly", o.reduce_only},
                              {"status", o.status},
                              {"timestamp", o.timestamp}});
    detail::put_if(jv.as_object(), "callbackRate", o.callback_rate);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, fill const& f) {
    jv = detail::make_object({{"id", f.id},
                              {"orderId", f.order_id},
                              {"symbol", f.symbol},
                              {"side", f.side},
                              {"price", f.price},
                              {"size", f.size},
                              {"fee", f.fee},
                              {"feeAsset", f.fee_asset},
                              {"liquidity", f.liquidity},
                              {"closedPnl", f.closed_pnl},
                              {"timestamp", f.timestamp}});
}

GATEWAY_DECL boost::json::result<account_summary>
tag_invoke(boost::json::try_value_to_tag<account_summary>, boost::json::value const& v) {
    return detail::to_json_result(parse_account_summary(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<position> tag_invoke(boost::json::try_value_to_tag<position>,
                                                      boost::json::value const& v) {
    return detail::to_json_result(parse_position(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<spot_balance>
tag_invoke(boost::json::try_value_to_tag<spot_balance>, boost::json::value const& v) {
    return detail::to_json_result(parse_spot_balance(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<open_order> tag_invoke(boost::json::try_value_to_tag<open_order>,
                                                        boost::json::value const& v) {
    return detail::to_json_result(parse_open_order(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<fill> tag_invoke(boost::json::try_value_to_tag<fill>,
                                                  boost::json::value const& v) {
    return detail::to_json_result(parse_fill(v, strictness::upstream));
}

} // namespace gateway
