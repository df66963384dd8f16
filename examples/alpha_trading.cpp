// Places, lists, cancels and re-levers alpha perps orders through the gateway. The key never
// leaves this process: the SDK signs, the gateway verifies and forwards.
//
//   alpha_trading API_KEY [BASE_URL]          (default http://127.0.0.1:8080)
//
// The wallet key comes from GATEWAY_WALLET_KEY (0x + 64 hex). Without it, against the embedded
// default (scripts/serve.sh), the example makes a fresh throwaway key and credits it 10000 USDC
// through the built-in mock's control API (`/__mock/accounts`, which a real upstream does not
// have). Exit code 0 on success, 1 on an error.
#include <gateway/client/client.hpp>
#include <gateway/providers/alpha.hpp>

#include <cstdlib>
#include <iostream>

namespace {

namespace sa = gateway::sign::alpha;

int fail(std::string_view what, gateway::api_error const& e) {
    std::cerr << what << ": " << e.wire() << ": " << e.message << "\n";
    return 1;
}

/// Credits `wallet` on the embedded mock upstream (demo only).
gateway::result<void> fund_on_mock(gateway::client const& gw, std::string const& wallet) {
    auto alpha = gw.provider("alpha");
    if (!alpha)
        return alpha.error();
    if (alpha->vertical_details.empty())
        return gateway::make_error(gateway::errc::not_found, "alpha reports no upstream address");
    gateway::client_options mock_options;
    mock_options.base_url = alpha->vertical_details.front().base_url;
    auto mock = gateway::client::create(mock_options);
    if (!mock)
        return mock.error();
    boost::json::object body;
    body["address"] = wallet;
    body["balances"] = boost::json::object{{"USDC", "10000"}};
    boost::json::value const v = body;
    auto credited = mock->call(boost::beast::http::verb::post, "/__mock/accounts", {}, &v);
    if (!credited)
        return credited.error();
    return {};
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: alpha_trading API_KEY [BASE_URL]\n";
        return 1;
    }
    gateway::client_options options;
    options.api_key = argv[1];
    if (argc > 2)
        options.base_url = argv[2];
    auto gw = gateway::client::create(options);
    if (!gw)
        return fail("client", gw.error());

    // The wallet's key (or an agent's approved by it).
    char const* env_key = std::getenv("GATEWAY_WALLET_KEY");
    auto key = env_key ? gateway::sign::private_key::from_hex(env_key)
                       : gateway::sign::private_key::generate();
    if (!key)
        return fail("key", key.error());
    sa::signer signer(*key);
    std::string const wallet = signer.address().str();
    std::cout << "wallet " << wallet << "\n";
    if (!env_key)
        if (auto funded = fund_on_mock(*gw, wallet); !funded)
            return fail("fund on the mock", funded.error());

    // The signing rules of BTC, from the gateway.
    auto markets = gw->markets(gateway::vertical::perps, "alpha");
    if (!markets)
        return fail("markets", markets.error());
    sa::market_rules btc;
    for (auto const& m : *markets)
        if (m.symbol == "BTC")
            btc = sa::rules_of(m, false);

    // Leverage first: 5x cross.
    gateway::set_leverage_request lev;
    lev.symbol = "BTC";
    lev.leverage = 5;
    if (auto ok = signer.sign(lev, btc); !ok)
        return fail("sign leverage", ok.error());
    auto levered = gw->set_leverage("alpha", lev);
    if (!levered)
        return fail("set leverage", levered.error());
    std::cout << "leverage " << levered->symbol << " " << levered->leverage << "x "
              << to_string(levered->margin_mode) << "\n";

    // Place: build the request, sign it, send it. A buy 10% under the market rests.
    auto prices = gw->prices("alpha");
    if (!prices)
        return fail("prices", prices.error());
    auto const mid = prices->at("BTC");
    auto const bid = sa::market_order_price(mid, gateway::side::sell, btc); // mid - 5%
    if (!bid)
        return fail("price", bid.error());
    gateway::place_order_request order;
    order.symbol = "BTC";
    order.side = gateway::side::buy;
    order.type = gateway::order_type::limit;
    order.size = gateway::decimal::parse("0.001").value();
    order.price = *bid;
    if (auto ok = signer.sign(order, btc); !ok)
        return fail("sign order", ok.error());
    auto placed = gw->place_order("alpha", order);
    if (!placed)
        return fail("place", placed.error());
    std::cout << "placed " << placed->order_id << " " << to_string(placed->status) << " at "
              << order.price->str() << "\n";

    // List.
    auto open = gw->open_orders("alpha", wallet);
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
    auto canceled = gw->cancel_order("alpha", cancel);
    if (!canceled)
        return fail("cancel", canceled.error());
    std::cout << "canceled " << canceled->order_id << " " << to_string(canceled->status) << "\n";

    // Re-lever: 10x isolated.
    lev.leverage = 10;
    lev.margin_mode = gateway::margin_mode::isolated;
    lev.nonce = 0; // a fresh nonce and signature
    if (auto ok = signer.sign(lev, btc); !ok)
        return fail("sign leverage", ok.error());
    levered = gw->set_leverage("alpha", lev);
    if (!levered)
        return fail("set leverage", levered.error());
    std::cout << "leverage " << levered->symbol << " " << levered->leverage << "x "
              << to_string(levered->margin_mode) << "\n";
    return 0;
}
