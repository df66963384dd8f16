#pragma once

#include <charconv>

namespace gateway {

namespace detail {
/// Runs checks in order and keeps the first failure (the validation twin of `json_fields`).
class checks {
public:
    /// Fails `field` with `message` unless `ok`.
    void check(bool ok, std::string_view field, std::string const& message) {
        if (!ok && !error_)
            error_ = field_error(field, message);
    }
    void non_empty(std::string_view field, std::string const& s) {
        check(!s.empty(), field, quote(field) + " must not be empty.");
    }
    void positive(std::string_view field, decimal const& d) {
        check(!d.is_negative() && !d.is_zero(), field, quote(field) + " must be greater than 0.");
    }
    void positive(std::string_view field, std::optional<decimal> const& d) {
        if (d)
            positive(field, *d);
    }
    void positive(std::string_view field, std::int64_t n) {
        check(n > 0, field, quote(field) + " must be greater than 0.");
    }
    void non_negative(std::string_view field, std::int64_t n) {
        check(n >= 0, field, quote(field) + " must not be negative.");
    }
    /// `field` must be present when `when` holds; `what` says for which case.
    void needed(bool when, std::string_view field, bool present, std::string_view what) {
        check(!when || present, field,
              quote(field) + " is required" + (what.empty() ? "" : " for " + std::string(what)) +
                  ".");
    }
    /// `field` may be present only when `when` holds; `what` says for which case.
    void only_for(bool when, std::string_view field, bool present, std::string_view what) {
        check(when || !present, field,
              quote(field) + " applies only to " + std::string(what) + ".");
    }
    /// `field` travels in an upstream header: printable ASCII only (CONTRACT 6.3).
    void header_value(std::string_view field, std::string_view value) {
        if (error_)
            return;
        if (auto r = check_header_value(field, value); !r)
            error_ = r.error();
    }
    result<void> done() const {
        if (error_)
            return *error_;
        return {};
    }

private:
    static std::string quote(std::string_view field) { return "'" + std::string(field) + "'"; }
    std::optional<api_error> error_;
};

GATEWAY_DECL bool is_hex(std::string_view s) noexcept {
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    return true;
}

GATEWAY_DECL void check_signed(checks& c, body_kind kind, std::string const& signature) {
    c.needed(kind == body_kind::signed_write, "signature", !signature.empty(), "a signed write");
}

/// At most `max_candles` candles fit in [start, end] at `iv` (CONTRACT §4), start <= end.
GATEWAY_DECL result<void> check_candle_range(interval iv, std::int64_t start, std::int64_t end) {
    if (start > end)
        return field_error("startTime", "'startTime' must not be after 'endTime'.");
    // A range of n full intervals can touch n + 1 candle buckets.
    if ((end - start) / interval_ms(iv) + 1 > candles_params::max_candles)
        return field_error("startTime", "The range from 'startTime' to 'endTime' spans more than " +
                                            std::to_string(candles_params::max_candles) +
                                            " candles.");
    return {};
}

template <class E>
result<std::optional<E>> optional_enum(std::optional<std::string_view> raw,
                                       std::string_view field) {
    if (!raw)
        return std::optional<E>{};
    auto e = parse_enum<E>(*raw, field);
    if (!e)
        return e.error();
    return std::optional<E>{*e};
}

GATEWAY_DECL result<std::optional<std::string>> optional_text(std::optional<std::string_view> raw,
                                                              std::string_view field) {
    if (!raw)
        return std::optional<std::string>{};
    if (raw->empty())
        return field_error(field, "'" + std::string(field) + "' must not be empty.");
    return std::optional<std::string>{std::string(*raw)};
}

GATEWAY_DECL void put_number(query_params& q, char const* name, std::optional<std::int64_t> v) {
    if (v)
        q.emplace_back(name, std::to_string(*v));
}
} // namespace detail

GATEWAY_DECL result<void> validate(place_order_request const& r, body_kind kind) {
    bool const limit_type = r.type == order_type::limit || r.type == order_type::stop_limit;
    bool const stop_type = r.type == order_type::stop_market || r.type == order_type::stop_limit;
    bool const trailing = r.type == order_type::trailing_stop;
    detail::checks c;
    c.non_empty("symbol", r.symbol);
    c.positive("size", r.size);
    c.needed(limit_type, "price", r.price.has_value(), "limit and stop_limit orders");
    c.positive("price", r.price);
    c.needed(stop_type, "triggerPrice", r.trigger_price.has_value(),
             "stop_market and stop_limit orders");
    c.only_for(stop_type, "triggerPrice", r.trigger_price.has_value(),
               "stop_market and stop_limit orders");
    c.positive("triggerPrice", r.trigger_price);
    c.needed(trailing, "callbackRate", r.callback_rate.has_value(), "trailing_stop orders");
    c.only_for(trailing, "callbackRate", r.callback_rate.has_value(), "trailing_stop orders");
    c.positive("callbackRate", r.callback_rate);
    c.only_for(trailing, "activationPrice", r.activation_price.has_value(), "trailing_stop orders");
    c.positive("activationPrice", r.activation_price);
    c.only_for(limit_type, "timeInForce", r.time_in_force.has_value(),
               "limit and stop_limit orders");
    c.check(!r.client_order_id ||
                (r.client_order_id->size() == 34 && r.client_order_id->starts_with("0x") &&
                 detail::is_hex(std::string_view(*r.client_order_id).substr(2))),
            "clientOrderId", "'clientOrderId' must be 0x followed by 32 hex digits.");
    c.positive("nonce", r.nonce);
    detail::check_signed(c, kind, r.signature);
    return c.done();
}

GATEWAY_DECL result<void> validate(cancel_order_request const& r, body_kind kind) {
    detail::checks c;
    c.non_empty("symbol", r.symbol);
    c.non_empty("orderId", r.order_id);
    c.positive("nonce", r.nonce);
    detail::check_signed(c, kind, r.signature);
    return c.done();
}

GATEWAY_DECL result<void> validate(set_leverage_request const& r, body_kind kind) {
    detail::checks c;
    c.non_empty("symbol", r.symbol);
    c.positive("leverage", r.leverage);
    c.positive("nonce", r.nonce);
    detail::check_signed(c, kind, r.signature);
    return c.done();
}

GATEWAY_DECL result<void> check_header_value(std::string_view field, std::string_view value) {
    for (char const ch : value)
        if (ch < 0x20 || ch > 0x7E) // char may be signed: bytes >= 0x80 are negative there
            return field_error(field, "'" + std::string(field) +
                                          "' must hold printable ASCII characters only (0x20 "
                                          "to 0x7E): it travels in an upstream HTTP header.");
    return {};
}

GATEWAY_DECL result<void> validate(gamma_order_request const& r, body_kind kind) {
    bool const write = kind == body_kind::signed_write;
    detail::checks c;
    c.check(!r.token_id.empty() && detail::all_digits(r.token_id), "tokenId",
            "'tokenId' must be a string of decimal digits.");
    c.positive("size", r.size);
    c.check(!r.price.is_negative() && !r.price.is_zero() && r.price < decimal::from_scaled(1, 0),
            "price", "'price' must be between 0 and 1, both excluded.");
    c.check(r.signature_type >= 0 && r.signature_type <= 2, "signatureType",
            "'signatureType' must be 0, 1 or 2.");
    c.non_negative("feeRateBps", r.fee_rate_bps);
    c.non_negative("expiration", r.expiration);
    bool const gtd = r.time_in_force == prediction_time_in_force::gtd;
    c.needed(gtd, "expiration", r.expiration != 0, "gtd orders");
    c.only_for(gtd, "expiration", r.expiration != 0, "gtd orders (timeInForce gtd)");
    c.non_negative("nonce", r.nonce);
    c.needed(write, "salt", r.salt.has_value(), "a signed write");
    detail::check_signed(c, kind, r.signature);
    c.needed(write, "apiKey", !r.api_key.empty(), "a signed write");
    c.needed(write, "apiSecret", !r.api_secret.empty(), "a signed write");
    c.needed(write, "passphrase", !r.passphrase.empty(), "a signed write");
    c.header_value("apiKey", r.api_key);
    c.header_value("apiSecret", r.api_secret);
    c.header_value("passphrase", r.passphrase);
    return c.done();
}

GATEWAY_DECL result<void> validate(gamma_cancel_request const& r) {
    detail::checks c;
    c.non_empty("orderId", r.order_id);
    c.non_empty("apiKey", r.api_key);
    c.non_empty("apiSecret", r.api_secret);
    c.non_empty("passphrase", r.passphrase);
    c.header_value("apiKey", r.api_key);
    c.header_value("apiSecret", r.api_secret);
    c.header_value("passphrase", r.passphrase);
    return c.done();
}

GATEWAY_DECL std::optional<std::string_view> find_param(query_params const& q,
                                                        std::string_view name) noexcept {
    for (auto const& [k, v] : q)
        if (k == name)
            return std::string_view(v);
    return std::nullopt;
}

GATEWAY_DECL result<std::int64_t> parse_limit(std::optional<std::string_view> raw,
                                              std::int64_t default_value, std::int64_t max,
                                              std::string_view field) {
    if (!raw)
        return default_value;
    std::int64_t n = 0;
    auto const [p, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), n);
    if (raw->empty() || ec != std::errc{} || p != raw->data() + raw->size() || n < 1 || n > max)
        return field_error(field, "'" + std::string(field) + "' must be an integer from 1 to " +
                                      std::to_string(max) + ".");
    return n;
}

