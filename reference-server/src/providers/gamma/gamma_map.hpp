#pragma once
/**
 * @file gamma_map.hpp
 * The gamma provider's pure half (`from_upstream(body)`): what Polymarket's Gamma catalog and CLOB
 * answer (upstreams/gamma.md §2-3, §6) become in contract types (spec §2.13, §2.14; CONTRACT §1,
 * §2, §4). No I/O, no clock (the time a status depends on is an argument), no exceptions. The
 * other direction (paths, pages, batch bodies) is `gateway::wire::gamma`
 * (include/gateway/providers/gamma/requests.hpp), shared with mock-gamma.
 *
 * The catalog is lenient by nature (gamma.md §2.1: every field but `id` may be absent), so only
 * a body that is not the expected JSON kind, or an item without an `id`, is an UPSTREAM_ERROR;
 * every other gap takes the documented default.
 *
 * Decisions where the contract is silent (gamma.md §2.6-2.7 for the rules):
 * - JSON-in-a-string fields: `outcomes`, `outcomePrices` and `clobTokenIds` are strings holding
 *   a JSON array (`"[\"Yes\", \"No\"]"`), parsed a second time; a real array is read as well.
 *   The three are index-aligned: token i is `{clobTokenIds[i], outcomes[i], price}`; a market
 *   without token ids (no order book) has no tokens.
 * - Market status: `resolved` when `closed` and the upstream reports a resolution
 *   (`umaResolutionStatus` "resolved", or `outcomePrices` settled: one "1" and the rest "0", or
 *   a 50/50 void of "0.5"s); else `closed` when `closed`, `archived`, `active` false, or
 *   `acceptingOrders` false past `endDate`; else `active`.
 * - Event status: `resolved` when it has markets and every one is resolved; else `closed` when
 *   the event is `closed`, `archived` or not `active`, or every market is no longer active;
 *   else `active`.
 * - category: the event's `category` when it is a non-empty string, else its first tag's
 *   `label`, else "" (recent events carry no category, gamma.md §2.1).
 * - endDate: the upstream's `endDate` ("2026-12-09T12:00:00Z", "2025-06-09T08:02:22.334142Z",
 *   "2026-07-07 21:25:17+00", "2026-12-09") in the API's ISO 8601 UTC form,
 *   "2026-12-09T12:00:00.000Z" (util::iso8601_utc, as `checkedAt`); an event without one takes
 *   its latest market's; "" when no date is known.
 * - Numbers: event `volume` and `liquidity` (JSON numbers upstream) and market `volumeNum`
 *   (else the string `volume`) in plain notation, "0" when absent. A JSON number is read by its
 *   shortest round-trip text, so 179054.06 stays "179054.06".
 * - Token prices: the CLOB midpoint where the CLOB has a book (`apply_midpoints`), else the
 *   catalog's `outcomePrices[i]` ("0" when absent). The CLOB is asked only for tokens of markets
 *   it can hold a book for: not `closed`, order book enabled (`on_book`).
 * - Orderbook: `/book`'s bids sorted high to low and asks low to high whatever the upstream order
 *   (it sends bids ascending, asks descending), cut to `depth`; `timestamp` the book's (ms).
 * - Errors (read_error): a 401 (an L2 read's credentials refused) is 401 INVALID_CREDENTIALS;
 *   an upstream 404 or 400 is an UPSTREAM_ERROR carrying
 *   `details.upstreamStatus` (a read that looked one thing up turns it into EVENT_NOT_FOUND or
 *   MARKET_NOT_FOUND, see `upstream_missing`); 425 (matching engine restarting) and 503 are 503
 *   PROVIDER_UNAVAILABLE with `Retry-After`; anything else is 502 UPSTREAM_ERROR with the
 *   upstream's `error` text.
 */
#include "upstream/answer.hpp"

#include <gateway/result.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/predictions.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::server::gamma {

/// A catalog market as read: the contract market (tokens priced from the catalog) and whether
/// the CLOB can hold books for its tokens.
struct catalog_market {
    prediction_market market;
    bool on_book = false; ///< not closed, order book enabled, with token ids
};

/// A catalog event as read, its markets complete.
struct catalog_event {
    std::string event_id;
    std::string title;
    std::string category;
    market_status status = market_status::active;
    std::string end_date;
    decimal volume;
    decimal liquidity;
    std::vector<catalog_market> markets;
};

/// An upstream date and time as ms since the epoch (UTC unless an offset is given), or nullopt
/// when it is not one of the forms in the file comment.
std::optional<std::int64_t> parse_time(std::string_view text);

/// A JSON-in-a-string array (`"[\"Yes\", \"No\"]"`) or a JSON array, as texts (numbers by
/// their shortest text); nullopt for anything else.
std::optional<std::vector<std::string>> string_list(boost::json::value const& v);

/// The status of an upstream market at `now_ms` (file comment).
market_status market_status_of(boost::json::object const& market, std::int64_t now_ms);
/// The status of an upstream event whose markets read `markets` (file comment).
market_status event_status_of(boost::json::object const& event,
                              std::vector<catalog_market> const& markets);
/// The category of an upstream event (file comment).
std::string category_of(boost::json::object const& event);

/**
 * One upstream market (`/markets` item, `/markets/{id}`, or an event's `markets[]` item, then
 * `parent_event_id` names the event when the market has no `events` back-reference).
 * @par Errors UPSTREAM_ERROR (not an object, no `id`).
 */
result<catalog_market> parse_market(boost::json::value const& v, std::string_view parent_event_id,
                                    std::int64_t now_ms);
/// One upstream event (`/events` item or `/events/{id}`) with its markets.
/// @par Errors UPSTREAM_ERROR (not an object, no `id`, a market without `id`).
result<catalog_event> parse_event(boost::json::value const& v, std::int64_t now_ms);

/// The items of a catalog page (a bare array). @par Errors UPSTREAM_ERROR naming `what`.
result<boost::json::array const*> page_items(boost::json::value const& v, std::string_view what);

/// Outcome token -> midpoint, for the tokens the CLOB answered; absent: no book.
using midpoints = std::map<std::string, decimal, std::less<>>;
/// `POST /midpoints` (`{"T":"0.425"}`, values strings or numbers). @par Errors UPSTREAM_ERROR.
result<midpoints> parse_midpoints(boost::json::value const& v);

/// The token ids the CLOB is asked about for `markets` (those `on_book`), each once, in order.
std::vector<std::string> book_tokens(std::vector<catalog_market const*> const& markets);
/// Prices `m`'s tokens with the midpoints known for them (others keep the catalog's price).
void apply_midpoints(catalog_market& m, midpoints const& mids);

/// The listing's event (spec 2.13: markets without `eventId`, `status`, `volume`).
prediction_event to_event(catalog_event const& e);
/// The event with its full markets (spec 4.6).
prediction_event_detail to_event_detail(catalog_event const& e);

/// `/book` -> the token's orderbook, at most `depth` levels a side. @par Errors UPSTREAM_ERROR.
result<orderbook> to_orderbook(boost::json::value const& book, std::string const& token,
                               std::size_t depth);

/**
 * A read's non-2xx answer as a contract error (channel_options::read_error): see the file
 * comment. `name` is the channel's ("gamma catalog", "gamma CLOB").
 */
api_error read_error(std::string const& name, upstream_answer const& a);

/// Whether `e` is the upstream saying that what a read named does not exist (its 404, or the
/// CLOB's 400 `Invalid token id`).
bool upstream_missing(api_error const& e);

} // namespace gateway::server::gamma
