#include <catch2/catch.hpp>

#include "auth/crypto.hpp"

#include <gateway/util/hex.hpp>

#include <regex>
#include <set>
#include <string>

using namespace gateway::server::auth;
namespace crypto = gateway::server::auth::crypto;

namespace {
crypto::bytes bytes_of(std::string_view s) {
    return {s.begin(), s.end()};
}
crypto::bytes from_hex(std::string_view hex) {
    crypto::bytes out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(
            static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    return out;
}
} // namespace

TEST_CASE("base62 writes a fixed width per byte count: 32 bytes are 43 characters",
          "[unit][auth]") {
    CHECK(crypto::base62_width(1) == 2);
    CHECK(crypto::base62_width(2) == 3);
    CHECK(crypto::base62_width(32) == 43);

    CHECK(crypto::base62_encode(crypto::bytes{0xff}) == "47");
    CHECK(crypto::base62_encode(crypto::bytes{0x01, 0x00}) == "048");
    CHECK(crypto::base62_encode(crypto::bytes(32, 0)) == std::string(43, '0'));
    CHECK(crypto::base62_encode(crypto::bytes(32, 0xff)) ==
          "yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp1");
    crypto::bytes counting(32);
    for (std::size_t i = 0; i < counting.size(); ++i)
        counting[i] = static_cast<std::uint8_t>(i);
    CHECK(crypto::base62_encode(counting) == "003aUlTJC7tjlCTQj2uNU3MFagCXG9LRKRcwGkBIDlf");
}

TEST_CASE("base62 decodes what it encodes and refuses anything else", "[unit][auth]") {
    for (int i = 0; i < 50; ++i) {
        auto const data = crypto::random_bytes(32);
        auto const text = crypto::base62_encode(data);
        CAPTURE(text);
        REQUIRE(text.size() == 43);
        auto const back = crypto::base62_decode(text, 32);
        REQUIRE(back);
        CHECK(*back == data);
    }
    CHECK_FALSE(crypto::base62_decode(std::string(42, '0'), 32));
    CHECK_FALSE(crypto::base62_decode(std::string(42, '0') + "-", 32));
    // 62^43 > 2^256: the largest 43-digit strings do not fit in 32 bytes.
    CHECK_FALSE(crypto::base62_decode(std::string(43, 'z'), 32));
}

TEST_CASE("base64 matches RFC 4648 section 10, unpadded, in both alphabets", "[unit][auth]") {
    CHECK(crypto::base64_encode(bytes_of("")) == "");
    CHECK(crypto::base64_encode(bytes_of("f")) == "Zg");
    CHECK(crypto::base64_encode(bytes_of("fo")) == "Zm8");
    CHECK(crypto::base64_encode(bytes_of("foo")) == "Zm9v");
    CHECK(crypto::base64_encode(bytes_of("foob")) == "Zm9vYg");
    CHECK(crypto::base64_encode(bytes_of("fooba")) == "Zm9vYmE");
    CHECK(crypto::base64_encode(bytes_of("foobar")) == "Zm9vYmFy");
    CHECK(crypto::base64_encode(crypto::bytes{0xfb, 0xff}) == "+/8");
    CHECK(crypto::base64_encode(crypto::bytes{0xfb, 0xff}, true) == "-_8");

    CHECK(crypto::base64_decode("Zm9vYmE=") == bytes_of("fooba"));
    CHECK(crypto::base64_decode("-_8", true) == crypto::bytes{0xfb, 0xff});
    CHECK_FALSE(crypto::base64_decode("-_8"));
    CHECK_FALSE(crypto::base64_decode("Z"));
}

TEST_CASE("SHA-256 matches the FIPS 180-2 vectors", "[unit][auth]") {
    CHECK(gateway::util::to_hex(crypto::sha256("abc"), false) ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(gateway::util::to_hex(crypto::sha256(""), false) ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(gateway::util::to_hex(
              crypto::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), false) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("scrypt matches the RFC 7914 section 12 vectors", "[unit][auth]") {
    SECTION("N=16 r=1 p=1, empty password and salt") {
        auto const out = crypto::scrypt("", {}, {16, 1, 1}, 64);
        CHECK(gateway::util::to_hex(out, false) ==
              "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
              "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906");
    }
    SECTION("N=1024 r=8 p=16, password/NaCl") {
        auto const out = crypto::scrypt("password", bytes_of("NaCl"), {1024, 8, 16}, 64);
        CHECK(out == from_hex("fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                              "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"));
    }
    SECTION("unusable costs are refused before OpenSSL sees them") {
        CHECK_THROWS_AS(crypto::scrypt("x", {}, {1000, 8, 1}, 32), std::invalid_argument);
        CHECK_THROWS_AS(crypto::scrypt("x", {}, {1024, 0, 1}, 32), std::invalid_argument);
        CHECK_FALSE(crypto::valid_scrypt_params({std::uint64_t{1} << 21, 8, 1}));
        CHECK(crypto::valid_scrypt_params({std::uint64_t{1} << 15, 8, 1}));
    }
}

TEST_CASE("password hashes describe their costs and verify only the right password",
          "[unit][auth]") {
    crypto::scrypt_params const p{1024, 8, 1};
    auto const h = crypto::hash_password("correct horse battery", p);
    CAPTURE(h);
    CHECK(std::regex_match(
        h, std::regex(R"(^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$)")));
    CHECK(crypto::password_hash_params(h) == p);
    CHECK(crypto::verify_password("correct horse battery", h));
    CHECK_FALSE(crypto::verify_password("correct horse batterz", h));
    CHECK_FALSE(crypto::verify_password("", h));
    // A fresh salt each time: the same password never hashes the same.
    CHECK(crypto::hash_password("correct horse battery", p) != h);

    SECTION("malformed or unusable stored hashes match nothing") {
        CHECK_FALSE(crypto::verify_password("x", ""));
        CHECK_FALSE(crypto::verify_password("x", "scrypt$1024$8$1$AAAA"));
        CHECK_FALSE(crypto::verify_password("x", "bcrypt$1024$8$1$AAAA$AAAA"));
        CHECK_FALSE(crypto::verify_password("x", "scrypt$1000$8$1$AAAA$AAAA"));
        CHECK_FALSE(crypto::verify_password("x", "scrypt$1024$8$1$!!$AAAA"));
        CHECK_FALSE(crypto::verify_password("x", "scrypt$1024$8$1$AAAA$AAAA$extra"));
        CHECK_FALSE(crypto::password_hash_params("scrypt$-1$8$1$AAAA$AAAA"));
    }
}

TEST_CASE("constant-time comparison compares contents and lengths", "[unit][auth]") {
    auto const a = bytes_of("0123456789abcdef");
    auto b = a;
    CHECK(crypto::constant_time_equal(a, b));
    b.back() ^= 1;
    CHECK_FALSE(crypto::constant_time_equal(a, b));
    b = a;
    b.front() ^= 0x80;
    CHECK_FALSE(crypto::constant_time_equal(a, b));
    CHECK_FALSE(crypto::constant_time_equal(a, bytes_of("0123456789abcde")));
    CHECK(crypto::constant_time_equal(crypto::bytes{}, crypto::bytes{}));
}

TEST_CASE("API keys are the environment prefix and 43 base62 characters of fresh randomness",
          "[unit][auth]") {
    std::regex const shape("^svc_(live|test)_[0-9A-Za-z]{43}$");
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        auto const env = i % 2 ? key_env::test : key_env::live;
        auto const key = crypto::generate_api_key(env);
        CAPTURE(key);
        CHECK(std::regex_match(key, shape));
        CHECK(key.size() == crypto::api_key_length);
        CHECK(key.starts_with(env == key_env::live ? "svc_live_" : "svc_test_"));
        CHECK(crypto::parse_api_key(key) == env);
        CHECK(crypto::base62_decode(key.substr(9), 32));
        seen.insert(key);
    }
    CHECK(seen.size() == 100);
}

TEST_CASE("a key of the wrong prefix, length or alphabet is not a key", "[unit][auth]") {
    std::string const body(43, 'a');
    CHECK(crypto::parse_api_key("svc_live_" + body) == key_env::live);
    CHECK(crypto::parse_api_key("svc_test_" + body) == key_env::test);
    CHECK_FALSE(crypto::parse_api_key("svc_prod_" + body));
    CHECK_FALSE(crypto::parse_api_key("svc_live_" + body.substr(1)));
    CHECK_FALSE(crypto::parse_api_key("svc_live_" + body + "a"));
    CHECK_FALSE(crypto::parse_api_key("svc_live_" + body.substr(1) + "-"));
    CHECK_FALSE(crypto::parse_api_key(""));
}