GATEWAY_DECL result<std::int64_t> parse_offset(std::optional<std::string_view> raw,
                                               std::string_view field) {
    if (!raw)
        return std::int64_t{0};
    std::int64_t n = 0;
    auto const [p, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), n);
    if (raw->empty() || ec != std::errc{} || p != raw->data() + raw->size() || n < 0)
        return field_error(field, "'" + std::string(field) + "' must be a non-negative integer.");
    return n;
}

GATEWAY_DECL result<std::optional<std::int64_t>> parse_time_ms(std::optional<std::string_view> raw,
                                                               std::string_view field) {
    if (!raw)
        return std::optional<std::int64_t>{};
    std::int64_t n = 0;
    auto const [p, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), n);
    if (raw->empty() || ec != std::errc{} || p != raw->data() + raw->size() || n < 0)
        return field_error(field, "'" + std::string(field) +
                                      "' must be a non-negative integer number of milliseconds.");
    return std::optional<std::int64_t>{n};
}

GATEWAY_DECL query_params prices_params::to_query() const {
    query_params q;
    if (dex && !dex->empty())
        q.emplace_back("dex", *dex);
    return q;
}

template <query_lookup Lookup>
result<prices_params> prices_params::from_query(Lookup&& lookup) {
    prices_params p;
    if (auto dex = lookup("dex"); dex && !dex->empty())
        p.dex = std::string(*dex);
    return p;
}

