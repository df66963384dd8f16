#pragma once
/**
 * @file beta_ledger.hpp
 * Per-address account state of mock beta (Aster, upstreams/beta.md §4.2-4.3, §5): the futures
 * wallet (USDT), one-way positions per perp with their leverage and margin type, open and past
 * orders, fills (userTrades), the income history, spot balances and the API wallets (agents)
 * each address approved; plus the Binance-style margin arithmetic behind `account`,
 * `balance` and `positionRisk`.
 *
 * This is the seam the matching engine drives (the trading issue): it decides *what* trades
 * and checks filters and margin, then calls `apply_fill`, `next_order_id`, `next_trade_id`,
 * `add_order` / `rest_order`, `update_order`, `remove_order`, `record_order`,
 * `set_leverage`, `set_margin_type`, `add_income`. The ledger never looks at a book and never
 * refuses a fill.
 *
 * Model (documented in mocks/README.md):
 * - Futures collateral is USDT. `cross wallet` is the USDT not held by isolated positions;
 *   each isolated position holds its own `isolated wallet`. walletBalance = cross wallet + the
 *   isolated wallets.
 * - A fill that opens or increases a position sets the entry to the size-weighted average
 *   (rounded to 10 decimals); an isolated position moves `qty * price / leverage` (rounded to
 *   8 decimals) from the cross wallet into its isolated wallet. A reduce realizes
 *   `closed * (price - entry) * side` (8 decimals) into the cross wallet and releases the
 *   isolated wallet in proportion to the size closed; a flip reopens the rest at the fill
 *   price. The commission (8 decimals) is paid from the cross wallet.
 * - Every fill books a `COMMISSION` income entry (`-commission`, with its tradeId, also when
 *   zero) and, when it closes something, a `REALIZED_PNL` entry; a USDT credit books a
 *   `TRANSFER` entry.
 * - Views at the mark: unrealized PnL `amt * (mark - entry)`; position initial margin
 *   `|amt| * mark / leverage`; open-order initial margin `remaining * price / leverage` over
 *   the open orders that are not reduce-only (price: limit price, else stop price, else the
 *   trailing activation price, else the mark); maintenance margin `notional * mmr - cum` of the
 *   position's bracket; liquidation price Binance's one-way formula
 *   `(WB - TMM + UPNL + cum - side * |amt| * entry) / (|amt| * mmr - side * |amt|)` with WB the
 *   isolated wallet (isolated) or the cross wallet (cross, TMM and UPNL then the maintenance
 *   margin and unrealized PnL of the *other* cross positions); a result <= 0 means none.
 *   availableBalance = max(0, cross wallet + cross uPnL - cross position IM - open-order IM),
 *   maxWithdrawAmount = max(0, min(availableBalance, cross wallet)).
 * - Spot balances are separate assets with `free` and `locked`; spot orders and fills are kept
 *   apart from the futures ones (the engine locks what a spot order reserves).
 *
 * All numbers are `amount`s (exact, 10 decimals). Addresses are lowercase `0x` + 40 hex.
 *
 * @par Thread safety
 * Every member is safe to call concurrently (one internal mutex, never held while calling out:
 * `futures` copies what it needs, then asks `mark_fn` for prices).
 */
#include "beta_markets.hpp"

#include "../common/amount.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gateway::mocks::beta {

/// USDT amounts the ledger computes (wallet moves, PnL, commissions) keep 8 decimals.
inline constexpr unsigned usdt_decimals = 8;

enum class margin_type { cross, isolated };

struct leverage_setting {
    unsigned leverage = 20;
    margin_type type = margin_type::cross;
};

/// A perp as the ledger books it.
struct contract {
    std::string symbol; ///< "BTCUSDT"
    unsigned px_scale = 0;
    unsigned sz_scale = 0;
    unsigned default_leverage = 20;
    std::vector<bracket> brackets; ///< lowest notional first, never empty
};

/// One side of a trade, to book for one address.
struct fill_event {
    std::string symbol;
    bool is_buy = true;
    amount price;
    amount qty; ///< > 0
    std::int64_t time_ms = 0;
    std::uint64_t order_id = 0; ///< 0: the ledger allocates one
    std::uint64_t trade_id = 0; ///< 0: the ledger allocates one
    bool maker = false;
    amount commission; ///< USDT paid (negative: a rebate)
    /// The position's setting when it opens (else the account's setting for the symbol).
    std::optional<leverage_setting> setting;
};

