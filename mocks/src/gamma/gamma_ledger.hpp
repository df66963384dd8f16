#pragma once
/**
 * @file gamma_ledger.hpp
 * mock-gamma's per-address account state (Polymarket CLOB, upstreams/gamma.md §5): the USDC
 * balance and one balance per outcome token, what resting orders lock of them, every order an
 * address placed (open ones and the history) and its trades.
 *
 * Every quantity is an integer of micro units (6 decimals, gamma.md §5.2): USDC and outcome
 * tokens alike; prices are micro-USDC per share ("ppm": 0.52 is 520000). Addresses are
 * lowercase `0x` + 40 hex.
 *
 * Model (documented in mocks/README.md, "mock-gamma trading"):
 * - A balance is credited by `POST /__mock/accounts` (USDC by the key `USDC`, outcome tokens
 *   by their token id) and moved by fills. Seeded balances count as approved to both
 *   exchanges: the mock has no separate allowance (gamma.md §5.4 refuses "not enough balance
 *   / allowance" as one case).
 * - A resting BUY locks `remaining shares x its price` of USDC, a resting SELL its remaining
 *   shares of the token; a cancel or an expiry releases what is left, a fill pays from it.
 *   `available = balance - locked`.
 *
 * @par Thread safety
 * None: the matching engine owns the ledger and calls it under its own lock.
 */
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gateway::mocks::gamma {

/// Micro units: 10^-6 USDC or 10^-6 shares; prices in micro-USDC per share.
using micros = std::int64_t;
inline constexpr micros one_unit = 1'000'000;
/// The collateral's asset key in balances.
inline constexpr std::string_view usdc_asset = "USDC";

/// A refused request: the HTTP status and the text of the CLOB's `{"error":...}` body.
struct refusal {
    unsigned status = 400;
    std::string message;
};

/// gamma.md §5.3 `orderType`.
enum class order_kind { gtc, gtd, fok, fak };
std::string_view to_string(order_kind k) noexcept;
std::optional<order_kind> parse_order_kind(std::string_view text) noexcept;

/// One asset of an address.
struct holding {
    micros balance = 0;
    micros locked = 0; ///< reserved by resting orders
    micros available() const noexcept { return balance - locked; }
};

/// An order as the CLOB keeps it (gamma.md §5.6 OpenOrder).
struct order_record {
    std::string id;       ///< `0x` + 64 hex: the order's EIP-712 hash
    std::string owner;    ///< the API key that placed it
    std::string maker;    ///< address, lowercase
    std::string token_id; ///< decimal text
    bool is_buy = true;
    micros size = 0;    ///< shares ordered
    micros matched = 0; ///< shares filled so far
    micros price = 0;   ///< ppm, on the token's tick
    micros maker_amount = 0;
    micros taker_amount = 0;
    order_kind kind = order_kind::gtc;
    std::uint64_t expiration = 0; ///< unix seconds, GTD only (0 otherwise)
    std::uint64_t fee_rate_bps = 0;
    std::int64_t created_at = 0;     ///< unix seconds
    std::string status = "LIVE";     ///< LIVE, MATCHED (filled), CANCELED
    std::vector<std::string> trades; ///< associate_trades: the ids of its trades

    micros remaining() const noexcept { return size - matched; }
};

/// One fill: a taker order against one maker order (the house's or a user's). The mock books
/// one trade per maker order matched (the upstream may group several makers in one trade).
struct trade_record {
    std::string id; ///< a UUID
    std::string taker_order_id;
    std::string taker_owner;   ///< API key
    std::string taker_address; ///< lowercase
    std::string token_id;
    bool taker_is_buy = true;
    micros size = 0;  ///< shares
    micros price = 0; ///< ppm: the maker order's price
    std::uint64_t taker_fee_rate_bps = 0;
    micros taker_fee = 0; ///< BUY: in shares; SELL: in USDC
    std::int64_t time_s = 0;
    std::string transaction_hash; ///< `0x` + 64 hex
    // The maker side
    std::string maker_order_id;
    std::string maker_owner;   ///< API key (the house's: all zeros)
    std::string maker_address; ///< lowercase (the house's: `house_address`)
    std::uint64_t maker_fee_rate_bps = 0;
    micros maker_fee = 0; ///< maker BUY: in shares; maker SELL: in USDC
};

/// A trade as one address sees it.
struct trade_view {
    trade_record trade;
    bool as_maker = false; ///< trader_side MAKER (else TAKER)
};

class ledger {
public:
    /// Closed orders and trades kept per address (the oldest go first).
    static constexpr std::size_t history_kept = 10000;

    /// Adds `amount` (may be negative) to `asset` of `address`.
    void credit(std::string const& address, std::string const& asset, micros amount);
    holding holding_of(std::string const& address, std::string const& asset) const;
    /// Every asset the address ever held (USDC first, then token ids in order).
    std::vector<std::pair<std::string, holding>> holdings(std::string const& address) const;
    bool known(std::string const& address) const;

    /// Reserves `amount` of `asset` (the caller checked it is available).
    void lock(std::string const& address, std::string const& asset, micros amount);
    /// Releases up to `amount` of what is reserved.
    void unlock(std::string const& address, std::string const& asset, micros amount);
    /// A resting order's fill pays `amount` out of its reservation: balance and locked fall.
    void pay_locked(std::string const& address, std::string const& asset, micros amount);

    /// Whether an order with this id was ever accepted.
    bool seen(std::string const& id) const { return seen_.contains(id); }
    /// Keeps an order: open while LIVE, else straight into the history.
    void add_order(order_record r);
    /// The open order with this id (any address), for the engine to update.
    order_record* open_order(std::string const& id);
    /// Moves an open order into the history with `status`.
    void close_order(std::string const& id, std::string const& status);
    /// An open or past order of `address`.
    std::optional<order_record> order(std::string const& address, std::string const& id) const;
    /// The open orders of `address`, oldest first.
    std::vector<order_record> open_orders(std::string const& address) const;
    /// Number of open orders of every address together.
    std::size_t open_count() const noexcept { return open_.size(); }

    void add_trade(std::string const& address, trade_record const& t, bool as_maker);
    /// The trades of `address`, oldest first.
    std::vector<trade_view> trades(std::string const& address) const;

private:
    struct account {
        std::map<std::string, holding, std::less<>> assets;
        std::vector<std::string> open;     ///< ids of open orders, oldest first
        std::deque<order_record> history;  ///< closed orders, oldest first
        std::deque<trade_view> trade_list; ///< oldest first
    };

    account& touch(std::string const& address);
    account const* get(std::string const& address) const;

    std::unordered_map<std::string, account> accounts_;
    std::unordered_map<std::string, order_record> open_; ///< by id
    std::set<std::string> seen_;
};

} // namespace gateway::mocks::gamma
