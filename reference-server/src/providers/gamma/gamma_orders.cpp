// Provider gamma's prediction trading (spec 4.6; CONTRACT §4, §5, §6.3; upstreams/gamma.md §4-6)
// behind the seam's predictions_trading: the token's rules from its CLOB book (cached with the
// orderbook reads), the CTF Exchange Order the body stands for, derived exactly as the SDK
// derives it (sign::gamma, shared with SDK users and mock-gamma), one L2-signed `POST /order` or
// `DELETE /order` never retried, and the credential's open orders and trades. The credentials
// feed only the L2 headers (and the `owner` of an order) of the calls made for one request.
// The answers' mapping is gamma_trading.hpp.
//
// Refusals the CLOB alone could give are found before `POST /order`, so a refused order never
// reaches the order endpoint (issue 15: each refusal adds no CLOB order request):
// - Credentials: an L2 `GET /auth/ban-status/closed-only` for the wallet (the cheapest L2 call)
//   answers 401 for an unknown key, a wrong secret or passphrase, or another wallet's key. A
//   success is remembered for `verified_ttl_ms` as a keyed digest (HMAC-SHA256 under a random key
//   of this process, never the credentials), so a trader's stream of orders costs one check a
//   minute against the API-key budget (100 per 10 s), not one per order. The account reads
//   (open orders, fills) remember the credentials they succeed with too; a 401 to an order
//   forgets them.
// - FOK: the token's book read fresh (uncached) must hold `size` at the order's price or better;
//   otherwise 400 ORDER_REJECTED with the upstream's FOK text. A book that could fill sends the
//   order, and the CLOB still decides (it may have moved).
#include "providers/gamma/gamma_network.hpp"
#include "providers/gamma/gamma_trading.hpp"

#include <gateway/providers/gamma/errors.hpp>
#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/requests.hpp>
#include <gateway/providers/gamma/signing.hpp>
#include <gateway/providers/gamma/weights.hpp>

#include <gateway/sign/hmac.hpp>

#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>

namespace gateway::server::gamma {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace sg = sign::gamma;
namespace w = wire::gamma;
using verb = boost::beast::http::verb;

/// What a derived order sends: the Order, its exchange and its `orderType`.
struct order_form {
    sg::order order;
    address exchange;
    prediction_time_in_force type = prediction_time_in_force::gtc;
};

/// The safety margin of a GTD expiration (gamma.md §5.3: at least now + 60 s).
constexpr std::int64_t gtd_margin_s = 60;
/// Pages one account read walks at most (100 items each upstream).
constexpr std::size_t max_account_pages = 20;
/// How long credentials the CLOB accepted for a wallet are taken as valid without asking again.
constexpr std::int64_t verified_ttl_ms = 60'000;
/// Verified credential digests kept at most (expired ones are dropped first, then all).
constexpr std::size_t max_verified = 4096;

api_error unknown_token(std::string const& token) {
    api_error e = make_error(errc::market_not_found,
                             "Unknown token '" + token +
                                 "' on gamma (no order book: an unknown token, or its market is "
                                 "closed).");
    e.details["field"] = "tokenId";
    return e;
}

/**
 * Whether the asks (a BUY) or bids (a SELL) of `book` at `price` or better hold `size` shares.
 * Sizes in 6-decimal units; a level that does not fit them is taken as enough (the CLOB decides).
 */
bool book_fills(orderbook const& book, side s, decimal const& price, decimal const& size) {
    auto const want = size.to_scaled(6);
    if (!want)
        return true;
    std::int64_t have = 0;
    for (auto const& l : s == side::buy ? book.asks : book.bids) {
        if (s == side::buy ? l.price > price : l.price < price)
            break;
        auto const units = l.size.to_scaled(6);
        if (!units || *units >= *want - have)
            return true;
        have += *units;
    }
    return false;
}

/// Credentials the CLOB accepted lately, as keyed digests (file comment).
class verified_credentials {
public:
    using digest = sign::hmac256;

    verified_credentials() {
        if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1)
            throw std::runtime_error("no randomness for the credential digest key");
    }
    verified_credentials(verified_credentials const&) = delete;
    verified_credentials& operator=(verified_credentials const&) = delete;
    ~verified_credentials() { OPENSSL_cleanse(key_.data(), key_.size()); }

