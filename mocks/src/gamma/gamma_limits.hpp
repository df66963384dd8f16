#pragma once
/**
 * @file gamma_limits.hpp
 * Polymarket's request budgets (gamma.md §6, "per 10 s", sliding windows), per client address.
 * A request counts against every budget it falls under (the general one of its API and its
 * endpoint's), and is refused with 429 when any of them is spent; a refused request consumes
 * nothing.
 *
 * | budget | requests / 10 s | paths |
 * |---|---|---|
 * | gamma general | 4000 | every catalog path |
 * | gamma /events | 500 | `/events`, `/events/...` |
 * | gamma /markets | 300 | `/markets`, `/markets/...` |
 * | gamma listing | 900 | the lists `/events` and `/markets` together |
 * | clob general | 9000 | every `/clob/...` path |
 * | clob /book, /price, /midpoint | 1500 each | |
 * | clob /books, /prices, /midpoints | 500 each | |
 * | clob /tick-size | 200 | |
 * | clob API keys | 100 | every `/clob/auth/...` path |
 * | clob ledger | 900 | `GET /clob/data/orders`, `/clob/data/trades`, `/clob/data/order/{id}` |
 * | clob /data/orders, /data/trades | 500 each | `GET` |
 * | clob POST /order | 3500, and 36000 per 10 min | |
 * | clob DELETE /order | 3000, and 30000 per 10 min | |
 * | clob POST /orders, DELETE /orders | 1000, and 15000 per 10 min, each | |
 * | clob DELETE /cancel-all | 250, and 6000 per 10 min | |
 * | clob DELETE /cancel-market-orders | 1000, and 1500 per 10 min | |
 *
 * @par Thread safety
 * Safe to call concurrently.
 */
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gateway::mocks::gamma {

struct budget {
    std::string_view name;
    std::uint32_t limit;       ///< requests per window
    std::uint32_t windows = 1; ///< the window's length in base windows (10 min = 60 x 10 s)
};

/// The budgets a `method` request to `path` (the mock's path: catalog at `/`, CLOB under
/// `/clob`) counts against.
std::vector<budget const*> budgets_for(std::string_view method, std::string_view path);

class request_budgets {
public:
    using clock = std::chrono::steady_clock;

    explicit request_budgets(bool enabled,
                             std::chrono::milliseconds window = std::chrono::seconds(10))
        : enabled_(enabled)
        , window_(window) {}

    struct verdict {
        bool admitted = true;
        budget const* spent = nullptr;      ///< the budget that refused it
        std::chrono::milliseconds retry{0}; ///< until that budget has room again
    };

    verdict admit(std::string const& client, std::vector<budget const*> const& budgets,
                  clock::time_point now);

private:
    bool enabled_;
    std::chrono::milliseconds window_;
    std::mutex m_;
    std::map<std::pair<std::string, std::string_view>, std::deque<clock::time_point>> used_;
};

} // namespace gateway::mocks::gamma
