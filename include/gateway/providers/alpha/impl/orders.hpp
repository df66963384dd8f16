#pragma once

#include <gateway/validate/validate.hpp>

#include <boost/json/array.hpp>

#include <algorithm>
#include <charconv>
#include <limits>
#include <utility>

namespace gateway::sign::alpha {

namespace detail {

GATEWAY_DECL api_error order_type_error(std::string const& why) {
    return field_error("type", why, errc::unsupported_order_type);
}

/// `tif` of alpha's limit orders.
GATEWAY_DECL char const* wire_tif(time_in_force t) noexcept {
    switch (t) {
    case time_in_force::ioc:
        return "Ioc";
    case time_in_force::alo:
        return "Alo";
    case time_in_force::gtc:
        break;
    }
    return "Gtc";
}

/// `0x` + 32 hex digits, lower-cased (the upstream keeps cloids as 16 raw bytes).
GATEWAY_DECL result<std::string> wire_cloid(std::string_view text) {
    bool ok = text.size() == 34 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    std::string out = "0x";
    for (std::size_t i = 2; ok && i < text.size(); ++i) {
        char const c = text[i];
        if (c >= '0' && c <= '9')
            out.push_back(c);
        else if (c >= 'a' && c <= 'f')
            out.push_back(c);
        else if (c >= 'A' && c <= 'F')
            out.push_back(static_cast<char>(c - 'A' + 'a'));
        else
            ok = false;
    }
    if (!ok)
        return field_error("clientOrderId",
                           "'clientOrderId' must be 0x followed by 32 hex digits.");
    return out;
}

/// `d` x `factor` / 100, exactly (`factor` small and positive).
GATEWAY_DECL std::optional<plain_decimal> scale_percent(std::string_view text, unsigned factor) {
    auto d = parse_plain(text);
    if (!d)
        return std::nullopt;
    std::string product;
    unsigned carry = 0;
    for (auto it = d->digits.rbegin(); it != d->digits.rend(); ++it) {
        unsigned const v = static_cast<unsigned>(*it - '0') * factor + carry;
        product.push_back(static_cast<char>('0' + v % 10));
        carry = v / 10;
    }
    for (; carry > 0; carry /= 10)
        product.push_back(static_cast<char>('0' + carry % 10));
    std::reverse(product.begin(), product.end());
    strip_leading_zeros(product);
    d->digits = std::move(product);
    d->scale += 2;
    strip_trailing_zeros(*d);
    return d;
}

GATEWAY_DECL result<std::uint64_t> wire_nonce(std::int64_t nonce) {
    if (nonce < 0)
        return field_error("nonce", "'nonce' must not be negative.");
    return static_cast<std::uint64_t>(nonce);
}

} // namespace detail

// ------------------------------------------------------------------------------------------
// Derivation (CONTRACT §6.1)

GATEWAY_DECL result<boost::json::object> order_action(place_order_request const& r,
                                                      market_rules const& m) {
    bool const is_limit = r.type == order_type::limit;
    bool const is_stop = r.type == order_type::stop_market || r.type == order_type::stop_limit;
    if (r.type == order_type::trailing_stop)
        return detail::order_type_error("Order type 'trailing_stop' is not available on alpha.");
    if (m.spot && r.type != order_type::market && r.type != order_type::limit)
        return detail::order_type_error("Spot orders on alpha are 'market' or 'limit' only, not '" +
                                        std::string(to_string(r.type)) + "'.");
    if (!r.price)
        return field_error("price", "'price' is required for every order type on alpha (for "
                                    "market and stop_market orders it is the worst acceptable "
                                    "price).");
    if (is_stop && !r.trigger_price)
        return field_error("triggerPrice",
                           "'triggerPrice' is required for stop_market and stop_limit orders.");
    if (!is_stop && r.trigger_price)
        return field_error("triggerPrice",
                           "'triggerPrice' applies only to stop_market and stop_limit orders.");
    if (r.callback_rate)
        return field_error("callbackRate", "'callbackRate' applies only to trailing_stop orders.");
    if (r.activation_price)
        return field_error("activationPrice",
                           "'activationPrice' applies only to trailing_stop orders.");
    if (r.time_in_force && !is_limit &&
        !(r.type == order_type::stop_limit && *r.time_in_force == time_in_force::gtc))
        return field_error("timeInForce",
                           r.type == order_type::stop_limit
                               ? "'timeInForce' of a stop_limit order on alpha can only be gtc."
                               : "'timeInForce' applies only to limit and stop_limit orders.");
    std::optional<std::string> cloid;
    if (r.client_order_id) {
        auto c = detail::wire_cloid(*r.client_order_id);
        if (!c)
            return c.error();
        cloid = std::move(*c);
    }
    auto size = check_size(r.size.str(), m.sz_decimals, "size");
    if (!size)
        return size.error();
    auto price = check_price(r.price->str(), m.sz_decimals, m.spot, "price");
    if (!price)
        return price.error();

    boost::json::object t;
    if (is_stop) {
        auto trigger = check_price(r.trigger_price->str(), m.sz_decimals, m.spot, "triggerPrice");
        if (!trigger)
            return trigger.error();
        boost::json::object trig;
        trig["isMarket"] = r.type == order_type::stop_market;
        trig["triggerPx"] = *trigger;
        trig["tpsl"] = "sl";
        t["trigger"] = std::move(trig);
    } else {
        time_in_force const tif =
            is_limit ? r.time_in_force.value_or(time_in_force::gtc) : time_in_force::ioc;
        t["limit"] = boost::json::object{{"tif", detail::wire_tif(tif)}};
    }

    boost::json::object order;
    order["a"] = static_cast<std::int64_t>(m.asset);
    order["b"] = r.side == side::buy;
    order["p"] = *price;
    order["s"] = *size;
    order["r"] = r.reduce_only;
    order["t"] = std::move(t);
    if (cloid)
        order["c"] = *cloid;

    boost::json::object action;
    action["type"] = "order";
    action["orders"] = boost::json::array{std::move(order)};
    action["grouping"] = "na";
    return action;
}

GATEWAY_DECL result<boost::json::object> cancel_action(cancel_order_request const& r,
                                                       market_rules const& m) {
    std::uint64_t oid = 0;
    std::string_view const text = r.order_id;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), oid);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
        !gateway::detail::all_digits(text))
        return field_error("orderId", "'orderId' must be the order's decimal id on alpha.");
    boost::json::object cancel;
    cancel["a"] = static_cast<std::int64_t>(m.asset);
    // An int64 when it fits (as boost::json parses it); the msgpack bytes are the same.
    if (oid <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        cancel["o"] = static_cast<std::int64_t>(oid);
    else
        cancel["o"] = oid;
    boost::json::object action;
    action["type"] = "cancel";
    action["cancels"] = boost::json::array{std::move(cancel)};
    return action;
}

