// gamma's (Polymarket's) CLOB signing against every vector of upstreams/gamma.md: ClobAuth
// (4.1), the L2 HMAC headers (4.2), the CTF Exchange Order on both exchanges (5.1: digest
// computed directly and through the general EIP-712 code, struct hash, signature, recovery),
// the POST /order wire form (5.3) and the amounts table (5.2), then the SDK signer against
// the gateway's own derivation.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"

#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/signing.hpp>
#include <gateway/sign/eip712.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

using namespace gateway;
namespace sg = gateway::sign::gamma;

// Named (not anonymous) so a unity build's other files cannot collide with these.
namespace gamma_signing_test {

// gamma.md 4.1 / 5.1: Hardhat's first account.
std::string const key_hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
std::string const key_address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
std::string const amoy_exchange = "0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40";
std::string const zero_secret = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

sign::private_key test_key() {
    return sign::private_key::from_hex(key_hex).value();
}

address addr(std::string_view text) {
    return address::parse(text).value();
}

std::string hex(sign::hash256 const& h) {
    return util::to_hex(h, false);
}

/// The order of python-order-utils' signing vector (gamma.md 5.1).
sg::order vector_order() {
    sg::order o;
    o.salt = 479249096354;
    o.maker = addr(key_address);
    o.signer = addr(key_address);
    o.token_id = "1234";
    o.maker_amount = 100000000;
    o.taker_amount = 50000000;
    o.fee_rate_bps = 100;
    o.side = sg::order_side::buy;
    o.signature_type = 0;
    return o;
}

} // namespace gamma_signing_test

namespace gst = gamma_signing_test;

// ---- 4.1 ClobAuth -----------------------------------------------------------------------------

TEST_CASE("gamma ClobAuth: type hashes and domain separator of gamma.md 4.1",
          "[unit][gamma][sign]") {
    CHECK(gst::hex(sign::keccak256("EIP712Domain(string name,string version,uint256 chainId)")) ==
          "c2f8787176b8ac6bf7215b4adcc1e069bf4ab82d9ab1df05a57a91d425935b6e");
    CHECK(gst::hex(sign::keccak256(
              "ClobAuth(address address,string timestamp,uint256 nonce,string message)")) ==
          "52578c5c725a28a84fedc8c22aa47947822942f35b4dc350db028e45320e035c");
    auto const td = sg::clob_auth_typed_data(gst::addr(gst::key_address), "10000000", 23);
    CHECK(gst::hex(sign::eip712::domain_separator(td).value()) ==
          "cfc66be2a3b30464cb3b588324101f660c9a205fa76e8e5f83ee16a528e1c4cb");
}

TEST_CASE("gamma ClobAuth: the official clients' vector signs, hashes and recovers",
          "[unit][gamma][sign]") {
    auto const key = gst::test_key();
    auto const me = gst::addr(gst::key_address);
    std::string const expected =
        "0xf62319a987514da40e57e2f4d7529f7bac38f0355bd88bb5adbb3768d80de6c1682518e0af677d5260"
        "366425f4361e7b70c25ae232aff0ab2331e2b164a1aedc1b";
    auto const digest = sg::clob_auth_digest(me, "10000000", 23, sg::amoy_chain_id);
    CHECK(gst::hex(digest) == "8f442df8073c9cf2e36d7b20ca9d64d1a9352e982cc82a293b7de2df57920610");
    auto const td = sg::clob_auth_typed_data(me, "10000000", 23, sg::amoy_chain_id);
    CHECK(sign::eip712::hash_typed_data(td).value() == digest);
    CHECK(sg::sign_clob_auth(key, "10000000", 23, sg::amoy_chain_id) == expected);
    CHECK(sg::recover_clob_auth(me, "10000000", 23, expected, sg::amoy_chain_id).value() == me);

    // Another timestamp, nonce, chain or claimed address is another message.
    auto const other = gst::addr("0x0000000000000000000000000000000000000001");
    CHECK(sg::recover_clob_auth(me, "10000001", 23, expected, sg::amoy_chain_id).value() != me);
    CHECK(sg::recover_clob_auth(me, "10000000", 24, expected, sg::amoy_chain_id).value() != me);
    CHECK(sg::recover_clob_auth(me, "10000000", 23, expected).value() != me);
    CHECK(sg::recover_clob_auth(other, "10000000", 23, expected, sg::amoy_chain_id).value() != me);

    // The gateway's chain: digest direct == general, round trip.
    auto const sig137 = sg::sign_clob_auth(key, "1700000000", 0);
    CHECK(sign::eip712::hash_typed_data(sg::clob_auth_typed_data(me, "1700000000", 0)).value() ==
          sg::clob_auth_digest(me, "1700000000", 0));
    CHECK(sg::recover_clob_auth(me, "1700000000", 0, sig137).value() == me);

    std::string const unprefixed = expected.substr(2);
    for (std::string_view bad : {std::string_view(), std::string_view("0x12"),
                                 std::string_view("nothex"), std::string_view(unprefixed)}) {
        CAPTURE(bad);
        auto const r = sg::recover_clob_auth(me, "10000000", 23, bad, sg::amoy_chain_id);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::signature_error);
        CHECK(r.error().field() == "signature");
    }
}

