#pragma once

#include <boost/json/value_to.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <type_traits>

namespace gateway {

namespace detail {
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_string_map : std::false_type {};
template <class V, class C, class A>
struct is_string_map<std::map<std::string, V, C, A>> : std::true_type {};

/// Re-points an inbound error of a nested read at `path` (`a[1]` + `.b` from the nested field).
GATEWAY_DECL void prefix_field(api_error& e, std::string const& path) {
    if (e.code != errc::validation_error)
        return;
    auto const inner = e.field();
    std::string full = inner.empty() ? path : path + "." + std::string(inner);
    e.details["field"] = std::move(full);
}

template <class T>
constexpr char const* json_kind_name() {
    if constexpr (std::is_same_v<T, bool>)
        return "a boolean";
    else if constexpr (std::is_integral_v<T>)
        return "an integer";
    else if constexpr (std::is_floating_point_v<T>)
        return "a number";
    else if constexpr (std::is_same_v<T, std::string> || text_parsable<T>)
        return "a string";
    else if constexpr (std::is_same_v<T, decimal>)
        return "a decimal string in plain notation";
    else if constexpr (is_vector<T>::value)
        return "an array";
    else
        return "an object";
}
} // namespace detail

GATEWAY_DECL json_fields::json_fields(boost::json::value const& v, strictness mode,
                                      std::string_view what)
    : obj_(v.if_object())
    , mode_(mode)
    , what_(what) {
    if (!obj_)
        error_ = mode_ == strictness::inbound
                     ? make_error(errc::invalid_json, "The " + what_ + " must be a JSON object.")
                     : make_error(errc::upstream_error,
                                  "The upstream answered an unexpected shape for " + what_ + ".");
}

GATEWAY_DECL api_error json_fields::make(std::string_view key, std::string message) const {
    if (mode_ == strictness::upstream)
        return make_error(errc::upstream_error, "The upstream answered an unexpected " + what_ +
                                                    " (field '" + std::string(key) + "').");
    return field_error(key, std::move(message));
}

GATEWAY_DECL void json_fields::fail(std::string_view key, std::string message) {
    if (!error_)
        error_ = make(key, std::move(message));
}

GATEWAY_DECL void json_fields::fail(api_error e) {
    if (!error_)
        error_ = std::move(e);
}

GATEWAY_DECL boost::json::value const* json_fields::raw(std::string_view key) {
    if (!obj_)
        return nullptr;
    seen_.push_back(key);
    return obj_->if_contains(key);
}

template <class T>
bool json_fields::read(std::string_view key, boost::json::value const& v, T& out) {
    if constexpr (std::is_same_v<T, decimal>) {
        if (mode_ == strictness::upstream) {
            if (auto d = decimal::from_json_lenient(v)) {
                out = std::move(*d);
                return true;
            }
        } else if (v.is_string()) {
            auto d = decimal::parse(v.get_string(), key);
            if (d) {
                out = std::move(*d);
                return true;
            }
            fail(d.error());
            return false;
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        if (v.is_bool()) {
            out = v.get_bool();
            return true;
        }
    } else if constexpr (std::is_integral_v<T>) {
        if (v.is_int64() || v.is_uint64() || (v.is_double() && mode_ == strictness::upstream)) {
            auto r = boost::json::try_value_to<T>(v);
            if (r) {
                out = *r;
                return true;
            }
        }
        // Upstreams (and recordings of them) also send ids and times as digit strings.
        if (v.is_string() && mode_ == strictness::upstream) {
            std::string_view const text = v.get_string();
            T n{};
            auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (!text.empty() && ec == std::errc{} && end == text.data() + text.size()) {
                out = n;
                return true;
            }
        }
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (v.is_string()) {
            out = std::string(v.get_string());
            return true;
        }
    } else if constexpr (detail::text_parsable<T>) {
        if (v.is_string()) {
            auto r = parse_text(std::type_identity<T>{}, std::string_view(v.get_string()), key);
            if (r) {
                out = std::move(*r);
                return true;
            }
            fail(key, std::move(r.error().message));
            return false;
        }
    } else {
        auto r = boost::json::try_value_to<T>(v);
        if (r) {
            out = std::move(*r);
            return true;
        }
    }
    fail(key, "'" + std::string(key) + "' must be " + detail::json_kind_name<T>() + ".");
    return false;
}

template <class T>
bool json_fields::required(std::string_view key, T& out) {
    if (error_)
        return false;
    auto const* v = raw(key);
    if (!v || v->is_null()) {
        fail(key, "'" + std::string(key) + "' is required.");
        return false;
    }
    return read(key, *v, out);
}

template <class T>
bool json_fields::optional(std::string_view key, std::optional<T>& out) {
    if (error_)
        return false;
    auto const* v = raw(key);
    if (!v || v->is_null()) {
        out.reset();
        return true;
    }
    T tmp{};
    if (!read(key, *v, tmp))
        return false;
    out = std::move(tmp);
    return true;
}

template <class T>
bool json_fields::with_default(std::string_view key, T& out) {
    if (error_)
        return false;
    auto const* v = raw(key);
    if (!v || v->is_null())
        return true;
    return read(key, *v, out);
}

template <class Parse>
auto json_fields::nested(std::string const& path, boost::json::value const& v, Parse const& parse)
    -> std::invoke_result_t<Parse const&, boost::json::value const&, strictness> {
    if (!v.is_object()) {
        fail(path, "'" + path + "' must be an object.");
        return *error_;
    }
    auto r = parse(v, mode_);
    if (!r) {
        api_error e = r.error();
        detail::prefix_field(e, path);
        fail(std::move(e));
    }
    return r;
}

template <class T, class Parse>
bool json_fields::required(std::string_view key, T& out, Parse const& parse) {
    if (error_)
        return false;
    auto const* v = raw(key);
    std::string const k(key);
    if (!v || v->is_null()) {
        fail(key, "'" + k + "' is required.");
        return false;
    }
    if constexpr (detail::is_vector<T>::value) {
        auto const* arr = v->if_array();
        if (!arr) {
            fail(key, "'" + k + "' must be an array.");
            return false;
        }
        T items;
        items.reserve(arr->size());
        for (std::size_t i = 0; i < arr->size(); ++i) {
            auto r = nested(k + "[" + std::to_string(i) + "]", (*arr)[i], parse);
            if (!r)
                return false;
            items.push_back(std::move(*r));
        }
        out = std::move(items);
    } else if constexpr (detail::is_string_map<T>::value) {
        auto const* obj = v->if_object();
        if (!obj) {
            fail(key, "'" + k + "' must be an object.");
            return false;
        }
        T items;
        for (auto const& kv : *obj) {
            auto r = nested(k + "." + std::string(kv.key()), kv.value(), parse);
            if (!r)
                return false;
            items.emplace(std::string(kv.key()), std::move(*r));
        }
        out = std::move(items);
    } else {
        auto r = nested(k, *v, parse);
        if (!r)
            return false;
        out = std::move(*r);
    }
    return true;
}

template <class Parse>
auto parse_list(boost::json::value const& v, strictness mode, Parse const& parse,
                std::string_view what)
    -> result<std::vector<typename std::invoke_result_t<Parse const&, boost::json::value const&,
                                                        strictness>::value_type>> {
    using item = typename std::invoke_result_t<Parse const&, boost::json::value const&,
                                               strictness>::value_type;
    auto const* arr = v.if_array();
    if (!arr)
        return mode == strictness::inbound
                   ? make_error(errc::invalid_json,
                                "The " + std::string(what) + " must be a JSON array.")
                   : make_error(errc::upstream_error,
                                "The upstream answered an unexpected shape for " +
                                    std::string(what) + ".");
    std::vector<item> items;
    items.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        auto r = parse((*arr)[i], mode);
        if (!r) {
            api_error e = r.error();
            detail::prefix_field(e, "[" + std::to_string(i) + "]");
            return e;
        }
        items.push_back(std::move(*r));
    }
    return items;
}

GATEWAY_DECL result<void> json_fields::finish() {
    if (error_)
        return *error_;
    if (mode_ == strictness::inbound) {
        for (auto const& kv : *obj_) {
            if (std::find(seen_.begin(), seen_.end(), kv.key()) == seen_.end())
                return field_error(kv.key(), "Unknown field '" + std::string(kv.key()) + "'.");
        }
    }
    return {};
}

} // namespace gateway