GATEWAY_DECL result<boost::json::object> leverage_action(set_leverage_request const& r,
                                                         market_rules const& m) {
    if (r.leverage <= 0)
        return field_error("leverage", "'leverage' must be greater than 0.");
    if (m.max_leverage != 0 && r.leverage > static_cast<std::int64_t>(m.max_leverage)) {
        api_error e = field_error("leverage",
                                  "'leverage' " + std::to_string(r.leverage) +
                                      " is above the market maximum of " +
                                      std::to_string(m.max_leverage) + ".",
                                  errc::max_leverage_exceeded);
        e.details["maxLeverage"] = static_cast<std::int64_t>(m.max_leverage);
        return e;
    }
    boost::json::object action;
    action["type"] = "updateLeverage";
    action["asset"] = static_cast<std::int64_t>(m.asset);
    action["isCross"] = r.margin_mode == margin_mode::cross;
    action["leverage"] = r.leverage;
    return action;
}

GATEWAY_DECL result<signing_payload> signing_payload_for(boost::json::object const& action,
                                                         std::int64_t nonce, bool testnet) {
    auto n = detail::wire_nonce(nonce);
    if (!n)
        return n.error();
    auto cid = action_hash(action, *n);
    if (!cid)
        return cid.error();
    signing_payload out;
    out.typed_data = phantom_agent_typed_data(*cid, testnet);
    out.digest = l1_digest(*cid, testnet);
    return out;
}

