// Provider beta's hooks into the one signed-write pipeline (trading/signed_write.hpp; CONTRACT
// §5-6.2, upstreams/beta.md §3-5): the market from the learned universe, the v3 parameter string
// derived exactly as the SDK derives it (sign::beta, shared with SDK users and mock-beta) and
// checked against the market's filters, the recovered signer accepted when it is the body's
// `signer` (default `wallet`; whether that API wallet is approved is the upstream's to say), one
// signed `POST`/`DELETE .../order` or `POST /fapi/v3/leverage` never retried, and the answer
// mapped (beta_trading.hpp).
#include "providers/beta/beta_network.hpp"
#include "providers/beta/beta_trading.hpp"

#include <gateway/providers/beta/orders.hpp>
#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/weights.hpp>

#include <boost/json/object.hpp>

#include <chrono>

namespace gateway::server::beta {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace sb = sign::beta;
namespace w = wire::beta;
using verb = boost::beast::http::verb;

/// What a derived write sends: the request, and what its answer is mapped with.
struct beta_write {
    venue where = venue::futures;
    verb method = verb::post;
    std::string path;            ///< `/fapi/v3/order`, `/api/v3/order`, `/fapi/v3/leverage`
    std::string msg;             ///< the signed string, without `&signature=`
    std::string upstream_symbol; ///< `BTCUSDT`
    address signer;              ///< who must have signed: the body's `signer`, default `wallet`
    write_kind kind = write_kind::place;
};

/// A market a write names: its upstream symbol and its rules.
struct write_market {
    std::string upstream;
    sb::market_rules rules;
};

result<write_market> market_of(universe const& u, vertical v, std::string const& symbol,
                               std::string const& name) {
    if (v == vertical::spot) {
        if (auto const* m = u.find_spot(symbol))
            return write_market{m->upstream, rules_of(*m)};
        api_error e =
            make_error(errc::market_not_found, "Unknown spot market '" + symbol + "' on " + name +
                                                   " (spot pairs are BASE/QUOTE).");
        e.details["field"] = "symbol";
        return e;
    }
    if (auto const* m = u.find_perp(symbol))
        return write_market{m->upstream, rules_of(*m)};
    api_error e = make_error(errc::market_not_found,
                             "Unknown perps market '" + symbol + "' on " + name +
                                 " (perps, stock and commodity perps are named by their base "
                                 "asset: BTC, TSLA, XAU).");
    e.details["field"] = "symbol";
    return e;
}

std::string symbol_of(signed_request const& r) {
    return std::visit([](auto const& x) { return x.symbol; }, r);
}

/// Who a request is for, who signs it, and its nonce.
struct auth_fields {
    address wallet;
    std::optional<address> signer;
    std::int64_t nonce = 0;
};

auth_fields auth_of(signed_request const& r) {
    return std::visit([](auto const& x) { return auth_fields{x.wallet, x.signer, x.nonce}; }, r);
}

class trading final : public signed_trading {
public:
    explicit trading(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    bool supports(vertical v, order_type type) const override {
        if (v == vertical::spot)
            return type == order_type::market || type == order_type::limit;
        return true; // all five on perps (stock and commodity perps included)
    }

    std::string signature_hint(bool testnet) const override {
        return std::string("beta's EIP-712 domain AsterSignTransaction with chainId ") +
               (testnet ? "714" : "1666") + " here";
    }

    nonce_window window() const override { return beta_nonce_window; }

    async_result<derived_write> derive(call_context const&, vertical v, signed_request request,
                                       derive_mode) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto market = market_of(**markets, v, symbol_of(request), n_->name());
        if (!market)
            co_return market.error();
        bool const spot = v == vertical::spot;
        beta_write out;
        out.where = spot ? venue::spot : venue::futures;
        out.upstream_symbol = market->upstream;
        std::string const prefix(spot ? w::spot_prefix : w::futures_prefix);
        // result<> has no empty state; every branch below assigns it.
        result<query_params> business = make_error(errc::internal_error, "unreachable");
        if (auto const* p = std::get_if<place_order_request>(&request)) {
            std::optional<decimal> mark;
            if (needs_mark(*p, market->rules))
                mark = co_await mark_of(out.where, market->upstream);
            // cppcheck-suppress redundantInitialization
            business = sb::order_params(*p, market->rules, mark);
            out.path = prefix + "order";
        } else if (auto const* c = std::get_if<cancel_order_request>(&request)) {
            business = sb::cancel_params(*c, market->rules);
            out.method = verb::delete_;
            out.path = prefix + "order";
            out.kind = write_kind::cancel;
        } else {
            business = sb::leverage_params(std::get<set_leverage_request>(request), market->rules);
            out.path = prefix + "leverage";
            out.kind = write_kind::leverage;
        }
        if (!business)
            co_return business.error();
        auto const who = auth_of(request);
        auto payload = sb::signing_payload_for(*business, who.nonce, who.wallet, who.signer,
                                               n_->options().testnet);
        if (!payload)
            co_return payload.error();
        out.msg = std::move(payload->msg);
        out.signer = who.signer.value_or(who.wallet);
        derived_write d;
        d.request = std::move(request);
        d.typed_data = std::move(payload->typed_data);
        d.digest = payload->digest;
        d.upstream = std::make_shared<beta_write const>(std::move(out));
        co_return d;
    }

    async_result<bool> authorized(call_context const&, derived_write const& d, address const&,
                                  address const& signer) override {
        co_return signer == std::static_pointer_cast<beta_write const>(d.upstream)->signer;
    }

