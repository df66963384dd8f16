// Provider gamma's reads (spec 2.13, 2.14, 4.6; CONTRACT §4) behind the seam's predictions_reads:
// catalog events and markets, filtered and paged over the catalog's own pages, their outcome
// tokens priced from the CLOB in one batch per answer, and a token's order book. The pure halves
// are wire::gamma (to upstream) and gamma_map (from upstream).
#include "providers/gamma/gamma_network.hpp"

#include <gateway/providers/gamma/requests.hpp>
#include <gateway/util/ascii.hpp>

#include <algorithm>
#include <iterator>
#include <utility>

namespace gateway::server::gamma {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace w = wire::gamma;
using reads_json_ptr = network::json_ptr;
using reads_flight_ptr = std::shared_ptr<network::flight>;

/// Waits for a read and hands back its JSON (or its error); `keep` holds it alive.
asio::awaitable<result<json::value const*>> await_body(reads_flight_ptr const& f,
                                                       reads_json_ptr& keep) {
    keep = co_await f->wait();
    if (!*keep)
        co_return keep->error();
    co_return &**keep;
}

api_error event_not_found(std::string const& id) {
    return make_error(errc::event_not_found, "Unknown event '" + id + "' on gamma.");
}

api_error market_not_found(std::string const& id) {
    return make_error(errc::market_not_found, "Unknown market '" + id + "' on gamma.");
}

/// Which `closed=` listings of the catalog can hold items of `status`, in the order walked: the
/// derived status needs `closed` false to be active and true to be resolved; a closed item
/// may come from either (an ended market not yet closed upstream).
std::vector<bool> sequences_for(std::optional<market_status> status) {
    if (!status)
        return {false, true};
    switch (*status) {
    case market_status::active:
        return {false};
    case market_status::resolved:
        return {true};
    case market_status::closed:
        return {true, false};
    }
    return {false, true};
}

std::string status_key(std::optional<market_status> status) {
    return status ? std::string(to_string(*status)) : std::string("any");
}

/// A listing walked over the catalog's pages (gamma_network.hpp).
struct walk_spec {
    std::string path;            ///< `/events` or `/markets`
    std::vector<bool> sequences; ///< `closed=` values, in order
    std::string key;             ///< names the filter for checkpoints
    std::int64_t offset = 0;
    std::int64_t limit = 0;
    std::int64_t now_ms = 0;
    std::optional<std::int64_t> account; ///< whose share the catalog reads spend
};

/**
 * How many catalog items to ask for next: the items still to count (`wanted` matches) at the
 * share of items that matched so far in this walk (all, before any was seen), at least 1 and at
 * most `page`. An unfiltered listing thus asks exactly what it returns; a sparse filter soon
 * asks whole pages.
 */
std::size_t next_page_size(std::int64_t wanted, std::int64_t seen, std::int64_t hits,
                           std::size_t page) {
    if (wanted <= 0)
        return 1;
    if (seen > 0 && hits == 0)
        return page;
    auto const need = seen == 0 ? wanted : (wanted * seen + hits - 1) / hits;
    return static_cast<std::size_t>(
        std::clamp<std::int64_t>(need, 1, static_cast<std::int64_t>(page)));
}

/**
 * The `limit` items after `offset` matches of `spec`'s listing: `parse` reads an item, `keep`
 * says whether it matches the filter. Resumes from the furthest checkpoint at or before
 * `offset`, asks pages sized by `next_page_size`, counts every page whole and remembers where
 * the next one starts.
 * @par Errors VALIDATION_ERROR (`offset`) past `max_pages` pages; the catalog's errors.
 */
template <class Item>
asio::awaitable<result<std::vector<Item>>> walk_catalog(std::shared_ptr<network> n, walk_spec spec,
                                                        result<Item> (*parse)(json::value const&,
                                                                              std::int64_t),
                                                        std::function<bool(Item const&)> keep) {
    auto const page = n->options().catalog_page;
    auto pos = n->resume(spec.key, spec.offset);
    std::vector<Item> out;
    std::size_t pages = 0;
    std::int64_t seen = 0;
    std::int64_t const walk_start = pos.matched;
    while (pos.sequence < spec.sequences.size() &&
           static_cast<std::int64_t>(out.size()) < spec.limit) {
        if (pages++ == n->options().max_pages) {
            api_error e = make_error(
                errc::validation_error,
                "'offset' " + std::to_string(spec.offset) + " lies beyond the " +
                    std::to_string(n->options().max_pages * page) +
                    " gamma catalog items one request reads for this filter; page forward from "
                    "a smaller offset (the gateway resumes where the previous page ended) or "
                    "narrow the filter.");
            e.details["field"] = "offset";
            co_return e;
        }
        auto const ask = next_page_size(spec.offset + spec.limit - pos.matched, seen,
                                        pos.matched - walk_start, page);
        auto f = n->start_catalog_get(
            spec.path, w::catalog_page(spec.sequences[pos.sequence], ask, pos.offset),
            spec.account);
        reads_json_ptr hold;
        auto body = co_await await_body(f, hold);
        if (!body)
            co_return body.error();
        auto items = page_items(**body, "gamma catalog " + spec.path);
        if (!items)
            co_return items.error();
        seen += static_cast<std::int64_t>((*items)->size());
        for (auto const& v : **items) {
            auto item = parse(v, spec.now_ms);
            if (!item)
                co_return item.error();
            if (!keep(*item))
                continue;
            if (pos.matched >= spec.offset && static_cast<std::int64_t>(out.size()) < spec.limit)
                out.push_back(std::move(*item));
            ++pos.matched;
        }
        // The whole page is counted: the next one starts after `pos.matched` matches.
        if ((*items)->size() < ask) {
            ++pos.sequence;
            pos.offset = 0;
        } else {
            pos.offset += (*items)->size();
        }
        n->remember(spec.key, pos);
    }
    co_return out;
}

/// Appends a pointer to each of `markets` to `out` (the markets to price).
void add_pointers(std::vector<catalog_market>& markets, std::vector<catalog_market*>& out) {
    std::transform(markets.begin(), markets.end(), std::back_inserter(out),
                   [](catalog_market& m) { return &m; });
}

/// An event page item, parsed (the signature walk_catalog takes).
result<catalog_event> parse_event_item(json::value const& v, std::int64_t now_ms) {
    return parse_event(v, now_ms);
}

/// A market page item, parsed; its event is its `events` back-reference.
result<catalog_market> parse_market_item(json::value const& v, std::int64_t now_ms) {
    return parse_market(v, "", now_ms);
}

class predictions final : public predictions_reads {
public:
    explicit predictions(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<std::vector<prediction_event>> events(call_context const& ctx,
                                                       events_params const& p) override {
        walk_spec spec;
        spec.path = std::string(w::events_path);
        spec.sequences = sequences_for(p.status);
        spec.key = "events " + status_key(p.status) + " " + util::to_lower(p.category.value_or(""));
        spec.offset = p.offset.value_or(0);
        spec.limit = p.limit.value_or(events_params::default_limit);
        spec.now_ms = ctx.now_ms;
        spec.account = ctx.account;
        std::function<bool(catalog_event const&)> keep = [status = p.status,
                                                          category = p.category](auto const& e) {
            return (!status || e.status == *status) &&
                   (!category || util::iequals(e.category, *category));
        };
        auto found = co_await walk_catalog<catalog_event>(n_, std::move(spec), &parse_event_item,
                                                          std::move(keep));
        if (!found)
            co_return found.error();
        std::vector<catalog_market*> to_price;
        for (auto& e : *found)
            add_pointers(e.markets, to_price);
        if (auto priced = co_await price(to_price, ctx.account); !priced)
            co_return priced.error();
        std::vector<prediction_event> out(found->size());
        std::transform(found->begin(), found->end(), out.begin(),
                       [](catalog_event const& e) { return to_event(e); });
        co_return out;
    }

    async_result<prediction_event_detail> event(call_context const& ctx,
                                                std::string const& event_id) override {
        auto e = co_await load_event(ctx, event_id);
        if (!e)
            co_return e.error();
        std::vector<catalog_market*> to_price;
        add_pointers(e->markets, to_price);
        if (auto priced = co_await price(to_price, ctx.account); !priced)
            co_return priced.error();
        co_return to_event_detail(*e);
    }

    async_result<std::vector<prediction_market>> markets(call_context const& ctx,
                                                         markets_params const& p) override {
        auto const offset = p.offset.value_or(0);
        auto const limit = p.limit.value_or(markets_params::default_limit);
        std::vector<catalog_market> found;
        if (p.event_id) {
            // The catalog has no event filter on /markets (gamma.md §2.5): the event's own.
            auto e = co_await load_event(ctx, *p.event_id);
            if (!e)
                co_return e.error();
            std::int64_t matched = 0;
            for (auto& m : e->markets) {
                if (p.status && m.market.status != *p.status)
                    continue;
                if (matched++ >= offset && static_cast<std::int64_t>(found.size()) < limit)
                    found.push_back(std::move(m));
            }
        } else {
            walk_spec spec;
            spec.path = std::string(w::markets_path);
            spec.sequences = sequences_for(p.status);
            spec.key = "markets " + status_key(p.status);
            spec.offset = offset;
            spec.limit = limit;
            spec.now_ms = ctx.now_ms;
            spec.account = ctx.account;
            std::function<bool(catalog_market const&)> keep = [status = p.status](auto const& m) {
                return !status || m.market.status == *status;
            };
            auto walked = co_await walk_catalog<catalog_market>(
                n_, std::move(spec), &parse_market_item, std::move(keep));
            if (!walked)
                co_return walked.error();
            found = std::move(*walked);
        }
        std::vector<catalog_market*> to_price;
        add_pointers(found, to_price);
        if (auto priced = co_await price(to_price, ctx.account); !priced)
            co_return priced.error();
        std::vector<prediction_market> out(found.size());
        std::transform(found.begin(), found.end(), out.begin(),
                       [](catalog_market& m) { return std::move(m.market); });
        co_return out;
    }

    async_result<prediction_market> market(call_context const& ctx,
                                           std::string const& market_id) override {
        if (!w::is_catalog_id(market_id))
            co_return market_not_found(market_id);
        auto f = n_->start_catalog_get(w::market_path(market_id), {}, ctx.account);
        reads_json_ptr hold;
        auto body = co_await await_body(f, hold);
        if (!body)
            co_return upstream_missing(body.error()) ? market_not_found(market_id) : body.error();
        auto m = parse_market(**body, "", ctx.now_ms);
        if (!m)
            co_return m.error();
        std::vector<catalog_market*> one{&*m};
        if (auto priced = co_await price(one, ctx.account); !priced)
            co_return priced.error();
        co_return std::move(m->market);
    }

    async_result<orderbook> book(call_context const& ctx, std::string const& token_id,
                                 orderbook_params const& p) override {
        if (!w::is_token_id(token_id))
            co_return no_book(token_id);
        auto f =
            n_->start_clob_get(std::string(w::book_path), w::token_query(token_id), ctx.account);
        reads_json_ptr hold;
        auto body = co_await await_body(f, hold);
        if (!body)
            co_return upstream_missing(body.error()) ? no_book(token_id) : body.error();
        co_return to_orderbook(
            **body, token_id,
            static_cast<std::size_t>(p.depth.value_or(orderbook_params::default_depth)));
    }

private:
    static api_error no_book(std::string const& token) {
        return make_error(errc::market_not_found,
                          "No order book for token '" + token +
                              "' on gamma (an unknown token, or its market is closed).");
    }

    /// `GET /events/{id}`. @par Errors EVENT_NOT_FOUND, the catalog's errors.
    asio::awaitable<result<catalog_event>> load_event(call_context const& ctx,
                                                      std::string const& event_id) {
        if (!w::is_catalog_id(event_id))
            co_return event_not_found(event_id);
        auto f = n_->start_catalog_get(w::event_path(event_id), {}, ctx.account);
        reads_json_ptr hold;
        auto body = co_await await_body(f, hold);
        if (!body)
            co_return upstream_missing(body.error()) ? event_not_found(event_id) : body.error();
        co_return parse_event(**body, ctx.now_ms);
    }

    /// Prices the tokens of `markets` from the CLOB's midpoints (one batch for all of them).
    asio::awaitable<result<void>> price(std::vector<catalog_market*> const& markets,
                                        std::optional<std::int64_t> account) {
        std::vector<catalog_market const*> view(markets.begin(), markets.end());
        auto tokens = book_tokens(view);
        if (tokens.empty())
            co_return result<void>{};
        auto mids = co_await n_->prices(std::move(tokens), account);
        if (!mids)
            co_return mids.error();
        for (auto* m : markets)
            apply_midpoints(*m, *mids);
        co_return result<void>{};
    }

    std::shared_ptr<network> n_;
};

} // namespace

std::shared_ptr<predictions_reads> make_predictions_reads(std::shared_ptr<network> n) {
    return std::make_shared<predictions>(std::move(n));
}

} // namespace gateway::server::gamma
