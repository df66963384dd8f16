// Unit tests of the beta adapter's pure mappings (reference-server/src/providers/beta/beta_map.hpp)
// and its request builders (include/gateway/providers/beta/requests.hpp): recorded Aster bodies
// (tests/fixtures/beta: ccxt's recordings and the bodies upstreams/beta.md quotes, see its README)
// and small hand-made ones in, contract types out, every value checked as the exact wire string.
#include "support/catch_result.hpp"

#include "providers/beta/beta_map.hpp"

#include <gateway/providers/beta/requests.hpp>
#include <gateway/providers/beta/signing.hpp>

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#ifndef GATEWAY_FIXTURES_DIR
#error "GATEWAY_FIXTURES_DIR must name the absolute path of tests/fixtures"
#endif

using namespace gateway;
using namespace gateway::server;
namespace json = boost::json;

namespace {

json::value read_json(std::string const& name) {
    std::string const path = std::string(GATEWAY_FIXTURES_DIR) + "/beta/" + name;
    std::ifstream in(path);
    INFO(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
}

/// The upstream body of entry `i` of a ccxt recording (tests/fixtures/beta/ccxt-<method>.json).
json::value ccxt(std::string const& method, std::size_t i = 0) {
    return read_json("ccxt-" + method + ".json").at("entries").at(i).at("httpResponse");
}

/// A body upstreams/beta.md quotes (tests/fixtures/beta/beta-md.json).
json::value doc(std::string const& name) {
    return read_json("beta-md.json").at("bodies").at(name);
}

/// beta.md's exchangeInfo (TSLAUSDT, every filter) plus BTCUSDT with the rules beta.md gives for
/// it in the same snapshot (tickSize 0.1, stepSize 0.001, minNotional 5, no sub type).
json::value exchange_info() {
    auto info = doc("exchangeInfo");
    auto btc = info.at("symbols").at(0);
    auto& o = btc.as_object();
    o["symbol"] = "BTCUSDT";
    o["pair"] = "BTCUSDT";
    o["baseAsset"] = "BTC";
    o["underlyingSubType"] = json::array{};
    o["symbolType"] = 0;
    o["filters"] = json::parse(R"([
        {"filterType":"PRICE_FILTER","minPrice":"0.10","maxPrice":"1000000","tickSize":"0.10"},
        {"filterType":"LOT_SIZE","minQty":"0.001","maxQty":"1000","stepSize":"0.001"},
        {"filterType":"MARKET_LOT_SIZE","minQty":"0.001","maxQty":"120","stepSize":"0.001"},
        {"filterType":"MIN_NOTIONAL","notional":"5"}])");
    info.at("symbols").as_array().push_back(btc);
    return info;
}

beta::universe make_universe() {
    auto perps = beta::parse_futures_exchange_info(exchange_info());
    REQUIRE(perps);
    auto spot = beta::parse_spot_exchange_info(json::parse(R"({"symbols":[
        {"symbol":"ASTERUSDT","status":"TRADING","baseAsset":"ASTER","quoteAsset":"USDT",
         "filters":[{"filterType":"PRICE_FILTER","minPrice":"0.0001","maxPrice":"1000","tickSize":"0.0001"},
                    {"filterType":"LOT_SIZE","minQty":"0.01","maxQty":"9000000","stepSize":"0.01"},
                    {"filterType":"MIN_NOTIONAL","minNotional":"5"}]}]})"));
    REQUIRE(spot);
    return beta::universe(std::move(*perps), std::move(*spot));
}

