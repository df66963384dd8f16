// libFuzzer target: RFC 6455 framing (include/gateway/net/ws_frame.hpp), the bytes every
// WebSocket peer sends gatewayd, the mocks and the SDK before any JSON is read.
//
// Input: byte 0 picks the role (bit 0: read as a server, frames masked) and how the bytes
// arrive (bits 1-7: the size of each read, 1..127 bytes); the rest is the byte stream. The reader
// is driven the way ws_session drives it: unread bytes kept, more appended after each
// `need_more`.
//
// Checked beyond "no crash":
// - the reader never consumes more than it was given, and asks for a frame size above what it
//   has when it names one;
// - a message is at most the limit and, when text, valid UTF-8;
// - a close carries a code an endpoint may send (or 1005, none given) and a UTF-8 reason;
// - a failure is 1002, 1007 or 1009 with a reason, and the stream ends there;
// - every message, written again by append_frame with the role's masking, reads back the same
//   from a fresh reader (one frame, whatever fragments it came in).
#include "fuzz_common.hpp"

#include <gateway/net/ws_frame.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {
namespace wf = gateway::net::ws_frame;
constexpr std::size_t max_message = 4096;

void check_round_trip(bool server, bool text, std::string_view payload) {
    std::string wire;
    std::array<unsigned char, 4> const key{0x37, 0xfa, 0x21, 0x3d};
    wf::append_frame(wire, text ? wf::opcode::text : wf::opcode::binary, payload,
                     server ? &key : nullptr);
    wf::reader again(server, max_message);
    std::size_t consumed = 0;
    auto const ev =
        again.next(reinterpret_cast<unsigned char*>(wire.data()), wire.size(), consumed);
    FUZZ_CHECK(ev.what == wf::event::kind::message && consumed == wire.size());
    FUZZ_CHECK(ev.text == text && ev.payload == payload);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    if (size == 0)
        return 0;
    bool const server = (data[0] & 1U) != 0;
    std::size_t const chunk = std::max<std::size_t>(1, data[0] >> 1U);
    ++data;
    --size;
    wf::reader r(server, max_message);
    std::vector<unsigned char> buf;
    std::size_t pos = 0; // bytes of the input handed over so far
    for (;;) {
        std::size_t consumed = 0;
        auto const ev = r.next(buf.data(), buf.size(), consumed);
        FUZZ_CHECK(consumed <= buf.size());
        std::vector<unsigned char> const rest(buf.begin() + static_cast<std::ptrdiff_t>(consumed),
                                              buf.end());
        switch (ev.what) {
        case wf::event::kind::need_more:
            if (consumed == 0) {
                FUZZ_CHECK(ev.frame_size == 0 || ev.frame_size > buf.size());
                FUZZ_CHECK(ev.frame_size <= max_message + wf::max_header);
                if (pos == size)
                    return 0; // the stream ended mid-frame
                std::size_t const n = std::min(chunk, size - pos);
                buf.insert(buf.end(), data + pos, data + pos + n);
                pos += n;
                continue;
            }
            break;
        case wf::event::kind::message:
            FUZZ_CHECK(ev.payload.size() <= max_message);
            FUZZ_CHECK(!ev.text || wf::valid_utf8(ev.payload));
            check_round_trip(server, ev.text, ev.payload);
            r.release();
            break;
        case wf::event::kind::ping:
        case wf::event::kind::pong:
            FUZZ_CHECK(ev.payload.size() <= 125);
            break;
        case wf::event::kind::close:
            FUZZ_CHECK(ev.code == 1005 || wf::sendable_close_code(ev.code));
            FUZZ_CHECK(wf::valid_utf8(ev.payload));
            return 0; // a peer's close ends the stream
        case wf::event::kind::fail:
            FUZZ_CHECK(ev.code == 1002 || ev.code == 1007 || ev.code == 1009);
            FUZZ_CHECK(!ev.payload.empty());
            return 0;
        }
        buf = rest;
    }
}
