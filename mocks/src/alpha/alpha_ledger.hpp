#pragma once
/**
 * @file alpha_ledger.hpp
 * Per-address account state of mock alpha (Hyperliquid, upstreams/alpha.md §3.4-3.8, §3.13):
 * perps collateral per dex, spot token balances, perps positions, open orders, order history,
 * fills and agents, plus the margin arithmetic behind `clearinghouseState`.
 *
 * This is the seam the matching engine (alpha_exchange.hpp) drives: it decides *what* trades
 * (and checks margin), then calls `apply_fill`, `rest_order`, `set_order_size`, `remove_order`,
 * `record_order`, `set_leverage`, `add_agent`. The ledger never looks at the book and never
 * refuses a fill.
 *
 * Model (documented in mocks/README.md):
 * - Perps collateral is USDC held per perp dex ("" = main, "xyz" = builder dex). `credit` of
 *   "USDC" goes to the main dex. Opening an isolated position moves its margin
 *   (`notional / leverage`, rounded to 6 decimals) from the dex's collateral into the position.
 *   A builder dex that lacks collateral for a margin move, a fee or a loss first pulls the
 *   shortfall from the main dex (an implicit transfer).
 * - Realized PnL and fees settle in the dex's collateral, rounded to 6 decimals (USDC's perps
 *   precision); `closedPnl` excludes the fee. Reducing an isolated position releases margin
 *   in proportion to the size closed.
 * - The entry price of an increased position is the size-weighted average, rounded to 10
 *   decimals; reducing keeps it; a flip re-opens the rest at the fill price.
 * - Spot balances are separate tokens (spot USDC is not perps collateral, as on Hyperliquid
 *   without unified accounts). A spot buy adds the base and pays quote; a sell the reverse.
 *   `entryNtl` follows buys and is reduced in proportion on sells, whose `closedPnl` is
 *   proceeds minus the cost sold.
 *
 * All numbers are `amount`s (exact, 10 decimals). Addresses are lowercase `0x` + 40 hex.
 *
 * @par Thread safety
 * Every member is safe to call concurrently (one internal mutex, never held while calling
 * out: `perp_state` copies what it needs, then asks `mark_fn` for prices).
 */
#include "../common/amount.hpp"

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
#include <vector>

