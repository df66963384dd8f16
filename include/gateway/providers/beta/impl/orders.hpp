#pragma once

#include <gateway/providers/beta/requests.hpp>
#include <gateway/sign/eip712.hpp>
#include <gateway/types/fixed.hpp>
#include <gateway/validate/validate.hpp>

#include <algorithm>
#include <charconv>
#include <limits>
#include <utility>

namespace gateway::sign::beta {

namespace detail {

GATEWAY_DECL decimal dec(std::string_view text) {
    return decimal::parse_lenient(text).value_or(decimal());
}

/// Whether `v - base` is a whole multiple of `step` (`step` > 0), exactly.
GATEWAY_DECL bool on_grid(decimal const& v, decimal const& base, decimal const& step) {
    auto const a = fixed::from_decimal(v);
    auto const b = fixed::from_decimal(base);
    auto const s = fixed::from_decimal(step);
    if (!a || !b || !s || s->is_zero())
        return false;
    auto const diff = sub(*a, *b);
    if (!diff)
        return false;
    unsigned const scale = std::max(diff->scale, s->scale);
    auto const d = diff->mantissa_at(scale);
    auto const t = s->mantissa_at(scale);
    return d && t && *t != 0 && *d % *t == 0;
}

GATEWAY_DECL bool is_on(decimal const& filter) noexcept {
    return !filter.is_zero() && !filter.is_negative();
}

/// A price field against PRICE_FILTER: the tick from minPrice, the range.
GATEWAY_DECL result<void> check_price(std::string_view field, decimal const& p,
                                      market_rules const& m) {
    std::string const f(field);
    if (is_on(m.min_price) && p < m.min_price)
        return field_error(field, "'" + f + "' " + p.str() +
                                      " is below the market's minimum price " + m.min_price.str() +
                                      ".");
    if (is_on(m.max_price) && p > m.max_price)
        return field_error(field, "'" + f + "' " + p.str() +
                                      " is above the market's maximum price " + m.max_price.str() +
                                      ".");
    if (is_on(m.tick_size) &&
        !on_grid(p, is_on(m.min_price) ? m.min_price : decimal(), m.tick_size))
        return field_error(field, "'" + f + "' " + p.str() +
                                      " is not a multiple of the market's tick size " +
                                      m.tick_size.str() + " (it is not rounded).");
    return {};
}

/// `size` against LOT_SIZE, or MARKET_LOT_SIZE for market orders when the market has one.
GATEWAY_DECL result<void> check_size(decimal const& q, bool market_order, market_rules const& m) {
    bool const market_lot = market_order && is_on(m.market_step_size);
    decimal const& step = market_lot ? m.market_step_size : m.step_size;
    decimal const& min = market_lot ? m.market_min_qty : m.min_qty;
    decimal const& max = market_lot ? m.market_max_qty : m.max_qty;
    if (is_on(min) && q < min)
        return field_error("size", "'size' " + q.str() +
                                       " is below the market's minimum quantity " + min.str() +
                                       ".");
    if (is_on(max) && q > max)
        return field_error("size", "'size' " + q.str() +
                                       " is above the market's maximum quantity " + max.str() +
                                       (market_order ? " for market orders." : "."));
    if (is_on(step) && !on_grid(q, is_on(min) ? min : decimal(), step))
        return field_error("size", "'size' " + q.str() +
                                       " is not a multiple of the market's step size " +
                                       step.str() + " (it is not rounded).");
    return {};
}

/// `v` x `factor`, exactly (nullopt on overflow).
GATEWAY_DECL std::optional<decimal> times(decimal const& v, decimal const& factor) {
    return exact_mul(v, factor);
}

GATEWAY_DECL char const* wire_side(gateway::side s) noexcept {
    return s == gateway::side::buy ? "BUY" : "SELL";
}

GATEWAY_DECL char const* wire_type(order_type t) noexcept {
    switch (t) {
    case order_type::limit:
        return "LIMIT";
    case order_type::stop_market:
        return "STOP_MARKET";
    case order_type::stop_limit:
        return "STOP";
    case order_type::trailing_stop:
        return "TRAILING_STOP_MARKET";
    case order_type::market:
        break;
    }
    return "MARKET";
}

GATEWAY_DECL char const* wire_tif(time_in_force t) noexcept {
    switch (t) {
    case time_in_force::ioc:
        return "IOC";
    case time_in_force::alo:
        return "GTX";
    case time_in_force::gtc:
        break;
    }
    return "GTC";
}

GATEWAY_DECL api_error type_error(std::string const& why) {
    return field_error("type", why, errc::unsupported_order_type);
}

} // namespace detail

GATEWAY_DECL market_rules rules_of(market_info const& m, bool spot) {
    market_rules r;
    r.spot = spot;
    r.tick_size = m.tick_size.value_or(decimal());
    r.step_size = m.step_size.value_or(decimal());
    r.min_notional = m.min_notional.value_or(decimal());
    r.max_leverage = spot || m.max_leverage < 0 ? 0u : static_cast<unsigned>(m.max_leverage);
    return r;
}

GATEWAY_DECL result<std::string> upstream_symbol(std::string_view symbol, bool spot) {
    auto const slash = symbol.find('/');
    auto const is_name = [](std::string_view s) {
        return !s.empty() && s.size() <= 20 && std::all_of(s.begin(), s.end(), [](char c) {
            return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        });
    };
    if (spot) {
        if (slash == std::string_view::npos || !is_name(symbol.substr(0, slash)) ||
            !is_name(symbol.substr(slash + 1)))
            return field_error("symbol", "'symbol' of a spot order on beta is BASE/QUOTE in "
                                         "upper case (BTC/USDT).");
        return std::string(symbol.substr(0, slash)) + std::string(symbol.substr(slash + 1));
    }
    if (!is_name(symbol))
        return field_error("symbol", "'symbol' of a perps order on beta is the base asset in "
                                     "upper case (BTC, TSLA).");
    return wire::beta::perp_symbol(symbol);
}

GATEWAY_DECL result<query_params> order_params(place_order_request const& r, market_rules const& m,
                                               std::optional<decimal> const& mark) {
    bool const limit_type = r.type == order_type::limit || r.type == order_type::stop_limit;
    bool const stop_type = r.type == order_type::stop_market || r.type == order_type::stop_limit;
    bool const trailing = r.type == order_type::trailing_stop;
    if (m.spot && r.type != order_type::market && r.type != order_type::limit)
        return detail::type_error("Spot orders on beta are 'market' or 'limit' only, not '" +
                                  std::string(to_string(r.type)) + "'.");
    auto symbol = upstream_symbol(r.symbol, m.spot);
    if (!symbol)
        return symbol.error();
    if (limit_type && !r.price)
        return field_error("price", "'price' is required for limit and stop_limit orders.");
    if (!limit_type && r.price)
        return field_error("price", "'price' applies only to limit and stop_limit orders on beta "
                                    "(its market, stop_market and trailing_stop orders carry no "
                                    "price).");
    if (stop_type && !r.trigger_price)
        return field_error("triggerPrice",
                           "'triggerPrice' is required for stop_market and stop_limit orders.");
    if (!stop_type && r.trigger_price)
        return field_error("triggerPrice",
                           "'triggerPrice' applies only to stop_market and stop_limit orders.");
    if (trailing && !r.callback_rate)
        return field_error("callbackRate", "'callbackRate' is required for trailing_stop orders.");
    if (!trailing && r.callback_rate)
        return field_error("callbackRate", "'callbackRate' applies only to trailing_stop orders.");
    if (!trailing && r.activation_price)
        return field_error("activationPrice",
                           "'activationPrice' applies only to trailing_stop orders.");
    if (!limit_type && r.time_in_force)
        return field_error("timeInForce",
                           "'timeInForce' applies only to limit and stop_limit orders.");
    if (m.spot && r.reduce_only)
        return field_error("reduceOnly", "'reduceOnly' applies only to perps orders.");
    if (r.client_order_id &&
        !(r.client_order_id->size() == 34 && r.client_order_id->starts_with("0x") &&
          gateway::detail::is_hex(std::string_view(*r.client_order_id).substr(2))))
        return field_error("clientOrderId",
                           "'clientOrderId' must be 0x followed by 32 hex digits.");
    if (r.size.is_negative() || r.size.is_zero())
        return field_error("size", "'size' must be greater than 0.");
    if (trailing) {
        decimal const& rate = *r.callback_rate;
        if (rate < detail::dec(min_callback_rate) || rate > detail::dec(max_callback_rate))
            return field_error("callbackRate",
                               "'callbackRate' " + rate.str() + " is outside 0.1-5 (percent).");
    }

    // The market's filters (beta.md §4.1), field by field, never rounding.
    if (auto ok = detail::check_size(r.size, r.type == order_type::market, m); !ok)
        return ok.error();
    for (auto const& [field, value] :
         {std::pair{std::string_view("price"), &r.price},
          std::pair{std::string_view("triggerPrice"), &r.trigger_price},
          std::pair{std::string_view("activationPrice"), &r.activation_price}})
        if (*value) {
            if (value->value().is_negative() || value->value().is_zero())
                return field_error(field, "'" + std::string(field) + "' must be greater than 0.");
            if (auto ok = detail::check_price(field, **value, m); !ok)
                return ok.error();
        }
    // Minimum notional (reduce-only orders are exempt upstream): the limit price, the trigger
    // of a stop market, the activation price of a trailing stop, else the mark.
    std::optional<decimal> notional_price = r.price ? r.price : r.trigger_price;
    if (!notional_price)
        notional_price = r.activation_price ? r.activation_price : mark;
    if (!r.reduce_only && detail::is_on(m.min_notional) && notional_price) {
        auto const notional = detail::times(r.size, *notional_price);
        if (notional && *notional < m.min_notional) {
            api_error e = field_error(
                "size", "The order's notional " + notional->str() +
                            " is below the market's minimum of " + m.min_notional.str() +
                            " (size x price; reduce-only orders are exempt).");
            e.details["minNotional"] = m.min_notional.str();
            return e;
        }
    }
    // Percent price: a buy at most mark x multiplierUp, a sell at least mark x multiplierDown.
    if (r.price && mark && detail::is_on(*mark)) {
        if (r.side == gateway::side::buy && m.multiplier_up && detail::is_on(*m.multiplier_up)) {
            auto const cap = detail::times(*mark, *m.multiplier_up);
            if (cap && *r.price > *cap)
                return field_error("price", "'price' " + r.price->str() +
                                                " is above the market's limit for buys, " +
                                                cap->str() + " (mark " + mark->str() + " x " +
                                                m.multiplier_up->str() + ").");
        }
        if (r.side == gateway::side::sell && m.multiplier_down &&
            detail::is_on(*m.multiplier_down)) {
            auto const floor = detail::times(*mark, *m.multiplier_down);
            if (floor && *r.price < *floor)
                return field_error("price", "'price' " + r.price->str() +
                                                " is below the market's limit for sells, " +
                                                floor->str() + " (mark " + mark->str() + " x " +
                                                m.multiplier_down->str() + ").");
        }
    }

    query_params q;
    q.emplace_back("symbol", std::move(*symbol));
    q.emplace_back("side", detail::wire_side(r.side));
    q.emplace_back("type", detail::wire_type(r.type));
    if (limit_type)
        q.emplace_back("timeInForce",
                       detail::wire_tif(r.time_in_force.value_or(time_in_force::gtc)));
    q.emplace_back("quantity", r.size.str());
    if (r.price)
        q.emplace_back("price", r.price->str());
    if (r.trigger_price)
        q.emplace_back("stopPrice", r.trigger_price->str());
    if (r.callback_rate)
        q.emplace_back("callbackRate", r.callback_rate->str());
    if (r.activation_price)
        q.emplace_back("activationPrice", r.activation_price->str());
    if (r.reduce_only)
        q.emplace_back("reduceOnly", "true");
    if (r.client_order_id)
        q.emplace_back("newClientOrderId", *r.client_order_id);
    return q;
}

GATEWAY_DECL result<query_params> cancel_params(cancel_order_request const& r,
                                                market_rules const& m) {
    auto symbol = upstream_symbol(r.symbol, m.spot);
    if (!symbol)
        return symbol.error();
    std::uint64_t id = 0;
    std::string_view const text = r.order_id;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
        !gateway::detail::all_digits(text))
        return field_error("orderId", "'orderId' must be the order's decimal id on beta.");
    query_params q;
    q.emplace_back("symbol", std::move(*symbol));
    q.emplace_back("orderId", std::to_string(id));
    return q;
}

