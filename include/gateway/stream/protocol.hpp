#pragma once
/**
 * @file protocol.hpp
 * The gateway's WebSocket protocol (`/ws/v1/perps`, CONTRACT §8), shared by the reference
 * server and the SDK's stream client: one definition of every frame, both directions.
 *
 * Client frames: `{"id":<any>,"op":"subscribe"|"unsubscribe","channel":C,"provider":P,...}`
 * with the channel's fields (`symbol`; `depth` for `orderbook`, default 20; `interval` for
 * `candles`; `address` for `orders` and `fills`), and `{"id":<any>,"op":"ping"}`.
 *
 * Server frames:
 * - `{"id":..,"type":"subscribed"|"unsubscribed","subscription":{...}}`
 * - data: `{"type":C,"provider":P,"symbol":S,"data":<REST shape>}` (`address` instead of
 *   `symbol` for `orders`/`fills`; no `symbol` for `prices`). `orderbook` frames also carry
 *   `depth` and `seq`, `candles` frames `interval`. Payloads:
 *   - `prices`: the price map of `GET /v1/perps/{p}/prices`, whole, at each change;
 *   - `trades`: an array of new trades (`GET .../trades` items);
 *   - `orderbook`: the whole book of `GET .../orderbook?depth=` as it is now (a snapshot, never
 *     a delta), at most every 100 ms; `seq` counts the book's frames by one, so a gap means
 *     frames were lost;
 *   - `candles`: an array holding the candle that changed (`GET .../candles` items);
 *   - `orders`: the address's open orders after a change, whole (`GET .../orders`): an order
 *     that leaves the list was filled or canceled;
 *   - `fills`: an array of the address's new fills (`GET .../fills` items).
 * - `{"type":"status","subscription":{...},"status":"stale"|"reconnecting"|"restored",
 *   "message":"..."}`: the upstream behind a subscription went quiet, is being reconnected, or
 *   is live again (after which an `orderbook` subscription gets a fresh full book).
 * - `{"id":..,"type":"error","error":{"code":..,"message":..}}` (CONTRACT §2 codes);
 *   `{"id":..,"type":"pong"}`.
 */
#include <gateway/config.hpp>
#include <gateway/error.hpp>
#include <gateway/result.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::stream {

enum class channel { prices, trades, orderbook, candles, orders, fills };

GATEWAY_DECL std::string_view to_string(channel c) noexcept;
GATEWAY_DECL std::optional<channel> parse_channel(std::string_view text) noexcept;

/// What a subscription asks for; the fields a channel does not use stay empty.
struct subscription {
    stream::channel channel = stream::channel::prices;
    std::string provider;
    std::string symbol;   ///< trades, orderbook, candles
    unsigned depth = 0;   ///< orderbook: 1..100, default 20
    std::string interval; ///< candles: 1m, 5m, 15m, 30m, 1h, 4h, 1d, 1w
    std::string address;  ///< orders, fills: lower case

    static constexpr unsigned default_depth = 20;
    static constexpr unsigned max_depth = 100;

    /// A canonical text naming the subscription (the hub's key, without the network).
    std::string key() const;
    friend bool operator==(subscription const&, subscription const&) = default;
};

/// The JSON of a subscription: `{"channel","provider",...}` with its channel's fields only.
GATEWAY_DECL boost::json::object to_json(subscription const& s);

/// A client frame.
struct client_frame {
    enum class op_kind { subscribe, unsubscribe, ping };
    op_kind op = op_kind::ping;
    boost::json::value id; ///< echoed as sent (null when absent)
    subscription sub;      ///< subscribe, unsubscribe
};

/**
 * Reads a client frame: INVALID_JSON (not JSON or not an object), VALIDATION_ERROR naming the
 * field (missing or unknown `op`, `channel`; missing `provider`, `symbol`, `address`; a bad
 * `depth`, `interval` or address; an unknown field). The provider and the symbol are checked
 * against the registry later (PROVIDER_NOT_FOUND, MARKET_NOT_FOUND). `id` is read even when
 * the rest fails, so the error frame can echo it.
 */
GATEWAY_DECL result<client_frame> parse_client_frame(std::string_view text,
                                                     boost::json::value* id_out = nullptr);

/// The client frame for `op` on `s` (the SDK's side).
GATEWAY_DECL std::string subscribe_frame(client_frame::op_kind op, subscription const& s,
                                         boost::json::value const& id);

// Server frames -------------------------------------------------------------------------------

GATEWAY_DECL std::string ack_frame(boost::json::value const& id, bool subscribed,
                                   subscription const& s);
GATEWAY_DECL std::string error_frame(boost::json::value const& id, api_error const& e);
GATEWAY_DECL std::string pong_frame(boost::json::value const& id);

enum class stream_status { stale, reconnecting, restored };
GATEWAY_DECL std::string_view to_string(stream_status s) noexcept;

GATEWAY_DECL std::string status_frame(subscription const& s, stream_status status,
                                      std::string_view message);
/// A data frame; `seq` is written for orderbook frames.
GATEWAY_DECL std::string data_frame(subscription const& s, boost::json::value const& data,
                                    std::uint64_t seq = 0);

/// A server frame as the SDK reads it.
struct server_frame {
    enum class kind { subscribed, unsubscribed, data, status, error, pong };
    kind what = kind::data;
    boost::json::value id;
    subscription sub;                               ///< subscribed, unsubscribed, data, status
    boost::json::value data;                        ///< data
    std::uint64_t seq = 0;                          ///< orderbook data
    stream_status status = stream_status::restored; ///< status
    std::string message;                            ///< status
    api_error error;                                ///< error
};

/// Reads a server frame. @par Errors INVALID_JSON / UPSTREAM_ERROR-free VALIDATION_ERROR when
/// the frame is not one of the shapes above.
GATEWAY_DECL result<server_frame> parse_server_frame(std::string_view text);

} // namespace gateway::stream

#include <gateway/stream/impl/protocol.hpp>
