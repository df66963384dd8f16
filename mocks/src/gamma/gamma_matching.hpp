#pragma once
/**
 * @file gamma_matching.hpp
 * mock-gamma's matching engine (Polymarket CLOB, upstreams/gamma.md §5): one price-time
 * priority book per outcome token, in which users' orders and the seeded house liquidity rest
 * together, the order checks that depend on the book or the account, fills with the CTF
 * Exchange's fee formula, and the ledger (gamma_ledger.hpp) they move.
 *
 * Model (documented in mocks/README.md, "mock-gamma trading"):
 * - House liquidity: every token with a book carries a "house" maker with infinite funds (no
 *   ledger account; address `house_address`, API key all zeros) quoting the levels of
 *   `market_state::book(i, house_depth)`. When the market state's version changed and either
 *   the mark moved or a user took house liquidity since the last quote, the house orders are
 *   replaced by the new ladder; a new house level that crosses resting user orders fills them
 *   at the user's price (the user is the maker). A token's book is brought up to date (`sync`)
 *   whenever a request reads or trades it; the books holding user orders are all brought up to
 *   date before an account read. YES and NO books are independent (the upstream's
 *   mint/merge matching across the two tokens is not emulated).
 * - Checks of `place`, first failure answers (HTTP 400 `{"error":...}`, gamma.md §5.4; texts
 *   in `errors`): token with a book; amounts' precision (shares 2 decimals, USDC the tick's
 *   amount decimals); the price `USDC / shares` exactly on the tick grid within
 *   [tick, 1 - tick]; size >= the market's minimum (5 shares, every order type); GTD
 *   expiration >= now + 60 s; not a duplicate (an order id ever accepted); post-only only on
 *   GTC/GTD; balance (BUY: makerAmount of USDC available; SELL: makerAmount of the token);
 *   post-only that would cross; FOK that cannot fill entirely; FAK that finds nothing.
 * - Matching: a BUY takes asks at or below its price, a SELL bids at or above, best price
 *   first, then oldest first; every fill is at the resting (maker) order's price. GTC and GTD
 *   rest what is left; FOK fills entirely or is refused; FAK fills what it can, the rest dies.
 *   A GTD order leaves the book when its expiration passes (status CANCELED).
 * - Fees (the CTF Exchange's formula, per order at its own `feeRateBps` and its own limit
 *   price p): a BUY pays `bps/10^4 x min(p, 1-p) / p x shares` in the shares it receives, a
 *   SELL `bps/10^4 x min(p, 1-p) x shares` in the USDC it receives (floored to micro units).
 *   The house pays none.
 *
 * @par Thread safety
 * Every public member takes one internal mutex; the market state has its own.
 */
#include "gamma_ledger.hpp"

#include "../common/market_state.hpp"

#include <gateway/providers/gamma/errors.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace gateway::mocks::gamma {

/// Levels per side the house quotes (what `/book` showed before users traded).
inline constexpr std::size_t house_depth = 15;
/// The house maker's address and API key in trades (`maker_orders`).
inline constexpr std::string_view house_address = "0x0000000000000000000000000000000000000b0b";
inline constexpr std::string_view house_owner = "00000000-0000-0000-0000-000000000000";
/// The least time a GTD order must have left when placed (gamma.md §5.3).
inline constexpr std::int64_t gtd_margin_s = 60;
/// The CTF Exchange's largest fee rate; a higher `feeRateBps` is an invalid payload.
inline constexpr std::uint64_t max_fee_rate_bps = 1000;

/// The upstream's order-processing texts, shared with the gateway (gamma.md §5.4, §6).
/// `{id}`-carrying ones are built by the functions below.
namespace errors = wire::gamma::order_errors;

/// `order {id} is invalid. Price ({price}) breaks minimum tick size rule: {tick}`
std::string tick_error(std::string_view id, std::string_view price, std::string_view tick);
/// `order {id} is invalid. Size ({size}) lower than the minimum: {min}`
std::string min_size_error(std::string_view id, std::string_view size, std::string_view min);
/// `order {id} is invalid. Duplicated.`
std::string duplicated_error(std::string_view id);
/// `invalid amounts, the buy orders maker amount supports a max accuracy of {n} decimals, taker
/// amount a max of 2 decimals` (sell: maker 2, taker n).
std::string amounts_error(bool is_buy, unsigned usdc_decimals);

/// `micros` as a canonical decimal ("1.08", "5", "0").
std::string micros_text(micros v);

/// What the engine needs to know of a token.
struct token_info {
    std::string token_id;
    std::string condition_id;
    std::string outcome;            ///< "Yes", "No", a team...
    unsigned px_scale = 2;          ///< tick = 10^-px_scale (1..4)
    micros min_size = 5 * one_unit; ///< shares
    bool neg_risk = false;
    /// Its market-state index; nullopt when the CLOB has no book for it (closed market).
    std::optional<std::size_t> state;
};

/// Looks a token up; nullopt when unknown.
using token_lookup = std::function<std::optional<token_info>(std::string_view token_id)>;

/// A signed order whose signature, signer and owner were checked (gamma_orders).
struct new_order {
    std::string id; ///< the order hash, `0x` + 64 lowercase hex
    std::string owner;
    std::string maker; ///< lowercase
    std::string token_id;
    bool is_buy = true;
    micros maker_amount = 0;
    micros taker_amount = 0;
    std::uint64_t expiration = 0;
    std::uint64_t fee_rate_bps = 0;
    order_kind kind = order_kind::gtc;
    bool post_only = false;
};

