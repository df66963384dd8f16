#include "alpha_exchange.hpp"

#include "alpha_accounts.hpp"

#include "../common/http_util.hpp"

#include <gateway/providers/alpha/signing.hpp>
#include <gateway/types/address.hpp>

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <limits>
#include <string_view>

namespace gateway::mocks::alpha {

namespace json = boost::json;
namespace sa = gateway::sign::alpha;

namespace detail {

struct parsed_order {
    std::uint32_t a = 0;
    bool b = true;
    std::string p;
    std::string s;
    bool r = false;
    bool trigger = false;
    std::string tif; ///< Gtc, Ioc, Alo, FrontendMarket (limit orders)
    bool is_market = false;
    std::string trigger_px;
    bool tp = false;
    std::optional<std::string> cloid; ///< lowercase
};

struct cancel_item {
    std::uint32_t asset = 0;
    std::uint64_t oid = 0;
    std::optional<std::string> cloid; ///< cancelByCloid
};

struct parsed_action {
    std::string type;
    json::object canonical; ///< what the signature covers (alpha.md §5.2 key order)
    std::vector<parsed_order> orders;
    bool grouping_na = true;
    std::string grouping;
    std::vector<cancel_item> cancels;
    std::optional<std::string> builder; ///< order: `builder.b`, lowercase
    std::uint64_t builder_fee = 0;      ///< order: `builder.f`, tenths of a basis point
    std::uint32_t asset = 0;
    bool is_cross = false;
    std::uint64_t leverage = 0;
};

} // namespace detail

namespace {

using detail::parsed_action;
using detail::parsed_order;

// ---------------------------------------------------------------------------------------------
// Texts (alpha.md §4.6; the ones marked "mock" are UNCONFIRMED upstream, see mocks/README.md)

constexpr std::string_view tick_text = "Price must be divisible by tick size.";
constexpr std::string_view invalid_price_text = "Order has invalid price.";
constexpr std::string_view invalid_size_text = "Order has invalid size.";
constexpr std::string_view zero_size_text = "Order has zero size.";
constexpr std::string_view min_perp_text = "Order must have minimum value of $10.";
constexpr std::string_view margin_text = "Insufficient margin to place order.";
constexpr std::string_view reduce_only_text = "Reduce only order would increase position.";
constexpr std::string_view ioc_text =
    "Order could not immediately match against any resting orders.";
constexpr std::string_view spot_balance_text = "Order has insufficient spot balance to trade";
constexpr std::string_view bad_trigger_text = "Invalid TP/SL price.";
constexpr std::string_view missing_order_text =
    "Order was never placed, already canceled, or filled.";
constexpr std::string_view unrecoverable_text = "Unable to recover signer.";
// mock texts
constexpr std::string_view invalid_asset_text = "Order has invalid asset.";
constexpr std::string_view spot_trigger_text = "Trigger orders are not supported on spot.";
constexpr std::string_view invalid_leverage_text = "Invalid leverage value";
constexpr std::string_view cross_not_allowed_text = "Cross margin is not allowed for this asset.";
constexpr std::string_view leverage_asset_text = "Invalid asset.";
constexpr std::string_view grouping_text = "Unsupported grouping: the mock implements only \"na\".";
constexpr std::string_view empty_batch_text = "Order batch is empty.";
constexpr std::string_view expired_text = "Action already expired";
constexpr std::string_view vault_text =
    "Vault and sub-account actions are not supported by the mock.";
// Builder codes ("Builder fee has not been approved." and the insufficient balance text are
// what clients quote from the upstream; the fee rate text is the mock's)
constexpr std::string_view builder_not_approved_text = "Builder fee has not been approved.";
constexpr std::string_view builder_balance_text =
    "Builder has insufficient balance to be approved.";

/// Builder codes: the approved maximum is at most 1% (spot's cap; perps cap 0.1%), a builder
/// must hold 100 USDC of perps account value to be approved.
constexpr std::uint64_t max_builder_fee_tenths = 1000;
constexpr std::int64_t builder_minimum_usd = 100;
/// Tenths of a basis point per unit: fee = notional * f / 100000.
constexpr std::int64_t tenths_bps_per_unit = 100'000;

constexpr std::int64_t ppm = 1'000'000;

/// Known upstream action types the mock does not implement (answered with an err), each
/// surrounded by spaces.
constexpr std::string_view unimplemented_types =
    " modify batchModify scheduleCancel updateIsolatedMargin usdSend spotSend "
    "withdraw3 usdClassTransfer sendAsset twapOrder twapCancel "
    "setReferrer createSubAccount subAccountTransfer subAccountSpotTransfer "
    "vaultTransfer tokenDelegate noop evmUserModify cDeposit cWithdraw "
    "topUpIsolatedOnlyMargin createVault ";

json::object ok_response(std::string_view type, json::value data) {
    json::object r;
    r["type"] = type;
    r["data"] = std::move(data);
    json::object o;
    o["status"] = "ok";
    o["response"] = std::move(r);
    return o;
}

json::object ok_default() {
    json::object r;
    r["type"] = "default";
    json::object o;
    o["status"] = "ok";
    o["response"] = std::move(r);
    return o;
}

exchange_reply err(std::string_view text) {
    json::object o;
    o["status"] = "err";
    o["response"] = text;
    return {json::value(std::move(o)), {}};
}

exchange_reply bad(std::string why) {
    return {std::nullopt, std::move(why)};
}

json::value order_error(std::string_view text) {
    json::object o;
    o["error"] = text;
    return o;
}

// ---------------------------------------------------------------------------------------------
// Numbers (alpha.md §5.5)

/// A plain decimal `digits(.digits)?`, normalized (no leading zeros, no trailing zeros).
struct plain_number {
    std::string text;
    unsigned decimals = 0;
    unsigned sig_digits = 0;
    bool zero = true;
};

bool all_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<plain_number> plain(std::string_view s) {
    auto const dot = s.find('.');
    std::string_view int_part = s.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
    if (!all_digits(int_part) || (dot != std::string_view::npos && !all_digits(frac)))
        return std::nullopt;
    while (!frac.empty() && frac.back() == '0')
        frac.remove_suffix(1);
    while (int_part.size() > 1 && int_part.front() == '0')
        int_part.remove_prefix(1);
    plain_number n;
    n.text = std::string(int_part);
    if (!frac.empty())
        n.text += "." + std::string(frac);
    n.decimals = static_cast<unsigned>(frac.size());
    std::string digits = std::string(int_part) + std::string(frac);
    auto const nz = digits.find_first_not_of('0');
    n.zero = nz == std::string::npos;
    n.sig_digits = n.zero ? 0 : static_cast<unsigned>(digits.size() - nz);
    return n;
}

/// The text the signature covers: the normalized number when it is one, else as sent.
std::string wire_number(std::string_view s) {
    if (auto n = plain(s))
        return n->text;
    return std::string(s);
}

struct checked {
    std::optional<amount> value;
    std::string_view error;
};

checked check_price(std::string_view text, asset_info const& ai, std::string_view invalid) {
    auto const n = plain(text);
    if (!n || n->zero)
        return {std::nullopt, invalid};
    auto const v = amount::parse(n->text);
    if (!v)
        return {std::nullopt, invalid};
    int const max_dec = std::max(0, (ai.spot ? 8 : 6) - static_cast<int>(ai.sz_decimals));
    if (static_cast<int>(n->decimals) > max_dec || (n->decimals > 0 && n->sig_digits > 5))
        return {std::nullopt, tick_text};
    return {v, {}};
}

checked check_size(std::string_view text, asset_info const& ai) {
    auto const n = plain(text);
    if (!n)
        return {std::nullopt, invalid_size_text};
    if (n->zero)
        return {std::nullopt, zero_size_text};
    auto const v = amount::parse(n->text);
    if (!v || n->decimals > ai.sz_decimals)
        return {std::nullopt, invalid_size_text};
    return {v, {}};
}

// ---------------------------------------------------------------------------------------------
// Parsing (serde-like messages; any failure is a 422)

std::optional<std::uint64_t> uint_of(json::value const& v) {
    if (v.is_uint64())
        return v.get_uint64();
    if (v.is_int64() && v.get_int64() >= 0)
        return static_cast<std::uint64_t>(v.get_int64());
    return std::nullopt;
}

json::value const* field(json::object const& o, std::string_view key, std::string const& where,
                         std::string& why) {
    auto const* v = o.if_contains(key);
    if (!v)
        why = where + "missing field `" + std::string(key) + "`";
    return v;
}

std::optional<std::uint64_t>
uint_field(json::object const& o, std::string_view key, std::string const& where, std::string& why,
           std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    auto const* v = field(o, key, where, why);
    if (!v)
        return std::nullopt;
    auto const n = uint_of(*v);
    if (!n || *n > max) {
        why = where + std::string(key) + ": invalid type, expected an unsigned integer";
        return std::nullopt;
    }
    return n;
}

/// `key` of `o` when it has JSON kind `k`; else nullptr with serde's message in `why`.
json::value const* field_of_kind(json::object const& o, std::string_view key,
                                 std::string const& where, std::string& why, json::kind k,
                                 std::string_view expected) {
    auto const* v = field(o, key, where, why);
    if (v && v->kind() != k) {
        why = where + std::string(key) + ": invalid type, expected " + std::string(expected);
        return nullptr;
    }
    return v;
}

std::optional<bool> bool_field(json::object const& o, std::string_view key,
                               std::string const& where, std::string& why) {
    auto const* v = field_of_kind(o, key, where, why, json::kind::bool_, "a boolean");
    return v ? std::optional<bool>(v->get_bool()) : std::nullopt;
}

std::optional<std::string> string_field(json::object const& o, std::string_view key,
                                        std::string const& where, std::string& why) {
    auto const* v = field_of_kind(o, key, where, why, json::kind::string, "a string");
    return v ? std::optional<std::string>(v->get_string()) : std::nullopt;
}

json::object const* object_field(json::object const& o, std::string_view key,
                                 std::string const& where, std::string& why) {
    auto const* v = field_of_kind(o, key, where, why, json::kind::object, "a map");
    return v ? &v->get_object() : nullptr;
}

json::array const* array_field(json::object const& o, std::string_view key,
                               std::string const& where, std::string& why) {
    auto const* v = field_of_kind(o, key, where, why, json::kind::array, "a sequence");
    return v ? &v->get_array() : nullptr;
}

/// `0x` + 32 hex digits, lowercased.
std::optional<std::string> cloid_of(std::string_view text) {
    if (text.size() != 34 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return std::nullopt;
    std::string out = "0x";
    for (char c : text.substr(2)) {
        if (c >= 'A' && c <= 'F')
            c = static_cast<char>(c - 'A' + 'a');
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return std::nullopt;
        out.push_back(c);
    }
    return out;
}

bool parse_order_wire(json::value const& v, std::string const& where, parsed_order& o,
                      json::object& canon, std::string& why) {
    if (!v.is_object()) {
        why = where + "invalid type, expected struct OrderWire";
        return false;
    }
    auto const& w = v.get_object();
    auto const a = uint_field(w, "a", where, why, std::numeric_limits<std::uint32_t>::max());
    if (!a)
        return false;
    auto const b = bool_field(w, "b", where, why);
    if (!b)
        return false;
    auto p = string_field(w, "p", where, why);
    if (!p)
        return false;
    auto s = string_field(w, "s", where, why);
    if (!s)
        return false;
    auto const r = bool_field(w, "r", where, why);
    if (!r)
        return false;
    auto const* t = object_field(w, "t", where, why);
    if (!t)
        return false;
    o.a = static_cast<std::uint32_t>(*a);
    o.b = *b;
    o.p = std::move(*p);
    o.s = std::move(*s);
    o.r = *r;
    json::object tcanon;
    std::string const tw = where + "t.";
    if (t->size() != 1 || (!t->contains("limit") && !t->contains("trigger"))) {
        why = where + "t: expected exactly one of `limit`, `trigger`";
        return false;
    }
    if (auto const* l = t->if_contains("limit")) {
        if (!l->is_object()) {
            why = tw + "limit: invalid type, expected a map";
            return false;
        }
        auto tif = string_field(l->get_object(), "tif", tw + "limit.", why);
        if (!tif)
            return false;
        if (*tif != "Gtc" && *tif != "Ioc" && *tif != "Alo" && *tif != "FrontendMarket") {
            why = tw + "limit.tif: unknown variant `" + *tif +
                  "`, expected one of `Alo`, `Ioc`, `Gtc`, `FrontendMarket`";
            return false;
        }
        o.tif = *tif;
        json::object lim;
        lim["tif"] = *tif;
        tcanon["limit"] = std::move(lim);
    } else {
        auto const* tr = object_field(*t, "trigger", tw, why);
        if (!tr)
            return false;
        std::string const trw = tw + "trigger.";
        auto const is_market = bool_field(*tr, "isMarket", trw, why);
        if (!is_market)
            return false;
        auto tpx = string_field(*tr, "triggerPx", trw, why);
        if (!tpx)
            return false;
        auto const tpsl = string_field(*tr, "tpsl", trw, why);
        if (!tpsl)
            return false;
        if (*tpsl != "tp" && *tpsl != "sl") {
            why = trw + "tpsl: unknown variant `" + *tpsl + "`, expected `tp` or `sl`";
            return false;
        }
        o.trigger = true;
        o.is_market = *is_market;
        o.trigger_px = std::move(*tpx);
        o.tp = *tpsl == "tp";
        json::object trig;
        trig["isMarket"] = o.is_market;
        trig["triggerPx"] = wire_number(o.trigger_px);
        trig["tpsl"] = *tpsl;
        tcanon["trigger"] = std::move(trig);
    }
    if (auto const* c = w.if_contains("c"); c && !c->is_null()) {
        auto const cloid = c->is_string() ? cloid_of(c->get_string()) : std::nullopt;
        if (!cloid) {
            why = where + "c: invalid cloid, expected 0x followed by 32 hex digits";
            return false;
        }
        o.cloid = *cloid;
    }
    canon["a"] = o.a;
    canon["b"] = o.b;
    canon["p"] = wire_number(o.p);
    canon["s"] = wire_number(o.s);
    canon["r"] = o.r;
    canon["t"] = std::move(tcanon);
    if (o.cloid)
        canon["c"] = *o.cloid;
    return true;
}

/// The L1 actions the engine runs, parsed and re-encoded in canonical key order.
std::optional<parsed_action> parse_l1(json::object const& action, std::string const& type,
                                      std::string& why) {
    parsed_action out;
    out.type = type;
    std::string const where = "action.";
    auto& canon = out.canonical;
    canon["type"] = type;
    if (type == "order") {
        auto const* orders = array_field(action, "orders", where, why);
        if (!orders)
            return std::nullopt;
        json::array canon_orders;
        for (std::size_t k = 0; k < orders->size(); ++k) {
            parsed_order o;
            json::object c;
            if (!parse_order_wire((*orders)[k], where + "orders[" + std::to_string(k) + "].", o, c,
                                  why))
                return std::nullopt;
            out.orders.push_back(std::move(o));
            canon_orders.push_back(std::move(c));
        }
        auto const* g = field(action, "grouping", where, why);
        if (!g)
            return std::nullopt;
        if (g->is_string()) {
            std::string_view const gs = g->get_string();
            if (gs != "na" && gs != "normalTpsl" && gs != "positionTpsl") {
                why = where + "grouping: unknown variant `" + std::string(gs) +
                      "`, expected one of `na`, `normalTpsl`, `positionTpsl`";
                return std::nullopt;
            }
            out.grouping_na = gs == "na";
            out.grouping = std::string(gs);
        } else if (g->is_object()) {
            out.grouping_na = false;
        } else {
            why = where + "grouping: invalid type, expected a string";
            return std::nullopt;
        }
        canon["orders"] = std::move(canon_orders);
        canon["grouping"] = *g;
        if (auto const* bv = action.if_contains("builder"); bv && !bv->is_null()) {
            if (!bv->is_object()) {
                why = where + "builder: invalid type, expected a map";
                return std::nullopt;
            }
            auto const bb = string_field(bv->get_object(), "b", where + "builder.", why);
            if (!bb)
                return std::nullopt;
            auto const ba = ledger::normalize_address(*bb);
            auto const bf = uint_field(bv->get_object(), "f", where + "builder.", why);
            if (!ba || !bf) {
                if (!ba)
                    why = where + "builder.b: invalid address";
                return std::nullopt;
            }
            json::object builder;
            builder["b"] = *ba;
            builder["f"] = *bf;
            canon["builder"] = std::move(builder);
            out.builder = *ba;
            out.builder_fee = *bf;
        }
        return out;
    }
    if (type == "cancel" || type == "cancelByCloid") {
        bool const by_cloid = type == "cancelByCloid";
        auto const* cancels = array_field(action, "cancels", where, why);
        if (!cancels)
            return std::nullopt;
        json::array canon_cancels;
        for (std::size_t k = 0; k < cancels->size(); ++k) {
            std::string const w = where + "cancels[" + std::to_string(k) + "].";
            auto const& v = (*cancels)[k];
            if (!v.is_object()) {
                why = w + "invalid type, expected a map";
                return std::nullopt;
            }
            auto const& c = v.get_object();
            detail::cancel_item item;
            json::object cc;
            auto const asset = uint_field(c, by_cloid ? "asset" : "a", w, why,
                                          std::numeric_limits<std::uint32_t>::max());
            if (!asset)
                return std::nullopt;
            item.asset = static_cast<std::uint32_t>(*asset);
            if (by_cloid) {
                auto const text = string_field(c, "cloid", w, why);
                if (!text)
                    return std::nullopt;
                item.cloid = cloid_of(*text);
                if (!item.cloid) {
                    why = w + "cloid: invalid cloid, expected 0x followed by 32 hex digits";
                    return std::nullopt;
                }
                cc["asset"] = item.asset;
                cc["cloid"] = *item.cloid;
            } else {
                auto const oid = uint_field(c, "o", w, why);
                if (!oid)
                    return std::nullopt;
                item.oid = *oid;
                cc["a"] = item.asset;
                cc["o"] = item.oid;
            }
            out.cancels.push_back(std::move(item));
            canon_cancels.push_back(std::move(cc));
        }
        canon["cancels"] = std::move(canon_cancels);
        return out;
    }
    // updateLeverage
    auto const asset =
        uint_field(action, "asset", where, why, std::numeric_limits<std::uint32_t>::max());
    if (!asset)
        return std::nullopt;
    auto const is_cross = bool_field(action, "isCross", where, why);
    if (!is_cross)
        return std::nullopt;
    auto const lev = uint_field(action, "leverage", where, why);
    if (!lev)
        return std::nullopt;
    out.asset = static_cast<std::uint32_t>(*asset);
    out.is_cross = *is_cross;
    out.leverage = *lev;
    canon["asset"] = out.asset;
    canon["isCross"] = out.is_cross;
    canon["leverage"] = out.leverage;
    return out;
}

bool is_l1_type(std::string_view t) {
    return t == "order" || t == "cancel" || t == "cancelByCloid" || t == "updateLeverage";
}

json::value resting_status(std::uint64_t oid, std::optional<std::string> const& cloid) {
    json::object r;
    r["oid"] = oid;
    if (cloid)
        r["cloid"] = *cloid;
    json::object o;
    o["resting"] = std::move(r);
    return o;
}

json::value filled_status(amount total, amount avg, std::uint64_t oid,
                          std::optional<std::string> const& cloid) {
    json::object f;
    f["totalSz"] = total.hl();
    f["avgPx"] = avg.hl();
    f["oid"] = oid;
    if (cloid)
        f["cloid"] = *cloid;
    json::object o;
    o["filled"] = std::move(f);
    return o;
}

/// One side's fill event at `px` x `q` with the fee of its role (alpha_exchange.hpp).
fill_event make_fill(asset_info const& ai, bool is_buy, amount px, amount q, std::int64_t now,
                     std::uint64_t oid, std::uint64_t tid, bool crossed,
                     std::optional<std::string> const& cloid, std::uint64_t builder_tenths) {
    fill_event e;
    e.coin = ai.coin;
    e.is_buy = is_buy;
    e.px = px;
    e.sz = q;
    e.time_ms = now;
    e.oid = oid;
    e.tid = tid;
    e.crossed = crossed;
    e.cloid = cloid;
    // The builder's part is charged on top, in the same token (alpha.md §3.8: `fee` includes
    // `builderFee`).
    auto const builder = [&](amount base, unsigned decimals) {
        return base.times(static_cast<std::int64_t>(builder_tenths))
            .over(tenths_bps_per_unit)
            .rounded(decimals);
    };
    if (!ai.spot) {
        std::int64_t const rate = crossed ? perps_taker_fee_ppm : perps_maker_fee_ppm;
        e.builder_fee = builder(px * q, usd_decimals);
        e.fee = (px * q).times(rate).over(ppm).rounded(usd_decimals);
    } else {
        std::int64_t const rate = crossed ? spot_taker_fee_ppm : spot_maker_fee_ppm;
        if (is_buy) {
            e.builder_fee = builder(q, ai.base_wei_decimals);
            e.fee = q.times(rate).over(ppm).rounded(ai.base_wei_decimals);
            e.fee_token = ai.base;
        } else {
            e.builder_fee = builder(px * q, ai.quote_wei_decimals);
            e.fee = (px * q).times(rate).over(ppm).rounded(ai.quote_wei_decimals);
            e.fee_token = ai.quote;
        }
    }
    e.fee += e.builder_fee;
    return e;
}

/// Parses `"<name> valid_until <ms>"` (alpha.md §4.5, UNCONFIRMED) into name and expiry.
std::pair<std::string, std::optional<std::int64_t>> agent_name(std::string const& text) {
    constexpr std::string_view marker = " valid_until ";
    auto const at = text.rfind(marker);
    if (at == std::string::npos)
        return {text, std::nullopt};
    std::string_view const ms = std::string_view(text).substr(at + marker.size());
    if (!all_digits(ms) || ms.size() > 18)
        return {text, std::nullopt};
    return {text.substr(0, at), std::stoll(std::string(ms))};
}

} // namespace

// ---------------------------------------------------------------------------------------------

exchange::exchange(ledger& l, market_state& markets, std::vector<asset_info> assets, bool testnet,
                   clock_fn clock)
    : ledger_(l)
    , markets_(markets)
    , assets_(std::move(assets))
    , testnet_(testnet)
    , clock_(clock ? std::move(clock) : clock_fn([] { return now_ms(); }))
    , books_(assets_.size()) {}

std::optional<std::size_t> exchange::asset_index(std::uint32_t id) const {
    for (std::size_t k = 0; k < assets_.size(); ++k)
        if (assets_[k].asset == id)
            return k;
    return std::nullopt;
}

std::optional<asset_info> exchange::asset(std::uint32_t id) const {
    if (auto const k = asset_index(id))
        return assets_[*k];
    return std::nullopt;
}

exchange_reply exchange::handle(json::object const& body) {
    std::string why;
    auto const* av = body.if_contains("action");
    if (!av)
        return bad("missing field `action`");
    if (!av->is_object())
        return bad("action: invalid type, expected a map");
    auto const& action = av->get_object();
    auto const type = string_field(action, "type", "action.", why);
    if (!type)
        return bad(why);
    auto const nonce = uint_field(body, "nonce", "", why);
    if (!nonce)
        return bad(why);
    auto const* sv = body.if_contains("signature");
    if (!sv)
        return bad("missing field `signature`");
    auto const sig = sa::signature_from_json(*sv);
    if (!sig)
        return bad(sig.error().message);
    sa::l1_options opts;
    if (auto const* vv = body.if_contains("vaultAddress"); vv && !vv->is_null()) {
        auto const text =
            vv->is_string() ? ledger::normalize_address(vv->get_string()) : std::nullopt;
        auto const vault = gateway::address::parse(text.value_or(""), "vaultAddress");
        if (!text || !vault)
            return bad("vaultAddress: invalid address, expected 0x followed by 40 hex digits");
        opts.vault = *vault;
    }
    if (auto const* ev = body.if_contains("expiresAfter"); ev && !ev->is_null()) {
        auto const e = uint_of(*ev);
        if (!e)
            return bad("expiresAfter: invalid type, expected an unsigned integer");
        opts.expires_after = *e;
    }

    if (*type == "approveAgent")
        return approve_agent(action, *nonce, *sig, clock_());
    if (*type == "approveBuilderFee")
        return approve_builder_fee(action, *nonce, *sig, clock_());
    if (!is_l1_type(*type)) {
        if (unimplemented_types.find(" " + *type + " ") != std::string_view::npos)
            return err("Action type " + *type + " is not implemented by the mock.");
        return bad("action.type: unknown variant `" + *type + "`");
    }
    auto const parsed = parse_l1(action, *type, why);
    if (!parsed)
        return bad(why);

    std::lock_guard lock(m_);
    std::int64_t const now = clock_();
    sync_locked(now);
    auto const signer = sa::recover_l1_signer(parsed->canonical, *nonce, *sig, testnet_, opts);
    if (!signer)
        return err(unrecoverable_text);
    std::string const who = signer->str();
    auto const role = ledger_.role(who);
    if (role.role == "missing")
        return err("L1 error: User or API Wallet " + who + " does not exist.");
    std::string const user = role.role == "agent" ? role.master : who;
    if (opts.expires_after &&
        static_cast<std::int64_t>(std::min<std::uint64_t>(
            *opts.expires_after, std::numeric_limits<std::int64_t>::max())) < now)
        return err(expired_text);
    if (opts.vault)
        return err(vault_text);
    if (auto const e = check_nonce(who, *nonce, now))
        return err(*e);
    return run(user, *parsed, now);
}

exchange_reply exchange::act(std::string const& user, json::object const& action) {
    std::string why;
    auto const type = string_field(action, "type", "action.", why);
    if (!type)
        return bad(why);
    if (!is_l1_type(*type))
        return bad("action.type: unknown variant `" + *type + "`");
    auto const parsed = parse_l1(action, *type, why);
    if (!parsed)
        return bad(why);
    std::lock_guard lock(m_);
    std::int64_t const now = clock_();
    sync_locked(now);
    return run(user, *parsed, now);
}

exchange_reply exchange::approve_agent(json::object const& action, std::uint64_t nonce,
                                       sign::signature const& sig, std::int64_t now) {
    std::string why;
    std::string const where = "action.";
    auto const chain = string_field(action, "hyperliquidChain", where, why);
    if (!chain)
        return bad(why);
    auto const chain_id = string_field(action, "signatureChainId", where, why);
    if (!chain_id)
        return bad(why);
    auto const agent_text = string_field(action, "agentAddress", where, why);
    if (!agent_text)
        return bad(why);
    auto const agent = ledger::normalize_address(*agent_text);
    if (!agent)
        return bad("action.agentAddress: invalid address, expected 0x followed by 40 hex digits");
    std::string name;
    if (auto const* n = action.if_contains("agentName"); n && !n->is_null()) {
        if (!n->is_string())
            return bad("action.agentName: invalid type, expected a string");
        name = std::string(n->get_string());
    }
    auto const inner_nonce = uint_field(action, "nonce", where, why);
    if (!inner_nonce)
        return bad(why);
    // What was signed (alpha.md §5.8): the unnamed agent signs agentName "".
    json::object signed_action;
    signed_action["type"] = "approveAgent";
    signed_action["signatureChainId"] = *chain_id;
    signed_action["hyperliquidChain"] = *chain;
    signed_action["agentAddress"] = *agent_text;
    signed_action["agentName"] = name;
    signed_action["nonce"] = *inner_nonce;
    auto const td = sa::user_signed_typed_data(signed_action);
    if (!td)
        return bad(td.error().message);

    std::lock_guard lock(m_);
    auto checked = user_signed_signer(signed_action, *chain, *inner_nonce, nonce, sig);
    if (auto* reply = std::get_if<exchange_reply>(&checked))
        return std::move(*reply);
    std::string const user = std::get<std::string>(std::move(checked));
    if (*agent == user)
        return err("An account cannot approve itself as its agent.");
    if (auto const e = check_nonce(user, nonce, now))
        return err(*e);
    ledger_.note_action(user);
    auto [agent_label, valid_until] = agent_name(name);
    agent_record rec;
    rec.address = *agent;
    rec.name = std::move(agent_label);
    rec.valid_until = valid_until;
    ledger_.add_agent(user, std::move(rec));
    return {json::value(ok_default()), {}};
}

std::variant<std::string, exchange_reply>
exchange::user_signed_signer(json::object const& signed_action, std::string const& chain,
                             std::uint64_t inner_nonce, std::uint64_t nonce,
                             sign::signature const& sig) const {
    auto const signer = sa::recover_user_signed_signer(signed_action, sig);
    if (!signer)
        return err(unrecoverable_text);
    std::string user = signer->str();
    if (!ledger_.known(user) || ledger_.role(user).role == "agent")
        return err("Must deposit before performing actions. User: " + user);
    std::string_view const network = testnet_ ? "Testnet" : "Mainnet";
    if (chain != network)
        return err("Invalid hyperliquidChain " + chain + ": this is " + std::string(network) + ".");
    if (inner_nonce != nonce)
        return err("Invalid nonce: the action's nonce " + std::to_string(inner_nonce) +
                   " differs from the request's " + std::to_string(nonce));
    return user;
}

exchange_reply exchange::approve_builder_fee(json::object const& action, std::uint64_t nonce,
                                             sign::signature const& sig, std::int64_t now) {
    std::string why;
    std::string const where = "action.";
    auto const chain = string_field(action, "hyperliquidChain", where, why);
    if (!chain)
        return bad(why);
    auto const chain_id = string_field(action, "signatureChainId", where, why);
    if (!chain_id)
        return bad(why);
    auto const rate = string_field(action, "maxFeeRate", where, why);
    if (!rate)
        return bad(why);
    auto const builder_text = string_field(action, "builder", where, why);
    if (!builder_text)
        return bad(why);
    auto const builder = ledger::normalize_address(*builder_text);
    if (!builder)
        return bad("action.builder: invalid address, expected 0x followed by 40 hex digits");
    auto const inner_nonce = uint_field(action, "nonce", where, why);
    if (!inner_nonce)
        return bad(why);
    // What was signed (alpha.md §5.8, ApproveBuilderFee): the fields as posted.
    json::object signed_action;
    signed_action["type"] = "approveBuilderFee";
    signed_action["signatureChainId"] = *chain_id;
    signed_action["hyperliquidChain"] = *chain;
    signed_action["maxFeeRate"] = *rate;
    signed_action["builder"] = *builder_text;
    signed_action["nonce"] = *inner_nonce;
    auto const td = sa::user_signed_typed_data(signed_action);
    if (!td)
        return bad(td.error().message);

    std::lock_guard lock(m_);
    auto checked = user_signed_signer(signed_action, *chain, *inner_nonce, nonce, sig);
    if (auto* reply = std::get_if<exchange_reply>(&checked))
        return std::move(*reply);
    std::string const user = std::get<std::string>(std::move(checked));
    // "0.01%": a percentage with at most 3 decimals (whole tenths of a basis point), <= 1%.
    std::optional<std::int64_t> tenths;
    if (rate->size() > 1 && rate->back() == '%')
        if (auto const n = plain(std::string_view(*rate).substr(0, rate->size() - 1)))
            if (auto const v = amount::parse(n->text))
                tenths = v->times(1000).to_scaled(0);
    if (!tenths || *tenths > static_cast<std::int64_t>(max_builder_fee_tenths))
        return err("Invalid builder fee rate " + *rate +
                   ": expected a percentage of at most 1% in steps of 0.001%.");
    auto const value = ledger_.perp_state(*builder, "", marks_of(markets_)).all.account_value;
    if (value < amount::from_int(builder_minimum_usd))
        return err(builder_balance_text);
    if (auto const e = check_nonce(user, nonce, now))
        return err(*e);
    ledger_.note_action(user);
    ledger_.approve_builder_fee(user, *builder, static_cast<std::uint64_t>(*tenths));
    return {json::value(ok_default()), {}};
}

std::optional<std::string> exchange::check_nonce(std::string const& signer, std::uint64_t nonce,
                                                 std::int64_t now) {
    auto& kept = nonces_[signer];
    if (kept.contains(nonce))
        return "Invalid nonce: duplicate nonce " + std::to_string(nonce);
    if (kept.size() >= nonces_kept && nonce < *kept.begin())
        return "Invalid nonce: nonce too low " + std::to_string(nonce) + " < " +
               std::to_string(*kept.begin());
    auto const lo = static_cast<std::uint64_t>(std::max<std::int64_t>(0, now - nonce_past_ms));
    auto const hi = static_cast<std::uint64_t>(now + nonce_future_ms);
    if (nonce <= lo || nonce >= hi)
        return "Invalid nonce: nonce " + std::to_string(nonce) + " is outside the window (" +
               std::to_string(lo) + ", " + std::to_string(hi) + ") around the current time " +
               std::to_string(now);
    kept.insert(nonce);
    if (kept.size() > nonces_kept)
        kept.erase(kept.begin());
    return std::nullopt;
}

exchange_reply exchange::run(std::string const& user, parsed_action const& a, std::int64_t now) {
    ledger_.note_action(user);
    if (a.type == "order") {
        if (!a.grouping_na)
            return err(grouping_text);
        if (a.orders.empty())
            return err(empty_batch_text);
        // An order naming a builder needs the user's approval of at least that fee (even 0).
        if (a.builder) {
            auto const approved = ledger_.max_builder_fee(user, *a.builder);
            if (!approved || *approved < a.builder_fee)
                return err(builder_not_approved_text);
        }
        json::array statuses;
        for (auto const& o : a.orders)
            statuses.push_back(place(user, o, a.builder_fee, now));
        // A trigger placed beyond its price fires at once.
        for (std::size_t k = 0; k < assets_.size(); ++k)
            fire_triggers(k, now);
        json::object data;
        data["statuses"] = std::move(statuses);
        return {json::value(ok_response("order", std::move(data))), {}};
    }
    if (a.type == "cancel" || a.type == "cancelByCloid") {
        json::array statuses;
        for (auto const& c : a.cancels)
            statuses.push_back(cancel(user, c.asset, c.oid, c.cloid, now));
        json::object data;
        data["statuses"] = std::move(statuses);
        return {json::value(ok_response("cancel", std::move(data))), {}};
    }
    // updateLeverage
    auto const k = asset_index(a.asset);
    if (!k || assets_[*k].spot)
        return err(leverage_asset_text);
    auto const& ai = assets_[*k];
    if (a.leverage < 1 || a.leverage > ai.max_leverage)
        return err(invalid_leverage_text);
    if (a.is_cross && ai.only_isolated)
        return err(cross_not_allowed_text);
    ledger_.set_leverage(user, ai.coin,
                         {a.is_cross ? margin_mode::cross : margin_mode::isolated,
                          static_cast<unsigned>(a.leverage)});
    return {json::value(ok_default()), {}};
}

// ---------------------------------------------------------------------------------------------
// Orders

amount exchange::position_of(std::string const& user, std::string const& coin) const {
    for (auto const& p : ledger_.positions(user))
        if (p.coin == coin)
            return p.szi;
    return {};
}

amount exchange::free_margin(std::string const& user, std::string const& dex) const {
    auto const v = ledger_.perp_state(user, dex, marks_of(markets_));
    amount held;
    for (auto const& o : ledger_.open_orders(user, dex)) {
        if (o.spec.is_trigger || o.spec.reduce_only)
            continue;
        auto const ins = ledger_.find(o.spec.coin);
        if (!ins || ins->spot)
            continue;
        held += (o.sz * o.spec.limit_px).over(ledger_.leverage_of(user, o.spec.coin).value);
    }
    return v.cross.account_value - v.cross.total_margin_used - held;
}

std::optional<std::string> exchange::margin_error(std::string const& user, asset_info const& ai,
                                                  bool is_buy, amount px, amount sz) const {
    if (ai.spot) {
        amount base, quote;
        for (auto const& b : ledger_.spot_state(user)) {
            if (b.coin == ai.base)
                base = b.total - b.hold;
            if (b.coin == ai.quote)
                quote = b.total - b.hold;
        }
        if (is_buy ? px * sz > quote : sz > base)
            return std::string(spot_balance_text);
        return std::nullopt;
    }
    amount const pos = position_of(user, ai.coin);
    bool const reduces = (is_buy && pos.sign() < 0) || (!is_buy && pos.sign() > 0);
    amount const opposite = reduces ? pos.abs() : amount{};
    if (sz <= opposite)
        return std::nullopt;
    auto const lev = ledger_.leverage_of(user, ai.coin);
    amount const required = (px * (sz - opposite)).over(lev.value);
    amount free = free_margin(user, ai.dex);
    if (!ai.dex.empty())
        free += std::max(amount{}, free_margin(user, ""));
    if (required > free)
        return std::string(margin_text);
    return std::nullopt;
}

std::string exchange::bbo_text(std::size_t k) const {
    auto const& b = books_[k];
    std::string const bid = b.bids.empty() ? std::string("None") : b.bids.begin()->first.str();
    std::string const ask = b.asks.empty() ? std::string("None") : b.asks.begin()->first.str();
    return bid + "@" + ask;
}

json::value exchange::place(std::string const& user, parsed_order const& o,
                            std::uint64_t builder_fee, std::int64_t now) {
    auto const k = asset_index(o.a);
    if (!k)
        return order_error(invalid_asset_text);
    auto const& ai = assets_[*k];
    if (o.trigger && ai.spot)
        return order_error(spot_trigger_text);
    auto const px = check_price(o.p, ai, invalid_price_text);
    if (!px.value)
        return order_error(px.error);
    auto const sz = check_size(o.s, ai);
    if (!sz.value)
        return order_error(sz.error);
    std::optional<amount> trigger_px;
    if (o.trigger) {
        auto const t = check_price(o.trigger_px, ai, bad_trigger_text);
        if (!t.value)
            return order_error(t.error);
        trigger_px = t.value;
    }
    amount const ref_px = trigger_px ? *trigger_px : *px.value;
    if (ref_px * *sz.value < amount::from_int(10))
        return order_error(ai.spot ? "Order must have minimum value of 10 " + ai.quote + "."
                                   : std::string(min_perp_text));
    amount size = *sz.value;
    if (o.r) {
        if (ai.spot)
            return order_error(reduce_only_text);
        amount const pos = position_of(user, ai.coin);
        if (pos.is_zero() || (pos.sign() > 0) == o.b)
            return order_error(reduce_only_text);
        if (!o.trigger)
            size = std::min(size, pos.abs());
    }

    order_spec spec;
    spec.coin = ai.coin;
    spec.is_buy = o.b;
    spec.limit_px = *px.value;
    spec.sz = size;
    spec.timestamp = now;
    spec.cloid = o.cloid;
    spec.reduce_only = o.r;
    spec.builder_fee = builder_fee;

    if (o.trigger) {
        bool const above = o.tp ? !o.b : o.b;
        spec.order_type =
            std::string(o.tp ? "Take Profit " : "Stop ") + (o.is_market ? "Market" : "Limit");
        spec.tif = std::nullopt;
        spec.is_trigger = true;
        spec.trigger_px = *trigger_px;
        spec.trigger_condition =
            std::string(above ? "Price above " : "Price below ") + trigger_px->str();
        std::uint64_t const oid = ledger_.next_oid();
        ledger_.rest_order(user, order_record{oid, spec, size});
        trigger_order t;
        t.asset_index = *k;
        t.owner = user;
        t.is_buy = o.b;
        t.limit_px = *px.value;
        t.is_market = o.is_market;
        t.trigger_px = *trigger_px;
        t.above = above;
        t.reduce_only = o.r;
        t.spec = spec;
        triggers_.emplace(oid, std::move(t));
        return resting_status(oid, o.cloid);
    }

    if (auto const e = margin_error(user, ai, o.b, *px.value, size))
        return order_error(*e);
    auto const& b = books_[*k];
    if (o.tif == "Alo") {
        bool const crosses = o.b ? (!b.asks.empty() && b.asks.begin()->first <= *px.value)
                                 : (!b.bids.empty() && b.bids.begin()->first >= *px.value);
        if (crosses)
            return order_error("Post only order would have immediately matched, bbo was " +
                               bbo_text(*k) + ".");
    }
    spec.tif = o.tif;
    bool const ioc = o.tif == "Ioc" || o.tif == "FrontendMarket";
    std::uint64_t const oid = ledger_.next_oid();
    taker const t = execute(user, *k, spec, oid, !ioc, now);
    if (ioc && t.filled.is_zero())
        return order_error(ioc_text);
    if (!ioc && !t.remaining.is_zero())
        return resting_status(oid, o.cloid);
    return filled_status(t.filled, t.notional / t.filled, oid, o.cloid);
}

exchange::taker exchange::execute(std::string const& user, std::size_t k, order_spec const& spec,
                                  std::uint64_t oid, bool rest, std::int64_t now) {
    taker t;
    t.owner = user;
    t.oid = oid;
    t.is_buy = spec.is_buy;
    t.limit = spec.limit_px;
    t.remaining = spec.sz;
    t.cloid = spec.cloid;
    t.builder_fee = spec.builder_fee;
    match(k, t, now);
    if (t.remaining.is_zero())
        ledger_.record_order(user, order_record{oid, spec, {}}, "filled", now);
    else if (rest)
        add_resting(k, user, oid, spec, t.remaining);
    else if (!t.filled.is_zero())
        ledger_.record_order(user, order_record{oid, spec, t.remaining}, "canceled", now);
    return t;
}

void exchange::match(std::size_t k, taker& t, std::int64_t now) {
    auto& b = books_[k];
    auto walk = [&](auto& side, auto crosses) {
        while (!t.remaining.is_zero() && !side.empty()) {
            auto it = side.begin();
            if (!crosses(it->first))
                break;
            amount const px = it->first;
            auto& lvl = it->second;
            while (!t.remaining.is_zero() && !lvl.empty()) {
                book_order& m = lvl.front();
                amount const q = std::min(t.remaining, m.sz);
                fill(k, t, m, px, q, now);
                if (m.sz.is_zero()) {
                    if (m.oid != 0)
                        resting_.erase(m.oid);
                    lvl.pop_front();
                }
            }
            if (lvl.empty())
                side.erase(it);
        }
    };
    if (t.is_buy)
        walk(b.asks, [&](amount px) { return px <= t.limit; });
    else
        walk(b.bids, [&](amount px) { return px >= t.limit; });
}

void exchange::fill(std::size_t k, taker& t, book_order& maker, amount px, amount q,
                    std::int64_t now) {
    auto const& ai = assets_[k];
    bool const taker_user = !t.owner.empty();
    bool const maker_user = !maker.owner.empty();
    if (taker_user || maker_user) {
        std::uint64_t const tid = ledger_.next_tid();
        if (taker_user)
            ledger_.apply_fill(t.owner, make_fill(ai, t.is_buy, px, q, now, t.oid, tid, true,
                                                  t.cloid, t.builder_fee));
        if (maker_user) {
            std::optional<std::string> cloid;
            std::uint64_t builder_fee = 0;
            if (auto const r = resting_.find(maker.oid); r != resting_.end()) {
                cloid = r->second.cloid;
                builder_fee = r->second.builder_fee;
            }
            ledger_.apply_fill(maker.owner, make_fill(ai, !t.is_buy, px, q, now, maker.oid, tid,
                                                      false, cloid, builder_fee));
        }
        auto const& s = markets_.spec(ai.market);
        auto const pxs = px.rounded(s.px_scale).to_scaled(s.px_scale);
        auto const szs = q.rounded(s.sz_scale).to_scaled(s.sz_scale);
        if (pxs && szs && *szs > 0)
            markets_.print_trade(ai.market, now, *pxs, *szs, t.is_buy);
    }
    if (!maker_user && taker_user)
        books_[k].house_taken = true;
    maker.sz -= q;
    t.remaining -= q;
    t.filled += q;
    t.notional += px * q;
    if (maker_user) {
        if (maker.sz.is_zero())
            ledger_.remove_order(maker.owner, maker.oid, "filled", now);
        else
            ledger_.set_order_size(maker.owner, maker.oid, maker.sz);
    }
}

void exchange::add_resting(std::size_t k, std::string const& owner, std::uint64_t oid,
                           order_spec const& spec, amount remaining) {
    auto& b = books_[k];
    book_order o;
    o.oid = oid;
    o.owner = owner;
    o.sz = remaining;
    if (spec.is_buy)
        b.bids[spec.limit_px].push_back(o);
    else
        b.asks[spec.limit_px].push_back(o);
    resting_ref r;
    r.asset_index = k;
    r.is_buy = spec.is_buy;
    r.px = spec.limit_px;
    r.owner = owner;
    r.cloid = spec.cloid;
    r.builder_fee = spec.builder_fee;
    resting_[oid] = std::move(r);
    ledger_.rest_order(owner, order_record{oid, spec, remaining});
}

void exchange::erase_resting(std::uint64_t oid) {
    auto const r = resting_.find(oid);
    if (r == resting_.end())
        return;
    auto& b = books_[r->second.asset_index];
    auto drop = [&](auto& side) {
        auto const lvl = side.find(r->second.px);
        if (lvl == side.end())
            return;
        std::erase_if(lvl->second, [&](book_order const& o) { return o.oid == oid; });
        if (lvl->second.empty())
            side.erase(lvl);
    };
    if (r->second.is_buy)
        drop(b.bids);
    else
        drop(b.asks);
    resting_.erase(r);
}

json::value exchange::cancel(std::string const& user, std::uint32_t asset, std::uint64_t oid,
                             std::optional<std::string> const& cloid, std::int64_t now) {
    auto const k = asset_index(asset);
    if (!k)
        return order_error(missing_order_text);
    auto const& ai = assets_[*k];
    std::optional<std::uint64_t> target;
    if (cloid) {
        for (auto const& [id, r] : resting_)
            if (r.owner == user && r.asset_index == *k && r.cloid == cloid)
                target = id;
        for (auto const& [id, t] : triggers_)
            if (!target && t.owner == user && t.asset_index == *k && t.spec.cloid == cloid)
                target = id;
        if (!target)
            for (auto const& o : ledger_.open_orders(user))
                if (o.spec.cloid == cloid && o.spec.coin == ai.coin)
                    target = o.oid;
    } else {
        target = oid;
    }
    if (!target)
        return order_error(missing_order_text);
    if (auto const r = resting_.find(*target); r != resting_.end()) {
        if (r->second.owner != user || r->second.asset_index != *k)
            return order_error(missing_order_text);
        erase_resting(*target);
        ledger_.remove_order(user, *target, "canceled", now);
        return "success";
    }
    if (auto const t = triggers_.find(*target); t != triggers_.end()) {
        if (t->second.owner != user || t->second.asset_index != *k)
            return order_error(missing_order_text);
        triggers_.erase(t);
        ledger_.remove_order(user, *target, "canceled", now);
        return "success";
    }
    // An order seeded through /__mock/accounts (outside the book).
    auto const st = ledger_.order_status(user, *target);
    if (st && st->status == "open" && st->order.spec.coin == ai.coin) {
        ledger_.remove_order(user, *target, "canceled", now);
        return "success";
    }
    return order_error(missing_order_text);
}

// ---------------------------------------------------------------------------------------------
// House liquidity and triggers

void exchange::sync() {
    std::lock_guard lock(m_);
    sync_locked(clock_());
}

void exchange::sync_locked(std::int64_t now) {
    for (std::size_t k = 0; k < assets_.size(); ++k) {
        auto& b = books_[k];
        std::size_t const m = assets_[k].market;
        auto const v = markets_.version(m);
        if (b.version == v)
            continue;
        if (!b.version || b.house_taken || markets_.mark(m) != b.mark)
            requote(k, now);
        else
            b.version = v; // same ladder: keep the (stable) house orders
    }
    for (std::size_t k = 0; k < assets_.size() && !triggers_.empty(); ++k)
        fire_triggers(k, now);
}

void exchange::requote(std::size_t k, std::int64_t now) {
    auto& b = books_[k];
    auto const& ai = assets_[k];
    auto const& s = markets_.spec(ai.market);
    auto const drop_house = [](auto& side) {
        for (auto it = side.begin(); it != side.end();) {
            std::erase_if(it->second, [](book_order const& o) { return o.owner.empty(); });
            it = it->second.empty() ? side.erase(it) : std::next(it);
        }
    };
    drop_house(b.bids);
    drop_house(b.asks);
    auto const snap = markets_.book(ai.market, house_depth);
    b.version = snap.version;
    b.mark = markets_.mark(ai.market);
    b.house_taken = false;
    auto const quote = [&](book_level const& l, bool is_buy) {
        taker t;
        t.is_buy = is_buy;
        t.limit = amount::from_scaled(l.px, s.px_scale);
        t.remaining = amount::from_scaled(l.sz, s.sz_scale);
        match(k, t, now); // fills resting user orders this level crosses, at their price
        if (t.remaining.is_zero())
            return;
        book_order o;
        o.sz = t.remaining;
        o.n = l.n;
        if (is_buy)
            b.bids[t.limit].push_back(o);
        else
            b.asks[t.limit].push_back(o);
    };
    for (auto const& l : snap.asks)
        quote(l, false);
    for (auto const& l : snap.bids)
        quote(l, true);
}

void exchange::fire_triggers(std::size_t k, std::int64_t now) {
    auto const& ai = assets_[k];
    std::vector<std::uint64_t> due;
    std::optional<amount> mark;
    for (auto const& [oid, t] : triggers_) {
        if (t.asset_index != k)
            continue;
        if (!mark)
            mark = amount::from_scaled(markets_.mark(ai.market), markets_.spec(ai.market).px_scale);
        if (t.above ? *mark >= t.trigger_px : *mark <= t.trigger_px)
            due.push_back(oid);
    }
    for (auto const oid : due) {
        auto node = triggers_.extract(oid);
        trigger_order& t = node.mapped();
        ledger_.remove_order(t.owner, oid, "triggered", now);
        order_spec spec = t.spec;
        spec.is_trigger = false;
        spec.tif = t.is_market ? "Ioc" : "Gtc";
        spec.trigger_condition = "Triggered";
        spec.timestamp = now;
        if (t.reduce_only) {
            amount const pos = position_of(t.owner, ai.coin);
            if (pos.is_zero() || (pos.sign() > 0) == t.is_buy) {
                ledger_.record_order(t.owner, order_record{oid, spec, spec.sz},
                                     "reduceOnlyRejected", now);
                continue;
            }
            spec.sz = std::min(spec.sz, pos.abs());
        } else if (margin_error(t.owner, ai, t.is_buy, t.limit_px, spec.sz)) {
            ledger_.record_order(t.owner, order_record{oid, spec, spec.sz}, "perpMarginRejected",
                                 now);
            continue;
        }
        taker const done = execute(t.owner, k, spec, oid, !t.is_market, now);
        if (t.is_market && done.filled.is_zero())
            ledger_.record_order(t.owner, order_record{oid, spec, spec.sz}, "canceled", now);
    }
}

engine_book exchange::book(std::size_t market, std::size_t depth) const {
    std::lock_guard lock(m_);
    engine_book out;
    for (std::size_t k = 0; k < assets_.size(); ++k) {
        if (assets_[k].market != market)
            continue;
        auto aggregate = [depth](auto const& side, std::vector<engine_level>& levels) {
            for (auto const& [px, lvl] : side) {
                if (levels.size() == depth)
                    break;
                engine_level l;
                l.px = px;
                for (auto const& o : lvl) {
                    l.sz += o.sz;
                    l.n += o.n;
                }
                levels.push_back(l);
            }
        };
        aggregate(books_[k].bids, out.bids);
        aggregate(books_[k].asks, out.asks);
        break;
    }
    return out;
}

} // namespace gateway::mocks::alpha
