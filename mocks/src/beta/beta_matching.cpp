#include "beta_matching.hpp"

#include "beta_accounts.hpp"

#include "../common/http_util.hpp"

#include <algorithm>

namespace gateway::mocks::beta {

namespace {

namespace w = gateway::wire::beta;

const std::string quote_asset = "USDT";

bool is_trigger_type(std::string const& t) {
    return t == "STOP" || t == "STOP_MARKET" || t == "TAKE_PROFIT" || t == "TAKE_PROFIT_MARKET" ||
           t == "TRAILING_STOP_MARKET";
}

bool is_limit_type(std::string const& t) {
    return t == "LIMIT" || t == "STOP" || t == "TAKE_PROFIT";
}

bool is_open(order_record const& r) {
    return r.status == "NEW" || r.status == "PARTIALLY_FILLED";
}

amount fee(amount notional, bool maker) {
    return notional.times(maker ? maker_fee_ppm : taker_fee_ppm)
        .over(1'000'000)
        .rounded(usdt_decimals);
}

/// Whether a stop or take-profit order's condition holds at `mark`.
bool condition_holds(order_spec const& s, amount mark) {
    bool const stop = s.type == "STOP" || s.type == "STOP_MARKET";
    bool const above = stop ? s.is_buy : !s.is_buy; // fires when the mark is at or above
    return above ? mark >= s.stop_price : mark <= s.stop_price;
}

/// What a spot order reserves for `qty`: quote for a BUY (at its limit, else its stop price),
/// base for a SELL.
amount spot_lock(order_spec const& s, amount qty) {
    if (!s.is_buy)
        return qty;
    return qty * (!s.price.is_zero() ? s.price : s.stop_price);
}

/// Largest multiple of 10^-scale not above `a` (a >= 0).
amount floor_to(amount a, unsigned scale) {
    amount const r = a.rounded(scale);
    return r > a ? r - amount::from_scaled(1, scale) : r;
}

} // namespace

engine::engine(ledger& l, market_state& markets, clock_fn clock)
    : ledger_(l)
    , markets_(markets)
    , clock_(clock ? std::move(clock) : clock_fn([] { return now_ms(); })) {
    auto add = [&](venue where, std::string_view symbol, std::string_view base,
                   std::string_view listed_as, unsigned px_scale, unsigned sz_scale) {
        auto const i = markets_.find(listed_as);
        if (!i)
            return;
        market_book b;
        b.where = where;
        b.symbol = std::string(symbol);
        b.base = std::string(base);
        b.market = *i;
        b.px_scale = px_scale;
        b.sz_scale = sz_scale;
        books_.push_back(std::move(b));
    };
    for (auto const& p : perps())
        add(venue::futures, p.symbol, p.base, p.symbol, p.px_scale, p.sz_scale);
    for (auto const& s : spots())
        add(venue::spot, s.symbol, s.base, s.perp.empty() ? s.symbol : s.perp, s.px_scale,
            s.sz_scale);
}

std::optional<std::size_t> engine::book_index(venue where, std::string const& symbol) const {
    for (std::size_t k = 0; k < books_.size(); ++k)
        if (books_[k].where == where && books_[k].symbol == symbol)
            return k;
    return std::nullopt;
}

amount engine::mark_of(market_book const& b) const {
    return amount::from_scaled(markets_.mark(b.market), markets_.spec(b.market).px_scale);
}

amount engine::position_of(std::string const& user, std::string const& symbol) const {
    return ledger_.position_amt(user, symbol);
}

std::string const& engine::paid_asset(market_book const& b, bool is_buy) const {
    return is_buy ? quote_asset : b.base;
}

// ---------------------------------------------------------------------------------------------
// Orders

std::variant<placed_order, refusal> engine::place(venue where, std::string const& user,
                                                  order_spec spec) {
    std::lock_guard lock(m_);
    std::int64_t const now = clock_();
    auto const k = book_index(where, spec.symbol);
    if (!k)
        return refuse(w::invalid_symbol);
    auto const& b = books_[*k];
    bool const spot = where == venue::spot;
    if (!spec.client_order_id.empty()) {
        auto const open = spot ? ledger_.spot_open_orders(user) : ledger_.open_orders(user);
        for (auto const& o : open)
            if (o.spec.client_order_id == spec.client_order_id)
                return refuse(w::duplicate_client_id);
    }
    bool const trigger = is_trigger_type(spec.type);
    amount const mark = mark_of(b);
    bool active_now = false;
    if (spec.type == "TRAILING_STOP_MARKET") {
        if (spec.activation_price) {
            // beta.md §4.3: a BUY activates below the mark, a SELL above it.
            if (spec.is_buy ? *spec.activation_price >= mark : *spec.activation_price <= mark)
                return refuse(w::would_immediately_trigger);
        } else {
            spec.activation_price = mark; // the upstream's default: the latest price
            active_now = true;
        }
    } else if (trigger && condition_holds(spec, mark)) {
        return refuse(w::would_immediately_trigger);
    }
    std::optional<amount> reserve;
    if (!spot) {
        if (spec.reduce_only && !trigger) {
            amount const pos = position_of(user, spec.symbol);
            if (pos.is_zero() || (pos.sign() > 0) == spec.is_buy)
                return refuse(w::reduce_only_rejected);
        }
        if (!spec.reduce_only && !spec.close_position)
            if (auto r = check_margin(user, b, spec))
                return *r;
    } else {
        auto const cost = trigger ? spot_lock(spec, spec.quantity) : spot_cost(b, spec);
        if (!cost || ledger_.spot_balance(user, paid_asset(b, spec.is_buy)).free < *cost)
            return refuse(w::insufficient_balance);
        if (trigger)
            reserve = cost;
    }

    order_record r;
    r.order_id = ledger_.next_order_id();
    if (spec.client_order_id.empty())
        spec.client_order_id = ledger::generated_client_id(r.order_id);
    r.spec = std::move(spec);
    r.time = now;
    r.update_time = now;
    placed_order out{r, r};
    if (trigger) {
        if (spot) {
            ledger_.lock_spot(user, paid_asset(b, r.spec.is_buy), *reserve);
            ledger_.rest_spot_order(user, r);
        } else {
            ledger_.rest_order(user, r);
        }
        // A trailing stop without an activation price tracks from the mark it was placed at.
        triggers_.emplace(r.order_id, trigger_order{*k, user, r.spec, active_now, mark});
        return out;
    }
    out.final = execute(user, *k, std::move(r), now);
    return out;
}

std::optional<refusal> engine::check_margin(std::string const& user, market_book const& b,
                                            order_spec const& spec) const {
    amount const pos = position_of(user, spec.symbol);
    amount added = spec.quantity;
    if (!pos.is_zero() && (pos.sign() > 0) != spec.is_buy)
        added = std::max(amount{}, spec.quantity - pos.abs());
    if (added.is_zero())
        return std::nullopt;
    amount const ref = !spec.price.is_zero()        ? spec.price
                       : !spec.stop_price.is_zero() ? spec.stop_price
                       : spec.activation_price      ? *spec.activation_price
                                                    : mark_of(b);
    unsigned const leverage = ledger_.setting(user, spec.symbol).leverage;
    amount const need = (added * ref).over(leverage);
    if (need > ledger_.futures(user, marks_of(markets_)).available)
        return refuse(w::margin_insufficient);
    return std::nullopt;
}

std::optional<amount> engine::spot_cost(market_book const& b, order_spec const& spec) const {
    if (!spec.is_buy)
        return spec.quantity;
    if (is_limit_type(spec.type))
        return spec.quantity * spec.price;
    amount left = spec.quantity;
    amount cost;
    for (auto const& [px, lvl] : b.asks) {
        for (auto const& o : lvl) {
            amount const q = std::min(left, o.sz);
            cost += px * q;
            left -= q;
        }
        if (left.is_zero())
            break;
    }
    return cost;
}

order_record engine::execute(std::string const& user, std::size_t k, order_record r,
                             std::int64_t now) {
    auto const& b = books_[k];
    bool const spot = b.where == venue::spot;
    auto const& s = r.spec;
    bool const market = !is_limit_type(s.type);
    taker t;
    t.owner = user;
    t.oid = r.order_id;
    t.is_buy = s.is_buy;
    if (!market)
        t.limit = s.price;
    amount const left = s.quantity - r.executed_qty;
    t.remaining = left;
    bool reduce_capped = false;
    if (!spot && (s.reduce_only || s.close_position)) {
        amount const pos = position_of(user, s.symbol);
        bool const reduces = !pos.is_zero() && (pos.sign() > 0) != s.is_buy;
        t.remaining = reduces ? std::min(left, pos.abs()) : amount{};
        reduce_capped = t.remaining < left;
    }
    auto const finish = [&](std::string const& status) {
        r.status = status;
        r.update_time = now;
        if (spot) {
            ledger_.rest_spot_order(user, r);
            ledger_.remove_spot_order(user, r.order_id, status, now);
        } else {
            ledger_.rest_order(user, r);
            ledger_.remove_order(user, r.order_id, status, now);
        }
        return r;
    };
    std::string const& tif = s.time_in_force;
    if (t.remaining.is_zero())
        return finish("EXPIRED");
    if (!market && tif == "GTX" && !crossable(k, t).is_zero())
        return finish("EXPIRED");
    if (tif == "FOK" && crossable(k, t) < t.remaining)
        return finish("EXPIRED");
    match(k, t, now);
    r.executed_qty += t.filled;
    r.cum_quote += t.notional;
    amount const rest_qty = s.quantity - r.executed_qty;
    if (rest_qty.is_zero())
        return finish("FILLED");
    if (market || tif == "IOC" || tif == "FOK" || reduce_capped)
        return finish("EXPIRED");
    if (spot && !ledger_.lock_spot(user, paid_asset(b, s.is_buy), spot_lock(s, rest_qty)))
        return finish("EXPIRED");
    r.status = r.executed_qty.is_zero() ? "NEW" : "PARTIALLY_FILLED";
    r.update_time = now;
    rest(k, user, r);
    return r;
}

amount engine::crossable(std::size_t k, taker const& t) const {
    auto const& b = books_[k];
    amount sum;
    auto const sum_side = [&](auto const& side, auto crosses) {
        for (auto const& [px, lvl] : side) {
            if (t.limit && !crosses(px))
                break;
            for (auto const& o : lvl)
                sum += o.sz;
        }
    };
    if (t.is_buy)
        sum_side(b.asks, [&](amount px) { return px <= *t.limit; });
    else
        sum_side(b.bids, [&](amount px) { return px >= *t.limit; });
    return sum;
}

void engine::match(std::size_t k, taker& t, std::int64_t now) {
    auto& b = books_[k];
    bool const spot = b.where == venue::spot;
    bool stop = false;
    auto walk = [&](auto& side, auto crosses) {
        while (!stop && !t.remaining.is_zero() && !side.empty()) {
            auto it = side.begin();
            if (t.limit && !crosses(it->first))
                break;
            amount const px = it->first;
            auto& lvl = it->second;
            while (!t.remaining.is_zero() && !lvl.empty()) {
                book_order& m = lvl.front();
                amount q = std::min(t.remaining, m.sz);
                if (!spot && m.reduce_only) {
                    amount const pos = position_of(m.owner, b.symbol);
                    // The maker trades the other way: it reduces a long when the taker buys.
                    bool const reduces = !pos.is_zero() && (pos.sign() > 0) == t.is_buy;
                    if (!reduces) {
                        std::uint64_t const oid = m.oid;
                        std::string const owner = m.owner;
                        resting_.erase(oid);
                        lvl.pop_front();
                        remove(b.where, owner, oid, "EXPIRED", now);
                        continue;
                    }
                    q = std::min(q, pos.abs());
                }
                if (spot && !t.owner.empty()) {
                    // A spot taker trades what its free balance pays for.
                    amount const free = ledger_.spot_balance(t.owner, paid_asset(b, t.is_buy)).free;
                    q = std::min(q, t.is_buy ? floor_to(free / px, b.sz_scale) : free);
                    if (q.sign() <= 0) {
                        stop = true;
                        break;
                    }
                }
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
        walk(b.asks, [&](amount px) { return px <= *t.limit; });
    else
        walk(b.bids, [&](amount px) { return px >= *t.limit; });
}

void engine::fill(std::size_t k, taker& t, book_order& maker, amount px, amount q,
                  std::int64_t now) {
    auto& b = books_[k];
    bool const spot = b.where == venue::spot;
    bool const taker_user = !t.owner.empty();
    bool const maker_user = !maker.owner.empty();
    if (taker_user || maker_user) {
        std::uint64_t const tid = ledger_.next_trade_id();
        auto const book_side = [&](std::string const& owner, std::uint64_t oid, bool is_buy,
                                   bool is_maker) {
            if (spot) {
                spot_fill_event e;
                e.symbol = b.symbol;
                e.base = b.base;
                e.quote = quote_asset;
                e.is_buy = is_buy;
                e.price = px;
                e.qty = q;
                e.time_ms = now;
                e.order_id = oid;
                e.trade_id = tid;
                e.maker = is_maker;
                e.commission = is_buy ? fee(q, is_maker) : fee(px * q, is_maker);
                e.from_locked = is_maker;
                ledger_.apply_spot_fill(owner, e);
            } else {
                fill_event e;
                e.symbol = b.symbol;
                e.is_buy = is_buy;
                e.price = px;
                e.qty = q;
                e.time_ms = now;
                e.order_id = oid;
                e.trade_id = tid;
                e.maker = is_maker;
                e.commission = fee(px * q, is_maker);
                ledger_.apply_fill(owner, e);
            }
        };
        if (taker_user)
            book_side(t.owner, t.oid, t.is_buy, false);
        if (maker_user)
            book_side(maker.owner, maker.oid, !t.is_buy, true);
        // The public tape: perps, and spot pairs with a market of their own.
        auto const& s = markets_.spec(b.market);
        if (!spot || s.symbol == b.symbol) {
            auto const pxs = px.to_scaled(s.px_scale);
            auto const szs = q.to_scaled(s.sz_scale);
            if (pxs && szs && *szs > 0)
                markets_.print_trade(b.market, now, *pxs, *szs, t.is_buy);
        }
    }
    if (taker_user && !maker_user)
        b.house_taken = true;
    maker.sz -= q;
    maker.executed += q;
    maker.cum_quote += px * q;
    t.remaining -= q;
    t.filled += q;
    t.notional += px * q;
    if (maker_user) {
        bool const done = maker.sz.is_zero();
        std::string const status = done ? "FILLED" : "PARTIALLY_FILLED";
        if (spot)
            ledger_.update_spot_order(maker.owner, maker.oid, maker.executed, maker.cum_quote,
                                      status, now);
        else
            ledger_.update_order(maker.owner, maker.oid, maker.executed, maker.cum_quote, status,
                                 now);
        if (done)
            remove(b.where, maker.owner, maker.oid, "FILLED", now);
    }
}

void engine::rest(std::size_t k, std::string const& owner, order_record const& r) {
    auto& b = books_[k];
    book_order o;
    o.oid = r.order_id;
    o.owner = owner;
    o.sz = r.spec.quantity - r.executed_qty;
    o.executed = r.executed_qty;
    o.cum_quote = r.cum_quote;
    o.reduce_only = r.spec.reduce_only;
    if (r.spec.is_buy)
        b.bids[r.spec.price].push_back(o);
    else
        b.asks[r.spec.price].push_back(o);
    resting_[r.order_id] = resting_ref{k, r.spec.is_buy, r.spec.price, owner};
    if (b.where == venue::spot)
        ledger_.rest_spot_order(owner, r);
    else
        ledger_.rest_order(owner, r);
}

void engine::erase_resting(std::uint64_t oid) {
    auto const r = resting_.find(oid);
    if (r == resting_.end())
        return;
    auto& b = books_[r->second.book];
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

std::optional<order_record> engine::remove(venue where, std::string const& user, std::uint64_t oid,
                                           std::string const& status, std::int64_t now) {
    return where == venue::spot ? ledger_.remove_spot_order(user, oid, status, now)
                                : ledger_.remove_order(user, oid, status, now);
}

std::optional<order_record> engine::find(venue where, std::string const& user,
                                         std::string const& symbol, std::uint64_t order_id,
                                         std::string const& client_id) const {
    std::lock_guard lock(m_);
    bool const spot = where == venue::spot;
    std::optional<order_record> r =
        order_id != 0 ? (spot ? ledger_.spot_order(user, order_id) : ledger_.order(user, order_id))
                      : ledger_.order_by_client_id(user, client_id, spot);
    if (!r || r->spec.symbol != symbol)
        return std::nullopt;
    return r;
}

std::variant<order_record, refusal> engine::cancel(venue where, std::string const& user,
                                                   std::string const& symbol,
                                                   std::uint64_t order_id,
                                                   std::string const& client_id) {
    std::lock_guard lock(m_);
    std::int64_t const now = clock_();
    bool const spot = where == venue::spot;
    std::optional<order_record> r =
        order_id != 0 ? (spot ? ledger_.spot_order(user, order_id) : ledger_.order(user, order_id))
                      : ledger_.order_by_client_id(user, client_id, spot);
    if (!r || r->spec.symbol != symbol || !is_open(*r))
        return refuse(w::cancel_rejected);
    std::uint64_t const oid = r->order_id;
    auto const k = book_index(where, symbol);
    if (auto const x = resting_.find(oid); x != resting_.end()) {
        if (spot && k)
            ledger_.unlock_spot(user, paid_asset(books_[*k], r->spec.is_buy),
                                spot_lock(r->spec, r->spec.quantity - r->executed_qty));
        erase_resting(oid);
    } else if (auto const t = triggers_.find(oid); t != triggers_.end()) {
        if (spot && k)
            ledger_.unlock_spot(user, paid_asset(books_[*k], r->spec.is_buy),
                                spot_lock(r->spec, r->spec.quantity));
        triggers_.erase(t);
    }
    auto out = remove(where, user, oid, "CANCELED", now);
    if (!out)
        return refuse(w::cancel_rejected);
    return *out;
}

std::size_t engine::cancel_all(std::string const& user, std::string const& symbol) {
    std::size_t n = 0;
    for (auto const& o : ledger_.open_orders(user))
        if (o.spec.symbol == symbol && std::holds_alternative<order_record>(
                                           cancel(venue::futures, user, symbol, o.order_id, {})))
            ++n;
    return n;
}

std::variant<amount, refusal> engine::set_leverage(std::string const& user,
                                                   std::string const& symbol, unsigned leverage) {
    std::lock_guard lock(m_);
    auto const* p = find_perp(symbol);
    auto const* c = ledger_.find(symbol);
    if (!p || !c)
        return refuse(w::invalid_symbol);
    if (leverage < 1 || leverage > max_leverage(*p))
        return refusal{w::invalid_leverage, w::invalid_leverage_msg(std::to_string(leverage))};
    amount const cap = max_notional(c->brackets, leverage);
    auto const k = book_index(venue::futures, symbol);
    amount const pos = position_of(user, symbol);
    if (k && !pos.is_zero() && pos.abs() * mark_of(books_[*k]) > cap)
        return refuse(w::max_leverage_ratio);
    ledger_.set_leverage(user, symbol, leverage);
    return cap;
}

engine_book engine::book(venue where, std::string const& symbol, std::size_t depth) const {
    std::lock_guard lock(m_);
    engine_book out;
    auto const k = book_index(where, symbol);
    if (!k)
        return out;
    auto aggregate = [depth](auto const& side, std::vector<engine_level>& levels) {
        for (auto const& [px, lvl] : side) {
            if (levels.size() == depth)
                break;
            engine_level l;
            l.px = px;
            for (auto const& o : lvl) {
                l.sz += o.sz;
                ++l.n;
            }
            levels.push_back(l);
        }
    };
    aggregate(books_[*k].bids, out.bids);
    aggregate(books_[*k].asks, out.asks);
    return out;
}

// ---------------------------------------------------------------------------------------------
// House liquidity and triggers

void engine::sync() {
    std::lock_guard lock(m_);
    sync_locked(clock_());
}

void engine::sync_locked(std::int64_t now) {
    for (std::size_t k = 0; k < books_.size(); ++k) {
        auto& b = books_[k];
        auto const v = markets_.version(b.market);
        if (b.version == v)
            continue;
        if (!b.version || b.house_taken || markets_.mark(b.market) != b.mark)
            requote(k, now);
        else
            b.version = v; // same ladder: keep the (stable) house orders
    }
    for (std::size_t k = 0; k < books_.size() && !triggers_.empty(); ++k)
        fire_triggers(k, now);
}

void engine::requote(std::size_t k, std::int64_t now) {
    auto& b = books_[k];
    auto const& s = markets_.spec(b.market);
    auto const drop_house = [](auto& side) {
        for (auto it = side.begin(); it != side.end();) {
            std::erase_if(it->second, [](book_order const& o) { return o.owner.empty(); });
            it = it->second.empty() ? side.erase(it) : std::next(it);
        }
    };
    drop_house(b.bids);
    drop_house(b.asks);
    auto const snap = markets_.book(b.market, house_depth);
    b.version = snap.version;
    b.mark = markets_.mark(b.market);
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
        if (is_buy)
            b.bids[*t.limit].push_back(o);
        else
            b.asks[*t.limit].push_back(o);
    };
    for (auto const& l : snap.asks)
        quote(l, false);
    for (auto const& l : snap.bids)
        quote(l, true);
}

bool engine::due(trigger_order& t, amount mark) const {
    auto const& s = t.spec;
    if (s.type != "TRAILING_STOP_MARKET")
        return condition_holds(s, mark);
    amount const activation = s.activation_price.value_or(mark);
    if (!t.activated) {
        if (s.is_buy ? mark > activation : mark < activation)
            return false;
        t.activated = true;
        t.extreme = mark;
    } else {
        t.extreme = s.is_buy ? std::min(t.extreme, mark) : std::max(t.extreme, mark);
    }
    amount const rate = s.callback_rate.value_or(amount{});
    amount const hundred = amount::from_int(100);
    return s.is_buy ? mark >= t.extreme * (hundred + rate) / hundred
                    : mark <= t.extreme * (hundred - rate) / hundred;
}

void engine::fire_triggers(std::size_t k, std::int64_t now) {
    std::optional<amount> mark;
    std::vector<std::uint64_t> fired;
    for (auto& [oid, t] : triggers_) {
        if (t.book != k)
            continue;
        if (!mark)
            mark = mark_of(books_[k]);
        if (due(t, *mark))
            fired.push_back(oid);
    }
    for (auto const oid : fired) {
        auto node = triggers_.extract(oid);
        fire(oid, std::move(node.mapped()), now);
    }
}

void engine::fire(std::uint64_t oid, trigger_order t, std::int64_t now) {
    auto const& b = books_[t.book];
    bool const spot = b.where == venue::spot;
    auto r = spot ? ledger_.spot_order(t.owner, oid) : ledger_.order(t.owner, oid);
    if (!r || !is_open(*r))
        return;
    order_spec& s = r->spec;
    if (spot)
        ledger_.unlock_spot(t.owner, paid_asset(b, s.is_buy), spot_lock(s, s.quantity));
    s.orig_type = s.type;
    s.type = is_limit_type(s.type) ? "LIMIT" : "MARKET";
    r->update_time = now;
    auto const expire = [&]() -> void {
        r->status = "EXPIRED";
        if (spot) {
            ledger_.rest_spot_order(t.owner, *r);
            ledger_.remove_spot_order(t.owner, oid, "EXPIRED", now);
        } else {
            ledger_.rest_order(t.owner, *r);
            ledger_.remove_order(t.owner, oid, "EXPIRED", now);
        }
    };
    if (!spot) {
        amount const pos = position_of(t.owner, s.symbol);
        bool const reduces = !pos.is_zero() && (pos.sign() > 0) != s.is_buy;
        if (s.close_position) {
            if (!reduces) {
                expire();
                return;
            }
            s.quantity = pos.abs();
        } else if (s.reduce_only ? !reduces : check_margin(t.owner, b, s).has_value()) {
            expire();
            return;
        }
    }
    execute(t.owner, t.book, std::move(*r), now);
}

} // namespace gateway::mocks::beta
