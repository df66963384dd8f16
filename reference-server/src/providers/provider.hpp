#pragma once
/**
 * @file provider.hpp
 * The provider seam: one interface per capability, a provider object bundling what one provider
 * offers per network, and the registry that resolves (alias, vertical, testnet) to an
 * implementation or the contract's 404 PROVIDER_NOT_FOUND.
 *
 * Generic routes (routes/) parse and validate a request with the SDK's code, resolve the
 * capability through the registry, call it and render its typed result; they never name a
 * provider. Everything a provider knows about its upstream (wire protocol, market universe,
 * signing rules, error texts) lives in its own folder, providers/<alias>/, behind these
 * interfaces, and talks to the upstream only through an `upstream_channel`.
 *
 * Every method takes the SDK's parameter structs (already validated by the route: CONTRACT §2,
 * fields before markets) and a `call_context`; it answers the SDK's typed result or a contract
 * error (MARKET_NOT_FOUND, DEX_NOT_FOUND, upstream errors...). Implementations are per network:
 * a testnet object talks to the testnet upstream only.
 */
#include "config.hpp"
#include "health.hpp"
#include "http/context.hpp"
#include "trading/nonce_guard.hpp"

#include <gateway/providers/gamma/signing.hpp>
#include <gateway/result.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/stream/protocol.hpp>
#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/types/predictions.hpp>
#include <gateway/types/provider.hpp>
#include <gateway/types/rwas.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gateway::net {
class http_client;
}

namespace gateway::server {

template <class T>
using async_result = boost::asio::awaitable<result<T>>;

/// Perps market data and account reads (spec 4.2, 4.3; CONTRACT §4).
class perps_reads {
public:
    virtual ~perps_reads() = default;
    /// Prices of perps symbols (spec 2.9; CONTRACT §1: perps symbols only).
    virtual async_result<price_map> prices(call_context const& ctx, prices_params const& p) = 0;
    /// The markets with their signing and trading rules (CONTRACT §4 markets listing).
    virtual async_result<std::vector<market_info>> markets(call_context const& ctx) = 0;
    virtual async_result<std::vector<trade>>
    trades(call_context const& ctx, std::string const& symbol, trades_params const& p) = 0;
    virtual async_result<std::vector<candle>>
    candles(call_context const& ctx, std::string const& symbol, candles_params const& p) = 0;
    virtual async_result<orderbook> book(call_context const& ctx, std::string const& symbol,
                                         orderbook_params const& p) = 0;
    virtual async_result<account_summary> account(call_context const& ctx, address const& user) = 0;
    virtual async_result<std::vector<position>> positions(call_context const& ctx,
                                                          address const& user) = 0;
    virtual async_result<std::vector<open_order>> open_orders(call_context const& ctx,
                                                              address const& user) = 0;
    virtual async_result<std::vector<fill>> fills(call_context const& ctx, address const& user,
                                                  fills_params const& p) = 0;
};

/// Spot reads (spec 4.4, 2.11; CONTRACT §4 markets listing).
class spot_reads {
public:
    virtual ~spot_reads() = default;
    /// Prices of spot pairs by `BASE/QUOTE` (spec 2.9's map).
    virtual async_result<price_map> prices(call_context const& ctx) = 0;
    virtual async_result<std::vector<market_info>> markets(call_context const& ctx) = 0;
    virtual async_result<std::vector<spot_balance>> balances(call_context const& ctx,
                                                             address const& user) = 0;
};

/// Real-world-asset reads (spec 4.5; CONTRACT §4 dexes and rwas markets).
class rwas_reads {
public:
    virtual ~rwas_reads() = default;
    /// The provider's real-world-asset markets (CONTRACT §4: the dex detail's market items).
    virtual async_result<std::vector<dex_market>> markets(call_context const& ctx) = 0;
    virtual async_result<std::vector<dex>> dexes(call_context const& ctx) = 0;
    virtual async_result<dex_detail> detail(call_context const& ctx, std::string const& name) = 0;
    virtual async_result<dex_status> status(call_context const& ctx, std::string const& name) = 0;
};

/**
 * Prediction-market reads (spec 4.6, 2.13, 2.14; CONTRACT §4): events and markets of the
 * provider's catalog with their outcome tokens' prices, and a token's order book. Listings are
 * filtered by the provider (status, category) and paged with `limit` and `offset` over the
 * filtered list, however the upstream pages its own catalog.
 */
class predictions_reads {
public:
    virtual ~predictions_reads() = default;
    /// Events (spec 2.13), by `status` and `category`, `limit` after `offset` matches.
    /// @par Errors VALIDATION_ERROR (`offset` deeper than the provider pages), upstream errors.
    virtual async_result<std::vector<prediction_event>> events(call_context const& ctx,
                                                               events_params const& p) = 0;
    /// One event with its full markets. @par Errors EVENT_NOT_FOUND, upstream errors.
    virtual async_result<prediction_event_detail> event(call_context const& ctx,
                                                        std::string const& event_id) = 0;
    /// Markets (spec 2.14): of one event (EVENT_NOT_FOUND) or all, by `status`, paged.
    virtual async_result<std::vector<prediction_market>> markets(call_context const& ctx,
                                                                 markets_params const& p) = 0;
    /// One market. @par Errors MARKET_NOT_FOUND, upstream errors.
    virtual async_result<prediction_market> market(call_context const& ctx,
                                                   std::string const& market_id) = 0;
    /// An outcome token's order book (CONTRACT §4 shape, `symbol` = the token id).
    /// @par Errors MARKET_NOT_FOUND (no such token, or no book), upstream errors.
    virtual async_result<orderbook> book(call_context const& ctx, std::string const& token_id,
                                         orderbook_params const& p) = 0;
};

// ---------------------------------------------------------------------------------------------
// Signed trading (alpha, beta: EIP-712 signed by the client, verified by the gateway)

/// The three signed write operations of CONTRACT §5-6 (spot orders share the place body).
using signed_request =
    std::variant<place_order_request, cancel_order_request, set_leverage_request>;
/// Their results (CONTRACT §5).
using write_result = std::variant<place_result, cancel_result, leverage_result>;

/// Whether a derivation serves the write itself or a typed-data request, which may leave out
/// what the provider can fill in (alpha: the worst price of a market order; CONTRACT §5).
enum class derive_mode { write, typed_data };

/// A write derived to its upstream form: what the client signs and the provider sends.
struct derived_write {
    /// The canonical request: typed-data's `params` (defaults filled in).
    signed_request request;
    /// The `eth_signTypedData_v4` JSON the client signs, and its EIP-712 digest.
    boost::json::value typed_data;
    sign::hash256 digest{};
    /// The provider's own upstream form (alpha: the L1 action; beta: the parameter string).
    std::shared_ptr<void const> upstream;
};

/**
 * A provider's hooks into the one signed-write pipeline (trading/signed_write.hpp), which owns
 * CONTRACT §2's order of checks: body, order type, fields, then these hooks, each before any
 * upstream order request.
 */
class signed_trading {
public:
    virtual ~signed_trading() = default;

