#pragma once
/**
 * @file requests.hpp
 * Pure builders of gamma's (Polymarket's) requests, `upstreams/gamma.md` §2-5: the one place that
 * spells the catalog's and the CLOB's paths, parameters and trading bodies, used by the gateway,
 * mock-gamma and anyone testing against it. No I/O, no crypto (signing.hpp signs).
 *
 * gamma has two upstreams on two hosts: the Gamma catalog (events and markets, no auth) and the
 * CLOB (order books and prices). Paths here are relative to each one's base address (mock-gamma
 * serves the catalog at `/` and the CLOB under `/clob` of one port).
 */
#include <gateway/config.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/util/percent.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::wire::gamma {

// ---- Catalog (gamma.md §2) -----------------------------------------------------------------

/// `GET /events`: a bare array of events, each with its markets.
inline constexpr std::string_view events_path = "/events";
/// `GET /markets`: a bare array of markets, each with an `events` back-reference.
inline constexpr std::string_view markets_path = "/markets";
/// The largest page the catalog is reported to serve (gamma.md §2.1, [OBS]).
inline constexpr std::size_t max_catalog_page = 500;

/// `GET /events/{id}`: one event. Ids are numeric text (gamma.md §2.1).
GATEWAY_DECL std::string event_path(std::string_view id) {
    return std::string(events_path) + "/" + util::percent_encode(id);
}

/// `GET /markets/{id}`: one market.
GATEWAY_DECL std::string market_path(std::string_view id) {
    return std::string(markets_path) + "/" + util::percent_encode(id);
}

/**
 * The query of one catalog page (`/events` or `/markets`): `closed` always sent explicitly,
 * because the upstream's default differs between endpoints and over time (gamma.md §2.1), then
 * `limit` and `offset`.
 */
GATEWAY_DECL query_params catalog_page(bool closed, std::size_t limit, std::size_t offset) {
    return {{"closed", closed ? "true" : "false"},
            {"limit", std::to_string(limit)},
            {"offset", std::to_string(offset)}};
}