// ---- 4.2 L2 -----------------------------------------------------------------------------------

TEST_CASE("gamma L2 headers carry every HMAC vector of gamma.md 4.2", "[unit][gamma][sign]") {
    auto [ts, method, path, body, expected] =
        GENERATE(table<std::int64_t, std::string, std::string, std::string, std::string>({
            {1000000, "test-sign", "/orders", R"({"hash": "0x123"})",
             "ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc="},
            {1000000, "test-sign", "/orders", R"({"hash":"0x123"})",
             "4gJVbox-R6XlDK4nlaicig0_ANVL1qdcahiL8CXfXLM="},
            {1, "GET", "/", "", "eHaylCwqRSOa2LFD77Nt_SaTpbsxzN8eTEI3LryhEj4="},
            {1700000000, "DELETE", "/order", R"({"orderID":"0xabc"})",
             "ebd_Mp184tE7Z6KPR1h4np8gSxcgEPZ7MeKtDjVwf2g="},
            {1700000000, "GET", "/data/orders", "", "m6lGS9WyES7JjpAYNd7zIdW5bfHxAAI_pIa1St9vLO4="},
        }));
    CAPTURE(ts, method, path, body);
    sg::credentials const creds("00000000-0000-0000-0000-000000000000", gst::zero_secret,
                                std::string(64, 'a'));
    auto const wallet = gst::addr("0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    auto const headers = sg::l2_headers(creds, wallet, ts, method, path, body).value();
    REQUIRE(headers.size() == 5);
    CHECK(headers[0].name == "POLY_ADDRESS");
    CHECK(headers[0].value == gst::key_address);
    CHECK(headers[1].name == "POLY_SIGNATURE");
    CHECK(headers[1].value == expected);
    CHECK(headers[2].name == "POLY_TIMESTAMP");
    CHECK(headers[2].value == std::to_string(ts));
    CHECK(headers[3].name == "POLY_API_KEY");
    CHECK(headers[3].value == "00000000-0000-0000-0000-000000000000");
    CHECK(headers[4].name == "POLY_PASSPHRASE");
    CHECK(headers[4].value == std::string(64, 'a'));
}

TEST_CASE("gamma L2 headers: query string, url-safe unpadded and junk secrets",
          "[unit][gamma][sign]") {
    auto const wallet = gst::addr(gst::key_address);
    auto const signature_with = [&](std::string secret, std::int64_t ts, std::string_view method,
                                    std::string_view path, std::string_view body = {}) {
        sg::credentials const c("k", std::move(secret), "p");
        auto h = sg::l2_headers(c, wallet, ts, method, path, body);
        REQUIRE(h);
        return (*h)[1].value;
    };
    // The path is signed without its query string (vector 5).
    CHECK(signature_with(gst::zero_secret, 1700000000, "GET", "/data/orders?next_cursor=MA==") ==
          "m6lGS9WyES7JjpAYNd7zIdW5bfHxAAI_pIa1St9vLO4=");
    // The url-safe, unpadded secret signs as the standard, padded one.
    std::string const url = "--_" + std::string(40, 'A');
    std::string const std_b64 = "++/" + std::string(40, 'A') + "=";
    auto const url_sig = signature_with(url, 1, "GET", "/");
    CHECK(url_sig == signature_with(std_b64, 1, "GET", "/"));
    CHECK(url_sig != signature_with(gst::zero_secret, 1, "GET", "/"));
    // The zero secret without its padding is still vector 3.
    CHECK(signature_with(std::string(43, 'A'), 1, "GET", "/") ==
          "eHaylCwqRSOa2LFD77Nt_SaTpbsxzN8eTEI3LryhEj4=");
    // Junk characters (^ < > |) are dropped as the TypeScript client does: vector 1.
    CHECK(signature_with("AAAA^AAAA<AAAA>AAAA|AAAAAAAAAAAAAAAAAAAAAAAAAAA=", 1000000, "test-sign",
                         "/orders",
                         R"({"hash": "0x123"})") == "ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=");
    // An undecodable secret: VALIDATION_ERROR naming apiSecret, never repeating it.
    for (std::string_view bad : {"", "A", "^^^", "AAAAA"}) {
        CAPTURE(bad);
        sg::credentials const c("k", std::string(bad), "p");
        auto const r = sg::l2_headers(c, wallet, 1, "GET", "/");
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::validation_error);
        CHECK(r.error().field() == "apiSecret");
        if (!bad.empty())
            CHECK(r.error().message.find(bad) == std::string::npos);
    }
}