namespace gateway::mocks::alpha {

/// USDC's precision on perps: margin moves, fees and PnL are rounded to it.
inline constexpr unsigned usd_decimals = 6;

enum class margin_mode { cross, isolated };

struct leverage_setting {
    margin_mode mode = margin_mode::cross;
    unsigned value = 20;
};

/// A market the ledger books: a perp or a spot pair.
struct instrument {
    std::string coin; ///< wire name: "BTC", "xyz:TSLA", "PURR/USDC", "@1"
    std::string dex;  ///< perps: "" or the builder dex; spot: ""
    bool spot = false;
    std::string base;  ///< spot: base token ("PURR")
    std::string quote; ///< spot: quote token ("USDC")
    unsigned max_leverage = 1;
    bool only_isolated = false;
};

/// One fill to book for one address (one side of a trade).
struct fill_event {
    std::string coin;
    bool is_buy = true;
    amount px;
    amount sz; ///< > 0
    std::int64_t time_ms = 0;
    std::uint64_t oid = 0; ///< 0: the ledger allocates a fresh oid
    std::uint64_t tid = 0; ///< 0: the ledger allocates one
    std::string hash;      ///< empty: derived from the tid
    bool crossed = true;   ///< taker
    amount fee;            ///< in `fee_token`, `builder_fee` included; negative is a rebate
    std::string fee_token; ///< empty: "USDC" for perps; spot: base on buys, quote on sells
    amount builder_fee;    ///< the part of `fee` the order's builder charges (`builderFee`)
    std::optional<std::string> cloid;
    /// The position's setting when it opens (else the coin's current setting, else the
    /// default: cross, min(20, maxLeverage); isolated-only coins default to isolated).
    std::optional<leverage_setting> leverage;
};

/// A booked fill: the full `userFills` element.
struct fill_record {
    std::string coin;
    amount px;
    amount sz;
    bool is_buy = true;
    std::int64_t time = 0;
    amount start_position; ///< signed size (perps) or base balance (spot) before the fill
    std::string dir;       ///< "Open Long", "Close Short", "Long > Short", "Buy", ...
    amount closed_pnl;
    std::string hash;
    std::uint64_t oid = 0;
    bool crossed = true;
    amount fee;
    std::uint64_t tid = 0;
    std::optional<std::string> cloid;
    std::string fee_token;
    amount builder_fee; ///< zero: no `builderFee` key
};

/// What the engine asks to rest (or to trigger later).
struct order_spec {
    std::string coin;
    bool is_buy = true;
    amount limit_px;
    amount sz; ///< > 0
    std::int64_t timestamp = 0;
    std::optional<std::string> cloid; ///< "0x" + 32 hex
    bool reduce_only = false;
    std::string order_type = "Limit"; ///< "Limit", "Stop Market", "Stop Limit", "Take Profit ..."
    std::optional<std::string> tif = "Gtc"; ///< "Gtc", "Alo", "Ioc"; nullopt for triggers
    bool is_trigger = false;
    amount trigger_px;                     ///< zero when not a trigger
    std::string trigger_condition = "N/A"; ///< e.g. "Price below 55000"
    bool is_position_tpsl = false;
    /// What the order pays its builder on every fill, in tenths of a basis point of the
    /// notional (the action's `builder.f`; 0 without a builder).
    std::uint64_t builder_fee = 0;
};

/// A resting (or historical) order: the `frontendOpenOrders` element.
struct order_record {
    std::uint64_t oid = 0;
    order_spec spec;
    amount sz; ///< remaining
};

/// An order in the history: `orderStatus` / `historicalOrders`.
struct order_status_record {
    order_record order;
    std::string status; ///< "open", "filled", "canceled", ...
    std::int64_t status_timestamp = 0;
};

struct perp_position {
    std::string coin;
    amount szi; ///< signed
    amount entry_px;
    leverage_setting leverage;
    amount isolated_margin; ///< margin moved into an isolated position (zero for cross)
};

/// One position as `clearinghouseState` shows it at a mark.
struct position_view {
    std::string coin;
    amount szi;
    amount entry_px;
    amount mark_px;          ///< the mark used (the entry price when the coin has none)
    amount position_value;   ///< |szi| * mark
    amount unrealized_pnl;   ///< szi * (mark - entry)
    amount return_on_equity; ///< uPnL * leverage / (|szi| * entry)
    std::optional<amount> liquidation_px;
    amount margin_used; ///< cross: value / leverage; isolated: isolated margin + uPnL
    unsigned max_leverage = 1;
    leverage_setting leverage;
    std::optional<amount> raw_usd; ///< isolated only: isolated margin - szi * entry
};

struct margin_summary {
    amount account_value;
    amount total_ntl_pos;
    amount total_raw_usd;
    amount total_margin_used;
};

/// `clearinghouseState` of one dex.
struct perp_view {
    std::vector<position_view> positions; ///< instrument order
    margin_summary all;                   ///< marginSummary (cross + isolated)
    margin_summary cross;                 ///< crossMarginSummary
    amount cross_maintenance_margin_used;
    amount withdrawable; ///< max(0, cross account value - cross margin used)
};

struct spot_balance_view {
    std::string coin;
    std::size_t token = 0;
    amount hold; ///< locked by open spot orders
    amount total;
    amount entry_ntl;
};

struct agent_record {
    std::string address;
    std::string name; ///< empty for the unnamed agent (not listed by extraAgents)
    std::optional<std::int64_t> valid_until;
};

/// `userRole`: "missing", "user" or "agent" (with `master`).
struct role_view {
    std::string role;
    std::string master;
};

/// `userRateLimit`.
struct rate_view {
    amount cum_vlm;
    std::uint64_t requests_used = 0;
    std::uint64_t requests_cap = 0;
};

/// What changed in one address's orders or fills (the WebSocket feeds' source): an order's
/// new state (rested, resized, closed) or a booked fill.
struct ledger_event {
    std::string address;
    std::optional<order_status_record> order;
    std::optional<fill_record> fill;
};

class ledger {
public:
    /// Price of a coin now (the mark), nullopt when unknown.
    using mark_fn = std::function<std::optional<amount>(std::string const& coin)>;
    /// Told of every order change and fill, in the order they happen. Runs under the ledger's
    /// lock: it must not call back into the ledger (the WebSocket feed only formats and queues).
    using listener = std::function<void(ledger_event const&)>;

