#pragma once

#include <algorithm>

namespace gateway::util {

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

GATEWAY_DECL std::string to_hex(std::string_view text, bool prefix) {
    return to_hex(std::span<std::uint8_t const>(reinterpret_cast<std::uint8_t const*>(text.data()),
                                                text.size()),
                  prefix);
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
        int const hi = hex_value(text[i]);
        int const lo = hex_value(text[i + 1]);
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

GATEWAY_DECL bool is_prefixed_hex(std::string_view text, std::size_t digits) noexcept {
    if (text.size() != digits + 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        return false;
    return std::all_of(text.begin() + 2, text.end(), [](char c) { return hex_value(c) >= 0; });
}

} // namespace gateway::util
