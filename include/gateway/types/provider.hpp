#pragma once
/**
 * @file provider.hpp
 * Provider listing and detail (spec §2.1, §2.2, §4.1; CONTRACT §1 for the extra
 * `verticalDetails` keys).
 *
 * Every `parse_<type>` reads with `json_fields` in the given mode: inbound is strict (unknown
 * field: VALIDATION_ERROR; non-object: INVALID_JSON), upstream is lenient (UPSTREAM_ERROR).
 */
#include <gateway/types/enums.hpp>
#include <gateway/types/json_fields.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gateway {

/// Upstream request budget a provider reports: `{requests, windowSeconds}`.
struct rate_limit {
    std::int64_t requests = 0;
    std::int64_t window_seconds = 0;
};

/// One vertical of a provider with its upstream addresses; absent optional keys are omitted.
struct vertical_detail {
    gateway::vertical vertical = gateway::vertical::perps;
    std::string base_url;
    std::string ws_url;
    std::optional<std::string> testnet_base_url; ///< providers with a testnet
    std::optional<std::string> testnet_ws_url;   ///< providers with a testnet
    std::optional<std::string> clob_base_url;    ///< gamma: its order-book/trading upstream
    /// beta: the address of the gateway's read signer, which an account approves as an API
    /// wallet to be readable through the gateway (CONTRACT §6.2).
    std::optional<std::string> read_signer;
};

/// A provider list item (spec §2.1).
struct provider {
    std::string id;
    std::string name;
    std::vector<vertical> verticals;
    bool testnet = false;
    gateway::auth_model auth_model = gateway::auth_model::eip712;
    std::string description;
};

/// Provider detail (spec §2.2): the list fields plus the ones below.
struct provider_detail : provider {
    std::vector<vertical_detail> vertical_details;
    std::vector<order_type> order_types;
    gateway::rate_limit rate_limit;
    std::string docs_url;
};

/// Body of `GET /v1/providers`: `{"providers":[...]}`.
struct provider_list {
    std::vector<provider> providers;
};

/// Reads a `rateLimit` object.
GATEWAY_DECL result<rate_limit> parse_rate_limit(boost::json::value const& v, strictness mode);
/// Reads a `verticalDetails` item.
GATEWAY_DECL result<vertical_detail> parse_vertical_detail(boost::json::value const& v,
                                                           strictness mode);
/// Reads a provider list item.
GATEWAY_DECL result<provider> parse_provider(boost::json::value const& v, strictness mode);
/// Reads a provider detail.
GATEWAY_DECL result<provider_detail> parse_provider_detail(boost::json::value const& v,
                                                           strictness mode);
/// Reads the provider list body.
GATEWAY_DECL result<provider_list> parse_provider_list(boost::json::value const& v,
                                                       strictness mode);

/// JSON writers (one per type, contract keys).
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             rate_limit const& r);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             vertical_detail const& d);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider const& p);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider_detail const& p);
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             provider_list const& l);

/// `try_value_to` readers: `parse_<type>` in upstream mode.
GATEWAY_DECL boost::json::result<rate_limit> tag_invoke(boost::json::try_value_to_tag<rate_limit>,
                                                        boost::json::value const& v);
GATEWAY_DECL boost::json::result<vertical_detail>
tag_invoke(boost::json::try_value_to_tag<vertical_detail>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<provider> tag_invoke(boost::json::try_value_to_tag<provider>,
                                                      boost::json::value const& v);
GATEWAY_DECL boost::json::result<provider_detail>
tag_invoke(boost::json::try_value_to_tag<provider_detail>, boost::json::value const& v);
GATEWAY_DECL boost::json::result<provider_list>
tag_invoke(boost::json::try_value_to_tag<provider_list>, boost::json::value const& v);

} // namespace gateway

#include <gateway/types/impl/provider.hpp>
