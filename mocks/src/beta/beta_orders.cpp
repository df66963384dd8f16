#include "beta_orders.hpp"

#include "beta_accounts.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string_view>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;
namespace w = gateway::wire::beta;

constexpr std::array<std::string_view, 7> futures_types{"LIMIT",
                                                        "MARKET",
                                                        "STOP",
                                                        "STOP_MARKET",
                                                        "TAKE_PROFIT",
                                                        "TAKE_PROFIT_MARKET",
                                                        "TRAILING_STOP_MARKET"};
constexpr std::array<std::string_view, 5> futures_tifs{"GTC", "IOC", "FOK", "GTX", "HIDDEN"};
constexpr std::array<std::string_view, 4> spot_tifs{"GTC", "IOC", "FOK", "GTX"};

template <class List>
bool listed(List const& l, std::string_view x) {
    return std::find(l.begin(), l.end(), x) != l.end();
}

std::size_t decimals_of(std::string_view text) {
    auto const dot = text.find('.');
    return dot == std::string_view::npos ? 0 : text.size() - dot - 1;
}

std::optional<bool> bool_of(std::string_view text) {
    std::string lower;
    for (char c : text)
        lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (lower == "true")
        return true;
    if (lower == "false")
        return false;
    return std::nullopt;
}

refusal mandatory(std::string_view param) {
    return {w::mandatory_param, w::mandatory_param_msg(param)};
}

refusal not_required(std::string_view param) {
    return {w::param_not_required, w::param_not_required_msg(param)};
}

refusal invalid(std::string_view param) {
    return {w::invalid_parameter, w::invalid_parameter_msg(param)};
}

refusal filter_failure(std::string_view name) {
    return {w::filter_failure, w::filter_failure_msg(name)};
}

/// A symbol's trading rules, futures or spot.
struct rules {
    unsigned px_scale = 0;
    unsigned price_precision = 0;
    unsigned sz_scale = 0;
    amount min_qty, max_qty, market_max_qty;
    amount max_price = amount::from_int(1'000'000);
    amount up, down; ///< PERCENT_PRICE multipliers
    amount min_notional = amount::from_int(5);
};

rules rules_of(perp_def const& p) {
    rules r;
    r.px_scale = p.px_scale;
    r.price_precision = std::max(p.px_scale, p.price_precision);
    r.sz_scale = p.sz_scale;
    r.min_qty = amount::parse(p.min_qty).value_or(amount{});
    r.max_qty = amount::parse(p.max_qty).value_or(amount{});
    r.market_max_qty = amount::parse(p.market_max_qty).value_or(amount{});
    r.up = amount::from_scaled(105, 2);
    r.down = amount::from_scaled(95, 2);
    return r;
}

rules rules_of(spot_def const& s) {
    rules r;
    r.px_scale = s.px_scale;
    r.price_precision = s.px_scale;
    r.sz_scale = s.sz_scale;
    r.min_qty = amount::from_scaled(1, s.sz_scale);
    r.max_qty = amount::parse(s.max_qty).value_or(amount{});
    r.market_max_qty = r.max_qty;
    r.up = amount::from_int(5);
    r.down = amount::from_scaled(2, 1);
    return r;
}

/// A decimal parameter: absent (nullopt value), a value, or the refusal.
struct decimal_param {
    std::optional<amount> value;
    std::optional<refusal> error;
};

decimal_param read_decimal(query_params const& q, std::string_view key, unsigned precision) {
    auto const text = query_get(q, key);
    if (!text)
        return {};
    auto const a = amount::parse(*text);
    if (!a)
        return {std::nullopt, mandatory(key)};
    if (decimals_of(*text) > precision && a->rounded(precision) != *a)
        return {std::nullopt, refuse(w::bad_precision)};
    return {a, std::nullopt};
}

std::optional<refusal> check_price(amount px, rules const& r, bool spot) {
    amount const tick = amount::from_scaled(1, r.px_scale);
    if (px < tick)
        return spot ? filter_failure("PRICE_FILTER") : refuse(w::price_below_min);
    if (px > r.max_price)
        return spot ? filter_failure("PRICE_FILTER") : refuse(w::price_above_max);
    if (!px.to_scaled(r.px_scale))
        return spot ? filter_failure("PRICE_FILTER") : refuse(w::price_off_tick);
    return std::nullopt;
}

} // namespace

