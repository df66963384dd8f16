#include <catch2/catch.hpp>

#include "admin_cli.hpp"
#include "auth/accounts.hpp"
#include "auth/crypto.hpp"
#include "support/catch_result.hpp"
#include "support/temp_dir.hpp"
#include <gateway/util/hex.hpp>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace gateway::server;
namespace fs = std::filesystem;

using gateway::test::temp_dir;

namespace {

struct outcome {
    int code = -1;
    std::string out;
    std::string err;
};

/// Runs `gatewayd <args> --data-dir <dir>` with `input` on stdin.
outcome admin(temp_dir const& dir, std::vector<std::string> args, std::string const& input = {}) {
    args.push_back("--data-dir");
    args.push_back(dir.path.string());
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream err;
    outcome o;
    o.code = run_admin_command(std::move(args), in, out, err);
    o.out = out.str();
    o.err = err.str();
    return o;
}

std::vector<std::string> lines(std::string const& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

std::vector<std::string> fields(std::string const& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, '\t');)
        out.push_back(f);
    return out;
}

} // namespace

TEST_CASE("admin: create an account, then a key that prints alone and works", "[unit][auth]") {
    temp_dir dir;
    auto const acct = admin(dir, {"accounts", "create", "--email", "ops@example.com"},
                            "a long enough password\nignored second line\n");
    INFO(acct.err);
    REQUIRE(acct.code == 0);
    CHECK(acct.out.find("ops@example.com") != std::string::npos);
    CHECK((fs::status(dir.path / "gateway.db").permissions() & fs::perms::others_all) ==
          fs::perms::none);

    auto const key = admin(dir, {"keys", "create", "--email", "ops@example.com", "--env", "live",
                                 "--name", "deploy", "--expires-in", "30d", "--rate=50/s"});
    INFO(key.err);
    REQUIRE(key.code == 0);
    CHECK(std::regex_match(key.out, std::regex("svc_live_[0-9A-Za-z]{43}\n")));
    std::string const value = key.out.substr(0, key.out.size() - 1);

    auth::account_options o;
    o.last_used_flush = std::chrono::milliseconds(0);
    auto svc = auth::open_account_service(dir.path, o);
    auto const check = svc->check_key(value);
    REQUIRE(check.outcome == auth::key_check::verdict::ok);
    CHECK(check.key->name == "deploy");
    CHECK(check.key->rate_per_second == 50.0);
    REQUIRE(check.key->expires_ms);
    CHECK(*check.key->expires_ms - check.key->created_ms == 30LL * 24 * 3600 * 1000);
    // The password came from the first line of stdin.
    CHECK(svc->sign_in("ops@example.com", "a long enough password", "cli-test"));

    auto const test_key =
        admin(dir, {"keys", "create", "--email", "OPS@example.com", "--env", "test"});
    REQUIRE(test_key.code == 0);
    CHECK(test_key.out.starts_with("svc_test_"));
}

