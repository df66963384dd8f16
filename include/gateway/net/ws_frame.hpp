#pragma once
/**
 * @file ws_frame.hpp
 * RFC 6455 framing without I/O: the `reader` that turns received bytes into messages and
 * control frames, and `append_frame`, which writes one frame. `ws_session` does the I/O around
 * them; the fuzz target `ws_wire` drives the reader directly.
 *
 * What the reader enforces (each a failure with the close code RFC 6455 §7.4.1 gives):
 * - 1002 protocol error: reserved bits set (no extension is negotiated), an unknown opcode, a
 *   control frame fragmented or over 125 bytes, a continuation with no message under way or a
 *   new message before the last one finished, a frame masked the wrong way for the role, a
 *   64-bit length with the top bit set or not in its shortest form, a close frame with a
 *   one-byte body or a code no endpoint may send;
 * - 1007 invalid data: a text message or close reason that is not UTF-8;
 * - 1009 too big: a message (all its fragments together) over the limit.
 */
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gateway::net::ws_frame {

enum class opcode : std::uint8_t {
    continuation = 0x0,
    text = 0x1,
    binary = 0x2,
    close = 0x8,
    ping = 0x9,
    pong = 0xA,
};

/// The largest frame header: 2 bytes, an 8-byte length, a 4-byte mask.
inline constexpr std::size_t max_header = 14;

/// XORs `data` with `key`, starting at byte `offset` of the masked payload.
inline void apply_mask(unsigned char* data, std::size_t n, std::array<unsigned char, 4> const& key,
                       std::size_t offset = 0) noexcept {
    for (std::size_t i = 0; i < n; ++i)
        data[i] ^= key[(offset + i) & 3U];
}

/**
 * Appends the header of one frame (FIN set) carrying `size` payload bytes to `out`, with the
 * masking key when given. The payload follows it on the wire (masked when there is a key), so a
 * server can send a frame's header and a payload it shares with other connections as two
 * buffers of one gathered write.
 */
inline void append_header(std::string& out, opcode op, std::uint64_t size,
                          std::array<unsigned char, 4> const* key = nullptr) {
    std::array<unsigned char, max_header> h{};
    std::size_t n = 0;
    h[n++] = static_cast<unsigned char>(0x80U | static_cast<unsigned>(op));
    unsigned char const mask_bit = key ? 0x80U : 0U;
    if (size < 126) {
        h[n++] = static_cast<unsigned char>(mask_bit | size);
    } else if (size <= 0xFFFF) {
        h[n++] = static_cast<unsigned char>(mask_bit | 126U);
        h[n++] = static_cast<unsigned char>(size >> 8U);
        h[n++] = static_cast<unsigned char>(size & 0xFFU);
    } else {
        h[n++] = static_cast<unsigned char>(mask_bit | 127U);
        for (int shift = 56; shift >= 0; shift -= 8)
            h[n++] = static_cast<unsigned char>((size >> static_cast<unsigned>(shift)) & 0xFFU);
    }
    if (key)
        for (auto const b : *key)
            h[n++] = b;
    out.append(reinterpret_cast<char const*>(h.data()), n);
}

/**
 * Appends one frame (FIN set) to `out`: the header, then the payload, masked with `*key` when
 * given (a client's frames are masked, a server's never).
 */
inline void append_frame(std::string& out, opcode op, std::string_view payload,
                         std::array<unsigned char, 4> const* key = nullptr) {
    append_header(out, op, payload.size(), key);
    std::size_t const at = out.size();
    out.append(payload);
    if (key)
        apply_mask(reinterpret_cast<unsigned char*>(out.data() + at), payload.size(), *key);
}

/// A close frame's body: the code (none when 0), then the reason.
inline std::string close_payload(std::uint16_t code, std::string_view reason) {
    std::string body;
    if (code == 0)
        return body;
    body.push_back(static_cast<char>(code >> 8U));
    body.push_back(static_cast<char>(code & 0xFFU));
    // A control frame carries at most 125 bytes; cut the reason on a character boundary.
    std::size_t room = 123;
    if (reason.size() > room) {
        while (room > 0 && (static_cast<unsigned char>(reason[room]) & 0xC0U) == 0x80U)
            --room;
        reason = reason.substr(0, room);
    }
    body.append(reason);
    return body;
}

/// Whether `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
inline bool valid_utf8(std::string_view s) noexcept {
    auto const* p = reinterpret_cast<unsigned char const*>(s.data());
    std::size_t const n = s.size();
    std::size_t i = 0;
    while (i < n) {
        // ASCII runs (most of any JSON text) eight bytes at a time.
        while (n - i >= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, p + i, 8);
            if ((word & 0x8080808080808080ULL) != 0)
                break;
            i += 8;
        }
        if (i == n)
            break;
        unsigned char const c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len = 0;
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0; // overlong
            else if (c == 0xED)
                hi = 0x9F; // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90; // overlong
            else if (c == 0xF4)
                hi = 0x8F; // past U+10FFFF
        } else {
            return false;
        }
        if (n - i < len)
            return false;
        if (p[i + 1] < lo || p[i + 1] > hi)
            return false;
        for (std::size_t k = 2; k < len; ++k)
            if ((p[i + k] & 0xC0U) != 0x80U)
                return false;
        i += len;
    }
    return true;
}

