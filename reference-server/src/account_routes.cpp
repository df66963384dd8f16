// Spec 5.1, CONTRACT §9: accounts and API keys, for people and for scripts.
//
// HTML (`/account...`): the settings page, server-rendered, `application/x-www-form-urlencoded`
// forms, Post/Redirect/Get with 303 (except key creation, whose answer is the one page that
// shows the full key). JSON (`/v1/account/...`): the same operations for scripts.
//
// Sessions travel in the `gw_session` cookie (HttpOnly, SameSite=Strict, Secure when
// `account_route_options::secure_cookies`). State changes need the session's CSRF token: the
// hidden `csrf` field of every form, or the `X-CSRF-Token` header of every JSON call. The two
// signed-out forms (sign in, sign up) have no session yet, so their token is double-submitted:
// the page sets it in the `gw_csrf` cookie (Path=/account) and embeds it in the forms, and the
// POST must bring both, equal. JSON sign-up and sign-in need no token: they demand
// `application/json`, which a cross-site form cannot send without a CORS preflight we never
// allow.
//
// None of these paths takes an API key (the server's key check skips them).
//
// The account service is synchronous (SQLite, scrypt), so every handler body runs on a small
// thread pool of its own and the connection's I/O thread only waits for it (co_await, no lock
// held across it): a burst of sign-in attempts (each an scrypt), or a database another process
// keeps locked, never stalls the API's I/O threads. Every database write happens there. A
// database locked past the service's bound answers 503 with Retry-After, never 500.
//
// Abuse (issue 10): sign-ups are limited per client address and globally, before any scrypt
// (the service counts them); failed sign-ins are throttled per (account, address) and per
// address with 429 + Retry-After; an account attacked from many addresses is only slowed: the
// answer about it is held back on a timer (no thread held), right or wrong password alike.
#include "account_bodies.hpp"
#include "account_pages.hpp"
#include "config.hpp"
#include "http/session.hpp"
#include "routes/routes.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <gateway/types/json_fields.hpp>

#include <cctype>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gateway::server {

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;

constexpr std::string_view session_cookie = "gw_session";
constexpr std::string_view presession_cookie = "gw_csrf";
constexpr std::int64_t presession_max_age = std::int64_t{2} * 3600;
constexpr std::size_t token_bytes = 32;
/// Retry-After of a 503 for a database another process keeps locked.
constexpr unsigned busy_retry_after_s = 2;

/// The system clock, for the key list's `status` only (display). Expiry that matters, of
/// sessions and keys, is decided by the account service on its own (injectable) clock.
std::int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// ---- running the synchronous service off the I/O threads ------------------------------------

using sync_handler = std::function<result<reply>(request_context& ctx)>;

/// What a handler on the HTML pages or the JSON API answers when the database stayed locked.
enum class answer_as { json, html };

reply busy_page();

/// Runs `f` on `pool`, resuming the calling coroutine on its own executor with the outcome. A
/// `database_busy` from `f` becomes 503 with Retry-After; any other exception is rethrown here,
/// where the app turns it into 500 INTERNAL_ERROR.
asio::awaitable<result<reply>> run_on(asio::thread_pool& pool, sync_handler const& f,
                                      request_context& ctx, answer_as as) {
    std::optional<result<reply>> out;
    std::exception_ptr failure;
    co_await asio::async_initiate<asio::use_awaitable_t<> const, void()>(
        [&](auto handler) {
            auto work = asio::make_work_guard(asio::get_associated_executor(handler));
            asio::post(pool, [&, handler = std::move(handler), work = std::move(work)]() mutable {
                try {
                    out.emplace(f(ctx));
                } catch (auth::database_busy const&) {
                    if (as == answer_as::html) {
                        out.emplace(busy_page());
                    } else {
                        api_error e = make_error(errc::provider_unavailable,
                                                 "The account database is busy; try again in a "
                                                 "few seconds.");
                        e.retry_after = busy_retry_after_s;
                        out.emplace(std::move(e));
                    }
                } catch (...) {
                    failure = std::current_exception();
                }
                asio::dispatch(work.get_executor(), std::move(handler));
                work.reset();
            });
        },
        asio::use_awaitable);
    if (failure)
        std::rethrow_exception(failure);
    co_return std::move(*out);
}

