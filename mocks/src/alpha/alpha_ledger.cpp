#include "alpha_ledger.hpp"

#include "../common/ids.hpp"
#include "../common/rng.hpp"

#include <algorithm>

namespace gateway::mocks::alpha {

namespace {

constexpr unsigned default_leverage_value = 20;

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

} // namespace

std::optional<amount> liquidation_price(amount mark, amount szi, amount margin_available,
                                        unsigned max_leverage) {
    if (szi.is_zero() || max_leverage == 0)
        return std::nullopt;
    // liq = mark - side * avail / |szi| / (1 - side / (2 M))
    //     = mark - side * avail * 2M / (|szi| * (2M - side))
    auto const two_m = 2 * static_cast<std::int64_t>(max_leverage);
    std::int64_t const side = szi.sign();
    amount const num = margin_available.times(two_m);
    amount const den = szi.abs().times(two_m - side);
    amount const liq = mark - (num / den).times(side);
    if (liq.sign() <= 0)
        return std::nullopt;
    return liq;
}

std::string perp_direction(amount start, bool is_buy, amount sz) {
    if (start.is_zero())
        return is_buy ? "Open Long" : "Open Short";
    if (start.sign() > 0) {
        if (is_buy)
            return "Open Long";
        return sz > start ? "Long > Short" : "Close Long";
    }
    if (!is_buy)
        return "Open Short";
    return sz > start.abs() ? "Short > Long" : "Close Short";
}

ledger::ledger(std::uint64_t seed, std::vector<instrument> instruments,
               std::vector<std::string> tokens)
    : seed_(seed)
    , instruments_(std::move(instruments))
    , tokens_(std::move(tokens))
    , next_oid_(100'000'000'000ULL + mix_seed(seed, 0x0d1d) % 1'000'000'000ULL)
    , next_tid_(500'000'000'000'000ULL + mix_seed(seed, 0x7d1d) % 100'000'000'000'000ULL) {}

std::optional<std::string> ledger::normalize_address(std::string_view text) {
    if (text.size() != 42 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return std::nullopt;
    std::string out = "0x";
    for (char c : text.substr(2)) {
        if (!is_hex(c))
            return std::nullopt;
        out.push_back(c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c);
    }
    return out;
}

std::optional<instrument> ledger::find(std::string_view coin) const {
    if (auto const* i = find_locked(coin))
        return *i; // immutable after construction: no lock needed
    return std::nullopt;
}

instrument const* ledger::find_locked(std::string_view coin) const {
    for (auto const& i : instruments_)
        if (i.coin == coin)
            return &i;
    return nullptr;
}

ledger::account& ledger::touch(std::string const& address) {
    return accounts_[address];
}

ledger::account const* ledger::get(std::string const& address) const {
    auto const it = accounts_.find(address);
    return it == accounts_.end() ? nullptr : &it->second;
}

leverage_setting ledger::default_leverage(instrument const& ins) const {
    return {ins.only_isolated ? margin_mode::isolated : margin_mode::cross,
            std::min(default_leverage_value, ins.max_leverage)};
}

leverage_setting ledger::leverage_locked(account const& a, instrument const& ins) const {
    if (auto const p = a.positions.find(ins.coin); p != a.positions.end())
        return p->second.leverage;
    if (auto const l = a.leverage.find(ins.coin); l != a.leverage.end())
        return l->second;
    return default_leverage(ins);
}

// ---------------------------------------------------------------------------------------------
// Writes

bool ledger::credit(std::string const& address, std::string const& token, amount amt) {
    std::lock_guard lock(m_);
    if (token == "USDC") {
        touch(address).collateral[""] += amt;
        net_deposits_[""] += amt;
        return true;
    }
    if (std::find(tokens_.begin(), tokens_.end(), token) == tokens_.end())
        return false;
    touch(address).spot[token].total += amt;
    return true;
}

bool ledger::credit_spot(std::string const& address, std::string const& token, amount amt) {
    std::lock_guard lock(m_);
    if (std::find(tokens_.begin(), tokens_.end(), token) == tokens_.end())
        return false;
    touch(address).spot[token].total += amt;
    return true;
}

void ledger::credit_dex(std::string const& address, std::string const& dex, amount amt) {
    std::lock_guard lock(m_);
    auto& a = touch(address);
    a.collateral[""] -= amt;
    a.collateral[dex] += amt;
    net_deposits_[""] -= amt;
    net_deposits_[dex] += amt;
}

void ledger::debit_dex(account& a, std::string const& dex, amount amt) {
    auto& c = a.collateral[dex];
    if (!dex.empty() && c < amt) {
        amount const shortfall = amt - std::max(c, amount{});
        a.collateral[""] -= shortfall;
        c += shortfall;
        net_deposits_[""] -= shortfall;
        net_deposits_[dex] += shortfall;
    }
    c -= amt;
}

void ledger::set_leverage(std::string const& address, std::string const& coin,
                          leverage_setting lev) {
    std::lock_guard lock(m_);
    auto const* ins = find_locked(coin);
    if (!ins || ins->spot)
        return;
    auto& a = touch(address);
    a.leverage[coin] = lev;
    auto const p = a.positions.find(coin);
    if (p == a.positions.end())
        return;
    auto& pos = p->second;
    // Re-size the isolated margin to the new setting (or release it when going cross).
    amount const wanted = lev.mode == margin_mode::isolated
                              ? (pos.szi.abs() * pos.entry_px).over(lev.value).rounded(usd_decimals)
                              : amount{};
    amount const delta = wanted - pos.isolated_margin;
    if (delta.sign() > 0)
        debit_dex(a, ins->dex, delta);
    else
        a.collateral[ins->dex] -= delta;
    pos.isolated_margin = wanted;
    pos.leverage = lev;
}

leverage_setting ledger::leverage_of(std::string const& address, std::string const& coin) const {
    std::lock_guard lock(m_);
    auto const* ins = find_locked(coin);
    if (!ins)
        return {};
    auto const* a = get(address);
    return a ? leverage_locked(*a, *ins) : default_leverage(*ins);
}

std::optional<fill_record> ledger::apply_fill(std::string const& address, fill_event const& e) {
    std::lock_guard lock(m_);
    auto const* ins = find_locked(e.coin);
    if (!ins || e.sz.sign() <= 0)
        return std::nullopt;
    auto& a = touch(address);
    fill_record f;
    f.coin = ins->coin;
    f.px = e.px;
    f.sz = e.sz;
    f.is_buy = e.is_buy;
    f.time = e.time_ms;
    f.oid = e.oid != 0 ? e.oid : next_oid_++;
    f.tid = e.tid != 0 ? e.tid : next_tid_++;
    f.hash = e.hash.empty() ? hash_hex(mix_seed(seed_, 0x4a54, f.tid)) : e.hash;
    f.crossed = e.crossed;
    f.fee = e.fee;
    f.builder_fee = e.builder_fee;
    f.cloid = e.cloid;
    if (ins->spot)
        apply_spot(a, *ins, e, f);
    else
        apply_perp(a, *ins, e, f);
    a.cum_vlm += e.px * e.sz;
    add_fill(a, f);
    if (listener_)
        listener_(ledger_event{address, std::nullopt, f});
    return f;
}

void ledger::apply_perp(account& a, instrument const& ins, fill_event const& e, fill_record& f) {
    f.fee_token = e.fee_token.empty() ? std::string("USDC") : e.fee_token;
    auto it = a.positions.find(ins.coin);
    amount const start = it == a.positions.end() ? amount{} : it->second.szi;
    f.start_position = start;
    f.dir = perp_direction(start, e.is_buy, e.sz);
    amount const fee = e.fee.rounded(usd_decimals);
    if (fee.sign() > 0)
        debit_dex(a, ins.dex, fee);
    else
        a.collateral[ins.dex] -= fee;

    amount const signed_sz = e.is_buy ? e.sz : -e.sz;
    auto open = [&](amount szi, amount entry, amount added_sz) {
        if (it == a.positions.end()) {
            leverage_setting const lev = e.leverage ? *e.leverage : leverage_locked(a, ins);
            a.leverage[ins.coin] = lev;
            it = a.positions.emplace(ins.coin, perp_position{ins.coin, {}, {}, lev, {}}).first;
        }
        auto& pos = it->second;
        pos.szi = szi;
        pos.entry_px = entry;
        if (pos.leverage.mode == margin_mode::isolated) {
            amount const margin = (added_sz * e.px).over(pos.leverage.value).rounded(usd_decimals);
            debit_dex(a, ins.dex, margin);
            pos.isolated_margin += margin;
        }
    };

    if (start.is_zero() || start.sign() == signed_sz.sign()) {
        amount const total = start.abs() + e.sz;
        amount const entry =
            start.is_zero() ? e.px : (start.abs() * it->second.entry_px + e.sz * e.px) / total;
        open(start + signed_sz, entry, e.sz);
        return;
    }

    // Reduce, close or flip.
    auto& pos = it->second;
    amount const closing = std::min(e.sz, start.abs());
    amount const pnl = (closing * (e.px - pos.entry_px)).times(start.sign()).rounded(usd_decimals);
    f.closed_pnl = pnl;
    if (pnl.sign() < 0)
        debit_dex(a, ins.dex, -pnl);
    else
        a.collateral[ins.dex] += pnl;
    if (pos.leverage.mode == margin_mode::isolated) {
        amount const release =
            closing == start.abs()
                ? pos.isolated_margin
                : (pos.isolated_margin * closing / start.abs()).rounded(usd_decimals);
        pos.isolated_margin -= release;
        a.collateral[ins.dex] += release;
    }
    if (closing < start.abs()) {
        pos.szi = start + signed_sz;
        return;
    }
    amount const rest = e.sz - closing;
    if (rest.is_zero()) {
        a.positions.erase(it);
        return;
    }
    // Flip: the rest opens at the fill price with the same setting.
    pos.isolated_margin = {};
    open(e.is_buy ? rest : -rest, e.px, rest);
}

void ledger::apply_spot(account& a, instrument const& ins, fill_event const& e, fill_record& f) {
    auto& base = a.spot[ins.base];
    auto& quote = a.spot[ins.quote];
    f.start_position = base.total;
    f.dir = e.is_buy ? "Buy" : "Sell";
    amount const notional = e.px * e.sz;
    if (e.is_buy) {
        base.total += e.sz;
        base.entry_ntl += notional;
        quote.total -= notional;
    } else {
        amount const held = std::max(base.total, amount{});
        amount const cost =
            held.is_zero() ? amount{} : (base.entry_ntl * std::min(e.sz, held) / held);
        f.closed_pnl = (notional - cost).rounded(usd_decimals);
        base.entry_ntl -= cost;
        base.total -= e.sz;
        quote.total += notional;
    }
    f.fee_token = !e.fee_token.empty() ? e.fee_token : e.is_buy ? ins.base : ins.quote;
    a.spot[f.fee_token].total -= e.fee;
}

void ledger::add_fill(account& a, fill_record f) {
    a.fills.push_back(std::move(f));
    if (a.fills.size() > fills_kept)
        a.fills.pop_front();
}

std::uint64_t ledger::next_oid() {
    std::lock_guard lock(m_);
    return next_oid_++;
}

std::uint64_t ledger::next_tid() {
    std::lock_guard lock(m_);
    return next_tid_++;
}

void ledger::rest_order(std::string const& address, order_record order) {
    std::lock_guard lock(m_);
    std::uint64_t const oid = order.oid;
    emit_order(address, order, "open", order.spec.timestamp);
    touch(address).open.insert_or_assign(oid, std::move(order));
}

void ledger::emit_order(std::string const& address, order_record const& o,
                        std::string const& status, std::int64_t time_ms) const {
    if (listener_)
        listener_(ledger_event{address, order_status_record{o, status, time_ms}, std::nullopt});
}

void ledger::set_listener(listener l) {
    std::lock_guard lock(m_);
    listener_ = std::move(l);
}

std::uint64_t ledger::add_order(std::string const& address, order_spec spec) {
    std::lock_guard lock(m_);
    std::uint64_t const oid = next_oid_++;
    amount const sz = spec.sz;
    auto const& placed =
        touch(address).open.emplace(oid, order_record{oid, std::move(spec), sz}).first->second;
    emit_order(address, placed, "open", placed.spec.timestamp);
    return oid;
}

bool ledger::set_order_size(std::string const& address, std::uint64_t oid, amount remaining) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(address);
    if (a == accounts_.end())
        return false;
    auto const o = a->second.open.find(oid);
    if (o == a->second.open.end())
        return false;
    o->second.sz = remaining;
    emit_order(address, o->second, "open", o->second.spec.timestamp);
    return true;
}

std::optional<order_record> ledger::remove_order(std::string const& address, std::uint64_t oid,
                                                 std::string const& status, std::int64_t time_ms) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(address);
    if (a == accounts_.end())
        return std::nullopt;
    auto const o = a->second.open.find(oid);
    if (o == a->second.open.end())
        return std::nullopt;
    order_record r = std::move(o->second);
    a->second.open.erase(o);
    add_history(a->second, {r, status, time_ms});
    emit_order(address, r, status, time_ms);
    return r;
}