/// Whether a peer may send `code` in a close frame (RFC 6455 §7.4.1 and 7.4.2).
inline bool sendable_close_code(std::uint16_t code) noexcept {
    if (code >= 3000 && code <= 4999)
        return true;
    switch (code) {
    case 1000:
    case 1001:
    case 1002:
    case 1003:
    case 1007:
    case 1008:
    case 1009:
    case 1010:
    case 1011:
    case 1012:
    case 1013:
    case 1014:
        return true;
    default:
        return false;
    }
}

/// What the reader found next.
struct event {
    enum class kind : std::uint8_t {
        need_more, ///< no complete frame yet: read more bytes
        message,   ///< a whole text or binary message in `payload`
        ping,      ///< answer with a pong carrying `payload`
        pong,
        close, ///< the peer's close frame: `code` (1005 when it gave none) and `payload` (reason)
        fail,  ///< the peer broke the protocol: close with `code`; `payload` says why
    };
    kind what = kind::need_more;
    std::string_view payload;   ///< valid until the next call to `next`
    bool text = false;          ///< message: text (else binary)
    std::uint16_t code = 0;     ///< close and fail
    std::size_t frame_size = 0; ///< need_more: the bytes the next frame needs, when known
};

/**
 * Reads frames out of a contiguous buffer. `next(data, size, consumed)` looks at the unread
 * bytes, unmasks a complete frame in place and returns what it was; `consumed` says how many
 * bytes to drop. A fragmented message is collected internally; an unfragmented one is handed
 * over in place, without a copy.
 */
class reader {
public:
    /// `expect_masked`: a server reads masked frames, a client unmasked ones.
    reader(bool expect_masked, std::size_t max_message)
        : masked_(expect_masked)
        , max_message_(max_message) {}

