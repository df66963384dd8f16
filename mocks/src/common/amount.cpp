#include "amount.hpp"

#include <gateway/types/fixed.hpp>

#include <algorithm>

namespace gateway::mocks {

namespace {

// The arithmetic core is the SDK's exact decimal (types/fixed.hpp), shared with the gateway's
// mappings: one rounding rule, written once. `amount` only fixes the scale at 10 digits and
// rounds half away from zero, as the upstreams' ledgers do.
constexpr auto half_away = rounding::half_away_from_zero;
constexpr amount_rep one = gateway::detail::pow10_128(amount::scale);

amount_rep div_round(amount_rep num, amount_rep den) {
    return gateway::detail::divide_rounded(num, den, half_away);
}

} // namespace

amount amount::from_scaled(std::int64_t mantissa, unsigned from_scale) {
    if (from_scale <= scale)
        return from_raw(static_cast<amount_rep>(mantissa) *
                        gateway::detail::pow10_128(scale - from_scale));
    return from_raw(div_round(mantissa, gateway::detail::pow10_128(from_scale - scale)));
}

std::optional<amount> amount::parse(std::string_view text) {
    auto const f = fixed::parse(text);
    if (!f || f->scale > scale)
        return std::nullopt;
    auto const raw = f->mantissa_at(scale);
    constexpr amount_rep limit = gateway::detail::pow10_128(18 + scale); // magnitude below 10^18
    if (!raw || *raw >= limit || *raw <= -limit)
        return std::nullopt;
    return from_raw(*raw);
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
    return from_raw(*fixed{raw_, scale}.rescaled(decimals, half_away)->mantissa_at(scale));
}

std::optional<std::int64_t> amount::to_scaled(unsigned s) const {
    amount_rep v = raw_;
    if (s < scale) {
        amount_rep const unit = gateway::detail::pow10_128(scale - s);
        if (v % unit != 0)
            return std::nullopt;
        v /= unit;
    } else {
        v *= gateway::detail::pow10_128(s - scale);
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
    return fixed{raw_, scale}.str();
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
