#include "providers/gamma/gamma_network.hpp"

#include <gateway/providers/gamma/requests.hpp>
#include <gateway/providers/gamma/weights.hpp>

#include <algorithm>

namespace gateway::server::gamma {

namespace asio = boost::asio;
namespace w = wire::gamma;
using namespace std::chrono_literals;

namespace {

/// Entries kept in the price cache or the checkpoint table before expired ones are dropped.
constexpr std::size_t max_cached_prices = 50000;
constexpr std::size_t max_walks = 1024;

/// Each channel maps its refusals with gamma's mapping, naming itself.
channel_options with_gamma_errors(channel_options o) {
    o.read_error = [name = o.name](upstream_answer const& a) {
        return read_error(name, a);
    };
    return o;
}

} // namespace

network::network(asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
                 network_options options)
    : time_(time)
    , options_(std::move(options))
    , catalog_(
          std::make_shared<upstream_channel>(ex, http, time, with_gamma_errors(options_.catalog)))
    , clob_(std::make_shared<upstream_channel>(ex, http, time, with_gamma_errors(options_.clob))) {}

std::shared_ptr<network::flight> network::start_catalog_get(std::string path, query_params query,
                                                            std::optional<std::int64_t> account) {
    upstream_call call;
    call.weight = w::catalog_weight(path);
    call.target = w::target(path, query);
    call.account = account;
    return catalog_->start_read(std::move(call), options_.market_ttl);
}

std::shared_ptr<network::flight> network::start_clob_get(std::string path, query_params query,
                                                         std::optional<std::int64_t> account) {
    upstream_call call;
    call.weight = w::clob_weight(path);
    call.target = w::target(path, query);
    call.account = account;
    return clob_->start_read(std::move(call), options_.market_ttl);
}

// Coroutine parameters by value: they live in the frame across suspensions.
// cppcheck-suppress passedByValue
asio::awaitable<result<midpoints>> network::prices(std::vector<std::string> tokens,
                                                   std::optional<std::int64_t> account) {
    midpoints out;
    std::vector<std::string> ask;
    {
        auto const now = time_.steady_now();
        std::lock_guard lock(prices_m_);
        for (auto& t : tokens) {
            auto const it = prices_.find(t);
            if (it == prices_.end() || it->second.fresh_until <= now) {
                ask.push_back(std::move(t));
                continue;
            }
            if (it->second.mid)
                out.emplace(it->first, *it->second.mid);
        }
    }
    // Sorted, so the same set of tokens is the same request (and coalesces with one in flight).
    std::sort(ask.begin(), ask.end());
    ask.erase(std::unique(ask.begin(), ask.end()), ask.end());
    std::vector<std::pair<std::vector<std::string>, std::shared_ptr<flight>>> batches;
    for (std::size_t i = 0; i < ask.size(); i += w::max_batch) {
        std::vector<std::string> chunk(
            ask.begin() + static_cast<std::ptrdiff_t>(i),
            ask.begin() + static_cast<std::ptrdiff_t>(std::min(ask.size(), i + w::max_batch)));
        upstream_call call;
        call.method = boost::beast::http::verb::post;
        call.target = std::string(w::midpoints_path);
        call.body = w::token_batch(chunk);
        call.weight = w::clob_weight(w::midpoints_path);
        call.account = account;
        auto f = clob_->start_read(std::move(call), options_.market_ttl);
        batches.emplace_back(std::move(chunk), std::move(f));
    }
    for (auto const& [chunk, f] : batches) {
        auto const answer = co_await f->wait();
        if (!*answer)
            co_return answer->error();
        auto mids = parse_midpoints(**answer);
        if (!mids)
            co_return mids.error();
        auto const fresh_until = time_.steady_now() + options_.market_ttl;
        std::lock_guard lock(prices_m_);
        if (prices_.size() > max_cached_prices) {
            auto const now = time_.steady_now();
            std::erase_if(prices_, [&](auto const& kv) { return kv.second.fresh_until <= now; });
            if (prices_.size() > max_cached_prices)
                prices_.clear();
        }
        for (auto const& t : chunk) {
            auto const it = mids->find(t);
            std::optional<decimal> mid;
            if (it != mids->end()) {
                mid = it->second;
                out.emplace(t, it->second);
            }
            if (options_.market_ttl.count() > 0)
                prices_[t] = cached_price{std::move(mid), fresh_until};
        }
    }
    co_return out;
}

walk_position network::resume(std::string const& key, std::int64_t target) {
    auto const now = time_.steady_now();
    std::lock_guard lock(walks_m_);
    auto const it = walks_.find(key);
    if (it == walks_.end())
        return {};
    if (it->second.fresh_until <= now) {
        walks_.erase(it);
        return {};
    }
    auto const& points = it->second.by_matched;
    auto at = points.upper_bound(target); // the first one past `target`
    if (at == points.begin())
        return {};
    return std::prev(at)->second;
}

void network::remember(std::string const& key, walk_position const& p) {
    auto const now = time_.steady_now();
    std::lock_guard lock(walks_m_);
    if (walks_.size() >= max_walks && !walks_.count(key)) {
        std::erase_if(walks_, [&](auto const& kv) { return kv.second.fresh_until <= now; });
        if (walks_.size() >= max_walks)
            walks_.clear();
    }
    auto& w = walks_[key];
    if (w.fresh_until <= now)
        w.by_matched.clear(); // stale: the catalog may have moved since
    w.fresh_until = now + options_.checkpoint_ttl;
    // Several pages may start after the same number of matches; the furthest one wins.
    auto& slot = w.by_matched[p.matched];
    if (slot.sequence < p.sequence || (slot.sequence == p.sequence && slot.offset <= p.offset))
        slot = p;
}

} // namespace gateway::server::gamma
