#pragma once
/**
 * @file keccak.hpp
 * Ethereum's Keccak-256 (original Keccak padding `0x01`, not NIST SHA3-256's `0x06`) through
 * Debian's crypto++ (`CryptoPP::Keccak_256`, STYLE "Version traps").
 */
#include <gateway/result.hpp>
#include <gateway/util/hex.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gateway::sign {

/// A byte string.
using util::bytes;
/// A 32-byte hash (Keccak-256 output, EIP-712 digest, alpha connectionId).
using hash256 = std::array<std::uint8_t, 32>;

/**
 * Keccak-256 of `data`, e.g. `keccak256("")` is `c5d24601...5d85a470`.
 * @par Thread safety Pure; safe from any thread.
 */
GATEWAY_DECL hash256 keccak256(std::span<std::uint8_t const> data);
/// Keccak-256 of the bytes of `text` (no terminator, no encoding change).
GATEWAY_DECL hash256 keccak256(std::string_view text);

// The byte and hex helpers every signing header shares (their one home is util/hex.hpp).
using util::from_hex;
using util::from_hex_array;
using util::to_hex;

} // namespace gateway::sign

#include <gateway/sign/impl/keccak.hpp>
