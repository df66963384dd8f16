// Provider alpha's signed writes (spec 4.2 writes, 4.4 spot order; CONTRACT §5-6.1), each under
// /v1/ and /v1/testnet/ (CONTRACT §7). The gateway never holds a key: the client signs, the
// gateway checks and forwards.
//
// Every write goes the same way, each step before any upstream call:
//   body (INVALID_JSON / VALIDATION_ERROR) -> market from the learned universe
//   (MARKET_NOT_FOUND) -> the upstream action derived exactly as the SDK derives it (CONTRACT
//   §6.1; tick/lot VALIDATION_ERROR, UNSUPPORTED_ORDER_TYPE, MAX_LEVERAGE_EXCEEDED) -> the
//   signer recovered from `signature` over that action, accepted when it is `wallet` or an
//   agent the upstream reports for it (SIGNATURE_ERROR naming both addresses) -> the nonce
//   guard per network and signer (INVALID_NONCE, journaled, no database) -> one `POST
//   /exchange`, never retried (a timeout is 504 with the order's state unknown) -> the answer
//   mapped (alpha_trading.hpp).
#include "alpha/alpha_adapter.hpp"
#include "alpha/alpha_map.hpp"
#include "alpha/alpha_trading.hpp"
#include "alpha_routes.hpp"
#include "services.hpp"
#include "trading/nonce_guard.hpp"

#include <gateway/sign/alpha_orders.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/json/value_from.hpp>

#include <charconv>
#include <chrono>