/// The failure must be UPSTREAM_ERROR (502) and its message must contain `part`.
template <class T>
void check_upstream_error(result<T> const& r, std::string const& part) {
    REQUIRE_FALSE(r);
    CHECK(r.error().code == errc::upstream_error);
    CHECK(r.error().status == 502);
    CHECK_THAT(r.error().message, Catch::Contains(part));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The universe

TEST_CASE("beta exchangeInfo: a USDT perpetual with every filter, stock perps marked rwa",
          "[unit][beta]") {
    auto perps = beta::parse_futures_exchange_info(doc("exchangeInfo"));
    REQUIRE(perps);
    REQUIRE(perps->size() == 1);
    auto const& tsla = perps->front();
    CHECK(tsla.symbol == "TSLA");
    CHECK(tsla.upstream == "TSLAUSDT");
    CHECK(tsla.rwa); // underlyingSubType ["STOCK"]
    CHECK(tsla.rules.tick_size.str() == "0.01");
    CHECK(tsla.rules.min_price.str() == "0.01");
    CHECK(tsla.rules.max_price.str() == "2000");
    CHECK(tsla.rules.step_size.str() == "0.01");
    CHECK(tsla.rules.min_qty.str() == "0.01");
    CHECK(tsla.rules.max_qty.str() == "100000");
    CHECK(tsla.rules.market_max_qty.str() == "5");
    CHECK(tsla.rules.min_notional.str() == "5");
    REQUIRE(tsla.rules.multiplier_up);
    CHECK(tsla.rules.multiplier_up->str() == "1.02");
    CHECK(tsla.rules.multiplier_down->str() == "0.98");
    CHECK(tsla.max_leverage == 0); // not in exchangeInfo (beta.md §4.1): leverageBracket's

    auto const info = beta::to_market_info(tsla);
    CHECK(info.symbol == "TSLA");
    CHECK(info.tick_size->str() == "0.01");
    CHECK(info.step_size->str() == "0.01");
    CHECK(info.min_notional->str() == "5");
    CHECK_FALSE(info.asset);
    CHECK_FALSE(info.sz_decimals);
    CHECK(
        json::serialize(json::value_from(info)) ==
        R"({"symbol":"TSLA","tickSize":"0.01","stepSize":"0.01","minNotional":"5","maxLeverage":0})");
}

TEST_CASE("beta exchangeInfo: only TRADING USDT perpetuals, commodity perps are rwa too",
          "[unit][beta]") {
    auto info = exchange_info();
    auto& symbols = info.at("symbols").as_array();
    auto variant = [&](std::string symbol, std::string key, json::value value) {
        auto s = symbols.at(0);
        s.as_object()["symbol"] = symbol;
        s.as_object()["baseAsset"] = symbol.substr(0, 3);
        s.as_object()[key] = std::move(value);
        symbols.push_back(std::move(s));
    };
    variant("XAUUSDT", "underlyingSubType", json::array{"RWA"});
    variant("AAAUSDT", "status", "SETTLING");
    variant("BBBUSDC", "quoteAsset", "USDC");
    variant("CCCUSDT", "contractType", "CURRENT_QUARTER");
    auto perps = beta::parse_futures_exchange_info(info);
    REQUIRE(perps);
    std::set<std::string> names;
    for (auto const& m : *perps)
        names.insert(m.symbol);
    CHECK(names == std::set<std::string>{"TSLA", "BTC", "XAU"});
    beta::universe u(std::move(*perps), {});
    CHECK(u.find_perp("XAU")->rwa);
    CHECK_FALSE(u.find_perp("BTC")->rwa);
    CHECK(u.find_perp("BTC")->rules.tick_size.str() == "0.1");
    CHECK(u.find_perp_upstream("BTCUSDT")->symbol == "BTC");
    CHECK(u.find_perp("BTCUSDT") == nullptr);
    CHECK(u.find_perp_upstream("AAAUSDT") == nullptr);
    auto const listing = beta::to_market_infos(u, beta::venue::futures);
    REQUIRE(listing.size() == 3);
    CHECK(listing[1].symbol == "BTC"); // exchangeInfo's order
    CHECK(listing[1].tick_size->str() == "0.1");
    CHECK(listing[1].step_size->str() == "0.001");
    CHECK(beta::to_market_infos(u, beta::venue::spot).empty());
    auto const spot = beta::to_market_infos(make_universe(), beta::venue::spot);
    REQUIRE(spot.size() == 1);
    CHECK(spot[0].symbol == "ASTER/USDT");
}

TEST_CASE("beta exchangeInfo: malformed bodies are UPSTREAM_ERROR naming the item",
          "[unit][beta]") {
    check_upstream_error(beta::parse_futures_exchange_info(json::parse("[]")),
                         "shape for exchangeInfo");
    auto info = doc("exchangeInfo");
    info.at("symbols").at(0).as_object().erase("filters");
    check_upstream_error(beta::parse_futures_exchange_info(info), "TSLAUSDT) filters");
    info = doc("exchangeInfo");
    info.at("symbols").at(0).at("filters").at(0).as_object()["tickSize"] = "abc";
    check_upstream_error(beta::parse_futures_exchange_info(info), "tickSize");
    info = doc("exchangeInfo");
    info.at("symbols").at(0).as_object().erase("baseAsset");
    check_upstream_error(beta::parse_futures_exchange_info(info), "baseAsset");
}

TEST_CASE("beta spot exchangeInfo: BASE/QUOTE pairs, minNotional, internal TEST pairs left out",
          "[unit][beta]") {
    auto spot = beta::parse_spot_exchange_info(json::parse(R"({"symbols":[
        {"symbol":"ASTERUSDT","status":"TRADING","baseAsset":"ASTER","quoteAsset":"USDT",
         "filters":[{"filterType":"PRICE_FILTER","minPrice":"0.0001","maxPrice":"1000","tickSize":"0.0001"},
                    {"filterType":"LOT_SIZE","minQty":"0.01","maxQty":"9000000","stepSize":"0.01"},
                    {"filterType":"MIN_NOTIONAL","minNotional":"5.00000000"},
                    {"filterType":"NOTIONAL","minNotional":"5","maxNotional":"9000000"}]},
        {"symbol":"TESTUSDT","status":"TRADING","baseAsset":"TEST","quoteAsset":"USDT","filters":[]},
        {"symbol":"BTCUSD1","status":"BREAK","baseAsset":"BTC","quoteAsset":"USD1","filters":[]}]})"));
    REQUIRE(spot);
    REQUIRE(spot->size() == 1);
    CHECK(spot->front().symbol == "ASTER/USDT");
    CHECK(spot->front().upstream == "ASTERUSDT");
    auto const info = beta::to_market_info(spot->front());
    CHECK(info.tick_size->str() == "0.0001");
    CHECK(info.step_size->str() == "0.01");
    CHECK(info.min_notional->str() == "5");
    CHECK(info.max_leverage == 0);
}

