#include "providers/beta/beta_network.hpp"

#include "log.hpp"

#include <gateway/providers/beta/signing.hpp>
#include <gateway/providers/beta/weights.hpp>
#include <gateway/util/percent.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <charconv>

namespace gateway::server::beta {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

api_error read_error(std::string const& name, upstream_answer const& a,
                     address const& read_signer) {
    auto const body = error_body(a.body);
    if (!body)
        return make_error(errc::upstream_error, "The " + name + " upstream answered HTTP " +
                                                    std::to_string(a.status) + ".");
    if (body->code == -2015 || body->code == -1002) {
        api_error e = make_error(errc::signer_not_approved,
                                 "This account has not approved the gateway's read signer " +
                                     read_signer.str() + " on " + name +
                                     "; approve it as an API wallet to read the account here.");
        e.details["signer"] = read_signer.str();
        return e;
    }
    if (body->code == -1121)
        return make_error(errc::market_not_found,
                          "The " + name + " upstream does not know this symbol.");
    api_error e =
        make_error(errc::upstream_error, "The " + name + " upstream refused the read (" +
                                             std::to_string(body->code) + " " + body->msg + ").");
    e.details["upstreamCode"] = body->code;
    return e;
}

namespace {

std::string encode(params const& q) {
    std::string out;
    for (auto const& [k, v] : q) {
        if (!out.empty())
            out += '&';
        out += util::percent_encode(k) + "=" + util::percent_encode(v);
    }
    return out;
}

/// The `limit` parameter, for weights that depend on it (0 when absent).
unsigned limit_of(params const& q) {
    for (auto const& [k, v] : q)
        if (k == "limit") {
            unsigned n = 0;
            std::from_chars(v.data(), v.data() + v.size(), n);
            return n;
        }
    return 0;
}

bool has_symbol(params const& q) {
    for (auto const& [k, v] : q)
        if (k == "symbol")
            return true;
    return false;
}

} // namespace

network::network(asio::any_io_executor const& ex, net::http_client& http, util::clock const& time,
                 network_options options, sign::private_key read_signer)
    : time_(time)
    , options_(std::move(options))
    , read_signer_(std::move(read_signer))
    , read_signer_address_(sign::address_of(read_signer_))
    , universe_load_(ex, 4096, time)
    , strand_(asio::make_strand(ex))
    , timer_(strand_) {
    auto const mapper = [name = options_.name,
                         signer = read_signer_address_](upstream_answer const& a) {
        return read_error(name, a, signer);
    };
    options_.futures.read_error = mapper;
    options_.spot.read_error = mapper;
    futures_ = std::make_shared<upstream_channel>(ex, http, time, options_.futures);
    spot_ = std::make_shared<upstream_channel>(ex, http, time, options_.spot);
}

upstream_call network::call_of(bool spot, std::string path, params query) const {
    upstream_call call;
    call.weight = wire::beta::weight(path, has_symbol(query), limit_of(query));
    auto const q = encode(query);
    call.target = q.empty() ? std::move(path) : path + "?" + q;
    (void)spot;
    return call;
}

std::shared_ptr<upstream_channel::flight>
network::start_get(bool spot, std::string path, params query, std::chrono::milliseconds ttl) {
    auto call = call_of(spot, std::move(path), std::move(query));
    return (spot ? spot_ : futures_)->start_read(std::move(call), ttl);
}

std::shared_ptr<upstream_channel::flight>
network::start_signed_get(bool spot, std::string path, params query, address const& user) {
    auto call = call_of(spot, path, query);
    std::string const business = encode(query);
    call.key = "signed " + path + "?" + business + "&user=" + user.str();
    // Signed when the request leaves (after any budget wait), so the nonce is fresh (±10 s).
    call.finalize = [self = shared_from_this(), path, business,
                     who = user.str()](upstream_call& c) {
        std::string msg = business;
        if (!msg.empty())
            msg += '&';
        msg += "nonce=" + std::to_string(sign::beta::next_nonce_us()) + "&user=" + who +
               "&signer=" + self->read_signer_address_.str();
        auto const signature =
            sign::beta::sign_message(msg, self->read_signer_, self->options_.testnet);
        c.target = path + "?" + msg + "&signature=" + signature;
    };
    return (spot ? spot_ : futures_)->start_read(std::move(call), 0ms);
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
            log::warn("msg=\"market refresh failed\" provider=" + options_.name + " reason=\"" +
                      loaded.error().message + "\"");
        if (stopped_)
            break;
        timer_.expires_after(options_.meta_refresh);
        boost::system::error_code ec;
        co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
}

asio::awaitable<result<universe>> network::load_universe() {
    // All three at once: the two exchangeInfos and the leverage brackets, which the read signer
    // reads for itself (user == signer needs no approval).
    auto futures_flight = start_get(false, "/fapi/v3/exchangeInfo", {}, 0ms);
    auto spot_flight = start_get(true, "/api/v3/exchangeInfo", {}, 0ms);
    auto brackets_flight =
        start_signed_get(false, "/fapi/v3/leverageBracket", {}, read_signer_address_);
    auto const futures_answer = co_await futures_flight->wait();
    auto const spot_answer = co_await spot_flight->wait();
    auto const brackets_answer = co_await brackets_flight->wait();
    if (!*futures_answer)
        co_return futures_answer->error();
    if (!*spot_answer)
        co_return spot_answer->error();
    if (!*brackets_answer)
        co_return brackets_answer->error();
    auto perps = parse_futures_exchange_info(**futures_answer);
    if (!perps)
        co_return perps.error();
    auto spot = parse_spot_exchange_info(**spot_answer);
    if (!spot)
        co_return spot.error();
    auto brackets = parse_leverage_brackets(**brackets_answer);
    if (!brackets)
        co_return brackets.error();
    universe u;
    u.perps = std::move(*perps);
    for (auto& m : u.perps)
        if (auto it = brackets->find(m.upstream); it != brackets->end())
            m.max_leverage = it->second;
    u.spot = std::move(*spot);
    co_return u;
}

asio::awaitable<result<network::universe_ptr>> network::reload() {
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
