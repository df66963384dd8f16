// The benchmarks and the soak's load driver, one program: `gateway_bench <name> [args]`.
// One executable (built as one TU) instead of six, because each of them instantiates the same
// HTTP client, coroutine and JSON templates: the build pays for them once. Run by hand; the
// numbers go in the issue notes, never in tests.
#include <cstdio>
#include <cstring>

// Each benchmark's entry point, argv[0] being its name (tests/bench/<file>.cpp).
namespace gateway_bench {
namespace alpha_reads {
int run(int argc, char** argv);
}
namespace beta_reads {
int run(int argc, char** argv);
}
namespace gamma_reads {
int run(int argc, char** argv);
}
namespace alpha_trading {
int run(int argc, char** argv);
}
namespace beta_trading {
int run(int argc, char** argv);
}
namespace gamma_trading {
int run(int argc, char** argv);
}
namespace api_keys {
int run(int argc, char** argv);
}
namespace soak_load {
int run(int argc, char** argv);
}
namespace ws_load {
int run(int argc, char** argv);
int run_clients(int argc, char** argv);
} // namespace ws_load
namespace ws_floor {
int run(int argc, char** argv);
}
} // namespace gateway_bench

namespace {

struct entry {
    char const* name;
    int (*run)(int, char**);
    char const* what;
};

constexpr entry benches[] = {
    {"alpha_reads", gateway_bench::alpha_reads::run,
     "[n]: latency gatewayd adds to alpha reads over mock-alpha (p50/p99)"},
    {"beta_reads", gateway_bench::beta_reads::run,
     "[n]: latency gatewayd adds to beta reads over mock-beta (p50/p99)"},
    {"gamma_reads", gateway_bench::gamma_reads::run,
     "[n]: latency gatewayd adds to gamma reads over mock-gamma; upstream calls of "
     "events?limit=100"},
    {"alpha_trading", gateway_bench::alpha_trading::run,
     "[n]: alpha signature verifications per core; latency a signed order adds"},
    {"beta_trading", gateway_bench::beta_trading::run,
     "[n]: beta signature verifications per core; latency a signed order adds"},
    {"gamma_trading", gateway_bench::gamma_trading::run,
     "[n]: gamma order verifications per core; latency a signed order adds"},
    {"key_check", gateway_bench::api_keys::run, "[n]: API key checks per second"},
    {"soak_load", gateway_bench::soak_load::run,
     "API_KEY BASE_URL SECONDS: the soak's steady mixed load (scripts/soak.sh)"},
    {"ws_load", gateway_bench::ws_load::run,
     "[clients] [seconds] [symbols]: /ws/v1/perps fan-out: msg/s, book lag p50/p99, RSS, CPU"},
    {"ws_floor", gateway_bench::ws_floor::run,
     "[clients] [seconds] [bytes] [rounds/s]: what the kernel alone costs to fan a frame out "
     "to that many loopback clients (ws_load's floor)"},
};

/// Entries a benchmark starts itself (its child processes re-execute this program); not listed.
constexpr entry hidden[] = {
    {"ws_load_clients", gateway_bench::ws_load::run_clients, "ws_load's client processes"},
};

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2)
        for (auto const& b : benches)
            if (std::strcmp(argv[1], b.name) == 0)
                return b.run(argc - 1, argv + 1);
    if (argc >= 2)
        for (auto const& b : hidden)
            if (std::strcmp(argv[1], b.name) == 0)
                return b.run(argc - 1, argv + 1);
    std::fprintf(stderr, "usage: gateway_bench <benchmark> [args]\n");
    for (auto const& b : benches)
        std::fprintf(stderr, "  %-14s %s\n", b.name, b.what);
    return 2;
}
