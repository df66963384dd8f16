// The nonce replay guard: memory first, an append-only journal for restarts (see the header for
// the design and the durability trade-off). Everything runs under one mutex; the journal is
// written with one write() per call, in call order, so a release always follows its accept in
// the file.
#include "trading/nonce_guard.hpp"

#include "log.hpp"
#include "private_dirs.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gateway::server {

namespace {

constexpr std::int64_t format_version = 1;
constexpr std::size_t max_scope_bytes = 256;
/// A `T` record is written at most this often (it bounds what load may prune).
constexpr std::int64_t time_record_interval_ms = 1000;
/// Idle scopes are pruned (and dropped when empty) at most this often.
constexpr std::int64_t sweep_interval_ms = 60'000;
constexpr std::int64_t min_i64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t max_i64 = std::numeric_limits<std::int64_t>::max();

/// a + b and a - b for b >= 0, clamped to the int64 range.
std::int64_t sat_add(std::int64_t a, std::int64_t b) {
    return a > max_i64 - b ? max_i64 : a + b;
}
std::int64_t sat_sub(std::int64_t a, std::int64_t b) {
    return a < min_i64 + b ? min_i64 : a - b;
}

std::uint32_t fnv1a(std::string_view s) {
    std::uint32_t h = 2166136261u;
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

/// Printable ASCII without spaces (the journal separates fields with spaces), 1..256 bytes.
bool valid_scope(std::string_view s) {
    if (s.empty() || s.size() > max_scope_bytes)
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

std::string errno_text(int e) {
    return std::system_category().message(e);
}

/// "2 days", "10 seconds", "1500 ms".
std::string describe_duration(std::int64_t ms) {
    struct unit {
        std::int64_t ms;
        char const* name;
    };
    static constexpr unit units[] = {
        {86'400'000, "day"}, {3'600'000, "hour"}, {60'000, "minute"}, {1000, "second"}};
    for (auto const& u : units)
        if (ms != 0 && ms % u.ms == 0) {
            auto const n = ms / u.ms;
            return std::to_string(n) + " " + u.name + (n == 1 ? "" : "s");
        }
    return std::to_string(ms) + " ms";
}

api_error nonce_error(std::string message) {
    api_error e = make_error(errc::invalid_nonce, std::move(message));
    e.details["field"] = "nonce";
    return e;
}

// ---- journal records -------------------------------------------------------------------------

void put_int(std::string& out, std::int64_t v) {
    char buf[24];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

/// Appends the checksum of the record started at `start` and the newline.
void end_record(std::string& out, std::size_t start) {
    std::uint32_t const sum = fnv1a(std::string_view(out).substr(start));
    char buf[10];
    buf[0] = ' ';
    static constexpr char digits[] = "0123456789abcdef";
    for (int i = 0; i < 8; ++i)
        buf[1 + i] = digits[(sum >> (28 - 4 * i)) & 0xf];
    buf[9] = '\n';
    out.append(buf, sizeof buf);
}

void put_record(std::string& out, char type, std::int64_t a) {
    auto const start = out.size();
    out += type;
    out += ' ';
    put_int(out, a);
    end_record(out, start);
}

void put_record(std::string& out, char type, std::int64_t a, std::int64_t b) {
    auto const start = out.size();
    out += type;
    out += ' ';
    put_int(out, a);
    out += ' ';
    put_int(out, b);
    end_record(out, start);
}

void put_scope_record(std::string& out, std::uint32_t id, std::int64_t before_ms,
                      std::string_view scope) {
    auto const start = out.size();
    out += "S ";
    put_int(out, id);
    out += ' ';
    put_int(out, before_ms);
    out += ' ';
    out += scope;
    end_record(out, start);
}

struct record {
    char type = 0;
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::string_view scope;
};

bool parse_int(std::string_view s, std::int64_t& out) {
    if (s.empty())
        return false;
    auto const r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

/// Splits off the next space-separated field of `rest`.
std::string_view next_field(std::string_view& rest) {
    auto const sp = rest.find(' ');
    auto const field = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    return field;
}

/// One line without its newline; nullopt when damaged (bad checksum, shape or numbers).
std::optional<record> parse_record(std::string_view line) {
    auto const sp = line.rfind(' ');
    if (sp == std::string_view::npos || line.size() - sp - 1 != 8)
        return std::nullopt;
    auto const body = line.substr(0, sp);
    auto const sum_text = line.substr(sp + 1);
    std::uint32_t sum = 0;
    auto const r = std::from_chars(sum_text.data(), sum_text.data() + sum_text.size(), sum, 16);
    if (r.ec != std::errc() || r.ptr != sum_text.data() + sum_text.size() || sum != fnv1a(body))
        return std::nullopt;
    if (body.size() < 3 || body[1] != ' ')
        return std::nullopt;
    record rec;
    rec.type = body[0];
    std::string_view rest = body.substr(2);
    switch (rec.type) {
    case 'V':
    case 'T':
        if (!parse_int(rest, rec.a))
            return std::nullopt;
        return rec;
    case 'A':
    case 'R':
        if (!parse_int(next_field(rest), rec.a) || !parse_int(rest, rec.b) || rec.a <= 0)
            return std::nullopt;
        return rec;
    case 'S':
        if (!parse_int(next_field(rest), rec.a) || !parse_int(next_field(rest), rec.b) ||
            rec.a <= 0 || rec.b < 0 || !valid_scope(rest))
            return std::nullopt;
        rec.scope = rest;
        return rec;
    default:
        return std::nullopt;
    }
}

// ---- in-memory state -------------------------------------------------------------------------

struct string_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
        return std::hash<std::string_view>{}(s);
    }
};

/// One signer's nonces: a sorted flat vector whose live part is [head, end). Nonces mostly
/// arrive in increasing order, so inserts land at the end and pruning only moves `head`.
struct scope_state {
    std::vector<std::int64_t> nonces;
    std::size_t head = 0;
    std::int64_t before_ms = 0;          ///< largest window.before seen for this scope
    std::uint32_t journal_id = 0;        ///< id declared in the current journal file; 0: none
    std::int64_t declared_before_ms = 0; ///< before_ms written with that declaration

    std::size_t live() const { return nonces.size() - head; }
    auto live_begin() { return nonces.begin() + static_cast<std::ptrdiff_t>(head); }

    /// Drops the nonces below `limit`; returns how many.
    std::size_t prune_below(std::int64_t limit) {
        auto const first = live_begin();
        if (first == nonces.end() || *first >= limit)
            return 0;
        auto const it = std::lower_bound(first, nonces.end(), limit);
        auto const n = static_cast<std::size_t>(it - first);
        head += n;
        if (head == nonces.size()) {
            nonces.clear();
            head = 0;
        } else if (head >= 64 && head * 2 >= nonces.size()) {
            nonces.erase(nonces.begin(), live_begin());
            head = 0;
        }
        return n;
    }
    /// False when `n` is already there.
    bool insert(std::int64_t n) {
        if (nonces.size() == head || nonces.back() < n) {
            nonces.push_back(n);
            return true;
        }
        auto const it = std::lower_bound(live_begin(), nonces.end(), n);
        if (it != nonces.end() && *it == n)
            return false;
        nonces.insert(it, n);
        return true;
    }
    bool erase(std::int64_t n) {
        auto const it = std::lower_bound(live_begin(), nonces.end(), n);
        if (it == nonces.end() || *it != n)
            return false;
        nonces.erase(it);
        return true;
    }
};

[[noreturn]] void fail(std::filesystem::path const& path, std::string_view what, int err) {
    throw std::runtime_error("nonce journal " + path.string() + ": " + std::string(what) + ": " +
                             errno_text(err));
}

/// write() all of `data` to `fd`; 0 or the errno.
int write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        auto const n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

} // namespace

struct nonce_guard::impl {
    std::filesystem::path path;
    std::filesystem::path tmp_path;
    nonce_guard_options options;

    mutable std::mutex m;
    std::unordered_map<std::string, scope_state, string_hash, std::equal_to<>> scopes;
    std::size_t live = 0;
    std::int64_t high_water = min_i64; ///< latest now_ms seen (or loaded)
    std::int64_t last_time_record = min_i64;
    std::int64_t last_sweep = min_i64;

    int fd = -1;
    std::uint64_t bytes = 0;
    std::uint64_t compact_at = 0;
    std::uint64_t compactions = 0;
    std::uint32_t next_id = 1;
    bool opened = false; ///< `open` finished; a refused journal is left exactly as it was
    bool write_failing = false;
    bool torn_tail = false; ///< a failed write left a partial line we could not cut off
    std::string pending;

    ~impl() {
        if (fd >= 0) {
            if (opened)
                stamp_time();
            ::fdatasync(fd);
            ::close(fd);
        }
    }

    /// Records the latest time if the journal's is older (so a clean restart prunes exactly; a
    /// crash leaves it at most `time_record_interval_ms` behind, which only keeps more).
    void stamp_time() {
        if (high_water == min_i64 || high_water <= last_time_record)
            return;
        pending.clear();
        put_record(pending, 'T', high_water);
        if (append_pending())
            last_time_record = high_water;
    }

    /// Prunes every scope at `now` and drops the empty ones.
    void sweep(std::int64_t now) {
        for (auto it = scopes.begin(); it != scopes.end();) {
            live -= it->second.prune_below(sat_sub(now, it->second.before_ms));
            if (it->second.live() == 0)
                it = scopes.erase(it);
            else
                ++it;
        }
        last_sweep = now;
    }

    /// Appends `pending` with one write(); on failure cuts the partial record off again.
    bool append_pending() {
        if (torn_tail)
            pending.insert(pending.begin(), '\n'); // isolate the fragment as one damaged line
        int const err = write_all(fd, pending);
        if (err == 0) {
            bytes += pending.size();
            torn_tail = false;
            if (write_failing) {
                write_failing = false;
                log::info("msg=\"nonce journal writable again\"");
            }
            return true;
        }
        if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
            torn_tail = true;
            struct stat st {};
            if (::fstat(fd, &st) == 0)
                bytes = static_cast<std::uint64_t>(st.st_size);
        }
        if (!write_failing) {
            write_failing = true;
            log::warn("msg=\"nonce journal write failed; nonces stay guarded in memory only\" "
                      "error=\"" +
                      errno_text(err) + "\"");
        }
        return false;
    }

    /// Rewrites the journal with the live records only: temp file, fdatasync, rename, fsync of
    /// the directory. Returns an error description, or nullopt on success.
    std::optional<std::string> rewrite() {
        std::string out;
        out.reserve(64 + live * 24 + scopes.size() * 96);
        put_record(out, 'V', format_version);
        if (high_water != min_i64)
            put_record(out, 'T', high_water);
        std::uint32_t id = 0;
        for (auto& [scope, st] : scopes) {
            put_scope_record(out, ++id, st.before_ms, scope);
            for (auto it = st.live_begin(); it != st.nonces.end(); ++it)
                put_record(out, 'A', id, *it);
        }

        int const tfd =
            ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
        if (tfd < 0)
            return "create " + tmp_path.string() + ": " + errno_text(errno);
        auto abandon = [&](std::string what, int err) {
            ::close(tfd);
            ::unlink(tmp_path.c_str());
            return std::optional<std::string>(std::move(what) + ": " + errno_text(err));
        };
        // The new file takes over the lock before it becomes visible under `path`.
        if (::fchmod(tfd, 0600) != 0)
            return abandon("chmod", errno);
        if (::flock(tfd, LOCK_EX | LOCK_NB) != 0)
            return abandon("lock", errno);
        if (int const err = write_all(tfd, out); err != 0)
            return abandon("write", err);
        if (::fdatasync(tfd) != 0)
            return abandon("sync", errno);
        if (::rename(tmp_path.c_str(), path.c_str()) != 0)
            return abandon("rename", errno);
        auto const dir =
            path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
        if (int const dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
            ::fsync(dfd); // best effort: the data itself is already synced
            ::close(dfd);
        }

        if (fd >= 0)
            ::close(fd);
        fd = tfd;
        bytes = out.size();
        compact_at = std::max<std::uint64_t>(options.compact_min_bytes, 2 * bytes);
        ++compactions;
        torn_tail = false;
        last_time_record = high_water;
        id = 0;
        for (auto& [scope, st] : scopes) {
            st.journal_id = ++id;
            st.declared_before_ms = st.before_ms;
        }
        next_id = id + 1;
        return std::nullopt;
    }

    /// Sweeps and rewrites; on failure logs and backs off so the hot path does not retry at once.
    void compact(std::int64_t now) {
        sweep(now);
        if (auto err = rewrite()) {
            compact_at = bytes + std::max<std::uint64_t>(options.compact_min_bytes, bytes);
            log::warn("msg=\"nonce journal compaction failed; will retry later\" error=\"" + *err +
                      "\"");
        }
    }

    /// Replays the journal text into memory; throws for a newer format version.
    void load(std::string_view text) {
        std::unordered_map<std::int64_t, scope_state*> ids;
        std::size_t damaged = 0;
        bool torn = false;
        std::size_t pos = 0;
        while (pos < text.size()) {
            auto const nl = text.find('\n', pos);
            if (nl == std::string_view::npos) {
                torn = true; // crash mid-write: the last record never got its newline
                break;
            }
            auto const line = text.substr(pos, nl - pos);
            pos = nl + 1;
            if (line.empty())
                continue;
            auto const rec = parse_record(line);
            if (!rec) {
                ++damaged;
                continue;
            }
            switch (rec->type) {
            case 'V':
                if (rec->a > format_version)
                    throw std::runtime_error("nonce journal " + path.string() +
                                             " was written by a newer version (format " +
                                             std::to_string(rec->a) + ")");
                break;
            case 'T':
                high_water = std::max(high_water, rec->a);
                break;
            case 'S': {
                auto& st = scopes.try_emplace(std::string(rec->scope)).first->second;
                st.before_ms = std::max(st.before_ms, rec->b);
                ids[rec->a] = &st; // unordered_map nodes never move
                break;
            }
            case 'A':
            case 'R': {
                auto const it = ids.find(rec->a);
                if (it == ids.end()) {
                    ++damaged;
                    break;
                }
                if (rec->type == 'A' && it->second->insert(rec->b))
                    ++live;
                else if (rec->type == 'R' && it->second->erase(rec->b))
                    --live;
                break;
            }
            }
        }
        if (high_water != min_i64)
            sweep(high_water);
        else
            sweep(min_i64); // drops scopes left empty by releases
        if (damaged != 0 || torn)
            log::warn("msg=\"nonce journal: skipped damaged records\" damaged=" +
                      std::to_string(damaged) + " torn_tail=" + (torn ? "true" : "false"));
    }
};

nonce_guard::nonce_guard(std::unique_ptr<impl> p)
    : impl_(std::move(p)) {}

nonce_guard::~nonce_guard() = default;

std::unique_ptr<nonce_guard> nonce_guard::open(std::filesystem::path path,
                                               nonce_guard_options options) {
    auto p = std::make_unique<impl>();
    p->path = path;
    p->tmp_path = path;
    p->tmp_path += ".tmp";
    p->options = options;
    if (auto const parent = path.parent_path(); !parent.empty()) {
        std::error_code ec;
        create_private_directories(parent, ec); // 0700, like the journal's 0600
        if (ec)
            throw std::runtime_error("nonce journal " + path.string() + ": " + ec.message());
    }

    // Lock the file that is under `path` once we hold the lock (a concurrent rewrite by another
    // process could have replaced it between our open and our flock).
    for (int attempt = 0;; ++attempt) {
        int const fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0)
            fail(path, "open", errno);
        p->fd = fd;
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int const err = errno;
            if (err == EWOULDBLOCK)
                throw std::runtime_error("nonce journal " + path.string() +
                                         " is in use by another process");
            fail(path, "lock", err);
        }
        struct stat held {};
        struct stat named {};
        if (::fstat(fd, &held) != 0)
            fail(path, "stat", errno);
        if (::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino)
            break;
        if (attempt == 3)
            throw std::runtime_error("nonce journal " + path.string() + " keeps being replaced");
        ::close(fd);
        p->fd = -1;
    }
    if (::fchmod(p->fd, 0600) != 0)
        fail(path, "chmod", errno);

    std::string text;
    for (;;) {
        char buf[1 << 16];
        auto const n = ::pread(p->fd, buf, sizeof buf, static_cast<off_t>(text.size()));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail(path, "read", errno);
        }
        if (n == 0)
            break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    p->bytes = text.size();
    p->load(text);
    if (auto err = p->rewrite())
        throw std::runtime_error("nonce journal " + path.string() + ": rewrite failed: " + *err);
    p->opened = true;
    return std::unique_ptr<nonce_guard>(new nonce_guard(std::move(p)));
}

result<void> nonce_guard::check_and_record(std::string_view scope, std::int64_t nonce,
                                           std::int64_t now_ms, nonce_window w) {
    if (!valid_scope(scope))
        return make_error(errc::internal_error, "The nonce scope is malformed.");
    auto const before = std::max<std::int64_t>(0, w.before.count());
    auto const after = std::max<std::int64_t>(0, w.after.count());
    if (nonce < sat_sub(now_ms, before) || nonce > sat_add(now_ms, after))
        return nonce_error("Nonce " + std::to_string(nonce) +
                           " is outside the accepted window of now - " + describe_duration(before) +
                           " to now + " + describe_duration(after) + " (server time " +
                           std::to_string(now_ms) + " ms).");

    auto& p = *impl_;
    std::lock_guard lock(p.m);
    p.high_water = std::max(p.high_water, now_ms);
    auto it = p.scopes.find(scope);
    if (it == p.scopes.end())
        it = p.scopes.try_emplace(std::string(scope)).first;
    auto& st = it->second;
    st.before_ms = std::max(st.before_ms, before);
    p.live -= st.prune_below(sat_sub(now_ms, st.before_ms));
    if (!st.insert(nonce))
        return nonce_error("Nonce " + std::to_string(nonce) + " was already used for this signer.");
    ++p.live;

    p.pending.clear();
    bool const declare = st.journal_id == 0 || st.declared_before_ms < st.before_ms;
    auto const id = st.journal_id != 0 ? st.journal_id : p.next_id;
    if (declare)
        put_scope_record(p.pending, id, st.before_ms, scope);
    bool const stamp = p.high_water >= sat_add(p.last_time_record, time_record_interval_ms);
    if (stamp)
        put_record(p.pending, 'T', p.high_water);
    put_record(p.pending, 'A', id, nonce);
    if (p.append_pending()) {
        if (st.journal_id == 0) {
            st.journal_id = id;
            ++p.next_id;
        }
        st.declared_before_ms = st.before_ms;
        if (stamp)
            p.last_time_record = p.high_water;
    }

    if (p.bytes >= p.compact_at)
        p.compact(now_ms); // may drop other scopes; `st` is not used after this
    else if (now_ms >= sat_add(p.last_sweep, sweep_interval_ms))
        p.sweep(now_ms);
    return {};
}

void nonce_guard::release(std::string_view scope, std::int64_t nonce) {
    auto& p = *impl_;
    std::lock_guard lock(p.m);
    auto const it = p.scopes.find(scope);
    if (it == p.scopes.end() || !it->second.erase(nonce))
        return;
    --p.live;
    // journal_id 0: the scope's accept records never reached this file, so nothing to undo.
    if (it->second.journal_id == 0)
        return;
    p.pending.clear();
    put_record(p.pending, 'R', it->second.journal_id, nonce);
    p.append_pending();
}

void nonce_guard::flush() {
    auto& p = *impl_;
    std::lock_guard lock(p.m);
    p.stamp_time();
    if (::fdatasync(p.fd) != 0)
        log::warn("msg=\"nonce journal sync failed\" error=\"" + errno_text(errno) + "\"");
}

std::size_t nonce_guard::size() const {
    std::lock_guard lock(impl_->m);
    return impl_->live;
}

std::uint64_t nonce_guard::journal_bytes() const {
    std::lock_guard lock(impl_->m);
    return impl_->bytes;
}

std::uint64_t nonce_guard::compactions() const {
    std::lock_guard lock(impl_->m);
    return impl_->compactions;
}

} // namespace gateway::server
