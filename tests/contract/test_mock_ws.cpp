// Contract tests of the mocks' WebSocket alone (upstreams/alpha.md §7, beta.md §9, CONTRACT §10
// faults): subscriptions, frames driven by the market walk, /__mock/mark and the matching
// engines, and the WebSocket faults. Every wait is on a received frame with a deadline.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/providers/alpha/signing.hpp>
#include <gateway/sign/nonce.hpp>

#include "support/eventually.hpp"
#include "support/mock_control.hpp"
#include "support/mock_http.hpp"
#include "support/mock_ws.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>

namespace mock_ws_test {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace sa = gateway::sign::alpha;
using gateway::mocks::mock_options;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::fetch;
using gateway::test::mock_post;
using gateway::test::set_mark;
using gateway::test::ws_client;
using gateway::test::ws_open;
using namespace std::chrono_literals;

std::unique_ptr<mock_server> start(upstream kind, std::chrono::milliseconds book_interval = 500ms) {
    mock_options o{kind};
    o.ws_book_interval = book_interval;
    return mock_server::start(o);
}

/// Matches frames whose `channel` is `c`.
auto channel(std::string c) {
    return [c](json::value const& v) {
        return v.is_object() && v.as_object().contains("channel") && v.at("channel") == c.c_str();
    };
}

json::value info(mock_server const& m, std::string const& body) {
    auto const r = fetch(http::verb::post, m.base_url() + "/info", body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

std::string sub(std::string const& subscription, char const* method = "subscribe") {
    return std::string(R"({"method":")") + method + R"(","subscription":)" + subscription + "}";
}

// upstreams/alpha.md §6 key (the upstream SDKs' public test key).
gateway::sign::private_key const key =
    gateway::sign::private_key::from_hex(
        "0x0123456789012345678901234567890123456789012345678901234567890123")
        .value();
std::string const user = "0x14791697260e4c9a71f18484c9f997b308e59325";

json::value exchange(mock_server const& m, std::uint32_t asset, bool buy, std::string const& px,
                     std::string const& sz, char const* tif) {
    json::object o;
    o["a"] = asset;
    o["b"] = buy;
    o["p"] = px;
    o["s"] = sz;
    o["r"] = false;
    o["t"] = json::object{{"limit", json::object{{"tif", tif}}}};
    json::object action{{"type", "order"}, {"orders", json::array{o}}, {"grouping", "na"}};
    auto const nonce = static_cast<std::uint64_t>(gateway::sign::next_nonce_ms());
    json::object body;
    body["action"] = action;
    body["nonce"] = nonce;
    body["signature"] =
        sa::signature_to_json(sa::sign_l1_action(action, nonce, key, false).value());
    body["vaultAddress"] = nullptr;
    auto const r = fetch(http::verb::post, m.base_url() + "/exchange", json::serialize(body));
    REQUIRE(r.status == 200);
    auto v = json::parse(r.body);
    INFO(r.body);
    REQUIRE(v.at("status") == "ok");
    return v.at("response").at("data").at("statuses").at(0);
}

void cancel(mock_server const& m, std::int64_t oid) {
    json::object action{{"type", "cancel"},
                        {"cancels", json::array{json::object{{"a", 0}, {"o", oid}}}}};
    auto const nonce = static_cast<std::uint64_t>(gateway::sign::next_nonce_ms());
    json::object body;
    body["action"] = action;
    body["nonce"] = nonce;
    body["signature"] =
        sa::signature_to_json(sa::sign_l1_action(action, nonce, key, false).value());
    body["vaultAddress"] = nullptr;
    auto const r = fetch(http::verb::post, m.base_url() + "/exchange", json::serialize(body));
    REQUIRE(r.status == 200);
    REQUIRE(json::parse(r.body).at("status") == "ok");
}

void fund(mock_server& m) {
    mock_post(m, "/__mock/accounts",
              R"({"address":")" + user + R"(","balances":{"USDC":"100000"}})");
}

std::int64_t stat(mock_server& m, std::string const& kind) {
    return gateway::test::upstream_calls(m, kind);
}

} // namespace mock_ws_test

using namespace mock_ws_test;

TEST_CASE("alpha mock ws: ping, acks, and the upstream's error texts", "[contract][mock][ws]") {
    auto m = start(upstream::alpha);
    auto c = ws_open(m->ws_url());
    CHECK(stat(*m, "ws:connect") == 1);

    c->send(R"({"method":"ping"})");
    auto const pong = c->next(channel("pong"));
    REQUIRE(pong);
    CHECK(*pong == json::parse(R"({"channel":"pong"})"));

    c->send(sub(R"({"type":"trades","coin":"SOL"})"));
    auto const ack = c->next(channel("subscriptionResponse"));
    REQUIRE(ack);
    CHECK(ack->at("data") ==
          json::parse(R"({"method":"subscribe","subscription":{"type":"trades","coin":"SOL"}})"));

    auto error = [&] {
        auto e = c->next(channel("error"));
        REQUIRE(e);
        return std::string(e->at("data").as_string());
    };
    c->send(sub(R"({"type":"trades","coin":"SOL"})"));
    CHECK(error() == R"(Already subscribed: {"type":"trades","coin":"SOL"})");
    c->send(sub(R"({"type":"trades","coin":"DOGE"})"));
    CHECK(error() == R"(Invalid subscription {"type":"trades","coin":"DOGE"})");
    c->send(sub(R"({"type":"candle","coin":"BTC","interval":"7m"})"));
    CHECK(error() == R"(Invalid subscription {"type":"candle","coin":"BTC","interval":"7m"})");
    c->send(sub(R"({"type":"userFills","user":"0x12"})"));
    CHECK(error().starts_with("Invalid subscription "));
    c->send("not json");
    CHECK(error() == "Error parsing JSON into valid websocket request: not json");
    c->send(sub(R"({"type":"trades","coin":"SOL"})", "unsubscribe"));
    auto const unack = c->next(channel("subscriptionResponse"));
    REQUIRE(unack);
    CHECK(unack->at("data").at("method") == "unsubscribe");
    c->send(sub(R"({"type":"trades","coin":"SOL"})", "unsubscribe"));
    CHECK(error() == R"(Already unsubscribed: {"type":"trades","coin":"SOL"})");

    SECTION("at most 10 unique users per IP, across connections") {
        auto other = ws_open(m->ws_url());
        for (int i = 0; i < 10; ++i) {
            char addr[43];
            std::snprintf(addr, sizeof addr, "0x%040d", i + 1);
            auto& conn = i % 2 ? other : c;
            conn->send(sub(R"({"type":"orderUpdates","user":")" + std::string(addr) + R"("})"));
            REQUIRE(conn->next(channel("subscriptionResponse")));
        }
        c->send(sub(R"({"type":"userFills","user":"0x0000000000000000000000000000000000000001"})"));
        REQUIRE(c->next(channel("subscriptionResponse"))); // a user already tracked
        c->send(sub(R"({"type":"userFills","user":"0x00000000000000000000000000000000000000ff"})"));
        CHECK(error() == "Cannot track more than 10 total users");
        other.reset(); // its users are released when it closes
        REQUIRE(gateway::test::eventually([&] {
            c->send(
                sub(R"({"type":"userFills","user":"0x00000000000000000000000000000000000000ff"})"));
            auto f = c->next([](json::value const& v) {
                return channel("subscriptionResponse")(v) || channel("error")(v);
            });
            return f && channel("subscriptionResponse")(*f);
        }));
    }
}

TEST_CASE("alpha mock ws: allMids at once and after a mark move, as /info allMids",
          "[contract][mock][ws]") {
    auto m = start(upstream::alpha);
    auto c = ws_open(m->ws_url());
    c->send(sub(R"({"type":"allMids"})"));
    auto const first = c->next(channel("allMids"));
    REQUIRE(first);
    CHECK(first->at("data").at("mids").as_object().contains("BTC"));
    CHECK(first->at("data").at("mids").as_object().contains("PURR/USDC"));

    set_mark(*m, "BTC", "61000");
    auto const moved = c->next([](json::value const& v) {
        return channel("allMids")(v) && v.at("data").at("mids").at("BTC") == "61000.0";
    });
    REQUIRE(moved);
    CHECK(moved->at("data").at("mids") == info(*m, R"({"type":"allMids"})"));

    c->send(sub(R"({"type":"allMids","dex":"xyz"})"));
    auto const xyz = c->next([](json::value const& v) {
        return channel("allMids")(v) && v.at("data").at("mids").as_object().contains("xyz:TSLA");
    });
    REQUIRE(xyz);
    CHECK(!xyz->at("data").at("mids").as_object().contains("BTC"));
}

TEST_CASE("alpha mock ws: an order placed, filled and cancelled through /exchange streams "
          "l2Book, orderUpdates, userFills, trades and candle",
          "[contract][mock][ws]") {
    auto m = start(upstream::alpha, 0ms);
    set_mark(*m, "BTC", "67000");
    fund(*m);
    // A fill before subscribing: it belongs to the userFills snapshot only.
    exchange(*m, 0, true, "70000", "0.01", "Ioc");

    auto c = ws_open(m->ws_url());
    c->send(sub(R"({"type":"l2Book","coin":"BTC"})"));
    auto const snap = c->next(channel("l2Book"));
    REQUIRE(snap);
    CHECK(snap->at("data").at("levels") ==
          info(*m, R"({"type":"l2Book","coin":"BTC"})").at("levels"));
    c->send(sub(R"({"type":"userFills","user":")" + user + R"("})"));
    auto const fills_snap = c->next(channel("userFills"));
    REQUIRE(fills_snap);
    CHECK(fills_snap->at("data").at("isSnapshot") == true);
    CHECK(fills_snap->at("data").at("user") == user.c_str());
    CHECK(fills_snap->at("data").at("fills").as_array().size() == 1);
    c->send(sub(R"({"type":"orderUpdates","user":")" + user + R"("})"));
    c->send(sub(R"({"type":"trades","coin":"BTC"})"));
    c->send(sub(R"({"type":"candle","coin":"BTC","interval":"1m"})"));
    for (int i = 0; i < 3; ++i)
        REQUIRE(c->next(channel("subscriptionResponse")));

    // A post-only bid inside the spread: open, and the book's new best bid.
    auto const rest = exchange(*m, 0, true, "67000", "0.02", "Alo");
    auto const oid = rest.at("resting").at("oid").to_number<std::int64_t>();
    auto const open = c->next(channel("orderUpdates"));
    REQUIRE(open);
    auto const& u = open->at("data").at(0);
    CHECK(u.at("status") == "open");
    CHECK(u.at("order").at("oid") == oid);
    CHECK(u.at("order").at("limitPx") == "67000.0");
    CHECK(u.at("order").at("sz") == "0.02");
    CHECK(u.at("order").at("side") == "B");
    auto const book = c->next([](json::value const& v) {
        return channel("l2Book")(v) && v.at("data").at("levels").at(0).at(0).at("px") == "67000.0";
    });
    REQUIRE(book);
    CHECK(book->at("data").at("levels").at(0).at(0).at("sz") == "0.02");

    // An Ioc sell crossing the bid: a fill of the resting order (maker) and of the taker.
    exchange(*m, 0, false, "67000", "0.02", "Ioc");
    auto const f1 = c->find([](json::value const& v) {
        return channel("userFills")(v) && !v.at("data").as_object().contains("isSnapshot");
    });
    REQUIRE(f1);
    CHECK(f1->at("data").at("fills").at(0).at("px") == "67000.0");
    CHECK(f1->at("data").at("fills").at(0).at("sz") == "0.02");
    auto const filled = c->find([oid](json::value const& v) {
        return channel("orderUpdates")(v) && v.at("data").at(0).at("order").at("oid") == oid &&
               v.at("data").at(0).at("status") == "filled";
    });
    CHECK(filled);
    auto const trades = c->find([](json::value const& v) {
        return channel("trades")(v) && v.at("data").at(0).at("px") == "67000.0";
    });
    REQUIRE(trades);
    CHECK(trades->at("data").at(0).at("coin") == "BTC");
    CHECK(trades->at("data").at(0).at("sz") == "0.02");
    auto const candle = c->find(channel("candle"));
    REQUIRE(candle);
    CHECK(candle->at("data").at("s") == "BTC");
    CHECK(candle->at("data").at("i") == "1m");

    // The snapshot's fill never streams again: exactly the two fills of this trade (maker and
    // taker of the same account) followed the snapshot.
    auto const streamed = c->count([](json::value const& v) {
        return channel("userFills")(v) && !v.at("data").as_object().contains("isSnapshot");
    });
    CHECK(streamed == 2);

    // A resting order cancelled.
    auto const again = exchange(*m, 0, true, "66990", "0.01", "Gtc");
    auto const oid2 = again.at("resting").at("oid").to_number<std::int64_t>();
    cancel(*m, oid2);
    auto const cancelled = c->next([oid2](json::value const& v) {
        return channel("orderUpdates")(v) && v.at("data").at(0).at("order").at("oid") == oid2 &&
               v.at("data").at(0).at("status") == "canceled";
    });
    CHECK(cancelled);
}

TEST_CASE("alpha mock ws: l2Book pushes are at least ws_book_interval apart",
          "[contract][mock][ws]") {
    auto m = start(upstream::alpha, 300ms);
    auto c = ws_open(m->ws_url());
    c->send(sub(R"({"type":"l2Book","coin":"ETH"})"));
    REQUIRE(c->next(channel("l2Book")));
    // Changes far faster than the interval: a tick every request.
    std::vector<std::int64_t> times;
    auto const deadline = std::chrono::steady_clock::now() + 10s;
    while (times.size() < 3 && std::chrono::steady_clock::now() < deadline) {
        mock_post(*m, "/__mock/tick", R"({"steps":1})");
        if (auto b = c->next(channel("l2Book"), 20ms))
            times.push_back(b->at("data").at("time").to_number<std::int64_t>());
    }
    REQUIRE(times.size() == 3);
    CHECK(times[1] - times[0] >= 299);
    CHECK(times[2] - times[1] >= 299);
}

TEST_CASE("alpha mock ws: wsStall, wsDelayMs and wsDrop", "[contract][mock][ws]") {
    auto m = start(upstream::alpha);
    auto c = ws_open(m->ws_url());
    c->send(sub(R"({"type":"allMids"})"));
    REQUIRE(c->next(channel("allMids")));

    SECTION("stall: no data while set, pings still answered, data again once cleared") {
        mock_post(*m, "/__mock/faults", R"({"wsStall":true})");
        CHECK(json::parse(fetch(http::verb::get, m->base_url() + "/__mock/faults").body) ==
              json::parse(R"({"latencyMs":0,"status":null,"drop":false,"wsStall":true})"));
        set_mark(*m, "BTC", "60000");
        c->send(R"({"method":"ping"})");
        REQUIRE(c->next(channel("pong")));
        // The mark move (and the walk) published while stalled: nothing arrived.
        CHECK(!c->next(channel("allMids"), 1500ms));
        REQUIRE(fetch(http::verb::delete_, m->base_url() + "/__mock/faults").status == 200);
        set_mark(*m, "BTC", "60010");
        auto const again = c->next([](json::value const& v) {
            return channel("allMids")(v) && v.at("data").at("mids").at("BTC") == "60010.0";
        });
        CHECK(again);
    }
    SECTION("delay: every data frame leaves wsDelayMs later") {
        mock_post(*m, "/__mock/faults", R"({"wsDelayMs":700})");
        auto const before = std::chrono::steady_clock::now();
        set_mark(*m, "BTC", "60020");
        auto const late = c->next([](json::value const& v) {
            return channel("allMids")(v) && v.at("data").at("mids").at("BTC") == "60020.0";
        });
        REQUIRE(late);
        CHECK(std::chrono::steady_clock::now() - before >= 700ms);
    }
    SECTION("drop: every open connection closes at once; new ones are served") {
        auto other = ws_open(m->ws_url());
        mock_post(*m, "/__mock/faults", R"({"wsDrop":true})");
        auto const end = c->wait_closed();
        REQUIRE(end);
        CHECK(end->code == 1012);
        CHECK(other->wait_closed());
        // One-shot: not kept in the configuration.
        CHECK(json::parse(fetch(http::verb::get, m->base_url() + "/__mock/faults").body) ==
              json::parse(R"({"latencyMs":0,"status":null,"drop":false})"));
        auto fresh = ws_open(m->ws_url());
        fresh->send(sub(R"({"type":"allMids"})"));
        CHECK(fresh->next(channel("allMids")));
        CHECK(stat(*m, "ws:connect") == 3);
    }
    SECTION("HTTP faults refuse the handshake") {
        mock_post(*m, "/__mock/faults", R"({"status":503})");
        auto r = ws_client::connect(m->ws_url());
        auto* e = std::get_if<gateway::net::ws_connect_error>(&r);
        REQUIRE(e);
        CHECK(e->status == 503);
    }
}
