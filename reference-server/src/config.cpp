#include "config.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gateway::server {

namespace {

using setter = std::function<std::optional<std::string>(server_config&, std::string const&)>;

struct setting {
    std::string flag; // --flag
    std::string env;  // GATEWAY_*
    std::string json; // dotted path in the config file
    std::string help;
    setter apply; // nullopt on success, else what is wrong with the value
};

std::optional<std::string> set_ms(std::chrono::milliseconds& out, std::string const& v) {
    char* end = nullptr;
    long long const n = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 0 || n > 86'400'000)
        return "must be a whole number of milliseconds";
    out = std::chrono::milliseconds(n);
    return std::nullopt;
}

std::optional<std::string> set_budget(std::uint32_t& out, std::string const& v) {
    char* end = nullptr;
    unsigned long const n = std::strtoul(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 100 || n > 1000000)
        return "must be a whole number 100..1000000";
    out = static_cast<std::uint32_t>(n);
    return std::nullopt;
}

/// `v` read whole as a decimal number; nullopt when it is empty or has anything after one.
std::optional<double> number_of(std::string const& v) {
    char* end = nullptr;
    double const n = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0')
        return std::nullopt;
    return n;
}

/// A positive number of at most 1e6 (rates and bursts).
std::optional<std::string> set_positive(double& out, std::string const& v) {
    auto const n = number_of(v);
    if (!n || !(*n > 0) || *n > 1e6)
        return "must be a positive number";
    out = *n;
    return std::nullopt;
}

