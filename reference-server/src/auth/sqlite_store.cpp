// The SQLite store. WAL, so readers never wait for the writer; a busy bound, so the admin
// command line and a running server take turns on the file instead of failing, and a request
// that finds the file locked by another process for longer gets `database_busy` (the service
// answers 503) instead of waiting without end; BEGIN IMMEDIATE for multi-statement writes,
// since a deferred transaction that upgrades to a write can fail at once in WAL mode.
//
// Three connections, each behind its own mutex: writes; reads (a sign-in looks its account up
// while a write waits for another process's lock); and the key-change feed, which runs with no
// busy handler at all, so the API-key check can call it on an I/O thread and never wait.
#include "auth/sqlite_store.hpp"
#include "private_dirs.hpp"

#include <sqlite3.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>

namespace gateway::server::auth {

namespace {

/// Ordered migrations: entry i takes the schema from version i to i + 1. Append only; never
/// edit one that has shipped.
constexpr std::array<std::string_view, 2> migrations{{
    // 1: accounts, sessions, API keys.
    R"sql(
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT    NOT NULL,
    created_ms    INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash BLOB    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf_token TEXT    NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX sessions_by_expiry ON sessions(expires_ms);
CREATE INDEX sessions_by_account ON sessions(account_id);
CREATE TABLE api_keys (
    id              INTEGER PRIMARY KEY,
    account_id      INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_hash        BLOB    NOT NULL UNIQUE,
    last4           TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    env             TEXT    NOT NULL CHECK (env IN ('live', 'test')),
    created_ms      INTEGER NOT NULL,
    last_used_ms    INTEGER,
    expires_ms      INTEGER,
    revoked_ms      INTEGER,
    rate_per_second REAL
);
CREATE INDEX api_keys_by_account ON api_keys(account_id);
)sql",
    // 2: CSRF tokens are derived from the session token, never stored (issue 10); a log of key
    // changes (not last-used times), which keeps every process's in-memory key cache exact.
    R"sql(
ALTER TABLE sessions DROP COLUMN csrf_token;
CREATE TABLE key_changes (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    key_id INTEGER NOT NULL
);
CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys
BEGIN INSERT INTO key_changes(key_id) VALUES (NEW.id); END;
CREATE TRIGGER api_keys_updated AFTER UPDATE OF id, account_id, key_hash, last4, name, env,
    created_ms, expires_ms, revoked_ms, rate_per_second ON api_keys
BEGIN
    INSERT INTO key_changes(key_id) VALUES (OLD.id);
    INSERT INTO key_changes(key_id) SELECT NEW.id WHERE NEW.id <> OLD.id;
END;
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
BEGIN INSERT INTO key_changes(key_id) VALUES (OLD.id); END;
)sql",
}};
static_assert(migrations.size() == sqlite_schema_version,
              "sqlite_schema_version must equal the number of migrations");

/// The first version whose sessions hold no CSRF token: migrating across it scrubs the file.
constexpr std::int64_t csrf_free_version = 2;
/// Key changes kept in the log; a reader further behind reloads every key.
constexpr std::int64_t key_changes_kept = 10'000;

bool is_busy(int rc) noexcept {
    return (rc & 0xff) == SQLITE_BUSY;
}

[[noreturn]] void fail(sqlite3* db, std::string_view what, int rc) {
    std::string msg = "database: ";
    msg += what;
    if (db) {
        msg += ": ";
        msg += sqlite3_errmsg(db);
    }
    if (is_busy(rc))
        throw database_busy(msg);
    throw store_error(msg);
}

void exec(sqlite3* db, char const* sql) {
    char* err = nullptr;
    int const rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = "database: ";
        msg += err ? err : "unknown error";
        sqlite3_free(err);
        if (is_busy(rc))
            throw database_busy(msg);
        throw store_error(msg);
    }
}

/// Ends a failed transaction; best effort (the failure that got us here is rethrown).
void rollback(sqlite3* db) noexcept {
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
}

