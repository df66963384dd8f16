#pragma once
/**
 * @file mock_server.hpp
 * Offline mock upstreams: HTTP servers that speak the wire protocols of the three providers
 * (alpha = Hyperliquid info API, beta = Aster futures/spot REST, gamma = Polymarket Gamma
 * catalog + CLOB) so contract and end-to-end tests run without the internet.
 *
 * Every mock also serves the control API of CONTRACT §10 under `/__mock/` (faults, stats,
 * marks, tick; alpha and beta also accounts, beta agents), which is never subject to faults, rate
 * limits or stats.
 *
 * Market data is deterministic for a given seed: mark prices follow a seeded random walk that
 * advances once per second, and order books and recent trades are generated from the seed
 * around the mark. A mark set through `POST /__mock/mark` is pinned (no longer walks), so tests
 * that move a price see exactly the price they set.
 */
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace gateway::mocks {

/// Which upstream a mock emulates.
enum class upstream { alpha, beta, gamma };

/// The name used in logs and the `Server` header: "alpha", "beta" or "gamma".
char const* to_string(upstream kind) noexcept;

struct mock_options {
    upstream kind;
    bool testnet = false;           ///< alpha/beta testnet flavour (same markets today)
    std::string host = "127.0.0.1"; ///< address to bind (IPv4/IPv6 literal or a resolvable name)
    std::uint16_t port = 0;         ///< 0 = a free port
    std::uint64_t seed = 42;        ///< seeds the random walk, books and trades
    unsigned threads = 1;           ///< io_context threads
    /// alpha and beta: enforce the upstream's IP weight budgets (alpha 1200 per 60 s; beta
    /// futures 2400 and spot 6000 per minute; 429 over them). Benchmarks that send thousands of
    /// requests turn it off.
    bool rate_limits = true;
    /// beta: a signer (`0x` + 40 hex, any case) every account is taken to have approved as an
    /// API wallet, as if each had approved it upstream (CONTRACT §10; the embedded gateway sets
    /// its read signer here). `start` throws `std::invalid_argument` for a malformed address.
    std::optional<std::string> approve_signer_for_all = std::nullopt;
    /// alpha: the least time between two `l2Book` pushes of one book on WebSocket (the
    /// upstream's 0.5 s); tests and benchmarks may lower it. Zero: every change at once.
    std::chrono::milliseconds ws_book_interval{500};
    /// beta: levels per side the `@depth` diff stream follows (and so the deepest REST
    /// `/fapi/v3/depth` snapshot a local book may be synced from without truncating it).
    std::size_t ws_depth_levels = 100;
};

/**
 * One running mock upstream. Owns its io_context and thread(s); it is listening when `start`
 * returns.
 *
 * Endpoints served: alpha `POST /info` (market data, candles and account reads backed by an
 * in-memory ledger seeded through `POST /__mock/accounts`; `POST /exchange` verifies signatures
 * and nonces as the upstream does, registers agents and matches orders, see alpha_exchange.hpp);
 * beta `/fapi/v3/...` and `/api/v3/...` on the same port (market data, and account reads signed
 * and nonce-checked as the upstream does, from a ledger seeded through `POST /__mock/accounts`;
 * API wallets approved through `POST /__mock/agents`, see beta_router.hpp); gamma the Gamma
 * catalog at `/` and the CLOB under `/clob`.
 *
 * @par Thread safety
 * `port`, `base_url` and `ws_url` may be called from any thread; `stop` is idempotent and may
 * be called from any thread but one of the mock's own (it joins them).
 */
class mock_server {
public:
    /**
     * Starts a mock. Throws `boost::system::system_error` when the address cannot be bound and
     * `std::invalid_argument` for a host that is not an address and does not resolve.
     */
    static std::unique_ptr<mock_server> start(mock_options options);

    mock_server(mock_server const&) = delete;
    mock_server& operator=(mock_server const&) = delete;
    ~mock_server();

    std::uint16_t port() const;
    /// e.g. "http://127.0.0.1:PORT" (an unspecified bind address is shown as loopback).
    std::string base_url() const;
    /// e.g. "ws://127.0.0.1:PORT/ws": alpha's WebSocket endpoint (beta serves `/ws/<stream>`
    /// and `/stream?streams=` on the same port; gamma has none).
    std::string ws_url() const;
    upstream kind() const;

    /// Graceful stop: no new connections, in-flight answers finish (bounded wait), threads
    /// joined. Idempotent.
    void stop();

private:
    struct impl;
    explicit mock_server(std::unique_ptr<impl> p);
    std::unique_ptr<impl> impl_;
};

} // namespace gateway::mocks
