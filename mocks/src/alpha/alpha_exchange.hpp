#pragma once
/**
 * @file alpha_exchange.hpp
 * Mock alpha's `POST /exchange` (Hyperliquid, upstreams/alpha.md §4-5, §8-10): envelope
 * parsing, signature recovery (L1 phantom agent and user-signed approveAgent), per-signer
 * nonces, and a price-time-priority matching engine per market that drives the `ledger`.
 *
 * Model (documented in mocks/README.md, "Trading"):
 * - Every market has a real book. Its seed liquidity is a "house" maker with infinite funds
 *   (not a ledger account) whose orders are the levels of `market_state::book(i, house_depth)`.
 *   When the market state's book version changed (walk step, `/__mock/mark`, `/__mock/tick`)
 *   and either the mark moved or a user took house liquidity since the last quote, the house
 *   orders are replaced by the new ladder on the next `sync()` (so a pinned, untouched market
 *   keeps a stable book); a new house level that crosses resting user orders fills them at
 *   the user's price (the user is the maker).
 * - `sync()` (run at the start of every /exchange and /info request, so the request after a
 *   `/__mock/mark` sees it) re-quotes changed markets and fires trigger orders whose
 *   condition holds at the current mark.
 * - User orders are checked (asset, tick/lot, min notional, reduce-only, margin or spot
 *   balance), matched against the opposite side (taker 0.045% / maker 0.015% perps, 0.07% /
 *   0.04% spot), and Gtc/Alo remainders rest in the same book. Every fill goes through
 *   `ledger::apply_fill` for each user side, orders through `rest_order` / `set_order_size`
 *   / `remove_order` / `record_order`, and each user trade prints a public trade through
 *   `market_state::print_trade` (recentTrades, candles).
 * - Orders seeded through `/__mock/accounts` stay outside the book (they never match) but
 *   can be canceled.
 *
 * @par Thread safety
 * Every public member takes one internal mutex. While holding it the engine calls the ledger
 * and the market state (each with its own lock); neither ever calls back into the engine, so
 * the lock order is always engine -> ledger / market state.
 */
#include "alpha_ledger.hpp"

#include "../common/amount.hpp"
#include "../common/market_state.hpp"

#include <gateway/sign/secp256k1.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace gateway::mocks::alpha {

namespace detail {
struct parsed_order;
struct parsed_action;
} // namespace detail

/// Perps maker fee (0.015%); the taker fee is `perps_taker_fee_ppm` (alpha_accounts.hpp).
inline constexpr std::int64_t perps_maker_fee_ppm = 150;
/// Spot taker and maker fees (0.07% / 0.04%), paid in the received token.
inline constexpr std::int64_t spot_taker_fee_ppm = 700;
inline constexpr std::int64_t spot_maker_fee_ppm = 400;
/// Levels per side the house quotes.
inline constexpr std::size_t house_depth = 20;
/// Nonces kept per signer (alpha.md §5.7).
inline constexpr std::size_t nonces_kept = 100;
/// Nonce window: (now - 2 days, now + 1 day).
inline constexpr std::int64_t nonce_past_ms = 2 * 86'400'000;
inline constexpr std::int64_t nonce_future_ms = 86'400'000;

/// One tradable asset of signed actions (alpha.md §2 asset ids).
struct asset_info {
    std::uint32_t asset = 0; ///< perps: index; builder dex: 110000 + index; spot 10000 + pair
    std::size_t market = 0;  ///< index in the market state
    std::string coin;        ///< wire name ("BTC", "xyz:TSLA", "PURR/USDC", "@1")
    std::string dex;         ///< perps: "" or the builder dex
    unsigned sz_decimals = 0;
    bool spot = false;
    unsigned max_leverage = 1;
    bool only_isolated = false;
    std::string base;  ///< spot
    std::string quote; ///< spot
    unsigned base_wei_decimals = 8;
    unsigned quote_wei_decimals = 8;
};

/// One aggregated price level of the engine's book (l2Book).
struct engine_level {
    amount px;
    amount sz;
    unsigned n = 0; ///< orders resting at this price (a house level counts its `n`)
};

struct engine_book {
    std::vector<engine_level> bids; ///< best (highest) first
    std::vector<engine_level> asks; ///< best (lowest) first
};

/// What /exchange answers: a JSON body with HTTP 200, or a 422 deserialization error.
struct exchange_reply {
    std::optional<boost::json::value> json;
    std::string unprocessable; ///< the reason after "Failed to deserialize ...: " when no json
};

class exchange {
public:
    /// Unix milliseconds (nonce window, order and fill times).
    using clock_fn = std::function<std::int64_t()>;

    /**
     * @param testnet verify L1 actions with phantom-agent source "b" (else "a") and expect
     * `hyperliquidChain` "Testnet" (else "Mainnet") in approveAgent
     * @param clock defaults to the wall clock
     */
    exchange(ledger& l, market_state& markets, std::vector<asset_info> assets, bool testnet,
             clock_fn clock = {});

    exchange(exchange const&) = delete;
    exchange& operator=(exchange const&) = delete;

    /// A whole `POST /exchange` body: parse, verify the signature and nonce, run.
    exchange_reply handle(boost::json::object const& body);

