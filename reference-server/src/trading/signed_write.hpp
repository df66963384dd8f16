#pragma once
/**
 * @file signed_write.hpp
 * The one pipeline of every EIP-712 signed write (CONTRACT §5-6; alpha and beta), and of the
 * typed-data endpoint that prepares one. It owns CONTRACT §2's order of checks, once:
 *
 *   body (415 / INVALID_JSON) -> order type supported by the provider (UNSUPPORTED_ORDER_TYPE)
 *   -> fields (VALIDATION_ERROR, the SDK's `validate`) -> market, its rules and the derivation
 *   (provider: MARKET_NOT_FOUND, VALIDATION_ERROR, MAX_LEVERAGE_EXCEEDED) -> the signer
 *   recovered from `signature` over the derived digest and authorized for `wallet`
 *   (SIGNATURE_ERROR naming both addresses) -> the nonce, per provider, network and signer
 *   (INVALID_NONCE, journaled) -> one upstream request, never retried (provider), its answer
 *   mapped; a write that never left gives its nonce back, one whose outcome is unknown says
 *   where to look.
 *
 * The provider supplies only its hooks (`signed_trading`); typed-data runs the same steps up to
 * the derivation (defaults filled in) and answers what to sign.
 */
#include "http/context.hpp"
#include "providers/provider.hpp"
#include "trading/nonce_guard.hpp"

#include <gateway/types/orders.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <cstdint>
#include <string>

namespace gateway::server {

/// Which write a route performs.
enum class write_operation { place, cancel, leverage };

/// Who the write is for: the provider alias, vertical and network (for messages and paths).
struct write_target {
    std::string alias;
    vertical v = vertical::perps;
    bool testnet = false;
};

class signed_write_pipeline {
public:
    explicit signed_write_pipeline(nonce_guard& nonces)
        : nonces_(nonces) {}

    /// A signed write whose body is already a JSON object (see the file comment).
    async_result<write_result> write(call_context ctx, signed_trading& provider,
                                     write_target target, write_operation op,
                                     boost::json::value body);

    /// `POST .../typed-data` (CONTRACT §6): the canonical params, the typed data and its digest.
    async_result<typed_data_response> typed_data(call_context ctx, signed_trading& provider,
                                                 write_target target, boost::json::value body);

private:
    /// The body read as the operation's request, checked in the contract's order up to the
    /// fields (a typed-data request's params: no signature, a nonce picked when missing).
    result<signed_request> read(signed_trading const& provider, write_target const& target,
                                write_operation op, boost::json::value const& body, body_kind kind,
                                std::int64_t now_ms);
    /// A fresh millisecond nonce for typed-data: now, or one more than the last one handed out.
    std::int64_t next_nonce(std::int64_t now_ms);

    nonce_guard& nonces_;
    std::atomic<std::int64_t> last_nonce_{0};
};

} // namespace gateway::server
