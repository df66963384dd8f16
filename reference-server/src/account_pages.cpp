// The settings pages' HTML and the small pure helpers they and the account routes share.
#include "account_pages.hpp"

#include <gateway/util/hex.hpp>
#include <gateway/util/time.hpp>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <limits>
#include <stdexcept>

namespace gateway::server::pages {

// ---- helpers -------------------------------------------------------------------------------

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out.push_back(c);
        }
    }
    return out;
}

std::string random_hex(std::size_t bytes) {
    std::vector<unsigned char> raw(bytes);
    if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) != 1)
        throw std::runtime_error("the CSPRNG failed");
    return util::to_hex(raw, false);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    // The lengths are not secret (tokens have one fixed length); the contents are.
    if (a.size() != b.size())
        return false;
    return a.empty() || CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::optional<std::string_view> cookie_in(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        auto const semi = header.find(';');
        std::string_view pair = header.substr(0, semi);
        header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
        while (!pair.empty() && (pair.front() == ' ' || pair.front() == '\t'))
            pair.remove_prefix(1);
        while (!pair.empty() && (pair.back() == ' ' || pair.back() == '\t'))
            pair.remove_suffix(1);
        auto const eq = pair.find('=');
        if (eq == std::string_view::npos || pair.substr(0, eq) != name)
            continue;
        std::string_view value = pair.substr(eq + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        return value;
    }
    return std::nullopt;
}

std::string set_cookie(std::string_view name, std::string_view value, std::string_view path,
                       std::int64_t max_age_seconds, bool secure) {
    std::string out;
    out.append(name).append("=").append(value);
    out.append("; Path=").append(path);
    out.append("; Max-Age=").append(std::to_string(max_age_seconds < 0 ? 0 : max_age_seconds));
    out.append("; HttpOnly; SameSite=Strict");
    if (secure)
        out.append("; Secure");
    return out;
}

std::string_view environment_name(auth::key_env env) {
    return env == auth::key_env::live ? "live" : "test";
}

std::string_view key_status(auth::key_info const& key, std::int64_t now_ms) {
    if (key.revoked_ms)
        return "revoked";
    if (key.expires_ms && *key.expires_ms <= now_ms)
        return "expired";
    return "active";
}

std::string content_security_policy(std::string_view nonce) {
    std::string n(nonce);
    return "default-src 'none'; style-src 'nonce-" + n + "'; script-src 'nonce-" + n +
           "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
}

// ---- pages ---------------------------------------------------------------------------------

