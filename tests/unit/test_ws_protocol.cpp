// The /ws/v1/perps frames (protocol.hpp): what a client may send, what the server writes, and
// that the SDK reads back exactly what the server wrote.
#include <gateway/stream/protocol.hpp>

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>

namespace {
using namespace gateway;
using namespace gateway::stream;
namespace json = boost::json;

std::string field_of(result<client_frame> const& r) {
    REQUIRE_FALSE(r.has_value());
    auto const e = r.error(); // by value: result::error() returns a copy
    auto const* f = e.details.if_contains("field");
    return f ? std::string(f->as_string()) : std::string();
}
} // namespace

TEST_CASE("ws protocol: client frames per channel", "[unit][ws]") {
    auto f = parse_client_frame(
        R"({"id":1,"op":"subscribe","channel":"orderbook","provider":"alpha","symbol":"BTC"})");
    REQUIRE(f.has_value());
    CHECK(f->op == client_frame::op_kind::subscribe);
    CHECK(f->sub.channel == channel::orderbook);
    CHECK(f->sub.depth == subscription::default_depth);
    CHECK(f->id == 1);

    f = parse_client_frame(R"({"id":"x","op":"subscribe","channel":"fills","provider":"beta",)"
                           R"("address":"0xABCDEFabcdef0123456789012345678901234567"})");
    REQUIRE(f.has_value());
    CHECK(f->sub.address == "0xabcdefabcdef0123456789012345678901234567");

    f = parse_client_frame(R"({"op":"unsubscribe","channel":"candles","provider":"alpha",)"
                           R"("symbol":"ETH","interval":"4h"})");
    REQUIRE(f.has_value());
    CHECK(f->op == client_frame::op_kind::unsubscribe);
    CHECK(f->id.is_null());
    CHECK(f->sub.interval == "4h");

    // fuzz_ws_frames: an id that overflows to infinity would make every answer invalid JSON.
    f = parse_client_frame(R"({"id":1e999,"op":"ping"})");
    REQUIRE(f.has_value());
    CHECK(f->id.is_null());
    CHECK(json::parse(pong_frame(f->id)).at("id").is_null());

    // Any id is echoed, an array or object too; an infinity inside it becomes null.
    f = parse_client_frame(R"({"id":{"n":[1,1e999],"s":"x"},"op":"ping"})");
    REQUIRE(f.has_value());
    CHECK(json::parse(pong_frame(f->id)).at("id") == json::parse(R"({"n":[1,null],"s":"x"})"));

    f = parse_client_frame(R"({"op":"ping"})");
    REQUIRE(f.has_value());
    CHECK(f->op == client_frame::op_kind::ping);
}

TEST_CASE("ws protocol: refused client frames name the field and keep the id", "[unit][ws]") {
    json::value id;
    auto f = parse_client_frame("[1,2]", &id);
    REQUIRE_FALSE(f.has_value());
    CHECK(f.error().wire_code_text == "INVALID_JSON");

    f = parse_client_frame(R"({"id":5,"op":"subscribe","channel":"trades","provider":"alpha"})",
                           &id);
    CHECK(field_of(f) == "symbol");
    CHECK(id == 5);
    CHECK(
        field_of(parse_client_frame(
            R"({"op":"subscribe","channel":"trades","provider":"alpha","symbol":"BTC","depth":5})")) ==
        "depth"); // depth belongs to orderbook only
    CHECK(
        field_of(parse_client_frame(
            R"({"op":"subscribe","channel":"orderbook","provider":"alpha","symbol":"BTC","depth":101})")) ==
        "depth");
    CHECK(
        field_of(parse_client_frame(
            R"({"op":"subscribe","channel":"orderbook","provider":"alpha","symbol":"BTC","depth":"5"})")) ==
        "depth");
    CHECK(field_of(parse_client_frame(
              R"({"op":"subscribe","channel":"candles","provider":"alpha","symbol":"BTC"})")) ==
          "interval");
    CHECK(field_of(parse_client_frame(
              R"({"op":"subscribe","channel":"orders","provider":"alpha","address":"0x1"})")) ==
          "address");
    CHECK(field_of(parse_client_frame(R"({"op":"subscribe","channel":"prices"})")) == "provider");
    CHECK(field_of(parse_client_frame(R"({"op":"ping","extra":1})")) == "extra");
    CHECK(field_of(parse_client_frame(R"({"id":1})")) == "op");
}

TEST_CASE("ws protocol: server frames read back as written", "[unit][ws]") {
    subscription s;
    s.channel = channel::orderbook;
    s.provider = "beta";
    s.symbol = "BTC";
    s.depth = 5;

    auto data = parse_server_frame(data_frame(s, json::parse(R"({"bids":[],"asks":[]})"), 42));
    REQUIRE(data.has_value());
    CHECK(data->what == server_frame::kind::data);
    CHECK(data->sub == s);
    CHECK(data->seq == 42);
    CHECK(data->data.at("bids").as_array().empty());

    auto ack = parse_server_frame(ack_frame("a", true, s));
    REQUIRE(ack.has_value());
    CHECK(ack->what == server_frame::kind::subscribed);
    CHECK(ack->id == "a");
    CHECK(ack->sub == s);

    auto st = parse_server_frame(status_frame(s, stream_status::reconnecting, "upstream lost"));
    REQUIRE(st.has_value());
    CHECK(st->what == server_frame::kind::status);
    CHECK(st->status == stream_status::reconnecting);
    CHECK(st->message == "upstream lost");

    auto err = parse_server_frame(
        error_frame(3, make_error(errc::market_not_found, "Market 'X' not found.")));
    REQUIRE(err.has_value());
    CHECK(err->what == server_frame::kind::error);
    CHECK(err->error.code == errc::market_not_found);
    CHECK(err->id == 3);

    auto pong = parse_server_frame(pong_frame(nullptr));
    REQUIRE(pong.has_value());
    CHECK(pong->what == server_frame::kind::pong);

    subscription p;
    p.channel = channel::prices;
    p.provider = "alpha";
    auto prices = json::parse(data_frame(p, json::parse(R"({"BTC":"1"})")));
    CHECK_FALSE(prices.as_object().contains("symbol"));
    CHECK_FALSE(prices.as_object().contains("seq"));
    CHECK(prices.at("type") == "prices");
}
