#pragma once
// Runs `node <script>` with a given stdin for e2e tests that drive the gateway or a mock from
// a Node package (tests/ccxt). stdin, stdout and stderr go through temporary files, so the
// child can never block on a full pipe. POSIX only.
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace gateway::test {

struct node_run {
    int exit_code = -1; ///< 127: `node` not found on PATH; 128 + signal when killed
    std::string out;
    std::string err;
};

/// `node script` with `input` on stdin; waits for it to exit.
inline node_run run_node_script(std::filesystem::path const& script, std::string const& input) {
    namespace fs = std::filesystem;
    static int counter = 0;
    auto const base = fs::temp_directory_path() / ("gateway-node-" + std::to_string(::getpid()) +
                                                   "-" + std::to_string(counter++));
    std::string const in_path = base.string() + ".in";
    std::string const out_path = base.string() + ".out";
    std::string const err_path = base.string() + ".err";
    {
        std::ofstream in(in_path, std::ios::binary);
        in << input;
    }
    auto const slurp = [](std::string const& p) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    };
    std::string script_arg = script.string();
    pid_t const pid = ::fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid == 0) {
        int const in_fd = ::open(in_path.c_str(), O_RDONLY);
        int const out_fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int const err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in_fd < 0 || out_fd < 0 || err_fd < 0)
            ::_exit(126);
        ::dup2(in_fd, STDIN_FILENO);
        ::dup2(out_fd, STDOUT_FILENO);
        ::dup2(err_fd, STDERR_FILENO);
        char arg0[] = "node";
        char* argv[] = {arg0, script_arg.data(), nullptr};
        ::execvp("node", argv);
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    node_run r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    std::error_code ec;
    fs::remove(in_path, ec);
    fs::remove(out_path, ec);
    fs::remove(err_path, ec);
    return r;
}

} // namespace gateway::test
