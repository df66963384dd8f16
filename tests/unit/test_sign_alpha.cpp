// Unit tests of alpha's signing (include/gateway/providers/alpha/signing.hpp) against every vector
// of upstreams/alpha.md §6 (L1 action hashes and signatures, derived vectors, user-signed actions)
// and the §5.3/§5.8 constants, plus the §5.5 number formatting and the signature JSON form.
#include <catch2/catch.hpp>

#include "support/catch_result.hpp"
#include "support/values.hpp"

#include <gateway/providers/alpha/signing.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sign = gateway::sign;
namespace alpha = gateway::sign::alpha;

using gateway::test::hex;

namespace {

// upstreams/alpha.md §6 keys (public test keys of the upstream SDKs).
struct test_key {
    std::string secret;
    std::string address;
};
test_key const& test_keys(std::string const& id) {
    static std::map<std::string, test_key> const keys = {
        {"K1",
         {"0x0123456789012345678901234567890123456789012345678901234567890123",
          "0x14791697260e4c9a71f18484c9f997b308e59325"}},
        {"K2",
         {"0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff",
          "0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901"}},
        {"K3",
         {"0xe908f86dbb4d55ac876378565aafeabc187f6690f046459397b17d9b9a19688e",
          "0xcd49bbac6e85fdeb167eb7ca41a945d2b8758f6f"}},
    };
    return keys.at(id);
}
sign::private_key key_of(std::string const& id) {
    return sign::private_key::from_hex(test_keys(id).secret).value();
}

/// r || s || v as 130 hex digits.
std::string rsv(std::string const& r, std::string const& s, int v) {
    return r + s + (v == 27 ? "1b" : "1c");
}

struct l1_case {
    std::string name;
    std::string key;
    std::string action;
    std::uint64_t nonce = 0;
    std::optional<std::string> vault;
    std::optional<std::uint64_t> expires;
    std::string bytes;       ///< full hashed bytes, or empty
    std::string cid;         ///< connectionId, or empty
    std::string main_digest; ///< or empty
    std::string main_sig;    ///< r||s||v, or empty
    std::string test_digest;
    std::string test_sig;
};

std::string const order_v4 =
    R"({"type":"order","orders":[{"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"limit":{"tif":"Gtc"}}}],"grouping":"na"})";
std::string const order_v11 =
    R"({"type":"order","orders":[{"a":1,"b":true,"p":"2000.0","s":"3.5","r":false,"t":{"limit":{"tif":"Ioc"}}}],"grouping":"na"})";
std::string const order_v9 =
    R"({"type":"order","orders":[{"a":0,"b":true,"p":"30000","s":"0.1","r":false,"t":{"limit":{"tif":"Gtc"}}}],"grouping":"na"})";

