#pragma once

#include <cryptopp/keccak.h>

#include <algorithm>

namespace gateway::sign {

namespace detail {
/// Value of one hex digit, or -1.
GATEWAY_DECL constexpr int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
} // namespace detail

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

GATEWAY_DECL std::string to_hex(std::span<std::uint8_t const> data, bool prefix) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(data.size() * 2 + 2);
    if (prefix)
        out.append("0x");
    for (std::uint8_t b : data) {
        out.push_back(digits[b >> 4]);
        out.push_back(digits[b & 0x0f]);
    }
    return out;
}

GATEWAY_DECL result<bytes> from_hex(std::string_view text, std::string_view field) {
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        text.remove_prefix(2);
    if (text.size() % 2 != 0)
        return field_error(field, "'" + std::string(field) +
                                      "' must be hex with an even number of digits.");
    bytes out;
    out.reserve(text.size() / 2);
    for (std::size_t i = 0; i < text.size(); i += 2) {
        int const hi = detail::hex_value(text[i]);
        int const lo = detail::hex_value(text[i + 1]);
        if (hi < 0 || lo < 0)
            return field_error(field, "'" + std::string(field) + "' must contain hex digits only.");
        out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
    }
    return out;
}

template <std::size_t N>
result<std::array<std::uint8_t, N>> from_hex_array(std::string_view text, std::string_view field) {
    auto raw = from_hex(text, field);
    if (!raw)
        return raw.error();
    if (raw->size() != N)
        return field_error(field, "'" + std::string(field) + "' must be " + std::to_string(N) +
                                      " bytes (" + std::to_string(2 * N) + " hex digits).");
    std::array<std::uint8_t, N> out{};
    std::copy(raw->begin(), raw->end(), out.begin());
    return out;
}

} // namespace gateway::sign