namespace gamma_signing_test {

/// Whether the bytes of `object` itself (not what it points to) contain `text`: a short
/// string keeps its characters inside the object, where a plain move leaves them behind.
/// Inspecting an object's representation through `unsigned char` is well-defined. `clear()`
/// writes a terminator over the first character only, so the rest is what is looked for.
bool holds_rest_of(std::string_view bytes, std::string_view text) {
    return bytes.find(text.substr(1)) != std::string_view::npos;
}

template <class T>
bool representation_holds(T const* object, std::string_view text) {
    return holds_rest_of(std::string_view(reinterpret_cast<char const*>(object), sizeof(T)), text);
}

} // namespace gamma_signing_test

TEST_CASE("gamma credentials are moved, never copied, and wiped when moved from or destroyed",
          "[unit][gamma][sign]") {
    STATIC_REQUIRE_FALSE(std::is_copy_constructible_v<sg::credentials>);
    STATIC_REQUIRE_FALSE(std::is_copy_assignable_v<sg::credentials>);
    STATIC_REQUIRE(std::is_nothrow_move_constructible_v<sg::credentials>);
    // Short values live in each string's inline buffer, which a plain move leaves behind.
    sg::credentials a("keyAB", "c2hvcnQ=", "passCD");
    CHECK(a.api_key() == "keyAB");
    CHECK(a.secret() == "c2hvcnQ=");
    CHECK(a.passphrase() == "passCD");
    REQUIRE(gst::representation_holds(&a, "c2hvcnQ="));
    // What a move leaves behind is the point, read through pointers taken before the moves.
    auto const* const first = &a;
    sg::credentials b(std::move(a));
    auto const* const second = &b;
    CHECK(b.secret() == "c2hvcnQ=");
    // NOLINTNEXTLINE(clang-analyzer-cplusplus.Move): reading what the move left is the point
    CHECK(first->api_key().empty());
    CHECK(first->secret().empty());
    CHECK(first->passphrase().empty());
    CHECK_FALSE(gst::representation_holds(first, "keyAB"));
    CHECK_FALSE(gst::representation_holds(first, "c2hvcnQ="));
    CHECK_FALSE(gst::representation_holds(first, "passCD"));

    sg::credentials c("other", "b3RoZXI=", "x");
    c = std::move(b);
    CHECK(c.api_key() == "keyAB");
    CHECK(c.secret() == "c2hvcnQ=");
    CHECK(c.passphrase() == "passCD");
    // NOLINTNEXTLINE(clang-analyzer-cplusplus.Move)
    CHECK(second->secret().empty());
    CHECK_FALSE(gst::representation_holds(second, "c2hvcnQ="));
    CHECK_FALSE(gst::representation_holds(&c, "b3RoZXI="));

    // Destroyed in storage of our own, whose bytes stay readable afterwards.
    alignas(sg::credentials) std::array<unsigned char, sizeof(sg::credentials)> storage{};
    auto* d = new (storage.data()) sg::credentials("keyEF", "ZGVzdHJveQ==", "passGH");
    REQUIRE(d->secret() == "ZGVzdHJveQ==");
    std::string_view const bytes(reinterpret_cast<char const*>(storage.data()), storage.size());
    REQUIRE(gst::holds_rest_of(bytes, "ZGVzdHJveQ=="));
    d->~credentials();
    CHECK_FALSE(gst::holds_rest_of(bytes, "keyEF"));
    CHECK_FALSE(gst::holds_rest_of(bytes, "ZGVzdHJveQ=="));
    CHECK_FALSE(gst::holds_rest_of(bytes, "passGH"));
}

// ---- 5.1 Order --------------------------------------------------------------------------------

TEST_CASE("gamma Order: type hash, domain separators and exchanges of gamma.md 5.1",
          "[unit][gamma][sign]") {
    CHECK(gst::hex(sign::keccak256(
              "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,"
              "uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,"
              "uint256 feeRateBps,uint8 side,uint8 signatureType)")) ==
          "a852566c4e14d00869b6db0220888a9090a13eccdaea03713ff0a3d27bf9767c");
    CHECK(gst::hex(sign::keccak256("EIP712Domain(string name,string version,uint256 chainId,"
                                   "address verifyingContract)")) ==
          "8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f");
    CHECK(sg::ctf_exchange().str() == "0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e");
    CHECK(sg::neg_risk_ctf_exchange().str() == "0xc5d563a36ae78145c45a50134d48a1215220f80a");
    CHECK(sg::exchange_for(false) == sg::ctf_exchange());
    CHECK(sg::exchange_for(true) == sg::neg_risk_ctf_exchange());
    CHECK(gst::hex(sg::order_domain_separator(sg::ctf_exchange())) ==
          "1a573e3617c78403b5b4b892827992f027b03d4eaf570048b8ee8cdd84d151be");
    CHECK(gst::hex(sg::order_domain_separator(sg::neg_risk_ctf_exchange())) ==
          "82cb6aa85babb812f4b521a12b10f0cbc68d2b44be7bc02c047004f544adb49f");
    // The cached domains equal the general code's.
    for (bool neg : {false, true}) {
        auto const td = sg::order_typed_data(gst::vector_order(), sg::exchange_for(neg));
        CHECK(sign::eip712::domain_separator(td).value() ==
              sg::order_domain_separator(sg::exchange_for(neg)));
    }
}