std::variant<new_order, refusal> parse_new_order(venue where, query_params const& q, amount mark) {
    bool const spot = where == venue::spot;
    auto const symbol = query_get(q, "symbol");
    if (!symbol || symbol->empty())
        return mandatory("symbol");
    rules r;
    if (spot) {
        auto const* s = find_spot(*symbol);
        if (!s)
            return refuse(w::invalid_symbol);
        r = rules_of(*s);
    } else {
        auto const* p = find_perp(*symbol);
        if (!p)
            return refuse(w::invalid_symbol);
        r = rules_of(*p);
    }
    new_order out;
    auto& spec = out.spec;
    spec.symbol = *symbol;

    auto const side = query_get(q, "side");
    if (!side || side->empty())
        return mandatory("side");
    if (*side != "BUY" && *side != "SELL")
        return refuse(w::invalid_side);
    spec.is_buy = *side == "BUY";

    auto const type = query_get(q, "type");
    if (!type || type->empty())
        return mandatory("type");
    if (!listed(futures_types, *type) || (spot && *type == "TRAILING_STOP_MARKET"))
        return refuse(w::invalid_order_type);
    spec.type = *type;
    bool const limit_kind =
        spec.type == "LIMIT" || spec.type == "STOP" || spec.type == "TAKE_PROFIT";
    bool const stop_kind =
        spec.type != "LIMIT" && spec.type != "MARKET" && spec.type != "TRAILING_STOP_MARKET";
    bool const trailing = spec.type == "TRAILING_STOP_MARKET";

    if (!spot) {
        if (auto const ps = query_get(q, "positionSide"); ps && *ps != "BOTH") {
            if (*ps == "LONG" || *ps == "SHORT")
                return refuse(w::position_side_mismatch);
            return invalid("positionSide");
        }
    }
    if (auto const tif = query_get(q, "timeInForce")) {
        if (!(spot ? listed(spot_tifs, *tif) : listed(futures_tifs, *tif)))
            return refuse(w::invalid_tif);
        spec.time_in_force = *tif;
    } else if (spec.type == "LIMIT") {
        return mandatory("timeInForce");
    }
    if (auto const rt = query_get(q, "newOrderRespType")) {
        if (*rt == "RESULT" || (spot && *rt == "FULL"))
            out.result = true;
        else if (*rt != "ACK")
            return invalid("newOrderRespType");
    }
    if (!spot) {
        for (auto const* key : {"reduceOnly", "closePosition", "priceProtect"}) {
            auto const text = query_get(q, key);
            if (!text)
                continue;
            auto const b = bool_of(*text);
            if (!b)
                return invalid(key);
            (std::string_view(key) == "reduceOnly"      ? spec.reduce_only
             : std::string_view(key) == "closePosition" ? spec.close_position
                                                        : spec.price_protect) = *b;
        }
        if (auto const wt = query_get(q, "workingType")) {
            if (*wt != "MARK_PRICE" && *wt != "CONTRACT_PRICE")
                return invalid("workingType");
            spec.working_type = *wt;
        }
    }
    if (auto const id = query_get(q, "newClientOrderId")) {
        if (!w::valid_client_order_id(*id))
            return refuse(w::invalid_client_id);
        spec.client_order_id = *id;
    }

    if (spec.close_position) {
        if (spec.type != "STOP_MARKET" && spec.type != "TAKE_PROFIT_MARKET")
            return not_required("closePosition");
        if (query_get(q, "quantity"))
            return refuse(w::quantity_with_close_position);
        if (spec.reduce_only)
            return not_required("reduceOnly");
    }

    auto const qty = read_decimal(q, "quantity", r.sz_scale);
    if (qty.error)
        return *qty.error;
    if (!qty.value && !spec.close_position)
        return mandatory("quantity");
    auto const price = read_decimal(q, "price", r.price_precision);
    if (price.error)
        return *price.error;
    if (limit_kind && !price.value)
        return mandatory("price");
    if (!limit_kind && price.value)
        return not_required("price");
    auto const stop = read_decimal(q, "stopPrice", r.price_precision);
    if (stop.error)
        return *stop.error;
    if (stop_kind && !stop.value)
        return mandatory("stopPrice");
    std::optional<amount> rate;
    std::optional<amount> activation;
    if (!spot) {
        auto const cb = read_decimal(q, "callbackRate", 10);
        if (cb.error)
            return *cb.error;
        if (trailing && !cb.value)
            return mandatory("callbackRate");
        auto const act = read_decimal(q, "activationPrice", r.price_precision);
        if (act.error)
            return *act.error;
        if (trailing) {
            rate = cb.value;
            activation = act.value;
        }
    }

    // Filters.
    if (qty.value) {
        bool const market_kind = !limit_kind;
        if (qty.value->sign() <= 0)
            return spot ? filter_failure("LOT_SIZE") : refuse(w::quantity_not_positive);
        if (*qty.value < r.min_qty)
            return spot ? filter_failure(market_kind ? "MARKET_LOT_SIZE" : "LOT_SIZE")
                        : refuse(w::quantity_below_min);
        if (*qty.value > (market_kind ? r.market_max_qty : r.max_qty))
            return spot ? filter_failure(market_kind ? "MARKET_LOT_SIZE" : "LOT_SIZE")
                        : refuse(w::quantity_above_max);
        spec.quantity = *qty.value;
    }
    for (auto const* p :
         std::array<std::optional<amount> const*, 3>{&price.value, &stop.value, &activation})
        if (*p)
            if (auto e = check_price(**p, r, spot))
                return *e;
    if (rate) {
        if (*rate < amount::from_scaled(1, 1) || *rate > amount::from_int(5))
            return invalid("callbackRate");
        spec.callback_rate = rate;
        spec.activation_price = activation;
    }
    if (price.value)
        spec.price = *price.value;
    if (stop.value)
        spec.stop_price = *stop.value;
    if (spec.type == "LIMIT" && !mark.is_zero()) {
        amount const tick = amount::from_scaled(1, r.px_scale);
        if (spec.is_buy) {
            amount const cap = mark * r.up;
            if (spec.price > cap) {
                amount const shown = cap.rounded(r.px_scale) > cap ? cap.rounded(r.px_scale) - tick
                                                                   : cap.rounded(r.px_scale);
                if (spot)
                    return filter_failure("PERCENT_PRICE_BY_SIDE");
                return refusal{w::price_above_cap,
                               w::price_above_cap_msg(decimal_text(shown, r.px_scale))};
            }
        } else {
            amount const floor = mark * r.down;
            if (spec.price < floor) {
                amount const shown = floor.rounded(r.px_scale) < floor
                                         ? floor.rounded(r.px_scale) + tick
                                         : floor.rounded(r.px_scale);
                if (spot)
                    return filter_failure("PERCENT_PRICE_BY_SIDE");
                return refusal{w::price_below_floor,
                               w::price_below_floor_msg(decimal_text(shown, r.px_scale))};
            }
        }
    }
    if (!spec.reduce_only && !spec.close_position) {
        amount const ref = !spec.price.is_zero()        ? spec.price
                           : !spec.stop_price.is_zero() ? spec.stop_price
                           : activation                 ? *activation
                                                        : mark;
        if (spec.quantity * ref < r.min_notional) {
            if (spot)
                return filter_failure("MIN_NOTIONAL");
            return refusal{w::min_notional, w::min_notional_msg(r.min_notional.str())};
        }
    }
    return out;
}