TEST_CASE("beta leverageBracket: the highest initial leverage per symbol, numbers or strings",
          "[unit][beta]") {
    auto one = beta::parse_leverage_brackets(doc("leverageBracket"));
    REQUIRE(one);
    CHECK(one->at("ETHUSDT") == 75);
    auto all = beta::parse_leverage_brackets(json::parse(R"([
        {"symbol":"BTCUSDT","brackets":[{"bracket":1,"initialLeverage":"125","notionalCap":"50000"},
                                        {"bracket":2,"initialLeverage":"100","notionalCap":"250000"}]},
        {"symbol":"TSLAUSDT","brackets":[{"bracket":1,"initialLeverage":10}]}])"));
    REQUIRE(all);
    CHECK(all->at("BTCUSDT") == 125);
    CHECK(all->at("TSLAUSDT") == 10);
    check_upstream_error(beta::parse_leverage_brackets(json::parse(R"([{"symbol":"X"}])")),
                         "leverageBracket[0] brackets");
    check_upstream_error(beta::parse_leverage_brackets(
                             json::parse(R"([{"symbol":"X","brackets":[{"initialLeverage":0}]}])")),
                         "initialLeverage");
}

// ---------------------------------------------------------------------------------------------
// Market data

TEST_CASE("beta ticker/price: the universe's perps by base asset, spot pairs as BASE/QUOTE",
          "[unit][beta]") {
    auto const u = make_universe();
    auto perps = beta::to_prices(doc("ticker/price"), u, beta::venue::futures);
    REQUIRE(perps);
    CHECK(perps->size() == 2);
    CHECK(perps->at("BTC").str() == "6000.01");
    CHECK(perps->at("TSLA").str() == "412.55");
    auto const spot_ticker = json::parse(
        R"([{"symbol":"ASTERUSDT","price":"1.20000000","time":1},{"symbol":"NOPEUSDT","price":"1"}])");
    auto spot = beta::to_prices(spot_ticker, u, beta::venue::spot);
    REQUIRE(spot);
    CHECK(spot->size() == 1);
    CHECK(spot->at("ASTER/USDT").str() == "1.2");
    check_upstream_error(beta::to_prices(json::parse(R"([{"symbol":"BTCUSDT","price":"x"}])"), u,
                                         beta::venue::futures),
                         "ticker/price[0]");
}