GATEWAY_DECL query_params trades_params::to_query() const {
    query_params q;
    detail::put_number(q, "limit", limit);
    return q;
}

template <query_lookup Lookup>
result<trades_params> trades_params::from_query(Lookup&& lookup) {
    auto limit = parse_limit(lookup("limit"), default_limit, max_limit, "limit");
    if (!limit)
        return limit.error();
    return trades_params{*limit};
}

GATEWAY_DECL query_params candles_params::to_query() const {
    query_params q;
    if (interval)
        q.emplace_back("interval", to_string(*interval));
    detail::put_number(q, "startTime", start_time);
    detail::put_number(q, "endTime", end_time);
    return q;
}

template <query_lookup Lookup>
result<candles_params> candles_params::from_query(Lookup&& lookup) {
    auto iv = detail::optional_enum<gateway::interval>(lookup("interval"), "interval");
    if (!iv)
        return iv.error();
    if (!*iv)
        return field_error("interval", "'interval' is required.");
    auto start = parse_time_ms(lookup("startTime"), "startTime");
    if (!start)
        return start.error();
    auto end = parse_time_ms(lookup("endTime"), "endTime");
    if (!end)
        return end.error();
    if (*start && *end)
        if (auto r = detail::check_candle_range(**iv, **start, **end); !r)
            return r.error();
    return candles_params{*iv, *start, *end};
}

