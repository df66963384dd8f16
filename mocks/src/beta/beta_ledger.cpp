#include "beta_ledger.hpp"

#include "../common/rng.hpp"

#include <algorithm>

namespace gateway::mocks::beta {

namespace {

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

amount remaining(order_record const& o) {
    return o.spec.quantity - o.executed_qty;
}

} // namespace

std::vector<contract> contracts() {
    std::vector<contract> out;
    for (auto const& p : perps()) {
        contract c;
        c.symbol = std::string(p.symbol);
        c.px_scale = p.px_scale;
        c.sz_scale = p.sz_scale;
        c.default_leverage = default_leverage(p);
        c.brackets = brackets_of(p);
        out.push_back(std::move(c));
    }
    return out;
}

ledger::ledger(std::uint64_t seed, std::vector<contract> perps_booked,
               std::vector<std::string> spot_assets)
    : contracts_(std::move(perps_booked))
    , spot_assets_(std::move(spot_assets))
    , next_order_id_(1'000'000'000ULL + mix_seed(seed, 0xb0d1) % 1'000'000'000ULL)
    , next_trade_id_(100'000'000ULL + mix_seed(seed, 0xb7d1) % 100'000'000ULL)
    , next_tran_id_(4'000'000'000'000ULL + mix_seed(seed, 0xb7a1) % 1'000'000'000'000ULL) {}

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

std::string ledger::generated_client_id(std::uint64_t order_id) {
    static constexpr char chars[] =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    splitmix64 r(mix_seed(order_id, 0xc11e));
    std::string out;
    for (int i = 0; i < 22; ++i)
        out.push_back(chars[r.below(62)]);
    return out;
}

std::string ledger::alias(std::string const& address) {
    // FNV-1a over the text, then SplitMix64: portable, unlike std::hash.
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : address)
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    splitmix64 r(h);
    static constexpr char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::string out;
    for (int i = 0; i < 16; ++i)
        out.push_back(letters[r.below(52)]);
    return out;
}

contract const* ledger::find(std::string_view symbol) const {
    return find_locked(symbol); // immutable after construction: no lock needed
}

contract const* ledger::find_locked(std::string_view symbol) const {
    for (auto const& c : contracts_)
        if (c.symbol == symbol)
            return &c;
    return nullptr;
}

ledger::account& ledger::touch(std::string const& address) {
    return accounts_[address];
}

ledger::account const* ledger::get(std::string const& address) const {
    auto const it = accounts_.find(address);
    return it == accounts_.end() ? nullptr : &it->second;
}

leverage_setting ledger::setting_locked(account const& a, contract const& c) const {
    if (auto const p = a.positions.find(c.symbol); p != a.positions.end())
        return p->second.setting;
    if (auto const s = a.settings.find(c.symbol); s != a.settings.end())
        return s->second;
    return {c.default_leverage, margin_type::cross};
}

// ---------------------------------------------------------------------------------------------
// Writes

void ledger::touch_account(std::string const& address) {
    std::lock_guard lock(m_);
    touch(address);
}

bool ledger::credit_futures(std::string const& address, std::string const& asset, amount amt,
                            std::int64_t time_ms) {
    if (asset != "USDT")
        return false;
    std::lock_guard lock(m_);
    auto& a = touch(address);
    a.cross_wallet += amt;
    a.wallet_time = time_ms;
    income_record r;
    r.type = "TRANSFER";
    r.income = amt;
    r.time = time_ms;
    r.info = "TRANSFER";
    add_income_locked(a, std::move(r));
    return true;
}

bool ledger::credit_spot(std::string const& address, std::string const& asset, amount amt) {
    if (std::find(spot_assets_.begin(), spot_assets_.end(), asset) == spot_assets_.end())
        return false;
    std::lock_guard lock(m_);
    touch(address).spot[asset].free += amt;
    return true;
}

void ledger::set_leverage(std::string const& address, std::string const& symbol,
                          unsigned leverage) {
    std::lock_guard lock(m_);
    auto const* c = find_locked(symbol);
    if (!c)
        return;
    auto& a = touch(address);
    leverage_setting s = setting_locked(a, *c);
    s.leverage = leverage;
    a.settings[symbol] = s;
    if (auto const p = a.positions.find(symbol); p != a.positions.end())
        p->second.setting.leverage = leverage;
}