/// A booked fill: one `userTrades` element.
struct fill_record {
    std::string symbol;
    std::uint64_t id = 0; ///< tradeId
    std::uint64_t order_id = 0;
    bool is_buy = true;
    amount price;
    amount qty;
    amount quote_qty;
    amount realized_pnl;
    amount commission;
    std::string commission_asset = "USDT";
    bool maker = false;
    std::int64_t time = 0;
};

/// One `income` element.
struct income_record {
    std::string symbol; ///< "" for transfers
    std::string type;   ///< "COMMISSION", "REALIZED_PNL", "TRANSFER", "FUNDING_FEE", ...
    amount income;      ///< signed
    std::string asset = "USDT";
    std::int64_t time = 0;
    std::uint64_t tran_id = 0; ///< 0: the ledger allocates one
    std::string trade_id;      ///< "" unless booked by a fill
    std::string info;          ///< the upstream repeats the type here for most entries
};

/// What the engine asks to rest (futures; upstream names, beta.md §4.3).
struct order_spec {
    std::string symbol;
    bool is_buy = true;
    std::string type = "LIMIT"; ///< LIMIT, MARKET, STOP, STOP_MARKET, TAKE_PROFIT, ...
    /// The type as placed when it differs from `type` (a triggered STOP shows type LIMIT and
    /// origType STOP); empty: same as `type`.
    std::string orig_type;
    std::string time_in_force = "GTC";
    amount quantity; ///< > 0
    amount price;    ///< zero for the market types
    amount stop_price;
    std::optional<amount> activation_price; ///< TRAILING_STOP_MARKET
    std::optional<amount> callback_rate;    ///< TRAILING_STOP_MARKET, percent
    bool reduce_only = false;
    bool close_position = false;
    std::string working_type = "CONTRACT_PRICE";
    bool price_protect = false;
    std::string client_order_id; ///< empty: the ledger derives one from the order id
};

/// An order: open (`status` NEW / PARTIALLY_FILLED) or in the history.
struct order_record {
    std::uint64_t order_id = 0;
    order_spec spec;
    std::string status = "NEW";
    amount executed_qty;
    amount cum_quote;
    std::int64_t time = 0;
    std::int64_t update_time = 0;
};

struct position {
    std::string symbol;
    amount amt; ///< signed: negative is short
    amount entry;
    leverage_setting setting;
    amount isolated_wallet; ///< margin held by an isolated position (zero for cross)
    std::int64_t update_time = 0;
};

/// One perp of an account at the mark (every contract has one, zero when flat).
struct position_view {
    std::string symbol;
    unsigned px_scale = 0;
    unsigned sz_scale = 0;
    amount amt;
    amount entry;
    amount mark; ///< zero when flat (the upstream shows "0.00000000" then)
    leverage_setting setting;
    amount isolated_wallet;
    amount notional;       ///< amt * mark (signed)
    amount unrealized;     ///< amt * (mark - entry)
    amount initial_margin; ///< |notional| / leverage
    amount maint_margin;   ///< |notional| * mmr - cum
    amount open_order_initial_margin;
    std::optional<amount> liquidation_price;
    amount max_notional;
    std::int64_t update_time = 0;
};

/// The futures account (`account`, `balance`, `positionRisk`).
struct futures_view {
    amount cross_wallet;
    amount wallet; ///< cross wallet + isolated wallets
    amount unrealized;
    amount cross_unrealized;
    amount position_initial_margin;
    amount open_order_initial_margin;
    amount maint_margin;
    amount available;
    amount max_withdraw;
    std::vector<position_view> positions; ///< contract order
    std::int64_t update_time = 0;         ///< of the last wallet change
};

struct spot_holding {
    amount free;
    amount locked;
};

/// One side of a spot trade, to book for one address.
struct spot_fill_event {
    std::string symbol; ///< "BTCUSDT"
    std::string base;   ///< "BTC"
    std::string quote;  ///< "USDT"
    bool is_buy = true;
    amount price;
    amount qty; ///< base, > 0
    std::int64_t time_ms = 0;
    std::uint64_t order_id = 0;
    std::uint64_t trade_id = 0;
    bool maker = false;
    amount commission; ///< in the asset received (base for a buy, quote for a sell)
    /// The paid asset comes out of `locked` (a resting order's reservation), else out of `free`.
    bool from_locked = false;
};

/// A booked spot fill.
struct spot_fill_record {
    std::string symbol;
    std::uint64_t id = 0;
    std::uint64_t order_id = 0;
    bool is_buy = true;
    amount price;
    amount qty;
    amount quote_qty;
    amount commission;
    std::string commission_asset;
    bool maker = false;
    std::int64_t time = 0;
};

