#include "gamma_limits.hpp"

#include <array>

namespace gateway::mocks::gamma {

namespace {

budget const gamma_general{"gamma", 4000};
budget const gamma_events{"gamma /events", 500};
budget const gamma_markets{"gamma /markets", 300};
budget const gamma_listing{"gamma /markets+/events listing", 900};
budget const clob_general{"clob", 9000};

struct clob_endpoint {
    std::string_view path;
    budget limit;
};

std::array<clob_endpoint, 7> const clob_endpoints{{{"/clob/book", {"clob /book", 1500}},
                                                   {"/clob/books", {"clob /books", 500}},
                                                   {"/clob/price", {"clob /price", 1500}},
                                                   {"/clob/prices", {"clob /prices", 500}},
                                                   {"/clob/midpoint", {"clob /midpoint", 1500}},
                                                   {"/clob/midpoints", {"clob /midpoints", 500}},
                                                   {"/clob/tick-size", {"clob /tick-size", 200}}}};

/// A trading or account endpoint's budget: `method` (empty: any) on `path` (or every path
/// below it when `prefix`).
struct clob_private {
    std::string_view method;
    std::string_view path;
    bool prefix;
    budget limit;
};

std::array<clob_private, 18> const clob_privates{{
    {"", "/clob/auth", true, {"clob API keys", 100}},
    {"GET", "/clob/data/orders", false, {"clob ledger", 900}},
    {"GET", "/clob/data/trades", false, {"clob ledger", 900}},
    {"GET", "/clob/data/order", true, {"clob ledger", 900}},
    {"GET", "/clob/data/orders", false, {"clob /data/orders", 500}},
    {"GET", "/clob/data/trades", false, {"clob /data/trades", 500}},
    {"POST", "/clob/order", false, {"clob POST /order", 3500}},
    {"POST", "/clob/order", false, {"clob POST /order 10 min", 36000, 60}},
    {"DELETE", "/clob/order", false, {"clob DELETE /order", 3000}},
    {"DELETE", "/clob/order", false, {"clob DELETE /order 10 min", 30000, 60}},
    {"POST", "/clob/orders", false, {"clob POST /orders", 1000}},
    {"POST", "/clob/orders", false, {"clob POST /orders 10 min", 15000, 60}},
    {"DELETE", "/clob/orders", false, {"clob DELETE /orders", 1000}},
    {"DELETE", "/clob/orders", false, {"clob DELETE /orders 10 min", 15000, 60}},
    {"DELETE", "/clob/cancel-all", false, {"clob DELETE /cancel-all", 250}},
    {"DELETE", "/clob/cancel-all", false, {"clob DELETE /cancel-all 10 min", 6000, 60}},
    {"DELETE", "/clob/cancel-market-orders", false, {"clob DELETE /cancel-market-orders", 1000}},
    {"DELETE",
     "/clob/cancel-market-orders",
     false,
     {"clob DELETE /cancel-market-orders 10 min", 1500, 60}},
}};

bool under(std::string_view path, std::string_view root) {
    return path == root ||
           (path.size() > root.size() && path.starts_with(root) && path[root.size()] == '/');
}

} // namespace

std::vector<budget const*> budgets_for(std::string_view method, std::string_view path) {
    std::vector<budget const*> out;
    if (under(path, "/clob")) {
        out.push_back(&clob_general);
        for (auto const& e : clob_endpoints)
            if (path == e.path)
                out.push_back(&e.limit);
        for (auto const& e : clob_privates)
            if ((e.method.empty() || e.method == method) &&
                (e.prefix ? under(path, e.path) : path == e.path))
                out.push_back(&e.limit);
        return out;
    }
    out.push_back(&gamma_general);
    if (under(path, "/events"))
        out.push_back(&gamma_events);
    if (under(path, "/markets"))
        out.push_back(&gamma_markets);
    if (path == "/events" || path == "/markets")
        out.push_back(&gamma_listing);
    return out;
}

request_budgets::verdict request_budgets::admit(std::string const& client,
                                                std::vector<budget const*> const& budgets,
                                                clock::time_point now) {
    verdict v;
    if (!enabled_)
        return v;
    std::lock_guard lock(m_);
    for (auto const* b : budgets) {
        auto& q = used_[{client, b->name}];
        auto const window = window_ * b->windows;
        while (!q.empty() && now - q.front() >= window)
            q.pop_front();
        if (q.size() >= b->limit && v.admitted) {
            v.admitted = false;
            v.spent = b;
            v.retry = std::chrono::ceil<std::chrono::milliseconds>(q.front() + window - now);
        }
    }
    if (!v.admitted)
        return v;
    for (auto const* b : budgets)
        used_[{client, b->name}].push_back(now);
    return v;
}

} // namespace gateway::mocks::gamma
