// Benchmark (not a test): /ws/v1/perps under N clients subscribed to the same streams.
//
//   build/tests/gateway_bench ws_load [clients=1000] [seconds=10] [symbols=3]
//
// This process runs the mocks and gatewayd (test_gateway) and the mark driver; the CLIENTS raw
// WebSocket clients live in P separate client processes, so that neither their descriptors nor
// their CPU nor their memory count against the gateway's (one process may hold 20,000
// descriptors here, and 10,000 clients need two each when both ends share a process).
// P = ceil(CLIENTS / 4000), or WS_LOAD_PROCS. Each is this binary re-executed (posix_spawn of
// /proc/self/exe) as the hidden entry
//
//   gateway_bench ws_load_clients <url> <key> <n> <threads> <subscribe frame>...
//
// which opens its n clients (net::ws_connect, one a millisecond per thread, on WS_LOAD_THREADS
// io_context threads, default 1), each subscribed to alpha's `prices` and, for the first SYMBOLS
// perps of alpha, `orderbook` (depth 20) and `trades`: every client the same streams, so the
// gateway holds one upstream subscription per stream and fans each frame out CLIENTS times.
// The protocol is lines over the child's stdin and stdout:
//   child:  "ready <ready> <failed>"  once each client has its acks or has failed;
//   parent: "start"                   after every child is ready (or 300 s), then 1 s of warm-up;
//   parent: "stop"                    SECONDS later;
//   child:  "result books=.. prices=.. trades=.. other=.. cpu=<s> ready=.. failed=.. closed=..
//            c1013=.. lag=<ms>:<count>,..."  and it exits.
// End of file on its stdin (the parent gone) makes a child exit at once; the parent reaps them
// all (and kills one that does not exit after its result).
// A driver in this process moves the marks of those symbols on mock-alpha every WS_LOAD_MARK_MS
// (default 20 ms), which changes allMids and the books upstream; mock-alpha pushes a changed l2Book
// at most every WS_LOAD_BOOK_MS (default 50 ms, ten times alpha's real cadence of >= 0.5 s, so
// that the gateway's 100 ms book limit is what paces the books). The summary line:
// - delivered: data frames received by all clients per second of the window (and per channel);
// - lag p50/p99: for `orderbook` frames, client receipt minus the book's `timestamp`, which is
//   mock-alpha's l2Book `time`, stamped when the mock builds the upstream frame; both are the
//   system clock of this machine, read by two processes. So upstream frame -> gateway (parse,
//   throttle to <= 10 books/s, serialise once) -> fan-out -> client, in 1 ms buckets (each child
//   keeps a histogram; the parent merges them). It includes the gateway's book throttle (a
//   changed book waits up to 100 ms for its slot, by design). `prices` carries no time and is
//   not sampled.
// - RSS of this process (VmRSS at the end of the window, VmHWM peak, and in brackets VmRSS
//   before the clients connected and once they all had their acks, before the marks move):
//   gatewayd and the mocks only, the clients live elsewhere;
// - CPU over the window in % of one core: this process (getrusage: gatewayd, the mocks and the
//   mark driver) and the client processes together (each its getrusage from start to stop);
// - closed: clients the gateway closed (1013 = too slow), failed connects (or clients lost
//   before their acks), and client processes that gave no result.
// Raises RLIMIT_NOFILE (hard too, when allowed) in each process: the gateway's side costs one
// descriptor per client here (and the gateway admits connections up to 3/4 of the limit), each
// client one in its own process.
#include "support/test_gateway.hpp"

#include <gateway/net/http_client.hpp>
#include <gateway/net/http_server.hpp>
#include <gateway/net/websocket.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace gateway_bench::ws_load {

namespace {

namespace asio = boost::asio;
namespace net = gateway::net;
using namespace std::chrono_literals;

/// Clients per client process unless WS_LOAD_PROCS says how many processes.
constexpr int clients_per_process = 4000;

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// `VmRSS` / `VmHWM` of this process in MB.
double status_mb(std::string_view field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0)
            return std::atof(line.c_str() + field.size() + 1) / 1024.0;
    return 0;
}

/// User + system CPU seconds of this process (all its threads, none of its children).
double process_cpu_s() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int env_int(char const* name, int fallback) {
    char const* v = std::getenv(name);
    return v ? std::atoi(v) : fallback;
}

