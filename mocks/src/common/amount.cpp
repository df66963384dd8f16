#include "amount.hpp"

#include <algorithm>

namespace gateway::mocks {

namespace {

constexpr amount_rep pow10_rep(unsigned n) noexcept {
    amount_rep v = 1;
    for (unsigned i = 0; i < n; ++i)
        v *= 10;
    return v;
}

constexpr amount_rep one = pow10_rep(amount::scale);

/// `num / den` rounded half away from zero (den != 0).
amount_rep div_round(amount_rep num, amount_rep den) {
    bool const negative = (num < 0) != (den < 0);
    amount_rep const n = num < 0 ? -num : num;
    amount_rep const d = den < 0 ? -den : den;
    amount_rep q = n / d;
    if ((n % d) * 2 >= d)
        ++q;
    return negative ? -q : q;
}

} // namespace

amount amount::from_scaled(std::int64_t mantissa, unsigned from_scale) {
    if (from_scale <= scale)
        return from_raw(static_cast<amount_rep>(mantissa) * pow10_rep(scale - from_scale));
    return from_raw(div_round(mantissa, pow10_rep(from_scale - scale)));
}

std::optional<amount> amount::parse(std::string_view text) {
    bool negative = false;
    if (!text.empty() && text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    auto const dot = text.find('.');
    std::string_view const int_part = text.substr(0, dot);
    std::string_view const frac_part =
        dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
    if (int_part.empty() || int_part.size() > 18 || frac_part.size() > scale ||
        (dot != std::string_view::npos && frac_part.empty()))
        return std::nullopt;
    amount_rep v = 0;
    for (char c : int_part) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    for (char c : frac_part) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    v *= pow10_rep(scale - static_cast<unsigned>(frac_part.size()));
    return from_raw(negative ? -v : v);
}

amount operator*(amount a, amount b) {
    return amount::from_raw(div_round(a.raw_ * b.raw_, one));
}

amount operator/(amount a, amount b) {
    if (b.raw_ == 0)
        return {};
    return amount::from_raw(div_round(a.raw_ * one, b.raw_));
}

amount amount::over(std::int64_t k) const {
    if (k == 0)
        return {};
    return from_raw(div_round(raw_, k));
}

amount amount::rounded(unsigned decimals) const {
    if (decimals >= scale)
        return *this;
    amount_rep const unit = pow10_rep(scale - decimals);
    return from_raw(div_round(raw_, unit) * unit);
}

std::optional<std::int64_t> amount::to_scaled(unsigned s) const {
    amount_rep v = raw_;
    if (s < scale) {
        amount_rep const unit = pow10_rep(scale - s);
        if (v % unit != 0)
            return std::nullopt;
        v /= unit;
    } else {
        v *= pow10_rep(s - scale);
    }
    constexpr amount_rep lim = static_cast<amount_rep>(INT64_MAX);
    if (v > lim || v < -lim)
        return std::nullopt;
    return static_cast<std::int64_t>(v);
}

std::int64_t amount::truncated() const {
    return static_cast<std::int64_t>(raw_ / one);
}

std::string amount::str() const {
    amount_rep const mag = raw_ < 0 ? -raw_ : raw_;
    std::string digits;
    for (amount_rep v = mag; v > 0; v /= 10)
        digits.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    while (digits.size() <= scale)
        digits.push_back('0');
    std::reverse(digits.begin(), digits.end());
    std::string out = raw_ < 0 ? "-" : "";
    out += digits.substr(0, digits.size() - scale);
    std::string frac = digits.substr(digits.size() - scale);
    while (!frac.empty() && frac.back() == '0')
        frac.pop_back();
    if (!frac.empty())
        out += "." + frac;
    return out;
}

std::string amount::hl(unsigned decimals) const {
    std::string s = rounded(decimals).str();
    if (s == "-0")
        s = "0";
    if (s.find('.') == std::string::npos)
        s += ".0";
    return s;
}

} // namespace gateway::mocks
