#pragma once
// The operators' command line for accounts and keys (issue: "admin command line for operators
// without a browser"): `gatewayd accounts ...` and `gatewayd keys ...`. It opens the same store
// a running server uses (`--data-dir`), which is safe while that server runs.
#include <iosfwd>
#include <string>
#include <vector>

namespace gateway::server {

/**
 * Runs one admin command.
 *
 * `args` are the words after the program name, starting with the command:
 *
 *     accounts create --email E                     password: the first line of `in`
 *     keys create --email E --env live|test [--name N] [--expires-in 90s|15m|12h|30d]
 *                 [--rate R/s]                      prints only the new key and a newline
 *     keys list --email E                           one tab-separated line per key, never
 *                                                   the key itself
 *     keys revoke --email E --id N
 *
 * Every command takes `--data-dir D` (else `GATEWAY_DATA_DIR`, else `./data`), like `serve`.
 * Options may be written `--opt value` or `--opt=value`. `--help` prints the usage on `out`.
 *
 * @return 0 on success, 1 on failure (a message on `err`), 2 on a usage error (usage on `err`).
 * @par Thread safety
 * Reentrant; each call opens and closes its own store connection.
 */
int run_admin_command(std::vector<std::string> args, std::istream& in, std::ostream& out,
                      std::ostream& err);

} // namespace gateway::server