namespace gateway::server {

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;
namespace sa = sign::alpha;
using namespace std::chrono_literals;

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

reply json_reply(json::value body) {
    reply out;
    out.body = std::move(body);
    return out;
}

std::string network_name(bool testnet) {
    return testnet ? "alpha testnet" : "alpha";
}

/// What a write needs to know about its market.
struct write_market {
    sa::market_rules rules;
    std::string coin; ///< upstream coin: "BTC", "xyz:TSLA", "PURR/USDC", "@1"
    std::string dex;  ///< perps dex for allMids ("" = main)
};

result<write_market> market_of(alpha::universe const& u, vertical v, std::string const& symbol) {
    if (v == vertical::spot) {
        if (auto const* m = u.find_spot(symbol)) {
            write_market w;
            w.rules = sa::market_rules{m->asset, m->sz_decimals, true, 0};
            w.coin = m->coin;
            return w;
        }
        api_error e = make_error(errc::market_not_found,
                                 "Unknown spot market '" + symbol + "' on alpha (use BASE/QUOTE).");
        e.details["field"] = "symbol";
        return e;
    }
    if (auto const* m = u.find_perp(symbol)) {
        write_market w;
        w.rules = sa::market_rules{m->asset, m->sz_decimals, false, m->max_leverage};
        w.coin = m->symbol;
        w.dex = m->dex;
        return w;
    }
    api_error e =
        make_error(errc::market_not_found, "Unknown perps market '" + symbol + "' on alpha.");
    e.details["field"] = "symbol";
    return e;
}

// Coroutine parameters by value: they live in the frame across suspensions.
asio::awaitable<result<write_market>> resolve_market(services& s, bool testnet, vertical v,
                                                     // cppcheck-suppress passedByValue
                                                     std::string symbol) {
    auto markets = co_await s.alpha(testnet).markets();
    if (!markets)
        co_return markets.error();
    co_return market_of(**markets, v, symbol);
}

/// A write body read strictly and checked for a signed write.
template <class T>
result<T> read_write(request_context const& ctx,
                     result<T> (*parse)(json::value const&, strictness)) {
    auto body = json_body(ctx.req);
    if (!body)
        return body.error();
    auto r = parse(*body, strictness::inbound);
    if (!r)
        return r.error();
    if (auto ok = validate(*r); !ok)
        return ok.error();
    return r;
}

/// A derived action with what signs it.
struct signed_action {
    json::object action;
    std::int64_t nonce = 0;
    std::string signature;
    address wallet;
};

/**
 * Recovers the signer, accepts it when it is the wallet or one of its agents, and records the
 * nonce for (network, signer). Returns the nonce scope.
 */
asio::awaitable<result<std::string>> verify(services& s, bool testnet, signed_action const& w) {
    auto signer = sa::recover_signer(w.action, w.nonce, w.signature, testnet);
    if (!signer)
        co_return signer.error();
    if (*signer != w.wallet) {
        std::string const wallet = w.wallet.str();
        std::string const who = signer->str();
        auto approved = co_await s.alpha(testnet).approved_agent(wallet, who);
        if (!approved)
            co_return approved.error();
        if (!*approved) {
            api_error e =
                make_error(errc::signature_error,
                           "The signature recovers to " + who + ", which is neither the wallet " +
                               wallet + " nor an agent it approved on " + network_name(testnet) +
                               "; check the key, the network (phantom-agent source \"" +
                               (testnet ? "b" : "a") +
                               "\" here) and that the body is exactly what was signed.");
            e.details["field"] = "signature";
            e.details["recovered"] = who;
            e.details["expected"] = wallet;
            co_return e;
        }
    }
    std::string scope = (testnet ? "alpha-testnet:" : "alpha:") + signer->str();
    auto fresh = s.nonces.check_and_record(scope, w.nonce, wall_ms(), alpha_nonce_window);
    if (!fresh)
        co_return fresh.error();
    co_return scope;
}

/**
 * Sends the verified action once. A write that never left (budget spent, upstream unreachable)
 * gives its nonce back; a timeout keeps it and says the state is unknown and where to look.
 */
asio::awaitable<result<json::value>> forward(services& s, bool testnet, signed_action const& w,
                                             // cppcheck-suppress passedByValue
                                             std::string scope, std::string what_unknown) {
    auto envelope = alpha::exchange_envelope(w.action, w.nonce, w.signature);
    if (!envelope) {
        s.nonces.release(scope, w.nonce);
        co_return envelope.error();
    }
    auto const weight = alpha::exchange_weight(w.action);
    auto answer = co_await s.alpha(testnet).exchange(*envelope, weight);
    if (*answer)
        co_return **answer;
    api_error e = answer->error();
    if (e.code == errc::provider_unavailable)
        s.nonces.release(scope, w.nonce);
    if (e.code == errc::upstream_timeout)
        e.message = "The " + network_name(testnet) + " upstream did not answer in time, so " +
                    what_unknown + " Do not resend blindly.";
    else if (e.details.contains("outcomeUnknown"))
        e.message = "The connection to the " + network_name(testnet) +
                    " upstream broke after the request was sent, so " + what_unknown +
                    " Do not resend blindly.";
    co_return e;
}

std::string account_path(bool testnet, address const& wallet) {
    return std::string(testnet ? "/v1/testnet" : "/v1") + "/perps/alpha/account/" + wallet.str();
}

// ---------------------------------------------------------------------------------------------
// Place

/// A bare "waitingForTrigger" carries no oid: find the order among the wallet's open orders
/// (by clientOrderId, else the newest trigger order of that coin, side, size and trigger).
asio::awaitable<result<std::string>> find_trigger_oid(services& s, bool testnet,
                                                      // cppcheck-suppress passedByValue
                                                      place_order_request r, std::string coin) {
    json::object body;
    body["type"] = "frontendOpenOrders";
    body["user"] = r.wallet.str();
    auto const answer = co_await s.alpha(testnet).info(body, 0ms);
    if (!*answer)
        co_return answer->error();
    if (auto const* arr = (**answer).if_array())
        for (auto const& v : *arr) { // newest first
            auto const* o = v.if_object();
            if (!o)
                continue;
            auto str = [o](char const* k) -> std::string {
                auto const* x = o->if_contains(k);
                return x && x->is_string() ? std::string(x->get_string()) : std::string();
            };
            auto const* oid = o->if_contains("oid");
            if (!oid || !(oid->is_uint64() || oid->is_int64()))
                continue;
            bool match = false;
            if (r.client_order_id)
                match = str("cloid") == *r.client_order_id;
            else
                match = str("coin") == coin && (str("side") == "B") == (r.side == side::buy) &&
                        decimal::parse_lenient(str("origSz")) == r.size &&
                        decimal::parse_lenient(str("triggerPx")) == r.trigger_price;
            if (match)
                co_return oid->is_uint64() ? std::to_string(oid->get_uint64())
                                           : std::to_string(oid->get_int64());
        }
    co_return make_error(errc::upstream_error,
                         "The alpha upstream accepted the trigger order but did not report its id; "
                         "see GET " +
                             account_path(testnet, r.wallet) + "/orders.");
}

/// A signed write after its upstream answer: the body, its market and what the upstream said.
template <class Request>
struct sent_write {
    Request body;
    write_market market;
    json::value answer;
};

template <class Request>
using parse_fn = result<Request> (*)(json::value const&, strictness);
template <class Request>
using derive_fn = result<json::object> (*)(Request const&, sa::market_rules const&);
/// What to tell the client when the upstream did not answer in time (the state is unknown).
template <class Request>
using unknown_fn = std::string (*)(bool testnet, Request const&);

/// The one pipeline of every signed write (see the file comment): body, market, derived
/// action, signer, nonce, one `/exchange` call.
template <class Request>
asio::awaitable<result<sent_write<Request>>>
signed_write(services& s, request_context& ctx, vertical v, parse_fn<Request> parse,
             derive_fn<Request> derive, unknown_fn<Request> unknown) {
    if (auto ok = require_alpha(ctx, v); !ok)
        co_return ok.error();
    auto r = read_write(ctx, parse);
    if (!r)
        co_return r.error();
    auto market = co_await resolve_market(s, ctx.testnet, v, r->symbol);
    if (!market)
        co_return market.error();
    auto action = derive(*r, market->rules);
    if (!action)
        co_return action.error();
    signed_action const w{std::move(*action), r->nonce, r->signature, r->wallet};
    auto scope = co_await verify(s, ctx.testnet, w);
    if (!scope)
        co_return scope.error();
    std::string const what_unknown = unknown(ctx.testnet, *r); // named: GCC 12 and co_await
    auto answer = co_await forward(s, ctx.testnet, w, *scope, what_unknown);
    if (!answer)
        co_return answer.error();
    co_return sent_write<Request>{std::move(*r), std::move(*market), std::move(*answer)};
}

std::string order_unknown(bool testnet, place_order_request const& r) {
    return "the order's state is unknown: check GET " + account_path(testnet, r.wallet) +
           "/orders and /fills" +
           (r.client_order_id ? " for clientOrderId " + *r.client_order_id : "") +
           " before placing it again.";
}

std::string cancel_unknown(bool testnet, cancel_order_request const& r) {
    return "whether order " + r.order_id + " was canceled is unknown: check GET " +
           account_path(testnet, r.wallet) + "/orders.";
}

std::string leverage_unknown(bool testnet, set_leverage_request const& r) {
    return "whether the leverage changed is unknown: check GET " + account_path(testnet, r.wallet) +
           "/positions.";
}

/**
 * A Gtc limit that rests may have filled in part on arrival, which the upstream's `resting`
 * answer does not say: orderStatus (weight 2) tells how much filled, and only then userFills
 * (weight 20) the average price, so the answer is `partially_filled` with both. Best effort:
 * the order is placed whatever these reads do, so a failed read leaves the answer `open`.
 * Returns whether it changed the answer.
 */
// cppcheck-suppress passedByValue
asio::awaitable<bool> add_fill_progress(services& s, bool testnet, std::string wallet,
                                        place_result& out) {
    auto& a = s.alpha(testnet);
    json::object status_body;
    status_body["type"] = "orderStatus";
    status_body["user"] = wallet;
    std::uint64_t oid = 0;
    auto const* end = out.order_id.data() + out.order_id.size();
    if (std::from_chars(out.order_id.data(), end, oid).ptr != end)
        co_return false;
    status_body["oid"] = oid;
    auto const status = co_await a.info(status_body, 0ms);
    if (!*status)
        co_return false;
    auto const filled = alpha::to_filled_size(**status);
    if (!filled || filled->is_zero() || filled->is_negative())
        co_return false;
    json::object fills_body;
    fills_body["type"] = "userFills";
    fills_body["user"] = wallet;
    auto const fills = co_await a.info(fills_body, 0ms);
    if (!*fills)
        co_return false;
    auto const average = alpha::average_fill_price(**fills, out.order_id);
    if (!average)
        co_return false;
    out.status = place_status::partially_filled;
    out.filled_size = *filled;
    out.average_price = *average;
    co_return true;
}

asio::awaitable<result<reply>> place_route(services& s, request_context& ctx, vertical v) {
    auto sent = co_await signed_write<place_order_request>(s, ctx, v, &parse_place_order_request,
                                                           &sa::order_action, &order_unknown);
    if (!sent)
        co_return sent.error();
    auto placed = alpha::to_place_result(sent->answer, sent->body.size, sent->body.client_order_id);
    if (!placed)
        co_return placed.error();
    if (placed->result.order_id.empty()) {
        auto oid = co_await find_trigger_oid(s, ctx.testnet, sent->body, sent->market.coin);
        if (!oid)
            co_return oid.error();
        placed->result.order_id = std::move(*oid);
    }
    auto const& r = sent->body;
    bool const may_have_crossed =
        r.type == order_type::limit &&
        r.time_in_force.value_or(time_in_force::gtc) == time_in_force::gtc;
    if (placed->result.status == place_status::open && may_have_crossed)
        co_await add_fill_progress(s, ctx.testnet, r.wallet.str(), placed->result);
    co_return json_reply(json::value_from(placed->result));
}

asio::awaitable<result<reply>> cancel_route(services& s, request_context& ctx, vertical v) {
    auto sent = co_await signed_write<cancel_order_request>(s, ctx, v, &parse_cancel_order_request,
                                                            &sa::cancel_action, &cancel_unknown);
    if (!sent)
        co_return sent.error();
    auto canceled = alpha::to_cancel_result(sent->answer, sent->body.order_id);
    if (!canceled)
        co_return canceled.error();
    co_return json_reply(json::value_from(*canceled));
}

asio::awaitable<result<reply>> leverage_route(services& s, request_context& ctx, vertical v) {
    auto sent = co_await signed_write<set_leverage_request>(
        s, ctx, v, &parse_set_leverage_request, &sa::leverage_action, &leverage_unknown);
    if (!sent)
        co_return sent.error();
    if (auto ok = alpha::to_leverage_ok(sent->answer); !ok)
        co_return ok.error();
    auto const& r = sent->body;
    co_return json_reply(json::value_from(leverage_result{r.symbol, r.leverage, r.margin_mode}));
}

// ---------------------------------------------------------------------------------------------
// Typed data (CONTRACT §6)

/// The mid of a market from (cached) allMids. @par Errors UPSTREAM_ERROR when it has none.
asio::awaitable<result<decimal>> mid_of(services& s, bool testnet, write_market m) {
    json::object body;
    body["type"] = "allMids";
    if (!m.dex.empty())
        body["dex"] = m.dex;
    auto const answer = co_await s.alpha(testnet).info(body, s.config.market_cache_ttl);
    if (!*answer)
        co_return answer->error();
    if (auto const* o = (**answer).if_object())
        if (auto const* px = o->if_contains(m.coin))
            if (auto d = decimal::from_json_lenient(*px); d && !d->is_negative() && !d->is_zero())
                co_return *d;
    co_return make_error(errc::upstream_error,
                         "The alpha upstream reports no mid price for " + m.coin +
                             "; send `price` (the worst acceptable price) yourself.");
}

result<typed_data_response> typed_answer(json::value params, json::object const& action,
                                         std::int64_t nonce, bool testnet) {
    auto payload = sa::signing_payload_for(action, nonce, testnet);
    if (!payload)
        return payload.error();
    typed_data_response out;
    out.params = std::move(params.as_object());
    out.params.erase("signature");
    out.typed_data = std::move(payload->typed_data.as_object());
    out.digest = sign::to_hex(payload->digest);
    return out;
}

template <class T>
result<T> read_params(json::object const& params,
                      result<T> (*parse)(json::value const&, strictness)) {
    json::value v = params;
    v.as_object().erase("signature"); // params are the body without it (CONTRACT §6)
    if (!v.as_object().contains("nonce"))
        v.as_object()["nonce"] = sa::next_nonce_ms(); // the gateway picks one (CONTRACT §6)
    return parse(v, strictness::inbound);
}

/// A missing `price` of a market or stop_market order (CONTRACT §5): the worst acceptable
/// price, 5% through the reference: the mid for a market order, the trigger price for a stop
/// market (the price it will meet).
asio::awaitable<result<void>> fill_defaults(services& s, bool testnet, place_order_request& r,
                                            write_market const& market) {
    bool const needs_bound = r.type == order_type::market || r.type == order_type::stop_market;
    if (r.price || !needs_bound)
        co_return result<void>{};
    result<decimal> reference = make_error(errc::internal_error, "unreachable");
    if (r.type == order_type::stop_market && r.trigger_price)
        reference = *r.trigger_price;
    else
        reference = co_await mid_of(s, testnet, market);
    if (!reference)
        co_return reference.error();
    auto bound = sa::market_order_price(*reference, r.side, market.rules);
    if (!bound)
        co_return bound.error();
    r.price = *bound;
    co_return result<void>{};
}

/// Cancels and leverage changes have nothing to fill in.
template <class Request>
asio::awaitable<result<void>> fill_defaults(services&, bool, Request&, write_market const&) {
    co_return result<void>{};
}

/// typed-data of one operation: params read (the gateway picks a missing nonce), defaults
/// filled, checked as typed-data params, derived exactly as the write will be.
template <class Request>
asio::awaitable<result<typed_data_response>>
typed_for(services& s, request_context& ctx, vertical v, json::object const& params,
          parse_fn<Request> parse, derive_fn<Request> derive) {
    auto r = read_params(params, parse);
    if (!r)
        co_return r.error();
    auto market = co_await resolve_market(s, ctx.testnet, v, r->symbol);
    if (!market)
        co_return market.error();
    auto filled = co_await fill_defaults(s, ctx.testnet, *r, *market);
    if (!filled)
        co_return filled.error();
    if (auto ok = validate(*r, body_kind::typed_data_params); !ok)
        co_return ok.error();
    auto action = derive(*r, market->rules);
    if (!action)
        co_return action.error();
    co_return typed_answer(json::value_from(*r), *action, r->nonce, ctx.testnet);
}

asio::awaitable<result<reply>> typed_data_route(services& s, request_context& ctx, vertical v) {
    if (auto ok = require_alpha(ctx, v); !ok)
        co_return ok.error();
    auto body = json_body(ctx.req);
    if (!body)
        co_return body.error();
    auto req = parse_typed_data_request(*body, strictness::inbound);
    if (!req)
        co_return req.error();
    result<typed_data_response> out = make_error(errc::internal_error, "unreachable");
    switch (req->operation) {
    case typed_data_operation::place_order:
        out = co_await typed_for<place_order_request>(
            s, ctx, v, req->params, &parse_place_order_request, &sa::order_action);
        break;
    case typed_data_operation::cancel_order:
        out = co_await typed_for<cancel_order_request>(
            s, ctx, v, req->params, &parse_cancel_order_request, &sa::cancel_action);
        break;
    case typed_data_operation::set_leverage:
        if (v != vertical::perps) {
            api_error e = make_error(errc::validation_error,
                                     "`operation` setLeverage exists for perps only.");
            e.details["field"] = "operation";
            co_return e;
        }
        out = co_await typed_for<set_leverage_request>(
            s, ctx, v, req->params, &parse_set_leverage_request, &sa::leverage_action);
        break;
    }
    if (!out)
        co_return out.error();
    co_return json_reply(json::value_from(*out));
}

} // namespace

void add_alpha_trading_routes(router& r, services& s) {
    using handler = asio::awaitable<result<reply>> (*)(services&, request_context&, vertical);
    auto add = [&](http::verb method, std::string const& pattern, handler h, vertical v) {
        add_vertical_route(r, method, pattern,
                           [&s, h, v](request_context& ctx) { return h(s, ctx, v); });
    };
    add(http::verb::post, "/perps/{provider}/orders", place_route, vertical::perps);
    add(http::verb::delete_, "/perps/{provider}/orders", cancel_route, vertical::perps);
    add(http::verb::post, "/spot/{provider}/orders", place_route, vertical::spot);
    add(http::verb::delete_, "/spot/{provider}/orders", cancel_route, vertical::spot);
    add(http::verb::post, "/perps/{provider}/leverage", leverage_route, vertical::perps);
    add(http::verb::post, "/perps/{provider}/typed-data", typed_data_route, vertical::perps);
    add(http::verb::post, "/spot/{provider}/typed-data", typed_data_route, vertical::spot);
}

} // namespace gateway::server
