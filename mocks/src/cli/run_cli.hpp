#pragma once
/**
 * @file run_cli.hpp
 * The command line shared by `mock-alpha`, `mock-beta` and `mock-gamma`:
 * `--listen HOST:PORT` (default 127.0.0.1:0), `--testnet`, `--seed N`, `--threads N`, `--help`.
 * Prints `mock-<kind> listening on <base url>` and serves until SIGINT or SIGTERM.
 */
#include <gateway/mocks/mock_server.hpp>

namespace gateway::mocks {

/// The whole `main` of a mock executable; returns the process exit status.
int run_cli(upstream kind, int argc, char** argv);

} // namespace gateway::mocks
