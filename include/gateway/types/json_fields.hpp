#pragma once
/**
 * @file json_fields.hpp
 * `gateway::json_fields`: reads one JSON object field by field, so every failure names its
 * field (a bare `error_code` cannot). One reader serves both directions of trust:
 *
 * - `strictness::inbound` (client bodies, CONTRACT §1-2): a non-object is INVALID_JSON, a
 *   missing or mistyped field is VALIDATION_ERROR with `details.field`, and `finish()` rejects
 *   unknown fields.
 * - `strictness::upstream` (provider answers, STYLE "upstream is lenient"): unknown keys are
 *   ignored, decimals are parsed leniently, integers may also arrive as digit strings (ids
 *   and times of Binance-style upstreams and of recordings), and any failure is UPSTREAM_ERROR.
 *
 * The first failure wins; later calls are no-ops, so parsers read straight down and check once.
 *
 * Field types: `bool`, integers, `std::string`, `decimal`, anything `try_value_to` converts, and
 * string-coded types (enums, `address`) that provide the `parse_text` hook below, whose own
 * message (e.g. the allowed values) is kept. Nested objects, arrays of objects and maps of
 * objects are read with the three-argument `required`, which keeps the reader's mode.
 */
#include <gateway/result.hpp>
#include <gateway/types/decimal.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gateway {

enum class strictness { inbound, upstream };

namespace detail {
/**
 * A type written as a JSON string with its own grammar (enums, `address`). It provides
 * `result<T> parse_text(std::type_identity<T>, std::string_view text, std::string_view field)`,
 * found by ADL in `T`'s namespace.
 */
template <class T>
concept text_parsable = requires(std::string_view s) {
    { parse_text(std::type_identity<T>{}, s, s) } -> std::same_as<result<T>>;
};
} // namespace detail

class json_fields {
public:
    /// @param what names the object in messages (e.g. "request body", "alpha allMids").
    json_fields(boost::json::value const& v, strictness mode, std::string_view what = "body");

    /// Reads a required field into `out`; false (and an error recorded) if absent or mistyped.
    template <class T>
    bool required(std::string_view key, T& out);
    /// Reads an optional field; absent or `null` leaves `out` empty.
    template <class T>
    bool optional(std::string_view key, std::optional<T>& out);
    /// Reads an optional field, keeping `out`'s current value (a default) when absent.
    template <class T>
    bool with_default(std::string_view key, T& out);

    /**
     * Reads a required nested object (`T`), array of objects (`std::vector<T>`) or object of
     * objects (`std::map<std::string, T, ...>`) with `parse`, a `parse_<type>` function taking
     * `(value const&, strictness)`. Nested reads use this reader's mode; an inbound failure keeps
     * the nested message and names the path in `details.field` (`verticalDetails[1].baseUrl`).
     */
    template <class T, class Parse>
    bool required(std::string_view key, T& out, Parse const& parse);

    /// The raw field, marked as consumed, or nullptr.
    boost::json::value const* raw(std::string_view key);

    /// Records a failure for `key` (first failure wins).
    void fail(std::string_view key, std::string message);
    /// Records a ready-made error (first failure wins).
    void fail(api_error e);

    bool ok() const noexcept { return !error_; }
    /// The trust mode this reader applies.
    strictness mode() const noexcept { return mode_; }
    /**
     * The outcome: the first failure, or for inbound bodies an unknown field, else success.
     */
    result<void> finish();

    boost::json::object const* object() const noexcept { return obj_; }

private:
    template <class T>
    bool read(std::string_view key, boost::json::value const& v, T& out);
    api_error make(std::string_view key, std::string message) const;
    template <class Parse>
    auto nested(std::string const& path, boost::json::value const& v, Parse const& parse)
        -> std::invoke_result_t<Parse const&, boost::json::value const&, strictness>;

    boost::json::object const* obj_ = nullptr;
    strictness mode_;
    std::string what_;
    std::vector<std::string_view> seen_;
    std::optional<api_error> error_;
};

/**
 * Reads a JSON array of objects with `parse` (e.g. `parse_list(body, strictness::upstream,
 * parse_position, "positions")`).
 * @param what names the array in messages.
 * @par Errors a non-array is INVALID_JSON (inbound) or UPSTREAM_ERROR (upstream); an item's
 * failure is `parse`'s, its inbound `details.field` prefixed with `[i].`.
 */
template <class Parse>
auto parse_list(boost::json::value const& v, strictness mode, Parse const& parse,
                std::string_view what = "list")
    -> result<std::vector<typename std::invoke_result_t<Parse const&, boost::json::value const&,
                                                        strictness>::value_type>>;

} // namespace gateway

#include <gateway/types/impl/json_fields.hpp>