GATEWAY_DECL result<time_range> candles_params::resolve(std::int64_t now_ms) const {
    if (!interval)
        return field_error("interval", "'interval' is required.");
    time_range r;
    r.end_time = end_time.value_or(now_ms);
    r.start_time = start_time.value_or(r.end_time - default_candles * interval_ms(*interval));
    if (r.start_time < 0)
        r.start_time = 0;
    if (auto ok = detail::check_candle_range(*interval, r.start_time, r.end_time); !ok)
        return ok.error();
    return r;
}

GATEWAY_DECL query_params orderbook_params::to_query() const {
    query_params q;
    detail::put_number(q, "depth", depth);
    return q;
}

template <query_lookup Lookup>
result<orderbook_params> orderbook_params::from_query(Lookup&& lookup) {
    auto depth = parse_limit(lookup("depth"), default_depth, max_depth, "depth");
    if (!depth)
        return depth.error();
    return orderbook_params{*depth};
}

GATEWAY_DECL query_params fills_params::to_query() const {
    query_params q;
    detail::put_number(q, "startTime", start_time);
    detail::put_number(q, "endTime", end_time);
    detail::put_number(q, "limit", limit);
    return q;
}

template <query_lookup Lookup>
result<fills_params> fills_params::from_query(Lookup&& lookup) {
    auto start = parse_time_ms(lookup("startTime"), "startTime");
    if (!start)
        return start.error();
    auto end = parse_time_ms(lookup("endTime"), "endTime");
    if (!end)
        return end.error();
    if (*start && *end && **start > **end)
        return field_error("startTime", "'startTime' must not be after 'endTime'.");
    auto limit = parse_limit(lookup("limit"), default_limit, max_limit, "limit");
    if (!limit)
        return limit.error();
    return fills_params{*start, *end, *limit};
}

GATEWAY_DECL query_params events_params::to_query() const {
    query_params q;
    if (status)
        q.emplace_back("status", to_string(*status));
    if (category)
        q.emplace_back("category", *category);
    detail::put_number(q, "limit", limit);
    detail::put_number(q, "offset", offset);
    return q;
}

template <query_lookup Lookup>
result<events_params> events_params::from_query(Lookup&& lookup) {
    auto status = detail::optional_enum<market_status>(lookup("status"), "status");
    if (!status)
        return status.error();
    auto category = detail::optional_text(lookup("category"), "category");
    if (!category)
        return category.error();
    auto limit = parse_limit(lookup("limit"), default_limit, max_limit, "limit");
    if (!limit)
        return limit.error();
    auto offset = parse_offset(lookup("offset"), "offset");
    if (!offset)
        return offset.error();
    return events_params{*status, std::move(*category), *limit, *offset};
}

GATEWAY_DECL query_params markets_params::to_query() const {
    query_params q;
    if (event_id)
        q.emplace_back("eventId", *event_id);
    if (status)
        q.emplace_back("status", to_string(*status));
    detail::put_number(q, "limit", limit);
    detail::put_number(q, "offset", offset);
    return q;
}

template <query_lookup Lookup>
result<markets_params> markets_params::from_query(Lookup&& lookup) {
    auto event_id = detail::optional_text(lookup("eventId"), "eventId");
    if (!event_id)
        return event_id.error();
    auto status = detail::optional_enum<market_status>(lookup("status"), "status");
    if (!status)
        return status.error();
    auto limit = parse_limit(lookup("limit"), default_limit, max_limit, "limit");
    if (!limit)
        return limit.error();
    auto offset = parse_offset(lookup("offset"), "offset");
    if (!offset)
        return offset.error();
    return markets_params{std::move(*event_id), *status, *limit, *offset};
}

template <query_params_type P>
result<void> validate(P const& params) {
    auto const q = params.to_query();
    auto r = P::from_query([&q](std::string_view name) { return find_param(q, name); });
    if (!r)
        return r.error();
    return {};
}

} // namespace gateway
