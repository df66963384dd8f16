#pragma once

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace gateway::sign::alpha {

namespace detail {

using gateway::sign::detail::put_be;

inline constexpr std::string_view zero_address = "0x0000000000000000000000000000000000000000";

GATEWAY_DECL boost::json::array domain_type_fields() {
    return boost::json::array{
        boost::json::object{{"name", "name"}, {"type", "string"}},
        boost::json::object{{"name", "version"}, {"type", "string"}},
        boost::json::object{{"name", "chainId"}, {"type", "uint256"}},
        boost::json::object{{"name", "verifyingContract"}, {"type", "address"}},
    };
}

struct user_signed_schema {
    std::string_view action_type;
    std::string_view primary_type;
    std::span<user_signed_field const> fields;
};

inline constexpr user_signed_field approve_agent_fields[] = {
    {"string", "hyperliquidChain"},
    {"address", "agentAddress"},
    {"string", "agentName"},
    {"uint64", "nonce"},
};
inline constexpr user_signed_field usd_send_fields[] = {
    {"string", "hyperliquidChain"},
    {"string", "destination"},
    {"string", "amount"},
    {"uint64", "time"},
};
inline constexpr user_signed_field spot_send_fields[] = {
    {"string", "hyperliquidChain"}, {"string", "destination"}, {"string", "token"},
    {"string", "amount"},           {"uint64", "time"},
};
inline constexpr user_signed_field usd_class_transfer_fields[] = {
    {"string", "hyperliquidChain"},
    {"string", "amount"},
    {"bool", "toPerp"},
    {"uint64", "nonce"},
};
inline constexpr user_signed_field approve_builder_fee_fields[] = {
    {"string", "hyperliquidChain"},
    {"string", "maxFeeRate"},
    {"address", "builder"},
    {"uint64", "nonce"},
};
inline constexpr user_signed_field send_asset_fields[] = {
    {"string", "hyperliquidChain"}, {"string", "destination"}, {"string", "sourceDex"},
    {"string", "destinationDex"},   {"string", "token"},       {"string", "amount"},
    {"string", "fromSubAccount"},   {"uint64", "nonce"},
};

GATEWAY_DECL user_signed_schema const* find_user_signed_schema(std::string_view type) noexcept {
    static constexpr user_signed_schema table[] = {
        {"approveAgent", "HyperliquidTransaction:ApproveAgent", approve_agent_fields},
        {"usdSend", "HyperliquidTransaction:UsdSend", usd_send_fields},
        {"withdraw3", "HyperliquidTransaction:Withdraw", usd_send_fields},
        {"spotSend", "HyperliquidTransaction:SpotSend", spot_send_fields},
        {"usdClassTransfer", "HyperliquidTransaction:UsdClassTransfer", usd_class_transfer_fields},
        {"approveBuilderFee", "HyperliquidTransaction:ApproveBuilderFee",
         approve_builder_fee_fields},
        {"sendAsset", "HyperliquidTransaction:SendAsset", send_asset_fields},
    };
    for (auto const& row : table)
        if (row.action_type == type)
            return &row;
    return nullptr;
}

// ------------------------------------------------------------------------------------------
// Exact decimal arithmetic for §5.5 (value = digits * 10^-scale; no binary floating point).

struct plain_decimal {
    bool negative = false;
    std::string digits; ///< no leading zeros; empty = zero
    unsigned scale = 0;
};

GATEWAY_DECL void strip_leading_zeros(std::string& digits) {
    auto const nz = digits.find_first_not_of('0');
    digits.erase(0, nz == std::string::npos ? digits.size() : nz);
}

/// Drops zeros after the point (the value is unchanged).
GATEWAY_DECL void strip_trailing_zeros(plain_decimal& d) {
    while (d.scale > 0 && !d.digits.empty() && d.digits.back() == '0') {
        d.digits.pop_back();
        --d.scale;
    }
    if (d.digits.empty())
        d.scale = 0;
}

/// `-?digits(.digits)?`.
GATEWAY_DECL std::optional<plain_decimal> parse_plain(std::string_view text) {
    plain_decimal d;
    if (!text.empty() && text.front() == '-') {
        d.negative = true;
        text.remove_prefix(1);
    }
    auto const dot = text.find('.');
    std::string_view const int_part = text.substr(0, dot);
    std::string_view const frac_part =
        dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
    if (int_part.empty() || (dot != std::string_view::npos && frac_part.empty()))
        return std::nullopt;
    for (std::string_view part : {int_part, frac_part})
        for (char c : part)
            if (c < '0' || c > '9')
                return std::nullopt;
    if (frac_part.size() > 1000 || int_part.size() > 1000)
        return std::nullopt;
    d.digits.assign(int_part).append(frac_part);
    d.scale = static_cast<unsigned>(frac_part.size());
    strip_leading_zeros(d.digits);
    strip_trailing_zeros(d);
    if (d.digits.empty())
        d.negative = false;
    return d;
}

/// Canonical plain text: no exponent, no trailing zeros, `"0"` for zero (never `"-0"`).
GATEWAY_DECL std::string render(plain_decimal d) {
    strip_trailing_zeros(d);
    if (d.digits.empty())
        return "0";
    std::string out = d.negative ? "-" : "";
    if (d.digits.size() <= d.scale) {
        out += "0.";
        out.append(d.scale - d.digits.size(), '0');
        out += d.digits;
    } else {
        std::size_t const int_len = d.digits.size() - d.scale;
        out.append(d.digits, 0, int_len);
        if (d.scale > 0) {
            out.push_back('.');
            out.append(d.digits, int_len, std::string::npos);
        }
    }
    return out;
}

enum class rounding { half_even, toward_zero };

/// What `round_to` dropped: the digits after the kept position and whether it rounded up.
struct rounded {
    plain_decimal value;
    std::string tail;
    bool up = false;
};

/// Rounds to `keep` decimals (negative = tens, hundreds...).
GATEWAY_DECL rounded round_to(plain_decimal const& d, int keep, rounding mode) {
    rounded r{d, {}, false};
    if (keep >= static_cast<int>(d.scale))
        return r;
    std::size_t const drop = static_cast<std::size_t>(static_cast<int>(d.scale) - keep);
    std::string head = d.digits;
    if (head.size() < drop)
        head.insert(0, drop - head.size(), '0');
    r.tail = head.substr(head.size() - drop);
    head.resize(head.size() - drop);
    if (mode == rounding::half_even && !r.tail.empty()) {
        int const first = r.tail.front() - '0';
        bool const rest_zero = r.tail.find_first_not_of('0', 1) == std::string::npos;
        bool const head_odd = !head.empty() && ((head.back() - '0') % 2 == 1);
        r.up = first > 5 || (first == 5 && (!rest_zero || head_odd));
    }
    if (r.up) {
        std::size_t i = head.size();
        while (i > 0 && head[i - 1] == '9')
            head[--i] = '0';
        if (i == 0)
            head.insert(head.begin(), '1');
        else
            ++head[i - 1];
    }
    if (keep < 0) {
        head.append(static_cast<std::size_t>(-keep), '0');
        keep = 0;
    }
    strip_leading_zeros(head);
    r.value.digits = std::move(head);
    r.value.scale = static_cast<unsigned>(keep);
    if (r.value.digits.empty())
        r.value.negative = false;
    return r;
}

/// Whether the rounding `r` moved the value by at least 10^-(keep + tol_digits), `keep` being
/// the decimals it kept. With T the dropped tail of L digits: down moves by T, up by 10^L - T.
GATEWAY_DECL bool moved_at_least(rounded const& r, std::size_t tol_digits) {
    std::string tail = r.tail;
    if (tail.size() < tol_digits)
        tail.append(tol_digits - tail.size(), '0');
    std::string_view const lead = std::string_view(tail).substr(0, tol_digits);
    bool const rest_zero = tail.find_first_not_of('0', tol_digits) == std::string::npos;
    if (!r.up)
        return lead.find_first_not_of('0') != std::string_view::npos;
    return lead.find_first_not_of('9') != std::string_view::npos || rest_zero;
}

GATEWAY_DECL api_error number_error(std::string_view field, std::string const& why) {
    return field_error(field, "'" + std::string(field) + "' " + why);
}

GATEWAY_DECL result<plain_decimal> parse_positive(std::string_view text, std::string_view field) {
    auto d = parse_plain(text);
    if (!d)
        return number_error(field, "must be a plain decimal number (e.g. \"1670.1\").");
    if (d->negative || d->digits.empty())
        return number_error(field, "must be positive.");
    return *d;
}

GATEWAY_DECL int max_price_decimals(unsigned sz_decimals, bool spot) {
    return (spot ? 8 : 6) - static_cast<int>(sz_decimals);
}

} // namespace detail

// ------------------------------------------------------------------------------------------
// L1 actions

GATEWAY_DECL result<bytes> action_hash_input(boost::json::value const& action, std::uint64_t nonce,
                                             l1_options const& options) {
    auto out = msgpack_encode(action);
    if (!out)
        return out;
    detail::put_be(*out, nonce, 8);
    if (options.vault) {
        out->push_back(0x01);
        auto const raw = address_bytes(*options.vault);
        out->insert(out->end(), raw.begin(), raw.end());
    } else {
        out->push_back(0x00);
    }
    if (options.expires_after) {
        out->push_back(0x00);
        detail::put_be(*out, *options.expires_after, 8);
    }
    return out;
}

GATEWAY_DECL result<hash256> action_hash(boost::json::value const& action, std::uint64_t nonce,
                                         l1_options const& options) {
    auto in = action_hash_input(action, nonce, options);
    if (!in)
        return in.error();
    return keccak256(*in);
}

GATEWAY_DECL boost::json::value phantom_agent_typed_data(hash256 const& connection_id,
                                                         bool testnet) {
    boost::json::object types;
    types["EIP712Domain"] = detail::domain_type_fields();
    types["Agent"] = boost::json::array{
        boost::json::object{{"name", "source"}, {"type", "string"}},
        boost::json::object{{"name", "connectionId"}, {"type", "bytes32"}},
    };
    boost::json::object td;
    td["types"] = std::move(types);
    td["primaryType"] = "Agent";
    td["domain"] = boost::json::object{{"name", "Exchange"},
                                       {"version", "1"},
                                       {"chainId", 1337},
                                       {"verifyingContract", detail::zero_address}};
    td["message"] = boost::json::object{{"source", testnet ? "b" : "a"},
                                        {"connectionId", to_hex(connection_id)}};
    return td;
}

GATEWAY_DECL hash256 l1_digest(hash256 const& connection_id, bool testnet) {
    // The typed data above is fixed and valid, so hashing cannot fail.
    return eip712::hash_typed_data(phantom_agent_typed_data(connection_id, testnet)).value();
}

GATEWAY_DECL result<signature> sign_l1_action(boost::json::value const& action, std::uint64_t nonce,
                                              private_key const& key, bool testnet,
                                              l1_options const& options) {
    auto cid = action_hash(action, nonce, options);
    if (!cid)
        return cid.error();
    return sign_digest(l1_digest(*cid, testnet), key);
}

GATEWAY_DECL result<address> recover_l1_signer(boost::json::value const& action,
                                               std::uint64_t nonce,
                                               std::span<std::uint8_t const> sig, bool testnet,
                                               l1_options const& options) {
    auto cid = action_hash(action, nonce, options);
    if (!cid)
        return cid.error();
    return recover(l1_digest(*cid, testnet), sig);
}

// ------------------------------------------------------------------------------------------
// User-signed actions

GATEWAY_DECL result<boost::json::value>
user_signed_typed_data(boost::json::object const& action, std::string_view primary_type,
                       std::span<user_signed_field const> fields) {
    auto const* chain = action.if_contains("signatureChainId");
    std::uint64_t chain_id = 0;
    {
        std::string_view const s = chain && chain->is_string()
                                       ? std::string_view(chain->get_string())
                                       : std::string_view{};
        bool ok = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        if (ok) {
            auto const [p, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), chain_id, 16);
            ok = ec == std::errc() && p == s.data() + s.size() && chain_id != 0;
        }
        if (!ok)
            return field_error("action.signatureChainId",
                               "'action.signatureChainId' must be a 0x-hex chain id (e.g. "
                               "\"0x66eee\").");
    }
    boost::json::array members;
    boost::json::object message;
    for (auto const& f : fields) {
        members.push_back(boost::json::object{{"name", f.name}, {"type", f.type}});
        auto const* v = action.if_contains(f.name);
        if (!v)
            return field_error("action." + std::string(f.name), "'action." + std::string(f.name) +
                                                                    "' is required (" +
                                                                    std::string(f.type) + ").");
        message[f.name] = *v;
    }
    boost::json::object types;
    types["EIP712Domain"] = detail::domain_type_fields();
    types[primary_type] = std::move(members);
    boost::json::object td;
    td["types"] = std::move(types);
    td["primaryType"] = primary_type;
    td["domain"] = boost::json::object{{"name", "HyperliquidSignTransaction"},
                                       {"version", "1"},
                                       {"chainId", chain_id},
                                       {"verifyingContract", detail::zero_address}};
    td["message"] = std::move(message);
    // Validate the values now so errors name the action's field, not the typed data's.
    if (auto h = eip712::hash_typed_data(td); !h) {
        api_error e = h.error();
        std::string field(e.field());
        if (field.starts_with("message.")) {
            field.replace(0, 7, "action");
            e.details["field"] = field;
            if (auto const pos = e.message.find("'message."); pos != std::string::npos)
                e.message.replace(pos + 1, 7, "action");
        }
        return e;
    }
    return boost::json::value(std::move(td));
}