    static constexpr std::size_t fills_kept = 10000; ///< alpha.md §3.8
    static constexpr std::size_t fills_answered = 2000;
    static constexpr std::size_t history_kept = 2000; ///< closed orders per address

    /**
     * @param seed derives the first oid and tid (both then increase by one per use)
     * @param instruments every perp and spot pair; `tokens` the spot tokens in index order
     */
    ledger(std::uint64_t seed, std::vector<instrument> instruments,
           std::vector<std::string> tokens);

    /// `0x` + 40 hex digits, any case -> lowercase; nullopt otherwise.
    static std::optional<std::string> normalize_address(std::string_view text);

    std::optional<instrument> find(std::string_view coin) const;
    std::vector<std::string> const& tokens() const noexcept { return tokens_; }

    // ----------------------------------------------------------------------------------------
    // Writes (the matching engine's seam)

    /// Credits (or with a negative amount debits) a token: "USDC" is main-dex perps
    /// collateral, anything else a spot balance. Unknown tokens are ignored (returns false).
    bool credit(std::string const& address, std::string const& token, amount amt);
    /// Credits a spot balance, USDC included.
    bool credit_spot(std::string const& address, std::string const& token, amount amt);
    /// Moves USDC collateral into (positive) or out of a builder dex, as a transfer would.
    void credit_dex(std::string const& address, std::string const& dex, amount amt);

    /// The coin's leverage setting for future opens; also applies to an open position.
    void set_leverage(std::string const& address, std::string const& coin, leverage_setting lev);
    /// The setting used for the next open of `coin` (see `fill_event::leverage`).
    leverage_setting leverage_of(std::string const& address, std::string const& coin) const;

    /// Books one fill; see the file comment for the arithmetic. Unknown coins book nothing
    /// and return nullopt.
    std::optional<fill_record> apply_fill(std::string const& address, fill_event const& e);

    std::uint64_t next_oid();
    /// A fresh trade id (the engine gives both sides of one trade the same tid and hash).
    std::uint64_t next_tid();
    /// Rests an order and returns its oid (allocated).
    std::uint64_t add_order(std::string const& address, order_spec spec);
    /// Rests an order under its own oid (from `next_oid`) and remaining size `order.sz`
    /// (the engine allocates the oid before matching, then rests the remainder).
    void rest_order(std::string const& address, order_record order);
    /// Sets an open order's remaining size (after a partial fill); false if not open.
    bool set_order_size(std::string const& address, std::uint64_t oid, amount remaining);
    /// Takes an open order off the book into the history with `status` ("filled",
    /// "canceled", ...). Returns it, or nullopt when it was not open.
    std::optional<order_record> remove_order(std::string const& address, std::uint64_t oid,
                                             std::string const& status, std::int64_t time_ms);
    /// Adds a closed order straight to the history (e.g. an IOC that filled at once).
    void record_order(std::string const& address, order_record order, std::string status,
                      std::int64_t time_ms);

    void add_agent(std::string const& master, agent_record agent);
    /// `approveBuilderFee`: the most `builder` may charge `user`'s orders, in tenths of a basis
    /// point; a new approval of the same builder replaces the previous one.
    void approve_builder_fee(std::string const& user, std::string const& builder,
                             std::uint64_t max_tenths_bps);
    /// Counts one /exchange action against the address-based limit (userRateLimit).
    void note_action(std::string const& address);

    /// Replaces the event listener (an empty function removes it).
    void set_listener(listener l);

    // ----------------------------------------------------------------------------------------
    // Reads (empty/zero for an unknown address)

