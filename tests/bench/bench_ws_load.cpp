// Benchmark (not a test): /ws/v1/perps under N clients subscribed to the same streams.
//
//   build/tests/gateway_bench ws_load [clients=1000] [seconds=10] [symbols=3]
//
// Starts the mocks and gatewayd in this process (test_gateway), then opens CLIENTS raw WebSocket
// clients (net::ws_connect, many per thread on WS_LOAD_THREADS io_context threads, default 2),
// each subscribed to alpha's `prices` and, for the first SYMBOLS perps of alpha, `orderbook`
// (depth 20) and `trades`: every client the same streams, so the gateway holds one upstream
// subscription per stream and fans each frame out CLIENTS times. A driver moves the marks of
// those symbols on mock-alpha every WS_LOAD_MARK_MS (default 20 ms), which changes allMids and
// the books upstream. Once every client has its acks the counters start; after SECONDS it prints
// one line:
// - delivered: data frames received by all clients per second (and per channel);
// - lag p50/p99: for `orderbook` frames, client receipt (system clock) minus the book's
//   `timestamp`, which is mock-alpha's l2Book `time`, stamped when the mock builds the upstream
//   frame: so upstream frame -> gateway (parse, throttle to <= 10 books/s, serialise once) ->
//   fan-out -> client, in ms resolution. It includes the gateway's book throttle (a changed book
//   waits up to 100 ms for its slot, by design). `prices` carries no time and is not sampled.
// - RSS (VmRSS now, VmHWM peak; before the clients connected in brackets) and CPU of the
//   process, split into the client threads (CLOCK_THREAD_CPUTIME_ID) and the rest (gatewayd and
//   the mocks), in % of one core over the window. The clients live in the same process, so the
//   RSS includes their sockets and buffers too.
// - closed: clients the gateway closed (1013 = too slow) and failed connects.
// Raises RLIMIT_NOFILE (hard too, when allowed): each client costs two descriptors here.
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
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace gateway_bench::ws_load {

namespace {

namespace asio = boost::asio;
namespace net = gateway::net;
using namespace std::chrono_literals;

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

double process_cpu_s() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double thread_cpu_s() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

/// The first `"timestamp":<digits>` of a frame, without parsing the JSON.
std::optional<std::int64_t> first_timestamp(std::string_view text) {
    constexpr std::string_view key = "\"timestamp\":";
    auto const at = text.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::int64_t v = 0;
    auto const* b = text.data() + at + key.size();
    auto [p, ec] = std::from_chars(b, text.data() + text.size(), v);
    if (ec != std::errc())
        return std::nullopt;
    return v;
}

/// One client thread: its io_context, counters and lag samples (touched by that thread only,
/// read after it stopped, except the atomics).
struct worker {
    asio::io_context ioc{1};
    std::atomic<bool> measuring{false};
    std::uint64_t books = 0, trades = 0, prices = 0, other = 0;
    std::vector<std::int32_t> lag_ms;
    double cpu_start = 0, cpu_end = 0;
    std::atomic<bool> sample_cpu{false};
    std::vector<std::shared_ptr<net::ws_session>> sessions;
};

struct shared_state {
    std::atomic<int> ready{0};
    std::atomic<int> failed{0};
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
        if (text.find("\"type\":\"orderbook\"") != std::string_view::npos) {
            if (!w.measuring.load(std::memory_order_relaxed))
                return;
            ++w.books;
            if (auto t = first_timestamp(text))
                w.lag_ms.push_back(static_cast<std::int32_t>(now_ms() - *t));
        } else if (text.find("\"type\":\"prices\"") != std::string_view::npos) {
            if (w.measuring.load(std::memory_order_relaxed))
                ++w.prices;
        } else if (text.find("\"type\":\"trades\"") != std::string_view::npos) {
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

} // namespace

int run(int argc, char** argv) {
    int const clients = argc > 1 ? std::atoi(argv[1]) : 1000;
    int const seconds = argc > 2 ? std::atoi(argv[2]) : 10;
    int const want_symbols = argc > 3 ? std::atoi(argv[3]) : 3;
    int const threads =
        std::getenv("WS_LOAD_THREADS") ? std::atoi(std::getenv("WS_LOAD_THREADS")) : 2;
    int const mark_ms =
        std::getenv("WS_LOAD_MARK_MS") ? std::atoi(std::getenv("WS_LOAD_MARK_MS")) : 20;
    if (clients < 1 || seconds < 1 || want_symbols < 1 || threads < 1 || mark_ms < 1) {
        std::fprintf(stderr, "usage: gateway_bench ws_load [clients] [seconds] [symbols]\n");
        return 2;
    }

    // Two descriptors per client (both ends live here), plus the mocks', the gateway's and the
    // driver's few; the gateway caps its connections at 3/4 of the limit, which 2 per client
    // stays under.
    rlimit rl{};
    ::getrlimit(RLIMIT_NOFILE, &rl);
    rlim_t const need = static_cast<rlim_t>(clients) * 2 + 512;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
        rlimit raised{need, need};
        ::setrlimit(RLIMIT_NOFILE, &raised); // root only; else the check below says so
    }
    auto const fds = net::raise_open_file_limit();
    if (fds < need) {
        std::fprintf(
            stderr, "ws_load: %d clients need about %llu descriptors, RLIMIT_NOFILE allows %llu\n",
            clients, static_cast<unsigned long long>(need), static_cast<unsigned long long>(fds));
        return 2;
    }

    gateway::test::test_gateway gw(
        [](gateway::server::server_config& cfg) {
            cfg.providers["alpha"].options["budget"] = "100000000";
        },
        [](gateway::mocks::mock_options& m) {
            m.rate_limits = false;
            m.ws_book_interval = 50ms;
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
            while (!w.ioc.stopped()) {
                w.ioc.run_for(50ms);
                if (w.sample_cpu.exchange(false)) {
                    if (w.cpu_start == 0)
                        w.cpu_start = thread_cpu_s();
                    else
                        w.cpu_end = thread_cpu_s();
                }
            }
        });
    }

    auto const t_connect = std::chrono::steady_clock::now();
    while (st.ready + st.failed < clients && std::chrono::steady_clock::now() - t_connect < 300s)
        std::this_thread::sleep_for(100ms);
    double const connect_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_connect).count();
    if (st.ready < clients)
        std::fprintf(stderr, "ws_load: %d of %d clients ready after %.1f s; first failure: %s\n",
                     st.ready.load(), clients, connect_s, st.first_failure.c_str());

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
    for (auto& w : workers) {
        w->measuring = true;
        w->sample_cpu = true;
    }
    double const cpu0 = process_cpu_s();
    auto const t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    for (auto& w : workers) {
        w->measuring = false;
        w->sample_cpu = true;
    }
    double const window_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double const cpu1 = process_cpu_s();
    double const rss_now = status_mb("VmRSS:");
    double const rss_peak = status_mb("VmHWM:");
    std::this_thread::sleep_for(200ms); // the workers take their CPU sample

    driving = false;
    driver.join();
    for (auto& w : workers)
        asio::post(w->ioc, [&w] {
            for (auto& s : w->sessions)
                s->close(net::ws_code::going_away);
        });
    std::this_thread::sleep_for(500ms);
    for (auto& w : workers)
        w->ioc.stop();
    for (auto& t : pool)
        t.join();

    std::uint64_t books = 0, trades = 0, prices = 0, other = 0;
    double client_cpu = 0;
    std::vector<std::int32_t> lag;
    for (auto& w : workers) {
        books += w->books;
        trades += w->trades;
        prices += w->prices;
        other += w->other;
        client_cpu += std::max(0.0, w->cpu_end - w->cpu_start);
        lag.insert(lag.end(), w->lag_ms.begin(), w->lag_ms.end());
    }
    std::sort(lag.begin(), lag.end());
    auto pct = [&](double q) {
        return lag.empty() ? -1
                           : lag[static_cast<std::size_t>(q * static_cast<double>(lag.size() - 1))];
    };
    double const total = static_cast<double>(books + trades + prices + other);
    double const cpu = cpu1 - cpu0;
    std::printf("ws_load clients=%d ready=%d symbols=%zu subs/client=%zu threads=%d mark_ms=%d "
                "window=%.1fs connect=%.1fs | delivered %.0f msg/s (books %.0f, prices %.0f, "
                "trades %.0f, other %.0f) | book lag p50 %d ms p99 %d ms (n=%zu) | RSS %.0f MB "
                "peak %.0f MB (%.0f before clients) | CPU gateway+mocks %.0f%% clients %.0f%% | "
                "closed %d (1013: %d) failed %d\n",
                clients, st.ready.load(), symbols.size(), frames.size(), threads, mark_ms, window_s,
                connect_s, total / window_s, books / window_s, prices / window_s, trades / window_s,
                other / window_s, pct(0.5), pct(0.99), lag.size(), rss_now, rss_peak, rss_before,
                100.0 * (cpu - client_cpu) / window_s, 100.0 * client_cpu / window_s,
                st.closed.load(), st.closed_1013.load(), st.failed.load());
    return 0;
}

} // namespace gateway_bench::ws_load