/// Issue 10: the account settings that bound abuse (sign-up buckets, the database lock wait).
void add_account_abuse_settings(std::vector<setting>& t) {
    t.push_back({"signup-per-address-per-hour", "GATEWAY_SIGNUP_PER_ADDRESS_PER_HOUR",
                 "accounts.signup.perAddressPerHour",
                 "sign-ups one client address (IPv6: one /64) may make per hour",
                 [](server_config& c, std::string const& v) {
                     return set_positive(c.signup_per_address_per_hour, v);
                 }});
    t.push_back({"signup-per-address-burst", "GATEWAY_SIGNUP_PER_ADDRESS_BURST",
                 "accounts.signup.perAddressBurst", "sign-ups one client address may make at once",
                 [](server_config& c, std::string const& v) {
                     return set_positive(c.signup_per_address_burst, v);
                 }});
    t.push_back({"signup-global-per-hour", "GATEWAY_SIGNUP_GLOBAL_PER_HOUR",
                 "accounts.signup.globalPerHour",
                 "sign-ups all addresses together may make per hour",
                 [](server_config& c, std::string const& v) {
                     return set_positive(c.signup_global_per_hour, v);
                 }});
    t.push_back({"signup-global-burst", "GATEWAY_SIGNUP_GLOBAL_BURST",
                 "accounts.signup.globalBurst", "sign-ups all addresses together may make at once",
                 [](server_config& c, std::string const& v) {
                     return set_positive(c.signup_global_burst, v);
                 }});
    t.push_back({"db-busy-timeout-ms", "GATEWAY_DB_BUSY_TIMEOUT_MS", "accounts.dbBusyTimeoutMs",
                 "how long an account-database write waits for another process's lock (then 503)",
                 [](server_config& c, std::string const& v) -> std::optional<std::string> {
                     if (auto err = set_ms(c.db_busy_timeout, v))
                         return err;
                     if (c.db_busy_timeout.count() < 1 || c.db_busy_timeout.count() > 600'000)
                         return "must be 1..600000 milliseconds";
                     return std::nullopt;
                 }});
}

/// `spotBaseUrl` -> `spot-base-url` (separator '-') or `SPOT_BASE_URL` (separator '_', upper).
std::string split_camel(std::string_view key, char separator, bool upper) {
    std::string out;
    for (char const ch : key) {
        bool const is_upper = ch >= 'A' && ch <= 'Z';
        if (is_upper)
            out += separator;
        char const lower = is_upper ? static_cast<char>(ch - 'A' + 'a') : ch;
        out += upper && lower >= 'a' && lower <= 'z' ? static_cast<char>(lower - 'a' + 'A') : lower;
    }
    return out;
}

/// The flag, environment variable and config key of a provider's own setting.
setting declared(provider_setting const& ps) {
    std::string const upper = split_camel(ps.provider, '_', true);
    return {ps.provider + "-" + split_camel(ps.key, '-', false),
            "GATEWAY_" + upper + "_" + split_camel(ps.key, '_', true),
            "providers." + ps.provider + "." + ps.key, ps.help,
            [ps](server_config& c, std::string const& v) -> std::optional<std::string> {
                switch (ps.type) {
                case provider_setting::kind::url:
                    if (!v.empty() && v.find("://") == std::string::npos)
                        return "must be an absolute URL";
                    break;
                case provider_setting::kind::budget: {
                    std::uint32_t n = 0;
                    if (auto err = set_budget(n, v))
                        return err;
                    c.providers[ps.provider].options[ps.key] = std::to_string(n);
                    return std::nullopt;
                }
                case provider_setting::kind::file:
                    break;
                }
                c.providers[ps.provider].options[ps.key] = v;
                return std::nullopt;
            }};
}

std::vector<setting> const& settings() {
    static std::vector<setting> const table = [] {
        std::vector<setting> t{
            {"listen", "GATEWAY_LISTEN", "listen", "HOST:PORT to listen on (port 0: any free)",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 if (v.rfind(':') == std::string::npos)
                     return "must be HOST:PORT";
                 c.listen = v;
                 return std::nullopt;
             }},
            {"data-dir", "GATEWAY_DATA_DIR", "dataDir", "directory for the server's data",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 c.data_dir = v;
                 return std::nullopt;
             }},
            {"threads", "GATEWAY_THREADS", "threads", "I/O threads",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 int const n = std::atoi(v.c_str());
                 if (n < 1 || n > 256)
                     return "must be 1..256";
                 c.threads = static_cast<unsigned>(n);
                 return std::nullopt;
             }},
            {"max-connections", "GATEWAY_MAX_CONNECTIONS", "maxConnections",
             "client connections open at most (0: the descriptor limit minus a quarter, which is "
             "kept for upstream connections and files); the longest idle one closes first",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 char* end = nullptr;
                 unsigned long long const n = std::strtoull(v.c_str(), &end, 10);
                 if (v.empty() || *end != '\0' || v.front() == '-' || n > 10'000'000)
                     return "must be a whole number 0..10000000";
                 c.max_connections = static_cast<std::size_t>(n);
                 return std::nullopt;
             }},
            {"upstream-timeout-ms", "GATEWAY_UPSTREAM_TIMEOUT_MS", "timeouts.upstreamMs",
             "deadline of one upstream call",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.upstream_timeout, v);
             }},
            {"probe-timeout-ms", "GATEWAY_PROBE_TIMEOUT_MS", "timeouts.probeMs",
             "deadline of one health probe (a health request never waits longer)",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.probe_timeout, v);
             }},
            {"read-timeout-ms", "GATEWAY_READ_TIMEOUT_MS", "timeouts.readMs",
             "deadline for reading one client request",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.read_timeout, v);
             }},
            {"probe-interval-ms", "GATEWAY_PROBE_INTERVAL_MS", "health.probeIntervalMs",
             "background probe interval per provider",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.probe_interval, v);
             }},
            {"degraded-threshold-ms", "GATEWAY_DEGRADED_THRESHOLD_MS", "health.degradedThresholdMs",
             "probe latency above which a provider is degraded",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.degraded_threshold, v);
             }},
            {"market-cache-ms", "GATEWAY_MARKET_CACHE_MS", "upstream.marketCacheMs",
             "how long a market-data read (prices, trades, candles, orderbook) is served from "
             "cache",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.market_cache_ttl, v);
             }},
            {"agent-miss-cache-ms", "GATEWAY_AGENT_MISS_CACHE_MS", "upstream.agentMissCacheMs",
             "how long a signer the upstream does not know as the wallet's agent stays refused "
             "without asking the upstream again",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.agent_miss_ttl, v);
             }},
            {"meta-refresh-ms", "GATEWAY_META_REFRESH_MS", "upstream.metaRefreshMs",
             "interval between background refreshes of each upstream's market list",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.meta_refresh_interval, v);
             }},
            {"ws-max-queued", "GATEWAY_WS_MAX_QUEUED", "websocket.maxQueued",
             "frames a WebSocket client may fall behind before it is closed with 1013",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 char* end = nullptr;
                 unsigned long long const n = std::strtoull(v.c_str(), &end, 10);
                 if (v.empty() || *end != '\0' || v.front() == '-' || n < 1 || n > 1'000'000)
                     return "must be a whole number 1..1000000";
                 c.ws_max_queued = static_cast<std::size_t>(n);
                 return std::nullopt;
             }},
            {"ws-peer-timeout-ms", "GATEWAY_WS_PEER_TIMEOUT_MS", "websocket.peerTimeoutMs",
             "silence after which a WebSocket client is taken for dead (pinged at half of it)",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.ws_peer_timeout, v);
             }},
            {"ws-max-user-streams", "GATEWAY_WS_MAX_USER_STREAMS", "websocket.maxUserStreams",
             "addresses whose orders/fills one account may stream at once on each upstream",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 char* end = nullptr;
                 unsigned long long const n = std::strtoull(v.c_str(), &end, 10);
                 if (v.empty() || *end != '\0' || v.front() == '-' || n < 1 || n > 1000)
                     return "must be a whole number 1..1000";
                 c.ws_max_user_streams = static_cast<std::size_t>(n);
                 return std::nullopt;
             }},
            {"ws-book-interval-ms", "GATEWAY_WS_BOOK_INTERVAL_MS", "websocket.bookIntervalMs",
             "least time between two order-book frames of one subscription",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.ws_book_interval, v);
             }},
            {"stream-stale-ms", "GATEWAY_STREAM_STALE_MS", "websocket.streamStaleMs",
             "upstream silence on a book or price stream after which its clients get a 'stale' "
             "status",
             [](server_config& c, std::string const& v) {
                 return set_ms(c.stream_stale, v);
             }},
            {"key-rate", "GATEWAY_KEY_RATE", "rateLimit.perKeyPerSecond",
             "default per-key rate limit (requests per second)",
             [](server_config& c, std::string const& v) {
                 return set_positive(c.key_rate_per_second, v);
             }},
            {"key-burst", "GATEWAY_KEY_BURST", "rateLimit.perKeyBurst",
             "default per-key burst (bucket size)",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 auto const b = number_of(v);
                 if (!b || !(*b >= 1) || *b > 1e6)
                     return "must be a number >= 1";
                 c.key_burst = *b;
                 return std::nullopt;
             }},
            {"budget-share", "GATEWAY_BUDGET_SHARE", "rateLimit.budgetSharePercent",
             "percentage of each upstream's weight budget one account may spend per window "
             "(past it: 429 with details.scope \"account\"; 100: no limit but the budget)",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 std::string_view text = v;
                 if (text.ends_with('%'))
                     text.remove_suffix(1);
                 auto const p = number_of(std::string(text));
                 if (!p || !(*p > 0) || *p > 100)
                     return "must be a percentage above 0 and at most 100";
                 c.budget_share_percent = *p;
                 return std::nullopt;
             }},
            {"max-keys-per-account", "GATEWAY_MAX_KEYS_PER_ACCOUNT", "accounts.maxKeys",
             "keys an account may hold that are neither revoked nor expired (then 409)",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 char* end = nullptr;
                 unsigned long long const n = std::strtoull(v.c_str(), &end, 10);
                 if (v.empty() || *end != '\0' || v.front() == '-' || n < 1 || n > 100000)
                     return "must be a whole number 1..100000";
                 c.max_keys_per_account = static_cast<std::size_t>(n);
                 return std::nullopt;
             }},
            {"session-lifetime-s", "GATEWAY_SESSION_LIFETIME_S", "accounts.sessionLifetimeSeconds",
             "lifetime of a settings-page session",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 long long const n = std::atoll(v.c_str());
                 if (n < 1 || n > 90LL * 86400)
                     return "must be 1..7776000 seconds";
                 c.session_lifetime = std::chrono::seconds(n);
                 return std::nullopt;
             }},
            {"scrypt-n", "GATEWAY_SCRYPT_N", "accounts.scryptN",
             "scrypt cost N for passwords (power of two)",
             [](server_config& c, std::string const& v) -> std::optional<std::string> {
                 unsigned long long const n = std::strtoull(v.c_str(), nullptr, 10);
                 if (n < 2 || (n & (n - 1)) != 0 || n > (1ull << 20))
                     return "must be a power of two, 2..1048576";
                 c.scrypt_n = n;
                 return std::nullopt;
             }},
        };
        struct url_field {
            char const* flag;
            char const* env;
            char const* json;
            std::string upstream_endpoints::*member;
        };
        static constexpr url_field fields[] = {
            {"base-url", "BASE_URL", "baseUrl", &upstream_endpoints::base_url},
            {"ws-url", "WS_URL", "wsUrl", &upstream_endpoints::ws_url},
            {"testnet-base-url", "TESTNET_BASE_URL", "testnetBaseUrl",
             &upstream_endpoints::testnet_base_url},
            {"testnet-ws-url", "TESTNET_WS_URL", "testnetWsUrl",
             &upstream_endpoints::testnet_ws_url},
            {"clob-base-url", "CLOB_BASE_URL", "clobBaseUrl", &upstream_endpoints::clob_base_url},
        };
        add_account_abuse_settings(t);
        for (std::string const provider : {"alpha", "beta", "gamma"}) {
            std::string const upper = split_camel(provider, '_', true);
            for (auto const& f : fields) {
                bool const is_clob = std::string_view(f.flag) == "clob-base-url";
                bool const is_testnet = std::string_view(f.flag).rfind("testnet", 0) == 0;
                if ((is_clob && provider != "gamma") || (is_testnet && provider == "gamma"))
                    continue;
                auto const member = f.member;
                t.push_back({provider + "-" + f.flag, "GATEWAY_" + upper + "_" + f.env,
                             "providers." + provider + "." + f.json,
                             std::string("upstream address of ") + provider,
                             [provider, member](server_config& c, std::string const& v)
                                 -> std::optional<std::string> {
                                 if (!v.empty() && v.find("://") == std::string::npos)
                                     return "must be an absolute URL";
                                 c.providers[provider].*member = v;
                                 return std::nullopt;
                             }});
            }
        }
        for (auto const& ps : provider_settings())
            t.push_back(declared(ps));
        return t;
    }();
    return table;
}