TEST_CASE("gamma Order: python-order-utils' vector on both exchanges", "[unit][gamma][sign]") {
    struct row {
        std::string exchange, digest, signature;
    };
    auto const v = GENERATE(values<row>({
        {gst::amoy_exchange, "02ca1d1aa31103804173ad1acd70066cb6c1258a4be6dada055111f9a7ea4e55",
         "0x302cd9abd0b5fcaa202a344437ec0b6660da984e24ae9ad915a592a90facf5a51bb8a873cd8d270f0702"
         "17fea1986531d5eec66f1162a81f66e026db653bf7ce1c"},
        {"0xC5d563A36AE78145C45a50134d48A1215220f80a",
         "f15790d3edc4b5aed427b0b543a9206fcf4b1a13dfed016d33bfb313076263b8",
         "0x1b3646ef347e5bd144c65bd3357ba19c12c12abaeedae733cf8579bc51a2752c0454c3bc6b236957e393"
         "637982c769b8dc0706c0f5c399983d933850afd1cbcd1c"},
    }));
    CAPTURE(v.exchange);
    auto const key = gst::test_key();
    auto const exchange = gst::addr(v.exchange);
    auto const o = gst::vector_order();
    CHECK(gst::hex(sg::order_struct_hash(o)) ==
          "26eb80b08612a9945a9a2af3af152f3bcdccd154f9708a68d2f261f44b66a11d");
    auto const digest = sg::order_digest(o, exchange, sg::amoy_chain_id);
    CHECK(gst::hex(digest) == v.digest);
    auto const td = sg::order_typed_data(o, exchange, sg::amoy_chain_id);
    CHECK(sign::eip712::hash_typed_data(td).value() == digest);
    CHECK(sign::eip712::hash_struct(td.as_object().at("types").as_object(), "Order",
                                    td.as_object().at("message"))
              .value() == sg::order_struct_hash(o));
    CHECK(sg::sign_order(o, exchange, key, sg::amoy_chain_id) == v.signature);
    CHECK(sg::recover_order(o, exchange, v.signature, sg::amoy_chain_id).value() ==
          gst::addr(gst::key_address));
    // What a wallet signs over the typed data is the same signature.
    CHECK(sign::signature_to_hex(sign::eip712::sign_typed_data(td, key).value()) == v.signature);
    // Signed for one exchange (or chain), it recovers to someone else on the other.
    auto const other_exchange = v.exchange == gst::amoy_exchange ? sg::neg_risk_ctf_exchange()
                                                                 : gst::addr(gst::amoy_exchange);
    CHECK(sg::recover_order(o, other_exchange, v.signature, sg::amoy_chain_id).value() !=
          gst::addr(gst::key_address));
    CHECK(sg::recover_order(o, exchange, v.signature).value() != gst::addr(gst::key_address));
}

