#pragma once
/**
 * @file ascii.hpp
 * ASCII case and character-class helpers (locale-independent, unlike <cctype>): the one home
 * for lower-casing addresses, emails, header values and upstream strings.
 */
#include <gateway/config.hpp>

#include <string>
#include <string_view>

namespace gateway::util {

/// `c` lower-cased if it is an ASCII upper-case letter.
GATEWAY_DECL constexpr char ascii_lower(char c) noexcept {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// `c` upper-cased if it is an ASCII lower-case letter.
GATEWAY_DECL constexpr char ascii_upper(char c) noexcept {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

/// `s` with its ASCII letters lower-cased.
GATEWAY_DECL std::string to_lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = ascii_lower(c);
    return out;
}

/// `s` with its ASCII letters upper-cased.
GATEWAY_DECL std::string to_upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = ascii_upper(c);
    return out;
}

/// ASCII case-insensitive equality.
GATEWAY_DECL constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i]))
            return false;
    return true;
}

/// `s` without leading and trailing spaces and tabs.
GATEWAY_DECL constexpr std::string_view trim(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

/// Every byte is printable ASCII (0x21..0x7e): tokens, ids, header values we echo.
GATEWAY_DECL constexpr bool is_visible_ascii(std::string_view s) noexcept {
    for (char c : s)
        if (c <= 0x20 || c >= 0x7f)
            return false;
    return true;
}

} // namespace gateway::util
