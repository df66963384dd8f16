#include "control.hpp"

#include "format.hpp"
#include "http_util.hpp"

#include <gateway/types/decimal.hpp>

#include <boost/json/parse.hpp>

#include <limits>

namespace gateway::mocks {

namespace {

constexpr std::string_view prefix = "/__mock/";
constexpr std::int64_t max_latency_ms = 600'000;
constexpr std::uint64_t max_tick_steps = 100'000;

net::response error(http::status st, std::string message, unsigned version) {
    return control_error(st, std::move(message), version);
}

net::response not_allowed(std::string_view allow, unsigned version) {
    return control_not_allowed(allow, version);
}

std::optional<boost::json::object> parse_object(net::request const& req, std::string& why) {
    return parse_control_object(req, why);
}

std::optional<std::int64_t> as_integer(boost::json::value const& v) {
    if (v.is_int64())
        return v.get_int64();
    if (v.is_uint64() &&
        v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return static_cast<std::int64_t>(v.get_uint64());
    return std::nullopt;
}

boost::json::value faults_json(fault_config const& f) {
    boost::json::object o;
    o["latencyMs"] = f.latency.count();
    if (f.status)
        o["status"] = *f.status;
    else
        o["status"] = nullptr;
    o["drop"] = f.drop;
    // Shown only when set, so the answer of a mock without WebSocket faults is unchanged.
    if (f.ws_stall)
        o["wsStall"] = true;
    if (f.ws_delay.count() > 0)
        o["wsDelayMs"] = f.ws_delay.count();
    return o;
}

net::response post_faults(net::request const& req, control_plane cp) {
    std::string why;
    auto body = parse_object(req, why);
    if (!body)
        return error(http::status::bad_request, why, req.version());
    fault_config cfg;
    bool ws_drop = false;
    for (auto const& kv : *body) {
        std::string_view const key = kv.key();
        if (key == "latencyMs") {
            auto const n = as_integer(kv.value());
            if (!n || *n < 0 || *n > max_latency_ms)
                return error(http::status::bad_request,
                             "'latencyMs' must be an integer from 0 to 600000.", req.version());
            cfg.latency = std::chrono::milliseconds(*n);
        } else if (key == "status") {
            if (kv.value().is_null())
                continue;
            auto const n = as_integer(kv.value());
            if (!n || *n < 400 || *n > 599)
                return error(http::status::bad_request,
                             "'status' must be an HTTP error status from 400 to 599.",
                             req.version());
            cfg.status = static_cast<unsigned>(*n);
        } else if (key == "drop") {
            if (!kv.value().is_bool())
                return error(http::status::bad_request, "'drop' must be a boolean.", req.version());
            cfg.drop = kv.value().get_bool();
        } else if (key == "wsDrop" || key == "wsStall") {
            if (!kv.value().is_bool())
                return error(http::status::bad_request,
                             "'" + std::string(key) + "' must be a boolean.", req.version());
            (key == "wsDrop" ? ws_drop : cfg.ws_stall) = kv.value().get_bool();
        } else if (key == "wsDelayMs") {
            auto const n = as_integer(kv.value());
            if (!n || *n < 0 || *n > max_latency_ms)
                return error(http::status::bad_request,
                             "'wsDelayMs' must be an integer from 0 to 600000.", req.version());
            cfg.ws_delay = std::chrono::milliseconds(*n);
        } else {
            return error(http::status::bad_request,
                         "Unknown field '" + std::string(key) +
                             "'; expected latencyMs, status, drop, wsDrop, wsStall or wsDelayMs.",
                         req.version());
        }
    }
    cp.faults.set(cfg);
    if (ws_drop && cp.drop_ws)
        cp.drop_ws();
    return json_response(http::status::ok, faults_json(cfg), req.version());
}

/// `d` as a mantissa at `scale` decimals, rounded half up; nullopt when out of range.
std::optional<std::int64_t> to_scaled_rounded(decimal const& d, unsigned scale) {
    if (auto exact = d.to_scaled(scale))
        return exact;
    unsigned const have = d.scale();
    if (have <= scale || have > 18)
        return std::nullopt;
    auto const wide = d.to_scaled(have);
    if (!wide)
        return std::nullopt;
    std::int64_t const div = pow10(have - scale);
    std::int64_t const q = *wide / div;
    std::int64_t const r = *wide % div;
    return q + (r * 2 >= div ? 1 : 0);
}

net::response post_mark(net::request const& req, control_plane cp) {
    std::string why;
    auto body = parse_object(req, why);
    if (!body)
        return error(http::status::bad_request, why, req.version());
    auto const* sym = body->if_contains("symbol");
    auto const* price = body->if_contains("price");
    if (!sym || !sym->is_string() || sym->get_string().empty())
        return error(http::status::bad_request, "'symbol' must be a non-empty string.",
                     req.version());
    std::optional<decimal> px;
    if (price && price->is_string()) {
        if (auto p = decimal::parse(price->get_string(), "price"))
            px = *p;
    } else if (price && (price->is_int64() || price->is_uint64() || price->is_double())) {
        px = decimal::from_json_lenient(*price);
    }
    if (!px || px->is_negative() || px->is_zero())
        return error(http::status::bad_request,
                     "'price' must be a positive decimal string, e.g. \"65000\".", req.version());
    for (auto const& kv : *body)
        if (kv.key() != "symbol" && kv.key() != "price")
            return error(http::status::bad_request,
                         "Unknown field '" + std::string(kv.key()) +
                             "'; expected symbol and price.",
                         req.version());
    std::string const symbol(sym->get_string());
    auto const idx = cp.markets.find(symbol);
    if (!idx)
        return error(http::status::not_found, "Unknown symbol '" + symbol + "'.", req.version());
    auto const& spec = cp.markets.spec(*idx);
    auto const scaled = to_scaled_rounded(*px, spec.px_scale);
    if (!scaled || *scaled <= 0 || *scaled > std::numeric_limits<std::int64_t>::max() / 1'000'000)
        return error(http::status::bad_request, "'price' is out of range for " + symbol + ".",
                     req.version());
    std::int64_t const applied = cp.markets.set_mark(*idx, *scaled);
    boost::json::object o;
    o["symbol"] = spec.symbol;
    o["price"] = canonical(applied, spec.px_scale);
    return json_response(http::status::ok, o, req.version());
}

net::response get_marks(net::request const& req, control_plane cp) {
    boost::json::object o;
    for (std::size_t i = 0; i < cp.markets.size(); ++i) {
        auto const& s = cp.markets.spec(i);
        o[s.symbol] = canonical(cp.markets.mark(i), s.px_scale);
    }
    return json_response(http::status::ok, o, req.version());
}

net::response post_tick(net::request const& req, control_plane cp) {
    std::string why;
    auto body = parse_object(req, why);
    if (!body)
        return error(http::status::bad_request, why, req.version());
    std::uint64_t steps = 1;
    for (auto const& kv : *body) {
        if (kv.key() != "steps")
            return error(http::status::bad_request,
                         "Unknown field '" + std::string(kv.key()) + "'; expected steps.",
                         req.version());
        auto const n = as_integer(kv.value());
        if (!n || *n < 1 || static_cast<std::uint64_t>(*n) > max_tick_steps)
            return error(http::status::bad_request, "'steps' must be an integer from 1 to 100000.",
                         req.version());
        steps = static_cast<std::uint64_t>(*n);
    }
    for (std::uint64_t i = 0; i < steps; ++i)
        cp.markets.step(now_ms());
    boost::json::object o;
    o["steps"] = cp.markets.steps();
    return json_response(http::status::ok, o, req.version());
}

} // namespace

net::response control_error(http::status status, std::string message, unsigned version) {
    boost::json::object o;
    o["error"] = message;
    return json_response(status, o, version);
}

net::response control_not_allowed(std::string_view allow, unsigned version) {
    auto res = control_error(http::status::method_not_allowed, "Method not allowed here.", version);
    res.set(http::field::allow, allow);
    return res;
}

std::optional<boost::json::object> parse_control_object(net::request const& req, std::string& why) {
    boost::system::error_code ec;
    auto v = boost::json::parse(req.body(), ec);
    if (ec) {
        why = "The body must be a JSON object: " + ec.message() + ".";
        return std::nullopt;
    }
    if (!v.is_object()) {
        why = "The body must be a JSON object.";
        return std::nullopt;
    }
    return std::move(v.get_object());
}

net::response control_not_found(net::request const& req) {
    return control_error(http::status::not_found,
                         "No control endpoint " + split_target(req.target()).path + ".",
                         req.version());
}

bool is_control_target(std::string_view target) noexcept {
    return target.substr(0, prefix.size()) == prefix;
}

std::optional<net::response> handle_control(net::request const& req, control_plane cp) {
    auto const parts = split_target(req.target());
    auto const verb = req.method();
    unsigned const v = req.version();
    if (parts.path == "/__mock/faults") {
        if (verb == http::verb::post)
            return post_faults(req, cp);
        if (verb == http::verb::get)
            return json_response(http::status::ok, faults_json(cp.faults.get()), v);
        if (verb == http::verb::delete_) {
            cp.faults.clear();
            return json_response(http::status::ok, faults_json({}), v);
        }
        return not_allowed("GET, POST, DELETE", v);
    }
    if (parts.path == "/__mock/stats") {
        if (verb == http::verb::get)
            return json_response(http::status::ok, cp.stats.to_json(), v);
        if (verb == http::verb::delete_) {
            cp.stats.reset();
            return json_response(http::status::ok, cp.stats.to_json(), v);
        }
        return not_allowed("GET, DELETE", v);
    }
    if (parts.path == "/__mock/mark") {
        if (verb == http::verb::post)
            return post_mark(req, cp);
        if (verb == http::verb::get)
            return get_marks(req, cp);
        return not_allowed("GET, POST", v);
    }
    if (parts.path == "/__mock/tick") {
        if (verb == http::verb::post)
            return post_tick(req, cp);
        return not_allowed("POST", v);
    }
    return std::nullopt;
}

} // namespace gateway::mocks
