// account_service over `store` (spec 5.1, CONTRACT §9). Secrets stay out of the store and the
// log: keys and session tokens are kept as SHA-256, passwords as scrypt strings, and nothing
// here logs a value a caller passed in.
#include "auth/accounts.hpp"
#include "auth/crypto.hpp"
#include "auth/sqlite_store.hpp"
#include "auth/store.hpp"
#include "log.hpp"

#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace gateway::server::auth {

namespace {

constexpr std::size_t max_email_length = 254;
constexpr std::size_t max_local_length = 64;
constexpr std::size_t min_password_chars = 10;
constexpr std::size_t max_password_bytes = 1024;
constexpr std::size_t max_key_name_chars = 64;
constexpr std::size_t token_bytes = 32;
/// base64url of 32 bytes, unpadded.
constexpr std::size_t token_length = 43;
/// A key may live at most this long (keeps `now + expires_in` far from overflow).
constexpr std::int64_t max_expires_in_s = 100LL * 365 * 24 * 3600;
/// Failure logs are swept of stale entries at most this often, and whenever they grow past
/// `max_tracked` entries, so memory follows recent attackers, not all-time ones.
constexpr std::int64_t sweep_interval_ms = 60'000;
constexpr std::size_t max_tracked = 100'000;
/// Expired sessions are purged by the background writer at most this often.
constexpr std::chrono::minutes session_purge_interval{1};

std::int64_t system_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string_view trim(std::string_view s) {
    auto const ws = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    };
    while (!s.empty() && ws(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && ws(s.back()))
        s.remove_suffix(1);
    return s;
}

std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// The canonical form of an email address (trimmed, ASCII-lowercased), or nullopt if it is
/// not a plausible address. Deliberately simple: one `@`, a local part of printable ASCII
/// without specials, a dotted domain of letters, digits and hyphens.
std::optional<std::string> normalise_email(std::string_view raw) {
    std::string const e = ascii_lower(trim(raw));
    if (e.empty() || e.size() > max_email_length)
        return std::nullopt;
    auto const at = e.find('@');
    if (at == std::string::npos || at == 0 || at > max_local_length ||
        e.find('@', at + 1) != std::string::npos)
        return std::nullopt;
    std::string_view const local = std::string_view(e).substr(0, at);
    std::string_view const domain = std::string_view(e).substr(at + 1);
    for (char c : local) {
        auto const u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f ||
            std::string_view("\"(),:;<>[\\]").find(c) != std::string_view::npos)
            return std::nullopt;
    }
    if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string::npos)
        return std::nullopt;
    if (domain.size() < 3 || domain.find('.') == std::string::npos ||
        domain.find("..") != std::string::npos)
        return std::nullopt;
    if (domain.front() == '.' || domain.back() == '.' || domain.front() == '-' ||
        domain.back() == '-')
        return std::nullopt;
    for (char c : domain)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
            return std::nullopt;
    return e;
}

