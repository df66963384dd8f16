#include "run_cli.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/system/system_error.hpp>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include <pthread.h>

namespace gateway::mocks {

namespace {

void usage(std::ostream& out, std::string const& name) {
    out << "usage: " << name << " [--listen HOST:PORT] [--testnet] [--seed N] [--threads N]\n"
        << "  Mock " << name.substr(5) << " upstream for offline tests and demos.\n"
        << "  --listen HOST:PORT  address to bind (default 127.0.0.1:0, a free port;\n"
        << "                      IPv6 as [::1]:PORT)\n"
        << "  --testnet           serve the testnet flavour\n"
        << "  --seed N            seed of the simulated markets (default 42)\n"
        << "  --threads N         io_context threads (default 1)\n"
        << "  --approve-signer A  beta: approve API wallet A (0x + 40 hex) for every account\n"
        << "  --help              this text\n"
        << "Runs until SIGINT or SIGTERM. Control API: /__mock/faults, /__mock/stats,\n"
        << "/__mock/mark (CONTRACT §10).\n";
}

template <class Int>
std::optional<Int> parse_number(std::string_view s) {
    Int v{};
    auto const [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc{} || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

/// "HOST:PORT" or "[V6]:PORT".
bool parse_listen(std::string_view text, mock_options& o) {
    std::string_view host, port;
    if (!text.empty() && text.front() == '[') {
        auto const close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return false;
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        auto const colon = text.rfind(':');
        if (colon == std::string_view::npos)
            return false;
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    auto const p = parse_number<std::uint16_t>(port);
    if (host.empty() || !p)
        return false;
    o.host = std::string(host);
    o.port = *p;
    return true;
}

} // namespace

int run_cli(upstream kind, int argc, char** argv) {
    std::string const name = std::string("mock-") + to_string(kind);
    mock_options o{kind};
    for (int i = 1; i < argc; ++i) {
        std::string_view const arg = argv[i];
        auto value = [&]() -> std::optional<std::string_view> {
            if (i + 1 >= argc)
                return std::nullopt;
            return std::string_view(argv[++i]);
        };
        if (arg == "--help" || arg == "-h") {
            usage(std::cout, name);
            return 0;
        }
        if (arg == "--testnet") {
            o.testnet = true;
        } else if (arg == "--listen") {
            auto const v = value();
            if (!v || !parse_listen(*v, o)) {
                std::cerr << name << ": --listen needs HOST:PORT\n";
                return 2;
            }
        } else if (arg == "--seed") {
            auto const v = value();
            auto const n = v ? parse_number<std::uint64_t>(*v) : std::nullopt;
            if (!n) {
                std::cerr << name << ": --seed needs a non-negative integer\n";
                return 2;
            }
            o.seed = *n;
        } else if (arg == "--threads") {
            auto const v = value();
            auto const n = v ? parse_number<unsigned>(*v) : std::nullopt;
            if (!n || *n == 0 || *n > 64) {
                std::cerr << name << ": --threads needs an integer from 1 to 64\n";
                return 2;
            }
            o.threads = *n;
        } else if (arg == "--approve-signer" && kind == upstream::beta) {
            auto const v = value();
            if (!v || v->size() != 42 || v->substr(0, 2) != "0x") {
                std::cerr << name << ": --approve-signer needs 0x followed by 40 hex digits\n";
                return 2;
            }
            o.approve_signer_for_all = std::string(*v);
        } else {
            std::cerr << name << ": unknown argument '" << arg << "'\n";
            usage(std::cerr, name);
            return 2;
        }
    }

    // Block the stop signals before any thread starts, so every thread inherits the mask and
    // only sigwait below sees them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    net::raise_open_file_limit(); // connections need descriptors; see http_server.hpp

    std::unique_ptr<mock_server> server;
    try {
        server = mock_server::start(o);
    } catch (std::exception const& e) {
        std::cerr << name << ": cannot listen on " << o.host << ":" << o.port << ": " << e.what()
                  << "\n";
        return 1;
    }
    std::cout << name << " listening on " << server->base_url() << std::endl;

    int sig = 0;
    sigwait(&stop_signals, &sig);
    server->stop();
    std::cerr << name << ": stopped (signal " << sig << ")\n";
    return 0;
}

} // namespace gateway::mocks