void ledger::set_margin_type(std::string const& address, std::string const& symbol, margin_type t) {
    std::lock_guard lock(m_);
    auto const* c = find_locked(symbol);
    if (!c)
        return;
    auto& a = touch(address);
    leverage_setting s = setting_locked(a, *c);
    s.type = t;
    a.settings[symbol] = s;
    if (auto const p = a.positions.find(symbol); p != a.positions.end())
        p->second.setting.type = t;
}

leverage_setting ledger::setting(std::string const& address, std::string const& symbol) const {
    std::lock_guard lock(m_);
    auto const* c = find_locked(symbol);
    if (!c)
        return {};
    auto const* a = get(address);
    return a ? setting_locked(*a, *c) : leverage_setting{c->default_leverage, margin_type::cross};
}

std::optional<fill_record> ledger::apply_fill(std::string const& address, fill_event const& e) {
    std::lock_guard lock(m_);
    auto const* c = find_locked(e.symbol);
    if (!c || e.qty.sign() <= 0)
        return std::nullopt;
    auto& a = touch(address);
    fill_record f;
    f.symbol = c->symbol;
    f.id = e.trade_id != 0 ? e.trade_id : next_trade_id_++;
    f.order_id = e.order_id != 0 ? e.order_id : next_order_id_++;
    f.is_buy = e.is_buy;
    f.price = e.price;
    f.qty = e.qty;
    f.quote_qty = e.price * e.qty;
    f.commission = e.commission.rounded(usdt_decimals);
    f.maker = e.maker;
    f.time = e.time_ms;
    a.cross_wallet -= f.commission;

    auto it = a.positions.find(c->symbol);
    amount const start = it == a.positions.end() ? amount{} : it->second.amt;
    amount const signed_qty = e.is_buy ? e.qty : -e.qty;
    auto open = [&](amount new_amt, amount entry, amount added) {
        if (it == a.positions.end()) {
            leverage_setting const s = e.setting ? *e.setting : setting_locked(a, *c);
            a.settings[c->symbol] = s;
            it = a.positions.emplace(c->symbol, position{c->symbol, {}, {}, s, {}, 0}).first;
        }
        auto& pos = it->second;
        pos.amt = new_amt;
        pos.entry = entry;
        if (pos.setting.type == margin_type::isolated) {
            amount const margin =
                (added * e.price).over(pos.setting.leverage).rounded(usdt_decimals);
            a.cross_wallet -= margin;
            pos.isolated_wallet += margin;
        }
        pos.update_time = e.time_ms;
    };

    if (start.is_zero() || start.sign() == signed_qty.sign()) {
        amount const total = start.abs() + e.qty;
        amount const entry =
            start.is_zero() ? e.price : (start.abs() * it->second.entry + e.qty * e.price) / total;
        open(start + signed_qty, entry, e.qty);
    } else {
        // Reduce, close or flip.
        auto& pos = it->second;
        amount const closing = std::min(e.qty, start.abs());
        f.realized_pnl =
            (closing * (e.price - pos.entry)).times(start.sign()).rounded(usdt_decimals);
        a.cross_wallet += f.realized_pnl;
        if (pos.setting.type == margin_type::isolated) {
            amount const release =
                closing == start.abs()
                    ? pos.isolated_wallet
                    : (pos.isolated_wallet * closing / start.abs()).rounded(usdt_decimals);
            pos.isolated_wallet -= release;
            a.cross_wallet += release;
        }
        pos.update_time = e.time_ms;
        if (closing < start.abs()) {
            pos.amt = start + signed_qty;
        } else if (amount const rest = e.qty - closing; rest.is_zero()) {
            a.positions.erase(it);
            it = a.positions.end();
        } else {
            pos.isolated_wallet = {};
            open(e.is_buy ? rest : -rest, e.price, rest);
        }
    }
    a.wallet_time = e.time_ms;

    a.fills.push_back(f);
    if (a.fills.size() > fills_kept)
        a.fills.pop_front();
    income_record commission;
    commission.symbol = f.symbol;
    commission.type = "COMMISSION";
    commission.income = -f.commission;
    commission.time = f.time;
    commission.trade_id = std::to_string(f.id);
    commission.info = "COMMISSION";
    add_income_locked(a, std::move(commission));
    if (!f.realized_pnl.is_zero()) {
        income_record pnl;
        pnl.symbol = f.symbol;
        pnl.type = "REALIZED_PNL";
        pnl.income = f.realized_pnl;
        pnl.time = f.time;
        pnl.trade_id = std::to_string(f.id);
        pnl.info = "REALIZED_PNL";
        add_income_locked(a, std::move(pnl));
    }
    emit(address, nullptr, &f);
    return f;
}

