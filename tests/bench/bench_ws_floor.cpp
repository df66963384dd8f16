// Benchmark (not a test): the floor under ws_load, what this machine's kernel alone costs to
// fan one frame out to N loopback TCP clients, with no WebSocket, JSON or gateway in the way.
//
//   build/tests/gateway_bench ws_floor [clients=10000] [seconds=10] [bytes=6000] [rounds/s=10]
//
// This process accepts CLIENTS connections from P forked client processes (P = ceil(CLIENTS /
// 4000), as ws_load) and, ROUNDS times a second, writes one BYTES-long message to every client
// with plain non-blocking send(2) from WS_FLOOR_THREADS threads (default 2, the gateway's I/O
// threads), each thread its share of the sockets. A message starts with the round's start time
// (CLOCK_MONOTONIC, shared by the processes); a client process reads with epoll into one buffer
// and records, per message, its arrival minus that time: the lag a perfect server would add to
// an upstream frame that arrived at the start of the round. A message the socket cannot take
// whole is counted as dropped (a real server would queue it). The summary line: messages
// delivered per second, lag p50/p99 (0.1 ms buckets), the median time to issue one round's
// writes, CPU of this process and the clients in % of one core.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace gateway_bench::ws_floor {

namespace {

constexpr int clients_per_process = 4000;

std::int64_t mono_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

double cpu_s(int who) {
    rusage u{};
    ::getrusage(who, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// Moves all `size` bytes with `op` (read or write) on a pipe; false if the other end is gone.
template <class Op, class Byte>
bool transfer_all(Op op, int fd, Byte* p, std::size_t size) {
    while (size > 0) {
        auto const n = op(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool write_all(int fd, void const* data, std::size_t size) {
    return transfer_all(::write, fd, static_cast<char const*>(data), size);
}

bool read_all(int fd, void* data, std::size_t size) {
    return transfer_all(::read, fd, static_cast<char*>(data), size);
}

/// One client process: connects `n` sockets to `port`, says so on `report`, then reads until
/// `stop` becomes readable, and writes its messages, CPU seconds and lag histogram (0.1 ms
/// buckets) to `report`.
[[noreturn]] void client_process(unsigned short port, int n, std::size_t bytes, int report,
                                 int stop) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    int const ep = ::epoll_create1(0);
    struct conn {
        int fd = -1;
        std::size_t at = 0; ///< bytes of the current message read so far
        std::int64_t stamp = 0;
        unsigned char head[8]{};
    };
    std::vector<conn> conns(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        int const s = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        int const rc = ::connect(s, reinterpret_cast<sockaddr const*>(&a), sizeof a);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd p{s, POLLOUT, 0};
            ::poll(&p, 1, 10'000);
        } else if (rc != 0) {
            std::_Exit(3);
        }
        conns[static_cast<std::size_t>(i)].fd = s;
        epoll_event e{};
        e.events = EPOLLIN;
        e.data.u64 = static_cast<std::uint64_t>(i);
        ::epoll_ctl(ep, EPOLL_CTL_ADD, s, &e);
    }
    epoll_event stop_ev{};
    stop_ev.events = EPOLLIN;
    stop_ev.data.u64 = ~std::uint64_t{0};
    ::epoll_ctl(ep, EPOLL_CTL_ADD, stop, &stop_ev);
    char const ready = 'r';
    if (!write_all(report, &ready, 1))
        std::_Exit(1);

    double const cpu0 = cpu_s(RUSAGE_SELF);
    std::map<std::int64_t, std::uint64_t> lag; // 0.1 ms -> messages
    std::uint64_t messages = 0;
    std::vector<unsigned char> buf(std::size_t{64} * 1024);
    std::vector<epoll_event> evs(512);
    for (bool running = true; running;) {
        int const k = ::epoll_wait(ep, evs.data(), static_cast<int>(evs.size()), -1);
        for (int e = 0; e < k; ++e) {
            if (evs[static_cast<std::size_t>(e)].data.u64 == ~std::uint64_t{0}) {
                running = false;
                continue;
            }
            auto& c = conns[evs[static_cast<std::size_t>(e)].data.u64];
            auto const got = ::read(c.fd, buf.data(), buf.size());
            if (got <= 0)
                continue;
            std::int64_t const now = mono_ns();
            for (std::size_t i = 0; i < static_cast<std::size_t>(got); ++i) {
                if (c.at < sizeof c.head)
                    c.head[c.at] = buf[i];
                if (++c.at == sizeof c.head)
                    std::memcpy(&c.stamp, c.head, sizeof c.stamp);
                if (c.at == bytes) { // the message is whole: its lag
                    ++messages;
                    ++lag[(now - c.stamp) / 100'000];
                    c.at = 0;
                }
                // The middle of a message carries nothing: skip to its last byte or the end.
                if (c.at >= sizeof c.head && c.at < bytes) {
                    std::size_t const skip =
                        std::min(bytes - c.at - 1, static_cast<std::size_t>(got) - i - 1);
                    i += skip;
                    c.at += skip;
                }
            }
        }
    }
    double const cpu = cpu_s(RUSAGE_SELF) - cpu0;
    std::uint64_t const buckets = lag.size();
    bool ok = write_all(report, &messages, sizeof messages) &&
              write_all(report, &cpu, sizeof cpu) && write_all(report, &buckets, sizeof buckets);
    for (auto const& [b, count] : lag)
        ok = ok && write_all(report, &b, sizeof b) && write_all(report, &count, sizeof count);
    std::_Exit(ok ? 0 : 1);
}

} // namespace

int run(int argc, char** argv) {
    int const clients = argc > 1 ? std::atoi(argv[1]) : 10000;
    int const seconds = argc > 2 ? std::atoi(argv[2]) : 10;
    auto const bytes = static_cast<std::size_t>(argc > 3 ? std::atoi(argv[3]) : 6000);
    int const rate = argc > 4 ? std::atoi(argv[4]) : 10;
    char const* t = std::getenv("WS_FLOOR_THREADS");
    int const threads = t ? std::atoi(t) : 2;
    if (clients < 1 || seconds < 1 || bytes < 8 || rate < 1 || threads < 1) {
        std::fprintf(stderr,
                     "usage: gateway_bench ws_floor [clients] [seconds] [bytes] [rounds/s]\n");
        return 2;
    }
    std::signal(SIGPIPE, SIG_IGN);
    auto const need = static_cast<rlim_t>(clients) + 256;
    rlimit rl{need, need};
    ::setrlimit(RLIMIT_NOFILE, &rl); // each process needs its own share; root may raise both

    int const ls = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(ls, reinterpret_cast<sockaddr const*>(&a), sizeof a) != 0 ||
        ::listen(ls, 4096) != 0 || ::getsockname(ls, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
        std::perror("ws_floor: listen");
        return 1;
    }
    unsigned short const port = ntohs(a.sin_port);

    // The client processes, forked before any thread exists.
    int const procs = (clients + clients_per_process - 1) / clients_per_process;
    int stop[2];
    if (::pipe(stop) != 0)
        return 1;
    struct child {
        pid_t pid;
        int report;
    };
    std::vector<child> kids;
    for (int p = 0; p < procs; ++p) {
        int const n = clients / procs + (p < clients % procs ? 1 : 0);
        int rep[2];
        if (::pipe(rep) != 0)
            return 1;
        pid_t const pid = ::fork();
        if (pid == 0) {
            ::close(ls);
            ::close(stop[1]);
            ::close(rep[0]);
            client_process(port, n, bytes, rep[1], stop[0]);
        }
        ::close(rep[1]);
        kids.push_back({pid, rep[0]});
    }
    ::close(stop[0]);

    std::vector<int> socks;
    socks.reserve(static_cast<std::size_t>(clients));
    for (int i = 0; i < clients; ++i) {
        int const s = ::accept(ls, nullptr, nullptr);
        if (s < 0) {
            std::perror("ws_floor: accept");
            return 1;
        }
        int one = 1;
        ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ::fcntl(s, F_SETFL, ::fcntl(s, F_GETFL) | O_NONBLOCK);
        socks.push_back(s);
    }
    for (auto const& k : kids) {
        char r = 0;
        if (!read_all(k.report, &r, 1))
            return 1;
    }

    // The rounds: every thread waits for the round's start, then writes to its share.
    std::vector<unsigned char> message(bytes, 'x');
    std::atomic<std::int64_t> round_start{0};
    std::atomic<int> round{0};
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> dropped{0};
    std::vector<std::atomic<std::int64_t>> finished(static_cast<std::size_t>(threads));
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads));
    for (int th = 0; th < threads; ++th)
        pool.emplace_back([&, th] {
            std::vector<unsigned char> m = message;
            for (int seen = 0;;) {
                round.wait(seen, std::memory_order_acquire); // asleep between rounds
                if (done)
                    return;
                seen = round.load(std::memory_order_acquire);
                std::int64_t const stamp = round_start.load();
                std::memcpy(m.data(), &stamp, sizeof stamp);
                for (std::size_t i = static_cast<std::size_t>(th); i < socks.size();
                     i += static_cast<std::size_t>(threads)) {
                    auto const n = ::send(socks[i], m.data(), m.size(), 0);
                    if (n != static_cast<ssize_t>(m.size()))
                        ++dropped; // a real server would queue it; counted, never split here
                }
                finished[static_cast<std::size_t>(th)] = mono_ns();
            }
        });

    std::vector<double> issue_ms;
    double const cpu0 = cpu_s(RUSAGE_SELF);
    std::int64_t const t0 = mono_ns();
    std::int64_t const period = 1'000'000'000 / rate;
    for (int r = 1; r <= seconds * rate; ++r) {
        std::int64_t const at = t0 + static_cast<std::int64_t>(r - 1) * period;
        while (mono_ns() < at)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        round_start = mono_ns();
        round.store(r, std::memory_order_release);
        round.notify_all();
        // The round's writes are issued when every thread has finished its share.
        while (std::any_of(finished.begin(), finished.end(),
                           [&](auto const& f) { return f.load() < round_start.load(); }))
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        std::int64_t last = 0;
        for (auto const& f : finished)
            last = std::max(last, f.load());
        issue_ms.push_back(static_cast<double>(last - round_start.load()) / 1e6);
    }
    double const window_s = static_cast<double>(mono_ns() - t0) / 1e9;
    double const cpu = cpu_s(RUSAGE_SELF) - cpu0;
    done = true;
    round.fetch_add(1);
    round.notify_all();
    for (auto& p : pool)
        p.join();
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the last round lands
    ::close(stop[1]);

    std::uint64_t messages = 0;
    double client_cpu = 0;
    std::map<std::int64_t, std::uint64_t> lag;
    for (auto const& k : kids) {
        std::uint64_t m = 0, buckets = 0;
        double c = 0;
        if (!read_all(k.report, &m, sizeof m) || !read_all(k.report, &c, sizeof c) ||
            !read_all(k.report, &buckets, sizeof buckets))
            return 1;
        messages += m;
        client_cpu += c;
        for (std::uint64_t b = 0; b < buckets; ++b) {
            std::int64_t at = 0;
            std::uint64_t count = 0;
            if (!read_all(k.report, &at, sizeof at) || !read_all(k.report, &count, sizeof count))
                return 1;
            lag[at] += count;
        }
        ::waitpid(k.pid, nullptr, 0);
    }
    auto quantile = [&](double q) {
        auto const rank = static_cast<std::uint64_t>(q * static_cast<double>(messages - 1));
        std::uint64_t seen = 0;
        for (auto const& [b, count] : lag) {
            seen += count;
            if (seen > rank)
                return static_cast<double>(b) / 10.0;
        }
        return -1.0;
    };
    std::sort(issue_ms.begin(), issue_ms.end());
    std::printf(
        "ws_floor clients=%d procs=%d threads=%d bytes=%zu rounds/s=%d window=%.1fs | "
        "delivered %.0f msg/s, dropped %llu | lag p50 %.1f ms p99 %.1f ms | one round's "
        "writes issued in %.1f ms (median) | CPU server %.0f%% clients %.0f%%\n",
        clients, procs, threads, bytes, rate, window_s, static_cast<double>(messages) / window_s,
        static_cast<unsigned long long>(dropped.load()), quantile(0.5), quantile(0.99),
        issue_ms[issue_ms.size() / 2], 100.0 * cpu / window_s, 100.0 * client_cpu / window_s);
    return 0;
}

} // namespace gateway_bench::ws_floor
