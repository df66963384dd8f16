#include "auth/crypto.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace gateway::server::auth::crypto {

namespace {

constexpr std::string_view base62_alphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr std::string_view base64_std =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view base64_url =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::size_t salt_size = 16;
constexpr std::size_t hash_size = 32;

int base62_value(char c) noexcept {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 36;
    return -1;
}

struct kdf_deleter {
    void operator()(EVP_KDF* k) const noexcept { EVP_KDF_free(k); }
    void operator()(EVP_KDF_CTX* c) const noexcept { EVP_KDF_CTX_free(c); }
    void operator()(EVP_MD_CTX* c) const noexcept { EVP_MD_CTX_free(c); }
};

template <class T>
bool parse_uint(std::string_view s, T& out) noexcept {
    if (s.empty() || s.size() > 20)
        return false;
    auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && end == s.data() + s.size();
}

/// Splits `scrypt$N$r$p$salt$hash` into its six fields.
std::optional<std::array<std::string_view, 6>> split_hash(std::string_view encoded) noexcept {
    std::array<std::string_view, 6> parts;
    std::size_t i = 0;
    while (i < parts.size()) {
        auto const pos = encoded.find('$');
        if (i + 1 == parts.size()) {
            if (pos != std::string_view::npos)
                return std::nullopt;
            parts[i++] = encoded;
            break;
        }
        if (pos == std::string_view::npos)
            return std::nullopt;
        parts[i++] = encoded.substr(0, pos);
        encoded.remove_prefix(pos + 1);
    }
    if (parts[0] != "scrypt")
        return std::nullopt;
    return parts;
}

} // namespace

bytes random_bytes(std::size_t n) {
    bytes out(n);
    if (n == 0)
        return out;
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        RAND_bytes(out.data(), static_cast<int>(n)) != 1)
        throw std::runtime_error("the random number generator failed");
    return out;
}

std::size_t base62_width(std::size_t size) noexcept {
    // log2(62) = 5.954196...; no byte count up to far beyond any use here makes 8n/log2(62)
    // land on an integer, so the floating-point ceiling is exact.
    return static_cast<std::size_t>(std::ceil(static_cast<double>(size) * 8.0 / std::log2(62.0)));
}

std::string base62_encode(std::span<std::uint8_t const> data) {
    std::size_t const width = base62_width(data.size());
    std::string out(width, '0');
    // Schoolbook division of the big-endian number by 62, one digit per pass (tiny inputs).
    bytes num(data.begin(), data.end());
    std::size_t start = 0; // first non-zero byte of `num`
    for (std::size_t pos = width; pos > 0; --pos) {
        while (start < num.size() && num[start] == 0)
            ++start;
        if (start == num.size())
            break;
        unsigned rem = 0;
        for (std::size_t i = start; i < num.size(); ++i) {
            unsigned const cur = (rem << 8) | num[i];
            num[i] = static_cast<std::uint8_t>(cur / 62);
            rem = cur % 62;
        }
        out[pos - 1] = base62_alphabet[rem];
    }
    return out;
}

std::optional<bytes> base62_decode(std::string_view text, std::size_t size) {
    if (text.size() != base62_width(size))
        return std::nullopt;
    bytes num(size, 0);
    for (char c : text) {
        int const v = base62_value(c);
        if (v < 0)
            return std::nullopt;
        // num = num * 62 + v, big-endian
        unsigned carry = static_cast<unsigned>(v);
        for (std::size_t i = size; i > 0; --i) {
            unsigned const cur = num[i - 1] * 62u + carry;
            num[i - 1] = static_cast<std::uint8_t>(cur & 0xffu);
            carry = cur >> 8;
        }
        if (carry != 0)
            return std::nullopt;
    }
    return num;
}

std::string base64_encode(std::span<std::uint8_t const> data, bool url) {
    std::string_view const alphabet = url ? base64_url : base64_std;
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= data.size(); i += 3) {
        std::uint32_t const v =
            (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        out += alphabet[v & 63];
    }
    std::size_t const rest = data.size() - i;
    if (rest == 1) {
        std::uint32_t const v = std::uint32_t{data[i]} << 16;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
    } else if (rest == 2) {
        std::uint32_t const v = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
    }
    return out;
}

std::optional<bytes> base64_decode(std::string_view text, bool url) {
    std::string_view const alphabet = url ? base64_url : base64_std;
    while (!text.empty() && text.back() == '=')
        text.remove_suffix(1);
    if (text.size() % 4 == 1)
        return std::nullopt;
    bytes out;
    out.reserve(text.size() * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        auto const pos = alphabet.find(c);
        if (pos == std::string_view::npos)
            return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(pos);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xffu));
        }
    }
    return out;
}

sha256_digest sha256(std::string_view data) {
    sha256_digest out{};
    unsigned int len = 0;
    std::unique_ptr<EVP_MD_CTX, kdf_deleter> ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
        EVP_DigestFinal_ex(ctx.get(), out.data(), &len) != 1 || len != out.size())
        throw std::runtime_error("SHA-256 failed");
    return out;
}

