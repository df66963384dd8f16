// Spec 5.1, CONTRACT §9: the settings pages (`/account...`) and the JSON account API
// (`/v1/account/...`) over raw HTTP against an in-process gatewayd. Cookies are kept by hand:
// each test reads Set-Cookie itself, so the attributes are checked exactly as a browser sees them.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/fetch.hpp"
#include "support/shapes.hpp"
#include "support/test_gateway.hpp"

#include "account_pages.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>

using namespace gateway;
using gateway::test::fetch;
using gateway::test::raw_response;
using verb = boost::beast::http::verb;
namespace http = boost::beast::http;

namespace {

/// The in-process gateway (its own fresh account database, cheap scrypt: test_gateway does both).
struct account_gateway {
    explicit account_gateway(test::test_gateway::tweak adjust = {})
        : gw(std::move(adjust)) {}
    test::test_gateway gw;
};

/// One parsed Set-Cookie header.
struct set_cookie {
    std::string name;
    std::string value;
    std::set<std::string> flags;                   ///< HttpOnly, Secure (as sent)
    std::map<std::string, std::string> attributes; ///< Path, Max-Age, SameSite
};

std::vector<set_cookie> set_cookies(raw_response const& r) {
    std::vector<set_cookie> out;
    for (auto const& field : r.message) {
        if (field.name() != http::field::set_cookie)
            continue;
        std::string const text(field.value());
        set_cookie c;
        std::size_t pos = 0;
        bool first = true;
        while (pos <= text.size()) {
            auto const semi = text.find(';', pos);
            std::string part = text.substr(pos, semi == std::string::npos ? semi : semi - pos);
            pos = semi == std::string::npos ? text.size() + 1 : semi + 1;
            while (!part.empty() && part.front() == ' ')
                part.erase(0, 1);
            auto const eq = part.find('=');
            if (first) {
                c.name = part.substr(0, eq);
                c.value = eq == std::string::npos ? "" : part.substr(eq + 1);
                first = false;
            } else if (eq == std::string::npos) {
                c.flags.insert(part);
            } else {
                c.attributes[part.substr(0, eq)] = part.substr(eq + 1);
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

std::optional<set_cookie> find_cookie(raw_response const& r, std::string const& name) {
    for (auto& c : set_cookies(r))
        if (c.name == name)
            return c;
    return std::nullopt;
}

std::string form_encode(std::vector<std::pair<std::string, std::string>> const& fields) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (auto const& [k, v] : fields) {
        if (!out.empty())
            out += '&';
        for (auto const* s : {&k, &v}) {
            for (unsigned char ch : *s) {
                if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
                    out += static_cast<char>(ch);
                } else if (ch == ' ') {
                    out += '+';
                } else {
                    out += '%';
                    out += hex[ch >> 4];
                    out += hex[ch & 15];
                }
            }
            if (s == &k)
                out += '=';
        }
    }
    return out;
}

/// A client with a cookie jar, the way a browser would hold it (names only; paths ignored).
struct session_client {
    std::string base;
    std::map<std::string, std::string> jar;

    std::vector<std::pair<std::string, std::string>> cookie_headers() const {
        std::string cookie;
        for (auto const& [k, v] : jar)
            cookie += (cookie.empty() ? "" : "; ") + k + "=" + v;
        if (cookie.empty())
            return {};
        return {{"Cookie", cookie}};
    }

    raw_response keep(raw_response r) {
        for (auto const& c : set_cookies(r)) {
            if (c.attributes.count("Max-Age") && c.attributes.at("Max-Age") == "0")
                jar.erase(c.name);
            else
                jar[c.name] = c.value;
        }
        return r;
    }

    raw_response get(std::string const& path) {
        return keep(fetch(verb::get, base + path, {}, cookie_headers()));
    }

    raw_response post_form(std::string const& path,
                           std::vector<std::pair<std::string, std::string>> const& fields) {
        auto headers = cookie_headers();
        headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
        return keep(fetch(verb::post, base + path, form_encode(fields), headers));
    }

    raw_response json(verb method, std::string const& path, std::string const& body = {},
                      std::optional<std::string> csrf = std::nullopt) {
        auto headers = cookie_headers();
        if (!body.empty())
            headers.emplace_back("Content-Type", "application/json");
        if (csrf)
            headers.emplace_back("X-CSRF-Token", *csrf);
        return keep(fetch(method, base + path, body, headers));
    }
};

/// The value of the first hidden `csrf` field of a page.
std::string csrf_of(std::string const& html) {
    static std::regex const re(R"re(name="csrf" value="([^"]+)")re");
    std::smatch m;
    REQUIRE(std::regex_search(html, m, re));
    return m[1];
}

std::string header_of(raw_response const& r, http::field f) {
    return std::string(r.message[f]);
}

boost::json::object json_of(raw_response const& r) {
    INFO(r.status << " " << r.body);
    REQUIRE(header_of(r, http::field::content_type) == "application/json");
    return boost::json::parse(r.body).as_object();
}

/// `error.details.field` of an error answer.
std::string field_of(raw_response const& r) {
    auto const body = json_of(r);
    auto const& e = body.at("error").as_object();
    auto const* d = e.if_contains("details");
    if (!d || !d->is_object() || !d->as_object().if_contains("field"))
        return {};
    return std::string(d->as_object().at("field").as_string());
}

void check_error(raw_response const& r, unsigned status, std::string const& code,
                 std::string const& message = {}) {
    INFO(r.status << " " << r.body);
    CHECK(r.status == status);
    auto const body = json_of(r);
    auto const& e = body.at("error").as_object();
    CHECK(e.at("code").as_string() == code);
    if (!message.empty())
        CHECK(e.at("message").as_string() == message);
}

constexpr char const* email = "ada@example.com";
constexpr char const* password = "correct horse battery";

/// Signs up and in through the HTML forms; returns the signed-in page.
raw_response sign_up_and_in(session_client& c) {
    auto page = c.get("/account");
    REQUIRE(page.status == 200);
    auto up = c.post_form("/account/signup",
                          {{"email", email}, {"password", password}, {"csrf", csrf_of(page.body)}});
    REQUIRE(up.status == 303);
    page = c.get("/account");
    auto in = c.post_form("/account/signin",
                          {{"email", email}, {"password", password}, {"csrf", csrf_of(page.body)}});
    INFO(in.body);
    REQUIRE(in.status == 303);
    REQUIRE(c.jar.count("gw_session"));
    auto signed_in = c.get("/account");
    REQUIRE(signed_in.status == 200);
    REQUIRE(signed_in.body.find("id=\"create-key-form\"") != std::string::npos);
    return signed_in;
}

/// Signs up and in through the JSON API; returns the CSRF token.
std::string json_sign_up_and_in(session_client& c) {
    auto const creds =
        std::string(R"({"email":")") + email + R"(","password":")" + password + "\"}";
    REQUIRE(c.json(verb::post, "/v1/account/signup", creds).status == 201);
    auto s = c.json(verb::post, "/v1/account/session", creds);
    REQUIRE(s.status == 200);
    return std::string(json_of(s).at("csrfToken").as_string());
}

std::string create_key_via_form(session_client& c, std::string const& name,
                                std::string const& env = "live") {
    auto page = c.get("/account");
    auto r = c.post_form(
        "/account/keys",
        {{"name", name}, {"environment", env}, {"expiresIn", ""}, {"csrf", csrf_of(page.body)}});
    INFO(r.body);
    REQUIRE(r.status == 200);
    static std::regex const re(R"re(id="new-key"[^>]*value="(svc_(live|test)_[0-9A-Za-z]+)")re");
    std::smatch m;
    REQUIRE(std::regex_search(r.body, m, re));
    return m[1];
}

std::string key_id_in_list(std::string const& html, std::string const& name) {
    std::regex const re("<tr id=\"key-([0-9]+)\"[^>]*><td class=\"key-name\">" + name + "</td>");
    std::smatch m;
    REQUIRE(std::regex_search(html, m, re));
    return m[1];
}

} // namespace

TEST_CASE("signed out, /account offers sign-in and sign-up forms with a double-submitted CSRF "
          "token",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto r = c.get("/account");
    REQUIRE(r.status == 200);
    CHECK(header_of(r, http::field::content_type) == "text/html; charset=utf-8");
    CHECK(header_of(r, http::field::cache_control) == "no-store");
    CHECK(std::string(r.message["Content-Security-Policy"]).find("default-src 'none'") == 0);
    CHECK(r.body.find("id=\"signin-form\"") != std::string::npos);
    CHECK(r.body.find("id=\"signup-form\"") != std::string::npos);
    CHECK(r.body.find("<label for=\"signin-email\">") != std::string::npos);
    auto cookie = find_cookie(r, "gw_csrf");
    REQUIRE(cookie);
    CHECK(cookie->value == csrf_of(r.body));
    CHECK(cookie->flags.count("HttpOnly"));
    CHECK_FALSE(cookie->flags.count("Secure"));
    CHECK(cookie->attributes["SameSite"] == "Strict");
    CHECK(cookie->attributes["Path"] == "/account");
    // No API key needed anywhere under /account.
    CHECK(r.body.find("INVALID_API_KEY") == std::string::npos);
}

TEST_CASE("signing in through the form sets an HttpOnly SameSite=Strict session cookie that "
          "lasts the session lifetime, without Secure over plain HTTP",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto page = c.get("/account");
    auto up = c.post_form("/account/signup",
                          {{"email", email}, {"password", password}, {"csrf", csrf_of(page.body)}});
    REQUIRE(up.status == 303);
    CHECK(header_of(up, http::field::location) == "/account?notice=signed-up");
    CHECK_FALSE(find_cookie(up, "gw_session"));
    page = c.get("/account?notice=signed-up");
    CHECK(page.body.find("Account created.") != std::string::npos);

    auto in = c.post_form("/account/signin",
                          {{"email", email}, {"password", password}, {"csrf", csrf_of(page.body)}});
    REQUIRE(in.status == 303);
    CHECK(header_of(in, http::field::location) == "/account");
    auto cookie = find_cookie(in, "gw_session");
    REQUIRE(cookie);
    CHECK(cookie->value.size() >= 32);
    CHECK(cookie->flags.count("HttpOnly"));
    CHECK_FALSE(cookie->flags.count("Secure"));
    CHECK(cookie->attributes["SameSite"] == "Strict");
    CHECK(cookie->attributes["Path"] == "/");
    CHECK(cookie->attributes["Max-Age"] == "43200");

    auto home = c.get("/account");
    REQUIRE(home.status == 200);
    CHECK(home.body.find("ada@example.com") != std::string::npos);
    CHECK(home.body.find("id=\"no-keys\"") != std::string::npos);
    CHECK(home.body.find("id=\"signout-form\"") != std::string::npos);
}

TEST_CASE("cookies carry Secure only when the routes are told the pages are served over TLS",
          "[contract][account]") {
    auto const plain = server::pages::set_cookie("gw_session", "abc", "/", 60, false);
    auto const tls = server::pages::set_cookie("gw_session", "abc", "/", 60, true);
    CHECK(plain == "gw_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Strict");
    CHECK(tls == "gw_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure");
}

TEST_CASE("sign-up and sign-in errors re-render the form with the message, HTML-escaped",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto page = c.get("/account");
    auto const csrf = csrf_of(page.body);

    SECTION("a short password names the password field") {
        auto r = c.post_form("/account/signup",
                             {{"email", "bob@example.com"}, {"password", "short"}, {"csrf", csrf}});
        CHECK(r.status == 400);
        CHECK(r.body.find("id=\"signup-error\"") != std::string::npos);
        CHECK(r.body.find("password") != std::string::npos);
        CHECK(r.body.find("value=\"bob@example.com\"") != std::string::npos);
    }
    SECTION("a wrong password is refused with the same words as an unknown email") {
        REQUIRE(c.post_form("/account/signup",
                            {{"email", email}, {"password", password}, {"csrf", csrf}})
                    .status == 303);
        auto wrong = c.post_form(
            "/account/signin", {{"email", email}, {"password", "wrong password!"}, {"csrf", csrf}});
        auto unknown = c.post_form(
            "/account/signin",
            {{"email", "nobody@example.com"}, {"password", "wrong password!"}, {"csrf", csrf}});
        CHECK(wrong.status == 401);
        CHECK(unknown.status == 401);
        CHECK(wrong.body.find("id=\"signin-error\"") != std::string::npos);
        CHECK(wrong.body.find("Invalid email or password.") != std::string::npos);
        CHECK(unknown.body.find("Invalid email or password.") != std::string::npos);
        CHECK_FALSE(c.jar.count("gw_session"));
    }
    SECTION("what the visitor typed comes back escaped") {
        auto r = c.post_form(
            "/account/signin",
            {{"email", "\"><script>alert(1)</script>"}, {"password", "x"}, {"csrf", csrf}});
        CHECK(r.body.find("<script>alert(1)") == std::string::npos);
        CHECK(r.body.find("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    }
}

TEST_CASE("every state-changing form refuses a missing or wrong CSRF token with 403",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const home = sign_up_and_in(c);
    auto const good = csrf_of(home.body);
    create_key_via_form(c, "ci");
    auto const list = c.get("/account");
    auto const id = key_id_in_list(list.body, "ci");

    auto const token = GENERATE(as<std::string>{}, "", "wrong");
    auto const sent = token == "wrong" ? std::string(good.size(), '0') : token;
    auto const path = GENERATE(as<std::string>{}, "/account/signout", "/account/keys",
                               "/account/keys/{id}/revoke", "/account/signin", "/account/signup");
    std::string target = path;
    if (auto const p = target.find("{id}"); p != std::string::npos)
        target.replace(p, 4, id);
    CAPTURE(target, token);

    std::vector<std::pair<std::string, std::string>> fields{
        {"email", email}, {"password", password}, {"name", "sneaky"}, {"environment", "live"}};
    if (!sent.empty())
        fields.emplace_back("csrf", sent);
    auto r = c.post_form(target, fields);
    CHECK(r.status == 403);
    CHECK(header_of(r, http::field::content_type) == "text/html; charset=utf-8");
    CHECK(r.body.find("security token") != std::string::npos);

    // Nothing happened: still signed in, no new key, the key still active.
    auto after = c.get("/account");
    REQUIRE(after.status == 200);
    CHECK(after.body.find("id=\"create-key-form\"") != std::string::npos);
    CHECK(after.body.find(">sneaky<") == std::string::npos);
    CHECK(after.body.find("<td class=\"key-status\">active</td>") != std::string::npos);
}

TEST_CASE("the sign-in and sign-up forms refuse a token that does not match the browser's "
          "cookie",
          "[contract][account]") {
    account_gateway a;
    session_client victim{a.gw.base_url, {}};
    session_client attacker{a.gw.base_url, {}};
    auto const attackers_token = csrf_of(attacker.get("/account").body);
    victim.get("/account"); // the victim holds a gw_csrf cookie of their own
    auto r = victim.post_form(
        "/account/signup",
        {{"email", "mallory@example.com"}, {"password", password}, {"csrf", attackers_token}});
    CHECK(r.status == 403);
    session_client no_cookie{a.gw.base_url, {}};
    CHECK(no_cookie
              .post_form("/account/signup", {{"email", "mallory@example.com"},
                                             {"password", password},
                                             {"csrf", attackers_token}})
              .status == 403);
}

TEST_CASE("every state-changing JSON call refuses a missing or wrong X-CSRF-Token",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const csrf = json_sign_up_and_in(c);
    auto created =
        c.json(verb::post, "/v1/account/keys", R"({"name":"ci","environment":"live"})", csrf);
    REQUIRE(created.status == 201);
    auto const id = std::to_string(json_of(created).at("id").as_int64());

    auto const token = GENERATE(as<std::optional<std::string>>{}, std::nullopt,
                                std::optional<std::string>("0123"));
    CAPTURE(token.value_or("(none)"));
    // A session without its CSRF token: 403 CSRF_REJECTED (CONTRACT 2), not a missing key.
    check_error(
        c.json(verb::post, "/v1/account/keys", R"({"name":"x","environment":"live"})", token), 403,
        "CSRF_REJECTED", "Missing or invalid CSRF token.");
    check_error(c.json(verb::delete_, "/v1/account/keys/" + id, {}, token), 403, "CSRF_REJECTED",
                "Missing or invalid CSRF token.");
    check_error(c.json(verb::delete_, "/v1/account/session", {}, token), 403, "CSRF_REJECTED",
                "Missing or invalid CSRF token.");

    auto list = json_of(c.json(verb::get, "/v1/account/keys"));
    REQUIRE(list.at("keys").as_array().size() == 1);
    CHECK(list.at("keys").as_array()[0].at("status").as_string() == "active");
}

TEST_CASE("a new key is shown once: the creation page has it, the list only its masked form",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const home = sign_up_and_in(c);
    auto r = c.post_form("/account/keys", {{"name", "trading <bot>"},
                                           {"environment", "test"},
                                           {"expiresIn", "30d"},
                                           {"csrf", csrf_of(home.body)}});
    REQUIRE(r.status == 200);
    CHECK(header_of(r, http::field::cache_control) == "no-store");
    CHECK(r.body.find("id=\"copy-key\"") != std::string::npos);
    CHECK(r.body.find("navigator.clipboard") != std::string::npos);
    CHECK(r.body.find("will not be shown again") != std::string::npos);
    CHECK(r.body.find("trading &lt;bot&gt;") != std::string::npos);
    std::smatch m;
    static std::regex const re(
        R"re(id="new-key"[^>]*readonly[^>]*value="(svc_test_[0-9A-Za-z]{40,})")re");
    REQUIRE(std::regex_search(r.body, m, re));
    std::string const key = m[1];

    auto list = c.get("/account");
    CHECK(list.body.find(key) == std::string::npos);
    std::string const masked = "svc_test_\xE2\x80\xA6" + key.substr(key.size() - 4);
    CHECK(list.body.find(masked) != std::string::npos);
    CHECK(list.body.find("<td class=\"key-environment\">test</td>") != std::string::npos);
    CHECK(list.body.find("<td class=\"key-last-used\">never</td>") != std::string::npos);
    CHECK(list.body.find("<td class=\"key-status\">active</td>") != std::string::npos);
    static std::regex const iso(
        R"(<td class="key-expires"><time datetime="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z">)");
    CHECK(std::regex_search(list.body, iso));

    auto json = c.json(verb::get, "/v1/account/keys");
    CHECK(json.body.find(key) == std::string::npos);
    auto const item = json_of(json).at("keys").as_array().at(0).as_object();
    CHECK(item.at("masked").as_string() == masked);
    CHECK(item.at("expiresAt").as_int64() - item.at("createdAt").as_int64() == 30LL * 86400 * 1000);
}

TEST_CASE("revoking a key through the form asks first, then the API refuses the key",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    sign_up_and_in(c);
    auto const key = create_key_via_form(c, "prices");
    auto list = c.get("/account");
    auto const id = key_id_in_list(list.body, "prices");
    CHECK(list.body.find("action=\"/account/keys/" + id + "/revoke\" data-confirm=") !=
          std::string::npos);
    CHECK(list.body.find("window.confirm") != std::string::npos);

    auto const prices = a.gw.base_url + "/v1/perps/alpha/prices";
    auto before = fetch(verb::get, prices, {}, {{"X-API-Key", key}});
    CHECK(before.status == 200);

    auto r = c.post_form("/account/keys/" + id + "/revoke", {{"csrf", csrf_of(list.body)}});
    REQUIRE(r.status == 303);
    CHECK(header_of(r, http::field::location) == "/account?notice=revoked");
    list = c.get("/account?notice=revoked");
    CHECK(list.body.find("<td class=\"key-status\">revoked</td>") != std::string::npos);
    CHECK(list.body.find("id=\"revoke-" + id + "\"") == std::string::npos);

    check_error(fetch(verb::get, prices, {}, {{"X-API-Key", key}}), 401, "INVALID_API_KEY",
                "Invalid API key");

    // Revoking again: there is no active key with that id.
    auto again = c.post_form("/account/keys/" + id + "/revoke", {{"csrf", csrf_of(list.body)}});
    CHECK(again.status == 404);
    CHECK(again.body.find("id=\"create-error\"") != std::string::npos);
}

TEST_CASE("the JSON account API signs up, signs in, lists, creates and revokes keys",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const creds =
        std::string(R"({"email":")") + email + R"(","password":")" + password + "\"}";

    auto up = c.json(verb::post, "/v1/account/signup", creds);
    REQUIRE(up.status == 201);
    auto const account = json_of(up);
    CHECK(test::keys(account) == std::set<std::string>{"id", "email"});
    CHECK(account.at("email").as_string() == email);
    auto dup = c.json(verb::post, "/v1/account/signup", creds);
    check_error(dup, 400, "VALIDATION_ERROR");
    CHECK(field_of(dup) == "email");

    check_error(c.json(verb::get, "/v1/account/keys"), 401, "INVALID_API_KEY", "Sign in required.");

    auto s = c.json(verb::post, "/v1/account/session", creds);
    REQUIRE(s.status == 200);
    auto const session = json_of(s);
    CHECK(test::keys(session) == std::set<std::string>{"email", "csrfToken"});
    auto const csrf = std::string(session.at("csrfToken").as_string());
    auto cookie = find_cookie(s, "gw_session");
    REQUIRE(cookie);
    CHECK(cookie->flags.count("HttpOnly"));
    CHECK(cookie->attributes["SameSite"] == "Strict");

    CHECK(json_of(c.json(verb::get, "/v1/account/keys")).at("keys").as_array().empty());

    auto created =
        c.json(verb::post, "/v1/account/keys",
               R"({"name":"bot","environment":"live","expiresIn":"12h","rate":5})", csrf);
    REQUIRE(created.status == 201);
    auto const k = json_of(created);
    std::set<std::string> const listing{"id",          "name",      "masked",
                                        "environment", "createdAt", "lastUsedAt",
                                        "expiresAt",   "revokedAt", "status"};
    auto with_key = listing;
    with_key.insert("key");
    CHECK(test::keys(k) == with_key);
    CHECK(std::regex_match(std::string(k.at("key").as_string()),
                           std::regex("svc_live_[0-9A-Za-z]{40,}")));
    CHECK(k.at("environment").as_string() == "live");
    CHECK(k.at("status").as_string() == "active");
    CHECK(k.at("lastUsedAt").is_null());
    CHECK(k.at("revokedAt").is_null());
    CHECK(k.at("expiresAt").as_int64() - k.at("createdAt").as_int64() == 12LL * 3600 * 1000);

    auto list = json_of(c.json(verb::get, "/v1/account/keys"));
    REQUIRE(list.at("keys").as_array().size() == 1);
    CHECK(test::keys(list.at("keys").as_array()[0].as_object()) == listing);

    SECTION("bodies are strict") {
        auto unknown = c.json(verb::post, "/v1/account/keys",
                              R"({"name":"x","environment":"live","colour":"red"})", csrf);
        check_error(unknown, 400, "VALIDATION_ERROR");
        CHECK(field_of(unknown) == "colour");
        check_error(c.json(verb::post, "/v1/account/keys", R"({"name":"x",)", csrf), 400,
                    "INVALID_JSON");
        check_error(c.json(verb::post, "/v1/account/keys", "[1]", csrf), 400, "INVALID_JSON");
        auto env =
            c.json(verb::post, "/v1/account/keys", R"({"name":"x","environment":"prod"})", csrf);
        check_error(env, 400, "VALIDATION_ERROR");
        CHECK(field_of(env) == "environment");
        auto exp = c.json(verb::post, "/v1/account/keys",
                          R"({"name":"x","environment":"test","expiresIn":"soon"})", csrf);
        check_error(exp, 400, "VALIDATION_ERROR");
        CHECK(field_of(exp) == "expiresIn");
        auto form = fetch(verb::post, a.gw.base_url + "/v1/account/keys", "name=x",
                          {{"Content-Type", "application/x-www-form-urlencoded"},
                           {"Cookie", "gw_session=" + c.jar.at("gw_session")},
                           {"X-CSRF-Token", csrf}});
        check_error(form, 415, "UNSUPPORTED_MEDIA_TYPE");
        CHECK(json_of(c.json(verb::get, "/v1/account/keys")).at("keys").as_array().size() == 1);
    }
    SECTION("revoke answers the id and status, then 404 NOT_FOUND") {
        auto const id = k.at("id").as_int64();
        auto del = c.json(verb::delete_, "/v1/account/keys/" + std::to_string(id), {}, csrf);
        REQUIRE(del.status == 200);
        CHECK(boost::json::serialize(json_of(del)) ==
              R"({"id":)" + std::to_string(id) + R"(,"status":"revoked"})");
        auto const item =
            json_of(c.json(verb::get, "/v1/account/keys")).at("keys").as_array().at(0).as_object();
        CHECK(item.at("status").as_string() == "revoked");
        CHECK(item.at("revokedAt").is_int64());
        check_error(c.json(verb::delete_, "/v1/account/keys/" + std::to_string(id), {}, csrf), 404,
                    "NOT_FOUND");
        check_error(c.json(verb::delete_, "/v1/account/keys/abc", {}, csrf), 404, "NOT_FOUND");
    }
    SECTION("another account cannot see or revoke the key") {
        session_client other{a.gw.base_url, {}};
        auto const creds2 = R"({"email":"eve@example.com","password":"another password"})";
        REQUIRE(other.json(verb::post, "/v1/account/signup", creds2).status == 201);
        auto s2 = other.json(verb::post, "/v1/account/session", creds2);
        auto const csrf2 = std::string(json_of(s2).at("csrfToken").as_string());
        CHECK(json_of(other.json(verb::get, "/v1/account/keys")).at("keys").as_array().empty());
        check_error(other.json(verb::delete_,
                               "/v1/account/keys/" + std::to_string(k.at("id").as_int64()), {},
                               csrf2),
                    404, "NOT_FOUND");
    }
}

TEST_CASE("signing out ends the session for the cookie that held it", "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};

    SECTION("through the form") {
        auto const home = sign_up_and_in(c);
        auto const stolen = c.jar.at("gw_session");
        auto r = c.post_form("/account/signout", {{"csrf", csrf_of(home.body)}});
        REQUIRE(r.status == 303);
        CHECK(header_of(r, http::field::location) == "/account?notice=signed-out");
        auto cleared = find_cookie(r, "gw_session");
        REQUIRE(cleared);
        CHECK(cleared->value.empty());
        CHECK(cleared->attributes["Max-Age"] == "0");
        CHECK_FALSE(c.jar.count("gw_session"));

        session_client replay{a.gw.base_url, {{"gw_session", stolen}}};
        check_error(replay.json(verb::get, "/v1/account/keys"), 401, "INVALID_API_KEY",
                    "Sign in required.");
        auto page = replay.get("/account");
        CHECK(page.body.find("id=\"signin-form\"") != std::string::npos);
    }
    SECTION("through the JSON API") {
        auto const csrf = json_sign_up_and_in(c);
        auto const stolen = c.jar.at("gw_session");
        auto r = c.json(verb::delete_, "/v1/account/session", {}, csrf);
        REQUIRE(r.status == 200);
        CHECK(boost::json::serialize(json_of(r)) == R"({"signedOut":true})");
        REQUIRE(find_cookie(r, "gw_session"));
        CHECK(find_cookie(r, "gw_session")->attributes["Max-Age"] == "0");
        session_client replay{a.gw.base_url, {{"gw_session", stolen}}};
        check_error(replay.json(verb::get, "/v1/account/keys"), 401, "INVALID_API_KEY",
                    "Sign in required.");
    }
}

TEST_CASE("an expired session is refused and the page asks to sign in again",
          "[contract][account]") {
    account_gateway a(
        [](server::server_config& c) { c.session_lifetime = std::chrono::seconds(60); });
    session_client c{a.gw.base_url, {}};
    auto const creds =
        std::string(R"({"email":")") + email + R"(","password":")" + password + "\"}";
    REQUIRE(c.json(verb::post, "/v1/account/signup", creds).status == 201);
    auto s = c.json(verb::post, "/v1/account/session", creds);
    REQUIRE(s.status == 200);
    auto cookie = find_cookie(s, "gw_session");
    REQUIRE(cookie);
    CHECK(cookie->attributes["Max-Age"] == "60");
    auto const csrf = std::string(json_of(s).at("csrfToken").as_string());

    // The accounts service runs on the test's clock: move it, no waiting.
    a.gw.clock->advance(std::chrono::milliseconds(59'000));
    CHECK(c.json(verb::get, "/v1/account/keys").status == 200);
    a.gw.clock->advance(std::chrono::milliseconds(2'000));

    check_error(c.json(verb::get, "/v1/account/keys"), 401, "INVALID_API_KEY", "Sign in required.");
    check_error(
        c.json(verb::post, "/v1/account/keys", R"({"name":"late","environment":"live"})", csrf),
        401, "INVALID_API_KEY", "Sign in required.");
    check_error(c.json(verb::delete_, "/v1/account/session", {}, csrf), 401, "INVALID_API_KEY",
                "Sign in required.");

    auto page = c.get("/account");
    REQUIRE(page.status == 200);
    CHECK(page.body.find("id=\"signin-form\"") != std::string::npos);
    CHECK(page.body.find("Your session has ended.") != std::string::npos);

    auto post =
        c.post_form("/account/keys", {{"name", "late"}, {"environment", "live"}, {"csrf", csrf}});
    CHECK(post.status == 303);
    CHECK(header_of(post, http::field::location) == "/account?notice=session-ended");
    CHECK(c.post_form("/account/signout", {{"csrf", csrf}}).status == 303);
}

// ---- issue 10: hostile clients ------------------------------------------------------------

TEST_CASE("sign-ups from one address are limited: 429 RATE_LIMITED with Retry-After",
          "[contract][account]") {
    account_gateway a([](server::server_config& c) {
        c.signup_per_address_burst = 2;
        c.signup_per_address_per_hour = 1;
    });
    session_client c{a.gw.base_url, {}};
    auto creds = [](std::string const& who) {
        return R"({"email":")" + who + R"(@example.com","password":"correct horse battery"})";
    };
    CHECK(c.json(verb::post, "/v1/account/signup", creds("one")).status == 201);
    CHECK(c.json(verb::post, "/v1/account/signup", creds("two")).status == 201);
    auto const refused = c.json(verb::post, "/v1/account/signup", creds("three"));
    check_error(refused, 429, "RATE_LIMITED", "Too many sign-ups; try again in 3600 seconds.");
    CHECK(header_of(refused, http::field::retry_after) == "3600");
    CHECK_FALSE(a.gw.app->accounts().find_account("three@example.com"));

    // The form says the same, on the sign-up form, with the header.
    auto page = c.get("/account");
    auto form = c.post_form(
        "/account/signup",
        {{"email", "four@example.com"}, {"password", password}, {"csrf", csrf_of(page.body)}});
    CHECK(form.status == 429);
    CHECK(header_of(form, http::field::retry_after) == "3600");
    CHECK(form.body.find("id=\"signup-error\"") != std::string::npos);
    CHECK(form.body.find("Too many sign-ups") != std::string::npos);
    CHECK_FALSE(a.gw.app->accounts().find_account("four@example.com"));
}

TEST_CASE("wrong passwords throttle the address that sent them, not the account's owner",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const right =
        std::string(R"({"email":")") + email + R"(","password":")" + password + "\"}";
    auto const wrong = std::string(R"({"email":")") + email + R"(","password":"not it at all"})";
    REQUIRE(c.json(verb::post, "/v1/account/signup", right).status == 201);
    for (int i = 0; i < 5; ++i)
        check_error(c.json(verb::post, "/v1/account/session", wrong), 401, "INVALID_CREDENTIALS",
                    "Invalid email or password.");
    auto const throttled = c.json(verb::post, "/v1/account/session", right);
    check_error(throttled, 429, "RATE_LIMITED");
    auto const retry = header_of(throttled, http::field::retry_after);
    CHECK_FALSE(retry.empty());
    CHECK(std::stoi(retry) > 800);
    CHECK(std::stoi(retry) <= 900);
    // The owner, from another address, still gets in.
    CHECK(a.gw.app->accounts().sign_in(email, password, "198.51.100.20"));
}

TEST_CASE("an account under attack from many addresses answers late, never refuses",
          "[contract][account]") {
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const right =
        std::string(R"({"email":")") + email + R"(","password":")" + password + "\"}";
    REQUIRE(c.json(verb::post, "/v1/account/signup", right).status == 201);
    auto& accounts = a.gw.app->accounts();
    for (int i = 0; i < 10; ++i) // ten strangers, one guess each
        REQUIRE(
            accounts.sign_in(email, "not it at all", "10.9.0." + std::to_string(i)).error().code ==
            errc::invalid_credentials);
    auto const hold = accounts.sign_in_slowdown(email);
    REQUIRE(hold > std::chrono::milliseconds(0));
    auto const t0 = std::chrono::steady_clock::now();
    auto const in = c.json(verb::post, "/v1/account/session", right);
    auto const took = std::chrono::steady_clock::now() - t0;
    CHECK(in.status == 200);
    CHECK(took >= hold);
}

TEST_CASE("the database holds neither the session token nor the CSRF token handed out",
          "[contract][account]") {
    // Issue 10 item 10: CSRF tokens were stored in plain text.
    account_gateway a;
    session_client c{a.gw.base_url, {}};
    auto const csrf = json_sign_up_and_in(c);
    auto const token = c.jar.at("gw_session");
    auto const page_csrf = csrf_of(c.get("/account").body);
    CHECK(page_csrf == csrf); // the page and the API derive the same token
    std::string bytes;
    for (auto const& e : std::filesystem::directory_iterator(a.gw.data_dir)) {
        std::ifstream in(e.path(), std::ios::binary);
        bytes.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    REQUIRE(bytes.find(email) != std::string::npos); // the right files
    CHECK(bytes.find(token) == std::string::npos);
    CHECK(bytes.find(csrf) == std::string::npos);
    CHECK(bytes.find(csrf.substr(0, 16)) == std::string::npos);
}

TEST_CASE("an 11th usable key is 409 KEY_LIMIT_REACHED on the JSON API and the settings page "
          "and revoking one makes room",
          "[contract][auth]") {
    test::test_gateway gw;
    session_client c{gw.base_url, {}};
    auto const csrf = json_sign_up_and_in(c);
    std::vector<std::string> ids;
    for (int i = 0; i < 10; ++i) {
        auto r =
            c.json(verb::post, "/v1/account/keys", R"({"name":"ci","environment":"live"})", csrf);
        REQUIRE(r.status == 201);
        ids.push_back(std::to_string(json_of(r).at("id").as_int64()));
    }
    auto eleventh =
        c.json(verb::post, "/v1/account/keys", R"({"name":"ci","environment":"live"})", csrf);
    check_error(eleventh, 409, "KEY_LIMIT_REACHED");
    CHECK(json_of(c.json(verb::get, "/v1/account/keys")).at("keys").as_array().size() == 10);

    // The settings page's form goes through the same service: refused, the page says why.
    auto page = c.get("/account");
    auto form = c.post_form("/account/keys", {{"name", "web"},
                                              {"environment", "live"},
                                              {"expiresIn", ""},
                                              {"csrf", csrf_of(page.body)}});
    CHECK(form.status == 409);
    CHECK(form.body.find("revoke one to create another") != std::string::npos);

    REQUIRE(c.json(verb::delete_, "/v1/account/keys/" + ids[0], {}, csrf).status == 200);
    auto after =
        c.json(verb::post, "/v1/account/keys", R"({"name":"ci","environment":"live"})", csrf);
    CHECK(after.status == 201);
    check_error(
        c.json(verb::post, "/v1/account/keys", R"({"name":"ci","environment":"live"})", csrf), 409,
        "KEY_LIMIT_REACHED");
}
