#include "beta_accounts.hpp"

#include "../common/control.hpp"
#include "../common/format.hpp"
#include "../common/http_util.hpp"

#include <gateway/providers/beta/errors.hpp>

#include <algorithm>
#include <array>
#include <limits>
#include <set>

namespace gateway::mocks::beta {

namespace {

namespace json = boost::json;

constexpr unsigned usdt = 8; // USDT amounts on the wire
constexpr std::string_view accounts_path = "/__mock/accounts";
constexpr std::string_view agents_path = "/__mock/agents";
constexpr std::int64_t max_credit_units = 1'000'000'000'000; // 10^12 per asset
constexpr std::int64_t max_price_units = 1'000'000'000;      // 10^9
constexpr std::int64_t max_size_units = 1'000'000'000;       // 10^9

char const* side_text(bool is_buy) {
    return is_buy ? "BUY" : "SELL";
}

/// Canonical text of `a` rounded to 8 decimals ("0" when zero).
std::string canonical8(amount a) {
    return a.rounded(usdt).str();
}

std::string entry_text(position_view const& p) {
    return p.amt.is_zero() ? std::string("0.0") : scaled_text(p.entry, usdt);
}

// ---------------------------------------------------------------------------------------------
// Control body parsing: every check first, so a bad body changes nothing. A failed check
// records its sentence in `why` and returns nullopt/false (no exceptions on the data path).

using errors = std::string;

std::optional<amount> amount_of(json::value const& v) {
    if (v.is_string())
        return amount::parse(v.get_string());
    if (v.is_int64())
        return amount::from_int(v.get_int64());
    if (v.is_uint64() &&
        v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return amount::from_int(static_cast<std::int64_t>(v.get_uint64()));
    return std::nullopt;
}

std::optional<std::int64_t> integer_of(json::value const& v) {
    if (v.is_int64())
        return v.get_int64();
    if (v.is_uint64() &&
        v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return static_cast<std::int64_t>(v.get_uint64());
    return std::nullopt;
}

std::optional<amount> decimal_field(json::value const& v, std::string const& what,
                                    unsigned max_decimals, std::int64_t max_units, errors& why) {
    auto const a = amount_of(v);
    if (!a || a->rounded(max_decimals) != *a || a->abs() >= amount::from_int(max_units)) {
        why = "'" + what + "' must be a decimal string with at most " +
              std::to_string(max_decimals) + " decimals, below " +
              amount::from_int(max_units).str() + ".";
        return std::nullopt;
    }
    return a;
}

std::optional<amount> positive_field(json::object const& o, std::string_view key,
                                     std::string const& where, unsigned decimals,
                                     std::int64_t max_units, errors& why) {
    auto const* v = o.if_contains(key);
    if (!v || v->is_null()) {
        why = where + ": '" + std::string(key) + "' is required.";
        return std::nullopt;
    }
    auto const a = decimal_field(*v, where + "." + std::string(key), decimals, max_units, why);
    if (!a)
        return std::nullopt;
    if (a->sign() <= 0) {
        why = where + ": '" + std::string(key) + "' must be positive.";
        return std::nullopt;
    }
    return a;
}

/// A string field; "" when absent or null and not required.
std::optional<std::string> string_field(json::object const& o, std::string_view key,
                                        std::string const& where, bool required, errors& why) {
    auto const* v = o.if_contains(key);
    if (!v || v->is_null()) {
        if (!required)
            return std::string();
        why = where + ": '" + std::string(key) + "' is required.";
        return std::nullopt;
    }
    if (!v->is_string()) {
        why = where + ": '" + std::string(key) + "' must be a string.";
        return std::nullopt;
    }
    return std::string(v->get_string());
}

std::optional<bool> bool_field(json::object const& o, std::string_view key,
                               std::string const& where, errors& why) {
    auto const* v = o.if_contains(key);
    if (!v || v->is_null())
        return false;
    if (!v->is_bool()) {
        why = where + ": '" + std::string(key) + "' must be a boolean.";
        return std::nullopt;
    }
    return v->get_bool();
}

bool only_fields(json::object const& o, std::set<std::string_view> const& allowed,
                 std::string const& where, errors& why) {
    for (auto const& kv : o)
        if (!allowed.contains(kv.key())) {
            std::string list;
            for (auto const& a : allowed)
                list += (list.empty() ? "" : ", ") + std::string(a);
            why = where + ": unknown field '" + std::string(kv.key()) + "'; expected " + list + ".";
            return false;
        }
    return true;
}

std::optional<std::string> address_field(json::object const& o, std::string_view key,
                                         std::string const& where, errors& why) {
    auto const text = string_field(o, key, where, true, why);
    if (!text)
        return std::nullopt;
    auto a = ledger::normalize_address(*text);
    if (!a)
        why = where + ": '" + std::string(key) + "' must be 0x followed by 40 hex digits.";
    return a;
}

/// A perp by its upstream symbol ("BTCUSDT") or base asset ("BTC").
contract const* perp_of(ledger const& l, std::string const& symbol) {
    if (auto const* c = l.find(symbol))
        return c;
    return l.find(symbol + "USDT");
}

std::optional<bool> side_field(json::object const& o, std::string const& where, errors& why) {
    auto const side = string_field(o, "side", where, true, why);
    if (!side)
        return std::nullopt;
    if (*side == "buy" || *side == "BUY")
        return true;
    if (*side == "sell" || *side == "SELL")
        return false;
    why = where + ": 'side' must be \"buy\" or \"sell\".";
    return std::nullopt;
}

struct seed_position {
    contract const* c;
    amount size; ///< signed
    amount entry;
    leverage_setting setting;
};

struct seed_fill {
    contract const* c;
    bool is_buy;
    amount price;
    amount size;
    std::int64_t time;
    bool maker;
    std::optional<amount> commission;
};

struct account_seed {
    std::string address;
    std::vector<std::pair<std::string, amount>> futures;
    std::vector<std::pair<std::string, amount>> spot;
    std::vector<seed_position> positions;
    std::vector<seed_fill> fills;
    std::vector<order_spec> orders;
    std::vector<std::string> agents;
};

bool parse_balances(json::object const& body, std::string_view key, bool spot_only, ledger const& l,
                    account_seed& out, errors& why) {
    auto const* v = body.if_contains(key);
    if (!v)
        return true;
    if (!v->is_object()) {
        why = "'" + std::string(key) + "' must be an object of asset -> amount.";
        return false;
    }
    auto const& assets = l.spot_assets();
    for (auto const& kv : v->get_object()) {
        std::string const asset(kv.key());
        if (std::find(assets.begin(), assets.end(), asset) == assets.end()) {
            std::string list;
            for (auto const& a : assets)
                list += (list.empty() ? "" : ", ") + a;
            why = "Unknown asset '" + asset + "' in '" + std::string(key) + "'; expected one of " +
                  list + ".";
            return false;
        }
        auto const a =
            decimal_field(kv.value(), std::string(key) + "." + asset, 8, max_credit_units, why);
        if (!a)
            return false;
        if (a->is_negative()) {
            why = "'" + std::string(key) + "." + asset + "' must not be negative.";
            return false;
        }
        // `balances`: every asset to its spot balance, and USDT to the futures collateral as
        // well, so one call lets the address trade both (CONTRACT §10); `spotBalances`: spot.
        if (!spot_only && asset == "USDT")
            out.futures.emplace_back(asset, *a);
        out.spot.emplace_back(asset, *a);
    }
    return true;
}

bool parse_position(json::value const& item, std::string const& where, ledger const& l,
                    std::string const& address, std::set<std::string>& seen, account_seed& out,
                    errors& why) {
    if (!item.is_object()) {
        why = where + " must be an object.";
        return false;
    }
    auto const& o = item.get_object();
    if (!only_fields(o, {"symbol", "size", "entryPrice", "leverage", "marginType"}, where, why))
        return false;
    auto const symbol = string_field(o, "symbol", where, true, why);
    if (!symbol)
        return false;
    auto const* c = perp_of(l, *symbol);
    if (!c) {
        why = where + ": unknown perp '" + *symbol + "' (e.g. BTCUSDT or BTC).";
        return false;
    }
    if (!seen.insert(c->symbol).second) {
        why = where + ": '" + c->symbol + "' appears twice.";
        return false;
    }
    auto const* size_v = o.if_contains("size");
    if (!size_v) {
        why = where + ": 'size' is required.";
        return false;
    }
    auto const size = decimal_field(*size_v, where + ".size", c->sz_scale, max_size_units, why);
    if (!size)
        return false;
    if (size->is_zero()) {
        why = where + ": 'size' must not be zero (signed: negative is short).";
        return false;
    }
    auto const entry = positive_field(o, "entryPrice", where, 8, max_price_units, why);
    if (!entry)
        return false;
    leverage_setting s = l.setting(address, c->symbol);
    if (auto const* lv = o.if_contains("leverage"); lv && !lv->is_null()) {
        unsigned const max = c->brackets.front().initial_leverage;
        auto const n = integer_of(*lv);
        if (!n || *n < 1 || *n > static_cast<std::int64_t>(max)) {
            why = where + ": 'leverage' must be an integer from 1 to " + std::to_string(max) +
                  " for " + c->symbol + ".";
            return false;
        }
        s.leverage = static_cast<unsigned>(*n);
    }
    auto const mode = string_field(o, "marginType", where, false, why);
    if (!mode)
        return false;
    if (*mode == "cross") {
        s.type = margin_type::cross;
    } else if (*mode == "isolated") {
        s.type = margin_type::isolated;
    } else if (!mode->empty()) {
        why = where + ": 'marginType' must be \"cross\" or \"isolated\".";
        return false;
    }
    out.positions.push_back({c, *size, *entry, s});
    return true;
}

bool parse_fill(json::value const& item, std::string const& where, ledger const& l,
                std::int64_t now, account_seed& out, errors& why) {
    if (!item.is_object()) {
        why = where + " must be an object.";
        return false;
    }
    auto const& o = item.get_object();
    if (!only_fields(o, {"symbol", "side", "price", "size", "time", "maker", "commission"}, where,
                     why))
        return false;
    auto const symbol = string_field(o, "symbol", where, true, why);
    if (!symbol)
        return false;
    auto const* c = perp_of(l, *symbol);
    if (!c) {
        why = where + ": unknown perp '" + *symbol + "' (e.g. BTCUSDT or BTC).";
        return false;
    }
    auto const side = side_field(o, where, why);
    if (!side)
        return false;
    auto const price = positive_field(o, "price", where, 8, max_price_units, why);
    if (!price)
        return false;
    auto const size = positive_field(o, "size", where, c->sz_scale, max_size_units, why);
    if (!size)
        return false;
    std::int64_t time = now;
    if (auto const* t = o.if_contains("time"); t && !t->is_null()) {
        auto const n = integer_of(*t);
        if (!n || *n < 0) {
            why = where + ": 'time' must be a time in ms.";
            return false;
        }
        time = *n;
    }
    auto const maker = bool_field(o, "maker", where, why);
    if (!maker)
        return false;
    std::optional<amount> commission;
    if (auto const* f = o.if_contains("commission"); f && !f->is_null()) {
        commission = decimal_field(*f, where + ".commission", 8, max_credit_units, why);
        if (!commission)
            return false;
    }
    out.fills.push_back({c, *side, *price, *size, time, *maker, commission});
    return true;
}

bool parse_order(json::value const& item, std::string const& where, ledger const& l,
                 std::set<std::string>& client_ids, account_seed& out, errors& why) {
    if (!item.is_object()) {
        why = where + " must be an object.";
        return false;
    }
    auto const& o = item.get_object();
    if (!only_fields(o,
                     {"symbol", "side", "type", "size", "price", "triggerPrice", "callbackRate",
                      "activationPrice", "reduceOnly", "clientOrderId", "timeInForce"},
                     where, why))
        return false;
    auto const symbol = string_field(o, "symbol", where, true, why);
    if (!symbol)
        return false;
    auto const* c = perp_of(l, *symbol);
    if (!c) {
        why = where + ": unknown perp '" + *symbol + "' (e.g. BTCUSDT or BTC).";
        return false;
    }
    auto const side = side_field(o, where, why);
    auto const type_text = side ? string_field(o, "type", where, false, why) : std::nullopt;
    if (!type_text)
        return false;
    std::string const type = type_text->empty() ? std::string("limit") : *type_text;
    struct kind {
        std::string_view name, upstream;
        bool price, trigger, trailing;
    };
    static constexpr std::array<kind, 6> kinds{{
        {"limit", "LIMIT", true, false, false},
        {"stop_limit", "STOP", true, true, false},
        {"stop_market", "STOP_MARKET", false, true, false},
        {"take_profit_limit", "TAKE_PROFIT", true, true, false},
        {"take_profit_market", "TAKE_PROFIT_MARKET", false, true, false},
        {"trailing_stop", "TRAILING_STOP_MARKET", false, false, true},
    }};
    auto const k =
        std::find_if(kinds.begin(), kinds.end(), [&](kind const& x) { return x.name == type; });
    if (k == kinds.end()) {
        why = where + ": 'type' must be limit, stop_limit, stop_market, take_profit_limit, "
                      "take_profit_market or trailing_stop.";
        return false;
    }
    order_spec spec;
    spec.symbol = c->symbol;
    spec.is_buy = *side;
    spec.type = std::string(k->upstream);
    auto const size = positive_field(o, "size", where, c->sz_scale, max_size_units, why);
    if (!size)
        return false;
    spec.quantity = *size;
    auto const has = [&](std::string_view key) {
        auto const* v = o.if_contains(key);
        return v && !v->is_null();
    };
    for (auto const& [key, wanted] : {std::pair{std::string_view("price"), k->price},
                                      std::pair{std::string_view("triggerPrice"), k->trigger}}) {
        if (has(key) != wanted) {
            why = where + ": a " + type + " order " + (wanted ? "needs" : "takes no") + " '" +
                  std::string(key) + "'.";
            return false;
        }
    }
    if (k->price) {
        auto const p = positive_field(o, "price", where, c->px_scale, max_price_units, why);
        if (!p)
            return false;
        spec.price = *p;
    }
    if (k->trigger) {
        auto const p = positive_field(o, "triggerPrice", where, c->px_scale, max_price_units, why);
        if (!p)
            return false;
        spec.stop_price = *p;
    }
    if (!k->trailing && (has("callbackRate") || has("activationPrice"))) {
        why = where + ": 'callbackRate' and 'activationPrice' are for trailing_stop orders.";
        return false;
    }
    if (k->trailing) {
        auto const rate = positive_field(o, "callbackRate", where, 2, 100, why);
        if (!rate)
            return false;
        if (*rate < amount::from_scaled(1, 1) || *rate > amount::from_int(5)) {
            why = where + ": 'callbackRate' is a percent from 0.1 to 5.";
            return false;
        }
        spec.callback_rate = *rate;
        if (has("activationPrice")) {
            auto const p =
                positive_field(o, "activationPrice", where, c->px_scale, max_price_units, why);
            if (!p)
                return false;
            spec.activation_price = *p;
        }
    }
    auto const reduce = bool_field(o, "reduceOnly", where, why);
    if (!reduce)
        return false;
    spec.reduce_only = *reduce;
    auto const tif = string_field(o, "timeInForce", where, false, why);
    if (!tif)
        return false;
    if (!tif->empty()) {
        if (*tif != "GTC" && *tif != "GTX" && *tif != "HIDDEN") {
            why = where + ": 'timeInForce' of a resting order must be GTC, GTX or HIDDEN.";
            return false;
        }
        spec.time_in_force = *tif;
    }
    auto const client = string_field(o, "clientOrderId", where, false, why);
    if (!client)
        return false;
    if (!client->empty()) {
        if (!::gateway::wire::beta::valid_client_order_id(*client)) {
            why = where + ": 'clientOrderId' must match ^[.A-Z:/a-z0-9_-]{1,36}$.";
            return false;
        }
        if (!client_ids.insert(*client).second) {
            why = where + ": 'clientOrderId' " + *client + " is already used by an open order.";
            return false;
        }
        spec.client_order_id = *client;
    }
    out.orders.push_back(std::move(spec));
    return true;
}

/// Runs `parse` on every element of the array `key` (absent is fine).
template <class Parse>
bool each(json::object const& body, std::string_view key, errors& why, Parse&& parse) {
    auto const* v = body.if_contains(key);
    if (!v)
        return true;
    if (!v->is_array()) {
        why = "'" + std::string(key) + "' must be an array.";
        return false;
    }
    auto const& arr = v->get_array();
    for (std::size_t k = 0; k < arr.size(); ++k)
        if (!parse(arr[k], std::string(key) + "[" + std::to_string(k) + "]"))
            return false;
    return true;
}

std::optional<account_seed> parse_seed(json::object const& body, ledger const& l, std::int64_t now,
                                       errors& why) {
    if (!only_fields(
            body, {"address", "balances", "spotBalances", "positions", "fills", "orders", "agents"},
            "The body", why))
        return std::nullopt;
    account_seed s;
    auto address = address_field(body, "address", "The body", why);
    if (!address)
        return std::nullopt;
    s.address = std::move(*address);
    std::set<std::string> seen_positions;
    std::set<std::string> client_ids;
    for (auto const& o : l.open_orders(s.address))
        client_ids.insert(o.spec.client_order_id);
    bool const ok = parse_balances(body, "balances", false, l, s, why) &&
                    parse_balances(body, "spotBalances", true, l, s, why) &&
                    each(body, "agents", why,
                         [&](json::value const& v, std::string const& w) {
                             if (!v.is_string() || !ledger::normalize_address(v.get_string())) {
                                 why = w + " must be 0x followed by 40 hex digits.";
                                 return false;
                             }
                             s.agents.push_back(*ledger::normalize_address(v.get_string()));
                             return true;
                         }) &&
                    each(body, "positions", why,
                         [&](json::value const& v, std::string const& w) {
                             return parse_position(v, w, l, s.address, seen_positions, s, why);
                         }) &&
                    each(body, "fills", why,
                         [&](json::value const& v, std::string const& w) {
                             return parse_fill(v, w, l, now, s, why);
                         }) &&
                    each(body, "orders", why, [&](json::value const& v, std::string const& w) {
                        return parse_order(v, w, l, client_ids, s, why);
                    });
    if (!ok)
        return std::nullopt;
    auto const held = l.futures(s.address, {});
    for (auto const& p : s.positions)
        for (auto const& x : held.positions)
            if (x.symbol == p.c->symbol && !x.amt.is_zero() && x.setting.type != p.setting.type) {
                why = "The open " + p.c->symbol + " position has another margin type.";
                return std::nullopt;
            }
    return s;
}

/// The commission of a fill at the base fee rates, rounded to 8 decimals.
amount fee_of(amount notional, bool maker) {
    return notional.times(maker ? maker_fee_ppm : taker_fee_ppm).over(1'000'000).rounded(usdt);
}

/// Books a seeded trade: the fill, and its order as FILLED in the history.
void book(ledger& l, std::string const& address, contract const& c, bool is_buy, amount price,
          amount size, std::int64_t time, bool maker, amount commission,
          std::optional<leverage_setting> setting) {
    fill_event e;
    e.symbol = c.symbol;
    e.is_buy = is_buy;
    e.price = price;
    e.qty = size;
    e.time_ms = time;
    e.order_id = l.next_order_id();
    e.maker = maker;
    e.commission = commission;
    e.setting = setting;
    l.apply_fill(address, e);
    order_record r;
    r.order_id = e.order_id;
    r.spec.symbol = c.symbol;
    r.spec.is_buy = is_buy;
    r.spec.type = maker ? "LIMIT" : "MARKET";
    r.spec.time_in_force = "GTC";
    r.spec.quantity = size;
    if (maker)
        r.spec.price = price;
    r.status = "FILLED";
    r.executed_qty = size;
    r.cum_quote = price * size;
    r.time = time;
    r.update_time = time;
    l.record_order(address, std::move(r));
}

void apply_seed(account_seed const& s, ledger& l, std::int64_t now) {
    l.touch_account(s.address); // an empty seed still creates the account
    for (auto const& [asset, amt] : s.futures)
        l.credit_futures(s.address, asset, amt, now);
    for (auto const& [asset, amt] : s.spot)
        l.credit_spot(s.address, asset, amt);
    for (auto const& a : s.agents)
        l.add_agent(s.address, a);
    for (auto const& p : s.positions) {
        l.set_margin_type(s.address, p.c->symbol, p.setting.type);
        l.set_leverage(s.address, p.c->symbol, p.setting.leverage);
        amount const size = p.size.abs();
        book(l, s.address, *p.c, p.size.sign() > 0, p.entry, size, now, false,
             fee_of(p.entry * size, false), p.setting);
    }
    for (auto const& f : s.fills)
        book(l, s.address, *f.c, f.is_buy, f.price, f.size, f.time, f.maker,
             f.commission.value_or(fee_of(f.price * f.size, f.maker)), std::nullopt);
    for (auto const& o : s.orders)
        l.add_order(s.address, o, now);
}

} // namespace

std::string decimal_text(amount a, unsigned digits) {
    if (auto const m = a.rounded(digits).to_scaled(digits))
        return fixed(*m, digits, digits);
    return a.rounded(digits).str(); // beyond int64 at this scale: never for sane values
}

std::string scaled_text(amount a, unsigned digits) {
    return a.rounded(digits) == a ? decimal_text(a, digits) : a.str();
}

ledger::mark_fn marks_of(market_state const& markets) {
    return [&markets](std::string const& symbol) -> std::optional<amount> {
        auto const i = markets.find(symbol);
        if (!i || markets.spec(*i).symbol != symbol)
            return std::nullopt;
        return amount::from_scaled(markets.mark(*i), markets.spec(*i).px_scale);
    };
}

json::object account_json(futures_view const& v) {
    amount const margin_balance = v.wallet + v.unrealized;
    amount const initial = v.position_initial_margin + v.open_order_initial_margin;
    json::object o;
    o["feeTier"] = 0;
    o["canTrade"] = true;
    o["canDeposit"] = true;
    o["canWithdraw"] = true;
    o["updateTime"] = 0;
    o["totalInitialMargin"] = decimal_text(initial, usdt);
    o["totalMaintMargin"] = decimal_text(v.maint_margin, usdt);
    o["totalWalletBalance"] = decimal_text(v.wallet, usdt);
    o["totalUnrealizedProfit"] = decimal_text(v.unrealized, usdt);
    o["totalMarginBalance"] = decimal_text(margin_balance, usdt);
    o["totalPositionInitialMargin"] = decimal_text(v.position_initial_margin, usdt);
    o["totalOpenOrderInitialMargin"] = decimal_text(v.open_order_initial_margin, usdt);
    o["totalCrossWalletBalance"] = decimal_text(v.cross_wallet, usdt);
    o["totalCrossUnPnl"] = decimal_text(v.cross_unrealized, usdt);
    o["availableBalance"] = decimal_text(v.available, usdt);
    o["maxWithdrawAmount"] = decimal_text(v.max_withdraw, usdt);
    json::array assets;
    for (std::string_view asset : {"USDT", "BTC"}) {
        bool const usdt_row = asset == "USDT";
        auto const at = [&](amount a) {
            return decimal_text(usdt_row ? a : amount{}, usdt);
        };
        json::object x;
        x["asset"] = asset;
        x["walletBalance"] = at(v.wallet);
        x["unrealizedProfit"] = at(v.unrealized);
        x["marginBalance"] = at(margin_balance);
        x["maintMargin"] = at(v.maint_margin);
        x["initialMargin"] = at(initial);
        x["positionInitialMargin"] = at(v.position_initial_margin);
        x["openOrderInitialMargin"] = at(v.open_order_initial_margin);
        x["crossWalletBalance"] = at(v.cross_wallet);
        x["crossUnPnl"] = at(v.cross_unrealized);
        x["availableBalance"] = at(v.available);
        x["maxWithdrawAmount"] = at(v.max_withdraw);
        x["marginAvailable"] = true;
        x["updateTime"] = usdt_row ? v.update_time : 0;
        assets.push_back(std::move(x));
    }
    o["assets"] = std::move(assets);
    json::array positions;
    for (auto const& p : v.positions) {
        json::object x;
        x["symbol"] = p.symbol;
        x["initialMargin"] = decimal_text(p.initial_margin + p.open_order_initial_margin, usdt);
        x["maintMargin"] = decimal_text(p.maint_margin, usdt);
        x["unrealizedProfit"] = decimal_text(p.unrealized, usdt);
        x["positionInitialMargin"] = decimal_text(p.initial_margin, usdt);
        x["openOrderInitialMargin"] = decimal_text(p.open_order_initial_margin, usdt);
        x["leverage"] = std::to_string(p.setting.leverage);
        x["isolated"] = p.setting.type == margin_type::isolated;
        x["entryPrice"] = entry_text(p);
        x["maxNotional"] = p.max_notional.str();
        x["positionSide"] = "BOTH";
        x["positionAmt"] = scaled_text(p.amt, p.sz_scale);
        x["updateTime"] = p.update_time;
        positions.push_back(std::move(x));
    }
    o["positions"] = std::move(positions);
    return o;
}

json::array balance_json(futures_view const& v, std::string const& address) {
    json::array out;
    std::string const alias = ledger::alias(address);
    for (std::string_view asset : {"USDT", "BTC"}) {
        bool const usdt_row = asset == "USDT";
        auto const at = [&](amount a) {
            return decimal_text(usdt_row ? a : amount{}, usdt);
        };
        json::object x;
        x["accountAlias"] = alias;
        x["asset"] = asset;
        x["balance"] = at(v.wallet);
        x["crossWalletBalance"] = at(v.cross_wallet);
        x["crossUnPnl"] = at(v.cross_unrealized);
        x["availableBalance"] = at(v.available);
        x["maxWithdrawAmount"] = at(v.max_withdraw);
        x["marginAvailable"] = true;
        x["updateTime"] = usdt_row ? v.update_time : 0;
        out.push_back(std::move(x));
    }
    return out;
}

json::object position_risk_json(position_view const& p) {
    bool const flat = p.amt.is_zero();
    bool const isolated = p.setting.type == margin_type::isolated;
    json::object x;
    x["symbol"] = p.symbol;
    x["positionAmt"] = scaled_text(p.amt, p.sz_scale);
    x["entryPrice"] = entry_text(p);
    x["markPrice"] = decimal_text(flat ? amount{} : p.mark, usdt);
    x["unRealizedProfit"] = decimal_text(p.unrealized, usdt);
    x["liquidationPrice"] =
        p.liquidation_price ? decimal_text(*p.liquidation_price, p.px_scale) : std::string("0");
    x["leverage"] = std::to_string(p.setting.leverage);
    x["maxNotionalValue"] = p.max_notional.str();
    x["marginType"] = isolated ? "isolated" : "cross";
    x["isolatedMargin"] =
        decimal_text(isolated && !flat ? p.isolated_wallet + p.unrealized : amount{}, usdt);
    x["isAutoAddMargin"] = "false";
    x["positionSide"] = "BOTH";
    x["notional"] = canonical8(p.notional);
    x["isolatedWallet"] = canonical8(p.isolated_wallet);
    x["updateTime"] = p.update_time;
    return x;
}

json::object open_order_json(order_record const& r, contract const& c) {
    auto const& s = r.spec;
    bool const trailing = s.type == "TRAILING_STOP_MARKET";
    json::object o;
    o["avgPrice"] =
        decimal_text(r.executed_qty.is_zero() ? amount{} : r.cum_quote / r.executed_qty, 5);
    o["clientOrderId"] = s.client_order_id;
    o["cumQuote"] = r.cum_quote.str();
    o["executedQty"] = r.executed_qty.str();
    o["orderId"] = r.order_id;
    o["origQty"] = scaled_text(s.quantity, c.sz_scale);
    o["origType"] = s.orig_type.empty() ? s.type : s.orig_type;
    o["price"] = s.price.is_zero() ? std::string("0") : scaled_text(s.price, c.px_scale);
    o["reduceOnly"] = s.reduce_only;
    o["side"] = side_text(s.is_buy);
    o["positionSide"] = "BOTH";
    o["status"] = r.status;
    // A trailing order's stopPrice has no meaning upstream (beta.md §4.3): the mock shows the
    // activation price there.
    amount const stop = trailing ? s.activation_price.value_or(amount{}) : s.stop_price;
    o["stopPrice"] = stop.is_zero() ? std::string("0") : scaled_text(stop, c.px_scale);
    o["closePosition"] = s.close_position;
    o["symbol"] = s.symbol;
    o["time"] = r.time;
    o["timeInForce"] = s.time_in_force;
    o["type"] = s.type;
    if (trailing) {
        if (s.activation_price)
            o["activatePrice"] = scaled_text(*s.activation_price, c.px_scale);
        o["priceRate"] = s.callback_rate.value_or(amount{}).str();
    }
    o["updateTime"] = r.update_time;
    o["workingType"] = s.working_type;
    o["priceProtect"] = s.price_protect;
    return o;
}

json::object user_trade_json(fill_record const& f, contract const& c) {
    json::object o;
    o["buyer"] = f.is_buy;
    o["commission"] = decimal_text(f.commission, usdt);
    o["commissionAsset"] = f.commission_asset;
    o["id"] = f.id;
    o["maker"] = f.maker;
    o["orderId"] = f.order_id;
    o["price"] = scaled_text(f.price, c.px_scale);
    o["qty"] = scaled_text(f.qty, c.sz_scale);
    o["quoteQty"] = f.quote_qty.str();
    o["realizedPnl"] = decimal_text(f.realized_pnl, usdt);
    o["side"] = side_text(f.is_buy);
    o["positionSide"] = "BOTH";
    o["symbol"] = f.symbol;
    o["time"] = f.time;
    return o;
}

json::object income_json(income_record const& r) {
    json::object o;
    o["symbol"] = r.symbol;
    o["incomeType"] = r.type;
    o["income"] = decimal_text(r.income, usdt);
    o["asset"] = r.asset;
    o["info"] = r.info;
    o["time"] = r.time;
    o["tranId"] = r.tran_id;
    o["tradeId"] = r.trade_id;
    return o;
}

json::object spot_account_json(std::vector<std::pair<std::string, spot_holding>> const& balances) {
    json::array list;
    for (auto const& [asset, h] : balances) {
        json::object b;
        b["asset"] = asset;
        b["free"] = decimal_text(h.free, usdt);
        b["locked"] = decimal_text(h.locked, usdt);
        list.push_back(std::move(b));
    }
    json::object o;
    o["feeTier"] = 0;
    o["canTrade"] = true;
    o["canDeposit"] = true;
    o["canWithdraw"] = true;
    o["canBurnAsset"] = false;
    o["updateTime"] = 0;
    o["balances"] = std::move(list);
    return o;
}

json::object mock_account_json(ledger const& l, market_state const& markets,
                               std::string const& address) {
    auto const v = l.futures(address, marks_of(markets));
    json::array positions;
    for (auto const& p : v.positions)
        if (!p.amt.is_zero())
            positions.push_back(position_risk_json(p));
    json::array orders;
    for (auto const& o : l.open_orders(address))
        if (auto const* c = l.find(o.spec.symbol))
            orders.push_back(open_order_json(o, *c));
    json::array fills;
    for (auto const& f : l.fills(address))
        if (auto const* c = l.find(f.symbol))
            fills.push_back(user_trade_json(f, *c));
    json::array income;
    for (auto const& r : l.income(address))
        income.push_back(income_json(r));
    json::array agents;
    for (auto const& a : l.agents(address))
        agents.push_back(json::string(a));
    json::object o;
    o["address"] = address;
    o["account"] = account_json(v);
    o["balance"] = balance_json(v, address);
    o["positions"] = std::move(positions);
    o["openOrders"] = std::move(orders);
    o["userTrades"] = std::move(fills);
    o["income"] = std::move(income);
    o["spot"] = spot_account_json(l.spot(address));
    o["agents"] = std::move(agents);
    return o;
}

std::optional<net::response> accounts_control(net::request const& req, ledger& l,
                                              market_state const& markets) {
    auto const path = split_target(req.target()).path;
    unsigned const v = req.version();
    if (path == accounts_path) {
        if (req.method() != http::verb::post)
            return control_not_allowed("POST", v);
        std::string why;
        auto body = parse_control_object(req, why);
        if (!body)
            return control_error(http::status::bad_request, why, v);
        std::int64_t const now = now_ms();
        auto const seed = parse_seed(*body, l, now, why);
        if (!seed)
            return control_error(http::status::bad_request, why, v);
        apply_seed(*seed, l, now);
        return json_response(http::status::ok, mock_account_json(l, markets, seed->address), v);
    }
    std::string const prefix = std::string(accounts_path) + "/";
    if (path.rfind(prefix, 0) != 0)
        return std::nullopt;
    if (req.method() != http::verb::get)
        return control_not_allowed("GET", v);
    auto const address = ledger::normalize_address(path.substr(prefix.size()));
    if (!address)
        return control_error(http::status::bad_request,
                             "The address must be 0x followed by 40 hex digits.", v);
    if (!l.known(*address))
        return control_error(http::status::not_found, "Unknown account " + *address + ".", v);
    return json_response(http::status::ok, mock_account_json(l, markets, *address), v);
}

std::optional<net::response> agents_control(net::request const& req, ledger& l) {
    if (split_target(req.target()).path != agents_path)
        return std::nullopt;
    unsigned const v = req.version();
    bool const approve = req.method() == http::verb::post;
    if (!approve && req.method() != http::verb::delete_)
        return control_not_allowed("POST, DELETE", v);
    std::string why;
    auto body = parse_control_object(req, why);
    if (!body)
        return control_error(http::status::bad_request, why, v);
    if (!only_fields(*body, {"user", "signer"}, "The body", why))
        return control_error(http::status::bad_request, why, v);
    auto const user = address_field(*body, "user", "The body", why);
    auto const signer = user ? address_field(*body, "signer", "The body", why) : std::nullopt;
    if (!signer)
        return control_error(http::status::bad_request, why, v);
    if (*user == *signer)
        return control_error(http::status::bad_request,
                             "An account always signs for itself; 'signer' must be another "
                             "address.",
                             v);
    if (approve)
        l.add_agent(*user, *signer);
    else
        l.remove_agent(*user, *signer);
    json::array agents;
    for (auto const& a : l.agents(*user))
        agents.push_back(json::string(a));
    json::object o;
    o["user"] = *user;
    o["agents"] = std::move(agents);
    return json_response(http::status::ok, o, v);
}

} // namespace gateway::mocks::beta
