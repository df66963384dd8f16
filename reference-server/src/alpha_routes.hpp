#pragma once
// Provider alpha's pieces the shared routes call into.
#include "services.hpp"

#include <gateway/types/market.hpp>

#include <boost/asio/awaitable.hpp>

namespace gateway::server {

/// alpha prices (spec 2.9) with the optional `dex` query parameter: cached `allMids`, perps
/// symbols only. @par Errors DEX_NOT_FOUND, upstream errors.
boost::asio::awaitable<result<price_map>> alpha_prices(services& s, request_context& ctx);

} // namespace gateway::server
