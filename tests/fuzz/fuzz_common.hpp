#pragma once
// Shared by the libFuzzer targets of this folder: the JSON reading the gateway does, and checks
// whose failure stops the run like a sanitizer report (a wrong answer is a finding too).
#include <gateway/error.hpp>
#include <gateway/result.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace gateway::fuzz {

[[noreturn]] inline void check_failed(char const* what, char const* file, int line) {
    std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, file, line);
    std::abort();
}

// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): the failing expression's text is the message
#define FUZZ_CHECK(cond)                                                                           \
    ((cond) ? (void)0 : ::gateway::fuzz::check_failed(#cond, __FILE__, __LINE__))

inline std::string_view as_text(std::uint8_t const* data, std::size_t size) {
    return {reinterpret_cast<char const*>(data), size};
}

/// A body parsed as the gateway parses client bodies (`json_body`) and upstream answers
/// (`upstream.cpp`): `boost::json::parse` with its default options.
inline std::optional<boost::json::value> parse_json(std::string_view text) {
    boost::system::error_code ec;
    auto v = boost::json::parse(text, ec);
    if (ec)
        return std::nullopt;
    return v;
}

/// A contract error is well formed: a known code with the contract's status and wire text, a
/// message, and `details.field` on every VALIDATION_ERROR (CONTRACT §2).
inline void check_error(api_error const& e) {
    FUZZ_CHECK(e.code != errc::unknown && e.code != errc::transport_error);
    FUZZ_CHECK(e.status == http_status(e.code));
    FUZZ_CHECK(e.wire() == wire_code(e.code));
    FUZZ_CHECK(!e.message.empty());
    if (e.code == errc::validation_error) { // names the field, even one called "" (unknown)
        auto const* field = e.details.if_contains("field");
        FUZZ_CHECK(field && field->is_string());
    }
}

/// As `check_error`, and the code is one of `allowed`.
inline void check_error(api_error const& e, std::initializer_list<errc> allowed) {
    check_error(e);
    bool listed = false;
    for (errc a : allowed)
        listed = listed || a == e.code;
    FUZZ_CHECK(listed);
}

/// `check_error` on the error of a failed result; nothing on success.
template <class T>
void check_outcome(result<T> const& r, std::initializer_list<errc> allowed) {
    if (!r)
        check_error(r.error(), allowed);
}

} // namespace gateway::fuzz