GATEWAY_DECL result<query_params> leverage_params(set_leverage_request const& r,
                                                  market_rules const& m) {
    if (m.spot)
        return field_error("symbol", "Leverage exists for perps markets only.");
    auto symbol = upstream_symbol(r.symbol, false);
    if (!symbol)
        return symbol.error();
    if (r.leverage < 1)
        return field_error("leverage", "'leverage' must be an integer of at least 1.");
    // Above the market's maximum (beta's ceiling, 125, when the market names none) is
    // MAX_LEVERAGE_EXCEEDED naming it (CONTRACT 2), as on alpha.
    constexpr std::int64_t beta_ceiling = 125;
    std::int64_t const max =
        m.max_leverage != 0 ? static_cast<std::int64_t>(m.max_leverage) : beta_ceiling;
    if (r.leverage > max) {
        api_error e =
            field_error("leverage",
                        "'leverage' " + std::to_string(r.leverage) +
                            " is above the market maximum of " + std::to_string(max) + ".",
                        errc::max_leverage_exceeded);
        e.details["maxLeverage"] = max;
        return e;
    }
    if (r.margin_mode != margin_mode::cross)
        return field_error("marginMode",
                           "'marginMode' can only be cross here: beta changes the margin mode "
                           "with a separate signed request, which the gateway does not offer.");
    query_params q;
    q.emplace_back("symbol", std::move(*symbol));
    q.emplace_back("leverage", std::to_string(r.leverage));
    return q;
}

