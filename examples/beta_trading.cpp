// Sets leverage, places, lists and cancels beta perps orders through the gateway, then a trailing
// stop. The key never leaves this process: the SDK signs (beta's EIP-712 Message over the v3
// parameter string), the gateway verifies and forwards.
//
//   beta_trading API_KEY [BASE_URL]          (default http://127.0.0.1:8080)
//
// The wallet key comes from GATEWAY_WALLET_KEY (0x + 64 hex). Without it, against the embedded
// default (scripts/serve.sh), the example makes a fresh throwaway key and credits it 10000 USDT
// through the built-in mock's control API (`/__mock/accounts`, which a real upstream does not
// have). Exit code 0 on success, 1 on an error.
#include <gateway/client/client.hpp>
#include <gateway/providers/beta.hpp>
#include <gateway/types/fixed.hpp>

#include <cstdlib>
#include <iostream>

namespace {

namespace sb = gateway::sign::beta;

int fail(std::string_view what, gateway::api_error const& e) {
    std::cerr << what << ": " << e.wire() << ": " << e.message << "\n";
    return 1;
}

/// Credits `wallet` on the embedded mock upstream (demo only).
gateway::result<void> fund_on_mock(gateway::client const& gw, std::string const& wallet) {
    auto beta = gw.provider("beta");
    if (!beta)
        return beta.error();
    if (beta->vertical_details.empty())
        return gateway::make_error(gateway::errc::not_found, "beta reports no upstream address");
    gateway::client_options mock_options;
    mock_options.base_url = beta->vertical_details.front().base_url;
    auto mock = gateway::client::create(mock_options);
    if (!mock)
        return mock.error();
    boost::json::object body;
    body["address"] = wallet;
    body["balances"] = boost::json::object{{"USDT", "10000"}};
    boost::json::value const v = body;
    auto credited = mock->call(boost::beast::http::verb::post, "/__mock/accounts", {}, &v);
    if (!credited)
        return credited.error();
    return {};
}

/// `price` x `factor`, down to the market's tick (the gateway refuses, never rounds).
gateway::result<gateway::decimal> on_tick(gateway::decimal const& price, std::string_view factor,
                                          sb::market_rules const& m) {
    auto const scaled = gateway::exact_mul(price, gateway::decimal::parse(factor).value());
    auto const ticks =
        scaled ? gateway::exact_div(*scaled, m.tick_size, 0, gateway::rounding::toward_zero)
               : std::nullopt;
    auto const out = ticks ? gateway::exact_mul(*ticks, m.tick_size) : std::nullopt;
    if (!out)
        return gateway::make_error(gateway::errc::validation_error, "no price on the tick");
    return *out;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: beta_trading API_KEY [BASE_URL]\n";
        return 1;
    }
    gateway::client_options options;
    options.api_key = argv[1];
    if (argc > 2)
        options.base_url = argv[2];
    auto gw = gateway::client::create(options);
    if (!gw)
        return fail("client", gw.error());

    // The wallet's key (or an API wallet's approved by it).
    char const* env_key = std::getenv("GATEWAY_WALLET_KEY");
    auto key = env_key ? gateway::sign::private_key::from_hex(env_key)
                       : gateway::sign::private_key::generate();
    if (!key)
        return fail("key", key.error());
    sb::signer signer(*key);
    std::string const wallet = signer.address().str();
    std::cout << "wallet " << wallet << "\n";
    if (!env_key)
        if (auto funded = fund_on_mock(*gw, wallet); !funded)
            return fail("fund on the mock", funded.error());

    // The filters of BTC (tick, step, minimum notional, maximum leverage), from the gateway.
    auto markets = gw->markets(gateway::vertical::perps, "beta");
    if (!markets)
        return fail("markets", markets.error());
    sb::market_rules btc;
    for (auto const& m : *markets)
        if (m.symbol == "BTC")
            btc = sb::rules_of(m, false);

    // Leverage first: 5x (cross).
    gateway::set_leverage_request lev;
    lev.symbol = "BTC";
    lev.leverage = 5;
    if (auto ok = signer.sign(lev, btc); !ok)
        return fail("sign leverage", ok.error());
    auto levered = gw->set_leverage("beta", lev);
    if (!levered)
        return fail("set leverage", levered.error());
    std::cout << "leverage " << levered->symbol << " " << levered->leverage << "x "
              << to_string(levered->margin_mode) << "\n";

    // Place: build the request, sign it, send it. A buy 3% under the market rests.
    auto prices = gw->prices("beta");
    if (!prices)
        return fail("prices", prices.error());
    auto const last = prices->at("BTC");
    auto const bid = on_tick(last, "0.97", btc);
    if (!bid)
        return fail("price", bid.error());
    gateway::place_order_request order;
    order.symbol = "BTC";
    order.side = gateway::side::buy;
    order.type = gateway::order_type::limit;
    order.size = gateway::decimal::parse("0.01").value();
    order.price = *bid;
    if (auto ok = signer.sign(order, btc); !ok)
        return fail("sign order", ok.error());
    auto placed = gw->place_order("beta", order);
    if (!placed)
        return fail("place", placed.error());
    std::cout << "placed " << placed->order_id << " " << to_string(placed->status) << " at "
              << order.price->str() << "\n";

    // List.
    auto open = gw->open_orders("beta", wallet);
    if (!open)
        return fail("open orders", open.error());
    for (auto const& o : *open)
        std::cout << "open " << o.order_id << " " << o.symbol << " " << to_string(o.side) << " "
                  << o.size.str() << " @ " << (o.price ? o.price->str() : "-") << "\n";

    // Cancel.
    gateway::cancel_order_request cancel;
    cancel.symbol = "BTC";
    cancel.order_id = placed->order_id;
    if (auto ok = signer.sign(cancel, btc); !ok)
        return fail("sign cancel", ok.error());
    auto canceled = gw->cancel_order("beta", cancel);
    if (!canceled)
        return fail("cancel", canceled.error());
    std::cout << "canceled " << canceled->order_id << " " << to_string(canceled->status) << "\n";

    // A market buy, then a trailing stop protecting it: sells after a 1% pullback from the
    // best price once the market trades 2% higher.
    gateway::place_order_request buy;
    buy.symbol = "BTC";
    buy.side = gateway::side::buy;
    buy.type = gateway::order_type::market;
    buy.size = gateway::decimal::parse("0.01").value();
    if (auto ok = signer.sign(buy, btc); !ok)
        return fail("sign market order", ok.error());
    auto bought = gw->place_order("beta", buy);
    if (!bought)
        return fail("market order", bought.error());
    std::cout << "bought " << bought->filled_size.str() << " at "
              << (bought->average_price ? bought->average_price->str() : "-") << "\n";
    auto const activation = on_tick(last, "1.02", btc);
    if (!activation)
        return fail("price", activation.error());
    gateway::place_order_request trail;
    trail.symbol = "BTC";
    trail.side = gateway::side::sell;
    trail.type = gateway::order_type::trailing_stop;
    trail.size = buy.size;
    trail.callback_rate = gateway::decimal::parse("1").value();
    trail.activation_price = *activation;
    trail.reduce_only = true;
    if (auto ok = signer.sign(trail, btc); !ok)
        return fail("sign trailing stop", ok.error());
    auto trailing = gw->place_order("beta", trail);
    if (!trailing)
        return fail("trailing stop", trailing.error());
    std::cout << "trailing " << trailing->order_id << " " << to_string(trailing->status) << " from "
              << activation->str() << "\n";
    return 0;
}