    bool known(std::string const& address) const;
    perp_view perp_state(std::string const& address, std::string_view dex,
                         mark_fn const& mark) const;
    std::vector<perp_position> positions(std::string const& address) const;
    /// USDC collateral of a dex (excluding isolated margin).
    amount collateral(std::string const& address, std::string_view dex) const;
    std::vector<spot_balance_view> spot_state(std::string const& address) const;
    /// Open orders of one dex (spot orders count as the main dex), newest first.
    std::vector<order_record> open_orders(std::string const& address, std::string_view dex) const;
    /// Every open order, newest first.
    std::vector<order_record> open_orders(std::string const& address) const;
    /// Newest first, at most `fills_answered`.
    std::vector<fill_record> fills(std::string const& address) const;
    /// `start <= time <= end`, oldest first, at most `fills_answered`.
    std::vector<fill_record> fills_by_time(std::string const& address, std::int64_t start,
                                           std::int64_t end) const;
    std::optional<order_status_record> order_status(std::string const& address,
                                                    std::uint64_t oid) const;
    std::optional<order_status_record> order_status_by_cloid(std::string const& address,
                                                             std::string const& cloid) const;
    /// Open and closed orders, newest first, at most `history_kept`.
    std::vector<order_status_record> historical_orders(std::string const& address) const;
    /// Named agents of a master (the unnamed one is not listed).
    std::vector<agent_record> extra_agents(std::string const& master) const;
    role_view role(std::string const& address) const;
    /// What `user` approved `builder` to charge (tenths of a basis point); nullopt when never
    /// approved (`maxBuilderFee` then answers 0).
    std::optional<std::uint64_t> max_builder_fee(std::string const& user,
                                                 std::string const& builder) const;
    rate_view rate_limit(std::string const& address) const;
    /// Sum of the collateral credited to a dex over every address.
    amount net_deposits(std::string_view dex) const;

private:
    struct spot_holding {
        amount total;
        amount entry_ntl;
    };
    struct account {
        std::map<std::string, amount, std::less<>> collateral; ///< dex -> USDC
        std::map<std::string, spot_holding, std::less<>> spot; ///< token -> holding
        std::map<std::string, perp_position, std::less<>> positions;
        std::map<std::string, leverage_setting, std::less<>> leverage;
        std::map<std::uint64_t, order_record> open;
        std::deque<order_status_record> history; ///< oldest first
        std::deque<fill_record> fills;           ///< oldest first
        std::vector<agent_record> agents;
        std::map<std::string, std::uint64_t, std::less<>> builder_fees; ///< builder -> max
        amount cum_vlm;
        std::uint64_t actions = 0;
    };

    account& touch(std::string const& address);
    account const* get(std::string const& address) const;
    instrument const* find_locked(std::string_view coin) const;
    leverage_setting default_leverage(instrument const& ins) const;
    leverage_setting leverage_locked(account const& a, instrument const& ins) const;
    /// Debits `amt` from a dex's collateral, pulling a builder dex's shortfall from main.
    void debit_dex(account& a, std::string const& dex, amount amt);
    void add_fill(account& a, fill_record f);
    void apply_perp(account& a, instrument const& ins, fill_event const& e, fill_record& f);
    void apply_spot(account& a, instrument const& ins, fill_event const& e, fill_record& f);
    void add_history(account& a, order_status_record r);
    void emit_order(std::string const& address, order_record const& o, std::string const& status,
                    std::int64_t time_ms) const;

    mutable std::mutex m_;
    listener listener_;
    std::uint64_t seed_;
    std::vector<instrument> instruments_;
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, account> accounts_;
    std::unordered_map<std::string, std::string> agent_master_; ///< agent -> master
    std::map<std::string, amount, std::less<>> net_deposits_;   ///< dex -> credited USDC
    std::uint64_t next_oid_;
    std::uint64_t next_tid_;
};

/// Hyperliquid's liquidation price (docs "Liquidations"): `price - side * margin_available /
/// |size| / (1 - l * side)`, side +1 long / -1 short, l = 1 / (2 * max_leverage); nullopt
/// when the result is <= 0. Computed as one division, rounded half away from zero at 10 digits.
std::optional<amount> liquidation_price(amount mark, amount szi, amount margin_available,
                                        unsigned max_leverage);

/// The `dir` of a perps fill from the signed start position and side.
std::string perp_direction(amount start, bool is_buy, amount sz);

} // namespace gateway::mocks::alpha