/// A placed order: its state after matching and the trades it made.
struct placed {
    order_record order;
    std::vector<trade_record> trades;
    micros making = 0; ///< what it gave: USDC (BUY) or shares (SELL)
    micros taking = 0; ///< what it got before fees: shares (BUY) or USDC (SELL)
    /// gamma.md §5.4 `status`: "matched" when anything filled, else "live".
    std::string_view status() const noexcept { return order.matched > 0 ? "matched" : "live"; }
};

/// One aggregated price level.
struct level {
    micros price = 0; ///< ppm
    micros size = 0;  ///< shares
};

struct book_view {
    token_info token;
    std::vector<level> bids;  ///< best (highest) first
    std::vector<level> asks;  ///< best (lowest) first
    std::int64_t time_ms = 0; ///< last change
};

/// gamma.md §5.5's `{canceled, not_canceled}`.
struct cancel_result {
    std::vector<std::string> canceled;
    std::vector<std::pair<std::string, std::string>> not_canceled; ///< id, reason
};

/// Filters of `/data/orders` and `/data/trades` (empty = any).
struct order_filter {
    std::string id;
    std::string market; ///< condition id
    std::string asset_id;
};

class engine {
public:
    /// Unix milliseconds.
    using clock_fn = std::function<std::int64_t()>;

    /// @param seed derives trade ids and transaction hashes
    /// @param clock defaults to the wall clock
    engine(market_state& markets, token_lookup tokens, std::uint64_t seed, clock_fn clock = {});

    engine(engine const&) = delete;
    engine& operator=(engine const&) = delete;

    /// Checks, matches and rests (or refuses) a new order.
    std::variant<placed, refusal> place(new_order const& o);

    /// Cancels the open orders `ids` of `address`.
    cancel_result cancel(std::string const& address, std::vector<std::string> const& ids);
    /// Cancels every open order of `address`.
    cancel_result cancel_all(std::string const& address);
    /// Cancels the open orders of `address` in a market and/or of a token (empty: any).
    cancel_result cancel_market(std::string const& address, std::string const& market,
                                std::string const& asset_id);

    /// The token's book (brought up to date first); nullopt when it has none.
    std::optional<book_view> book(std::string_view token_id);

    /// Open orders of `address` that pass `f`, oldest first.
    std::vector<order_record> open_orders(std::string const& address, order_filter const& f);
    /// An open or past order of `address`.
    std::optional<order_record> order(std::string const& address, std::string const& id);
    /// Trades of `address` that pass `f` (`id` the trade id), oldest first.
    std::vector<trade_view> trades(std::string const& address, order_filter const& f);

    /// `POST /__mock/accounts`: credits `asset` (`USDC` or a token id) of `address`.
    void credit(std::string const& address, std::string const& asset, micros amount);
    /// The balances of `address` (books brought up to date first).
    std::vector<std::pair<std::string, holding>> holdings(std::string const& address);
    bool known(std::string const& address) const;

    /// The token of an open or past order (for a market's condition id in answers).
    std::optional<token_info> token(std::string_view token_id) const { return tokens_(token_id); }

private:
    struct book_order {
        std::string id; ///< empty: the house
        micros remaining = 0;
        std::uint64_t expiration = 0; ///< unix seconds; 0: none
    };
    using level_queue = std::deque<book_order>;
    struct order_book {
        token_info token;
        std::map<micros, level_queue, std::greater<>> bids;
        std::map<micros, level_queue, std::less<>> asks;
        std::optional<std::uint64_t> version; ///< of the market state when last quoted
        std::int64_t mark = 0;
        bool house_taken = false;
        std::int64_t changed_ms = 0;
        std::size_t user_orders = 0; ///< user orders resting in it
    };
    /// A taker walking a book: a user order, or a house level during a re-quote.
    struct taker {
        order_record* order = nullptr; ///< null: the house
        bool is_buy = true;
        micros limit = 0;
        micros remaining = 0;
        micros filled = 0;
        micros notional = 0; ///< USDC exchanged
        std::vector<trade_record> trades;
    };

    order_book* book_of(std::string_view token_id, std::int64_t now);
    void sync_locked(order_book& b, std::int64_t now);
    void requote(order_book& b, std::int64_t now);
    void expire(order_book& b, std::int64_t now);
    void sync_user_books(std::int64_t now);

    micros crossable(order_book const& b, bool is_buy, micros limit) const;
    void match(order_book& b, taker& t, std::int64_t now);
    void fill(order_book& b, taker& t, book_order& maker, micros px, micros q, std::int64_t now);
    void rest(order_book& b, order_record const& r, std::int64_t now);
    void erase_resting(order_book& b, order_record const& r);
    /// Releases what an open order still locks, takes it off its book and closes it.
    void take_off(order_record const& r, std::string const& status, std::int64_t now);
    std::string next_uuid();
    std::string next_hash();

    market_state& markets_;
    token_lookup tokens_;
    clock_fn clock_;
    std::uint64_t seed_;
    std::uint64_t counter_ = 0;

    mutable std::mutex m_;
    ledger ledger_;
    std::unordered_map<std::string, order_book> books_; ///< by token id, made on first use
};

} // namespace gateway::mocks::gamma
