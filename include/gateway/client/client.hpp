#pragma once
/**
 * @file client.hpp
 * `gateway::client`: the synchronous SDK client, one typed method per endpoint.
 *
 * @code
 *   auto c = gateway::client::create({.base_url = "http://127.0.0.1:8080"}).value();
 *   auto health = c.health();            // result<aggregate_health>
 *   if (!health) std::cerr << health.error().message;
 * @endcode
 *
 * @par Thread safety
 * A client is a cheap copyable handle to one connection state; copies share it. Calls are
 * serialised on that state, so a client may be used from several threads; for parallel calls
 * create one client per thread.
 *
 * @par Error handling
 * Every method returns `result<T>`. A contract error keeps the server's status, code, message
 * and `details` (and `retry_after` for 429/503); no answer at all (refused, timeout, not the
 * contract's shape) is `errc::transport_error`. `.value()` throws `api_exception` instead.
 *
 * @par Idempotency
 * Reads may be retried by the caller freely. The client itself retries only a GET whose pooled
 * keep-alive connection turned out stale, and never a write.
 */
#include <gateway/net/http_client.hpp>
#include <gateway/result.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/health.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/types/predictions.hpp>
#include <gateway/types/provider.hpp>
#include <gateway/types/rwas.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/json/value.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway {

namespace sign::gamma {
class credentials; // <gateway/providers/gamma/signing.hpp>
class signer;      // <gateway/providers/gamma/orders.hpp>
} // namespace sign::gamma

struct client_options {
    /// The gateway's address, e.g. `http://127.0.0.1:8080` or `https://gw.example.com`.
    std::string base_url = "http://127.0.0.1:8080";
    /// Sent as `X-API-Key` on every non-public call.
    std::optional<std::string> api_key;
    /// Deadline of one call (connect + send + receive).
    std::chrono::milliseconds timeout{10000};
    /// Route every vertical call (prices, orders, ...) to `/v1/testnet/...` (CONTRACT §7). A
    /// `svc_test_` key can only call those.
    bool testnet = false;
    /// TLS settings for https; default verifies against the system trust store.
    std::shared_ptr<boost::asio::ssl::context> tls;
};

// `query_params` comes from validate.hpp (one definition for client and server).

class client {
public:
    /// Builds a client. @par Errors VALIDATION_ERROR naming `base_url` if it is not a URL.
    static result<client> create(client_options options);

    // ---- spec 4.1: public endpoints ------------------------------------------------------
    /// `GET /v1/providers`.
    result<provider_list> providers() const;
    /// `GET /v1/providers/{provider}`. @par Errors PROVIDER_NOT_FOUND.
    result<provider_detail> provider(std::string_view id) const;
    /// `GET /v1/health`.
    result<aggregate_health> health() const;
    /// `GET /v1/health/{provider}`. @par Errors PROVIDER_NOT_FOUND.
    result<provider_health> health(std::string_view provider) const;

    // ---- market data (API key) -----------------------------------------------------------
    /**
     * `GET /v1/perps/{provider}/prices`: perps symbol -> mid price.
     * @param dex alpha only: a builder-deployed dex (`xyz`), whose symbols are `xyz:SYM`.
     * @par Errors INVALID_API_KEY, TESTNET_KEY_ONLY, RATE_LIMITED (with `retry_after`),
     * PROVIDER_NOT_FOUND, UPSTREAM_ERROR, PROVIDER_UNAVAILABLE, UPSTREAM_TIMEOUT.
     */
    result<price_map> prices(std::string_view provider,
                             std::optional<std::string> const& dex = std::nullopt) const;

    // ---- perps reads (API key; spec 4.2, 4.3, CONTRACT §4) ---------------------------------
    // Every read below may also fail with INVALID_API_KEY, TESTNET_KEY_ONLY, RATE_LIMITED,
    // PROVIDER_NOT_FOUND, UPSTREAM_ERROR, PROVIDER_UNAVAILABLE and UPSTREAM_TIMEOUT. An
    // `address` is `0x` + 40 hex digits of any case, checked before anything is sent.

