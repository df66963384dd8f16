// The nonce replay guard: window and duplicate checks, restart survival through the journal,
// damaged journals, compaction and concurrency. Time is driven through now_ms; no sleeps.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/temp_dir.hpp"
#include "trading/nonce_guard.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace gateway;
using gateway::server::alpha_nonce_window;
using gateway::server::beta_nonce_window;
using gateway::server::nonce_guard;
using gateway::server::nonce_guard_options;
using gateway::server::nonce_window;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

using gateway::test::temp_dir;

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;
constexpr std::int64_t day_ms = 86'400'000;
constexpr std::string_view signer_a = "alpha:0x1111111111111111111111111111111111111111";
constexpr std::string_view signer_b = "alpha:0x2222222222222222222222222222222222222222";
constexpr std::string_view testnet_a = "alpha-testnet:0x1111111111111111111111111111111111111111";

std::string read_all(fs::path const& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void append_bytes(fs::path const& p, std::string_view bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::app);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool refused_as(result<void> const& r, std::string_view text) {
    return !r && r.error().code == errc::invalid_nonce && r.error().status == 401 &&
           r.error().message.find(text) != std::string::npos && r.error().field() == "nonce";
}

} // namespace

TEST_CASE("nonce_guard accepts a nonce once per signer", "[unit][nonce]") {
    temp_dir dir;
    auto g = nonce_guard::open(dir.path / "nonces.journal");

    REQUIRE(g->check_and_record(signer_a, t0, t0, alpha_nonce_window));
    auto dup = g->check_and_record(signer_a, t0, t0 + 5, alpha_nonce_window);
    CHECK(refused_as(dup, "already used"));
    CHECK(dup.error().message == "Nonce 1700000000000 was already used for this signer.");
    CHECK(g->check_and_record(signer_a, t0 + 1, t0 + 5, alpha_nonce_window));
    // Out of order (older but inside the window) is fine once.
    CHECK(g->check_and_record(signer_a, t0 - 1000, t0 + 5, alpha_nonce_window));
    CHECK(refused_as(g->check_and_record(signer_a, t0 - 1000, t0 + 6, alpha_nonce_window),
                     "already used"));
    CHECK(g->size() == 3);

    SECTION("a malformed scope is a caller bug, not a nonce error") {
        for (std::string_view bad : {std::string_view(""), std::string_view("alpha: 0xabc"),
                                     std::string_view("alpha:\n0xabc")}) {
            auto r = g->check_and_record(bad, t0, t0, alpha_nonce_window);
            REQUIRE_FALSE(r);
            CHECK(r.error().code == errc::internal_error);
        }
        CHECK_FALSE(g->check_and_record(std::string(300, 'a'), t0, t0, alpha_nonce_window));
    }
}

