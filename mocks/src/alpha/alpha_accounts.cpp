#include "alpha_accounts.hpp"

#include "../common/control.hpp"
#include "../common/http_util.hpp"

#include <algorithm>
#include <limits>
#include <set>

namespace gateway::mocks::alpha {

namespace {

namespace json = boost::json;

constexpr unsigned usd = 6;      // USD amounts on the wire
constexpr unsigned ratio = 10;   // returnOnEquity, liquidationPx
constexpr unsigned spot_ntl = 8; // spot entryNtl
constexpr std::string_view accounts_path = "/__mock/accounts";
constexpr std::int64_t max_credit_units = 1'000'000'000'000; // 10^12 per token
constexpr std::int64_t max_price_units = 1'000'000'000;      // 10^9
constexpr std::int64_t max_size_units = 1'000'000'000;       // 10^9

json::object summary_json(margin_summary const& s) {
    json::object o;
    o["accountValue"] = s.account_value.hl(usd);
    o["totalNtlPos"] = s.total_ntl_pos.hl(usd);
    o["totalRawUsd"] = s.total_raw_usd.hl(usd);
    o["totalMarginUsed"] = s.total_margin_used.hl(usd);
    return o;
}

char const* side_code(bool is_buy) {
    return is_buy ? "B" : "A";
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

/// A decimal field: a string (or an integer) with at most `max_decimals` fraction digits and
/// a magnitude below `max_units`; `what` names it in the error sentence.
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

std::string join(std::vector<std::string> const& items) {
    std::string list;
    for (auto const& t : items)
        list += (list.empty() ? "" : ", ") + t;
    return list;
}

struct seed_balance {
    std::string token;
    amount amt;
    bool spot;
};

struct seed_position {
    instrument ins;
    amount size; ///< signed
    amount entry;
    leverage_setting lev;
};

struct account_seed {
    std::string address;
    std::vector<seed_balance> balances;
    std::vector<seed_position> positions;
    std::vector<order_spec> orders;
    std::vector<agent_record> agents;
};

bool parse_balances(json::object const& body, std::string_view key, bool spot, ledger const& l,
                    account_seed& out, errors& why) {
    auto const* v = body.if_contains(key);
    if (!v)
        return true;
    if (!v->is_object()) {
        why = "'" + std::string(key) + "' must be an object of token -> amount.";
        return false;
    }
    for (auto const& kv : v->get_object()) {
        std::string const token(kv.key());
        auto const& tokens = l.tokens();
        if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) {
            why = "Unknown token '" + token + "' in '" + std::string(key) + "'; expected one of " +
                  join(tokens) + ".";
            return false;
        }
        auto const a =
            decimal_field(kv.value(), std::string(key) + "." + token, 8, max_credit_units, why);
        if (!a)
            return false;
        if (a->is_negative()) {
            why = "'" + std::string(key) + "." + token + "' must not be negative.";
            return false;
        }
        out.balances.push_back({token, *a, spot});
    }
    return true;
}

unsigned size_decimals(market_state const& markets, std::string const& coin) {
    auto const i = markets.find(coin);
    return i ? markets.spec(*i).sz_scale : 0;
}

std::optional<std::int64_t> integer_of(json::value const& v) {
    if (v.is_int64())
        return v.get_int64();
    if (v.is_uint64())
        return static_cast<std::int64_t>(std::min<std::uint64_t>(
            v.get_uint64(), static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
    return std::nullopt;
}

bool parse_position(json::value const& item, std::string const& where, ledger const& l,
                    market_state const& markets, std::string const& address,
                    std::set<std::string>& seen, account_seed& out, errors& why) {
    if (!item.is_object()) {
        why = where + " must be an object.";
        return false;
    }
    auto const& o = item.get_object();
    if (!only_fields(o, {"symbol", "size", "entryPrice", "leverage", "marginMode"}, where, why))
        return false;
    auto const symbol = string_field(o, "symbol", where, true, why);
    if (!symbol)
        return false;
    auto const ins = l.find(*symbol);
    if (!ins || ins->spot) {
        why = where + ": '" + *symbol +
              "' is not a perp (positions are perps only, e.g. BTC or xyz:TSLA).";
        return false;
    }
    if (!seen.insert(*symbol).second) {
        why = where + ": '" + *symbol + "' appears twice.";
        return false;
    }
    auto const* size_v = o.if_contains("size");
    auto const* px_v = o.if_contains("entryPrice");
    if (!size_v || !px_v) {
        why = where + ": 'size' and 'entryPrice' are required.";
        return false;
    }
    auto const size = decimal_field(*size_v, where + ".size", size_decimals(markets, *symbol),
                                    max_size_units, why);
    if (!size)
        return false;
    if (size->is_zero()) {
        why = where + ": 'size' must not be zero (signed: negative is short).";
        return false;
    }
    auto const entry = decimal_field(*px_v, where + ".entryPrice", 8, max_price_units, why);
    if (!entry)
        return false;
    if (entry->sign() <= 0) {
        why = where + ": 'entryPrice' must be positive.";
        return false;
    }
    leverage_setting lev = l.leverage_of(address, *symbol);
    if (auto const* lv = o.if_contains("leverage")) {
        auto const n = integer_of(*lv);
        if (!n || *n < 1 || *n > static_cast<std::int64_t>(ins->max_leverage)) {
            why = where + ": 'leverage' must be an integer from 1 to " +
                  std::to_string(ins->max_leverage) + " for " + *symbol + ".";
            return false;
        }
        lev.value = static_cast<unsigned>(*n);
    }
    auto const mode = string_field(o, "marginMode", where, false, why);
    if (!mode)
        return false;
    if (*mode == "cross") {
        lev.mode = margin_mode::cross;
    } else if (*mode == "isolated") {
        lev.mode = margin_mode::isolated;
    } else if (!mode->empty()) {
        why = where + ": 'marginMode' must be \"cross\" or \"isolated\".";
        return false;
    }
    if (ins->only_isolated && lev.mode == margin_mode::cross) {
        why = where + ": " + *symbol + " is isolated-only.";
        return false;
    }
    for (auto const& p : l.positions(address))
        if (p.coin == *symbol && p.leverage.mode != lev.mode) {
            why = where + ": the open " + *symbol + " position has another margin mode.";
            return false;
        }
    out.positions.push_back({*ins, *size, *entry, lev});
    return true;
}

std::optional<std::string> cloid_of(std::string const& text) {
    if (text.size() != 34 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return std::nullopt;
    std::string lower = "0x";
    for (std::size_t i = 2; i < text.size(); ++i) {
        char const c = text[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return std::nullopt;
        lower.push_back(c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c);
    }
    return lower;
}

bool parse_order(json::value const& item, std::string const& where, ledger const& l,
                 market_state const& markets, std::int64_t now, std::set<std::string>& cloids,
                 account_seed& out, errors& why) {
    if (!item.is_object()) {
        why = where + " must be an object.";
        return false;
    }
    auto const& o = item.get_object();
    if (!only_fields(o,
                     {"symbol", "side", "price", "size", "reduceOnly", "triggerPrice",
                      "clientOrderId", "type"},
                     where, why))
        return false;
    auto const symbol = string_field(o, "symbol", where, true, why);
    auto const side = symbol ? string_field(o, "side", where, true, why) : std::nullopt;
    auto const type_text = side ? string_field(o, "type", where, false, why) : std::nullopt;
    if (!type_text)
        return false;
    auto const ins = l.find(*symbol);
    if (!ins) {
        why = where + ": unknown symbol '" + *symbol + "'.";
        return false;
    }
    if (*side != "buy" && *side != "sell") {
        why = where + ": 'side' must be \"buy\" or \"sell\".";
        return false;
    }
    std::string const type = type_text->empty() ? std::string("limit") : *type_text;
    bool const stop = type == "stop_market" || type == "stop_limit";
    bool const take = type == "take_profit_market" || type == "take_profit_limit";
    bool const market = type == "stop_market" || type == "take_profit_market";
    if (type != "limit" && !stop && !take) {
        why = where + ": 'type' must be limit, stop_market, stop_limit, take_profit_market or "
                      "take_profit_limit.";
        return false;
    }
    order_spec spec;
    spec.coin = ins->coin;
    spec.is_buy = *side == "buy";
    spec.timestamp = now;
    auto const* size_v = o.if_contains("size");
    if (!size_v) {
        why = where + ": 'size' is required.";
        return false;
    }
    auto const size = decimal_field(*size_v, where + ".size", size_decimals(markets, *symbol),
                                    max_size_units, why);
    if (!size)
        return false;
    if (size->sign() <= 0) {
        why = where + ": 'size' must be positive.";
        return false;
    }
    spec.sz = *size;
    std::optional<amount> price, trigger;
    if (auto const* p = o.if_contains("price"); p && !p->is_null()) {
        price = decimal_field(*p, where + ".price", 8, max_price_units, why);
        if (!price)
            return false;
    }
    if (auto const* t = o.if_contains("triggerPrice"); t && !t->is_null()) {
        trigger = decimal_field(*t, where + ".triggerPrice", 8, max_price_units, why);
        if (!trigger)
            return false;
    }
    if ((price && price->sign() <= 0) || (trigger && trigger->sign() <= 0)) {
        why = where + ": prices must be positive.";
        return false;
    }
    if (!market && !price) {
        why = where + ": 'price' is required for a " + type + " order.";
        return false;
    }
    if ((stop || take) && !trigger) {
        why = where + ": 'triggerPrice' is required for a " + type + " order.";
        return false;
    }
    if (type == "limit" && trigger) {
        why = where + ": a limit order takes no 'triggerPrice'.";
        return false;
    }
    if (auto const* r = o.if_contains("reduceOnly"); r && !r->is_null()) {
        if (!r->is_bool()) {
            why = where + ": 'reduceOnly' must be a boolean.";
            return false;
        }
        spec.reduce_only = r->get_bool();
    }
    if (ins->spot && (spec.reduce_only || type != "limit")) {
        why = where + ": spot orders are plain limit orders.";
        return false;
    }
    auto const cloid_text = string_field(o, "clientOrderId", where, false, why);
    if (!cloid_text)
        return false;
    if (!cloid_text->empty()) {
        auto const cloid = cloid_of(*cloid_text);
        if (!cloid) {
            why = where + ": 'clientOrderId' must be 0x followed by 32 hex digits.";
            return false;
        }
        if (!cloids.insert(*cloid).second) {
            why = where + ": 'clientOrderId' " + *cloid + " is already used by an open order.";
            return false;
        }
        spec.cloid = *cloid;
    }
    spec.limit_px = price ? *price : trigger.value_or(amount{});
    if (type == "limit") {
        spec.order_type = "Limit";
        spec.tif = "Gtc";
    } else {
        spec.order_type = type == "stop_market"          ? "Stop Market"
                          : type == "stop_limit"         ? "Stop Limit"
                          : type == "take_profit_market" ? "Take Profit Market"
                                                         : "Take Profit Limit";
        spec.tif = std::nullopt;
        spec.is_trigger = true;
        spec.trigger_px = *trigger;
        // A stop fires when the price moves against the order's side, a take-profit when it
        // moves in favour (fixtures: Stop Market sell "Price below", TP Market sell "above").
        bool const above = stop ? spec.is_buy : !spec.is_buy;
        spec.trigger_condition =
            std::string(above ? "Price above " : "Price below ") + trigger->str();
    }
    out.orders.push_back(std::move(spec));
    return true;
}

bool parse_agent(json::value const& item, std::string const& where, account_seed& out,
                 errors& why) {
    if (!item.is_object()) {
        why = where + " must be an object.";
        return false;
    }
    auto const& o = item.get_object();
    if (!only_fields(o, {"address", "name", "validUntil"}, where, why))
        return false;
    agent_record a;
    auto const address = address_field(o, "address", where, why);
    auto const name = address ? string_field(o, "name", where, false, why) : std::nullopt;
    if (!name)
        return false;
    if (*address == out.address) {
        why = where + ": an account cannot be its own agent.";
        return false;
    }
    a.address = *address;
    a.name = *name;
    if (auto const* u = o.if_contains("validUntil"); u && !u->is_null()) {
        auto const t = integer_of(*u);
        if (!t || *t < 0) {
            why = where + ": 'validUntil' must be a time in ms or null.";
            return false;
        }
        a.valid_until = *t;
    }
    out.agents.push_back(std::move(a));
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

std::optional<account_seed> parse_seed(json::object const& body, ledger const& l,
                                       market_state const& markets, std::int64_t now, errors& why) {
    if (!only_fields(body, {"address", "balances", "spotBalances", "positions", "orders", "agents"},
                     "The body", why))
        return std::nullopt;
    account_seed s;
    auto address = address_field(body, "address", "The body", why);
    if (!address)
        return std::nullopt;
    s.address = std::move(*address);
    std::set<std::string> seen_positions;
    std::set<std::string> cloids;
    for (auto const& o : l.open_orders(s.address))
        if (o.spec.cloid)
            cloids.insert(*o.spec.cloid);
    bool const ok =
        parse_balances(body, "balances", false, l, s, why) &&
        parse_balances(body, "spotBalances", true, l, s, why) &&
        each(body, "agents", why,
             [&](json::value const& v, std::string const& w) {
                 return parse_agent(v, w, s, why);
             }) &&
        each(body, "positions", why,
             [&](json::value const& v, std::string const& w) {
                 return parse_position(v, w, l, markets, s.address, seen_positions, s, why);
             }) &&
        each(body, "orders", why, [&](json::value const& v, std::string const& w) {
            return parse_order(v, w, l, markets, now, cloids, s, why);
        });
    if (!ok)
        return std::nullopt;
    return s;
}

void apply_seed(account_seed const& s, ledger& l, std::int64_t now) {
    // `balances`: every asset to its spot balance, and USDC to the perps collateral as well,
    // so one call lets the address trade both (CONTRACT §10); `spotBalances`: spot only.
    for (auto const& b : s.balances) {
        if (b.spot || b.token == "USDC")
            l.credit_spot(s.address, b.token, b.amt);
        if (!b.spot)
            l.credit(s.address, b.token, b.amt);
    }
    for (auto const& a : s.agents)
        l.add_agent(s.address, a);
    for (auto const& p : s.positions) {
        l.set_leverage(s.address, p.ins.coin, p.lev);
        fill_event e;
        e.coin = p.ins.coin;
        e.is_buy = p.size.sign() > 0;
        e.px = p.entry;
        e.sz = p.size.abs();
        e.time_ms = now;
        e.oid = l.next_oid();
        e.crossed = true;
        e.fee = (e.px * e.sz).times(perps_taker_fee_ppm).over(1'000'000).rounded(usd);
        e.leverage = p.lev;
        l.apply_fill(s.address, e);
        // The order that opened it, filled at once (visible to orderStatus).
        order_record r;
        r.oid = e.oid;
        r.spec.coin = e.coin;
        r.spec.is_buy = e.is_buy;
        r.spec.limit_px = e.px;
        r.spec.sz = e.sz;
        r.spec.timestamp = now;
        r.spec.tif = "Ioc";
        l.record_order(s.address, std::move(r), "filled", now);
    }
    for (auto const& o : s.orders)
        l.add_order(s.address, o);
    if (s.balances.empty() && s.positions.empty() && s.orders.empty() && s.agents.empty())
        l.credit(s.address, "USDC", amount{}); // an empty seed still creates the account
}

} // namespace

ledger::mark_fn marks_of(market_state const& markets) {
    return [&markets](std::string const& coin) -> std::optional<amount> {
        auto const i = markets.find(coin);
        if (!i || markets.spec(*i).symbol != coin)
            return std::nullopt;
        return amount::from_scaled(markets.mark(*i), markets.spec(*i).px_scale);
    };
}

json::object clearinghouse_json(perp_view const& v, std::int64_t time_ms) {
    json::array positions;
    for (auto const& p : v.positions) {
        json::object lev;
        lev["type"] = p.leverage.mode == margin_mode::cross ? "cross" : "isolated";
        lev["value"] = p.leverage.value;
        if (p.raw_usd)
            lev["rawUsd"] = p.raw_usd->hl(usd);
        json::object cum;
        cum["allTime"] = "0.0";
        cum["sinceOpen"] = "0.0";
        cum["sinceChange"] = "0.0";
        json::object pos;
        pos["coin"] = p.coin;
        pos["szi"] = p.szi.hl();
        pos["leverage"] = std::move(lev);
        pos["entryPx"] = p.entry_px.hl();
        pos["positionValue"] = p.position_value.hl(usd);
        pos["unrealizedPnl"] = p.unrealized_pnl.hl(usd);
        pos["returnOnEquity"] = p.return_on_equity.hl(ratio);
        if (p.liquidation_px)
            pos["liquidationPx"] = p.liquidation_px->hl(ratio);
        else
            pos["liquidationPx"] = nullptr;
        pos["marginUsed"] = p.margin_used.hl(usd);
        pos["maxLeverage"] = p.max_leverage;
        pos["cumFunding"] = std::move(cum);
        json::object entry;
        entry["type"] = "oneWay";
        entry["position"] = std::move(pos);
        positions.push_back(std::move(entry));
    }
    json::object o;
    o["marginSummary"] = summary_json(v.all);
    o["crossMarginSummary"] = summary_json(v.cross);
    o["crossMaintenanceMarginUsed"] = v.cross_maintenance_margin_used.hl(usd);
    o["withdrawable"] = v.withdrawable.hl(usd);
    o["assetPositions"] = std::move(positions);
    o["time"] = time_ms;
    return o;
}

json::object spot_clearinghouse_json(std::vector<spot_balance_view> const& balances) {
    json::array out;
    for (auto const& b : balances) {
        json::object o;
        o["coin"] = b.coin;
        o["token"] = b.token;
        o["hold"] = b.hold.hl();
        o["total"] = b.total.hl();
        o["entryNtl"] = b.entry_ntl.hl(spot_ntl);
        out.push_back(std::move(o));
    }
    json::object o;
    o["balances"] = std::move(out);
    return o;
}

json::object open_order_json(order_record const& r) {
    json::object o;
    o["coin"] = r.spec.coin;
    o["side"] = side_code(r.spec.is_buy);
    o["limitPx"] = r.spec.limit_px.hl();
    o["sz"] = r.sz.hl();
    o["oid"] = r.oid;
    o["timestamp"] = r.spec.timestamp;
    o["origSz"] = r.spec.sz.hl();
    if (r.spec.cloid)
        o["cloid"] = *r.spec.cloid;
    if (r.spec.reduce_only)
        o["reduceOnly"] = true;
    return o;
}

json::object frontend_order_json(order_record const& r) {
    json::object o;
    o["coin"] = r.spec.coin;
    o["side"] = side_code(r.spec.is_buy);
    o["limitPx"] = r.spec.limit_px.hl();
    o["sz"] = r.sz.hl();
    o["oid"] = r.oid;
    o["timestamp"] = r.spec.timestamp;
    o["triggerCondition"] = r.spec.trigger_condition;
    o["isTrigger"] = r.spec.is_trigger;
    o["triggerPx"] = r.spec.trigger_px.hl();
    o["children"] = json::array{};
    o["isPositionTpsl"] = r.spec.is_position_tpsl;
    o["reduceOnly"] = r.spec.reduce_only;
    o["orderType"] = r.spec.order_type;
    o["origSz"] = r.spec.sz.hl();
    if (r.spec.tif)
        o["tif"] = *r.spec.tif;
    else
        o["tif"] = nullptr;
    if (r.spec.cloid)
        o["cloid"] = *r.spec.cloid;
    else
        o["cloid"] = nullptr;
    return o;
}

json::object fill_json(fill_record const& f) {
    json::object o;
    o["coin"] = f.coin;
    o["px"] = f.px.hl();
    o["sz"] = f.sz.hl();
    o["side"] = side_code(f.is_buy);
    o["time"] = f.time;
    o["startPosition"] = f.start_position.hl();
    o["dir"] = f.dir;
    o["closedPnl"] = f.closed_pnl.hl(usd);
    o["hash"] = f.hash;
    o["oid"] = f.oid;
    o["crossed"] = f.crossed;
    o["fee"] = f.fee.hl(usd);
    o["tid"] = f.tid;
    if (f.cloid)
        o["cloid"] = *f.cloid;
    o["feeToken"] = f.fee_token;
    if (!f.builder_fee.is_zero()) // alpha.md §3.8: omitted when 0
        o["builderFee"] = f.builder_fee.hl(usd);
    o["twapId"] = nullptr;
    return o;
}

json::object order_status_json(order_status_record const& r) {
    json::object o;
    o["order"] = frontend_order_json(r.order);
    o["status"] = r.status;
    o["statusTimestamp"] = r.status_timestamp;
    return o;
}

json::array agents_json(std::vector<agent_record> const& agents) {
    json::array out;
    for (auto const& a : agents) {
        json::object o;
        o["name"] = a.name;
        o["address"] = a.address;
        if (a.valid_until)
            o["validUntil"] = *a.valid_until;
        else
            o["validUntil"] = nullptr;
        out.push_back(std::move(o));
    }
    return out;
}

json::object role_json(role_view const& r) {
    json::object o;
    o["role"] = r.role;
    if (r.role == "agent") {
        json::object d;
        d["user"] = r.master;
        o["data"] = std::move(d);
    }
    return o;
}

json::object rate_limit_json(rate_view const& r) {
    json::object o;
    o["cumVlm"] = r.cum_vlm.hl(usd);
    o["nRequestsUsed"] = r.requests_used;
    o["nRequestsCap"] = r.requests_cap;
    o["nRequestsSurplus"] = 0;
    return o;
}

json::object account_json(ledger const& l, market_state const& markets, std::string const& address,
                          std::vector<std::string> const& dexes) {
    std::int64_t const now = now_ms();
    auto const marks = marks_of(markets);
    json::object perps;
    for (auto const& d : dexes)
        perps[d] = clearinghouse_json(l.perp_state(address, d, marks), now);
    json::array orders;
    for (auto const& o : l.open_orders(address))
        orders.push_back(frontend_order_json(o));
    json::array fills;
    for (auto const& f : l.fills(address))
        fills.push_back(fill_json(f));
    json::object o;
    o["address"] = address;
    o["role"] = role_json(l.role(address));
    o["perps"] = std::move(perps);
    o["spot"] = spot_clearinghouse_json(l.spot_state(address));
    o["openOrders"] = std::move(orders);
    o["fills"] = std::move(fills);
    o["agents"] = agents_json(l.extra_agents(address));
    return o;
}

std::optional<net::response> accounts_control(net::request const& req, ledger& l,
                                              market_state const& markets,
                                              std::vector<std::string> const& dexes) {
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
        auto const seed = parse_seed(*body, l, markets, now, why);
        if (!seed)
            return control_error(http::status::bad_request, why, v);
        apply_seed(*seed, l, now);
        return json_response(http::status::ok, account_json(l, markets, seed->address, dexes), v);
    }
    std::string const prefix = std::string(accounts_path) + "/";
    if (path.rfind(prefix, 0) != 0)
        return std::nullopt;
    if (req.method() != http::verb::get)
        return control_not_allowed("GET", v);
    auto const text = path.substr(prefix.size());
    auto const address = ledger::normalize_address(text);
    if (!address)
        return control_error(http::status::bad_request,
                             "The address must be 0x followed by 40 hex digits.", v);
    if (!l.known(*address))
        return control_error(http::status::not_found, "Unknown account " + *address + ".", v);
    return json_response(http::status::ok, account_json(l, markets, *address, dexes), v);
}

} // namespace gateway::mocks::alpha
