#include "admin_cli.hpp"

#include "auth/accounts.hpp"
#include "config.hpp"

#include <gateway/util/clock.hpp>
#include <gateway/util/time.hpp>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <istream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string_view>

namespace gateway::server {

namespace {

constexpr char const* usage_text =
    "Usage:\n"
    "  gatewayd accounts create --email E [--data-dir D]   (password: first line of stdin)\n"
    "  gatewayd keys create --email E --env live|test [--name N] [--expires-in DURATION]\n"
    "                       [--rate R/s] [--data-dir D]    (prints only the new key)\n"
    "  gatewayd keys list --email E [--data-dir D]\n"
    "  gatewayd keys revoke --email E --id N [--data-dir D]\n"
    "\n"
    "DURATION is a whole number followed by s, m, h or d (90s, 12h, 30d).\n"
    "--data-dir defaults to $GATEWAY_DATA_DIR, else ./data (the same store `serve` uses).\n";

struct usage_error {
    std::string message;
};

using options = std::map<std::string, std::string>;

/// Reads `--opt value` / `--opt=value` pairs; only `allowed` names are accepted.
options parse_options(std::vector<std::string> const& args, std::size_t from,
                      std::set<std::string> const& allowed) {
    options out;
    for (std::size_t i = from; i < args.size(); ++i) {
        std::string_view arg = args[i];
        if (!arg.starts_with("--"))
            throw usage_error{"unexpected argument '" + std::string(arg) + "'"};
        arg.remove_prefix(2);
        std::string name;
        std::string value;
        if (auto eq = arg.find('='); eq != std::string_view::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
        } else {
            name = arg;
            if (!allowed.contains(name))
                throw usage_error{"unknown option --" + name};
            if (i + 1 >= args.size())
                throw usage_error{"option --" + name + " needs a value"};
            value = args[++i];
        }
        if (!allowed.contains(name))
            throw usage_error{"unknown option --" + name};
        if (out.contains(name))
            throw usage_error{"option --" + name + " given twice"};
        out[name] = std::move(value);
    }
    return out;
}

std::string const& required(options const& o, std::string const& name) {
    auto it = o.find(name);
    if (it == o.end() || it->second.empty())
        throw usage_error{"--" + name + " is required"};
    return it->second;
}

std::optional<std::string> optional_opt(options const& o, std::string const& name) {
    auto it = o.find(name);
    if (it == o.end())
        return std::nullopt;
    return it->second;
}

/// `--expires-in`: the shared duration syntax (auth::parse_duration).
std::chrono::seconds parse_duration(std::string_view text) {
    if (auto d = auth::parse_duration(text))
        return *d;
    throw usage_error{"--expires-in wants a duration like 90s, 12h or 30d"};
}

/// `R/s` or `R`: a positive number of requests per second.
double parse_rate(std::string_view text) {
    if (text.ends_with("/s"))
        text.remove_suffix(2);
    double r = 0;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), r);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() ||
        !std::isfinite(r) || r <= 0)
        throw usage_error{"--rate wants a positive number of requests per second, like 50/s"};
    return r;
}

std::int64_t parse_id(std::string_view text) {
    std::int64_t id = 0;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || id <= 0)
        throw usage_error{"--id wants a key id (a positive whole number; see `keys list`)"};
    return id;
}

std::string iso_time(std::int64_t ms) {
    return util::iso8601_utc(ms, util::iso_precision::seconds);
}

std::string iso_time(std::optional<std::int64_t> ms) {
    return ms ? iso_time(*ms) : "-";
}

std::filesystem::path data_dir(options const& o) {
    if (auto d = optional_opt(o, "data-dir"); d && !d->empty())
        return *d;
    if (char const* env = std::getenv("GATEWAY_DATA_DIR"); env && *env)
        return env;
    return "./data";
}

std::unique_ptr<auth::account_service> open_service(options const& o) {
    auth::account_options ao;
    ao.last_used_flush = std::chrono::milliseconds(0); // a one-shot process: no flusher thread
    // The key limit the server keeps to (GATEWAY_MAX_KEYS_PER_ACCOUNT), else the default.
    if (auto cfg = load_config(std::nullopt, process_environment(), {}))
        ao.max_usable_keys = cfg->max_keys_per_account;
    return auth::open_account_service(data_dir(o), ao);
}