void ledger::record_order(std::string const& address, order_record order, std::string status,
                          std::int64_t time_ms) {
    std::lock_guard lock(m_);
    if (order.oid == 0)
        order.oid = next_oid_++;
    emit_order(address, order, status, time_ms);
    add_history(touch(address), {std::move(order), std::move(status), time_ms});
}

void ledger::add_history(account& a, order_status_record r) {
    a.history.push_back(std::move(r));
    if (a.history.size() > history_kept)
        a.history.pop_front();
}

void ledger::add_agent(std::string const& master, agent_record agent) {
    std::lock_guard lock(m_);
    auto& agents = touch(master).agents;
    // A new approval replaces the agent with the same name (or the unnamed one) and the same
    // address.
    std::erase_if(agents, [&](agent_record const& x) {
        bool const drop = x.name == agent.name || x.address == agent.address;
        if (drop)
            agent_master_.erase(x.address);
        return drop;
    });
    agent_master_[agent.address] = master;
    agents.push_back(std::move(agent));
}

void ledger::approve_builder_fee(std::string const& user, std::string const& builder,
                                 std::uint64_t max_tenths_bps) {
    std::lock_guard lock(m_);
    touch(user).builder_fees[builder] = max_tenths_bps;
}

void ledger::note_action(std::string const& address) {
    std::lock_guard lock(m_);
    ++touch(address).actions;
}

