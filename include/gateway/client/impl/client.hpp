#pragma once

#include <gateway/providers/gamma/orders.hpp>
#include <gateway/providers/gamma/signing.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <exception>
#include <mutex>

namespace gateway {

struct client::state {
    explicit state(client_options o, net::url u)
        : options(std::move(o))
        , base(std::move(u))
        , http(ioc.get_executor(), options.tls) {}
    client_options options;
    net::url base;
    boost::asio::io_context ioc;
    net::http_client http;
    std::mutex m; // one call at a time drives `ioc`
};

GATEWAY_IO_DECL result<client> client::create(client_options options) {
    auto u = net::url::parse(options.base_url);
    if (!u || (u->scheme != "http" && u->scheme != "https"))
        return field_error("base_url", "'base_url' must be an http:// or https:// URL.");
    return client(std::make_shared<state>(std::move(options), std::move(*u)));
}

GATEWAY_IO_DECL std::string client::encode_segment(std::string_view segment) {
    return util::percent_encode(segment, ":@"); // `xyz:TSLA` stays readable
}

GATEWAY_IO_DECL result<boost::json::value>
client::call(boost::beast::http::verb method, std::string path, query_params const& query,
             boost::json::value const* body,
             std::vector<std::pair<std::string, std::string>> const& headers) const {
    namespace http = boost::beast::http;
    net::http_request req{method, path + util::encode_query(query, ":@"), 11};
    req.set(http::field::accept, "application/json");
    req.set(http::field::user_agent, "gateway-sdk-cpp/0.1");
    if (s_->options.api_key)
        req.set("X-API-Key", *s_->options.api_key);
    for (auto const& [name, value] : headers)
        req.set(name, value);
    if (body) {
        req.set(http::field::content_type, "application/json");
        req.body() = boost::json::serialize(*body);
    }
    net::fetch_options opt;
    opt.timeout = s_->options.timeout;
    opt.idempotent = method == http::verb::get;

    boost::system::result<net::http_response, net::fetch_error> answer = net::fetch_error{};
    {
        std::lock_guard lock(s_->m);
        s_->ioc.restart();
        std::exception_ptr failure;
        boost::asio::co_spawn(
            s_->ioc,
            [&]() -> boost::asio::awaitable<void> {
                answer = co_await s_->http.async_request(s_->base, std::move(req), opt);
            },
            [&](std::exception_ptr e) { failure = e; });
        s_->ioc.run();
        if (failure)
            std::rethrow_exception(failure); // std::bad_alloc and the like: not a call result
    }
    if (!answer) {
        api_error e = make_error(errc::transport_error, answer.error().message);
        e.status = 0;
        return e;
    }
    unsigned const status = answer->result_int();
    boost::system::error_code ec;
    boost::json::value parsed = boost::json::parse(answer->body(), ec);
    if (status >= 200 && status < 300) {
        if (ec) {
            api_error e =
                make_error(errc::transport_error, "The server answered " + std::to_string(status) +
                                                      " with a body that is not JSON.");
            e.status = status;
            return e;
        }
        return parsed;
    }
    api_error e = error_from_json(ec ? boost::json::value{} : parsed, status);
    if (auto it = answer->find(http::field::retry_after); it != answer->end())
        e.retry_after =
            static_cast<unsigned>(std::strtoul(std::string(it->value()).c_str(), nullptr, 10));
    return e;
}

namespace detail {
/// A 2xx body read as `T`; an answer that is not the contract's shape is a transport error.
template <class T, class Parse>
result<T> read_answer(result<boost::json::value> body, Parse parse) {
    if (!body)
        return body.error();
    auto typed = parse(*body, strictness::upstream);
    if (!typed) {
        api_error e = typed.error();
        e.code = errc::transport_error;
        e.wire_code_text = "TRANSPORT_ERROR";
        e.message = "The server's answer does not match the contract: " + e.message;
        return e;
    }
    return std::move(*typed);
}
} // namespace detail

template <class T, class Parse>
result<T> client::get_as(std::string path, query_params const& query, Parse parse) const {
    return detail::read_answer<T>(call(boost::beast::http::verb::get, std::move(path), query),
                                  parse);
}

template <class T, class Parse>
result<T> client::send_as(boost::beast::http::verb method, std::string path,
                          boost::json::value const& request, Parse parse) const {
    return detail::read_answer<T>(call(method, std::move(path), {}, &request), parse);
}

template <class T, class Parse>
result<std::vector<T>> client::get_list(std::string path, query_params const& query, Parse parse,
                                        std::string_view what) const {
    return get_as<std::vector<T>>(
        std::move(path), query,
        [&](boost::json::value const& v, strictness m) { return parse_list(v, m, parse, what); });
}

GATEWAY_IO_DECL result<std::string> client::address_segment(std::string_view address) {
    auto a = gateway::address::parse(address, "address");
    if (!a)
        return a.error();
    return a->str();
}

GATEWAY_IO_DECL result<account_summary> client::account(std::string_view provider,
                                                        std::string_view address) const {
    auto a = address_segment(address);
    if (!a)
        return a.error();
    return get_as<account_summary>(
        vertical_path("/perps/" + encode_segment(provider) + "/account/" + *a), {},
        [](auto const& v, strictness m) { return parse_account_summary(v, m); });
}

GATEWAY_IO_DECL result<std::vector<position>> client::positions(std::string_view provider,
                                                                std::string_view address) const {
    auto a = address_segment(address);
    if (!a)
        return a.error();
    return get_list<position>(
        vertical_path("/perps/" + encode_segment(provider) + "/account/" + *a + "/positions"), {},
        [](auto const& v, strictness m) { return parse_position(v, m); }, "positions");
}

GATEWAY_IO_DECL result<std::vector<open_order>>
client::open_orders(std::string_view provider, std::string_view address) const {
    auto a = address_segment(address);
    if (!a)
        return a.error();
    return get_list<open_order>(
        vertical_path("/perps/" + encode_segment(provider) + "/account/" + *a + "/orders"), {},
        [](auto const& v, strictness m) { return parse_open_order(v, m); }, "orders");
}

GATEWAY_IO_DECL result<std::vector<fill>> client::fills(std::string_view provider,
                                                        std::string_view address,
                                                        fills_params const& params) const {
    auto a = address_segment(address);
    if (!a)
        return a.error();
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_list<fill>(
        vertical_path("/perps/" + encode_segment(provider) + "/account/" + *a + "/fills"),
        params.to_query(), [](auto const& v, strictness m) { return parse_fill(v, m); }, "fills");
}

GATEWAY_IO_DECL result<std::vector<trade>> client::trades(std::string_view provider,
                                                          std::string_view symbol,
                                                          trades_params const& params) const {
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_list<trade>(
        vertical_path("/perps/" + encode_segment(provider) + "/markets/" + encode_segment(symbol) +
                      "/trades"),
        params.to_query(), [](auto const& v, strictness m) { return parse_trade(v, m); }, "trades");
}

GATEWAY_IO_DECL result<std::vector<candle>> client::candles(std::string_view provider,
                                                            std::string_view symbol,
                                                            candles_params const& params) const {
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_list<candle>(
        vertical_path("/perps/" + encode_segment(provider) + "/markets/" + encode_segment(symbol) +
                      "/candles"),
        params.to_query(), [](auto const& v, strictness m) { return parse_candle(v, m); },
        "candles");
}

GATEWAY_IO_DECL result<orderbook> client::orderbook(std::string_view provider,
                                                    std::string_view symbol,
                                                    orderbook_params const& params) const {
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_as<gateway::orderbook>(
        vertical_path("/perps/" + encode_segment(provider) + "/markets/" + encode_segment(symbol) +
                      "/orderbook"),
        params.to_query(), [](auto const& v, strictness m) { return parse_orderbook(v, m); });
}

GATEWAY_IO_DECL result<std::vector<spot_balance>>
client::spot_balances(std::string_view provider, std::string_view address) const {
    auto a = address_segment(address);
    if (!a)
        return a.error();
    return get_list<spot_balance>(
        vertical_path("/spot/" + encode_segment(provider) + "/balances/" + *a), {},
        [](auto const& v, strictness m) { return parse_spot_balance(v, m); }, "balances");
}

GATEWAY_IO_DECL result<price_map> client::spot_prices(std::string_view provider) const {
    return get_as<price_map>(vertical_path("/spot/" + encode_segment(provider) + "/prices"), {},
                             [](auto const& v, strictness m) { return parse_prices(v, m); });
}

GATEWAY_IO_DECL result<std::vector<dex_market>>
client::rwas_markets(std::string_view provider) const {
    return get_list<dex_market>(
        vertical_path("/rwas/" + encode_segment(provider) + "/markets"), {},
        [](auto const& v, strictness m) { return parse_dex_market(v, m); }, "markets");
}

GATEWAY_IO_DECL result<std::vector<dex>> client::dexes(std::string_view provider) const {
    return get_list<gateway::dex>(
        vertical_path("/rwas/" + encode_segment(provider) + "/dexes"), {},
        [](auto const& v, strictness m) { return parse_dex(v, m); }, "dexes");
}

GATEWAY_IO_DECL result<dex_detail> client::dex(std::string_view provider,
                                               std::string_view name) const {
    return get_as<dex_detail>(
        vertical_path("/rwas/" + encode_segment(provider) + "/dexes/" + encode_segment(name)), {},
        [](auto const& v, strictness m) { return parse_dex_detail(v, m); });
}

GATEWAY_IO_DECL result<gateway::dex_status> client::dex_status(std::string_view provider,
                                                               std::string_view name) const {
    return get_as<gateway::dex_status>(
        vertical_path("/rwas/" + encode_segment(provider) + "/dexes/" + encode_segment(name) +
                      "/status"),
        {}, [](auto const& v, strictness m) { return parse_dex_status(v, m); });
}

namespace detail {
/// A non-empty path id (`field` names it), percent-encoded as one segment.
inline result<std::string> id_segment(std::string_view id, std::string_view field) {
    if (id.empty())
        return field_error(field, "'" + std::string(field) + "' must not be empty.");
    return client::encode_segment(id);
}
} // namespace detail

GATEWAY_IO_DECL result<std::vector<prediction_event>>
client::events(std::string_view provider, events_params const& params) const {
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_list<prediction_event>(
        vertical_path("/predictions/" + encode_segment(provider) + "/events"), params.to_query(),
        [](auto const& v, strictness m) { return parse_prediction_event(v, m); }, "events");
}

GATEWAY_IO_DECL result<prediction_event_detail> client::event(std::string_view provider,
                                                              std::string_view event_id) const {
    auto id = detail::id_segment(event_id, "eventId");
    if (!id)
        return id.error();
    return get_as<prediction_event_detail>(
        vertical_path("/predictions/" + encode_segment(provider) + "/events/" + *id), {},
        [](auto const& v, strictness m) { return parse_prediction_event_detail(v, m); });
}

GATEWAY_IO_DECL result<std::vector<prediction_market>>
client::prediction_markets(std::string_view provider, markets_params const& params) const {
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_list<gateway::prediction_market>(
        vertical_path("/predictions/" + encode_segment(provider) + "/markets"), params.to_query(),
        [](auto const& v, strictness m) { return parse_prediction_market(v, m); }, "markets");
}

GATEWAY_IO_DECL result<prediction_market>
client::prediction_market(std::string_view provider, std::string_view market_id) const {
    auto id = detail::id_segment(market_id, "marketId");
    if (!id)
        return id.error();
    return get_as<gateway::prediction_market>(
        vertical_path("/predictions/" + encode_segment(provider) + "/markets/" + *id), {},
        [](auto const& v, strictness m) { return parse_prediction_market(v, m); });
}

GATEWAY_IO_DECL result<orderbook> client::token_orderbook(std::string_view provider,
                                                          std::string_view token_id,
                                                          orderbook_params const& params) const {
    auto id = detail::id_segment(token_id, "tokenId");
    if (!id)
        return id.error();
    if (auto ok = validate(params); !ok)
        return ok.error();
    return get_as<gateway::orderbook>(
        vertical_path("/predictions/" + encode_segment(provider) + "/tokens/" + *id + "/orderbook"),
        params.to_query(), [](auto const& v, strictness m) { return parse_orderbook(v, m); });
}

GATEWAY_IO_DECL result<std::vector<market_info>> client::markets(vertical v,
                                                                 std::string_view provider) const {
    return get_list<market_info>(vertical_path("/" + std::string(to_string(v)) + "/" +
                                               encode_segment(provider) + "/markets"),
                                 {}, &parse_market_info, "markets");
}

namespace detail {
/// `/{vertical}/{provider}/{leaf}` of a write.
inline std::string write_path(std::string_view vertical, std::string_view provider,
                              std::string_view leaf) {
    return "/" + std::string(vertical) + "/" + client::encode_segment(provider) + "/" +
           std::string(leaf);
}
} // namespace detail

template <class Result, class Request, class Parse>
result<Result> client::signed_write(boost::beast::http::verb method, std::string_view vertical,
                                    std::string_view provider, std::string_view leaf,
                                    Request const& r, Parse parse) const {
    if (auto ok = validate(r); !ok)
        return ok.error();
    return send_as<Result>(method, vertical_path(detail::write_path(vertical, provider, leaf)),
                           boost::json::value_from(r), parse);
}

GATEWAY_IO_DECL result<place_result> client::place_order(std::string_view provider,
                                                         place_order_request const& r) const {
    return signed_write<place_result>(boost::beast::http::verb::post, "perps", provider, "orders",
                                      r, &parse_place_result);
}

GATEWAY_IO_DECL result<place_result> client::place_spot_order(std::string_view provider,
                                                              spot_order_request const& r) const {
    return signed_write<place_result>(boost::beast::http::verb::post, "spot", provider, "orders", r,
                                      &parse_place_result);
}

GATEWAY_IO_DECL result<cancel_result> client::cancel_order(std::string_view provider,
                                                           cancel_order_request const& r) const {
    return signed_write<cancel_result>(boost::beast::http::verb::delete_, "perps", provider,
                                       "orders", r, &parse_cancel_result);
}

GATEWAY_IO_DECL result<cancel_result>
client::cancel_spot_order(std::string_view provider, cancel_order_request const& r) const {
    return signed_write<cancel_result>(boost::beast::http::verb::delete_, "spot", provider,
                                       "orders", r, &parse_cancel_result);
}

GATEWAY_IO_DECL result<leverage_result> client::set_leverage(std::string_view provider,
                                                             set_leverage_request const& r) const {
    return signed_write<leverage_result>(boost::beast::http::verb::post, "perps", provider,
                                         "leverage", r, &parse_leverage_result);
}

GATEWAY_IO_DECL result<typed_data_response>
client::typed_data(vertical v, std::string_view provider, typed_data_request const& r) const {
    return send_as<typed_data_response>(
        boost::beast::http::verb::post,
        vertical_path(detail::write_path(to_string(v), provider, "typed-data")),
        boost::json::value_from(r), &parse_typed_data_response);
}

namespace detail {
/// A gamma order body with `credentials` in it, as the gateway reads it.
inline boost::json::object prediction_order_body(gamma_order_request const& r,
                                                 sign::gamma::credentials const& credentials) {
    auto body = boost::json::value_from(r).as_object();
    body["apiKey"] = credentials.api_key();
    body["apiSecret"] = credentials.secret();
    body["passphrase"] = credentials.passphrase();
    return body;
}

/// Checks `body` with the server's own code: `parse` (inbound) then `validate`.
template <class Parse>
result<void> check_like_server(boost::json::value const& body, Parse parse) {
    auto r = parse(body, strictness::inbound);
    if (!r)
        return r.error();
    return validate(*r);
}
} // namespace detail

GATEWAY_IO_DECL result<place_result>
client::place_prediction_order(std::string_view provider, gamma_order_request const& r,
                               sign::gamma::credentials const& credentials) const {
    boost::json::value const body = detail::prediction_order_body(r, credentials);
    if (auto ok = detail::check_like_server(body, &parse_gamma_order_request); !ok)
        return ok.error();
    return send_as<place_result>(
        boost::beast::http::verb::post,
        vertical_path(detail::write_path("predictions", provider, "orders")), body,
        &parse_place_result);
}

GATEWAY_IO_DECL result<cancel_result>
client::cancel_prediction_order(std::string_view provider, gamma_cancel_request const& r,
                                sign::gamma::credentials const& credentials) const {
    auto o = boost::json::value_from(r).as_object();
    o["apiKey"] = credentials.api_key();
    o["apiSecret"] = credentials.secret();
    o["passphrase"] = credentials.passphrase();
    boost::json::value const body = std::move(o);
    if (auto ok = detail::check_like_server(body, &parse_gamma_cancel_request); !ok)
        return ok.error();
    return send_as<cancel_result>(
        boost::beast::http::verb::delete_,
        vertical_path(detail::write_path("predictions", provider, "orders")), body,
        &parse_cancel_result);
}

GATEWAY_IO_DECL result<typed_data_response>
client::prediction_typed_data(std::string_view provider, gamma_order_request const& params) const {
    if (auto ok = validate(params, body_kind::typed_data_params); !ok)
        return ok.error();
    typed_data_request req;
    req.operation = typed_data_operation::place_order;
    req.params = boost::json::value_from(params).as_object();
    for (auto const* key : {"signature", "apiKey", "apiSecret", "passphrase"})
        req.params.erase(key);
    return send_as<typed_data_response>(
        boost::beast::http::verb::post,
        vertical_path(detail::write_path("predictions", provider, "typed-data")),
        boost::json::value_from(req), &parse_typed_data_response);
}

GATEWAY_IO_DECL result<void>
client::sign_prediction_order(std::string_view provider, gamma_order_request& r,
                              sign::gamma::signer const& signer) const {
    namespace sg = sign::gamma;
    auto const refuse = [](std::string const& why) {
        api_error e =
            make_error(errc::transport_error, "The gateway's typed data " + why + ": not signed.");
        e.status = 0;
        return e;
    };
    gamma_order_request ask = r; // without its credentials: typed-data never sees them
    ask.api_key.clear();
    ask.api_secret.clear();
    ask.passphrase.clear();
    ask.signature.clear();
    if (ask.wallet.is_zero())
        ask.wallet = signer.address();
    if (ask.wallet != signer.address())
        return field_error("wallet", "'wallet' " + ask.wallet.str() + " is not the key's address " +
                                         signer.address().str() + ".");
    auto td = prediction_typed_data(provider, ask);
    if (!td)
        return td.error();
    auto const* salt = td->params.if_contains("salt");
    if (salt && salt->is_uint64())
        ask.salt = salt->get_uint64();
    else if (salt && salt->is_int64() && salt->get_int64() > 0)
        ask.salt = static_cast<std::uint64_t>(salt->get_int64());
    else
        return refuse("carries no salt");
    auto const* domain = td->typed_data.if_contains("domain");
    auto const* contract = domain && domain->is_object()
                               ? domain->as_object().if_contains("verifyingContract")
                               : nullptr;
    auto const exchange = contract && contract->is_string()
                              ? gateway::address::parse(contract->get_string(), "verifyingContract")
                              : result<gateway::address>(field_error("verifyingContract", "-"));
    if (!exchange || (*exchange != sg::ctf_exchange() && *exchange != sg::neg_risk_ctf_exchange()))
        return refuse("names no CTF Exchange");
    // The amounts do not depend on the tick (gamma.md 5.2's exact formula): the finest tick
    // admits any price the gateway accepted, which the gateway checked against the real one.
    sg::token_rules const rules{decimal::from_scaled(1, 4),
                                *exchange == sg::neg_risk_ctf_exchange(), decimal()};
    auto order = sg::order_of(ask, rules);
    if (!order)
        return order.error();
    if (sg::order_typed_data(*order, *exchange) != boost::json::value(td->typed_data))
        return refuse("is not this order's");
    if (auto ok = signer.sign(ask, rules); !ok)
        return ok.error();
    r.salt = ask.salt;
    r.wallet = ask.wallet;
    r.signature = std::move(ask.signature);
    return {};
}

namespace detail {
/// The `X-Gamma-*` headers of a credentialed read (CONTRACT §4).
inline std::vector<std::pair<std::string, std::string>>
credential_headers(sign::gamma::credentials const& c) {
    return {{"X-Gamma-Api-Key", std::string(c.api_key())},
            {"X-Gamma-Api-Secret", std::string(c.secret())},
            {"X-Gamma-Passphrase", std::string(c.passphrase())}};
}
} // namespace detail

GATEWAY_IO_DECL result<std::vector<open_order>>
client::prediction_open_orders(std::string_view provider, std::string_view wallet,
                               sign::gamma::credentials const& credentials) const {
    auto a = gateway::address::parse(wallet, "wallet");
    if (!a)
        return a.error();
    return detail::read_answer<std::vector<open_order>>(
        call(boost::beast::http::verb::get,
             vertical_path("/predictions/" + encode_segment(provider) + "/orders"),
             {{"wallet", a->str()}}, nullptr, detail::credential_headers(credentials)),
        [](boost::json::value const& v, strictness m) {
            return parse_list(v, m, &parse_open_order, "orders");
        });
}

GATEWAY_IO_DECL result<std::vector<fill>>
client::prediction_fills(std::string_view provider, std::string_view wallet,
                         sign::gamma::credentials const& credentials,
                         fills_params const& params) const {
    auto a = gateway::address::parse(wallet, "wallet");
    if (!a)
        return a.error();
    if (auto ok = validate(params); !ok)
        return ok.error();
    query_params q{{"wallet", a->str()}};
    for (auto& kv : params.to_query())
        q.push_back(std::move(kv));
    return detail::read_answer<std::vector<fill>>(
        call(boost::beast::http::verb::get,
             vertical_path("/predictions/" + encode_segment(provider) + "/fills"), q, nullptr,
             detail::credential_headers(credentials)),
        [](boost::json::value const& v, strictness m) {
            return parse_list(v, m, &parse_fill, "fills");
        });
}

GATEWAY_IO_DECL std::string client::vertical_path(std::string const& path) const {
    return (s_->options.testnet ? "/v1/testnet" : "/v1") + path;
}

GATEWAY_IO_DECL result<price_map> client::prices(std::string_view provider,
                                                 std::optional<std::string> const& dex) const {
    return get_as<price_map>(vertical_path("/perps/" + encode_segment(provider) + "/prices"),
                             prices_params{dex}.to_query(),
                             [](auto const& v, strictness m) { return parse_prices(v, m); });
}

GATEWAY_IO_DECL result<provider_list> client::providers() const {
    return get_as<provider_list>(
        "/v1/providers", {}, [](auto const& v, strictness m) { return parse_provider_list(v, m); });
}

GATEWAY_IO_DECL result<provider_detail> client::provider(std::string_view id) const {
    return get_as<provider_detail>(
        "/v1/providers/" + encode_segment(id), {},
        [](auto const& v, strictness m) { return parse_provider_detail(v, m); });
}

GATEWAY_IO_DECL result<aggregate_health> client::health() const {
    return get_as<aggregate_health>(
        "/v1/health", {}, [](auto const& v, strictness m) { return parse_aggregate_health(v, m); });
}

GATEWAY_IO_DECL result<provider_health> client::health(std::string_view provider) const {
    return get_as<provider_health>(
        "/v1/health/" + encode_segment(provider), {},
        [](auto const& v, strictness m) { return parse_provider_health(v, m); });
}

} // namespace gateway