/// The account named by --email, or a failure message on `err`.
std::optional<auth::account> account_for(auth::account_service& svc, options const& o,
                                         std::ostream& err) {
    std::string const& email = required(o, "email");
    auto acct = svc.find_account(email);
    if (!acct)
        err << "gatewayd: no account with email " << email << "\n";
    return acct;
}

int accounts_create(options const& o, std::istream& in, std::ostream& out, std::ostream& err) {
    std::string const& email = required(o, "email");
    std::string password;
    std::getline(in, password);
    if (!password.empty() && password.back() == '\r')
        password.pop_back();
    if (password.empty()) {
        err << "gatewayd: give the password on the first line of standard input\n";
        return 1;
    }
    auto svc = open_service(o);
    auto acct = svc->sign_up(email, password);
    if (!acct) {
        err << "gatewayd: " << acct.error().message << "\n";
        return 1;
    }
    out << "Created account " << acct->email << " (id " << acct->id << ").\n";
    return 0;
}

int keys_create(options const& o, std::ostream& out, std::ostream& err) {
    auth::new_key_params params;
    std::string const& env = required(o, "env");
    if (env == "live")
        params.env = auth::key_env::live;
    else if (env == "test")
        params.env = auth::key_env::test;
    else
        throw usage_error{"--env must be live or test"};
    params.name = optional_opt(o, "name").value_or("cli");
    if (auto d = optional_opt(o, "expires-in"))
        params.expires_in = parse_duration(*d);
    if (auto r = optional_opt(o, "rate"))
        params.rate_per_second = parse_rate(*r);
    required(o, "email");
    auto svc = open_service(o);
    auto acct = account_for(*svc, o, err);
    if (!acct)
        return 1;
    auto key = svc->create_key(acct->id, std::move(params));
    if (!key) {
        err << "gatewayd: " << key.error().message << "\n";
        return 1;
    }
    out << key->key << "\n"; // the only line on stdout, for scripts
    return 0;
}

int keys_list(options const& o, std::ostream& out, std::ostream& err) {
    required(o, "email");
    auto svc = open_service(o);
    auto acct = account_for(*svc, o, err);
    if (!acct)
        return 1;
    std::int64_t const t = util::wall_ms();
    for (auto const& k : svc->list_keys(acct->id)) {
        std::string_view const status = k.revoked_ms                         ? "revoked"
                                        : k.expires_ms && *k.expires_ms <= t ? "expired"
                                                                             : "active";
        out << k.id << '\t' << k.name << '\t' << k.masked << '\t'
            << (k.env == auth::key_env::live ? "live" : "test") << '\t' << iso_time(k.created_ms)
            << '\t' << iso_time(k.last_used_ms) << '\t' << iso_time(k.expires_ms) << '\t' << status
            << '\n';
    }
    return 0;
}

int keys_revoke(options const& o, std::ostream& out, std::ostream& err) {
    std::int64_t const id = parse_id(required(o, "id"));
    required(o, "email");
    auto svc = open_service(o);
    auto acct = account_for(*svc, o, err);
    if (!acct)
        return 1;
    if (!svc->revoke_key(acct->id, id)) {
        err << "gatewayd: " << acct->email << " has no active key with id " << id << "\n";
        return 1;
    }
    out << "Revoked key " << id << ".\n";
    return 0;
}

} // namespace

int run_admin_command(std::vector<std::string> args, std::istream& in, std::ostream& out,
                      std::ostream& err) {
    for (auto const& a : args)
        if (a == "--help" || a == "-h") {
            out << usage_text;
            return 0;
        }
    try {
        if (args.size() < 2)
            throw usage_error{"missing command"};
        std::string const& what = args[0];
        std::string const& verb = args[1];
        if (what == "accounts" && verb == "create")
            return accounts_create(parse_options(args, 2, {"email", "data-dir"}), in, out, err);
        if (what == "keys" && verb == "create")
            return keys_create(
                parse_options(args, 2, {"email", "env", "name", "expires-in", "rate", "data-dir"}),
                out, err);
        if (what == "keys" && verb == "list")
            return keys_list(parse_options(args, 2, {"email", "data-dir"}), out, err);
        if (what == "keys" && verb == "revoke")
            return keys_revoke(parse_options(args, 2, {"email", "id", "data-dir"}), out, err);
        throw usage_error{"unknown command '" + what + " " + verb + "'"};
    } catch (usage_error const& e) {
        err << "gatewayd: " << e.message << "\n\n" << usage_text;
        return 2;
    } catch (std::exception const& e) {
        err << "gatewayd: " << e.what() << "\n";
        return 1;
    }
}

} // namespace gateway::server
