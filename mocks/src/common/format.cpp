#include "format.hpp"

#include <gateway/types/decimal.hpp>

namespace gateway::mocks {

std::int64_t pow10(unsigned n) noexcept {
    std::int64_t v = 1;
    for (unsigned i = 0; i < n && i < 18; ++i)
        v *= 10;
    return v;
}

std::string canonical(std::int64_t mantissa, unsigned scale) {
    return decimal::from_scaled(mantissa, scale).str();
}

std::string float_style(std::int64_t mantissa, unsigned scale) {
    std::string s = canonical(mantissa, scale);
    if (s.find('.') == std::string::npos)
        s += ".0";
    return s;
}

std::int64_t rescale(std::int64_t mantissa, unsigned scale, unsigned to_scale) {
    if (to_scale >= scale)
        return mantissa * pow10(to_scale - scale);
    return mantissa / pow10(scale - to_scale);
}

std::string fixed(std::int64_t mantissa, unsigned scale, unsigned digits) {
    std::string s = canonical(rescale(mantissa, scale, digits), digits);
    if (digits == 0)
        return s;
    auto const dot = s.find('.');
    unsigned const have = dot == std::string::npos ? 0u : static_cast<unsigned>(s.size() - dot - 1);
    if (dot == std::string::npos)
        s += '.';
    s.append(digits - have, '0');
    return s;
}

} // namespace gateway::mocks