    /// Whether the provider takes `type` on `v` (else 400 UNSUPPORTED_ORDER_TYPE).
    virtual bool supports(vertical v, order_type type) const = 0;

    /**
     * The market (404 MARKET_NOT_FOUND), its rules (400 VALIDATION_ERROR for tick, lot and
     * minimum; MAX_LEVERAGE_EXCEEDED) and the deterministic derivation (CONTRACT §6.1, §6.2),
     * with defaults filled in for `derive_mode::typed_data`.
     */
    virtual async_result<derived_write> derive(call_context const& ctx, vertical v,
                                               signed_request request, derive_mode mode) = 0;

    /// Whether `signer` (recovered from the signature) may act for `wallet`: the wallet itself
    /// or an agent the upstream reports for it (alpha), the body's `signer` (beta).
    virtual async_result<bool> authorized(call_context const& ctx, derived_write const& w,
                                          address const& wallet, address const& signer) = 0;

    /// A hint for the SIGNATURE_ERROR message: what to check on this network.
    virtual std::string signature_hint(bool testnet) const = 0;

    /// The nonce window (CONTRACT §2: alpha 2 days back to 1 day ahead; beta 10 s).
    virtual nonce_window window() const = 0;

    /**
     * Sends the verified write once, never retried, and maps the answer (CONTRACT §5, §2:
     * ORDER_REJECTED, ORDER_NOT_FOUND...). A write that never left answers PROVIDER_UNAVAILABLE;
     * a timeout or a connection broken after sending answers UPSTREAM_TIMEOUT or UPSTREAM_ERROR
     * with `details.outcomeUnknown` (the pipeline words the message).
     */
    virtual async_result<write_result> send(call_context const& ctx, derived_write const& w,
                                            std::string const& signature) = 0;
};

// ---------------------------------------------------------------------------------------------
// Credentialed prediction trading (gamma: the client signs the upstream's own Order, the gateway
// verifies it and sends it with the body's upstream API credentials)

/**
 * The upstream API credentials of one request (CONTRACT §4-6: `apiKey`, `apiSecret`,
 * `passphrase`): held only for the upstream call they sign, move-only, wiped when dropped or
 * moved from, never logged, stored, cached or echoed. gamma's type: it is the only provider
 * whose trading takes credentials.
 */
using api_credentials = sign::gamma::credentials;

/// A prediction order derived to its upstream form (CONTRACT §6.3): what the client signs and
/// the provider sends.
struct derived_prediction_order {
    /// The canonical body: typed-data's `params` (salt picked when missing), no credentials.
    gamma_order_request request;
    /// The `eth_signTypedData_v4` JSON the client signs (typed-data only: null for a write),
    /// and its EIP-712 digest.
    boost::json::value typed_data;
    sign::hash256 digest{};
    /// Whom the signature must recover to (`wallet`), and what to check when it does not.
    address signer;
    std::string signature_hint;
    /// The provider's own upstream form (gamma: the Order and its exchange).
    std::shared_ptr<void const> upstream;
};

/**
 * A provider's prediction trading (spec 4.6; CONTRACT §4-6.3), behind the generic pipeline
 * (trading/credentialed_write.hpp), which owns CONTRACT §2's order of checks: body, fields,
 * then `derive` (market, its rules), the signature, then one upstream call. Every method that
 * takes `api_credentials` uses them for its upstream calls only and drops them when it returns.
 */
class predictions_trading {
public:
    virtual ~predictions_trading() = default;

