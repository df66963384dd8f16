#pragma once
/**
 * @file format.hpp
 * Number formatting in each upstream's own style, from scaled integers (never from double).
 */
#include <cstdint>
#include <string>

namespace gateway::mocks {

/// 10^n for n <= 18.
std::int64_t pow10(unsigned n) noexcept;

/// Canonical plain decimal: `canonical(12340, 2)` is "123.4", `canonical(5, 0)` is "5".
std::string canonical(std::int64_t mantissa, unsigned scale);

/// Hyperliquid style: canonical, but an integral value keeps one fraction digit ("30135.0").
std::string float_style(std::int64_t mantissa, unsigned scale);

/// Exactly `digits` fraction digits, padding with zeros or truncating toward zero
/// (Binance/Aster style: `fixed(1234, 1, 3)` is "123.400").
std::string fixed(std::int64_t mantissa, unsigned scale, unsigned digits);

/// `mantissa` moved from `scale` to `to_scale`, truncating toward zero.
std::int64_t rescale(std::int64_t mantissa, unsigned scale, unsigned to_scale);

} // namespace gateway::mocks