GATEWAY_DECL result<signing_payload> signing_payload_for(query_params const& business,
                                                         std::int64_t nonce_ms,
                                                         gateway::address const& wallet,
                                                         std::optional<gateway::address> signer,
                                                         bool testnet) {
    constexpr std::int64_t max_ms = std::numeric_limits<std::int64_t>::max() / 1000;
    if (nonce_ms <= 0 || nonce_ms > max_ms)
        return field_error("nonce", "'nonce' must be a positive timestamp in milliseconds.");
    signing_payload out;
    out.msg = wire::beta::signed_message(business, static_cast<std::uint64_t>(nonce_ms) * 1000,
                                         wallet, signer.value_or(wallet));
    out.typed_data = typed_data(out.msg, testnet);
    out.digest = digest(out.msg, testnet);
    return out;
}

// ------------------------------------------------------------------------------------------
// Signer

GATEWAY_DECL signer::signer(private_key key, bool testnet)
    : key_(std::move(key))
    , address_(address_of(key_))
    , testnet_(testnet) {}

namespace detail {
/// Shared by the three `signer::sign`: fill nonce, wallet and signer on a copy, derive,
/// validate, sign.
template <class Request, class Derive>
result<void> sign_request(signer const& s, private_key const& key, Request& r, Derive&& derive) {
    Request copy = r;
    if (copy.nonce == 0)
        copy.nonce = next_nonce_ms();
    if (copy.wallet.is_zero())
        copy.wallet = s.address();
    // The key signs: the wallet itself (signer left to its default) or an API wallet.
    if (s.address() == copy.wallet)
        copy.signer.reset();
    else
        copy.signer = s.address();
    auto business = derive(copy);
    if (!business)
        return business.error();
    if (auto ok = validate(copy, body_kind::typed_data_params); !ok)
        return ok.error();
    auto payload =
        signing_payload_for(*business, copy.nonce, copy.wallet, copy.signer, s.testnet());
    if (!payload)
        return payload.error();
    copy.signature = signature_to_hex(sign_digest(payload->digest, key));
    r = std::move(copy);
    return {};
}
} // namespace detail

GATEWAY_DECL result<void> signer::sign(place_order_request& r, market_rules const& m) const {
    return detail::sign_request(*this, key_, r,
                                [&](place_order_request const& c) { return order_params(c, m); });
}

GATEWAY_DECL result<void> signer::sign(cancel_order_request& r, market_rules const& m) const {
    return detail::sign_request(*this, key_, r,
                                [&](cancel_order_request const& c) { return cancel_params(c, m); });
}

GATEWAY_DECL result<void> signer::sign(set_leverage_request& r, market_rules const& m) const {
    return detail::sign_request(
        *this, key_, r, [&](set_leverage_request const& c) { return leverage_params(c, m); });
}

GATEWAY_DECL result<std::string>
signer::sign_typed_data(boost::json::value const& typed_data) const {
    return eip712::sign_typed_data_hex(typed_data, key_);
}

} // namespace gateway::sign::beta
