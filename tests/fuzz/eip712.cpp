// libFuzzer target: the EIP-712 typed-data JSON reader (include/gateway/sign/eip712.hpp), what
// the SDK signs and what a wallet's `eth_signTypedData_v4` JSON is hashed with. The input is the
// typed-data JSON.
//
// Checked beyond "no crash":
// - a refusal is a well-formed VALIDATION_ERROR naming the JSON path;
// - the digest is `keccak256(0x1901 || domainSeparator || hashStruct(message))` of the parts the
//   other entry points compute, and `encodeType` of the primary type is what its type hash
//   hashes;
// - the digest does not depend on the order of keys in any JSON object (types, domain and message
//   members are looked up by name; `encodeType` sorts referenced types by name).
// The same checks run on the 32-byte integer reader (`parse_uint256`) with the input as text.
#include "fuzz_common.hpp"

#include <gateway/sign/eip712.hpp>
#include <gateway/sign/keccak.hpp>

#include <boost/json/object.hpp>

#include <algorithm>
#include <iterator>

namespace {

namespace json = boost::json;
namespace eip712 = gateway::sign::eip712;
using gateway::errc;
using gateway::fuzz::check_outcome;

/// `v` with the keys of every object in reverse order.
json::value reversed(json::value const& v) {
    if (auto const* a = v.if_array()) {
        json::array out;
        out.reserve(a->size());
        std::transform(a->begin(), a->end(), std::back_inserter(out), reversed);
        return out;
    }
    if (auto const* o = v.if_object()) {
        json::object out;
        for (auto it = o->rbegin(); it != o->rend(); ++it)
            out[it->key()] = reversed(it->value());
        return out;
    }
    return v;
}

void check_parts(json::value const& td, gateway::sign::hash256 const& digest) {
    auto const& o = td.as_object();
    auto const& types = o.at("types").as_object();
    std::string_view const primary = o.at("primaryType").as_string();
    auto domain = eip712::domain_separator(td);
    FUZZ_CHECK(domain.has_value());
    gateway::sign::bytes buf{0x19, 0x01};
    buf.insert(buf.end(), domain->begin(), domain->end());
    if (primary != "EIP712Domain") {
        auto message = eip712::hash_struct(types, primary, o.at("message"));
        FUZZ_CHECK(message.has_value());
        buf.insert(buf.end(), message->begin(), message->end());
        auto encoded = eip712::encode_type(types, primary);
        auto th = eip712::type_hash(types, primary);
        FUZZ_CHECK(encoded && th);
        FUZZ_CHECK(gateway::sign::keccak256(std::string_view(*encoded)) == *th);
        FUZZ_CHECK(encoded->starts_with(std::string(primary) + "("));
    }
    FUZZ_CHECK(gateway::sign::keccak256(buf) == digest);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = gateway::fuzz::as_text(data, size);
    auto n = gateway::sign::parse_uint256(text);
    check_outcome(n, {errc::validation_error});

    auto v = gateway::fuzz::parse_json(text);
    if (!v)
        return 0;
    auto digest = eip712::hash_typed_data(*v);
    check_outcome(digest, {errc::validation_error});
    auto flipped = eip712::hash_typed_data(reversed(*v));
    FUZZ_CHECK(digest.has_value() == flipped.has_value());
    if (!digest)
        return 0;
    FUZZ_CHECK(*digest == *flipped);
    check_parts(*v, *digest);
    return 0;
}
