#pragma once
// Accounts, sessions and API keys (spec 5.1, CONTRACT §7, §9): the one service the settings
// page, the JSON account API, the admin command line and API-key enforcement all use.
//
// Storage sits behind `store` (SQLite embedded by default; a PostgreSQL implementation can be
// added without touching callers). No secret is ever stored or logged in plain text: API keys
// and session tokens are stored as SHA-256, passwords as scrypt hashes.
#include <gateway/result.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::auth {

enum class key_env { live, test };

struct account {
    std::int64_t id = 0;
    std::string email;
    std::int64_t created_ms = 0;
};

/// A key as listed: never the key itself.
struct key_info {
    std::int64_t id = 0;
    std::int64_t account_id = 0;
    std::string name;
    key_env env = key_env::live;
    std::string masked; ///< e.g. "svc_live_…abcd" (prefix + last 4)
    std::int64_t created_ms = 0;
    std::optional<std::int64_t> last_used_ms;
    std::optional<std::int64_t> expires_ms;
    std::optional<std::int64_t> revoked_ms;
    std::optional<double> rate_per_second; ///< per-key override of the default rate limit
};

/// A new key: the full value, shown exactly once, and its listing.
struct created_key {
    std::string key; ///< "svc_live_" / "svc_test_" + base62 of 32 CSPRNG bytes
    key_info info;
};

struct new_key_params {
    std::string name;
    key_env env = key_env::live;
    std::optional<std::chrono::seconds> expires_in;
    std::optional<double> rate_per_second;
};

/// Outcome of checking an X-API-Key value.
struct key_check {
    enum class verdict { ok, missing, invalid, expired } outcome = verdict::invalid;
    std::optional<key_info> key; ///< set when ok
};

struct session {
    std::int64_t account_id = 0;
    std::string email;
    std::string csrf_token; ///< to embed in forms / send as X-CSRF-Token
    std::int64_t expires_ms = 0;
};

/// A new session: the cookie value (shown to the browser only) and the session.
struct new_session {
    std::string token;
    session info;
};

struct account_options {
    /// scrypt cost; tests lower it. N must be a power of two.
    std::uint64_t scrypt_n = 1u << 15;
    std::uint32_t scrypt_r = 8;
    std::uint32_t scrypt_p = 1;
    std::chrono::seconds session_lifetime{12 * 3600};
    /// Failed sign-ins allowed per account and per client address within `lockout_window`.
    unsigned max_failures_per_account = 5;
    unsigned max_failures_per_address = 20;
    std::chrono::seconds lockout_window{15 * 60};
    /// How often buffered last-used times are written (never one write per request). Zero:
    /// no background writer; they are written by `flush_last_used()` and on destruction only.
    std::chrono::milliseconds last_used_flush{5000};
    /// Clock seam for tests: milliseconds since the Unix epoch. Empty: the system clock.
    std::function<std::int64_t()> now_ms;
};

/**
 * @par Thread safety
 * All members may be called concurrently from any thread.
 * @par Errors
 * sign_up: VALIDATION_ERROR naming `email` (malformed, or already registered) or `password`
 * (shorter than 10 characters, or over 1024 bytes). sign_in: 401 INVALID_CREDENTIALS
 * "Invalid email or password." for any wrong email/password (same text either way); 429
 * RATE_LIMITED with `retry_after` when the account or the address hit the failure cap.
 * create_key: VALIDATION_ERROR naming `name` (empty, over 64 characters or with control
 * characters), `expiresIn` (not positive, or over 100 years) or `rate` (not positive);
 * NOT_FOUND for an unknown account. A database failure is INTERNAL_ERROR in the members that
 * return a result; the others (find_*, sign_out, list_keys, revoke_key, check_key) throw
 * `store_error` (a std::runtime_error) for the HTTP session's catch-all to answer 500.
 * flush_last_used never throws: a failed write is logged and retried at the next flush.
 */
class account_service {
public:
    virtual ~account_service() = default;

    // ---- accounts ------------------------------------------------------------------------
    virtual result<account> sign_up(std::string_view email, std::string_view password) = 0;
    /// Checks the password; counts failures per account and per `client_address`.
    virtual result<new_session> sign_in(std::string_view email, std::string_view password,
                                        std::string_view client_address) = 0;
    virtual std::optional<session> find_session(std::string_view token) = 0;
    virtual void sign_out(std::string_view token) = 0;
    virtual std::optional<account> find_account(std::string_view email) = 0;

    // ---- keys ----------------------------------------------------------------------------
    virtual result<created_key> create_key(std::int64_t account_id, new_key_params params) = 0;
    virtual std::vector<key_info> list_keys(std::int64_t account_id) = 0;
    /// Revokes one of the account's keys; false if it has no such key (or it was revoked).
    virtual bool revoke_key(std::int64_t account_id, std::int64_t key_id) = 0;

    /**
     * Checks an `X-API-Key` value: SHA-256 lookup, constant-time comparison, revocation and
     * expiry. Records the use in memory (flushed in batches, see `flush_last_used`).
     */
    virtual key_check check_key(std::optional<std::string_view> header_value) = 0;
    /// Writes buffered last-used times now (also done periodically and on destruction).
    virtual void flush_last_used() = 0;
};

/// `90s`, `15m`, `12h`, `30d`: a positive whole number and a unit, at most ten years; the one
/// duration syntax of the settings page, the JSON account API and the admin command line.
std::optional<std::chrono::seconds> parse_duration(std::string_view text);

/// The default: SQLite at `data_dir/gateway.db`, created and migrated on open.
/// Throws std::runtime_error when the database cannot be opened or migrated (start-up).
std::unique_ptr<account_service> open_account_service(std::filesystem::path const& data_dir,
                                                      account_options options = {});

} // namespace gateway::server::auth