route_handler on_pool(std::shared_ptr<asio::thread_pool> pool, sync_handler f,
                      answer_as as = answer_as::json) {
    // The lambda lives in the router as long as the app; the request context outlives the call.
    return [pool = std::move(pool), f = std::move(f),
            as](request_context& ctx) -> asio::awaitable<result<reply>> {
        co_return co_await run_on(*pool, f, ctx, as);
    };
}

/// A sign-in handler: `f` runs on `pool` and says (in `hold`) how long the answer must wait
/// from the request's start; the wait is a timer, so a slowed account holds no thread.
using sign_in_handler =
    std::function<result<reply>(request_context& ctx, std::chrono::milliseconds& hold)>;

route_handler sign_in_on_pool(std::shared_ptr<asio::thread_pool> pool, sign_in_handler f,
                              answer_as as = answer_as::json) {
    return [pool = std::move(pool), f = std::move(f),
            as](request_context& ctx) -> asio::awaitable<result<reply>> {
        auto const started = std::chrono::steady_clock::now();
        std::chrono::milliseconds hold{0};
        auto out = co_await run_on(
            *pool, [&](request_context& c) { return f(c, hold); }, ctx, as);
        if (hold.count() > 0) {
            asio::steady_timer timer(co_await asio::this_coro::executor, started + hold);
            co_await timer.async_wait(asio::use_awaitable);
        }
        co_return out;
    };
}

/// `on_pool` for the HTML pages (a busy database answers a page).
route_handler page_on_pool(std::shared_ptr<asio::thread_pool> pool, sync_handler f) {
    return on_pool(std::move(pool), std::move(f), answer_as::html);
}

route_handler sign_in_page_on_pool(std::shared_ptr<asio::thread_pool> pool, sign_in_handler f) {
    return sign_in_on_pool(std::move(pool), std::move(f), answer_as::html);
}

// ---- request pieces -------------------------------------------------------------------------

std::optional<std::string_view> request_cookie(net::request const& req, std::string_view name) {
    auto const [first, last] = req.equal_range(http::field::cookie);
    for (auto it = first; it != last; ++it)
        if (auto v = pages::cookie_in(it->value(), name))
            return v;
    return std::nullopt;
}

bool media_type_is(net::request const& req, std::string_view expected) {
    auto const it = req.find(http::field::content_type);
    if (it == req.end())
        return false;
    std::string_view v = it->value();
    v = v.substr(0, v.find(';'));
    while (!v.empty() && v.back() == ' ')
        v.remove_suffix(1);
    if (v.size() != expected.size())
        return false;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(v[i])) != expected[i])
            return false;
    return true;
}

std::optional<std::string_view> header(net::request const& req, std::string_view name) {
    auto const it = req.find(name);
    if (it == req.end())
        return std::nullopt;
    return std::string_view(it->value());
}

struct signed_in {
    std::string token;
    auth::session info;
};

/// The caller's live session, from the `gw_session` cookie.
std::optional<signed_in> current_session(net::request const& req, auth::account_service& acc) {
    auto const token = request_cookie(req, session_cookie);
    if (!token || token->empty())
        return std::nullopt;
    auto s = acc.find_session(*token); // the service owns expiry (and its clock)
    if (!s)
        return std::nullopt;
    return signed_in{std::string(*token), std::move(*s)};
}

/// A decoded form body. Unknown fields are ignored (browsers may add some); a field sent twice
/// counts once, first wins.
struct form {
    path_params fields;
    std::string get(std::string_view name) const {
        for (auto const& [k, v] : fields)
            if (k == name)
                return v;
        return {};
    }
};

form parse_form(std::string_view body) {
    // x-www-form-urlencoded is the query-string grammar with '+' for space.
    return form{util::parse_query(body)};
}