    /**
     * The token (404 MARKET_NOT_FOUND), its rules (400 VALIDATION_ERROR: price off the tick
     * grid or outside it, size below the minimum or too precise, never rounded) and the
     * upstream order the body stands for, with a fresh salt when `mode` is typed-data and the
     * body has none.
     */
    virtual async_result<derived_prediction_order>
    derive(call_context const& ctx, gamma_order_request request, derive_mode mode) = 0;

    /**
     * Sends the verified order once, never retried (CONTRACT §5: open, filled,
     * partially_filled). @par Errors INVALID_CREDENTIALS, ORDER_REJECTED with the upstream's
     * reason; PROVIDER_UNAVAILABLE when nothing was sent; UPSTREAM_TIMEOUT or UPSTREAM_ERROR
     * with `details.outcomeUnknown` when the outcome is unknown (the pipeline words it).
     */
    virtual async_result<place_result> place(call_context const& ctx,
                                             derived_prediction_order const& order,
                                             api_credentials credentials) = 0;

    /// Cancels one order, once. @par Errors ORDER_NOT_FOUND, INVALID_CREDENTIALS, as `place`.
    virtual async_result<cancel_result> cancel(call_context const& ctx,
                                               gamma_cancel_request const& request,
                                               api_credentials credentials) = 0;

    /// The credential's open orders (CONTRACT §4, `symbol` the token id), newest first.
    /// @par Errors INVALID_CREDENTIALS, upstream errors.
    virtual async_result<std::vector<open_order>>
    open_orders(call_context const& ctx, address const& wallet, api_credentials credentials) = 0;

    /// The credential's fills (CONTRACT §4), newest first, `limit` of them.
    /// @par Errors INVALID_CREDENTIALS, upstream errors.
    virtual async_result<std::vector<fill>> fills(call_context const& ctx, address const& wallet,
                                                  fills_params const& p,
                                                  api_credentials credentials) = 0;
};

// ---------------------------------------------------------------------------------------------
// Live streams (WebSocket /ws/v1/perps, CONTRACT §8; the generic side is streams/)

/// One event of an upstream subscription, in the REST types (protocol.hpp names the payload
/// of each channel).
using stream_payload = std::variant<price_map, std::vector<trade>, orderbook, std::vector<candle>,
                                    std::vector<open_order>, std::vector<fill>>;

struct stream_update {
    enum class kind { data, status };
    kind what = kind::data;
    stream_payload data;                                            ///< kind::data
    stream::stream_status status = stream::stream_status::restored; ///< kind::status
    std::string message; ///< kind::status: one sentence for the client
};

/// Where an upstream subscription delivers. Called from the provider's own threads, never
/// concurrently for one subscription, never after the subscription's handle is gone.
using stream_sink = std::function<void(stream_update)>;

/**
 * A provider's live streams: one upstream subscription per call of `open`, which the hub
 * (streams/hub.hpp) shares between every client asking for the same thing. The provider owns
 * its upstream connections, their limits, reconnects, resubscription, staleness and resync
 * (books stay right across a reconnect: a fresh full book follows `restored`).
 */
class perps_streams {
public:
    virtual ~perps_streams() = default;

