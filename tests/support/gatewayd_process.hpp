#pragma once
// gatewayd as operators run it, for e2e tests: the real binary on its embedded default (or with
// extra flags) in a fresh data directory, its address and its demo API key read from its first
// two lines of output; killed and its directory removed at the end.
#include "support/process.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace gateway::test {

struct running_gatewayd {
    explicit running_gatewayd(std::vector<std::string> extra = {})
        : data_dir(
              std::filesystem::temp_directory_path() /
              ("gatewayd-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
        std::vector<std::string> argv{std::string(GATEWAY_BINARY_DIR) +
                                          "/reference-server/gatewayd",
                                      "serve",
                                      "--listen",
                                      "127.0.0.1:0",
                                      "--data-dir",
                                      data_dir.string()};
        argv.insert(argv.end(), extra.begin(), extra.end());
        proc = std::make_unique<child_process>(argv);
        std::string const line = proc->read_line();
        std::string const prefix = "gatewayd listening on ";
        REQUIRE(line.rfind(prefix, 0) == 0);
        base_url = line.substr(prefix.size());
        std::string const key_line = proc->read_line();
        std::string const key_prefix = "gatewayd demo API key (embedded default): ";
        REQUIRE(key_line.rfind(key_prefix, 0) == 0);
        demo_key = key_line.substr(key_prefix.size());
    }
    ~running_gatewayd() {
        proc.reset();
        std::error_code ec;
        std::filesystem::remove_all(data_dir, ec);
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
    std::filesystem::path data_dir;
    std::unique_ptr<child_process> proc;
    std::string base_url;
    std::string demo_key;
};

/// The lines an example program prints until it exits (its stdout), and its exit code.
struct example_run {
    std::vector<std::string> lines;
    int exit_code = -1;

    /// Whether a line starts with `prefix`.
    bool has(std::string const& prefix) const {
        for (auto const& l : lines)
            if (l.rfind(prefix, 0) == 0)
                return true;
        return false;
    }
    /// Every line, for INFO.
    std::string all() const {
        std::string out;
        for (auto const& l : lines)
            out += l + "\n";
        return out;
    }
};

/// Runs `examples/<name>` with the demo key and address of `gw` and collects its output.
inline example_run run_example(running_gatewayd const& gw, std::string const& name) {
    child_process example(
        {std::string(GATEWAY_BINARY_DIR) + "/examples/" + name, gw.demo_key, gw.base_url});
    example_run out;
    for (std::string line = example.read_line(); !line.empty(); line = example.read_line())
        out.lines.push_back(line);
    out.exit_code = example.wait();
    return out;
}

} // namespace gateway::test
