// libFuzzer target: values a client sends that travel on in upstream request headers (gamma's
// `apiKey`, `apiSecret`, `passphrase`, CONTRACT 6.3), through the path the gateway builds the
// upstream request with: `check_header_value` (the body and `X-Gamma-*` header check), then
// `sign::gamma::l2_headers` into a Beast request as the upstream channel sets them.
//
// The input is three values separated by 0x00 0x00 (a value may hold single NULs).
//
// Checked beyond "no crash": a value is accepted exactly when it is printable ASCII; a refusal is
// a well-formed VALIDATION_ERROR naming the field and never repeats the value; and every request
// built from accepted values, written as HTTP/1.1, reads back as exactly one request (nothing
// left over that an upstream would take for a second one) with the same header values.
#include "fuzz_common.hpp"

#include <gateway/providers/gamma/signing.hpp>
#include <gateway/validate/validate.hpp>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <array>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace http = boost::beast::http;
namespace sg = gateway::sign::gamma;
using gateway::errc;

bool printable(std::string_view s) {
    for (char const ch : s)
        if (ch < 0x20 || ch > 0x7E)
            return false;
    return true;
}

std::array<std::string, 3> split(std::string_view in) {
    std::array<std::string, 3> out;
    for (std::size_t i = 0; i < 2; ++i) {
        auto const at = in.find(std::string_view("\0\0", 2));
        if (at == std::string_view::npos) {
            out[i] = std::string(in);
            return out;
        }
        out[i] = std::string(in.substr(0, at));
        in.remove_prefix(at + 2);
    }
    out[2] = std::string(in);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    auto const values = split(gateway::fuzz::as_text(data, size));
    constexpr std::array<char const*, 3> fields{"apiKey", "apiSecret", "passphrase"};
    bool all_ok = true;
    for (std::size_t i = 0; i < 3; ++i) {
        auto const r = gateway::check_header_value(fields[i], values[i]);
        FUZZ_CHECK(static_cast<bool>(r) == printable(values[i]));
        if (!r) {
            all_ok = false;
            gateway::fuzz::check_error(r.error(), {errc::validation_error});
            FUZZ_CHECK(r.error().details.at("field").as_string() == fields[i]);
            if (values[i].size() >= 8) // never echoed (short values match the message's words)
                FUZZ_CHECK(r.error().message.find(values[i]) == std::string::npos);
        }
    }
    if (!all_ok)
        return 0;

    sg::credentials const creds(values[0], values[1], values[2]);
    auto const wallet = gateway::address::parse("0x00000000000000000000000000000000000000aa");
    FUZZ_CHECK(wallet.has_value());
    auto const headers =
        sg::l2_headers(creds, *wallet, 1'767'225'600, "GET", "/data/orders", std::string_view{});
    if (!headers) { // the secret is not base64: refused naming it
        gateway::fuzz::check_error(headers.error(), {errc::validation_error});
        return 0;
    }
    http::request<http::string_body> req{http::verb::get, "/data/orders?maker_address=0xaa", 11};
    req.set(http::field::host, "clob.example");
    for (auto const& h : *headers)
        req.set(h.name, h.value);
    req.prepare_payload();
    std::ostringstream wire;
    wire << req;
    std::string const bytes = wire.str();

    http::request_parser<http::string_body> parser;
    parser.eager(true);
    boost::system::error_code ec;
    auto const used = parser.put(boost::asio::buffer(bytes), ec);
    FUZZ_CHECK(!ec);
    FUZZ_CHECK(parser.is_done());
    FUZZ_CHECK(used == bytes.size()); // one request, nothing after it
    auto const& back = parser.get();
    for (auto const& h : *headers) {
        auto const it = back.find(h.name);
        FUZZ_CHECK(it != back.end());
        // The parser trims the value's outer spaces (RFC 9112 OWS), nothing else.
        auto const sent = std::string_view(h.value);
        auto const first = sent.find_first_not_of(' ');
        auto const trimmed = first == std::string_view::npos
                                 ? std::string_view{}
                                 : sent.substr(first, sent.find_last_not_of(' ') - first + 1);
        FUZZ_CHECK(it->value() == trimmed);
    }
    return 0;
}