/// A prepared statement, finalised on destruction.
class statement {
public:
    statement() = default;
    statement(sqlite3* db, std::string_view sql)
        : db_(db) {
        int const rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                                          SQLITE_PREPARE_PERSISTENT, &s_, nullptr);
        if (rc != SQLITE_OK)
            fail(db, "prepare", rc);
    }
    statement(statement&& o) noexcept
        : db_(o.db_)
        , s_(std::exchange(o.s_, nullptr)) {}
    statement& operator=(statement&& o) noexcept {
        std::swap(db_, o.db_);
        std::swap(s_, o.s_);
        return *this;
    }
    statement(statement const&) = delete;
    statement& operator=(statement const&) = delete;
    ~statement() { sqlite3_finalize(s_); }

    sqlite3* db() const noexcept { return db_; }
    sqlite3_stmt* get() const noexcept { return s_; }

private:
    sqlite3* db_ = nullptr;
    sqlite3_stmt* s_ = nullptr;
};

/// One execution of a statement: binds, steps, reads columns; resets it when done.
class run {
public:
    explicit run(statement& st)
        : db_(st.db())
        , s_(st.get()) {}
    run(run const&) = delete;
    run& operator=(run const&) = delete;
    ~run() {
        sqlite3_reset(s_);
        sqlite3_clear_bindings(s_);
    }

    run& bind(int i, std::int64_t v) {
        check(sqlite3_bind_int64(s_, i, v));
        return *this;
    }
    run& bind(int i, double v) {
        check(sqlite3_bind_double(s_, i, v));
        return *this;
    }
    run& bind_text(int i, std::string_view v) {
        check(sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
        return *this;
    }
    run& bind_blob(int i, std::string_view v) {
        check(sqlite3_bind_blob(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
        return *this;
    }
    template <class T>
    run& bind_opt(int i, std::optional<T> const& v) {
        if (v)
            return bind(i, *v);
        check(sqlite3_bind_null(s_, i));
        return *this;
    }

    /// True when a row is ready, false when done; throws on error.
    bool step() {
        int const rc = sqlite3_step(s_);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        fail(db_, "step", rc);
    }
    /// Like `step` for a write, but reports a UNIQUE violation as false instead of throwing.
    bool step_unless_duplicate() {
        int const rc = sqlite3_step(s_);
        if (rc == SQLITE_DONE || rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            return false;
        fail(db_, "step", rc);
    }

    std::int64_t int64(int col) const { return sqlite3_column_int64(s_, col); }
    std::optional<std::int64_t> opt_int64(int col) const {
        if (sqlite3_column_type(s_, col) == SQLITE_NULL)
            return std::nullopt;
        return sqlite3_column_int64(s_, col);
    }
    std::optional<double> opt_double(int col) const {
        if (sqlite3_column_type(s_, col) == SQLITE_NULL)
            return std::nullopt;
        return sqlite3_column_double(s_, col);
    }
    std::string text(int col) const {
        auto const* p = reinterpret_cast<char const*>(sqlite3_column_text(s_, col));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, col)))
                 : std::string();
    }
    std::string blob(int col) const {
        auto const* p = static_cast<char const*>(sqlite3_column_blob(s_, col));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, col)))
                 : std::string();
    }

private:
    void check(int rc) {
        if (rc != SQLITE_OK)
            fail(db_, "bind", rc);
    }

    sqlite3* db_;
    sqlite3_stmt* s_;
};

constexpr std::string_view account_cols = "id, email, password_hash, created_ms";
constexpr std::string_view key_cols = "id, account_id, key_hash, last4, name, env, created_ms, "
                                      "last_used_ms, expires_ms, revoked_ms, rate_per_second";

account_record read_account(run const& r) {
    return {r.int64(0), r.text(1), r.text(2), r.int64(3)};
}

key_record read_key(run const& r) {
    key_record k;
    k.id = r.int64(0);
    k.account_id = r.int64(1);
    k.key_hash = r.blob(2);
    k.last4 = r.text(3);
    k.name = r.text(4);
    k.env = r.text(5) == "test" ? key_env::test : key_env::live;
    k.created_ms = r.int64(6);
    k.last_used_ms = r.opt_int64(7);
    k.expires_ms = r.opt_int64(8);
    k.revoked_ms = r.opt_int64(9);
    k.rate_per_second = r.opt_double(10);
    return k;
}

