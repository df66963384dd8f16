// Unit tests of the EIP-712 implementation (include/gateway/sign/eip712.hpp): the EIP's own
// `Mail` example, gamma's ClobAuth vector (upstreams/gamma.md §4.1), atomic/dynamic/array/struct
// encodings, integer ranges and the errors that name the offending field.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/values.hpp"

#include <gateway/sign/eip712.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <string>

namespace sign = gateway::sign;
namespace eip712 = gateway::sign::eip712;

using gateway::test::hex;

namespace {

// The example of EIP-712 itself (eips.ethereum.org/EIPS/eip-712, Example.js).
boost::json::value mail() {
    return boost::json::parse(R"({
      "types": {
        "EIP712Domain": [
          {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
          {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}
        ],
        "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
        "Mail": [
          {"name": "from", "type": "Person"}, {"name": "to", "type": "Person"},
          {"name": "contents", "type": "string"}
        ]
      },
      "primaryType": "Mail",
      "domain": {"name": "Ether Mail", "version": "1", "chainId": 1,
                 "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
      "message": {
        "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
        "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
        "contents": "Hello, Bob!"
      }
    })");
}

boost::json::object const& types_of(boost::json::value const& td) {
    return td.at("types").as_object();
}

/// Typed data with one struct `T` made of `members`, message `message`.
boost::json::value single(std::string const& members, std::string const& message) {
    return boost::json::parse(R"({"types":{"EIP712Domain":[{"name":"name","type":"string"}],"T":)" +
                              members + R"(},"primaryType":"T","domain":{"name":"x"},"message":)" +
                              message + "}");
}

std::string field_of_error(boost::json::value const& td) {
    auto const r = eip712::hash_typed_data(td);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == gateway::errc::validation_error);
    return std::string(r.error().field());
}
} // namespace

TEST_CASE("EIP-712 Mail example: encodeType, typeHash, hashStruct, digest", "[unit][sign]") {
    auto const td = mail();
    CHECK(eip712::encode_type(types_of(td), "Mail").value() ==
          "Mail(Person from,Person to,string contents)Person(string name,address wallet)");
    CHECK(hex(eip712::type_hash(types_of(td), "Mail").value()) ==
          "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2");
    CHECK(hex(eip712::encode_data(types_of(td), "Mail", td.at("message")).value()) ==
          "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2"
          "fc71e5fa27ff56c350aa531bc129ebdf613b772b6604664f5d8dbe21b85eb0c8"
          "cd54f074a4af31b4411ff6a60c9719dbd559c221c8ac3492d9d872b041d703d1"
          "b5aadf3154a261abdd9086fc627b61efca26ae5702701d05cd2305f7c52a2fc8");
    CHECK(hex(eip712::hash_struct(types_of(td), "Mail", td.at("message")).value()) ==
          "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e");
    CHECK(hex(eip712::domain_separator(td).value()) ==
          "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f");
    CHECK(hex(eip712::hash_typed_data(td).value()) ==
          "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
}

TEST_CASE("EIP-712 Mail example: signature with keccak256(\"cow\")", "[unit][sign]") {
    auto const cow = sign::keccak256(std::string_view("cow"));
    auto const key = sign::private_key::from_bytes(cow).value();
    CHECK(sign::address_of(key).str() == "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826");
    auto const sig = eip712::sign_typed_data(mail(), key).value();
    CHECK(sign::signature_to_hex(sig) ==
          "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"
          "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c");
    CHECK(eip712::recover_typed_data(mail(), sig).value().str() ==
          "0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826");
}

TEST_CASE("EIP-712 infers the domain type when EIP712Domain is absent", "[unit][sign]") {
    auto td = mail();
    td.at("types").as_object().erase("EIP712Domain");
    CHECK(hex(eip712::hash_typed_data(td).value()) ==
          "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
}

TEST_CASE("EIP-712 gamma ClobAuth vector (domain without verifyingContract)", "[unit][sign]") {
    auto const td = boost::json::parse(R"({
      "types": {
        "EIP712Domain": [{"name":"name","type":"string"},{"name":"version","type":"string"},
                         {"name":"chainId","type":"uint256"}],
        "ClobAuth": [{"name":"address","type":"address"},{"name":"timestamp","type":"string"},
                     {"name":"nonce","type":"uint256"},{"name":"message","type":"string"}]
      },
      "primaryType": "ClobAuth",
      "domain": {"name":"ClobAuthDomain","version":"1","chainId":80002},
      "message": {"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","timestamp":"10000000",
                  "nonce":23,"message":"This message attests that I control the given wallet"}
    })");
    CHECK(hex(eip712::type_hash(types_of(td), "EIP712Domain").value()) ==
          "c2f8787176b8ac6bf7215b4adcc1e069bf4ab82d9ab1df05a57a91d425935b6e");
    CHECK(hex(eip712::type_hash(types_of(td), "ClobAuth").value()) ==
          "52578c5c725a28a84fedc8c22aa47947822942f35b4dc350db028e45320e035c");
    CHECK(hex(eip712::hash_typed_data(td).value()) ==
          "8f442df8073c9cf2e36d7b20ca9d64d1a9352e982cc82a293b7de2df57920610");
    auto const key = sign::private_key::from_hex(
                         "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
                         .value();
    CHECK(sign::signature_to_hex(eip712::sign_typed_data(td, key).value()) ==
          "0xf62319a987514da40e57e2f4d7529f7bac38f0355bd88bb5adbb3768d80de6c1"
          "682518e0af677d5260366425f4361e7b70c25ae232aff0ab2331e2b164a1aedc1b");
}

TEST_CASE("EIP-712 encodeType collects referenced types recursively, sorted", "[unit][sign]") {
    auto const types = boost::json::parse(R"({
      "Z": [{"name":"b","type":"B[]"},{"name":"a","type":"A[2][]"},{"name":"self","type":"Z[]"}],
      "A": [{"name":"c","type":"C"}],
      "B": [{"name":"x","type":"uint8"}],
      "C": [{"name":"a","type":"A[]"},{"name":"s","type":"string"}]
    })")
                           .as_object();
    CHECK(eip712::encode_type(types, "Z").value() ==
          "Z(B[] b,A[2][] a,Z[] self)A(C c)B(uint8 x)C(A[] a,string s)");
    CHECK(eip712::encode_type(types, "A").value() == "A(C c)C(A[] a,string s)");
    auto const unknown = eip712::encode_type(
        boost::json::parse(R"({"T":[{"name":"x","type":"Missing"}]})").as_object(), "T");
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().field() == "types.T.x");
    CHECK(unknown.error().message.find("Missing") != std::string::npos);
    CHECK_FALSE(eip712::encode_type(types, "Nope"));
    CHECK_FALSE(eip712::encode_type(
        boost::json::parse(R"({"T":[{"name":"x","type":"uint8[a]"}]})").as_object(), "T"));
    CHECK_FALSE(
        eip712::encode_type(boost::json::parse(R"({"T":[{"name":"x"}]})").as_object(), "T"));
}

