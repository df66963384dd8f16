#pragma once
/**
 * @file utf8.hpp
 * Making untrusted bytes safe to show: valid UTF-8 for JSON answers (a decoded `%FF` in a path
 * must not make an error body invalid JSON text), and escaped text for log lines (no control
 * characters, so a client cannot forge or split a log record).
 */
#include <gateway/config.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gateway::util {

/// Whether `s` is well-formed UTF-8 (RFC 3629: no overlongs, surrogates or code points above
/// U+10FFFF).
GATEWAY_DECL bool is_valid_utf8(std::string_view s) noexcept;

/// `s` with every ill-formed sequence replaced by U+FFFD; `s` itself when it is valid. The
/// result is always well-formed UTF-8.
GATEWAY_DECL std::string to_valid_utf8(std::string_view s);

/// `s` for a log line: printable ASCII kept, `"` and `\` escaped, every other byte as `\xNN`.
GATEWAY_DECL std::string escape_for_log(std::string_view s);

} // namespace gateway::util

#include <gateway/util/impl/utf8.hpp>
