#include "providers/alpha/alpha_trading.hpp"

#include <gateway/providers/alpha/signing.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <algorithm>

namespace gateway::server::alpha {

namespace json = boost::json;

namespace {

api_error malformed(std::string_view what) {
    return make_error(errc::upstream_error, "The alpha upstream answered the " + std::string(what) +
                                                " with an unexpected body.");
}

/// `statuses[0]` of an ok answer of `type`, or the contract error of the answer.
result<json::value const*> first_status(json::value const& answer, std::string_view type) {
    auto const* o = answer.if_object();
    if (!o)
        return malformed(type);
    auto const* status = o->if_contains("status");
    auto const* response = o->if_contains("response");
    if (!status || !status->is_string() || !response)
        return malformed(type);
    if (status->get_string() == "err")
        return exchange_refusal(response->is_string() ? std::string_view(response->get_string())
                                                      : std::string_view("unknown error"));
    if (status->get_string() != "ok" || !response->is_object())
        return malformed(type);
    auto const* data = response->get_object().if_contains("data");
    if (!data || !data->is_object())
        return malformed(type);
    auto const* statuses = data->get_object().if_contains("statuses");
    if (!statuses || !statuses->is_array())
        return malformed(type);
    // A pre-validation refusal may come back as a shorter (empty) statuses array (alpha.md
    // §4.6); one order was sent, so one status is expected.
    if (statuses->get_array().empty())
        return malformed(type);
    return &statuses->get_array().front();
}

std::optional<std::string> oid_of(json::object const& o) {
    auto const* oid = o.if_contains("oid");
    if (oid && oid->is_string()) { // some recordings carry it as a string of digits
        std::string_view const t = oid->get_string();
        if (!t.empty() && t.size() <= 20 &&
            std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::string(t);
        return std::nullopt;
    }
    if (oid && oid->is_uint64())
        return std::to_string(oid->get_uint64());
    if (oid && oid->is_int64() && oid->get_int64() >= 0)
        return std::to_string(oid->get_int64());
    return std::nullopt;
}

api_error rejected(std::string_view reason) {
    api_error e = make_error(errc::order_rejected,
                             "The alpha upstream rejected the order: " + std::string(reason));
    e.details["reason"] = reason;
    return e;
}

} // namespace

result<json::object> exchange_envelope(json::object const& action, std::int64_t nonce,
                                       std::string_view signature) {
    auto sig = sign::signature_from_hex(signature);
    if (!sig)
        return sig.error();
    json::object o;
    o["action"] = action;
    o["nonce"] = nonce;
    o["signature"] = sign::alpha::signature_to_json(*sig);
    o["vaultAddress"] = nullptr;
    return o;
}

api_error exchange_refusal(std::string_view text) {
    auto has = [&](std::string_view s) {
        return text.find(s) != std::string_view::npos;
    };
    if (has("does not exist") || has("Unable to recover signer")) {
        api_error e = make_error(errc::signature_error,
                                 "The alpha upstream refused the signature: " + std::string(text));
        e.details["field"] = "signature";
        return e;
    }
    if (has("Invalid nonce")) {
        api_error e = make_error(errc::invalid_nonce,
                                 "The alpha upstream refused the nonce: " + std::string(text));
        e.details["field"] = "nonce";
        return e;
    }
    return rejected(text);
}

result<placed_order> to_place_result(json::value const& answer, decimal const& size,
                                     std::optional<std::string> const& client_order_id) {
    auto st = first_status(answer, "order");
    if (!st)
        return st.error();
    json::value const& s = **st;
    placed_order out;
    out.result.client_order_id = client_order_id;
    if (s.is_string()) {
        // Trigger orders may answer a bare "waitingForTrigger" / "waitingForFill".
        if (s.get_string() == "waitingForTrigger" || s.get_string() == "waitingForFill")
            return out;
        return malformed("order");
    }
    auto const* o = s.if_object();
    if (!o)
        return malformed("order");
    if (auto const* err = o->if_contains("error"))
        return rejected(err->is_string() ? std::string_view(err->get_string())
                                         : std::string_view("unknown reason"));
    if (auto const* resting = o->if_contains("resting"); resting && resting->is_object()) {
        auto oid = oid_of(resting->get_object());
        if (!oid)
            return malformed("order");
        out.result.order_id = std::move(*oid);
        out.result.status = place_status::open;
        return out;
    }
    if (auto const* filled = o->if_contains("filled"); filled && filled->is_object()) {
        auto const& f = filled->get_object();
        auto oid = oid_of(f);
        auto const* total = f.if_contains("totalSz");
        auto const* avg = f.if_contains("avgPx");
        auto total_sz = total ? decimal::from_json_lenient(*total) : std::nullopt;
        auto avg_px = avg ? decimal::from_json_lenient(*avg) : std::nullopt;
        if (!oid || !total_sz || !avg_px)
            return malformed("order");
        out.result.order_id = std::move(*oid);
        out.result.filled_size = *total_sz;
        out.result.average_price = *avg_px;
        out.result.status =
            *total_sz < size ? place_status::partially_filled : place_status::filled;
        return out;
    }
    return malformed("order");
}

result<cancel_result> to_cancel_result(json::value const& answer, std::string const& order_id) {
    auto st = first_status(answer, "cancel");
    if (!st)
        return st.error();
    json::value const& s = **st;
    if (s.is_string() && s.get_string() == "success")
        return cancel_result{order_id, cancel_status::canceled};
    if (auto const* o = s.if_object())
        if (auto const* err = o->if_contains("error"); err && err->is_string()) {
            std::string_view const text = err->get_string();
            if (text.find("never placed") != std::string_view::npos) {
                api_error e = make_error(errc::order_not_found,
                                         "Order " + order_id +
                                             " was not found: it was never placed, is already "
                                             "canceled, or has filled.");
                e.details["field"] = "orderId";
                return e;
            }
            return rejected(text);
        }
    return malformed("cancel");
}

result<void> to_leverage_ok(json::value const& answer) {
    auto const* o = answer.if_object();
    if (!o)
        return malformed("leverage change");
    auto const* status = o->if_contains("status");
    auto const* response = o->if_contains("response");
    if (!status || !status->is_string() || !response)
        return malformed("leverage change");
    if (status->get_string() == "err")
        return exchange_refusal(response->is_string() ? std::string_view(response->get_string())
                                                      : std::string_view("unknown error"));
    if (status->get_string() != "ok")
        return malformed("leverage change");
    return {};
}

} // namespace gateway::server::alpha
