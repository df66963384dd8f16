#pragma once

#include <gateway/sign/eip712.hpp>
#include <gateway/util/hex.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>

namespace gateway::sign::beta {

namespace detail {
inline constexpr std::string_view domain_name = "AsterSignTransaction";
inline constexpr std::string_view domain_version = "1";
inline constexpr std::string_view domain_type =
    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
inline constexpr std::string_view message_type = "Message(string msg)";

GATEWAY_DECL hash256 compute_domain_separator(std::uint64_t chain) {
    std::array<std::uint8_t, 5 * 32> buf{};
    auto put = [&](std::size_t slot, hash256 const& h) {
        std::copy(h.begin(), h.end(), buf.begin() + static_cast<std::ptrdiff_t>(slot * 32));
    };
    put(0, keccak256(domain_type));
    put(1, keccak256(domain_name));
    put(2, keccak256(domain_version));
    for (int i = 0; i < 8; ++i) // uint256 big-endian chainId
        buf[3 * 32 + 31 - static_cast<std::size_t>(i)] =
            static_cast<std::uint8_t>((chain >> (8 * i)) & 0xff);
    // verifyingContract: the zero address, left-padded (slot 4 stays zero).
    return keccak256(std::span<std::uint8_t const>(buf));
}
} // namespace detail

GATEWAY_DECL hash256 domain_separator(bool testnet) {
    static hash256 const mainnet = detail::compute_domain_separator(mainnet_chain_id);
    static hash256 const testnet_sep = detail::compute_domain_separator(testnet_chain_id);
    return testnet ? testnet_sep : mainnet;
}

GATEWAY_DECL hash256 digest(std::string_view msg, bool testnet) {
    static hash256 const type_hash = keccak256(detail::message_type);
    std::array<std::uint8_t, 64> inner{};
    std::copy(type_hash.begin(), type_hash.end(), inner.begin());
    auto const msg_hash = keccak256(msg);
    std::copy(msg_hash.begin(), msg_hash.end(), inner.begin() + 32);
    auto const struct_hash = keccak256(std::span<std::uint8_t const>(inner));
    std::array<std::uint8_t, 66> outer{};
    outer[0] = 0x19;
    outer[1] = 0x01;
    auto const sep = domain_separator(testnet);
    std::copy(sep.begin(), sep.end(), outer.begin() + 2);
    std::copy(struct_hash.begin(), struct_hash.end(), outer.begin() + 34);
    return keccak256(std::span<std::uint8_t const>(outer));
}

GATEWAY_DECL boost::json::value typed_data(std::string_view msg, bool testnet) {
    boost::json::object types;
    boost::json::array domain_fields;
    for (auto [name, type] :
         {std::pair{"name", "string"}, std::pair{"version", "string"},
          std::pair{"chainId", "uint256"}, std::pair{"verifyingContract", "address"}}) {
        boost::json::object f;
        f["name"] = name;
        f["type"] = type;
        domain_fields.push_back(std::move(f));
    }
    types["EIP712Domain"] = std::move(domain_fields);
    boost::json::object msg_field;
    msg_field["name"] = "msg";
    msg_field["type"] = "string";
    types["Message"] = boost::json::array{std::move(msg_field)};
    boost::json::object domain;
    domain["name"] = detail::domain_name;
    domain["version"] = detail::domain_version;
    domain["chainId"] = chain_id(testnet);
    domain["verifyingContract"] = "0x0000000000000000000000000000000000000000";
    boost::json::object message;
    message["msg"] = msg;
    boost::json::object out;
    out["types"] = std::move(types);
    out["primaryType"] = "Message";
    out["domain"] = std::move(domain);
    out["message"] = std::move(message);
    return out;
}

GATEWAY_DECL std::string sign_message(std::string_view msg, private_key const& key, bool testnet) {
    return signature_to_hex(sign_digest(digest(msg, testnet), key));
}

GATEWAY_DECL result<address> recover_message(std::string_view msg, std::string_view signature,
                                             bool testnet) {
    std::string prefixed;
    if (signature.size() == 130) { // go-aster style: no 0x
        prefixed = "0x" + std::string(signature);
        signature = prefixed;
    }
    auto sig = signature_from_hex(signature, "signature");
    if (!sig)
        return sig.error();
    return recover(digest(msg, testnet), *sig);
}

GATEWAY_DECL std::uint64_t next_nonce_us() {
    static std::atomic<std::uint64_t> last{0};
    auto const now =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
    std::uint64_t prev = last.load(std::memory_order_relaxed);
    std::uint64_t next = 0;
    do
        next = std::max(now, prev + 1);
    while (!last.compare_exchange_weak(prev, next, std::memory_order_relaxed));
    return next;
}

GATEWAY_DECL std::uint64_t next_read_nonce_us() {
    std::uint64_t n = 0;
    do
        n = next_nonce_us();
    while (n % 1000 == 0);
    return n;
}

} // namespace gateway::sign::beta
