#pragma once

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <boost/assert.hpp>

namespace gateway::sign {

namespace detail {
/// Value of a base64 character in either alphabet (`+`/`-` = 62, `/`/`_` = 63), or -1.
GATEWAY_DECL constexpr int base64_value(char c) noexcept {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}
} // namespace detail

GATEWAY_DECL hmac256 hmac_sha256(std::span<std::uint8_t const> key,
                                 std::span<std::uint8_t const> data) {
    // OpenSSL wants non-null pointers even for empty inputs.
    static constexpr unsigned char empty = 0;
    hmac256 out{};
    unsigned int len = 0;
    [[maybe_unused]] unsigned char const* ok =
        HMAC(EVP_sha256(), key.empty() ? &empty : key.data(), static_cast<int>(key.size()),
             data.empty() ? &empty : data.data(), data.size(), out.data(), &len);
    BOOST_ASSERT(ok != nullptr && len == out.size());
    return out;
}

GATEWAY_DECL hmac256 hmac_sha256(std::span<std::uint8_t const> key, std::string_view data) {
    return hmac_sha256(key, std::span<std::uint8_t const>(
                                reinterpret_cast<std::uint8_t const*>(data.data()), data.size()));
}

GATEWAY_DECL std::string base64url_encode(std::span<std::uint8_t const> data, bool pad) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= data.size(); i += 3) {
        std::uint32_t const v =
            (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
        out.push_back(alphabet[(v >> 18) & 63]);
        out.push_back(alphabet[(v >> 12) & 63]);
        out.push_back(alphabet[(v >> 6) & 63]);
        out.push_back(alphabet[v & 63]);
    }
    std::size_t const rest = data.size() - i;
    if (rest != 0) {
        std::uint32_t v = std::uint32_t{data[i]} << 16;
        if (rest == 2)
            v |= std::uint32_t{data[i + 1]} << 8;
        out.push_back(alphabet[(v >> 18) & 63]);
        out.push_back(alphabet[(v >> 12) & 63]);
        if (rest == 2)
            out.push_back(alphabet[(v >> 6) & 63]);
        if (pad)
            out.append(rest == 1 ? "==" : "=");
    }
    return out;
}

GATEWAY_DECL result<bytes> base64url_decode(std::string_view text, std::string_view field) {
    auto bad = [&] {
        return field_error(field, "'" + std::string(field) + "' must be base64url.");
    };
    std::size_t end = text.size();
    while (end > 0 && text[end - 1] == '=')
        --end;
    if (text.size() - end > 2)
        return bad();
    std::string_view const body = text.substr(0, end);
    if (body.size() % 4 == 1 || (text.size() != end && text.size() % 4 != 0))
        return bad();
    bytes out;
    out.reserve(body.size() * 3 / 4);
    std::uint32_t acc = 0;
    unsigned bits = 0;
    for (char c : body) {
        int const d = detail::base64_value(c);
        if (d < 0)
            return bad();
        acc = (acc << 6) | static_cast<std::uint32_t>(d);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(acc >> bits));
            acc &= (1u << bits) - 1;
        }
    }
    return out;
}

GATEWAY_DECL result<std::string> build_l2_signature(std::string_view secret,
                                                    std::string_view timestamp,
                                                    std::string_view method, std::string_view path,
                                                    std::string_view body) {
    std::string cleaned;
    cleaned.reserve(secret.size());
    for (char c : secret)
        if (detail::base64_value(c) >= 0)
            cleaned.push_back(c);
    auto key = base64url_decode(cleaned, "apiSecret");
    OPENSSL_cleanse(cleaned.data(), cleaned.size());
    if (!key || key->empty()) {
        if (key)
            return field_error("apiSecret", "'apiSecret' must be url-safe base64.");
        return key.error();
    }
    if (auto const q = path.find('?'); q != std::string_view::npos)
        path = path.substr(0, q);
    std::string message;
    message.reserve(timestamp.size() + method.size() + path.size() + body.size());
    message.append(timestamp).append(method).append(path).append(body);
    hmac256 const tag = hmac_sha256(*key, message);
    OPENSSL_cleanse(key->data(), key->size());
    return base64url_encode(tag, true);
}

} // namespace gateway::sign