void ledger::add_income_locked(account& a, income_record r) {
    if (r.tran_id == 0)
        r.tran_id = next_tran_id_++;
    a.income.push_back(std::move(r));
    if (a.income.size() > income_kept)
        a.income.pop_front();
}

void ledger::add_income(std::string const& address, income_record r) {
    std::lock_guard lock(m_);
    auto& a = touch(address);
    if (r.asset == "USDT") {
        a.cross_wallet += r.income;
        a.wallet_time = r.time;
    }
    add_income_locked(a, std::move(r));
}

std::uint64_t ledger::next_order_id() {
    std::lock_guard lock(m_);
    return next_order_id_++;
}

std::uint64_t ledger::next_trade_id() {
    std::lock_guard lock(m_);
    return next_trade_id_++;
}

std::uint64_t ledger::add_order(std::string const& address, order_spec spec, std::int64_t time_ms) {
    std::lock_guard lock(m_);
    std::uint64_t const id = next_order_id_++;
    order_record r;
    r.order_id = id;
    r.spec = std::move(spec);
    if (r.spec.client_order_id.empty())
        r.spec.client_order_id = generated_client_id(id);
    r.time = time_ms;
    r.update_time = time_ms;
    emit(address, &r, nullptr);
    touch(address).open.emplace(id, std::move(r));
    return id;
}

void ledger::set_listener(listener l) {
    std::lock_guard lock(m_);
    listener_ = std::move(l);
}

void ledger::emit(std::string const& address, order_record const* o, fill_record const* f) const {
    if (!listener_)
        return;
    ledger_event e{address, std::nullopt, std::nullopt};
    if (o)
        e.order = *o;
    if (f)
        e.fill = *f;
    listener_(e);
}

void ledger::rest_order(std::string const& address, order_record order) {
    std::lock_guard lock(m_);
    std::uint64_t const id = order.order_id;
    if (order.spec.client_order_id.empty())
        order.spec.client_order_id = generated_client_id(id);
    emit(address, &order, nullptr);
    touch(address).open.insert_or_assign(id, std::move(order));
}

bool ledger::update_order(std::string const& address, std::uint64_t order_id, amount executed_qty,
                          amount cum_quote, std::string const& status, std::int64_t time_ms) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(address);
    if (a == accounts_.end())
        return false;
    auto const o = a->second.open.find(order_id);
    if (o == a->second.open.end())
        return false;
    o->second.executed_qty = executed_qty;
    o->second.cum_quote = cum_quote;
    o->second.status = status;
    o->second.update_time = time_ms;
    emit(address, &o->second, nullptr);
    return true;
}

std::optional<order_record> ledger::remove_order(std::string const& address, std::uint64_t order_id,
                                                 std::string const& status, std::int64_t time_ms) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(address);
    if (a == accounts_.end())
        return std::nullopt;
    auto const o = a->second.open.find(order_id);
    if (o == a->second.open.end())
        return std::nullopt;
    order_record r = std::move(o->second);
    a->second.open.erase(o);
    r.status = status;
    r.update_time = time_ms;
    add_history(a->second, r);
    emit(address, &r, nullptr);
    return r;
}

void ledger::record_order(std::string const& address, order_record order) {
    std::lock_guard lock(m_);
    if (order.order_id == 0)
        order.order_id = next_order_id_++;
    if (order.spec.client_order_id.empty())
        order.spec.client_order_id = generated_client_id(order.order_id);
    emit(address, &order, nullptr);
    add_history(touch(address), std::move(order));
}

void ledger::add_history(account& a, order_record r) {
    add_to(a.history, std::move(r));
}

void ledger::add_to(std::deque<order_record>& history, order_record r) {
    history.push_back(std::move(r));
    if (history.size() > history_kept)
        history.pop_front();
}

// ---------------------------------------------------------------------------------------------
// Spot orders and balances

void ledger::rest_spot_order(std::string const& address, order_record order) {
    std::lock_guard lock(m_);
    std::uint64_t const id = order.order_id;
    if (order.spec.client_order_id.empty())
        order.spec.client_order_id = generated_client_id(id);
    touch(address).spot_open.insert_or_assign(id, std::move(order));
}

