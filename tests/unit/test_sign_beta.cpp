// beta's (Aster's) v3 signing against every vector of upstreams/beta.md §3.2: the domain
// constants, the digest (computed directly and through the general EIP-712 code, which must
// agree), the signature and its recovery, on mainnet (1666) and testnet (714).
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"

#include <gateway/providers/beta/signing.hpp>
#include <gateway/sign/eip712.hpp>
#include <gateway/util/ascii.hpp>

using namespace gateway;
namespace sb = gateway::sign::beta;

namespace {

std::string const user = "0x63DD5aCC6b1aa0f563956C0e534DD30B6dcF7C4e";
std::string const signer = "0x21cF8Ae13Bb72632562c6Fff438652Ba1a151bb0";
std::string const key_hex = "0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1";

struct vector {
    char const* name;
    std::string msg;
    bool testnet;
    char const* digest;
    char const* signature;
};

} // namespace

TEST_CASE("beta domain separators and type hash are beta.md 3.1's constants",
          "[unit][sign][beta]") {
    CHECK(util::to_hex(sb::domain_separator(false), false) ==
          "a95d0a7a6f3f17fcebb0c2336645385ce79cde7523f71ab147fdb7f15e9f37f9");
    CHECK(util::to_hex(sb::domain_separator(true), false) ==
          "fad01b07bed5729a04dbb977fd86da612eba71d668660bf12cf10b3d65b74d94");
    CHECK(util::to_hex(sign::keccak256("Message(string msg)"), false) ==
          "c4cfb57eea370ef2a92403a7e865b2de262d7ca272333665b54ad7e6a602ef68");
}

TEST_CASE("beta.md 3.2 vectors: digest, signature and recovery", "[unit][sign][beta]") {
    std::string const order = "symbol=ASTERUSDT&type=LIMIT&side=BUY&timeInForce=GTC&quantity=20&"
                              "price=0.5&nonce=1748310859508867&user=" +
                              user + "&signer=" + signer;
    auto const v = GENERATE_COPY(values<vector>({
        {"V1 order mainnet", order, false,
         "214122039b686e20a15baab91d368d354cf8c88067cb8b0e96e9018d8b08a625",
         "0x0a56c5923ebf3524475c5f631940ec4c0e41dbd300ad28198d1915d8f3ca49ce26fd1aeb8b0c3079133595"
         "da0de38322ae7e860e0c76d032c4a491d27c1430b01c"},
        {"V2 order testnet", order, true,
         "d0a3cddc3992449300d5b6fa97e441d66d0f950a032b0707455996c29d8477c5",
         "0xf91e000376f360c1661cf0fbc79a816e915dce485c616bd49c5e35c6cbc5ba5042ccf75a2bffd282676dbf"
         "698087a73982bfd1491a993eeedc276f6827c94a8c1c"},
        {"V3 positionRisk",
         "symbol=BTCUSDT&nonce=1748310859508867&user=" + user + "&signer=" + signer, false,
         "c1c1eb6dcc815c9bb372eb6954d114a7e2389605654e03dfd1cafcb6e5e366d2",
         "0xe4ce1abcc9a2a79ab5bc0073fa288904c9aab8456297b446de4ffb3869e9bfbb02419eccf8c803831bedd8"
         "e95f3158e3f185df0b84d1d8e292845ca9ef709bf51c"},
        {"V4 without user",
         "symbol=ASTERUSDT&type=LIMIT&side=BUY&timeInForce=GTC&quantity=100&price=0.4&nonce="
         "1748310859508867&signer=" +
             signer,
         false, "cb584b63b51504b5e888f2204f37463233510db81420f759d3d7cd5478cb597d",
         "0x01fa9a5165f037269474d8867cded1e9d1ee6a08fb069dd251904a7f19bad6b05ba9c8619e17db4f0dc2d9"
         "058902b93ee2c744518929dceba34c44cc1f8592f01b"},
        {"V5 trailing stop",
         "symbol=BTCUSDT&side=SELL&type=TRAILING_STOP_MARKET&quantity=0.01&callbackRate=1&"
         "activationPrice=70000&reduceOnly=true&nonce=1748310859508867&user=" +
             user + "&signer=" + signer,
         false, "4b30789562016567700d2488505881a8ff00430d813749e06a574b8ded3690cb",
         "0xfb5bf9d4b9b448babe4adfa2bce552b67cbb1b10319205a79f5ae530cb73a97b7f4ef3897b7023976f31a8"
         "1fcf65881cd19c3839c1e97487a2211e0c49bc56ed1b"},
    }));
    CAPTURE(v.name);
    auto const key = sign::private_key::from_hex(key_hex).value();
    CHECK(util::to_hex(sb::digest(v.msg, v.testnet), false) == v.digest);
    auto const general = sign::eip712::hash_typed_data(sb::typed_data(v.msg, v.testnet));
    REQUIRE(general);
    CHECK(util::to_hex(*general, false) == v.digest);
    CHECK(sb::sign_message(v.msg, key, v.testnet) == v.signature);
    auto const who = sb::recover_message(v.msg, v.signature, v.testnet);
    REQUIRE(who);
    CHECK(who->str() == util::to_lower(signer));
    // go-aster sends the signature without 0x: the same signer.
    CHECK(sb::recover_message(v.msg, std::string(v.signature).substr(2), v.testnet).value() ==
          *who);
    // The other network's domain recovers someone else.
    CHECK(sb::recover_message(v.msg, v.signature, !v.testnet).value() != *who);
}

TEST_CASE("beta nonces are microseconds and strictly increasing", "[unit][sign][beta]") {
    auto const a = sb::next_nonce_us();
    auto const b = sb::next_nonce_us();
    CHECK(b > a);
    CHECK(a > 1'700'000'000'000'000ULL); // after 2023, in microseconds
}

TEST_CASE("beta read nonces never equal a millisecond nonce x 1000", "[unit][sign][beta]") {
    // Calls faster than the clock count up by 1 µs, so 20000 of them, alternating with
    // next_nonce_us, walk across many multiples of 1000.
    std::uint64_t last = sb::next_nonce_us();
    int not_increasing = 0, on_a_millisecond = 0;
    for (int i = 0; i < 20000; ++i) {
        bool const read = i % 2 == 0;
        auto const n = read ? sb::next_read_nonce_us() : sb::next_nonce_us();
        not_increasing += n <= last;
        on_a_millisecond += read && n % 1000 == 0;
        last = n;
    }
    CHECK(not_increasing == 0);
    CHECK(on_a_millisecond == 0);
}