namespace {

constexpr std::string_view css = R"(
body{font-family:system-ui,sans-serif;max-width:64rem;margin:1.5rem auto;padding:0 1rem;
line-height:1.4;color:#111;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:bold}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ccc;vertical-align:top}
label{display:block;margin:.6rem 0 .2rem}
input,select,button{font:inherit;padding:.3rem .5rem}
button{cursor:pointer}
.row{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
.forms{display:flex;gap:3rem;flex-wrap:wrap}
.error{color:#900;border:1px solid #900;padding:.5rem}
.notice{color:#063;border:1px solid #063;padding:.5rem}
.inline{display:inline;margin:0}
#new-key{width:min(100%,42rem);font-family:ui-monospace,monospace}
code,time{font-family:ui-monospace,monospace;font-size:.95em;white-space:nowrap}
)";

// Revoke forms ask first; the Copy button copies the one-time key. No inline handlers: the CSP
// allows only this nonce-marked script.
constexpr std::string_view script = R"(
document.querySelectorAll('form[data-confirm]').forEach(function (f) {
  f.addEventListener('submit', function (e) {
    if (!window.confirm(f.getAttribute('data-confirm'))) e.preventDefault();
  });
});
var copy = document.getElementById('copy-key');
if (copy) copy.addEventListener('click', function () {
  var input = document.getElementById('new-key');
  var status = document.getElementById('copy-status');
  function fallback() {
    input.select();
    try { document.execCommand('copy'); status.textContent = 'Copied.'; }
    catch (e) { status.textContent = 'Select the key and copy it by hand.'; }
  }
  if (navigator.clipboard && navigator.clipboard.writeText)
    navigator.clipboard.writeText(input.value).then(function () {
      status.textContent = 'Copied.';
    }, fallback);
  else fallback();
});
)";

std::string head(std::string_view nonce, std::string_view title) {
    std::string out;
    out += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<meta name=\"referrer\" content=\"no-referrer\">\n";
    out += "<title>" + html_escape(title) + " · gateway</title>\n";
    out += "<style nonce=\"" + html_escape(nonce) + "\">";
    out += css;
    out += "</style>\n</head>\n<body>\n";
    return out;
}

std::string tail(std::string_view nonce) {
    std::string out = "<script nonce=\"" + html_escape(nonce) + "\">";
    out += script;
    out += "</script>\n</body>\n</html>\n";
    return out;
}

std::string hidden_csrf(std::string_view csrf) {
    return "<input type=\"hidden\" name=\"csrf\" value=\"" + html_escape(csrf) + "\">";
}

std::string notice_block(std::string_view notice) {
    if (notice.empty())
        return {};
    return "<p class=\"notice\" role=\"status\" id=\"notice\">" + html_escape(notice) + "</p>\n";
}

std::string error_block(std::string_view id, std::string_view error) {
    if (error.empty())
        return {};
    return "<p class=\"error\" role=\"alert\" id=\"" + std::string(id) + "\">" +
           html_escape(error) + "</p>\n";
}

std::string signed_in_header(std::string_view email, std::string_view csrf) {
    std::string out = "<header class=\"row\">\n<p>Signed in as <strong id=\"account-email\">" +
                      html_escape(email) + "</strong></p>\n";
    out += "<form class=\"inline\" method=\"post\" action=\"/account/signout\" "
           "id=\"signout-form\">" +
           hidden_csrf(csrf) +
           "<button type=\"submit\" id=\"signout-submit\">Sign out</button></form>\n</header>\n";
    return out;
}

std::string time_cell(std::optional<std::int64_t> ms, std::string_view none) {
    if (!ms)
        return std::string(none);
    auto const iso = util::iso8601_utc(*ms, util::iso_precision::seconds);
    return "<time datetime=\"" + iso + "\">" + iso + "</time>";
}

std::string selected(bool on) {
    return on ? " selected" : "";
}

} // namespace

std::string render_signed_out(signed_out_view const& v) {
    std::string out = head(v.nonce, "Sign in");
    out += "<main>\n<h1>Gateway account</h1>\n";
    out += notice_block(v.notice);
    out += "<div class=\"forms\">\n";

    bool const signin_error = v.error_form == "signin";
    bool const signup_error = v.error_form == "signup";

    out += "<section aria-labelledby=\"signin-heading\">\n<h2 id=\"signin-heading\">Sign in</h2>\n";
    if (signin_error)
        out += error_block("signin-error", v.error);
    out += "<form method=\"post\" action=\"/account/signin\" id=\"signin-form\">\n";
    out += hidden_csrf(v.csrf) + "\n";
    out += "<label for=\"signin-email\">Email</label>\n"
           "<input type=\"email\" id=\"signin-email\" name=\"email\" autocomplete=\"username\" "
           "required value=\"" +
           html_escape(signin_error ? v.email : "") + "\">\n";
    out += "<label for=\"signin-password\">Password</label>\n"
           "<input type=\"password\" id=\"signin-password\" name=\"password\" "
           "autocomplete=\"current-password\" required>\n";
    out += "<p><button type=\"submit\" id=\"signin-submit\">Sign in</button></p>\n</form>\n"
           "</section>\n";

    out += "<section aria-labelledby=\"signup-heading\">\n<h2 id=\"signup-heading\">Create an "
           "account</h2>\n";
    if (signup_error)
        out += error_block("signup-error", v.error);
    out += "<form method=\"post\" action=\"/account/signup\" id=\"signup-form\">\n";
    out += hidden_csrf(v.csrf) + "\n";
    out += "<label for=\"signup-email\">Email</label>\n"
           "<input type=\"email\" id=\"signup-email\" name=\"email\" autocomplete=\"username\" "
           "required value=\"" +
           html_escape(signup_error ? v.email : "") + "\">\n";
    out += "<label for=\"signup-password\">Password (at least 10 characters)</label>\n"
           "<input type=\"password\" id=\"signup-password\" name=\"password\" "
           "autocomplete=\"new-password\" minlength=\"10\" required>\n";
    out += "<p><button type=\"submit\" id=\"signup-submit\">Create account</button></p>\n"
           "</form>\n</section>\n";

    out += "</div>\n</main>\n";
    out += tail(v.nonce);
    return out;
}

std::string render_keys(keys_view const& v) {
    std::string out = head(v.nonce, "API keys");
    out += signed_in_header(v.email, v.csrf);
    out += "<main>\n<h1>API keys</h1>\n";
    out += notice_block(v.notice);

    if (v.keys.empty()) {
        out += "<p id=\"no-keys\">No keys yet.</p>\n";
    } else {
        out += "<table id=\"keys-table\">\n<caption>Your keys (times in UTC)</caption>\n"
               "<thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Key</th>"
               "<th scope=\"col\">Environment</th><th scope=\"col\">Created</th>"
               "<th scope=\"col\">Last used</th><th scope=\"col\">Expires</th>"
               "<th scope=\"col\">Status</th><th scope=\"col\">Action</th></tr>"
               "</thead>\n<tbody>\n";
        for (auto const& k : v.keys) {
            auto const id = std::to_string(k.id);
            auto const status = key_status(k, v.now_ms);
            out += "<tr id=\"key-" + id + "\" data-key-id=\"" + id + "\">";
            out += "<td class=\"key-name\">" + html_escape(k.name) + "</td>";
            out += "<td><code class=\"key-masked\">" + html_escape(k.masked) + "</code></td>";
            out +=
                "<td class=\"key-environment\">" + std::string(environment_name(k.env)) + "</td>";
            out += "<td class=\"key-created\">" + time_cell(k.created_ms, "") + "</td>";
            out += "<td class=\"key-last-used\">" + time_cell(k.last_used_ms, "never") + "</td>";
            out += "<td class=\"key-expires\">" + time_cell(k.expires_ms, "never") + "</td>";
            out += "<td class=\"key-status\">" + std::string(status) + "</td><td>";
            if (status != "revoked") {
                out += "<form class=\"inline\" method=\"post\" action=\"/account/keys/" + id +
                       "/revoke\" data-confirm=\"" +
                       html_escape("Revoke key \"" + k.name +
                                   "\"? Requests using it will fail from now on.") +
                       "\">" + hidden_csrf(v.csrf) + "<button type=\"submit\" id=\"revoke-" + id +
                       "\" aria-label=\"" + html_escape("Revoke key " + k.name) +
                       "\">Revoke</button></form>";
            }
            out += "</td></tr>\n";
        }
        out += "</tbody>\n</table>\n";
    }

    out += "<h2 id=\"create-heading\">Create a key</h2>\n";
    out += error_block("create-error", v.error);
    out += "<form method=\"post\" action=\"/account/keys\" id=\"create-key-form\" "
           "aria-labelledby=\"create-heading\">\n";
    out += hidden_csrf(v.csrf) + "\n";
    out += "<label for=\"key-name\">Name</label>\n"
           "<input type=\"text\" id=\"key-name\" name=\"name\" maxlength=\"64\" required "
           "value=\"" +
           html_escape(v.name) + "\">\n";
    out += "<label for=\"key-environment\">Environment</label>\n"
           "<select id=\"key-environment\" name=\"environment\">"
           "<option value=\"live\"" +
           selected(v.environment != "test") +
           ">live (production and testnet)</option>"
           "<option value=\"test\"" +
           selected(v.environment == "test") + ">test (testnet only)</option></select>\n";
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> expiries{{
        {"", "never"},
        {"1h", "in 1 hour"},
        {"1d", "in 1 day"},
        {"7d", "in 7 days"},
        {"30d", "in 30 days"},
        {"90d", "in 90 days"},
        {"365d", "in 1 year"},
    }};
    out += "<label for=\"key-expiry\">Expires</label>\n"
           "<select id=\"key-expiry\" name=\"expiresIn\">";
    for (auto const& [value, label] : expiries)
        out += "<option value=\"" + std::string(value) + "\"" + selected(value == v.expires_in) +
               ">" + std::string(label) + "</option>";
    out += "</select>\n";
    out += "<p><button type=\"submit\" id=\"create-key-submit\">Create key</button></p>\n"
           "</form>\n</main>\n";
    out += tail(v.nonce);
    return out;
}

std::string render_created_key(created_key_view const& v) {
    auto const& info = v.created.info;
    std::string out = head(v.nonce, "New API key");
    out += signed_in_header(v.email, v.csrf);
    out += "<main>\n<h1>Your new API key</h1>\n";
    out += "<p>Key <strong id=\"new-key-name\">" + html_escape(info.name) + "</strong> (" +
           std::string(environment_name(info.env)) + ", expires " +
           (info.expires_ms ? util::iso8601_utc(*info.expires_ms, util::iso_precision::seconds)
                            : std::string("never")) +
           ") was created.</p>\n";
    out += "<p class=\"notice\" id=\"shown-once\"><strong>Copy it now: it will not be shown "
           "again.</strong> Only its masked form <code>" +
           html_escape(info.masked) + "</code> appears in the key list.</p>\n";
    out += "<label for=\"new-key\">API key</label>\n<div class=\"row\">"
           "<input type=\"text\" id=\"new-key\" name=\"new-key\" readonly "
           "autocomplete=\"off\" spellcheck=\"false\" value=\"" +
           html_escape(v.created.key) +
           "\">"
           "<button type=\"button\" id=\"copy-key\">Copy</button>"
           "<span id=\"copy-status\" role=\"status\" aria-live=\"polite\"></span></div>\n";
    out += "<p><a href=\"/account\" id=\"back-to-keys\">Back to your keys</a></p>\n</main>\n";
    out += tail(v.nonce);
    return out;
}

std::string render_message(std::string_view nonce, std::string_view title,
                           std::string_view message) {
    std::string out = head(nonce, title);
    out += "<main>\n<h1>" + html_escape(title) + "</h1>\n<p id=\"message\">" +
           html_escape(message) + "</p>\n";
    out += "<p><a href=\"/account\">Back to the account page</a></p>\n</main>\n</body>\n</html>\n";
    return out;
}

} // namespace gateway::server::pages