std::vector<l1_case> const& l1_cases() {
    static std::vector<l1_case> const cases = {
        // ---- §6.1
        {"V1", "K1",
         R"({"type":"order","orders":[{"a":4,"b":true,"p":"1670.1","s":"0.0147","r":false,"t":{"limit":{"tif":"Ioc"}}}],"grouping":"na"})",
         1677777606040, std::nullopt, std::nullopt,
         "83a474797065a56f72646572a66f72646572739186a16104a162c3a170a6313637302e31a173a6302e3031"
         "3437a172c2a17481a56c696d697481a3746966a3496f63a867726f7570696e67a26e6100000186a3569598"
         "00",
         "0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908", "", "", "", ""},
        {"V2", "K1", R"({"type":"dummy","num":100000000000})", 0, std::nullopt, std::nullopt,
         "82a474797065a564756d6d79a36e756dcf000000174876e800000000000000000000",
         "f528daee6a0bd11407b483cfcd9a48c56884180b70ee86f124053e5fc1bf4d57",
         "e0aabfac88a47d3e7028b6ba6a94b30c8afcfffac26cbce788cf362b1312eafa",
         rsv("053749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298",
             "755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8", 27),
         "c05ce2df9d9d18fab3570746cc27e1136a4020a28561171a24f60c2258989224",
         rsv("542af61ef1f429707e3c76c5293c80d01f74ef853e34b76efffcb57e574f9510",
             "17b8b32f086e8cdede991f1e2c529f5dd5297cbe8128500e00cbaf766204a613", 28)},
        {"V3", "K1", R"({"type":"dummy","num":100000000000})", 0,
         "0x1719884eb866cb12b2287399b15f7db5e7d775ea", std::nullopt, "",
         "de9e09a7a3da45cc694096d4bfdcd89bc1b892d05497c5ecc1f56c335945184c", "",
         rsv("003c548db75e479f8012acf3000ca3a6b05606bc2ec0c29c50c515066a326239",
             "4d402be7396ce74fbba3795769cda45aec00dc3125a984f2a9f23177b190da2c", 28),
         "",
         rsv("e281d2fb5c6e25ca01601f878e4d69c965bb598b88fac58e475dd1f5e56c362b",
             "7ddad27e9a238d045c035bc606349d075d5c5cd00a6cd1da23ab5c39d4ef0f60", 27)},
        {"V4", "K1", order_v4, 0, std::nullopt, std::nullopt,
         "83a474797065a56f72646572a66f72646572739186a16101a162c3a170a3313030a173a3313030a172c2a1"
         "7481a56c696d697481a3746966a3477463a867726f7570696e67a26e61000000000000000000",
         "884f2c32bb6dbdd65f6033e32fb28c0cb6f5b345db0f6471fd3366d85c9252c1",
         "a5cfed1f2d7948de30aecacc7fea3c5e05c1e759020e96239847879b906f801e",
         rsv("d65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e",
             "2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e", 28),
         "606be2d25f68768f876dc04a2c3c86ceafd2d6a3c3cbb963454462d6734ebfa6",
         rsv("82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54",
             "6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5", 27)},
        {"V5", "K1",
         R"({"type":"order","orders":[{"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"limit":{"tif":"Gtc"}},"c":"0x00000000000000000000000000000001"}],"grouping":"na"})",
         0, std::nullopt, std::nullopt, "",
         "0ba500cedd8f4ba6ded620a0b1cd04f124d9ba745e2e2893fcc763bcc1444af5", "",
         rsv("041ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3",
             "3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da", 27),
         "",
         rsv("eba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d",
             "7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988", 28)},
        {"V6", "K1",
         R"({"type":"order","orders":[{"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"trigger":{"isMarket":true,"triggerPx":"103","tpsl":"sl"}}}],"grouping":"na"})",
         0, std::nullopt, std::nullopt, "",
         "430a86fb9876e901920d931f5bb20c9d011f6389bd179f39a73c09e6219adcad", "",
         rsv("98343f2b5ae8e26bb2587daad3863bc70d8792b09af1841b6fdd530a2065a3f9",
             "6b5bb6bb0633b710aa22b721dd9dee6d083646a5f8e581a20b545be6c1feb405", 27),
         "",
         rsv("971c554d917c44e0e1b6cc45d8f9404f32172a9d3b3566262347d0302896a2e4",
             "206257b104788f80450f8e786c329daa589aa0b32ba96948201ae556d5637eac", 28)},
        {"V7", "K1", R"({"type":"scheduleCancel"})", 0, std::nullopt, std::nullopt, "",
         "a2887a3147b6542306b61d311a056fd1753913d63cc904f30cba61712a98f4ae", "",
         rsv("6cdfb286702f5917e76cd9b3b8bf678fcc49aec194c02a73e6d4f16891195df9",
             "6557ac307fa05d25b8d61f21fb8a938e703b3d9bf575f6717ba21ec61261b2a0", 27),
         "",
         rsv("c75bb195c3f6a4e06b7d395acc20bbb224f6d23ccff7c6a26d327304e6efaeed",
             "342f8ede109a29f2c0723bd5efb9e9100e3bbb493f8fb5164ee3d385908233df", 28)},
        {"V7 time", "K1", R"({"type":"scheduleCancel","time":123456789})", 0, std::nullopt,
         std::nullopt, "", "4be18e445114437c5d1d9dd35a09f5601a3cc34ed4ac94a0281251b9bd8f6832", "",
         rsv("609cb20c737945d070716dcc696ba030e9976fcf5edad87afa7d877493109d55",
             "16c685d63b5c7a04512d73f183b3d7a00da5406ff1f8aad33f8ae2163bab758b", 28),
         "",
         rsv("4e4f2dbd4107c69783e251b7e1057d9f2b9d11cee213441ccfa2be63516dc5bc",
             "706c656b23428c8ba356d68db207e11139ede1670481a9e01ae2dfcdb0e1a678", 27)},
        {"V8", "K1", R"({"type":"createSubAccount","name":"example"})", 0, std::nullopt,
         std::nullopt, "", "", "",
         rsv("51096fe3239421d16b671e192f574ae24ae14329099b6db28e479b86cdd6caa7",
             "0b71f7d293af92d3772572afb8b102d167a7cef7473388286bc01f52a5c5b423", 27),
         "",
         rsv("a699e3ed5c2b89628c746d3298b5dc1cca604694c2c855da8bb8250ec8014a5b",
             "53f1b8153a301c72ecc655b1c315d64e1dcea3ee58921fd7507e35818fcc1584", 28)},
        {"V9 base", "K2", order_v9, 1234567890, std::nullopt, std::nullopt, "",
         "25367e0dba84351148288c2233cd6130ed6cec5967ded0c0b7334f36f957cc90",
         "cc75e280af3b69b8300145bcab1391410ee7ca49605f05e52cf7f1c5709c8334",
         rsv("61078d8ffa3cb591de045438a1ae2ed299b271891d1943a33901e7cfb3a31ed8",
             "0e91df4f9841641d3322dad8d932874b74d7e082cdb5b533f804964a6963aef9", 28),
         "896c4d8162f44055459294c8c024118bd661cd5da3ac7dad4784885e6aac53f3",
         rsv("6b0283a894d87b996ad0182b86251cc80d27d61ef307449a2ed249a508ded1f7",
             "6f884e79f4a0a10af62db831af6f8e03b3f11d899eb49b352f836746ee9226da", 27)},
        {"V9 +vault", "K2", order_v9, 1234567890, "0x1234567890123456789012345678901234567890",
         std::nullopt, "", "214e2ea3270981b6fd18174216691e69f56872663139d396b10ded319cb4bb1e", "",
         "", "", ""},
        {"V9 +expiresAfter", "K2", order_v9, 1234567890, std::nullopt, 1234567890, "",
         "c30b002ba3775e4c31c43c1dfd3291dfc85c6ae06c6b9f393991de86cad5fac7", "", "", "", ""},
        {"V9 +both", "K2", order_v9, 1234567890, "0x1234567890123456789012345678901234567890",
         1234567890, "", "2d62412aa0fc57441b5189841d81554a6a9680bf07204e1454983a9ca44f0744", "", "",
         "", ""},
        {"V11 order", "K3", order_v11, 1583838, std::nullopt, std::nullopt, "",
         "5983a9453b8d32668daefa9310e1a81bc1f4d7da50a9ad8869a4011d12068ea0", "",
         rsv("77957e58e70f43b6b68581f2dc42011fc384538a2e5b7bf42d5b936f19fbb673",
             "60721a8598727230f67080efee48c812a6a4442013fd3b0eed509171bef9f23f", 28),
         "",
         rsv("cd0925372ff1ed499e54883e9a6205ecfadec748f80ec463fe2f84f120964877",
             "6377961965cb7b12414186b1ea291e95fd512722427efcbcfb3b0b2bcd4d79d0", 28)},
        {"V11 cancel", "K3", R"({"type":"cancel","cancels":[{"a":1,"o":82382}]})", 1583838,
         std::nullopt, std::nullopt,
         "82a474797065a663616e63656ca763616e63656c739182a16101a16fce000141ce0000000000182ade00",
         "a53262329d1e221a88ff73e5ce330e0e47fb646091cae7020c34c346e592b77e", "",
         rsv("02f76cc5b16e0810152fa0e14e7b219f49c361e3325f771544c6f54e157bf9fa",
             "17ed0afc11a98596be85d5cd9f86600aad515337318f7ab346e5ccc1b03425d5", 27),
         "",
         rsv("6ffebadfd48067663390962539fbde76cfa36f53be65abe2ab72c9db6d0db444",
             "57720db9d7c4860f142a484f070c84eb4b9694c3a617c83f0d698a27e55fd5e0", 28)},
        {"V11 cloid", "K3",
         R"({"type":"order","orders":[{"a":1,"b":true,"p":"2000.0","s":"3.5","r":false,"t":{"limit":{"tif":"Ioc"}},"c":"0x1e60610f0b3d420597c88c1fed2ad5ee"}],"grouping":"na"})",
         1583838, std::nullopt, std::nullopt, "",
         "c5fe546c778ef44d4804681e65bdbc5cd678cbbbcdc13d1b80eabf0d5a188704", "",
         "d3e894092eb27098077145714630a77bbe3836120ee29df7d935d8510b03a08f456de5ec1be82aa65fc6ec"
         "da9ef928b0445e212517a98858cfaa251c4cd7552b1c",
         "",
         "3768349dbb22a7fd770fc9fc50c7b5124a7da342ea579b309f58002ceae49b4357badc7909770919c45d85"
         "0aabb08474ff2b7b3204ae5b66d9f7375582981f111c"},
        {"V11 trigger tp", "K3",
         R"({"type":"order","orders":[{"a":1,"b":true,"p":"2000.0","s":"3.5","r":false,"t":{"trigger":{"isMarket":true,"triggerPx":"2000.0","tpsl":"tp"}}}],"grouping":"na"})",
         1583838, std::nullopt, std::nullopt, "",
         "ce28b892ad1b09ae7a2a50faa6802f3fa1b0e76ab9dd60b98f423673cba01fc4", "",
         "b91e5011dff15e4b4a40753730bda44972132e7b75641f3cac58b66159534a170d422ee1ac3c7a7a2e11e2"
         "98108a2d6b8da8612caceaeeb3e571de3b2dfda9e41b",
         "",
         "6df38b609904d0d4439884756b8f366f22b3a081801dbdd23f279094a2299fac6424cb0cdc48c3706aeaa3"
         "68f81959e91059205403d3afd23a55983f710aee871b"},
        {"V11 trigger sl", "K3",
         R"({"type":"order","orders":[{"a":1,"b":true,"p":"2000.0","s":"3.5","r":false,"t":{"trigger":{"isMarket":true,"triggerPx":"2000.0","tpsl":"sl"}}}],"grouping":"na"})",
         1583838, std::nullopt, std::nullopt, "",
         "93c6fc867458280be8fa653623dab767b96d63c2b049d7d1800cdaddb6759d6f", "",
         "8456d2ace666fce1bee1084b00e9620fb20e810368841e9d4dd80eb29014611a0843416e51b1529c22dd2f"
         "c28f7ff8f6443875635c72011f60b62cbb8ce90e2d1c",
         "",
         "eb5bdb52297c1d19da45458758bd569dcb24c07e5c7bd52cf76600fd92fdd8213e661e21899c985421ec01"
         "8a9ee7f3790e7b7d723a9932b7b5adcd7def5354601c"},
        {"V12", "K3",
         R"({"type":"order","orders":[{"a":1,"b":true,"p":"1800","s":"0.02","r":false,"t":{"limit":{"tif":"Gtc"}}}],"grouping":"na"})",
         1690393044548, std::nullopt, std::nullopt, "",
         "b8ed9e5a4ea7b2aebdb09fd794221c2599487f6dc8d3bf8f38656ab295f36120", "",
         rsv("380b70e9e76181609c7d9f2ece74cf7717a0254f9d751137ffaedff685e81cc7",
             "27c1e43069db58d728e996b91112aff57a24f3d9221635adc053f20aa4283ad8", 27),
         "", ""},
        // ---- §6.2 DERIVED (K1, nonce 1700000000000, no vault)
        {"D updateLeverage", "K1",
         R"({"type":"updateLeverage","asset":0,"isCross":true,"leverage":10})", 1700000000000,
         std::nullopt, std::nullopt,
         "84a474797065ae7570646174654c65766572616765a5617373657400a7697343726f7373c3a86c65766572616"
         "7"
         "650a0000018bcfe5680000",
         "e69c035a0297dd24d9b288c3e8509ae251baf7bf43a43b895327a2cab098389e", "",
         rsv("4fa0ed1f37b56019934737616f720140dc2d415064df1f02ef44e0a6431dc02d",
             "0541f7b41434b08725ae4d5908e3dc426e8a9ae09833f907d077fc4e32df6c2e", 27),
         "",
         rsv("d4498ef57bf0c1361161ef3cd6da84a912a93c162257f2d45f7211711115f238",
             "1f351995d1950021ddcc17c1f9b1ad60870c56ab7d87bc3f32210970229b6bbf", 27)},
        {"D cancelByCloid", "K1",
         R"({"type":"cancelByCloid","cancels":[{"asset":110000,"cloid":"0x00000000000000000000000000000001"}]})",
         1700000000000, std::nullopt, std::nullopt, "",
         "78ae32cba8c382bc1ccaff7dab34e9aaa9e8f87296dd15f00d1334e1f5f908c7", "",
         rsv("bd03cb58282f5984482759df450a2ecae728534821e01f51fe7b62736a7527fa",
             "01a06a329ff8ee92461dc93e49d4d5422177eb4272a429669a850d3cf999c567", 28),
         "",
         rsv("fcb092547e5354bcc141d8f77ff90bb00ead0003076c5a58aa5c28a502554f1e",
             "107f36b648a277f705949e047fe92a6350bb55a01bf87401498146b8074045e4", 27)},
        {"D HIP-3 order", "K1",
         R"({"type":"order","orders":[{"a":110000,"b":false,"p":"25451","s":"0.0183","r":false,"t":{"limit":{"tif":"Alo"}},"c":"0x1234567890abcdef1234567890abcdef"}],"grouping":"na"})",
         1700000000000, std::nullopt, std::nullopt, "",
         "c44a2d41f39e31d46c45a85656dda1f75f8388eadd58e262c0c91416bc36ff3f", "",
         rsv("daaac85a590f2c16d2ece4e0fc6d8e0ed7be27d4bdea0badd968a9d009fd6594",
             "63823727b078a2a1c8e9f86d429674fb9ab11e72d83435716059b82d033bce60", 27),
         "",
         rsv("c6ab2b1fb48bef0ea01235eea2e97c23525114ec0cba0bb9e0bee8cc6a3d29e8",
             "11a878437619c1d1eec0f5b262afc80c7ca441d8c1a4e118ba883eb410fd94ed", 28)},
        {"D cancel", "K1", R"({"type":"cancel","cancels":[{"a":0,"o":77738308}]})", 1700000000000,
         std::nullopt, std::nullopt, "",
         "99f95e9c3ec4a58b28dd8ea91529b4d305494e7601c1b6e6fe631fac3168c298", "",
         rsv("02d25f8bb8b4dd16863fc6ebbfca6dbe41c256d6cafbcec7d9fca8caa03418e7",
             "669f38877442b2f5491e40229f7f2e9dc54cd3e8583cdce0bf468a9c51af27de", 28),
         "",
         rsv("0a876c94b495d3375032883b6041cf71188c3b6531360b6287a8758ef93b4c99",
             "04b8356458b78d972dfe9cd9e1677ecac04af978d34caa1ebedfc91ee579842c", 28)},
    };
    return cases;
}

