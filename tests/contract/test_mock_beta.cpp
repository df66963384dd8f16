// Contract tests of the beta mock (Aster futures + spot REST, upstreams/beta.md §2-5, §7, §8):
// shapes compared with the recorded fixtures (tests/fixtures/beta/), error envelopes and codes
// (gateway::wire::beta), request weights, v3 signatures and nonces checked with the SDK's own
// signer (gateway::sign::beta), API wallets, and the account arithmetic of the ledger.
#include <gateway/mocks/mock_server.hpp>
#include <gateway/providers/beta/errors.hpp>
#include <gateway/providers/beta/signing.hpp>
#include <gateway/providers/beta/weights.hpp>
#include <gateway/sign/secp256k1.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/fixed.hpp>

#include "support/mock_beta.hpp"
#include "support/mock_control.hpp"
#include "support/mock_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <catch2/catch.hpp>

#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

namespace mock_beta_test {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace wb = gateway::wire::beta;
using gateway::mocks::mock_options;
using gateway::mocks::mock_server;
using gateway::mocks::upstream;
using gateway::test::fetch;
using gateway::test::get;
using gateway::test::get_json;
using gateway::test::keys;
using gateway::test::mock_post;
using gateway::test::set_mark;
using namespace gateway::test::mock_beta;

std::unique_ptr<mock_server> start_beta() {
    return mock_server::start({upstream::beta});
}

unsigned used_weight(gateway::test::raw_response const& r) {
    auto const h = r.message[wb::used_weight_header];
    REQUIRE(!h.empty());
    return static_cast<unsigned>(std::stoul(std::string(h)));
}

/// Digits after the point of a decimal string ("106626.8" -> 1).
std::size_t decimals(json::value const& v) {
    std::string_view const s = v.as_string();
    auto const dot = s.find('.');
    return dot == std::string_view::npos ? 0 : s.size() - dot - 1;
}

using gateway::test::mock_beta::check_error;

void check_error(gateway::test::raw_response const& r, unsigned status, int code) {
    INFO(r.body);
    CHECK(r.status == status);
    auto const e = json::parse(r.body);
    CHECK(keys(e) == std::set<std::string>{"code", "msg"});
    CHECK(e.at("code") == code);
    CHECK(e.at("msg").is_string());
}

// ---------------------------------------------------------------------------------------------
// v3 signing (upstreams/beta.md §3.1) with the SDK's signer

std::int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// How one signed request is built; the defaults are a correct request.
struct signing {
    wallet const* signer = &alice();
    std::string user; ///< empty: the signer's own address
    bool send_user = true;
    std::optional<std::uint64_t> nonce = std::nullopt; ///< empty: a fresh one
    bool testnet = false;
};

/// Signed by `w`, for `user` (default: `w` itself).
signing by(wallet const& w, std::string user = {}) {
    signing s;
    s.signer = &w;
    s.user = std::move(user);
    return s;
}

/// `path?params&nonce=..&user=..&signer=..&signature=..` (beta.md §3.1 steps 1-7).
std::string signed_target(std::string const& path, std::string const& params,
                          signing const& s = {}) {
    std::string const user = s.user.empty() ? s.signer->address : s.user;
    std::uint64_t const nonce = s.nonce ? *s.nonce : gateway::sign::beta::next_nonce_us();
    std::string msg = params;
    msg += (msg.empty() ? "" : "&") + std::string("nonce=") + std::to_string(nonce);
    if (s.send_user)
        msg += "&user=" + user;
    msg += "&signer=" + s.signer->address;
    return path + "?" + msg +
           "&signature=" + gateway::sign::beta::sign_message(msg, s.signer->key, s.testnet);
}

gateway::test::raw_response signed_get(mock_server const& m, std::string const& path,
                                       std::string const& params = {}, signing const& s = {}) {
    return get(m, signed_target(path, params, s));
}

json::value signed_json(mock_server const& m, std::string const& path,
                        std::string const& params = {}, signing const& s = {}) {
    auto const r = signed_get(m, path, params, s);
    INFO(path << "?" << params << " -> " << r.status << " " << r.body);
    REQUIRE(r.status == 200);
    return json::parse(r.body);
}

/// alice: USDT 100000 (futures and spot, CONTRACT §10); BTCUSDT long 0.5 @ 60000 (10x cross);
/// ETHUSDT short 2 @ 3500 (20x isolated); spot USDT 250 more and ASTER 1000; marks pinned at
/// BTC 65000 and ETH 3400.
void seed_alice(mock_server& m) {
    set_mark(m, "BTC", "65000");
    set_mark(m, "ETH", "3400");
    mock_post(m, "/__mock/accounts",
              R"({"address":")" + alice().address +
                  R"(","balances":{"USDT":"100000"},"spotBalances":{"USDT":"250","ASTER":"1000"},
                  "positions":[{"symbol":"BTCUSDT","size":"0.5","entryPrice":"60000","leverage":10},
                               {"symbol":"ETH","size":"-2","entryPrice":"3500","leverage":20,
                                "marginType":"isolated"}]})");
}

} // namespace

// =============================================================================================
// Market data

TEST_CASE("beta mock: ping and time", "[contract][mock][beta]") {
    auto m = start_beta();
    auto const ping = get(*m, "/fapi/v3/ping");
    CHECK(ping.status == 200);
    CHECK(ping.body == "{}");
    CHECK(used_weight(ping) == 1);
    auto const t = get_json(*m, "/fapi/v3/time");
    CHECK(keys(t) == keys(fixture("ccxt-fetchTime.json")));
    CHECK(t.at("serverTime").is_int64());
    CHECK(get(*m, "/api/v3/ping").body == "{}");
    CHECK(get_json(*m, "/api/v3/time").at("serverTime").is_int64());
}

TEST_CASE("beta mock: ticker/price is an array, or one object with symbol",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const all = get(*m, "/fapi/v3/ticker/price");
    REQUIRE(all.status == 200);
    CHECK(used_weight(all) == 2); // no symbol: weight 2
    std::set<std::string> symbols;
    auto const all_json = json::parse(all.body);
    for (auto const& t : all_json.as_array()) {
        CHECK(keys(t) == std::set<std::string>{"symbol", "price", "time"});
        CHECK(t.at("price").is_string());
        CHECK(t.at("time").is_int64());
        symbols.insert(std::string(t.at("symbol").as_string()));
    }
    CHECK(symbols == std::set<std::string>{"BTCUSDT", "ETHUSDT", "SOLUSDT", "TSLAUSDT", "NVDAUSDT",
                                           "XAUUSDT"});

    auto const one = get(*m, "/fapi/v3/ticker/price?symbol=BTCUSDT");
    CHECK(used_weight(one) == 3);
    auto const o = json::parse(one.body);
    REQUIRE(o.is_object());
    CHECK(o.at("symbol") == "BTCUSDT");
    CHECK(decimals(o.at("price")) == 1); // BTCUSDT tick 0.1

    check_error(get(*m, "/fapi/v3/ticker/price?symbol=NOPEUSDT"), wb::invalid_symbol);

    SECTION("spot has its own symbols and its own weight budget") {
        auto const spot = get(*m, "/api/v3/ticker/price");
        REQUIRE(spot.status == 200);
        CHECK(used_weight(spot) == 2);
        std::set<std::string> ss;
        auto const spot_json = json::parse(spot.body);
        for (auto const& t : spot_json.as_array())
            ss.insert(std::string(t.at("symbol").as_string()));
        CHECK(ss == std::set<std::string>{"BTCUSDT", "ETHUSDT", "ASTERUSDT"});
        auto const s1 = get_json(*m, "/api/v3/ticker/price?symbol=ASTERUSDT");
        CHECK(s1.at("symbol") == "ASTERUSDT");
        check_error(get(*m, "/api/v3/ticker/price?symbol=SOLUSDT"), wb::invalid_symbol);
    }
}

