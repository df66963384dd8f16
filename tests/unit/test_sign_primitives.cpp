// Unit tests of the signing primitives in include/gateway/sign: Keccak-256 and hex,
// secp256k1 keys/signatures/recovery, MessagePack boundaries, HMAC-SHA256 (RFC 4231),
// base64url and gamma's L2 signature vectors (upstreams/gamma.md §4.2).
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/values.hpp"

#include <gateway/sign/hmac.hpp>
#include <gateway/sign/keccak.hpp>
#include <gateway/sign/msgpack.hpp>
#include <gateway/sign/secp256k1.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace sign = gateway::sign;

using gateway::test::hex;

namespace {
sign::bytes unhex(std::string_view h) {
    return sign::from_hex(h).value();
}
std::string packed(boost::json::value const& v) {
    return hex(sign::msgpack_encode(v).value());
}
sign::private_key key(std::string_view h) {
    return sign::private_key::from_hex(h).value();
}
} // namespace

TEST_CASE("keccak256 is Ethereum's Keccak, not SHA3-256", "[unit][sign]") {
    CHECK(hex(sign::keccak256(std::string_view(""))) ==
          "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    CHECK(hex(sign::keccak256(std::string_view("abc"))) ==
          "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
    // upstreams/alpha.md §5.3 constants
    CHECK(hex(sign::keccak256(std::string_view("a"))) ==
          "3ac225168df54212a25c1c01fd35bebfea408fdac2e31ddd6f80a4bbf9a5f1cb");
    CHECK(hex(sign::keccak256(std::string_view("b"))) ==
          "b5553de315e0edf504d9150af82dafa5c4667fa618ed0a6f19c69b41166c5510");
    CHECK(hex(sign::keccak256(
              std::string_view("EIP712Domain(string name,string version,uint256 chainId,address "
                               "verifyingContract)"))) ==
          "8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f");
    auto const bytes = unhex("616263");
    CHECK(sign::keccak256(bytes) == sign::keccak256(std::string_view("abc")));
}

TEST_CASE("hex helpers round-trip and refuse malformed text", "[unit][sign]") {
    CHECK(sign::to_hex(unhex("0x00ff10")) == "0x00ff10");
    CHECK(sign::to_hex(unhex("00FF10"), false) == "00ff10");
    CHECK(sign::from_hex("0x").value().empty());
    CHECK(sign::from_hex("0XaB").value() == sign::bytes{0xab});
    auto const odd = sign::from_hex("0xabc", "cloid");
    REQUIRE_FALSE(odd);
    CHECK(odd.error().code == gateway::errc::validation_error);
    CHECK(odd.error().field() == "cloid");
    CHECK_FALSE(sign::from_hex("0xzz"));
    CHECK_FALSE(sign::from_hex_array<2>("0x0102ff"));
    CHECK(sign::from_hex_array<2>("0x0102").value() == std::array<std::uint8_t, 2>{1, 2});
}

TEST_CASE("private keys derive the upstream SDKs' test addresses", "[unit][sign]") {
    auto [k, addr] = GENERATE(table<std::string, std::string>({
        {"0x0123456789012345678901234567890123456789012345678901234567890123",
         "0x14791697260e4c9a71f18484c9f997b308e59325"},
        {"0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff",
         "0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901"},
        {"e908f86dbb4d55ac876378565aafeabc187f6690f046459397b17d9b9a19688e",
         "0xcd49bbac6e85fdeb167eb7ca41a945d2b8758f6f"},
        {"0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
         "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"},
    }));
    CAPTURE(addr);
    CHECK(sign::address_of(key(k)).str() == addr);
}

TEST_CASE("private_key refuses invalid keys without echoing them", "[unit][sign]") {
    auto bad = GENERATE(as<std::string>{}, "", "0x1234",
                        "0x0000000000000000000000000000000000000000000000000000000000000000",
                        // the curve order n itself
                        "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
                        "0xzz23456789012345678901234567890123456789012345678901234567890123");
    auto const r = sign::private_key::from_hex(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == gateway::errc::validation_error);
    CHECK(r.error().field() == "privateKey");
    if (bad.size() > 4)
        CHECK(r.error().message.find(bad.substr(4)) == std::string::npos);
}

TEST_CASE("private_key wipes a moved-from key", "[unit][sign]") {
    auto a = key("0x0123456789012345678901234567890123456789012345678901234567890123");
    sign::private_key b = std::move(a);
    // NOLINTNEXTLINE(bugprone-use-after-move): checking the wipe is the point
    auto const& wiped = a.secret();
    CHECK(std::all_of(wiped.begin(), wiped.end(), [](std::uint8_t b) { return b == 0; }));
    CHECK(sign::address_of(b).str() == "0x14791697260e4c9a71f18484c9f997b308e59325");
}

TEST_CASE("sign_digest is deterministic, low-s and recovers the signer", "[unit][sign]") {
    auto const k = key("0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff");
    for (std::string_view text : {"", "one", "two", "three", "four", "five", "six", "seven"}) {
        CAPTURE(text);
        auto const digest = sign::keccak256(text);
        auto const sig = sign::sign_digest(digest, k);
        CHECK(sig == sign::sign_digest(digest, k));
        CHECK((sig[64] == 27 || sig[64] == 28));
        // s <= n/2 = 7fffffff ffffffff ffffffff ffffffff 5d576e73 57a4501d dfe92f46 681b20a0
        CHECK(hex(std::span<std::uint8_t const>(sig).subspan(32, 32)) <=
              "7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0");
        CHECK(sign::recover(digest, sig).value().str() ==
              "0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901");
        // v as 0/1 is accepted too
        auto zero_based = sig;
        zero_based[64] = static_cast<std::uint8_t>(zero_based[64] - 27);
        CHECK(sign::recover(digest, zero_based).value() == sign::recover(digest, sig).value());
        // the hex wire form round-trips
        CHECK(sign::signature_from_hex(sign::signature_to_hex(sig)).value() == sig);
        // another digest recovers someone else
        CHECK(sign::recover(sign::keccak256(std::string(text) + "!"), sig).value().str() !=
              "0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901");
    }
}

TEST_CASE("signing and recovery share one context safely across threads", "[unit][sign]") {
    auto const k = key("0xe908f86dbb4d55ac876378565aafeabc187f6690f046459397b17d9b9a19688e");
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 50; ++i) {
                auto const digest = sign::keccak256(std::to_string(t * 1000 + i));
                auto const sig = sign::sign_digest(digest, k);
                auto const who = sign::recover(digest, sig);
                if (who && who->str() == "0xcd49bbac6e85fdeb167eb7ca41a945d2b8758f6f")
                    ++good;
            }
        });
    for (auto& th : threads)
        th.join();
    CHECK(good == 200);
}