boost::json::value const* find_path(boost::json::value const& root, std::string const& dotted) {
    boost::json::value const* cur = &root;
    std::stringstream ss(dotted);
    std::string part;
    while (std::getline(ss, part, '.')) {
        auto const* obj = cur->if_object();
        if (!obj)
            return nullptr;
        cur = obj->if_contains(part);
        if (!cur)
            return nullptr;
    }
    return cur;
}

config_result fail(std::string message) {
    return config_result(boost::system::in_place_error, std::move(message));
}

} // namespace

std::string upstream_endpoints::option(std::string_view key, std::string_view fallback) const {
    auto const it = options.find(key);
    return std::string(it == options.end() ? fallback : std::string_view(it->second));
}

std::uint32_t upstream_endpoints::number(std::string_view key, std::uint32_t fallback) const {
    auto const it = options.find(key);
    if (it == options.end())
        return fallback;
    return static_cast<std::uint32_t>(std::strtoul(it->second.c_str(), nullptr, 10));
}

bool server_config::no_upstream_configured() const {
    for (auto const& [name, e] : providers)
        if (!e.base_url.empty() || !e.clob_base_url.empty() || !e.testnet_base_url.empty())
            return false;
    return true;
}

std::vector<std::string> server_config::incomplete_providers() const {
    std::vector<std::string> out;
    for (auto const& [name, e] : providers) {
        bool const missing = e.base_url.empty() || (name == "gamma" && e.clob_base_url.empty()) ||
                             (name != "gamma" && e.testnet_base_url.empty());
        if (missing)
            out.push_back(name);
    }
    return out;
}

