#pragma once
/**
 * @file gamma_catalog.hpp
 * The Gamma catalog of mock-gamma: 184 events (512 binary markets) across politics, sports,
 * crypto, economy, culture, weather/science and tech, in all three gateway statuses (active;
 * closed with a resolution proposed or disputed; resolved), as Polymarket shapes them: negRisk
 * events with several markets and ordinary single-market events, sports games with a moneyline
 * and a total, brand-new markets without volume keys, AMM-era markets without a CLOB book,
 * `category` present only on some events (the others carry tags only).
 *
 * Everything here is deterministic and independent of the mock's seed: ids, condition ids,
 * token ids, texts, dates, volumes and the initial prices. The seed only drives the walk of
 * the live prices (market_state).
 */
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gateway::mocks::gamma {

struct tag {
    std::string id;
    std::string label;
    std::string slug;
};

struct market_def {
    std::string id;
    std::string question;
    std::string slug;
    std::string description;
    std::string group_item_title; ///< negRisk children: the short outcome name; empty = absent
    std::string outcomes[2];
    std::string condition_id; ///< 0x + 64 hex
    std::string question_id;  ///< 0x + 64 hex
    std::string token_ids[2]; ///< 77-digit decimal strings, index-aligned with outcomes
    bool closed = false;
    bool resolved = false;  ///< closed and umaResolutionStatus "resolved"
    std::string uma_status; ///< closed markets: "proposed", "disputed" or "resolved"
    /// false: an AMM-era market (enableOrderBook false): no CLOB book, fixed outcome prices.
    bool order_book = true;
    unsigned px_scale = 2;   ///< 2 = tick 0.01, 3 = tick 0.001
    std::int64_t yes_px = 0; ///< initial YES price (active) or final one (closed), px_scale units
    std::string final_prices[2]; ///< closed and book-less markets: outcomePrices as shown
    std::string last_trade;      ///< closed and book-less markets: lastTradePrice
    /// Decimal text; absent on brand-new markets, which have no `volume`/`liquidity` keys.
    std::optional<std::string> volume;
    std::optional<std::string> liquidity;
    std::string volume_24hr;
    std::string start_date, end_date, end_date_iso, created_at;
    std::optional<std::string> closed_time; ///< Gamma's "2024-11-07 15:30:40+00" style
    std::string neg_risk_request_id;        ///< negRisk markets only
    std::size_t event = 0;                  ///< index into catalog::events
};

struct event_def {
    std::string id;
    std::string slug;
    std::string title;
    std::string description;
    std::string resolution_source;
    std::string start_date, creation_date, end_date;
    std::optional<std::string> category; ///< absent on most recent events (gamma.md §2.1)
    bool closed = false;
    bool archived = false;
    bool featured = false;
    bool neg_risk = false;
    std::string neg_risk_market_id;                            ///< empty = null
    std::string volume, liquidity, open_interest, volume_24hr; ///< decimal text (JSON numbers)
    std::optional<std::string> closed_time;
    std::optional<std::string> price_to_beat; ///< crypto up/down: eventMetadata.priceToBeat
    std::vector<tag> tags;
    std::vector<std::size_t> markets; ///< indices into catalog::markets
};

struct catalog {
    std::vector<event_def> events;
    std::vector<market_def> markets;
};

/// Builds the catalog (deterministic; the same on every call).
catalog build_catalog();

/// The catalog built once per process (thread-safe, immutable).
catalog const& shared_catalog();

/// The gateway status a market or event derives to (gamma.md §2.6), for tests and docs.
enum class phase { active, closed, resolved };
phase phase_of(market_def const& m) noexcept;
phase phase_of(catalog const& c, event_def const& e) noexcept;

// -------------------------------------------------------------------------------------------
// Building blocks shared by the hand-written events (gamma_catalog.cpp) and the generated ones
// (gamma_generate.cpp).

/// Catalog ids derive from this constant, not from the mock's seed.
inline constexpr std::uint64_t catalog_seed = 0x9a33a5eedULL;

/// Fills a market's condition, question and token ids from its numeric id.
void derive_ids(market_def& m);

/// Appends the generated events (about 180) to `c`.
void add_generated_events(catalog& c);

} // namespace gateway::mocks::gamma