    /// `GET /v1/perps/{provider}/account/{address}`: the account summary (spec 2.5).
    /// @par Errors VALIDATION_ERROR (`address`).
    result<account_summary> account(std::string_view provider, std::string_view address) const;
    /// `GET /v1/perps/{provider}/account/{address}/positions` (spec 2.6), every perp dex.
    /// @par Errors VALIDATION_ERROR (`address`).
    result<std::vector<position>> positions(std::string_view provider,
                                            std::string_view address) const;
    /// `GET /v1/perps/{provider}/account/{address}/orders`: open orders, newest first.
    /// @par Errors VALIDATION_ERROR (`address`).
    result<std::vector<open_order>> open_orders(std::string_view provider,
                                                std::string_view address) const;
    /// `GET /v1/perps/{provider}/account/{address}/fills`: newest first, `limit` default 100.
    /// @par Errors VALIDATION_ERROR (`address`, `startTime`, `endTime`, `limit`).
    result<std::vector<fill>> fills(std::string_view provider, std::string_view address,
                                    fills_params const& params = {}) const;
    /// `GET /v1/perps/{provider}/markets/{symbol}/trades`: newest first, `limit` default 50.
    /// @par Errors VALIDATION_ERROR (`limit`), MARKET_NOT_FOUND.
    result<std::vector<trade>> trades(std::string_view provider, std::string_view symbol,
                                      trades_params const& params = {}) const;
    /// `GET /v1/perps/{provider}/markets/{symbol}/candles`: oldest first; `interval` required.
    /// @par Errors VALIDATION_ERROR (`interval`, `startTime`, `endTime`), MARKET_NOT_FOUND.
    result<std::vector<candle>> candles(std::string_view provider, std::string_view symbol,
                                        candles_params const& params) const;
    /// `GET /v1/perps/{provider}/markets/{symbol}/orderbook`: `depth` default 20.
    /// @par Errors VALIDATION_ERROR (`depth`), MARKET_NOT_FOUND.
    result<gateway::orderbook> orderbook(std::string_view provider, std::string_view symbol,
                                         orderbook_params const& params = {}) const;

    // ---- spot and rwas reads (API key; spec 4.4, 4.5) ------------------------------------
    /// `GET /v1/spot/{provider}/balances/{address}` (spec 2.11).
    /// @par Errors VALIDATION_ERROR (`address`).
    result<std::vector<spot_balance>> spot_balances(std::string_view provider,
                                                    std::string_view address) const;
    /// `GET /v1/spot/{provider}/prices`: spot pair (`BASE/QUOTE`) -> price (spec 2.9's map).
    result<price_map> spot_prices(std::string_view provider) const;
    /**
     * `GET /v1/rwas/{provider}/markets` (CONTRACT §4): the provider's real-world-asset markets,
     * alpha's builder-dex markets (`xyz:TSLA`) or beta's stock and commodity perps (`TSLA`).
     */
    result<std::vector<dex_market>> rwas_markets(std::string_view provider) const;
    /// `GET /v1/rwas/{provider}/dexes` (spec 2.12).
    result<std::vector<gateway::dex>> dexes(std::string_view provider) const;
    /// `GET /v1/rwas/{provider}/dexes/{dex}`: the dex and its markets (CONTRACT §4).
    /// @par Errors DEX_NOT_FOUND.
    result<dex_detail> dex(std::string_view provider, std::string_view name) const;
    /// `GET /v1/rwas/{provider}/dexes/{dex}/status` (CONTRACT §4). @par Errors DEX_NOT_FOUND.
    result<gateway::dex_status> dex_status(std::string_view provider, std::string_view name) const;

    // ---- predictions reads (API key; spec 4.6, 2.13, 2.14; CONTRACT §4) --------------------
    // Providers with the `predictions` vertical (gamma). No testnet: a testnet client gets
    // PROVIDER_NOT_FOUND. Every read may also fail as the perps reads above.

    /**
     * `GET /v1/predictions/{provider}/events`: events, filtered by `status` and `category`
     * (case-insensitive), `limit` default 25 (1..100), `offset` the matching events to skip:
     * page through every event with `offset` += `limit` until a page is short.
     * @par Errors VALIDATION_ERROR (`status`, `category`, `limit`, `offset`).
     */
    result<std::vector<prediction_event>> events(std::string_view provider,
                                                 events_params const& params = {}) const;
    /// `GET /v1/predictions/{provider}/events/{eventId}`: one event with its full markets.
    /// @par Errors VALIDATION_ERROR (`eventId` empty), EVENT_NOT_FOUND.
    result<prediction_event_detail> event(std::string_view provider,
                                          std::string_view event_id) const;
    /**
     * `GET /v1/predictions/{provider}/markets`: markets, of one event (`eventId`) or all,
     * filtered by `status`, paged with `limit` and `offset` as events.
     * @par Errors VALIDATION_ERROR (`eventId`, `status`, `limit`, `offset`), EVENT_NOT_FOUND
     * (an unknown `eventId`).
     */
    result<std::vector<gateway::prediction_market>>
    prediction_markets(std::string_view provider, markets_params const& params = {}) const;
    /// `GET /v1/predictions/{provider}/markets/{marketId}`: one market (spec 2.14).
    /// @par Errors VALIDATION_ERROR (`marketId` empty), MARKET_NOT_FOUND.
    result<gateway::prediction_market> prediction_market(std::string_view provider,
                                                         std::string_view market_id) const;
    /**
     * `GET /v1/predictions/{provider}/tokens/{tokenId}/orderbook`: an outcome token's book in
     * the orderbook shape (CONTRACT §4, `symbol` = tokenId), `depth` default 20.
     * @par Errors VALIDATION_ERROR (`tokenId` empty, `depth`), MARKET_NOT_FOUND.
     */
    result<gateway::orderbook> token_orderbook(std::string_view provider, std::string_view token_id,
                                               orderbook_params const& params = {}) const;

