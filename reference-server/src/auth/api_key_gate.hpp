#pragma once
/**
 * @file api_key_gate.hpp
 * The API-key gate: what runs on a request after its header is read and before its body is
 * (spec 5.1; CONTRACT §2, §3, §7): the key (401 INVALID_API_KEY with spec 5.1's messages), the
 * test-key scope (403 TESTNET_KEY_ONLY), the per-key token bucket (429 RATE_LIMITED with
 * `Retry-After`; `X-RateLimit-*` on every authenticated answer) and the media type of a write
 * (415). Public endpoints (spec 4.1) and the account pages need no key.
 */
#include <gateway/result.hpp>
#include <gateway/util/clock.hpp>

#include <boost/beast/http/verb.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::server {

class rate_limiter;
namespace auth {
class account_service;
}

/// Whose rate-limit bucket a request draws from (an authenticated key).
struct rate_identity {
    std::string bucket; ///< the key's id: never the key itself
    double rate = 0;
    double burst = 0;
    /// The key's account: whose upstream share its calls spend (CONTRACT §3).
    std::int64_t account = 0;
};

/// What the gate decided.
struct gate_verdict {
    /// Set: answer this at once, without reading the body.
    std::optional<api_error> refusal;
    /// Headers for the answer, whatever it is (the caller's rate-limit state).
    std::vector<std::pair<std::string, std::string>> headers;
    /// The key's bucket when a key was checked and accepted (the WebSocket endpoint charges
    /// each subscribe frame to it).
    std::optional<rate_identity> caller;
};

struct gate_options {
    /// CONTRACT §3 defaults; a key's own rate overrides them (burst is then twice the rate).
    double rate_per_second = 20;
    double burst = 40;
};

/// The request head the gate reads.
struct request_head {
    boost::beast::http::verb method = boost::beast::http::verb::get;
    std::string_view path; ///< without the query string
    std::function<std::optional<std::string_view>(std::string_view)> header;
    /// False for a path no route serves: the key's checks still come first (CONTRACT 2), the
    /// media type is the route's concern and is not checked.
    bool route_exists = true;
};

class api_key_gate {
public:
    api_key_gate(auth::account_service& accounts, rate_limiter& limiter, util::clock const& time,
                 gate_options options)
        : accounts_(accounts)
        , limiter_(limiter)
        , time_(time)
        , options_(options) {}

    /// Checks a request's key (401/403/429), then, for a route that exists, its media type.
    gate_verdict check(request_head const& head) const;

    /// Takes one token of `who`'s bucket: 429 RATE_LIMITED when it is empty (CONTRACT §3).
    std::optional<api_error> charge(rate_identity const& who) const;

    /**
     * The account of a valid `X-API-Key` value, for a request `check` accepted: the handler
     * charges its upstream calls to that account's share. No rate-limit token is taken.
     */
    std::optional<std::int64_t> account_of(std::optional<std::string_view> api_key) const;
    /// Checks again a key `check` accepted (a WebSocket's, while it is open): 401
    /// INVALID_API_KEY once it is revoked, expired or unknown; no rate-limit token is taken.
    /// From memory, like `check`: safe on an I/O thread.
    std::optional<api_error> recheck(std::string_view key) const;

    /// Whether `path` is under a testnet prefix (`/v1/testnet/`, `/ws/v1/testnet/`).
    static bool testnet_path(std::string_view path);

    /// Whether `path` needs an API key (everything but spec 4.1's four and the account pages).
    static bool needs_key(std::string_view path);

private:
    auth::account_service& accounts_;
    rate_limiter& limiter_;
    util::clock const& time_;
    gate_options options_;
};

} // namespace gateway::server
