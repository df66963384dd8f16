#include <catch2/catch.hpp>

#include "config.hpp"
#include "support/catch_result.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace gateway::server;

namespace {
env_lookup env_of(std::map<std::string, std::string> vars) {
    return [vars](std::string_view name) -> std::optional<std::string> {
        if (auto it = vars.find(std::string(name)); it != vars.end())
            return it->second;
        return std::nullopt;
    };
}

std::string write_temp(std::string const& text) {
    char path[] = "/tmp/gateway-config-XXXXXX";
    int const fd = mkstemp(path);
    REQUIRE(fd >= 0);
    std::ofstream(path) << text;
    close(fd);
    return path;
}
} // namespace

TEST_CASE("config defaults match the contract", "[unit][config]") {
    auto cfg = load_config(std::nullopt, env_of({}), {});
    REQUIRE(cfg);
    CHECK(cfg->listen == "127.0.0.1:8080");
    CHECK(cfg->data_dir == "./data");
    CHECK(cfg->degraded_threshold == std::chrono::milliseconds(3000));
    CHECK(cfg->upstream_timeout == std::chrono::milliseconds(10000));
    CHECK(cfg->body_limit == 64 * 1024);
    CHECK(cfg->no_upstream_configured());
}

TEST_CASE("config file, environment and flags apply in rising precedence", "[unit][config]") {
    auto const file = write_temp(R"({"listen":"127.0.0.1:1000","health":{"degradedThresholdMs":500,
        "probeIntervalMs":700},"providers":{"alpha":{"baseUrl":"http://127.0.0.1:1"}}})");
    auto cfg = load_config(
        file, env_of({{"GATEWAY_LISTEN", "127.0.0.1:2000"}, {"GATEWAY_PROBE_INTERVAL_MS", "900"}}),
        {{"listen", "127.0.0.1:3000"}});
    std::remove(file.c_str());
    REQUIRE(cfg);
    CHECK(cfg->listen == "127.0.0.1:3000");                           // flag beats env
    CHECK(cfg->probe_interval == std::chrono::milliseconds(900));     // env beats file
    CHECK(cfg->degraded_threshold == std::chrono::milliseconds(500)); // file beats default
    CHECK(cfg->providers.at("alpha").base_url == "http://127.0.0.1:1");
    CHECK_FALSE(cfg->no_upstream_configured());
    auto missing = cfg->incomplete_providers();
    CHECK(missing == std::vector<std::string>{"alpha", "beta", "gamma"});
}

TEST_CASE("config errors name the source and the setting", "[unit][config]") {
    auto bad_flag = load_config(std::nullopt, env_of({}), {{"probe-interval-ms", "soon"}});
    REQUIRE_FALSE(bad_flag);
    CHECK(bad_flag.error().find("--probe-interval-ms") != std::string::npos);

    auto bad_env = load_config(std::nullopt, env_of({{"GATEWAY_BETA_BASE_URL", "nope"}}), {});
    REQUIRE_FALSE(bad_env);
    CHECK(bad_env.error().find("GATEWAY_BETA_BASE_URL") != std::string::npos);

    auto unknown = load_config(std::nullopt, env_of({}), {{"lisen", "x"}});
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().find("--lisen") != std::string::npos);

    auto missing = load_config(std::string("/nonexistent/gw.json"), env_of({}), {});
    REQUIRE_FALSE(missing);
}

TEST_CASE("the sign-up limits and the database lock bound are settings", "[unit][config]") {
    auto const defaults = load_config(std::nullopt, env_of({}), {});
    REQUIRE(defaults);
    CHECK(defaults->signup_per_address_per_hour == 10);
    CHECK(defaults->signup_per_address_burst == 5);
    CHECK(defaults->signup_global_per_hour == 120);
    CHECK(defaults->signup_global_burst == 20);
    CHECK(defaults->db_busy_timeout == std::chrono::milliseconds(5000));

    auto const file = write_temp(R"({"accounts":{"signup":{"perAddressPerHour":3,
        "globalBurst":7},"dbBusyTimeoutMs":250}})");
    auto cfg = load_config(file, env_of({{"GATEWAY_SIGNUP_GLOBAL_PER_HOUR", "60"}}),
                           {{"signup-per-address-burst", "2"}});
    std::remove(file.c_str());
    REQUIRE(cfg);
    CHECK(cfg->signup_per_address_per_hour == 3);
    CHECK(cfg->signup_per_address_burst == 2);
    CHECK(cfg->signup_global_per_hour == 60);
    CHECK(cfg->signup_global_burst == 7);
    CHECK(cfg->db_busy_timeout == std::chrono::milliseconds(250));

    for (auto const& [flag, value] :
         std::vector<std::pair<std::string, std::string>>{{"signup-per-address-per-hour", "0"},
                                                          {"signup-global-burst", "-1"},
                                                          {"signup-global-per-hour", "many"},
                                                          {"db-busy-timeout-ms", "0"}}) {
        CAPTURE(flag, value);
        auto bad = load_config(std::nullopt, env_of({}), {{flag, value}});
        REQUIRE_FALSE(bad);
        CHECK(bad.error().find("--" + flag) != std::string::npos);
    }
}

