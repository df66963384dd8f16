#pragma once
// The settings pages (spec 5.1, CONTRACT §9): small server-rendered HTML, no build step, no
// external resources. Pure functions only: the routes in account_routes.cpp decide what to
// show and these render it. Every string that reaches the page goes through `html_escape`.
//
// Pages carry one inline <style> and at most one inline <script>, both marked with a per-response
// nonce that the routes also put in the Content-Security-Policy header, so nothing else runs.
#include "auth/accounts.hpp"
#include "routes/routes.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server {

/// Switches for the account routes (see `add_account_routes`).
struct account_route_options {
    /**
     * Adds `; Secure` to every cookie the routes set. gatewayd serves plain HTTP today, where a
     * Secure cookie would never be sent back, so the default is false. Set it when the pages are
     * reached over TLS (gatewayd behind a TLS-terminating proxy, or once it speaks TLS itself).
     * It is a switch rather than a guess from `X-Forwarded-Proto`, which any client can send.
     */
    bool secure_cookies = false;
};

/// `add_account_routes(r, s)` with explicit options.
void add_account_routes(router& r, services& s, account_route_options const& options);

namespace pages {

// ---- helpers (pure, no I/O) ----------------------------------------------------------------

/// Escapes `& < > " '` for element content and quoted attribute values.
std::string html_escape(std::string_view text);

/// Lower-case hex of `bytes` bytes from OpenSSL's CSPRNG (CSRF tokens, CSP nonces).
/// Throws std::runtime_error if the CSPRNG fails (it does not once seeded).
std::string random_hex(std::size_t bytes);

/// Equality whose time depends only on the lengths (CRYPTO_memcmp), for secrets.
bool constant_time_equal(std::string_view a, std::string_view b);

/// The value of cookie `name` in a `Cookie` header value (`a=1; b=2`), if present.
std::optional<std::string_view> cookie_in(std::string_view header, std::string_view name);

/// A `Set-Cookie` value: `name=value; Path=path; Max-Age=N; HttpOnly; SameSite=Strict[; Secure]`.
std::string set_cookie(std::string_view name, std::string_view value, std::string_view path,
                       std::int64_t max_age_seconds, bool secure);

/// A positive duration written as digits and a unit: `90s`, `15m`, `12h`, `30d` (at most 10
/// years); nullopt for anything else.

/// `live` or `test`.
std::string_view environment_name(auth::key_env env);

/// `active`, `revoked` or `expired` at `now_ms`.
std::string_view key_status(auth::key_info const& key, std::int64_t now_ms);

// ---- pages ---------------------------------------------------------------------------------

/// What every page needs.
struct page_base {
    std::string nonce;  ///< CSP nonce of this response
    std::string notice; ///< plain text shown as a status message (may be empty)
};

/// Signed out: the sign-in and sign-up forms.
struct signed_out_view : page_base {
    std::string csrf;       ///< pre-session CSRF token (double-submitted via its cookie)
    std::string error;      ///< plain text, shown by the form named in `error_form`
    std::string error_form; ///< "signin" or "signup"
    std::string email;      ///< prefill of the form in error
};

/// Signed in: the key list, the create form and sign out.
struct keys_view : page_base {
    std::string email;
    std::string csrf; ///< the session's CSRF token
    std::vector<auth::key_info> keys;
    std::int64_t now_ms = 0;
    std::string error; ///< plain text, shown by the create form
    // Prefill of the create form after an error.
    std::string name;
    std::string environment = "live";
    std::string expires_in;
};

/// The one page that shows a full key, once.
struct created_key_view : page_base {
    std::string email;
    std::string csrf;
    auth::created_key created;
};

std::string render_signed_out(signed_out_view const& v);
std::string render_keys(keys_view const& v);
std::string render_created_key(created_key_view const& v);
/// A page with a heading, one message and a link back to `/account`.
std::string render_message(std::string_view nonce, std::string_view title,
                           std::string_view message);

/// The Content-Security-Policy header value matching pages rendered with `nonce`.
std::string content_security_policy(std::string_view nonce);

} // namespace pages
} // namespace gateway::server