TEST_CASE("gamma Order: every signed member matters and a bad signature is named",
          "[unit][gamma][sign]") {
    auto const key = gst::test_key();
    auto const me = gst::addr(gst::key_address);
    auto const o = gst::vector_order();
    auto const sig = sg::sign_order(o, sg::ctf_exchange(), key);
    REQUIRE(sg::recover_order(o, sg::ctf_exchange(), sig).value() == me);
    auto const changed = [&](auto mutate) {
        sg::order c = o;
        mutate(c);
        return sg::recover_order(c, sg::ctf_exchange(), sig).value();
    };
    CHECK(changed([](sg::order& c) { c.salt += 1; }) != me);
    CHECK(changed([](sg::order& c) { c.maker = gst::addr("0x" + std::string(40, '1')); }) != me);
    CHECK(changed([](sg::order& c) { c.signer = gst::addr("0x" + std::string(40, '1')); }) != me);
    CHECK(changed([](sg::order& c) { c.taker = gst::addr("0x" + std::string(40, '1')); }) != me);
    CHECK(changed([](sg::order& c) { c.token_id = "1235"; }) != me);
    CHECK(changed([](sg::order& c) { c.maker_amount += 1; }) != me);
    CHECK(changed([](sg::order& c) { c.taker_amount += 1; }) != me);
    CHECK(changed([](sg::order& c) { c.expiration = 1; }) != me);
    CHECK(changed([](sg::order& c) { c.nonce = 1; }) != me);
    CHECK(changed([](sg::order& c) { c.fee_rate_bps = 0; }) != me);
    CHECK(changed([](sg::order& c) { c.side = sg::order_side::sell; }) != me);
    CHECK(changed([](sg::order& c) { c.signature_type = 1; }) != me);
    // A 78-digit token id (the real ones are uint256) signs and recovers.
    sg::order big = o;
    big.token_id = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
    CHECK(sg::recover_order(big, sg::ctf_exchange(), sg::sign_order(big, sg::ctf_exchange(), key))
              .value() == me);
    CHECK(sign::eip712::hash_typed_data(sg::order_typed_data(big, sg::ctf_exchange())).value() ==
          sg::order_digest(big, sg::ctf_exchange()));

    for (std::string const& bad : {std::string(), std::string("0x12"), sig.substr(2), sig + "00",
                                   sig.substr(0, 130) + "01"}) {
        CAPTURE(bad);
        auto const r = sg::recover_order(o, sg::ctf_exchange(), bad);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::signature_error);
        CHECK(r.error().field() == "signature");
    }
    for (std::string const& bad_token : {std::string(), std::string("0x1234"), std::string("12a"),
                                         std::string("-1"), std::string(79, '9')}) {
        CAPTURE(bad_token);
        sg::order c = o;
        c.token_id = bad_token;
        auto const r = sg::recover_order(c, sg::ctf_exchange(), sig);
        REQUIRE_FALSE(r);
        CHECK(r.error().field() == "tokenId");
    }
}

// ---- 5.3 wire -----------------------------------------------------------------------------------

TEST_CASE("gamma order_wire has gamma.md 5.3's members, order and JSON types",
          "[unit][gamma][sign]") {
    auto o = gst::vector_order();
    o.side = sg::order_side::sell;
    o.token_id = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
    o.expiration = 1700000000;
    std::string const sig = sg::sign_order(o, sg::ctf_exchange(), gst::test_key());
    auto const w = sg::order_wire(o, sig);
    CHECK(
        boost::json::serialize(w) ==
        R"({"salt":479249096354,"maker":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",)"
        R"("signer":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",)"
        R"("taker":"0x0000000000000000000000000000000000000000",)"
        R"("tokenId":"71321045679252212594626385532706912750332728571942532289631379312455583992563",)"
        R"("makerAmount":"100000000","takerAmount":"50000000","expiration":"1700000000",)"
        R"("nonce":"0","feeRateBps":"100","side":"SELL","signatureType":0,"signature":")" +
            sig + R"("})");
    CHECK(w.at("salt").is_uint64());
    CHECK(w.at("signatureType").is_uint64());

    // The round trip, through the text the wire carries.
    auto const back = sg::parse_order_wire(boost::json::parse(boost::json::serialize(w))).value();
    CHECK(sg::order_digest(back, sg::ctf_exchange()) == sg::order_digest(o, sg::ctf_exchange()));
    CHECK(sg::recover_order(back, sg::ctf_exchange(), std::string(w.at("signature").as_string()))
              .value() == gst::addr(gst::key_address));
    CHECK(boost::json::serialize(sg::order_wire(back, sig)) == boost::json::serialize(w));
}