TEST_CASE("nonce_guard window edges are inclusive", "[unit][nonce]") {
    temp_dir dir;
    auto g = nonce_guard::open(dir.path / "nonces.journal");

    SECTION("alpha: now - 2 days to now + 1 day") {
        CHECK(g->check_and_record(signer_a, t0 - 2 * day_ms, t0, alpha_nonce_window));
        CHECK(g->check_and_record(signer_a, t0 + day_ms, t0, alpha_nonce_window));
        auto early = g->check_and_record(signer_a, t0 - 2 * day_ms - 1, t0, alpha_nonce_window);
        CHECK(refused_as(early, "outside the accepted window"));
        CHECK(early.error().message ==
              "Nonce 1699827199999 is outside the accepted window of now - 2 days to now + 1 day "
              "(server time 1700000000000 ms).");
        CHECK(refused_as(g->check_and_record(signer_a, t0 + day_ms + 1, t0, alpha_nonce_window),
                         "outside the accepted window"));
        CHECK(g->size() == 2); // refusals record nothing
    }
    SECTION("beta: within 10 s") {
        CHECK(g->check_and_record(signer_a, t0 - 10'000, t0, beta_nonce_window));
        CHECK(g->check_and_record(signer_a, t0 + 10'000, t0, beta_nonce_window));
        CHECK(refused_as(g->check_and_record(signer_a, t0 - 10'001, t0, beta_nonce_window),
                         "now - 10 seconds to now + 10 seconds"));
        CHECK(refused_as(g->check_and_record(signer_a, t0 + 10'001, t0, beta_nonce_window),
                         "outside"));
    }
    SECTION("extreme values do not overflow") {
        constexpr auto big = std::numeric_limits<std::int64_t>::max();
        constexpr auto small = std::numeric_limits<std::int64_t>::min();
        CHECK_FALSE(g->check_and_record(signer_a, big, t0, alpha_nonce_window));
        CHECK_FALSE(g->check_and_record(signer_a, small, t0, alpha_nonce_window));
        CHECK(g->check_and_record(signer_a, big, big - 5, alpha_nonce_window));
        CHECK(g->check_and_record(signer_a, small, small + 5, alpha_nonce_window));
    }
}

TEST_CASE("nonce_guard scopes are independent", "[unit][nonce]") {
    temp_dir dir;
    auto g = nonce_guard::open(dir.path / "nonces.journal");
    CHECK(g->check_and_record(signer_a, t0, t0, alpha_nonce_window));
    CHECK(g->check_and_record(signer_b, t0, t0, alpha_nonce_window));
    CHECK(g->check_and_record(testnet_a, t0, t0, alpha_nonce_window));
    CHECK_FALSE(g->check_and_record(signer_b, t0, t0, alpha_nonce_window));
    CHECK_FALSE(g->check_and_record(testnet_a, t0, t0, alpha_nonce_window));
    CHECK(g->size() == 3);
}

TEST_CASE("nonce_guard release lets the client reuse a nonce", "[unit][nonce]") {
    temp_dir dir;
    auto const path = dir.path / "nonces.journal";
    auto g = nonce_guard::open(path);
    REQUIRE(g->check_and_record(signer_a, t0, t0, alpha_nonce_window));
    REQUIRE(g->check_and_record(signer_a, t0 + 1, t0, alpha_nonce_window));
    g->release(signer_a, t0); // not the latest: fine too
    g->release(signer_a, 42); // unknown: ignored
    g->release(signer_b, t0); // unknown scope: ignored
    CHECK(g->size() == 1);
    CHECK(g->check_and_record(signer_a, t0, t0, alpha_nonce_window));
    g->release(signer_a, t0);

    // The release survives a restart; the other nonce stays used.
    g.reset();
    g = nonce_guard::open(path);
    CHECK(g->size() == 1);
    CHECK(g->check_and_record(signer_a, t0, t0, alpha_nonce_window));
    CHECK_FALSE(g->check_and_record(signer_a, t0 + 1, t0, alpha_nonce_window));
}

TEST_CASE("nonce_guard survives a restart", "[unit][nonce]") {
    temp_dir dir;
    auto const path = dir.path / "data" / "nonces.journal"; // directory created on open
    auto g = nonce_guard::open(path);
    for (std::int64_t i = 0; i < 50; ++i) {
        REQUIRE(g->check_and_record(signer_a, t0 + i, t0 + i, alpha_nonce_window));
        REQUIRE(g->check_and_record(testnet_a, t0 - i, t0 + i, alpha_nonce_window));
    }
    g->flush();

    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);

    SECTION("a second process cannot open the journal while it is in use") {
        CHECK_THROWS_WITH(nonce_guard::open(path), Catch::Contains("in use by another process"));
    }

    SECTION("after close and reopen every nonce is still refused") {
        g.reset(); // the server restart
        g = nonce_guard::open(path);
        CHECK(g->size() == 100);
        for (std::int64_t i = 0; i < 50; ++i) {
            CHECK(refused_as(g->check_and_record(signer_a, t0 + i, t0 + 60, alpha_nonce_window),
                             "already used"));
            CHECK_FALSE(g->check_and_record(testnet_a, t0 - i, t0 + 60, alpha_nonce_window));
        }
        CHECK(g->check_and_record(signer_a, t0 + 50, t0 + 60, alpha_nonce_window));
        CHECK(g->check_and_record(signer_b, t0, t0 + 60, alpha_nonce_window));

        // And once more, with records appended after the rewrite done by the first reopen.
        g.reset();
        g = nonce_guard::open(path);
        CHECK(g->size() == 102);
        CHECK_FALSE(g->check_and_record(signer_a, t0 + 50, t0 + 60, alpha_nonce_window));
        CHECK_FALSE(g->check_and_record(signer_b, t0, t0 + 60, alpha_nonce_window));
        REQUIRE(::stat(path.c_str(), &st) == 0);
        CHECK((st.st_mode & 0777) == 0600);
    }

    SECTION("a restart days later forgets what no window can reach any more") {
        REQUIRE(
            g->check_and_record(signer_b, t0 + 3 * day_ms, t0 + 3 * day_ms, alpha_nonce_window));
        g.reset();
        g = nonce_guard::open(path);
        // Loaded with the latest recorded time: signer_a's and testnet_a's nonces are more than
        // 2 days old by then, signer_b's is live.
        CHECK(g->size() == 1);
        CHECK_FALSE(g->check_and_record(signer_b, t0 + 3 * day_ms, t0 + 3 * day_ms + 1,
                                        alpha_nonce_window));
    }
}

TEST_CASE("nonce_guard creates its directories owner-only whatever the umask", "[unit][nonce]") {
    // Issue 10 item 9: they were 0755 (0777 minus the umask) around a 0600 journal.
    temp_dir dir;
    auto const mask = GENERATE(mode_t{0}, mode_t{022});
    CAPTURE(mask);
    auto const path = dir.path / "data" / "trading" / "nonces.journal";
    mode_t const before = ::umask(mask);
    std::unique_ptr<nonce_guard> g;
    try {
        g = nonce_guard::open(path);
    } catch (...) {
        ::umask(before);
        throw;
    }
    ::umask(before);
    for (auto const& d : {dir.path / "data", dir.path / "data" / "trading"}) {
        CAPTURE(d);
        struct stat st {};
        REQUIRE(::stat(d.c_str(), &st) == 0);
        CHECK((st.st_mode & 0777) == 0700);
    }
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
}

TEST_CASE("nonce_guard tolerates a damaged journal", "[unit][nonce]") {
    temp_dir dir;
    auto const path = dir.path / "nonces.journal";
    auto g = nonce_guard::open(path);
    for (std::int64_t i = 0; i < 10; ++i)
        REQUIRE(g->check_and_record(signer_a, t0 + i, t0, alpha_nonce_window));
    g.reset();

    SECTION("a torn last record (crash mid-write) is ignored") {
        append_bytes(path, "A 1 17000000");
        g = nonce_guard::open(path);
        CHECK(g->size() == 10);
        CHECK_FALSE(g->check_and_record(signer_a, t0 + 9, t0, alpha_nonce_window));
        CHECK(g->check_and_record(signer_a, t0 + 10, t0, alpha_nonce_window));
        // The reopen cut the fragment off, so the new record did not merge with it.
        g.reset();
        g = nonce_guard::open(path);
        CHECK(g->size() == 11);
        CHECK_FALSE(g->check_and_record(signer_a, t0 + 10, t0, alpha_nonce_window));
    }

    SECTION("a record cut in half loses only that record") {
        auto const text = read_all(path);
        fs::resize_file(path, text.size() - 5);
        g = nonce_guard::open(path);
        CHECK(g->size() == 9);
        CHECK(g->check_and_record(signer_a, t0 + 9, t0, alpha_nonce_window)); // the lost one
        CHECK_FALSE(g->check_and_record(signer_a, t0 + 8, t0, alpha_nonce_window));
    }

    SECTION("damaged lines in the middle are skipped") {
        append_bytes(path, std::string(100, '\0') + "\nA 1 1700000000099 00000000\nnonsense\n");
        g = nonce_guard::open(path);
        CHECK(g->size() == 10);
        CHECK(g->check_and_record(signer_a, t0 + 99, t0, alpha_nonce_window)); // bad checksum
        CHECK_FALSE(g->check_and_record(signer_a, t0, t0, alpha_nonce_window));
    }

    SECTION("a journal from a newer format version is refused at start-up") {
        // Only a valid checksum makes it a version record; compute it the same way (FNV-1a).
        std::uint32_t h = 2166136261u;
        for (unsigned char c : std::string_view("V 2")) {
            h ^= c;
            h *= 16777619u;
        }
        char sum[9];
        std::snprintf(sum, sizeof sum, "%08x", h);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << "V 2 " << sum << "\n";
        auto const before = read_all(path);
        CHECK_THROWS_WITH(nonce_guard::open(path), Catch::Contains("newer version"));
        CHECK(read_all(path) == before); // left exactly as it was
    }
}

TEST_CASE("nonce_guard compaction keeps live nonces and drops expired ones", "[unit][nonce]") {
    temp_dir dir;
    auto const path = dir.path / "nonces.journal";
    nonce_guard_options options;
    options.compact_min_bytes = 4096;
    auto g = nonce_guard::open(path, options);
    auto const opened = g->compactions();

    constexpr std::string_view idle = "beta:0x3333333333333333333333333333333333333333";
    constexpr std::string_view busy = "beta:0x4444444444444444444444444444444444444444";
    REQUIRE(g->check_and_record(idle, t0, t0, beta_nonce_window));

    // 2,000 requests 10 ms apart (20 s): far more than 4 KiB of journal.
    std::int64_t now = t0;
    for (int i = 1; i <= 2000; ++i) {
        now = t0 + 10 * i;
        REQUIRE(g->check_and_record(busy, now, now, beta_nonce_window));
    }
    CHECK(g->compactions() > opened);
    // The idle scope's nonce and busy nonces older than now - 10 s are gone from memory; the 1001
    // nonces in [now - 10 s, now] remain.
    CHECK(g->size() == 1001);
    CHECK(g->journal_bytes() < 3 * 1001 * 40);
    CHECK(read_all(path).find(std::string(idle)) == std::string::npos);

    // Every live nonce is still refused, after compaction and after a restart.
    g.reset();
    g = nonce_guard::open(path, options);
    CHECK(g->size() == 1001);
    for (std::int64_t n = now - 10'000; n <= now; n += 10)
        REQUIRE_FALSE(g->check_and_record(busy, n, now, beta_nonce_window));
    CHECK(refused_as(g->check_and_record(busy, now - 10'010, now, beta_nonce_window), "outside"));
}

TEST_CASE("nonce_guard pruning never forgets a nonce inside its window", "[unit][nonce]") {
    temp_dir dir;
    nonce_guard_options options;
    options.compact_min_bytes = 256; // compact nearly every call
    auto g = nonce_guard::open(dir.path / "nonces.journal", options);
    constexpr std::string_view busy = "beta:0x5555555555555555555555555555555555555555";
    std::int64_t const future = t0 + 10'000;
    REQUIRE(g->check_and_record(busy, future, t0, beta_nonce_window));
    // Move time to the last instant the future nonce is inside the window, with traffic that
    // prunes and compacts on the way.
    for (std::int64_t now = t0 + 1; now <= future + 10'000; now += 7)
        REQUIRE(g->check_and_record(busy, now, now, beta_nonce_window));
    std::int64_t const edge = future + 10'000;
    CHECK(refused_as(g->check_and_record(busy, future, edge, beta_nonce_window), "already used"));
    CHECK(refused_as(g->check_and_record(busy, future, edge + 1, beta_nonce_window), "outside"));
    CHECK(g->compactions() > 3);
}

TEST_CASE("nonce_guard is thread-safe", "[unit][nonce]") {
    temp_dir dir;
    auto const path = dir.path / "nonces.journal";
    nonce_guard_options options;
    options.compact_min_bytes = 16 * 1024; // compactions happen while threads record
    auto g = nonce_guard::open(path, options);

    constexpr int threads = 4;
    constexpr int per_thread = 2000;
    std::atomic<int> accepted{0};
    std::atomic<int> refused{0};
    std::atomic<int> shared_wins{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                // Distinct nonces on one shared scope, interleaved between threads.
                std::int64_t const n = t0 + static_cast<std::int64_t>(i) * threads + t;
                if (g->check_and_record(signer_a, n, t0 + i, alpha_nonce_window))
                    ++accepted;
                else
                    ++refused;
                // One nonce every thread tries, many times.
                if (i % 100 == 0 && g->check_and_record(signer_b, t0, t0 + i, alpha_nonce_window))
                    ++shared_wins;
            }
        });
    for (auto& th : pool)
        th.join();
    CHECK(accepted == threads * per_thread);
    CHECK(refused == 0);
    CHECK(shared_wins == 1);
    CHECK(g->size() == threads * per_thread + 1);
    CHECK(g->compactions() > 1);

    g.reset();
    g = nonce_guard::open(path, options);
    CHECK(g->size() == threads * per_thread + 1);
    CHECK_FALSE(g->check_and_record(signer_b, t0, t0, alpha_nonce_window));
    CHECK_FALSE(g->check_and_record(signer_a, t0 + 4 * 1999 + 3, t0, alpha_nonce_window));
}
