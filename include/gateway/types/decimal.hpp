#pragma once
/**
 * @file decimal.hpp
 * `gateway::decimal`: an exact decimal number kept in CONTRACT §1 plain notation.
 *
 * Prices, sizes and balances never pass through `double`. The canonical text has no exponent,
 * no leading `+`, no superfluous leading zeros, no trailing zeros after the point, no point
 * without digits after it, and is `"0"` for zero (never `"-0"`).
 */
#include <gateway/result.hpp>

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway {

class decimal {
public:
    /// The longest text `parse` accepts; `parse_lenient` refuses values whose text is longer.
    static constexpr std::size_t max_text_size = 64;

    /// Zero.
    decimal() = default;

    /**
     * Parses strict plain notation: `-?digits(.digits)?` (e.g. `"0.001"`, `"-12"`, `"1.50"`).
     * @param field the name reported in `details.field` on failure.
     * @par Errors VALIDATION_ERROR naming `field` for anything else (`"1e-3"`, `".5"`, `""`).
     */
    static result<decimal> parse(std::string_view text, std::string_view field = "value");

    /**
     * Lenient parse for upstream bodies: plain notation, a leading `+`, `.5`, `5.` and
     * exponent notation (`"1.5e-7"`) are all accepted and normalised. A value whose canonical
     * text would be longer than `max_text_size` is refused (`"1e70"`), so that what the gateway
     * passes on from an upstream reads back with `parse`.
     */
    static std::optional<decimal> parse_lenient(std::string_view text);

    /// Lenient conversion of an upstream JSON value (string, integer or double).
    static std::optional<decimal> from_json_lenient(boost::json::value const& v);

    /// `mantissa * 10^-scale`, e.g. `from_scaled(12345, 2)` is `123.45`.
    static decimal from_scaled(std::int64_t mantissa, unsigned scale);

    /// The value times 10^scale if that is an exact integer that fits; else nullopt.
    std::optional<std::int64_t> to_scaled(unsigned scale) const;

    /// Canonical text, e.g. `"0.001"`.
    std::string const& str() const noexcept { return text_; }
    /// Digits after the point in the canonical text.
    unsigned scale() const noexcept;
    bool is_zero() const noexcept { return text_ == "0"; }
    bool is_negative() const noexcept { return text_.front() == '-'; }
    decimal abs() const { return is_negative() ? decimal(text_.substr(1)) : *this; }
    decimal negated() const {
        return is_zero() ? *this : is_negative() ? decimal(text_.substr(1)) : decimal("-" + text_);
    }

    friend bool operator==(decimal const& a, decimal const& b) noexcept {
        return a.text_ == b.text_;
    }
    friend std::strong_ordering operator<=>(decimal const& a, decimal const& b) noexcept;

private:
    explicit decimal(std::string canonical)
        : text_(std::move(canonical)) {}
    /// Builds the canonical text from sign, integer digits and fraction digits.
    static decimal normalise(bool negative, std::string_view int_digits,
                             std::string_view frac_digits);

    std::string text_ = "0";
};

/// JSON: always a string (CONTRACT §1).
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, decimal const& d);
/// JSON: a strict plain-notation string; anything else is `invalid_argument`.
boost::json::result<decimal> tag_invoke(boost::json::try_value_to_tag<decimal>,
                                        boost::json::value const& jv);

} // namespace gateway

#include <gateway/types/impl/decimal.hpp>
