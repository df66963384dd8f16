#pragma once

#include <gateway/sign/eip712.hpp>
#include <gateway/sign/hmac.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/util/ascii.hpp>

#include <boost/json/array.hpp>

#include <openssl/crypto.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <utility>

namespace gateway::sign::gamma {

namespace detail {

inline constexpr std::string_view exchange_domain_name = "Polymarket CTF Exchange";
inline constexpr std::string_view clob_auth_domain_name = "ClobAuthDomain";
inline constexpr std::string_view domain_version = "1";
inline constexpr std::string_view exchange_domain_type =
    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
inline constexpr std::string_view clob_auth_domain_type =
    "EIP712Domain(string name,string version,uint256 chainId)";
inline constexpr std::string_view order_type =
    "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,"
    "uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,"
    "uint256 feeRateBps,uint8 side,uint8 signatureType)";
inline constexpr std::string_view clob_auth_type =
    "ClobAuth(address address,string timestamp,uint256 nonce,string message)";

/// A buffer of `N` 32-byte ABI words, filled slot by slot.
template <std::size_t N>
struct words {
    std::array<std::uint8_t, N * 32> buf{};

    void put(std::size_t slot, hash256 const& h) {
        std::copy(h.begin(), h.end(), buf.begin() + static_cast<std::ptrdiff_t>(slot * 32));
    }
    void put(std::size_t slot, std::uint64_t v) { // uint256 big-endian
        for (std::size_t i = 0; i < 8; ++i)
            buf[slot * 32 + 31 - i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xff);
    }
    void put(std::size_t slot, address const& a) { // left-padded to 32 bytes
        auto const raw = address_bytes(a);
        std::copy(raw.begin(), raw.end(),
                  buf.begin() + static_cast<std::ptrdiff_t>(slot * 32 + 12));
    }
    hash256 hash() const { return keccak256(std::span<std::uint8_t const>(buf)); }
};

/// `tokenId` as a uint256 word: decimal digits only (the wire never carries hex), < 2^256.
GATEWAY_DECL std::optional<hash256> token_word(std::string_view text) {
    if (text.empty() || !gateway::detail::all_digits(text))
        return std::nullopt;
    auto w = parse_uint256(text, "tokenId");
    if (!w)
        return std::nullopt;
    return *w;
}

GATEWAY_DECL api_error token_id_error() {
    return field_error("tokenId", "'tokenId' must be the token's decimal id (below 2^256).");
}

GATEWAY_DECL hash256 compute_order_domain(address const& exchange, std::uint64_t chain) {
    static hash256 const type_hash = keccak256(exchange_domain_type);
    static hash256 const name_hash = keccak256(exchange_domain_name);
    static hash256 const version_hash = keccak256(domain_version);
    words<5> w;
    w.put(0, type_hash);
    w.put(1, name_hash);
    w.put(2, version_hash);
    w.put(3, chain);
    w.put(4, exchange);
    return w.hash();
}

GATEWAY_DECL hash256 eip712_digest(hash256 const& domain, hash256 const& struct_hash) {
    std::array<std::uint8_t, 66> outer{};
    outer[0] = 0x19;
    outer[1] = 0x01;
    std::copy(domain.begin(), domain.end(), outer.begin() + 2);
    std::copy(struct_hash.begin(), struct_hash.end(), outer.begin() + 34);
    return keccak256(std::span<std::uint8_t const>(outer));
}

/// `[{"name":..,"type":..},...]` of a `types` entry.
GATEWAY_DECL boost::json::array
type_fields(std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    boost::json::array out;
    for (auto const& [name, type] : fields) {
        boost::json::object f;
        f["name"] = name;
        f["type"] = type;
        out.push_back(std::move(f));
    }
    return out;
}

GATEWAY_DECL boost::json::value typed_data_of(boost::json::object types, std::string_view primary,
                                              boost::json::object domain,
                                              boost::json::object message) {
    boost::json::object out;
    out["types"] = std::move(types);
    out["primaryType"] = primary;
    out["domain"] = std::move(domain);
    out["message"] = std::move(message);
    return out;
}

GATEWAY_DECL api_error member_error(std::string_view member, std::string_view what) {
    return field_error(member, "'" + std::string(member) + "' of the order " + std::string(what));
}

/// A non-negative integer member that must fit 64 bits: a JSON integer or decimal digits.
GATEWAY_DECL result<std::uint64_t>
wire_u64(boost::json::object const& o, std::string_view member,
         std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    auto const* v = o.if_contains(member);
    if (v == nullptr)
        return member_error(member, "is required.");
    std::optional<std::uint64_t> n;
    if (v->is_uint64())
        n = v->get_uint64();
    else if (v->is_int64() && v->get_int64() >= 0)
        n = static_cast<std::uint64_t>(v->get_int64());
    else if (v->is_string()) {
        std::string_view const t = v->get_string();
        std::uint64_t x = 0;
        auto const [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
        if (!t.empty() && gateway::detail::all_digits(t) && ec == std::errc() &&
            end == t.data() + t.size())
            n = x;
    }
    if (!n || *n > max)
        return member_error(member, "must be a non-negative integer up to " + std::to_string(max) +
                                        " (a number or decimal string).");
    return *n;
}

GATEWAY_DECL result<address> wire_address(boost::json::object const& o, std::string_view member) {
    auto const* v = o.if_contains(member);
    if (v == nullptr)
        return member_error(member, "is required.");
    if (!v->is_string())
        return member_error(member, "must be an address string.");
    return address::parse(v->get_string(), member);
}

/// Moves `from` into `to` (which must be empty) and leaves no copy of its bytes in `from`: a
/// short string's characters stay in its inline buffer after a plain move or swap.
GATEWAY_DECL void move_wiping(std::string& to, std::string& from) noexcept {
    std::size_t const n = from.size();
    to.swap(from); // `from` now holds `to`'s old, empty, buffer
    if (n != 0 && n <= from.capacity()) {
        from.resize(n); // no allocation: overwrites what a short string left behind with zeros
        OPENSSL_cleanse(from.data(), n);
    }
    from.clear();
}

GATEWAY_DECL void wipe(std::string& s) noexcept {
    if (!s.empty())
        OPENSSL_cleanse(s.data(), s.size());
    s.clear();
}

} // namespace detail

GATEWAY_DECL address ctf_exchange() {
    static address const a = *address::parse("0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E");
    return a;
}

GATEWAY_DECL address neg_risk_ctf_exchange() {
    static address const a = *address::parse("0xC5d563A36AE78145C45a50134d48A1215220f80a");
    return a;
}

GATEWAY_DECL address exchange_for(bool neg_risk) {
    return neg_risk ? neg_risk_ctf_exchange() : ctf_exchange();
}

GATEWAY_DECL std::string_view to_string(order_side s) noexcept {
    return s == order_side::sell ? "SELL" : "BUY";
}

// ---- Order ---------------------------------------------------------------------------------

GATEWAY_DECL hash256 order_domain_separator(address const& exchange, std::uint64_t chain_id) {
    // The gateway's two domains are computed once; others (tests, Amoy) on demand.
    static hash256 const ctf = detail::compute_order_domain(ctf_exchange(), polygon_chain_id);
    static hash256 const neg =
        detail::compute_order_domain(neg_risk_ctf_exchange(), polygon_chain_id);
    if (chain_id == polygon_chain_id) {
        if (exchange == ctf_exchange())
            return ctf;
        if (exchange == neg_risk_ctf_exchange())
            return neg;
    }
    return detail::compute_order_domain(exchange, chain_id);
}

GATEWAY_DECL hash256 order_struct_hash(order const& o) {
    static hash256 const type_hash = keccak256(detail::order_type);
    detail::words<13> w;
    w.put(0, type_hash);
    w.put(1, o.salt);
    w.put(2, o.maker);
    w.put(3, o.signer);
    w.put(4, o.taker);
    w.put(5, detail::token_word(o.token_id).value_or(hash256{}));
    w.put(6, o.maker_amount);
    w.put(7, o.taker_amount);
    w.put(8, o.expiration);
    w.put(9, o.nonce);
    w.put(10, o.fee_rate_bps);
    w.put(11, static_cast<std::uint64_t>(o.side));
    w.put(12, static_cast<std::uint64_t>(o.signature_type));
    return w.hash();
}

GATEWAY_DECL hash256 order_digest(order const& o, address const& exchange, std::uint64_t chain_id) {
    return detail::eip712_digest(order_domain_separator(exchange, chain_id), order_struct_hash(o));
}

GATEWAY_DECL boost::json::value order_typed_data(order const& o, address const& exchange,
                                                 std::uint64_t chain_id) {
    boost::json::object types;
    types["EIP712Domain"] = detail::type_fields({{"name", "string"},
                                                 {"version", "string"},
                                                 {"chainId", "uint256"},
                                                 {"verifyingContract", "address"}});
    types["Order"] = detail::type_fields({{"salt", "uint256"},
                                          {"maker", "address"},
                                          {"signer", "address"},
                                          {"taker", "address"},
                                          {"tokenId", "uint256"},
                                          {"makerAmount", "uint256"},
                                          {"takerAmount", "uint256"},
                                          {"expiration", "uint256"},
                                          {"nonce", "uint256"},
                                          {"feeRateBps", "uint256"},
                                          {"side", "uint8"},
                                          {"signatureType", "uint8"}});
    boost::json::object domain;
    domain["name"] = detail::exchange_domain_name;
    domain["version"] = detail::domain_version;
    domain["chainId"] = chain_id;
    domain["verifyingContract"] = exchange.str();
    boost::json::object message;
    message["salt"] = std::to_string(o.salt);
    message["maker"] = o.maker.str();
    message["signer"] = o.signer.str();
    message["taker"] = o.taker.str();
    message["tokenId"] = o.token_id;
    message["makerAmount"] = std::to_string(o.maker_amount);
    message["takerAmount"] = std::to_string(o.taker_amount);
    message["expiration"] = std::to_string(o.expiration);
    message["nonce"] = std::to_string(o.nonce);
    message["feeRateBps"] = std::to_string(o.fee_rate_bps);
    message["side"] = static_cast<std::uint64_t>(o.side);
    message["signatureType"] = static_cast<std::uint64_t>(o.signature_type);
    return detail::typed_data_of(std::move(types), "Order", std::move(domain), std::move(message));
}

GATEWAY_DECL std::string sign_order(order const& o, address const& exchange, private_key const& key,
                                    std::uint64_t chain_id) {
    return signature_to_hex(sign_digest(order_digest(o, exchange, chain_id), key));
}

GATEWAY_DECL result<address> recover_order(order const& o, address const& exchange,
                                           std::string_view signature, std::uint64_t chain_id) {
    if (!detail::token_word(o.token_id))
        return detail::token_id_error();
    auto sig = wire_signature(signature, "signature");
    if (!sig)
        return sig.error();
    return recover(order_digest(o, exchange, chain_id), *sig);
}

GATEWAY_DECL boost::json::object order_wire(order const& o, std::string_view signature) {
    boost::json::object w;
    w["salt"] = o.salt;
    w["maker"] = o.maker.str();
    w["signer"] = o.signer.str();
    w["taker"] = o.taker.str();
    w["tokenId"] = o.token_id;
    w["makerAmount"] = std::to_string(o.maker_amount);
    w["takerAmount"] = std::to_string(o.taker_amount);
    w["expiration"] = std::to_string(o.expiration);
    w["nonce"] = std::to_string(o.nonce);
    w["feeRateBps"] = std::to_string(o.fee_rate_bps);
    w["side"] = to_string(o.side);
    w["signatureType"] = static_cast<std::uint64_t>(o.signature_type);
    w["signature"] = signature;
    return w;
}

GATEWAY_DECL result<order> parse_order_wire(boost::json::value const& v) {
    auto const* obj = v.if_object();
    if (obj == nullptr)
        return field_error("order", "'order' must be a JSON object.");
    order o;
    auto salt = detail::wire_u64(*obj, "salt");
    if (!salt)
        return salt.error();
    o.salt = *salt;
    for (auto [member, target] : {std::pair{std::string_view("maker"), &o.maker},
                                  std::pair{std::string_view("signer"), &o.signer},
                                  std::pair{std::string_view("taker"), &o.taker}}) {
        auto a = detail::wire_address(*obj, member);
        if (!a)
            return a.error();
        *target = std::move(*a);
    }
    auto const* token = obj->if_contains("tokenId");
    if (token == nullptr)
        return detail::member_error("tokenId", "is required.");
    if (token->is_string())
        o.token_id = std::string(token->get_string());
    else if (token->is_uint64())
        o.token_id = std::to_string(token->get_uint64());
    else if (token->is_int64() && token->get_int64() >= 0)
        o.token_id = std::to_string(token->get_int64());
    if (!detail::token_word(o.token_id))
        return detail::token_id_error();
    for (auto [member, target] : {std::pair{std::string_view("makerAmount"), &o.maker_amount},
                                  std::pair{std::string_view("takerAmount"), &o.taker_amount},
                                  std::pair{std::string_view("expiration"), &o.expiration},
                                  std::pair{std::string_view("nonce"), &o.nonce},
                                  std::pair{std::string_view("feeRateBps"), &o.fee_rate_bps}}) {
        auto n = detail::wire_u64(*obj, member);
        if (!n)
            return n.error();
        *target = *n;
    }
    auto const* side = obj->if_contains("side");
    if (side == nullptr)
        return detail::member_error("side", "is required.");
    if (side->is_string() && util::iequals(side->get_string(), "BUY"))
        o.side = order_side::buy;
    else if (side->is_string() && util::iequals(side->get_string(), "SELL"))
        o.side = order_side::sell;
    else
        return detail::member_error("side", R"(must be "BUY" or "SELL".)");
    auto type = detail::wire_u64(*obj, "signatureType", 255);
    if (!type)
        return type.error();
    o.signature_type = static_cast<std::uint8_t>(*type);
    return o;
}

// ---- ClobAuth ------------------------------------------------------------------------------

GATEWAY_DECL hash256 clob_auth_digest(address const& wallet, std::string_view timestamp,
                                      std::uint64_t nonce, std::uint64_t chain_id) {
    static hash256 const domain_type_hash = keccak256(detail::clob_auth_domain_type);
    static hash256 const name_hash = keccak256(detail::clob_auth_domain_name);
    static hash256 const version_hash = keccak256(detail::domain_version);
    static hash256 const type_hash = keccak256(detail::clob_auth_type);
    static hash256 const message_hash = keccak256(clob_auth_message);
    detail::words<4> domain;
    domain.put(0, domain_type_hash);
    domain.put(1, name_hash);
    domain.put(2, version_hash);
    domain.put(3, chain_id);
    detail::words<5> s;
    s.put(0, type_hash);
    s.put(1, wallet);
    s.put(2, keccak256(timestamp));
    s.put(3, nonce);
    s.put(4, message_hash);
    return detail::eip712_digest(domain.hash(), s.hash());
}

GATEWAY_DECL boost::json::value clob_auth_typed_data(address const& wallet,
                                                     std::string_view timestamp,
                                                     std::uint64_t nonce, std::uint64_t chain_id) {
    boost::json::object types;
    types["EIP712Domain"] =
        detail::type_fields({{"name", "string"}, {"version", "string"}, {"chainId", "uint256"}});
    types["ClobAuth"] = detail::type_fields({{"address", "address"},
                                             {"timestamp", "string"},
                                             {"nonce", "uint256"},
                                             {"message", "string"}});
    boost::json::object domain;
    domain["name"] = detail::clob_auth_domain_name;
    domain["version"] = detail::domain_version;
    domain["chainId"] = chain_id;
    boost::json::object message;
    message["address"] = wallet.str();
    message["timestamp"] = timestamp;
    message["nonce"] = nonce;
    message["message"] = clob_auth_message;
    return detail::typed_data_of(std::move(types), "ClobAuth", std::move(domain),
                                 std::move(message));
}

GATEWAY_DECL std::string sign_clob_auth(private_key const& key, std::string_view timestamp,
                                        std::uint64_t nonce, std::uint64_t chain_id) {
    return signature_to_hex(
        sign_digest(clob_auth_digest(address_of(key), timestamp, nonce, chain_id), key));
}

GATEWAY_DECL result<address> recover_clob_auth(address const& claimed, std::string_view timestamp,
                                               std::uint64_t nonce, std::string_view signature,
                                               std::uint64_t chain_id) {
    auto sig = wire_signature(signature, "signature");
    if (!sig)
        return sig.error();
    return recover(clob_auth_digest(claimed, timestamp, nonce, chain_id), *sig);
}

// ---- L2 ------------------------------------------------------------------------------------

GATEWAY_DECL credentials::credentials(std::string api_key, std::string secret,
                                      std::string passphrase) {
    detail::move_wiping(api_key_, api_key);
    detail::move_wiping(secret_, secret);
    detail::move_wiping(passphrase_, passphrase);
}

GATEWAY_DECL credentials::credentials(credentials&& other) noexcept {
    detail::move_wiping(api_key_, other.api_key_);
    detail::move_wiping(secret_, other.secret_);
    detail::move_wiping(passphrase_, other.passphrase_);
}

GATEWAY_DECL credentials& credentials::operator=(credentials&& other) noexcept {
    if (this != &other) {
        detail::wipe(api_key_);
        detail::wipe(secret_);
        detail::wipe(passphrase_);
        detail::move_wiping(api_key_, other.api_key_);
        detail::move_wiping(secret_, other.secret_);
        detail::move_wiping(passphrase_, other.passphrase_);
    }
    return *this;
}

GATEWAY_DECL credentials::~credentials() {
    detail::wipe(api_key_);
    detail::wipe(secret_);
    detail::wipe(passphrase_);
}

GATEWAY_DECL result<std::vector<l2_header>>
l2_headers(credentials const& creds, address const& wallet, std::int64_t timestamp_s,
           std::string_view method, std::string_view path, std::string_view body) {
    std::string timestamp = std::to_string(timestamp_s);
    auto sig = build_l2_signature(creds.secret(), timestamp, method, path, body);
    if (!sig)
        return sig.error();
    std::vector<l2_header> out;
    out.reserve(5);
    out.push_back({"POLY_ADDRESS", wallet.str()});
    out.push_back({"POLY_SIGNATURE", std::move(*sig)});
    out.push_back({"POLY_TIMESTAMP", std::move(timestamp)});
    out.push_back({"POLY_API_KEY", std::string(creds.api_key())});
    out.push_back({"POLY_PASSPHRASE", std::string(creds.passphrase())});
    return out;
}

} // namespace gateway::sign::gamma