std::string sql(std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    std::string s(a);
    s += b;
    s += c;
    return s;
}

/// Creates the file owner-only before SQLite opens it, so it never exists with wider
/// permissions (SQLite gives the -wal and -shm files the database file's mode), in
/// directories created owner-only.
void create_private_file(std::filesystem::path const& path) {
    std::error_code ec;
    if (path.has_parent_path())
        create_private_directories(path.parent_path(), ec); // a failure shows in open below
    int const fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        throw store_error("database: cannot create " + path.string() + ": " +
                          std::system_category().message(errno));
    ::close(fd);
    // An existing file keeps its owner but loses group/other access.
    std::filesystem::permissions(
        path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
        std::filesystem::perm_options::replace, ec);
}

sqlite3* open_connection(std::filesystem::path const& path) {
    sqlite3* db = nullptr;
    int const rc =
        sqlite3_open_v2(path.c_str(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string const msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw store_error("database: cannot open " + path.string() + ": " + msg);
    }
    sqlite3_extended_result_codes(db, 1);
    return db;
}

int clamp_ms(std::chrono::milliseconds d) noexcept {
    return static_cast<int>(std::clamp<std::int64_t>(d.count(), 1, 3'600'000));
}

class sqlite_store final : public store {
public:
    sqlite_store(std::filesystem::path const& path, std::chrono::milliseconds busy_timeout)
        : busy_(std::max(busy_timeout, std::chrono::milliseconds(1))) {
        create_private_file(path);
        try {
            w_ = open_connection(path);
            sqlite3_busy_timeout(w_, clamp_ms(busy_));
            exec(w_, "PRAGMA journal_mode=WAL");
            exec(w_, "PRAGMA synchronous=NORMAL");
            exec(w_, "PRAGMA foreign_keys=ON");
            // Freed space is zeroed, so a deleted row (or a dropped column) leaves nothing.
            exec(w_, "PRAGMA secure_delete=ON");
            migrate();
            r_ = open_connection(path);
            sqlite3_busy_timeout(r_, clamp_ms(busy_));
            exec(r_, "PRAGMA query_only=ON");
            k_ = open_connection(path);
            sqlite3_busy_timeout(k_, 0); // never waits: see key_changes_since
            exec(k_, "PRAGMA query_only=ON");
            prepare();
        } catch (...) {
            close();
            throw;
        }
    }

    ~sqlite_store() override { close(); }

    sqlite_store(sqlite_store const&) = delete;
    sqlite_store& operator=(sqlite_store const&) = delete;

    // ---- writes (the write connection, within the busy bound) ----------------------------

    std::optional<account_record> insert_account(std::string_view email,
                                                 std::string_view password_hash,
                                                 std::int64_t created_ms) override {
        auto lock = lock_writer();
        run r(insert_account_);
        r.bind_text(1, email).bind_text(2, password_hash).bind(3, created_ms);
        if (!r.step_unless_duplicate())
            return std::nullopt;
        return account_record{sqlite3_last_insert_rowid(w_), std::string(email),
                              std::string(password_hash), created_ms};
    }

    bool update_password_hash(std::int64_t account_id, std::string_view password_hash) override {
        auto lock = lock_writer();
        run r(update_password_);
        r.bind_text(1, password_hash).bind(2, account_id);
        r.step();
        return sqlite3_changes(w_) > 0;
    }

    void insert_session(session_record const& s) override {
        auto lock = lock_writer();
        run r(insert_session_);
        r.bind_blob(1, s.token_hash)
            .bind(2, s.account_id)
            .bind(3, s.created_ms)
            .bind(4, s.expires_ms);
        r.step();
    }

    void delete_session(std::string_view token_hash) override {
        auto lock = lock_writer();
        run r(delete_session_);
        r.bind_blob(1, token_hash);
        r.step();
    }

    std::size_t delete_expired_sessions(std::int64_t now_ms) override {
        auto lock = lock_writer();
        run r(delete_expired_);
        r.bind(1, now_ms);
        r.step();
        return static_cast<std::size_t>(sqlite3_changes(w_));
    }

    std::optional<key_record> insert_key(key_record const& k, std::size_t max_usable) override {
        auto lock = lock_writer();
        run r(insert_key_);
        r.bind(1, k.account_id)
            .bind_blob(2, k.key_hash)
            .bind_text(3, k.last4)
            .bind_text(4, k.name)
            .bind_text(5, k.env == key_env::test ? "test" : "live")
            .bind(6, k.created_ms)
            .bind_opt(7, k.expires_ms)
            .bind_opt(8, k.revoked_ms)
            .bind_opt(9, k.rate_per_second)
            .bind(10, static_cast<std::int64_t>(std::min<std::size_t>(
                          max_usable, std::numeric_limits<std::int64_t>::max())));
        r.step();
        if (sqlite3_changes(w_) == 0)
            return std::nullopt; // the account holds max_usable usable keys already
        key_record out = k;
        out.id = sqlite3_last_insert_rowid(w_);
        out.last_used_ms.reset();
        return out;
    }

    bool revoke_key(std::int64_t account_id, std::int64_t key_id, std::int64_t now_ms) override {
        auto lock = lock_writer();
        run r(revoke_key_);
        r.bind(1, now_ms).bind(2, key_id).bind(3, account_id);
        r.step();
        return sqlite3_changes(w_) > 0;
    }

    void record_key_uses(std::vector<key_use> const& uses) override {
        if (uses.empty())
            return;
        auto lock = lock_writer();
        exec(w_, "BEGIN IMMEDIATE");
        try {
            for (auto const& u : uses) {
                run r(record_use_);
                r.bind(1, u.used_ms).bind(2, u.key_id);
                r.step();
            }
            exec(w_, "COMMIT");
        } catch (...) {
            rollback(w_);
            throw;
        }
    }

    // ---- reads (the read connection) -----------------------------------------------------

    std::optional<account_record> find_account(std::string_view email) override {
        std::lock_guard lock(r_m_);
        run r(find_account_by_email_);
        r.bind_text(1, email);
        if (!r.step())
            return std::nullopt;
        return read_account(r);
    }

    std::optional<account_record> find_account(std::int64_t id) override {
        std::lock_guard lock(r_m_);
        run r(find_account_by_id_);
        r.bind(1, id);
        if (!r.step())
            return std::nullopt;
        return read_account(r);
    }

    std::optional<session_record> find_session(std::string_view token_hash) override {
        std::lock_guard lock(r_m_);
        run r(find_session_);
        r.bind_blob(1, token_hash);
        if (!r.step())
            return std::nullopt;
        return session_record{r.blob(0), r.int64(1), r.text(2), r.int64(3), r.int64(4)};
    }

    std::vector<key_record> list_keys(std::int64_t account_id) override {
        std::lock_guard lock(r_m_);
        run r(list_keys_);
        r.bind(1, account_id);
        std::vector<key_record> out;
        while (r.step())
            out.push_back(read_key(r));
        return out;
    }

    std::optional<key_record> find_key(std::string_view key_hash) override {
        std::lock_guard lock(r_m_);
        run r(find_key_);
        r.bind_blob(1, key_hash);
        if (!r.step())
            return std::nullopt;
        return read_key(r);
    }

    // ---- the key-change feed (its own connection, no busy handler) -----------------------

    std::optional<key_changes> key_changes_since(key_cursor& cursor, bool wait) override {
        std::lock_guard lock(k_m_);
        // 0 removes the busy handler: a locked database answers SQLITE_BUSY at once.
        sqlite3_busy_timeout(k_, wait ? clamp_ms(busy_) : 0);
        try {
            std::int64_t version = 0;
            {
                // Changes when any other connection (this process's writer included) commits;
                // reading it takes no lock anyone holds for long.
                run r(data_version_);
                if (!r.step())
                    fail(k_, "data_version", SQLITE_ERROR);
                version = r.int64(0);
            }
            if (cursor.seq >= 0 && version == cursor.data_version)
                return key_changes{};
            key_changes out;
            std::int64_t newest = 0;
            exec(k_, "BEGIN"); // one snapshot for everything below
            {
                run r(change_bounds_);
                r.step();
                auto const oldest = r.opt_int64(0);
                newest = r.opt_int64(1).value_or(0);
                // Behind what the log still holds (or never synced): read every key.
                out.reload_all = cursor.seq < 0 || (oldest && *oldest > cursor.seq + 1);
            }
            if (out.reload_all) {
                run r(all_keys_);
                while (r.step())
                    out.rows.push_back(read_key(r));
            } else {
                std::set<std::int64_t> ids;
                {
                    run r(changes_after_);
                    r.bind(1, cursor.seq);
                    while (r.step())
                        ids.insert(r.int64(0));
                }
                for (auto const id : ids) {
                    run r(key_by_id_);
                    r.bind(1, id);
                    if (r.step())
                        out.rows.push_back(read_key(r));
                    else
                        out.gone.push_back(id);
                }
            }
            exec(k_, "COMMIT");
            cursor.seq = newest;
            cursor.data_version = version;
            return out;
        } catch (database_busy const&) {
            rollback(k_);
            if (wait)
                throw;
            return std::nullopt;
        } catch (...) {
            rollback(k_);
            throw;
        }
    }

private:
    /// The write connection, for at most the busy bound in all: first this process's other
    /// writers (one may itself be waiting for another process), then SQLite's busy handler
    /// with what is left.
    std::unique_lock<std::timed_mutex> lock_writer() {
        auto const deadline = std::chrono::steady_clock::now() + busy_;
        std::unique_lock lock(w_m_, deadline);
        if (!lock.owns_lock())
            throw database_busy("database: still locked after " + std::to_string(busy_.count()) +
                                " ms");
        auto const left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        sqlite3_busy_timeout(w_, clamp_ms(left));
        return lock;
    }

    void migrate() {
        // IMMEDIATE: two processes opening a fresh file at once migrate one after the other.
        exec(w_, "BEGIN IMMEDIATE");
        std::int64_t current = 0;
        try {
            exec(w_, "CREATE TABLE IF NOT EXISTS schema_version ("
                     "version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)");
            {
                statement st(w_, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
                run r(st);
                if (r.step())
                    current = r.int64(0);
            }
            if (current > sqlite_schema_version)
                throw store_error("database: schema version " + std::to_string(current) +
                                  " is newer than this gatewayd understands (" +
                                  std::to_string(sqlite_schema_version) + ")");
            statement record(w_, "INSERT INTO schema_version(version, applied_ms) VALUES(?, ?)");
            auto const now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
            for (auto v = current; v < sqlite_schema_version; ++v) {
                exec(w_, std::string(migrations[static_cast<std::size_t>(v)]).c_str());
                run r(record);
                r.bind(1, v + 1).bind(2, static_cast<std::int64_t>(now_ms));
                r.step();
            }
            {
                statement prune(w_, "DELETE FROM key_changes WHERE seq <= "
                                    "(SELECT MAX(seq) FROM key_changes) - ?");
                run r(prune);
                r.bind(1, key_changes_kept);
                r.step();
            }
            exec(w_, "COMMIT");
        } catch (...) {
            rollback(w_);
            throw;
        }
        if (current > 0 && current < csrf_free_version) {
            // The dropped CSRF column's old pages may still sit in the WAL file: copy the
            // scrubbed pages back into the database and empty the WAL.
            exec(w_, "PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    void prepare() {
        insert_account_ =
            statement(w_, "INSERT INTO accounts(email, password_hash, created_ms) VALUES(?, ?, ?)");
        update_password_ = statement(w_, "UPDATE accounts SET password_hash = ? WHERE id = ?");
        insert_session_ = statement(w_, "INSERT INTO sessions(token_hash, account_id,"
                                        " created_ms, expires_ms) VALUES(?, ?, ?, ?)");
        delete_session_ = statement(w_, "DELETE FROM sessions WHERE token_hash = ?");
        delete_expired_ = statement(w_, "DELETE FROM sessions WHERE expires_ms <= ?");
        // One statement counts the account's usable keys and inserts below the limit (?10).
        insert_key_ = statement(
            w_, "INSERT INTO api_keys(account_id, key_hash, last4, name, env, created_ms,"
                " expires_ms, revoked_ms, rate_per_second)"
                " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9"
                " WHERE (SELECT COUNT(*) FROM api_keys WHERE account_id = ?1"
                " AND revoked_ms IS NULL AND (expires_ms IS NULL OR expires_ms > ?6)) < ?10");
        revoke_key_ = statement(w_, "UPDATE api_keys SET revoked_ms = ?"
                                    " WHERE id = ? AND account_id = ? AND revoked_ms IS NULL");
        record_use_ = statement(w_, "UPDATE api_keys SET last_used_ms ="
                                    " MAX(COALESCE(last_used_ms, ?1), ?1) WHERE id = ?2");

        find_account_by_email_ =
            statement(r_, sql("SELECT ", account_cols, " FROM accounts WHERE email = ?"));
        find_account_by_id_ =
            statement(r_, sql("SELECT ", account_cols, " FROM accounts WHERE id = ?"));
        find_session_ =
            statement(r_, "SELECT s.token_hash, s.account_id, a.email, s.created_ms, s.expires_ms"
                          " FROM sessions s JOIN accounts a ON a.id = s.account_id"
                          " WHERE s.token_hash = ?");
        list_keys_ = statement(
            r_, sql("SELECT ", key_cols, " FROM api_keys WHERE account_id = ? ORDER BY id"));
        find_key_ = statement(r_, sql("SELECT ", key_cols, " FROM api_keys WHERE key_hash = ?"));

        data_version_ = statement(k_, "PRAGMA data_version");
        change_bounds_ = statement(k_, "SELECT MIN(seq), MAX(seq) FROM key_changes");
        changes_after_ = statement(k_, "SELECT key_id FROM key_changes WHERE seq > ?");
        all_keys_ = statement(k_, sql("SELECT ", key_cols, " FROM api_keys"));
        key_by_id_ = statement(k_, sql("SELECT ", key_cols, " FROM api_keys WHERE id = ?"));
    }

    void close() noexcept {
        // Statements first: sqlite3_close refuses while any is unfinalised.
        for (auto* st :
             {&insert_account_, &update_password_, &insert_session_, &delete_session_,
              &delete_expired_, &insert_key_, &revoke_key_, &record_use_, &find_account_by_email_,
              &find_account_by_id_, &find_session_, &list_keys_, &find_key_, &data_version_,
              &change_bounds_, &changes_after_, &all_keys_, &key_by_id_})
            *st = {};
        for (auto** db : {&k_, &r_, &w_}) {
            if (*db)
                sqlite3_close(*db);
            *db = nullptr;
        }
    }

    std::chrono::milliseconds busy_;

    std::timed_mutex w_m_;
    sqlite3* w_ = nullptr;
    statement insert_account_;
    statement update_password_;
    statement insert_session_;
    statement delete_session_;
    statement delete_expired_;
    statement insert_key_;
    statement revoke_key_;
    statement record_use_;

    std::mutex r_m_;
    sqlite3* r_ = nullptr;
    statement find_account_by_email_;
    statement find_account_by_id_;
    statement find_session_;
    statement list_keys_;
    statement find_key_;

    std::mutex k_m_;
    sqlite3* k_ = nullptr;
    statement data_version_;
    statement change_bounds_;
    statement changes_after_;
    statement all_keys_;
    statement key_by_id_;
};

} // namespace

std::unique_ptr<store> open_sqlite_store(std::filesystem::path const& path,
                                         std::chrono::milliseconds busy_timeout) {
    return std::make_unique<sqlite_store>(path, busy_timeout);
}

} // namespace gateway::server::auth
