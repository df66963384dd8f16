#pragma once
/**
 * @file result.hpp
 * `gateway::result<T>`: a value or an `api_error`. No exceptions on the data path; `.value()`
 * throws `api_exception` for callers who prefer exceptions (found by ADL, Boost 1.81).
 */
#include <gateway/error.hpp>

#include <boost/assert/source_location.hpp>
#include <boost/system/result.hpp>

namespace gateway {

template <class T>
using result = boost::system::result<T, api_error>;

/// ADL hook used by `boost::system::result<T, api_error>::value()`.
[[noreturn]] GATEWAY_DECL void throw_exception_from_error(api_error const& e,
                                                          boost::source_location const&) {
    throw api_exception(e);
}

} // namespace gateway
