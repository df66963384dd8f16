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
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::auth {

/// Another process kept the account database locked for longer than `db_busy_timeout`: not a
/// fault, try again shortly. Members that return a result answer it as 503 with `retry_after`;
/// the others throw this (the account routes answer 503 with Retry-After).
class database_busy : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

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
    /// To embed in forms / send as X-CSRF-Token. Derived from the session token (HMAC-SHA-256
    /// under it, domain-separated), never stored: the database holds only SHA-256 of the token,
    /// from which it cannot be computed. Compare it in constant time.
    std::string csrf_token;
    std::int64_t expires_ms = 0;
};

/// A new session: the cookie value (shown to the browser only) and the session.
struct new_session {
    std::string token;
    session info;
};

/// A token bucket: `per_hour` tokens added per hour, at most `burst` held (it starts full).
struct bucket_limit {
    double per_hour = 0;
    double burst = 0;
};

struct account_options {
    /// scrypt cost; tests lower it. N must be a power of two.
    std::uint64_t scrypt_n = 1u << 15;
    std::uint32_t scrypt_r = 8;
    std::uint32_t scrypt_p = 1;
    std::chrono::seconds session_lifetime{12 * 3600};

    // ---- sign-up (network sign-ups only: the admin command line and the demo key pass no
    // client address and are never limited) --------------------------------------------------
    /// Per client address (an IPv6 client counts by its /64, see `client_address_key`): one
    /// host cannot fill the database, nor make the server pay scrypt without end.
    bucket_limit signup_per_address{10, 5};
    /// All addresses together: what a botnet can add, bounded.
    bucket_limit signup_global{120, 20};

    // ---- sign-in (failures count in a sliding `failure_window`) --------------------------
    /// Failures of one (account, address) pair before that pair gets 429: a stranger's
    /// guesses cost only the stranger; the owner elsewhere is not affected.
    unsigned max_failures_per_pair = 5;
    /// Failures from one address across all accounts before it gets 429 (password spraying).
    unsigned max_failures_per_address = 20;
    std::chrono::seconds failure_window{15 * 60};
    /// An account with this many failures in the window, from all addresses together, is under
    /// attack: every answer about it (right password or wrong) is held back by `slowdown`.
    /// Never a refusal, so no stranger can lock the owner out; the owner just waits a little.
    unsigned slowdown_after_failures = 10;
    std::chrono::milliseconds slowdown{2000};

    /// How long a database write may wait for another process's lock (the admin command line,
    /// a backup) before giving up: then sign-up/sign-in answer 503 with Retry-After.
    std::chrono::milliseconds db_busy_timeout{5000};
    /// CONTRACT §3: keys an account may hold that are neither revoked nor expired; creating
    /// one more is 409 KEY_LIMIT_REACHED.
    std::size_t max_usable_keys = 10;
    /// How often buffered last-used times are written (never one write per request), and
    /// expired sessions purged. Zero: no background writer; last-used times are written by
    /// `flush_last_used()` and on destruction only.
    std::chrono::milliseconds last_used_flush{5000};
    /// Clock seam for tests: milliseconds since the Unix epoch. Empty: the system clock.
    std::function<std::int64_t()> now_ms;
};

/**
 * @par Thread safety
 * All members may be called concurrently from any thread.
 * @par Blocking
 * `check_key` and `sign_in_slowdown` never wait on a database lock: the key check answers
 * from an in-memory cache that it keeps exact with a non-blocking read of the database's change
 * counter (so revocations by another process, the admin command line, count from the next
 * check), and buffers last-used times in memory. Every other member reads or writes the
 * database and may wait up to `db_busy_timeout` for another process's lock (and pays scrypt
 * in sign_up and sign_in): call them off the I/O threads.
 * @par Errors
 * sign_up: VALIDATION_ERROR naming `email` (malformed, or already registered) or `password`
 * (shorter than 10 characters, or over 1024 bytes); 429 RATE_LIMITED with `retry_after` when
 * the client's address or all addresses together used up their sign-ups. sign_in: 401
 * INVALID_CREDENTIALS "Invalid email or password." for any wrong email/password (same text
 * either way); 429 RATE_LIMITED with `retry_after` when the (account, address) pair or the
 * address hit its failure cap. create_key: VALIDATION_ERROR naming `name` (empty, over 64
 * characters or with control characters), `expiresIn` (not positive, or over 100 years) or
 * `rate` (not positive); NOT_FOUND for an unknown account; 409 KEY_LIMIT_REACHED when the
 * account already holds `max_usable_keys` keys that are neither revoked nor expired. In the
 * members that return a result, a database locked past `db_busy_timeout` is 503
 * PROVIDER_UNAVAILABLE with
 * `retry_after` (the contract's only 503 code), any other database failure INTERNAL_ERROR.
 * The others (find_*, sign_out, list_keys, revoke_key) throw `database_busy` and `store_error`
 * (std::runtime_errors) for the routes to answer 503 and 500. check_key and flush_last_used
 * never throw: a failed write is logged and retried at the next flush.
 */