TEST_CASE("beta mock: exchangeInfo lists the perps with every filter", "[contract][mock][beta]") {
    auto m = start_beta();
    auto const info = get_json(*m, "/fapi/v3/exchangeInfo");
    CHECK(keys(info) == keys(fixture("ccxt-fetchCurrencies.json")));
    CHECK(info.at("serverTime").is_int64());
    CHECK(info.at("rateLimits").at(0).at("limit") == 2400);
    std::set<std::string> symbols;
    for (auto const& s : info.at("symbols").as_array()) {
        std::string const name(s.at("symbol").as_string());
        CAPTURE(name);
        symbols.insert(name);
        CHECK(s.at("contractType") == "PERPETUAL");
        CHECK(s.at("status") == "TRADING");
        CHECK(s.at("quoteAsset") == "USDT");
        CHECK(s.at("marginAsset") == "USDT");
        CHECK(s.at("pricePrecision").is_number());
        CHECK(s.at("quantityPrecision").is_number());
        std::map<std::string, std::set<std::string>> filters;
        for (auto const& f : s.at("filters").as_array())
            filters[std::string(f.at("filterType").as_string())] = keys(f);
        CHECK(filters ==
              std::map<std::string, std::set<std::string>>{
                  {"PRICE_FILTER", {"filterType", "minPrice", "maxPrice", "tickSize"}},
                  {"LOT_SIZE", {"filterType", "minQty", "maxQty", "stepSize"}},
                  {"MARKET_LOT_SIZE", {"filterType", "minQty", "maxQty", "stepSize"}},
                  {"MAX_NUM_ORDERS", {"filterType", "limit"}},
                  {"MAX_NUM_ALGO_ORDERS", {"filterType", "limit"}},
                  {"MIN_NOTIONAL", {"filterType", "notional"}},
                  {"PERCENT_PRICE",
                   {"filterType", "multiplierUp", "multiplierDown", "multiplierDecimal"}}});
        auto const& pf = s.at("filters").at(0);
        CHECK(pf.at("tickSize").is_string());
        CHECK(s.at("filters").at(1).at("stepSize").is_string());
        CHECK(s.at("filters").at(5).at("notional") == "5");
        if (name == "TSLAUSDT" || name == "NVDAUSDT") {
            CHECK(s.at("underlyingSubType") == json::array{"STOCK"});
            CHECK(s.at("symbolType") == 1);
            CHECK(s.at("channel") == "nasdaq");
            CHECK(dec(pf.at("tickSize")) == dec_text("0.01"));
            if (name == "TSLAUSDT")
                CHECK(s.at("pricePrecision") == 6); // differs from its 0.01 tick, like the real one
        } else if (name == "XAUUSDT") {
            CHECK(s.at("underlyingSubType") == json::array{"RWA"});
            CHECK(s.at("symbolType") == 1);
            CHECK(s.at("channel") == "forex");
        } else {
            CHECK(s.at("underlyingSubType").as_array().empty());
            CHECK(s.at("symbolType") == 0);
        }
    }
    CHECK(symbols == std::set<std::string>{"BTCUSDT", "ETHUSDT", "SOLUSDT", "TSLAUSDT", "NVDAUSDT",
                                           "XAUUSDT"});
}

TEST_CASE("beta mock: spot exchangeInfo lists the pairs with spot filters",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const info = get_json(*m, "/api/v3/exchangeInfo");
    CHECK(info.at("rateLimits").at(0).at("limit") == 6000);
    std::set<std::string> assets;
    for (auto const& a : info.at("assets").as_array())
        assets.insert(std::string(a.at("asset").as_string()));
    CHECK(assets == std::set<std::string>{"USDT", "BTC", "ETH", "ASTER"});
    std::map<std::string, json::value> by;
    for (auto const& s : info.at("symbols").as_array())
        by[std::string(s.at("symbol").as_string())] = s;
    REQUIRE(by.size() == 3);
    for (auto const& [name, s] : by) {
        CAPTURE(name);
        CHECK(s.at("status") == "TRADING");
        CHECK(s.at("quoteAsset") == "USDT");
        CHECK(!s.as_object().contains("contractType")); // how clients tell spot from perps
        std::map<std::string, json::value> f;
        for (auto const& x : s.at("filters").as_array())
            f[std::string(x.at("filterType").as_string())] = x;
        CHECK(keys(f.at("PRICE_FILTER")) ==
              std::set<std::string>{"filterType", "minPrice", "maxPrice", "tickSize"});
        CHECK(keys(f.at("LOT_SIZE")) ==
              std::set<std::string>{"filterType", "minQty", "maxQty", "stepSize"});
        CHECK(f.at("MIN_NOTIONAL").at("minNotional") == "5"); // spot: minNotional, not notional
        CHECK(f.contains("PERCENT_PRICE"));
        CHECK(f.contains("NOTIONAL"));
        CHECK(f.contains("PERCENT_PRICE_BY_SIDE"));
    }
    CHECK(by.at("BTCUSDT").at("baseAsset") == "BTC");
    CHECK(by.at("ASTERUSDT").at("baseAsset") == "ASTER");
    CHECK(by.at("BTCUSDT").at("filters").at(0).at("tickSize") == "0.01");
    CHECK(by.at("BTCUSDT").at("filters").at(2).at("stepSize") == "0.00001");
}

