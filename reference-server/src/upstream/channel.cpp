#include "upstream/channel.hpp"

#include "log.hpp"

#include <gateway/net/http_client.hpp>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <charconv>

namespace gateway::server {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;

namespace {

/// A decimal header value (`Retry-After` seconds, a used-weight count), if it is one.
std::optional<std::uint32_t> header_number(net::http_response const& res, std::string_view name) {
    auto const it = res.find(name);
    if (it == res.end())
        return std::nullopt;
    auto const v = it->value();
    std::uint32_t n = 0;
    auto const [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc{} || end != v.data() + v.size())
        return std::nullopt;
    return n;
}

/// How long a booking outlives the upstream's window (see weight_budget): 1% of it, at least
/// 50 ms. For alpha's and beta's one-minute windows, 600 ms.
std::chrono::milliseconds budget_guard(std::chrono::milliseconds window) {
    return std::max(window / 100, std::chrono::milliseconds(50));
}

/// One account's share of `budget`: `share` of it (at most all of it), at least 1.
std::uint32_t share_of(std::uint32_t budget, double share) {
    double const w = static_cast<double>(budget) * std::clamp(share, 0.0, 1.0);
    return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(w));
}

/// Whole seconds to wait, at least 1 (Retry-After).
unsigned retry_seconds(std::chrono::steady_clock::duration d) {
    return static_cast<unsigned>(
        std::max<std::int64_t>(1, std::chrono::ceil<std::chrono::seconds>(d).count()));
}

} // namespace

channel_options channel_to(std::string name, std::string const& url,
                           std::chrono::milliseconds timeout, std::uint32_t budget,
                           std::chrono::seconds window, double account_share) {
    channel_options o;
    o.name = std::move(name);
    o.base = net::url::parse(url).value_or(net::url{"http", "127.0.0.1", "9", ""});
    o.timeout = timeout;
    o.budget = budget;
    o.window = window;
    o.account_share = account_share;
    return o;
}

upstream_channel::upstream_channel(asio::any_io_executor const& ex, net::http_client& http,
                                   util::clock const& time, channel_options options)
    : ex_(ex)
    , http_(http)
    , time_(time)
    , options_(std::move(options))
    , budget_(options_.budget, options_.window, budget_guard(options_.window))
    , shares_(share_of(options_.budget, options_.account_share), options_.window)
    , reads_(ex, 4096, time)
    , writes_(ex, 4096, time) {}

std::string upstream_channel::key_of(upstream_call const& call) {
    if (!call.key.empty())
        return call.key;
    return std::string(http::to_string(call.method)) + " " + call.target + " " + call.body;
}

void upstream_channel::charge(std::uint32_t weight) {
    budget_.charge(weight, time_.steady_now());
}