GATEWAY_DECL result<boost::json::value> user_signed_typed_data(boost::json::object const& action) {
    auto const* type = action.if_contains("type");
    auto const* schema =
        type && type->is_string() ? detail::find_user_signed_schema(type->get_string()) : nullptr;
    if (!schema)
        return field_error(
            "action.type",
            "'action.type' is not a user-signed action this SDK knows (approveAgent, "
            "usdSend, withdraw3, spotSend, usdClassTransfer, approveBuilderFee, "
            "sendAsset).");
    if (schema->action_type == "approveAgent" && !action.contains("agentName")) {
        boost::json::object named = action;
        named["agentName"] = "";
        return user_signed_typed_data(named, schema->primary_type, schema->fields);
    }
    return user_signed_typed_data(action, schema->primary_type, schema->fields);
}

GATEWAY_DECL result<signature> sign_user_signed_action(boost::json::object const& action,
                                                       private_key const& key) {
    auto td = user_signed_typed_data(action);
    if (!td)
        return td.error();
    return eip712::sign_typed_data(*td, key);
}

GATEWAY_DECL result<address> recover_user_signed_signer(boost::json::object const& action,
                                                        std::span<std::uint8_t const> sig) {
    auto td = user_signed_typed_data(action);
    if (!td)
        return td.error();
    return eip712::recover_typed_data(*td, sig);
}

