#pragma once
/**
 * @file address.hpp
 * `gateway::address`: a wallet or contract address, `0x` + 40 hex digits (CONTRACT §1).
 * Any case is accepted; the value is kept and written in lower case.
 */
#include <gateway/result.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <compare>
#include <string>
#include <string_view>
#include <type_traits>

namespace gateway {

class address {
public:
    /// The zero address `0x0000000000000000000000000000000000000000`.
    address() = default;

    /**
     * Parses `0x` followed by exactly 40 hex digits of any case.
     * @param field the name reported in `details.field` on failure.
     * @par Errors VALIDATION_ERROR naming `field`.
     */
    GATEWAY_DECL static result<address> parse(std::string_view text,
                                              std::string_view field = "address");

    /// Lower-case text, e.g. `"0x63dd5acc6b1aa0f563956c0e534dd30b6dcf7c4e"`.
    std::string const& str() const noexcept { return text_; }
    /// Whether this is the zero address.
    GATEWAY_DECL bool is_zero() const noexcept;

    friend bool operator==(address const&, address const&) = default;
    friend std::strong_ordering operator<=>(address const&, address const&) = default;

private:
    explicit address(std::string lower)
        : text_(std::move(lower)) {}

    std::string text_ = "0x0000000000000000000000000000000000000000";
};

/// `json_fields` hook: reads an address field with `address::parse`.
GATEWAY_DECL result<address> parse_text(std::type_identity<address>, std::string_view text,
                                        std::string_view field);

/// JSON: the lower-case string.
GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, address const& a);
/// JSON: a string `address::parse` accepts; anything else is `invalid_argument`.
GATEWAY_DECL boost::json::result<address> tag_invoke(boost::json::try_value_to_tag<address>,
                                                     boost::json::value const& jv);

} // namespace gateway

#include <gateway/types/impl/address.hpp>
