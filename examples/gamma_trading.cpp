// Trades a gamma prediction market through the gateway: a BUY under the market that rests, listed
// and canceled, then a FOK BUY at the best ask that fills and shows among the fills. The wallet
// key never leaves this process (the SDK signs the upstream's own CTF Exchange Order); the CLOB
// credentials go only into each request that needs them, and the gateway keeps none.
//
//   gamma_trading API_KEY [BASE_URL]          (default http://127.0.0.1:8080)
//
// The wallet key comes from GATEWAY_WALLET_KEY (0x + 64 hex), its CLOB credentials from
// GATEWAY_CLOB_API_KEY, GATEWAY_CLOB_SECRET and GATEWAY_CLOB_PASSPHRASE. Without them, against the
// embedded default (scripts/serve.sh), the example makes a fresh throwaway key, credits it 1000
// USDC through the built-in mock's control API (`/__mock/accounts`, which a real upstream does
// not have) and creates its credentials on the CLOB (`POST /auth/api-key`, signed with the key as
// Polymarket's own clients do; the gateway has no part in it). Exit code 0 on success, 1 on an
// error.
#include <gateway/client/client.hpp>
#include <gateway/providers/gamma.hpp>
#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/signing.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>

namespace {

namespace sg = gateway::sign::gamma;
namespace w = gateway::wire::gamma;

int fail(std::string_view what, gateway::api_error const& e) {
    std::cerr << what << ": " << e.wire() << ": " << e.message << "\n";
    return 1;
}

/// A client for `url` without an API key (an upstream: the mock's control API, the CLOB).
gateway::result<gateway::client> upstream_client(std::string const& url) {
    gateway::client_options o;
    o.base_url = url;
    return gateway::client::create(o);
}

/// Credits `wallet` with USDC on the embedded mock upstream (demo only).
gateway::result<void> fund_on_mock(std::string const& mock_url, std::string const& wallet) {
    auto mock = upstream_client(mock_url);
    if (!mock)
        return mock.error();
    boost::json::object o;
    o["address"] = wallet;
    o["balances"] = boost::json::object{{"USDC", "1000"}};
    boost::json::value const body = std::move(o);
    auto credited = mock->call(boost::beast::http::verb::post, "/__mock/accounts", {}, &body);
    if (!credited)
        return credited.error();
    return {};
}

/// The wallet's CLOB credentials: created with an L1 (ClobAuth) request signed by `key`
/// (gamma.md §4.1), or derived again when they exist already.
gateway::result<sg::credentials> clob_credentials(std::string const& clob_url,
                                                  gateway::sign::private_key const& key) {
    auto clob = upstream_client(clob_url);
    if (!clob)
        return clob.error();
    auto const now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    std::string const ts = std::to_string(now);
    std::vector<std::pair<std::string, std::string>> const l1{
        {std::string(w::l1_address_header), gateway::sign::address_of(key).str()},
        {std::string(w::l1_signature_header), sg::sign_clob_auth(key, ts, 0)},
        {std::string(w::l1_timestamp_header), ts},
        {std::string(w::l1_nonce_header), "0"}};
    auto made = clob->call(boost::beast::http::verb::post, std::string(w::create_api_key_path), {},
                           nullptr, l1);
    if (!made)
        made = clob->call(boost::beast::http::verb::get, std::string(w::derive_api_key_path), {},
                          nullptr, l1);
    if (!made)
        return made.error();
    auto const* o = made->if_object();
    auto text = [&](char const* k) -> std::string {
        auto const* v = o ? o->if_contains(k) : nullptr;
        return v && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    if (text("apiKey").empty() || text("secret").empty() || text("passphrase").empty())
        return gateway::make_error(gateway::errc::transport_error, "the CLOB sent no credentials");
    return sg::credentials(text("apiKey"), text("secret"), text("passphrase"));
}

/// An active outcome token with a two-sided book.
gateway::result<std::pair<std::string, gateway::orderbook>> pick_token(gateway::client const& gw) {
    gateway::markets_params p;
    p.status = gateway::market_status::active;
    p.limit = 20;
    auto markets = gw.prediction_markets("gamma", p);
    if (!markets)
        return markets.error();
    for (auto const& m : *markets)
        for (auto const& t : m.tokens) {
            auto book = gw.token_orderbook("gamma", t.token_id);
            if (book && !book->bids.empty() && !book->asks.empty())
                return std::pair{t.token_id, std::move(*book)};
        }
    return gateway::make_error(gateway::errc::market_not_found, "no active token with a book");
}

std::optional<std::string> env(char const* name) {
    char const* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: gamma_trading API_KEY [BASE_URL]\n";
        return 1;
    }
    gateway::client_options options;
    options.api_key = argv[1];
    if (argc > 2)
        options.base_url = argv[2];
    auto gw = gateway::client::create(options);
    if (!gw)
        return fail("client", gw.error());

    // The wallet's key.
    auto const env_key = env("GATEWAY_WALLET_KEY");
    auto key = env_key ? gateway::sign::private_key::from_hex(*env_key)
                       : gateway::sign::private_key::generate();
    if (!key)
        return fail("key", key.error());
    sg::signer signer(*key);
    std::string const wallet = signer.address().str();
    std::cout << "wallet " << wallet << "\n";

    // Where gamma's upstreams are (the provider detail), then the CLOB credentials.
    auto gamma = gw->provider("gamma");
    if (!gamma)
        return fail("provider", gamma.error());
    if (gamma->vertical_details.empty() || !gamma->vertical_details.front().clob_base_url)
        return fail("provider", gateway::make_error(gateway::errc::not_found, "no CLOB address"));
    auto const& upstream = gamma->vertical_details.front();
    if (!env_key)
        if (auto funded = fund_on_mock(upstream.base_url, wallet); !funded)
            return fail("fund on the mock", funded.error());
    auto const env_api_key = env("GATEWAY_CLOB_API_KEY");
    auto creds = env_api_key ? gateway::result<sg::credentials>(sg::credentials(
                                   *env_api_key, env("GATEWAY_CLOB_SECRET").value_or(""),
                                   env("GATEWAY_CLOB_PASSPHRASE").value_or("")))
                             : clob_credentials(*upstream.clob_base_url, *key);
    if (!creds)
        return fail("CLOB credentials", creds.error());
    std::cout << "credentials ready\n";

    auto token = pick_token(*gw);
    if (!token)
        return fail("token", token.error());
    auto const& [token_id, book] = *token;
    std::cout << "token " << token_id << " bid " << book.bids.front().price.str() << " ask "
              << book.asks.front().price.str() << "\n";

    // Place: build the order, sign it (the gateway looks up the token's tick size and exchange
    // and picks the salt; the SDK checks and signs), send it. A BUY a few levels under the best
    // bid rests (the market moves meanwhile: not at the touch).
    gateway::gamma_order_request order;
    order.token_id = token_id;
    order.side = gateway::side::buy;
    order.size = gateway::decimal::parse("10").value();
    order.price = book.bids.at(std::min<std::size_t>(2, book.bids.size() - 1)).price;
    if (auto ok = gw->sign_prediction_order("gamma", order, signer); !ok)
        return fail("sign", ok.error());
    auto placed = gw->place_prediction_order("gamma", order, *creds);
    if (!placed)
        return fail("place", placed.error());
    std::cout << "placed " << placed->order_id << " " << to_string(placed->status) << " at "
              << order.price.str() << "\n";

    // List.
    auto open = gw->prediction_open_orders("gamma", wallet, *creds);
    if (!open)
        return fail("open orders", open.error());
    for (auto const& o : *open)
        std::cout << "open " << o.order_id << " " << to_string(o.side) << " " << o.size.str()
                  << " @ " << (o.price ? o.price->str() : "-") << "\n";

    // Cancel.
    gateway::gamma_cancel_request cancel;
    cancel.order_id = placed->order_id;
    cancel.wallet = signer.address();
    auto canceled = gw->cancel_prediction_order("gamma", cancel, *creds);
    if (!canceled)
        return fail("cancel", canceled.error());
    std::cout << "canceled " << canceled->order_id << " " << to_string(canceled->status) << "\n";

    // A FOK BUY up to a few levels over the best ask: filled whole at once (at the asks'
    // prices), or refused.
    gateway::gamma_order_request take;
    take.token_id = token_id;
    take.side = gateway::side::buy;
    take.size = gateway::decimal::parse("5").value();
    take.price = book.asks.at(std::min<std::size_t>(2, book.asks.size() - 1)).price;
    take.time_in_force = gateway::prediction_time_in_force::fok;
    if (auto ok = gw->sign_prediction_order("gamma", take, signer); !ok)
        return fail("sign", ok.error());
    auto bought = gw->place_prediction_order("gamma", take, *creds);
    if (!bought)
        return fail("FOK order", bought.error());
    std::cout << "bought " << bought->filled_size.str() << " at "
              << (bought->average_price ? bought->average_price->str() : "-") << "\n";
    auto fills = gw->prediction_fills("gamma", wallet, *creds);
    if (!fills)
        return fail("fills", fills.error());
    for (auto const& f : *fills)
        std::cout << "fill " << f.order_id << " " << to_string(f.side) << " " << f.size.str()
                  << " @ " << f.price.str() << " " << to_string(f.liquidity) << "\n";
    return 0;
}