    /// `need_more` with `consumed` > 0 means a fragment was taken in: call again.
    event next(unsigned char* data, std::size_t size, std::size_t& consumed) {
        consumed = 0;
        event e;
        if (size < 2)
            return e;
        unsigned char const b0 = data[0];
        unsigned char const b1 = data[1];
        bool const fin = (b0 & 0x80U) != 0;
        auto const op = static_cast<opcode>(b0 & 0x0FU);
        bool const is_masked = (b1 & 0x80U) != 0;
        if ((b0 & 0x70U) != 0)
            return fail(1002, "reserved bits set");
        bool const control = (static_cast<unsigned>(op) & 0x8U) != 0;
        switch (op) {
        case opcode::continuation:
        case opcode::text:
        case opcode::binary:
        case opcode::close:
        case opcode::ping:
        case opcode::pong:
            break;
        default:
            return fail(1002, "unknown opcode");
        }
        if (is_masked != masked_)
            return fail(1002,
                        masked_ ? "unmasked frame from a client" : "masked frame from a server");
        std::uint64_t len = b1 & 0x7FU;
        std::size_t header = 2;
        if (control && (!fin || len > 125))
            return fail(1002, "control frame fragmented or over 125 bytes");
        if (len == 126) {
            if (size < 4)
                return e;
            len = (std::uint64_t{data[2]} << 8U) | data[3];
            if (len < 126)
                return fail(1002, "length not in its shortest form");
            header = 4;
        } else if (len == 127) {
            if (size < 10)
                return e;
            len = 0;
            for (std::size_t k = 2; k < 10; ++k)
                len = (len << 8U) | data[k];
            if ((len >> 63U) != 0 || len <= 0xFFFF)
                return fail(1002, "length not in its shortest form");
            header = 10;
        }
        if (!control) {
            bool const continuing = op == opcode::continuation;
            if (continuing != in_message_)
                return fail(1002, continuing ? "continuation with no message under way"
                                             : "new message before the last one finished");
            std::uint64_t const so_far = continuing ? collected_.size() : 0;
            if (len > max_message_ || so_far + len > max_message_)
                return fail(1009, "message too big");
        }
        std::array<unsigned char, 4> key{};
        if (is_masked) {
            if (size < header + 4)
                return e;
            std::memcpy(key.data(), data + header, 4);
            header += 4;
        }
        std::size_t const total = header + static_cast<std::size_t>(len);
        if (size < total) {
            e.frame_size = total;
            return e;
        }
        unsigned char* payload = data + header;
        auto const n = static_cast<std::size_t>(len);
        if (is_masked)
            apply_mask(payload, n, key);
        consumed = total;
        std::string_view const body(reinterpret_cast<char const*>(payload), n);

        switch (op) {
        case opcode::ping:
            e.what = event::kind::ping;
            e.payload = body;
            return e;
        case opcode::pong:
            e.what = event::kind::pong;
            e.payload = body;
            return e;
        case opcode::close:
            return close_event(body);
        default:
            break;
        }
        // Data: text or binary opening a message, or a continuation of one.
        if (op != opcode::continuation) {
            text_ = op == opcode::text;
            if (fin) {
                if (text_ && !valid_utf8(body))
                    return fail(1007, "text message not UTF-8");
                e.what = event::kind::message;
                e.text = text_;
                e.payload = body;
                return e;
            }
            in_message_ = true;
            collected_.assign(body);
            return e; // a fragment taken in: consumed, and no event yet
        }
        collected_.append(body);
        if (!fin)
            return e; // a fragment taken in: consumed, and no event yet
        in_message_ = false;
        if (text_ && !valid_utf8(collected_))
            return fail(1007, "text message not UTF-8");
        delivered_.swap(collected_);
        collected_.clear();
        collected_.shrink_to_fit();
        e.what = event::kind::message;
        e.text = text_;
        e.payload = delivered_;
        return e;
    }

    /// Releases the last reassembled message once the caller is done with it.
    void release() {
        delivered_.clear();
        delivered_.shrink_to_fit();
    }

private:
    event fail(std::uint16_t code, char const* why) {
        event e;
        e.what = event::kind::fail;
        e.code = code;
        e.payload = why;
        return e;
    }

    event close_event(std::string_view body) {
        event e;
        e.what = event::kind::close;
        if (body.empty()) {
            e.code = 1005; // no status given
            return e;
        }
        if (body.size() == 1)
            return fail(1002, "close frame with a one-byte body");
        e.code = static_cast<std::uint16_t>(
            (static_cast<unsigned>(static_cast<unsigned char>(body[0])) << 8U) |
            static_cast<unsigned char>(body[1]));
        if (!sendable_close_code(e.code))
            return fail(1002, "close code no endpoint may send");
        e.payload = body.substr(2);
        if (!valid_utf8(e.payload))
            return fail(1007, "close reason not UTF-8");
        return e;
    }

    bool masked_;
    std::size_t max_message_;
    bool in_message_ = false;
    bool text_ = false;
    std::string collected_;
    std::string delivered_;
};

} // namespace gateway::net::ws_frame