// ---------------------------------------------------------------------------------------------
// Reads

bool ledger::known(std::string const& address) const {
    std::lock_guard lock(m_);
    return accounts_.contains(address);
}

std::vector<perp_position> ledger::positions(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<perp_position> out;
    auto const* a = get(address);
    if (!a)
        return out;
    for (auto const& ins : instruments_)
        if (auto const p = a->positions.find(ins.coin); p != a->positions.end())
            out.push_back(p->second);
    return out;
}

amount ledger::collateral(std::string const& address, std::string_view dex) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return {};
    auto const c = a->collateral.find(dex);
    return c == a->collateral.end() ? amount{} : c->second;
}

perp_view ledger::perp_state(std::string const& address, std::string_view dex,
                             mark_fn const& mark) const {
    // Copy under the lock, price outside it (the mark source has its own lock).
    amount cash;
    std::vector<std::pair<perp_position, unsigned>> held;
    {
        std::lock_guard lock(m_);
        if (auto const* a = get(address)) {
            if (auto const c = a->collateral.find(dex); c != a->collateral.end())
                cash = c->second;
            for (auto const& ins : instruments_)
                if (!ins.spot && ins.dex == dex)
                    if (auto const p = a->positions.find(ins.coin); p != a->positions.end())
                        held.emplace_back(p->second, ins.max_leverage);
        }
    }
    perp_view v;
    amount cross_upnl;
    amount cross_entry_ntl; // sum of szi * entry over cross positions
    amount iso_margin_used, iso_ntl, iso_raw;
    for (auto const& [p, max_lev] : held) {
        position_view x;
        x.coin = p.coin;
        x.szi = p.szi;
        x.entry_px = p.entry_px;
        x.max_leverage = max_lev;
        x.leverage = p.leverage;
        amount const m = mark ? mark(p.coin).value_or(p.entry_px) : p.entry_px;
        x.mark_px = m;
        x.position_value = p.szi.abs() * m;
        x.unrealized_pnl = p.szi * (m - p.entry_px);
        amount const entry_ntl = p.szi.abs() * p.entry_px;
        x.return_on_equity = x.unrealized_pnl.times(p.leverage.value) / entry_ntl;
        if (p.leverage.mode == margin_mode::cross) {
            x.margin_used = x.position_value.over(p.leverage.value);
            v.cross.total_margin_used += x.margin_used;
            v.cross.total_ntl_pos += x.position_value;
            v.cross_maintenance_margin_used +=
                x.position_value.over(2 * static_cast<std::int64_t>(max_lev));
            cross_upnl += x.unrealized_pnl;
            cross_entry_ntl += p.szi * p.entry_px;
        } else {
            x.raw_usd = p.isolated_margin - p.szi * p.entry_px;
            x.margin_used = p.isolated_margin + x.unrealized_pnl;
            iso_margin_used += x.margin_used;
            iso_ntl += x.position_value;
            iso_raw += *x.raw_usd;
        }
        v.positions.push_back(std::move(x));
    }
    v.cross.account_value = cash + cross_upnl;
    v.cross.total_raw_usd = cash - cross_entry_ntl;
    v.all.account_value = v.cross.account_value + iso_margin_used;
    v.all.total_ntl_pos = v.cross.total_ntl_pos + iso_ntl;
    v.all.total_raw_usd = v.cross.total_raw_usd + iso_raw;
    v.all.total_margin_used = v.cross.total_margin_used + iso_margin_used;
    v.withdrawable = std::max(amount{}, v.cross.account_value - v.cross.total_margin_used);
    for (auto& x : v.positions) {
        amount const available =
            x.leverage.mode == margin_mode::cross
                ? v.cross.account_value - v.cross_maintenance_margin_used
                : x.margin_used -
                      x.position_value.over(2 * static_cast<std::int64_t>(x.max_leverage));
        x.liquidation_px = liquidation_price(x.mark_px, x.szi, available, x.max_leverage);
    }
    return v;
}

