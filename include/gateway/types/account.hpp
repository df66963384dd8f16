#pragma once
/**
 * @file account.hpp
 * Account data: summary (spec §2.5), position (§2.6), spot balance (§2.11), open order and
 * fill (CONTRACT §4).
 *
 * Every `parse_<type>` reads with `json_fields` in the given mode: inbound is strict (unknown
 * field: VALIDATION_ERROR; non-object: INVALID_JSON), upstream is lenient (UPSTREAM_ERROR).
 */
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gateway {

/// Perps account summary (spec §2.5; beta uses the same shape, CONTRACT §4).
struct account_summary {
    decimal equity;
    decimal available_margin;
    decimal used_margin;
    decimal unrealized_pnl;
    decimal total_position_value;
};

/// An open perps position (spec §2.6). `liquidation_price` is `0` when there is no risk.
struct position {
    std::string symbol;
    position_side side = position_side::long_;
    decimal size;
    decimal entry_price;
    decimal mark_price;
    decimal unrealized_pnl;
    decimal leverage;
    decimal liquidation_price;
    decimal margin;
};

/// One spot asset balance (spec §2.11).
struct spot_balance {
    std::string asset;
    decimal available;
    decimal locked;
    decimal total;
};

/// A resting order (CONTRACT §4); empty optionals are written as `null`.
struct open_order {
    std::string order_id;
    std::optional<std::string> client_order_id;
    std::string symbol;
    gateway::side side = gateway::side::buy;
    order_type type = order_type::limit;
    std::optional<decimal> price;
    std::optional<decimal> trigger_price;
    decimal size; ///< original size
    decimal filled_size;
    bool reduce_only = false;
    open_order_status status = open_order_status::open;
    std::int64_t timestamp = 0;
    /// trailing_stop only (beta): the callback rate in percent; absent from the JSON otherwise.
    std::optional<decimal> callback_rate;
};

/// A trade fill of the account (CONTRACT §4); lists are newest first.
struct fill {
    std::string id;
    std::string order_id;
    std::string symbol;
    gateway::side side = gateway::side::buy;
    decimal price;
    decimal size;
    decimal fee;
    std::string fee_asset;
    gateway::liquidity liquidity = gateway::liquidity::taker;
    std::optional<decimal> closed_pnl; ///< null when the fill closed nothing
    std::int64_t timestamp = 0;
};

/// Reads an account summary.
GATEWAY_DECL result<account_summary> parse_account_summary(boost::json::value const& v,
                                                           strictness mode);
/// Reads a position.
GATEWAY_DECL result<position> parse_position(boost::json::value const& v, strictness mode);
/// Reads a spot balance.
GATEWAY_DECL result<spot_balance> parse_spot_balance(boost::json::value const& v, strictness mode);
/// Reads an open order.
GATEWAY_DECL result<open_order> parse_open_order(boost::json::value const& v, strictness mode);
/// Reads a fill.
GATEWAY_DECL result<fill> parse_fill(boost::json::value const& v, strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             account_summary const& a);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             position const& p);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             spot_balance const& b);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             open_order const& o);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, fill const& f);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<account_summary>
tag_invoke(boost::json::try_value_to_tag<account_summary>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<position> tag_invoke(boost::json::try_value_to_tag<position>,
                                                      boost::json::value const& v);
GATEWAY_DECL boost::json::result<spot_balance>
tag_invoke(boost::json::try_value_to_tag<spot_balance>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<open_order> tag_invoke(boost::json::try_value_to_tag<open_order>,
                                                        boost::json::value const& v);
GATEWAY_DECL boost::json::result<fill> tag_invoke(boost::json::try_value_to_tag<fill>,
                                                  boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/account.hpp>