/// How the session cookie is written.
struct cookie_policy {
    bool secure = false;
    std::int64_t session_max_age = 0; ///< seconds: the configured session lifetime
};

std::string session_cookie_value(signed_in const& s, cookie_policy const& c) {
    return pages::set_cookie(session_cookie, s.token, "/", c.session_max_age, c.secure);
}

std::string clear_session_cookie(cookie_policy const& c) {
    return pages::set_cookie(session_cookie, "", "/", 0, c.secure);
}

// ---- HTML replies ---------------------------------------------------------------------------

using header_list = std::vector<std::pair<std::string, std::string>>;

reply html(unsigned status, std::string page, std::string_view nonce, header_list extra = {}) {
    reply r;
    r.status = status;
    r.raw_body = std::move(page);
    r.content_type = "text/html; charset=utf-8";
    // no-store on every account page: the one-time key page above all, but the key list and the
    // CSRF tokens have no business in a cache either.
    r.headers = {{"Cache-Control", "no-store"},
                 {"Content-Security-Policy", pages::content_security_policy(nonce)},
                 {"X-Frame-Options", "DENY"},
                 {"X-Content-Type-Options", "nosniff"},
                 {"Referrer-Policy", "no-referrer"}};
    for (auto& h : extra)
        r.headers.push_back(std::move(h));
    return r;
}

/// 303 See Other to `location` (Post/Redirect/Get), with at most one cookie to set.
reply see_other(std::string location, std::optional<std::string> cookie = std::nullopt) {
    reply r;
    r.status = 303;
    r.raw_body = std::string();
    r.content_type = "text/html; charset=utf-8";
    r.headers = {{"Location", std::move(location)}, {"Cache-Control", "no-store"}};
    if (cookie)
        r.headers.emplace_back("Set-Cookie", std::move(*cookie));
    return r;
}

reply message_page(unsigned status, std::string_view title, std::string_view message) {
    auto const nonce = pages::random_hex(16);
    return html(status, pages::render_message(nonce, title, message), nonce);
}

reply csrf_rejected_page() {
    return message_page(403, "Request refused",
                        "The form's security token is missing or out of date. Go back to the "
                        "account page, reload it and try again.");
}

reply busy_page() {
    auto page = message_page(503, "Try again shortly",
                             "The account database is busy; try again in a few seconds.");
    page.headers.emplace_back("Retry-After", std::to_string(busy_retry_after_s));
    return page;
}

reply not_a_form_page() {
    return message_page(415, "Unsupported form",
                        "Forms must be sent as application/x-www-form-urlencoded.");
}

/// The fixed status messages `/account?notice=...` may show (never text from the URL).
std::string notice_text(std::optional<std::string_view> code) {
    if (!code)
        return {};
    if (*code == "signed-up")
        return "Account created. Sign in with your email and password.";
    if (*code == "signed-out")
        return "You are signed out.";
    if (*code == "session-ended")
        return "Your session has ended. Sign in again.";
    if (*code == "revoked")
        return "Key revoked. Requests using it are refused from now on.";
    return {};
}

