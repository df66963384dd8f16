#pragma once
/**
 * @file beta_auth.hpp
 * mock-beta's check of v3 signed requests, as upstreams/beta.md §3.3 recommends and the
 * upstream behaves (§3.1):
 *
 * 1. The signed string is the raw query (GET) or the raw body (POST/PUT/DELETE; the query when
 *    the body is empty). `signature=<hex>` must be its last parameter; the message is
 *    everything before `&signature=`. No `signature`: -1102.
 * 2. `signer` and `nonce` are required (-1102); `signer` and `user` must be `0x` + 40 hex
 *    (-1102), `nonce` a decimal integer (-1102). The chain is 1666, or 714 in testnet mode.
 * 3. The signature must recover to `signer` over the EIP-712 `Message{msg}` digest (`0x`
 *    optional, v 27/28 or 0/1), with the message as received or, failing that, its
 *    percent-decoded form (beta.md §3.1 step 3): else -1022.
 * 4. The account acted for is `user`, or when `user` is absent the one account that approved
 *    `signer` (else `signer` itself). `signer` may act when it is that account, an API wallet
 *    it approved (`POST /__mock/agents`), or the signer the mock approves for every account
 *    (`mock_options::approve_signer_for_all`): else -2015 (HTTP 401).
 * 5. Nonce (microseconds), per account: outside ±10 s of the clock, already used, or below
 *    the smallest of the 100 kept while 100 are kept -> -4225 "Nonce Expired"; otherwise it is
 *    kept (the smallest dropped past 100). A nonce is spent only by a request that passed 1-4.
 *
 * @par Thread safety
 * `verify` is safe to call concurrently (the nonce memory has its own mutex).
 */
#include "beta_ledger.hpp"
#include "beta_refusal.hpp"

#include <gateway/providers/beta/errors.hpp>
#include <gateway/util/percent.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

namespace gateway::mocks::beta {

/// Nonce window either side of the server's clock (beta.md §3.1 rule 1).
inline constexpr std::int64_t nonce_window_us = 10'000'000;
/// Nonces remembered per account (beta.md §3.1 rule 3).
inline constexpr std::size_t nonces_kept = 100;

/// A request that passed the checks.
struct signed_request {
    std::string user;   ///< the account acted for, lowercase
    std::string signer; ///< lowercase
    std::uint64_t nonce = 0;
    query_params params; ///< every parameter, decoded, `signature` included
};

class authenticator {
public:
    /// `approve_for_all`: a signer every account is taken to have approved (lowercase), if any.
    authenticator(ledger& l, bool testnet, std::optional<std::string> approve_for_all);

    /// Runs checks 1-5 on the signed string `raw` at `now_us` (Unix microseconds).
    std::variant<signed_request, refusal> verify(std::string_view raw, std::int64_t now_us);

    /// Whether `signer` may act for `user` (check 4).
    bool may_sign(std::string const& user, std::string const& signer) const;

private:
    std::optional<refusal> spend_nonce(std::string const& user, std::uint64_t nonce,
                                       std::int64_t now_us);

    ledger& ledger_;
    bool testnet_;
    std::optional<std::string> approve_for_all_;
    std::mutex m_;
    std::unordered_map<std::string, std::set<std::uint64_t>> nonces_;
};

} // namespace gateway::mocks::beta