TEST_CASE("beta depth: levels cut to depth, bids high to low, the transaction time",
          "[unit][beta]") {
    auto book = beta::to_orderbook(ccxt("fetchOrderBook"), "BTC", 3);
    REQUIRE(book);
    CHECK(book->symbol == "BTC");
    CHECK(book->timestamp == 1750058542585); // T
    REQUIRE(book->bids.size() == 3);
    REQUIRE(book->asks.size() == 3);
    CHECK(book->bids[0].price.str() == "106626.8");
    CHECK(book->bids[0].size.str() == "8.266");
    CHECK(book->bids[2].price.str() == "106618.7");
    CHECK(book->bids[2].size.str() == "0.2");
    CHECK(book->asks[0].price.str() == "106626.9");
    CHECK(book->asks[1].size.str() == "0.01");
    CHECK(json::serialize(json::value_from(*beta::to_orderbook(doc("depth"), "BTC", 20))) ==
          R"({"symbol":"BTC","bids":[{"price":"4","size":"431"}],)"
          R"("asks":[{"price":"4.000002","size":"12"}],"timestamp":1589436922959})");
    check_upstream_error(beta::to_orderbook(json::parse(R"({"bids":[["1"]],"asks":[]})"), "BTC", 5),
                         "depth bids[0]");
    check_upstream_error(beta::to_orderbook(json::parse(R"({"bids":[]})"), "BTC", 5), "depth asks");
}

TEST_CASE("beta trades: the taker's side, newest first, cut to the limit", "[unit][beta]") {
    auto recorded = beta::to_trades(ccxt("fetchTrades"), 50);
    REQUIRE(recorded);
    REQUIRE(recorded->size() == 1);
    auto const& t = recorded->front();
    CHECK(t.id == "23424931");
    CHECK(t.price.str() == "104613.1");
    CHECK(t.size.str() == "0.009");
    CHECK(t.side == side::sell); // isBuyerMaker: the taker sold
    CHECK(t.timestamp == 1749806461198);
    auto documented = beta::to_trades(doc("trades"), 50);
    REQUIRE(documented);
    CHECK(documented->front().price.str() == "4.000001");

    auto const oldest_first = json::parse(R"([
        {"id":1,"price":"10","qty":"1","quoteQty":"10","time":1000,"isBuyerMaker":false},
        {"id":2,"price":"11","qty":"1","quoteQty":"11","time":1000,"isBuyerMaker":true},
        {"id":3,"price":"12","qty":"1","quoteQty":"12","time":2000,"isBuyerMaker":false}])");
    auto two = beta::to_trades(oldest_first, 2);
    REQUIRE(two);
    REQUIRE(two->size() == 2);
    CHECK((*two)[0].id == "3");
    CHECK((*two)[0].side == side::buy);
    CHECK((*two)[1].id == "2"); // equal times: the later trade first
    check_upstream_error(beta::to_trades(json::parse(R"([{"id":1}])"), 5), "trades[0]");
}

TEST_CASE("beta klines: open time, OHLC and base volume, oldest first", "[unit][beta]") {
    auto recorded = beta::to_candles(ccxt("fetchOHLCV"));
    REQUIRE(recorded);
    REQUIRE(recorded->size() == 1);
    CHECK(json::serialize(json::value_from(recorded->front())) ==
          R"({"open":"104577.2","high":"104625","low":"104563.5","close":"104587.3",)"
          R"("volume":"17.771","timestamp":1749806400000})");
    auto documented = beta::to_candles(doc("klines"));
    REQUIRE(documented);
    CHECK(json::serialize(json::value_from(documented->front())) ==
          R"({"open":"0.0163479","high":"0.8","low":"0.015758","close":"0.015771",)"
          R"("volume":"148976.11427815","timestamp":1499040000000})");
    auto sorted = beta::to_candles(json::parse(
        R"([[2000,"1","1","1","1","1"],["1000","2","2","2","2","2"]])")); // a string time too
    REQUIRE(sorted);
    CHECK((*sorted)[0].timestamp == 1000);
    CHECK((*sorted)[1].timestamp == 2000);
    check_upstream_error(beta::to_candles(json::parse(R"([[1,"1","1"]])")), "klines[0]");
}