alpha::l1_options options_of(l1_case const& c) {
    alpha::l1_options o;
    if (c.vault)
        o.vault = gateway::address::parse(*c.vault).value();
    o.expires_after = c.expires;
    return o;
}

} // namespace

TEST_CASE("alpha §6.1/§6.2 L1 vectors: hashed bytes, connectionId, digests, signatures",
          "[unit][sign]") {
    for (auto const& c : l1_cases()) {
        DYNAMIC_SECTION(c.name) {
            auto const action = boost::json::parse(c.action);
            auto const opts = options_of(c);
            if (!c.bytes.empty())
                CHECK(hex(alpha::action_hash_input(action, c.nonce, opts).value()) == c.bytes);
            auto const cid = alpha::action_hash(action, c.nonce, opts).value();
            if (!c.cid.empty())
                CHECK(hex(cid) == c.cid);
            auto const k = key_of(c.key);
            for (bool testnet : {false, true}) {
                CAPTURE(testnet);
                auto const& digest = testnet ? c.test_digest : c.main_digest;
                auto const& expected = testnet ? c.test_sig : c.main_sig;
                if (!digest.empty())
                    CHECK(hex(alpha::l1_digest(cid, testnet)) == digest);
                if (expected.empty())
                    continue;
                auto const sig = alpha::sign_l1_action(action, c.nonce, k, testnet, opts).value();
                CHECK(hex(sig) == expected);
                CHECK(alpha::recover_l1_signer(action, c.nonce, sig, testnet, opts).value().str() ==
                      test_keys(c.key).address);
            }
        }
    }
}

