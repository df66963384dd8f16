#include "providers/beta/beta_trading.hpp"

#include <gateway/providers/beta/errors.hpp>
#include <gateway/types/fixed.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace gateway::server::beta {

namespace {

namespace json = boost::json;
namespace w = wire::beta;

/// -1002 UNAUTHORIZED: the other code beta.md §3.3 names for a signer the account did not
/// approve.

sign::beta::market_rules rules_from(filters const& f, bool spot, unsigned max_leverage) {
    sign::beta::market_rules r;
    r.spot = spot;
    r.tick_size = f.tick_size;
    r.min_price = f.min_price;
    r.max_price = f.max_price;
    r.step_size = f.step_size;
    r.min_qty = f.min_qty;
    r.max_qty = f.max_qty;
    r.market_step_size = f.market_step_size;
    r.market_min_qty = f.market_min_qty;
    r.market_max_qty = f.market_max_qty;
    r.min_notional = f.min_notional;
    r.multiplier_up = f.multiplier_up;
    r.multiplier_down = f.multiplier_down;
    r.max_leverage = max_leverage;
    return r;
}

api_error malformed(std::string const& name, std::string_view what) {
    return make_error(errc::upstream_error, "The " + name + " upstream answered the " +
                                                std::string(what) + " with an unexpected body.");
}

api_error rejected(std::string const& name, std::string_view reason,
                   std::optional<std::int64_t> code = std::nullopt) {
    api_error e =
        make_error(errc::order_rejected,
                   "The " + name + " upstream rejected the order: " + std::string(reason));
    e.details["reason"] = reason;
    if (code)
        e.details["upstreamCode"] = *code;
    return e;
}

/// An id the upstream sends as a JSON integer or a string of digits.
std::optional<std::string> id_of(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (!v)
        return std::nullopt;
    if (v->is_uint64())
        return std::to_string(v->get_uint64());
    if (v->is_int64() && v->get_int64() >= 0)
        return std::to_string(v->get_int64());
    if (v->is_string()) {
        std::string_view const t = v->get_string();
        if (!t.empty() && t.size() <= 20 &&
            std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::string(t);
    }
    return std::nullopt;
}

std::optional<decimal> decimal_of(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    return v ? decimal::from_json_lenient(*v) : std::nullopt;
}

std::string_view string_of(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

/// An answer with a `code` that is not success: the error a 200 should not have carried.
std::optional<upstream_error_body> refusal_in(json::value const& v) {
    auto body = error_body(v);
    if (!body || body->code == 200)
        return std::nullopt;
    return body;
}

} // namespace

sign::beta::market_rules rules_of(perp_market const& m) {
    return rules_from(m.rules, false, m.max_leverage);
}

sign::beta::market_rules rules_of(spot_market const& m) {
    return rules_from(m.rules, true, 0);
}

api_error write_error(std::string const& name, upstream_answer const& a, write_kind kind,
                      address const& signer) {
    if (a.status >= 500) {
        auto const body = error_body(a.body);
        api_error e = make_error(
            errc::upstream_error,
            "The " + name + " upstream answered HTTP " + std::to_string(a.status) +
                (body ? " (" + std::to_string(body->code) + " " + body->msg + ")" : std::string()) +
                ": the execution status is unknown.");
        e.details["outcomeUnknown"] = true;
        e.details["upstreamStatus"] = a.status;
        return e;
    }
    auto const body = error_body(a.body);
    if (!body)
        return make_error(errc::upstream_error, "The " + name + " upstream answered HTTP " +
                                                    std::to_string(a.status) + ".");
    auto const code = body->code;
    if (kind == write_kind::cancel &&
        (code == w::cancel_rejected.code || code == w::no_such_order.code)) {
        api_error e = make_error(errc::order_not_found,
                                 "The order was not found on " + name +
                                     ": it was never placed, is already canceled, or has filled (" +
                                     body->msg + ").");
        e.details["field"] = "orderId";
        return e;
    }
    if (code == w::nonce_expired.code) {
        api_error e = make_error(errc::invalid_nonce,
                                 "The " + name + " upstream refused the nonce (" + body->msg +
                                     "): use a fresh millisecond timestamp, once.");
        e.details["field"] = "nonce";
        return e;
    }
    if (code == w::invalid_signature.code) {
        api_error e =
            make_error(errc::signature_error,
                       "The " + name + " upstream refused the signature (" + body->msg + ").");
        e.details["field"] = "signature";
        return e;
    }
    if (code == w::rejected_signer.code || code == w::unauthorized_code) {
        api_error e = make_error(errc::signature_error,
                                 "The " + name + " upstream refused the signer " + signer.str() +
                                     " for this wallet (" + body->msg +
                                     "): sign with the wallet's key or with an API wallet it "
                                     "approved.");
        e.details["field"] = "signer";
        e.details["recovered"] = signer.str();
        return e;
    }
    if (code == w::invalid_symbol.code) {
        api_error e = make_error(errc::market_not_found,
                                 "The " + name + " upstream does not know this symbol.");
        e.details["field"] = "symbol";
        return e;
    }
    if (kind == write_kind::leverage && code == -4028) {
        api_error e =
            make_error(errc::max_leverage_exceeded,
                       "The " + name + " upstream refused the leverage (" + body->msg + ").");
        e.details["field"] = "leverage";
        return e;
    }
    if (kind != write_kind::place) {
        api_error e = make_error(errc::order_rejected,
                                 "The " + name + " upstream refused the request: " + body->msg);
        e.details["reason"] = body->msg;
        e.details["upstreamCode"] = code;
        return e;
    }
    return rejected(name, body->msg, code);
}

result<place_result> to_place_result(std::string const& name, json::value const& order,
                                     decimal const& size,
                                     std::optional<std::string> const& client_order_id) {
    if (auto refusal = refusal_in(order))
        return rejected(name, refusal->msg, refusal->code);
    auto const* o = order.if_object();
    if (!o)
        return malformed(name, "order");
    auto id = id_of(*o, "orderId");
    std::string_view const status = string_of(*o, "status");
    auto const executed = decimal_of(*o, "executedQty").value_or(decimal());
    // More executed than was ordered is no answer to this order.
    if (!id || status.empty() || executed.is_negative() || size < executed)
        return malformed(name, "order");

    place_result out;
    out.order_id = std::move(*id);
    out.client_order_id = client_order_id;
    out.filled_size = executed;
    bool const some = !executed.is_zero();
    if (some) {
        auto avg = decimal_of(*o, "avgPrice");
        if (!avg || avg->is_zero() || avg->is_negative()) {
            auto const quote = decimal_of(*o, "cumQuote");
            avg = quote ? exact_div(*quote, executed, 8) : std::nullopt;
        }
        if (avg && !avg->is_zero() && !avg->is_negative())
            out.average_price = *avg;
    }
    if (status == "FILLED") {
        out.status = place_status::filled;
        if (!some)
            out.filled_size = size;
    } else if (status == "PARTIALLY_FILLED") {
        out.status = place_status::partially_filled;
    } else if (status == "NEW" || status == "NEW_INSURANCE" || status == "NEW_ADL") {
        out.status = some ? place_status::partially_filled : place_status::open;
    } else if (status == "EXPIRED" || status == "CANCELED" || status == "EXPIRED_IN_MATCH") {
        if (!some)
            return rejected(name, "the order expired without filling (nothing to match an "
                                  "immediate order against, or a post-only order that would have "
                                  "crossed the book).");
        out.status = place_status::partially_filled;
    } else if (status == "REJECTED") {
        return rejected(name, "the order was rejected.");
    } else {
        return malformed(name, "order");
    }
    return out;
}

result<cancel_result> to_cancel_result(std::string const& name, json::value const& order,
                                       std::string const& order_id) {
    if (auto refusal = refusal_in(order)) {
        api_error e = make_error(errc::order_rejected,
                                 "The " + name + " upstream refused the cancel: " + refusal->msg);
        e.details["reason"] = refusal->msg;
        e.details["upstreamCode"] = refusal->code;
        return e;
    }
    auto const* o = order.if_object();
    if (!o)
        return malformed(name, "cancel");
    auto const id = id_of(*o, "orderId");
    if (id && *id != order_id)
        return malformed(name, "cancel");
    return cancel_result{order_id, cancel_status::canceled};
}

result<leverage_result> to_leverage_result(std::string const& name, json::value const& answer,
                                           std::string const& symbol) {
    if (auto refusal = refusal_in(answer)) {
        api_error e = make_error(errc::order_rejected,
                                 "The " + name + " upstream refused the leverage: " + refusal->msg);
        e.details["reason"] = refusal->msg;
        e.details["upstreamCode"] = refusal->code;
        return e;
    }
    auto const* o = answer.if_object();
    auto const* lev = o ? o->if_contains("leverage") : nullptr;
    std::int64_t leverage = 0;
    if (lev && lev->is_int64())
        leverage = lev->get_int64();
    else if (lev && lev->is_uint64() && lev->get_uint64() <= 1000)
        leverage = static_cast<std::int64_t>(lev->get_uint64());
    else if (lev && lev->is_string())
        if (auto d = decimal::parse_lenient(lev->get_string()))
            leverage = d->to_scaled(0).value_or(0);
    if (leverage <= 0)
        return malformed(name, "leverage change");
    return leverage_result{symbol, leverage, margin_mode::cross};
}

} // namespace gateway::server::beta