    /**
     * Whether the provider can serve `s` (the fields are already valid): 404 MARKET_NOT_FOUND
     * for an unknown symbol, 403 SIGNER_NOT_APPROVED (beta's account streams), 400
     * VALIDATION_ERROR for what the upstream cannot stream (e.g. too many distinct users).
     */
    virtual async_result<bool> check(call_context const& ctx, stream::subscription const& s) = 0;

    /**
     * Starts the upstream subscription for `s`; it lasts until the returned handle is
     * destroyed (the last client left), which must not block. Updates go to `sink`: `orderbook`
     * and `orders` whole on each change, `prices` whole, others as new items. `account` is the
     * account of the client that opened it: the REST seeds of a user channel (`orders`,
     * `fills`) count against its upstream share (CONTRACT 3); market data seeds are the
     * gateway's own.
     */
    virtual std::shared_ptr<void> open(stream::subscription const& s, stream_sink sink,
                                       std::optional<std::int64_t> account) = 0;
};

// ---------------------------------------------------------------------------------------------
// The provider object and the registry

/// A provider's catalog row (spec 2.1, 2.2): independent of where its upstream lives.
struct provider_info {
    std::string id;
    std::string name;
    std::string description;
    std::vector<vertical> verticals;
    bool testnet = false;
    auth_model auth = auth_model::eip712;
    std::vector<order_type> order_types;
    unsigned rate_requests = 0; ///< upstream budget the gateway keeps to (CONTRACT §3)
    unsigned rate_window_seconds = 0;
    std::string docs_url;
};

/// What one provider offers on one network; null where a capability does not exist.
struct network_capabilities {
    std::shared_ptr<perps_reads> perps;
    std::shared_ptr<spot_reads> spot;
    std::shared_ptr<rwas_reads> rwas;
    std::shared_ptr<signed_trading> trading;
    std::shared_ptr<predictions_reads> predictions = nullptr;
    std::shared_ptr<predictions_trading> prediction_orders = nullptr;
    std::shared_ptr<perps_streams> streams = nullptr;
};

/// One provider module (providers/<alias>/): catalog row, health probe, and its capabilities per
/// network.
struct provider_module {
    provider_info info;
    upstream_endpoints endpoints; ///< as configured (provider detail)
    probe_target probe;           ///< its mainnet health probe
    network_capabilities live;
    network_capabilities testnet; ///< empty when `info.testnet` is false
    /// Background work (market refresh loops): started with the server, stopped before it.
    std::function<void()> start;
    std::function<void()> stop;
    /// Provider-specific additions to its detail (spec 2.2), e.g. beta's `readSigner`.
    std::function<void(provider_detail&)> describe;

    network_capabilities const& on(bool testnet_network) const {
        return testnet_network ? testnet : live;
    }
};

/// 404 NOT_FOUND: the provider has the vertical but not this endpoint (yet).
api_error endpoint_not_available(std::string_view alias);

/// What a provider factory gets from the composition root.
struct provider_deps {
    boost::asio::any_io_executor executor;
    net::http_client& http;
    util::clock const& clock;
    server_config const& config;
};

/**
 * (alias, vertical, testnet) -> capability, or 404 PROVIDER_NOT_FOUND with the contract's
 * message. The only place that decides which providers exist.
 */
class registry {
public:
    void add(std::shared_ptr<provider_module> p);

    /// Every provider, in registration (listing) order.
    std::vector<std::shared_ptr<provider_module>> const& all() const noexcept { return providers_; }
    /// The provider with this alias, or nullptr.
    provider_module const* find(std::string_view alias) const;
    /// PROVIDER_NOT_FOUND for an unknown alias, naming the known ones.
    api_error unknown(std::string_view alias) const;

    result<perps_reads*> perps(std::string_view alias, bool testnet) const;
    result<spot_reads*> spot(std::string_view alias, bool testnet) const;
    result<rwas_reads*> rwas(std::string_view alias, bool testnet) const;
    result<predictions_reads*> predictions(std::string_view alias, bool testnet) const;
    result<signed_trading*> trading(std::string_view alias, vertical v, bool testnet) const;
    result<predictions_trading*> prediction_orders(std::string_view alias, bool testnet) const;
    result<perps_streams*> streams(std::string_view alias, bool testnet) const;

private:
    /// The capabilities of (alias, vertical, testnet), or the 404.
    result<network_capabilities const*> resolve(std::string_view alias, vertical v,
                                                bool testnet) const;
    std::vector<std::shared_ptr<provider_module>> providers_;
};

/// The detail (spec 2.2) of a provider, its endpoints and its `describe` additions.
provider_detail detail_of(provider_module const& p);

} // namespace gateway::server