TEST_CASE("gamma parse_order_wire reads what the TypeScript and Python clients send",
          "[unit][gamma][sign]") {
    // clob-client's orderToJson: checksummed addresses, salt a number, deferExec elsewhere.
    auto const ts = boost::json::parse(R"({
        "salt": 479249096354,
        "maker": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "signer": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        "taker": "0x0000000000000000000000000000000000000000",
        "tokenId": "1234", "makerAmount": "100000000", "takerAmount": "50000000",
        "expiration": "0", "nonce": "0", "feeRateBps": "100",
        "side": "BUY", "signatureType": 0, "signature": "0x00"})");
    auto const o = sg::parse_order_wire(ts).value();
    CHECK(sg::order_digest(o, gst::addr(gst::amoy_exchange), sg::amoy_chain_id) ==
          sg::order_digest(gst::vector_order(), gst::addr(gst::amoy_exchange), sg::amoy_chain_id));
    // Numbers where strings are usual, a string salt and a lower-case side read the same.
    auto loose = ts.as_object();
    loose["salt"] = "479249096354";
    loose["makerAmount"] = 100000000;
    loose["feeRateBps"] = 100;
    loose["tokenId"] = 1234;
    loose["side"] = "buy";
    loose["signatureType"] = "0";
    loose["unknownMember"] = true;
    auto const l = sg::parse_order_wire(loose).value();
    CHECK(sg::order_struct_hash(l) == sg::order_struct_hash(o));

    struct bad_case {
        std::string member;
        boost::json::value value;
    };
    std::vector<bad_case> const bad_cases{
        {"salt", -1},
        {"salt", 1.5},
        {"salt", "18446744073709551616"},
        {"maker", "0x1234"},
        {"signer", 7},
        {"taker", nullptr},
        {"tokenId", "0x04d2"},
        {"tokenId", ""},
        {"makerAmount", "1e6"},
        {"takerAmount", "-5"},
        {"expiration", "18446744073709551616"},
        {"nonce", true},
        {"feeRateBps", " 1"},
        {"side", 0},
        {"side", "HOLD"},
        {"signatureType", 256},
    };
    for (auto const& [member, value] : bad_cases) {
        CAPTURE(member, boost::json::serialize(value));
        auto broken = ts.as_object();
        broken[member] = value;
        auto const r = sg::parse_order_wire(broken);
        REQUIRE_FALSE(r);
        CHECK(r.error().code == errc::validation_error);
        CHECK(r.error().field() == member);
        auto missing = ts.as_object();
        missing.erase(member);
        auto const m = sg::parse_order_wire(missing);
        REQUIRE_FALSE(m);
        CHECK(m.error().field() == member);
    }
    auto const not_object = sg::parse_order_wire(boost::json::array{});
    REQUIRE_FALSE(not_object);
    CHECK(not_object.error().field() == "order");
}

// ---- 5.2 amounts --------------------------------------------------------------------------------

namespace gamma_signing_test {

decimal dec(std::string_view text) {
    return decimal::parse(text).value();
}

struct amounts_row {
    gateway::side side;
    std::string price, size, tick;
    std::uint64_t maker, taker;
};

} // namespace gamma_signing_test

TEST_CASE("gamma amounts: every row of gamma.md 5.2's table", "[unit][gamma][sign]") {
    using gateway::side;
    auto const v = GENERATE(values<gst::amounts_row>({
        {side::buy, "0.24", "15", "0.01", 3600000, 15000000},
        {side::sell, "0.24", "15", "0.01", 15000000, 3600000},
        {side::buy, "0.82", "101", "0.01", 82820000, 101000000},
        // The table's 12.8205 is floored to 12.82 by the clients; the gateway takes only 12.82
        // (the refusal of 12.8205 is below).
        {side::buy, "0.78", "12.82", "0.01", 9999600, 12820000},
        {side::sell, "0.39", "2435.89", "0.01", 2435890000, 949997100},
        {side::sell, "0.43", "19.1", "0.01", 19100000, 8213000},
        {side::buy, "0.58", "18233.33", "0.01", 10575331400, 18233330000},
        {side::buy, "0.5", "21.04", "0.1", 10520000, 21040000},
        {side::sell, "0.5", "21.04", "0.1", 21040000, 10520000},
        {side::buy, "0.56", "21.04", "0.01", 11782400, 21040000},
        {side::buy, "0.056", "21.04", "0.001", 1178240, 21040000},
        {side::buy, "0.0056", "21.04", "0.0001", 117824, 21040000},
        {side::sell, "0.0056", "21.04", "0.0001", 21040000, 117824},
    }));
    CAPTURE(to_string(v.side), v.price, v.size, v.tick);
    auto const a = sg::order_amounts(v.side, gst::dec(v.price), gst::dec(v.size), gst::dec(v.tick));
    REQUIRE(a);
    CHECK(a->maker == v.maker);
    CHECK(a->taker == v.taker);
}