TEST_CASE("EIP-712 encodes atomic values as 32-byte words", "[unit][sign]") {
    auto word = [](std::string const& type, std::string const& value) {
        auto const td =
            single(R"([{"name":"v","type":")" + type + R"("}])", R"({"v":)" + value + "}");
        auto const enc = eip712::encode_data(types_of(td), "T", td.at("message"));
        REQUIRE(enc);
        REQUIRE(enc->size() == 64);
        return hex(std::span<std::uint8_t const>(*enc).subspan(32));
    };
    std::string const z62(62, '0');
    CHECK(word("uint8", "255") == z62 + "ff");
    CHECK(word("uint256", R"("0x1f")") == z62 + "1f");
    CHECK(word("uint64", R"("1700000000000")") == std::string(53, '0') + "18bcfe56800");
    CHECK(
        word(
            "uint256",
            R"("115792089237316195423570985008687907853269984665640564039457584007913129639935")") ==
        std::string(64, 'f'));
    CHECK(word("int8", "-1") == std::string(64, 'f'));
    CHECK(word("int8", "-128") == std::string(62, 'f') + "80");
    CHECK(word("int256", R"("-2")") == std::string(63, 'f') + "e");
    CHECK(word("int16", "1.0") == z62 + "01");
    CHECK(word("bool", "true") == z62 + "01");
    CHECK(word("bool", "false") == std::string(64, '0'));
    CHECK(word("address", R"("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")") ==
          std::string(24, '0') + "cd2a3d9f938e13cd947ec05abc7fe734df8dd826");
    CHECK(word("bytes4", R"("0xdeadbeef")") == "deadbeef" + std::string(56, '0'));
    CHECK(word("bytes32", R"("0x)" + std::string(64, 'a') + R"(")") == std::string(64, 'a'));
    CHECK(word("string", R"("")") ==
          "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    CHECK(word("bytes", R"("0x")") ==
          "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    CHECK(word("bytes", R"("0x616263")") == hex(sign::keccak256(std::string_view("abc"))));
    CHECK(word("string", R"("abc")") == hex(sign::keccak256(std::string_view("abc"))));
}

TEST_CASE("EIP-712 arrays hash the concatenation of their encoded elements", "[unit][sign]") {
    auto const td = boost::json::parse(R"({
      "types": {"EIP712Domain": [],
                "P": [{"name":"n","type":"string"}],
                "T": [{"name":"u","type":"uint8[]"},{"name":"f","type":"uint8[2]"},
                      {"name":"s","type":"string[]"},{"name":"p","type":"P[]"},
                      {"name":"m","type":"uint8[][2]"},{"name":"e","type":"bytes32[]"}]},
      "primaryType": "T", "domain": {},
      "message": {"u":[1,2],"f":[1,2],"s":["a","b"],"p":[{"n":"a"}],"m":[[1],[]],"e":[]}
    })");
    auto const enc = eip712::encode_data(types_of(td), "T", td.at("message")).value();
    REQUIRE(enc.size() == 7 * 32);
    auto part = [&](std::size_t i) {
        return hex(std::span<std::uint8_t const>(enc).subspan(32 * i, 32));
    };
    std::string const w1 = std::string(62, '0') + "01";
    std::string const w2 = std::string(62, '0') + "02";
    auto k = [](std::string const& hexes) {
        return hex(sign::keccak256(sign::from_hex(hexes).value()));
    };
    CHECK(part(1) == k(w1 + w2));
    CHECK(part(2) == k(w1 + w2));
    CHECK(part(3) == k(hex(sign::keccak256(std::string_view("a"))) +
                       hex(sign::keccak256(std::string_view("b")))));
    auto const p_hash = eip712::hash_struct(types_of(td), "P", boost::json::parse(R"({"n":"a"})"));
    CHECK(part(4) == k(hex(p_hash.value())));
    CHECK(part(5) == k(k(w1) + k("")));
    CHECK(part(6) == k(""));
}