bool ledger::update_spot_order(std::string const& address, std::uint64_t order_id,
                               amount executed_qty, amount cum_quote, std::string const& status,
                               std::int64_t time_ms) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(address);
    if (a == accounts_.end())
        return false;
    auto const o = a->second.spot_open.find(order_id);
    if (o == a->second.spot_open.end())
        return false;
    o->second.executed_qty = executed_qty;
    o->second.cum_quote = cum_quote;
    o->second.status = status;
    o->second.update_time = time_ms;
    return true;
}

std::optional<order_record> ledger::remove_spot_order(std::string const& address,
                                                      std::uint64_t order_id,
                                                      std::string const& status,
                                                      std::int64_t time_ms) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(address);
    if (a == accounts_.end())
        return std::nullopt;
    auto const o = a->second.spot_open.find(order_id);
    if (o == a->second.spot_open.end())
        return std::nullopt;
    order_record r = std::move(o->second);
    a->second.spot_open.erase(o);
    r.status = status;
    r.update_time = time_ms;
    add_to(a->second.spot_history, r);
    return r;
}

void ledger::record_spot_order(std::string const& address, order_record order) {
    std::lock_guard lock(m_);
    if (order.order_id == 0)
        order.order_id = next_order_id_++;
    if (order.spec.client_order_id.empty())
        order.spec.client_order_id = generated_client_id(order.order_id);
    add_to(touch(address).spot_history, std::move(order));
}

bool ledger::lock_spot(std::string const& address, std::string const& asset, amount amt) {
    std::lock_guard lock(m_);
    auto& h = touch(address).spot[asset];
    if (h.free < amt)
        return false;
    h.free -= amt;
    h.locked += amt;
    return true;
}

void ledger::unlock_spot(std::string const& address, std::string const& asset, amount amt) {
    std::lock_guard lock(m_);
    auto& h = touch(address).spot[asset];
    amount const back = std::min(amt, h.locked);
    h.locked -= back;
    h.free += back;
}

spot_fill_record ledger::apply_spot_fill(std::string const& address, spot_fill_event const& e) {
    std::lock_guard lock(m_);
    auto& a = touch(address);
    spot_fill_record f;
    f.symbol = e.symbol;
    f.id = e.trade_id != 0 ? e.trade_id : next_trade_id_++;
    f.order_id = e.order_id;
    f.is_buy = e.is_buy;
    f.price = e.price;
    f.qty = e.qty;
    f.quote_qty = (e.price * e.qty).rounded(usdt_decimals);
    f.commission = e.commission.rounded(usdt_decimals);
    f.commission_asset = e.is_buy ? e.base : e.quote;
    f.maker = e.maker;
    f.time = e.time_ms;
    auto& paid = a.spot[e.is_buy ? e.quote : e.base];
    amount const out = e.is_buy ? f.quote_qty : e.qty;
    (e.from_locked ? paid.locked : paid.free) -= out;
    a.spot[e.is_buy ? e.base : e.quote].free += (e.is_buy ? e.qty : f.quote_qty) - f.commission;
    a.spot_fills.push_back(f);
    if (a.spot_fills.size() > fills_kept)
        a.spot_fills.pop_front();
    return f;
}

bool ledger::add_agent(std::string const& user, std::string const& signer) {
    std::lock_guard lock(m_);
    return touch(user).agents.insert(signer).second;
}

bool ledger::remove_agent(std::string const& user, std::string const& signer) {
    std::lock_guard lock(m_);
    auto const a = accounts_.find(user);
    return a != accounts_.end() && a->second.agents.erase(signer) > 0;
}

// ---------------------------------------------------------------------------------------------
// Reads

bool ledger::known(std::string const& address) const {
    std::lock_guard lock(m_);
    return accounts_.contains(address);
}

bool ledger::is_agent(std::string const& user, std::string const& signer) const {
    std::lock_guard lock(m_);
    auto const* a = get(user);
    return a && a->agents.contains(signer);
}

std::vector<std::string> ledger::agents(std::string const& user) const {
    std::lock_guard lock(m_);
    auto const* a = get(user);
    return a ? std::vector<std::string>(a->agents.begin(), a->agents.end())
             : std::vector<std::string>{};
}

