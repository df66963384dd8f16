// RFC 6455 framing (net/ws_frame.hpp): the reader on the RFC's own examples (§5.7), masking,
// fragments with control frames between them, the three length forms, and every rule that ends
// a connection (1002, 1007, 1009); append_frame and close_payload; UTF-8 validation.
#include <catch2/catch.hpp>

#include <gateway/net/ws_frame.hpp>

#include <string>
#include <vector>

namespace ws_frame_test {

namespace wf = gateway::net::ws_frame;
using kind = wf::event::kind;

namespace {
std::vector<unsigned char> bytes(std::initializer_list<int> list) {
    std::vector<unsigned char> out;
    for (int b : list)
        out.push_back(static_cast<unsigned char>(b));
    return out;
}

/// Every event the reader finds in `wire` (read whole), up to the first close or failure.
struct read_all {
    std::vector<wf::event::kind> kinds;
    std::vector<std::string> payloads;
    std::vector<std::uint16_t> codes;
    std::size_t left = 0; ///< bytes not consumed at the end

    read_all(std::vector<unsigned char> wire, bool server, std::size_t max = 1 << 16) {
        wf::reader r(server, max);
        std::size_t at = 0;
        for (;;) {
            std::size_t consumed = 0;
            auto const ev = r.next(wire.data() + at, wire.size() - at, consumed);
            at += consumed;
            if (ev.what == kind::need_more) {
                if (consumed == 0)
                    break;
                continue;
            }
            kinds.push_back(ev.what);
            payloads.emplace_back(ev.payload);
            codes.push_back(ev.code);
            if (ev.what == kind::close || ev.what == kind::fail)
                break;
        }
        left = wire.size() - at;
    }
};

std::vector<unsigned char> framed(wf::opcode op, std::string_view payload, bool masked) {
    std::string out;
    std::array<unsigned char, 4> const key{0x01, 0x02, 0x03, 0x04};
    wf::append_frame(out, op, payload, masked ? &key : nullptr);
    return {out.begin(), out.end()};
}
} // namespace

TEST_CASE("ws frame: the RFC 6455 examples read as the RFC says", "[unit][ws]") {
    // §5.7: a single-frame unmasked text message.
    read_all unmasked(bytes({0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}), false);
    REQUIRE(unmasked.kinds == std::vector{kind::message});
    CHECK(unmasked.payloads[0] == "Hello");

    // A single-frame masked text message.
    read_all masked(bytes({0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}),
                    true);
    REQUIRE(masked.kinds == std::vector{kind::message});
    CHECK(masked.payloads[0] == "Hello");

    // A fragmented unmasked text message, with a ping between its fragments.
    read_all fragmented(
        bytes({0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x02, 0x68, 0x69, 0x80, 0x02, 0x6c, 0x6f}),
        false);
    REQUIRE(fragmented.kinds == std::vector{kind::ping, kind::message});
    CHECK(fragmented.payloads[0] == "hi");
    CHECK(fragmented.payloads[1] == "Hello");

    // Unmasked ping and masked pong, each carrying "Hello".
    read_all ping(bytes({0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f}), false);
    REQUIRE(ping.kinds == std::vector{kind::ping});
    CHECK(ping.payloads[0] == "Hello");
    read_all pong(bytes({0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}), true);
    REQUIRE(pong.kinds == std::vector{kind::pong});
    CHECK(pong.payloads[0] == "Hello");

    // 256 bytes binary in one unmasked frame: the 16-bit length form.
    auto big = bytes({0x82, 0x7E, 0x01, 0x00});
    big.resize(4 + 256, 0xAB);
    read_all binary(big, false);
    REQUIRE(binary.kinds == std::vector{kind::message});
    CHECK(binary.payloads[0] == std::string(256, '\xAB'));

    // 64 KiB binary in one unmasked frame: the 64-bit length form.
    auto huge = bytes({0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00});
    huge.resize(10 + 65536, 0x5A);
    read_all binary64(huge, false);
    REQUIRE(binary64.kinds == std::vector{kind::message});
    CHECK(binary64.payloads[0].size() == 65536);
}

TEST_CASE("ws frame: what append_frame writes reads back, in every length form", "[unit][ws]") {
    for (std::size_t n : {0U, 1U, 125U, 126U, 65535U, 65536U, 70000U}) {
        std::string const payload(n, 'x');
        for (bool masked : {false, true}) {
            auto wire = framed(wf::opcode::text, payload, masked);
            CAPTURE(n, masked);
            std::size_t const header = (n < 126 ? 2 : n <= 65535 ? 4 : 10) + (masked ? 4 : 0);
            CHECK(wire.size() == header + n);
            read_all back(wire, masked, 1 << 17);
            REQUIRE(back.kinds == std::vector{kind::message});
            CHECK(back.payloads[0] == payload);
            CHECK(back.left == 0);
        }
    }
}

TEST_CASE("ws frame: a frame split anywhere is read once it is whole", "[unit][ws]") {
    auto const wire = framed(wf::opcode::text, std::string(300, 'q'), true);
    wf::reader r(true, 1024);
    std::vector<unsigned char> buf;
    std::size_t messages = 0;
    for (unsigned char b : wire) {
        buf.push_back(b);
        std::size_t consumed = 0;
        auto const ev = r.next(buf.data(), buf.size(), consumed);
        if (ev.what == kind::message) {
            CHECK(buf.size() == wire.size());
            CHECK(ev.payload == std::string(300, 'q'));
            ++messages;
        } else {
            REQUIRE(ev.what == kind::need_more);
            CHECK(consumed == 0);
            // Once the header is whole, the reader names the size the frame needs.
            if (buf.size() >= 8)
                CHECK(ev.frame_size == wire.size());
        }
    }
    CHECK(messages == 1);
}

TEST_CASE("ws frame: a peer breaking the protocol is failed with the RFC's close code",
          "[unit][ws]") {
    auto fails = [](std::vector<unsigned char> wire, bool server, std::uint16_t code,
                    std::size_t max = 1 << 16) {
        read_all r(std::move(wire), server, max);
        REQUIRE(!r.kinds.empty());
        CHECK(r.kinds.back() == kind::fail);
        CHECK(r.codes.back() == code);
        CHECK(!r.payloads.back().empty());
    };
    fails(bytes({0xC1, 0x00}), false, 1002);                         // RSV1 without an extension
    fails(bytes({0x83, 0x00}), false, 1002);                         // reserved opcode 3
    fails(bytes({0x8B, 0x00}), false, 1002);                         // reserved control opcode 0xB
    fails(bytes({0x81, 0x00}), true, 1002);                          // a client frame unmasked
    fails(framed(wf::opcode::text, "x", true), false, 1002);         // a server frame masked
    fails(bytes({0x09, 0x00}), false, 1002);                         // a fragmented ping
    fails(bytes({0x89, 0x7E, 0x00, 0x7E}), false, 1002);             // a ping over 125 bytes
    fails(bytes({0x80, 0x00}), false, 1002);                         // continuation of nothing
    fails(bytes({0x01, 0x01, 0x61, 0x81, 0x01, 0x62}), false, 1002); // new message mid-message
    fails(bytes({0x81, 0x7E, 0x00, 0x05}), false, 1002);             // 16-bit form for 5 bytes
    fails(bytes({0x81, 0x7F, 0, 0, 0, 0, 0, 0, 0, 5}), false, 1002); // 64-bit form for 5 bytes
    fails(bytes({0x81, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0}), false, 1002); // top bit of 64-bit set
    fails(bytes({0x88, 0x01, 0x03}), false, 1002);                      // close body of one byte
    fails(bytes({0x88, 0x02, 0x03, 0xED}), false, 1002);                // close code 1005 sent
    fails(bytes({0x88, 0x02, 0x03, 0xEE}), false, 1002);                // close code 1006 sent
    fails(bytes({0x88, 0x02, 0x0B, 0xB7}), false, 1002);                // close code 2999
    fails(bytes({0x81, 0x02, 0xC3, 0x28}), false, 1007);                // text not UTF-8
    fails(bytes({0x88, 0x04, 0x03, 0xE8, 0xC3, 0x28}), false, 1007);    // close reason not UTF-8
    // Too big, in one frame and over fragments; refused from the header alone.
    fails(bytes({0x82, 0x7E, 0x04, 0x01}), false, 1009, 1024);
    auto parts = bytes({0x01, 0x7E, 0x02, 0x00});
    parts.resize(4 + 512, 'a');
    auto more = bytes({0x00, 0x7E, 0x02, 0x01});
    parts.insert(parts.end(), more.begin(), more.end());
    fails(parts, false, 1009, 1024);
}

TEST_CASE("ws frame: close frames carry their code and reason", "[unit][ws]") {
    read_all coded(bytes({0x88, 0x05, 0x03, 0xF5, 0x73, 0x6c, 0x6f}), false);
    REQUIRE(coded.kinds == std::vector{kind::close});
    CHECK(coded.codes[0] == 1013);
    CHECK(coded.payloads[0] == "slo");
    read_all empty(bytes({0x88, 0x00}), false);
    REQUIRE(empty.kinds == std::vector{kind::close});
    CHECK(empty.codes[0] == 1005);

    CHECK(wf::close_payload(0, "ignored").empty());
    auto const body = wf::close_payload(1009, "message over 65536 bytes");
    CHECK(body.substr(0, 2) == std::string("\x03\xF1", 2));
    CHECK(body.substr(2) == "message over 65536 bytes");
    // A long reason is cut to the 125 bytes of a control frame, on a character boundary.
    std::string reason;
    for (int i = 0; i < 70; ++i)
        reason += "\xC3\xA9"; // é
    auto const cut = wf::close_payload(1000, reason);
    CHECK(cut.size() <= 125);
    CHECK(wf::valid_utf8(cut.substr(2)));
}

TEST_CASE("ws frame: UTF-8 validation follows RFC 3629", "[unit][ws]") {
    CHECK(wf::valid_utf8(""));
    CHECK(wf::valid_utf8("plain ascii"));
    CHECK(wf::valid_utf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80")); // é € 😀
    CHECK(wf::valid_utf8("\xF4\x8F\xBF\xBF"));                     // U+10FFFF
    CHECK_FALSE(wf::valid_utf8("\xC0\xAF"));                       // overlong '/'
    CHECK_FALSE(wf::valid_utf8("\xE0\x80\xAF"));                   // overlong, 3 bytes
    CHECK_FALSE(wf::valid_utf8("\xED\xA0\x80"));                   // a surrogate
    CHECK_FALSE(wf::valid_utf8("\xF4\x90\x80\x80"));               // past U+10FFFF
    CHECK_FALSE(wf::valid_utf8("\xE2\x82"));                       // cut short
    CHECK_FALSE(wf::valid_utf8("\x80"));                           // a lone continuation
    CHECK_FALSE(wf::valid_utf8("\xFF"));
}

TEST_CASE("ws frame: UTF-8 validation finds a bad byte at any offset in an ASCII run",
          "[unit][ws]") {
    // ASCII runs are checked eight bytes at a time: a character (good or bad) may sit at any
    // position of a word, straddle two words, or end the text.
    std::string const good = "\xE2\x82\xAC"; // €
    for (std::size_t at = 0; at <= 24; ++at) {
        INFO("at " << at);
        std::string text(at, 'a');
        CHECK(wf::valid_utf8(text + good + std::string(17, 'b')));
        CHECK(wf::valid_utf8(text + good));
        CHECK_FALSE(wf::valid_utf8(text + "\x80" + std::string(17, 'b')));
        CHECK_FALSE(wf::valid_utf8(text + "\xC0\xAF" + std::string(9, 'b')));
        CHECK_FALSE(wf::valid_utf8(text + "\xE2\x82")); // cut short at the end
    }
}

TEST_CASE("ws frame: a header written apart from its payload is the frame's own header",
          "[unit][ws]") {
    for (std::size_t size : {std::size_t{0}, std::size_t{125}, std::size_t{126}, std::size_t{65535},
                             std::size_t{65536}}) {
        INFO("size " << size);
        std::string const payload(size, 'p');
        std::string whole;
        wf::append_frame(whole, wf::opcode::text, payload);
        std::string head;
        wf::append_header(head, wf::opcode::text, size);
        CHECK(head + payload == whole);
    }
}

} // namespace ws_frame_test