    /// The digest of (credentials, wallet): length-prefixed fields, so no two tuples collide.
    digest of(api_credentials const& c, address const& wallet) const {
        std::string text;
        for (std::string_view const part :
             {c.api_key(), c.secret(), c.passphrase(), std::string_view(wallet.str())}) {
            text += std::to_string(part.size());
            text += ':';
            text += part;
        }
        auto const d = sign::hmac_sha256(key_, text);
        OPENSSL_cleanse(text.data(), text.size());
        return d;
    }
    bool known(digest const& d, std::int64_t now_ms) {
        std::lock_guard lock(m_);
        auto const it = until_.find(d);
        return it != until_.end() && it->second > now_ms;
    }
    void remember(digest const& d, std::int64_t now_ms) {
        std::lock_guard lock(m_);
        if (until_.size() >= max_verified) {
            std::erase_if(until_, [&](auto const& kv) { return kv.second <= now_ms; });
            if (until_.size() >= max_verified)
                until_.clear();
        }
        until_[d] = now_ms + verified_ttl_ms;
    }
    void forget(digest const& d) {
        std::lock_guard lock(m_);
        until_.erase(d);
    }

private:
    std::array<std::uint8_t, 32> key_{};
    std::mutex m_;
    std::map<digest, std::int64_t> until_; ///< digest -> valid until (ms, the injected clock)
};

class orders final : public predictions_trading {
public:
    explicit orders(std::shared_ptr<network> n)
        : n_(std::move(n)) {}

    async_result<derived_prediction_order> derive(call_context const& ctx, gamma_order_request r,
                                                  derive_mode mode) override {
        if (!w::is_token_id(r.token_id))
            co_return unknown_token(r.token_id);
        auto rules = co_await rules_of(r.token_id);
        if (!rules)
            co_return rules.error();
        auto const type = r.time_in_force.value_or(prediction_time_in_force::gtc);
        if (type == prediction_time_in_force::gtd &&
            r.expiration < ctx.now_ms / 1000 + gtd_margin_s)
            co_return field_error("expiration",
                                  "'expiration' of a gtd order must be at least 60 s ahead (unix "
                                  "seconds; the upstream's safety margin).");
        if (mode == derive_mode::typed_data && !r.salt)
            r.salt = sg::new_salt();
        auto order = sg::order_of(r, *rules);
        if (!order)
            co_return order.error();
        auto const exchange = sg::exchange_for(rules->neg_risk);
        derived_prediction_order d;
        if (mode == derive_mode::typed_data) // a write needs only the digest
            d.typed_data = sg::order_typed_data(*order, exchange);
        d.digest = sg::order_digest(*order, exchange);
        d.signer = r.wallet;
        d.signature_hint = std::string("the exchange (") +
                           (rules->neg_risk ? "this token is neg-risk: the Neg-Risk CTF Exchange "
                                            : "the CTF Exchange ") +
                           exchange.str() + "), chainId 137, signatureType 0";
        d.request = std::move(r);
        d.upstream = std::make_shared<order_form const>(order_form{*order, exchange, type});
        co_return d;
    }

    // Coroutine parameters by value: the credentials live in the frame for this call only.
    async_result<place_result> place(call_context const& ctx, derived_prediction_order const& d,
                                     api_credentials credentials) override {
        auto const& form = *std::static_pointer_cast<order_form const>(d.upstream);
        auto const digest = verified_.of(credentials, d.request.wallet);
        if (auto ok = co_await check_credentials(ctx, credentials, d.request.wallet, digest); !ok)
            co_return ok.error();
        if (form.type == prediction_time_in_force::fok) {
            if (auto ok = co_await check_fok(d.request); !ok)
                co_return ok.error();
        }
        upstream_call call;
        call.method = verb::post;
        call.target = std::string(w::order_path);
        call.body = w::order_body(sg::order_wire(form.order, d.request.signature),
                                  credentials.api_key(), form.type);
        if (auto signed_call = sign_call(call, ctx, credentials, d.request.wallet); !signed_call)
            co_return signed_call.error();
        auto answer = co_await n_->clob().write(std::move(call));
        if (!answer)
            co_return answer.error();
        auto const& name = n_->clob().options().name;
        if (answer->status == 401)
            verified_.forget(digest);
        if (answer->status < 200 || answer->status >= 300)
            co_return write_error(name, *answer, clob_write::place);
        if (answer->body.is_null())
            co_return unreadable(name, answer->status);
        co_return accepted(
            to_place_result(name, answer->body, d.request.side, d.request.size, d.request.price),
            answer->status);
    }