TEST_CASE("admin: keys list shows masked keys and their state, revoke revokes", "[unit][auth]") {
    temp_dir dir;
    REQUIRE(admin(dir, {"accounts", "create", "--email", "ops@example.com"},
                  "a long enough password\r\n")
                .code == 0);
    auto const k1 = admin(
        dir, {"keys", "create", "--email", "ops@example.com", "--env", "live", "--name", "one"});
    auto const k2 = admin(dir, {"keys", "create", "--email", "ops@example.com", "--env", "test",
                                "--expires-in", "12h"});
    REQUIRE(k1.code == 0);
    REQUIRE(k2.code == 0);

    auto const list = admin(dir, {"keys", "list", "--email", "ops@example.com"});
    REQUIRE(list.code == 0);
    CHECK(list.out.find(k1.out.substr(9, 43)) == std::string::npos);
    CHECK(list.out.find(k2.out.substr(9, 43)) == std::string::npos);
    auto const rows = lines(list.out);
    REQUIRE(rows.size() == 2);
    auto const first = fields(rows[0]);
    REQUIRE(first.size() == 8);
    CHECK(first[1] == "one");
    CHECK(first[2] == "svc_live_\u2026" + k1.out.substr(48, 4));
    CHECK(first[3] == "live");
    CHECK(std::regex_match(first[4], std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
    CHECK(first[5] == "-"); // never used
    CHECK(first[6] == "-"); // no expiry
    CHECK(first[7] == "active");
    auto const second = fields(rows[1]);
    REQUIRE(second.size() == 8);
    CHECK(second[1] == "cli");
    CHECK(second[3] == "test");
    CHECK(second[6] != "-");

    auto const revoke =
        admin(dir, {"keys", "revoke", "--email", "ops@example.com", "--id", first[0]});
    CHECK(revoke.code == 0);
    auto const again =
        admin(dir, {"keys", "revoke", "--email", "ops@example.com", "--id", first[0]});
    CHECK(again.code == 1);
    CHECK_FALSE(again.err.empty());
    auto const after = lines(admin(dir, {"keys", "list", "--email", "ops@example.com"}).out);
    REQUIRE(after.size() == 2);
    CHECK(fields(after[0])[7] == "revoked");
    CHECK(fields(after[1])[7] == "active");
}

TEST_CASE("admin: failures exit 1 and usage errors exit 2", "[unit][auth]") {
    temp_dir dir;
    SECTION("an empty password is refused") {
        auto const r = admin(dir, {"accounts", "create", "--email", "ops@example.com"}, "\n");
        CHECK(r.code == 1);
        CHECK_FALSE(r.err.empty());
    }
    SECTION("a short password is refused with the service's message") {
        auto const r = admin(dir, {"accounts", "create", "--email", "ops@example.com"}, "short\n");
        CHECK(r.code == 1);
        CHECK(r.err.find("10 characters") != std::string::npos);
    }
    SECTION("an unknown account") {
        auto const r =
            admin(dir, {"keys", "create", "--email", "nobody@example.com", "--env", "live"});
        CHECK(r.code == 1);
        CHECK(r.out.empty());
        CHECK(r.err.find("nobody@example.com") != std::string::npos);
        CHECK(admin(dir, {"keys", "list", "--email", "nobody@example.com"}).code == 1);
    }
    SECTION("usage errors") {
        using args = std::vector<std::string>;
        auto const a = GENERATE(values<args>({
            {},
            {"keys"},
            {"keys", "rotate", "--email", "a@example.com"},
            {"accounts", "create"},
            {"keys", "create", "--email", "a@example.com"},
            {"keys", "create", "--email", "a@example.com", "--env", "prod"},
            {"keys", "create", "--email", "a@example.com", "--env", "live", "--expires-in", "30"},
            {"keys", "create", "--email", "a@example.com", "--env", "live", "--expires-in", "0d"},
            {"keys", "create", "--email", "a@example.com", "--env", "live", "--expires-in", "2w"},
            {"keys", "create", "--email", "a@example.com", "--env", "live", "--rate", "fast"},
            {"keys", "create", "--email", "a@example.com", "--env", "live", "--rate", "0/s"},
            {"keys", "revoke", "--email", "a@example.com", "--id", "x"},
            {"keys", "list", "--email", "a@example.com", "--bogus", "1"},
            {"keys", "list", "--email", "a@example.com", "stray"},
            {"keys", "list", "--email"},
        }));
        CAPTURE(a);
        auto const r = admin(dir, a);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(r.err.find("Usage:") != std::string::npos);
    }
    SECTION("--help prints the usage") {
        auto const r = admin(dir, {"keys", "--help"});
        CHECK(r.code == 0);
        CHECK(r.out.find("keys create") != std::string::npos);
    }
}

TEST_CASE("admin: keys create past the account's key maximum exits 1 and stores nothing",
          "[unit][auth]") {
    temp_dir dir;
    REQUIRE(
        admin(dir, {"accounts", "create", "--email", "ops@example.com"}, "a long enough password\n")
            .code == 0);
    std::vector<std::string> const create{"keys",  "create", "--email", "ops@example.com",
                                          "--env", "live"};
    for (int i = 0; i < 10; ++i)
        REQUIRE(admin(dir, create).code == 0);
    auto const refused = admin(dir, create);
    CHECK(refused.code == 1);
    CHECK(refused.out.empty());
    CHECK_THAT(refused.err, Catch::Contains("revoke one to create another"));
    auto const listed = admin(dir, {"keys", "list", "--email", "ops@example.com"});
    REQUIRE(listed.code == 0);
    CHECK(lines(listed.out).size() == 10);

    // A revoked key frees its place.
    auto const id = fields(lines(listed.out).front()).front();
    REQUIRE(admin(dir, {"keys", "revoke", "--email", "ops@example.com", "--id", id}).code == 0);
    CHECK(admin(dir, create).code == 0);
}
