#pragma once
/**
 * @file gamma_auth.hpp
 * mock-gamma's CLOB authentication (upstreams/gamma.md §4), verified with the SDK's own code
 * (`gateway::sign::gamma::recover_clob_auth`, `gateway::sign::build_l2_signature`):
 *
 * - L1 (`POST /auth/api-key`, `GET /auth/derive-api-key`): headers `POLY_ADDRESS`,
 *   `POLY_SIGNATURE`, `POLY_TIMESTAMP`, `POLY_NONCE` (absent = 0). The ClobAuth signature
 *   (chain 137) must recover to `POLY_ADDRESS` and the timestamp be within `window_s` of the
 *   clock; else 401 `{"error":"Invalid L1 Request headers"}`.
 * - Credentials: one per (address, nonce). Create makes it (a random UUID v4 key, a url-safe
 *   base64 secret of 32 random bytes with `=` padding, a 64-hex passphrase) and refuses a
 *   (address, nonce) that already has one (400 `Could not create api key`); derive answers the
 *   existing one (400 `Could not derive api key!` when there is none). This is what
 *   `createOrDeriveApiKey` of the official clients relies on.
 * - L2 (every trading and user endpoint): `POLY_ADDRESS`, `POLY_SIGNATURE`, `POLY_TIMESTAMP`,
 *   `POLY_API_KEY`, `POLY_PASSPHRASE`. The key must exist, the passphrase match, the timestamp
 *   be within `window_s` of the clock, `POLY_ADDRESS` equal the key's address (any case), and
 *   the signature equal `build_l2_signature(secret, timestamp, METHOD, path, body)` over the
 *   path the client signed (the CLOB path without `/clob` and without the query) and the raw
 *   body, or over the body with every `'` replaced by `"` (the Python/Rust clients' quirk);
 *   else 401 `{"error":"Unauthorized/Invalid api key"}`.
 *
 * Secrets and passphrases are compared in constant time and never logged or echoed.
 *
 * @par Thread safety
 * Every member is safe to call concurrently (one internal mutex).
 */
#include "gamma_ledger.hpp"

#include <gateway/net/http_server.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace gateway::mocks::gamma {

/// Seconds a `POLY_TIMESTAMP` may be away from the clock (gamma.md §4.2 leaves the real
/// window UNCONFIRMED; 60 s is the mock's choice).
inline constexpr std::int64_t window_s = 60;

inline constexpr std::string_view l1_refused = "Invalid L1 Request headers";
inline constexpr std::string_view l2_refused = "Unauthorized/Invalid api key";
inline constexpr std::string_view create_refused = "Could not create api key";
inline constexpr std::string_view derive_refused = "Could not derive api key!";

/// An API credential and the address it is bound to.
struct credential {
    std::string api_key;
    std::string secret;
    std::string passphrase;
    std::string address; ///< lowercase
    std::uint64_t nonce = 0;
};

/// Who signed an L1 request.
struct l1_identity {
    std::string address; ///< lowercase
    std::uint64_t nonce = 0;
};

class credential_store {
public:
    /// L1 checks of `req` at unix second `now_s`.
    static std::variant<l1_identity, refusal> verify_l1(net::request const& req,
                                                        std::int64_t now_s);

    /// `POST /auth/api-key`: a new credential for (address, nonce).
    std::variant<credential, refusal> create(l1_identity const& who);
    /// `GET /auth/derive-api-key`: the credential of (address, nonce).
    std::variant<credential, refusal> derive(l1_identity const& who) const;

    /**
     * L2 checks of `req` at `now_s`; `signed_path` is the path the client signed (the CLOB
     * path, without `/clob` and without the query).
     */
    std::variant<credential, refusal>
    verify_l2(net::request const& req, std::string_view signed_path, std::int64_t now_s) const;

    /// The API keys of `address`, oldest first (never the secrets).
    std::vector<std::string> keys_of(std::string const& address) const;
    /// `DELETE /auth/api-key`: forgets a key; false when unknown.
    bool remove(std::string const& api_key);

private:
    mutable std::mutex m_;
    std::unordered_map<std::string, credential> by_key_;
    std::map<std::pair<std::string, std::uint64_t>, std::string> by_owner_; ///< -> api key
};

} // namespace gateway::mocks::gamma
