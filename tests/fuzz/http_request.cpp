// libFuzzer target: the server's HTTP/1.1 request parsing (request line, header fields,
// Content-Length and chunked bodies with chunk extensions and trailers, pipelined keep-alive
// requests), read the way net::http_server::serve reads a connection: per request a Beast
// request_parser<string_body> with the server's header and body limits, the header first (and
// the early 413 on a declared length over the limit), then the body, over one buffer that
// carries pipelined bytes on to the next request.
//
// The input is the byte stream a client sends. It arrives in reads of a size picked from the
// input length, so the parser also sees requests split at every kind of boundary.
//
// The limits are net::server_options' defaults (gatewayd sets only body_limit, from its
// configuration, whose default is the same 64 KiB). serve() configures its parser inline; once
// the hardening of http_server.hpp gives that configuration a shared helper, call it here.
#include "fuzz_common.hpp"

#include <gateway/net/http_server.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>

#include <algorithm>
#include <array>

namespace {

namespace http = boost::beast::http;

/// A SyncReadStream over the fuzz input: `step` bytes per read, then end of stream.
class input_stream {
public:
    input_stream(std::uint8_t const* data, std::size_t size, std::size_t step)
        : data_(data)
        , left_(size)
        , step_(step) {}

    template <class MutableBuffers>
    std::size_t read_some(MutableBuffers const& buffers, boost::system::error_code& ec) {
        if (left_ == 0) {
            ec = boost::asio::error::eof;
            return 0;
        }
        ec = {};
        std::size_t const n =
            boost::asio::buffer_copy(buffers, boost::asio::buffer(data_, std::min(left_, step_)));
        data_ += n;
        left_ -= n;
        return n;
    }
    template <class MutableBuffers>
    std::size_t read_some(MutableBuffers const& buffers) {
        boost::system::error_code ec;
        auto const n = read_some(buffers, ec);
        if (ec)
            throw boost::system::system_error(ec);
        return n;
    }

private:
    std::uint8_t const* data_;
    std::size_t left_;
    std::size_t step_;
};

/// What the gateway reads from a parsed request (app.cpp `handle` and `inspect`).
void touch(gateway::net::request const& req) {
    std::string_view const target = req.target();
    FUZZ_CHECK(!target.empty());
    auto const q = target.find('?');
    FUZZ_CHECK(target.substr(0, q).size() <= target.size());
    for (auto const& f : req)
        FUZZ_CHECK(!f.name_string().empty());
    (void)req.find("X-API-Key");
    (void)req.find(http::field::content_type);
    (void)req.keep_alive();
    (void)req.method_string();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    gateway::net::server_options const options; // the limits gatewayd and the mocks apply
    static constexpr std::array<std::size_t, 5> steps{1, 7, 64, 1500, 65536};
    input_stream stream(data, size, steps[size % steps.size()]);
    boost::beast::flat_buffer buffer;

    for (int requests = 0; requests < 64; ++requests) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(options.header_limit));
        parser.body_limit(options.body_limit);
        boost::system::error_code ec;
        http::read_header(stream, buffer, parser, ec);
        if (ec) {
            (void)gateway::net::detail::is_parse_error(ec);
            break;
        }
        FUZZ_CHECK(parser.is_header_done());
        if (auto len = parser.content_length(); len && *len > options.body_limit)
            break; // 413 before the body is read
        http::read(stream, buffer, parser, ec);
        if (ec) {
            (void)gateway::net::detail::is_parse_error(ec);
            break;
        }
        FUZZ_CHECK(parser.is_done());
        gateway::net::request req = parser.release();
        // CONTRACT §2: no body over the limit reaches a handler, however it was framed.
        FUZZ_CHECK(req.body().size() <= options.body_limit);
        touch(req);
        if (!req.keep_alive())
            break;
    }
    return 0;
}