/// Whether `id` can name a catalog event or market: non-empty decimal digits (gamma.md §2.1).
GATEWAY_DECL constexpr bool is_catalog_id(std::string_view id) noexcept {
    return !id.empty() && id.size() <= 20 &&
           std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// ---- CLOB public market data (gamma.md §3) -------------------------------------------------

/// `GET /` answers `"OK"` (the gateway's health probe).
inline constexpr std::string_view ok_path = "/";
/// `GET /time`: unix seconds.
inline constexpr std::string_view time_path = "/time";
/// `GET /book?token_id=T`: one token's book (bids ascending, asks descending).
inline constexpr std::string_view book_path = "/book";
/// `POST /books` `[{"token_id":T},...]`: several books.
inline constexpr std::string_view books_path = "/books";
/// `GET /midpoint?token_id=T` -> `{"mid":"0.425"}`.
inline constexpr std::string_view midpoint_path = "/midpoint";
/// `POST /midpoints` `[{"token_id":T},...]` -> `{"T":"0.425",...}`.
inline constexpr std::string_view midpoints_path = "/midpoints";
/// `GET /price?token_id=T&side=BUY|SELL`; `POST /prices`.
inline constexpr std::string_view price_path = "/price";
inline constexpr std::string_view prices_path = "/prices";
/// `GET /tick-size?token_id=T`, `GET /neg-risk?token_id=T`.
inline constexpr std::string_view tick_size_path = "/tick-size";
inline constexpr std::string_view neg_risk_path = "/neg-risk";

/// The most tokens one batch request (`/books`, and taken to hold for `/midpoints` and
/// `/prices`, UNCONFIRMED) may carry (gamma.md §3.3).
inline constexpr std::size_t max_batch = 500;

/// Whether `token` can be an outcome token id: decimal digits (a uint256, at most 78 of them).
GATEWAY_DECL constexpr bool is_token_id(std::string_view token) noexcept {
    return !token.empty() && token.size() <= 78 &&
           std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// The query naming one token: `token_id=T`.
GATEWAY_DECL query_params token_query(std::string_view token) {
    return {{"token_id", std::string(token)}};
}

/// The body of a batch read (`/books`, `/midpoints`): `[{"token_id":"T1"},{"token_id":"T2"}]`,
/// compact, in the given order.
GATEWAY_DECL std::string token_batch(std::vector<std::string> const& tokens) {
    boost::json::array a;
    a.reserve(tokens.size());
    for (auto const& t : tokens) {
        boost::json::object o;
        o["token_id"] = t;
        a.push_back(std::move(o));
    }
    return boost::json::serialize(a);
}

/// `path` with its query (`?token_id=...`; nothing when empty).
GATEWAY_DECL std::string target(std::string_view path, query_params const& query) {
    return std::string(path) + util::encode_query(query);
}

// ---- CLOB credentials and trading (gamma.md §4-5) ------------------------------------------
// L2 requests carry the HMAC headers of sign::gamma::l2_headers over the method, the path
// below (never a base path such as mock-gamma's `/clob`, never the query) and the exact body.

/// L1 `POST /auth/api-key`: creates the wallet's API credentials (ClobAuth headers).
inline constexpr std::string_view create_api_key_path = "/auth/api-key";
/// L1 `GET /auth/derive-api-key`: the credentials of the wallet and `POLY_NONCE` again.
inline constexpr std::string_view derive_api_key_path = "/auth/derive-api-key";
/// L1 request headers (gamma.md §4.1); the L2 ones come from `sign::gamma::l2_headers`.
inline constexpr std::string_view l1_address_header = "POLY_ADDRESS";
inline constexpr std::string_view l1_signature_header = "POLY_SIGNATURE";
inline constexpr std::string_view l1_timestamp_header = "POLY_TIMESTAMP";
inline constexpr std::string_view l1_nonce_header = "POLY_NONCE";

/// L2 `GET /auth/ban-status/closed-only` `{"closed_only":bool}`: the cheapest L2 call, which
/// the gateway uses to learn whether credentials are valid for a wallet before an order.
inline constexpr std::string_view ban_status_path = "/auth/ban-status/closed-only";
/// L2 `POST /order` places one order; `DELETE /order` `{"orderID"}` cancels one.
inline constexpr std::string_view order_path = "/order";
/// L2 `GET /data/orders`: the credential's open orders, cursor-paged.
inline constexpr std::string_view data_orders_path = "/data/orders";
/// L2 `GET /data/trades`: the credential's trades (`maker_address`, `after`, `before` in unix
/// seconds), cursor-paged.
inline constexpr std::string_view data_trades_path = "/data/trades";
/// The first page's cursor and the cursor the last page answers (gamma.md §3.8).
inline constexpr std::string_view first_cursor = "MA==";
inline constexpr std::string_view end_cursor = "LTE=";

/// The `orderType` of `POST /order` (gamma.md §5.3): `GTC`, `FOK`, `GTD` (`FAK` exists
/// upstream; the gateway does not offer it).
GATEWAY_DECL constexpr std::string_view order_type_name(prediction_time_in_force t) noexcept {
    switch (t) {
    case prediction_time_in_force::fok:
        return "FOK";
    case prediction_time_in_force::gtd:
        return "GTD";
    case prediction_time_in_force::gtc:
        break;
    }
    return "GTC";
}

/**
 * The body of `POST /order` (gamma.md §5.3), compact, in the official clients' key order:
 * `{"order":<order>,"owner":<api key>,"orderType":"GTC"}`. `order` is
 * `sign::gamma::order_wire`'s object (signature included). The body carries the API key
 * (`owner`): drop it after the call.
 */
GATEWAY_DECL std::string order_body(boost::json::object order, std::string_view owner,
                                    prediction_time_in_force type) {
    boost::json::object o;
    o["order"] = std::move(order);
    o["owner"] = owner;
    o["orderType"] = order_type_name(type);
    return boost::json::serialize(o);
}

/// The body of `DELETE /order`: `{"orderID":"0x..."}` (the TS and Python clients' key).
GATEWAY_DECL std::string cancel_body(std::string_view order_id) {
    boost::json::object o;
    o["orderID"] = order_id;
    return boost::json::serialize(o);
}

/// The query of a `/data/orders` page: `next_cursor` (the first page: `first_cursor`).
GATEWAY_DECL query_params orders_page(std::string_view cursor) {
    return {{"next_cursor", std::string(cursor)}};
}

/**
 * The query of a `/data/trades` page: the trades of `maker_address` (lower case), `after` and
 * `before` (unix seconds, each when set), then `next_cursor`.
 */
GATEWAY_DECL query_params trades_page(std::string_view maker_address,
                                      std::optional<std::int64_t> after_s,
                                      std::optional<std::int64_t> before_s,
                                      std::string_view cursor) {
    query_params q{{"maker_address", std::string(maker_address)}};
    if (after_s)
        q.emplace_back("after", std::to_string(*after_s));
    if (before_s)
        q.emplace_back("before", std::to_string(*before_s));
    q.emplace_back("next_cursor", std::string(cursor));
    return q;
}

} // namespace gateway::wire::gamma