TEST_CASE("alpha V9 tail bytes after msgpack for vault and expiresAfter", "[unit][sign]") {
    auto const action = boost::json::parse(order_v9);
    auto const packed = sign::msgpack_encode(action).value();
    auto tail = [&](alpha::l1_options const& o) {
        auto const all = alpha::action_hash_input(action, 1234567890, o).value();
        REQUIRE(all.size() > packed.size());
        CHECK(std::equal(packed.begin(), packed.end(), all.begin()));
        return hex(std::span<std::uint8_t const>(all).subspan(packed.size()));
    };
    auto const vault =
        gateway::address::parse("0x1234567890123456789012345678901234567890").value();
    CHECK(tail({}) == "00000000499602d200");
    CHECK(tail({vault, std::nullopt}) ==
          "00000000499602d2011234567890123456789012345678901234567890");
    CHECK(tail({std::nullopt, 1234567890}) == "00000000499602d2000000000000499602d2");
    CHECK(tail({vault, 1234567890}) ==
          "00000000499602d201123456789012345678901234567890123456789000"
          "00000000499602d2");
}

TEST_CASE("alpha V10: signing a given connectionId", "[unit][sign]") {
    auto const cid = sign::from_hex_array<32>(
                         "0xde6c4037798a4434ca03cd05f00e3b803126221375cd1e7eaaaf041768be06eb")
                         .value();
    auto const k = key_of("K3");
    CHECK(hex(sign::sign_digest(alpha::l1_digest(cid, false), k)) ==
          rsv("fa8a41f6a3fa728206df80801a83bcbfbab08649cd34d9c0bfba7c7b2f99340f",
              "53a00226604567b98a1492803190d65a201d6805e5831b7044f17fd530aec784", 28));
    CHECK(hex(sign::sign_digest(alpha::l1_digest(cid, true), k)) ==
          rsv("1713c0fc661b792a50e8ffdd59b637b1ed172d9a3aa4d801d9d88646710fb74b",
              "33959f4d075a7ccbec9f2374a6da21ffa4448d58d0413a0d335775f680a88143", 28));
}