// ------------------------------------------------------------------------------------------
// Signature JSON

GATEWAY_DECL boost::json::object signature_to_json(signature const& sig) {
    std::span<std::uint8_t const> const all(sig);
    std::int64_t v = sig[64];
    if (v < 27)
        v += 27;
    return boost::json::object{
        {"r", to_hex(all.subspan(0, 32))}, {"s", to_hex(all.subspan(32, 32))}, {"v", v}};
}

GATEWAY_DECL result<signature> signature_from_json(boost::json::value const& jv,
                                                   std::string_view field) {
    auto fail = [&](std::string const& sub, std::string const& why) {
        std::string const f = sub.empty() ? std::string(field) : std::string(field) + "." + sub;
        return field_error(f, "'" + f + "' " + why, errc::signature_error);
    };
    auto const* o = jv.if_object();
    if (!o)
        return fail("", "must be an object {r, s, v}.");
    signature out{};
    std::size_t offset = 0;
    for (char const* part : {"r", "s"}) {
        auto const* v = o->if_contains(part);
        std::string_view hex = v && v->is_string() ? std::string_view(v->get_string()) : "";
        if (hex.size() < 3 || hex.size() > 66 || hex[0] != '0' || (hex[1] != 'x' && hex[1] != 'X'))
            return fail(part, "must be 0x followed by 1 to 64 hex digits.");
        hex.remove_prefix(2);
        std::string padded(64 - hex.size(), '0');
        padded.append(hex);
        auto raw = from_hex_array<32>(padded, part);
        if (!raw)
            return fail(part, "must be 0x followed by 1 to 64 hex digits.");
        std::copy(raw->begin(), raw->end(), out.begin() + static_cast<std::ptrdiff_t>(offset));
        offset += 32;
    }
    auto const* v = o->if_contains("v");
    std::int64_t vv = -1;
    if (v && v->is_int64())
        vv = v->get_int64();
    else if (v && v->is_uint64() && v->get_uint64() < 256)
        vv = static_cast<std::int64_t>(v->get_uint64());
    if (vv == 0 || vv == 1)
        vv += 27;
    if (vv != 27 && vv != 28)
        return fail("v", "must be 27 or 28.");
    out[64] = static_cast<std::uint8_t>(vv);
    return out;
}

