#pragma once
// Literal values in tests: decimals from text, bytes as hex.
#include <gateway/types/decimal.hpp>
#include <gateway/util/hex.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gateway::test {

/// A decimal the test knows to be well formed.
inline decimal dec(std::string_view text) {
    return decimal::parse(text).value();
}

/// Lower-case hex of `b`, without `0x`.
inline std::string hex(std::span<std::uint8_t const> b) {
    return util::to_hex(b, false);
}

} // namespace gateway::test