TEST_CASE("alpha §6.2 cancelByCloid bytes use str8 for the cloid", "[unit][sign]") {
    auto const action = boost::json::parse(
        R"({"type":"cancelByCloid","cancels":[{"asset":110000,"cloid":"0x00000000000000000000000000000001"}]})");
    CHECK(hex(alpha::action_hash_input(action, 1700000000000).value())
              .starts_with("82a474797065ad63616e63656c4279436c6f6964a763616e63656c739182a5617373"
                           "6574ce0001adb0a5636c6f6964d922"));
}

TEST_CASE("alpha §5.3 phantom agent constants and typed data", "[unit][sign]") {
    auto const td = alpha::phantom_agent_typed_data(sign::hash256{}, false);
    auto const& types = td.at("types").as_object();
    CHECK(hex(sign::eip712::type_hash(types, "EIP712Domain").value()) ==
          "8b73c3c69bb8fe3d512ecc4cf759cc79239f7b179b0ffacaa9a75d522b39400f");
    CHECK(hex(sign::eip712::type_hash(types, "Agent").value()) ==
          "26f05c2f7239b6983075e58321292d77b3aa173d19b27257ac96ab362570f508");
    CHECK(sign::eip712::encode_type(types, "Agent").value() ==
          "Agent(string source,bytes32 connectionId)");
    CHECK(hex(sign::eip712::domain_separator(td).value()) ==
          "d79297fcdf2ffcd4ae223d01edaa2ba214ff8f401d7c9300d995d17c82aa4040");
    CHECK(td.at("message").at("source") == "a");
    CHECK(alpha::phantom_agent_typed_data(sign::hash256{}, true).at("message").at("source") == "b");
    CHECK(td.at("domain").at("chainId") == 1337);

    // V4 mainnet structHash
    auto const cid = alpha::action_hash(boost::json::parse(order_v4), 0).value();
    auto const v4 = alpha::phantom_agent_typed_data(cid, false);
    CHECK(hex(sign::eip712::hash_struct(v4.at("types").as_object(), "Agent", v4.at("message"))
                  .value()) == "56a652ccec8b12829fce3495c42fc8428b58e3ad04d124c8f46d1955a4da1fbc");
}

TEST_CASE("alpha L1: a float in the action is refused, a wrong network recovers someone else",
          "[unit][sign]") {
    auto const k = key_of("K1");
    auto const bad =
        alpha::sign_l1_action(boost::json::parse(R"({"type":"x","n":1.5})"), 0, k, false);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == gateway::errc::validation_error);
    CHECK(bad.error().field() == "n");

    auto const action = boost::json::parse(order_v4);
    auto const sig = alpha::sign_l1_action(action, 7, k, false).value();
    CHECK(alpha::recover_l1_signer(action, 7, sig, false).value().str() == test_keys("K1").address);
    CHECK(alpha::recover_l1_signer(action, 7, sig, true).value().str() != test_keys("K1").address);
    CHECK(alpha::recover_l1_signer(action, 8, sig, false).value().str() != test_keys("K1").address);
    auto broken = sig;
    broken[64] = 5;
    auto const r = alpha::recover_l1_signer(action, 7, broken, false);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == gateway::errc::signature_error);
}

namespace {
struct user_case {
    std::string name;
    std::string key;
    std::string action;
    std::string digest;
    std::string sig;
};
} // namespace

