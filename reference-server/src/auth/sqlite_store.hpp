#pragma once
// The embedded default `store`: one SQLite file under the server's data directory.
#include "auth/store.hpp"

#include <filesystem>
#include <memory>

namespace gateway::server::auth {

/// The schema version this build creates and migrates to (one step per migration, in order).
inline constexpr int sqlite_schema_version = 1;

/**
 * Opens (creating if needed, with mode 0600) and migrates the SQLite store at `path`. The
 * connection runs in WAL mode with foreign keys on and a 5 s busy timeout, so a running server
 * and the admin command line can share the file safely.
 * @par Errors
 * Throws `store_error` when the file cannot be opened or migrated, or when it was written by
 * a newer schema version than `sqlite_schema_version`.
 */
std::unique_ptr<store> open_sqlite_store(std::filesystem::path const& path);

} // namespace gateway::server::auth