TEST_CASE("beta rwas markets: stock and commodity perps with mark, open interest, rules",
          "[unit][beta]") {
    auto info = exchange_info();
    auto xau = info.at("symbols").at(0);
    xau.as_object()["symbol"] = "XAUUSDT";
    xau.as_object()["baseAsset"] = "XAU";
    xau.as_object()["underlyingSubType"] = json::array{"RWA"};
    info.at("symbols").as_array().push_back(xau);
    auto perps = beta::parse_futures_exchange_info(info);
    REQUIRE(perps);
    for (auto& m : *perps)
        m.max_leverage = m.symbol == "BTC" ? 125 : 10;
    beta::universe const u(std::move(*perps), {});
    // premiumIndex of every symbol (ccxt's BTCUSDT item) with TSLA's and XAU's.
    auto marks = ccxt("fetchFundingRates");
    auto tsla = marks.at(0);
    tsla.as_object()["symbol"] = "TSLAUSDT";
    tsla.as_object()["markPrice"] = "430.10000000";
    marks.as_array().push_back(tsla);
    std::map<std::string, decimal, std::less<>> oi;
    oi["TSLAUSDT"] = *beta::to_open_interest(
        json::parse(R"({"openInterest":"1520.50","symbol":"TSLAUSDT","time":1})"));
    auto markets = beta::to_rwas_markets(u, marks, oi);
    REQUIRE(markets);
    REQUIRE(markets->size() == 2); // BTC is not a real-world asset
    auto const& t = markets->front();
    CHECK(json::serialize(json::value_from(t)) ==
          R"({"symbol":"TSLA","maxLeverage":10,"szDecimals":2,"markPrice":"430.1",)"
          R"("openInterest":"1520.5"})");
    CHECK(markets->back().symbol == "XAU");
    CHECK(markets->back().mark_price.str() == "0"); // not in premiumIndex yet
    // One symbol's premiumIndex is an object.
    auto single = beta::to_rwas_markets(u, doc("premiumIndex"), {});
    REQUIRE(single);
    check_upstream_error(beta::to_open_interest(json::parse("{}")), "openInterest");
}

// ---------------------------------------------------------------------------------------------
// Account data

TEST_CASE("beta positionRisk: open positions only, side from the sign, margin by margin type",
          "[unit][beta]") {
    auto const u = make_universe();
    auto isolated = beta::to_positions(ccxt("fetchPositionsRisk"), u);
    REQUIRE(isolated);
    REQUIRE(isolated->size() == 1);
    CHECK(json::serialize(json::value_from(isolated->front())) ==
          R"({"symbol":"BTC","side":"long","size":"20","entryPrice":"6563.665",)"
          R"("markPrice":"6679.50671178","unrealizedPnl":"2316.8342356","leverage":"10",)"
          R"("liquidationPrice":"5930.78","margin":"15517.54150468"})");
    CHECK(beta::to_positions(doc("positionRisk"), u)->size() == 1);
    auto flat = beta::to_positions(ccxt("fetchLeverages"), u); // positionAmt 0.000
    REQUIRE(flat);
    CHECK(flat->empty());

    auto cross_short = beta::to_positions(json::parse(R"([{"symbol":"TSLAUSDT",
        "positionAmt":"-3","entryPrice":"440","markPrice":"430.1","unRealizedProfit":"29.7",
        "liquidationPrice":"0","leverage":"7","marginType":"cross","isolatedMargin":"0"},
        {"symbol":"OLDUSDT","positionAmt":"1","entryPrice":"1","markPrice":"1",
        "unRealizedProfit":"0","liquidationPrice":"0","leverage":"1","marginType":"cross"}])"),
                                          u);
    REQUIRE(cross_short);
    REQUIRE(cross_short->size() == 2);
    auto const& s = (*cross_short)[0];
    CHECK(s.symbol == "TSLA");
    CHECK(s.side == position_side::short_);
    CHECK(s.size.str() == "3");
    CHECK(s.liquidation_price.str() == "0");
    CHECK(s.margin.str() == "184.32857143");  // 3 x 430.1 / 7, half-even at 8 decimals
    CHECK((*cross_short)[1].symbol == "OLD"); // not in the universe: still the account's
    check_upstream_error(beta::to_positions(json::parse(R"([{"symbol":"BTCUSDT"}])"), u),
                         "positionRisk[0]");
}

TEST_CASE("beta account: alpha's summary shape from the account totals and positionRisk",
          "[unit][beta]") {
    auto summary = beta::to_account_summary(doc("account"), doc("positionRisk"));
    REQUIRE(summary);
    CHECK(json::serialize(json::value_from(*summary)) ==
          R"({"equity":"23.72469206","availableMargin":"23.72469206","usedMargin":"0",)"
          R"("unrealizedPnl":"0","totalPositionValue":"133590.1342356"})");
    auto empty = beta::to_account_summary(doc("account"), json::array{});
    REQUIRE(empty);
    CHECK(empty->total_position_value.str() == "0");
    auto broken = doc("account");
    broken.as_object().erase("availableBalance");
    check_upstream_error(beta::to_account_summary(broken, json::array{}), "availableBalance");
}

