#include "alpha/alpha_adapter.hpp"

#include "log.hpp"
#include "upstream.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>

namespace gateway::server::alpha {

namespace asio = boost::asio;
namespace json = boost::json;

std::uint32_t info_weight(std::string_view type) noexcept {
    if (type == "l2Book" || type == "allMids" || type == "clearinghouseState" ||
        type == "orderStatus" || type == "spotClearinghouseState" || type == "exchangeStatus")
        return 2;
    if (type == "userRole")
        return 60;
    return 20;
}

std::uint32_t info_item_weight(std::string_view type, json::value const& answer) noexcept {
    auto const* arr = answer.if_array();
    if (!arr)
        return 0;
    auto const n = static_cast<std::uint32_t>(arr->size());
    if (type == "recentTrades" || type == "userFills" || type == "userFillsByTime" ||
        type == "historicalOrders" || type == "fundingHistory" || type == "userFunding")
        return n / 20;
    if (type == "candleSnapshot")
        return n / 60;
    return 0;
}

adapter::adapter(asio::any_io_executor const& ex, net::http_client& http, adapter_options options)
    : ex_(ex)
    , http_(http)
    , options_(std::move(options))
    , budget_(options_.budget, options_.window)
    , reads_(ex)
    , universe_load_(ex)
    , writes_(ex)
    , strand_(asio::make_strand(ex))
    , timer_(strand_) {}

// Coroutines here are static functions with by-value parameters, never lambdas with captures:
// GCC 12 destroys a capturing lambda coroutine's captures twice.
// cppcheck-suppress passedByValue
asio::awaitable<void> adapter::run_refresh(std::shared_ptr<adapter> self) {
    co_await self->refresh_loop();
}

// cppcheck-suppress passedByValue
asio::awaitable<result<adapter::universe_ptr>>
adapter::load_and_install(std::shared_ptr<adapter> self) {
    auto u = co_await self->load_universe();
    if (!u)
        co_return u.error();
    auto ptr = std::make_shared<universe const>(std::move(*u));
    std::lock_guard lock(self->m_);
    self->universe_ = ptr;
    co_return ptr;
}

void adapter::start() {
    asio::co_spawn(strand_, run_refresh(shared_from_this()), asio::detached);
}

void adapter::stop() {
    stopped_ = true;
    asio::post(strand_, [self = shared_from_this()] { self->timer_.cancel(); });
}

asio::awaitable<void> adapter::refresh_loop() {
    while (!stopped_) {
        auto const loaded = co_await reload();
        if (!loaded)
            log::warn("msg=\"market refresh failed\" provider=" + options_.name + " reason=\"" +
                      loaded.error().message + "\"");
        if (stopped_)
            break;
        timer_.expires_after(options_.meta_refresh);
        boost::system::error_code ec;
        co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

// Coroutine parameters by value: they live in the frame across suspensions.
// cppcheck-suppress passedByValue
upstream_request adapter::post(std::string target, std::string body, bool idempotent) const {
    upstream_request req;
    req.provider = options_.name;
    req.base = options_.base;
    req.method = boost::beast::http::verb::post;
    req.target = std::move(target);
    req.body = std::move(body);
    req.timeout = options_.timeout;
    req.idempotent = idempotent;
    return req;
}

asio::awaitable<result<void>> adapter::await_budget(std::uint32_t weight) {
    auto const now = weight_budget::clock::now();
    auto const wait = budget_.reserve(weight, now, options_.max_budget_wait);
    if (!wait) {
        auto const until = budget_.time_until(weight, now);
        api_error e = make_error(errc::provider_unavailable,
                                 "The " + options_.name +
                                     " upstream request budget is spent; retry shortly.");
        e.retry_after = static_cast<unsigned>(
            std::max<std::int64_t>(1, std::chrono::ceil<std::chrono::seconds>(until).count()));
        co_return e;
    }
    if (wait->count() > 0) {
        asio::steady_timer t(co_await asio::this_coro::executor, *wait);
        boost::system::error_code ec;
        co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    co_return result<void>{};
}

asio::awaitable<result<boost::json::value>> adapter::fetch(std::string body, std::uint32_t weight,
                                                           // cppcheck-suppress passedByValue
                                                           std::string type) {
    auto const budget = co_await await_budget(weight);
    if (!budget)
        co_return budget.error();
    upstream_request req = post("/info", std::move(body), true); // named: GCC 12 and co_await
    auto answer = co_await call_upstream_json(http_, std::move(req));
    if (answer)
        budget_.charge(info_item_weight(type, *answer), weight_budget::clock::now());
    co_return answer;
}

// cppcheck-suppress passedByValue
asio::awaitable<result<json::value>> adapter::send_exchange(std::string body,
                                                            std::uint32_t weight) {
    auto const budget = co_await await_budget(weight);
    if (!budget)
        co_return budget.error();
    upstream_request req = post("/exchange", std::move(body), false);
    co_return co_await call_upstream_json(http_, std::move(req));
}

asio::awaitable<adapter::json_ptr> adapter::exchange(json::object const& envelope,
                                                     std::uint32_t weight) {
    // Keyed by the whole signed envelope: two identical envelopes are one replay, which the
    // nonce guard refuses before it gets here; the cache only lends its detached flights.
    std::string key = json::serialize(envelope);
    auto f = writes_.start(
        key, std::chrono::milliseconds(0),
        [self = shared_from_this(), key, weight]() { return self->send_exchange(key, weight); });
    co_return co_await f->wait();
}

namespace {

/// The string at `key` of an object, lower-cased; nullopt when there is none.
std::optional<std::string> lower_string_at(json::value const& v, std::string_view key) {
    auto const* o = v.if_object();
    auto const* x = o ? o->if_contains(key) : nullptr;
    if (!x || !x->is_string())
        return std::nullopt;
    std::string out(x->get_string());
    for (auto& c : out)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return out;
}

} // namespace

// cppcheck-suppress passedByValue
asio::awaitable<result<bool>> adapter::approved_agent(std::string wallet, std::string signer) {
    using namespace std::chrono_literals;
    std::string const key = wallet + " " + signer;
    auto const now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(m_);
        if (auto it = agents_.find(key); it != agents_.end()) {
            auto const ttl = it->second.approved
                                 ? std::chrono::steady_clock::duration(agent_ttl)
                                 : std::chrono::steady_clock::duration(options_.agent_miss_ttl);
            if (now - it->second.at < ttl)
                co_return it->second.approved;
            agents_.erase(it);
        }
    }
    auto remember = [&](bool approved) {
        std::lock_guard lock(m_);
        if (agents_.size() >= agent_cache_max) {
            std::erase_if(agents_, [&](auto const& kv) {
                return now - kv.second.at >= std::chrono::steady_clock::duration(agent_ttl);
            });
            if (agents_.size() >= agent_cache_max)
                agents_.clear();
        }
        agents_[key] = agent_verdict{now, approved};
    };
    json::object agents_body;
    agents_body["type"] = "extraAgents";
    agents_body["user"] = wallet;
    auto const agents = co_await info(agents_body, 0ms);
    if (!*agents)
        co_return agents->error();
    if (auto const* arr = (**agents).if_array())
        for (auto const& a : *arr)
            if (lower_string_at(a, "address") == signer) {
                remember(true);
                co_return true;
            }
    // The unnamed agent is not in extraAgents: ask who the signer is.
    json::object role_body;
    role_body["type"] = "userRole";
    role_body["user"] = signer;
    auto const role = co_await info(role_body, 0ms);
    if (!*role)
        co_return role->error();
    // {"role":"agent","data":{"user":master}}
    if (lower_string_at(**role, "role") == "agent")
        if (auto const* data = (**role).as_object().if_contains("data"))
            if (lower_string_at(*data, "user") == wallet) {
                remember(true);
                co_return true;
            }
    remember(false);
    co_return false;
}

std::shared_ptr<coalescing_cache<json::value>::flight>
adapter::start_info(json::object const& body, std::chrono::milliseconds ttl) {
    std::string type;
    if (auto const* t = body.if_contains("type"); t && t->is_string())
        type = std::string(t->get_string());
    std::string key = json::serialize(body);
    auto const weight = info_weight(type);
    return reads_.start(key, ttl, [self = shared_from_this(), key, weight, type]() {
        return self->fetch(key, weight, type);
    });
}

asio::awaitable<adapter::json_ptr> adapter::info(json::object const& body,
                                                 std::chrono::milliseconds ttl) {
    auto f = start_info(body, ttl);
    co_return co_await f->wait();
}

asio::awaitable<result<universe>> adapter::load_universe() {
    using namespace std::chrono_literals;
    // Request bodies are named locals: GCC 12 miscompiles braced temporaries in a coroutine.
    json::object perp_dexs_body;
    perp_dexs_body["type"] = "perpDexs";
    auto const dexes_answer = co_await info(perp_dexs_body, 0ms);
    if (!*dexes_answer)
        co_return dexes_answer->error();
    auto dexes = parse_perp_dexs(**dexes_answer);
    if (!dexes)
        co_return dexes.error();

    // Every meta read at once: main dex, each builder dex, spot.
    std::vector<std::shared_ptr<coalescing_cache<json::value>::flight>> metas;
    json::object body;
    body["type"] = "meta";
    metas.push_back(start_info(body, 0ms));
    for (auto const& d : *dexes) {
        body["dex"] = d.name;
        metas.push_back(start_info(body, 0ms));
    }
    json::object spot_body;
    spot_body["type"] = "spotMeta";
    auto spot_flight = start_info(spot_body, 0ms);

    universe u;
    u.dexes = std::move(*dexes);
    for (std::size_t i = 0; i < metas.size(); ++i) {
        auto const answer = co_await metas[i]->wait();
        if (!*answer)
            co_return answer->error();
        std::string const dex = i == 0 ? std::string() : u.dexes[i - 1].name;
        std::uint32_t const index = i == 0 ? 0 : u.dexes[i - 1].index;
        auto perps = parse_meta(**answer, dex, index);
        if (!perps)
            co_return perps.error();
        u.perps.insert(u.perps.end(), perps->begin(), perps->end());
    }
    auto const spot_answer = co_await spot_flight->wait();
    if (!*spot_answer)
        co_return spot_answer->error();
    auto spot = parse_spot_meta(**spot_answer);
    if (!spot)
        co_return spot.error();
    u.spot = std::move(*spot);
    co_return u;
}

asio::awaitable<result<adapter::universe_ptr>> adapter::reload() {
    // One load at a time, shared by the refresh loop and requests arriving before the first.
    // Named, not temporaries: GCC 12 destroys temporaries inside a co_await expression twice
    // (here a captured shared_ptr, which freed the adapter early).
    std::string const key = "universe";
    coalescing_cache<universe_ptr>::fetch_fn load = [self = shared_from_this()] {
        return load_and_install(self);
    };
    auto const loaded = co_await universe_load_.get(key, std::chrono::milliseconds(0), load);
    if (!*loaded)
        co_return loaded->error();
    co_return **loaded;
}

asio::awaitable<result<adapter::universe_ptr>> adapter::markets() {
    {
        std::lock_guard lock(m_);
        if (universe_)
            co_return universe_;
    }
    co_return co_await reload(); // none yet: start-up, or the upstream was down
}

} // namespace gateway::server::alpha