TEST_CASE("alpha §6.3 user-signed vectors", "[unit][sign]") {
    std::vector<user_case> const cases = {
        {"SDK-py UsdSend", "K1",
         R"({"type":"usdSend","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","destination":"0x5e9ee1089755c3435139848e47e6635505d5a13a","amount":"1","time":1687816341423})",
         "cacf7585cc49ca60c6c5fb3001e226c0ca03c46252c893eea574c78907b7cebe",
         rsv("637b37dd731507cdd24f46532ca8ba6eec616952c56218baeff04144e4a77073",
             "11a6a24900e6e314136d2592e2f8d502cd89b7c15b198e1bee043c9589f9fad7", 27)},
        {"SDK-py Withdraw", "K1",
         R"({"type":"withdraw3","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","destination":"0x5e9ee1089755c3435139848e47e6635505d5a13a","amount":"1","time":1687816341423})",
         "8080d06f566813165cec60d85300445133b3439e9c92e10b93ed510372608899",
         rsv("8363524c799e90ce9bc41022f7c39b4e9bdba786e5f9c72b20e43e1462c37cf9",
             "58b1411a775938b83e29182e8ef74975f9054c8e97ebf5ec2dc8d51bfc893881", 28)},
        {"SDK-ts UsdSend", "K2",
         R"({"type":"usdSend","signatureChainId":"0x66eee","hyperliquidChain":"Mainnet","destination":"0x1234567890123456789012345678901234567890","amount":"1000","time":1234567890})",
         "24f8912fbd62739884ecee24ccc3f09f72bc2fc6a67f8fffa789404beaa94d45",
         rsv("f777c38efe7c24cc71209526ae608f4e384d0586edf578f0e97b4b9f7c7adcc6",
             "104a4a97c48ae77bf5bd777bdd45fe72d8f5ff29116b5ff64fd8cfe4ea610786", 28)},
        {"SDK-rs UsdSend", "K3",
         R"({"type":"usdSend","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","destination":"0x0D1d9635D0640821d15e323ac8AdADfA9c111414","amount":"1","time":1690393044548})",
         "2ec70927f032ba9c1c8ecffbff89fd07ccc3300d556087752edcba59b9d95c77",
         rsv("214d507bbdaebba52fa60928f904a8b2df73673e3baba6133d66fe846c7ef704",
             "51e82453a6d8db124e7ed6e60fa00d4b7c46e4d96cb2bd61fd81b6e8953cc9d2", 27)},
        {"SDK-rs Withdraw", "K3",
         R"({"type":"withdraw3","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","destination":"0x0D1d9635D0640821d15e323ac8AdADfA9c111414","amount":"1","time":1690393044548})",
         "c8159658bcb69d872283862d362248dee86212a571dd7f6ad29d1e4c83775e01",
         rsv("b3172e33d2262dac2b4cb135ce3c167fda55dafa6c62213564ab728b9f9ba76b",
             "769a938e9f6d603dae7154c83bf5a4c3ebab81779dc2db25463a3ed663c82ae4", 28)},
        {"SDK-rs ApproveBuilderFee Mainnet", "K3",
         R"({"type":"approveBuilderFee","signatureChainId":"0x66eee","hyperliquidChain":"Mainnet","maxFeeRate":"0.001%","builder":"0x1234567890123456789012345678901234567890","nonce":1583838})",
         "5aa203b4f3ce485272360455202ef470b9d4a69ed1de73515053d4e8fb819098",
         rsv("343c9078af7c3d6683abefd0ca3b2960de5b669b716863e6dc49090853a4a3cd",
             "6c016301239461091a8ca3ea5ac783362526c4d9e9e624ffc563aea93d6ac239", 27)},
        {"SDK-rs ApproveBuilderFee Testnet", "K3",
         R"({"type":"approveBuilderFee","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","maxFeeRate":"0.001%","builder":"0x1234567890123456789012345678901234567890","nonce":1583838})",
         "bbafeef4343f17d1c19c493a23e541f3aa08d2ce1084e0ff849353a290fa5dd0",
         rsv("2ada43eeebeba9cfe13faf95aa84e5b8c4885c3a07cbf4536f2df5edd340d4eb",
             "1ed0e24f60a80d199a842258d5fa737a18d486f7d4e656268b434d226f2811d7", 28)},
        {"DERIVED ApproveAgent", "K1",
         R"({"type":"approveAgent","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","agentAddress":"0x1234567890123456789012345678901234567890","agentName":"","nonce":1700000000000})",
         "8dce46b7044a839ca6569f189ec8a02992d1888b11661ee83b9be6cd6952dba8",
         rsv("1c6e6015df742739b96a0ccf8de9dadebc9f52edc7b76c84c71ac19be8db84b0",
             "231efb9a67d8405473906fd1cd041aefe3c9d83f778d44018c32280956329b4b", 28)},
    };
    for (auto const& c : cases) {
        DYNAMIC_SECTION(c.name) {
            auto const action = boost::json::parse(c.action).as_object();
            auto const td = alpha::user_signed_typed_data(action).value();
            CHECK(hex(sign::eip712::hash_typed_data(td).value()) == c.digest);
            auto const sig = alpha::sign_user_signed_action(action, key_of(c.key)).value();
            CHECK(hex(sig) == c.sig);
            CHECK(alpha::recover_user_signed_signer(action, sig).value().str() ==
                  test_keys(c.key).address);
        }
    }
}

