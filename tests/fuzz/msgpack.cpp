// libFuzzer target: the MessagePack encoder (include/gateway/sign/msgpack.hpp) and alpha's L1
// action hash input built on it (include/gateway/providers/alpha/signing.hpp). The input is an
// action as JSON.
//
// Checked beyond "no crash", against a decoder written here from the MessagePack spec:
// - the encoding decodes back to the JSON value (maps in key order, integers by value);
// - every integer and every length uses its smallest form (as Python's msgpack.packb);
// - a refusal is a VALIDATION_ERROR, for a value holding a floating-point number only;
// - the action hash input is the encoding, the nonce (8 bytes big-endian), the vault flag and
//   address, and the optional expiresAfter block, in that order.
#include "fuzz_common.hpp"

#include <gateway/providers/alpha/signing.hpp>
#include <gateway/sign/msgpack.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <optional>

namespace {

namespace json = boost::json;
using gateway::errc;
using gateway::sign::bytes;

bool holds_double(json::value const& v) {
    if (auto const* a = v.if_array())
        return std::any_of(a->begin(), a->end(), holds_double);
    if (auto const* o = v.if_object())
        return std::any_of(o->begin(), o->end(),
                           [](json::key_value_pair const& kv) { return holds_double(kv.value()); });
    return v.is_double();
}

/// Reads MessagePack, refusing anything but the smallest form of each integer and length.
class decoder {
public:
    explicit decoder(bytes const& b)
        : b_(b) {}

    json::value value() {
        std::uint8_t const t = byte();
        if (t <= 0x7f)
            return std::uint64_t{t};
        if (t >= 0xe0)
            return static_cast<std::int64_t>(static_cast<std::int8_t>(t));
        if ((t & 0xf0) == 0x80)
            return map(t & 0x0f);
        if ((t & 0xf0) == 0x90)
            return array(t & 0x0f);
        if ((t & 0xe0) == 0xa0)
            return str(t & 0x1f);
        switch (t) {
        case 0xc0:
            return nullptr;
        case 0xc2:
            return false;
        case 0xc3:
            return true;
        case 0xcc:
            return unsigned_int(1, 0x7f);
        case 0xcd:
            return unsigned_int(2, 0xff);
        case 0xce:
            return unsigned_int(4, 0xffff);
        case 0xcf:
            return unsigned_int(8, 0xffffffffu);
        case 0xd0:
            return signed_int(1, -32);
        case 0xd1:
            return signed_int(2, -128);
        case 0xd2:
            return signed_int(4, -32768);
        case 0xd3:
            return signed_int(8, -2147483648LL);
        case 0xd9:
            return str(length(1, 31));
        case 0xda:
            return str(length(2, 0xff));
        case 0xdb:
            return str(length(4, 0xffff));
        case 0xdc:
            return array(length(2, 15));
        case 0xdd:
            return array(length(4, 0xffff));
        case 0xde:
            return map(length(2, 15));
        case 0xdf:
            return map(length(4, 0xffff));
        default:
            gateway::fuzz::check_failed("msgpack type byte outside the encoder's subset", __FILE__,
                                        __LINE__);
        }
    }

    bool done() const { return pos_ == b_.size(); }

private:
    std::uint8_t byte() {
        FUZZ_CHECK(pos_ < b_.size());
        return b_[pos_++];
    }
    std::uint64_t be(unsigned width) {
        std::uint64_t v = 0;
        for (unsigned i = 0; i < width; ++i)
            v = (v << 8) | byte();
        return v;
    }
    /// A length above what a smaller form holds (`below`).
    std::size_t length(unsigned width, std::uint64_t below) {
        auto const n = be(width);
        FUZZ_CHECK(n > below);
        return static_cast<std::size_t>(n);
    }
    json::value unsigned_int(unsigned width, std::uint64_t below) {
        auto const v = be(width);
        FUZZ_CHECK(v > below);
        return v;
    }
    json::value signed_int(unsigned width, std::int64_t above) {
        auto const u = be(width);
        auto const shift = 64 - 8 * width;
        auto const v = static_cast<std::int64_t>(u << shift) >> shift; // sign-extend
        FUZZ_CHECK(v < above);
        return v;
    }
    json::value str(std::size_t n) {
        FUZZ_CHECK(n <= b_.size() - pos_);
        json::string s(reinterpret_cast<char const*>(b_.data() + pos_), n);
        pos_ += n;
        return s;
    }
    json::value array(std::size_t n) {
        json::array a;
        for (std::size_t i = 0; i < n; ++i)
            a.push_back(value());
        return a;
    }
    json::value map(std::size_t n) {
        json::object o;
        for (std::size_t i = 0; i < n; ++i) {
            auto k = value();
            FUZZ_CHECK(k.is_string());
            auto v = value();
            FUZZ_CHECK(!o.contains(k.as_string()));
            o[k.as_string()] = std::move(v);
        }
        return o;
    }