/// A futures order change or fill of one address (the user data stream's source).
struct ledger_event {
    std::string address;
    std::optional<order_record> order; ///< the order's state after the change
    std::optional<fill_record> fill;
};

class ledger {
public:
    /// Mark price of a perp now; nullopt when unknown.
    using mark_fn = std::function<std::optional<amount>(std::string const& symbol)>;
    /// Told of every futures order change and fill, in order. Runs under the ledger's lock: it
    /// must not call back into the ledger (the WebSocket feed queues and formats later).
    using listener = std::function<void(ledger_event const&)>;

    /// Replaces the event listener (an empty function removes it).
    void set_listener(listener l);

    static constexpr std::size_t fills_kept = 10000;
    static constexpr std::size_t income_kept = 20000;
    static constexpr std::size_t history_kept = 2000; ///< closed orders per address

    /**
     * @param seed derives the first order, trade and transaction ids (each then increases by
     *        one per use)
     * @param perps_booked every perp; `spot_assets` the spot assets
     */
    ledger(std::uint64_t seed, std::vector<contract> perps_booked,
           std::vector<std::string> spot_assets);

    /// `0x` + 40 hex digits, any case -> lowercase; nullopt otherwise.
    static std::optional<std::string> normalize_address(std::string_view text);

    contract const* find(std::string_view symbol) const;
    std::vector<contract> const& contracts() const noexcept { return contracts_; }
    std::vector<std::string> const& spot_assets() const noexcept { return spot_assets_; }

    // ----------------------------------------------------------------------------------------
    // Writes (the matching engine's seam)

    /// Credits (or debits) the futures wallet; only USDT is futures collateral (false for any
    /// other asset). Books a TRANSFER income entry.
    bool credit_futures(std::string const& address, std::string const& asset, amount amt,
                        std::int64_t time_ms);
    /// Credits (or debits) a spot balance's free part; false for an unknown asset.
    bool credit_spot(std::string const& address, std::string const& asset, amount amt);
    /// Creates the account if it does not exist yet (an empty seed).
    void touch_account(std::string const& address);

    /// The symbol's leverage for future opens; also applies to an open position (its isolated
    /// wallet stays as it is, as on Binance: margin moves only with fills and transfers).
    void set_leverage(std::string const& address, std::string const& symbol, unsigned leverage);
    /// The symbol's margin type; the engine refuses a change while a position is open, the
    /// ledger only records it.
    void set_margin_type(std::string const& address, std::string const& symbol, margin_type t);
    /// The setting used for the next open of `symbol`.
    leverage_setting setting(std::string const& address, std::string const& symbol) const;

    /// Books one fill (position, wallet, fills, income). Unknown symbols book nothing.
    std::optional<fill_record> apply_fill(std::string const& address, fill_event const& e);

    std::uint64_t next_order_id();
    /// A fresh trade id (both sides of one trade share it).
    std::uint64_t next_trade_id();
    /// Rests an order under a fresh id and returns it.
    std::uint64_t add_order(std::string const& address, order_spec spec, std::int64_t time_ms);
    /// Rests an order under its own id (from `next_order_id`).
    void rest_order(std::string const& address, order_record order);
    /// Sets an open order's executed quantity, quote and status; false if not open.
    bool update_order(std::string const& address, std::uint64_t order_id, amount executed_qty,
                      amount cum_quote, std::string const& status, std::int64_t time_ms);
    /// Takes an open order into the history with `status` (FILLED, CANCELED, EXPIRED...).
    std::optional<order_record> remove_order(std::string const& address, std::uint64_t order_id,
                                             std::string const& status, std::int64_t time_ms);
    /// Adds a closed order straight to the history (an id of 0 gets a fresh one).
    void record_order(std::string const& address, order_record order);
    /// Books an income entry (funding, ...); a tran id of 0 gets a fresh one.
    void add_income(std::string const& address, income_record r);

    // Spot orders live apart from the futures ones (same id sequence; never in futures reads).

    /// Rests (or replaces) an open spot order under its own id.
    void rest_spot_order(std::string const& address, order_record order);
    /// As `update_order`, for a spot order.
    bool update_spot_order(std::string const& address, std::uint64_t order_id, amount executed_qty,
                           amount cum_quote, std::string const& status, std::int64_t time_ms);
    /// As `remove_order`, for a spot order.
    std::optional<order_record> remove_spot_order(std::string const& address,
                                                  std::uint64_t order_id, std::string const& status,
                                                  std::int64_t time_ms);
    /// As `record_order`, for a spot order.
    void record_spot_order(std::string const& address, order_record order);
    /// Moves `amt` of a spot asset from free to locked; false (nothing moved) when the free
    /// balance is smaller.
    bool lock_spot(std::string const& address, std::string const& asset, amount amt);
    /// Moves up to `amt` back from locked to free.
    void unlock_spot(std::string const& address, std::string const& asset, amount amt);
    /// Books one spot fill: the paid asset leaves (locked or free), the received one arrives
    /// less the commission.
    spot_fill_record apply_spot_fill(std::string const& address, spot_fill_event const& e);