std::vector<spot_balance_view> ledger::spot_state(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<spot_balance_view> out;
    auto const* a = get(address);
    if (!a)
        return out;
    std::map<std::string, amount, std::less<>> hold;
    for (auto const& [oid, o] : a->open) {
        auto const* ins = find_locked(o.spec.coin);
        if (!ins || !ins->spot)
            continue;
        if (o.spec.is_buy)
            hold[ins->quote] += o.sz * o.spec.limit_px;
        else
            hold[ins->base] += o.sz;
    }
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        auto const s = a->spot.find(tokens_[i]);
        if (s == a->spot.end())
            continue;
        spot_balance_view b;
        b.coin = tokens_[i];
        b.token = i;
        if (auto const h = hold.find(tokens_[i]); h != hold.end())
            b.hold = h->second;
        b.total = s->second.total;
        b.entry_ntl = s->second.entry_ntl;
        out.push_back(std::move(b));
    }
    return out;
}

std::vector<order_record> ledger::open_orders(std::string const& address,
                                              std::string_view dex) const {
    std::lock_guard lock(m_);
    std::vector<order_record> out;
    auto const* a = get(address);
    if (!a)
        return out;
    for (auto it = a->open.rbegin(); it != a->open.rend(); ++it) {
        auto const* ins = find_locked(it->second.spec.coin);
        if (ins && ins->dex == dex)
            out.push_back(it->second);
    }
    return out;
}