    /// Runs an L1 action (order, cancel, cancelByCloid, updateLeverage) for `user` without
    /// signature or nonce (tests and tools). Parsing errors are 422 replies as in `handle`.
    exchange_reply act(std::string const& user, boost::json::object const& action);

    /// Re-quotes markets whose market-state version changed and fires due trigger orders.
    void sync();

    /// The aggregated book of a market-state index, `depth` levels per side at most.
    engine_book book(std::size_t market, std::size_t depth) const;

    /// The asset of an id, nullopt when unknown.
    std::optional<asset_info> asset(std::uint32_t id) const;

private:
    struct book_order {
        std::uint64_t oid = 0; ///< 0: the house
        std::string owner;     ///< empty: the house
        amount sz;             ///< remaining
        unsigned n = 1;        ///< orders it shows as in l2Book
    };
    using level = std::deque<book_order>;
    struct market_book {
        std::map<amount, level, std::greater<>> bids;
        std::map<amount, level, std::less<>> asks;
        std::optional<std::uint64_t> version; ///< market-state version last seen
        std::int64_t mark = 0;                ///< mark (px_scale units) last quoted at
        bool house_taken = false;             ///< a user took house liquidity since then
    };
    /// Where a resting user order is.
    struct resting_ref {
        std::size_t asset_index = 0;
        bool is_buy = true;
        amount px;
        std::string owner;
        std::optional<std::string> cloid;
        std::uint64_t builder_fee = 0; ///< tenths of a basis point (order_spec::builder_fee)
    };
    struct trigger_order {
        std::size_t asset_index = 0;
        std::string owner;
        bool is_buy = true;
        amount limit_px;
        bool is_market = true;
        amount trigger_px;
        bool above = false; ///< fires when mark >= trigger (else mark <= trigger)
        bool reduce_only = false;
        order_spec spec;
    };
    /// A taker walking the book: a user order, or a house level during a re-quote.
    struct taker {
        std::string owner; ///< empty: the house
        std::uint64_t oid = 0;
        bool is_buy = true;
        amount limit;
        amount remaining;
        std::optional<std::string> cloid;
        amount filled;
        amount notional;               ///< sum of px * sz filled
        std::uint64_t builder_fee = 0; ///< tenths of a basis point (order_spec::builder_fee)
    };
    exchange_reply run(std::string const& user, detail::parsed_action const& a, std::int64_t now);
    exchange_reply approve_agent(boost::json::object const& action, std::uint64_t nonce,
                                 sign::signature const& sig, std::int64_t now);
    exchange_reply approve_builder_fee(boost::json::object const& action, std::uint64_t nonce,
                                       sign::signature const& sig, std::int64_t now);
    /// The checks every user-signed action shares, in order: a signer recovers, it is a known
    /// account and no agent, `hyperliquidChain` names this network, the action's nonce is the
    /// request's. The user on success, else the answer. Call with `m_` held.
    std::variant<std::string, exchange_reply>
    user_signed_signer(boost::json::object const& signed_action, std::string const& chain,
                       std::uint64_t inner_nonce, std::uint64_t nonce,
                       sign::signature const& sig) const;
    boost::json::value place(std::string const& user, detail::parsed_order const& o,
                             std::uint64_t builder_fee, std::int64_t now);
    boost::json::value cancel(std::string const& user, std::uint32_t asset, std::uint64_t oid,
                              std::optional<std::string> const& cloid, std::int64_t now);

    /// Matches, then rests (Gtc/Alo) or records the outcome; for new and triggered orders.
    taker execute(std::string const& user, std::size_t asset_index, order_spec const& spec,
                  std::uint64_t oid, bool rest, std::int64_t now);
    void match(std::size_t asset_index, taker& t, std::int64_t now);
    void fill(std::size_t asset_index, taker& t, book_order& maker, amount px, amount q,
              std::int64_t now);
    void add_resting(std::size_t asset_index, std::string const& owner, std::uint64_t oid,
                     order_spec const& spec, amount remaining);
    void erase_resting(std::uint64_t oid);

    void sync_locked(std::int64_t now);
    void requote(std::size_t asset_index, std::int64_t now);
    void fire_triggers(std::size_t asset_index, std::int64_t now);

    /// Free collateral for a new perps order on `dex` (the main dex backs a builder dex).
    amount free_margin(std::string const& user, std::string const& dex) const;
    amount position_of(std::string const& user, std::string const& coin) const;
    std::optional<std::string> margin_error(std::string const& user, asset_info const& ai,
                                            bool is_buy, amount px, amount sz) const;
    std::optional<std::string> check_nonce(std::string const& signer, std::uint64_t nonce,
                                           std::int64_t now);
    std::optional<std::size_t> asset_index(std::uint32_t id) const;
    std::string bbo_text(std::size_t asset_index) const;

    ledger& ledger_;
    market_state& markets_;
    std::vector<asset_info> assets_;
    bool testnet_;
    clock_fn clock_;

    mutable std::mutex m_;
    std::vector<market_book> books_; ///< per asset index
    std::unordered_map<std::uint64_t, resting_ref> resting_;
    std::map<std::uint64_t, trigger_order> triggers_; ///< by oid (firing order)
    std::unordered_map<std::string, std::set<std::uint64_t>> nonces_;
};

} // namespace gateway::mocks::alpha