bool well_formed_token(std::string_view t) {
    if (t.size() != token_bytes * 2)
        return false;
    for (char c : t)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

/// The signed-out page. `presession` is the double-submit token to embed (a fresh one when
/// empty); `set_token_cookie` (re)sets it as the `gw_csrf` cookie.
reply signed_out_page(unsigned status, pages::signed_out_view v, std::string_view presession,
                      bool set_token_cookie, bool secure) {
    v.nonce = pages::random_hex(16);
    v.csrf = presession.empty() ? pages::random_hex(token_bytes) : std::string(presession);
    header_list extra;
    if (set_token_cookie || presession.empty())
        extra.emplace_back("Set-Cookie", pages::set_cookie(presession_cookie, v.csrf, "/account",
                                                           presession_max_age, secure));
    auto page = pages::render_signed_out(v);
    return html(status, std::move(page), v.nonce, std::move(extra));
}

reply keys_page(unsigned status, pages::keys_view v, auth::account_service& acc,
                signed_in const& who) {
    v.nonce = pages::random_hex(16);
    v.email = who.info.email;
    v.csrf = who.info.csrf_token;
    v.keys = acc.list_keys(who.info.account_id);
    v.now_ms = now_ms();
    auto page = pages::render_keys(v);
    return html(status, std::move(page), v.nonce);
}

bool form_csrf_ok(form const& f, std::string_view expected) {
    auto const sent = f.get("csrf");
    return !expected.empty() && pages::constant_time_equal(sent, expected);
}

/// The pre-session double-submit check of the sign-in and sign-up forms.
std::optional<std::string_view> presession_ok(net::request const& req, form const& f) {
    auto const cookie = request_cookie(req, presession_cookie);
    if (!cookie || !well_formed_token(*cookie) || !form_csrf_ok(f, *cookie))
        return std::nullopt;
    return cookie;
}

// ---- key parameters (shared by the form and the JSON body) ---------------------------------

result<auth::key_env> parse_environment(std::string_view text) {
    if (text == "live")
        return auth::key_env::live;
    if (text == "test")
        return auth::key_env::test;
    return field_error("environment", "'environment' must be \"live\" or \"test\".");
}

result<std::optional<std::chrono::seconds>> parse_expires_in(std::optional<std::string> text) {
    if (!text || text->empty())
        return std::optional<std::chrono::seconds>{};
    auto const d = auth::parse_duration(*text);
    if (!d)
        return field_error("expiresIn", "'expiresIn' must be a positive duration such as "
                                        "\"90s\", \"15m\", \"12h\" or \"30d\" (at most 10 years).");
    return std::optional<std::chrono::seconds>{*d};
}

std::optional<std::int64_t> parse_key_id(std::string_view text) {
    if (text.empty() || text.size() > 18)
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

// ---- JSON -----------------------------------------------------------------------------------

// Errors of the JSON account API: no session is 401 INVALID_API_KEY, a session whose call lacks
// its CSRF token is 403 CSRF_REJECTED (CONTRACT 2), as the forms answer 403.
api_error sign_in_required() {
    return make_error(errc::invalid_api_key, "Sign in required.");
}
api_error csrf_failed() {
    api_error e = make_error(errc::csrf_rejected, "Missing or invalid CSRF token.");
    e.details["field"] = "X-CSRF-Token";
    return e;
}

reply json_reply(unsigned status, boost::json::value body, header_list headers = {}) {
    reply r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    return r;
}

boost::json::value ms_or_null(std::optional<std::int64_t> ms) {
    return ms ? boost::json::value(*ms) : boost::json::value(nullptr);
}

boost::json::object key_json(auth::key_info const& k, std::int64_t now) {
    boost::json::object o;
    o["id"] = k.id;
    o["name"] = k.name;
    o["masked"] = k.masked;
    o["environment"] = pages::environment_name(k.env);
    o["createdAt"] = k.created_ms;
    o["lastUsedAt"] = ms_or_null(k.last_used_ms);
    o["expiresAt"] = ms_or_null(k.expires_ms);
    o["revokedAt"] = ms_or_null(k.revoked_ms);
    o["status"] = pages::key_status(k, now);
    return o;
}

result<auth::new_key_params> parse_new_key(boost::json::value const& body) {
    json_fields f(body, strictness::inbound, "request body");
    std::string name;
    std::string environment;
    std::optional<std::string> expires_in;
    std::optional<double> rate;
    f.required("name", name);
    f.required("environment", environment);
    f.optional("expiresIn", expires_in);
    f.optional("rate", rate);
    if (auto done = f.finish(); !done)
        return done.error();
    auto env = parse_environment(environment);
    if (!env)
        return env.error();
    auto expires = parse_expires_in(expires_in);
    if (!expires)
        return expires.error();
    return auth::new_key_params{std::move(name), *env, *expires, rate};
}

/// The session of a state-changing JSON call: signed in, and `X-CSRF-Token` matches.
result<signed_in> json_session(net::request const& req, auth::account_service& acc,
                               bool state_changing) {
    auto who = current_session(req, acc);
    if (!who)
        return sign_in_required();
    if (state_changing) {
        auto const sent = header(req, "X-CSRF-Token");
        if (!sent || !pages::constant_time_equal(*sent, who->info.csrf_token))
            return csrf_failed();
    }
    return std::move(*who);
}

// ---- the routes -----------------------------------------------------------------------------

void add_html_routes(router& r, auth::account_service& acc,
                     std::shared_ptr<asio::thread_pool> const& pool, cookie_policy cookies) {
    r.add(http::verb::get, "/account",
          page_on_pool(pool, [&acc, cookies](request_context& ctx) -> result<reply> {
              auto const notice = notice_text(ctx.query_param("notice"));
              if (auto who = current_session(session_layer::raw_request(ctx), acc)) {
                  pages::keys_view v;
                  v.notice = notice;
                  return keys_page(200, std::move(v), acc, *who);
              }
              pages::signed_out_view v;
              v.notice = notice;
              auto const stale = request_cookie(session_layer::raw_request(ctx), session_cookie);
              if (v.notice.empty() && stale && !stale->empty())
                  v.notice = notice_text("session-ended");
              // Reuse a well-formed token the browser already holds, so two open tabs both
              // work; set the cookie either way to refresh its lifetime.
              std::string_view pre;
              if (auto held = request_cookie(session_layer::raw_request(ctx), presession_cookie);
                  held && well_formed_token(*held))
                  pre = *held;
              return signed_out_page(200, std::move(v), pre, true, cookies.secure);
          }));

    r.add(http::verb::post, "/account/signup",
          page_on_pool(pool, [&acc, cookies](request_context& ctx) -> result<reply> {
              if (!media_type_is(session_layer::raw_request(ctx),
                                 "application/x-www-form-urlencoded"))
                  return not_a_form_page();
              auto const f = parse_form(ctx.body());
              auto const pre = presession_ok(session_layer::raw_request(ctx), f);
              if (!pre)
                  return csrf_rejected_page();
              auto const email = f.get("email");
              auto created = acc.sign_up(email, f.get("password"), ctx.remote);
              if (!created) {
                  auto const& e = created.error();
                  pages::signed_out_view v;
                  v.error = e.message;
                  v.error_form = "signup";
                  v.email = email;
                  auto page = signed_out_page(e.status, std::move(v), *pre, false, cookies.secure);
                  if (e.retry_after)
                      page.headers.emplace_back("Retry-After", std::to_string(*e.retry_after));
                  return page;
              }
              return see_other("/account?notice=signed-up");
          }));

    r.add(http::verb::post, "/account/signin",
          sign_in_page_on_pool(
              pool,
              [&acc, cookies](request_context& ctx,
                              std::chrono::milliseconds& hold) -> result<reply> {
                  if (!media_type_is(session_layer::raw_request(ctx),
                                     "application/x-www-form-urlencoded"))
                      return not_a_form_page();
                  auto const f = parse_form(ctx.body());
                  auto const pre = presession_ok(session_layer::raw_request(ctx), f);
                  if (!pre)
                      return csrf_rejected_page();
                  auto const email = f.get("email");
                  hold = acc.sign_in_slowdown(email);
                  auto session = acc.sign_in(email, f.get("password"), ctx.remote);
                  if (!session) {
                      auto const& e = session.error();
                      pages::signed_out_view v;
                      v.error = e.message;
                      v.error_form = "signin";
                      v.email = email;
                      auto page =
                          signed_out_page(e.status, std::move(v), *pre, false, cookies.secure);
                      if (e.retry_after)
                          page.headers.emplace_back("Retry-After", std::to_string(*e.retry_after));
                      return page;
                  }
                  signed_in const who{std::move(session->token), std::move(session->info)};
                  return see_other("/account", session_cookie_value(who, cookies));
              }));

    r.add(http::verb::post, "/account/signout",
          page_on_pool(pool, [&acc, cookies](request_context& ctx) -> result<reply> {
              if (!media_type_is(session_layer::raw_request(ctx),
                                 "application/x-www-form-urlencoded"))
                  return not_a_form_page();
              auto const who = current_session(session_layer::raw_request(ctx), acc);
              if (!who)
                  return see_other("/account", clear_session_cookie(cookies));
              if (!form_csrf_ok(parse_form(ctx.body()), who->info.csrf_token))
                  return csrf_rejected_page();
              acc.sign_out(who->token);
              return see_other("/account?notice=signed-out", clear_session_cookie(cookies));
          }));

    r.add(http::verb::post, "/account/keys",
          page_on_pool(pool, [&acc](request_context& ctx) -> result<reply> {
              if (!media_type_is(session_layer::raw_request(ctx),
                                 "application/x-www-form-urlencoded"))
                  return not_a_form_page();
              auto const who = current_session(session_layer::raw_request(ctx), acc);
              if (!who)
                  return see_other("/account?notice=session-ended");
              auto const f = parse_form(ctx.body());
              if (!form_csrf_ok(f, who->info.csrf_token))
                  return csrf_rejected_page();

              pages::keys_view retry; // what the form showed, for a re-render after an error
              retry.name = f.get("name");
              retry.environment = f.get("environment");
              retry.expires_in = f.get("expiresIn");
              auto const fail = [&](api_error const& e) {
                  retry.error = e.message;
                  return keys_page(e.status, std::move(retry), acc, *who);
              };
              auto env = parse_environment(retry.environment);
              if (!env)
                  return fail(env.error());
              auto expires = parse_expires_in(retry.expires_in);
              if (!expires)
                  return fail(expires.error());
              auto created =
                  acc.create_key(who->info.account_id, {retry.name, *env, *expires, std::nullopt});
              if (!created)
                  return fail(created.error());

              pages::created_key_view v;
              v.nonce = pages::random_hex(16);
              v.email = who->info.email;
              v.csrf = who->info.csrf_token;
              v.created = std::move(*created);
              auto page = pages::render_created_key(v);
              return html(200, std::move(page), v.nonce);
          }));

    r.add(http::verb::post, "/account/keys/{id}/revoke",
          page_on_pool(pool, [&acc](request_context& ctx) -> result<reply> {
              if (!media_type_is(session_layer::raw_request(ctx),
                                 "application/x-www-form-urlencoded"))
                  return not_a_form_page();
              auto const who = current_session(session_layer::raw_request(ctx), acc);
              if (!who)
                  return see_other("/account?notice=session-ended");
              if (!form_csrf_ok(parse_form(ctx.body()), who->info.csrf_token))
                  return csrf_rejected_page();
              auto const id = parse_key_id(ctx.param("id"));
              if (!id || !acc.revoke_key(who->info.account_id, *id)) {
                  pages::keys_view v;
                  v.error = "There is no active key with that id.";
                  return keys_page(404, std::move(v), acc, *who);
              }
              return see_other("/account?notice=revoked");
          }));
}

void add_json_routes(router& r, auth::account_service& acc,
                     std::shared_ptr<asio::thread_pool> const& pool, cookie_policy cookies) {
    // {email, password} -> 201 {id, email}
    r.add(http::verb::post, "/v1/account/signup",
          on_pool(pool, [&acc](request_context& ctx) -> result<reply> {
              auto body = json_body(ctx);
              if (!body)
                  return body.error();
              auto c = parse_credentials(*body);
              if (!c)
                  return c.error();
              auto a = acc.sign_up(c->email, c->password, ctx.remote);
              if (!a)
                  return a.error();
              return json_reply(201, boost::json::object{{"id", a->id}, {"email", a->email}});
          }));

    // {email, password} -> 200 {email, csrfToken} + Set-Cookie
    r.add(http::verb::post, "/v1/account/session",
          sign_in_on_pool(pool,
                          [&acc, cookies](request_context& ctx,
                                          std::chrono::milliseconds& hold) -> result<reply> {
                              auto body = json_body(ctx);
                              if (!body)
                                  return body.error();
                              auto c = parse_credentials(*body);
                              if (!c)
                                  return c.error();
                              hold = acc.sign_in_slowdown(c->email);
                              auto s = acc.sign_in(c->email, c->password, ctx.remote);
                              if (!s)
                                  return s.error();
                              signed_in const who{std::move(s->token), std::move(s->info)};
                              return json_reply(
                                  200,
                                  boost::json::object{{"email", who.info.email},
                                                      {"csrfToken", who.info.csrf_token}},
                                  {{"Set-Cookie", session_cookie_value(who, cookies)}});
                          }));

    // -> 200 {signedOut: true}, cookie cleared
    r.add(http::verb::delete_, "/v1/account/session",
          on_pool(pool, [&acc, cookies](request_context& ctx) -> result<reply> {
              auto who = json_session(session_layer::raw_request(ctx), acc, true);
              if (!who)
                  return who.error();
              acc.sign_out(who->token);
              return json_reply(200, boost::json::object{{"signedOut", true}},
                                {{"Set-Cookie", clear_session_cookie(cookies)}});
          }));

    // -> 200 {keys: [...]}
    r.add(http::verb::get, "/v1/account/keys",
          on_pool(pool, [&acc](request_context& ctx) -> result<reply> {
              auto who = json_session(session_layer::raw_request(ctx), acc, false);
              if (!who)
                  return who.error();
              auto const now = now_ms();
              boost::json::array keys;
              for (auto const& k : acc.list_keys(who->info.account_id))
                  keys.push_back(key_json(k, now));
              return json_reply(200, boost::json::object{{"keys", std::move(keys)}});
          }));

    // {name, environment, expiresIn?, rate?} -> 201 {key, ...listing}
    r.add(http::verb::post, "/v1/account/keys",
          on_pool(pool, [&acc](request_context& ctx) -> result<reply> {
              auto who = json_session(session_layer::raw_request(ctx), acc, true);
              if (!who)
                  return who.error();
              auto body = json_body(ctx);
              if (!body)
                  return body.error();
              auto params = parse_new_key(*body);
              if (!params)
                  return params.error();
              auto created = acc.create_key(who->info.account_id, std::move(*params));
              if (!created)
                  return created.error();
              boost::json::object o;
              o["key"] = created->key;
              for (auto const& kv : key_json(created->info, now_ms()))
                  o[kv.key()] = kv.value();
              return json_reply(201, std::move(o));
          }));

    // -> 200 {id, status: "revoked"} | 404 NOT_FOUND
    r.add(http::verb::delete_, "/v1/account/keys/{id}",
          on_pool(pool, [&acc](request_context& ctx) -> result<reply> {
              auto who = json_session(session_layer::raw_request(ctx), acc, true);
              if (!who)
                  return who.error();
              auto const& raw = ctx.param("id");
              auto const id = parse_key_id(raw);
              if (!id || !acc.revoke_key(who->info.account_id, *id))
                  return make_error(errc::not_found, "No active key with id '" + raw + "'.");
              return json_reply(200, boost::json::object{{"id", *id}, {"status", "revoked"}});
          }));
}

} // namespace

void add_account_routes(router& r, services& s, account_route_options const& options) {
    // Two threads: scrypt is CPU-bound, and this bounds what sign-in floods can take.
    auto pool = std::make_shared<asio::thread_pool>(2);
    cookie_policy const cookies{options.secure_cookies, s.config.session_lifetime.count()};
    add_html_routes(r, s.accounts, pool, cookies);
    add_json_routes(r, s.accounts, pool, cookies);
}

void add_account_routes(router& r, services& s) {
    add_account_routes(r, s, account_route_options{});
}

} // namespace gateway::server
