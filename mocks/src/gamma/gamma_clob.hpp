#pragma once
/**
 * @file gamma_clob.hpp
 * The CLOB's public market data (gamma.md §3, errors §6), served under `/clob`:
 *
 * | path | answer |
 * |---|---|
 * | `GET /` | `"OK"` |
 * | `GET /time` | bare integer, unix seconds |
 * | `GET /book?token_id=` | book: bids ascending, asks descending (best last), SHA-1 `hash` |
 * | `POST /books` `[{"token_id"}]` | array of books |
 * | `GET /price?token_id=&side=BUY\|SELL` | `{"price"}`: BUY the best bid, SELL the best ask |
 * | `GET /prices?token_ids=&sides=`, `POST /prices` `[{"token_id","side"}]` |
 * `{"<token>":{"BUY":"..."}}` | | `GET /midpoint?token_id=` | `{"mid"}` | | `POST /midpoints`
 * `[{"token_id"}]` | `{"<token>":"<mid>"}` | | `GET /spread?token_id=`, `POST /spreads` |
 * `{"spread"}`, `{"<token>":"<spread>"}` | | `GET /last-trade-price?token_id=`, `POST
 * /last-trades-prices` | `{"price","side"}`, `[{"token_id","price","side"}]` | | `GET
 * /tick-size?token_id=` | `{"minimum_tick_size":0.01}` (a number) | | `GET /neg-risk?token_id=` |
 * `{"neg_risk":true}` | | `GET /fee-rate?token_id=` | `{"base_fee":0}` | | `GET
 * /markets?next_cursor=`, `GET /markets/{condition_id}` | §3.8 pages of §3.9 markets |
 *
 * Errors are `{"error":"<message>"}`: 400 `Invalid token id` (missing or not decimal digits),
 * 404 `No orderbook exists for the requested token id` (unknown token, or no book: closed or
 * AMM-era market), 404 `market not found` (tick-size, neg-risk, fee-rate and markets of an
 * unknown token or condition), 400 `Invalid side`, 400 `Invalid payload` and `Payload exceeds
 * the limit` (batch bodies: a JSON array of at most 500 objects), 400 `invalid next_cursor`,
 * 405 `method not allowed`. A batch leaves out tokens without a book.
 */
#include "gamma_matching.hpp"
#include "gamma_view.hpp"

#include <gateway/net/http_server.hpp>
#include <gateway/util/percent.hpp>

#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gateway::mocks::gamma {

/// Most items in one batch body (gamma.md §3.3).
inline constexpr std::size_t max_batch = 500;
/// Markets per `GET /markets` page (UNCONFIRMED upstream; gamma.md §3.8 names no size).
inline constexpr std::size_t clob_markets_page = 500;

/// The CLOB's cursors (gamma.md §3.8): base64 of the decimal offset; "MA==" is the first page,
/// "LTE=" (base64 "-1") means no further page.
inline constexpr std::string_view first_cursor = "MA==";
inline constexpr std::string_view end_cursor = "LTE=";
/// The cursor of `offset`.
std::string encode_cursor(std::size_t offset);
/// The offset of a cursor (`end_cursor`: `end`); nullopt for one that is not a cursor.
std::optional<std::size_t> decode_cursor(std::string_view cursor, std::size_t end);

/// `{"error":"<message>"}` with `status`, the CLOB's and the mock's one error shape.
net::response clob_error(boost::beast::http::status status, std::string_view message,
                         unsigned version);

class clob_api {
public:
    /// @param books the matching engine whose books (house and users' orders) the reads show
    clob_api(catalog_view const& view, engine& books)
        : view_(view)
        , engine_(books) {}

    /// Answers `method` on `path` (the CLOB path, without `/clob`); nullopt for a path the
    /// CLOB does not serve.
    std::optional<net::response> handle(boost::beast::http::verb method, std::string_view path,
                                        query_params const& q, std::string const& body,
                                        unsigned version);

private:
    catalog_view const& view_;
    engine& engine_;
};

} // namespace gateway::mocks::gamma
