#pragma once
/**
 * @file amount.hpp
 * `amount`: an exact signed decimal with a fixed 10 fraction digits, for the mocks' account
 * arithmetic (balances, position sizes, entry prices, PnL, margin).
 *
 * Sums, differences and products of values with at most 5 + 5 fraction digits are exact;
 * quotients and products with more digits round half away from zero at 10 digits, which
 * every caller documents. Never passes through `double` (STYLE "JSON": money is exact).
 * The mantissa is a 128-bit integer: values up to about 10^18 in magnitude are safe, and the
 * control API refuses inputs beyond 10^12 so products stay far inside the range.
 */
#include <gateway/types/fixed.hpp>

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gateway::mocks {

using amount_rep = gateway::int128;

class amount {
public:
    /// Fraction digits of every amount.
    static constexpr unsigned scale = 10;

    /// Zero.
    constexpr amount() = default;

    /// `mantissa * 10^-from_scale` (rounded half away from zero when from_scale > 10).
    static amount from_scaled(std::int64_t mantissa, unsigned from_scale);
    static amount from_int(std::int64_t v) { return from_scaled(v, 0); }
    static amount from_raw(amount_rep raw) {
        amount a;
        a.raw_ = raw;
        return a;
    }

    /**
     * Parses `-?digits(.digits)?` with at most 10 fraction digits and a magnitude below 10^18.
     * Anything else (exponents, a leading `+` or `.`, more digits) is nullopt.
     */
    static std::optional<amount> parse(std::string_view text);

    amount_rep raw() const noexcept { return raw_; }
    bool is_zero() const noexcept { return raw_ == 0; }
    bool is_negative() const noexcept { return raw_ < 0; }
    int sign() const noexcept { return raw_ > 0 ? 1 : raw_ < 0 ? -1 : 0; }
    amount abs() const { return from_raw(raw_ < 0 ? -raw_ : raw_); }

    amount operator-() const { return from_raw(-raw_); }
    friend amount operator+(amount a, amount b) { return from_raw(a.raw_ + b.raw_); }
    friend amount operator-(amount a, amount b) { return from_raw(a.raw_ - b.raw_); }
    amount& operator+=(amount b) {
        raw_ += b.raw_;
        return *this;
    }
    amount& operator-=(amount b) {
        raw_ -= b.raw_;
        return *this;
    }
    friend bool operator==(amount a, amount b) noexcept { return a.raw_ == b.raw_; }
    friend std::strong_ordering operator<=>(amount a, amount b) noexcept {
        return a.raw_ <=> b.raw_;
    }

    /// `a * b`, rounded half away from zero at 10 digits.
    friend amount operator*(amount a, amount b);
    /// `a / b`, rounded half away from zero at 10 digits; zero when `b` is zero.
    friend amount operator/(amount a, amount b);
    amount times(std::int64_t k) const { return from_raw(raw_ * k); }
    /// Divided by `k` (rounded half away from zero); zero when `k` is zero.
    amount over(std::int64_t k) const;

    /// Rounded half away from zero to `decimals` (<= 10) fraction digits.
    amount rounded(unsigned decimals) const;

    /// The value times 10^s when that is an exact integer (s <= 18); else nullopt.
    std::optional<std::int64_t> to_scaled(unsigned s) const;
    /// The integer part, truncated toward zero.
    std::int64_t truncated() const;

    /// Canonical plain decimal: "0", "-1.5", "30135".
    std::string str() const;
    /// Hyperliquid style: rounded to `decimals`, canonical, an integer keeps ".0" ("30135.0").
    std::string hl(unsigned decimals = scale) const;

private:
    amount_rep raw_ = 0;
};

} // namespace gateway::mocks