    async_result<cancel_result> cancel(call_context const& ctx, gamma_cancel_request const& r,
                                       api_credentials credentials) override {
        if (!is_order_id(r.order_id))
            co_return field_error("orderId", "'orderId' must be a gamma order id: 0x followed by "
                                             "64 hex digits.");
        upstream_call call;
        call.method = verb::delete_;
        call.target = std::string(w::order_path);
        call.body = w::cancel_body(r.order_id);
        if (auto signed_call = sign_call(call, ctx, credentials, r.wallet); !signed_call)
            co_return signed_call.error();
        auto answer = co_await n_->clob().write(std::move(call));
        if (!answer)
            co_return answer.error();
        auto const& name = n_->clob().options().name;
        if (answer->status < 200 || answer->status >= 300)
            co_return write_error(name, *answer, clob_write::cancel);
        if (answer->body.is_null())
            co_return unreadable(name, answer->status);
        co_return accepted(to_cancel_result(name, answer->body, r.order_id), answer->status);
    }

    async_result<std::vector<open_order>> open_orders(call_context const& ctx,
                                                      address const& wallet,
                                                      api_credentials credentials) override {
        std::vector<open_order> out;
        std::string cursor(w::first_cursor);
        auto const& name = n_->clob().options().name;
        for (std::size_t page = 0; page < max_account_pages && !cursor.empty(); ++page) {
            auto body = co_await account_page(ctx, credentials, wallet, w::data_orders_path,
                                              w::orders_page(cursor));
            if (!body)
                co_return body.error();
            auto items = clob_page_of(name, *body);
            if (!items)
                co_return items.error();
            if (page == 0) // the CLOB took these credentials for this wallet
                verified_.remember(verified_.of(credentials, wallet), ctx.now_ms);
            for (auto const& item : *items->items) {
                auto o = to_open_order(name, item);
                if (!o)
                    co_return o.error();
                out.push_back(std::move(*o));
            }
            cursor = std::move(items->next_cursor);
        }
        std::stable_sort(out.begin(), out.end(),
                         [](auto const& a, auto const& b) { return a.timestamp > b.timestamp; });
        co_return out;
    }

    async_result<std::vector<fill>> fills(call_context const& ctx, address const& wallet,
                                          fills_params const& p,
                                          api_credentials credentials) override {
        auto const limit = static_cast<std::size_t>(p.limit.value_or(fills_params::default_limit));
        std::optional<std::int64_t> after;
        std::optional<std::int64_t> before;
        if (p.start_time)
            after = *p.start_time / 1000;
        if (p.end_time)
            before = (*p.end_time + 999) / 1000;
        std::vector<fill> out;
        std::string cursor(w::first_cursor);
        auto const& name = n_->clob().options().name;
        for (std::size_t page = 0; page < max_account_pages && !cursor.empty(); ++page) {
            auto body = co_await account_page(ctx, credentials, wallet, w::data_trades_path,
                                              w::trades_page(wallet.str(), after, before, cursor));
            if (!body)
                co_return body.error();
            auto items = clob_page_of(name, *body);
            if (!items)
                co_return items.error();
            if (page == 0) // the CLOB took these credentials for this wallet
                verified_.remember(verified_.of(credentials, wallet), ctx.now_ms);
            for (auto const& item : *items->items) {
                auto mine = fills_of(name, item, wallet);
                if (!mine)
                    co_return mine.error();
                for (auto& f : *mine)
                    if ((!p.start_time || f.timestamp >= *p.start_time) &&
                        (!p.end_time || f.timestamp <= *p.end_time))
                        out.push_back(std::move(f));
            }
            cursor = std::move(items->next_cursor);
        }
        std::stable_sort(out.begin(), out.end(),
                         [](auto const& a, auto const& b) { return a.timestamp > b.timestamp; });
        if (out.size() > limit)
            out.resize(limit);
        co_return out;
    }

private:
    /**
     * The CLOB accepts `credentials` for `wallet` (file comment): remembered lately, or an L2
     * `GET /auth/ban-status/closed-only` answers 2xx. @par Errors 401 INVALID_CREDENTIALS (the
     * channel's read error of a 401), the channel's others.
     */
    asio::awaitable<result<void>> check_credentials(call_context const& ctx,
                                                    api_credentials const& credentials,
                                                    // cppcheck-suppress passedByValue
                                                    address wallet,
                                                    verified_credentials::digest digest) {
        if (verified_.known(digest, ctx.now_ms))
            co_return result<void>{};
        auto const answer = co_await account_page(ctx, credentials, wallet, w::ban_status_path, {});
        if (!answer)
            co_return answer.error();
        verified_.remember(digest, ctx.now_ms);
        co_return result<void>{};
    }

