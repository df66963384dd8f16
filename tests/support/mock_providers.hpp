#pragma once
// trompeloeil mocks of the provider seam (reference-server/src/providers/provider.hpp), for
// route-level tests that need no upstream: the route's parsing, validation and order of checks
// are observed through the calls it makes (or does not make) on the capability.
#include "providers/provider.hpp"

#include <catch2/catch.hpp>
#include <catch2/trompeloeil.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

namespace gateway::test {

/// An awaitable that is ready at once with `v` (what a mocked capability returns).
template <class T>
boost::asio::awaitable<result<T>> ready(result<T> v) {
    co_return v;
}

class mock_perps_reads : public trompeloeil::mock_interface<server::perps_reads> {
public:
    IMPLEMENT_MOCK2(prices);
    IMPLEMENT_MOCK1(markets);
    IMPLEMENT_MOCK3(trades);
    IMPLEMENT_MOCK3(candles);
    IMPLEMENT_MOCK3(book);
    IMPLEMENT_MOCK2(account);
    IMPLEMENT_MOCK2(positions);
    IMPLEMENT_MOCK2(open_orders);
    IMPLEMENT_MOCK3(fills);
};

/// Runs an awaitable to completion on a private io_context and returns its value.
template <class T>
T run(boost::asio::awaitable<T> a) {
    boost::asio::io_context ioc;
    auto f = boost::asio::co_spawn(ioc, std::move(a), boost::asio::use_future);
    ioc.run();
    return f.get();
}

} // namespace gateway::test
