#pragma once

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gateway::sign {

namespace detail {

/// x = x * 10 + digit; false on overflow past 256 bits.
GATEWAY_DECL bool u256_mul_add(hash256& x, unsigned mul, unsigned add) noexcept {
    unsigned carry = add;
    for (std::size_t i = x.size(); i-- > 0;) {
        unsigned const v = x[i] * mul + carry;
        x[i] = static_cast<std::uint8_t>(v & 0xff);
        carry = v >> 8;
    }
    return carry == 0;
}

/// Number of significant bits of a big-endian magnitude.
GATEWAY_DECL unsigned u256_bit_length(hash256 const& x) noexcept {
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i] != 0) {
            unsigned bits = 0;
            for (unsigned b = x[i]; b != 0; b >>= 1)
                ++bits;
            return static_cast<unsigned>((x.size() - 1 - i) * 8) + bits;
        }
    }
    return 0;
}

GATEWAY_DECL bool u256_is_power_of_two(hash256 const& x) noexcept {
    unsigned ones = 0;
    for (std::uint8_t b : x)
        for (unsigned v = b; v != 0; v >>= 1)
            ones += v & 1u;
    return ones == 1;
}

/// Two's complement negation in place (256 bits).
GATEWAY_DECL void u256_negate(hash256& x) noexcept {
    for (auto& b : x)
        b = static_cast<std::uint8_t>(~b);
    u256_mul_add(x, 1, 1); // wraps for zero, giving zero again
}

GATEWAY_DECL hash256 u256_from_u64(std::uint64_t v) noexcept {
    hash256 out{};
    for (std::size_t i = 0; i < 8; ++i)
        out[31 - i] = static_cast<std::uint8_t>(v >> (8 * i));
    return out;
}

/// Parses the member-type name `uintN`/`intN` (N in 8..256, a multiple of 8); 0 otherwise.
GATEWAY_DECL unsigned int_type_bits(std::string_view type, bool& is_signed) noexcept {
    std::string_view digits;
    if (type.starts_with("uint")) {
        is_signed = false;
        digits = type.substr(4);
    } else if (type.starts_with("int")) {
        is_signed = true;
        digits = type.substr(3);
    } else {
        return 0;
    }
    if (digits.empty() || digits.front() == '0')
        return 0;
    unsigned n = 0;
    auto const [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || p != digits.data() + digits.size() || n < 8 || n > 256 || n % 8)
        return 0;
    return n;
}

/// Parses `bytesN` (N in 1..32); 0 otherwise.
GATEWAY_DECL unsigned fixed_bytes_size(std::string_view type) noexcept {
    if (!type.starts_with("bytes") || type.size() == 5)
        return 0;
    std::string_view const digits = type.substr(5);
    if (digits.front() == '0')
        return 0;
    unsigned n = 0;
    auto const [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || p != digits.data() + digits.size() || n < 1 || n > 32)
        return 0;
    return n;
}

GATEWAY_DECL bool is_atomic_or_dynamic(std::string_view type) noexcept {
    bool s = false;
    return type == "bool" || type == "address" || type == "string" || type == "bytes" ||
           int_type_bits(type, s) != 0 || fixed_bytes_size(type) != 0;
}

/// `T[2][]` -> `T`.
GATEWAY_DECL std::string_view base_type(std::string_view type) noexcept {
    auto const pos = type.find('[');
    return pos == std::string_view::npos ? type : type.substr(0, pos);
}

GATEWAY_DECL api_error eip712_error(std::string_view path, std::string const& why) {
    return field_error(path, "'" + std::string(path) + "' " + why);
}

struct member {
    std::string_view name;
    std::string_view type;
};