    async_result<write_result> send(call_context const&, derived_write const& d,
                                    std::string const& signature) override {
        auto const& bw = *std::static_pointer_cast<beta_write const>(d.upstream);
        upstream_channel& channel = bw.where == venue::spot ? n_->spot() : n_->futures();
        std::string const& name = channel.options().name;
        upstream_call call;
        call.method = bw.method;
        call.target = bw.path;
        // The signed string is the body as sent, with the signature last (beta.md §3.1 step 7);
        // in the body, not the URL, so no access log upstream or here carries it.
        call.body = bw.msg + "&signature=" + signature;
        call.content_type = "application/x-www-form-urlencoded";
        call.weight = w::weight(bw.path, true, 0);
        call.idempotent = false;
        auto answer = co_await channel.write(std::move(call));
        if (!answer)
            co_return answer.error();
        if (answer->status < 200 || answer->status >= 300)
            co_return write_error(name, *answer, bw.kind, bw.signer);
        // Accepted, but unreadable (not JSON, or not the answer's shape): the write may well
        // have executed.
        auto const unknown = [&](api_error e) {
            if (e.code == errc::upstream_error) {
                e.details["outcomeUnknown"] = true;
                e.details["upstreamStatus"] = answer->status;
            }
            return e;
        };
        if (answer->body.is_null())
            co_return unknown(make_error(errc::upstream_error, "The " + name +
                                                                   " upstream answered a body "
                                                                   "that is not JSON."));
        if (auto const* p = std::get_if<place_order_request>(&d.request)) {
            auto placed = to_place_result(name, answer->body, p->size, p->client_order_id);
            if (!placed)
                co_return unknown(placed.error());
            bool const may_have_matched =
                p->type == order_type::market || p->type == order_type::limit;
            if (placed->status == place_status::open && may_have_matched) {
                auto settled =
                    co_await final_state(*p, bw.where, bw.upstream_symbol, placed->order_id, name);
                if (settled && !*settled)
                    co_return settled->error();
                if (settled)
                    co_return **settled;
            }
            co_return *placed;
        }
        if (auto const* c = std::get_if<cancel_order_request>(&d.request)) {
            auto canceled = to_cancel_result(name, answer->body, c->order_id);
            if (!canceled)
                co_return unknown(canceled.error());
            co_return *canceled;
        }
        auto changed = to_leverage_result(name, answer->body,
                                          std::get<set_leverage_request>(d.request).symbol);
        if (!changed)
            co_return unknown(changed.error());
        co_return *changed;
    }

private:
    /**
     * The order's state after matching. The upstream answers a new order as accepted (ACK: NEW,
     * nothing executed; the signed string carries no `newOrderRespType`), so a market or limit
     * order that may have traded on arrival is read back once (`GET .../order`, weight 1,
     * signed by the read signer): filled, partially filled, or expired unfilled (an IOC or
     * market order with nothing to match, a post-only order that would have crossed: 400
     * ORDER_REJECTED). Best effort: when the read fails (the account has not approved the read
     * signer, the upstream is slow) the accepted answer stands (`open`).
     */
    // A coroutine keeps its parameters by value (they outlive the caller's frame).
    asio::awaitable<std::optional<result<place_result>>>
    final_state(place_order_request r, venue where, std::string upstream_symbol,
                // cppcheck-suppress passedByValue
                std::string order_id, std::string name) {
        std::string path =
            std::string(where == venue::spot ? w::spot_prefix : w::futures_prefix) + "order";
        query_params q{{"symbol", std::move(upstream_symbol)}, {"orderId", order_id}};
        auto f = n_->start_signed_get(where, std::move(path), std::move(q), r.wallet);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return std::nullopt;
        auto settled = to_place_result(name, **answer, r.size, r.client_order_id);
        if (settled && settled->order_id != order_id)
            co_return std::nullopt;
        if (!settled && settled.error().code != errc::order_rejected)
            co_return std::nullopt;
        co_return settled;
    }

    /// Whether the filters need the mark: the percent-price band of a limit price, the minimum
    /// notional of a market order.
    static bool needs_mark(place_order_request const& r, sb::market_rules const& m) {
        bool const band = r.price && (m.multiplier_up || m.multiplier_down);
        bool const notional = r.type == order_type::market && !m.min_notional.is_zero();
        return band || notional;
    }

    /**
     * The market's mark (perps: premiumIndex) or last price (spot: ticker/price), from the short
     * market-data cache. Best effort: without it the mark-based filters are left to the
     * upstream, which applies them anyway.
     */
    // cppcheck-suppress passedByValue
    asio::awaitable<std::optional<decimal>> mark_of(venue where, std::string upstream) {
        bool const spot = where == venue::spot;
        std::string path = std::string(spot ? w::spot_prefix : w::futures_prefix) +
                           (spot ? "ticker/price" : "premiumIndex");
        query_params q{{"symbol", std::move(upstream)}};
        auto f = n_->start_get(where, std::move(path), std::move(q), n_->options().market_ttl);
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return std::nullopt;
        if (auto const* o = (**answer).if_object())
            if (auto const* px = o->if_contains(spot ? "price" : "markPrice"))
                if (auto d = decimal::from_json_lenient(*px);
                    d && !d->is_zero() && !d->is_negative())
                    co_return d;
        co_return std::nullopt;
    }

    std::shared_ptr<network> n_;
};

} // namespace

std::shared_ptr<signed_trading> make_signed_trading(std::shared_ptr<network> n) {
    return std::make_shared<trading>(std::move(n));
}

} // namespace gateway::server::beta
