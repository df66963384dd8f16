#pragma once
// The alpha upstream (Hyperliquid's info API) as the gateway sees it: one object per network.
// Every `/info` call goes through `info()`, which charges the upstream's request weights
// against the adapter's budget (CONTRACT §3: 1200 per 60 s), serves market data from a short
// cache and coalesces identical in-flight reads. The market universe (names, asset ids, size
// decimals, max leverage) is learned from meta/spotMeta/perpDexs in the background and
// refreshed periodically, never per request.
#include "alpha/alpha_map.hpp"
#include "upstream.hpp"
#include "upstream_cache.hpp"

#include <gateway/net/http_client.hpp>
#include <gateway/result.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gateway::server::alpha {

struct adapter_options {
    std::string name = "alpha"; ///< for messages and logs
    net::url base;              ///< upstream REST base (`POST {base}/info`)
    std::chrono::milliseconds timeout{10000};
    /// Budget of the upstream's IP rate limit (alpha.md §8): weight per window.
    std::uint32_t budget = 1200;
    std::chrono::milliseconds window{60000};
    /// How long a read may wait for budget before 503 PROVIDER_UNAVAILABLE (CONTRACT §3).
    std::chrono::milliseconds max_budget_wait{1000};
    std::chrono::milliseconds meta_refresh{300000};
    /// How long a refused (wallet, signer) pair is answered from cache.
    std::chrono::milliseconds agent_miss_ttl{2000};
};

/// alpha.md §8: the weight of an `/info` request type.
std::uint32_t info_weight(std::string_view type) noexcept;
/// alpha.md §8: extra weight for the items an answer returned (per-item surcharges).
std::uint32_t info_item_weight(std::string_view type, boost::json::value const& answer) noexcept;

class adapter : public std::enable_shared_from_this<adapter> {
public:
    using json_ptr = std::shared_ptr<result<boost::json::value> const>;
    using universe_ptr = std::shared_ptr<universe const>;

    adapter(boost::asio::any_io_executor const& ex, net::http_client& http,
            adapter_options options);

    /// Starts the background market refresh (first load at once).
    void start();
    /// Stops the refresh loop; in-flight reads finish.
    void stop();

    /**
     * One `POST /info` with `body`. `ttl` > 0 serves an identical body from cache for that
     * long; every read coalesces with an identical one in flight.
     * @par Errors UPSTREAM_ERROR, UPSTREAM_TIMEOUT, PROVIDER_UNAVAILABLE (also when the budget
     * stays spent for longer than `max_budget_wait`, with `retry_after`).
     */
    boost::asio::awaitable<json_ptr> info(boost::json::object const& body,
                                          std::chrono::milliseconds ttl);
    /// Starts an `info` read without waiting: wait on the flight (parallel reads).
    std::shared_ptr<coalescing_cache<boost::json::value>::flight>
    start_info(boost::json::object const& body, std::chrono::milliseconds ttl);

    /**
     * One `POST /exchange` with a signed envelope (alpha.md §4.1), charged `weight`
     * (alpha.md §8: 1 + batch/40). Never retried; it runs detached on its own strand, so a
     * client that goes away does not cancel a write already on its way.
     * @par Errors PROVIDER_UNAVAILABLE when the budget stays spent (nothing was sent) or the
     * upstream is unreachable; UPSTREAM_TIMEOUT (state unknown); UPSTREAM_ERROR.
     */
    boost::asio::awaitable<json_ptr> exchange(boost::json::object const& envelope,
                                              std::uint32_t weight);

    /**
     * Whether `signer` is an agent approved by `wallet` (CONTRACT §6.1), learned from the
     * upstream (`extraAgents` of the wallet, then `userRole` of the signer for the unnamed
     * agent, which extraAgents does not list) and cached for `agent_ttl`; a refusal is cached
     * for `options.agent_miss_ttl` only (a retried wrong signature costs no upstream weight, an
     * agent approved a moment ago is accepted soon after). A miss after that is asked again next
     * time (an agent may have just been approved).
     * @par Errors as `info`.
     */
    boost::asio::awaitable<result<bool>> approved_agent(std::string wallet, std::string signer);

    /// How long a learned wallet -> agent approval is trusted without asking again.
    static constexpr std::chrono::minutes agent_ttl{5};
    /// Cached verdicts kept at most (expired ones are swept first, then all are dropped).
    static constexpr std::size_t agent_cache_max = 100000;

    /// The market universe: the last one learned, or the first load (coalesced) if none yet.
    boost::asio::awaitable<result<universe_ptr>> markets();

    /// Books weight spent outside `info` (the health probe) against the budget.
    void charge(std::uint32_t weight) { budget_.charge(weight, weight_budget::clock::now()); }
    /// The upstream budget (tests and benchmarks read it).
    weight_budget const& budget() const noexcept { return budget_; }
    adapter_options const& options() const noexcept { return options_; }

private:
    boost::asio::awaitable<result<boost::json::value>> fetch(std::string body, std::uint32_t weight,
                                                             std::string type);
    boost::asio::awaitable<result<boost::json::value>> send_exchange(std::string body,
                                                                     std::uint32_t weight);
    /// `POST {base}{target}` with this adapter's timeout.
    upstream_request post(std::string target, std::string body, bool idempotent) const;
    /// Reserves `weight`, waiting up to `max_budget_wait`; the 503 when it stays spent.
    boost::asio::awaitable<result<void>> await_budget(std::uint32_t weight);
    boost::asio::awaitable<result<universe>> load_universe();
    /// Learns the universe again (coalesced) and installs it.
    boost::asio::awaitable<result<universe_ptr>> reload();
    boost::asio::awaitable<void> refresh_loop();
    static boost::asio::awaitable<void> run_refresh(std::shared_ptr<adapter> self);
    static boost::asio::awaitable<result<universe_ptr>>
    load_and_install(std::shared_ptr<adapter> self);

    boost::asio::any_io_executor ex_;
    net::http_client& http_;
    adapter_options options_;
    weight_budget budget_;
    coalescing_cache<boost::json::value> reads_;
    coalescing_cache<universe_ptr> universe_load_;
    coalescing_cache<boost::json::value> writes_;
    struct agent_verdict {
        std::chrono::steady_clock::time_point at; ///< when it was learned
        bool approved = false;
    };
    /// "wallet signer" -> the upstream's last verdict.
    std::unordered_map<std::string, agent_verdict> agents_;
    mutable std::mutex m_;
    universe_ptr universe_;
    boost::asio::strand<boost::asio::any_io_executor> strand_;
    boost::asio::steady_timer timer_;
    std::atomic<bool> stopped_{false};
};

} // namespace gateway::server::alpha