std::vector<order_record> ledger::open_orders(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<order_record> out;
    if (auto const* a = get(address))
        for (auto it = a->open.rbegin(); it != a->open.rend(); ++it)
            out.push_back(it->second);
    return out;
}

std::vector<fill_record> ledger::fills(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<fill_record> out;
    auto const* a = get(address);
    if (!a)
        return out;
    for (auto it = a->fills.rbegin(); it != a->fills.rend() && out.size() < fills_answered; ++it)
        out.push_back(*it);
    return out;
}

std::vector<fill_record> ledger::fills_by_time(std::string const& address, std::int64_t start,
                                               std::int64_t end) const {
    std::lock_guard lock(m_);
    std::vector<fill_record> out;
    auto const* a = get(address);
    if (!a)
        return out;
    for (auto const& f : a->fills) {
        if (f.time < start || f.time > end)
            continue;
        out.push_back(f);
        if (out.size() == fills_answered)
            break;
    }
    return out;
}

std::optional<order_status_record> ledger::order_status(std::string const& address,
                                                        std::uint64_t oid) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return std::nullopt;
    if (auto const o = a->open.find(oid); o != a->open.end())
        return order_status_record{o->second, "open", o->second.spec.timestamp};
    for (auto it = a->history.rbegin(); it != a->history.rend(); ++it)
        if (it->order.oid == oid)
            return *it;
    return std::nullopt;
}

