// Contract tests of the mocks' WebSocket alone (upstreams/alpha.md §7, beta.md §9, CONTRACT §10
// faults): subscriptions, frames driven by the market walk, /__mock/mark and the matching
// engines, and the WebSocket faults. Every wait is on a received frame with a deadline.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/providers/alpha/signing.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/sign/nonce.hpp>

#include "support/eventually.hpp"
#include "support/mock_beta.hpp"
#include "support/mock_control.hpp"
#include "support/mock_http.hpp"
#include "support/ws_client.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <map>
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

// ---------------------------------------------------------------------------------------------
// beta: v3-signed requests (beta.md §3.1) of the demo wallet

using gateway::test::mock_beta::alice;

gateway::test::raw_response beta_call(mock_server const& m, http::verb verb,
                                      std::string const& path, std::string const& params) {
    std::string msg = params;
    msg += (msg.empty() ? "" : "&") + std::string("nonce=") +
           std::to_string(gateway::sign::beta::next_nonce_us()) + "&user=" + alice().address +
           "&signer=" + alice().address;
    msg += "&signature=" + gateway::sign::beta::sign_message(msg, alice().key, false);
    if (verb == http::verb::post || verb == http::verb::put)
        return fetch(verb, m.base_url() + path, msg,
                     {{"Content-Type", "application/x-www-form-urlencoded"}});
    return fetch(verb, m.base_url() + path + "?" + msg);
}

