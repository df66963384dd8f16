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

/// Upstream addresses of one provider (empty = not configured).
struct upstream_endpoints {
    std::string base_url;
    std::string ws_url;
    std::string testnet_base_url;
    std::string testnet_ws_url;
    std::string clob_base_url; ///< gamma only: its order-book/trading upstream
    /// beta only: its spot REST upstream, on its own host upstream (empty: `base_url`, as on
    /// mock-beta, which serves futures and spot on one port).
    std::string spot_base_url;
    std::string testnet_spot_base_url;
};

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
    /// Weight per 60 s the gateway spends on the alpha upstream (alpha.md §8: 1200 per IP).
    std::uint32_t alpha_budget = 1200;
    /// Weight per 60 s the gateway spends on beta's futures upstream (beta.md §8: 2400 per IP).
    std::uint32_t beta_budget = 2400;
    /// Weight per 60 s the gateway spends on beta's spot upstream (beta.md §8: 6000 per IP).
    std::uint32_t beta_spot_budget = 6000;
    /// beta's read signer (CONTRACT §6.2): a file holding its secp256k1 key in hex. Empty:
    /// `<data-dir>/beta-read-signer.key`, generated once (0600) and kept.
    std::string beta_read_signer_key_file;
    /// CONTRACT §3: per-key token bucket (a key's own rate overrides; burst is twice it).
    double key_rate_per_second = 20;
    double key_burst = 40;
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
