#pragma once
/**
 * @file gamma_catalog.hpp
 * The seeded Gamma catalog: a handful of events (active, closed, resolved), each with 1-3
 * binary markets. Ids, condition ids and token ids are fixed (they do not depend on the
 * mock's seed, which only drives prices), so tests may discover them once and keep them.
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
    std::string outcomes[2];
    std::string condition_id; ///< 0x + 64 hex
    std::string question_id;  ///< 0x + 64 hex
    std::string token_ids[2]; ///< 77-digit decimal strings, index-aligned with outcomes
    bool closed = false;
    bool resolved = false;   ///< closed and umaResolutionStatus "resolved"
    unsigned px_scale = 2;   ///< 2 = tick 0.01, 3 = tick 0.001
    std::int64_t yes_px = 0; ///< initial YES price (active) or final one (closed), px_scale units
    std::string final_prices[2]; ///< closed markets: outcomePrices as shown
    std::string last_trade;      ///< closed markets: lastTradePrice
    std::string volume;          ///< decimal text
    std::string liquidity;
    std::string volume_24hr;
    std::string start_date, end_date, end_date_iso;
    std::optional<std::string> closed_time; ///< Gamma's "2024-11-07 15:30:40+00" style
    std::size_t event = 0;                  ///< index into catalog::events
};

struct event_def {
    std::string id;
    std::string slug;
    std::string title;
    std::string description;
    std::string start_date, creation_date, end_date;
    std::optional<std::string> category; ///< absent on most recent events (gamma.md §2.1)
    bool closed = false;
    bool neg_risk = false;
    std::string neg_risk_market_id;                            ///< empty = null
    std::string volume, liquidity, open_interest, volume_24hr; ///< decimal text (JSON numbers)
    std::optional<std::string> closed_time;
    std::vector<tag> tags;
    std::vector<std::size_t> markets; ///< indices into catalog::markets
};

struct catalog {
    std::vector<event_def> events;
    std::vector<market_def> markets;
};

/// Builds the catalog (deterministic; the same on every call).
catalog build_catalog();

} // namespace gateway::mocks::gamma
