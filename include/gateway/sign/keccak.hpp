#pragma once
/**
 * @file keccak.hpp
 * Ethereum's Keccak-256 (original Keccak padding `0x01`, not NIST SHA3-256's `0x06`) through
 * Debian's crypto++ (`CryptoPP::Keccak_256`, STYLE "Version traps"), plus the byte/hex helpers
 * every signing header shares.
 */
#include <gateway/result.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::sign {

/// A byte string.
using bytes = std::vector<std::uint8_t>;
/// A 32-byte hash (Keccak-256 output, EIP-712 digest, alpha connectionId).
using hash256 = std::array<std::uint8_t, 32>;

/**
 * Keccak-256 of `data`, e.g. `keccak256("")` is `c5d24601...5d85a470`.
 * @par Thread safety Pure; safe from any thread.
 */
GATEWAY_DECL hash256 keccak256(std::span<std::uint8_t const> data);
/// Keccak-256 of the bytes of `text` (no terminator, no encoding change).
GATEWAY_DECL hash256 keccak256(std::string_view text);

/// Lower-case hex of `data`, `0x`-prefixed unless `prefix` is false.
GATEWAY_DECL std::string to_hex(std::span<std::uint8_t const> data, bool prefix = true);

/**
 * Decodes hex: an optional `0x`/`0X` prefix, then an even number of hex digits of any case
 * (`"0x"` alone is the empty string).
 * @param field the name reported in `details.field` on failure.
 * @par Errors VALIDATION_ERROR naming `field`.
 */
GATEWAY_DECL result<bytes> from_hex(std::string_view text, std::string_view field = "hex");

/**
 * Decodes hex (as `from_hex`) that must hold exactly `N` bytes.
 * @par Errors VALIDATION_ERROR naming `field`, also for a wrong length.
 */
template <std::size_t N>
result<std::array<std::uint8_t, N>> from_hex_array(std::string_view text,
                                                   std::string_view field = "hex");

} // namespace gateway::sign

#include <gateway/sign/impl/keccak.hpp>