TEST_CASE("alpha §5.8/§6.3 user-signed struct hashes and domain separators", "[unit][sign]") {
    auto const usd_send =
        alpha::user_signed_typed_data(
            boost::json::parse(
                R"({"type":"usdSend","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","destination":"0x5e9ee1089755c3435139848e47e6635505d5a13a","amount":"1","time":1687816341423})")
                .as_object())
            .value();
    CHECK(hex(sign::eip712::hash_struct(usd_send.at("types").as_object(),
                                        "HyperliquidTransaction:UsdSend", usd_send.at("message"))
                  .value()) == "e81f1691f350bb9a59d2b40b3d16c9526a8f93407dd72bcb9ea95e291a5de6da");
    CHECK(sign::eip712::encode_type(usd_send.at("types").as_object(),
                                    "HyperliquidTransaction:UsdSend")
              .value() == "HyperliquidTransaction:UsdSend(string hyperliquidChain,string "
                          "destination,string amount,uint64 time)");
    CHECK(hex(sign::eip712::domain_separator(usd_send).value()) ==
          "feb1393ca4412a4ca577bd51d04f0a77033514c602f4d0a11490fb95f7428df6");

    // Unnamed agent: the posted action drops agentName; it signs as "".
    auto const agent =
        alpha::user_signed_typed_data(
            boost::json::parse(
                R"({"type":"approveAgent","signatureChainId":"0xa4b1","hyperliquidChain":"Testnet","agentAddress":"0x1234567890123456789012345678901234567890","nonce":1700000000000})")
                .as_object())
            .value();
    CHECK(hex(sign::eip712::domain_separator(agent).value()) ==
          "2f54e643b38c9c2b65cb731aaf11c54f01705ee0cdf45aea16e2ac0a5ce7531a");
    CHECK(hex(sign::eip712::hash_struct(agent.at("types").as_object(),
                                        "HyperliquidTransaction:ApproveAgent", agent.at("message"))
                  .value()) == "59c494359bbf14eb73b8d8e8430218526d17acaabebc4bea34f194398f5e8fb4");
}

TEST_CASE("alpha user-signed actions: errors name the action field", "[unit][sign]") {
    auto field = [](std::string const& json) {
        auto const r = alpha::user_signed_typed_data(boost::json::parse(json).as_object());
        REQUIRE_FALSE(r);
        CHECK(r.error().code == gateway::errc::validation_error);
        return std::string(r.error().field());
    };
    CHECK(field(R"({"type":"order"})") == "action.type");
    CHECK(
        field(
            R"({"type":"usdSend","hyperliquidChain":"Testnet","destination":"x","amount":"1","time":1})") ==
        "action.signatureChainId");
    CHECK(
        field(
            R"({"type":"usdSend","signatureChainId":"66eee","hyperliquidChain":"Testnet","destination":"x","amount":"1","time":1})") ==
        "action.signatureChainId");
    CHECK(
        field(
            R"({"type":"usdSend","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","destination":"x","amount":"1"})") ==
        "action.time");
    CHECK(
        field(
            R"({"type":"approveAgent","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","agentAddress":"0x12","nonce":1})") ==
        "action.agentAddress");
    CHECK(
        field(
            R"({"type":"usdClassTransfer","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","amount":"1","toPerp":"yes","nonce":1})") ==
        "action.toPerp");
}

TEST_CASE("alpha signature JSON form round-trips and accepts unpadded r/s", "[unit][sign]") {
    auto const sig =
        sign::signature_from_hex(
            "0x" + rsv("053749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298",
                       "755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8", 27))
            .value();
    auto const jv = alpha::signature_to_json(sig);
    CHECK(boost::json::serialize(jv) ==
          R"({"r":"0x053749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298",)"
          R"("s":"0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8","v":27})");
    CHECK(alpha::signature_from_json(jv).value() == sig);
    // SDK-py form without the leading zero
    auto const unpadded = boost::json::parse(
        R"({"r":"0x53749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298",)"
        R"("s":"0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8","v":27})");
    CHECK(alpha::signature_from_json(unpadded).value() == sig);
    // v as 0/1 normalises to 27/28
    auto zero_v = jv;
    zero_v["v"] = 0;
    CHECK(alpha::signature_from_json(zero_v).value() == sig);

    auto field = [](std::string const& json) {
        auto const r = alpha::signature_from_json(boost::json::parse(json));
        REQUIRE_FALSE(r);
        CHECK(r.error().code == gateway::errc::signature_error);
        return std::string(r.error().field());
    };
    CHECK(field("[]") == "signature");
    CHECK(field(R"({"s":"0x1","v":27})") == "signature.r");
    CHECK(field(R"({"r":"0x","s":"0x1","v":27})") == "signature.r");
    CHECK(field(R"({"r":"0x1","s":"0x)" + std::string(65, '1') + R"(","v":27})") == "signature.s");
    CHECK(field(R"({"r":"0x1","s":"0xg","v":27})") == "signature.s");
    CHECK(field(R"({"r":"0x1","s":"0x1","v":29})") == "signature.v");
    CHECK(field(R"({"r":"0x1","s":"0x1","v":"27"})") == "signature.v");
    CHECK(field(R"({"r":"0x1","s":"0x1"})") == "signature.v");
}

TEST_CASE("alpha §5.5 float_to_wire normalizes like SDK-py", "[unit][sign]") {
    auto [in, out] = GENERATE(table<std::string, std::string>({
        {"1670.1", "1670.1"},
        {"100.0", "100"},
        {"0.0147", "0.0147"},
        {"2000.0", "2000"},
        {"0", "0"},
        {"-0", "0"},
        {"-0.000000001", "x"}, // rounds to -0 but moves by 1e-9: refused
        {"0.00000001", "0.00000001"},
        {"0.000000005", "x"},
        {"1.123456789", "x"},     // refused: 9th decimal moves the value by >= 1e-12
        {"1.0000000000001", "1"}, // moves by 1e-13 < 1e-12: accepted, as Python
        {"1.999999999999", "x"},  // rounds up by 1e-12: refused
        {"1.9999999999999", "2"}, // rounds up by 1e-13: accepted
        {"00012.50", "12.5"},
        {"-3.10", "-3.1"},
        {"123456789012345678901234567890", "123456789012345678901234567890"},
    }));
    CAPTURE(in);
    auto const r = alpha::float_to_wire(in);
    if (out == "x") {
        REQUIRE_FALSE(r);
        CHECK(r.error().code == gateway::errc::validation_error);
    } else {
        CHECK(r.value() == out);
    }
}