/// The members of struct `name` in `types`, checked for shape.
GATEWAY_DECL result<std::vector<member>> struct_members(boost::json::object const& types,
                                                        std::string_view name) {
    auto const* def = types.if_contains(name);
    std::string const path = "types." + std::string(name);
    if (!def)
        return eip712_error(path,
                            "is not defined (unknown struct type '" + std::string(name) + "').");
    auto const* arr = def->if_array();
    if (!arr)
        return eip712_error(path, "must be an array of {name, type} members.");
    std::vector<member> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        auto const* o = (*arr)[i].if_object();
        auto const* n = o ? o->if_contains("name") : nullptr;
        auto const* t = o ? o->if_contains("type") : nullptr;
        if (!n || !n->is_string() || !t || !t->is_string() || n->get_string().empty() ||
            t->get_string().empty())
            return eip712_error(path + "[" + std::to_string(i) + "]",
                                "must be an object with string 'name' and 'type'.");
        out.push_back({n->get_string(), t->get_string()});
    }
    return out;
}

/// Checks the array suffixes of `type` (`[]` or `[digits]`, repeated).
GATEWAY_DECL bool valid_array_suffix(std::string_view suffix) noexcept {
    while (!suffix.empty()) {
        if (suffix.front() != '[')
            return false;
        auto const close = suffix.find(']');
        if (close == std::string_view::npos)
            return false;
        for (char c : suffix.substr(1, close - 1))
            if (c < '0' || c > '9')
                return false;
        suffix.remove_prefix(close + 1);
    }
    return true;
}

GATEWAY_DECL result<void> collect_deps(boost::json::object const& types, std::string_view name,
                                       std::set<std::string, std::less<>>& seen) {
    auto members = struct_members(types, name);
    if (!members)
        return members.error();
    for (auto const& m : *members) {
        std::string_view const base = base_type(m.type);
        std::string const where = "types." + std::string(name) + "." + std::string(m.name);
        if (!valid_array_suffix(m.type.substr(base.size())))
            return eip712_error(where, "has a malformed array type '" + std::string(m.type) + "'.");
        if (types.contains(base)) {
            if (seen.insert(std::string(base)).second) {
                auto r = collect_deps(types, base, seen);
                if (!r)
                    return r;
            }
        } else if (!is_atomic_or_dynamic(base)) {
            return eip712_error(where, "has unknown type '" + std::string(m.type) + "'.");
        }
    }
    return {};
}

GATEWAY_DECL result<std::string> encode_one_struct(boost::json::object const& types,
                                                   std::string_view name) {
    auto members = struct_members(types, name);
    if (!members)
        return members.error();
    std::string out(name);
    out.push_back('(');
    for (std::size_t i = 0; i < members->size(); ++i) {
        if (i)
            out.push_back(',');
        out.append((*members)[i].type);
        out.push_back(' ');
        out.append((*members)[i].name);
    }
    out.push_back(')');
    return out;
}

inline constexpr unsigned eip712_max_depth = 64;

GATEWAY_DECL result<hash256> hash_struct_at(boost::json::object const& types, std::string_view type,
                                            boost::json::value const& data, std::string const& path,
                                            unsigned depth);

GATEWAY_DECL result<hash256> encode_integer(std::string_view type, unsigned bits, bool is_signed,
                                            boost::json::value const& v, std::string const& path) {
    auto bad = [&](std::string const& why) {
        return eip712_error(path, "must be a " + std::string(type) + " (" + why + ").");
    };
    bool negative = false;
    hash256 mag{};
    switch (v.kind()) {
    case boost::json::kind::int64: {
        std::int64_t const i = v.get_int64();
        negative = i < 0;
        mag = u256_from_u64(negative ? 0 - static_cast<std::uint64_t>(i)
                                     : static_cast<std::uint64_t>(i));
        break;
    }
    case boost::json::kind::uint64:
        mag = u256_from_u64(v.get_uint64());
        break;
    case boost::json::kind::double_: {
        double const d = v.get_double();
        // Only integers a double holds exactly; larger values must be strings.
        if (!std::isfinite(d) || std::trunc(d) != d || std::fabs(d) > 9007199254740992.0)
            return bad("a non-integer or inexact number; send large values as strings");
        negative = d < 0;
        mag = u256_from_u64(static_cast<std::uint64_t>(std::fabs(d)));
        break;
    }
    case boost::json::kind::string: {
        std::string_view s = v.get_string();
        if (!s.empty() && s.front() == '-') {
            negative = true;
            s.remove_prefix(1);
        }
        auto parsed = parse_uint256(s, path);
        if (!parsed)
            return bad("a decimal or 0x-hex integer string");
        mag = *parsed;
        break;
    }
    default:
        return bad("a number or an integer string");
    }
    bool const zero = u256_bit_length(mag) == 0;
    if (negative && !zero && !is_signed)
        return bad("negative value for an unsigned type");
    unsigned const len = u256_bit_length(mag);
    bool const fits = !is_signed ? len <= bits
                      : negative ? (len <= bits - 1 || (len == bits && u256_is_power_of_two(mag)))
                                 : len <= bits - 1;
    if (!fits)
        return bad("out of range");
    if (negative)
        u256_negate(mag);
    return mag;
}

