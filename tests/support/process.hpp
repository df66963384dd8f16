#pragma once
// Runs a program as a child process for e2e tests: reads its stdout line by line, signals it,
// and waits for its exit status. POSIX only.
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace gateway::test {

class child_process {
public:
    explicit child_process(std::vector<std::string> argv) {
        int fds[2];
        if (pipe(fds) != 0)
            throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0)
            throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]);
            close(fds[1]);
            std::vector<char*> args;
            for (auto& a : argv)
                args.push_back(a.data());
            args.push_back(nullptr);
            execv(args[0], args.data());
            _exit(127);
        }
        close(fds[1]);
        out_ = fdopen(fds[0], "r");
    }
    ~child_process() {
        if (pid_ > 0 && !reaped_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        if (out_)
            fclose(out_);
    }
    child_process(child_process const&) = delete;
    child_process& operator=(child_process const&) = delete;

    /// The next line of the child's stdout (blocks); empty at end of output.
    std::string read_line() {
        std::string line;
        int c;
        while ((c = fgetc(out_)) != EOF && c != '\n')
            line.push_back(static_cast<char>(c));
        return line;
    }

    void signal(int sig) { kill(pid_, sig); }

    /// Waits for the child; its exit code, or 128 + signal.
    int wait() {
        int status = 0;
        waitpid(pid_, &status, 0);
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

private:
    pid_t pid_ = -1;
    FILE* out_ = nullptr;
    bool reaped_ = false;
};

} // namespace gateway::test