// ------------------------------------------------------------------------------------------
// Numbers (§5.5)

GATEWAY_DECL result<std::string> float_to_wire(std::string_view text, std::string_view field) {
    auto d = detail::parse_plain(text);
    if (!d)
        return detail::number_error(field, "must be a plain decimal number (e.g. \"1670.1\").");
    auto const r = detail::round_to(*d, 8, detail::rounding::half_even);
    // Python: abs(float(f"{x:.8f}") - x) >= 1e-12 -> error; 1e-12 is 4 digits past the 8th.
    if (detail::moved_at_least(r, 4))
        return detail::number_error(field, "has more than 8 decimals.");
    return detail::render(r.value);
}

GATEWAY_DECL result<std::string> float_to_wire(double x, std::string_view field) {
    if (!std::isfinite(x))
        return detail::number_error(field, "must be a finite number.");
    std::array<char, 400> buf{};
    auto const [end, ec] =
        std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::fixed, 8);
    if (ec != std::errc())
        return detail::number_error(field, "is too large.");
    std::string_view const fixed(buf.data(), static_cast<std::size_t>(end - buf.data()));
    double back = 0;
    std::from_chars(fixed.data(), fixed.data() + fixed.size(), back);
    if (std::fabs(back - x) >= 1e-12)
        return detail::number_error(field, "has more than 8 decimals.");
    auto d = detail::parse_plain(fixed);
    if (!d)
        return detail::number_error(field, "must be a finite number.");
    return detail::render(*d);
}