TEST_CASE("maxConnections comes from the file, GATEWAY_MAX_CONNECTIONS or --max-connections",
          "[unit][config]") {
    auto defaults = load_config(std::nullopt, env_of({}), {});
    REQUIRE(defaults);
    CHECK(defaults->max_connections == 0); // derived from the descriptor limit at listen
    auto const file = write_temp(R"({"maxConnections":500})");
    auto from_file = load_config(file, env_of({}), {});
    auto from_env = load_config(file, env_of({{"GATEWAY_MAX_CONNECTIONS", "600"}}), {});
    auto from_flag = load_config(file, env_of({{"GATEWAY_MAX_CONNECTIONS", "600"}}),
                                 {{"max-connections", "700"}});
    std::remove(file.c_str());
    REQUIRE(from_file);
    CHECK(from_file->max_connections == 500);
    REQUIRE(from_env);
    CHECK(from_env->max_connections == 600);
    REQUIRE(from_flag);
    CHECK(from_flag->max_connections == 700);
    auto bad = load_config(std::nullopt, env_of({}), {{"max-connections", "-1"}});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().find("--max-connections") != std::string::npos);
}

TEST_CASE("providers declare their own settings: beta's spot upstream, budgets, read signer key",
          "[unit][config][beta]") {
    auto const defaults = load_config(std::nullopt, env_of({}), {});
    REQUIRE(defaults);
    auto const& fresh = defaults->providers.at("beta");
    CHECK(fresh.options.empty()); // unset: the provider's defaults
    CHECK(fresh.number("spotBudget", 6000) == 6000);
    CHECK(fresh.option("readSignerKeyFile").empty());

    auto const file = write_temp(R"({"providers":{"beta":{
        "spotBaseUrl":"https://sapi.asterdex.com","readSignerKeyFile":"/etc/gw/beta.key",
        "spotBudget":3000},"alpha":{"budget":900}}})");
    auto cfg = load_config(
        file,
        env_of({{"GATEWAY_BETA_TESTNET_SPOT_BASE_URL", "https://sapi.asterdex-testnet.com"},
                {"GATEWAY_BETA_BUDGET", "1800"}}),
        {{"beta-spot-budget", "4000"}});
    std::remove(file.c_str());
    REQUIRE(cfg);
    auto const& beta = cfg->providers.at("beta");
    CHECK(beta.option("spotBaseUrl") == "https://sapi.asterdex.com");
    CHECK(beta.option("testnetSpotBaseUrl") == "https://sapi.asterdex-testnet.com");
    CHECK(beta.option("readSignerKeyFile") == "/etc/gw/beta.key");
    CHECK(beta.number("spotBudget", 6000) == 4000); // the flag beats the file
    CHECK(beta.number("budget", 2400) == 1800);
    CHECK(cfg->providers.at("alpha").number("budget", 1200) == 900);

    // A provider has only the settings it declares; addresses must be URLs; budgets in range.
    for (auto const& [flag, value] : std::vector<std::pair<std::string, std::string>>{
             {"alpha-spot-base-url", "https://x"},
             {"gamma-testnet-spot-base-url", "https://x"},
             {"alpha-read-signer-key-file", "/x"},
             {"beta-spot-base-url", "sapi.asterdex.com"},
             {"beta-spot-budget", "12"},
             {"alpha-budget", "99"},
             {"beta-budget", "1000001"}}) {
        CAPTURE(flag, value);
        auto bad = load_config(std::nullopt, env_of({}), {{flag, value}});
        REQUIRE_FALSE(bad);
        CHECK(bad.error().find("--" + flag) != std::string::npos);
    }
    // --help lists each declared setting under its three names.
    auto const help = describe_settings();
    CHECK_THAT(help, Catch::Contains("--beta-read-signer-key-file"));
    CHECK_THAT(help, Catch::Contains("GATEWAY_BETA_TESTNET_SPOT_BASE_URL"));
    CHECK_THAT(help, Catch::Contains("providers.beta.spotBudget"));
    CHECK_THAT(help, Catch::Contains("providers.alpha.budget"));
}

