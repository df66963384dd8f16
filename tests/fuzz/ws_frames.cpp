// libFuzzer target: the /ws/v1/perps frames (include/gateway/stream/protocol.hpp). The input is
// one WebSocket text message, read both as a client frame (what gatewayd parses from any client)
// and as a server frame (what the SDK's stream client parses from the gateway).
//
// Checked beyond "no crash":
// - a refused client frame is a well-formed INVALID_JSON or VALIDATION_ERROR (naming the field),
//   and the error frame the gateway answers with reads back as that error with the same id;
// - an accepted client frame has the fields its channel needs (symbol, depth 1..100, interval,
//   a lower-case address), and the frame the SDK would send for it parses back to the same
//   subscription and op;
// - an accepted server frame written again by the gateway's writers reads back the same
//   (subscription, seq, status).
#include "fuzz_common.hpp"

#include <gateway/stream/protocol.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>

namespace {
namespace gs = gateway::stream;
using gateway::errc;

/// The id echoed: exactly, except floating-point numbers at any depth of an array or object id,
/// which Boost 1.81's JSON parser reads back to within a few units of the last place (its number
/// parsing is not correctly rounded).
bool same_id(boost::json::value const& a, boost::json::value const& b) {
    if (a.is_double() && b.is_double()) {
        double const x = a.get_double();
        double const y = b.get_double();
        return x == y || std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y));
    }
    if (a.is_array() && b.is_array()) {
        auto const& x = a.get_array();
        auto const& y = b.get_array();
        return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), same_id);
    }
    if (a.is_object() && b.is_object()) {
        auto const& x = a.get_object();
        auto const& y = b.get_object();
        if (x.size() != y.size())
            return false;
        return std::all_of(x.begin(), x.end(), [&](auto const& kv) {
            auto const* other = y.if_contains(kv.key());
            return other && same_id(kv.value(), *other);
        });
    }
    return a == b;
}

void check_client(std::string_view text) {
    boost::json::value id;
    auto f = gs::parse_client_frame(text, &id);
    if (!f) {
        gateway::fuzz::check_error(f.error(), {errc::invalid_json, errc::validation_error});
        auto back = gs::parse_server_frame(gs::error_frame(id, f.error()));
        FUZZ_CHECK(back && back->what == gs::server_frame::kind::error);
        FUZZ_CHECK(same_id(back->id, id));
        FUZZ_CHECK(back->error.code == f.error().code);
        return;
    }
    FUZZ_CHECK(f->id == id);
    if (f->op == gs::client_frame::op_kind::ping)
        return;
    auto const& s = f->sub;
    FUZZ_CHECK(!s.provider.empty());
    bool const symbol = s.channel == gs::channel::trades || s.channel == gs::channel::orderbook ||
                        s.channel == gs::channel::candles;
    FUZZ_CHECK(symbol == !s.symbol.empty());
    FUZZ_CHECK((s.channel == gs::channel::orderbook) ==
               (s.depth >= 1 && s.depth <= gs::subscription::max_depth));
    FUZZ_CHECK((s.channel == gs::channel::candles) == !s.interval.empty());
    bool const account = s.channel == gs::channel::orders || s.channel == gs::channel::fills;
    FUZZ_CHECK(account == (s.address.size() == 42));
    auto again = gs::parse_client_frame(gs::subscribe_frame(f->op, s, f->id));
    FUZZ_CHECK(again && again->op == f->op && again->sub == s && same_id(again->id, f->id));
}

void check_server(std::string_view text) {
    auto f = gs::parse_server_frame(text);
    if (!f) {
        gateway::fuzz::check_error(f.error(), {errc::invalid_json, errc::validation_error});
        return;
    }
    using kind = gs::server_frame::kind;
    switch (f->what) {
    case kind::data: {
        auto back = gs::parse_server_frame(gs::data_frame(f->sub, f->data, f->seq));
        FUZZ_CHECK(back && back->what == kind::data && back->sub == f->sub);
        if (f->sub.channel == gs::channel::orderbook)
            FUZZ_CHECK(back->seq == f->seq);
        auto written = f->data; // what the writer makes of it: infinities become null
        gs::detail::null_non_finite(written);
        FUZZ_CHECK(back->data.kind() == written.kind()); // doubles: see same_id
        break;
    }
    case kind::status: {
        auto back = gs::parse_server_frame(gs::status_frame(f->sub, f->status, f->message));
        FUZZ_CHECK(back && back->what == kind::status && back->sub == f->sub &&
                   back->status == f->status && back->message == f->message);
        break;
    }
    case kind::subscribed:
    case kind::unsubscribed: {
        auto back =
            gs::parse_server_frame(gs::ack_frame(f->id, f->what == kind::subscribed, f->sub));
        FUZZ_CHECK(back && back->what == f->what && back->sub == f->sub &&
                   same_id(back->id, f->id));
        break;
    }
    case kind::error:
    case kind::pong:
        break;
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    auto const text = gateway::fuzz::as_text(data, size);
    check_client(text);
    check_server(text);
    return 0;
}