    /**
     * `GET /v1/{vertical}/{provider}/markets` (`perps` or `spot`): every market with the rules
     * a signer needs (asset id, size decimals, max leverage); see
     * `gateway::sign::alpha::rules_of`.
     */
    result<std::vector<market_info>> markets(vertical v, std::string_view provider) const;

    // ---- signed writes (spec 4.2, 4.4; CONTRACT §5-6) ------------------------------------
    // Each body is checked with `validate` first (nothing is sent when it fails). Sign it with
    // `gateway::sign::alpha::signer` (or any wallet, through `typed_data`). Writes are never
    // retried: on UPSTREAM_TIMEOUT the order's state is unknown; look at open orders / fills.

    /// `POST /v1/perps/{provider}/orders`. @par Errors ORDER_REJECTED, SIGNATURE_ERROR,
    /// INVALID_NONCE, VALIDATION_ERROR, UNSUPPORTED_ORDER_TYPE, MARKET_NOT_FOUND, ...
    result<place_result> place_order(std::string_view provider, place_order_request const& r) const;
    /// `POST /v1/spot/{provider}/orders` (`BASE/QUOTE` symbols; market and limit).
    result<place_result> place_spot_order(std::string_view provider,
                                          spot_order_request const& r) const;
    /// `DELETE /v1/perps/{provider}/orders`. @par Errors ORDER_NOT_FOUND, SIGNATURE_ERROR, ...
    result<cancel_result> cancel_order(std::string_view provider,
                                       cancel_order_request const& r) const;
    /// `DELETE /v1/spot/{provider}/orders`.
    result<cancel_result> cancel_spot_order(std::string_view provider,
                                            cancel_order_request const& r) const;
    /// `POST /v1/perps/{provider}/leverage`. @par Errors MAX_LEVERAGE_EXCEEDED, ...
    result<leverage_result> set_leverage(std::string_view provider,
                                         set_leverage_request const& r) const;
    /**
     * `POST /v1/{vertical}/{provider}/typed-data` (`perps` or `spot`): the canonical params,
     * the `eth_signTypedData_v4` JSON and its digest, for any wallet library to sign.
     */
    result<typed_data_response> typed_data(vertical v, std::string_view provider,
                                           typed_data_request const& r) const;

    // ---- prediction trading (spec 4.6, 5.2; CONTRACT §4, §5, §6.3) ------------------------
    // gamma: the client signs the upstream's own CTF Exchange Order with
    // `gateway::sign::gamma::signer` (include <gateway/providers/gamma.hpp>), the gateway
    // verifies it and places it with the CLOB credentials, which travel in that one request
    // only (body or headers) and are never stored. Bodies are checked with the server's own
    // `parse_*` and `validate` first (nothing is sent when they fail). No testnet. Writes are
    // never retried: on UPSTREAM_TIMEOUT the order's state is unknown; look at
    // `prediction_open_orders` and `prediction_fills`.