/// Raises RLIMIT_NOFILE to at least `need` if it can (the hard limit too, root only); returns
/// the soft limit now.
std::uint64_t raise_fds(rlim_t need) {
    rlimit rl{};
    ::getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
        rlimit raised{need, need};
        ::setrlimit(RLIMIT_NOFILE, &raised); // root only; else the caller's check says so
    }
    return net::raise_open_file_limit();
}

/// Writes all of `s` to `fd`; false if the other end is gone.
bool write_all(int fd, std::string_view s) {
    while (!s.empty()) {
        auto const n = ::write(fd, s.data(), s.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        s.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

/// The book's `"timestamp":<digits>`, without parsing the JSON: the last one in the frame, since
/// the book's fields end with it (`{"symbol","bids","asks","timestamp"}` inside `data`, which
/// closes the frame), so the search is a few bytes from the end, not a scan of the levels.
std::optional<std::int64_t> book_timestamp(std::string_view text) {
    constexpr std::string_view key = "\"timestamp\":";
    auto const at = text.rfind(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::int64_t v = 0;
    auto const* b = text.data() + at + key.size();
    auto [p, ec] = std::from_chars(b, text.data() + text.size(), v);
    if (ec != std::errc())
        return std::nullopt;
    return v;
}

/// True when the frame is `{"type":"<type>",...`: the gateway writes a data frame's `type` first,
/// so the client tells them apart by their first bytes rather than by searching whole books for
/// a marker. (Answers to the client's frames start with its `id`; they are few, and searched.)
bool has_type(std::string_view text, std::string_view type) {
    constexpr std::string_view head = "{\"type\":\"";
    return text.size() > head.size() + type.size() && text.substr(0, head.size()) == head &&
           text.substr(head.size(), type.size()) == type && text[head.size() + type.size()] == '"';
}

/// Lag in ms -> how many book frames had it.
using histogram = std::map<std::int64_t, std::uint64_t>;

// ---- the client process ------------------------------------------------------------------------

/// One client thread: its io_context, counters and lag histogram (touched by that thread only,
/// read after it stopped, except the atomics).
struct worker {
    asio::io_context ioc{1};
    std::atomic<bool> measuring{false};
    std::uint64_t books = 0, trades = 0, prices = 0, other = 0;
    histogram lag_ms;
    std::vector<std::shared_ptr<net::ws_session>> sessions;
};

struct shared_state {
    std::atomic<int> ready{0};
    std::atomic<int> failed{0}; ///< connect failed, or the session ended before its acks
    std::atomic<int> closed{0};
    std::atomic<int> closed_1013{0};
    std::mutex m;
    std::string first_failure;
};

asio::awaitable<void> client(worker& w, shared_state& st, std::string url,
                             std::vector<std::string> const& frames, std::string key) {
    net::ws_connect_options o;
    o.headers.emplace_back("X-API-Key", std::move(key));
    o.timeout = 60s;
    o.session.max_message = 4 * 1024 * 1024;
    o.session.max_queued = 64;
    asio::any_io_executor const ex = w.ioc.get_executor(); // named: GCC 12 and co_await temporaries
    auto c = co_await net::ws_connect(ex, url, std::move(o));
    if (!c) {
        ++st.failed;
        std::lock_guard lock(st.m);
        if (st.first_failure.empty())
            st.first_failure = c.error().message + " " + c.error().body;
        co_return;
    }
    auto session = *c;
    w.sessions.push_back(session);
    for (auto const& f : frames)
        session->send(f);
    std::size_t acks = 0;
    std::size_t const want = frames.size();
    net::ws_session::message_handler const on_message = [&](std::string_view text) {
        // Frame types by their first field, as the gateway writes them ({"type":...}).
        if (has_type(text, "orderbook")) {
            if (!w.measuring.load(std::memory_order_relaxed))
                return;
            ++w.books;
            if (auto t = book_timestamp(text))
                ++w.lag_ms[now_ms() - *t];
        } else if (has_type(text, "prices")) {
            if (w.measuring.load(std::memory_order_relaxed))
                ++w.prices;
        } else if (has_type(text, "trades")) {
            if (w.measuring.load(std::memory_order_relaxed))
                ++w.trades;
        } else if (text.find("\"type\":\"subscribed\"") != std::string_view::npos) {
            if (++acks == want)
                ++st.ready;
        } else {
            if (text.find("\"type\":\"error\"") != std::string_view::npos) {
                std::lock_guard lock(st.m);
                if (st.first_failure.empty())
                    st.first_failure = std::string(text.substr(0, 300));
            }
            if (w.measuring.load(std::memory_order_relaxed))
                ++w.other;
        }
    };
    auto served = session->run(on_message);
    auto const end = co_await std::move(served);
    if (acks < want)
        ++st.failed; // so that the process still comes to say "ready"
    if (end.by_peer) {
        ++st.closed;
        if (end.code == net::ws_code::try_again_later)
            ++st.closed_1013;
    }
}

/// Starts `n` clients on `w`, one a millisecond (a burst of thousands of handshakes would only
/// overflow the listen queue).
asio::awaitable<void> connector(worker& w, shared_state& st, std::string url,
                                std::vector<std::string> const& frames, std::string key, int n) {
    for (int i = 0; i < n; ++i) {
        // Each client reads until the end: spawned, not awaited.
        asio::co_spawn(w.ioc, client(w, st, url, frames, key), asio::detached);
        // Yield so handshakes interleave with the readers already running.
        asio::steady_timer t(w.ioc);
        t.expires_after(1ms);
        co_await t.async_wait(asio::use_awaitable);
    }
}

std::string subscribe_frame(int id, std::string const& body) {
    return R"({"id":)" + std::to_string(id) + R"(,"op":"subscribe",)" + body + "}";
}

// ---- the parent --------------------------------------------------------------------------------

/// One client process as the parent sees it.
struct child_proc {
    pid_t pid = -1;
    int to = -1;   ///< its stdin
    int from = -1; ///< its stdout
    int clients = 0;
    std::string buf;
    bool ready = false, eof = false;
    int ready_clients = 0;
    std::optional<std::string> result;
};

/// The client processes; closing their stdin makes them exit, and the destructor reaps them
/// (SIGKILL to one that has not exited 5 s later), whichever way the parent leaves.
struct children {
    std::vector<child_proc> procs;

    children() = default;
    children(children const&) = delete;
    children& operator=(children const&) = delete;
    ~children() {
        for (auto& c : procs) {
            if (c.to >= 0)
                ::close(c.to);
            if (c.from >= 0)
                ::close(c.from);
            c.to = c.from = -1;
        }
        auto const deadline = std::chrono::steady_clock::now() + 5s;
        for (auto& c : procs) {
            while (c.pid > 0) {
                int status = 0;
                auto const r = ::waitpid(c.pid, &status, WNOHANG);
                if (r == c.pid || (r < 0 && errno != EINTR)) {
                    c.pid = -1;
                } else if (std::chrono::steady_clock::now() > deadline) {
                    ::kill(c.pid, SIGKILL);
                    ::waitpid(c.pid, &status, 0);
                    c.pid = -1;
                } else {
                    std::this_thread::sleep_for(10ms);
                }
            }
        }
    }

    /// Spawns `gateway_bench ws_load_clients <args>` with pipes on its stdin and stdout, no other
    /// descriptor of ours (the gateway's sockets included); stderr stays ours.
    bool spawn(std::vector<std::string> const& args, int clients) {
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0)
            return false;
        if (::pipe2(out, O_CLOEXEC) != 0) {
            ::close(in[0]);
            ::close(in[1]);
            return false;
        }
        posix_spawn_file_actions_t fa;
        ::posix_spawn_file_actions_init(&fa);
        ::posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        ::posix_spawn_file_actions_adddup2(&fa, out[1], 1);
        ::posix_spawn_file_actions_addclosefrom_np(&fa, 3);
        std::vector<char*> argv;
        std::string name = "gateway_bench", entry = "ws_load_clients";
        argv.push_back(name.data());
        argv.push_back(entry.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_t pid = -1;
        int const rc = ::posix_spawn(&pid, "/proc/self/exe", &fa, nullptr, argv.data(), environ);
        ::posix_spawn_file_actions_destroy(&fa);
        ::close(in[0]);
        ::close(out[1]);
        if (rc != 0) {
            std::fprintf(stderr, "ws_load: posix_spawn: %s\n", std::strerror(rc));
            ::close(in[1]);
            ::close(out[0]);
            return false;
        }
        child_proc c;
        c.pid = pid;
        c.to = in[1];
        c.from = out[0];
        c.clients = clients;
        procs.push_back(std::move(c));
        return true;
    }

    void tell(std::string_view line) {
        for (auto& c : procs)
            if (c.to >= 0)
                write_all(c.to, line); // one that died gives no result, which is reported
    }

    /// Reads the children's lines until `done()` or `deadline`.
    template <class Done>
    void pump(std::chrono::steady_clock::time_point deadline, Done const& done) {
        while (!done()) {
            auto const left = deadline - std::chrono::steady_clock::now();
            if (left <= 0s)
                return;
            std::vector<pollfd> fds;
            std::vector<child_proc*> who;
            for (auto& c : procs)
                if (!c.eof) {
                    fds.push_back({c.from, POLLIN, 0});
                    who.push_back(&c);
                }
            if (fds.empty())
                return;
            auto const slice = std::min<std::chrono::milliseconds>(
                100ms, std::chrono::duration_cast<std::chrono::milliseconds>(left) + 1ms);
            if (::poll(fds.data(), fds.size(), static_cast<int>(slice.count())) <= 0)
                continue;
            for (std::size_t i = 0; i < fds.size(); ++i) {
                if (fds[i].revents == 0)
                    continue;
                auto& c = *who[i];
                char chunk[65536];
                auto const n = ::read(c.from, chunk, sizeof chunk);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0) {
                    c.eof = true;
                    continue;
                }
                c.buf.append(chunk, static_cast<std::size_t>(n));
                for (auto nl = c.buf.find('\n'); nl != std::string::npos; nl = c.buf.find('\n')) {
                    std::string line = c.buf.substr(0, nl);
                    c.buf.erase(0, nl + 1);
                    if (line.rfind("ready", 0) == 0) {
                        c.ready = true;
                        c.ready_clients = std::atoi(line.c_str() + 5);
                    } else if (line.rfind("result ", 0) == 0) {
                        c.result = std::move(line);
                    }
                }
            }
        }
    }
};

/// The `key=value` fields of a child's result line.
std::map<std::string, std::string, std::less<>> fields(std::string_view line) {
    std::map<std::string, std::string, std::less<>> out;
    while (!line.empty()) {
        auto const sp = line.find(' ');
        auto const tok = line.substr(0, sp);
        line = sp == std::string_view::npos ? std::string_view{} : line.substr(sp + 1);
        auto const eq = tok.find('=');
        if (eq != std::string_view::npos)
            out.emplace(std::string(tok.substr(0, eq)), std::string(tok.substr(eq + 1)));
    }
    return out;
}

/// Adds `<ms>:<count>,...` to `h`.
void merge(histogram& h, std::string_view text) {
    while (!text.empty()) {
        auto const comma = text.find(',');
        auto const pair = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        auto const colon = pair.find(':');
        if (colon == std::string_view::npos)
            continue;
        std::int64_t ms = 0;
        std::uint64_t n = 0;
        std::from_chars(pair.data(), pair.data() + colon, ms);
        std::from_chars(pair.data() + colon + 1, pair.data() + pair.size(), n);
        h[ms] += n;
    }
}

/// The `q` quantile of `h` (the sample at rank floor(q * (n - 1))), -1 when empty.
std::int64_t quantile(histogram const& h, std::uint64_t total, double q) {
    if (total == 0)
        return -1;
    auto const rank = static_cast<std::uint64_t>(q * static_cast<double>(total - 1));
    std::uint64_t seen = 0;
    for (auto const& [ms, n] : h) {
        seen += n;
        if (seen > rank)
            return ms;
    }
    return h.rbegin()->first;
}

} // namespace

/// The hidden entry `gateway_bench ws_load_clients <url> <key> <n> <threads> <frame>...`: one
/// client process (see the file comment). Its protocol is stdin/stdout; diagnostics on stderr.
int run_clients(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "ws_load_clients: started by gateway_bench ws_load, not by hand\n");
        return 2;
    }
    std::string const url = argv[1];
    std::string const key = argv[2];
    int const clients = std::atoi(argv[3]);
    int const threads = std::max(1, std::atoi(argv[4]));
    std::vector<std::string> const frames(argv + 5, argv + argc);
    std::signal(SIGPIPE, SIG_IGN); // a parent gone is told by EOF / EPIPE, not a signal

    auto const need = static_cast<rlim_t>(clients) + 256;
    if (auto const fds = raise_fds(need); fds < need) {
        std::fprintf(stderr,
                     "ws_load_clients: %d clients need about %llu descriptors, RLIMIT_NOFILE "
                     "allows %llu\n",
                     clients, static_cast<unsigned long long>(need),
                     static_cast<unsigned long long>(fds));
        return 2;
    }

    shared_state st;
    std::vector<std::unique_ptr<worker>> workers;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        workers.push_back(std::make_unique<worker>());
        auto& w = *workers.back();
        int const n = clients / threads + (t < clients % threads ? 1 : 0);
        asio::co_spawn(w.ioc, connector(w, st, url, frames, key, n), asio::detached);
        pool.emplace_back([&w] {
            auto guard = asio::make_work_guard(w.ioc);
            w.ioc.run();
        });
    }
    auto finish = [&] {
        for (auto& w : workers)
            asio::post(w->ioc, [&w] {
                for (auto& s : w->sessions)
                    s->close(net::ws_code::going_away);
            });
        std::this_thread::sleep_for(300ms);
        for (auto& w : workers)
            w->ioc.stop();
        for (auto& t : pool)
            t.join();
    };

    // The parent's lines, with the ready line written once every client is settled.
    bool said_ready = false;
    double cpu0 = 0;
    std::string in;
    for (;;) {
        if (!said_ready && st.ready + st.failed >= clients) {
            said_ready = true;
            if (st.ready < clients)
                std::fprintf(stderr, "ws_load_clients: %d of %d ready; first failure: %s\n",
                             st.ready.load(), clients, st.first_failure.c_str());
            if (!write_all(1, "ready " + std::to_string(st.ready.load()) + " " +
                                  std::to_string(st.failed.load()) + "\n"))
                std::_Exit(1);
        }
        pollfd p{0, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        char chunk[256];
        auto const n = ::read(0, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            std::_Exit(1); // the parent is gone (or gave up on us): nothing to report to
        in.append(chunk, static_cast<std::size_t>(n));
        for (auto nl = in.find('\n'); nl != std::string::npos; nl = in.find('\n')) {
            std::string const line = in.substr(0, nl);
            in.erase(0, nl + 1);
            if (line == "start") {
                cpu0 = process_cpu_s();
                for (auto& w : workers)
                    w->measuring = true;
            } else if (line == "stop") {
                for (auto& w : workers)
                    w->measuring = false;
                double const cpu = process_cpu_s() - cpu0;
                finish(); // after this the workers' counters are ours to read
                std::uint64_t books = 0, trades = 0, prices = 0, other = 0;
                histogram lag;
                for (auto& w : workers) {
                    books += w->books;
                    trades += w->trades;
                    prices += w->prices;
                    other += w->other;
                    for (auto const& [ms, c] : w->lag_ms)
                        lag[ms] += c;
                }
                char head[512];
                std::snprintf(head, sizeof head,
                              "result books=%llu prices=%llu trades=%llu other=%llu cpu=%.3f "
                              "ready=%d failed=%d closed=%d c1013=%d lag=",
                              static_cast<unsigned long long>(books),
                              static_cast<unsigned long long>(prices),
                              static_cast<unsigned long long>(trades),
                              static_cast<unsigned long long>(other), cpu, st.ready.load(),
                              st.failed.load(), st.closed.load(), st.closed_1013.load());
                std::string out = head;
                bool first = true;
                for (auto const& [ms, c] : lag) {
                    if (!first)
                        out += ',';
                    first = false;
                    out += std::to_string(ms) + ":" + std::to_string(c);
                }
                out += '\n';
                return write_all(1, out) ? 0 : 1;
            }
        }
    }
}

int run(int argc, char** argv) {
    int const clients = argc > 1 ? std::atoi(argv[1]) : 1000;
    int const seconds = argc > 2 ? std::atoi(argv[2]) : 10;
    int const want_symbols = argc > 3 ? std::atoi(argv[3]) : 3;
    int const threads = env_int("WS_LOAD_THREADS", 1);
    int const mark_ms = env_int("WS_LOAD_MARK_MS", 20);
    int const book_ms = env_int("WS_LOAD_BOOK_MS", 50);
    int const procs =
        std::min(clients, env_int("WS_LOAD_PROCS",
                                  (clients + clients_per_process - 1) / clients_per_process));
    if (clients < 1 || seconds < 1 || want_symbols < 1 || threads < 1 || mark_ms < 1 ||
        book_ms < 1 || procs < 1) {
        std::fprintf(stderr, "usage: gateway_bench ws_load [clients] [seconds] [symbols]\n");
        return 2;
    }
    std::signal(SIGPIPE, SIG_IGN); // a dead child's pipe: EPIPE, and it is reported missing

    // The gateway's end of each client, plus the mocks', the gateway's and the driver's few; the
    // gateway admits connections up to 3/4 of the limit.
    auto const need = static_cast<rlim_t>(clients) * 4 / 3 + 512;
    if (auto const fds = raise_fds(need); fds < need) {
        std::fprintf(
            stderr, "ws_load: %d clients need about %llu descriptors, RLIMIT_NOFILE allows %llu\n",
            clients, static_cast<unsigned long long>(need), static_cast<unsigned long long>(fds));
        return 2;
    }

    gateway::test::test_gateway gw(
        [](gateway::server::server_config& cfg) {
            cfg.providers["alpha"].options["budget"] = "100000000";
        },
        [book_ms](gateway::mocks::mock_options& m) {
            m.rate_limits = false;
            m.ws_book_interval = std::chrono::milliseconds(book_ms);
        });
    auto const key = gw.create_key(gateway::server::auth::key_env::live, 1e9);

    // The first SYMBOLS perps of alpha (the main dex), and their marks now.
    auto rest = gw.client_with(key);
    std::vector<std::string> symbols;
    for (auto const& m : rest.markets(gateway::vertical::perps, "alpha").value())
        if (m.symbol.find(':') == std::string::npos &&
            static_cast<int>(symbols.size()) < want_symbols)
            symbols.push_back(m.symbol);
    auto const marks = rest.prices("alpha").value();

    std::vector<std::string> frames;
    int id = 1;
    frames.push_back(subscribe_frame(id++, R"("channel":"prices","provider":"alpha")"));
    for (auto const& s : symbols) {
        frames.push_back(
            subscribe_frame(id++, R"("channel":"orderbook","provider":"alpha","symbol":")" + s +
                                      R"(","depth":20)"));
        frames.push_back(subscribe_frame(
            id++, R"("channel":"trades","provider":"alpha","symbol":")" + s + "\""));
    }

    double const rss_before = status_mb("VmRSS:");
    std::string const url = "ws://127.0.0.1:" + std::to_string(gw.port) + "/ws/v1/perps";
    children kids; // declared after gw: reaped before the gateway stops
    for (int p = 0; p < procs; ++p) {
        int const n = clients / procs + (p < clients % procs ? 1 : 0);
        std::vector<std::string> args{url, key, std::to_string(n), std::to_string(threads)};
        args.insert(args.end(), frames.begin(), frames.end());
        if (!kids.spawn(args, n))
            return 1;
    }

    auto const t_connect = std::chrono::steady_clock::now();
    auto const all_ready = [&] {
        return std::all_of(kids.procs.begin(), kids.procs.end(),
                           [](child_proc const& c) { return c.ready || c.eof; });
    };
    kids.pump(t_connect + 300s, all_ready);
    double const connect_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_connect).count();
    int ready = 0;
    for (auto const& c : kids.procs)
        ready += c.ready_clients;
    if (ready < clients)
        std::fprintf(stderr, "ws_load: %d of %d clients ready after %.1f s\n", ready, clients,
                     connect_s);

    double const rss_connected = status_mb("VmRSS:");

    // The mark driver: each symbol's mark steps up and down around its start.
    std::atomic<bool> driving{true};
    std::thread driver([&] {
        asio::io_context ioc;
        net::http_client http(ioc.get_executor());
        auto const base = *net::url::parse(gw.alpha->base_url());
        asio::co_spawn(
            ioc,
            [&]() -> asio::awaitable<void> {
                asio::steady_timer t(ioc);
                for (int step = 0; driving; ++step) {
                    for (auto const& s : symbols) {
                        auto const it = marks.find(s);
                        if (it == marks.end())
                            continue;
                        double const mark =
                            std::atof(it->second.str().c_str()) * (1.0 + 0.0005 * ((step % 8) - 4));
                        char price[64];
                        std::snprintf(price, sizeof price, "%.2f", mark);
                        net::http_request req{boost::beast::http::verb::post, "/__mock/mark", 11};
                        req.set(boost::beast::http::field::content_type, "application/json");
                        req.body() = R"({"symbol":")" + s + R"(","price":")" + price + R"("})";
                        req.prepare_payload();
                        co_await http.async_request(base, std::move(req));
                    }
                    t.expires_after(std::chrono::milliseconds(mark_ms));
                    co_await t.async_wait(asio::use_awaitable);
                }
            },
            asio::detached);
        ioc.run();
    });

    std::this_thread::sleep_for(1s); // the streams are flowing before the window opens
    double const cpu0 = process_cpu_s();
    auto const t0 = std::chrono::steady_clock::now();
    kids.tell("start\n");
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    kids.tell("stop\n");
    double const window_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double const cpu = process_cpu_s() - cpu0;
    double const rss_now = status_mb("VmRSS:");
    double const rss_peak = status_mb("VmHWM:");

    kids.pump(std::chrono::steady_clock::now() + 60s, [&] {
        return std::all_of(kids.procs.begin(), kids.procs.end(),
                           [](child_proc const& c) { return c.result || c.eof; });
    });
    driving = false;
    driver.join();

    std::uint64_t books = 0, trades = 0, prices = 0, other = 0;
    double client_cpu = 0;
    int closed = 0, closed_1013 = 0, failed = 0, missing = 0;
    histogram lag;
    for (auto const& c : kids.procs) {
        if (!c.result) {
            ++missing;
            failed += c.clients - c.ready_clients;
            continue;
        }
        auto const f = fields(*c.result);
        auto num = [&](char const* k) {
            auto const it = f.find(k);
            return it == f.end() ? 0ull : std::strtoull(it->second.c_str(), nullptr, 10);
        };
        books += num("books");
        trades += num("trades");
        prices += num("prices");
        other += num("other");
        closed += static_cast<int>(num("closed"));
        closed_1013 += static_cast<int>(num("c1013"));
        failed += static_cast<int>(num("failed"));
        if (auto const it = f.find("cpu"); it != f.end())
            client_cpu += std::atof(it->second.c_str());
        if (auto const it = f.find("lag"); it != f.end())
            merge(lag, it->second);
    }
    std::uint64_t samples = 0;
    for (auto const& [ms, n] : lag)
        samples += n;
    double const total = static_cast<double>(books + trades + prices + other);
    std::printf(
        "ws_load clients=%d procs=%d ready=%d symbols=%zu subs/client=%zu "
        "threads/proc=%d mark_ms=%d book_ms=%d window=%.1fs connect=%.1fs | delivered %.0f msg/s "
        "(books %.0f, prices %.0f, trades %.0f, other %.0f) | book lag p50 %lld ms p99 "
        "%lld ms (n=%llu) | gateway RSS %.0f MB peak %.0f MB (%.0f before clients, %.0f "
        "connected) | CPU "
        "gateway+mocks+driver %.0f%% clients %.0f%% | closed %d (1013: %d) failed %d "
        "lost procs %d\n",
        clients, procs, ready, symbols.size(), frames.size(), threads, mark_ms, book_ms, window_s,
        connect_s, total / window_s, static_cast<double>(books) / window_s,
        static_cast<double>(prices) / window_s, static_cast<double>(trades) / window_s,
        static_cast<double>(other) / window_s, static_cast<long long>(quantile(lag, samples, 0.5)),
        static_cast<long long>(quantile(lag, samples, 0.99)),
        static_cast<unsigned long long>(samples), rss_now, rss_peak, rss_before, rss_connected,
        100.0 * cpu / window_s, 100.0 * client_cpu / window_s, closed, closed_1013, failed,
        missing);
    return missing == 0 ? 0 : 1;
}

} // namespace gateway_bench::ws_load
