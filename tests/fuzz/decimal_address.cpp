// libFuzzer target: decimal and address parsing (CONTRACT §1). The input is the text of a field
// (and, when it parses as JSON, an upstream JSON value). Checked beyond "no crash":
// - strict `decimal::parse` gives the canonical form, which parses back to itself; the lenient
//   parse agrees with it on every text the strict one accepts, and its own results are
//   canonical;
// - ordering is consistent with equality, with negation and between the halves of the input;
// - `to_scaled` / `from_scaled` round-trip;
// - `address::parse` accepts exactly `0x` + 40 hex digits and keeps them in lower case.
#include "fuzz_common.hpp"

#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>

#include <algorithm>
#include <compare>
#include <string>

namespace {

using gateway::address;
using gateway::decimal;

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/// CONTRACT §1 plain notation, canonical: `-?(0|[1-9]\d*)(\.\d*[1-9])?`, never `-0`.
bool canonical(std::string_view s) {
    if (s.empty())
        return false;
    std::string_view body = s;
    if (body.front() == '-')
        body.remove_prefix(1);
    auto const dot = body.find('.');
    std::string_view const ip = body.substr(0, dot);
    std::string_view const fp = dot == std::string_view::npos ? "" : body.substr(dot + 1);
    if (ip.empty() || (ip.size() > 1 && ip.front() == '0'))
        return false;
    if (dot != std::string_view::npos && (fp.empty() || fp.back() == '0'))
        return false;
    return std::all_of(ip.begin(), ip.end(), is_digit) &&
           std::all_of(fp.begin(), fp.end(), is_digit) && !(s.front() == '-' && body == "0");
}

void check_decimal(decimal const& d) {
    FUZZ_CHECK(canonical(d.str()));
    auto again = decimal::parse(d.str());
    FUZZ_CHECK(again && *again == d);
    FUZZ_CHECK((d <=> *again) == 0);
    FUZZ_CHECK(d.negated().negated() == d);
    FUZZ_CHECK(d.abs() == (d.is_negative() ? d.negated() : d));
    FUZZ_CHECK(d.is_zero() == (d.str() == "0"));
    if (!d.is_zero())
        FUZZ_CHECK((d.negated() <=> d) ==
                   (d.is_negative() ? std::strong_ordering::greater : std::strong_ordering::less));
    for (unsigned scale : {d.scale(), d.scale() + 3, 18u}) {
        if (auto m = d.to_scaled(scale)) {
            FUZZ_CHECK(decimal::from_scaled(*m, scale) == d);
        }
    }
}

void check_pair(decimal const& a, decimal const& b) {
    auto const ab = a <=> b;
    auto const ba = b <=> a;
    FUZZ_CHECK((ab == 0) == (a == b));
    FUZZ_CHECK(std::is_lt(ab) == std::is_gt(ba) && std::is_eq(ab) == std::is_eq(ba));
    // Negation reverses the order.
    FUZZ_CHECK((b.negated() <=> a.negated()) == ab);
}

void check_address(std::string_view text) {
    auto a = address::parse(text);
    bool hex40 = text.size() == 42 && text.starts_with("0x");
    for (std::size_t i = 2; hex40 && i < text.size(); ++i) {
        char const c = text[i];
        hex40 = is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
    FUZZ_CHECK(static_cast<bool>(a) == hex40);
    if (!a) {
        gateway::fuzz::check_error(a.error(), {gateway::errc::validation_error});
        return;
    }
    std::string const& s = a->str();
    FUZZ_CHECK(s.size() == 42);
    for (std::size_t i = 0; i < s.size(); ++i) {
        char const c = s[i];
        FUZZ_CHECK(c == text[i] || (c >= 'a' && c <= 'f' && c - 'a' + 'A' == text[i]));
    }
    auto again = address::parse(s);
    FUZZ_CHECK(again && *again == *a);
    FUZZ_CHECK(a->is_zero() == (s.find_first_not_of('0', 2) == std::string::npos));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = gateway::fuzz::as_text(data, size);

    auto strict = decimal::parse(text);
    auto lenient = decimal::parse_lenient(text);
    if (strict) {
        check_decimal(*strict);
        FUZZ_CHECK(lenient && *lenient == *strict);
    } else {
        gateway::fuzz::check_error(strict.error(), {gateway::errc::validation_error});
        FUZZ_CHECK(strict.error().field() == "value");
    }
    if (lenient)
        check_decimal(*lenient);

    // Two values from the halves of the input, compared.
    auto const half = text.size() / 2;
    auto a = decimal::parse_lenient(text.substr(0, half));
    auto b = decimal::parse_lenient(text.substr(half));
    if (a && b)
        check_pair(*a, *b);

    // An upstream JSON value (string, integer or double).
    if (auto v = gateway::fuzz::parse_json(text)) {
        auto d = decimal::from_json_lenient(*v);
        if (d)
            check_decimal(*d);
        if (v->is_string())
            FUZZ_CHECK(d == decimal::parse_lenient(v->get_string()));
        if (v->is_int64() || v->is_uint64())
            FUZZ_CHECK(d.has_value()); // every JSON integer is a decimal
    }

    check_address(text);
    return 0;
}
