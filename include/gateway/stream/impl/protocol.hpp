#pragma once

#include <gateway/types/address.hpp>
#include <gateway/types/enums.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <cmath>
#include <utility>

namespace gateway::stream {

namespace detail {
inline constexpr std::array<std::pair<channel, std::string_view>, 6> channel_names{{
    {channel::prices, "prices"},
    {channel::trades, "trades"},
    {channel::orderbook, "orderbook"},
    {channel::candles, "candles"},
    {channel::orders, "orders"},
    {channel::fills, "fills"},
}};

inline bool needs_symbol(channel c) {
    return c == channel::trades || c == channel::orderbook || c == channel::candles;
}
inline bool needs_address(channel c) {
    return c == channel::orders || c == channel::fills;
}

/// Replaces every number that overflowed to infinity, at any depth, with null: JSON cannot write
/// it (Boost 1.81 writes `Infinity`). The parser's depth limit bounds the recursion.
inline void null_non_finite(boost::json::value& v) {
    if (auto* d = v.if_double()) {
        if (!std::isfinite(*d))
            v = nullptr;
    } else if (auto* a = v.if_array()) {
        for (auto& e : *a)
            null_non_finite(e);
    } else if (auto* o = v.if_object()) {
        for (auto& kv : *o)
            null_non_finite(kv.value());
    }
}

/// Every frame is written here: valid JSON whatever numbers it was given.
inline std::string frame_text(boost::json::object o) {
    boost::json::value v(std::move(o));
    null_non_finite(v);
    return boost::json::serialize(v);
}

/// A required string field of a client frame.
inline result<std::string> string_field(boost::json::object const& o, std::string_view name) {
    auto const* v = o.if_contains(name);
    if (!v)
        return field_error(name, "Field '" + std::string(name) + "' is required.");
    if (!v->is_string() || v->get_string().empty())
        return field_error(name, "Field '" + std::string(name) + "' must be a non-empty string.");
    return std::string(v->get_string());
}

inline result<subscription> read_subscription(boost::json::object const& o) {
    subscription s;
    auto ch = string_field(o, "channel");
    if (!ch)
        return ch.error();
    auto c = parse_channel(*ch);
    if (!c)
        return field_error("channel", "Unknown channel '" + *ch +
                                          "'; channels are prices, trades, orderbook, candles, "
                                          "orders and fills.");
    s.channel = *c;
    auto provider = string_field(o, "provider");
    if (!provider)
        return provider.error();
    s.provider = std::move(*provider);
    for (auto const& [key, value] : o) {
        std::string_view const k = key;
        bool const known = k == "id" || k == "op" || k == "channel" || k == "provider" ||
                           (needs_symbol(s.channel) && k == "symbol") ||
                           (s.channel == channel::orderbook && k == "depth") ||
                           (s.channel == channel::candles && k == "interval") ||
                           (needs_address(s.channel) && k == "address");
        if (!known)
            return field_error(k, "Field '" + std::string(k) + "' is not part of a '" +
                                      std::string(to_string(s.channel)) + "' subscription.");
    }
    if (needs_symbol(s.channel)) {
        auto sym = string_field(o, "symbol");
        if (!sym)
            return sym.error();
        s.symbol = std::move(*sym);
    }
    if (s.channel == channel::orderbook) {
        s.depth = subscription::default_depth;
        if (auto const* d = o.if_contains("depth")) {
            auto const* n = d->if_int64();
            auto const* u = d->if_uint64();
            std::int64_t const value =
                n ? *n : (u && *u <= subscription::max_depth ? static_cast<std::int64_t>(*u) : -1);
            if ((!n && !u) || value < 1 ||
                value > static_cast<std::int64_t>(subscription::max_depth))
                return field_error("depth", "Field 'depth' must be an integer from 1 to " +
                                                std::to_string(subscription::max_depth) + ".");
            s.depth = static_cast<unsigned>(value);
        }
    }
    if (s.channel == channel::candles) {
        auto iv = string_field(o, "interval");
        if (!iv)
            return iv.error();
        auto parsed = parse_interval(*iv, "interval");
        if (!parsed)
            return parsed.error();
        s.interval = std::move(*iv);
    }
    if (needs_address(s.channel)) {
        auto a = string_field(o, "address");
        if (!a)
            return a.error();
        auto parsed = address::parse(*a, "address");
        if (!parsed)
            return parsed.error();
        s.address = parsed->str();
    }
    return s;
}

inline result<subscription> subscription_from(boost::json::value const& v) {
    auto const* o = v.if_object();
    if (!o)
        return field_error("subscription", "Field 'subscription' must be an object.");
    return read_subscription(*o);
}

} // namespace detail

GATEWAY_DECL std::string_view to_string(channel c) noexcept {
    for (auto const& [value, name] : detail::channel_names)
        if (value == c)
            return name;
    return "prices";
}

GATEWAY_DECL std::optional<channel> parse_channel(std::string_view text) noexcept {
    for (auto const& [value, name] : detail::channel_names)
        if (name == text)
            return value;
    return std::nullopt;
}

inline std::string subscription::key() const {
    std::string k(to_string(channel));
    k += '|';
    k += provider;
    k += '|';
    k += symbol;
    k += '|';
    k += std::to_string(depth);
    k += '|';
    k += interval;
    k += '|';
    k += address;
    return k;
}

GATEWAY_DECL boost::json::object to_json(subscription const& s) {
    boost::json::object o;
    o["channel"] = to_string(s.channel);
    o["provider"] = s.provider;
    if (detail::needs_symbol(s.channel))
        o["symbol"] = s.symbol;
    if (s.channel == channel::orderbook)
        o["depth"] = s.depth;
    if (s.channel == channel::candles)
        o["interval"] = s.interval;
    if (detail::needs_address(s.channel))
        o["address"] = s.address;
    return o;
}

GATEWAY_DECL result<client_frame> parse_client_frame(std::string_view text,
                                                     boost::json::value* id_out) {
    boost::system::error_code ec;
    auto v = boost::json::parse(text, ec);
    if (ec || !v.is_object())
        return make_error(errc::invalid_json, "The frame is not a JSON object.");
    auto const& o = v.get_object();
    client_frame f;
    if (auto const* id = o.if_contains("id"))
        f.id = *id;
    detail::null_non_finite(f.id);
    if (id_out)
        *id_out = f.id;
    auto op = detail::string_field(o, "op");
    if (!op)
        return op.error();
    if (*op == "ping") {
        f.op = client_frame::op_kind::ping;
        for (auto const& [key, value] : o)
            if (key != "id" && key != "op")
                return field_error(key,
                                   "Field '" + std::string(key) + "' is not part of a ping frame.");
        return f;
    }
    if (*op == "subscribe")
        f.op = client_frame::op_kind::subscribe;
    else if (*op == "unsubscribe")
        f.op = client_frame::op_kind::unsubscribe;
    else
        return field_error("op", "Unknown op '" + *op +
                                     "'; ops are subscribe, unsubscribe and "
                                     "ping.");
    auto sub = detail::read_subscription(o);
    if (!sub)
        return sub.error();
    f.sub = std::move(*sub);
    return f;
}

GATEWAY_DECL std::string subscribe_frame(client_frame::op_kind op, subscription const& s,
                                         boost::json::value const& id) {
    boost::json::object o = to_json(s);
    o["id"] = id;
    o["op"] = op == client_frame::op_kind::subscribe     ? "subscribe"
              : op == client_frame::op_kind::unsubscribe ? "unsubscribe"
                                                         : "ping";
    if (op == client_frame::op_kind::ping) {
        boost::json::object ping;
        ping["id"] = id;
        ping["op"] = "ping";
        return detail::frame_text(std::move(ping));
    }
    return detail::frame_text(std::move(o));
}

GATEWAY_DECL std::string ack_frame(boost::json::value const& id, bool subscribed,
                                   subscription const& s) {
    boost::json::object o;
    o["id"] = id;
    o["type"] = subscribed ? "subscribed" : "unsubscribed";
    o["subscription"] = to_json(s);
    return detail::frame_text(std::move(o));
}

GATEWAY_DECL std::string error_frame(boost::json::value const& id, api_error const& e) {
    boost::json::object o;
    o["id"] = id;
    o["type"] = "error";
    o["error"] = to_json(e).as_object()["error"];
    return detail::frame_text(std::move(o));
}

GATEWAY_DECL std::string pong_frame(boost::json::value const& id) {
    boost::json::object o;
    o["id"] = id;
    o["type"] = "pong";
    return detail::frame_text(std::move(o));
}

GATEWAY_DECL std::string_view to_string(stream_status s) noexcept {
    switch (s) {
    case stream_status::stale:
        return "stale";
    case stream_status::reconnecting:
        return "reconnecting";
    case stream_status::restored:
        return "restored";
    }
    return "restored";
}

GATEWAY_DECL std::string status_frame(subscription const& s, stream_status status,
                                      std::string_view message) {
    boost::json::object o;
    o["type"] = "status";
    o["subscription"] = to_json(s);
    o["status"] = to_string(status);
    o["message"] = message;
    return detail::frame_text(std::move(o));
}

GATEWAY_DECL std::string data_frame(subscription const& s, boost::json::value const& data,
                                    std::uint64_t seq) {
    boost::json::object o;
    o["type"] = to_string(s.channel);
    o["provider"] = s.provider;
    if (detail::needs_symbol(s.channel))
        o["symbol"] = s.symbol;
    if (detail::needs_address(s.channel))
        o["address"] = s.address;
    if (s.channel == channel::orderbook) {
        o["depth"] = s.depth;
        o["seq"] = seq;
    }
    if (s.channel == channel::candles)
        o["interval"] = s.interval;
    o["data"] = data;
    return detail::frame_text(std::move(o));
}

GATEWAY_DECL result<server_frame> parse_server_frame(std::string_view text) {
    boost::system::error_code ec;
    auto v = boost::json::parse(text, ec);
    if (ec || !v.is_object())
        return make_error(errc::invalid_json, "The frame is not a JSON object.");
    auto& o = v.get_object();
    auto type = detail::string_field(o, "type");
    if (!type)
        return type.error();
    server_frame f;
    if (auto const* id = o.if_contains("id"))
        f.id = *id;
    auto read_sub = [&]() -> result<subscription> {
        auto const* s = o.if_contains("subscription");
        if (!s)
            return field_error("subscription", "Field 'subscription' is required.");
        return detail::subscription_from(*s);
    };
    if (*type == "subscribed" || *type == "unsubscribed") {
        f.what = *type == "subscribed" ? server_frame::kind::subscribed
                                       : server_frame::kind::unsubscribed;
        auto s = read_sub();
        if (!s)
            return s.error();
        f.sub = std::move(*s);
        return f;
    }
    if (*type == "pong") {
        f.what = server_frame::kind::pong;
        return f;
    }
    if (*type == "error") {
        f.what = server_frame::kind::error;
        boost::json::object body;
        if (auto const* e = o.if_contains("error"))
            body["error"] = *e;
        f.error = error_from_json(body, 0);
        return f;
    }
    if (*type == "status") {
        f.what = server_frame::kind::status;
        auto s = read_sub();
        if (!s)
            return s.error();
        f.sub = std::move(*s);
        auto st = detail::string_field(o, "status");
        if (!st)
            return st.error();
        if (*st == "stale")
            f.status = stream_status::stale;
        else if (*st == "reconnecting")
            f.status = stream_status::reconnecting;
        else if (*st == "restored")
            f.status = stream_status::restored;
        else
            return field_error("status", "Unknown status '" + *st + "'.");
        if (auto const* m = o.if_contains("message"); m && m->is_string())
            f.message = std::string(m->get_string());
        return f;
    }
    auto c = parse_channel(*type);
    if (!c)
        return field_error("type", "Unknown frame type '" + *type + "'.");
    // A data frame: its subscription is spread over its top-level fields.
    boost::json::object sub;
    sub["channel"] = *type;
    for (auto const* name : {"provider", "symbol", "depth", "interval", "address"})
        if (auto const* field = o.if_contains(name))
            sub[name] = *field;
    auto s = detail::read_subscription(sub);
    if (!s)
        return s.error();
    f.what = server_frame::kind::data;
    f.sub = std::move(*s);
    if (auto const* seq = o.if_contains("seq")) {
        if (auto const* u = seq->if_uint64())
            f.seq = *u;
        else if (auto const* n = seq->if_int64(); n && *n >= 0)
            f.seq = static_cast<std::uint64_t>(*n);
        else
            return field_error("seq", "Field 'seq' must be a non-negative integer.");
    }
    auto* data = o.if_contains("data");
    if (!data)
        return field_error("data", "Field 'data' is required.");
    f.data = std::move(*data);
    return f;
}

} // namespace gateway::stream