TEST_CASE("gamma amounts refuse what the clients would round", "[unit][gamma][sign]") {
    using gateway::side;
    struct refusal {
        std::string price, size, tick, field;
    };
    auto const v = GENERATE(values<refusal>({
        {"0.555", "10", "0.01", "price"}, // off the tick grid
        {"0.05", "10", "0.1", "price"},   // off a coarse grid
        {"0.00005", "10", "0.0001", "price"},
        {"0", "10", "0.01", "price"},       // 0
        {"1", "10", "0.01", "price"},       // 1
        {"0.001", "10", "0.01", "price"},   // below tick
        {"0.995", "10", "0.01", "price"},   // above 1 - tick
        {"0.9999", "10", "0.001", "price"}, // above 1 - tick, finer than the tick
        {"-0.5", "10", "0.01", "price"},
        {"1.5", "10", "0.01", "price"},
        {"0.5", "10", "0", "price"},         // unknown tick
        {"0.5", "10", "0.00001", "price"},   // a tick finer than 6-decimal amounts
        {"0.5", "10", "0.5", "price"},       // an empty price range
        {"0.78", "12.8205", "0.01", "size"}, // gamma.md's row, floored by the clients
        {"0.5", "1.005", "0.01", "size"},    // 3 decimals
        {"0.5", "0", "0.01", "size"},
        {"0.5", "-1", "0.01", "size"},
        {"0.5", "999999999999999", "0.01", "size"},       // shares overflow 64 bits
        {"0.5", "100000000000000000000", "0.01", "size"}, // size itself beyond 64 bits
    }));
    CAPTURE(v.price, v.size, v.tick);
    for (auto s : {side::buy, side::sell}) {
        auto const a = sg::order_amounts(s, gst::dec(v.price), gst::dec(v.size), gst::dec(v.tick));
        REQUIRE_FALSE(a);
        CHECK(a.error().code == errc::validation_error);
        CHECK(a.error().field() == v.field);
    }
    // The edges of the range are prices.
    CHECK(sg::order_amounts(side::buy, gst::dec("0.01"), gst::dec("1"), gst::dec("0.01")));
    CHECK(sg::order_amounts(side::buy, gst::dec("0.99"), gst::dec("1"), gst::dec("0.01")));
    CHECK(sg::order_amounts(side::sell, gst::dec("0.999"), gst::dec("0.01"), gst::dec("0.001")));
    // The largest amounts that fit are exact.
    auto const big = sg::order_amounts(side::buy, gst::dec("0.99"), gst::dec("18446744073709.55"),
                                       gst::dec("0.01"));
    REQUIRE(big);
    CHECK(big->taker == 18446744073709550000ULL);
    CHECK(big->maker == 18262276632972454500ULL);
    auto const over = sg::order_amounts(side::buy, gst::dec("0.99"), gst::dec("18446744073709.56"),
                                        gst::dec("0.01"));
    REQUIRE_FALSE(over);
    CHECK(over.error().field() == "size");
}

// ---- CONTRACT 6.3 derivation and the SDK signer ---------------------------------------------

namespace gamma_signing_test {

std::string const token =
    "71321045679252212594626385532706912750332728571942532289631379312455583992563";

gamma_order_request body() {
    gamma_order_request r;
    r.token_id = token;
    r.side = gateway::side::buy;
    r.size = dec("21.04");
    r.price = dec("0.56");
    return r;
}

sg::token_rules rules(bool neg_risk = false) {
    return {dec("0.01"), neg_risk, dec("5")};
}

} // namespace gamma_signing_test

TEST_CASE("gamma order_of: the Order a body stands for", "[unit][gamma][sign]") {
    auto r = gst::body();
    r.wallet = gst::addr(gst::key_address);
    r.salt = 479249096354;
    r.side = gateway::side::sell;
    r.expiration = 1700000000;
    r.nonce = 3;
    r.fee_rate_bps = 7;
    auto const o = sg::order_of(r, gst::rules()).value();
    CHECK(o.salt == 479249096354);
    CHECK(o.maker == r.wallet);
    CHECK(o.signer == r.wallet);
    CHECK(o.taker.is_zero());
    CHECK(o.token_id == gst::token);
    CHECK(o.maker_amount == 21040000);
    CHECK(o.taker_amount == 11782400);
    CHECK(o.expiration == 1700000000);
    CHECK(o.nonce == 3);
    CHECK(o.fee_rate_bps == 7);
    CHECK(o.side == sg::order_side::sell);
    CHECK(o.signature_type == 0);

    struct refusal {
        char const* field;
        void (*mutate)(gamma_order_request&);
    };
    std::vector<refusal> const refusals{
        {"signatureType",
         [](gamma_order_request& b) {
             b.signature_type = 1;
         }},
        {"signatureType",
         [](gamma_order_request& b) {
             b.signature_type = 2;
         }},
        {"signatureType",
         [](gamma_order_request& b) {
             b.signature_type = 3;
         }},
        {"salt",
         [](gamma_order_request& b) {
             b.salt.reset();
         }},
        {"salt",
         [](gamma_order_request& b) {
             b.salt = sg::max_salt + 1;
         }},
        {"wallet",
         [](gamma_order_request& b) {
             b.wallet = address();
         }},
        {"tokenId",
         [](gamma_order_request& b) {
             b.token_id = "0x1234";
         }},
        {"tokenId",
         [](gamma_order_request& b) {
             b.token_id = std::string(79, '9');
         }},
        {"expiration",
         [](gamma_order_request& b) {
             b.expiration = -1;
         }},
        {"nonce",
         [](gamma_order_request& b) {
             b.nonce = -1;
         }},
        {"feeRateBps",
         [](gamma_order_request& b) {
             b.fee_rate_bps = -1;
         }},
        {"size",
         [](gamma_order_request& b) {
             b.size = gst::dec("4.99");
         }}, // min_size 5
        {"size",
         [](gamma_order_request& b) {
             b.size = gst::dec("5.001");
         }},
        {"price",
         [](gamma_order_request& b) {
             b.price = gst::dec("0.565");
         }},
    };
    for (auto const& [field, mutate] : refusals) {
        CAPTURE(field);
        auto bad = r;
        mutate(bad);
        auto const e = sg::order_of(bad, gst::rules());
        REQUIRE_FALSE(e);
        CHECK(e.error().code == errc::validation_error);
        CHECK(e.error().field() == field);
    }
    // min_size 0 is "unknown": not checked.
    auto small = r;
    small.size = gst::dec("0.01");
    CHECK(sg::order_of(small, {gst::dec("0.01"), false, decimal()}));
    CHECK(sg::order_of(small, {gst::dec("0.01"), false, gst::dec("0.01")}));
    CHECK_FALSE(sg::order_of(small, {gst::dec("0.01"), false, gst::dec("0.02")}));
}

