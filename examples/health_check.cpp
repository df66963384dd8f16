// Lists the gateway's providers and their health.
//
//   health_check [BASE_URL]        (default http://127.0.0.1:8080)
//
// Exit code 0 when every provider is ok, 1 when any is degraded or down, 2 on an error.
#include <gateway/client/client.hpp>

#include <iostream>

int main(int argc, char** argv) {
    gateway::client_options options;
    if (argc > 1)
        options.base_url = argv[1];
    auto client = gateway::client::create(options);
    if (!client) {
        std::cerr << client.error().message << "\n";
        return 2;
    }
    auto providers = client->providers();
    if (!providers) {
        std::cerr << providers.error().wire() << ": " << providers.error().message << "\n";
        return 2;
    }
    auto health = client->health();
    if (!health) {
        std::cerr << health.error().wire() << ": " << health.error().message << "\n";
        return 2;
    }
    for (auto const& p : providers->providers) {
        auto const it = health->providers.find(p.id);
        std::cout << p.id << " (" << p.name << "): "
                  << (it == health->providers.end() ? "unknown"
                                                    : std::string(to_string(it->second.status)))
                  << "\n";
    }
    std::cout << "overall: " << to_string(health->status) << "\n";
    return health->status == gateway::health_status::ok ? 0 : 1;
}
