#pragma once

#include <algorithm>

namespace gateway {

namespace detail {
GATEWAY_DECL int128 divide_rounded(int128 num, int128 den, rounding r) noexcept {
    bool const negative = (num < 0) != (den < 0);
    int128 const n = num < 0 ? -num : num;
    int128 const d = den < 0 ? -den : den;
    int128 q = n / d;
    int128 const rest = n % d;
    switch (r) {
    case rounding::half_even:
        if (rest > d - rest || (rest == d - rest && q % 2 != 0))
            ++q;
        break;
    case rounding::half_away_from_zero:
        if (rest >= d - rest)
            ++q;
        break;
    case rounding::toward_zero:
        break;
    }
    return negative ? -q : q;
}

/// `m * 10^n`, or nullopt on overflow.
GATEWAY_DECL std::optional<int128> scale_up(int128 m, unsigned n) noexcept {
    for (unsigned i = 0; i < n; ++i)
        if (__builtin_mul_overflow(m, 10, &m))
            return std::nullopt;
    return m;
}
} // namespace detail

GATEWAY_DECL std::optional<fixed> fixed::parse(std::string_view s) {
    fixed f;
    bool const negative = !s.empty() && s.front() == '-';
    if (negative)
        s.remove_prefix(1);
    auto const dot = s.find('.');
    std::string_view const int_part = s.substr(0, dot);
    std::string_view const frac_part = dot == std::string_view::npos ? "" : s.substr(dot + 1);
    if (int_part.empty() || (dot != std::string_view::npos && frac_part.empty()))
        return std::nullopt;
    for (std::string_view part : {int_part, frac_part})
        for (char const c : part) {
            if (c < '0' || c > '9')
                return std::nullopt;
            if (__builtin_mul_overflow(f.m, 10, &f.m) || __builtin_add_overflow(f.m, c - '0', &f.m))
                return std::nullopt;
        }
    f.scale = static_cast<unsigned>(frac_part.size());
    if (negative)
        f.m = -f.m;
    return f;
}

GATEWAY_DECL std::optional<fixed> fixed::from_decimal(decimal const& d) {
    return parse(d.str());
}

GATEWAY_DECL std::string fixed::str() const {
    bool const negative = m < 0;
    std::string digits;
    int128 v = m;
    do {
        int const digit = static_cast<int>(v % 10);
        digits.push_back(static_cast<char>('0' + (digit < 0 ? -digit : digit)));
        v /= 10;
    } while (v != 0);
    if (digits.size() <= scale)
        digits.append(scale - digits.size() + 1, '0');
    std::reverse(digits.begin(), digits.end());
    std::string int_part = digits.substr(0, digits.size() - scale);
    std::string frac = digits.substr(digits.size() - scale);
    while (!frac.empty() && frac.back() == '0')
        frac.pop_back();
    std::string out = negative && (int_part != "0" || !frac.empty()) ? "-" : "";
    out += int_part;
    if (!frac.empty())
        out += "." + frac;
    return out;
}

GATEWAY_DECL decimal fixed::to_decimal() const {
    // str() is canonical plain notation, which decimal::parse accepts by construction.
    return decimal::parse(str()).value();
}

GATEWAY_DECL std::optional<fixed> fixed::rescaled(unsigned new_scale, rounding r) const {
    if (new_scale >= scale) {
        auto const up = detail::scale_up(m, new_scale - scale);
        if (!up)
            return std::nullopt;
        return fixed{*up, new_scale};
    }
    if (scale - new_scale > 38)
        return fixed{0, new_scale};
    return fixed{detail::divide_rounded(m, detail::pow10_128(scale - new_scale), r), new_scale};
}

GATEWAY_DECL std::optional<int128> fixed::mantissa_at(unsigned new_scale) const {
    if (new_scale >= scale)
        return detail::scale_up(m, new_scale - scale);
    if (scale - new_scale > 38)
        return m == 0 ? std::optional<int128>(0) : std::nullopt;
    int128 const unit = detail::pow10_128(scale - new_scale);
    if (m % unit != 0)
        return std::nullopt;
    return m / unit;
}

GATEWAY_DECL std::optional<fixed> add(fixed a, fixed b) {
    unsigned const scale = std::max(a.scale, b.scale);
    auto const x = detail::scale_up(a.m, scale - a.scale);
    auto const y = detail::scale_up(b.m, scale - b.scale);
    fixed sum{0, scale};
    if (!x || !y || __builtin_add_overflow(*x, *y, &sum.m))
        return std::nullopt;
    return sum;
}

GATEWAY_DECL std::optional<fixed> sub(fixed a, fixed b) {
    return add(a, b.negated());
}

GATEWAY_DECL std::optional<fixed> mul(fixed a, fixed b) {
    fixed product{0, a.scale + b.scale};
    if (__builtin_mul_overflow(a.m, b.m, &product.m))
        return std::nullopt;
    return product;
}

GATEWAY_DECL std::optional<fixed> div(fixed a, fixed b, unsigned decimals, rounding r) {
    if (b.m == 0)
        return std::nullopt;
    // a / b * 10^d = (a.m * 10^(b.scale + d)) / (b.m * 10^a.scale): move the larger power to
    // one side only, so the operands stay small.
    std::optional<int128> num = a.m, den = b.m;
    unsigned const up = b.scale + decimals;
    if (up >= a.scale)
        num = detail::scale_up(a.m, up - a.scale);
    else
        den = detail::scale_up(b.m, a.scale - up);
    if (!num || !den)
        return std::nullopt;
    return fixed{detail::divide_rounded(*num, *den, r), decimals};
}

GATEWAY_DECL std::strong_ordering compare(fixed a, fixed b) noexcept {
    auto const d = sub(a, b);
    if (!d)
        return std::strong_ordering::equal;
    return d->m <=> int128{0};
}

namespace detail {
template <class Op>
std::optional<decimal> on_decimals(decimal const& a, decimal const& b, Op op) {
    auto const x = fixed::from_decimal(a), y = fixed::from_decimal(b);
    if (!x || !y)
        return std::nullopt;
    auto const out = op(*x, *y);
    if (!out)
        return std::nullopt;
    return out->to_decimal();
}
} // namespace detail

GATEWAY_DECL std::optional<decimal> exact_add(decimal const& a, decimal const& b) {
    return detail::on_decimals(a, b, [](fixed x, fixed y) { return add(x, y); });
}
GATEWAY_DECL std::optional<decimal> exact_sub(decimal const& a, decimal const& b) {
    return detail::on_decimals(a, b, [](fixed x, fixed y) { return sub(x, y); });
}
GATEWAY_DECL std::optional<decimal> exact_mul(decimal const& a, decimal const& b) {
    return detail::on_decimals(a, b, [](fixed x, fixed y) { return mul(x, y); });
}
GATEWAY_DECL std::optional<decimal> exact_div(decimal const& a, decimal const& b, unsigned decimals,
                                              rounding r) {
    return detail::on_decimals(a, b, [&](fixed x, fixed y) { return div(x, y, decimals, r); });
}

} // namespace gateway
