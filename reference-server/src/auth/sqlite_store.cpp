// The SQLite store. One connection behind a mutex (SQLite serialises writers anyway); WAL so
// readers never wait for the writer; a busy timeout so the admin command line and a running
// server take turns on the file instead of failing; BEGIN IMMEDIATE for multi-statement
// writes, since a deferred transaction that upgrades to a write can fail at once in WAL mode.
#include "auth/sqlite_store.hpp"

#include <sqlite3.h>

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace gateway::server::auth {

namespace {

/// Ordered migrations: entry i takes the schema from version i to i + 1. Append only; never
/// edit one that has shipped.
constexpr std::array<std::string_view, 1> migrations{{
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
}};
static_assert(migrations.size() == sqlite_schema_version,
              "sqlite_schema_version must equal the number of migrations");

constexpr int busy_timeout_ms = 5000;

[[noreturn]] void fail(sqlite3* db, std::string_view what) {
    std::string msg = "database: ";
    msg += what;
    if (db) {
        msg += ": ";
        msg += sqlite3_errmsg(db);
    }
    throw store_error(msg);
}

void exec(sqlite3* db, char const* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw store_error("database: " + msg);
    }
}

/// A prepared statement, finalised on destruction.
class statement {
public:
    statement() = default;
    statement(sqlite3* db, std::string_view sql)
        : db_(db) {
        if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                               SQLITE_PREPARE_PERSISTENT, &s_, nullptr) != SQLITE_OK)
            fail(db, "prepare");
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
        fail(db_, "step");
    }
    /// Like `step` for a write, but reports a UNIQUE violation as false instead of throwing.
    bool step_unless_duplicate() {
        int const rc = sqlite3_step(s_);
        if (rc == SQLITE_DONE || rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            return false;
        fail(db_, "step");
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
            fail(db_, "bind");
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
/// permissions (SQLite gives the -wal and -shm files the database file's mode).
void create_private_file(std::filesystem::path const& path) {
    std::error_code ec;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
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

class sqlite_store final : public store {
public:
    explicit sqlite_store(std::filesystem::path const& path) {
        create_private_file(path);
        int const rc = sqlite3_open_v2(
            path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
            nullptr);
        if (rc != SQLITE_OK) {
            std::string const msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
            sqlite3_close(db_);
            throw store_error("database: cannot open " + path.string() + ": " + msg);
        }
        try {
            sqlite3_extended_result_codes(db_, 1);
            sqlite3_busy_timeout(db_, busy_timeout_ms);
            exec(db_, "PRAGMA journal_mode=WAL");
            exec(db_, "PRAGMA synchronous=NORMAL");
            exec(db_, "PRAGMA foreign_keys=ON");
            migrate();
            prepare();
        } catch (...) {
            close();
            throw;
        }
    }

    ~sqlite_store() override { close(); }

    std::optional<account_record> insert_account(std::string_view email,
                                                 std::string_view password_hash,
                                                 std::int64_t created_ms) override {
        std::lock_guard lock(m_);
        run r(insert_account_);
        r.bind_text(1, email).bind_text(2, password_hash).bind(3, created_ms);
        if (!r.step_unless_duplicate())
            return std::nullopt;
        return account_record{sqlite3_last_insert_rowid(db_), std::string(email),
                              std::string(password_hash), created_ms};
    }

    std::optional<account_record> find_account(std::string_view email) override {
        std::lock_guard lock(m_);
        run r(find_account_by_email_);
        r.bind_text(1, email);
        if (!r.step())
            return std::nullopt;
        return read_account(r);
    }

    std::optional<account_record> find_account(std::int64_t id) override {
        std::lock_guard lock(m_);
        run r(find_account_by_id_);
        r.bind(1, id);
        if (!r.step())
            return std::nullopt;
        return read_account(r);
    }

    bool update_password_hash(std::int64_t account_id, std::string_view password_hash) override {
        std::lock_guard lock(m_);
        run r(update_password_);
        r.bind_text(1, password_hash).bind(2, account_id);
        r.step();
        return sqlite3_changes(db_) > 0;
    }

    void insert_session(session_record const& s) override {
        std::lock_guard lock(m_);
        run r(insert_session_);
        r.bind_blob(1, s.token_hash)
            .bind(2, s.account_id)
            .bind_text(3, s.csrf_token)
            .bind(4, s.created_ms)
            .bind(5, s.expires_ms);
        r.step();
    }

    std::optional<session_record> find_session(std::string_view token_hash) override {
        std::lock_guard lock(m_);
        run r(find_session_);
        r.bind_blob(1, token_hash);
        if (!r.step())
            return std::nullopt;
        return session_record{r.blob(0), r.int64(1), r.text(2), r.text(3), r.int64(4), r.int64(5)};
    }

    void delete_session(std::string_view token_hash) override {
        std::lock_guard lock(m_);
        run r(delete_session_);
        r.bind_blob(1, token_hash);
        r.step();
    }

    std::size_t delete_expired_sessions(std::int64_t now_ms) override {
        std::lock_guard lock(m_);
        run r(delete_expired_);
        r.bind(1, now_ms);
        r.step();
        return static_cast<std::size_t>(sqlite3_changes(db_));
    }

    key_record insert_key(key_record const& k) override {
        std::lock_guard lock(m_);
        run r(insert_key_);
        r.bind(1, k.account_id)
            .bind_blob(2, k.key_hash)
            .bind_text(3, k.last4)
            .bind_text(4, k.name)
            .bind_text(5, k.env == key_env::test ? "test" : "live")
            .bind(6, k.created_ms)
            .bind_opt(7, k.expires_ms)
            .bind_opt(8, k.revoked_ms)
            .bind_opt(9, k.rate_per_second);
        r.step();
        key_record out = k;
        out.id = sqlite3_last_insert_rowid(db_);
        out.last_used_ms.reset();
        return out;
    }

    std::vector<key_record> list_keys(std::int64_t account_id) override {
        std::lock_guard lock(m_);
        run r(list_keys_);
        r.bind(1, account_id);
        std::vector<key_record> out;
        while (r.step())
            out.push_back(read_key(r));
        return out;
    }

    std::optional<key_record> find_key(std::string_view key_hash) override {
        std::lock_guard lock(m_);
        run r(find_key_);
        r.bind_blob(1, key_hash);
        if (!r.step())
            return std::nullopt;
        return read_key(r);
    }

    bool revoke_key(std::int64_t account_id, std::int64_t key_id, std::int64_t now_ms) override {
        std::lock_guard lock(m_);
        run r(revoke_key_);
        r.bind(1, now_ms).bind(2, key_id).bind(3, account_id);
        r.step();
        return sqlite3_changes(db_) > 0;
    }

    void record_key_uses(std::vector<key_use> const& uses) override {
        if (uses.empty())
            return;
        std::lock_guard lock(m_);
        exec(db_, "BEGIN IMMEDIATE");
        try {
            for (auto const& u : uses) {
                run r(record_use_);
                r.bind(1, u.used_ms).bind(2, u.key_id);
                r.step();
            }
            exec(db_, "COMMIT");
        } catch (...) {
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); // best effort; rethrown
            throw;
        }
    }

private:
    void migrate() {
        // IMMEDIATE: two processes opening a fresh file at once migrate one after the other.
        exec(db_, "BEGIN IMMEDIATE");
        try {
            exec(db_, "CREATE TABLE IF NOT EXISTS schema_version ("
                      "version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)");
            std::int64_t current = 0;
            {
                statement st(db_, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
                run r(st);
                if (r.step())
                    current = r.int64(0);
            }
            if (current > sqlite_schema_version)
                throw store_error("database: schema version " + std::to_string(current) +
                                  " is newer than this gatewayd understands (" +
                                  std::to_string(sqlite_schema_version) + ")");
            statement record(db_, "INSERT INTO schema_version(version, applied_ms) VALUES(?, ?)");
            auto const now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count();
            for (auto v = current; v < sqlite_schema_version; ++v) {
                exec(db_, std::string(migrations[static_cast<std::size_t>(v)]).c_str());
                run r(record);
                r.bind(1, v + 1).bind(2, static_cast<std::int64_t>(now_ms));
                r.step();
            }
            exec(db_, "COMMIT");
        } catch (...) {
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr); // best effort; rethrown
            throw;
        }
    }

    void prepare() {
        insert_account_ = statement(
            db_, "INSERT INTO accounts(email, password_hash, created_ms) VALUES(?, ?, ?)");
        find_account_by_email_ =
            statement(db_, sql("SELECT ", account_cols, " FROM accounts WHERE email = ?"));
        find_account_by_id_ =
            statement(db_, sql("SELECT ", account_cols, " FROM accounts WHERE id = ?"));
        update_password_ = statement(db_, "UPDATE accounts SET password_hash = ? WHERE id = ?");
        insert_session_ = statement(db_, "INSERT INTO sessions(token_hash, account_id, csrf_token,"
                                         " created_ms, expires_ms) VALUES(?, ?, ?, ?, ?)");
        find_session_ =
            statement(db_, "SELECT s.token_hash, s.account_id, a.email, s.csrf_token, s.created_ms,"
                           " s.expires_ms FROM sessions s JOIN accounts a ON a.id = s.account_id"
                           " WHERE s.token_hash = ?");
        delete_session_ = statement(db_, "DELETE FROM sessions WHERE token_hash = ?");
        delete_expired_ = statement(db_, "DELETE FROM sessions WHERE expires_ms <= ?");
        insert_key_ = statement(db_, "INSERT INTO api_keys(account_id, key_hash, last4, name, env,"
                                     " created_ms, expires_ms, revoked_ms, rate_per_second)"
                                     " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)");
        list_keys_ = statement(
            db_, sql("SELECT ", key_cols, " FROM api_keys WHERE account_id = ? ORDER BY id"));
        find_key_ = statement(db_, sql("SELECT ", key_cols, " FROM api_keys WHERE key_hash = ?"));
        revoke_key_ = statement(db_, "UPDATE api_keys SET revoked_ms = ?"
                                     " WHERE id = ? AND account_id = ? AND revoked_ms IS NULL");
        record_use_ = statement(db_, "UPDATE api_keys SET last_used_ms ="
                                     " MAX(COALESCE(last_used_ms, ?1), ?1) WHERE id = ?2");
    }

    void close() noexcept {
        // Statements first: sqlite3_close refuses while any is unfinalised.
        insert_account_ = {};
        find_account_by_email_ = {};
        find_account_by_id_ = {};
        update_password_ = {};
        insert_session_ = {};
        find_session_ = {};
        delete_session_ = {};
        delete_expired_ = {};
        insert_key_ = {};
        list_keys_ = {};
        find_key_ = {};
        revoke_key_ = {};
        record_use_ = {};
        if (db_)
            sqlite3_close(db_);
        db_ = nullptr;
    }

    std::mutex m_;
    sqlite3* db_ = nullptr;
    statement insert_account_;
    statement find_account_by_email_;
    statement find_account_by_id_;
    statement update_password_;
    statement insert_session_;
    statement find_session_;
    statement delete_session_;
    statement delete_expired_;
    statement insert_key_;
    statement list_keys_;
    statement find_key_;
    statement revoke_key_;
    statement record_use_;
};

} // namespace

std::unique_ptr<store> open_sqlite_store(std::filesystem::path const& path) {
    return std::make_unique<sqlite_store>(path);
}

} // namespace gateway::server::auth