TEST_CASE("beta openOrders: every order type, trailing stops with their callback rate",
          "[unit][beta]") {
    auto const u = make_universe();
    auto trailing = beta::to_open_orders(ccxt("fetchOpenOrders"), u);
    REQUIRE(trailing);
    REQUIRE(trailing->size() == 1);
    CHECK(json::serialize(json::value_from(trailing->front())) ==
          R"({"orderId":"1917641","clientOrderId":"abc","symbol":"BTC","side":"buy",)"
          R"("type":"trailing_stop","price":null,"triggerPrice":"9020","size":"0.4",)"
          R"("filledSize":"0","reduceOnly":false,"status":"open","timestamp":1579276756075,)"
          R"("callbackRate":"0.3"})");
    auto documented = beta::to_open_orders(json::array{doc("order")}, u); // no `time`
    REQUIRE(documented);
    CHECK(documented->front().timestamp == 1566818724722);
    CHECK(documented->front().client_order_id == "testOrder");

    auto kinds = beta::to_open_orders(json::parse(R"([
        {"orderId":1,"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","price":"60000","stopPrice":"0",
         "origQty":"0.010","executedQty":"0.004","reduceOnly":false,"clientOrderId":"","time":100},
        {"orderId":2,"symbol":"BTCUSDT","side":"SELL","type":"STOP","price":"54000","stopPrice":"55000",
         "origQty":"0.1","executedQty":"0","reduceOnly":true,"time":300},
        {"orderId":3,"symbol":"TSLAUSDT","side":"SELL","type":"TAKE_PROFIT_MARKET","price":"0",
         "stopPrice":"500","origQty":"1","executedQty":"0","time":200},
        {"orderId":4,"symbol":"TSLAUSDT","side":"BUY","type":"MARKET","price":"0","origQty":"1",
         "executedQty":"0","time":200}])"),
                                      u);
    REQUIRE(kinds);
    REQUIRE(kinds->size() == 4);
    // Newest first; equal times keep the later upstream item first.
    CHECK((*kinds)[0].order_id == "2");
    CHECK((*kinds)[1].order_id == "4");
    CHECK((*kinds)[2].order_id == "3");
    CHECK((*kinds)[3].order_id == "1");
    auto const& stop = (*kinds)[0];
    CHECK(stop.type == order_type::stop_limit);
    CHECK(stop.price->str() == "54000");
    CHECK(stop.trigger_price->str() == "55000");
    CHECK(stop.reduce_only);
    auto const& market = (*kinds)[1];
    CHECK(market.type == order_type::market);
    CHECK_FALSE(market.price);
    CHECK_FALSE(market.trigger_price);
    auto const& tp = (*kinds)[2];
    CHECK(tp.type == order_type::stop_market);
    CHECK(tp.symbol == "TSLA");
    CHECK_FALSE(tp.price);
    CHECK(tp.trigger_price->str() == "500");
    auto const& limit = (*kinds)[3];
    CHECK(limit.type == order_type::limit);
    CHECK(limit.price->str() == "60000");
    CHECK_FALSE(limit.trigger_price);
    CHECK(limit.size.str() == "0.01");
    CHECK(limit.filled_size.str() == "0.004");
    CHECK_FALSE(limit.client_order_id); // empty upstream id: null
    CHECK_FALSE(limit.callback_rate);

    check_upstream_error(
        beta::to_open_orders(json::parse(R"([{"orderId":1,"symbol":"BTCUSDT","side":"BUY",
            "type":"LIQUIDATION","origQty":"1","executedQty":"0"}])"),
                             u),
        "openOrders[0] type LIQUIDATION");
    check_upstream_error(
        beta::to_open_orders(json::parse(R"([{"orderId":1,"symbol":"BTCUSDT","side":"UP",
            "type":"LIMIT","origQty":"1","executedQty":"0"}])"),
                             u),
        "openOrders[0] side");
}

