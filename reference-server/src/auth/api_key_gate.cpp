#include "auth/api_key_gate.hpp"

#include "auth/accounts.hpp"
#include "http/context.hpp"
#include "log.hpp"
#include "rate_limit.hpp"

namespace gateway::server {

namespace http = boost::beast::http;

bool api_key_gate::needs_key(std::string_view path) {
    auto starts = [&](std::string_view p) {
        return path.substr(0, p.size()) == p;
    };
    auto one_segment_after = [&](std::string_view p) {
        return starts(p) && path.size() > p.size() &&
               path.find('/', p.size()) == std::string_view::npos;
    };
    if (path == "/v1/health" || path == "/v1/providers" || one_segment_after("/v1/health/") ||
        one_segment_after("/v1/providers/"))
        return false;
    if (path == "/account" || starts("/account/") || starts("/v1/account/"))
        return false;
    return true;
}

namespace {

void add_rate_headers(std::vector<std::pair<std::string, std::string>>& h, rate_decision const& d) {
    auto num = [](double v) {
        auto const i = static_cast<std::int64_t>(v);
        return static_cast<double>(i) == v ? std::to_string(i) : std::to_string(v);
    };
    h.emplace_back("X-RateLimit-Limit", num(d.limit));
    h.emplace_back("X-RateLimit-Remaining", std::to_string(d.remaining));
    h.emplace_back("X-RateLimit-Reset", std::to_string(d.reset_seconds));
}

/// A write carries a body: POST, PUT, PATCH, or a DELETE with one.
bool carries_body(request_head const& h) {
    if (h.method == http::verb::post || h.method == http::verb::put ||
        h.method == http::verb::patch)
        return true;
    if (h.method != http::verb::delete_)
        return false;
    auto const length = h.header("Content-Length");
    return (length && *length != "0") || h.header("Transfer-Encoding");
}

} // namespace

static api_error rate_limited(double rate, rate_decision const& d) {
    api_error e =
        make_error(errc::rate_limited, "Rate limit of " + std::to_string(static_cast<int>(rate)) +
                                           " requests per second exceeded for this API key.");
    e.retry_after = static_cast<unsigned>(d.retry_after_seconds);
    // CONTRACT §3: this key's own bucket; an account past its upstream share says "account".
    e.details["scope"] = "key";
    return e;
}

bool api_key_gate::testnet_path(std::string_view path) {
    return path.starts_with("/v1/testnet/") || path.starts_with("/ws/v1/testnet/");
}

std::optional<api_error> api_key_gate::charge(rate_identity const& who) const {
    auto const d = limiter_.take(who.bucket, who.rate, who.burst, time_.steady_now());
    if (d.allowed)
        return std::nullopt;
    return rate_limited(who.rate, d);
}

std::optional<std::int64_t>
api_key_gate::account_of(std::optional<std::string_view> api_key) const {
    if (!api_key)
        return std::nullopt;
    try {
        auto const check = accounts_.check_key(api_key);
        if (check.outcome == auth::key_check::verdict::ok && check.key)
            return check.key->account_id;
    } catch (std::exception const& ex) {
        log::error(std::string("msg=\"key check failed\" what=\"") + ex.what() + "\"");
    }
    return std::nullopt;
}

std::optional<api_error> api_key_gate::recheck(std::string_view key) const {
    auth::key_check check;
    try {
        check = accounts_.check_key(key);
    } catch (std::exception const& ex) {
        // The store failed: the key keeps its standing (REST would answer 500, not 401).
        log::error(std::string("msg=\"key recheck failed\" what=\"") + ex.what() + "\"");
        return std::nullopt;
    }
    using verdict_t = auth::key_check::verdict;
    if (check.outcome == verdict_t::expired)
        return make_error(errc::invalid_api_key, "API key has expired");
    if (check.outcome != verdict_t::ok || !check.key)
        return make_error(errc::invalid_api_key, "API key has been revoked");
    return std::nullopt;
}

gate_verdict api_key_gate::check(request_head const& head) const {
    gate_verdict verdict;
    if (needs_key(head.path)) {
        auth::key_check check;
        try {
            check = accounts_.check_key(head.header("X-API-Key"));
        } catch (std::exception const& ex) {
            // The store failed (disk, lock): say so in the log, never in the answer.
            log::error(std::string("msg=\"key check failed\" what=\"") + ex.what() + "\"");
            verdict.refusal = make_error(errc::internal_error, "Internal error.");
            return verdict;
        }
        using verdict_t = auth::key_check::verdict;
        if (check.outcome == verdict_t::missing) {
            verdict.refusal = make_error(errc::invalid_api_key, "Missing X-API-Key header");
            return verdict;
        }
        if (check.outcome == verdict_t::expired) {
            verdict.refusal = make_error(errc::invalid_api_key, "API key has expired");
            return verdict;
        }
        if (check.outcome != verdict_t::ok || !check.key) {
            verdict.refusal = make_error(errc::invalid_api_key, "Invalid API key");
            return verdict;
        }
        auto const& key = *check.key;
        if (key.env == auth::key_env::test && !testnet_path(head.path)) {
            verdict.refusal = make_error(errc::testnet_key_only,
                                         "A test key (svc_test_) can only call /v1/testnet/ "
                                         "endpoints; use a live key here.");
            return verdict;
        }
        double const rate = key.rate_per_second.value_or(options_.rate_per_second);
        double const burst = key.rate_per_second ? 2 * rate : options_.burst;
        rate_identity who{std::to_string(key.id), rate, burst, key.account_id};
        auto const d = limiter_.take(who.bucket, rate, burst, time_.steady_now());
        add_rate_headers(verdict.headers, d);
        if (!d.allowed) {
            verdict.refusal = rate_limited(rate, d);
            return verdict;
        }
        verdict.caller = std::move(who);
    }
    if (head.route_exists && carries_body(head) && head.path.substr(0, 4) == "/v1/" &&
        !has_media_type(head.header("Content-Type"), "application/json"))
        verdict.refusal =
            make_error(errc::unsupported_media_type, "Send the body as application/json.");
    return verdict;
}

} // namespace gateway::server
