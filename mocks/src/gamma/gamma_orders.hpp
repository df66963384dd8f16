#pragma once
/**
 * @file gamma_orders.hpp
 * mock-gamma's CLOB auth and trading endpoints, the wire side (upstreams/gamma.md §4-§6),
 * served under `/clob` beside the public reads (gamma_clob.hpp), and the control endpoint
 * `/__mock/accounts` (CONTRACT §10).
 *
 * | path | auth | answer |
 * |---|---|---|
 * | `POST /auth/api-key` | L1 | `{"apiKey","secret","passphrase"}`, a new credential |
 * | `GET /auth/derive-api-key` | L1 | the credential of that address and nonce |
 * | `GET /auth/api-keys` | L2 | `{"apiKeys":["<key>",...]}` (the address's keys, no secrets) |
 * | `DELETE /auth/api-key` | L2 | `"OK"`: the calling key is forgotten |
 * | `GET /auth/ban-status/closed-only` | L2 | `{"closed_only":false}` |
 * | `POST /order` | L2 | gamma.md §5.4 |
 * | `POST /orders` | L2 | array of §5.4 answers (at most 15 orders) |
 * | `DELETE /order` | L2 | `{"canceled":[...],"not_canceled":{"<id>":"<reason>"}}` |
 * | `DELETE /orders`, `/cancel-all`, `/cancel-market-orders` | L2 | the same shape |
 * | `GET /data/order/{id}` | L2 | one OpenOrder (§5.6; status LIVE, MATCHED or CANCELED) |
 * | `GET /data/orders` | L2 | `{"data":[OpenOrder],"next_cursor","limit":100,"count"}`: open |
 * | `GET /data/trades` | L2 | the same envelope of Trades (§5.6) |
 *
 * `POST /order` (`{"order":{...},"owner","orderType","postOnly"?}`, other keys ignored)
 * checks, first failure answers, each a 400 `{"error":...}`:
 * 1. the body: an object with an `order` the SDK's `parse_order_wire` reads, a string
 *    `signature`, a known `orderType`, a zero `taker` (public orders only), amounts below
 *    10^15 micro units: else `Invalid order payload`;
 * 2. `owner` is the calling API key, and the order's `maker` its address: else
 *    `the order owner has to be the owner of the API KEY`; `signer` its address: else
 *    `the order signer address has to be the address of the API KEY`;
 * 3. `signatureType` 0 (the mock trades EOA orders only) and the EIP-712 signature recovering
 *    to `signer` on the token's exchange (neg-risk or not) with the SDK's `recover_order`:
 *    else `invalid signature`; an unknown token is `Invalid token id`;
 * 4. then the engine's checks (gamma_matching.hpp).
 * The `orderID` is the order's EIP-712 digest (`order_digest`).
 *
 * @par Thread safety
 * Safe to call concurrently (the engine and the credential store lock themselves).
 */
#include "gamma_auth.hpp"
#include "gamma_matching.hpp"
#include "gamma_view.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/util/percent.hpp>

#include <optional>
#include <string_view>

namespace gateway::mocks::gamma {

/// Orders one `POST /orders` takes (gamma.md §5.4).
inline constexpr std::size_t max_batch_orders = 15;
/// Order ids one `DELETE /orders` takes (the official client documents 3000).
inline constexpr std::size_t max_cancel_ids = 3000;
/// Items per `/data/orders` and `/data/trades` page (UNCONFIRMED upstream, gamma.md §9.7).
inline constexpr std::size_t data_page = 100;

class trading_api {
public:
    trading_api(catalog_view const& view, engine& books, credential_store& creds)
        : view_(view)
        , engine_(books)
        , creds_(creds) {}

    /**
     * Answers an auth or trading request; nullopt for a path it does not serve.
     * @param path the CLOB path (without `/clob`, trailing slashes cut)
     * @param signed_path the path as the client sent it (without `/clob` and the query),
     *        which L2 signatures cover
     */
    std::optional<net::response> handle(net::request const& req, std::string_view path,
                                        std::string_view signed_path, query_params const& q);

    /**
     * `POST /__mock/accounts` `{"address","balances":{"USDC":"1000","<token id>":"50"}}`
     * credits (decimal strings, at most 6 decimals, below 10^12; a negative one debits) and
     * answers the account; `GET /__mock/accounts/{address}` shows it:
     * `{"address","balances":{"<asset>":"<total>"},"locked":{...},"openOrders":N}`.
     * nullopt for any other path.
     * @par Errors 400 `{"error":...}` for a bad body (nothing is applied), 404 for an account
     * that was never credited nor traded, 405 for another method.
     */
    std::optional<net::response> control(net::request const& req);

private:
    catalog_view const& view_;
    engine& engine_;
    credential_store& creds_;
};

} // namespace gateway::mocks::gamma
