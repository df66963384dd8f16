#include "providers/beta/beta_network.hpp"

#include "log.hpp"

#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/providers/beta/weights.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <charconv>

namespace gateway::server::beta {

namespace asio = boost::asio;
namespace w = wire::beta;
using namespace std::chrono_literals;

namespace {

/// The request's weight (beta.md §4, §5, §8): by path, by whether a symbol is named, by limit.
std::uint32_t weight_of(std::string_view path, query_params const& q) {
    unsigned limit = 0;
    if (auto l = find_param(q, "limit"))
        std::from_chars(l->data(), l->data() + l->size(), limit);
    return w::weight(path, find_param(q, "symbol").has_value(), limit);
}

/// What reads answer when the upstream refuses: one mapper per channel, naming it.
channel_options with_errors(channel_options o, address const& read_signer) {
    o.read_error = [name = o.name, read_signer](upstream_answer const& a) {
        return read_error(name, a, read_signer);
    };
    return o;
}

} // namespace

network::network(asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
                 network_options options, sign::private_key read_signer)
    : time_(time)
    , options_(std::move(options))
    , read_signer_(std::move(read_signer))
    , read_signer_address_(sign::address_of(read_signer_))
    , futures_(std::make_shared<upstream_channel>(
          ex, http, time, with_errors(options_.futures, read_signer_address_)))
    , spot_(std::make_shared<upstream_channel>(ex, http, time,
                                               with_errors(options_.spot, read_signer_address_)))
    , universe_load_(ex, 4096, time)
    , strand_(asio::make_strand(ex))
    , timer_(strand_) {}

std::shared_ptr<network::flight> network::start_get(venue v, std::string path, query_params query,
                                                    std::chrono::milliseconds ttl,
                                                    std::optional<std::int64_t> account) {
    upstream_call call;
    call.weight = weight_of(path, query);
    call.target = w::target(path, query);
    call.account = account;
    return channel(v).start_read(std::move(call), ttl);
}

std::shared_ptr<network::flight> network::start_signed_get(venue v, std::string path,
                                                           query_params query, address const& user,
                                                           std::optional<std::int64_t> account) {
    upstream_call call;
    call.weight = weight_of(path, query);
    call.account = account;
    // The key names the request without its auth parameters: identical reads of one account in
    // flight share one signed call; nothing is shared across accounts.
    call.key = "signed " + w::target(path, query) + " for " + user.str();
    call.target = path; // replaced when signed
    // Signed when the request leaves (after any budget wait), so the nonce is fresh (±10 s); a
    // read nonce never equals the nonce of one of the account's own orders (ms x 1000).
    call.finalize = [self = shared_from_this(), path = std::move(path), query = std::move(query),
                     user](upstream_call& c) {
        c.target = w::signed_target(path, query, sign::beta::next_read_nonce_us(), user,
                                    self->read_signer_address_, self->read_signer_,
                                    self->options_.testnet);
    };
    return channel(v).start_read(std::move(call), 0ms);
}

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
            log::warn("msg=\"market refresh failed\" provider=" + name() + " reason=\"" +
                      loaded.error().message + "\"");
        if (stopped_)
            break;
        timer_.expires_after(options_.meta_refresh);
        boost::system::error_code ec;
        co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

asio::awaitable<result<universe>> network::load_universe() {
    // All three at once. The leverage brackets are a signed read, which the read signer makes
    // for itself (an account may always sign for itself).
    std::string const futures_info = std::string(w::futures_prefix) + "exchangeInfo";
    std::string const spot_info = std::string(w::spot_prefix) + "exchangeInfo";
    std::string const brackets = std::string(w::futures_prefix) + "leverageBracket";
    auto futures_flight = start_get(venue::futures, futures_info, {}, 0ms);
    auto spot_flight = start_get(venue::spot, spot_info, {}, 0ms);
    auto brackets_flight = start_signed_get(venue::futures, brackets, {}, read_signer_address_);
    auto const futures_answer = co_await futures_flight->wait();
    auto const spot_answer = co_await spot_flight->wait();
    auto const brackets_answer = co_await brackets_flight->wait();
    if (!*futures_answer)
        co_return futures_answer->error();
    if (!*spot_answer)
        co_return spot_answer->error();
    auto perps = parse_futures_exchange_info(**futures_answer);
    if (!perps)
        co_return perps.error();
    auto pairs = parse_spot_exchange_info(**spot_answer);
    if (!pairs)
        co_return pairs.error();
    // Without brackets the markets still serve; their maximum leverage is unknown (0) until the
    // next refresh learns it.
    auto leverage =
        *brackets_answer
            ? parse_leverage_brackets(**brackets_answer)
            : result<std::map<std::string, unsigned, std::less<>>>(brackets_answer->error());
    if (leverage) {
        for (auto& m : *perps)
            if (auto it = leverage->find(m.upstream); it != leverage->end())
                m.max_leverage = it->second;
    } else {
        log::warn("msg=\"leverage brackets unknown\" provider=" + name() + " reason=\"" +
                  leverage.error().message + "\"");
    }
    co_return universe(std::move(*perps), std::move(*pairs));
}

asio::awaitable<result<network::universe_ptr>> network::reload() {
    // One load at a time, shared by the refresh loop and requests arriving before the first.
    // Named, not temporaries: GCC 12 destroys temporaries inside a co_await expression twice.
    std::string const key = "universe";
    coalescing_cache<universe_ptr>::fetch_fn load = [self = shared_from_this()] {
        return load_and_install(self);
    };
    auto const loaded = co_await universe_load_.get(key, 0ms, load);
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

} // namespace gateway::server::beta