    bytes const& b_;
    std::size_t pos_ = 0;
};

/// JSON equality with integers compared by value (int64 1 == uint64 1).
bool same(json::value const& a, json::value const& b) {
    auto as_int = [](json::value const& v) -> std::optional<std::pair<bool, std::uint64_t>> {
        if (v.is_uint64())
            return std::pair{false, v.get_uint64()};
        if (v.is_int64())
            return std::pair{v.get_int64() < 0, static_cast<std::uint64_t>(v.get_int64())};
        return std::nullopt;
    };
    if (auto x = as_int(a))
        return x == as_int(b);
    if (a.kind() != b.kind())
        return false;
    if (auto const* x = a.if_array()) {
        auto const& y = b.get_array();
        if (x->size() != y.size())
            return false;
        for (std::size_t i = 0; i < x->size(); ++i)
            if (!same((*x)[i], y[i]))
                return false;
        return true;
    }
    if (auto const* x = a.if_object()) {
        auto const& y = b.get_object();
        if (x->size() != y.size())
            return false;
        auto yi = y.begin();
        for (auto const& kv : *x) {
            if (kv.key() != yi->key() || !same(kv.value(), yi->value()))
                return false;
            ++yi;
        }
        return true;
    }
    return a == b;
}

void put_be(bytes& out, std::uint64_t v) {
    for (int i = 7; i >= 0; --i)
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void check_action_hash(json::value const& v, bytes const& packed) {
    std::uint64_t const nonce = 1700000000123;
    auto vault = gateway::address::parse("0x1d9470d4b963f552e6f671a81619d395877bf409");
    FUZZ_CHECK(vault.has_value());
    gateway::sign::alpha::l1_options const plain{};
    gateway::sign::alpha::l1_options const full{*vault, 1700000060000};

    bytes expect = packed;
    put_be(expect, nonce);
    expect.push_back(0x00);
    auto in = gateway::sign::alpha::action_hash_input(v, nonce, plain);
    FUZZ_CHECK(in && *in == expect);

    expect = packed;
    put_be(expect, nonce);
    expect.push_back(0x01);
    auto const raw = gateway::sign::address_bytes(*vault);
    expect.insert(expect.end(), raw.begin(), raw.end());
    expect.push_back(0x00);
    put_be(expect, 1700000060000);
    in = gateway::sign::alpha::action_hash_input(v, nonce, full);
    FUZZ_CHECK(in && *in == expect);
    auto h = gateway::sign::alpha::action_hash(v, nonce, full);
    FUZZ_CHECK(h && *h == gateway::sign::keccak256(expect));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    auto v = gateway::fuzz::parse_json(gateway::fuzz::as_text(data, size));
    if (!v)
        return 0;
    auto packed = gateway::sign::msgpack_encode(*v);
    FUZZ_CHECK(packed.has_value() == !holds_double(*v));
    if (!packed) {
        gateway::fuzz::check_error(packed.error(), {errc::validation_error});
        FUZZ_CHECK(!gateway::sign::alpha::action_hash_input(*v, 1).has_value());
        return 0;
    }
    decoder d(*packed);
    auto back = d.value();
    FUZZ_CHECK(d.done());
    FUZZ_CHECK(same(*v, back));
    check_action_hash(*v, *packed);
    return 0;
}