asio::awaitable<result<void>> upstream_channel::await_budget(std::uint32_t weight) {
    auto const now = time_.steady_now();
    auto const wait = budget_.reserve(weight, now, options_.max_budget_wait);
    if (!wait) {
        auto const until = budget_.time_until(weight, now);
        api_error e = make_error(errc::provider_unavailable,
                                 "The " + options_.name +
                                     " upstream request budget is spent; retry shortly.");
        e.retry_after = retry_seconds(until);
        co_return e;
    }
    if (wait->count() > 0) {
        asio::steady_timer t(co_await asio::this_coro::executor, *wait);
        boost::system::error_code ec;
        co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    co_return result<void>{};
}

api_error upstream_channel::share_spent(std::int64_t account, std::uint32_t weight) const {
    api_error e =
        make_error(errc::rate_limited, "This account has spent its share of the " + options_.name +
                                           " upstream's request budget; retry later.");
    e.retry_after = retry_seconds(shares_.time_until(account, weight, time_.steady_now()));
    e.details["scope"] = "account";
    return e;
}

// Coroutine parameters by value: they live in the frame across suspensions.
// cppcheck-suppress passedByValue
asio::awaitable<result<upstream_answer>> upstream_channel::send(upstream_call call) {
    // The account's share first: past it, its call is refused (429) and takes nothing of the
    // budget others need.
    std::optional<std::int64_t> const account = shared() ? call.account : std::nullopt;
    if (account && !shares_.try_take(*account, call.weight, time_.steady_now()))
        co_return share_spent(*account, call.weight);
    auto const budget = co_await await_budget(call.weight);
    if (!budget) {
        if (account) // nothing was sent: the share gets its weight back
            shares_.give_back(*account, call.weight);
        co_return budget.error();
    }
    if (call.finalize)
        call.finalize(call);
    net::http_request msg{call.method, call.target, 11};
    msg.set(http::field::accept, "application/json");
    for (auto const& [name, value] : call.headers)
        msg.set(name, value);
    if (!call.body.empty()) {
        msg.set(http::field::content_type,
                call.content_type.empty() ? std::string("application/json") : call.content_type);
        msg.body() = call.body;
    }
    net::fetch_options opt;
    opt.timeout = options_.timeout;
    bool const idempotent = call.idempotent;
    opt.idempotent = idempotent;
    auto answer = co_await http_.async_request(options_.base, std::move(msg), opt);
    std::string const& provider = options_.name;
    if (!answer) {
        log::warn("msg=\"upstream call failed\" provider=" + provider + " reason=\"" +
                  answer.error().message + "\"");
        if (answer.error().what == net::fetch_error::kind::timeout)
            co_return make_error(errc::upstream_timeout,
                                 "The " + provider + " upstream did not answer within " +
                                     std::to_string(options_.timeout.count()) + " ms.");
        if (answer.error().what == net::fetch_error::kind::connect)
            co_return make_error(errc::provider_unavailable,
                                 "The " + provider + " upstream cannot be reached.");
        if (!idempotent && answer.error().maybe_delivered) {
            api_error e =
                make_error(errc::upstream_error, "The connection to the " + provider +
                                                     " upstream broke after the request was sent.");
            e.details["outcomeUnknown"] = true; // a write's fate is unknown
            co_return e;
        }
        co_return make_error(errc::upstream_error,
                             "The connection to the " + provider + " upstream broke.");
    }
    if (!options_.used_weight_header.empty())
        if (auto used = header_number(*answer, options_.used_weight_header))
            budget_.observe_used(*used, time_.steady_now());
    unsigned const status = answer->result_int();
    if (status == 429 || status == 418) {
        api_error e = make_error(errc::provider_unavailable,
                                 "The " + provider + " upstream is rate limiting; retry later.");
        e.retry_after =
            std::max<std::uint32_t>(1, header_number(*answer, "Retry-After").value_or(1));
        co_return e;
    }
    upstream_answer out;
    out.status = status;
    boost::system::error_code ec;
    if (!answer->body().empty())
        out.body = json::parse(answer->body(), ec);
    if (ec || answer->body().empty()) {
        out.body = nullptr;
        out.text = std::move(answer->body());
    }
    co_return out;
}

// cppcheck-suppress passedByValue
asio::awaitable<upstream_channel::json_result> upstream_channel::fetch(upstream_call call) {
    auto answer_weight = call.answer_weight;
    auto const account = call.account;
    auto answer = co_await send(std::move(call));
    if (!answer)
        co_return answer.error();
    if (answer->status < 200 || answer->status >= 300) {
        if (options_.read_error)
            co_return options_.read_error(*answer);
        co_return make_error(errc::upstream_error, "The " + options_.name +
                                                       " upstream answered HTTP " +
                                                       std::to_string(answer->status) + ".");
    }
    if (!answer->text.empty() || answer->body.is_null())
        co_return make_error(errc::upstream_error, "The " + options_.name +
                                                       " upstream answered a body that is not "
                                                       "JSON.");
    if (answer_weight) {
        auto const extra = answer_weight(answer->body);
        auto const now = time_.steady_now();
        budget_.charge(extra, now);
        if (account && shared())
            shares_.charge(*account, extra, now);
    }
    co_return std::move(answer->body);
}

std::shared_ptr<upstream_channel::flight>
upstream_channel::start_read(upstream_call call, std::chrono::milliseconds ttl) {
    std::string const key = key_of(call);
    // An account past its share may still join a flight or a cached answer (it costs nothing);
    // a read of its own is refused here, so no other account joins the refusal.
    if (call.account && shared() && !reads_.joinable(key) &&
        shares_.time_until(*call.account, call.weight, time_.steady_now()) >
            std::chrono::steady_clock::duration::zero())
        return coalescing_cache<json::value>::finished(share_spent(*call.account, call.weight));
    return reads_.start(key, ttl, [self = shared_from_this(), call = std::move(call)]() {
        return self->fetch(call);
    });
}

asio::awaitable<upstream_channel::json_ptr> upstream_channel::read(upstream_call call,
                                                                   std::chrono::milliseconds ttl) {
    auto f = start_read(std::move(call), ttl);
    co_return co_await f->wait();
}

asio::awaitable<result<upstream_answer>> upstream_channel::write(upstream_call call) {
    // Keyed by the whole request: two identical signed writes are one replay, which the nonce
    // guard refuses before it gets here; the cache only lends its detached flights, so a client
    // that goes away does not cancel a write already on its way.
    call.idempotent = false;
    std::string const key = key_of(call);
    auto f = writes_.start(
        key, std::chrono::milliseconds(0),
        [self = shared_from_this(), call = std::move(call)]() { return self->send(call); });
    auto const answer = co_await f->wait();
    co_return *answer;
}

} // namespace gateway::server