TEST_CASE("malformed signatures are SIGNATURE_ERROR", "[unit][sign]") {
    auto const k = key("0x0123456789012345678901234567890123456789012345678901234567890123");
    auto const digest = sign::keccak256(std::string_view("x"));
    auto const good = sign::sign_digest(digest, k);
    auto expect_sig_error = [&](std::span<std::uint8_t const> s) {
        auto const r = sign::recover(digest, s);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == gateway::errc::signature_error);
        CHECK(r.error().status == 401);
        CHECK(r.error().field() == "signature");
    };
    SECTION("wrong length") {
        expect_sig_error(std::span<std::uint8_t const>(good).subspan(0, 64));
        sign::bytes longer(good.begin(), good.end());
        longer.push_back(0);
        expect_sig_error(longer);
        expect_sig_error({});
    }
    SECTION("bad v") {
        for (std::uint8_t v : {2, 26, 29, 35, 255}) {
            auto s = good;
            s[64] = v;
            expect_sig_error(s);
        }
    }
    SECTION("r or s zero or not below n") {
        auto s = good;
        std::fill(s.begin(), s.begin() + 32, std::uint8_t{0});
        expect_sig_error(s);
        s = good;
        std::fill(s.begin() + 32, s.begin() + 64, std::uint8_t{0});
        expect_sig_error(s);
        s = good;
        std::fill(s.begin(), s.begin() + 32, std::uint8_t{0xff});
        expect_sig_error(s);
        s = good;
        std::fill(s.begin() + 32, s.begin() + 64, std::uint8_t{0xff});
        expect_sig_error(s);
    }
    SECTION("hex form") {
        std::vector<std::string> const bad = {"",
                                              "0x",
                                              "0x1234",
                                              "1b" + std::string(130, '0'),
                                              "0x" + std::string(128, '1') + "1d",
                                              "0x" + std::string(129, '1') + "g",
                                              "0x" + std::string(132, '1')};
        for (auto const& text : bad) {
            CAPTURE(text);
            auto const r = sign::signature_from_hex(text);
            REQUIRE_FALSE(r);
            CHECK(r.error().code == gateway::errc::signature_error);
        }
    }
}

