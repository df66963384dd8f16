#pragma once
// The embedded default `store`: one SQLite file under the server's data directory.
#include "auth/store.hpp"

#include <chrono>
#include <filesystem>
#include <memory>

namespace gateway::server::auth {

/// The schema version this build creates and migrates to (one step per migration, in order).
inline constexpr int sqlite_schema_version = 2;

/**
 * Opens (creating if needed, with mode 0600, in directories created 0700) and migrates the
 * SQLite store at `path`. The database runs in WAL mode with foreign keys on, so a running
 * server and the admin command line can share the file safely.
 *
 * Three connections: one for writes, one for reads (in WAL mode readers never wait for a
 * writer, so a sign-in can look up its account while another process holds the write lock),
 * and one that only answers `key_changes_since` and never waits. A write waits for the lock
 * (another process's, or this process's other writers) at most `busy_timeout` in all, then
 * throws `database_busy`.
 * @par Errors
 * Throws `store_error` when the file cannot be opened or migrated, or when it was written by
 * a newer schema version than `sqlite_schema_version`; `database_busy` when another process
 * held the lock past `busy_timeout` while this one migrated.
 */
std::unique_ptr<store>
open_sqlite_store(std::filesystem::path const& path,
                  std::chrono::milliseconds busy_timeout = std::chrono::milliseconds(5000));

} // namespace gateway::server::auth
