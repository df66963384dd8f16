#include "gamma_ledger.hpp"

#include <algorithm>

namespace gateway::mocks::gamma {

std::string_view to_string(order_kind k) noexcept {
    switch (k) {
    case order_kind::gtc:
        return "GTC";
    case order_kind::gtd:
        return "GTD";
    case order_kind::fok:
        return "FOK";
    case order_kind::fak:
        return "FAK";
    }
    return "GTC";
}

std::optional<order_kind> parse_order_kind(std::string_view text) noexcept {
    if (text == "GTC")
        return order_kind::gtc;
    if (text == "GTD")
        return order_kind::gtd;
    if (text == "FOK")
        return order_kind::fok;
    if (text == "FAK")
        return order_kind::fak;
    return std::nullopt;
}

ledger::account& ledger::touch(std::string const& address) {
    return accounts_[address];
}

ledger::account const* ledger::get(std::string const& address) const {
    auto const it = accounts_.find(address);
    return it == accounts_.end() ? nullptr : &it->second;
}

bool ledger::known(std::string const& address) const {
    return get(address) != nullptr;
}

void ledger::credit(std::string const& address, std::string const& asset, micros amount) {
    touch(address).assets[asset].balance += amount;
}

holding ledger::holding_of(std::string const& address, std::string const& asset) const {
    auto const* a = get(address);
    if (!a)
        return {};
    auto const it = a->assets.find(asset);
    return it == a->assets.end() ? holding{} : it->second;
}

std::vector<std::pair<std::string, holding>> ledger::holdings(std::string const& address) const {
    std::vector<std::pair<std::string, holding>> out;
    auto const* a = get(address);
    if (!a)
        return out;
    if (auto const it = a->assets.find(usdc_asset); it != a->assets.end())
        out.emplace_back(it->first, it->second);
    for (auto const& [asset, h] : a->assets)
        if (asset != usdc_asset)
            out.emplace_back(asset, h);
    return out;
}

void ledger::lock(std::string const& address, std::string const& asset, micros amount) {
    touch(address).assets[asset].locked += amount;
}

void ledger::unlock(std::string const& address, std::string const& asset, micros amount) {
    auto& h = touch(address).assets[asset];
    h.locked -= std::min(h.locked, amount);
}

void ledger::pay_locked(std::string const& address, std::string const& asset, micros amount) {
    auto& h = touch(address).assets[asset];
    h.balance -= amount;
    h.locked -= std::min(h.locked, amount);
}

void ledger::add_order(order_record r) {
    seen_.insert(r.id);
    auto& a = touch(r.maker);
    if (r.status == "LIVE") {
        a.open.push_back(r.id);
        std::string const id = r.id;
        open_.insert_or_assign(id, std::move(r));
        return;
    }
    a.history.push_back(std::move(r));
    if (a.history.size() > history_kept)
        a.history.pop_front();
}

order_record* ledger::open_order(std::string const& id) {
    auto const it = open_.find(id);
    return it == open_.end() ? nullptr : &it->second;
}

void ledger::close_order(std::string const& id, std::string const& status) {
    auto node = open_.extract(id);
    if (node.empty())
        return;
    order_record r = std::move(node.mapped());
    r.status = status;
    auto& a = touch(r.maker);
    std::erase(a.open, id);
    a.history.push_back(std::move(r));
    if (a.history.size() > history_kept)
        a.history.pop_front();
}

std::optional<order_record> ledger::order(std::string const& address, std::string const& id) const {
    if (auto const it = open_.find(id); it != open_.end())
        return it->second.maker == address ? std::optional(it->second) : std::nullopt;
    auto const* a = get(address);
    if (!a)
        return std::nullopt;
    auto const it = std::find_if(a->history.rbegin(), a->history.rend(),
                                 [&](order_record const& r) { return r.id == id; });
    if (it == a->history.rend())
        return std::nullopt;
    return *it;
}

std::vector<order_record> ledger::open_orders(std::string const& address) const {
    std::vector<order_record> out;
    auto const* a = get(address);
    if (!a)
        return out;
    out.reserve(a->open.size());
    for (auto const& id : a->open)
        if (auto const it = open_.find(id); it != open_.end())
            out.push_back(it->second);
    return out;
}

void ledger::add_trade(std::string const& address, trade_record const& t, bool as_maker) {
    auto& a = touch(address);
    a.trade_list.push_back({t, as_maker});
    if (a.trade_list.size() > history_kept)
        a.trade_list.pop_front();
}

std::vector<trade_view> ledger::trades(std::string const& address) const {
    auto const* a = get(address);
    if (!a)
        return {};
    return {a->trade_list.begin(), a->trade_list.end()};
}

} // namespace gateway::mocks::gamma
