#pragma once
// Provider alpha's pieces the shared routes call into.
#include "services.hpp"

#include <gateway/types/market.hpp>

#include <boost/asio/awaitable.hpp>

namespace gateway::server {

/// The route's provider, which must be alpha for alpha's handlers (beta's arrive with the beta
/// provider; until then its paths answer 404 NOT_FOUND, not a wrong shape).
/// @par Errors PROVIDER_NOT_FOUND, NOT_FOUND.
result<void> require_alpha(request_context const& ctx, vertical v);

/// alpha prices (spec 2.9) with the optional `dex` query parameter: cached `allMids`, perps
/// symbols only. @par Errors DEX_NOT_FOUND, upstream errors.
boost::asio::awaitable<result<price_map>> alpha_prices(services& s, request_context& ctx);

} // namespace gateway::server