std::vector<std::string> ledger::masters(std::string const& signer) const {
    std::lock_guard lock(m_);
    std::vector<std::string> out;
    for (auto const& [address, a] : accounts_)
        if (a.agents.contains(signer))
            out.push_back(address);
    std::sort(out.begin(), out.end());
    return out;
}

futures_view ledger::futures(std::string const& address, mark_fn const& mark) const {
    // Copy under the lock, price outside it (the mark source has its own lock).
    futures_view v;
    std::vector<std::optional<position>> held(contracts_.size());
    std::vector<leverage_setting> settings(contracts_.size());
    std::vector<order_record> orders;
    {
        std::lock_guard lock(m_);
        auto const* a = get(address);
        for (std::size_t i = 0; i < contracts_.size(); ++i) {
            auto const& c = contracts_[i];
            settings[i] = a ? setting_locked(*a, c) : leverage_setting{c.default_leverage};
            if (!a)
                continue;
            if (auto const p = a->positions.find(c.symbol); p != a->positions.end())
                held[i] = p->second;
        }
        if (a) {
            v.cross_wallet = a->cross_wallet;
            v.update_time = a->wallet_time;
            for (auto const& [id, o] : a->open)
                orders.push_back(o);
        }
    }
    v.wallet = v.cross_wallet;
    amount cross_im;
    for (std::size_t i = 0; i < contracts_.size(); ++i) {
        auto const& c = contracts_[i];
        position_view x;
        x.symbol = c.symbol;
        x.px_scale = c.px_scale;
        x.sz_scale = c.sz_scale;
        x.setting = settings[i];
        x.max_notional = max_notional(c.brackets, x.setting.leverage);
        std::optional<amount> m;
        auto const price = [&]() {
            if (!m)
                m = mark ? mark(c.symbol) : std::nullopt;
            return m;
        };
        for (auto const& o : orders) {
            if (o.spec.symbol != c.symbol || o.spec.reduce_only || o.spec.close_position)
                continue;
            amount ref = !o.spec.price.is_zero()        ? o.spec.price
                         : !o.spec.stop_price.is_zero() ? o.spec.stop_price
                         : o.spec.activation_price      ? *o.spec.activation_price
                                                        : price().value_or(amount{});
            x.open_order_initial_margin += (remaining(o) * ref).over(x.setting.leverage);
        }
        if (held[i]) {
            auto const& p = *held[i];
            x.amt = p.amt;
            x.entry = p.entry;
            x.isolated_wallet = p.isolated_wallet;
            x.update_time = p.update_time;
            x.mark = price().value_or(p.entry);
            x.notional = p.amt * x.mark;
            x.unrealized = p.amt * (x.mark - p.entry);
            x.initial_margin = x.notional.abs().over(x.setting.leverage);
            auto const& b = bracket_for(c.brackets, x.notional.abs());
            x.maint_margin = std::max(amount{}, x.notional.abs() * b.mmr - b.cum);
            v.wallet += p.isolated_wallet;
            v.unrealized += x.unrealized;
            v.position_initial_margin += x.initial_margin;
            v.maint_margin += x.maint_margin;
            if (p.setting.type == margin_type::cross) {
                v.cross_unrealized += x.unrealized;
                cross_im += x.initial_margin;
            }
        }
        v.open_order_initial_margin += x.open_order_initial_margin;
        v.positions.push_back(std::move(x));
    }
    v.available = std::max(amount{}, v.cross_wallet + v.cross_unrealized - cross_im -
                                         v.open_order_initial_margin);
    v.max_withdraw = std::max(amount{}, std::min(v.available, v.cross_wallet));

    // Liquidation prices (Binance's one-way formula; see the file comment).
    for (std::size_t i = 0; i < v.positions.size(); ++i) {
        auto& x = v.positions[i];
        if (x.amt.is_zero())
            continue;
        auto const& b = bracket_for(contracts_[i].brackets, x.notional.abs());
        amount wb = x.isolated_wallet;
        amount tmm, upnl;
        if (x.setting.type == margin_type::cross) {
            wb = v.cross_wallet;
            for (std::size_t k = 0; k < v.positions.size(); ++k) {
                auto const& y = v.positions[k];
                if (k == i || y.amt.is_zero() || y.setting.type != margin_type::cross)
                    continue;
                tmm += y.maint_margin;
                upnl += y.unrealized;
            }
        }
        std::int64_t const side = x.amt.sign();
        amount const q = x.amt.abs();
        amount const num = wb - tmm + upnl + b.cum - (q * x.entry).times(side);
        amount const den = q * b.mmr - q.times(side);
        amount const lp = num / den;
        if (lp.sign() > 0)
            x.liquidation_price = lp;
    }
    return v;
}

