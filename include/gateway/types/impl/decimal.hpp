#pragma once

#include <charconv>
#include <cstdlib>

namespace gateway {

namespace detail {
GATEWAY_DECL bool all_digits(std::string_view s) noexcept {
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}
} // namespace detail

GATEWAY_DECL decimal decimal::normalise(bool negative, std::string_view int_digits,
                                        std::string_view frac_digits) {
    while (int_digits.size() > 1 && int_digits.front() == '0')
        int_digits.remove_prefix(1);
    if (int_digits.empty())
        int_digits = "0";
    while (!frac_digits.empty() && frac_digits.back() == '0')
        frac_digits.remove_suffix(1);
    std::string out;
    out.reserve(int_digits.size() + frac_digits.size() + 2);
    bool const zero = int_digits == "0" && frac_digits.empty();
    if (negative && !zero)
        out.push_back('-');
    out.append(int_digits);
    if (!frac_digits.empty()) {
        out.push_back('.');
        out.append(frac_digits);
    }
    return decimal(std::move(out));
}

GATEWAY_DECL result<decimal> decimal::parse(std::string_view text, std::string_view field) {
    auto fail = [&] {
        return field_error(field, "'" + std::string(field) +
                                      "' must be a decimal string in plain notation, e.g. \"0.5\"");
    };
    std::string_view s = text;
    bool negative = false;
    if (!s.empty() && s.front() == '-') {
        negative = true;
        s.remove_prefix(1);
    }
    auto const dot = s.find('.');
    std::string_view const int_part = s.substr(0, dot);
    std::string_view const frac_part = dot == std::string_view::npos ? "" : s.substr(dot + 1);
    if (int_part.empty() || !detail::all_digits(int_part) || !detail::all_digits(frac_part) ||
        (dot != std::string_view::npos && frac_part.empty()) || text.size() > max_text_size)
        return fail();
    return normalise(negative, int_part, frac_part);
}

GATEWAY_DECL std::optional<decimal> decimal::parse_lenient(std::string_view text) {
    std::string_view s = text;
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    bool negative = false;
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    long exponent = 0;
    if (auto const e = s.find_first_of("eE"); e != std::string_view::npos) {
        std::string_view exp_text = s.substr(e + 1);
        s = s.substr(0, e);
        if (!exp_text.empty() && exp_text.front() == '+')
            exp_text.remove_prefix(1);
        auto const [p, ec] =
            std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
        if (ec != std::errc{} || p != exp_text.data() + exp_text.size() || exponent > 400 ||
            exponent < -400)
            return std::nullopt;
    }
    auto const dot = s.find('.');
    std::string digits(s.substr(0, dot));
    std::string_view const frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
    if ((digits.empty() && frac.empty()) || !detail::all_digits(digits) ||
        !detail::all_digits(frac))
        return std::nullopt;
    // Shift the point by the exponent over the joined digit string.
    long point = static_cast<long>(digits.size()) + exponent;
    digits.append(frac);
    if (point < 0) {
        digits.insert(0, static_cast<std::size_t>(-point), '0');
        point = 0;
    }
    if (point > static_cast<long>(digits.size()))
        digits.append(static_cast<std::size_t>(point) - digits.size(), '0');
    std::string_view const all = digits;
    auto d = normalise(negative, all.substr(0, static_cast<std::size_t>(point)),
                       all.substr(static_cast<std::size_t>(point)));
    if (d.text_.size() > max_text_size)
        return std::nullopt; // `parse` could not read it back
    return d;
}

GATEWAY_DECL std::optional<decimal> decimal::from_json_lenient(boost::json::value const& v) {
    if (v.is_string())
        return parse_lenient(v.get_string());
    if (v.is_int64())
        return normalise(v.get_int64() < 0,
                         std::to_string(v.get_int64() < 0
                                            ? -static_cast<std::uint64_t>(v.get_int64())
                                            : static_cast<std::uint64_t>(v.get_int64())),
                         "");
    if (v.is_uint64())
        return normalise(false, std::to_string(v.get_uint64()), "");
    if (v.is_double()) {
        char buf[64];
        auto const [p, ec] = std::to_chars(buf, buf + sizeof buf, v.get_double());
        if (ec != std::errc{})
            return std::nullopt;
        return parse_lenient(std::string_view(buf, static_cast<std::size_t>(p - buf)));
    }
    return std::nullopt;
}

GATEWAY_DECL decimal decimal::from_scaled(std::int64_t mantissa, unsigned scale) {
    bool const negative = mantissa < 0;
    std::uint64_t const mag =
        negative ? -static_cast<std::uint64_t>(mantissa) : static_cast<std::uint64_t>(mantissa);
    std::string digits = std::to_string(mag);
    if (digits.size() <= scale)
        digits.insert(0, scale - digits.size() + 1, '0');
    std::string_view const all = digits;
    return normalise(negative, all.substr(0, all.size() - scale), all.substr(all.size() - scale));
}

GATEWAY_DECL std::optional<std::int64_t> decimal::to_scaled(unsigned scale) const {
    if (this->scale() > scale)
        return std::nullopt;
    std::string_view s = text_;
    bool const negative = is_negative();
    if (negative)
        s.remove_prefix(1);
    std::string digits;
    auto const dot = s.find('.');
    digits.append(s.substr(0, dot));
    if (dot != std::string_view::npos)
        digits.append(s.substr(dot + 1));
    digits.append(scale - this->scale(), '0');
    std::int64_t v = 0;
    auto const [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc{} || p != digits.data() + digits.size())
        return std::nullopt;
    return negative ? -v : v;
}

GATEWAY_DECL unsigned decimal::scale() const noexcept {
    auto const dot = text_.find('.');
    return dot == std::string::npos ? 0u : static_cast<unsigned>(text_.size() - dot - 1);
}

GATEWAY_DECL std::strong_ordering operator<=>(decimal const& a, decimal const& b) noexcept {
    if (a.is_negative() != b.is_negative())
        return a.is_negative() ? std::strong_ordering::less : std::strong_ordering::greater;
    bool const neg = a.is_negative();
    std::string_view x = a.text_, y = b.text_;
    if (neg) {
        x.remove_prefix(1);
        y.remove_prefix(1);
    }
    auto const xd = x.find('.'), yd = y.find('.');
    std::string_view const xi = x.substr(0, xd), yi = y.substr(0, yd);
    std::string_view const xf = xd == std::string_view::npos ? "" : x.substr(xd + 1);
    std::string_view const yf = yd == std::string_view::npos ? "" : y.substr(yd + 1);
    std::strong_ordering mag = xi.size() <=> yi.size();
    if (mag == 0)
        mag = xi.compare(yi) <=> 0;
    if (mag == 0) {
        // Fractions compare lexicographically once the shorter is padded with zeros.
        std::size_t const n = xf.size() > yf.size() ? xf.size() : yf.size();
        for (std::size_t i = 0; i < n && mag == 0; ++i) {
            char const cx = i < xf.size() ? xf[i] : '0';
            char const cy = i < yf.size() ? yf[i] : '0';
            mag = cx <=> cy;
        }
    }
    if (!neg)
        return mag;
    return mag == 0 ? mag : (mag < 0 ? std::strong_ordering::greater : std::strong_ordering::less);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             decimal const& d) {
    jv = d.str();
}

GATEWAY_DECL boost::json::result<decimal> tag_invoke(boost::json::try_value_to_tag<decimal>,
                                                     boost::json::value const& jv) {
    if (!jv.is_string())
        return boost::json::make_error_code(boost::json::error::not_string);
    auto r = decimal::parse(jv.get_string());
    if (!r)
        return boost::system::error_code(std::make_error_code(std::errc::invalid_argument));
    return *r;
}

} // namespace gateway