TEST_CASE("beta userTrades: fills with the commission as fee and the realized PnL",
          "[unit][beta]") {
    auto const u = make_universe();
    auto recorded = beta::to_fills(ccxt("fetchMyTrades"), u);
    REQUIRE(recorded);
    REQUIRE(recorded->size() == 1);
    CHECK(json::serialize(json::value_from(recorded->front())) ==
          R"({"id":"698759","orderId":"25851813","symbol":"BTC","side":"sell","price":"7819.01",)"
          R"("size":"0.002","fee":"-0.0781901","feeAsset":"USDT","liquidity":"taker",)"
          R"("closedPnl":"-0.91539999","timestamp":1569514978020})");
    CHECK(beta::to_fills(doc("userTrades"), u)->size() == 1);

    auto opening = beta::to_fills(json::parse(R"([
        {"symbol":"TSLAUSDT","id":7,"orderId":70,"side":"BUY","price":"430","qty":"2",
         "realizedPnl":"0","commission":"0.0860","commissionAsset":"USDT","maker":true,"time":5},
        {"symbol":"TSLAUSDT","id":8,"orderId":71,"side":"BUY","price":"431","qty":"1",
         "realizedPnl":"0","commission":"0.1","commissionAsset":"USDT","maker":false,"time":9}])"),
                                  u);
    REQUIRE(opening);
    REQUIRE(opening->size() == 2);
    CHECK((*opening)[0].id == "8"); // newest first
    auto const& f = (*opening)[1];
    CHECK(f.symbol == "TSLA");
    CHECK(f.side == side::buy);
    CHECK(f.fee.str() == "0.086");
    CHECK(f.liquidity == liquidity::maker);
    CHECK_FALSE(f.closed_pnl); // an opening fill closed nothing
    check_upstream_error(beta::to_fills(json::parse(R"([{"id":1}])"), u), "userTrades[0]");
}

TEST_CASE("beta spot account: balances held, total = free + locked", "[unit][beta]") {
    auto recorded = beta::to_spot_balances(ccxt("fetchBalance", 1));
    REQUIRE(recorded);
    REQUIRE(recorded->size() == 2);
    CHECK(json::serialize(json::value_from(recorded->at(0))) ==
          R"({"asset":"USDT","available":"29.99723191","locked":"0","total":"29.99723191"})");
    CHECK(recorded->at(1).asset == "ASTER");
    CHECK(recorded->at(1).total.str() == "0.0062");
    auto documented = beta::to_spot_balances(doc("spot account"));
    REQUIRE(documented);
    CHECK(documented->at(0).total.str() == "4723846.89208129");
    auto mixed = beta::to_spot_balances(json::parse(R"({"balances":[
        {"asset":"ASTER","free":"10","locked":"2.5"},{"asset":"BTC","free":"0","locked":"0.00000000"}]})"));
    REQUIRE(mixed);
    REQUIRE(mixed->size() == 1); // a zero balance is not held
    CHECK(mixed->at(0).available.str() == "10");
    CHECK(mixed->at(0).locked.str() == "2.5");
    CHECK(mixed->at(0).total.str() == "12.5");
    check_upstream_error(beta::to_spot_balances(json::parse(R"({"balances":{}})")),
                         "spot account balances");
}

