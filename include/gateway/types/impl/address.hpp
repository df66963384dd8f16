#pragma once

#include <system_error>

namespace gateway {

GATEWAY_DECL result<address> address::parse(std::string_view text, std::string_view field) {
    auto fail = [&] {
        return field_error(field, "'" + std::string(field) +
                                      "' must be an address: 0x followed by 40 hex digits.");
    };
    if (text.size() != 42 || text[0] != '0' || text[1] != 'x')
        return fail();
    std::string lower(text);
    for (std::size_t i = 2; i < lower.size(); ++i) {
        char& c = lower[i];
        if (c >= 'A' && c <= 'F')
            c = static_cast<char>(c - 'A' + 'a');
        else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return fail();
    }
    return address(std::move(lower));
}

GATEWAY_DECL bool address::is_zero() const noexcept {
    return text_.find_first_not_of('0', 2) == std::string::npos;
}

GATEWAY_DECL result<address> parse_text(std::type_identity<address>, std::string_view text,
                                        std::string_view field) {
    return address::parse(text, field);
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             address const& a) {
    jv = a.str();
}

GATEWAY_DECL boost::json::result<address> tag_invoke(boost::json::try_value_to_tag<address>,
                                                     boost::json::value const& jv) {
    if (!jv.is_string())
        return boost::json::make_error_code(boost::json::error::not_string);
    auto r = address::parse(jv.get_string());
    if (!r)
        return boost::system::error_code(std::make_error_code(std::errc::invalid_argument));
    return *r;
}

} // namespace gateway
