#pragma once
// Storage of accounts, sessions and API keys behind one interface (issue: "a PostgreSQL
// implementation can be added by a later issue without touching callers"). Plain data in and
// out, no SQL here. The store never sees a secret: keys and session tokens arrive as SHA-256
// digests, passwords as self-describing scrypt strings (crypto.hpp).
#include "auth/accounts.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::server::auth {

/// Thrown by a `store` when its database fails (I/O, corruption): an operational failure, not
/// bad input. `account_service` turns it into INTERNAL_ERROR where it returns a result and lets
/// it propagate elsewhere (the HTTP session's catch-all answers 500). A database that another
/// process keeps locked past the store's bound is `database_busy` (accounts.hpp) instead.
class store_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// An account row. `email` is already normalised (lowercase) by the caller.
struct account_record {
    std::int64_t id = 0;
    std::string email;
    std::string password_hash; ///< `scrypt$N$r$p$salt$hash`
    std::int64_t created_ms = 0;
};

/// A session row; `token_hash` is SHA-256 of the cookie value (32 raw bytes). There is no CSRF
/// token here: the service derives it from the token itself, so it is never stored.
struct session_record {
    std::string token_hash;
    std::int64_t account_id = 0;
    std::string email; ///< filled in by `find_session` (joined from the account)
    std::int64_t created_ms = 0;
    std::int64_t expires_ms = 0;
};

/// An API key row; `key_hash` is SHA-256 of the full key (32 raw bytes). `last4` are the last
/// four characters of the key, kept for the masked listing (CONTRACT §9: prefix + last 4).
struct key_record {
    std::int64_t id = 0;
    std::int64_t account_id = 0;
    std::string key_hash;
    std::string last4;
    std::string name;
    key_env env = key_env::live;
    std::int64_t created_ms = 0;
    std::optional<std::int64_t> last_used_ms;
    std::optional<std::int64_t> expires_ms;
    std::optional<std::int64_t> revoked_ms;
    std::optional<double> rate_per_second;
};

/// One buffered use of a key: its id and the newest time it was used.
struct key_use {
    std::int64_t key_id = 0;
    std::int64_t used_ms = 0;
};

/// Where a reader of `key_changes_since` stands; start from a default-constructed one. Opaque
/// to callers: only the store that filled it reads it.
struct key_cursor {
    std::int64_t seq = -1;          ///< last change seen; -1: none yet (the first call loads all)
    std::int64_t data_version = -1; ///< the database's commit counter when last looked at
};

/// What changed in the key table since a cursor.
struct key_changes {
    /// True: `rows` is every key and replaces what the caller holds.
    bool reload_all = false;
    /// The current rows of the keys that changed (revoked ones included).
    std::vector<key_record> rows;
    /// Ids of keys that no longer exist.
    std::vector<std::int64_t> gone;
};

/**
 * Persistent accounts, sessions and keys.
 *
 * @par Thread safety
 * All members may be called concurrently from any thread. Other processes (the admin command
 * line) may use the same database at the same time; every write is atomic.
 * @par Blocking
 * Every member except `key_changes_since` may block on disk and on another process's lock, for
 * at most the store's busy bound: call them off the I/O threads.
 * @par Errors
 * Every member throws `database_busy` when another process keeps the database locked past the
 * store's bound, and `store_error` when the database fails. Absent rows are not errors: they
 * give nullopt, false or an empty vector.
 */
class store {
public:
    virtual ~store() = default;

    // ---- accounts ------------------------------------------------------------------------
    /**
     * Adds an account.
     * @return the stored row with its id, or nullopt if `email` is already registered.
     */
    virtual std::optional<account_record> insert_account(std::string_view email,
                                                         std::string_view password_hash,
                                                         std::int64_t created_ms) = 0;
    /** The account registered with `email` (exact match on the normalised form). */
    virtual std::optional<account_record> find_account(std::string_view email) = 0;
    /** The account with id `id`. */
    virtual std::optional<account_record> find_account(std::int64_t id) = 0;
    /** Replaces an account's password hash (rehash at a new cost); false if no such account. */
    virtual bool update_password_hash(std::int64_t account_id, std::string_view password_hash) = 0;

    // ---- sessions ------------------------------------------------------------------------
    /** Adds a session (`email` is ignored). */
    virtual void insert_session(session_record const& s) = 0;
    /** The session whose token hashes to `token_hash`, expired or not (a read, never a write). */
    virtual std::optional<session_record> find_session(std::string_view token_hash) = 0;
    /** Removes a session; no-op if absent. */
    virtual void delete_session(std::string_view token_hash) = 0;
    /** Removes every session with `expires_ms <= now_ms`; returns how many. */
    virtual std::size_t delete_expired_sessions(std::int64_t now_ms) = 0;

    // ---- keys ----------------------------------------------------------------------------
    /**
     * Adds a key (`id` and `last_used_ms` ignored) unless its account already holds
     * `max_usable` keys that are neither revoked nor expired at `k.created_ms` (CONTRACT §3).
     * Count and insert are one atomic statement, so creations racing in this process or
     * another (the admin command line) cannot pass the limit together.
     * @return the stored row with its id, or nullopt when the account is at its limit.
     */
    virtual std::optional<key_record> insert_key(key_record const& k, std::size_t max_usable) = 0;
    /** The account's keys, revoked ones included, oldest first. */
    virtual std::vector<key_record> list_keys(std::int64_t account_id) = 0;
    /** The key whose full value hashes to `key_hash` (an indexed lookup). */
    virtual std::optional<key_record> find_key(std::string_view key_hash) = 0;
    /**
     * The key table's changes since `cursor` (made by this process or any other), and moves
     * `cursor` past them: the seam that keeps an in-memory key cache exact. The first call
     * (default cursor), or one whose cursor is too old, answers `reload_all`.
     *
     * Cheap when nothing changed (one counter read). Unless `wait`, it never waits on a lock:
     * it answers nullopt, leaving `cursor` alone, when the database cannot be read at once;
     * that is what lets the API-key check call it on an I/O thread.
     * @par Errors
     * Throws `store_error` when the database fails (never `database_busy` unless `wait`).
     */
    virtual std::optional<key_changes> key_changes_since(key_cursor& cursor, bool wait) = 0;
    /**
     * Marks the account's key `key_id` revoked at `now_ms`.
     * @return false if the account has no such key or it was already revoked.
     */
    virtual bool revoke_key(std::int64_t account_id, std::int64_t key_id, std::int64_t now_ms) = 0;
    /**
     * Writes a batch of last-used times in one transaction. A stored time is never moved back,
     * and uses of deleted keys are ignored.
     */
    virtual void record_key_uses(std::vector<key_use> const& uses) = 0;
};

/**
 * The account service over any `store`: what `open_account_service` builds over SQLite, and
 * the seam for another backend (or a test double).
 */
std::unique_ptr<account_service> make_account_service(std::unique_ptr<store> s,
                                                      account_options options = {});

} // namespace gateway::server::auth