TEST_CASE("beta income: the COMMISSION entries name the fills' symbols and times", "[unit][beta]") {
    auto funding = beta::to_commissions(ccxt("fetchLedger")); // a FUNDING_FEE entry
    REQUIRE(funding);
    CHECK(funding->empty());
    auto entries = beta::to_commissions(json::parse(R"([
        {"symbol":"BTCUSDT","incomeType":"COMMISSION","income":"-0.02","asset":"USDT","info":"",
         "time":"1700000000000","tranId":"99","tradeId":"7"},
        {"symbol":"","incomeType":"TRANSFER","income":"100","asset":"USDT","time":1,"tranId":1},
        {"symbol":"TSLAUSDT","incomeType":"COMMISSION","income":"0","asset":"USDT","time":5,
         "tranId":100}])"));
    REQUIRE(entries);
    REQUIRE(entries->size() == 2);
    CHECK((*entries)[0].upstream == "BTCUSDT");
    CHECK((*entries)[0].time == 1700000000000);
    CHECK((*entries)[0].tran_id == "99");
    CHECK((*entries)[1].tran_id == "100");
    check_upstream_error(beta::to_commissions(json::parse(R"([{"symbol":"X"}])")), "income[0]");
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST_CASE("beta read errors: an unapproved read signer is 403 naming it, others map by code",
          "[unit][beta]") {
    auto const signer = address::parse("0x21cf8ae13bb72632562c6fff438652ba1a151bb0").value();
    auto answer = [](unsigned status, std::string const& body) {
        upstream_answer a;
        a.status = status;
        boost::system::error_code ec;
        a.body = json::parse(body, ec);
        if (ec) {
            a.body = nullptr;
            a.text = body;
        }
        return a;
    };
    for (auto const* body :
         {R"({"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."})",
          R"({"code":-1002,"msg":"You are not authorized to execute this request."})"}) {
        auto const e = beta::read_error("beta", answer(401, body), signer);
        CHECK(e.code == errc::signer_not_approved);
        CHECK(e.status == 403);
        CHECK_THAT(e.message, Catch::Contains(signer.str()));
        CHECK(e.details.at("signer").as_string() == signer.str());
    }
    auto const bad_symbol =
        beta::read_error("beta", answer(400, R"({"code":-1121,"msg":"Invalid symbol."})"), signer);
    CHECK(bad_symbol.code == errc::market_not_found);
    CHECK(bad_symbol.status == 404);
    auto const other = beta::read_error(
        "beta testnet", answer(500, R"({"code":"-1000","msg":"An unknown error occured."})"),
        signer);
    CHECK(other.code == errc::upstream_error);
    CHECK(other.status == 502);
    CHECK(other.details.at("upstreamCode").as_int64() == -1000);
    CHECK_THAT(other.message, Catch::Contains("beta testnet"));
    auto const text = beta::read_error("beta", answer(502, "Bad Gateway"), signer);
    CHECK(text.code == errc::upstream_error);
    CHECK_THAT(text.message, Catch::Contains("HTTP 502"));
    CHECK_FALSE(beta::error_body(json::parse(R"({"code":200})")));
    CHECK(beta::error_body(json::parse(R"({"code":"200","msg":"done"})"))->code == 200);
}

// ---------------------------------------------------------------------------------------------
// Requests (include/gateway/providers/beta/requests.hpp)

TEST_CASE("beta request targets: symbols, public queries, and the v3 signed query",
          "[unit][beta]") {
    namespace w = wire::beta;
    CHECK(w::perp_symbol("TSLA") == "TSLAUSDT");
    CHECK(w::target("/fapi/v3/depth", {{"symbol", "BTCUSDT"}, {"limit", "20"}}) ==
          "/fapi/v3/depth?symbol=BTCUSDT&limit=20");
    CHECK(w::target("/fapi/v3/ticker/price", {}) == "/fapi/v3/ticker/price");

    // beta.md §3.2's demo key; the message is V3's with the gateway's lower-case addresses.
    auto const key = sign::private_key::from_hex(
                         "0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1")
                         .value();
    auto const user = address::parse("0x63DD5aCC6b1aa0f563956C0e534DD30B6dcF7C4e").value();
    auto const signer = sign::address_of(key);
    CHECK(signer.str() == "0x21cf8ae13bb72632562c6fff438652ba1a151bb0");
    std::string const msg =
        "symbol=BTCUSDT&nonce=1748310859508867&user=" + user.str() + "&signer=" + signer.str();
    CHECK(w::signed_message({{"symbol", "BTCUSDT"}}, 1748310859508867, user, signer) == msg);
    CHECK(w::signed_message({}, 7, user, signer) ==
          "nonce=7&user=" + user.str() + "&signer=" + signer.str());
    for (bool testnet : {false, true}) {
        auto const t = w::signed_target("/fapi/v3/positionRisk", {{"symbol", "BTCUSDT"}},
                                        1748310859508867, user, signer, key, testnet);
        auto const sig_at = t.find("&signature=");
        REQUIRE(sig_at != std::string::npos);
        CHECK(t.substr(0, sig_at) == "/fapi/v3/positionRisk?" + msg); // signature last
        auto const sig = t.substr(sig_at + 11);
        CHECK(sig == sign::beta::sign_message(msg, key, testnet));
        CHECK(sign::beta::recover_message(msg, sig, testnet).value() == signer);
        // The other chain's domain does not verify (chainId 1666 vs 714).
        CHECK(sign::beta::recover_message(msg, sig, !testnet).value() != signer);
    }
}