json::value beta_ok(gateway::test::raw_response const& r) {
    INFO(r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

std::string beta_ws(mock_server const& m, std::string const& path) {
    return "ws" + m.base_url().substr(4) + path;
}

/// A local order book kept by beta.md §9.2's documented procedure.
struct local_book {
    std::map<std::string, std::string> bids, asks; // price text -> qty (prices of one scale)
    std::int64_t last_u = -1;

    void load(json::value const& rest) {
        bids.clear();
        asks.clear();
        for (auto const& l : rest.at("bids").as_array())
            bids[std::string(l.at(0).as_string())] = std::string(l.at(1).as_string());
        for (auto const& l : rest.at("asks").as_array())
            asks[std::string(l.at(0).as_string())] = std::string(l.at(1).as_string());
    }
    void apply(json::value const& ev) {
        auto side = [](std::map<std::string, std::string>& s, json::value const& levels) {
            for (auto const& l : levels.as_array()) {
                std::string const px(l.at(0).as_string());
                std::string const qty(l.at(1).as_string());
                if (gateway::test::mock_beta::dec_text(qty).is_zero())
                    s.erase(px);
                else
                    s[px] = qty;
            }
        };
        side(bids, ev.at("b"));
        side(asks, ev.at("a"));
        last_u = ev.at("u").to_number<std::int64_t>();
    }
    bool same_as(json::value const& rest) const {
        local_book r;
        r.load(rest);
        return r.bids == bids && r.asks == asks;
    }
};

auto depth_event = [](json::value const& v) {
    return v.is_object() && v.as_object().contains("e") && v.at("e") == "depthUpdate";
};

/// Syncs `book` from REST (limit 100) and the events `c` receives, as documented: drop u <
/// lastUpdateId, the first applied has U <= lastUpdateId <= u, then each pu is the previous u.
void sync_book(mock_server& m, ws_client& c, local_book& book) {
    auto const rest = gateway::test::get_json(m, "/fapi/v3/depth?symbol=BTCUSDT&limit=100");
    std::int64_t const last = rest.at("lastUpdateId").to_number<std::int64_t>();
    book.load(rest);
    book.last_u = -1;
    // Move the book so that an event follows the snapshot.
    mock_post(m, "/__mock/tick", R"({"steps":1})");
    for (;;) {
        auto ev = c.next(depth_event);
        REQUIRE(ev);
        auto const U = ev->at("U").to_number<std::int64_t>();
        auto const u = ev->at("u").to_number<std::int64_t>();
        if (u < last)
            continue;
        if (book.last_u < 0) {
            REQUIRE(U <= last);
            REQUIRE(last <= u);
        } else {
            REQUIRE(ev->at("pu").to_number<std::int64_t>() == book.last_u);
        }
        book.apply(*ev);
        return;
    }
}

/// Applies events in order up to the one that ends just before REST's `lastUpdateId`, then
/// the local book must be that REST book.
void check_against_rest(mock_server& m, ws_client& c, local_book& book) {
    auto const rest = gateway::test::get_json(m, "/fapi/v3/depth?symbol=BTCUSDT&limit=100");
    std::int64_t const last = rest.at("lastUpdateId").to_number<std::int64_t>();
    while (book.last_u < last - 1) {
        auto ev = c.next(depth_event);
        REQUIRE(ev);
        REQUIRE(ev->at("pu").to_number<std::int64_t>() == book.last_u); // no gap
        book.apply(*ev);
    }
    REQUIRE(book.last_u == last - 1);
    CHECK(book.same_as(rest));
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
    auto const deadline =
        std::chrono::steady_clock::now() + 30s; // a hang guard: three books take about 1 s
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

// =============================================================================================
// beta

TEST_CASE("beta mock ws: combined streams, SUBSCRIBE control frames and their errors",
          "[contract][mock][ws]") {
    auto m = start(upstream::beta);
    auto c = ws_open(beta_ws(*m, "/stream?streams=btcusdt@aggTrade/ethusdt@markPrice@1s"));
    CHECK(stat(*m, "ws:connect /stream") == 1);
    auto result = [&](std::uint64_t id) {
        auto r = c->next([id](json::value const& v) {
            return v.is_object() && v.as_object().contains("id") && v.at("id") == id;
        });
        REQUIRE(r);
        return *r;
    };
    c->send(R"({"method":"LIST_SUBSCRIPTIONS","id":1})");
    CHECK(result(1) ==
          json::parse(R"({"result":["btcusdt@aggTrade","ethusdt@markPrice@1s"],"id":1})"));
    c->send(R"({"method":"GET_PROPERTY","params":["combined"],"id":2})");
    CHECK(result(2) == json::parse(R"({"result":true,"id":2})"));
    auto const mark = c->next([](json::value const& v) {
        return v.is_object() && v.as_object().contains("stream") &&
               v.at("stream") == "ethusdt@markPrice@1s";
    });
    REQUIRE(mark);
    CHECK(mark->at("data").at("e") == "markPriceUpdate");
    CHECK(mark->at("data").at("s") == "ETHUSDT");

    c->send(R"({"method":"SUBSCRIBE","params":["!markPrice@arr@1s","btcusdt@kline_1m"],"id":3})");
    CHECK(result(3) == json::parse(R"({"result":null,"id":3})"));
    c->send(R"({"method":"UNSUBSCRIBE","params":["ethusdt@markPrice@1s"],"id":4})");
    CHECK(result(4) == json::parse(R"({"result":null,"id":4})"));
    c->send(R"({"method":"LIST_SUBSCRIPTIONS","id":5})");
    CHECK(result(5).at("result") ==
          json::parse(R"(["btcusdt@aggTrade","!markPrice@arr@1s","btcusdt@kline_1m"])"));
    auto const arr = c->next([](json::value const& v) {
        return v.is_object() && v.as_object().contains("stream") &&
               v.at("stream") == "!markPrice@arr@1s";
    });
    REQUIRE(arr);
    CHECK(arr->at("data").as_array().size() == 6);

    c->send(R"({"method":"SUBSCRIBE","params":["dogeusdt@aggTrade"],"id":6})");
    CHECK(result(6).at("error").at("code") == 2);
    c->send(R"({"method":"NOPE","id":7})");
    CHECK(result(7).at("error").at("code") == 2);
    c->send("not json");
    CHECK(c->next([](json::value const& v) {
        return v.is_object() && v.as_object().contains("error") && v.at("error").at("code") == 3;
    }));
    // Raw payloads once combined is off.
    c->send(R"({"method":"SET_PROPERTY","params":["combined",false],"id":8})");
    CHECK(result(8) == json::parse(R"({"result":null,"id":8})"));
    auto const raw = c->next([](json::value const& v) {
        return v.is_array() && !v.as_array().empty() && v.at(0).at("e") == "markPriceUpdate";
    });
    CHECK(raw);
}

TEST_CASE("beta mock ws: @depth continues REST's lastUpdateId, a local book synced as "
          "documented equals REST, also after an order and a wsDrop",
          "[contract][mock][ws]") {
    auto m = start(upstream::beta);
    set_mark(*m, "BTC", "65000");
    auto c = ws_open(beta_ws(*m, "/ws/btcusdt@depth@100ms"));
    CHECK(stat(*m, "ws:connect /ws") == 1);
    local_book book;
    sync_book(*m, *c, book);
    mock_post(*m, "/__mock/tick", R"({"steps":3})");
    check_against_rest(*m, *c, book);

    // An order resting inside the spread is a depth change of its own.
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + alice().address + R"(","balances":{"USDT":"100000"}})");
    beta_ok(beta_call(*m, http::verb::post, "/fapi/v3/order",
                      "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&"
                      "price=65000.0"));
    auto const with_order = c->find([](json::value const& v) {
        if (!depth_event(v))
            return false;
        for (auto const& l : v.at("b").as_array())
            if (l.at(0) == "65000.0")
                return true;
        return false;
    });
    REQUIRE(with_order);
    check_against_rest(*m, *c, book);
    CHECK(book.bids.at("65000.0") == "0.010");

    // Dropped: a new connection resyncs from REST and matches it again.
    mock_post(*m, "/__mock/faults", R"({"wsDrop":true})");
    REQUIRE(c->wait_closed());
    auto again = ws_open(beta_ws(*m, "/ws/btcusdt@depth"));
    local_book fresh;
    sync_book(*m, *again, fresh);
    mock_post(*m, "/__mock/tick", R"({"steps":2})");
    check_against_rest(*m, *again, fresh);
}

TEST_CASE("beta mock ws: a listen key streams its user's ORDER_TRADE_UPDATE and ACCOUNT_UPDATE",
          "[contract][mock][ws]") {
    auto m = start(upstream::beta);
    set_mark(*m, "BTC", "65000");
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + alice().address + R"(","balances":{"USDT":"100000"}})");

    // Unknown keys are refused before the upgrade.
    auto refused = ws_client::connect(beta_ws(*m, "/ws/" + std::string(64, 'a')));
    auto* e = std::get_if<gateway::net::ws_connect_error>(&refused);
    REQUIRE(e);
    CHECK(e->status == 400);
    CHECK(json::parse(e->body) ==
          json::parse(R"({"code":-1125,"msg":"This listenKey does not exist."})"));
    CHECK(beta_call(*m, http::verb::put, "/fapi/v3/listenKey", "").status == 400);
    // Unsigned: the signed endpoints' refusal.
    auto const unsigned_call = fetch(http::verb::post, m->base_url() + "/fapi/v3/listenKey");
    CHECK(unsigned_call.status == 400);
    CHECK(json::parse(unsigned_call.body).at("code") == -1102); // no signature: mandatory param

    auto const key = std::string(beta_ok(beta_call(*m, http::verb::post, "/fapi/v3/listenKey", ""))
                                     .at("listenKey")
                                     .as_string());
    CHECK(key.size() == 64);
    CHECK(beta_ok(beta_call(*m, http::verb::post, "/fapi/v3/listenKey", "")).at("listenKey") ==
          key.c_str()); // the live key again
    CHECK(beta_ok(beta_call(*m, http::verb::put, "/fapi/v3/listenKey", "")) == json::object{});

    auto c = ws_open(beta_ws(*m, "/ws/" + key));
    auto event = [](std::string e, std::string x) {
        return [e, x](json::value const& v) {
            return v.is_object() && v.as_object().contains("e") && v.at("e") == e.c_str() &&
                   (x.empty() || v.at("o").at("x") == x.c_str());
        };
    };
    // A resting order: NEW; cancelled: CANCELED.
    auto const rest = beta_ok(beta_call(
        *m, http::verb::post, "/fapi/v3/order",
        "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=64000.0"));
    auto const id = rest.at("orderId").to_number<std::uint64_t>();
    auto const nu = c->next(event("ORDER_TRADE_UPDATE", "NEW"));
    REQUIRE(nu);
    CHECK(nu->at("o").at("i") == id);
    CHECK(nu->at("o").at("s") == "BTCUSDT");
    CHECK(nu->at("o").at("S") == "BUY");
    CHECK(nu->at("o").at("X") == "NEW");
    CHECK(nu->at("o").at("p") == "64000.0");
    CHECK(nu->at("o").at("q") == "0.010");
    beta_ok(beta_call(*m, http::verb::delete_, "/fapi/v3/order",
                      "symbol=BTCUSDT&orderId=" + std::to_string(id)));
    auto const gone = c->next(event("ORDER_TRADE_UPDATE", "CANCELED"));
    REQUIRE(gone);
    CHECK(gone->at("o").at("i") == id);
    CHECK(gone->at("o").at("X") == "CANCELED");

    // A market order: NEW, TRADE (FILLED) and the account after it.
    auto const mkt = beta_ok(beta_call(*m, http::verb::post, "/fapi/v3/order",
                                       "symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01"));
    auto const mid = mkt.at("orderId").to_number<std::uint64_t>();
    auto const n2 = c->next(event("ORDER_TRADE_UPDATE", "NEW"));
    REQUIRE(n2);
    CHECK(n2->at("o").at("i") == mid);
    auto const trade = c->next(event("ORDER_TRADE_UPDATE", "TRADE"));
    REQUIRE(trade);
    CHECK(trade->at("o").at("i") == mid);
    CHECK(trade->at("o").at("X") == "FILLED");
    CHECK(trade->at("o").at("l") == "0.010");
    CHECK(trade->at("o").at("z") == "0.010");
    CHECK(trade->at("o").at("L") == "65000.1");
    CHECK(trade->at("o").at("m") == false);
    auto const account = c->next(event("ACCOUNT_UPDATE", ""));
    REQUIRE(account);
    CHECK(account->at("a").at("m") == "ORDER");
    CHECK(account->at("a").at("B").at(0).at("a") == "USDT");
    REQUIRE(account->at("a").at("P").as_array().size() == 1);
    CHECK(account->at("a").at("P").at(0).at("s") == "BTCUSDT");
    CHECK(account->at("a").at("P").at(0).at("pa") == "0.010");

    // Closed: the key is gone for new connections.
    CHECK(beta_ok(beta_call(*m, http::verb::delete_, "/fapi/v3/listenKey", "")) == json::object{});
    CHECK(beta_call(*m, http::verb::put, "/fapi/v3/listenKey", "").status == 400);
    auto late = ws_client::connect(beta_ws(*m, "/ws/" + key));
    CHECK(std::holds_alternative<gateway::net::ws_connect_error>(late));
}
