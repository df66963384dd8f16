#pragma once

namespace gateway::util {

namespace detail {
/// The length of the well-formed UTF-8 sequence at `s[i]`, or 0 when it is ill-formed.
GATEWAY_DECL std::size_t utf8_sequence(std::string_view s, std::size_t i) noexcept {
    auto const b = [&](std::size_t k) {
        return static_cast<std::uint8_t>(s[k]);
    };
    std::uint8_t const c = b(i);
    if (c < 0x80)
        return 1;
    std::size_t len = 0;
    std::uint8_t lo = 0x80, hi = 0xbf; // allowed range of the second byte
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c == 0xe0)
        len = 3, lo = 0xa0;
    else if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef)
        len = 3;
    else if (c == 0xed)
        len = 3, hi = 0x9f; // no surrogates
    else if (c == 0xf0)
        len = 4, lo = 0x90;
    else if (c >= 0xf1 && c <= 0xf3)
        len = 4;
    else if (c == 0xf4)
        len = 4, hi = 0x8f; // nothing above U+10FFFF
    else
        return 0;
    if (i + 1 >= s.size() || b(i + 1) < lo || b(i + 1) > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (i + k >= s.size() || b(i + k) < 0x80 || b(i + k) > 0xbf)
            return 0;
    return len;
}
} // namespace detail

GATEWAY_DECL bool is_valid_utf8(std::string_view s) noexcept {
    for (std::size_t i = 0; i < s.size();) {
        auto const n = detail::utf8_sequence(s, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

GATEWAY_DECL std::string to_valid_utf8(std::string_view s) {
    if (is_valid_utf8(s))
        return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    for (std::size_t i = 0; i < s.size();) {
        auto const n = detail::utf8_sequence(s, i);
        if (n > 0) {
            out.append(s.substr(i, n));
            i += n;
            continue;
        }
        out.append("\xef\xbf\xbd"); // U+FFFD
        // Skip the maximal invalid subpart: the lead byte and the continuation bytes that
        // follow it, up to the length the lead byte announces.
        std::size_t skip = 1;
        auto const c = static_cast<std::uint8_t>(s[i]);
        std::size_t const want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        while (skip < want && i + skip < s.size() &&
               (static_cast<std::uint8_t>(s[i + skip]) & 0xc0) == 0x80)
            ++skip;
        i += skip;
    }
    return out;
}

GATEWAY_DECL std::string escape_for_log(std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        auto const c = static_cast<std::uint8_t>(ch);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(ch);
        } else if (c >= 0x20 && c < 0x7f) {
            out.push_back(ch);
        } else {
            out.append("\\x");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xf]);
        }
    }
    return out;
}

} // namespace gateway::util
