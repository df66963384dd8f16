#pragma once
// The gateway's nonce replay guard (CONTRACT §2 INVALID_NONCE, upstreams/alpha.md §5.7): a nonce
// is accepted once per signer scope, and only inside the provider's window. It survives
// restarts through an append-only journal file and never touches the database on the hot path.
//
// @par Hot path
// `check_and_record` is an in-memory lookup under one mutex (hash map scope -> sorted flat
// vector of nonces) plus one `write()` of a ~30-byte text record to the already-open journal.
// No fsync per request, no SQLite.
//
// @par Durability trade-off
// A record is in the kernel's page cache once `write()` returns: a crash of the process (even
// `kill -9`) loses nothing. A power loss or kernel crash may lose the records of the last few
// seconds (whatever the kernel had not written back yet), so a nonce accepted just before it
// could be accepted once more after the reboot. The upstream keeps its own per-signer nonce
// check (alpha.md §5.7: the 100 highest nonces, each used once), which stays the second line
// of defence. `flush()` (and destruction) force the journal to disk. If a write fails (disk
// full), the nonce is still accepted and guarded in memory; only its survival across a
// restart is lost, and a warning is logged.
//
// @par Bounds
// A scope's nonces older than `now - before` (the largest `before` its calls used) can never be
// accepted again, since they are outside the window, so they are dropped from memory; pruning
// never forgets a nonce still inside a window of that scope. The journal is rewritten
// atomically (temporary file, fsync, rename, fsync of the directory) with only the live
// records when it grows past max(`compact_min_bytes`, twice its size after the previous
// rewrite), and on every `open`. Pruning trusts the callers' `now_ms`: if the system clock steps
// back by more than a window, a nonce pruned before the step could be accepted once more
// (again, the upstream's own check remains).
//
// @par Journal file
// `<data-dir>/nonces.journal` by convention, mode 0600, locked (flock) against a second
// process. Text lines, each ending with an FNV-1a checksum: `V 1` (format version), `T <now_ms>`
// (latest time seen: at most one a second, plus one on flush and close; `open` prunes with it),
// `S <id> <before_ms> <scope>` (declares a scope id for this file), `A <id> <nonce>` (accepted),
// `R <id> <nonce>` (released). A torn last record (crash mid-write) or a damaged line is skipped
// with a warning, never fatal. Only scopes (provider and signer address) and nonces are stored;
// logs carry only counts and errno texts.
#include <gateway/result.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

namespace gateway::server {

/// Accepted nonces lie in [now - before, now + after] (both ends included).
struct nonce_window {
    std::chrono::milliseconds before;
    std::chrono::milliseconds after;
};

/// alpha: now - 2 days to now + 1 day (CONTRACT §2, alpha.md §5.7).
inline constexpr nonce_window alpha_nonce_window{std::chrono::days(2), std::chrono::days(1)};
/// beta: within 10 s of now (CONTRACT §2).
inline constexpr nonce_window beta_nonce_window{std::chrono::seconds(10), std::chrono::seconds(10)};

struct nonce_guard_options {
    /// The journal is rewritten when it grows past max(this, 2 x its size after the last rewrite).
    std::uint64_t compact_min_bytes = 8u << 20;
};

/**
 * @par Thread safety
 * All members may be called concurrently from any thread (one internal mutex; no member blocks
 * on anything but that mutex and local file I/O, so it is safe, if not ideal, to call from an
 * `io_context` thread; never hold it across a `co_await`, which the API makes impossible).
 */
class nonce_guard {
public:
    /// Opens (creating, mode 0600, and creating its directory) the journal at `path`, loads the
    /// nonces still inside their window as of the latest time recorded in it, and rewrites it
    /// compacted. Throws std::runtime_error (start-up only) when the file cannot be opened, read
    /// or rewritten, is locked by another process, or was written by a newer format version.
    static std::unique_ptr<nonce_guard> open(std::filesystem::path path,
                                             nonce_guard_options options = {});

    ~nonce_guard();
    nonce_guard(nonce_guard const&) = delete;
    nonce_guard& operator=(nonce_guard const&) = delete;

    /**
     * Accepts `nonce` for `scope` (provider and signer, e.g. "alpha:0xabc..",
     * "alpha-testnet:0x..") at `now_ms` when it lies in [now - before, now + after] and was never
     * accepted for that scope, and records it (memory and journal).
     * @par Errors
     * 401 INVALID_NONCE (details.field "nonce") saying which: outside the window (the message
     * gives the window and the server time), or already used for this signer. INTERNAL_ERROR
     * when `scope` is empty, longer than 256 bytes or not printable ASCII without spaces (a
     * caller bug; scopes are built by the server).
     */
    result<void> check_and_record(std::string_view scope, std::int64_t nonce, std::int64_t now_ms,
                                  nonce_window w);

    /**
     * Forgets a nonce that `check_and_record` accepted, because the request was refused before
     * it reached the upstream (bad signature, validation, rate limit...), so the client may use
     * it again. Call it only for a nonce your own call just accepted and only if nothing was sent
     * upstream: releasing a nonce someone else recorded would re-open it for a replay. Any
     * recorded nonce may be released (it need not be the scope's latest); an unknown one is
     * ignored.
     */
    void release(std::string_view scope, std::int64_t nonce);

    /// Records the latest time seen and forces the journal to disk (fdatasync); also done on
    /// destruction.
    void flush();

    /// Nonces held in memory (all scopes).
    std::size_t size() const;
    /// Current journal size in bytes.
    std::uint64_t journal_bytes() const;
    /// Journal rewrites so far, including the one done by `open`.
    std::uint64_t compactions() const;

private:
    struct impl;
    explicit nonce_guard(std::unique_ptr<impl> p);
    std::unique_ptr<impl> impl_;
};

} // namespace gateway::server
