#pragma once
/**
 * @file json_out.hpp
 * JSON output with exact decimal numbers.
 *
 * Some upstream fields are JSON *numbers* holding decimals (gamma's `volume`, `bestBid`...).
 * Boost.JSON would keep them as `double` and print them in its own exponent style; the mocks
 * never print money from a double, so such fields are built with `raw_number` and written
 * verbatim by `to_json`. Everything else is ordinary Boost.JSON, key order preserved.
 */
#include <gateway/types/decimal.hpp>

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace gateway::mocks {

/// A JSON number written exactly as `text` (which must be a valid JSON number).
boost::json::value raw_number(std::string_view text);
/// A JSON number with the decimal's canonical text.
boost::json::value raw_number(decimal const& d);

/// Compact serialization; `raw_number` values are written verbatim.
std::string to_json(boost::json::value const& v);

} // namespace gateway::mocks