TEST_CASE("msgpack encodes integers in their smallest form", "[unit][sign]") {
    using boost::json::value;
    auto [v, expected] = GENERATE(table<value, std::string>({
        {value(0), "00"},
        {value(1), "01"},
        {value(127), "7f"},
        {value(128), "cc80"},
        {value(255), "ccff"},
        {value(256), "cd0100"},
        {value(65535), "cdffff"},
        {value(65536), "ce00010000"},
        {value(110000), "ce0001adb0"},
        {value(4294967295LL), "ceffffffff"},
        {value(4294967296LL), "cf0000000100000000"},
        {value(100000000000LL), "cf000000174876e800"},
        {value(std::numeric_limits<std::int64_t>::max()), "cf7fffffffffffffff"},
        {value(std::numeric_limits<std::uint64_t>::max()), "cfffffffffffffffff"},
        {value(-1), "ff"},
        {value(-32), "e0"},
        {value(-33), "d0df"},
        {value(-128), "d080"},
        {value(-129), "d1ff7f"},
        {value(-32768), "d18000"},
        {value(-32769), "d2ffff7fff"},
        {value(-2147483648LL), "d280000000"},
        {value(-2147483649LL), "d3ffffffff7fffffff"},
        {value(std::numeric_limits<std::int64_t>::min()), "d38000000000000000"},
    }));
    CAPTURE(v);
    CHECK(packed(v) == expected);
}

TEST_CASE("msgpack encodes strings, containers and constants at their boundaries", "[unit][sign]") {
    auto str_header = [](std::size_t n) {
        return packed(boost::json::value(std::string(n, 'x'))).substr(0, 10);
    };
    CHECK(packed(boost::json::value("")) == "a0");
    CHECK(str_header(1).substr(0, 2) == "a1");
    CHECK(str_header(31).substr(0, 2) == "bf");
    CHECK(str_header(32).substr(0, 4) == "d920");
    CHECK(str_header(42).substr(0, 4) == "d92a");
    CHECK(str_header(255).substr(0, 4) == "d9ff");
    CHECK(str_header(256).substr(0, 6) == "da0100");
    CHECK(str_header(65535).substr(0, 6) == "daffff");
    CHECK(str_header(65536).substr(0, 10) == "db00010000");
    CHECK(packed(boost::json::value("a")) == "a161");
    CHECK(packed(boost::json::value(std::string(32, 'x'))).size() == 2 * (2 + 32));

    CHECK(packed(boost::json::value(true)) == "c3");
    CHECK(packed(boost::json::value(false)) == "c2");
    CHECK(packed(boost::json::value(nullptr)) == "c0");

    auto array_of = [](std::size_t n) {
        boost::json::array a;
        a.resize(n, boost::json::value(1));
        return boost::json::value(std::move(a));
    };
    CHECK(packed(array_of(0)) == "90");
    CHECK(packed(array_of(15)).substr(0, 2) == "9f");
    CHECK(packed(array_of(16)).substr(0, 6) == "dc0010");
    CHECK(packed(array_of(65535)).substr(0, 6) == "dcffff");
    CHECK(packed(array_of(65536)).substr(0, 10) == "dd00010000");

    auto map_of = [](std::size_t n) {
        boost::json::object o;
        for (std::size_t i = 0; i < n; ++i)
            o["k" + std::to_string(i)] = nullptr;
        return boost::json::value(std::move(o));
    };
    CHECK(packed(map_of(0)) == "80");
    CHECK(packed(map_of(15)).substr(0, 2) == "8f");
    CHECK(packed(map_of(16)).substr(0, 6) == "de0010");
    CHECK(packed(map_of(65536)).substr(0, 10) == "df00010000");

    // insertion order, never sorted
    CHECK(packed(boost::json::parse(R"({"b":1,"a":[true,null]})")) == "82a16201a16192c3c0");
}

TEST_CASE("msgpack refuses floating-point numbers, naming the path", "[unit][sign]") {
    auto const r = sign::msgpack_encode(boost::json::parse(R"({"orders":[{"a":1,"p":1.5}]})"));
    REQUIRE_FALSE(r);
    CHECK(r.error().code == gateway::errc::validation_error);
    CHECK(r.error().field() == "orders[0].p");
}