std::optional<order_status_record> ledger::order_status_by_cloid(std::string const& address,
                                                                 std::string const& cloid) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return std::nullopt;
    for (auto const& [oid, o] : a->open)
        if (o.spec.cloid == cloid)
            return order_status_record{o, "open", o.spec.timestamp};
    for (auto it = a->history.rbegin(); it != a->history.rend(); ++it)
        if (it->order.spec.cloid == cloid)
            return *it;
    return std::nullopt;
}

std::vector<order_status_record> ledger::historical_orders(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<order_status_record> out;
    auto const* a = get(address);
    if (!a)
        return out;
    for (auto const& [oid, o] : a->open)
        out.push_back({o, "open", o.spec.timestamp});
    out.insert(out.end(), a->history.begin(), a->history.end());
    std::stable_sort(out.begin(), out.end(), [](auto const& x, auto const& y) {
        if (x.status_timestamp != y.status_timestamp)
            return x.status_timestamp > y.status_timestamp;
        return x.order.oid > y.order.oid;
    });
    if (out.size() > history_kept)
        out.resize(history_kept);
    return out;
}

std::optional<std::uint64_t> ledger::max_builder_fee(std::string const& user,
                                                     std::string const& builder) const {
    std::lock_guard lock(m_);
    auto const* a = get(user);
    if (!a)
        return std::nullopt;
    auto const it = a->builder_fees.find(builder);
    if (it == a->builder_fees.end())
        return std::nullopt;
    return it->second;
}

std::vector<agent_record> ledger::extra_agents(std::string const& master) const {
    std::lock_guard lock(m_);
    std::vector<agent_record> out;
    if (auto const* a = get(master))
        for (auto const& x : a->agents)
            if (!x.name.empty())
                out.push_back(x);
    return out;
}

role_view ledger::role(std::string const& address) const {
    std::lock_guard lock(m_);
    if (auto const m = agent_master_.find(address); m != agent_master_.end())
        return {"agent", m->second};
    if (accounts_.contains(address))
        return {"user", {}};
    return {"missing", {}};
}

rate_view ledger::rate_limit(std::string const& address) const {
    std::lock_guard lock(m_);
    rate_view r;
    if (auto const* a = get(address)) {
        r.cum_vlm = a->cum_vlm;
        r.requests_used = a->actions;
    }
    // alpha.md §8: 10000 initial + 1 request per 1 USDC traded.
    r.requests_cap =
        10'000 + static_cast<std::uint64_t>(std::max<std::int64_t>(0, r.cum_vlm.truncated()));
    return r;
}

amount ledger::net_deposits(std::string_view dex) const {
    std::lock_guard lock(m_);
    auto const it = net_deposits_.find(dex);
    return it == net_deposits_.end() ? amount{} : it->second;
}

} // namespace gateway::mocks::alpha
