// Benchmark (not a test): the per-request cost of API-key verification, i.e.
// account_service::check_key on a valid key (prefix/length check, SHA-256, the key cache's
// non-blocking change check (PRAGMA data_version), in-memory lookup, constant-time compare,
// buffered last-used), and on an unknown key.
//
//   build/tests/gateway_bench key_check [iterations]
//
// Prints the median over 7 runs of the mean ns per call.
#include "auth/accounts.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace gateway_bench::api_keys {

using namespace gateway::server::auth;

namespace {
template <class F>
double median_ns_per_call(int iterations, F&& f) {
    std::vector<double> runs;
    for (int r = 0; r < 7; ++r) {
        auto const t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iterations; ++i)
            f();
        auto const t1 = std::chrono::steady_clock::now();
        runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / iterations);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}
} // namespace

int run(int argc, char** argv) {
    int const iterations = argc > 1 ? std::atoi(argv[1]) : 20000;
    auto const dir = std::filesystem::temp_directory_path() / "gateway-bench-keys";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    account_options opt;
    opt.scrypt_n = 1024;
    {
        auto svc = open_account_service(dir, opt);
        auto acct = svc->sign_up("bench@example.com", "benchmark password").value();
        new_key_params p;
        p.name = "bench";
        std::string const key = svc->create_key(acct.id, p).value().key;
        std::string const unknown = "svc_live_" + std::string(43, 'A');
        std::size_t ok = 0;
        double const valid_ns = median_ns_per_call(
            iterations, [&] { ok += svc->check_key(key).outcome == key_check::verdict::ok; });
        double const unknown_ns = median_ns_per_call(
            iterations, [&] { ok += svc->check_key(unknown).outcome == key_check::verdict::ok; });
        double const malformed_ns = median_ns_per_call(iterations, [&] {
            ok += svc->check_key(std::string_view("nope")).outcome == key_check::verdict::ok;
        });
        std::printf("check_key valid key:     %8.0f ns/call (median of 7 x %d)\n", valid_ns,
                    iterations);
        std::printf("check_key unknown key:   %8.0f ns/call\n", unknown_ns);
        std::printf("check_key malformed key: %8.0f ns/call\n", malformed_ns);
        std::printf("(%zu ok)\n", ok);
    }
    std::filesystem::remove_all(dir);
    return 0;
}

} // namespace gateway_bench::api_keys
