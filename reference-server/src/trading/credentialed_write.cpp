#include "trading/credentialed_write.hpp"

#include "trading/write_outcome.hpp"

#include <gateway/sign/secp256k1.hpp>
#include <gateway/util/hex.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/json/value_from.hpp>

#include <openssl/crypto.h>

#include <array>
#include <string_view>

namespace gateway::server {

namespace json = boost::json;

namespace {

/// The request keys holding a credential.
constexpr std::array<std::string_view, 3> credential_keys{"apiKey", "apiSecret", "passphrase"};

/// Overwrites the credential strings of `body` in place: the parsed request now owns the only
/// copies, which move into `api_credentials` (wiped in turn when it is dropped).
void wipe_credentials(json::object& o) {
    for (auto key : credential_keys)
        if (auto* v = o.if_contains(key); v && v->is_string())
            OPENSSL_cleanse(v->get_string().data(), v->get_string().size());
}

void wipe_credentials(json::value& body) {
    if (auto* o = body.if_object())
        wipe_credentials(*o);
}

/// `/v1[/testnet]/predictions/{alias}`: where a client reads what it owns.
std::string predictions_path(write_target const& t) {
    return std::string(t.testnet ? "/v1/testnet" : "/v1") + "/predictions/" + t.alias;
}

/// The SIGNATURE_ERROR of an Order signed by someone other than `wallet` (CONTRACT §6.3).
api_error wrong_signer(write_target const& t, derived_prediction_order const& o,
                       address const& recovered) {
    std::string const& who = recovered.str();
    std::string const wallet = o.signer.str();
    api_error e = make_error(errc::signature_error,
                             "The signature recovers to " + who + ", not the wallet " + wallet +
                                 " on " + t.alias + "; check the key, " + o.signature_hint +
                                 ", and that the body is exactly what was signed.");
    e.details["field"] = "signature";
    e.details["recovered"] = who;
    e.details["expected"] = wallet;
    return e;
}

} // namespace

result<api_credentials> read_credentials(std::optional<std::string_view> api_key,
                                         std::optional<std::string_view> secret,
                                         std::optional<std::string_view> passphrase) {
    auto const missing = [](std::string_view header) {
        return field_error(header, "The header " + std::string(header) +
                                       " is required: the CLOB credentials of the account read.");
    };
    if (!api_key || api_key->empty())
        return missing(api_key_header);
    if (!secret || secret->empty())
        return missing(api_secret_header);
    if (!passphrase || passphrase->empty())
        return missing(passphrase_header);
    // They go on into upstream headers: CR, LF or NUL there would split the upstream request.
    for (auto const& [header, value] :
         {std::pair{api_key_header, *api_key}, std::pair{api_secret_header, *secret},
          std::pair{passphrase_header, *passphrase}})
        if (auto ok = check_header_value(header, value); !ok)
            return ok.error();
    return api_credentials(std::string(*api_key), std::string(*secret), std::string(*passphrase));
}

// Coroutine parameters by value: they live in the frame across suspensions.
// cppcheck-suppress passedByValue
async_result<place_result> place_prediction_order(call_context ctx, predictions_trading& provider,
                                                  write_target target, json::value body) {
    auto r = parse_gamma_order_request(body, strictness::inbound);
    wipe_credentials(body);
    if (!r)
        co_return r.error();
    auto const valid = validate(*r, body_kind::signed_write);
    // From here on the credentials exist once, in the wiping type (also when refused).
    api_credentials creds(std::move(r->api_key), std::move(r->api_secret),
                          std::move(r->passphrase));
    if (!valid)
        co_return valid.error();
    auto const wallet = r->wallet;
    std::string const signature = r->signature;

    auto derived = co_await provider.derive(ctx, std::move(*r), derive_mode::write);
    if (!derived)
        co_return derived.error();
    auto sig = sign::wire_signature(signature);
    if (!sig)
        co_return sig.error();
    auto signer = sign::recover(derived->digest, *sig);
    if (!signer)
        co_return signer.error();
    if (*signer != derived->signer)
        co_return wrong_signer(target, *derived, *signer);

    auto placed = co_await provider.place(ctx, *derived, std::move(creds));
    if (placed)
        co_return placed;
    std::string const path = predictions_path(target);
    co_return outcome_unknown_answer(
        placed.error(), target.alias,
        "the state of order " + util::to_hex(derived->digest) + " is unknown: check GET " + path +
            "/orders?wallet=" + wallet.str() + " and " + path + "/fills?wallet=" + wallet.str() +
            " before placing it again.");
}

// cppcheck-suppress passedByValue
async_result<cancel_result> cancel_prediction_order(call_context ctx, predictions_trading& provider,
                                                    write_target target, json::value body) {
    auto r = parse_gamma_cancel_request(body, strictness::inbound);
    wipe_credentials(body);
    if (!r)
        co_return r.error();
    auto const valid = validate(*r);
    api_credentials creds(std::move(r->api_key), std::move(r->api_secret),
                          std::move(r->passphrase));
    if (!valid)
        co_return valid.error();
    auto canceled = co_await provider.cancel(ctx, *r, std::move(creds));
    if (canceled)
        co_return canceled;
    co_return outcome_unknown_answer(
        canceled.error(), target.alias,
        "whether order " + r->order_id + " was canceled is unknown: check GET " +
            predictions_path(target) + "/orders?wallet=" + r->wallet.str() + ".");
}

// cppcheck-suppress passedByValue
async_result<typed_data_response> prediction_typed_data(call_context ctx,
                                                        predictions_trading& provider,
                                                        write_target target, json::value body) {
    auto req = parse_typed_data_request(body, strictness::inbound);
    if (!req)
        co_return req.error();
    if (req->operation != typed_data_operation::place_order)
        co_return field_error("operation", "'operation' must be placeOrder: " + target.alias +
                                               " cancels carry no signature, only the "
                                               "credentials.");
    req->params.erase("signature"); // params are the body without it (CONTRACT §6)
    for (auto key : credential_keys)
        if (req->params.contains(key)) {
            // Refused rather than ignored: the answer echoes params, never a credential.
            wipe_credentials(req->params);
            if (auto* params = body.as_object().if_contains("params"))
                wipe_credentials(*params);
            co_return field_error(key, "'" + std::string(key) +
                                           "' does not belong in typed-data params: the "
                                           "credentials go with the order only.");
        }
    auto r = parse_gamma_order_request(req->params, strictness::inbound);
    if (!r)
        co_return r.error();
    if (auto ok = validate(*r, body_kind::typed_data_params); !ok)
        co_return ok.error();
    auto derived = co_await provider.derive(ctx, std::move(*r), derive_mode::typed_data);
    if (!derived)
        co_return derived.error();
    typed_data_response out;
    out.params = json::value_from(derived->request).as_object();
    out.params.erase("signature");
    out.typed_data = derived->typed_data.as_object();
    out.digest = util::to_hex(derived->digest);
    co_return out;
}

} // namespace gateway::server