TEST_CASE("EIP-712 refuses bad values, naming the field and type", "[unit][sign]") {
    auto field = [](std::string const& type, std::string const& value) {
        return field_of_error(
            single(R"([{"name":"v","type":")" + type + R"("}])", R"({"v":)" + value + "}"));
    };
    CHECK(field("uint8", "256") == "message.v");
    CHECK(field("uint8", "-1") == "message.v");
    CHECK(field("int8", "128") == "message.v");
    CHECK(field("int8", "-129") == "message.v");
    CHECK(
        field(
            "uint256",
            R"("115792089237316195423570985008687907853269984665640564039457584007913129639936")") ==
        "message.v");
    CHECK(field("uint256", R"("12a")") == "message.v");
    CHECK(field("uint256", R"("")") == "message.v");
    CHECK(field("uint256", "1.5") == "message.v");
    CHECK(field("uint256", "1e300") == "message.v");
    CHECK(field("uint256", "true") == "message.v");
    CHECK(field("bool", "1") == "message.v");
    CHECK(field("address", R"("0x1234")") == "message.v");
    CHECK(field("address", R"("CD2a3d9F938E13CD947Ec05AbC7FE734Df8DD82600")") == "message.v");
    CHECK(field("bytes4", R"("0xdeadbe")") == "message.v");
    CHECK(field("bytes", R"("abc")") == "message.v");
    CHECK(field("string", "1") == "message.v");
    CHECK(field("uint8[2]", "[1]") == "message.v");
    CHECK(field("uint8[]", "[1,256]") == "message.v[1]");
    CHECK(field("uint8[]", "1") == "message.v");
    CHECK(field("uint7", "1") == "types.T.v"); // unknown types name their definition
    CHECK(field("bytes33", R"("0x00")") == "types.T.v");

    // missing member
    CHECK(field_of_error(single(R"([{"name":"v","type":"uint8"}])", "{}")) == "message.v");
    // nested path
    auto const td = mail();
    auto broken = td;
    broken.at("message").at("to").as_object()["wallet"] = "0x12";
    auto const r = eip712::hash_typed_data(broken);
    REQUIRE_FALSE(r);
    CHECK(r.error().field() == "message.to.wallet");
    CHECK(r.error().message.find("address") != std::string::npos);
    // bad shapes
    CHECK(field_of_error(boost::json::parse("[]")) == "typedData");
    CHECK(field_of_error(boost::json::parse(R"({"types":{},"domain":{},"message":{}})")) ==
          "typedData.primaryType");
    auto bad_domain = td;
    bad_domain.at("domain").as_object()["chainId"] = "x";
    CHECK(field_of_error(bad_domain) == "domain.chainId");
}

TEST_CASE("EIP-712 null struct members encode as zero, extra message keys are ignored",
          "[unit][sign]") {
    auto td = mail();
    td.at("message").as_object()["extra"] = 1;
    CHECK(hex(eip712::hash_typed_data(td).value()) ==
          "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
    td.at("message").as_object()["to"] = nullptr;
    auto const enc = eip712::encode_data(types_of(td), "Mail", td.at("message")).value();
    CHECK(hex(std::span<std::uint8_t const>(enc).subspan(64, 32)) == std::string(64, '0'));
}

TEST_CASE("parse_uint256 reads decimal and hex up to 2^256-1", "[unit][sign]") {
    CHECK(hex(sign::parse_uint256("0").value()) == std::string(64, '0'));
    CHECK(hex(sign::parse_uint256("1337").value()) == std::string(61, '0') + "539");
    CHECK(hex(sign::parse_uint256("0x66eee").value()) == std::string(59, '0') + "66eee");
    CHECK(hex(sign::parse_uint256("0x" + std::string(64, 'F')).value()) == std::string(64, 'f'));
    CHECK_FALSE(sign::parse_uint256("0x1" + std::string(64, '0')));
    CHECK_FALSE(sign::parse_uint256("-1"));
    CHECK_FALSE(sign::parse_uint256("0x"));
    CHECK_FALSE(sign::parse_uint256(" 1"));
}
