#pragma once
/**
 * @file gamma_view.hpp
 * The catalog joined with the live market state: every outcome token's market and, for open
 * markets with an order book, its index in `market_state`; and the JSON shapes of the upstream
 * (gamma.md §2.3, §2.5 Gamma objects; §3.9 CLOB market objects) with the live prices in them.
 *
 * @par Thread safety
 * Immutable after construction apart from the market state, which is itself thread-safe.
 */
#include "gamma_catalog.hpp"

#include "../common/market_state.hpp"

#include <boost/json/object.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gateway::mocks::gamma {

/// One outcome token of the catalog.
struct token_ref {
    std::size_t market; ///< index into catalog::markets
    unsigned outcome;   ///< 0 or 1 (index into outcomes / clobTokenIds)
    /// Its market_state index; nullopt when the CLOB has no book for it (closed market, or one
    /// without an order book).
    std::optional<std::size_t> state;
};

/// What a Gamma market object carries besides its own fields.
struct market_render {
    bool event_ref = false; ///< `events: [<event without markets>]` (list and by-id answers)
    bool tags = false;      ///< `tags` (the `include_tag=true` query)
};

/// The market_state specs of the catalog: YES and NO of every open market with a book, the NO
/// token the complement of the YES token.
std::vector<market_spec> market_specs(catalog const& c);

class catalog_view {
public:
    catalog_view(catalog const& c, market_state& markets);

    catalog const& data() const noexcept { return c_; }
    market_state& state() const noexcept { return markets_; }

    /// The token with this id, if the catalog has it.
    std::optional<token_ref> token(std::string_view id) const;

    /// Gamma `Market` (gamma.md §2.5).
    boost::json::object market_json(std::size_t m, market_render how) const;
    /// Gamma `Event` (gamma.md §2.3); `markets` full market objects, `tags` the tag list.
    boost::json::object event_json(std::size_t e, bool markets, bool tags) const;
    /// CLOB market (gamma.md §3.9).
    boost::json::object clob_market_json(std::size_t m) const;

    /// The index of the market with this id / condition id.
    std::optional<std::size_t> market_by_id(std::string_view id) const;
    std::optional<std::size_t> market_by_condition(std::string_view condition_id) const;
    std::optional<std::size_t> event_by_id(std::string_view id) const;
    std::optional<std::size_t> event_by_slug(std::string_view slug) const;
    std::optional<std::size_t> market_by_slug(std::string_view slug) const;

    /// The live YES and NO prices of a market as outcomePrices shows them.
    std::vector<std::string> outcome_prices(std::size_t m) const;

private:
    catalog const& c_;
    market_state& markets_;
    std::unordered_map<std::string, token_ref> tokens_;
    std::unordered_map<std::string, std::size_t> market_ids_, conditions_, event_ids_, event_slugs_,
        market_slugs_;
    std::vector<std::optional<std::size_t>> yes_state_; ///< per market
};

/// A JSON array of strings inside a string, Python style: `["Yes", "No"]` (gamma.md §2.1).
std::string json_in_string(std::vector<std::string> const& items);

} // namespace gateway::mocks::gamma
