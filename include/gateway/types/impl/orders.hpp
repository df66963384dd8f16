#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

GATEWAY_DECL result<place_order_request> parse_place_order_request(boost::json::value const& v,
                                                                   strictness mode) {
    json_fields f(v, mode, "order");
    place_order_request r;
    f.required("symbol", r.symbol);
    f.required("side", r.side);
    f.required("type", r.type);
    f.required("size", r.size);
    f.optional("price", r.price);
    f.optional("triggerPrice", r.trigger_price);
    f.optional("callbackRate", r.callback_rate);
    f.optional("activationPrice", r.activation_price);
    f.with_default("reduceOnly", r.reduce_only);
    f.optional("timeInForce", r.time_in_force);
    f.optional("clientOrderId", r.client_order_id);
    f.required("wallet", r.wallet);
    f.optional("signer", r.signer);
    f.with_default("signature", r.signature);
    f.required("nonce", r.nonce);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<cancel_order_request> parse_cancel_order_request(boost::json::value const& v,
                                                                     strictness mode) {
    json_fields f(v, mode, "cancel");
    cancel_order_request r;
    f.required("symbol", r.symbol);
    f.required("orderId", r.order_id);
    f.required("wallet", r.wallet);
    f.optional("signer", r.signer);
    f.with_default("signature", r.signature);
    f.required("nonce", r.nonce);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<set_leverage_request> parse_set_leverage_request(boost::json::value const& v,
                                                                     strictness mode) {
    json_fields f(v, mode, "leverage");
    set_leverage_request r;
    f.required("symbol", r.symbol);
    f.required("leverage", r.leverage);
    f.with_default("marginMode", r.margin_mode);
    f.required("wallet", r.wallet);
    f.optional("signer", r.signer);
    f.with_default("signature", r.signature);
    f.required("nonce", r.nonce);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<gamma_order_request> parse_gamma_order_request(boost::json::value const& v,
                                                                   strictness mode) {
    json_fields f(v, mode, "order");
    gamma_order_request r;
    f.required("tokenId", r.token_id);
    f.required("side", r.side);
    f.required("size", r.size);
    f.required("price", r.price);
    f.required("wallet", r.wallet);
    f.with_default("signatureType", r.signature_type);
    f.with_default("feeRateBps", r.fee_rate_bps);
    f.with_default("expiration", r.expiration);
    f.with_default("nonce", r.nonce);
    f.optional("salt", r.salt);
    f.optional("timeInForce", r.time_in_force);
    f.with_default("signature", r.signature);
    f.with_default("apiKey", r.api_key);
    f.with_default("apiSecret", r.api_secret);
    f.with_default("passphrase", r.passphrase);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<gamma_cancel_request> parse_gamma_cancel_request(boost::json::value const& v,
                                                                     strictness mode) {
    json_fields f(v, mode, "cancel");
    gamma_cancel_request r;
    f.required("orderId", r.order_id);
    f.required("wallet", r.wallet);
    f.required("apiKey", r.api_key);
    f.required("apiSecret", r.api_secret);
    f.required("passphrase", r.passphrase);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<place_result> parse_place_result(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "place result");
    place_result r;
    f.required("orderId", r.order_id);
    f.optional("clientOrderId", r.client_order_id);
    f.required("status", r.status);
    f.required("filledSize", r.filled_size);
    f.optional("averagePrice", r.average_price);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<cancel_result> parse_cancel_result(boost::json::value const& v,
                                                       strictness mode) {
    json_fields f(v, mode, "cancel result");
    cancel_result r;
    f.required("orderId", r.order_id);
    f.required("status", r.status);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<leverage_result> parse_leverage_result(boost::json::value const& v,
                                                           strictness mode) {
    json_fields f(v, mode, "leverage result");
    leverage_result r;
    f.required("symbol", r.symbol);
    f.required("leverage", r.leverage);
    f.required("marginMode", r.margin_mode);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<typed_data_request> parse_typed_data_request(boost::json::value const& v,
                                                                 strictness mode) {
    json_fields f(v, mode, "typed-data request");
    typed_data_request r;
    f.required("operation", r.operation);
    f.required("params", r.params);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL result<typed_data_response> parse_typed_data_response(boost::json::value const& v,
                                                                   strictness mode) {
    json_fields f(v, mode, "typed-data answer");
    typed_data_response r;
    f.required("params", r.params);
    f.required("typedData", r.typed_data);
    f.required("digest", r.digest);
    return detail::finish(f, std::move(r));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             place_order_request const& r) {
    auto o = detail::make_object(
        {{"symbol", r.symbol}, {"side", r.side}, {"type", r.type}, {"size", r.size}});
    detail::put_if(o, "price", r.price);
    detail::put_if(o, "triggerPrice", r.trigger_price);
    detail::put_if(o, "callbackRate", r.callback_rate);
    detail::put_if(o, "activationPrice", r.activation_price);
    if (r.reduce_only)
        o.emplace("reduceOnly", true);
    detail::put_if(o, "timeInForce", r.time_in_force);
    detail::put_if(o, "clientOrderId", r.client_order_id);
    o.emplace("wallet", r.wallet.str());
    detail::put_if(o, "signer", r.signer);
    detail::put_nonempty(o, "signature", r.signature);
    o.emplace("nonce", r.nonce);
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             cancel_order_request const& r) {
    auto o =
        detail::make_object({{"symbol", r.symbol}, {"orderId", r.order_id}, {"wallet", r.wallet}});
    detail::put_if(o, "signer", r.signer);
    detail::put_nonempty(o, "signature", r.signature);
    o.emplace("nonce", r.nonce);
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             set_leverage_request const& r) {
    auto o = detail::make_object({{"symbol", r.symbol},
                                  {"leverage", r.leverage},
                                  {"marginMode", r.margin_mode},
                                  {"wallet", r.wallet}});
    detail::put_if(o, "signer", r.signer);
    detail::put_nonempty(o, "signature", r.signature);
    o.emplace("nonce", r.nonce);
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             gamma_order_request const& r) {
    auto o = detail::make_object({{"tokenId", r.token_id},
                                  {"side", r.side},
                                  {"size", r.size},
                                  {"price", r.price},
                                  {"wallet", r.wallet},
                                  {"signatureType", r.signature_type},
                                  {"feeRateBps", r.fee_rate_bps},
                                  {"expiration", r.expiration},
                                  {"nonce", r.nonce}});
    detail::put_if(o, "salt", r.salt);
    detail::put_if(o, "timeInForce", r.time_in_force);
    detail::put_nonempty(o, "signature", r.signature);
    detail::put_nonempty(o, "apiKey", r.api_key);
    detail::put_nonempty(o, "apiSecret", r.api_secret);
    detail::put_nonempty(o, "passphrase", r.passphrase);
    jv = std::move(o);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             gamma_cancel_request const& r) {
    jv = detail::make_object({{"orderId", r.order_id},
                              {"wallet", r.wallet},
                              {"apiKey", r.api_key},
                              {"apiSecret", r.api_secret},
                              {"passphrase", r.passphrase}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             place_result const& r) {
    jv = detail::make_object({{"orderId", r.order_id},
                              {"clientOrderId", r.client_order_id},
                              {"status", r.status},
                              {"filledSize", r.filled_size},
                              {"averagePrice", r.average_price}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             cancel_result const& r) {
    jv = detail::make_object({{"orderId", r.order_id}, {"status", r.status}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             leverage_result const& r) {
    jv = detail::make_object(
        {{"symbol", r.symbol}, {"leverage", r.leverage}, {"marginMode", r.margin_mode}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             typed_data_request const& r) {
    jv = detail::make_object({{"operation", r.operation}, {"params", r.params}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             typed_data_response const& r) {
    jv = detail::make_object(
        {{"params", r.params}, {"typedData", r.typed_data}, {"digest", r.digest}});
}

GATEWAY_DECL boost::json::result<place_order_request>
tag_invoke(boost::json::try_value_to_tag<place_order_request>, boost::json::value const& v) {
    return detail::to_json_result(parse_place_order_request(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<cancel_order_request>
tag_invoke(boost::json::try_value_to_tag<cancel_order_request>, boost::json::value const& v) {
    return detail::to_json_result(parse_cancel_order_request(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<set_leverage_request>
tag_invoke(boost::json::try_value_to_tag<set_leverage_request>, boost::json::value const& v) {
    return detail::to_json_result(parse_set_leverage_request(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<gamma_order_request>
tag_invoke(boost::json::try_value_to_tag<gamma_order_request>, boost::json::value const& v) {
    return detail::to_json_result(parse_gamma_order_request(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<gamma_cancel_request>
tag_invoke(boost::json::try_value_to_tag<gamma_cancel_request>, boost::json::value const& v) {
    return detail::to_json_result(parse_gamma_cancel_request(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<place_result>
tag_invoke(boost::json::try_value_to_tag<place_result>, boost::json::value const& v) {
    return detail::to_json_result(parse_place_result(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<cancel_result>
tag_invoke(boost::json::try_value_to_tag<cancel_result>, boost::json::value const& v) {
    return detail::to_json_result(parse_cancel_result(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<leverage_result>
tag_invoke(boost::json::try_value_to_tag<leverage_result>, boost::json::value const& v) {
    return detail::to_json_result(parse_leverage_result(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<typed_data_request>
tag_invoke(boost::json::try_value_to_tag<typed_data_request>, boost::json::value const& v) {
    return detail::to_json_result(parse_typed_data_request(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<typed_data_response>
tag_invoke(boost::json::try_value_to_tag<typed_data_response>, boost::json::value const& v) {
    return detail::to_json_result(parse_typed_data_response(v, strictness::upstream));
}

} // namespace gateway