    /// A FOK order's book, read fresh, can fill it (file comment). @par Errors ORDER_REJECTED
    /// with the upstream's FOK text; the channel's.
    asio::awaitable<result<void>> check_fok(gamma_order_request const& r) {
        upstream_call call;
        call.target = w::target(w::book_path, w::token_query(r.token_id));
        call.weight = w::clob_weight(w::book_path);
        call.key = "gamma fok book " + std::to_string(++calls_); // never joins a cached read
        auto const answer = co_await n_->clob().read(std::move(call), std::chrono::milliseconds(0));
        if (!*answer)
            co_return upstream_missing(answer->error()) ? unknown_token(r.token_id)
                                                        : answer->error();
        auto const& name = n_->clob().options().name;
        auto book = to_orderbook(**answer, r.token_id, std::numeric_limits<std::size_t>::max());
        if (!book)
            co_return book.error();
        if (book_fills(*book, r.side, r.price, r.size))
            co_return result<void>{};
        api_error e =
            make_error(errc::order_rejected, "The " + name + " upstream would refuse this order: " +
                                                 std::string(w::order_errors::fok_not_filled));
        e.details["reason"] = std::string(w::order_errors::fok_not_filled);
        co_return e;
    }

    /// The token's rules from its book (cached for the market TTL with the orderbook reads).
    // cppcheck-suppress passedByValue
    asio::awaitable<result<sg::token_rules>> rules_of(std::string token) {
        auto f = n_->start_clob_get(std::string(w::book_path), w::token_query(token));
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return upstream_missing(answer->error()) ? unknown_token(token) : answer->error();
        co_return token_rules_of(n_->clob().options().name, **answer);
    }

    /**
     * Adds the L2 headers of `call` (its method, path and body) for `wallet`, and a key of its
     * own: a credentialed call is never coalesced with another one, and no cache key ever holds
     * a credential. @par Errors VALIDATION_ERROR naming `apiSecret` (not base64).
     */
    result<void> sign_call(upstream_call& call, call_context const& ctx,
                           api_credentials const& credentials, address const& wallet) {
        auto const path = call.target.substr(0, call.target.find('?'));
        auto headers = sg::l2_headers(credentials, wallet, ctx.now_ms / 1000,
                                      boost::beast::http::to_string(call.method), path, call.body);
        if (!headers)
            return headers.error();
        for (auto& h : *headers)
            call.headers.emplace_back(std::move(h.name), std::move(h.value));
        call.key = "gamma l2 " + std::to_string(++calls_);
        call.weight = w::clob_weight(path);
        call.idempotent = false;
        return {};
    }

    /// One L2 `GET` of an account read (a page, or the credential check); never cached, never
    /// shared. `credentials` live in the calling read's frame, which awaits this one.
    asio::awaitable<result<json::value>> account_page(call_context const& ctx,
                                                      api_credentials const& credentials,
                                                      // cppcheck-suppress passedByValue
                                                      address wallet, std::string_view path,
                                                      // cppcheck-suppress passedByValue
                                                      query_params query) {
        upstream_call call;
        call.target = w::target(path, query);
        if (auto signed_call = sign_call(call, ctx, credentials, wallet); !signed_call)
            co_return signed_call.error();
        call.idempotent = true;
        call.account = ctx.account; // an account read: its share pays
        auto const answer = co_await n_->clob().read(std::move(call), std::chrono::milliseconds(0));
        co_return *answer;
    }

    /// A 2xx answer's mapping: a body that is not the answer's shape (UPSTREAM_ERROR) leaves
    /// the write's outcome unknown, as an unreadable one does.
    template <class T>
    static result<T> accepted(result<T> r, unsigned status) {
        if (!r && r.error().code == errc::upstream_error) {
            api_error e = r.error();
            e.details["outcomeUnknown"] = true;
            e.details["upstreamStatus"] = status;
            return e;
        }
        return r;
    }

    static api_error unreadable(std::string const& name, unsigned status) {
        // Accepted, but unreadable: the write may well have executed.
        api_error e = make_error(errc::upstream_error,
                                 "The " + name + " upstream answered a body that is not JSON.");
        e.details["outcomeUnknown"] = true;
        e.details["upstreamStatus"] = status;
        return e;
    }

    std::shared_ptr<network> n_;
    std::atomic<std::uint64_t> calls_{0};
    verified_credentials verified_;
};

} // namespace

std::shared_ptr<predictions_trading> make_predictions_trading(std::shared_ptr<network> n) {
    return std::make_shared<orders>(std::move(n));
}

} // namespace gateway::server::gamma
