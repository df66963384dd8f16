#include "trading/signed_write.hpp"

#include "trading/write_outcome.hpp"

#include <gateway/sign/secp256k1.hpp>
#include <gateway/util/hex.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/json/value_from.hpp>

namespace gateway::server {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

/// "alpha", "alpha testnet": the upstream a message names.
std::string network_name(write_target const& t) {
    return t.testnet ? t.alias + " testnet" : t.alias;
}

/// `/v1[/testnet]/perps/{alias}/account/{wallet}`: where a client checks a write's outcome.
std::string account_path(write_target const& t, address const& wallet) {
    return std::string(t.testnet ? "/v1/testnet" : "/v1") + "/perps/" + t.alias + "/account/" +
           wallet.str();
}

/// A request's wallet, signature and nonce, whatever its operation.
struct signed_fields {
    address wallet;
    std::string signature;
    std::int64_t nonce = 0;
};

signed_fields fields_of(signed_request const& r) {
    return std::visit(
        [](auto const& x) {
            return signed_fields{x.wallet, x.signature, x.nonce};
        },
        r);
}

/// What to tell the client when the write's outcome is unknown (a timeout, a broken
/// connection after sending): the state, and where to look.
std::string what_unknown(write_target const& t, signed_request const& r) {
    if (auto const* p = std::get_if<place_order_request>(&r))
        return "the order's state is unknown: check GET " + account_path(t, p->wallet) +
               "/orders and /fills" +
               (p->client_order_id ? " for clientOrderId " + *p->client_order_id : "") +
               " before placing it again.";
    if (auto const* c = std::get_if<cancel_order_request>(&r))
        return "whether order " + c->order_id + " was canceled is unknown: check GET " +
               account_path(t, c->wallet) + "/orders.";
    auto const& l = std::get<set_leverage_request>(r);
    return "whether the leverage changed is unknown: check GET " + account_path(t, l.wallet) +
           "/positions.";
}

/// The order types `provider` takes on `v`, for the refusal's message.
std::string supported_list(signed_trading const& provider, vertical v) {
    std::string out;
    for (auto t : {order_type::market, order_type::limit, order_type::stop_market,
                   order_type::stop_limit, order_type::trailing_stop})
        if (provider.supports(v, t))
            out += (out.empty() ? "" : ", ") + std::string(to_string(t));
    return out;
}

/// CONTRACT §2: the order type comes before the fields, so a `trailing_stop` sent to a
/// provider without it is UNSUPPORTED_ORDER_TYPE whatever else the body lacks. A `type` that
/// is no order type at all is left to the field checks (VALIDATION_ERROR).
result<void> check_order_type(signed_trading const& provider, write_target const& target,
                              json::value const& body) {
    auto const* type = body.as_object().if_contains("type");
    if (!type || !type->is_string())
        return {};
    auto const t = parse_order_type(type->get_string(), "type");
    if (!t || provider.supports(target.v, *t))
        return {};
    return field_error("type",
                       "Order type '" + std::string(to_string(*t)) + "' is not available for " +
                           std::string(to_string(target.v)) + " orders on " + target.alias +
                           "; use " + supported_list(provider, target.v) + ".",
                       errc::unsupported_order_type);
}

template <class Request>
result<signed_request> read_as(json::value const& body,
                               result<Request> (*parse)(json::value const&, strictness),
                               body_kind kind) {
    auto r = parse(body, strictness::inbound);
    if (!r)
        return r.error();
    if (auto ok = validate(*r, kind); !ok)
        return ok.error();
    return signed_request(std::move(*r));
}

} // namespace

std::int64_t signed_write_pipeline::next_nonce(std::int64_t now_ms) {
    auto last = last_nonce_.load();
    std::int64_t next = 0;
    do
        next = std::max(now_ms, last + 1);
    while (!last_nonce_.compare_exchange_weak(last, next));
    return next;
}