TEST_CASE("alpha §5.5 float_to_wire on doubles mirrors f\"{x:.8f}\"", "[unit][sign]") {
    CHECK(alpha::float_to_wire(1670.1).value() == "1670.1");
    CHECK(alpha::float_to_wire(100.0).value() == "100");
    CHECK(alpha::float_to_wire(0.0147).value() == "0.0147");
    CHECK(alpha::float_to_wire(2000.0).value() == "2000");
    CHECK(alpha::float_to_wire(-0.0).value() == "0");
    CHECK(alpha::float_to_wire(0.1 + 0.2).value() == "0.3");
    CHECK_FALSE(alpha::float_to_wire(1.123456789));
    CHECK_FALSE(alpha::float_to_wire(std::numeric_limits<double>::infinity()));
    for (std::string_view bad : {"", "1.", ".5", "1e3", "+1", "1,5", "--1", "0x10"}) {
        CAPTURE(bad);
        auto const r = alpha::float_to_wire(bad, "price");
        REQUIRE_FALSE(r);
        CHECK(r.error().field() == "price");
    }
}

TEST_CASE("alpha §5.5 float_to_int_for_hashing examples", "[unit][sign]") {
    CHECK(alpha::float_to_int("123123123123").value() ==
          boost::json::value(std::uint64_t{12312312312300000000ULL}));
    CHECK(alpha::float_to_int("0.00001231").value() == boost::json::value(1231));
    CHECK(alpha::float_to_int("1.033").value() == boost::json::value(103300000));
    CHECK(alpha::float_to_int("-1.5", 6).value() == boost::json::value(-1500000));
    CHECK(alpha::float_to_int("0.0000000000001").value() == boost::json::value(0));
    CHECK_FALSE(alpha::float_to_int("0.000000001")); // x 1e8 = 0.1: rounding moves it >= 1e-3
    CHECK_FALSE(alpha::float_to_int("99999999999999999999")); // beyond 64 bits
}

TEST_CASE("alpha §5.5 tick and lot checks refuse instead of rounding", "[unit][sign]") {
    // perp, szDecimals 0: up to 6 decimals and 5 significant figures
    CHECK(alpha::check_price("1234.5", 0, false).value() == "1234.5");
    CHECK(alpha::check_price("1234.50", 0, false).value() == "1234.5");
    CHECK_FALSE(alpha::check_price("1234.56", 0, false));
    CHECK(alpha::check_price("0.001234", 0, false).value() == "0.001234");
    CHECK_FALSE(alpha::check_price("0.0012345", 0, false));
    CHECK(alpha::check_price("123456", 0, false).value() == "123456");
    CHECK_FALSE(alpha::check_price("12345.6", 0, false));
    // szDecimals 1: max 5 decimals
    CHECK(alpha::check_price("0.01234", 1, false).value() == "0.01234");
    CHECK_FALSE(alpha::check_price("0.012345", 1, false));
    // spot: 8 - szDecimals
    CHECK(alpha::check_price("0.0001234", 1, true).value() == "0.0001234");
    CHECK_FALSE(alpha::check_price("0.0001234", 2, true));
    auto const neg = alpha::check_price("-1", 0, false);
    REQUIRE_FALSE(neg);
    CHECK(neg.error().field() == "price");
    CHECK_FALSE(alpha::check_price("0", 0, false));
    CHECK_FALSE(alpha::check_price("1e3", 0, false));

    CHECK(alpha::check_size("0.0183", 4).value() == "0.0183");
    CHECK(alpha::check_size("0.01830", 4).value() == "0.0183");
    auto const lot = alpha::check_size("0.01834", 4);
    REQUIRE_FALSE(lot);
    CHECK(lot.error().field() == "size");
    CHECK_FALSE(alpha::check_size("0", 4));
}

TEST_CASE("alpha §5.5 market-order price and size rounding", "[unit][sign]") {
    CHECK(alpha::round_price("1891.4", 2, false).value() == "1891.4");
    CHECK(alpha::round_price("1985.97", 2, false).value() == "1986");
    CHECK(alpha::round_price("1796.83", 2, false).value() == "1796.8");
    CHECK(alpha::round_price("123456", 0, false).value() == "123456");   // integers kept
    CHECK(alpha::round_price("123456.7", 0, false).value() == "123460"); // 5 significant figures
    CHECK(alpha::round_price("0.0012345678", 0, false).value() == "0.001235");
    CHECK(alpha::round_price("0.0012345678", 0, true).value() == "0.0012346");
    CHECK(alpha::round_price("9.99999", 5, false).value() == "10");
    CHECK(alpha::round_price("1.00005", 0, false).value() == "1"); // half-even
    CHECK(alpha::round_price("1.00015", 0, false).value() == "1.0002");
    CHECK_FALSE(alpha::round_price("0.0000001", 0, false)); // rounds to zero
    CHECK(alpha::round_size("0.01839", 4).value() == "0.0183");
    CHECK(alpha::round_size("12", 0).value() == "12");
    CHECK(alpha::round_size("1.99", 0).value() == "1");
    CHECK_FALSE(alpha::round_size("0.00009", 4));
    // every rounded price passes the tick check
    for (std::string_view p : {"1985.97", "0.0012345678", "123456.7", "77.777777"}) {
        CAPTURE(p);
        auto const rounded = alpha::round_price(p, 1, false).value();
        CHECK(alpha::check_price(rounded, 1, false).value() == rounded);
    }
}