GATEWAY_DECL result<decimal> market_order_price(decimal const& mid, gateway::side s,
                                                market_rules const& m) {
    if (mid.is_negative() || mid.is_zero())
        return field_error("price", "'price' cannot be derived from a mid price that is not > 0.");
    auto const bound = detail::scale_percent(mid.str(), s == side::buy ? 105 : 95);
    if (!bound)
        return field_error("price", "'price' cannot be derived from a malformed mid price.");
    auto rounded = round_price(detail::render(*bound), m.sz_decimals, m.spot, "price");
    if (!rounded)
        return rounded.error();
    return decimal::parse(*rounded, "price");
}

// ------------------------------------------------------------------------------------------
// Signer

GATEWAY_DECL signer::signer(private_key key, bool testnet)
    : key_(std::move(key))
    , address_(address_of(key_))
    , testnet_(testnet) {}

GATEWAY_DECL result<std::string> signer::sign_action(boost::json::object const& action,
                                                     std::int64_t nonce) const {
    auto payload = signing_payload_for(action, nonce, testnet_);
    if (!payload)
        return payload.error();
    return signature_to_hex(sign_digest(payload->digest, key_));
}

namespace detail {
/// Shared by the three `signer::sign`: fill nonce and wallet on a copy, derive, validate, sign.
template <class Request, class Derive>
result<void> sign_request(signer const& s, Request& r, Derive&& derive) {
    Request copy = r;
    if (copy.nonce == 0)
        copy.nonce = next_nonce_ms();
    if (copy.wallet.is_zero())
        copy.wallet = s.address();
    auto action = derive(copy);
    if (!action)
        return action.error();
    if (auto ok = validate(copy, body_kind::typed_data_params); !ok)
        return ok.error();
    auto sig = s.sign_action(*action, copy.nonce);
    if (!sig)
        return sig.error();
    copy.signature = std::move(*sig);
    r = std::move(copy);
    return {};
}
} // namespace detail

GATEWAY_DECL result<void> signer::sign(place_order_request& r, market_rules const& m) const {
    return detail::sign_request(*this, r,
                                [&](place_order_request const& c) { return order_action(c, m); });
}

GATEWAY_DECL result<void> signer::sign(cancel_order_request& r, market_rules const& m) const {
    return detail::sign_request(*this, r,
                                [&](cancel_order_request const& c) { return cancel_action(c, m); });
}

GATEWAY_DECL result<void> signer::sign(set_leverage_request& r, market_rules const& m) const {
    return detail::sign_request(
        *this, r, [&](set_leverage_request const& c) { return leverage_action(c, m); });
}

GATEWAY_DECL result<std::string>
signer::sign_typed_data(boost::json::value const& typed_data) const {
    return eip712::sign_typed_data_hex(typed_data, key_);
}

// ------------------------------------------------------------------------------------------
// Verification

GATEWAY_DECL result<gateway::address> recover_signer(boost::json::object const& action,
                                                     std::int64_t nonce, std::string_view signature,
                                                     bool testnet) {
    auto sig = wire_signature(signature);
    if (!sig)
        return sig.error();
    auto payload = signing_payload_for(action, nonce, testnet);
    if (!payload)
        return payload.error();
    return recover(payload->digest, *sig);
}

} // namespace gateway::sign::alpha
