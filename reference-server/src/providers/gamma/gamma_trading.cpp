#include "providers/gamma/gamma_trading.hpp"

#include <gateway/providers/gamma/errors.hpp>
#include <gateway/providers/gamma/requests.hpp>
#include <gateway/types/fixed.hpp>
#include <gateway/util/ascii.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <optional>

namespace gateway::server::gamma {

namespace {

namespace json = boost::json;
namespace w = wire::gamma;

api_error clob_malformed(std::string const& name, std::string_view what) {
    return make_error(errc::upstream_error, "The " + name + " upstream answered " +
                                                std::string(what) + " with an unexpected body.");
}

api_error order_rejected(std::string const& name, std::string const& reason) {
    api_error e =
        make_error(errc::order_rejected, "The " + name + " upstream rejected the order: " + reason +
                                             (reason.empty() || reason.back() == '.' ? "" : "."));
    e.details["reason"] = reason;
    return e;
}

std::string_view clob_text(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

/// A decimal the CLOB sends as a string or a number; `""` and absent are 0.
std::optional<decimal> clob_decimal(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (!v || v->is_null() || (v->is_string() && v->get_string().empty()))
        return decimal();
    auto d = decimal::from_json_lenient(*v);
    if (!d || d->is_negative())
        return std::nullopt;
    return d;
}

/// Unix seconds sent as a number or a string of digits, in ms.
std::optional<std::int64_t> clob_seconds_ms(json::object const& o, std::string_view key) {
    auto const* v = o.if_contains(key);
    if (!v)
        return std::nullopt;
    auto d = decimal::from_json_lenient(*v);
    if (!d || d->is_negative())
        return std::nullopt;
    auto const s = d->to_scaled(0);
    if (!s || *s > 100'000'000'000)
        return std::nullopt;
    return *s * 1000;
}

std::optional<gateway::side> clob_side(std::string_view s) {
    if (util::iequals(s, "BUY"))
        return gateway::side::buy;
    if (util::iequals(s, "SELL"))
        return gateway::side::sell;
    return std::nullopt;
}

/// The CTF Exchange's fee of a fill of `size` shares at `price` and `bps`: a BUY pays
/// bps/10^4 x min(p, 1-p) / p x size in the shares it receives, a SELL bps/10^4 x min(p, 1-p) x
/// size in USDC (6 decimals, toward zero); 0 when bps is 0.
decimal clob_fee(gateway::side s, decimal const& size, decimal const& price, decimal const& bps) {
    if (bps.is_zero() || price.is_zero())
        return decimal();
    auto const one = decimal::from_scaled(1, 0);
    auto const other = exact_sub(one, price);
    if (!other)
        return decimal();
    auto const& low = *other < price ? *other : price;
    auto const scaled = exact_mul(size, low);
    auto const rated = scaled ? exact_mul(*scaled, bps) : std::nullopt;
    auto const divisor = s == gateway::side::buy ? exact_mul(price, decimal::from_scaled(10000, 0))
                                                 : std::optional(decimal::from_scaled(10000, 0));
    auto const fee =
        rated && divisor ? exact_div(*rated, *divisor, 6, rounding::toward_zero) : std::nullopt;
    return fee.value_or(decimal());
}

/// A fill's fee asset: the token bought (a BUY's fee is in shares), else USDC.
std::string fee_asset_of(gateway::side s, std::string const& token) {
    return s == gateway::side::buy ? token : std::string("USDC");
}

} // namespace

result<sign::gamma::token_rules> token_rules_of(std::string const& name, json::value const& book) {
    auto const* o = book.if_object();
    if (!o)
        return clob_malformed(name, "the book");
    sign::gamma::token_rules r;
    auto const* tick = o->if_contains("tick_size");
    auto const t = tick ? decimal::from_json_lenient(*tick) : std::nullopt;
    if (!t || t->is_zero() || t->is_negative())
        return clob_malformed(name, "the book (its tick size)");
    r.tick_size = *t;
    if (auto const* n = o->if_contains("neg_risk"))
        r.neg_risk = (n->is_bool() && n->get_bool()) ||
                     (n->is_string() && util::iequals(n->get_string(), "true"));
    r.min_size = clob_decimal(*o, "min_order_size").value_or(decimal());
    return r;
}

api_error credentials_refused(std::string const& name) {
    api_error e = make_error(errc::invalid_credentials,
                             "The " + name +
                                 " upstream refused the API credentials: check apiKey, apiSecret "
                                 "and passphrase, and that they belong to the wallet.");
    return e;
}

api_error write_error(std::string const& name, upstream_answer const& a, clob_write kind) {
    if (a.status == 401)
        return credentials_refused(name);
    auto const said = w::order_refusal(a.body);
    if (a.status == 425 || a.status == 503) {
        // Nothing executed: the matching engine is restarting, or trading is halted.
        api_error e =
            make_error(errc::provider_unavailable, "The " + name + " upstream is unavailable" +
                                                       (said ? ": " + *said : std::string()) +
                                                       (said && said->ends_with('.') ? "" : "."));
        e.retry_after = 30;
        return e;
    }
    if (a.status >= 500) {
        api_error e = make_error(errc::upstream_error, "The " + name + " upstream answered HTTP " +
                                                           std::to_string(a.status) +
                                                           ": the outcome is unknown.");
        e.details["outcomeUnknown"] = true;
        e.details["upstreamStatus"] = a.status;
        return e;
    }
    std::string const reason = said.value_or("HTTP " + std::to_string(a.status));
    if (kind == clob_write::cancel) {
        if (a.status == 404) {
            api_error e = make_error(errc::order_not_found,
                                     "The order was not found on " + name + " (" + reason + ").");
            e.details["field"] = "orderId";
            return e;
        }
        api_error e = make_error(errc::order_rejected,
                                 "The " + name + " upstream refused the cancel: " + reason);
        e.details["reason"] = reason;
        return e;
    }
    return order_rejected(name, reason);
}

result<place_result> to_place_result(std::string const& name, json::value const& answer,
                                     gateway::side s, decimal const& size, decimal const& price) {
    auto const* o = answer.if_object();
    if (!o)
        return clob_malformed(name, "the order");
    if (auto const* ok = o->if_contains("success"); ok && ok->is_bool() && !ok->get_bool())
        return order_rejected(name, w::order_refusal(answer).value_or("the order was refused"));
    std::string_view const id = clob_text(*o, "orderID");
    std::string_view const status = clob_text(*o, "status");
    auto const making = clob_decimal(*o, "makingAmount");
    auto const taking = clob_decimal(*o, "takingAmount");
    if (!is_order_id(id) || status.empty() || !making || !taking)
        return clob_malformed(name, "the order");
    auto shares = s == gateway::side::buy ? *taking : *making;
    auto usdc = s == gateway::side::buy ? *making : *taking;
    if (util::iequals(status, "matched") && shares.is_zero()) {
        shares = size; // matched whole, amounts not reported
        usdc = exact_mul(size, price).value_or(decimal());
    }
    // More shares than were ordered, or a negative amount, is no answer to this order.
    if (shares.is_negative() || usdc.is_negative() || size < shares)
        return clob_malformed(name, "the order");
    place_result out;
    out.order_id = util::to_lower(id);
    out.filled_size = shares;
    if (!shares.is_zero())
        if (auto avg = exact_div(usdc, shares, 6, rounding::toward_zero); avg && !avg->is_zero())
            out.average_price = *avg;
    if (shares.is_zero())
        out.status = place_status::open;
    else if (shares < size)
        out.status = place_status::partially_filled;
    else
        out.status = place_status::filled;
    return out;
}

result<cancel_result> to_cancel_result(std::string const& name, json::value const& answer,
                                       std::string const& order_id) {
    auto const* o = answer.if_object();
    if (!o)
        return clob_malformed(name, "the cancel");
    if (auto const* done = o->if_contains("canceled");
        done && done->is_array() &&
        std::any_of(done->get_array().begin(), done->get_array().end(), [&](auto const& id) {
            return id.is_string() && util::iequals(id.get_string(), order_id);
        }))
        return cancel_result{order_id, cancel_status::canceled};
    for (auto const* key : {"not_canceled", "notCanceled"}) {
        auto const* refused = o->if_contains(key);
        if (!refused || !refused->is_object())
            continue;
        for (auto const& kv : refused->get_object()) {
            if (!util::iequals(kv.key(), order_id))
                continue;
            std::string const reason =
                kv.value().is_string() ? std::string(kv.value().get_string()) : "not canceled";
            api_error e = make_error(errc::order_not_found,
                                     "The order was not found open on " + name + " (" + reason +
                                         "): it was never placed, is already canceled, or has "
                                         "filled.");
            e.details["field"] = "orderId";
            e.details["reason"] = reason;
            return e;
        }
    }
    return clob_malformed(name, "the cancel");
}

result<clob_page> clob_page_of(std::string const& name, json::value const& v) {
    auto const* o = v.if_object();
    auto const* data = o ? o->if_contains("data") : nullptr;
    if (!data || !data->is_array())
        return clob_malformed(name, "a page");
    clob_page out;
    out.items = &data->get_array();
    std::string_view const next = clob_text(*o, "next_cursor");
    if (next != w::end_cursor)
        out.next_cursor = std::string(next);
    return out;
}

result<open_order> to_open_order(std::string const& name, json::value const& item) {
    auto const* o = item.if_object();
    if (!o)
        return clob_malformed(name, "an open order");
    open_order out;
    out.order_id = util::to_lower(clob_text(*o, "id"));
    out.symbol = std::string(clob_text(*o, "asset_id"));
    auto const s = clob_side(clob_text(*o, "side"));
    auto const price = clob_decimal(*o, "price");
    auto const size = clob_decimal(*o, "original_size");
    auto const matched = clob_decimal(*o, "size_matched");
    auto const created = clob_seconds_ms(*o, "created_at");
    if (!is_order_id(out.order_id) || out.symbol.empty() || !s || !price || !size || !matched ||
        !created)
        return clob_malformed(name, "an open order");
    out.side = *s;
    out.type = order_type::limit;
    out.price = *price;
    out.size = *size;
    out.filled_size = *matched;
    out.status = open_order_status::open;
    out.timestamp = *created;
    return out;
}

namespace {

/// The side, price and size (at `size_key`) of a trade or of one of its maker orders into `f`,
/// with the fee that side pays at the item's `fee_rate_bps` in `f.symbol`'s terms; false when
/// one of them is missing or `f.symbol` is empty.
bool read_execution(fill& f, json::object const& o, std::string_view size_key) {
    auto const s = clob_side(clob_text(o, "side"));
    auto const price = clob_decimal(o, "price");
    auto const size = clob_decimal(o, size_key);
    auto const bps = clob_decimal(o, "fee_rate_bps");
    if (!s || !price || !size || !bps || f.symbol.empty())
        return false;
    f.side = *s;
    f.price = *price;
    f.size = *size;
    f.fee = clob_fee(*s, *size, *price, *bps);
    f.fee_asset = fee_asset_of(*s, f.symbol);
    return true;
}

} // namespace

result<std::vector<fill>> fills_of(std::string const& name, json::value const& trade,
                                   address const& wallet) {
    auto const* t = trade.if_object();
    if (!t)
        return clob_malformed(name, "a trade");
    std::string const id(clob_text(*t, "id"));
    auto const when = clob_seconds_ms(*t, "match_time");
    if (id.empty() || !when)
        return clob_malformed(name, "a trade");
    std::vector<fill> out;
    auto const same = [&](std::string_view a) {
        return util::iequals(a, wallet.str());
    };
    if (util::iequals(clob_text(*t, "trader_side"), "TAKER") &&
        same(clob_text(*t, "maker_address"))) {
        fill f;
        f.id = id;
        f.order_id = util::to_lower(clob_text(*t, "taker_order_id"));
        f.symbol = std::string(clob_text(*t, "asset_id"));
        if (!read_execution(f, *t, "size"))
            return clob_malformed(name, "a trade");
        f.liquidity = liquidity::taker;
        f.timestamp = *when;
        out.push_back(std::move(f));
    }
    if (auto const* makers = t->if_contains("maker_orders"); makers && makers->is_array())
        for (auto const& m : makers->get_array()) {
            auto const* mo = m.if_object();
            if (!mo)
                return clob_malformed(name, "a trade");
            if (!same(clob_text(*mo, "maker_address")))
                continue;
            fill f;
            f.order_id = util::to_lower(clob_text(*mo, "order_id"));
            f.id = id + ":" + f.order_id;
            f.symbol = std::string(clob_text(*mo, "asset_id"));
            if (f.symbol.empty())
                f.symbol = std::string(clob_text(*t, "asset_id"));
            if (f.order_id.empty() || !read_execution(f, *mo, "matched_amount"))
                return clob_malformed(name, "a trade");
            f.liquidity = liquidity::maker;
            f.timestamp = *when;
            out.push_back(std::move(f));
        }
    return out;
}

bool is_order_id(std::string_view id) noexcept {
    return id.size() == 66 && id.starts_with("0x") &&
           std::all_of(id.begin() + 2, id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
           });
}

} // namespace gateway::server::gamma