GATEWAY_DECL result<hash256> encode_field(boost::json::object const& types, std::string_view type,
                                          boost::json::value const& v, std::string const& path,
                                          unsigned depth) {
    if (depth > eip712_max_depth)
        return eip712_error(path, "nests deeper than 64 levels.");
    // Arrays: the last dimension is the outer one (`T[2][]` is a dynamic array of `T[2]`).
    if (!type.empty() && type.back() == ']') {
        auto const open = type.rfind('[');
        std::string_view const elem = type.substr(0, open);
        std::string_view const dim = type.substr(open + 1, type.size() - open - 2);
        auto const* arr = v.if_array();
        if (!arr)
            return eip712_error(path, "must be an array (" + std::string(type) + ").");
        if (!dim.empty()) {
            std::size_t n = 0;
            auto const [p, ec] = std::from_chars(dim.data(), dim.data() + dim.size(), n);
            if (ec != std::errc() || p != dim.data() + dim.size())
                return eip712_error(path,
                                    "has a malformed array type '" + std::string(type) + "'.");
            if (arr->size() != n)
                return eip712_error(path, "must have exactly " + std::to_string(n) + " elements (" +
                                              std::string(type) + ").");
        }
        bytes concat;
        concat.reserve(arr->size() * 32);
        for (std::size_t i = 0; i < arr->size(); ++i) {
            auto word = encode_field(types, elem, (*arr)[i], path + "[" + std::to_string(i) + "]",
                                     depth + 1);
            if (!word)
                return word.error();
            concat.insert(concat.end(), word->begin(), word->end());
        }
        return keccak256(concat);
    }
    if (types.contains(type)) {
        if (v.is_null())
            return hash256{}; // eth-sig-util v4: a null struct encodes as zero
        return hash_struct_at(types, type, v, path, depth + 1);
    }
    if (type == "string") {
        if (!v.is_string())
            return eip712_error(path, "must be a string.");
        return keccak256(std::string_view(v.get_string()));
    }
    if (type == "bytes") {
        auto const* s = v.if_string();
        if (!s || !std::string_view(*s).starts_with("0x"))
            return eip712_error(path, "must be 0x-prefixed hex (bytes).");
        auto raw = from_hex(*s, path);
        if (!raw)
            return eip712_error(path, "must be 0x-prefixed hex (bytes).");
        return keccak256(*raw);
    }
    if (type == "bool") {
        if (!v.is_bool())
            return eip712_error(path, "must be true or false (bool).");
        return u256_from_u64(v.get_bool() ? 1 : 0);
    }
    if (type == "address") {
        auto const* s = v.if_string();
        if (!s || s->size() != 42 || !std::string_view(*s).starts_with("0x"))
            return eip712_error(path, "must be an address: 0x followed by 40 hex digits.");
        auto raw = from_hex_array<20>(*s, path);
        if (!raw)
            return eip712_error(path, "must be an address: 0x followed by 40 hex digits.");
        hash256 out{};
        std::copy(raw->begin(), raw->end(), out.begin() + 12);
        return out;
    }
    if (unsigned const n = fixed_bytes_size(type)) {
        auto const* s = v.if_string();
        auto bad = [&] {
            return eip712_error(path, "must be 0x + " + std::to_string(2 * n) + " hex digits (" +
                                          std::string(type) + ").");
        };
        if (!s || !std::string_view(*s).starts_with("0x"))
            return bad();
        auto raw = from_hex(*s, path);
        if (!raw || raw->size() != n)
            return bad();
        hash256 out{};
        std::copy(raw->begin(), raw->end(), out.begin()); // right-padded with zeros
        return out;
    }
    bool is_signed = false;
    if (unsigned const bits = int_type_bits(type, is_signed))
        return encode_integer(type, bits, is_signed, v, path);
    return eip712_error(path, "has unknown type '" + std::string(type) + "'.");
}

