#include "http/session.hpp"

#include "log.hpp"

#include <gateway/util/ascii.hpp>
#include <gateway/util/percent.hpp>
#include <gateway/util/utf8.hpp>

#include <boost/json/serialize.hpp>

#include <chrono>
#include <random>

namespace gateway::server {

namespace http = boost::beast::http;

namespace {

/// The request as a handler sees it.
class beast_request_view final : public request_view {
public:
    explicit beast_request_view(net::request const& req)
        : req_(req) {}
    std::optional<std::string_view> header(std::string_view name) const override {
        auto const it = req_.find(name);
        if (it == req_.end())
            return std::nullopt;
        return std::string_view(it->value());
    }
    std::string_view body() const override { return req_.body(); }
    net::request const& request() const noexcept { return req_; }

private:
    net::request const& req_;
};

net::response json_response(unsigned status, boost::json::value const& body, unsigned version) {
    net::response res{static_cast<http::status>(status), version};
    res.set(http::field::content_type, "application/json");
    res.set(http::field::cache_control, "no-store");
    res.body() = boost::json::serialize(body);
    return res;
}

/// Strings of an error's `details` made valid UTF-8 (they may echo client input).
void sanitize(boost::json::value& v) {
    if (auto* s = v.if_string()) {
        if (!util::is_valid_utf8(*s))
            *s = util::to_valid_utf8(*s);
    } else if (auto* o = v.if_object()) {
        for (auto& kv : *o)
            sanitize(kv.value());
    } else if (auto* a = v.if_array()) {
        for (auto& x : *a)
            sanitize(x);
    }
}

} // namespace

std::optional<std::string_view> header_of(net::request_header const& h, std::string_view name) {
    auto const it = h.find(name);
    if (it == h.end())
        return std::nullopt;
    return std::string_view(it->value());
}

std::string request_id_for(std::optional<std::string_view> client_value) {
    if (client_value && !client_value->empty() && client_value->size() <= 128 &&
        util::is_visible_ascii(*client_value))
        return std::string(*client_value);
    thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char hex[] = "0123456789abcdef";
    std::string id(32, '0');
    for (std::size_t half = 0; half < 2; ++half) {
        auto bits = rng();
        for (std::size_t i = 0; i < 16; ++i, bits >>= 4)
            id[half * 16 + i] = hex[bits & 0xf];
    }
    return id;
}

net::response error_response(api_error const& e, unsigned version) {
    // The message and details may quote client input (a decoded path segment, a query value):
    // the answer is JSON text, so it must be valid UTF-8 whatever the client sent.
    api_error safe = e;
    if (!util::is_valid_utf8(safe.message))
        safe.message = util::to_valid_utf8(safe.message);
    boost::json::value details = std::move(safe.details);
    sanitize(details);
    safe.details = std::move(details.as_object());
    auto res = json_response(safe.status, to_json(safe), version);
    if (safe.retry_after)
        res.set(http::field::retry_after, std::to_string(*safe.retry_after));
    return res;
}

net::response session_layer::render_failure(net::failure const& f, unsigned version) {
    api_error e = f.kind == net::failure_kind::bad_request
                      ? make_error(errc::validation_error, f.message)
                  : f.kind == net::failure_kind::payload_too_large
                      ? make_error(errc::payload_too_large, f.message)
                      : make_error(errc::internal_error, "Internal error.");
    auto res = error_response(e, version);
    res.set("X-Request-Id", request_id_for(std::nullopt));
    return res;
}

net::request const& session_layer::raw_request(request_context const& ctx) {
    return static_cast<beast_request_view const*>(ctx.http)->request();
}

net::inspection session_layer::inspect(net::request_header const& h,
                                       net::tcp::endpoint const&) const {
    net::inspection out;
    std::string_view const target = h.target();
    std::string_view const path = target.substr(0, target.find('?'));
    // The key's checks come before the route's 404 on every API path (CONTRACT 2): a key with
    // an empty bucket learns nothing about which paths exist. Elsewhere an unknown path is 404.
    bool const known = routes_.find(h.method(), path).path_exists();
    if (!known && !path.starts_with("/v1/"))
        return out; // the handler answers 404 NOT_FOUND
    request_head head{h.method(), path, [&h](std::string_view name) { return header_of(h, name); },
                      known};
    auto verdict = gate_.check(head);
    out.headers = std::move(verdict.headers);
    if (verdict.refusal) {
        auto res = error_response(*verdict.refusal, h.version());
        res.set("X-Request-Id", request_id_for(header_of(h, "X-Request-Id")));
        for (auto const& [k, v] : out.headers)
            res.set(k, v);
        out.answer = std::move(res);
    }
    return out;
}

boost::asio::awaitable<std::optional<net::response>>
// cppcheck-suppress passedByValue
session_layer::handle(net::request& req, net::tcp::endpoint remote) const {
    auto const started = std::chrono::steady_clock::now();
    std::string request_id = request_id_for(header_of(req.base(), "X-Request-Id"));
    std::string_view const target = req.target();
    auto const qmark = target.find('?');
    std::string_view const path = target.substr(0, qmark);
    std::string_view const query =
        qmark == std::string_view::npos ? std::string_view{} : target.substr(qmark + 1);

    result<reply> outcome = make_error(errc::internal_error, "Internal error.");
    auto const match = routes_.find(req.method(), path);
    if (!match.target) {
        if (match.path_exists())
            outcome = make_error(errc::method_not_allowed,
                                 "Method " + std::string(req.method_string()) +
                                     " is not allowed here; allowed: " + match.allow + ".");
        else
            outcome =
                make_error(errc::not_found, "No route for " + std::string(req.method_string()) +
                                                " " + std::string(path) + ".");
    } else {
        beast_request_view const view(req);
        request_context ctx;
        ctx.method = req.method();
        ctx.path = path;
        ctx.params = match.params;
        ctx.query = util::parse_query(query);
        ctx.remote = remote.address().to_string();
        ctx.request_id = request_id;
        ctx.testnet = path.substr(0, 12) == "/v1/testnet/";
        ctx.now_ms = time_.now_ms();
        // The gate checked the key in `inspect`; here it only says whose account it is.
        if (api_key_gate::needs_key(path))
            ctx.account = gate_.account_of(header_of(req.base(), "X-API-Key"));
        ctx.http = &view;
        try {
            outcome = co_await (*match.target)(ctx);
        } catch (std::exception const& ex) {
            log::error("msg=\"handler threw\" request_id=" + request_id + " what=\"" +
                       util::escape_for_log(ex.what()) + "\"");
            outcome = make_error(errc::internal_error, "Internal error.");
        }
    }
    net::response res =
        !outcome ? error_response(outcome.error(), req.version())
        : outcome->raw_body
            ? net::response{static_cast<http::status>(outcome->status), req.version()}
            : json_response(outcome->status, outcome->body, req.version());
    if (outcome && outcome->raw_body) {
        res.set(http::field::content_type, outcome->content_type);
        res.set(http::field::cache_control, "no-store");
        res.body() = std::move(*outcome->raw_body);
    }
    if (outcome) {
        for (auto const& [k, v] : outcome->headers)
            res.set(k, v);
    } else if (outcome.error().code == errc::method_not_allowed) {
        res.set(http::field::allow, match.allow);
    }
    res.set("X-Request-Id", request_id);
    auto const us = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
    if (log::threshold() <= log::level::info)
        log::info("request_id=" + util::escape_for_log(request_id) + " method=" +
                  std::string(req.method_string()) + " path=" + util::escape_for_log(path) +
                  " status=" + std::to_string(res.result_int()) + " us=" + std::to_string(us));
    co_return res;
}

} // namespace gateway::server