TEST_CASE("hmac_sha256 matches RFC 4231", "[unit][sign]") {
    auto [k, data, expected] = GENERATE(table<sign::bytes, sign::bytes, std::string>({
        {sign::bytes(20, 0x0b), unhex("4869205468657265"),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {unhex("4a656665"), unhex("7768617420646f2079612077616e7420666f72206e6f7468696e673f"),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {sign::bytes(20, 0xaa), sign::bytes(50, 0xdd),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {unhex("0102030405060708090a0b0c0d0e0f10111213141516171819"), sign::bytes(50, 0xcd),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
        {sign::bytes(131, 0xaa),
         unhex("54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579"
               "202d2048617368204b6579204669727374"),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
    }));
    CHECK(hex(sign::hmac_sha256(k, data)) == expected);
}

TEST_CASE("hmac_sha256 takes text and empty inputs", "[unit][sign]") {
    auto const k = unhex("4a656665");
    CHECK(hex(sign::hmac_sha256(k, std::string_view("what do ya want for nothing?"))) ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // HMAC-SHA256 with an empty key and empty message (well-known value)
    CHECK(hex(sign::hmac_sha256({}, std::string_view(""))) ==
          "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

TEST_CASE("base64url encodes with padding and decodes both alphabets", "[unit][sign]") {
    auto [raw, text] = GENERATE(table<std::string, std::string>({
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
        {"\xfb\xff\xbf", "-_-_"},
    }));
    sign::bytes const b(raw.begin(), raw.end());
    CHECK(sign::base64url_encode(b) == text);
    CHECK(sign::base64url_decode(text).value() == b);
    std::string unpadded = text;
    while (!unpadded.empty() && unpadded.back() == '=')
        unpadded.pop_back();
    CHECK(sign::base64url_encode(b, false) == unpadded);
    CHECK(sign::base64url_decode(unpadded).value() == b);
    CHECK(sign::base64url_decode("+/+/").value() == sign::base64url_decode("-_-_").value());
    for (std::string_view bad : {"Z", "Zg=", "Zg===", "Z=g=", "Zm9v!", "Zg==Zg=="}) {
        CAPTURE(bad);
        auto const r = sign::base64url_decode(bad, "apiSecret");
        REQUIRE_FALSE(r);
        CHECK(r.error().field() == "apiSecret");
    }
}

TEST_CASE("gamma L2 signatures match upstreams/gamma.md section 4.2", "[unit][sign]") {
    std::string const zero = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    auto [ts, method, path, body, expected] =
        GENERATE(table<std::string, std::string, std::string, std::string, std::string>({
            {"1000000", "test-sign", "/orders", R"({"hash": "0x123"})",
             "ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc="},
            {"1000000", "test-sign", "/orders", R"({"hash":"0x123"})",
             "4gJVbox-R6XlDK4nlaicig0_ANVL1qdcahiL8CXfXLM="},
            {"1", "GET", "/", "", "eHaylCwqRSOa2LFD77Nt_SaTpbsxzN8eTEI3LryhEj4="},
            {"1700000000", "DELETE", "/order", R"({"orderID":"0xabc"})",
             "ebd_Mp184tE7Z6KPR1h4np8gSxcgEPZ7MeKtDjVwf2g="},
            {"1700000000", "GET", "/data/orders", "",
             "m6lGS9WyES7JjpAYNd7zIdW5bfHxAAI_pIa1St9vLO4="},
        }));
    CAPTURE(ts, method, path, body);
    CHECK(sign::build_l2_signature(zero, ts, method, path, body).value() == expected);
}

TEST_CASE("gamma L2 signature: query string, secret alphabets and junk", "[unit][sign]") {
    std::string const zero = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    // the path is signed without its query string
    CHECK(sign::build_l2_signature(zero, "1700000000", "GET", "/data/orders?next_cursor=MA==")
              .value() == "m6lGS9WyES7JjpAYNd7zIdW5bfHxAAI_pIa1St9vLO4=");
    // url-safe without padding == standard alphabet with padding
    std::string const url = "--_" + std::string(40, 'A');
    std::string const std_b64 = "++/" + std::string(40, 'A') + "=";
    CHECK(sign::build_l2_signature(url, "1", "GET", "/").value() ==
          sign::build_l2_signature(std_b64, "1", "GET", "/").value());
    CHECK(sign::build_l2_signature(url, "1", "GET", "/").value() !=
          sign::build_l2_signature(zero, "1", "GET", "/").value());
    // junk characters are dropped, as gamma's TypeScript client does
    std::string const junk = "AAAA^AAAA<AAAA>AAAA|AAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    CHECK(sign::build_l2_signature(junk, "1000000", "test-sign", "/orders", R"({"hash": "0x123"})")
              .value() == "ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=");
    // an unusable secret is a VALIDATION_ERROR naming apiSecret, never echoing it
    for (std::string_view bad : {"", "A", "^^^"}) {
        auto const r = sign::build_l2_signature(bad, "1", "GET", "/");
        REQUIRE_FALSE(r);
        CHECK(r.error().code == gateway::errc::validation_error);
        CHECK(r.error().field() == "apiSecret");
    }
}
