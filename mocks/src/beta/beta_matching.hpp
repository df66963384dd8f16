#pragma once
/**
 * @file beta_matching.hpp
 * mock-beta's matching engine (upstreams/beta.md §4.3, §5): a price-time priority book per
 * perp and per spot pair, house liquidity that follows the mark, trigger orders, reduce-only,
 * margin and spot balance checks. It drives the `ledger` the signed reads serve.
 *
 * Model (documented in mocks/README.md, "mock-beta trading"):
 * - Every market has a real book. Its seed liquidity is a "house" maker with infinite funds
 *   (no ledger account) quoting the levels of `market_state::book(i, house_depth)`. When the
 *   market state's version changed (walk step, `/__mock/mark`, `/__mock/tick`) and either the
 *   mark moved or a user took house liquidity since the last quote, the house orders are
 *   replaced by the new ladder on the next `sync()`; a new house level that crosses resting
 *   user orders fills them at the user's price (the user is the maker). Spot BTCUSDT and
 *   ETHUSDT quote the perp's ladder in a book of their own.
 * - `sync()` runs at the start of every mock-beta request (so the request after a
 *   `/__mock/mark` sees it): it re-quotes changed markets, then walks the trigger orders at
 *   the mark. Both working types trigger on the mark (the mock has no separate contract
 *   price). STOP / STOP_MARKET: BUY fires at mark >= stopPrice, SELL at mark <= stopPrice;
 *   TAKE_PROFIT(_MARKET) the other way round. TRAILING_STOP_MARKET: SELL activates once the
 *   mark reaches activatePrice (when none was given: at once, from the mark when placed) and then
 * fires when the mark is at or below the highest mark seen since activation times (1 -
 * priceRate/100); BUY mirrored (lowest mark, 1 + priceRate/100). The marks seen are those of the
 * syncs.
 * - A triggered STOP / TAKE_PROFIT becomes a LIMIT (its price, its timeInForce), the market
 *   kinds a MARKET; `origType` keeps the placed type and the order keeps its id.
 *   closePosition=true closes the whole position then. A reduce-only trigger that would not
 *   reduce (or a closePosition one with no position) expires, as does one the margin or the
 *   spot balance no longer covers.
 * - Time in force: GTC and HIDDEN rest what does not fill; IOC and MARKET expire the rest;
 *   FOK fills entirely or expires untouched; GTX (post only) expires untouched when it would
 *   take. Expiry is the order's status (EXPIRED), not an error.
 * - Futures: taker 0.035% / maker 0.01% of the notional in USDT (`taker_fee_ppm`,
 *   `maker_fee_ppm`). A new order that is not reduce-only needs
 *   `added size * price / leverage` of available balance (price: limit, else stop, else
 *   activation, else the mark; added size: what exceeds the opposite position), else -2019.
 *   Reduce-only: refused (-2022) when it would not reduce; it fills at most the position and
 *   expires when the position is gone.
 * - Spot: a BUY needs its quote (limit price, or the walk of the book for MARKET), a SELL its
 *   base, free (-2010); what rests, and a trigger order, locks it. Fees at the same rates in
 *   the asset received.
 * - Orders seeded through `/__mock/accounts` stay outside the book (they never match) but can
 *   be queried and canceled.
 *
 * @par Thread safety
 * Every public member takes one internal mutex. While holding it the engine calls the ledger
 * and the market state (each with its own lock); neither calls back into the engine.
 */
#include "beta_ledger.hpp"
#include "beta_markets.hpp"
#include "beta_public.hpp"
#include "beta_refusal.hpp"

#include "../common/amount.hpp"
#include "../common/market_state.hpp"

#include <gateway/providers/beta/errors.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace gateway::mocks::beta {

/// Levels per side the house quotes.
inline constexpr std::size_t house_depth = 20;

/// A placed order: as accepted (what an ACK answer shows) and after matching (RESULT).
struct placed_order {
    order_record accepted;
    order_record final;
};

/// One aggregated price level of an engine book.
struct engine_level {
    amount px;
    amount sz;
    unsigned n = 0; ///< orders at this price (a house level counts as one)
};

struct engine_book {
    std::vector<engine_level> bids; ///< best (highest) first
    std::vector<engine_level> asks; ///< best (lowest) first
};

class engine {
public:
    /// Unix milliseconds (order and fill times).
    using clock_fn = std::function<std::int64_t()>;

    /// @param clock defaults to the wall clock
    engine(ledger& l, market_state& markets, clock_fn clock = {});

    engine(engine const&) = delete;
    engine& operator=(engine const&) = delete;

    /// Re-quotes markets whose market-state version changed and fires due trigger orders.
    void sync();