TEST_CASE("gamma new_salt is random and below 2^53", "[unit][gamma][sign]") {
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 200; ++i) {
        auto const s = sg::new_salt();
        CHECK(s >= 1);
        CHECK(s <= sg::max_salt);
        seen.insert(s);
    }
    CHECK(seen.size() == 200);
}

TEST_CASE("gamma signer: three lines to sign, and the gateway accepts what it signed",
          "[unit][gamma][sign]") {
    auto const neg_risk = GENERATE(false, true);
    CAPTURE(neg_risk);
    auto const rules = gst::rules(neg_risk);
    sg::signer const s(gst::test_key());
    CHECK(s.address() == gst::addr(gst::key_address));

    auto r = gst::body();
    REQUIRE(s.sign(r, rules));
    REQUIRE(r.salt);
    CHECK(*r.salt >= 1);
    CHECK(*r.salt <= sg::max_salt);
    CHECK(r.wallet == s.address());
    CHECK(r.signature.size() == 132);

    // The gateway side: derive the Order from the body, recover against the wallet.
    auto const o = sg::order_of(r, rules).value();
    auto const exchange = sg::exchange_for(neg_risk);
    CHECK(sg::recover_order(o, exchange, r.signature).value() == r.wallet);
    CHECK(sg::recover_order(o, sg::exchange_for(!neg_risk), r.signature).value() != r.wallet);
    // A wallet signing the typed data the gateway would hand out gives the same signature.
    CHECK(s.sign_typed_data(sg::order_typed_data(o, exchange)).value() == r.signature);
    CHECK_FALSE(s.sign_typed_data(boost::json::object{}));

    // A body changed after signing recovers to another address.
    using change_fn = void (*)(gamma_order_request&);
    std::vector<std::pair<char const*, change_fn>> const changes{
        {"price",
         [](gamma_order_request& b) {
             b.price = gst::dec("0.57");
         }},
        {"size",
         [](gamma_order_request& b) {
             b.size = gst::dec("21.05");
         }},
        {"side",
         [](gamma_order_request& b) {
             b.side = gateway::side::sell;
         }},
        {"salt",
         [](gamma_order_request& b) {
             b.salt = *b.salt + 1;
         }},
        {"feeRateBps",
         [](gamma_order_request& b) {
             b.fee_rate_bps = 1;
         }},
        {"tokenId",
         [](gamma_order_request& b) {
             b.token_id.back() = '4';
         }},
    };
    for (auto const& [what, change] : changes) {
        CAPTURE(what);
        auto changed = r;
        change(changed);
        auto const co = sg::order_of(changed, rules).value();
        auto const who = sg::recover_order(co, exchange, changed.signature).value();
        CHECK(who != r.wallet);
    }

    // A given salt and wallet are kept; the same body signs the same way.
    auto again = gst::body();
    again.salt = r.salt;
    again.wallet = r.wallet;
    REQUIRE(s.sign(again, rules));
    CHECK(again.salt == r.salt);
    CHECK(again.signature == r.signature);
}

TEST_CASE("gamma signer refuses, leaving the request as it was", "[unit][gamma][sign]") {
    sg::signer const s(gst::test_key());
    auto r = gst::body();
    r.wallet = gst::addr("0x0000000000000000000000000000000000000001");
    auto e = s.sign(r, gst::rules());
    REQUIRE_FALSE(e);
    CHECK(e.error().field() == "wallet");
    CHECK(r.wallet == gst::addr("0x0000000000000000000000000000000000000001"));
    CHECK_FALSE(r.salt);
    CHECK(r.signature.empty());

    r = gst::body();
    r.price = gst::dec("0.565");
    e = s.sign(r, gst::rules());
    REQUIRE_FALSE(e);
    CHECK(e.error().field() == "price");
    CHECK(r.wallet.is_zero());
    CHECK_FALSE(r.salt);
    CHECK(r.signature.empty());
}