class account_service {
public:
    virtual ~account_service() = default;

    // ---- accounts ------------------------------------------------------------------------
    /**
     * Creates an account. `client_address` (the peer's IP address as text) is what sign-up
     * limits count against; empty for the operator's own paths (admin command line, demo key),
     * which are not limited. A refused sign-up is refused before any scrypt work.
     */
    virtual result<account> sign_up(std::string_view email, std::string_view password,
                                    std::string_view client_address) = 0;
    /// `sign_up` by the operator (no client address, no limit).
    result<account> sign_up(std::string_view email, std::string_view password) {
        return sign_up(email, password, {});
    }
    /// Checks the password; counts failures per (account, `client_address`) pair, per address
    /// and per account (the last only slows, see `sign_in_slowdown`).
    virtual result<new_session> sign_in(std::string_view email, std::string_view password,
                                        std::string_view client_address) = 0;
    /**
     * How long to hold back the answer to a sign-in on `email` started now: zero unless the
     * account is under attack (`slowdown_after_failures`). The caller waits without holding a
     * thread (a timer), right or wrong password alike, so the delay reveals nothing.
     */
    virtual std::chrono::milliseconds sign_in_slowdown(std::string_view email) = 0;
    virtual std::optional<session> find_session(std::string_view token) = 0;
    virtual void sign_out(std::string_view token) = 0;
    virtual std::optional<account> find_account(std::string_view email) = 0;

    // ---- keys ----------------------------------------------------------------------------
    virtual result<created_key> create_key(std::int64_t account_id, new_key_params params) = 0;
    virtual std::vector<key_info> list_keys(std::int64_t account_id) = 0;
    /// Revokes one of the account's keys; false if it has no such key (or it was revoked).
    virtual bool revoke_key(std::int64_t account_id, std::int64_t key_id) = 0;

    /**
     * Checks an `X-API-Key` value: SHA-256, lookup in the in-memory key cache, constant-time
     * comparison, revocation and expiry. Records the use in memory (flushed in batches, see
     * `flush_last_used`). Safe on an I/O thread: never waits on a database lock.
     */
    virtual key_check check_key(std::optional<std::string_view> header_value) = 0;
    /// Writes buffered last-used times now (also done periodically and on destruction).
    virtual void flush_last_used() = 0;
};

/// What sign-up and sign-in limits count a client under: an IPv4 address as is (an
/// IPv4-mapped IPv6 address as its IPv4 form), an IPv6 address by its /64 prefix (one host
/// usually holds a whole /64, so rotating within it buys nothing). Other text is used as is.
std::string client_address_key(std::string_view address);

/// `90s`, `15m`, `12h`, `30d`: a positive whole number and a unit, at most ten years; the one
/// duration syntax of the settings page, the JSON account API and the admin command line.
std::optional<std::chrono::seconds> parse_duration(std::string_view text);

/// The default: SQLite at `data_dir/gateway.db`, created (directories 0700, file 0600) and
/// migrated on open; the key cache is loaded from it before this returns.
/// Throws std::runtime_error when the database cannot be opened or migrated (start-up).
std::unique_ptr<account_service> open_account_service(std::filesystem::path const& data_dir,
                                                      account_options options = {});

} // namespace gateway::server::auth