GATEWAY_DECL result<bytes> encode_data_at(boost::json::object const& types, std::string_view type,
                                          boost::json::value const& data, std::string const& path,
                                          unsigned depth) {
    auto th = eip712::type_hash(types, type);
    if (!th)
        return th.error();
    auto members = struct_members(types, type);
    if (!members)
        return members.error();
    auto const* obj = data.if_object();
    if (!obj)
        return eip712_error(path, "must be an object (" + std::string(type) + ").");
    bytes out(th->begin(), th->end());
    out.reserve(32 * (members->size() + 1));
    for (auto const& m : *members) {
        std::string const where = path + "." + std::string(m.name);
        auto const* v = obj->if_contains(m.name);
        if (!v)
            return eip712_error(where, "is missing (" + std::string(m.type) + " " +
                                           std::string(m.name) + " of " + std::string(type) + ").");
        auto word = encode_field(types, m.type, *v, where, depth);
        if (!word)
            return word.error();
        out.insert(out.end(), word->begin(), word->end());
    }
    return out;
}

GATEWAY_DECL result<hash256> hash_struct_at(boost::json::object const& types, std::string_view type,
                                            boost::json::value const& data, std::string const& path,
                                            unsigned depth) {
    auto enc = encode_data_at(types, type, data, path, depth);
    if (!enc)
        return enc.error();
    return keccak256(*enc);
}

struct typed_data_parts {
    boost::json::object const* types = nullptr;
    std::string_view primary;
    boost::json::value const* domain = nullptr;
    boost::json::value const* message = nullptr;
};

GATEWAY_DECL result<typed_data_parts> split_typed_data(boost::json::value const& td) {
    auto const* o = td.if_object();
    if (!o)
        return eip712_error("typedData", "must be an object (eth_signTypedData_v4).");
    typed_data_parts p;
    auto const* types = o->if_contains("types");
    if (!types || !types->is_object())
        return eip712_error("typedData.types", "must be an object.");
    p.types = &types->get_object();
    auto const* primary = o->if_contains("primaryType");
    if (!primary || !primary->is_string())
        return eip712_error("typedData.primaryType", "must be a string.");
    p.primary = primary->get_string();
    p.domain = o->if_contains("domain");
    if (!p.domain || !p.domain->is_object())
        return eip712_error("typedData.domain", "must be an object.");
    p.message = o->if_contains("message");
    if (p.primary != "EIP712Domain" && (!p.message || !p.message->is_object()))
        return eip712_error("typedData.message", "must be an object.");
    return p;
}

GATEWAY_DECL result<hash256> domain_separator_of(typed_data_parts const& p) {
    if (p.types->contains("EIP712Domain"))
        return hash_struct_at(*p.types, "EIP712Domain", *p.domain, "domain", 0);
    // Infer the domain type from the members present, in the EIP's order.
    static constexpr std::pair<char const*, char const*> canonical[] = {
        {"name", "string"},     {"version", "string"},
        {"chainId", "uint256"}, {"verifyingContract", "address"},
        {"salt", "bytes32"},
    };
    boost::json::array fields;
    for (auto const& [name, type] : canonical)
        if (p.domain->get_object().contains(name))
            fields.push_back(boost::json::object{{"name", name}, {"type", type}});
    boost::json::object types = *p.types;
    types["EIP712Domain"] = std::move(fields);
    return hash_struct_at(types, "EIP712Domain", *p.domain, "domain", 0);
}

} // namespace detail