GATEWAY_DECL result<boost::json::value> float_to_int(std::string_view text, unsigned power,
                                                     std::string_view field) {
    auto d = detail::parse_plain(text);
    if (!d)
        return detail::number_error(field, "must be a plain decimal number (e.g. \"1.033\").");
    // Multiply by 10^power: move the point.
    if (d->scale >= power) {
        d->scale -= power;
    } else {
        if (!d->digits.empty())
            d->digits.append(power - d->scale, '0');
        d->scale = 0;
    }
    auto const r = detail::round_to(*d, 0, detail::rounding::half_even);
    if (detail::moved_at_least(r, 3))
        return detail::number_error(field, "has more than " + std::to_string(power) + " decimals.");
    std::string const& digits = r.value.digits;
    if (digits.empty())
        return boost::json::value(std::int64_t{0});
    std::uint64_t mag = 0;
    auto const [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), mag);
    if (ec != std::errc() || p != digits.data() + digits.size())
        return detail::number_error(field, "is out of the 64-bit integer range.");
    if (!r.value.negative) {
        if (mag <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return boost::json::value(static_cast<std::int64_t>(mag));
        return boost::json::value(mag);
    }
    if (mag > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1)
        return detail::number_error(field, "is out of the 64-bit integer range.");
    return boost::json::value(static_cast<std::int64_t>(0 - mag));
}

GATEWAY_DECL result<std::string> check_price(std::string_view price, unsigned sz_decimals,
                                             bool spot, std::string_view field) {
    auto d = detail::parse_positive(price, field);
    if (!d)
        return d.error();
    int const max_dec = detail::max_price_decimals(sz_decimals, spot);
    if (static_cast<int>(d->scale) > std::max(max_dec, 0))
        return detail::number_error(field, "has more than " + std::to_string(std::max(max_dec, 0)) +
                                               " decimals (tick size).");
    if (d->scale > 0 && d->digits.size() > 5)
        return detail::number_error(field, "has more than 5 significant figures (tick size).");
    return detail::render(*d);
}

GATEWAY_DECL result<std::string> check_size(std::string_view size, unsigned sz_decimals,
                                            std::string_view field) {
    auto d = detail::parse_positive(size, field);
    if (!d)
        return d.error();
    if (d->scale > sz_decimals)
        return detail::number_error(field, "has more than " + std::to_string(sz_decimals) +
                                               " decimals (lot size).");
    return detail::render(*d);
}

GATEWAY_DECL result<std::string> round_price(std::string_view price, unsigned sz_decimals,
                                             bool spot, std::string_view field) {
    auto d = detail::parse_positive(price, field);
    if (!d)
        return d.error();
    if (d->scale == 0)
        return detail::render(*d); // integer prices are always allowed
    detail::plain_decimal v = *d;
    if (v.digits.size() > 5) {
        int const keep = static_cast<int>(v.scale) - static_cast<int>(v.digits.size() - 5);
        v = detail::round_to(v, keep, detail::rounding::half_even).value;
    }
    v = detail::round_to(v, detail::max_price_decimals(sz_decimals, spot),
                         detail::rounding::half_even)
            .value;
    if (v.digits.empty())
        return detail::number_error(field, "rounds to zero.");
    return detail::render(v);
}

GATEWAY_DECL result<std::string> round_size(std::string_view size, unsigned sz_decimals,
                                            std::string_view field) {
    auto d = detail::parse_positive(size, field);
    if (!d)
        return d.error();
    auto const r =
        detail::round_to(*d, static_cast<int>(sz_decimals), detail::rounding::toward_zero);
    if (r.value.digits.empty())
        return detail::number_error(field, "rounds down to zero at " + std::to_string(sz_decimals) +
                                               " decimals.");
    return detail::render(r.value);
}

} // namespace gateway::sign::alpha