    /**
     * `POST /v1/predictions/{provider}/orders`: `r` signed (`salt`, `signature`), sent with
     * `credentials` (its own `apiKey`, `apiSecret`, `passphrase` members are ignored).
     * @par Errors VALIDATION_ERROR (fields, tick, size), MARKET_NOT_FOUND, SIGNATURE_ERROR,
     * INVALID_CREDENTIALS, ORDER_REJECTED (the upstream's reason), UPSTREAM_TIMEOUT, ...
     */
    result<place_result> place_prediction_order(std::string_view provider,
                                                gamma_order_request const& r,
                                                sign::gamma::credentials const& credentials) const;
    /// `DELETE /v1/predictions/{provider}/orders` `{orderId, wallet}` with `credentials`.
    /// @par Errors ORDER_NOT_FOUND, INVALID_CREDENTIALS, VALIDATION_ERROR (`orderId`), ...
    result<cancel_result>
    cancel_prediction_order(std::string_view provider, gamma_cancel_request const& r,
                            sign::gamma::credentials const& credentials) const;
    /**
     * `POST /v1/predictions/{provider}/typed-data` (`placeOrder`): the canonical params (a
     * fresh `salt` when `params` has none), the Order's `eth_signTypedData_v4` JSON and its
     * digest, for any wallet to sign; post the params with `signature` and the credentials.
     * `params`' signature and credentials are never sent.
     * @par Errors VALIDATION_ERROR, MARKET_NOT_FOUND.
     */
    result<typed_data_response> prediction_typed_data(std::string_view provider,
                                                      gamma_order_request const& params) const;
    /**
     * Signs `r` with `signer` for the token's exchange: `prediction_typed_data` looks up the
     * token's tick size and exchange and picks the salt; the answer is checked against the SDK's
     * own derivation of `r` (the same Order, amounts and exchange: a gateway cannot make the
     * signer sign anything else), then `r.salt`, `r.wallet` (when zero) and `r.signature` are
     * filled. Then `place_prediction_order`.
     * @par Errors as `prediction_typed_data`; VALIDATION_ERROR (`wallet` not the signer's);
     * TRANSPORT_ERROR when the answer is not `r`'s Order.
     */
    result<void> sign_prediction_order(std::string_view provider, gamma_order_request& r,
                                       sign::gamma::signer const& signer) const;
    /**
     * `GET /v1/predictions/{provider}/orders?wallet=`: the open orders of `credentials` (sent
     * in the `X-Gamma-*` headers), `symbol` the token id, newest first.
     * @par Errors VALIDATION_ERROR (`wallet`), INVALID_CREDENTIALS.
     */
    result<std::vector<open_order>>
    prediction_open_orders(std::string_view provider, std::string_view wallet,
                           sign::gamma::credentials const& credentials) const;
    /// `GET /v1/predictions/{provider}/fills?wallet=`: the fills of `credentials`, newest
    /// first, `limit` default 100. @par Errors VALIDATION_ERROR, INVALID_CREDENTIALS.
    result<std::vector<fill>> prediction_fills(std::string_view provider, std::string_view wallet,
                                               sign::gamma::credentials const& credentials,
                                               fills_params const& params = {}) const;

    // ---- escape hatch --------------------------------------------------------------------
    /**
     * Any call: `path` is already encoded (use `encode_segment` for parameters). `headers` are
     * added to the request. Returns the 2xx body as JSON, or the contract error.
     */
    result<boost::json::value>
    call(boost::beast::http::verb method, std::string path, query_params const& query = {},
         boost::json::value const* body = nullptr,
         std::vector<std::pair<std::string, std::string>> const& headers = {}) const;

    /// Percent-encodes one path segment (`xyz:TSLA` stays readable, `/` is escaped).
    static std::string encode_segment(std::string_view segment);

private:
    struct state;
    explicit client(std::shared_ptr<state> s)
        : s_(std::move(s)) {}
    /// `/v1` + `path`, or `/v1/testnet` + `path` for a testnet client.
    std::string vertical_path(std::string const& path) const;
    template <class T, class Parse>
    result<T> get_as(std::string path, query_params const& query, Parse parse) const;
    /// A signed write: `r` validated, then sent to `/{vertical}/{provider}/{leaf}`.
    template <class Result, class Request, class Parse>
    result<Result> signed_write(boost::beast::http::verb method, std::string_view vertical,
                                std::string_view provider, std::string_view leaf, Request const& r,
                                Parse parse) const;
    /// A write: `body` sent with `method`, the answer read as `T`.
    template <class T, class Parse>
    result<T> send_as(boost::beast::http::verb method, std::string path,
                      boost::json::value const& body, Parse parse) const;
    template <class T, class Parse>
    result<std::vector<T>> get_list(std::string path, query_params const& query, Parse parse,
                                    std::string_view what) const;
    /// `/{vertical}/{provider}/...{address}...`: the address checked first.
    static result<std::string> address_segment(std::string_view address);

    std::shared_ptr<state> s_;
};

} // namespace gateway

#ifndef GATEWAY_SEPARATE_COMPILATION
#include <gateway/client/impl/client.hpp>
#endif
