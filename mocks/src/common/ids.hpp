#pragma once
/**
 * @file ids.hpp
 * Deterministic identifiers (hex hashes, addresses, long decimal ids) derived from seeds.
 */
#include "rng.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gateway::mocks {

/// `n` lowercase hex digits drawn from a stream seeded with `seed`.
inline std::string hex_digits(std::uint64_t seed, std::size_t n) {
    static constexpr char digits[] = "0123456789abcdef";
    splitmix64 r(seed);
    std::string out;
    out.reserve(n);
    std::uint64_t bits = 0;
    unsigned left = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (left == 0) {
            bits = r.next();
            left = 16;
        }
        out.push_back(digits[bits & 0xf]);
        bits >>= 4;
        --left;
    }
    return out;
}

/// `0x` + 64 hex digits (a transaction or order hash).
inline std::string hash_hex(std::uint64_t seed) {
    return "0x" + hex_digits(seed, 64);
}

/// `0x` + 40 hex digits (an EVM address, lowercase).
inline std::string address_hex(std::uint64_t seed) {
    return "0x" + hex_digits(seed, 40);
}

/// `n` decimal digits without a leading zero (a Polymarket token id is 76-78 digits).
inline std::string decimal_digits(std::uint64_t seed, std::size_t n) {
    splitmix64 r(seed);
    std::string out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(static_cast<char>('0' + (i == 0 ? 1 + r.below(9) : r.below(10))));
    return out;
}

} // namespace gateway::mocks
