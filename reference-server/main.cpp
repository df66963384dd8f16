// gatewayd: the reference gateway server.
//
//   gatewayd [serve] [--listen HOST:PORT] [--data-dir DIR] [--config FILE] [options]
//   gatewayd accounts create --email E                       (password on stdin)
//   gatewayd keys create|list|revoke --email E [...]          (see admin_cli.hpp)
//
// With no upstream configured it embeds the mock upstreams (see embedded.hpp). Exceptions are
// caught here, at the process edge, and turned into a message and exit code 1.
#include "admin_cli.hpp"
#include "app.hpp"
#include "auth/demo.hpp"
#include "config.hpp"
#include "embedded.hpp"
#include "private_dirs.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>

namespace {

void print_help() {
    std::cout
        << "Usage: gatewayd [serve] [options]\n"
           "       gatewayd accounts create --email E [--data-dir D]   (password on stdin)\n"
           "       gatewayd keys create --email E --env live|test [--name N]\n"
           "                            [--expires-in 90s|12h|30d] [--rate R/s] [--data-dir D]\n"
           "       gatewayd keys list --email E [--data-dir D]\n"
           "       gatewayd keys revoke --email E --id N [--data-dir D]\n\n"
           "Runs the gateway. With no upstream address configured, the alpha, beta and\n"
           "gamma mock upstreams are started in-process on loopback.\n\n"
           "Options (each also settable by environment variable or config file key):\n"
           "  --config FILE                 JSON config file\n"
        << gateway::server::describe_settings() << "  --help                        this text\n";
}

} // namespace

int main(int argc, char** argv) {
    try {
        if (argc > 1 && (std::string(argv[1]) == "accounts" || std::string(argv[1]) == "keys"))
            return gateway::server::run_admin_command(
                std::vector<std::string>(argv + 1, argv + argc), std::cin, std::cout, std::cerr);
        std::map<std::string, std::string> flags;
        std::string command = "serve";
        for (int i = 1; i < argc; ++i) {
            std::string arg = argv[i];
            if (arg == "--help" || arg == "-h") {
                print_help();
                return 0;
            }
            if (i == 1 && arg.rfind("--", 0) != 0) {
                command = arg;
                continue;
            }
            if (arg.rfind("--", 0) != 0) {
                std::cerr << "gatewayd: unexpected argument '" << arg << "' (see --help)\n";
                return 2;
            }
            arg = arg.substr(2);
            if (auto eq = arg.find('='); eq != std::string::npos) {
                flags[arg.substr(0, eq)] = arg.substr(eq + 1);
            } else if (i + 1 < argc) {
                flags[arg] = argv[++i];
            } else {
                std::cerr << "gatewayd: option --" << arg << " needs a value\n";
                return 2;
            }
        }
        if (command != "serve") {
            std::cerr << "gatewayd: unknown command '" << command << "' (see --help)\n";
            return 2;
        }
        // Connections need descriptors: the soft limit is raised to the hard one before any
        // server listens (the embedded mocks included); see net::raise_open_file_limit.
        gateway::net::raise_open_file_limit();
        std::optional<std::string> config_file;
        if (auto it = flags.find("config"); it != flags.end())
            config_file = it->second;
        else if (auto env = gateway::server::process_environment()("GATEWAY_CONFIG"))
            config_file = *env;
        auto cfg = gateway::server::load_config(config_file, gateway::server::process_environment(),
                                                flags);
        if (!cfg) {
            std::cerr << "gatewayd: " << cfg.error() << "\n";
            return 2;
        }
        // Registered before anything starts: a SIGTERM during start-up (the embedded mocks, the
        // demo key) is queued and then finishes the server gracefully instead of killing the
        // process with the default action.
        boost::asio::io_context signals_ioc;
        boost::asio::signal_set signals(signals_ioc, SIGINT, SIGTERM);

        std::unique_ptr<gateway::server::embedded_upstreams> embedded;
        if (cfg->no_upstream_configured()) {
            embedded = gateway::server::embedded_upstreams::start(*cfg);
            std::cerr << "gatewayd: no upstream configured; using the embedded mock upstreams\n";
        } else if (auto missing = cfg->incomplete_providers(); !missing.empty()) {
            std::cerr << "gatewayd: upstream addresses missing for:";
            for (auto const& m : missing)
                std::cerr << " " << m;
            std::cerr << " (configure every provider, or none for the embedded mocks)\n";
            return 2;
        }
        gateway::server::create_private_directories(cfg->data_dir); // 0700, whatever the umask

        gateway::server::gateway_app app(*cfg);
        auto const ep = app.start();
        std::cout << "gatewayd listening on http://" << ep.address().to_string() << ":" << ep.port()
                  << std::endl;
        if (embedded) {
            // The embedded default is a demo: a ready key (the previous one is revoked).
            auto demo = gateway::server::auth::ensure_demo_key(app.accounts());
            if (demo)
                std::cout << "gatewayd demo API key (embedded default): " << demo->key << std::endl;
            else
                std::cerr << "gatewayd: no demo key: " << demo.error().message << "\n";
        }

        signals.async_wait([&](boost::system::error_code const&, int sig) {
            std::cerr << "gatewayd: signal " << sig << ", finishing in-flight requests\n";
            app.stop();
        });
        signals_ioc.run();
        app.wait();
        std::cerr << "gatewayd: server stopped\n";
        if (embedded)
            embedded->stop();
        std::cerr << "gatewayd: stopped\n";
        return 0;
    } catch (std::exception const& e) {
        std::cerr << "gatewayd: " << e.what() << "\n";
        return 1;
    }
}
