#pragma once
// gatewayd configuration: parsed once at start into an immutable object (STYLE: Envoy's
// FilterConfig). Sources in rising precedence: built-in defaults, the JSON config file, the
// environment (GATEWAY_*), command-line flags (--*). One table names every setting in all three.
#include <boost/system/result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server {

/// One provider's settings: its upstream addresses (empty = not configured) and the settings its
/// module declares itself (`provider_setting`), such as its weight budget.
struct upstream_endpoints {
    std::string base_url;
    std::string ws_url;
    std::string testnet_base_url;
    std::string testnet_ws_url;
    std::string clob_base_url; ///< gamma only: its order-book/trading upstream
    /// The provider's own settings by config key (`budget`, `spotBaseUrl`, ...), as validated
    /// text; absent: the provider's default.
    std::map<std::string, std::string, std::less<>> options;

    /// Option `key`, or `fallback` when it is not set.
    std::string option(std::string_view key, std::string_view fallback = {}) const;
    /// Option `key` as a whole number (a `budget` setting), or `fallback` when it is not set.
    std::uint32_t number(std::string_view key, std::uint32_t fallback) const;
};

/**
 * A setting a provider module declares for itself (CONTRACT: nothing provider-specific in a
 * generic file). Named `providers.<provider>.<key>` in the config file, `--<provider>-<flag>` on
 * the command line and `GATEWAY_<PROVIDER>_<ENV>` in the environment, where flag and env are
 * `key` in kebab and upper snake case (`spotBaseUrl`: `--beta-spot-base-url`,
 * `GATEWAY_BETA_SPOT_BASE_URL`).
 */
struct provider_setting {
    enum class kind {
        url,    ///< an absolute URL
        budget, ///< upstream weight per window: a whole number 100..1000000
        file,   ///< a path
    };
    std::string provider;
    std::string key;
    kind type = kind::url;
    std::string help;
};

/// Every provider module's own settings; defined by the composition root (app.cpp), which
/// names the modules.
std::vector<provider_setting> const& provider_settings();

struct server_config {
    std::string listen = "127.0.0.1:8080";
    std::string data_dir = "./data";
    unsigned threads = 2;
    std::size_t body_limit = 64 * 1024;
    /// Client connections open at most; 0: derived from the descriptor limit
    /// (net::default_max_connections: the soft RLIMIT_NOFILE minus a quarter, at least 64).
    std::size_t max_connections = 0;
    std::chrono::milliseconds read_timeout{30000};
    std::chrono::milliseconds upstream_timeout{10000};
    std::chrono::milliseconds probe_timeout{5000};
    std::chrono::milliseconds probe_interval{10000};
    std::chrono::milliseconds degraded_threshold{3000};
    /// CONTRACT §3: market-data reads are served from a short-lived cache.
    std::chrono::milliseconds market_cache_ttl{500};
    /// Markets (names, asset ids, size decimals, max leverage) are re-learned this often.
    std::chrono::milliseconds meta_refresh_interval{300000};
    /// How long a signer the upstream did not know as the wallet's agent stays refused without
    /// asking again (a retried wrong signature costs no upstream weight).
    std::chrono::milliseconds agent_miss_ttl{2000};
    /// CONTRACT §3: per-key token bucket (a key's own rate overrides; burst is twice it).
    double key_rate_per_second = 20;
    double key_burst = 40;
    /// CONTRACT §3 fair share: the percentage of an upstream's weight budget one account may
    /// spend in any window of the upstream's length (past it: 429, `details.scope` "account").
    double budget_share_percent = 25;
    /// CONTRACT §3: keys an account may hold that are neither revoked nor expired.
    std::size_t max_keys_per_account = 10;
    std::chrono::seconds session_lifetime{12 * 3600};
    /// scrypt cost for account passwords (a power of two).
    std::uint64_t scrypt_n = 1u << 15;
    /// Sign-up limits (issue 10): token buckets per client address (IPv6: per /64) and over
    /// all addresses; over either, 429 RATE_LIMITED with Retry-After before any scrypt.
    double signup_per_address_per_hour = 10;
    double signup_per_address_burst = 5;
    double signup_global_per_hour = 120;
    double signup_global_burst = 20;
    /// How long an account-database write waits for another process's lock before answering
    /// 503 with Retry-After.
    std::chrono::milliseconds db_busy_timeout{5000};
    // WebSocket /ws/v1/perps (CONTRACT §8)
    std::size_t ws_max_queued = 1000;                 ///< frames behind before a close with 1013
    std::chrono::milliseconds ws_peer_timeout{30000}; ///< silence before a client is dead
    std::size_t ws_max_user_streams = 2;             ///< user-stream slots per account and upstream
    std::chrono::milliseconds ws_book_interval{100}; ///< least time between two book frames
    std::chrono::milliseconds stream_stale{5000};    ///< upstream silence reported as stale
    std::map<std::string, upstream_endpoints, std::less<>> providers{
        {"alpha", {}}, {"beta", {}}, {"gamma", {}}};

    /// True when no provider has any upstream address (then gatewayd embeds the mocks).
    bool no_upstream_configured() const;
    /// Providers whose required addresses are missing while others are set.
    std::vector<std::string> incomplete_providers() const;
};

/// Reads an environment variable (injected for tests).
using env_lookup = std::function<std::optional<std::string>(std::string_view name)>;
env_lookup process_environment();

using config_result = boost::system::result<server_config, std::string>;

/**
 * Builds the configuration: defaults, then `config_file` (if given), then `env`, then `flags`
 * (flag name without dashes -> value). Errors name the source and the setting.
 */
config_result load_config(std::optional<std::string> const& config_file, env_lookup const& env,
                          std::map<std::string, std::string> const& flags);

/// One line per setting for `--help`: flag, environment variable, config key, default.
std::string describe_settings();

} // namespace gateway::server
