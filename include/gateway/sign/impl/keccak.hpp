#pragma once

#include <cryptopp/keccak.h>

#include <algorithm>

namespace gateway::sign {

GATEWAY_DECL hash256 keccak256(std::span<std::uint8_t const> data) {
    hash256 out{};
    CryptoPP::Keccak_256 h;
    static_assert(CryptoPP::Keccak_256::DIGESTSIZE == 32, "Keccak-256 gives 32 bytes");
    // crypto++ takes a null pointer with length 0, but do not rely on it.
    static constexpr CryptoPP::byte empty = 0;
    h.CalculateDigest(out.data(), data.empty() ? &empty : data.data(), data.size());
    return out;
}

GATEWAY_DECL hash256 keccak256(std::string_view text) {
    return keccak256(std::span<std::uint8_t const>(
        reinterpret_cast<std::uint8_t const*>(text.data()), text.size()));
}

} // namespace gateway::sign