sha256_digest hmac_sha256(std::string_view key, std::string_view data) {
    sha256_digest out{};
    std::size_t len = 0;
    if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(),
                   reinterpret_cast<unsigned char const*>(data.data()), data.size(), out.data(),
                   out.size(), &len) ||
        len != out.size())
        throw std::runtime_error("HMAC-SHA-256 failed");
    return out;
}

bool constant_time_equal(std::span<std::uint8_t const> a,
                         std::span<std::uint8_t const> b) noexcept {
    if (a.size() != b.size())
        return false;
    if (a.empty())
        return true;
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool valid_scrypt_params(scrypt_params const& p) noexcept {
    bool const pow2 = p.n >= 2 && (p.n & (p.n - 1)) == 0;
    return pow2 && p.n <= (std::uint64_t{1} << 20) && p.r >= 1 && p.r <= 32 && p.p >= 1 &&
           p.p <= 16 && 128 * p.n * p.r <= (std::uint64_t{1} << 30);
}

bytes scrypt(std::string_view password, std::span<std::uint8_t const> salt,
             scrypt_params const& params, std::size_t length) {
    if (!valid_scrypt_params(params))
        throw std::invalid_argument("unusable scrypt parameters");
    std::unique_ptr<EVP_KDF, kdf_deleter> kdf(EVP_KDF_fetch(nullptr, "SCRYPT", nullptr));
    if (!kdf)
        throw std::runtime_error("OpenSSL has no SCRYPT KDF");
    std::unique_ptr<EVP_KDF_CTX, kdf_deleter> ctx(EVP_KDF_CTX_new(kdf.get()));
    if (!ctx)
        throw std::runtime_error("scrypt: out of memory");
    std::uint64_t n = params.n;
    std::uint32_t r = params.r;
    std::uint32_t p = params.p;
    // V takes 128 * r * (N + 2) bytes and B 128 * r * p; leave headroom over both.
    std::uint64_t maxmem = 128 * std::uint64_t{r} * (n + 2 + p) + (1u << 20);
    // OpenSSL wants non-null pointers even for empty octet strings (RFC 7914 vector 1).
    char empty = 0;
    std::array<OSSL_PARAM, 7> ps{
        OSSL_PARAM_construct_octet_string(
            OSSL_KDF_PARAM_PASSWORD, password.empty() ? &empty : const_cast<char*>(password.data()),
            password.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
                                          salt.empty() ? static_cast<void*>(&empty)
                                                       : const_cast<std::uint8_t*>(salt.data()),
                                          salt.size()),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem),
        OSSL_PARAM_construct_end(),
    };
    bytes out(length);
    if (EVP_KDF_derive(ctx.get(), out.data(), out.size(), ps.data()) != 1)
        throw std::runtime_error("scrypt derivation failed");
    return out;
}

std::string hash_password(std::string_view password, scrypt_params const& params) {
    bytes const salt = random_bytes(salt_size);
    bytes const hash = scrypt(password, salt, params, hash_size);
    return "scrypt$" + std::to_string(params.n) + "$" + std::to_string(params.r) + "$" +
           std::to_string(params.p) + "$" + base64_encode(salt) + "$" + base64_encode(hash);
}

std::optional<scrypt_params> password_hash_params(std::string_view encoded) {
    auto const parts = split_hash(encoded);
    if (!parts)
        return std::nullopt;
    scrypt_params p;
    if (!parse_uint((*parts)[1], p.n) || !parse_uint((*parts)[2], p.r) ||
        !parse_uint((*parts)[3], p.p) || !valid_scrypt_params(p))
        return std::nullopt;
    return p;
}

bool verify_password(std::string_view password, std::string_view encoded) {
    auto const params = password_hash_params(encoded);
    if (!params)
        return false;
    auto const parts = split_hash(encoded);
    auto const salt = base64_decode((*parts)[4]);
    auto const expected = base64_decode((*parts)[5]);
    if (!salt || !expected || expected->empty() || expected->size() > 256)
        return false;
    try {
        bytes const actual = scrypt(password, *salt, *params, expected->size());
        return constant_time_equal(actual, *expected);
    } catch (std::exception const&) {
        return false; // an unusable stored hash matches nothing
    }
}

std::string_view key_prefix(key_env env) noexcept {
    return env == key_env::live ? "svc_live_" : "svc_test_";
}

std::string generate_api_key(key_env env) {
    bytes const secret = random_bytes(32);
    return std::string(key_prefix(env)) + base62_encode(secret);
}

std::optional<key_env> parse_api_key(std::string_view key) noexcept {
    if (key.size() != api_key_length)
        return std::nullopt;
    std::optional<key_env> env;
    if (key.starts_with(key_prefix(key_env::live)))
        env = key_env::live;
    else if (key.starts_with(key_prefix(key_env::test)))
        env = key_env::test;
    else
        return std::nullopt;
    for (char c : key.substr(9))
        if (base62_value(c) < 0)
            return std::nullopt;
    return env;
}

} // namespace gateway::server::auth::crypto