TEST_CASE("beta mock: depth matches the recorded book shape and precisions",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const recorded = fixture("ccxt-fetchOrderBook.json");
    auto const r = get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=5");
    REQUIRE(r.status == 200);
    CHECK(used_weight(r) == 2);
    auto const d = json::parse(r.body);
    CHECK(keys(d) == keys(recorded));
    CHECK(d.at("lastUpdateId").is_int64());
    CHECK(d.at("E").is_int64());
    CHECK(d.at("T").is_int64());
    auto const& bids = d.at("bids").as_array();
    auto const& asks = d.at("asks").as_array();
    REQUIRE(bids.size() == 5);
    REQUIRE(asks.size() == 5);
    auto const& rl = recorded.at("bids").at(0);
    for (auto const* side : {&bids, &asks})
        for (auto const& l : *side) {
            REQUIRE(l.as_array().size() == 2);
            // Same text precision as the recorded BTCUSDT book: "106626.8", "8.266".
            CHECK(decimals(l.at(0)) == decimals(rl.at(0)));
            CHECK(decimals(l.at(1)) == decimals(rl.at(1)));
        }
    for (std::size_t i = 1; i < 5; ++i) {
        CHECK(dec(bids[i].at(0)) < dec(bids[i - 1].at(0)));
        CHECK(dec(asks[i].at(0)) > dec(asks[i - 1].at(0)));
    }
    CHECK(dec(bids[0].at(0)) < dec(asks[0].at(0)));

    SECTION("weights follow the limit, the default limit is 500") {
        CHECK(used_weight(get(*m, "/fapi/v3/depth?symbol=ETHUSDT&limit=100")) == 2 + 5);
        auto const dflt = get(*m, "/fapi/v3/depth?symbol=ETHUSDT");
        CHECK(used_weight(dflt) == 7 + 10);
        CHECK(json::parse(dflt.body).at("bids").as_array().size() == 500);
        auto const big = get(*m, "/fapi/v3/depth?symbol=ETHUSDT&limit=1000");
        CHECK(used_weight(big) == 17 + 20);
        CHECK(json::parse(big.body).at("bids").as_array().size() == 1000);
    }
    SECTION("errors") {
        check_error(get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=7"), wb::invalid_depth_limit);
        check_error(get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=abc"), 400, -1100);
        check_error(get(*m, "/fapi/v3/depth?limit=5"), 400, -1102);
        check_error(get(*m, "/fapi/v3/depth?symbol=NOPEUSDT"), wb::invalid_symbol);
    }
    SECTION("spot: default 100 levels, the perp's book at the pair's decimals") {
        set_mark(*m, "BTC", "65000");
        auto const spot = get_json(*m, "/api/v3/depth?symbol=BTCUSDT");
        CHECK(keys(spot) == keys(recorded));
        CHECK(spot.at("bids").as_array().size() == 100);
        CHECK(spot.at("asks").as_array().size() == 100);
        CHECK(spot.at("bids").at(0).at(0) == "64999.90");
        CHECK(spot.at("asks").at(0).at(0) == "65000.10");
        CHECK(decimals(spot.at("bids").at(0).at(1)) == 5);
        auto const perp = get_json(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=5");
        CHECK(dec(spot.at("bids").at(0).at(1)) == dec(perp.at("bids").at(0).at(1)));
        CHECK(get_json(*m, "/api/v3/depth?symbol=ASTERUSDT&limit=5").at("asks").as_array().size() ==
              5);
        check_error(get(*m, "/api/v3/depth?symbol=SOLUSDT"), wb::invalid_symbol);
    }
}

TEST_CASE("beta mock: trades have the recorded item shape, oldest first",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const recorded = fixture("ccxt-fetchTrades.json").at(0);
    auto const t = get_json(*m, "/fapi/v3/trades?symbol=BTCUSDT&limit=3");
    REQUIRE(t.as_array().size() == 3);
    for (auto const& x : t.as_array()) {
        CHECK(kinds(x) == kinds(recorded));
        for (auto const* k : {"price", "qty", "quoteQty"}) {
            CAPTURE(k);
            CHECK(decimals(x.at(k)) == decimals(recorded.at(k)));
        }
    }
    CHECK(t.at(0).at("time").as_int64() <= t.at(2).at("time").as_int64());
    CHECK(t.at(0).at("id").as_int64() < t.at(2).at("id").as_int64());
    CHECK(get_json(*m, "/fapi/v3/trades?symbol=SOLUSDT").as_array().size() >= 40);
    check_error(get(*m, "/fapi/v3/trades?symbol=NOPEUSDT"), wb::invalid_symbol);
    check_error(get(*m, "/fapi/v3/trades?symbol=BTCUSDT&limit=0"), 400, -1130);

    SECTION("spot: qty is the quote amount, baseQty the base quantity (beta.md §5)") {
        auto const s = get_json(*m, "/api/v3/trades?symbol=ETHUSDT&limit=5");
        REQUIRE(s.as_array().size() == 5);
        for (auto const& x : s.as_array()) {
            CHECK(keys(x) ==
                  std::set<std::string>{"id", "price", "qty", "baseQty", "time", "isBuyerMaker"});
            auto const product = gateway::exact_mul(dec(x.at("price")), dec(x.at("baseQty")));
            REQUIRE(product);
            CHECK(*product == dec(x.at("qty")));
        }
    }
}

TEST_CASE("beta mock: klines for every interval have the recorded row shape",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const recorded = fixture("ccxt-fetchOHLCV.json").at(0);
    REQUIRE(recorded.as_array().size() == 12);
    std::int64_t const minute = 60'000;
    std::map<std::string, std::int64_t> const spans{{"1m", minute},
                                                    {"3m", 3 * minute},
                                                    {"5m", 5 * minute},
                                                    {"15m", 15 * minute},
                                                    {"30m", 30 * minute},
                                                    {"1h", 60 * minute},
                                                    {"2h", 120 * minute},
                                                    {"4h", 240 * minute},
                                                    {"6h", 360 * minute},
                                                    {"8h", 480 * minute},
                                                    {"12h", 720 * minute},
                                                    {"1d", 1440 * minute},
                                                    {"3d", 3 * 1440 * minute},
                                                    {"1w", 7 * 1440 * minute},
                                                    {"1M", 0}};
    for (auto const& [interval, span] : spans) {
        CAPTURE(interval);
        auto const k =
            get_json(*m, "/fapi/v3/klines?symbol=ETHUSDT&interval=" + interval + "&limit=20");
        auto const& rows = k.as_array();
        REQUIRE(rows.size() == 20);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            auto const& r = rows[i].as_array();
            REQUIRE(r.size() == 12);
            for (std::size_t c = 0; c < 12; ++c)
                CHECK(r[c].is_string() == recorded.at(c).is_string());
            std::int64_t const open = r[0].as_int64();
            std::int64_t const close = r[6].as_int64();
            if (span > 0)
                CHECK(close - open + 1 == span);
            else
                CHECK(close - open + 1 >= 28 * 1440 * minute);
            if (i > 0)
                CHECK(open > rows[i - 1].at(0).as_int64());
            CHECK(dec(r[3]) <= dec(r[1])); // low <= open
            CHECK(dec(r[2]) >= dec(r[4])); // high >= close
            CHECK(decimals(r[1]) == 2);    // ETHUSDT tick 0.01
            CHECK(decimals(r[5]) == 3);    // step 0.001
            CHECK(r[11] == "0");
        }
    }

    SECTION("startTime gives the candles from there on; endTime the ones up to it") {
        std::int64_t const now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count();
        std::int64_t const since = (now / minute - 100) * minute + 1; // inside a minute
        auto const from = get_json(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1m&limit=10"
                                       "&startTime=" +
                                           std::to_string(since));
        REQUIRE(from.as_array().size() == 10);
        CHECK(from.at(0).at(0).as_int64() == since - 1); // the minute holding startTime
        CHECK(from.at(9).at(0).as_int64() == since - 1 + 9 * minute);
        std::int64_t const until = since + 50 * minute;
        auto const to = get_json(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1m&limit=10"
                                     "&endTime=" +
                                         std::to_string(until));
        REQUIRE(to.as_array().size() == 10);
        CHECK(to.at(9).at(0).as_int64() == until - 1);
    }
    SECTION("weights follow the limit") {
        // The 15 reads above weighed 1 each (limit 20).
        CHECK(used_weight(get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1h&limit=99")) ==
              15 + 1);
        CHECK(used_weight(get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1h&limit=499")) ==
              16 + 2);
        CHECK(used_weight(get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1h")) == 18 + 5);
        auto const max = get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1m&limit=1500");
        CHECK(used_weight(max) == 23 + 10);
        CHECK(json::parse(max.body).as_array().size() == 1500);
    }
    SECTION("errors") {
        check_error(get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=7m"), wb::bad_interval);
        check_error(get(*m, "/fapi/v3/klines?symbol=BTCUSDT"), 400, -1102);
        check_error(get(*m, "/fapi/v3/klines?interval=1m"), 400, -1102);
        check_error(get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1m&limit=1501"), 400, -1130);
        check_error(get(*m, "/fapi/v3/klines?symbol=BTCUSDT&interval=1m&startTime=x"), 400, -1100);
        check_error(get(*m, "/fapi/v3/klines?symbol=NOPEUSDT&interval=1m"), wb::invalid_symbol);
    }
    SECTION("spot rows have 11 elements") {
        auto const s = get_json(*m, "/api/v3/klines?symbol=ASTERUSDT&interval=5m&limit=3");
        REQUIRE(s.as_array().size() == 3);
        CHECK(s.at(0).as_array().size() == 11);
        CHECK(decimals(s.at(0).at(1)) == 4);
    }
}

TEST_CASE("beta mock: ticker/24hr has the recorded futures and spot shapes",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto const last_trade = get_json(*m, "/fapi/v3/trades?symbol=BTCUSDT&limit=1").at(0);
    auto const futures = get_json(*m, "/fapi/v3/ticker/24hr?symbol=BTCUSDT");
    CHECK(kinds(futures) == kinds(fixture("ccxt-fetchTicker.json", 1)));
    CHECK(dec(futures.at("lowPrice")) <= dec(futures.at("lastPrice")));
    CHECK(dec(futures.at("highPrice")) >= dec(futures.at("lastPrice")));
    CHECK(futures.at("closeTime").as_int64() - futures.at("openTime").as_int64() == 86'400'000);
    CHECK(futures.at("count").as_int64() > 0);
    CHECK(futures.at("lastId").as_int64() >= last_trade.at("id").as_int64());

    // The recorded spot body carries times and counts as strings, the futures one as numbers.
    auto const spot = get_json(*m, "/api/v3/ticker/24hr?symbol=BTCUSDT");
    CHECK(kinds(spot) == kinds(fixture("ccxt-fetchTicker.json", 0)));
    CHECK(spot.at("baseAsset") == "BTC");
    CHECK(dec(spot.at("bidPrice")) < dec(spot.at("askPrice")));

    auto const all = get(*m, "/fapi/v3/ticker/24hr");
    CHECK(used_weight(all) == 2 + 40); // after trades and ticker/24hr with a symbol
    CHECK(json::parse(all.body).as_array().size() == 6);
    check_error(get(*m, "/fapi/v3/ticker/24hr?symbol=NOPEUSDT"), wb::invalid_symbol);

    auto const book = get_json(*m, "/fapi/v3/ticker/bookTicker?symbol=SOLUSDT");
    CHECK(keys(book) == std::set<std::string>{"symbol", "bidPrice", "bidQty", "askPrice", "askQty",
                                              "time", "lastUpdateId"});
    CHECK(dec(book.at("bidPrice")) < dec(book.at("askPrice")));
}

TEST_CASE("beta mock: premiumIndex and openInterest", "[contract][mock][beta]") {
    auto m = start_beta();
    set_mark(*m, "XAU", "3412.5");
    auto const one = get_json(*m, "/fapi/v3/premiumIndex?symbol=XAUUSDT");
    CHECK(kinds(one) == kinds(fixture("ccxt-fetchFundingRate.json")));
    CHECK(one.at("markPrice") == "3412.50000000");
    CHECK(one.at("nextFundingTime").as_int64() % (8 * 3'600'000) == 0);
    CHECK(one.at("nextFundingTime").as_int64() > one.at("time").as_int64());
    auto const all = get_json(*m, "/fapi/v3/premiumIndex");
    REQUIRE(all.as_array().size() == 6);
    CHECK(kinds(all.at(0)) == kinds(fixture("ccxt-fetchFundingRates.json").at(0)));
    check_error(get(*m, "/fapi/v3/premiumIndex?symbol=NOPEUSDT"), wb::invalid_symbol);

    auto const oi = get_json(*m, "/fapi/v3/openInterest?symbol=TSLAUSDT");
    CHECK(keys(oi) == std::set<std::string>{"openInterest", "symbol", "time"});
    CHECK(oi.at("symbol") == "TSLAUSDT");
    CHECK(oi.at("openInterest") == "43210.00");
    // A long position opened anywhere adds to it.
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + bob().address +
                  R"(","balances":{"USDT":"10000"},"positions":[{"symbol":"TSLA","size":"3.5",
                  "entryPrice":"430"}]})");
    CHECK(get_json(*m, "/fapi/v3/openInterest?symbol=TSLAUSDT").at("openInterest") == "43213.50");
    check_error(get(*m, "/fapi/v3/openInterest"), 400, -1102);
    check_error(get(*m, "/fapi/v3/openInterest?symbol=NOPEUSDT"), wb::invalid_symbol);
}

TEST_CASE("beta mock: unknown paths and methods are -5000", "[contract][mock][beta]") {
    auto m = start_beta();
    check_error(get(*m, "/fapi/v3/nope"), 404, -5000);
    check_error(fetch(http::verb::post, m->base_url() + "/fapi/v3/ping", "{}"), 404, -5000);
    check_error(get(*m, "/fapi/v1/ping"), 404, -5000);
    check_error(get(*m, "/api/v3/positionRisk"), 404, -5000);
    check_error(get(*m, "/somewhere"), 404, -5000);
}

TEST_CASE("beta mock: over 2400 weight per minute the futures API answers 429 -1003",
          "[contract][mock][beta]") {
    auto m = start_beta();
    // depth with limit 1000 weighs 20: 120 of them spend the budget exactly.
    for (int i = 0; i < 120; ++i) {
        auto const r = get(*m, "/fapi/v3/depth?symbol=SOLUSDT&limit=1000");
        REQUIRE(r.status == 200);
    }
    auto const over = get(*m, "/fapi/v3/ping");
    check_error(over, 429, -1003);
    CHECK(used_weight(over) == 2400);
    CHECK(over.message[http::field::retry_after] == "60");
    // Signed endpoints share the budget (weight is charged before the signature is read).
    check_error(signed_get(*m, "/fapi/v3/balance"), 429, -1003);
    // Spot (another host upstream) keeps its own budget.
    CHECK(get(*m, "/api/v3/ping").status == 200);
}

TEST_CASE("beta mock: /__mock/mark accepts BTCUSDT or BTC and moves spot too",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto mark = [&](std::string const& body) {
        return fetch(http::verb::post, m->base_url() + "/__mock/mark", body);
    };
    REQUIRE(mark(R"({"symbol":"BTC","price":"65000"})").status == 200);
    CHECK(get_json(*m, "/fapi/v3/ticker/price?symbol=BTCUSDT").at("price") == "65000.0");
    CHECK(get_json(*m, "/api/v3/ticker/price?symbol=BTCUSDT").at("price") == "65000.00");
    auto const r = mark(R"({"symbol":"ETHUSDT","price":"3100.123"})");
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body).at("price") == "3100.12"); // rounded to the 0.01 tick
    CHECK(get_json(*m, "/fapi/v3/ticker/price?symbol=ETHUSDT").at("price") == "3100.12");
    auto const d = get_json(*m, "/fapi/v3/depth?symbol=ETHUSDT&limit=5");
    CHECK(dec(d.at("bids").at(0).at(0)) < dec_text("3100.12"));
    CHECK(dec(d.at("asks").at(0).at(0)) > dec_text("3100.12"));
    CHECK(mark(R"({"symbol":"NVDA","price":"181.5"})").status == 200);
    CHECK(get_json(*m, "/fapi/v3/premiumIndex?symbol=NVDAUSDT").at("markPrice") == "181.50000000");
    CHECK(mark(R"({"symbol":"DOGEUSDT","price":"1"})").status == 404);
}

TEST_CASE("beta mock: stats kinds are method and path", "[contract][mock][beta]") {
    auto m = start_beta();
    get(*m, "/fapi/v3/ping");
    get(*m, "/fapi/v3/ping");
    get(*m, "/fapi/v3/depth?symbol=BTCUSDT&limit=5");
    get(*m, "/api/v3/ticker/price?symbol=BTCUSDT");
    signed_get(*m, "/fapi/v3/account");
    auto const s = json::parse(fetch(http::verb::get, m->base_url() + "/__mock/stats").body);
    CHECK(s.at("requests") == 5);
    CHECK(s.at("byKind") == json::parse(R"({"GET /fapi/v3/ping":2,"GET /fapi/v3/depth":1,
                                           "GET /api/v3/ticker/price":1,
                                           "GET /fapi/v3/account":1})")
                                .as_object());
}

// =============================================================================================
// Signed reads: shapes and the ledger's arithmetic

TEST_CASE("beta mock: account and balance follow the seeded wallet and positions",
          "[contract][mock][beta]") {
    auto m = start_beta();
    seed_alice(*m);
    auto const a = signed_json(*m, "/fapi/v3/account");
    CHECK(keys(a) == std::set<std::string>{"feeTier", "canTrade", "canDeposit", "canWithdraw",
                                           "updateTime", "totalInitialMargin", "totalMaintMargin",
                                           "totalWalletBalance", "totalUnrealizedProfit",
                                           "totalMarginBalance", "totalPositionInitialMargin",
                                           "totalOpenOrderInitialMargin", "totalCrossWalletBalance",
                                           "totalCrossUnPnl", "availableBalance",
                                           "maxWithdrawAmount", "assets", "positions"});
    // Wallet: 100000 - fees (0.035% of 30000 and of 7000) = 99987.05, of which ETH's isolated
    // margin 7000 / 20 = 350. uPnL: BTC 0.5 x 5000, ETH -2 x -100. Position margin: 32500 / 10
    // + 6800 / 20. Maintenance: 32500 x 0.004 + 6800 x 0.0065 (bracket 1 of each).
    CHECK(a.at("totalWalletBalance") == "99987.05000000");
    CHECK(a.at("totalCrossWalletBalance") == "99637.05000000");
    CHECK(a.at("totalUnrealizedProfit") == "2700.00000000");
    CHECK(a.at("totalCrossUnPnl") == "2500.00000000");
    CHECK(a.at("totalMarginBalance") == "102687.05000000");
    CHECK(a.at("totalPositionInitialMargin") == "3590.00000000");
    CHECK(a.at("totalOpenOrderInitialMargin") == "0.00000000");
    CHECK(a.at("totalInitialMargin") == "3590.00000000");
    CHECK(a.at("totalMaintMargin") == "174.20000000");
    // Available: cross wallet + cross uPnL - cross position margin.
    CHECK(a.at("availableBalance") == "98887.05000000");
    CHECK(a.at("maxWithdrawAmount") == "98887.05000000");
    auto const& usdt = a.at("assets").at(0);
    CHECK(keys(usdt) == std::set<std::string>{"asset", "walletBalance", "unrealizedProfit",
                                              "marginBalance", "maintMargin", "initialMargin",
                                              "positionInitialMargin", "openOrderInitialMargin",
                                              "crossWalletBalance", "crossUnPnl",
                                              "availableBalance", "maxWithdrawAmount",
                                              "marginAvailable", "updateTime"});
    CHECK(usdt.at("asset") == "USDT");
    CHECK(usdt.at("walletBalance") == "99987.05000000");
    // Every perp has a row (BOTH, one-way mode).
    REQUIRE(a.at("positions").as_array().size() == 6);
    auto const& eth = row(a.at("positions"), "ETHUSDT");
    CHECK(keys(eth) == std::set<std::string>{"symbol", "initialMargin", "maintMargin",
                                             "unrealizedProfit", "positionInitialMargin",
                                             "openOrderInitialMargin", "leverage", "isolated",
                                             "entryPrice", "maxNotional", "positionSide",
                                             "positionAmt", "updateTime"});
    CHECK(eth.at("positionAmt") == "-2.000");
    CHECK(eth.at("isolated") == true);
    CHECK(eth.at("leverage") == "20");
    CHECK(eth.at("maxNotional") == "500000");
    CHECK(row(a.at("positions"), "SOLUSDT").at("positionAmt") == "0.00");
    // accountWithJoinMargin answers the same body.
    auto const joined = signed_json(*m, "/fapi/v3/accountWithJoinMargin");
    CHECK(joined.at("totalWalletBalance") == a.at("totalWalletBalance"));
    CHECK(keys(joined) == keys(a));

    auto const b = signed_json(*m, "/fapi/v3/balance");
    auto const recorded = fixture("ccxt-fetchBalance.json").at(0);
    REQUIRE(b.as_array().size() == 2);
    CHECK(keys(b.at(0)) == keys(recorded));
    auto const& ub = b.at(0); // USDT first
    CHECK(ub.at("asset") == "USDT");
    CHECK(ub.at("balance") == "99987.05000000");
    CHECK(ub.at("crossWalletBalance") == "99637.05000000");
    CHECK(ub.at("availableBalance") == "98887.05000000");
    CHECK(ub.at("accountAlias").as_string().size() == 16);
    CHECK(b.at(1).at("balance") == "0.00000000");

    SECTION("an unknown account reads as empty, not as an error") {
        auto const empty = signed_json(*m, "/fapi/v3/account", "", by(carol()));
        CHECK(empty.at("totalWalletBalance") == "0.00000000");
        CHECK(empty.at("positions").as_array().size() == 6);
    }
}

TEST_CASE("beta mock: positionRisk shows entry, mark, PnL, margin and liquidation prices",
          "[contract][mock][beta]") {
    auto m = start_beta();
    seed_alice(*m);
    auto const all = signed_json(*m, "/fapi/v3/positionRisk");
    REQUIRE(all.as_array().size() == 6); // every perp, flat ones too
    auto const recorded = fixture("ccxt-fetchLeverages.json").at(0);
    for (auto const& p : all.as_array())
        CHECK(kinds(p) == kinds(recorded));

    auto const& btc = row(all, "BTCUSDT");
    CHECK(btc.at("positionAmt") == "0.500");
    CHECK(btc.at("entryPrice") == "60000.00000000");
    CHECK(btc.at("markPrice") == "65000.00000000");
    CHECK(btc.at("unRealizedProfit") == "2500.00000000");
    CHECK(btc.at("liquidationPrice") == "0"); // the cross wallet covers any fall
    CHECK(btc.at("leverage") == "10");
    CHECK(btc.at("maxNotionalValue") == "30000000");
    CHECK(btc.at("marginType") == "cross");
    CHECK(btc.at("isolatedMargin") == "0.00000000");
    CHECK(btc.at("notional") == "32500");
    CHECK(btc.at("isolatedWallet") == "0");
    CHECK(btc.at("positionSide") == "BOTH");
    CHECK(btc.at("updateTime").as_int64() > 0);

    auto const& eth = row(all, "ETHUSDT");
    CHECK(eth.at("positionAmt") == "-2.000");
    CHECK(eth.at("unRealizedProfit") == "200.00000000");
    // Binance's isolated short: (350 + 2 x 3500) / (2 x 0.0065 + 2) = 3651.2667...
    CHECK(eth.at("liquidationPrice") == "3651.27");
    CHECK(eth.at("marginType") == "isolated");
    CHECK(eth.at("isolatedMargin") == "550.00000000"); // isolated wallet + uPnL
    CHECK(eth.at("isolatedWallet") == "350");
    CHECK(eth.at("notional") == "-6800");

    // A flat market reads like the recorded flat position.
    auto const& sol = row(all, "SOLUSDT");
    CHECK(sol.at("positionAmt") == "0.00");
    CHECK(sol.at("entryPrice") == recorded.at("entryPrice"));
    CHECK(sol.at("markPrice") == recorded.at("markPrice"));
    CHECK(sol.at("liquidationPrice") == recorded.at("liquidationPrice"));
    CHECK(sol.at("notional") == recorded.at("notional"));
    CHECK(sol.at("updateTime") == 0);
    CHECK(row(all, "TSLAUSDT").at("leverage") == "10"); // 20 capped by bracket 1

    SECTION("the mark moves PnL and, for cross positions, the liquidation price") {
        set_mark(*m, "ETH", "3600");
        auto const moved = signed_json(*m, "/fapi/v3/positionRisk", "symbol=ETHUSDT");
        REQUIRE(moved.as_array().size() == 1);
        CHECK(moved.at(0).at("unRealizedProfit") == "-200.00000000");
        CHECK(moved.at(0).at("isolatedMargin") == "150.00000000");
    }
    SECTION("a cross position alone on a small wallet has a liquidation price") {
        mock_post(*m, "/__mock/accounts",
                  R"({"address":")" + bob().address +
                      R"(","balances":{"USDT":"1000"},
                      "positions":[{"symbol":"BTC","size":"0.1","entryPrice":"65000","leverage":20}]})");
        auto const p = signed_json(*m, "/fapi/v3/positionRisk", "symbol=BTCUSDT", by(bob()));
        // Wallet 1000 - 2.275 fee; (6500 - 997.725) / (0.1 - 0.1 x 0.004) = 55243.72...
        CHECK(p.at(0).at("liquidationPrice") == "55243.7");
    }
    check_error(signed_get(*m, "/fapi/v3/positionRisk", "symbol=NOPEUSDT"), wb::invalid_symbol);
}

TEST_CASE("beta mock: openOrders lists seeded orders, a trailing stop with priceRate",
          "[contract][mock][beta]") {
    auto m = start_beta();
    seed_alice(*m);
    mock_post(*m, "/__mock/accounts", R"({"address":")" + alice().address + R"(","orders":[
                  {"symbol":"BTCUSDT","side":"sell","type":"trailing_stop","size":"0.1",
                   "callbackRate":"0.3","activationPrice":"70000","reduceOnly":true},
                  {"symbol":"ETHUSDT","side":"buy","type":"limit","size":"1","price":"3000",
                   "clientOrderId":"my-order-1"},
                  {"symbol":"SOL","side":"sell","type":"stop_market","size":"5",
                   "triggerPrice":"120.5"}]})");
    auto const all = get(*m, signed_target("/fapi/v3/openOrders", ""));
    REQUIRE(all.status == 200);
    CHECK(used_weight(all) == 40); // without a symbol
    auto const orders = json::parse(all.body);
    REQUIRE(orders.as_array().size() == 3);
    auto const recorded = fixture("ccxt-fetchOpenOrders.json").at(0);

    auto const& trailing = orders.at(0);
    CHECK(keys(trailing) == keys(recorded));
    CHECK(trailing.at("type") == "TRAILING_STOP_MARKET");
    CHECK(trailing.at("origType") == "TRAILING_STOP_MARKET");
    CHECK(trailing.at("side") == "SELL");
    CHECK(trailing.at("priceRate") == "0.3");
    CHECK(trailing.at("activatePrice") == "70000.0");
    CHECK(trailing.at("price") == "0");
    CHECK(trailing.at("origQty") == "0.100");
    CHECK(trailing.at("executedQty") == "0");
    CHECK(trailing.at("reduceOnly") == true);
    CHECK(trailing.at("status") == "NEW");
    CHECK(trailing.at("clientOrderId").as_string().size() == 22); // generated
    CHECK(trailing.at("orderId").is_int64());

    auto const& limit = orders.at(1);
    auto expected = keys(recorded);
    expected.erase("activatePrice");
    expected.erase("priceRate");
    CHECK(keys(limit) == expected);
    CHECK(limit.at("type") == "LIMIT");
    CHECK(limit.at("price") == "3000.00");
    CHECK(limit.at("clientOrderId") == "my-order-1");
    CHECK(limit.at("stopPrice") == "0");
    CHECK(orders.at(2).at("type") == "STOP_MARKET");
    CHECK(orders.at(2).at("stopPrice") == "120.50");
    CHECK(orders.at(2).at("price") == "0");

    auto const eth = signed_get(*m, "/fapi/v3/openOrders", "symbol=ETHUSDT");
    CHECK(used_weight(eth) == 41);
    REQUIRE(json::parse(eth.body).as_array().size() == 1);
    // Margin held by the open orders that can open positions: 1 x 3000 / 20 and 5 x 120.5 / 20.
    auto const a = signed_json(*m, "/fapi/v3/account");
    CHECK(a.at("totalOpenOrderInitialMargin") == "180.12500000");
    CHECK(a.at("availableBalance") == "98706.92500000");
    check_error(signed_get(*m, "/fapi/v3/openOrders", "symbol=NOPEUSDT"), wb::invalid_symbol);
}

