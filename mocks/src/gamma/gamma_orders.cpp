#include "gamma_orders.hpp"

#include "gamma_clob.hpp"

#include "../common/control.hpp"
#include "../common/http_util.hpp"

#include <gateway/providers/gamma/signing.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <iterator>

namespace gateway::mocks::gamma {

namespace {

namespace json = boost::json;
using boost::beast::http::status;
using boost::beast::http::verb;

constexpr std::string_view owner_mismatch = "the order owner has to be the owner of the API KEY";
constexpr std::string_view signer_mismatch =
    "the order signer address has to be the address of the API KEY";
constexpr std::string_view invalid_signature = "invalid signature";
constexpr std::string_view invalid_order_id = "Invalid orderID";
constexpr std::string_view invalid_orders_params = "invalid order params payload";
constexpr std::string_view invalid_trades_params = "Invalid trade params payload";
constexpr std::string_view order_not_found = "order not found";
/// Amounts above this many micro units (10^9 USDC or shares) are refused as a bad payload.
constexpr std::uint64_t max_amount = 1'000'000'000'000'000ULL;
/// Largest magnitude `/__mock/accounts` credits at once.
constexpr std::int64_t max_credit = 1'000'000'000'000LL;

net::response fail(status st, std::string_view message, unsigned v) {
    return clob_error(st, message, v);
}

net::response answer_refusal(refusal const& r, unsigned v) {
    return clob_error(static_cast<status>(r.status), r.message, v);
}

net::response method_not_allowed(std::string_view allow, unsigned v) {
    auto res = clob_error(status::method_not_allowed, "method not allowed", v);
    res.set(boost::beast::http::field::allow, allow);
    return res;
}

std::int64_t clock_s() {
    return now_ms() / 1000;
}

bool order_id_text(std::string_view s) {
    return s.size() == 66 && s.starts_with("0x") &&
           s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string_view::npos;
}

std::string lowercase(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::optional<json::value> parse_body(std::string const& body) {
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if (ec)
        return std::nullopt;
    return v;
}

/// The outcome name of a token ("Yes", a team...), from the catalog.
std::string outcome_of(catalog_view const& view, std::string const& token) {
    auto const t = view.token(token);
    if (!t)
        return "";
    return view.data().markets[t->market].outcomes[t->outcome];
}

std::string market_of(catalog_view const& view, std::string const& token) {
    auto const t = view.token(token);
    return t ? view.data().markets[t->market].condition_id : std::string();
}

/// gamma.md §5.6 OpenOrder.
json::object open_order_json(catalog_view const& view, order_record const& r) {
    json::object o;
    o["id"] = r.id;
    o["status"] = r.status;
    o["owner"] = r.owner;
    o["maker_address"] = r.maker;
    o["market"] = market_of(view, r.token_id);
    o["asset_id"] = r.token_id;
    o["side"] = r.is_buy ? "BUY" : "SELL";
    o["original_size"] = micros_text(r.size);
    o["size_matched"] = micros_text(r.matched);
    o["price"] = micros_text(r.price);
    o["associate_trades"] = json::array(r.trades.begin(), r.trades.end());
    o["outcome"] = outcome_of(view, r.token_id);
    o["created_at"] = r.created_at;
    o["expiration"] = std::to_string(r.expiration);
    o["order_type"] = to_string(r.kind);
    return o;
}

/// gamma.md §5.6 Trade, as `v`'s address sees it.
json::object trade_json(catalog_view const& view, trade_view const& v) {
    auto const& t = v.trade;
    std::string const outcome = outcome_of(view, t.token_id);
    json::object o;
    o["id"] = t.id;
    o["taker_order_id"] = t.taker_order_id;
    o["market"] = market_of(view, t.token_id);
    o["asset_id"] = t.token_id;
    o["side"] = t.taker_is_buy ? "BUY" : "SELL";
    o["size"] = micros_text(t.size);
    o["fee_rate_bps"] = std::to_string(t.taker_fee_rate_bps);
    o["price"] = micros_text(t.price);
    o["status"] = "CONFIRMED"; // the mock settles at once
    o["match_time"] = std::to_string(t.time_s);
    o["last_update"] = std::to_string(t.time_s);
    o["outcome"] = outcome;
    o["bucket_index"] = 0;
    o["owner"] = t.taker_owner;
    o["maker_address"] = t.taker_address;
    o["transaction_hash"] = t.transaction_hash;
    o["trader_side"] = v.as_maker ? "MAKER" : "TAKER";
    json::object m;
    m["order_id"] = t.maker_order_id;
    m["owner"] = t.maker_owner;
    m["maker_address"] = t.maker_address;
    m["matched_amount"] = micros_text(t.size);
    m["price"] = micros_text(t.price);
    m["fee_rate_bps"] = std::to_string(t.maker_fee_rate_bps);
    m["asset_id"] = t.token_id;
    m["outcome"] = outcome;
    m["side"] = t.taker_is_buy ? "SELL" : "BUY";
    o["maker_orders"] = json::array{std::move(m)};
    return o;
}

/// gamma.md §5.4, for a placed order.
json::object placed_json(placed const& p) {
    json::object o;
    o["success"] = true;
    o["errorMsg"] = "";
    o["orderID"] = p.order.id;
    json::array hashes;
    std::transform(p.trades.begin(), p.trades.end(), std::back_inserter(hashes),
                   [](trade_record const& t) { return json::value(t.transaction_hash); });
    o["transactionsHashes"] = std::move(hashes);
    o["status"] = p.status();
    bool const any = p.order.matched > 0;
    o["takingAmount"] = any ? micros_text(p.taking) : "";
    o["makingAmount"] = any ? micros_text(p.making) : "";
    return o;
}

/// gamma.md §5.4, for an order `POST /orders` refused.
json::object refused_json(std::string_view message) {
    json::object o;
    o["success"] = false;
    o["errorMsg"] = message;
    o["orderID"] = "";
    o["transactionsHashes"] = json::array{};
    o["status"] = "";
    o["takingAmount"] = "";
    o["makingAmount"] = "";
    return o;
}

json::object cancel_json(cancel_result const& r) {
    json::array canceled(r.canceled.begin(), r.canceled.end());
    json::object not_canceled;
    for (auto const& [id, why] : r.not_canceled)
        not_canceled[id] = why;
    json::object o;
    o["canceled"] = std::move(canceled);
    o["not_canceled"] = std::move(not_canceled);
    return o;
}

/// One page of `items` from `next_cursor` (gamma.md §3.8), rendered by `render`.
template <class T, class Render>
std::optional<json::object> page_of(std::vector<T> const& items, query_params const& q,
                                    Render render) {
    std::string const cursor = query_get(q, "next_cursor").value_or(std::string(first_cursor));
    auto const start = decode_cursor(cursor, items.size());
    if (!start)
        return std::nullopt;
    std::size_t const end = std::min(items.size(), *start + data_page);
    json::array data;
    for (std::size_t i = *start; i < end; ++i)
        data.push_back(render(items[i]));
    json::object o;
    o["data"] = std::move(data);
    o["next_cursor"] = end >= items.size() ? std::string(end_cursor) : encode_cursor(end);
    o["limit"] = data_page;
    o["count"] = end - *start;
    return o;
}

/// Reads one §5.3 order object of `POST /order` or `POST /orders` for `who`.
std::variant<new_order, refusal> read_order(catalog_view const& view, json::value const& body,
                                            credential const& who) {
    auto const bad = [] {
        return refusal{400, std::string(errors::invalid_payload)};
    };
    auto const* top = body.if_object();
    auto const* wire = top ? top->if_contains("order") : nullptr;
    auto const* owner = top ? top->if_contains("owner") : nullptr;
    auto const* type = top ? top->if_contains("orderType") : nullptr;
    auto const* post_only = top ? top->if_contains("postOnly") : nullptr;
    if (!wire || !wire->is_object() || !owner || !owner->is_string() || !type ||
        !type->is_string() || (post_only && !post_only->is_bool() && !post_only->is_null()))
        return bad();
    auto const kind = parse_order_kind(type->get_string());
    auto const* sig = wire->get_object().if_contains("signature");
    if (!kind || !sig || !sig->is_string())
        return bad();
    auto const parsed = sign::gamma::parse_order_wire(*wire);
    if (!parsed)
        return bad();
    auto const& o = *parsed;
    if (!o.taker.is_zero() || o.maker_amount > max_amount || o.taker_amount > max_amount)
        return bad();
    if (owner->get_string() != who.api_key || o.maker.str() != who.address)
        return refusal{400, std::string(owner_mismatch)};
    if (o.signer.str() != who.address)
        return refusal{400, std::string(signer_mismatch)};
    if (o.signature_type != 0)
        return refusal{400, std::string(invalid_signature)};
    auto const t = view.token(o.token_id);
    if (!t)
        return refusal{400, std::string(errors::invalid_token)};
    bool const neg_risk = view.data().events[view.data().markets[t->market].event].neg_risk;
    auto const exchange = sign::gamma::exchange_for(neg_risk);
    auto const signer = sign::gamma::recover_order(o, exchange, sig->get_string());
    if (!signer || *signer != o.signer)
        return refusal{400, std::string(invalid_signature)};

    new_order n;
    n.id = sign::to_hex(sign::gamma::order_digest(o, exchange), true);
    n.owner = who.api_key;
    n.maker = who.address;
    n.token_id = o.token_id;
    n.is_buy = o.side == sign::gamma::order_side::buy;
    n.maker_amount = static_cast<micros>(o.maker_amount);
    n.taker_amount = static_cast<micros>(o.taker_amount);
    n.expiration = o.expiration;
    n.fee_rate_bps = o.fee_rate_bps;
    n.kind = *kind;
    n.post_only = post_only && post_only->is_bool() && post_only->get_bool();
    return n;
}

/// The order id of a `DELETE /order` body: `orderID` (TS, Python) or `orderId` (Rust); the
/// upstream matches keys case-insensitively (gamma.md §5.5).
std::optional<std::string> cancel_id(json::value const& body) {
    auto const* o = body.if_object();
    if (!o)
        return std::nullopt;
    auto const it = std::find_if(o->begin(), o->end(), [](json::key_value_pair const& kv) {
        return lowercase(kv.key()) == "orderid" && kv.value().is_string();
    });
    if (it == o->end())
        return std::nullopt;
    return std::string(it->value().get_string());
}

/// `{"balances":...}` of an account view.
json::object account_json(std::string const& address,
                          std::vector<std::pair<std::string, holding>> const& holdings,
                          std::size_t open_orders) {
    json::object balances;
    json::object locked;
    for (auto const& [asset, h] : holdings) {
        balances[asset] = micros_text(h.balance);
        locked[asset] = micros_text(h.locked);
    }
    json::object o;
    o["address"] = address;
    o["balances"] = std::move(balances);
    o["locked"] = std::move(locked);
    o["openOrders"] = open_orders;
    return o;
}

} // namespace

std::optional<net::response> trading_api::handle(net::request const& req, std::string_view path,
                                                 std::string_view signed_path,
                                                 query_params const& q) {
    unsigned const v = req.version();
    verb const m = req.method();
    std::string const& body = req.body();
    auto const l2 = [&]() -> std::variant<credential, refusal> {
        return creds_.verify_l2(req, signed_path, clock_s());
    };

    // L1: credentials
    if (path == "/auth/api-key" || path == "/auth/derive-api-key") {
        bool const create = path == "/auth/api-key" && m == verb::post;
        bool const derive = path == "/auth/derive-api-key" && m == verb::get;
        if (path == "/auth/api-key" && m == verb::delete_) {
            auto const who = l2();
            if (auto const* r = std::get_if<refusal>(&who))
                return answer_refusal(*r, v);
            creds_.remove(std::get<credential>(who).api_key);
            return make_response(status::ok, "\"OK\"", "application/json", v);
        }
        if (!create && !derive)
            return method_not_allowed(path == "/auth/api-key" ? "POST, DELETE" : "GET", v);
        auto const id = credential_store::verify_l1(req, clock_s());
        if (auto const* r = std::get_if<refusal>(&id))
            return answer_refusal(*r, v);
        auto const c = create ? creds_.create(std::get<l1_identity>(id))
                              : creds_.derive(std::get<l1_identity>(id));
        if (auto const* r = std::get_if<refusal>(&c))
            return answer_refusal(*r, v);
        auto const& cred = std::get<credential>(c);
        json::object o;
        o["apiKey"] = cred.api_key;
        o["secret"] = cred.secret;
        o["passphrase"] = cred.passphrase;
        return json_response(status::ok, o, v);
    }

    bool const known = path == "/auth/api-keys" || path == "/auth/ban-status/closed-only" ||
                       path == "/order" || path == "/orders" || path == "/cancel-all" ||
                       path == "/cancel-market-orders" || path == "/data/orders" ||
                       path == "/data/trades" || path.starts_with("/data/order/");
    if (!known)
        return std::nullopt;
    std::string_view allow = "GET";
    if (path == "/order" || path == "/orders")
        allow = "POST, DELETE";
    else if (path == "/cancel-all" || path == "/cancel-market-orders")
        allow = "DELETE";
    bool const allowed = (allow == "GET" && m == verb::get) ||
                         (allow == "DELETE" && m == verb::delete_) ||
                         (allow == "POST, DELETE" && (m == verb::post || m == verb::delete_));
    if (!allowed)
        return method_not_allowed(allow, v);

    auto const who_or = l2();
    if (auto const* r = std::get_if<refusal>(&who_or))
        return answer_refusal(*r, v);
    auto const& who = std::get<credential>(who_or);

    if (path == "/auth/api-keys") {
        auto const list = creds_.keys_of(who.address);
        json::array keys(list.begin(), list.end());
        json::object o;
        o["apiKeys"] = std::move(keys);
        return json_response(status::ok, o, v);
    }
    if (path == "/auth/ban-status/closed-only") {
        json::object o;
        o["closed_only"] = false;
        return json_response(status::ok, o, v);
    }
    if (path == "/order" && m == verb::post) {
        auto const parsed = parse_body(body);
        if (!parsed)
            return fail(status::bad_request, errors::invalid_payload, v);
        auto const order = read_order(view_, *parsed, who);
        if (auto const* r = std::get_if<refusal>(&order))
            return answer_refusal(*r, v);
        auto const out = engine_.place(std::get<new_order>(order));
        if (auto const* r = std::get_if<refusal>(&out))
            return answer_refusal(*r, v);
        return json_response(status::ok, placed_json(std::get<placed>(out)), v);
    }
    if (path == "/orders" && m == verb::post) {
        auto const parsed = parse_body(body);
        if (!parsed || !parsed->is_array())
            return fail(status::bad_request, errors::invalid_payload, v);
        auto const& items = parsed->get_array();
        if (items.size() > max_batch_orders)
            return fail(status::bad_request,
                        "Too many orders in payload: " + std::to_string(items.size()) +
                            ", max allowed: " + std::to_string(max_batch_orders),
                        v);
        json::array out;
        for (auto const& item : items) {
            auto const order = read_order(view_, item, who);
            if (auto const* r = std::get_if<refusal>(&order)) {
                out.push_back(refused_json(r->message));
                continue;
            }
            auto const p = engine_.place(std::get<new_order>(order));
            if (auto const* r = std::get_if<refusal>(&p))
                out.push_back(refused_json(r->message));
            else
                out.push_back(placed_json(std::get<placed>(p)));
        }
        return json_response(status::ok, out, v);
    }
    if (path == "/order") { // DELETE
        auto const parsed = parse_body(body);
        auto const id = parsed ? cancel_id(*parsed) : std::nullopt;
        if (!id)
            return fail(status::bad_request, errors::invalid_payload, v);
        if (!order_id_text(*id))
            return fail(status::bad_request, invalid_order_id, v);
        return json_response(status::ok, cancel_json(engine_.cancel(who.address, {lowercase(*id)})),
                             v);
    }
    if (path == "/orders") { // DELETE
        auto const parsed = parse_body(body);
        if (!parsed || !parsed->is_array())
            return fail(status::bad_request, errors::invalid_payload, v);
        auto const& items = parsed->get_array();
        if (items.size() > max_cancel_ids)
            return fail(
                status::bad_request,
                "Too many orders in payload, max allowed: " + std::to_string(max_cancel_ids), v);
        std::vector<std::string> ids;
        for (auto const& item : items) {
            if (!item.is_string() || !order_id_text(item.get_string()))
                return fail(status::bad_request, invalid_order_id, v);
            ids.push_back(lowercase(item.get_string()));
        }
        return json_response(status::ok, cancel_json(engine_.cancel(who.address, ids)), v);
    }
    if (path == "/cancel-all")
        return json_response(status::ok, cancel_json(engine_.cancel_all(who.address)), v);
    if (path == "/cancel-market-orders") {
        std::string market;
        std::string asset;
        if (!body.empty()) {
            auto const parsed = parse_body(body);
            auto const* o = parsed ? parsed->if_object() : nullptr;
            if (!o)
                return fail(status::bad_request, errors::invalid_payload, v);
            for (auto const& kv : *o) {
                if (!kv.value().is_string())
                    return fail(status::bad_request, errors::invalid_payload, v);
                if (kv.key() == "market")
                    market = lowercase(kv.value().get_string());
                else if (kv.key() == "asset_id")
                    asset = std::string(kv.value().get_string());
            }
        }
        return json_response(status::ok,
                             cancel_json(engine_.cancel_market(who.address, market, asset)), v);
    }
    if (path.starts_with("/data/order/")) {
        auto const id = path.substr(12);
        if (!order_id_text(id))
            return fail(status::bad_request, invalid_order_id, v);
        auto const r = engine_.order(who.address, lowercase(id));
        if (!r)
            return fail(status::not_found, order_not_found, v);
        return json_response(status::ok, open_order_json(view_, *r), v);
    }
    order_filter f;
    f.id = query_get(q, "id").value_or("");
    f.market = lowercase(query_get(q, "market").value_or(""));
    f.asset_id = query_get(q, "asset_id").value_or("");
    if (path == "/data/orders") {
        f.id = lowercase(f.id);
        auto const orders = engine_.open_orders(who.address, f);
        auto page =
            page_of(orders, q, [&](order_record const& r) { return open_order_json(view_, r); });
        if (!page)
            return fail(status::bad_request, invalid_orders_params, v);
        return json_response(status::ok, *page, v);
    }
    // /data/trades
    auto trades = engine_.trades(who.address, f);
    auto const maker = query_get(q, "maker_address");
    auto const before = query_get(q, "before");
    auto const after = query_get(q, "after");
    std::optional<std::uint64_t> before_s;
    std::optional<std::uint64_t> after_s;
    if ((before && !(before_s = parse_uint(*before))) || (after && !(after_s = parse_uint(*after))))
        return fail(status::bad_request, invalid_trades_params, v);
    std::erase_if(trades, [&](trade_view const& t) {
        auto const time = static_cast<std::uint64_t>(t.trade.time_s);
        return (maker && !maker->empty() && lowercase(*maker) != who.address) ||
               (before_s && time > *before_s) || (after_s && time < *after_s);
    });
    auto page = page_of(trades, q, [&](trade_view const& t) { return trade_json(view_, t); });
    if (!page)
        return fail(status::bad_request, invalid_trades_params, v);
    return json_response(status::ok, *page, v);
}

std::optional<net::response> trading_api::control(net::request const& req) {
    auto const parts = split_target(req.target());
    unsigned const v = req.version();
    std::string_view const path = parts.path;
    if (path == "/__mock/accounts") {
        if (req.method() != verb::post)
            return control_not_allowed("POST", v);
        std::string why;
        auto body = parse_control_object(req, why);
        if (!body)
            return control_error(status::bad_request, why, v);
        auto const* addr = body->if_contains("address");
        auto const* balances = body->if_contains("balances");
        auto const extra = std::find_if(body->begin(), body->end(), [](auto const& kv) {
            return kv.key() != "address" && kv.key() != "balances";
        });
        if (extra != body->end())
            return control_error(status::bad_request,
                                 "Unknown field '" + std::string(extra->key()) +
                                     "'; expected address and balances.",
                                 v);
        std::optional<address> a;
        if (addr && addr->is_string())
            if (auto p = address::parse(addr->get_string()))
                a = *p;
        if (!a)
            return control_error(status::bad_request,
                                 "'address' must be 0x followed by 40 hex digits.", v);
        if (balances && !balances->is_object())
            return control_error(status::bad_request,
                                 "'balances' must be an object of asset to decimal string.", v);
        std::vector<std::pair<std::string, micros>> credits;
        if (balances) {
            for (auto const& kv : balances->get_object()) {
                std::string const asset(kv.key());
                if (asset != usdc_asset && !view_.token(asset))
                    return control_error(
                        status::bad_request,
                        "Unknown asset '" + asset + "'; expected USDC or an outcome token id.", v);
                std::optional<std::int64_t> scaled;
                if (kv.value().is_string())
                    if (auto const d = decimal::parse(kv.value().get_string(), asset))
                        scaled = d->to_scaled(6);
                if (!scaled || *scaled > max_credit * one_unit || *scaled < -max_credit * one_unit)
                    return control_error(status::bad_request,
                                         "Balance of '" + asset +
                                             "' must be a decimal string with at most 6 "
                                             "decimals, below 10^12 in magnitude.",
                                         v);
                credits.emplace_back(asset, *scaled);
            }
        }
        for (auto const& [asset, amount] : credits)
            engine_.credit(a->str(), asset, amount);
        if (credits.empty())
            engine_.credit(a->str(), std::string(usdc_asset), 0);
        return json_response(status::ok,
                             account_json(a->str(), engine_.holdings(a->str()),
                                          engine_.open_orders(a->str(), {}).size()),
                             v);
    }
    if (path.starts_with("/__mock/accounts/")) {
        if (req.method() != verb::get)
            return control_not_allowed("GET", v);
        auto const a = address::parse(path.substr(17));
        if (!a)
            return control_error(status::bad_request,
                                 "The address must be 0x followed by 40 hex digits.", v);
        if (!engine_.known(a->str()))
            return control_error(status::not_found, "No account " + a->str() + ".", v);
        return json_response(status::ok,
                             account_json(a->str(), engine_.holdings(a->str()),
                                          engine_.open_orders(a->str(), {}).size()),
                             v);
    }
    return std::nullopt;
}

} // namespace gateway::mocks::gamma