result<signed_request> signed_write_pipeline::read(signed_trading const& provider,
                                                   write_target const& target, write_operation op,
                                                   json::value const& body, body_kind kind,
                                                   std::int64_t now_ms) {
    json::value v = body;
    if (kind == body_kind::typed_data_params) {
        v.as_object().erase("signature"); // params are the body without it (CONTRACT §6)
        if (!v.as_object().contains("nonce"))
            v.as_object()["nonce"] = next_nonce(now_ms); // the gateway picks one
    }
    switch (op) {
    case write_operation::place:
        if (auto ok = check_order_type(provider, target, v); !ok)
            return ok.error();
        return read_as(v, &parse_place_order_request, kind);
    case write_operation::cancel:
        return read_as(v, &parse_cancel_order_request, kind);
    case write_operation::leverage:
        break;
    }
    if (target.v != vertical::perps)
        return field_error("operation", "`operation` setLeverage exists for perps only.");
    return read_as(v, &parse_set_leverage_request, kind);
}

async_result<write_result> signed_write_pipeline::write(call_context ctx, signed_trading& provider,
                                                        write_target target, write_operation op,
                                                        json::value body) {
    auto request = read(provider, target, op, body, body_kind::signed_write, ctx.now_ms);
    if (!request)
        co_return request.error();
    auto const f = fields_of(*request);
    auto derived = co_await provider.derive(ctx, target.v, *request, derive_mode::write);
    if (!derived)
        co_return derived.error();

    auto sig = sign::wire_signature(f.signature);
    if (!sig)
        co_return sig.error();
    auto signer = sign::recover(derived->digest, *sig);
    if (!signer)
        co_return signer.error();
    auto allowed = co_await provider.authorized(ctx, *derived, f.wallet, *signer);
    if (!allowed)
        co_return allowed.error();
    if (!*allowed) {
        std::string const wallet = f.wallet.str();
        std::string const who = signer->str();
        api_error e = make_error(
            errc::signature_error,
            "The signature recovers to " + who + ", which is neither the wallet " + wallet +
                " nor an agent it approved on " + network_name(target) +
                "; check the key, the network (" + provider.signature_hint(target.testnet) +
                ") and that the body is exactly what was signed.");
        e.details["field"] = "signature";
        e.details["recovered"] = who;
        e.details["expected"] = wallet;
        co_return e;
    }

    std::string const scope = target.alias + (target.testnet ? "-testnet:" : ":") + signer->str();
    if (auto fresh = nonces_.check_and_record(scope, f.nonce, ctx.now_ms, provider.window());
        !fresh)
        co_return fresh.error();

    auto answer = co_await provider.send(ctx, *derived, f.signature);
    if (answer)
        co_return answer;
    api_error e = answer.error();
    if (e.code == errc::provider_unavailable)
        nonces_.release(scope, f.nonce); // it never left: the client may use the nonce again
    co_return outcome_unknown_answer(std::move(e), network_name(target),
                                     what_unknown(target, *request));
}

async_result<typed_data_response> signed_write_pipeline::typed_data(call_context ctx,
                                                                    signed_trading& provider,
                                                                    write_target target,
                                                                    json::value body) {
    auto req = parse_typed_data_request(body, strictness::inbound);
    if (!req)
        co_return req.error();
    write_operation op = write_operation::place;
    if (req->operation == typed_data_operation::cancel_order)
        op = write_operation::cancel;
    else if (req->operation == typed_data_operation::set_leverage)
        op = write_operation::leverage;
    auto request =
        read(provider, target, op, req->params, body_kind::typed_data_params, ctx.now_ms);
    if (!request)
        co_return request.error();
    auto derived = co_await provider.derive(ctx, target.v, *request, derive_mode::typed_data);
    if (!derived)
        co_return derived.error();
    typed_data_response out;
    out.params =
        std::visit([](auto const& r) { return json::value_from(r); }, derived->request).as_object();
    out.params.erase("signature");
    out.typed_data = derived->typed_data.as_object();
    out.digest = util::to_hex(derived->digest);
    co_return out;
}

} // namespace gateway::server