    /**
     * Places an order whose parameters and filters were checked (beta_orders): reduce-only,
     * client id, trigger side, margin (futures) or balance (spot), then matching. `spec` of a
     * spot order uses the same fields (no reduce-only, close-position or trailing).
     */
    std::variant<placed_order, refusal> place(venue where, std::string const& user,
                                              order_spec spec);

    /// Cancels an open order of `symbol` by id or, when `order_id` is 0, by client id; -2011
    /// when there is none.
    std::variant<order_record, refusal> cancel(venue where, std::string const& user,
                                               std::string const& symbol, std::uint64_t order_id,
                                               std::string const& client_id);

    /// Cancels every open futures order of `symbol`; returns how many.
    std::size_t cancel_all(std::string const& user, std::string const& symbol);

    /// An open or past order of `symbol` by id or (id 0) client id.
    std::optional<order_record> find(venue where, std::string const& user,
                                     std::string const& symbol, std::uint64_t order_id,
                                     std::string const& client_id) const;

    /// `POST /fapi/v3/leverage`: 1..bracket 1's leverage (-4028); an open position must stay
    /// within the new leverage's maximum notional (-2027). Returns the max notional.
    std::variant<amount, refusal> set_leverage(std::string const& user, std::string const& symbol,
                                               unsigned leverage);

    /// The aggregated book, `depth` levels per side at most; empty for an unknown symbol.
    engine_book book(venue where, std::string const& symbol, std::size_t depth) const;

private:
    struct book_order {
        std::uint64_t oid = 0; ///< 0: the house
        std::string owner;     ///< empty: the house
        amount sz;             ///< remaining
        amount executed;
        amount cum_quote;
        bool reduce_only = false;
    };
    using level = std::deque<book_order>;
    struct market_book {
        venue where = venue::futures;
        std::string symbol;
        std::string base;
        std::size_t market = 0; ///< market-state index
        unsigned px_scale = 0;
        unsigned sz_scale = 0;
        std::map<amount, level, std::greater<>> bids;
        std::map<amount, level, std::less<>> asks;
        std::optional<std::uint64_t> version;
        std::int64_t mark = 0;
        bool house_taken = false;
    };
    struct resting_ref {
        std::size_t book = 0;
        bool is_buy = true;
        amount px;
        std::string owner;
    };
    struct trigger_order {
        std::size_t book = 0;
        std::string owner;
        order_spec spec;
        bool activated = false; ///< trailing: the activation price was reached
        amount extreme;         ///< trailing: best mark since activation
    };
    /// A taker walking the book: a user order, or a house level during a re-quote.
    struct taker {
        std::string owner; ///< empty: the house
        std::uint64_t oid = 0;
        bool is_buy = true;
        std::optional<amount> limit; ///< none: a market order
        amount remaining;
        amount filled;
        amount notional;
    };

    std::optional<std::size_t> book_index(venue where, std::string const& symbol) const;
    amount mark_of(market_book const& b) const;
    amount position_of(std::string const& user, std::string const& symbol) const;
    std::optional<refusal> check_margin(std::string const& user, market_book const& b,
                                        order_spec const& spec) const;
    /// Quote (BUY) or base (SELL) a spot order needs; nullopt when the book cannot fill it.
    std::optional<amount> spot_cost(market_book const& b, order_spec const& spec) const;
    std::string const& paid_asset(market_book const& b, bool is_buy) const;

    /// Matches a new or triggered order, then rests, records or expires it.
    order_record execute(std::string const& user, std::size_t k, order_record r, std::int64_t now);
    void match(std::size_t k, taker& t, std::int64_t now);
    /// Fills `q` of `maker` at `px` for `t` (ledger, public trade); updates both.
    void fill(std::size_t k, taker& t, book_order& maker, amount px, amount q, std::int64_t now);
    /// What of `t` can trade now: the liquidity its limit crosses.
    amount crossable(std::size_t k, taker const& t) const;
    void rest(std::size_t k, std::string const& owner, order_record const& r);
    void erase_resting(std::uint64_t oid);
    std::optional<order_record> remove(venue where, std::string const& user, std::uint64_t oid,
                                       std::string const& status, std::int64_t now);

    void sync_locked(std::int64_t now);
    void requote(std::size_t k, std::int64_t now);
    void fire_triggers(std::size_t k, std::int64_t now);
    bool due(trigger_order& t, amount mark) const;
    void fire(std::uint64_t oid, trigger_order t, std::int64_t now);

    ledger& ledger_;
    market_state& markets_;
    clock_fn clock_;

    mutable std::mutex m_;
    std::vector<market_book> books_;
    std::unordered_map<std::uint64_t, resting_ref> resting_;
    std::map<std::uint64_t, trigger_order> triggers_; ///< by order id (firing order)
};

} // namespace gateway::mocks::beta
