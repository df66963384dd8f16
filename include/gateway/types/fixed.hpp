#pragma once
/**
 * @file fixed.hpp
 * `gateway::fixed`: exact decimal arithmetic on a 128-bit mantissa and a decimal scale
 * (`m * 10^-scale`, up to 38 significant digits). The one arithmetic of the tree: the
 * reference server's mappings (sums of balances, notional products, averages) and the mocks'
 * ledgers and matching engines use it, so a rounding rule is written once.
 *
 * Sums, differences and products are exact or fail (nullopt on overflow, never a silent
 * wrap); quotients and rescaling round by an explicit `rounding` rule. Never passes through
 * `double` (STYLE "JSON": money is exact).
 */
#include <gateway/config.hpp>
#include <gateway/types/decimal.hpp>

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway {

__extension__ typedef __int128 int128;

/// How a value that does not fit the wanted scale is rounded.
enum class rounding {
    half_even,           ///< banker's rounding (averages, mark prices)
    half_away_from_zero, ///< commercial rounding (the mocks' ledgers, as the upstreams do)
    toward_zero,         ///< truncation
};

namespace detail {
/// 10^n for n <= 38.
GATEWAY_DECL constexpr int128 pow10_128(unsigned n) noexcept {
    int128 v = 1;
    for (unsigned i = 0; i < n; ++i)
        v *= 10;
    return v;
}
/// `num / den` rounded by `r` (den != 0).
GATEWAY_DECL int128 divide_rounded(int128 num, int128 den, rounding r) noexcept;
} // namespace detail

struct fixed {
    int128 m = 0;       ///< mantissa
    unsigned scale = 0; ///< digits after the point

    /// The exact value of a decimal; nullopt beyond 38 significant digits.
    GATEWAY_DECL static std::optional<fixed> from_decimal(decimal const& d);
    /// Parses strict plain notation (`decimal::parse`'s grammar); nullopt for anything else.
    GATEWAY_DECL static std::optional<fixed> parse(std::string_view text);

    /// The value as a canonical decimal (CONTRACT §1 plain notation).
    GATEWAY_DECL decimal to_decimal() const;
    /// Canonical plain text ("0", "-1.5").
    GATEWAY_DECL std::string str() const;

    /// The same value at `new_scale` digits, rounded by `r` when digits are dropped; nullopt on
    /// overflow.
    GATEWAY_DECL std::optional<fixed> rescaled(unsigned new_scale, rounding r) const;
    /// The mantissa at `new_scale` if that is exact (no digit dropped) and fits; else nullopt.
    GATEWAY_DECL std::optional<int128> mantissa_at(unsigned new_scale) const;

    bool is_zero() const noexcept { return m == 0; }
    bool is_negative() const noexcept { return m < 0; }
    fixed negated() const noexcept { return fixed{-m, scale}; }
    fixed abs() const noexcept { return fixed{m < 0 ? -m : m, scale}; }
};

/// Exact `a + b`; nullopt on overflow.
GATEWAY_DECL std::optional<fixed> add(fixed a, fixed b);
/// Exact `a - b`; nullopt on overflow.
GATEWAY_DECL std::optional<fixed> sub(fixed a, fixed b);
/// Exact `a * b` (scale a.scale + b.scale); nullopt on overflow.
GATEWAY_DECL std::optional<fixed> mul(fixed a, fixed b);
/// `a / b` at `decimals` digits rounded by `r`; nullopt when `b` is zero or on overflow.
GATEWAY_DECL std::optional<fixed> div(fixed a, fixed b, unsigned decimals, rounding r);
/// Three-way comparison of the values (scales may differ); equal on overflow of either.
GATEWAY_DECL std::strong_ordering compare(fixed a, fixed b) noexcept;

/// Exact decimal arithmetic over `decimal` (nullopt on overflow or a zero divisor).
GATEWAY_DECL std::optional<decimal> exact_add(decimal const& a, decimal const& b);
GATEWAY_DECL std::optional<decimal> exact_sub(decimal const& a, decimal const& b);
GATEWAY_DECL std::optional<decimal> exact_mul(decimal const& a, decimal const& b);
/// `a / b` rounded by `r` to at most `decimals` digits after the point.
GATEWAY_DECL std::optional<decimal> exact_div(decimal const& a, decimal const& b, unsigned decimals,
                                              rounding r = rounding::half_even);

} // namespace gateway

#include <gateway/types/impl/fixed.hpp>