std::vector<order_record> ledger::open_orders(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<order_record> out;
    if (auto const* a = get(address))
        for (auto const& [id, o] : a->open)
            out.push_back(o);
    return out;
}

std::optional<order_record> ledger::order(std::string const& address,
                                          std::uint64_t order_id) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return std::nullopt;
    if (auto const o = a->open.find(order_id); o != a->open.end())
        return o->second;
    for (auto it = a->history.rbegin(); it != a->history.rend(); ++it)
        if (it->order_id == order_id)
            return *it;
    return std::nullopt;
}

std::optional<order_record> ledger::order_by_client_id(std::string const& address,
                                                       std::string const& client_id,
                                                       bool spot) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return std::nullopt;
    for (auto const& [id, o] : spot ? a->spot_open : a->open)
        if (o.spec.client_order_id == client_id)
            return o;
    auto const& history = spot ? a->spot_history : a->history;
    for (auto it = history.rbegin(); it != history.rend(); ++it)
        if (it->spec.client_order_id == client_id)
            return *it;
    return std::nullopt;
}

amount ledger::position_amt(std::string const& address, std::string const& symbol) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return {};
    auto const p = a->positions.find(symbol);
    return p == a->positions.end() ? amount{} : p->second.amt;
}

std::vector<fill_record> ledger::fills(std::string const& address) const {
    std::vector<fill_record> out;
    {
        std::lock_guard lock(m_);
        if (auto const* a = get(address))
            out.assign(a->fills.begin(), a->fills.end());
    }
    // Booked in arrival order; a seeded fill may carry an earlier time.
    std::stable_sort(out.begin(), out.end(),
                     [](fill_record const& x, fill_record const& y) { return x.time < y.time; });
    return out;
}

std::vector<income_record> ledger::income(std::string const& address) const {
    std::vector<income_record> out;
    {
        std::lock_guard lock(m_);
        if (auto const* a = get(address))
            out.assign(a->income.begin(), a->income.end());
    }
    std::stable_sort(out.begin(), out.end(), [](income_record const& x, income_record const& y) {
        return x.time < y.time;
    });
    return out;
}

std::vector<order_record> ledger::spot_open_orders(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<order_record> out;
    if (auto const* a = get(address))
        for (auto const& [id, o] : a->spot_open)
            out.push_back(o);
    return out;
}

std::optional<order_record> ledger::spot_order(std::string const& address,
                                               std::uint64_t order_id) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return std::nullopt;
    if (auto const o = a->spot_open.find(order_id); o != a->spot_open.end())
        return o->second;
    for (auto it = a->spot_history.rbegin(); it != a->spot_history.rend(); ++it)
        if (it->order_id == order_id)
            return *it;
    return std::nullopt;
}

std::vector<spot_fill_record> ledger::spot_fills(std::string const& address) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    return a ? std::vector<spot_fill_record>(a->spot_fills.begin(), a->spot_fills.end())
             : std::vector<spot_fill_record>{};
}

spot_holding ledger::spot_balance(std::string const& address, std::string const& asset) const {
    std::lock_guard lock(m_);
    auto const* a = get(address);
    if (!a)
        return {};
    auto const h = a->spot.find(asset);
    return h == a->spot.end() ? spot_holding{} : h->second;
}

std::vector<std::pair<std::string, spot_holding>> ledger::spot(std::string const& address) const {
    std::lock_guard lock(m_);
    std::vector<std::pair<std::string, spot_holding>> out;
    auto const* a = get(address);
    if (!a)
        return out;
    for (auto const& asset : spot_assets_)
        if (auto const h = a->spot.find(asset); h != a->spot.end())
            out.emplace_back(asset, h->second);
    return out;
}

amount ledger::long_open_interest(std::string const& symbol) const {
    std::lock_guard lock(m_);
    amount sum;
    for (auto const& [address, a] : accounts_)
        if (auto const p = a.positions.find(symbol);
            p != a.positions.end() && p->second.amt.sign() > 0)
            sum += p->second.amt;
    return sum;
}

} // namespace gateway::mocks::beta
