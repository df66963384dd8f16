// Provider alpha's hooks into the one signed-write pipeline (trading/signed_write.hpp; CONTRACT
// §5-6.1, upstreams/alpha.md §4-5): the market from the learned universe, the L1 action derived
// exactly as the SDK derives it (sign::alpha, shared with SDK users and mock-alpha), the signer
// accepted when it is the wallet or an agent the upstream reports for it, one `POST /exchange`
// never retried, and the answer mapped (alpha_trading.hpp).
#include "providers/alpha/alpha_network.hpp"
#include "providers/alpha/alpha_trading.hpp"

#include <gateway/providers/alpha/info.hpp>
#include <gateway/providers/alpha/orders.hpp>
#include <gateway/providers/alpha/weights.hpp>

#include <boost/json/serialize.hpp>

#include <charconv>
#include <chrono>

namespace gateway::server::alpha {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace sa = sign::alpha;
namespace info = wire::alpha::info;
using namespace std::chrono_literals;

/// What a write needs to know about its market.
struct write_market {
    sa::market_rules rules;
    std::string coin; ///< upstream coin: "BTC", "xyz:TSLA", "PURR/USDC", "@1"
    std::string dex;  ///< perps dex for allMids ("" = main)
};

result<write_market> market_of(universe const& u, vertical v, std::string const& symbol) {
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

/// The derived write's upstream form: the L1 action and the market it was derived for.
struct alpha_write {
    json::object action;
    write_market market;
};

std::string symbol_of(signed_request const& r) {
    return std::visit([](auto const& x) { return x.symbol; }, r);
}

std::string account_path(bool testnet, address const& wallet) {
    return std::string(testnet ? "/v1/testnet" : "/v1") + "/perps/alpha/account/" + wallet.str();
}

class trading final : public signed_trading {
public:
    explicit trading(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    bool supports(vertical v, order_type type) const override {
        if (v == vertical::spot)
            return type == order_type::market || type == order_type::limit;
        return type != order_type::trailing_stop;
    }

    std::string signature_hint(bool testnet) const override {
        return std::string("phantom-agent source \"") + (testnet ? "b" : "a") + "\" here";
    }

    nonce_window window() const override { return alpha_nonce_window; }

    async_result<derived_write> derive(call_context const& ctx, vertical v, signed_request request,
                                       derive_mode mode) override {
        auto markets = co_await n_->markets();
        if (!markets)
            co_return markets.error();
        auto market = market_of(**markets, v, symbol_of(request));
        if (!market)
            co_return market.error();
        if (mode == derive_mode::typed_data)
            if (auto* place = std::get_if<place_order_request>(&request)) {
                auto filled = co_await fill_price(*place, *market);
                if (!filled)
                    co_return filled.error();
            }
        result<json::object> action = make_error(errc::internal_error, "unreachable");
        std::int64_t nonce = 0;
        if (auto const* p = std::get_if<place_order_request>(&request)) {
            action = sa::order_action(*p, market->rules);
            nonce = p->nonce;
        } else if (auto const* c = std::get_if<cancel_order_request>(&request)) {
            action = sa::cancel_action(*c, market->rules);
            nonce = c->nonce;
        } else {
            auto const& l = std::get<set_leverage_request>(request);
            action = sa::leverage_action(l, market->rules);
            nonce = l.nonce;
        }
        if (!action)
            co_return action.error();
        auto payload = sa::signing_payload_for(*action, nonce, ctx.testnet);
        if (!payload)
            co_return payload.error();
        derived_write out;
        out.request = std::move(request);
        out.typed_data = std::move(payload->typed_data);
        out.digest = payload->digest;
        out.upstream = std::make_shared<alpha_write const>(
            alpha_write{std::move(*action), std::move(*market)});
        co_return out;
    }

    async_result<bool> authorized(call_context const&, derived_write const&, address const& wallet,
                                  address const& signer) override {
        if (signer == wallet)
            co_return true;
        co_return co_await n_->approved_agent(wallet.str(), signer.str());
    }

    async_result<write_result> send(call_context const& ctx, derived_write const& w,
                                    std::string const& signature) override {
        auto const& a = *std::static_pointer_cast<alpha_write const>(w.upstream);
        std::int64_t const nonce = std::visit([](auto const& x) { return x.nonce; }, w.request);
        auto envelope = exchange_envelope(a.action, nonce, signature);
        if (!envelope)
            co_return envelope.error();
        upstream_call call;
        call.method = boost::beast::http::verb::post;
        call.target = "/exchange";
        call.body = json::serialize(*envelope);
        call.weight = wire::alpha::exchange_weight(a.action);
        auto answer = co_await n_->channel().write(std::move(call));
        if (!answer)
            co_return answer.error();
        if (answer->status < 200 || answer->status >= 300)
            co_return make_error(errc::upstream_error, "The " + n_->options().channel.name +
                                                           " upstream answered HTTP " +
                                                           std::to_string(answer->status) + ".");
        if (answer->body.is_null())
            co_return make_error(errc::upstream_error,
                                 "The " + n_->options().channel.name +
                                     " upstream answered a body that is not JSON.");
        if (auto const* p = std::get_if<place_order_request>(&w.request))
            co_return co_await placed(ctx, *p, a.market, answer->body);
        if (auto const* c = std::get_if<cancel_order_request>(&w.request)) {
            auto canceled = to_cancel_result(answer->body, c->order_id);
            if (!canceled)
                co_return canceled.error();
            co_return *canceled;
        }
        auto const& l = std::get<set_leverage_request>(w.request);
        if (auto ok = to_leverage_ok(answer->body); !ok)
            co_return ok.error();
        co_return leverage_result{l.symbol, l.leverage, l.margin_mode};
    }

private:
    /// The mid of a market from (cached) allMids. @par Errors UPSTREAM_ERROR when it has none.
    asio::awaitable<result<decimal>> mid_of(write_market const& m) {
        auto const body = info::all_mids(m.dex);
        auto const answer = co_await n_->market_info(body);
        if (!*answer)
            co_return answer->error();
        if (auto const* o = (**answer).if_object())
            if (auto const* px = o->if_contains(m.coin))
                if (auto d = decimal::from_json_lenient(*px);
                    d && !d->is_negative() && !d->is_zero())
                    co_return *d;
        co_return make_error(errc::upstream_error,
                             "The alpha upstream reports no mid price for " + m.coin +
                                 "; send `price` (the worst acceptable price) yourself.");
    }

    /// A missing `price` of a market or stop_market order (CONTRACT §5): the worst acceptable
    /// price, 5% through the reference: the mid for a market order, the trigger price for a
    /// stop market (the price it will meet).
    asio::awaitable<result<void>> fill_price(place_order_request& r, write_market const& market) {
        bool const needs_bound = r.type == order_type::market || r.type == order_type::stop_market;
        if (r.price || !needs_bound)
            co_return result<void>{};
        result<decimal> reference = make_error(errc::internal_error, "unreachable");
        if (r.type == order_type::stop_market && r.trigger_price)
            reference = *r.trigger_price;
        else
            reference = co_await mid_of(market);
        if (!reference)
            co_return reference.error();
        auto bound = sa::market_order_price(*reference, r.side, market.rules);
        if (!bound)
            co_return bound.error();
        r.price = *bound;
        co_return result<void>{};
    }

    /// The place answer: a bare "waitingForTrigger" resolved to its oid, a resting Gtc limit
    /// checked for a partial fill on arrival.
    async_result<write_result> placed(call_context const& ctx, place_order_request const& r,
                                      write_market const& market, json::value const& answer) {
        auto out = to_place_result(answer, r.size, r.client_order_id);
        if (!out)
            co_return out.error();
        if (out->result.order_id.empty()) {
            auto oid = co_await find_trigger_oid(ctx.testnet, r, market.coin);
            if (!oid)
                co_return oid.error();
            out->result.order_id = std::move(*oid);
        }
        bool const may_have_crossed =
            r.type == order_type::limit &&
            r.time_in_force.value_or(time_in_force::gtc) == time_in_force::gtc;
        if (out->result.status == place_status::open && may_have_crossed)
            co_await add_fill_progress(r.wallet.str(), out->result);
        co_return out->result;
    }

    /// A bare "waitingForTrigger" carries no oid: find the order among the wallet's open orders
    /// (by clientOrderId, else the newest trigger order of that coin, side, size and trigger).
    // cppcheck-suppress passedByValue
    asio::awaitable<result<std::string>> find_trigger_oid(bool testnet, place_order_request r,
                                                          std::string coin) {
        auto const body = info::frontend_open_orders(r.wallet.str());
        auto const answer = co_await n_->info(body, 0ms);
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
        co_return make_error(
            errc::upstream_error,
            "The alpha upstream accepted the trigger order but did not report its id; see GET " +
                account_path(testnet, r.wallet) + "/orders.");
    }

    /**
     * A Gtc limit that rests may have filled in part on arrival, which the upstream's `resting`
     * answer does not say: orderStatus (weight 2) tells how much filled, and only then userFills
     * (weight 20) the average price, so the answer is `partially_filled` with both. Best effort:
     * the order is placed whatever these reads do, so a failed read leaves the answer `open`.
     * Returns whether it changed the answer.
     */
    // cppcheck-suppress passedByValue
    asio::awaitable<bool> add_fill_progress(std::string wallet, place_result& out) {
        std::uint64_t oid = 0;
        auto const* end = out.order_id.data() + out.order_id.size();
        if (std::from_chars(out.order_id.data(), end, oid).ptr != end)
            co_return false;
        auto const status_body = info::order_status(wallet, oid);
        auto const status = co_await n_->info(status_body, 0ms);
        if (!*status)
            co_return false;
        auto const filled = to_filled_size(**status);
        if (!filled || filled->is_zero() || filled->is_negative())
            co_return false;
        auto const fills_body = info::user_fills(wallet);
        auto const fills = co_await n_->info(fills_body, 0ms);
        if (!*fills)
            co_return false;
        auto const average = average_fill_price(**fills, out.order_id);
        if (!average)
            co_return false;
        out.status = place_status::partially_filled;
        out.filled_size = *filled;
        out.average_price = *average;
        co_return true;
    }

    std::shared_ptr<network> n_;
};

} // namespace

std::shared_ptr<signed_trading> make_signed_trading(std::shared_ptr<network> n) {
    return std::make_shared<trading>(std::move(n));
}

} // namespace gateway::server::alpha
