// Prints BTC's live order book (top of book) and a wallet's fills on alpha and beta, all through
// one WebSocket connection to the gateway (`/ws/v1/perps`), until SECONDS have passed or Ctrl-C.
//
//   live_book API_KEY [BASE_URL] [WALLET] [SECONDS]
//
// BASE_URL defaults to $GATEWAY_URL or http://127.0.0.1:8080 (scripts/serve.sh prints the URL
// and a key); API_KEY may also come from $GATEWAY_API_KEY; WALLET (0x + 40 hex) from
// $GATEWAY_WALLET, else a demo address; SECONDS defaults to 30, 0 runs until Ctrl-C. Place an
// order for the wallet (examples/alpha_trading) meanwhile and its fill shows up here.
//
// The client reconnects by itself when the connection drops and subscribes again; statuses
// (stale / reconnecting / restored) and order-book gaps are printed to stderr. Exit code 0, or
// 1 when the gateway refused the connection or a subscription.
#include <gateway/stream/client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace gs = gateway::stream;

std::string arg_or_env(int argc, char** argv, int i, char const* env, std::string fallback) {
    if (argc > i && argv[i][0] != '\0')
        return argv[i];
    if (char const* v = std::getenv(env); v && *v)
        return v;
    return fallback;
}

void print_error(std::string_view what, gateway::api_error const& e) {
    std::cerr << what << ": " << e.wire() << ": " << e.message << "\n";
}

} // namespace

int main(int argc, char** argv) {
    std::string const key = arg_or_env(argc, argv, 1, "GATEWAY_API_KEY", "");
    if (key.empty()) {
        std::cerr << "usage: live_book API_KEY [BASE_URL] [WALLET] [SECONDS]\n";
        return 1;
    }
    std::string const url = arg_or_env(argc, argv, 2, "GATEWAY_URL", "http://127.0.0.1:8080");
    std::string const wallet =
        arg_or_env(argc, argv, 3, "GATEWAY_WALLET", "0x1111111111111111111111111111111111111111");
    int const seconds = argc > 4 ? std::atoi(argv[4]) : 30;

    asio::io_context ioc;
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    asio::steady_timer deadline(ioc);
    int exit_code = 0;

    gs::stream_handlers on;
    on.book = [](gs::subscription const& s, gateway::orderbook const& b, std::uint64_t seq) {
        std::cout << s.provider << " " << b.symbol << "  bid ";
        if (b.bids.empty())
            std::cout << "-";
        else
            std::cout << b.bids.front().price.str() << " x " << b.bids.front().size.str();
        std::cout << "  |  ask ";
        if (b.asks.empty())
            std::cout << "-";
        else
            std::cout << b.asks.front().price.str() << " x " << b.asks.front().size.str();
        std::cout << "  (seq " << seq << ")\n";
    };
    on.fills = [](gs::subscription const& s, std::vector<gateway::fill> const& fills) {
        for (auto const& f : fills)
            std::cout << s.provider << " FILL " << f.symbol << " " << to_string(f.side) << " "
                      << f.size.str() << " @ " << f.price.str() << "  fee " << f.fee.str() << " "
                      << f.fee_asset << "  order " << f.order_id << "\n";
    };
    on.status = [](gs::status_event const& e) {
        std::cerr << e.sub.provider << " " << to_string(e.sub.channel) << ": "
                  << to_string(e.status) << (e.local ? " (this connection)" : "") << ": "
                  << e.message << "\n";
    };
    on.gap = [](gs::subscription const& s, std::uint64_t expected, std::uint64_t got) {
        std::cerr << s.provider << " " << s.symbol << ": book frames " << expected << ".."
                  << got - 1 << " lost; the next book is whole anyway\n";
    };
    on.error = [](boost::json::value const&, gateway::api_error const& e) {
        print_error("stream error", e);
    };
    // The client stopped by itself (the key was revoked while reconnecting, say): so do we.
    on.closed = [&](std::optional<gateway::api_error> const& why) {
        if (why)
            exit_code = 1;
        signals.cancel();
        deadline.cancel();
    };

    gs::client_options options;
    options.url = url;
    options.api_key = key;
    auto client = gs::stream_client::create(ioc.get_executor(), options, on);
    if (!client) {
        print_error("client", client.error());
        return 1;
    }

    auto stop = [&] {
        client->close();
        signals.cancel();
        deadline.cancel();
    };
    signals.async_wait([&](boost::system::error_code ec, int) {
        if (!ec)
            stop();
    });
    if (seconds > 0) {
        deadline.expires_after(std::chrono::seconds(seconds));
        deadline.async_wait([&](boost::system::error_code ec) {
            if (!ec)
                stop();
        });
    }

    asio::co_spawn(
        ioc,
        [&]() -> asio::awaitable<void> {
            if (auto ok = co_await client->connect(); !ok) {
                print_error("connect", ok.error());
                exit_code = 1;
                stop();
                co_return;
            }
            for (char const* provider : {"alpha", "beta"}) {
                gs::subscription book;
                book.channel = gs::channel::orderbook;
                book.provider = provider;
                book.symbol = "BTC";
                book.depth = 5;
                gs::subscription fills;
                fills.channel = gs::channel::fills;
                fills.provider = provider;
                fills.address = wallet;
                std::vector<gs::subscription> const subs{book, fills};
                for (auto const& s : subs) {
                    auto ack = co_await client->subscribe(s);
                    if (!ack) {
                        print_error(std::string(provider) + " " + std::string(to_string(s.channel)),
                                    ack.error());
                        exit_code = 1;
                        stop();
                        co_return;
                    }
                }
            }
            std::cerr << "subscribed to BTC's book and " << wallet
                      << "'s fills on alpha and beta; Ctrl-C to stop\n";
        },
        asio::detached);

    ioc.run();
    return exit_code;
}
