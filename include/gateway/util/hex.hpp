#pragma once
/**
 * @file hex.hpp
 * Hex text and bytes: the one home of the hex helpers used by the SDK's signing code, the
 * reference server and the mocks.
 *
 * All functions are pure and thread-safe; decoding errors are `result`s naming the field.
 */
#include <gateway/config.hpp>
#include <gateway/result.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::util {

/// A byte string.
using bytes = std::vector<std::uint8_t>;

/// Value of one hex digit of any case, or -1.
GATEWAY_DECL constexpr int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// Lower-case hex of `data`, `0x`-prefixed unless `prefix` is false.
GATEWAY_DECL std::string to_hex(std::span<std::uint8_t const> data, bool prefix = true);

/// Lower-case hex of `n` bytes of `text` (no prefix): random tokens and ids.
GATEWAY_DECL std::string to_hex(std::string_view text, bool prefix = false);

/**
 * Decodes hex: an optional `0x`/`0X` prefix, then an even number of hex digits of any case
 * (none is the empty byte string).
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<bytes> from_hex(std::string_view text, std::string_view field = "hex");

/**
 * Decodes hex (as `from_hex`) that must hold exactly `N` bytes.
 * @par Errors VALIDATION_ERROR naming `field`.
 */
template <std::size_t N>
result<std::array<std::uint8_t, N>> from_hex_array(std::string_view text,
                                                   std::string_view field = "hex");

/// Whether `text` is `0x` followed by exactly `digits` hex digits of any case.
GATEWAY_DECL bool is_prefixed_hex(std::string_view text, std::size_t digits) noexcept;

} // namespace gateway::util

#include <gateway/util/impl/hex.hpp>
