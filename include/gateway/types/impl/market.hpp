#pragma once

#include <gateway/types/detail/json.hpp>

namespace gateway {

GATEWAY_DECL result<trade> parse_trade(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "trade");
    trade t;
    f.required("id", t.id);
    f.required("price", t.price);
    f.required("size", t.size);
    f.required("side", t.side);
    f.required("timestamp", t.timestamp);
    return detail::finish(f, std::move(t));
}

GATEWAY_DECL result<candle> parse_candle(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "candle");
    candle c;
    f.required("open", c.open);
    f.required("high", c.high);
    f.required("low", c.low);
    f.required("close", c.close);
    f.required("volume", c.volume);
    f.required("timestamp", c.timestamp);
    return detail::finish(f, std::move(c));
}

GATEWAY_DECL result<price_map> parse_prices(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "prices");
    price_map prices;
    if (auto const* o = f.object())
        for (auto const& kv : *o)
            f.required(kv.key(), prices[std::string(kv.key())]);
    return detail::finish(f, std::move(prices));
}

GATEWAY_DECL result<book_level> parse_book_level(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "orderbook level");
    book_level l;
    f.required("price", l.price);
    f.required("size", l.size);
    return detail::finish(f, std::move(l));
}

GATEWAY_DECL result<orderbook> parse_orderbook(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "orderbook");
    orderbook b;
    f.required("symbol", b.symbol);
    f.required("bids", b.bids, parse_book_level);
    f.required("asks", b.asks, parse_book_level);
    f.required("timestamp", b.timestamp);
    return detail::finish(f, std::move(b));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, trade const& t) {
    jv = detail::make_object({{"id", t.id},
                              {"price", t.price},
                              {"size", t.size},
                              {"side", t.side},
                              {"timestamp", t.timestamp}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, candle const& c) {
    jv = detail::make_object({{"open", c.open},
                              {"high", c.high},
                              {"low", c.low},
                              {"close", c.close},
                              {"volume", c.volume},
                              {"timestamp", c.timestamp}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             book_level const& l) {
    jv = detail::make_object({{"price", l.price}, {"size", l.size}});
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             orderbook const& b) {
    jv = detail::make_object(
        {{"symbol", b.symbol}, {"bids", b.bids}, {"asks", b.asks}, {"timestamp", b.timestamp}});
}

GATEWAY_DECL boost::json::result<trade> tag_invoke(boost::json::try_value_to_tag<trade>,
                                                   boost::json::value const& v) {
    return detail::to_json_result(parse_trade(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<candle> tag_invoke(boost::json::try_value_to_tag<candle>,
                                                    boost::json::value const& v) {
    return detail::to_json_result(parse_candle(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<book_level> tag_invoke(boost::json::try_value_to_tag<book_level>,
                                                        boost::json::value const& v) {
    return detail::to_json_result(parse_book_level(v, strictness::upstream));
}
GATEWAY_DECL boost::json::result<orderbook> tag_invoke(boost::json::try_value_to_tag<orderbook>,
                                                       boost::json::value const& v) {
    return detail::to_json_result(parse_orderbook(v, strictness::upstream));
}

GATEWAY_DECL result<market_info> parse_market_info(boost::json::value const& v, strictness mode) {
    json_fields f(v, mode, "market");
    market_info m;
    f.required("symbol", m.symbol);
    f.optional("asset", m.asset);
    f.optional("szDecimals", m.sz_decimals);
    f.optional("tickSize", m.tick_size);
    f.optional("stepSize", m.step_size);
    f.optional("minNotional", m.min_notional);
    f.required("maxLeverage", m.max_leverage);
    return detail::finish(f, std::move(m));
}

GATEWAY_DECL void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                             market_info const& m) {
    boost::json::object o;
    o["symbol"] = m.symbol;
    if (m.asset)
        o["asset"] = *m.asset;
    if (m.sz_decimals)
        o["szDecimals"] = *m.sz_decimals;
    if (m.tick_size)
        o["tickSize"] = m.tick_size->str();
    if (m.step_size)
        o["stepSize"] = m.step_size->str();
    if (m.min_notional)
        o["minNotional"] = m.min_notional->str();
    o["maxLeverage"] = m.max_leverage;
    jv = std::move(o);
}

GATEWAY_DECL boost::json::result<market_info> tag_invoke(boost::json::try_value_to_tag<market_info>,
                                                         boost::json::value const& v) {
    return detail::to_json_result(parse_market_info(v, strictness::upstream));
}

} // namespace gateway
