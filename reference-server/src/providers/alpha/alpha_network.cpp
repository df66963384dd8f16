#include "providers/alpha/alpha_network.hpp"

#include "log.hpp"

#include <gateway/providers/alpha/weights.hpp>
#include <gateway/util/ascii.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

namespace gateway::server::alpha {

namespace asio = boost::asio;
namespace json = boost::json;

network::network(asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
                 network_options options)
    : time_(time)
    , options_(std::move(options))
    , channel_(std::make_shared<upstream_channel>(ex, http, time, options_.channel))
    , universe_load_(ex, 4096, time)
    , strand_(asio::make_strand(ex))
    , timer_(strand_) {}

// Coroutines here are static functions with by-value parameters, never lambdas with captures:
// GCC 12 destroys a capturing lambda coroutine's captures twice.
// cppcheck-suppress passedByValue
asio::awaitable<void> network::run_refresh(std::shared_ptr<network> self) {
    co_await self->refresh_loop();
}

// cppcheck-suppress passedByValue
asio::awaitable<result<network::universe_ptr>>
network::load_and_install(std::shared_ptr<network> self) {
    auto u = co_await self->load_universe();
    if (!u)
        co_return u.error();
    auto ptr = std::make_shared<universe const>(std::move(*u));
    std::lock_guard lock(self->m_);
    self->universe_ = ptr;
    co_return ptr;
}

void network::start() {
    asio::co_spawn(strand_, run_refresh(shared_from_this()), asio::detached);
}

void network::stop() {
    stopped_ = true;
    asio::post(strand_, [self = shared_from_this()] { self->timer_.cancel(); });
}

asio::awaitable<void> network::refresh_loop() {
    while (!stopped_) {
        auto const loaded = co_await reload();
        if (!loaded)
            log::warn("msg=\"market refresh failed\" provider=" + options_.channel.name +
                      " reason=\"" + loaded.error().message + "\"");
        if (stopped_)
            break;
        timer_.expires_after(options_.meta_refresh);
        boost::system::error_code ec;
        co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

std::shared_ptr<network::flight> network::start_info(json::object const& body,
                                                     std::chrono::milliseconds ttl,
                                                     std::optional<std::int64_t> account) {
    std::string type;
    if (auto const* t = body.if_contains("type"); t && t->is_string())
        type = std::string(t->get_string());
    upstream_call call;
    call.method = boost::beast::http::verb::post;
    call.target = "/info";
    call.body = json::serialize(body);
    call.key = call.body;
    call.weight = wire::alpha::info_weight(type);
    call.answer_weight = [type](json::value const& answer) {
        auto const* arr = answer.if_array();
        return arr ? wire::alpha::info_item_weight(type, arr->size()) : 0;
    };
    call.account = account;
    return channel_->start_read(std::move(call), ttl);
}

asio::awaitable<network::json_ptr> network::info(json::object const& body,
                                                 std::chrono::milliseconds ttl,
                                                 std::optional<std::int64_t> account) {
    auto f = start_info(body, ttl, account);
    co_return co_await f->wait();
}

namespace {

/// The string at `key` of an object, lower-cased; nullopt when there is none.
std::optional<std::string> lower_string_at(json::value const& v, std::string_view key) {
    auto const* o = v.if_object();
    auto const* x = o ? o->if_contains(key) : nullptr;
    if (!x || !x->is_string())
        return std::nullopt;
    return util::to_lower(x->get_string());
}

} // namespace

// cppcheck-suppress passedByValue
asio::awaitable<result<bool>> network::approved_agent(std::string wallet, std::string signer) {
    using namespace std::chrono_literals;
    std::string const key = wallet + " " + signer;
    auto const now = time_.steady_now();
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

asio::awaitable<result<universe>> network::load_universe() {
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
    std::vector<std::shared_ptr<flight>> metas;
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

asio::awaitable<result<network::universe_ptr>> network::reload() {
    // One load at a time, shared by the refresh loop and requests arriving before the first.
    // Named, not temporaries: GCC 12 destroys temporaries inside a co_await expression twice
    // (here a captured shared_ptr, which freed the network early).
    std::string const key = "universe";
    coalescing_cache<universe_ptr>::fetch_fn load = [self = shared_from_this()] {
        return load_and_install(self);
    };
    auto const loaded = co_await universe_load_.get(key, std::chrono::milliseconds(0), load);
    if (!*loaded)
        co_return loaded->error();
    co_return **loaded;
}

asio::awaitable<result<network::universe_ptr>> network::markets() {
    {
        std::lock_guard lock(m_);
        if (universe_)
            co_return universe_;
    }
    co_return co_await reload(); // none yet: start-up, or the upstream was down
}

} // namespace gateway::server::alpha
