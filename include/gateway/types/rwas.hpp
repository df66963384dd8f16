#pragma once
/**
 * @file rwas.hpp
 * Real-world-asset dexes: list item (spec §2.12), detail and status (CONTRACT §4).
 *
 * Every `parse_<type>` reads with `json_fields` in the given mode: inbound is strict (unknown
 * field: VALIDATION_ERROR; non-object: INVALID_JSON), upstream is lenient (UPSTREAM_ERROR).
 */
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gateway {

/// A third-party dex (spec §2.12).
struct dex {
    std::string name;
    address deployer;
    std::int64_t market_count = 0;
    std::string description;
};

/// One market of a dex; `symbol` is `dex:SYMBOL` (CONTRACT §1).
struct dex_market {
    std::string symbol;
    std::int64_t max_leverage = 0;
    std::int64_t sz_decimals = 0;
    decimal mark_price;
    decimal open_interest;
};

/// Dex detail: the list fields plus its markets.
struct dex_detail : dex {
    std::vector<dex_market> markets;
};

/// Dex status (CONTRACT §4).
struct dex_status {
    std::string name;
    dex_state status = dex_state::active;
    decimal total_net_deposit;
    decimal open_interest;
    std::int64_t checked_at = 0; ///< ms (CONTRACT §1: timestamps are ms unless stated)
};

/// Reads a dex list item.
GATEWAY_DECL result<dex> parse_dex(boost::json::value const& v, strictness mode);
/// Reads a dex market.
GATEWAY_DECL result<dex_market> parse_dex_market(boost::json::value const& v, strictness mode);
/// Reads a dex detail.
GATEWAY_DECL result<dex_detail> parse_dex_detail(boost::json::value const& v, strictness mode);
/// Reads a dex status.
GATEWAY_DECL result<dex_status> parse_dex_status(boost::json::value const& v, strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, dex const& d);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             dex_market const& m);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             dex_detail const& d);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             dex_status const& s);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<dex> tag_invoke(boost::json::try_value_to_tag<dex>,
                                                 boost::json::value const& v);
GATEWAY_DECL boost::json::result<dex_market> tag_invoke(boost::json::try_value_to_tag<dex_market>,
                                                        boost::json::value const& v);
GATEWAY_DECL boost::json::result<dex_detail> tag_invoke(boost::json::try_value_to_tag<dex_detail>,
                                                        boost::json::value const& v);
GATEWAY_DECL boost::json::result<dex_status> tag_invoke(boost::json::try_value_to_tag<dex_status>,
                                                        boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/rwas.hpp>