GATEWAY_DECL result<hash256> parse_uint256(std::string_view text, std::string_view field) {
    auto bad = [&] {
        return field_error(field, "'" + std::string(field) +
                                      "' must be a non-negative integer below 2^256 (decimal "
                                      "digits or 0x hex).");
    };
    hash256 out{};
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        for (char c : text.substr(2)) {
            int const d = util::hex_value(c);
            if (d < 0 || !detail::u256_mul_add(out, 16, static_cast<unsigned>(d)))
                return bad();
        }
        return out;
    }
    if (text.empty())
        return bad();
    for (char c : text) {
        if (c < '0' || c > '9' || !detail::u256_mul_add(out, 10, static_cast<unsigned>(c - '0')))
            return bad();
    }
    return out;
}

namespace eip712 {

GATEWAY_DECL result<std::string> encode_type(boost::json::object const& types,
                                             std::string_view primary_type) {
    std::set<std::string, std::less<>> deps;
    deps.insert(std::string(primary_type));
    auto r = detail::collect_deps(types, primary_type, deps);
    if (!r)
        return r.error();
    auto out = detail::encode_one_struct(types, primary_type);
    if (!out)
        return out;
    // std::set iterates in byte order, which is the EIP's "sorted by name".
    for (auto const& name : deps) {
        if (name == primary_type)
            continue;
        auto one = detail::encode_one_struct(types, name);
        if (!one)
            return one;
        out->append(*one);
    }
    return out;
}

GATEWAY_DECL result<hash256> type_hash(boost::json::object const& types,
                                       std::string_view primary_type) {
    auto enc = encode_type(types, primary_type);
    if (!enc)
        return enc.error();
    return keccak256(std::string_view(*enc));
}

GATEWAY_DECL result<bytes> encode_data(boost::json::object const& types,
                                       std::string_view primary_type,
                                       boost::json::value const& data, std::string_view path) {
    return detail::encode_data_at(types, primary_type, data, std::string(path), 0);
}

GATEWAY_DECL result<hash256> hash_struct(boost::json::object const& types,
                                         std::string_view primary_type,
                                         boost::json::value const& data, std::string_view path) {
    return detail::hash_struct_at(types, primary_type, data, std::string(path), 0);
}

GATEWAY_DECL result<hash256> domain_separator(boost::json::value const& typed_data) {
    auto parts = detail::split_typed_data(typed_data);
    if (!parts)
        return parts.error();
    return detail::domain_separator_of(*parts);
}

GATEWAY_DECL result<hash256> hash_typed_data(boost::json::value const& typed_data) {
    auto parts = detail::split_typed_data(typed_data);
    if (!parts)
        return parts.error();
    auto ds = detail::domain_separator_of(*parts);
    if (!ds)
        return ds.error();
    bytes buf{0x19, 0x01};
    buf.insert(buf.end(), ds->begin(), ds->end());
    if (parts->primary != "EIP712Domain") {
        auto sh =
            detail::hash_struct_at(*parts->types, parts->primary, *parts->message, "message", 0);
        if (!sh)
            return sh.error();
        buf.insert(buf.end(), sh->begin(), sh->end());
    }
    return keccak256(buf);
}

GATEWAY_DECL result<signature> sign_typed_data(boost::json::value const& typed_data,
                                               private_key const& key) {
    auto digest = hash_typed_data(typed_data);
    if (!digest)
        return digest.error();
    return sign_digest(*digest, key);
}

GATEWAY_DECL result<std::string> sign_typed_data_hex(boost::json::value const& typed_data,
                                                     private_key const& key) {
    auto sig = sign_typed_data(typed_data, key);
    if (!sig)
        return sig.error();
    return signature_to_hex(*sig);
}

GATEWAY_DECL result<address> recover_typed_data(boost::json::value const& typed_data,
                                                std::span<std::uint8_t const> sig) {
    auto digest = hash_typed_data(typed_data);
    if (!digest)
        return digest.error();
    return recover(*digest, sig);
}

} // namespace eip712
} // namespace gateway::sign