std::variant<order_ref, refusal> parse_order_ref(venue where, query_params const& q) {
    auto const symbol = query_get(q, "symbol");
    if (!symbol || symbol->empty())
        return mandatory("symbol");
    if (where == venue::spot ? !find_spot(*symbol) : !find_perp(*symbol))
        return refuse(w::invalid_symbol);
    order_ref out;
    out.symbol = *symbol;
    if (auto const id = query_get(q, "orderId"); id && !id->empty()) {
        auto const n = parse_uint(*id);
        if (!n || *n == 0)
            return refusal{w::illegal_chars, w::illegal_chars_msg("orderId")};
        out.order_id = *n;
        return out;
    }
    auto const client = query_get(q, "origClientOrderId");
    if (!client || client->empty())
        return refusal{w::mandatory_param,
                       "Param 'origClientOrderId' or 'orderId' must be sent, but both were "
                       "empty/null!"};
    out.client_id = *client;
    return out;
}

json::object futures_order_json(order_record const& r, contract const& c, order_form f) {
    json::object o = open_order_json(r, c);
    if (f == order_form::queried)
        return o;
    o.erase("time");
    o["cumQty"] = r.executed_qty.str();
    if (f == order_form::canceled)
        o.erase("avgPrice");
    return o;
}

json::object spot_order_json(order_record const& r, spot_def const& s, order_form f) {
    auto const& spec = r.spec;
    auto const zero_or = [](amount a) {
        return a.is_zero() ? std::string("0") : a.str();
    };
    json::object o;
    o["orderId"] = r.order_id;
    o["symbol"] = spec.symbol;
    o["status"] = r.status;
    o["clientOrderId"] = spec.client_order_id;
    o["price"] = zero_or(spec.price);
    o["avgPrice"] =
        decimal_text(r.executed_qty.is_zero() ? amount{} : r.cum_quote / r.executed_qty, 6);
    o["origQty"] = scaled_text(spec.quantity, s.sz_scale);
    o["executedQty"] = r.executed_qty.str();
    o["cumQty"] = r.executed_qty.str();
    o["cumQuote"] = r.cum_quote.str();
    o["timeInForce"] = spec.time_in_force;
    o["type"] = spec.type;
    o["side"] = spec.is_buy ? "BUY" : "SELL";
    o["stopPrice"] = zero_or(spec.stop_price);
    o["origType"] = spec.orig_type.empty() ? spec.type : spec.orig_type;
    if (f == order_form::queried)
        o["time"] = r.time;
    o["updateTime"] = r.update_time;
    o["orderListId"] = -1;
    return o;
}

json::object leverage_json(std::string const& symbol, unsigned leverage, amount max_notional) {
    json::object o;
    o["symbol"] = symbol;
    o["leverage"] = leverage;
    o["maxNotionalValue"] = max_notional.str();
    return o;
}

json::object cancel_all_json() {
    json::object o;
    o["code"] = "200";
    o["msg"] = "The operation of cancel all open order is done.";
    return o;
}

} // namespace gateway::mocks::beta
