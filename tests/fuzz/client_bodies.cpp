// libFuzzer target: every JSON body a client sends (CONTRACT §5, §6, §9): place order (perps
// and spot), cancel, set leverage, gamma order and cancel, typed-data requests with their
// params, sign-up and sign-in. The input is the request body; each parser reads it as the
// routes do (`boost::json::parse` with default options, as `json_body`, then the strict reader).
//
// Checked beyond "no crash":
// - a refusal is a well-formed VALIDATION_ERROR or INVALID_JSON (`details.field` set);
// - an accepted body written back by its JSON writer reads back to the same JSON, and the
//   lenient (upstream) reader accepts it too, with the same result;
// - `validate` refuses only with VALIDATION_ERROR naming a field;
// - for alpha writes (as the write routes and the typed-data route do): the derived action
//   hashes (no float), its typed data hashes to the digest the payload carries, and a signature
//   is parsed or refused as SIGNATURE_ERROR.
#include "fuzz_common.hpp"

#include "account_bodies.hpp"

#include <gateway/providers/alpha/orders.hpp>
#include <gateway/sign/eip712.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/validate/validate.hpp>

#include <array>

namespace {

namespace json = boost::json;
namespace sa = gateway::sign::alpha;
using gateway::body_kind;
using gateway::errc;
using gateway::strictness;
using gateway::fuzz::check_error;
using gateway::fuzz::check_outcome;

template <class T>
using parse_fn = gateway::result<T> (*)(json::value const&, strictness);

/// Reads `v` strictly; on success checks the writer / reader round trip and the lenient reader.
template <class T>
std::optional<T> read(json::value const& v, parse_fn<T> parse) {
    auto r = parse(v, strictness::inbound);
    auto lenient = parse(v, strictness::upstream);
    check_outcome(lenient, {errc::upstream_error});
    if (!r) {
        check_error(r.error(), {errc::validation_error, errc::invalid_json});
        return std::nullopt;
    }
    json::value const written = json::value_from(*r);
    auto again = parse(written, strictness::inbound);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(json::value_from(*again) == written);
    FUZZ_CHECK(lenient.has_value());
    FUZZ_CHECK(json::value_from(*lenient) == written);
    return std::move(*r);
}

template <class T>
void check_validate(T const& r) {
    check_outcome(gateway::validate(r), {errc::validation_error});
    check_outcome(gateway::validate(r, body_kind::typed_data_params), {errc::validation_error});
}

/// Markets with different tick rules: perps main dex, a builder dex, spot.
constexpr std::array<sa::market_rules, 3> markets{{
    {0, 5, false, 50},
    {110000, 2, false, 10},
    {10000, 2, true, 0},
}};

/// The alpha side of a write: the action, its typed data and digest, the signature's syntax.
void derive(gateway::result<json::object> const& action, std::int64_t nonce,
            std::string const& signature) {
    check_outcome(action, {errc::validation_error, errc::unsupported_order_type,
                           errc::max_leverage_exceeded});
    if (!action)
        return;
    auto payload = sa::signing_payload_for(*action, nonce, nonce % 2 == 0);
    check_outcome(payload, {errc::validation_error});
    if (payload) {
        auto digest = gateway::sign::eip712::hash_typed_data(payload->typed_data);
        FUZZ_CHECK(digest && *digest == payload->digest);
    } else {
        FUZZ_CHECK(nonce < 0); // an action always hashes; only a negative nonce is refused
    }
    if (!signature.empty())
        check_outcome(gateway::sign::signature_from_hex(signature), {errc::signature_error});
}

void place(json::value const& v) {
    auto r = read(v, &gateway::parse_place_order_request);
    if (!r)
        return;
    check_validate(*r);
    for (auto const& m : markets) {
        // A market order without a price gets the worst acceptable one (CONTRACT §5).
        auto req = *r;
        if (!req.price && (req.type == gateway::order_type::market ||
                           req.type == gateway::order_type::stop_market)) {
            auto const mid =
                req.trigger_price ? *req.trigger_price : *gateway::decimal::parse("43250.5");
            auto bound = sa::market_order_price(mid, req.side, m);
            check_outcome(bound, {errc::validation_error});
            if (bound)
                req.price = *bound;
        }
        derive(sa::order_action(req, m), req.nonce, req.signature);
    }
}

void cancel(json::value const& v) {
    auto r = read(v, &gateway::parse_cancel_order_request);
    if (!r)
        return;
    check_validate(*r);
    for (auto const& m : markets)
        derive(sa::cancel_action(*r, m), r->nonce, r->signature);
}

void leverage(json::value const& v) {
    auto r = read(v, &gateway::parse_set_leverage_request);
    if (!r)
        return;
    check_validate(*r);
    for (auto const& m : markets)
        derive(sa::leverage_action(*r, m), r->nonce, r->signature);
}

void gamma(json::value const& v) {
    if (auto r = read(v, &gateway::parse_gamma_order_request))
        check_validate(*r);
    if (auto r = read(v, &gateway::parse_gamma_cancel_request))
        check_outcome(gateway::validate(*r), {errc::validation_error});
}

/// The typed-data route: the request, then its params read as the operation's body without
/// `signature`, the gateway choosing the nonce when absent (CONTRACT §6).
void typed_data(json::value const& v) {
    auto r = read(v, &gateway::parse_typed_data_request);
    if (!r)
        return;
    json::value params = r->params;
    params.as_object().erase("signature");
    if (!params.as_object().contains("nonce"))
        params.as_object()["nonce"] = 1700000000000;
    switch (r->operation) {
    case gateway::typed_data_operation::place_order:
        place(params);
        break;
    case gateway::typed_data_operation::cancel_order:
        cancel(params);
        break;
    case gateway::typed_data_operation::set_leverage:
        leverage(params);
        break;
    }
}

/// Sign-up and sign-in bodies (`/v1/account/signup`, `/v1/account/session`).
void credentials(json::value const& v) {
    auto c = gateway::server::parse_credentials(v);
    check_outcome(c, {errc::validation_error, errc::invalid_json});
    if (c)
        FUZZ_CHECK(v.as_object().size() == 2);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    auto v = gateway::fuzz::parse_json(gateway::fuzz::as_text(data, size));
    if (!v || !v->is_object())
        return 0; // json_body answers INVALID_JSON before any parser runs
    place(*v);
    cancel(*v);
    leverage(*v);
    gamma(*v);
    typed_data(*v);
    credentials(*v);
    return 0;
}