TEST_CASE("gamma declares its catalog and CLOB budgets and its catalog page size",
          "[unit][config][gamma]") {
    auto const defaults = load_config(std::nullopt, env_of({}), {});
    REQUIRE(defaults);
    CHECK(defaults->providers.at("gamma").options.empty()); // unset: gamma's defaults

    auto const file = write_temp(R"({"providers":{"gamma":{"catalogBudget":2000,
        "clobBudget":5000}}})");
    auto cfg = load_config(file, env_of({{"GATEWAY_GAMMA_CLOB_BUDGET", "6000"}}),
                           {{"gamma-catalog-page-size", "250"}});
    std::remove(file.c_str());
    REQUIRE(cfg);
    auto const& gamma = cfg->providers.at("gamma");
    CHECK(gamma.number("catalogBudget", 4000) == 2000);
    CHECK(gamma.number("clobBudget", 9000) == 6000); // the environment beats the file
    CHECK(gamma.number("catalogPageSize", 100) == 250);

    for (auto const& [flag, value] :
         std::vector<std::pair<std::string, std::string>>{{"gamma-catalog-budget", "99"},
                                                          {"gamma-clob-budget", "ten"},
                                                          {"gamma-catalog-page-size", "0"},
                                                          {"gamma-budget", "1000"}}) {
        CAPTURE(flag, value);
        auto bad = load_config(std::nullopt, env_of({}), {{flag, value}});
        REQUIRE_FALSE(bad);
        CHECK(bad.error().find("--" + flag) != std::string::npos);
    }
    auto const help = describe_settings();
    CHECK_THAT(help, Catch::Contains("--gamma-catalog-budget"));
    CHECK_THAT(help, Catch::Contains("GATEWAY_GAMMA_CLOB_BUDGET"));
    CHECK_THAT(help, Catch::Contains("providers.gamma.catalogPageSize"));
}

TEST_CASE("the key maximum is a setting", "[unit][config]") {
    auto const defaults = load_config(std::nullopt, env_of({}), {});
    REQUIRE(defaults);
    CHECK(defaults->max_keys_per_account == 10);

    auto const file = write_temp(R"({"accounts":{"maxKeys":3}})");
    auto from_file = load_config(file, env_of({}), {});
    std::remove(file.c_str());
    REQUIRE(from_file);
    CHECK(from_file->max_keys_per_account == 3);

    auto cfg = load_config(std::nullopt, env_of({{"GATEWAY_MAX_KEYS_PER_ACCOUNT", "20"}}), {});
    REQUIRE(cfg);
    CHECK(cfg->max_keys_per_account == 20);

    for (auto const& value : {"0", "-1", "ten"}) {
        CAPTURE(value);
        auto bad = load_config(std::nullopt, env_of({}), {{"max-keys-per-account", value}});
        REQUIRE_FALSE(bad);
        CHECK(bad.error().find("--max-keys-per-account") != std::string::npos);
    }
}

TEST_CASE("the budget share is a setting in percent", "[unit][config]") {
    auto const defaults = load_config(std::nullopt, env_of({}), {});
    REQUIRE(defaults);
    CHECK(defaults->budget_share_percent == 25);

    auto const file = write_temp(R"({"rateLimit":{"budgetSharePercent":40}})");
    auto from_file = load_config(file, env_of({}), {});
    std::remove(file.c_str());
    REQUIRE(from_file);
    CHECK(from_file->budget_share_percent == 40);

    auto env = load_config(std::nullopt, env_of({{"GATEWAY_BUDGET_SHARE", "50"}}), {});
    REQUIRE(env);
    CHECK(env->budget_share_percent == 50);
    auto flag = load_config(std::nullopt, env_of({}), {{"budget-share", "12.5%"}});
    REQUIRE(flag);
    CHECK(flag->budget_share_percent == 12.5);

    for (auto const& value : {"0", "101", "half", "%"}) {
        CAPTURE(value);
        auto bad = load_config(std::nullopt, env_of({}), {{"budget-share", value}});
        REQUIRE_FALSE(bad);
        CHECK(bad.error().find("--budget-share") != std::string::npos);
    }
}