env_lookup process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        if (char const* v = std::getenv(std::string(name).c_str()))
            return std::string(v);
        return std::nullopt;
    };
}

config_result load_config(std::optional<std::string> const& config_file, env_lookup const& env,
                          std::map<std::string, std::string> const& flags) {
    server_config cfg;
    boost::json::value file_json;
    if (config_file) {
        std::ifstream in(*config_file);
        if (!in)
            return fail("cannot read config file " + *config_file);
        std::stringstream text;
        text << in.rdbuf();
        boost::system::error_code ec;
        file_json = boost::json::parse(text.str(), ec);
        if (ec || !file_json.is_object())
            return fail("config file " + *config_file + " is not a JSON object");
    }
    for (auto const& flag : flags) {
        bool known = flag.first == "config";
        for (auto const& s : settings())
            known = known || s.flag == flag.first;
        if (!known)
            return fail("unknown option --" + flag.first + " (see --help)");
    }
    for (auto const& s : settings()) {
        auto apply = [&](std::string const& value,
                         std::string const& source) -> std::optional<std::string> {
            if (auto err = s.apply(cfg, value))
                return source + ": " + *err;
            return std::nullopt;
        };
        if (config_file) {
            if (auto const* v = find_path(file_json, s.json)) {
                std::string text;
                if (v->is_string())
                    text = std::string(v->get_string());
                else if (v->is_number())
                    text = boost::json::serialize(*v);
                else
                    return fail("config file key " + s.json + " must be a string or a number");
                if (auto err = apply(text, "config file key " + s.json))
                    return fail(*err);
            }
        }
        if (auto v = env(s.env))
            if (auto err = apply(*v, "environment variable " + s.env))
                return fail(*err);
        if (auto it = flags.find(s.flag); it != flags.end())
            if (auto err = apply(it->second, "option --" + s.flag))
                return fail(*err);
    }
    return cfg;
}

std::string describe_settings() {
    std::string out;
    for (auto const& s : settings()) {
        out += "  --" + s.flag + std::string(s.flag.size() < 26 ? 26 - s.flag.size() : 1, ' ') +
               s.help + "\n" + std::string(30, ' ') + "env " + s.env + ", config key " + s.json +
               "\n";
    }
    return out;
}

} // namespace gateway::server