TEST_CASE("beta mock: userTrades and income book every fill with its commission",
          "[contract][mock][beta]") {
    auto m = start_beta();
    std::int64_t const now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
    std::int64_t const hour = 3'600'000;
    std::int64_t const t1 = now - 10 * 24 * hour; // ten days back
    std::int64_t const t2 = now - 2 * hour;
    mock_post(*m, "/__mock/accounts",
              R"({"address":")" + alice().address +
                  R"(","balances":{"USDT":"50000"},"fills":[
                  {"symbol":"BTCUSDT","side":"buy","price":"60000","size":"1","time":)" +
                  std::to_string(t1) + R"(},
                  {"symbol":"BTCUSDT","side":"sell","price":"62000","size":"0.4","time":)" +
                  std::to_string(t2) + R"(,"maker":true},
                  {"symbol":"SOLUSDT","side":"buy","price":"150","size":"10"}]})");

    auto const recent = signed_json(*m, "/fapi/v3/userTrades", "symbol=BTCUSDT");
    REQUIRE(recent.as_array().size() == 1); // the default window is the last 7 days
    auto const& sell = recent.at(0);
    CHECK(keys(sell) == keys(fixture("ccxt-fetchMyTrades.json").at(0)));
    CHECK(sell.at("side") == "SELL");
    CHECK(sell.at("buyer") == false);
    CHECK(sell.at("maker") == true);
    CHECK(sell.at("price") == "62000.0");
    CHECK(sell.at("qty") == "0.400");
    CHECK(sell.at("quoteQty") == "24800");
    CHECK(sell.at("realizedPnl") == "800.00000000"); // 0.4 x (62000 - 60000)
    CHECK(sell.at("commission") == "2.48000000");    // maker 0.01% of 24800
    CHECK(sell.at("commissionAsset") == "USDT");
    CHECK(sell.at("time") == t2);

    auto const old = signed_json(*m, "/fapi/v3/userTrades",
                                 "symbol=BTCUSDT&startTime=" + std::to_string(t1 - 1000) +
                                     "&endTime=" + std::to_string(t1 + 1000));
    REQUIRE(old.as_array().size() == 1);
    CHECK(old.at(0).at("commission") == "21.00000000"); // taker 0.035% of 60000
    CHECK(old.at(0).at("realizedPnl") == "0.00000000");
    auto const from_id =
        signed_json(*m, "/fapi/v3/userTrades",
                    "symbol=BTCUSDT&fromId=" + std::to_string(old.at(0).at("id").as_int64()));
    REQUIRE(from_id.as_array().size() == 2); // by id: both, oldest first
    CHECK(from_id.at(1).at("id") == sell.at("id"));

    SECTION("income: one COMMISSION per fill with its tradeId, REALIZED_PNL, TRANSFER") {
        auto const all =
            signed_json(*m, "/fapi/v3/income", "startTime=" + std::to_string(t1 - 1000));
        REQUIRE(all.as_array().size() == 5);
        auto const recorded = fixture("ccxt-fetchLedger.json").at(0);
        for (auto const& r : all.as_array())
            CHECK(keys(r) == keys(recorded));
        // Oldest first: the credit and the SOL fill happened now, the BTC fills before.
        std::vector<std::string> types;
        for (auto const& r : all.as_array())
            types.emplace_back(r.at("incomeType").as_string());
        CHECK(types == std::vector<std::string>{"COMMISSION", "COMMISSION", "REALIZED_PNL",
                                                "TRANSFER", "COMMISSION"});
        auto const commissions =
            signed_json(*m, "/fapi/v3/income",
                        "incomeType=COMMISSION&startTime=" + std::to_string(t2 - 1000) +
                            "&endTime=" + std::to_string(now + 60'000) + "&limit=1000");
        REQUIRE(commissions.as_array().size() == 2);
        CHECK(commissions.at(0).at("symbol") == "BTCUSDT");
        CHECK(commissions.at(0).at("income") == "-2.48000000");
        CHECK(commissions.at(0).at("tradeId").as_string() ==
              std::to_string(sell.at("id").as_int64()));
        CHECK(commissions.at(1).at("symbol") == "SOLUSDT");
        auto const pnl = signed_json(*m, "/fapi/v3/income", "incomeType=REALIZED_PNL");
        REQUIRE(pnl.as_array().size() == 1);
        CHECK(pnl.at(0).at("income") == "800.00000000");
        CHECK(pnl.at(0).at("tranId").is_int64());
        auto const sol = signed_json(*m, "/fapi/v3/income", "symbol=SOLUSDT");
        REQUIRE(sol.as_array().size() == 1);
        // Three userTrades reads (5 each) and five income reads (30 each).
        auto const w = signed_get(*m, "/fapi/v3/income", "symbol=SOLUSDT");
        CHECK(used_weight(w) == 3 * 5 + 5 * 30);
    }
    SECTION("the remaining position and wallet") {
        auto const p = signed_json(*m, "/fapi/v3/positionRisk", "symbol=BTCUSDT");
        CHECK(p.at(0).at("positionAmt") == "0.600");
        CHECK(p.at(0).at("entryPrice") == "60000.00000000");
        // 50000 - 21 - 2.48 - 0.525 (SOL taker fee) + 800.
        CHECK(signed_json(*m, "/fapi/v3/account").at("totalWalletBalance") == "50775.99500000");
    }
    SECTION("errors") {
        check_error(signed_get(*m, "/fapi/v3/userTrades"), 400, -1102);
        check_error(signed_get(*m, "/fapi/v3/userTrades", "symbol=NOPEUSDT"), wb::invalid_symbol);
        check_error(signed_get(*m, "/fapi/v3/userTrades",
                               "symbol=BTCUSDT&startTime=" + std::to_string(t1) +
                                   "&endTime=" + std::to_string(t1 + 7 * 24 * hour + 1)),
                    wb::lookup_interval_too_big);
        CHECK(signed_get(*m, "/fapi/v3/userTrades",
                         "symbol=BTCUSDT&startTime=" + std::to_string(t1) +
                             "&endTime=" + std::to_string(t1 + 7 * 24 * hour))
                  .status == 200);
        check_error(signed_get(*m, "/fapi/v3/userTrades",
                               "symbol=BTCUSDT&fromId=1&startTime=" + std::to_string(t1)),
                    wb::invalid_combination);
        check_error(signed_get(*m, "/fapi/v3/userTrades", "symbol=BTCUSDT&limit=0"), 400, -1130);
    }
}

TEST_CASE("beta mock: leverageBracket and the spot account", "[contract][mock][beta]") {
    auto m = start_beta();
    seed_alice(*m);
    auto const one = signed_get(*m, "/fapi/v3/leverageBracket", "symbol=ETHUSDT");
    REQUIRE(one.status == 200);
    CHECK(used_weight(one) == 1);
    auto const eth = json::parse(one.body);
    CHECK(eth.at("symbol") == "ETHUSDT");
    // beta.md §4.2's example: bracket 1 of ETHUSDT, numbers as the docs show them.
    CHECK(eth.at("brackets").at(0) ==
          json::parse(R"({"bracket":1,"initialLeverage":75,"notionalCap":10000,"notionalFloor":0,
                          "maintMarginRatio":0.0065,"cum":0})"));
    // cum of bracket 2 = 10000 x (0.01 - 0.0065).
    CHECK(one.body.find(R"("maintMarginRatio":0.01,"cum":35})") != std::string::npos);
    auto const all = signed_json(*m, "/fapi/v3/leverageBracket");
    REQUIRE(all.as_array().size() == 6);
    CHECK(row(all, "BTCUSDT").at("brackets").at(0).at("initialLeverage") == 125);
    CHECK(row(all, "TSLAUSDT").at("brackets").at(0).at("initialLeverage") == 10);

    auto const spot = get(*m, signed_target("/api/v3/account", ""));
    REQUIRE(spot.status == 200);
    CHECK(used_weight(spot) == 5);
    auto const s = json::parse(spot.body);
    CHECK(keys(s) == keys(fixture("ccxt-fetchBalance.json", 1)));
    REQUIRE(s.at("balances").as_array().size() == 2);
    CHECK(s.at("balances").at(0) ==
          json::parse(R"({"asset":"USDT","free":"100250.00000000","locked":"0.00000000"})"));
    CHECK(s.at("balances").at(1).at("asset") == "ASTER");
}

// =============================================================================================
// Signatures, API wallets and nonces (upstreams/beta.md §3.1, §3.3)

TEST_CASE("beta mock: a v3 signature must recover to the signer", "[contract][mock][beta]") {
    auto m = start_beta();
    seed_alice(*m);
    CHECK(signed_get(*m, "/fapi/v3/balance").status == 200);

    SECTION("signed by another key") {
        // bob's signature, alice named as signer.
        std::uint64_t const nonce = gateway::sign::beta::next_nonce_us();
        std::string const msg = "nonce=" + std::to_string(nonce) + "&user=" + alice().address +
                                "&signer=" + alice().address;
        check_error(get(*m, "/fapi/v3/balance?" + msg + "&signature=" +
                                gateway::sign::beta::sign_message(msg, bob().key, false)),
                    wb::invalid_signature);
    }
    SECTION("a parameter changed after signing") {
        auto target = signed_target("/fapi/v3/positionRisk", "symbol=BTCUSDT");
        target.replace(target.find("BTCUSDT"), 7, "ETHUSDT");
        check_error(get(*m, target), wb::invalid_signature);
    }
    SECTION("the signature is not the last parameter") {
        check_error(get(*m, signed_target("/fapi/v3/balance", "") + "&symbol=BTCUSDT"),
                    wb::invalid_signature);
    }
    SECTION("a malformed signature") {
        auto target = signed_target("/fapi/v3/balance", "");
        target.resize(target.size() - 4);
        check_error(get(*m, target), wb::invalid_signature);
    }
    SECTION("the signature without 0x (go-aster) is accepted") {
        auto target = signed_target("/fapi/v3/balance", "");
        target.erase(target.find("signature=0x") + 10, 2);
        CHECK(get(*m, target).status == 200);
    }
    SECTION("signed over the decoded text, sent encoded (beta.md §3.1 step 3)") {
        std::uint64_t const nonce = gateway::sign::beta::next_nonce_us();
        std::string const tail = "&nonce=" + std::to_string(nonce) + "&user=" + alice().address +
                                 "&signer=" + alice().address;
        std::string const sig =
            gateway::sign::beta::sign_message("note=a:b/c" + tail, alice().key, false);
        CHECK(get(*m, "/fapi/v3/balance?note=a%3Ab%2Fc" + tail + "&signature=" + sig).status ==
              200);
    }
    SECTION("missing auth parameters are -1102") {
        auto const no_sig = get(*m, "/fapi/v3/balance?nonce=1&signer=" + alice().address);
        check_error(no_sig, 400, -1102);
        CHECK(json::parse(no_sig.body).at("msg").as_string() ==
              wb::mandatory_param_msg("signature"));
        auto const no_signer = get(*m, "/fapi/v3/balance?nonce=1&signature=0x00");
        CHECK(json::parse(no_signer.body).at("msg").as_string() ==
              wb::mandatory_param_msg("signer"));
        auto const no_nonce =
            get(*m, "/fapi/v3/balance?signer=" + alice().address + "&signature=0x00");
        CHECK(json::parse(no_nonce.body).at("msg").as_string() == wb::mandatory_param_msg("nonce"));
        check_error(
            get(*m, "/fapi/v3/balance?nonce=12x&signer=" + alice().address + "&signature=0x00"),
            400, -1102);
        check_error(get(*m, "/fapi/v3/balance?nonce=1&signer=0x12&signature=0x00"), 400, -1102);
    }
    SECTION("a testnet mock checks the testnet domain (chainId 714)") {
        mock_options o{upstream::beta};
        o.testnet = true;
        auto t = mock_server::start(o);
        check_error(signed_get(*t, "/fapi/v3/balance"), wb::invalid_signature);
        signing s;
        s.testnet = true;
        CHECK(signed_get(*t, "/fapi/v3/balance", "", s).status == 200);
    }
}

TEST_CASE("beta mock: a signer acts for a user only when approved", "[contract][mock][beta]") {
    auto m = start_beta();
    seed_alice(*m);
    signing as_agent = by(bob(), alice().address);
    auto const refused = signed_get(*m, "/fapi/v3/balance", "", as_agent);
    check_error(refused, wb::rejected_signer);
    CHECK(refused.status == 401);

    auto agents = [&](http::verb verb) {
        return fetch(verb, m->base_url() + "/__mock/agents",
                     R"({"user":")" + alice().address + R"(","signer":")" + bob().address +
                         R"("})");
    };
    auto const approved = agents(http::verb::post);
    REQUIRE(approved.status == 200);
    CHECK(json::parse(approved.body) == json::parse(R"({"user":")" + alice().address +
                                                    R"(","agents":[")" + bob().address + R"("]})"));
    auto const ok = signed_json(*m, "/fapi/v3/balance", "", as_agent);
    CHECK(ok.at(0).at("balance") == "99987.05000000"); // alice's wallet, read by her agent
    // Without `user`, the one account that approved the signer is the one read.
    signing no_user = by(bob());
    no_user.send_user = false;
    CHECK(signed_json(*m, "/fapi/v3/balance", "", no_user).at(0).at("balance") == "99987.05000000");
    // The agent does not make alice an agent of bob.
    check_error(signed_get(*m, "/fapi/v3/balance", "", by(alice(), bob().address)),
                wb::rejected_signer);

    auto const revoked = agents(http::verb::delete_);
    REQUIRE(revoked.status == 200);
    CHECK(json::parse(revoked.body).at("agents").as_array().empty());
    check_error(signed_get(*m, "/fapi/v3/balance", "", as_agent), wb::rejected_signer);
    // The account view lists approvals.
    agents(http::verb::post);
    auto const view = json::parse(
        fetch(http::verb::get, m->base_url() + "/__mock/accounts/" + alice().address).body);
    CHECK(view.at("agents") == json::array{json::string(bob().address)});

    SECTION("control errors") {
        CHECK(fetch(http::verb::get, m->base_url() + "/__mock/agents").status == 405);
        CHECK(fetch(http::verb::post, m->base_url() + "/__mock/agents", R"({"user":"0x12"})")
                  .status == 400);
        CHECK(
            fetch(http::verb::post, m->base_url() + "/__mock/agents",
                  R"({"user":")" + alice().address + R"(","signer":")" + alice().address + R"("})")
                .status == 400);
    }
}