    /// `signer` may sign for `user` from now on; false when it already could.
    bool add_agent(std::string const& user, std::string const& signer);
    /// Revokes it; false when it was not approved.
    bool remove_agent(std::string const& user, std::string const& signer);

    // ----------------------------------------------------------------------------------------
    // Reads (empty/zero for an unknown address)

    bool known(std::string const& address) const;
    bool is_agent(std::string const& user, std::string const& signer) const;
    /// The signers `user` approved, sorted.
    std::vector<std::string> agents(std::string const& user) const;
    /// The users that approved `signer`, sorted.
    std::vector<std::string> masters(std::string const& signer) const;

    futures_view futures(std::string const& address, mark_fn const& mark) const;
    /// Open futures orders, oldest first.
    std::vector<order_record> open_orders(std::string const& address) const;
    /// An open or past order.
    std::optional<order_record> order(std::string const& address, std::uint64_t order_id) const;
    /// An open or past order (futures, or spot when `spot`) by client order id: the open one
    /// first, else the newest in the history.
    std::optional<order_record> order_by_client_id(std::string const& address,
                                                   std::string const& client_id, bool spot) const;
    /// The signed position size in `symbol` (zero when flat).
    amount position_amt(std::string const& address, std::string const& symbol) const;
    /// Fills, oldest first.
    std::vector<fill_record> fills(std::string const& address) const;
    /// Income, oldest first.
    std::vector<income_record> income(std::string const& address) const;
    /// Open spot orders, oldest first.
    std::vector<order_record> spot_open_orders(std::string const& address) const;
    /// An open or past spot order.
    std::optional<order_record> spot_order(std::string const& address,
                                           std::uint64_t order_id) const;
    /// Spot fills, oldest first.
    std::vector<spot_fill_record> spot_fills(std::string const& address) const;
    /// One spot balance (zero when never held).
    spot_holding spot_balance(std::string const& address, std::string const& asset) const;
    /// Spot balances of the assets the account ever held, in `spot_assets` order.
    std::vector<std::pair<std::string, spot_holding>> spot(std::string const& address) const;
    /// Sum of the long positions of every account in `symbol` (open interest the ledger adds).
    amount long_open_interest(std::string const& symbol) const;
    /// The account's `accountAlias` (16 letters derived from the address).
    static std::string alias(std::string const& address);
    /// The client order id an order placed without one gets: 22 letters and digits derived
    /// from the order id, like the upstream's generated ids ("6gCrw2kRUAF9CvJDGP16IP").
    static std::string generated_client_id(std::uint64_t order_id);

private:
    struct account {
        amount cross_wallet;
        std::int64_t wallet_time = 0;
        std::map<std::string, spot_holding, std::less<>> spot;
        std::map<std::string, position, std::less<>> positions;
        std::map<std::string, leverage_setting, std::less<>> settings;
        std::map<std::uint64_t, order_record> open;
        std::deque<order_record> history; ///< oldest first
        std::deque<fill_record> fills;    ///< oldest first
        std::deque<income_record> income; ///< oldest first
        std::set<std::string> agents;
        std::map<std::uint64_t, order_record> spot_open;
        std::deque<order_record> spot_history; ///< oldest first
        std::deque<spot_fill_record> spot_fills;
    };

    void emit(std::string const& address, order_record const* o, fill_record const* f) const;

    listener listener_;
    account& touch(std::string const& address);
    account const* get(std::string const& address) const;
    contract const* find_locked(std::string_view symbol) const;
    leverage_setting setting_locked(account const& a, contract const& c) const;
    void add_income_locked(account& a, income_record r);
    void add_history(account& a, order_record r);
    static void add_to(std::deque<order_record>& history, order_record r);

    mutable std::mutex m_;
    std::vector<contract> contracts_;
    std::vector<std::string> spot_assets_;
    std::unordered_map<std::string, account> accounts_;
    std::uint64_t next_order_id_;
    std::uint64_t next_trade_id_;
    std::uint64_t next_tran_id_;
};

/// The ledger's contracts for every perp of beta_markets.
std::vector<contract> contracts();

} // namespace gateway::mocks::beta
