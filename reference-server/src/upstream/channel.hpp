#pragma once
/**
 * @file channel.hpp
 * The one way the gateway talks to an upstream (CONTRACT §2, §3): every provider's calls, reads
 * and writes, go through an `upstream_channel`, one per (provider, network, upstream host).
 *
 * A channel owns the upstream economy and the one error mapping:
 * - a sliding-window weight budget (reads and writes wait up to `max_budget_wait` for it, then
 *   503 PROVIDER_UNAVAILABLE with `Retry-After`), corrected by the upstream's own count when it
 *   reports one (`used_weight_header`);
 * - each account's fair share of that budget (`account_share` of it in any window): a call made
 *   for an account (`upstream_call::account`) past its share is 429 RATE_LIMITED with
 *   `Retry-After` and `details.scope` "account", and is never sent; other accounts go on. Only
 *   calls sent are booked: a read answered from cache or joined to another's flight is free;
 * - a short cache for market data and coalescing of identical in-flight reads (by `key`);
 * - the call itself with its deadline: no answer in time is 504 UPSTREAM_TIMEOUT, an unreachable
 *   upstream or a 429/418 is 503 PROVIDER_UNAVAILABLE (with the upstream's `Retry-After`), a
 *   broken connection 502 UPSTREAM_ERROR (a write's with `details.outcomeUnknown`), a body that
 *   is not JSON 502. Messages name the provider, never the upstream's internals.
 *
 * What an answer *means* (an upstream error code, an order refused) is the provider's to map: a
 * read's non-2xx answer goes through `channel_options::read_error`, a write's answer is handed
 * back whole (`upstream_answer`).
 */
#include "upstream/answer.hpp"
#include "upstream/cache.hpp"

#include <gateway/net/url.hpp>
#include <gateway/result.hpp>
#include <gateway/util/clock.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gateway::net {
class http_client;
}

namespace gateway::server {

struct channel_options {
    std::string name; ///< "alpha", "alpha testnet": for messages and logs
    net::url base;    ///< scheme, host, port and base path of the upstream
    std::chrono::milliseconds timeout{10000};
    /// The budget the gateway keeps to: weight per window (CONTRACT §3).
    std::uint32_t budget = 1200;
    std::chrono::milliseconds window{60000};
    /// How long a call may wait for budget before 503 PROVIDER_UNAVAILABLE.
    std::chrono::milliseconds max_budget_wait{1000};
    /// CONTRACT §3 fair share: the fraction of `budget` one account may spend per `window`;
    /// 1 (or more): no account limit but the budget itself.
    double account_share = 0.25;
    /// A response header carrying the upstream's own count of the window's weight (beta:
    /// `X-MBX-USED-WEIGHT-1M`); the local count follows it upward. Empty: none.
    std::string used_weight_header;
    /// A read's non-2xx answer as a contract error. Default: 502 UPSTREAM_ERROR naming the
    /// status.
    std::function<api_error(upstream_answer const&)> read_error;
};

/**
 * The options of a channel named `name` to the upstream configured as `url`, answering within
 * `timeout`, keeping to `budget` weight per `window`, of which one account may spend
 * `account_share` (`--budget-share`). An unset or malformed url (a test configuration without
 * upstreams) is a closed local port, so every call fails as unreachable (503).
 */
channel_options channel_to(std::string name, std::string const& url,
                           std::chrono::milliseconds timeout, std::uint32_t budget,
                           std::chrono::seconds window, double account_share = 0.25);

/// One upstream request.
struct upstream_call {
    boost::beast::http::verb method = boost::beast::http::verb::get;
    std::string target;       ///< path (+ query) under the channel's base
    std::string body;         ///< request body, if any
    std::string content_type; ///< of `body`; default application/json when a body is set
    /// Extra request headers (signed headers: never part of `key`, never logged).
    std::vector<std::pair<std::string, std::string>> headers;
    std::uint32_t weight = 1; ///< booked against the budget before sending
    /// A read the HTTP client may resend once on a fresh connection when a pooled one turns
    /// out stale (alpha's POST /info reads are); writes never are.
    bool idempotent = true;
    /// The cache and coalescing key; empty means method, target and body.
    std::string key;
    /// Weight learned from a successful answer (per-item surcharges), booked after it.
    std::function<std::uint32_t(boost::json::value const&)> answer_weight;
    /// Runs just before the request leaves, after the budget wait (signs with a fresh nonce).
    std::function<void(upstream_call&)> finalize;
    /// The account the call is made for (`call_context::account`): its weight counts against
    /// that account's share (CONTRACT §3). Unset: the gateway's own call (probes, metadata
    /// refreshes), which only the budget limits. Reads and the REST seeds of an account's
    /// streams set it; writes do not.
    std::optional<std::int64_t> account;
};

/**
 * @par Thread safety
 * All members may be called concurrently from any executor. Calls run detached on their own
 * strand, so a caller that goes away never cancels a read others wait for, nor a write halfway.
 */
class upstream_channel : public std::enable_shared_from_this<upstream_channel> {
public:
    using json_result = result<boost::json::value>;
    using json_ptr = std::shared_ptr<json_result const>;
    using flight = coalescing_cache<boost::json::value>::flight;

    upstream_channel(boost::asio::any_io_executor const& ex, net::http_client& http,
                     util::clock const& time, channel_options options);

    /**
     * Starts (or joins, or answers from cache) a read; `wait()` on the flight. `ttl` > 0 serves
     * an identical read from cache for that long; every read coalesces with an identical one in
     * flight. A 2xx answer must be JSON; a non-2xx one is `read_error`'s. A read that needs an
     * upstream call for an account past its share is refused at once (429, scope "account"),
     * without starting a flight others could join.
     */
    std::shared_ptr<flight> start_read(upstream_call call, std::chrono::milliseconds ttl);
    /// `start_read` then wait.
    boost::asio::awaitable<json_ptr> read(upstream_call call, std::chrono::milliseconds ttl);

    /**
     * A write: sent once, never retried, whatever it answers (the provider maps the answer).
     * @par Errors PROVIDER_UNAVAILABLE when nothing was sent (budget spent, upstream unreachable,
     * 429/418); UPSTREAM_TIMEOUT (the outcome is unknown); UPSTREAM_ERROR with
     * `details.outcomeUnknown` when the connection broke after sending.
     */
    boost::asio::awaitable<result<upstream_answer>> write(upstream_call call);

    /// Books weight spent outside the channel (a health probe) against the budget.
    void charge(std::uint32_t weight);
    weight_budget const& budget() const noexcept { return budget_; }
    account_shares const& shares() const noexcept { return shares_; }
    /// Whether accounts have a share smaller than the whole budget.
    bool shared() const noexcept { return options_.account_share < 1.0; }
    channel_options const& options() const noexcept { return options_; }
    util::clock const& time() const noexcept { return time_; }

private:
    boost::asio::awaitable<result<upstream_answer>> send(upstream_call call);
    boost::asio::awaitable<json_result> fetch(upstream_call call);
    boost::asio::awaitable<result<void>> await_budget(std::uint32_t weight);
    /// 429 RATE_LIMITED, scope "account": `account` has no room for `weight` now.
    api_error share_spent(std::int64_t account, std::uint32_t weight) const;
    static std::string key_of(upstream_call const& call);

    boost::asio::any_io_executor ex_;
    net::http_client& http_;
    util::clock const& time_;
    channel_options options_;
    weight_budget budget_;
    account_shares shares_;
    coalescing_cache<boost::json::value> reads_;
    coalescing_cache<upstream_answer> writes_;
};

} // namespace gateway::server
