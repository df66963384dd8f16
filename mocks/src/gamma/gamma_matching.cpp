#include "gamma_matching.hpp"

#include "../common/format.hpp"
#include "../common/http_util.hpp"
#include "../common/ids.hpp"

#include <gateway/types/fixed.hpp>

#include <algorithm>
#include <numeric>

namespace gateway::mocks::gamma {

namespace {

using gateway::int128;

/// Share quantities move in steps of 0.01 (gamma.md §5.2: sizes have 2 decimals).
constexpr micros share_step = 10'000;
/// Size decimals of the market state's levels (gamma_view's market_spec: sz_scale 2).
constexpr unsigned state_sz_scale = 2;

/// `v / 10^scale` as a canonical decimal (`v` >= 0).
std::string decimal_text(int128 v, unsigned scale) {
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
        v /= 10;
    } while (v > 0);
    if (digits.size() <= scale)
        digits.insert(0, scale + 1 - digits.size(), '0');
    std::string out = digits.substr(0, digits.size() - scale);
    std::string frac = digits.substr(digits.size() - scale);
    while (!frac.empty() && frac.back() == '0')
        frac.pop_back();
    if (!frac.empty())
        out += "." + frac;
    return out;
}

/// USDC exchanged for `q` shares at `px` (ppm). Exact: shares move in 0.01 steps and prices
/// have at most 4 decimals, so `q * px` is a multiple of 10^6.
micros notional(micros q, micros px) {
    return static_cast<micros>(static_cast<int128>(q) * px / one_unit);
}

/// The CTF Exchange's fee of filling `q` shares of `r` (gamma_matching.hpp), floored.
micros fee_of(order_record const& r, micros q) {
    if (r.fee_rate_bps == 0 || r.maker_amount <= 0)
        return 0;
    // BUY: p = maker/taker (USDC per share), fee in shares = bps * min(p, 1-p) / p * q
    //      = bps * q * min(maker, taker - maker) / maker / 10^4.
    // SELL: p = taker/maker, fee in USDC = bps * min(p, 1-p) * q
    //      = bps * q * min(taker, maker - taker) / maker / 10^4.
    micros const m = r.maker_amount;
    micros const t = r.taker_amount;
    micros const smaller = r.is_buy ? std::min(m, t - m) : std::min(t, m - t);
    if (smaller <= 0)
        return 0;
    int128 const num = static_cast<int128>(r.fee_rate_bps) * q * smaller;
    return static_cast<micros>(num / (static_cast<int128>(m) * 10'000));
}

/// What a resting order still locks: USDC for a BUY, shares for a SELL.
micros locked_by(order_record const& r) {
    return r.is_buy ? notional(r.remaining(), r.price) : r.remaining();
}

std::string paid_asset(order_record const& r) {
    return r.is_buy ? std::string(usdc_asset) : r.token_id;
}

} // namespace

std::string micros_text(micros v) {
    if (v < 0)
        return "-" + decimal_text(-static_cast<int128>(v), 6);
    return decimal_text(v, 6);
}

std::string tick_error(std::string_view id, std::string_view price, std::string_view tick) {
    return "order " + std::string(id) + " is invalid. Price (" + std::string(price) +
           ") breaks minimum tick size rule: " + std::string(tick);
}

std::string min_size_error(std::string_view id, std::string_view size, std::string_view min) {
    return "order " + std::string(id) + " is invalid. Size (" + std::string(size) +
           ") lower than the minimum: " + std::string(min);
}

std::string duplicated_error(std::string_view id) {
    return "order " + std::string(id) + " is invalid. Duplicated.";
}

std::string amounts_error(bool is_buy, unsigned usdc_decimals) {
    auto const n = std::to_string(usdc_decimals);
    if (is_buy)
        return "invalid amounts, the buy orders maker amount supports a max accuracy of " + n +
               " decimals, taker amount a max of 2 decimals";
    return "invalid amounts, the sell orders maker amount supports a max accuracy of 2 "
           "decimals, taker amount a max of " +
           n + " decimals";
}

engine::engine(market_state& markets, token_lookup tokens, std::uint64_t seed, clock_fn clock)
    : markets_(markets)
    , tokens_(std::move(tokens))
    , clock_(clock ? std::move(clock) : clock_fn([] { return now_ms(); }))
    , seed_(seed) {}

std::string engine::next_uuid() {
    std::string h = hex_digits(mix_seed(seed_, 0x7a11, ++counter_), 32);
    h[12] = '4';                                           // version 4
    h[16] = "89ab"[static_cast<unsigned char>(h[16]) % 4]; // RFC 4122 variant
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
           "-" + h.substr(20);
}

std::string engine::next_hash() {
    return hash_hex(mix_seed(seed_, 0x7a12, ++counter_));
}

// ---------------------------------------------------------------------------------------------
// Books

engine::order_book* engine::book_of(std::string_view token_id, std::int64_t now) {
    auto it = books_.find(std::string(token_id));
    if (it == books_.end()) {
        auto info = tokens_(token_id);
        if (!info || !info->state)
            return nullptr;
        order_book b;
        b.token = std::move(*info);
        it = books_.emplace(std::string(token_id), std::move(b)).first;
    }
    sync_locked(it->second, now);
    return &it->second;
}

void engine::sync_locked(order_book& b, std::int64_t now) {
    std::size_t const i = *b.token.state;
    auto const v = markets_.version(i);
    if (!b.version || (*b.version != v && (b.house_taken || markets_.mark(i) != b.mark)))
        requote(b, now);
    else
        b.version = v; // same ladder: the (stable) house orders stay
    expire(b, now);
}

void engine::sync_user_books(std::int64_t now) {
    for (auto& [id, b] : books_)
        if (b.user_orders > 0)
            sync_locked(b, now);
}

void engine::requote(order_book& b, std::int64_t now) {
    auto const drop_house = [](auto& side) {
        for (auto it = side.begin(); it != side.end();) {
            std::erase_if(it->second, [](book_order const& o) { return o.id.empty(); });
            it = it->second.empty() ? side.erase(it) : std::next(it);
        }
    };
    drop_house(b.bids);
    drop_house(b.asks);
    std::size_t const i = *b.token.state;
    auto const snap = markets_.book(i, house_depth);
    b.version = snap.version;
    b.mark = markets_.mark(i);
    b.house_taken = false;
    b.changed_ms = std::max(b.changed_ms, snap.time_ms);
    micros const px_unit = pow10(6 - b.token.px_scale);
    micros const sz_unit = pow10(6 - state_sz_scale);
    auto const quote = [&](book_level const& l, bool is_buy) {
        taker t;
        t.is_buy = is_buy;
        t.limit = l.px * px_unit;
        t.remaining = l.sz * sz_unit;
        match(b, t, now); // fills resting user orders this level crosses, at their price
        if (t.remaining == 0)
            return;
        book_order o;
        o.remaining = t.remaining;
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

void engine::expire(order_book& b, std::int64_t now) {
    if (b.user_orders == 0)
        return;
    std::int64_t const now_s = now / 1000;
    std::vector<std::string> due;
    auto const scan = [&](auto const& side) {
        for (auto const& [px, q] : side)
            for (auto const& o : q)
                if (!o.id.empty() && o.expiration != 0 &&
                    static_cast<std::int64_t>(o.expiration) <= now_s)
                    due.push_back(o.id);
    };
    scan(b.bids);
    scan(b.asks);
    for (auto const& id : due)
        if (auto const* r = ledger_.open_order(id))
            take_off(order_record(*r), "CANCELED", now);
}

micros engine::crossable(order_book const& b, bool is_buy, micros limit) const {
    micros sum = 0;
    auto const sum_side = [&](auto const& side, auto crosses) {
        for (auto const& [px, q] : side) {
            if (!crosses(px))
                break;
            sum = std::accumulate(q.begin(), q.end(), sum,
                                  [](micros s, book_order const& o) { return s + o.remaining; });
        }
    };
    if (is_buy)
        sum_side(b.asks, [&](micros px) { return px <= limit; });
    else
        sum_side(b.bids, [&](micros px) { return px >= limit; });
    return sum;
}

void engine::match(order_book& b, taker& t, std::int64_t now) {
    auto const walk = [&](auto& side, auto crosses) {
        while (t.remaining > 0 && !side.empty()) {
            auto it = side.begin();
            if (!crosses(it->first))
                break;
            micros const px = it->first;
            auto& q = it->second;
            while (t.remaining > 0 && !q.empty()) {
                book_order& m = q.front();
                micros const x = std::min(t.remaining, m.remaining);
                fill(b, t, m, px, x, now);
                if (m.remaining == 0)
                    q.pop_front();
            }
            if (q.empty())
                side.erase(it);
        }
    };
    if (t.is_buy)
        walk(b.asks, [&](micros px) { return px <= t.limit; });
    else
        walk(b.bids, [&](micros px) { return px >= t.limit; });
}

void engine::fill(order_book& b, taker& t, book_order& maker, micros px, micros q,
                  std::int64_t now) {
    order_record* mo = maker.id.empty() ? nullptr : ledger_.open_order(maker.id);
    order_record* to = t.order;
    micros const usd = notional(q, px);
    std::string const& token_id = b.token.token_id;
    std::string const usdc(usdc_asset);

    trade_record tr;
    tr.id = next_uuid();
    tr.token_id = token_id;
    tr.taker_is_buy = t.is_buy;
    tr.size = q;
    tr.price = px;
    tr.time_s = now / 1000;
    tr.transaction_hash = next_hash();
    if (to) {
        tr.taker_order_id = to->id;
        tr.taker_owner = to->owner;
        tr.taker_address = to->maker;
        tr.taker_fee_rate_bps = to->fee_rate_bps;
        tr.taker_fee = fee_of(*to, q);
    } else {
        tr.taker_order_id = next_hash();
        tr.taker_owner = house_owner;
        tr.taker_address = house_address;
    }
    if (mo) {
        tr.maker_order_id = mo->id;
        tr.maker_owner = mo->owner;
        tr.maker_address = mo->maker;
        tr.maker_fee_rate_bps = mo->fee_rate_bps;
        tr.maker_fee = fee_of(*mo, q);
    } else {
        tr.maker_order_id = next_hash();
        tr.maker_owner = house_owner;
        tr.maker_address = house_address;
    }

    if (to) {
        if (t.is_buy) {
            ledger_.credit(to->maker, usdc, -usd);
            ledger_.credit(to->maker, token_id, q - tr.taker_fee);
        } else {
            ledger_.credit(to->maker, token_id, -q);
            ledger_.credit(to->maker, usdc, usd - tr.taker_fee);
        }
        to->matched += q;
        to->trades.push_back(tr.id);
        ledger_.add_trade(to->maker, tr, false);
    }
    if (mo) {
        if (mo->is_buy) {
            ledger_.pay_locked(mo->maker, usdc, usd);
            ledger_.credit(mo->maker, token_id, q - tr.maker_fee);
        } else {
            ledger_.pay_locked(mo->maker, token_id, q);
            ledger_.credit(mo->maker, usdc, usd - tr.maker_fee);
        }
        mo->matched += q;
        mo->trades.push_back(tr.id);
        ledger_.add_trade(mo->maker, tr, true);
    }
    if (to && !mo)
        b.house_taken = true;
    maker.remaining -= q;
    t.remaining -= q;
    t.filled += q;
    t.notional += usd;
    if (mo && maker.remaining == 0) {
        --b.user_orders;
        ledger_.close_order(mo->id, "MATCHED"); // `mo` dangles from here on
    }
    b.changed_ms = now;
    // The public tape (`/last-trade-price`); a NO token's trades print on its YES token.
    std::size_t i = *b.token.state;
    auto const& s = markets_.spec(i);
    std::int64_t tape_px = px / pow10(6 - s.px_scale);
    bool buyer_is_taker = t.is_buy;
    if (s.complement_of) {
        i = *s.complement_of;
        tape_px = pow10(s.px_scale) - tape_px;
        buyer_is_taker = !buyer_is_taker;
    }
    markets_.print_trade(i, now, tape_px, q / pow10(6 - state_sz_scale), buyer_is_taker);
    t.trades.push_back(std::move(tr));
}

void engine::rest(order_book& b, order_record const& r, std::int64_t now) {
    book_order o;
    o.id = r.id;
    o.remaining = r.remaining();
    o.expiration = r.expiration;
    if (r.is_buy)
        b.bids[r.price].push_back(o);
    else
        b.asks[r.price].push_back(o);
    ++b.user_orders;
    b.changed_ms = now;
}

void engine::erase_resting(order_book& b, order_record const& r) {
    auto const drop = [&](auto& side) {
        auto const lvl = side.find(r.price);
        if (lvl == side.end())
            return;
        auto const n =
            std::erase_if(lvl->second, [&](book_order const& o) { return o.id == r.id; });
        b.user_orders -= n;
        if (lvl->second.empty())
            side.erase(lvl);
    };
    if (r.is_buy)
        drop(b.bids);
    else
        drop(b.asks);
}

void engine::take_off(order_record const& r, std::string const& status, std::int64_t now) {
    ledger_.unlock(r.maker, paid_asset(r), locked_by(r));
    if (auto const it = books_.find(r.token_id); it != books_.end()) {
        erase_resting(it->second, r);
        it->second.changed_ms = now;
    }
    ledger_.close_order(r.id, status);
}

// ---------------------------------------------------------------------------------------------
// Orders

std::variant<placed, refusal> engine::place(new_order const& o) {
    std::lock_guard lock(m_);
    std::int64_t const now = clock_();
    std::int64_t const now_s = now / 1000;
    auto const info = tokens_(o.token_id);
    if (!info)
        return refusal{400, std::string(errors::invalid_token)};
    if (!info->state)
        return refusal{400, std::string(errors::no_orderbook)};
    if (o.fee_rate_bps > max_fee_rate_bps)
        return refusal{400, std::string(errors::invalid_payload)};

    micros const shares = o.is_buy ? o.taker_amount : o.maker_amount;
    micros const usd = o.is_buy ? o.maker_amount : o.taker_amount;
    if (shares <= 0 || usd <= 0)
        return refusal{400, std::string(errors::invalid_payload)};
    unsigned const pd = info->px_scale;
    unsigned const ad = pd + 2; // gamma.md §5.2: tick 0.1 -> 3, 0.01 -> 4, 0.001 -> 5
    if (shares % share_step != 0 || usd % pow10(6 - std::min(ad, 6U)) != 0)
        return refusal{400, amounts_error(o.is_buy, ad)};
    // The price is USDC / shares, exactly on the tick grid within [tick, 1 - tick].
    int128 const scaled = static_cast<int128>(usd) * pow10(pd);
    int128 const k = scaled / shares;
    if (scaled % shares != 0 || k < 1 || k > pow10(pd) - 1)
        return refusal{400, tick_error(o.id,
                                       decimal_text(static_cast<int128>(usd) *
                                                        gateway::detail::pow10_128(12) / shares,
                                                    12),
                                       canonical(1, pd))};
    micros const price = static_cast<micros>(k) * pow10(6 - pd);
    if (shares < info->min_size)
        return refusal{400, min_size_error(o.id, micros_text(shares), micros_text(info->min_size))};
    if ((o.kind == order_kind::gtd &&
         static_cast<std::int64_t>(o.expiration) < now_s + gtd_margin_s) ||
        (o.expiration != 0 && static_cast<std::int64_t>(o.expiration) <= now_s))
        return refusal{400, std::string(errors::invalid_expiration)};
    if (ledger_.seen(o.id))
        return refusal{400, duplicated_error(o.id)};
    if (o.post_only && (o.kind == order_kind::fok || o.kind == order_kind::fak))
        return refusal{400, std::string(errors::post_only_type)};
    std::string const asset = o.is_buy ? std::string(usdc_asset) : o.token_id;
    if (ledger_.holding_of(o.maker, asset).available() < o.maker_amount)
        return refusal{400, std::string(errors::not_enough_balance)};

    order_book* b = book_of(o.token_id, now);
    if (!b)
        return refusal{400, std::string(errors::no_orderbook)};
    micros const can = crossable(*b, o.is_buy, price);
    if (o.post_only && can > 0)
        return refusal{400, std::string(errors::post_only_crosses)};
    if (o.kind == order_kind::fok && can < shares)
        return refusal{400, std::string(errors::fok_not_filled)};
    if (o.kind == order_kind::fak && can == 0)
        return refusal{400, std::string(errors::fak_no_match)};

    placed out;
    order_record& r = out.order;
    r.id = o.id;
    r.owner = o.owner;
    r.maker = o.maker;
    r.token_id = o.token_id;
    r.is_buy = o.is_buy;
    r.size = shares;
    r.price = price;
    r.maker_amount = o.maker_amount;
    r.taker_amount = o.taker_amount;
    r.kind = o.kind;
    r.expiration = o.expiration;
    r.fee_rate_bps = o.fee_rate_bps;
    r.created_at = now_s;

    taker t;
    t.order = &r;
    t.is_buy = o.is_buy;
    t.limit = price;
    t.remaining = shares;
    match(*b, t, now);
    out.trades = std::move(t.trades);
    out.making = o.is_buy ? t.notional : t.filled;
    out.taking = o.is_buy ? t.filled : t.notional;

    bool const rests =
        r.remaining() > 0 && (o.kind == order_kind::gtc || o.kind == order_kind::gtd);
    if (rests) {
        r.status = "LIVE";
        ledger_.lock(r.maker, asset, locked_by(r));
        rest(*b, r, now);
    } else {
        r.status = "MATCHED"; // filled, or a FAK whose rest died
    }
    ledger_.add_order(r);
    return out;
}

cancel_result engine::cancel(std::string const& address, std::vector<std::string> const& ids) {
    std::lock_guard lock(m_);
    std::int64_t const now = clock_();
    sync_user_books(now);
    cancel_result out;
    for (auto const& id : ids) {
        auto const* r = ledger_.open_order(id);
        if (r && r->maker == address) {
            take_off(order_record(*r), "CANCELED", now);
            out.canceled.push_back(id);
            continue;
        }
        auto const past = ledger_.order(address, id);
        out.not_canceled.emplace_back(id, past && past->status == "CANCELED"
                                              ? std::string(errors::cancel_already)
                                              : std::string(errors::cancel_not_found));
    }
    return out;
}

cancel_result engine::cancel_all(std::string const& address) {
    return cancel_market(address, {}, {});
}

cancel_result engine::cancel_market(std::string const& address, std::string const& market,
                                    std::string const& asset_id) {
    std::vector<std::string> ids;
    {
        std::lock_guard lock(m_);
        sync_user_books(clock_());
        for (auto const& r : ledger_.open_orders(address)) {
            if (!asset_id.empty() && r.token_id != asset_id)
                continue;
            if (!market.empty()) {
                auto const t = tokens_(r.token_id);
                if (!t || t->condition_id != market)
                    continue;
            }
            ids.push_back(r.id);
        }
    }
    return cancel(address, ids);
}

// ---------------------------------------------------------------------------------------------
// Reads

std::optional<book_view> engine::book(std::string_view token_id) {
    std::lock_guard lock(m_);
    auto const* b = book_of(token_id, clock_());
    if (!b)
        return std::nullopt;
    book_view out;
    out.token = b->token;
    out.time_ms = b->changed_ms;
    auto const aggregate = [](auto const& side, std::vector<level>& levels) {
        for (auto const& [px, q] : side) {
            level l;
            l.price = px;
            for (auto const& o : q)
                l.size += o.remaining;
            levels.push_back(l);
        }
    };
    aggregate(b->bids, out.bids);
    aggregate(b->asks, out.asks);
    return out;
}

std::vector<order_record> engine::open_orders(std::string const& address, order_filter const& f) {
    std::lock_guard lock(m_);
    sync_user_books(clock_());
    auto all = ledger_.open_orders(address);
    std::erase_if(all, [&](order_record const& r) {
        if (!f.id.empty() && r.id != f.id)
            return true;
        if (!f.asset_id.empty() && r.token_id != f.asset_id)
            return true;
        if (!f.market.empty()) {
            auto const t = tokens_(r.token_id);
            return !t || t->condition_id != f.market;
        }
        return false;
    });
    return all;
}

std::optional<order_record> engine::order(std::string const& address, std::string const& id) {
    std::lock_guard lock(m_);
    sync_user_books(clock_());
    return ledger_.order(address, id);
}

std::vector<trade_view> engine::trades(std::string const& address, order_filter const& f) {
    std::lock_guard lock(m_);
    sync_user_books(clock_());
    auto all = ledger_.trades(address);
    std::erase_if(all, [&](trade_view const& v) {
        if (!f.id.empty() && v.trade.id != f.id)
            return true;
        if (!f.asset_id.empty() && v.trade.token_id != f.asset_id)
            return true;
        if (!f.market.empty()) {
            auto const t = tokens_(v.trade.token_id);
            return !t || t->condition_id != f.market;
        }
        return false;
    });
    return all;
}

void engine::credit(std::string const& address, std::string const& asset, micros amount) {
    std::lock_guard lock(m_);
    ledger_.credit(address, asset, amount);
}

std::vector<std::pair<std::string, holding>> engine::holdings(std::string const& address) {
    std::lock_guard lock(m_);
    sync_user_books(clock_());
    return ledger_.holdings(address);
}

bool engine::known(std::string const& address) const {
    std::lock_guard lock(m_);
    return ledger_.known(address);
}

} // namespace gateway::mocks::gamma