TEST_CASE("beta mock: the approve-for-all option lets one signer read every account",
          "[contract][mock][beta]") {
    mock_options o{upstream::beta};
    std::string upper = carol().address;
    for (std::size_t i = 2; i < upper.size(); ++i)
        upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
    o.approve_signer_for_all = upper; // any case
    auto m = mock_server::start(o);
    seed_alice(*m);
    CHECK(
        signed_json(*m, "/fapi/v3/balance", "", by(carol(), alice().address)).at(0).at("balance") ==
        "99987.05000000");
    CHECK(signed_get(*m, "/fapi/v3/leverageBracket", "", by(carol(), bob().address)).status == 200);
    check_error(signed_get(*m, "/fapi/v3/balance", "", by(bob(), alice().address)),
                wb::rejected_signer);

    mock_options bad{upstream::beta};
    bad.approve_signer_for_all = "0x1234";
    CHECK_THROWS_AS(mock_server::start(bad), std::invalid_argument);
}

TEST_CASE("beta mock: nonces are microseconds within 10 s, unique, above the 100 kept",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto with_nonce = [&](std::int64_t nonce, wallet const& w = alice()) {
        signing s = by(w);
        s.nonce = static_cast<std::uint64_t>(nonce);
        return signed_get(*m, "/fapi/v3/leverageBracket", "symbol=BTCUSDT", s);
    };
    std::int64_t const second = 1'000'000;

    SECTION("outside the window, either side") {
        check_error(with_nonce(now_us() - 11 * second), wb::nonce_expired);
        check_error(with_nonce(now_us() + 11 * second), wb::nonce_expired);
        check_error(with_nonce(now_us() / 1000), wb::nonce_expired); // milliseconds: too old
        CHECK(with_nonce(now_us() - 8 * second).status == 200);
        CHECK(with_nonce(now_us() + 8 * second).status == 200);
    }
    SECTION("reused, per account") {
        std::int64_t const n = now_us();
        CHECK(with_nonce(n).status == 200);
        check_error(with_nonce(n), wb::nonce_expired);
        CHECK(with_nonce(n, bob()).status == 200); // another account's memory
    }
    SECTION("a refused request does not spend its nonce") {
        std::int64_t const n = now_us();
        std::string const msg = "symbol=BTCUSDT&nonce=" + std::to_string(n) +
                                "&user=" + alice().address + "&signer=" + alice().address;
        check_error(get(*m, "/fapi/v3/leverageBracket?" + msg + "&signature=" +
                                gateway::sign::beta::sign_message(msg, bob().key, false)),
                    wb::invalid_signature);
        CHECK(with_nonce(n).status == 200);
    }
    SECTION("100 are kept: below the smallest is expired, above it is fine") {
        std::int64_t const base = now_us() - 2 * second;
        for (std::int64_t i = 1; i <= 100; ++i) {
            auto const r = with_nonce(base + i);
            INFO(i << ": " << r.body);
            REQUIRE(r.status == 200);
        }
        // Not used before, but below the smallest of the 100 kept.
        check_error(with_nonce(base), wb::nonce_expired);
        // Above it: accepted, and the smallest (base + 1) is dropped...
        CHECK(with_nonce(base + 500).status == 200);
        // ...so base + 1 is now below the smallest kept (base + 2), and base + 2 is a reuse.
        check_error(with_nonce(base + 1), wb::nonce_expired);
        check_error(with_nonce(base + 2), wb::nonce_expired);
        CHECK(with_nonce(base + 101).status == 200); // fresh and above the smallest
    }
}