/// Characters (UTF-8 code points) in `s`.
std::size_t utf8_length(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

bool has_control_chars(std::string_view s) {
    return std::any_of(s.begin(), s.end(), [](char c) {
        auto const u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

std::string as_string(crypto::sha256_digest const& d) {
    return std::string(reinterpret_cast<char const*>(d.data()), d.size());
}

std::span<std::uint8_t const> as_bytes(std::string_view s) {
    return {reinterpret_cast<std::uint8_t const*>(s.data()), s.size()};
}

bool is_token(std::string_view t) {
    return t.size() == token_length && std::all_of(t.begin(), t.end(), [](char c) {
               return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
           });
}

std::string new_token() {
    return crypto::base64_encode(crypto::random_bytes(token_bytes), true);
}

key_info to_info(key_record const& k) {
    key_info i;
    i.id = k.id;
    i.account_id = k.account_id;
    i.name = k.name;
    i.env = k.env;
    i.masked = std::string(crypto::key_prefix(k.env)) + "\u2026" + k.last4;
    i.created_ms = k.created_ms;
    i.last_used_ms = k.last_used_ms;
    i.expires_ms = k.expires_ms;
    i.revoked_ms = k.revoked_ms;
    i.rate_per_second = k.rate_per_second;
    return i;
}

api_error internal_error(std::exception const& e, std::string_view what) {
    // Store and OpenSSL messages never contain the caller's secrets (values are bound, not
    // spliced into SQL), so the cause can be logged; the client sees nothing of it.
    log::error("msg=\"" + std::string(what) + " failed\" error=\"" + e.what() + "\"");
    return make_error(errc::internal_error, "Internal error; please try again.");
}

/// The database stayed locked by another process: 503 with Retry-After. PROVIDER_UNAVAILABLE
/// is the contract's one 503 code (CONTRACT §2); the message says what is busy.
api_error busy_error(std::string_view what) {
    log::warn("msg=\"" + std::string(what) + " waited too long for the database lock\"");
    api_error e = make_error(errc::provider_unavailable,
                             "The account database is busy; try again in a few seconds.");
    e.retry_after = 2;
    return e;
}

api_error too_many(std::string_view what, std::int64_t wait_ms) {
    auto const seconds = static_cast<unsigned>(std::max<std::int64_t>(1, (wait_ms + 999) / 1000));
    api_error err = make_error(errc::rate_limited, std::string(what) + "; try again in " +
                                                       std::to_string(seconds) + " seconds.");
    err.retry_after = seconds;
    return err;
}

/// The CSRF token of the session whose cookie value is `token`: HMAC-SHA-256 keyed by the
/// token over a fixed label (domain separation: the same token hashed plainly is the stored
/// session id). Without the token (the database holds only its SHA-256) it cannot be computed.
std::string csrf_for(std::string_view token) {
    auto const mac = crypto::hmac_sha256(token, "gatewayd/v1/session-csrf");
    return crypto::base64_encode(mac, true);
}

/// Sliding-window failure counts per key (a pair, an address, an account).
class failure_log {
public:
    /// Milliseconds until `key` may try again, or 0 if it may now.
    std::int64_t wait_ms(std::string const& key, unsigned max, std::int64_t window_ms,
                         std::int64_t now) {
        auto it = entries_.find(key);
        if (it == entries_.end())
            return 0;
        auto& times = it->second;
        prune(times, window_ms, now);
        if (max == 0 || times.size() < max)
            return 0;
        // Allowed again once the oldest failure among the newest `max` leaves the window.
        return std::max<std::int64_t>(1, times[times.size() - max] + window_ms - now);
    }

    /// Failures of `key` within the window.
    std::size_t count(std::string const& key, std::int64_t window_ms, std::int64_t now) {
        auto it = entries_.find(key);
        if (it == entries_.end())
            return 0;
        prune(it->second, window_ms, now);
        return it->second.size();
    }

    void add(std::string const& key, std::int64_t now) { entries_[key].push_back(now); }

    /// Takes back one failure recorded at `at` (a reservation that turned out a success).
    void remove_one(std::string const& key, std::int64_t at) {
        auto it = entries_.find(key);
        if (it == entries_.end())
            return;
        auto pos = std::find(it->second.rbegin(), it->second.rend(), at);
        if (pos != it->second.rend())
            it->second.erase(std::next(pos).base());
        if (it->second.empty())
            entries_.erase(it);
    }

    void clear(std::string const& key) { entries_.erase(key); }

    void sweep(std::int64_t window_ms, std::int64_t now) {
        for (auto it = entries_.begin(); it != entries_.end();) {
            prune(it->second, window_ms, now);
            it = it->second.empty() ? entries_.erase(it) : std::next(it);
        }
    }

    std::size_t size() const noexcept { return entries_.size(); }

private:
    static void prune(std::deque<std::int64_t>& times, std::int64_t window_ms, std::int64_t now) {
        while (!times.empty() && times.front() <= now - window_ms)
            times.pop_front();
    }

    std::unordered_map<std::string, std::deque<std::int64_t>> entries_;
};

/// Token buckets (sign-ups) on the service's clock; full buckets are forgotten.
class bucket_set {
public:
    /// Milliseconds until `b` holds a whole token under `limit` (0: it does now), after
    /// refilling it to `now`.
    static std::int64_t wait_ms(double& tokens, std::int64_t& last_ms, bucket_limit const& limit,
                                std::int64_t now) {
        double const per_ms = limit.per_hour / 3'600'000.0;
        if (now > last_ms)
            tokens = std::min(limit.burst, tokens + static_cast<double>(now - last_ms) * per_ms);
        last_ms = std::max(last_ms, now);
        if (tokens >= 1)
            return 0;
        if (per_ms <= 0)
            return std::numeric_limits<std::int32_t>::max();
        return static_cast<std::int64_t>(std::ceil((1 - tokens) / per_ms));
    }

    struct bucket {
        double tokens = 0;
        std::int64_t last_ms = 0;
    };

    bucket& at(std::string const& key, bucket_limit const& limit, std::int64_t now) {
        auto [it, fresh] = buckets_.try_emplace(key);
        if (fresh)
            it->second = {limit.burst, now};
        return it->second;
    }

    /// Drops buckets that have refilled (they would be created full anyway).
    void sweep(bucket_limit const& limit, std::int64_t now) {
        for (auto it = buckets_.begin(); it != buckets_.end();) {
            auto& b = it->second;
            wait_ms(b.tokens, b.last_ms, limit, now);
            it = b.tokens >= limit.burst ? buckets_.erase(it) : std::next(it);
        }
    }

    std::size_t size() const noexcept { return buckets_.size(); }

private:
    std::unordered_map<std::string, bucket> buckets_;
};

class service final : public account_service {
public:
    service(std::unique_ptr<store> s, account_options o)
        : store_(std::move(s))
        , opts_(std::move(o))
        , params_{opts_.scrypt_n, opts_.scrypt_r, opts_.scrypt_p} {
        if (!store_)
            throw std::runtime_error("account service needs a store");
        if (!crypto::valid_scrypt_params(params_))
            throw std::runtime_error("scrypt cost out of range: N must be a power of two in "
                                     "[2, 2^20], r in [1, 32], p in [1, 16]");
        global_signups_ = {opts_.signup_global.burst, now()};
        {
            // Start-up, not an I/O thread: this first load may wait for a lock.
            std::lock_guard lock(keys_m_);
            sync_keys(true);
        }
        if (opts_.last_used_flush.count() > 0)
            flusher_ = std::thread([this] { flush_loop(); });
    }

    ~service() override {
        {
            std::lock_guard lock(flush_m_);
            stopping_ = true;
        }
        flush_cv_.notify_all();
        if (flusher_.joinable())
            flusher_.join();
        flush_last_used();
    }

    service(service const&) = delete;
    service& operator=(service const&) = delete;

    // ---- accounts ------------------------------------------------------------------------

    result<account> sign_up(std::string_view email, std::string_view password,
                            std::string_view client_address) override {
        auto const e = normalise_email(email);
        if (!e)
            return field_error("email", "Enter a valid email address, like name@example.com.");
        if (utf8_length(password) < min_password_chars)
            return field_error("password", "Choose a password of at least 10 characters.");
        if (password.size() > max_password_bytes)
            return field_error("password", "Choose a password of at most 1024 bytes.");
        // The limits come before scrypt: a refused sign-up costs a map lookup, nothing more.
        if (!client_address.empty())
            if (auto const wait = take_signup(client_address_key(client_address)); wait > 0)
                return too_many("Too many sign-ups", wait);
        try {
            std::string const hash = crypto::hash_password(password, params_);
            auto const rec = store_->insert_account(*e, hash, now());
            if (!rec)
                return field_error("email", "An account with this email already exists.");
            return account{rec->id, rec->email, rec->created_ms};
        } catch (database_busy const&) {
            return busy_error("sign-up");
        } catch (std::exception const& ex) {
            return internal_error(ex, "sign-up");
        }
    }

    result<new_session> sign_in(std::string_view email, std::string_view password,
                                std::string_view client_address) override {
        std::int64_t const t = now();
        // Failures count against what was typed (normalised), so unknown emails are throttled
        // exactly like known ones and the answer never tells them apart.
        std::string const account_key = typed_account_key(email);
        std::string const address_key =
            client_address.empty() ? std::string() : client_address_key(client_address);
        std::string const pair_key = account_key + '\n' + address_key;
        std::int64_t const window_ms = window();
        {
            std::lock_guard lock(failures_m_);
            maybe_sweep(window_ms, t);
            // The account-wide count is not checked here: it only slows (sign_in_slowdown),
            // so what strangers do elsewhere never refuses the owner.
            std::int64_t wait =
                pair_failures_.wait_ms(pair_key, opts_.max_failures_per_pair, window_ms, t);
            if (!address_key.empty())
                wait =
                    std::max(wait, address_failures_.wait_ms(
                                       address_key, opts_.max_failures_per_address, window_ms, t));
            if (wait > 0)
                return too_many("Too many failed sign-in attempts", wait);
            // Reserve the failure before the (slow) check, so concurrent attempts cannot all
            // slip under the cap; a success takes it back.
            pair_failures_.add(pair_key, t);
            account_failures_.add(account_key, t);
            if (!address_key.empty())
                address_failures_.add(address_key, t);
        }
        auto const take_back = [&] {
            std::lock_guard lock(failures_m_);
            pair_failures_.remove_one(pair_key, t);
            account_failures_.remove_one(account_key, t);
            if (!address_key.empty())
                address_failures_.remove_one(address_key, t);
        };
        try {
            auto const e = normalise_email(email);
            auto const rec = e ? store_->find_account(*e) : std::nullopt;
            bool ok = false;
            if (rec) {
                ok = crypto::verify_password(password, rec->password_hash);
            } else {
                // Same work as a real check, so timing does not reveal unknown emails.
                crypto::verify_password(password, dummy_hash());
            }
            if (!ok)
                return make_error(errc::invalid_credentials, "Invalid email or password.");
            maybe_rehash(*rec, password);
            std::string token = new_token();
            session_record s;
            s.token_hash = as_string(crypto::sha256(token));
            s.account_id = rec->id;
            s.created_ms = t;
            s.expires_ms =
                t + std::chrono::duration_cast<std::chrono::milliseconds>(opts_.session_lifetime)
                        .count();
            store_->insert_session(s);
            {
                // The pair proved itself: its slate is clean. The account's and the address's
                // other failures stand (they were someone else's, or other accounts').
                take_back();
                std::lock_guard lock(failures_m_);
                pair_failures_.clear(pair_key);
            }
            std::string csrf = csrf_for(token);
            return new_session{std::move(token),
                               session{rec->id, rec->email, std::move(csrf), s.expires_ms}};
        } catch (database_busy const&) {
            take_back(); // not the caller's failure
            return busy_error("sign-in");
        } catch (std::exception const& ex) {
            take_back();
            return internal_error(ex, "sign-in");
        }
    }

    std::chrono::milliseconds sign_in_slowdown(std::string_view email) override {
        if (opts_.slowdown_after_failures == 0)
            return std::chrono::milliseconds(0);
        std::string const account_key = typed_account_key(email);
        std::lock_guard lock(failures_m_);
        auto const n = account_failures_.count(account_key, window(), now());
        return n >= opts_.slowdown_after_failures ? opts_.slowdown : std::chrono::milliseconds(0);
    }

    std::optional<session> find_session(std::string_view token) override {
        if (!is_token(token))
            return std::nullopt;
        std::string const hash = as_string(crypto::sha256(token));
        auto const s = store_->find_session(hash);
        if (!s || !crypto::constant_time_equal(as_bytes(s->token_hash), as_bytes(hash)))
            return std::nullopt;
        // Expired: refused here, deleted by the background purge (a read never writes).
        if (s->expires_ms <= now())
            return std::nullopt;
        return session{s->account_id, s->email, csrf_for(token), s->expires_ms};
    }

    void sign_out(std::string_view token) override {
        if (is_token(token))
            store_->delete_session(as_string(crypto::sha256(token)));
    }

    std::optional<account> find_account(std::string_view email) override {
        auto const e = normalise_email(email);
        if (!e)
            return std::nullopt;
        auto const rec = store_->find_account(*e);
        if (!rec)
            return std::nullopt;
        return account{rec->id, rec->email, rec->created_ms};
    }

    // ---- keys ----------------------------------------------------------------------------

    result<created_key> create_key(std::int64_t account_id, new_key_params params) override {
        std::size_t const name_chars = utf8_length(params.name);
        if (name_chars == 0 || name_chars > max_key_name_chars || has_control_chars(params.name))
            return field_error("name", "Give the key a name of 1 to 64 characters.");
        if (params.expires_in &&
            (params.expires_in->count() <= 0 || params.expires_in->count() > max_expires_in_s))
            return field_error("expiresIn", "expiresIn must be a positive duration of at most "
                                            "100 years.");
        if (params.rate_per_second &&
            (!std::isfinite(*params.rate_per_second) || *params.rate_per_second <= 0))
            return field_error("rate", "rate must be a positive number of requests per second.");
        try {
            if (!store_->find_account(account_id))
                return make_error(errc::not_found, "No such account.");
            std::int64_t const t = now();
            std::string key = crypto::generate_api_key(params.env);
            key_record k;
            k.account_id = account_id;
            k.key_hash = as_string(crypto::sha256(key));
            k.last4 = key.substr(key.size() - 4);
            k.name = std::move(params.name);
            k.env = params.env;
            k.created_ms = t;
            if (params.expires_in)
                k.expires_ms = t + params.expires_in->count() * 1000;
            k.rate_per_second = params.rate_per_second;
            // The one place every creation path (JSON API, settings page, admin command line,
            // demo key) passes: the limit holds for all of them.
            auto const stored = store_->insert_key(k, opts_.max_usable_keys);
            if (!stored)
                return make_error(errc::key_limit_reached,
                                  "This account already holds " +
                                      std::to_string(opts_.max_usable_keys) +
                                      " usable keys, its maximum; revoke one to create another.");
            refresh_keys(); // usable from the next check (which would also catch up on its own)
            return created_key{std::move(key), to_info(*stored)};
        } catch (database_busy const&) {
            return busy_error("key creation");
        } catch (std::exception const& ex) {
            return internal_error(ex, "key creation");
        }
    }

    std::vector<key_info> list_keys(std::int64_t account_id) override {
        auto const records = store_->list_keys(account_id);
        std::vector<key_info> out;
        out.reserve(records.size());
        std::lock_guard lock(pending_m_);
        for (auto const& r : records) {
            out.push_back(to_info(r));
            overlay_pending(out.back());
        }
        return out;
    }

    bool revoke_key(std::int64_t account_id, std::int64_t key_id) override {
        bool const revoked = store_->revoke_key(account_id, key_id, now());
        if (revoked)
            refresh_keys();
        return revoked;
    }

    key_check check_key(std::optional<std::string_view> header_value) override {
        using verdict = key_check::verdict;
        if (!header_value || header_value->empty())
            return {verdict::missing, std::nullopt};
        // Wrong prefix, length or alphabet: invalid without any lookup.
        if (!crypto::parse_api_key(*header_value))
            return {verdict::invalid, std::nullopt};
        std::string const hash = as_string(crypto::sha256(*header_value));
        std::optional<key_record> rec;
        {
            // Held for an in-memory lookup and the store's non-blocking change check only:
            // never across a wait on a database lock.
            std::lock_guard lock(keys_m_);
            sync_keys(false);
            if (auto it = keys_.find(hash); it != keys_.end())
                rec = it->second;
        }
        // The map is keyed by digest, so its timing says nothing about the key; the explicit
        // comparison keeps the check constant-time even if the lookup matched loosely.
        if (!rec || !crypto::constant_time_equal(as_bytes(rec->key_hash), as_bytes(hash)))
            return {verdict::invalid, std::nullopt};
        if (rec->revoked_ms)
            return {verdict::invalid, std::nullopt};
        std::int64_t const t = now();
        if (rec->expires_ms && *rec->expires_ms <= t)
            return {verdict::expired, std::nullopt};
        key_info info = to_info(*rec);
        {
            std::lock_guard lock(pending_m_);
            auto& used = pending_[rec->id];
            used = std::max(used, t);
            overlay_pending(info);
        }
        return {verdict::ok, std::move(info)};
    }

    void flush_last_used() override {
        std::unordered_map<std::int64_t, std::int64_t> batch;
        {
            std::lock_guard lock(pending_m_);
            batch.swap(pending_);
        }
        if (batch.empty())
            return;
        std::vector<key_use> uses;
        uses.reserve(batch.size());
        for (auto const& [id, ms] : batch)
            uses.push_back({id, ms});
        try {
            store_->record_key_uses(uses);
        } catch (std::exception const& ex) {
            // Keep them for the next flush; last-used is advisory, never worth a failure.
            log::warn(std::string("msg=\"last-used flush failed; will retry\" error=\"") +
                      ex.what() + "\"");
            std::lock_guard lock(pending_m_);
            for (auto const& [id, ms] : batch) {
                auto& used = pending_[id];
                used = std::max(used, ms);
            }
        }
    }

private:
    std::int64_t now() const { return opts_.now_ms ? opts_.now_ms() : system_now_ms(); }

    std::int64_t window() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(opts_.failure_window).count();
    }

    static std::string typed_account_key(std::string_view email) {
        return ascii_lower(trim(email)).substr(0, max_email_length + 1);
    }

    /// Takes a sign-up token from the address's bucket and the global one, both or neither;
    /// milliseconds until both have one when refused, else 0.
    std::int64_t take_signup(std::string const& address_key) {
        std::lock_guard lock(signups_m_);
        std::int64_t const t = now();
        if (signups_.size() >= max_tracked || t - last_signup_sweep_ms_ >= sweep_interval_ms) {
            last_signup_sweep_ms_ = t;
            signups_.sweep(opts_.signup_per_address, t);
        }
        auto& mine = signups_.at(address_key, opts_.signup_per_address, t);
        std::int64_t const wait =
            std::max(bucket_set::wait_ms(mine.tokens, mine.last_ms, opts_.signup_per_address, t),
                     bucket_set::wait_ms(global_signups_.tokens, global_signups_.last_ms,
                                         opts_.signup_global, t));
        if (wait > 0)
            return wait;
        mine.tokens -= 1;
        global_signups_.tokens -= 1;
        return 0;
    }

    /// Brings the key cache up to date with the database. Caller holds `keys_m_`. Unless
    /// `wait`, never waits on a lock: when the database cannot be read at once the cache stays
    /// as it is (the next check tries again).
    void sync_keys(bool wait) {
        std::optional<key_changes> changes;
        try {
            changes = store_->key_changes_since(cursor_, wait);
        } catch (std::exception const& ex) {
            if (wait)
                throw;
            note_sync_failure(ex.what());
            return;
        }
        if (!changes) {
            note_sync_failure("database busy");
            return;
        }
        if (sync_failing_) {
            sync_failing_ = false;
            log::info("msg=\"key cache in sync with the database again\"");
        }
        if (changes->reload_all) {
            keys_.clear();
            hash_of_.clear();
        }
        for (auto const id : changes->gone)
            forget_key(id);
        for (auto& row : changes->rows) {
            forget_key(row.id);
            if (row.revoked_ms)
                continue; // a revoked key is just an unknown one
            hash_of_[row.id] = row.key_hash;
            std::string hash = row.key_hash;
            keys_.insert_or_assign(std::move(hash), std::move(row));
        }
    }

    /// Caller holds `keys_m_`.
    void forget_key(std::int64_t id) {
        if (auto it = hash_of_.find(id); it != hash_of_.end()) {
            keys_.erase(it->second);
            hash_of_.erase(it);
        }
    }

    /// Caller holds `keys_m_`. Logged once per episode, not once per request.
    void note_sync_failure(char const* why) {
        if (sync_failing_)
            return;
        sync_failing_ = true;
        log::warn(std::string("msg=\"key cache could not read the database; serving the last "
                              "known keys\" error=\"") +
                  why + "\"");
    }

    void refresh_keys() {
        std::lock_guard lock(keys_m_);
        sync_keys(false);
    }

    /// Caller holds `pending_m_`.
    void overlay_pending(key_info& info) const {
        if (auto it = pending_.find(info.id); it != pending_.end())
            info.last_used_ms = std::max(info.last_used_ms.value_or(it->second), it->second);
    }

    /// Caller holds `failures_m_`.
    void maybe_sweep(std::int64_t window_ms, std::int64_t t) {
        if (t - last_sweep_ms_ < sweep_interval_ms &&
            pair_failures_.size() + account_failures_.size() + address_failures_.size() <
                max_tracked)
            return;
        last_sweep_ms_ = t;
        pair_failures_.sweep(window_ms, t);
        account_failures_.sweep(window_ms, t);
        address_failures_.sweep(window_ms, t);
    }

    /// A hash of nothing anyone knows, at the current cost, for unknown-email sign-ins.
    std::string const& dummy_hash() {
        std::call_once(dummy_once_,
                       [this] { dummy_hash_ = crypto::hash_password(new_token(), params_); });
        return dummy_hash_;
    }

    /// Re-hashes a password stored at a lower cost than configured (costs only go up).
    void maybe_rehash(account_record const& rec, std::string_view password) {
        auto const stored = crypto::password_hash_params(rec.password_hash);
        auto const cost = [](crypto::scrypt_params const& p) {
            return p.n * p.r * p.p;
        };
        if (!stored || cost(*stored) >= cost(params_))
            return;
        try {
            store_->update_password_hash(rec.id, crypto::hash_password(password, params_));
        } catch (std::exception const& ex) {
            log::warn(std::string("msg=\"password rehash failed\" error=\"") + ex.what() + "\"");
        }
    }

    /// Expired sessions are deleted here, in the background, never on a request's path.
    void purge_sessions() {
        try {
            store_->delete_expired_sessions(now());
        } catch (std::exception const& ex) {
            log::warn(std::string("msg=\"expired-session purge failed; will retry\" error=\"") +
                      ex.what() + "\"");
        }
    }

    void flush_loop() {
        std::unique_lock lock(flush_m_);
        auto next_purge = std::chrono::steady_clock::now();
        while (!stopping_) {
            if (flush_cv_.wait_for(lock, opts_.last_used_flush, [this] { return stopping_; }))
                break;
            lock.unlock();
            flush_last_used();
            if (std::chrono::steady_clock::now() >= next_purge) {
                purge_sessions();
                next_purge = std::chrono::steady_clock::now() + session_purge_interval;
            }
            lock.lock();
        }
    }

    std::unique_ptr<store> store_;
    account_options opts_;
    crypto::scrypt_params params_;

    std::mutex failures_m_;
    failure_log pair_failures_;    ///< per (typed account, address key): refuses
    failure_log address_failures_; ///< per address key: refuses
    failure_log account_failures_; ///< per typed account: only slows
    std::int64_t last_sweep_ms_ = 0;

    std::mutex signups_m_;
    bucket_set signups_;                ///< per address key
    bucket_set::bucket global_signups_; ///< all addresses
    std::int64_t last_signup_sweep_ms_ = 0;

    std::mutex keys_m_;
    std::unordered_map<std::string, key_record> keys_;      ///< key hash -> live (unrevoked) key
    std::unordered_map<std::int64_t, std::string> hash_of_; ///< key id -> its hash in `keys_`
    key_cursor cursor_;
    bool sync_failing_ = false;

    std::mutex pending_m_;
    std::unordered_map<std::int64_t, std::int64_t> pending_; ///< key id -> newest use

    std::once_flag dummy_once_;
    std::string dummy_hash_;

    std::mutex flush_m_;
    std::condition_variable flush_cv_;
    bool stopping_ = false;
    std::thread flusher_; ///< last member: started last, joined first
};

} // namespace

std::unique_ptr<account_service> make_account_service(std::unique_ptr<store> s,
                                                      account_options options) {
    return std::make_unique<service>(std::move(s), std::move(options));
}

std::unique_ptr<account_service> open_account_service(std::filesystem::path const& data_dir,
                                                      account_options options) {
    auto s = open_sqlite_store(data_dir / "gateway.db", options.db_busy_timeout);
    return make_account_service(std::move(s), std::move(options));
}

std::string client_address_key(std::string_view address) {
    boost::system::error_code ec;
    auto const a = boost::asio::ip::make_address(std::string(address), ec);
    if (ec)
        return std::string(address);
    if (a.is_v4())
        return a.to_v4().to_string();
    auto const v6 = a.to_v6();
    if (v6.is_v4_mapped())
        return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
    auto bytes = v6.to_bytes();
    std::fill(bytes.begin() + 8, bytes.end(), std::uint8_t{0});
    return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

std::optional<std::chrono::seconds> parse_duration(std::string_view text) {
    if (text.size() < 2 || text.size() > 10)
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : text.substr(0, text.size() - 1)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0'); // at most 9 digits: no overflow
    }
    std::int64_t unit = 0;
    switch (text.back()) {
    case 's':
        unit = 1;
        break;
    case 'm':
        unit = 60;
        break;
    case 'h':
        unit = 3600;
        break;
    case 'd':
        unit = 86400;
        break;
    default:
        return std::nullopt;
    }
    constexpr std::int64_t ten_years = std::int64_t{10} * 366 * 86400;
    if (n <= 0 || n > ten_years / unit)
        return std::nullopt;
    return std::chrono::seconds(n * unit);
}

} // namespace gateway::server::auth
