#pragma once
/**
 * @file gamma_query.hpp
 * The Gamma catalog's list queries (gamma.md §2.2, §2.5): filters, ordering and offset paging
 * of `GET /events` and `GET /markets`.
 *
 * - Paging: `limit` (integer >= 0, at most 500: a larger one is cut to 500, gamma.md §2.1;
 *   absent = 500), `offset` (integer >= 0).
 * - Ordering: `order` (comma list of fields) and `ascending` (default true); without `order`
 *   the list is by id, ascending. Ties keep id order; absent values sort last ascending and
 *   first descending (PostgreSQL's NULLS order).
 * - Array filters (`id`, `slug`, `clob_token_ids`, ...) take repeated keys and comma lists.
 * - Parameters the upstream does not know are ignored, as upstream; a malformed value of a
 *   known one is a 400 naming it.
 */
#include "gamma_catalog.hpp"

#include <gateway/types/decimal.hpp>
#include <gateway/util/percent.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gateway::mocks::gamma {

/// The largest page `/events` and `/markets` answer (gamma.md §2.1: 500 [OBS]).
inline constexpr std::size_t max_page = 500;

struct list_query {
    std::size_t limit = max_page;
    std::size_t offset = 0;
    std::vector<std::string> order;
    bool ascending = true;
    std::optional<bool> closed, active, archived, featured, cyom;
    std::vector<std::string> ids, slugs;
    std::optional<std::string> tag_id, tag_slug;
    std::vector<std::string> exclude_tag_ids;
    std::optional<decimal> volume_min, volume_max, liquidity_min, liquidity_max;
    std::optional<std::int64_t> start_min, start_max, end_min, end_max;
    // /markets only
    std::vector<std::string> token_ids, condition_ids, question_ids;
    std::optional<std::string> uma_status;
    bool include_tag = false;
    /// The first malformed parameter; empty when the query is fine.
    std::string bad;
};

/// Parses a `/events` (`markets` false) or `/markets` (`markets` true) query.
list_query parse_list_query(query_params const& q, bool markets);

/// The events a query selects, in order, one page of them (indices into catalog::events).
std::vector<std::size_t> select_events(catalog const& c, list_query const& q);

/// The markets a query selects, in order, one page of them (indices into catalog::markets).
std::vector<std::size_t> select_markets(catalog const& c, list_query const& q);

} // namespace gateway::mocks::gamma
