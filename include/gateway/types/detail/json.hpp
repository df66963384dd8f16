#pragma once
/**
 * @file detail/json.hpp
 * What every contract type's JSON mapping shares, so each mapping is only its field list:
 * building objects from `value_from`'d members, omitting absent keys, finishing a read, and
 * adapting a `parse_<type>` outcome to `try_value_to`.
 */
#include <gateway/types/json_fields.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace gateway::detail {

/// One `"key": value` of an object being written. `value_from` converts the value, so decimals
/// become strings, enums their wire names and empty optionals `null`.
struct json_member {
    template <class T>
    json_member(std::string_view k, T const& v)
        : key(k)
        , value(boost::json::value_from(v)) {}

    std::string_view key;
    boost::json::value value;
};

/// An object holding `members` in the given order.
GATEWAY_DECL boost::json::object make_object(std::initializer_list<json_member> members) {
    boost::json::object o;
    o.reserve(members.size());
    for (auto const& m : members)
        o.emplace(m.key, m.value);
    return o;
}

/// Adds `key` only when `v` is set: for keys the contract omits rather than writes as `null`.
template <class T>
void put_if(boost::json::object& o, std::string_view key, std::optional<T> const& v) {
    if (v)
        o.emplace(key, boost::json::value_from(*v));
}

/// Adds `key` only when `s` is not empty: for request secrets and signatures not yet present.
GATEWAY_DECL void put_nonempty(boost::json::object& o, std::string_view key, std::string const& s) {
    if (!s.empty())
        o.emplace(key, s);
}

/// `out`, unless a read of `f` failed or (inbound) an unknown field is left.
template <class T>
result<T> finish(json_fields& f, T out) {
    if (auto r = f.finish(); !r)
        return r.error();
    return out;
}

/// A `parse_<type>` outcome as `try_value_to` reports it; the field name cannot travel in an
/// `error_code`, which is why bodies go through `parse_<type>` instead.
template <class T>
boost::json::result<T> to_json_result(result<T> r) {
    if (!r)
        return boost::system::error_code(std::make_error_code(std::errc::invalid_argument));
    return std::move(*r);
}

} // namespace gateway::detail
