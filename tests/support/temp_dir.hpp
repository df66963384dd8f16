#pragma once
// A scratch directory for a test: unique per process and per instance, removed with everything
// in it when the test ends.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace gateway::test {

class temp_dir {
public:
    /// A directory named `<prefix>-<pid>-<n>` under the system temp dir, created empty.
    explicit temp_dir(std::string_view prefix = "gateway-test")
        : path(std::filesystem::temp_directory_path() /
               (std::string(prefix) + "-" + std::to_string(::getpid()) + "-" +
                std::to_string(next()))) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    temp_dir(temp_dir const&) = delete;
    temp_dir& operator=(temp_dir const&) = delete;

    std::filesystem::path const path;

private:
    static int next() {
        static std::atomic<int> n{0};
        return n++;
    }
};

} // namespace gateway::test