TEST_CASE("beta mock: signed endpoints weigh as the upstream's and share the budget",
          "[contract][mock][beta]") {
    auto m = start_beta();
    // Weight is charged before the signature is read: unsigned income calls (30 each) spend it.
    auto const first = get(*m, "/fapi/v3/income");
    check_error(first, 400, -1102);
    CHECK(used_weight(first) == 30);
    for (int i = 1; i < 80; ++i)
        REQUIRE(get(*m, "/fapi/v3/income").status == 400);
    check_error(signed_get(*m, "/fapi/v3/account"), 429, -1003);
    CHECK(signed_get(*m, "/api/v3/account").status == 200); // spot: its own budget
}

// =============================================================================================
// /__mock/accounts

TEST_CASE("beta mock: /__mock/accounts shows the account and refuses bad bodies",
          "[contract][mock][beta]") {
    auto m = start_beta();
    auto post = [&](std::string const& body) {
        return fetch(http::verb::post, m->base_url() + "/__mock/accounts", body);
    };
    auto const created =
        post(R"({"address":")" + alice().address + R"(","balances":{"USDT":"1000","BTC":"0.5"}})");
    REQUIRE(created.status == 200);
    auto const view = json::parse(created.body);
    CHECK(keys(view) == std::set<std::string>{"address", "account", "balance", "positions",
                                              "openOrders", "userTrades", "income", "spot",
                                              "agents"});
    CHECK(view.at("account").at("totalWalletBalance") == "1000.00000000");
    // Every asset is a spot balance, USDT the futures collateral as well (CONTRACT §10).
    std::set<std::string> spot_assets;
    for (auto const& b : view.at("spot").at("balances").as_array())
        spot_assets.emplace(b.at("asset").as_string());
    CHECK(spot_assets == std::set<std::string>{"BTC", "USDT"});
    CHECK(view.at("income").at(0).at("incomeType") == "TRANSFER");
    std::string upper = alice().address;
    upper[5] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[5])));
    CHECK(fetch(http::verb::get, m->base_url() + "/__mock/accounts/" + upper).status == 200);
    CHECK(fetch(http::verb::get, m->base_url() + "/__mock/accounts/" + bob().address).status ==
          404);
    CHECK(fetch(http::verb::get, m->base_url() + "/__mock/accounts/0x12").status == 400);
    CHECK(fetch(http::verb::delete_, m->base_url() + "/__mock/accounts").status == 405);

    std::string const a = R"({"address":")" + bob().address + R"(",)";
    for (auto const& body :
         {a + R"("balances":{"DOGE":"1"}})", a + R"("balances":{"USDT":"-1"}})",
          a + R"("balances":{"USDT":"1.123456789"}})", a + R"("nope":1})",
          a + R"("positions":[{"symbol":"DOGEUSDT","size":"1","entryPrice":"1"}]})",
          a + R"("positions":[{"symbol":"BTCUSDT","size":"0.0001","entryPrice":"1"}]})",
          a + R"("positions":[{"symbol":"TSLAUSDT","size":"1","entryPrice":"400","leverage":11}]})",
          a + R"("positions":[{"symbol":"BTC","size":"1","entryPrice":"1"},
                              {"symbol":"BTCUSDT","size":"1","entryPrice":"1"}]})",
          a + R"("orders":[{"symbol":"BTCUSDT","side":"buy","size":"1"}]})",
          a + R"("orders":[{"symbol":"BTCUSDT","side":"buy","type":"trailing_stop","size":"1",
                            "callbackRate":"6"}]})",
          a + R"("orders":[{"symbol":"BTCUSDT","side":"buy","type":"limit","size":"1",
                            "price":"1","triggerPrice":"2"}]})",
          a + R"("orders":[{"symbol":"BTCUSDT","side":"buy","price":"1","size":"1",
                            "clientOrderId":"bad id"}]})",
          a + R"("fills":[{"symbol":"BTCUSDT","side":"buy","price":"1","size":"1","time":-5}]})",
          std::string(R"({"address":"0x12"})")}) {
        CAPTURE(body);
        auto const r = post(body);
        CHECK(r.status == 400);
        CHECK(!json::parse(r.body).at("error").as_string().empty());
    }
    // Nothing of a refused body was applied.
    CHECK(fetch(http::verb::get, m->base_url() + "/__mock/accounts/" + bob().address).status ==
          404);
}

} // namespace mock_beta_test
