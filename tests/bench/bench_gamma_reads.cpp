// Benchmark (not a test): the latency the gateway adds to gamma's reads over calling mock-gamma
// directly, measured as bench_beta_reads does for beta, and the upstream calls one
// `events?limit=100` costs. Both sides use one keep-alive connection and the same HTTP client;
// requests are sequential, so the numbers are per-request latencies, not throughput.
//
//   build/tests/bench_gamma_reads [requests]
//
// A gamma read is several upstream requests (catalog, then one midpoints batch per 500 live
// tokens), so the direct side of a pair is the same sequence of requests a client would make
// itself, timed as one. Pairs measured uncached (gateway cache disabled, so every gateway
// request makes its upstream calls), gateway path first, then the direct sequence:
// - orderbook: GET /v1/predictions/gamma/tokens/{t}/orderbook; GET /clob/book?token_id={t}
// - market: GET /v1/predictions/gamma/markets/516701; GET /markets/516701 +
//   POST /clob/midpoints (2 tokens)
// - event: GET /v1/predictions/gamma/events/16085; GET /events/16085 + POST /clob/midpoints
//   (6 tokens)
// - events 100: GET /v1/predictions/gamma/events?limit=100; GET /events?closed=false&limit=100
//   &offset=0 (91 events) + GET /events?closed=true&limit=9&offset=0 + POST /clob/midpoints
//   (twice: 506 live tokens, at most 500 a batch), the requests the gateway makes
// and cached, with the default cache (500 ms):
// - events 100 cached: GET /v1/predictions/gamma/events?limit=100; the same direct sequence.
// Prints p50 / p99 in microseconds and the added latency (gateway - direct) at each, then the
// upstream calls of one events?limit=100, cold and warm, from mock-gamma's /__mock/stats.
#include "bench/bench_common.hpp"
#include "support/fetch.hpp"
#include "support/test_gateway.hpp"

#include <gateway/providers/gamma/requests.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

namespace gateway_bench::gamma_reads {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
namespace w = gateway::wire::gamma;

http_request post_midpoints(std::vector<std::string> const& tokens) {
    return post_json("/clob" + std::string(w::midpoints_path), w::token_batch(tokens));
}

/// The gateway configured for a benchmark: no budget in the way, the mock's own limits off.
gateway::test::test_gateway make_gateway(bool cache) {
    return gateway::test::test_gateway(
        [&](gateway::server::server_config& cfg) {
            if (!cache)
                cfg.market_cache_ttl = std::chrono::milliseconds(0);
            cfg.providers["gamma"].options["catalogBudget"] = "1000000";
            cfg.providers["gamma"].options["clobBudget"] = "1000000";
        },
        [](gateway::mocks::mock_options& m) {
            m.rate_limits = false; // 4000 catalog requests per 10 s would stop a benchmark
        });
}

std::vector<std::string> json_in_string(json::value const& v) {
    auto const parsed = json::parse(v.as_string());
    auto const& items = parsed.as_array();
    std::vector<std::string> out(items.size());
    std::transform(items.begin(), items.end(), out.begin(),
                   [](json::value const& t) { return std::string(t.as_string()); });
    return out;
}

/// The live tokens of catalog `body` (an event, or a page of them, or a market), as the
/// gateway asks them: open markets with a book.
void live_tokens(json::value const& v, std::vector<std::string>& out) {
    if (auto const* a = v.if_array()) {
        for (auto const& x : *a)
            live_tokens(x, out);
        return;
    }
    auto const& o = v.as_object();
    if (auto const* ms = o.if_contains("markets")) {
        live_tokens(*ms, out);
        return;
    }
    if (!o.at("closed").as_bool() && o.at("enableOrderBook").as_bool()) {
        auto tokens = json_in_string(o.at("clobTokenIds"));
        out.insert(out.end(), std::make_move_iterator(tokens.begin()),
                   std::make_move_iterator(tokens.end()));
    }
}

/// `tokens` as the batches the gateway sends (at most `w::max_batch` each).
std::vector<http_request> midpoint_batches(std::vector<std::string> const& tokens) {
    std::vector<http_request> out;
    for (std::size_t i = 0; i < tokens.size(); i += w::max_batch)
        out.push_back(post_midpoints(std::vector<std::string>(
            tokens.begin() + static_cast<std::ptrdiff_t>(i),
            tokens.begin() +
                static_cast<std::ptrdiff_t>(std::min(tokens.size(), i + w::max_batch)))));
    return out;
}

json::value fetch_json(std::string const& url) {
    return json::parse(gateway::test::fetch(http::verb::get, url).body);
}

/// The upstream calls mock-gamma saw, by kind, without the gateway's health probe (`GET /` on
/// the CLOB, which runs on its own schedule).
std::string stats_line(gateway::mocks::mock_server const& m) {
    auto const s =
        json::parse(gateway::test::fetch(http::verb::get, m.base_url() + "/__mock/stats").body);
    std::int64_t total = 0;
    std::string kinds;
    for (auto const& kv : s.at("byKind").as_object()) {
        if (kv.key() == "GET /clob/")
            continue;
        auto const n = kv.value().to_number<std::int64_t>();
        total += n;
        kinds += (kinds.empty() ? "" : ", ") + std::string(kv.key()) + " " + std::to_string(n);
    }
    return std::to_string(total) + " upstream calls" + (kinds.empty() ? "" : " (" + kinds + ")");
}

} // namespace

int run(int argc, char** argv) {
    int const n = argc > 1 ? std::atoi(argv[1]) : 2000;
    std::string const events_100 = "/v1/predictions/gamma/events?limit=100";
    // The catalog requests the gateway makes for it: the open events (91 of them), then as many
    // closed ones as the page still needs.
    auto const page_open = w::target(w::events_path, w::catalog_page(false, 100, 0));
    std::string page_closed;
    {
        auto gw = make_gateway(false);
        auto const api_key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
        std::string const mock = gw.gamma->base_url();
        auto const open_events = fetch_json(mock + page_open).as_array().size();
        page_closed = w::target(w::events_path, w::catalog_page(true, 100 - open_events, 0));
        auto const market = fetch_json(mock + "/markets/516701");
        auto const token = json_in_string(market.at("clobTokenIds")).at(0);
        std::vector<std::string> market_tokens, event_tokens, page_tokens;
        live_tokens(market, market_tokens);
        live_tokens(fetch_json(mock + w::event_path("16085")), event_tokens);
        live_tokens(fetch_json(mock + page_open), page_tokens);
        live_tokens(fetch_json(mock + page_closed), page_tokens);

        auto direct = measure(
            mock, n, [&] { return get("/clob" + w::target(w::book_path, w::token_query(token))); });
        auto via = measure(gw.base_url, n, [&] {
            return get("/v1/predictions/gamma/tokens/" + token + "/orderbook", api_key);
        });
        report("orderbook", direct, via);

        direct = measure_sequences(mock, n, [&] {
            return std::vector<http_request>{get(w::market_path("516701")),
                                             post_midpoints(market_tokens)};
        });
        via = measure(gw.base_url, n,
                      [&] { return get("/v1/predictions/gamma/markets/516701", api_key); });
        report("market", direct, via);

        direct = measure_sequences(mock, n, [&] {
            return std::vector<http_request>{get(w::event_path("16085")),
                                             post_midpoints(event_tokens)};
        });
        via = measure(gw.base_url, n,
                      [&] { return get("/v1/predictions/gamma/events/16085", api_key); });
        report("event", direct, via);

        int const n_list = std::max(1, n / 10); // a 100-event page is ~100x a book
        auto list_direct = [&] {
            std::vector<http_request> seq{get(page_open), get(page_closed)};
            auto batches = midpoint_batches(page_tokens);
            seq.insert(seq.end(), std::make_move_iterator(batches.begin()),
                       std::make_move_iterator(batches.end()));
            return seq;
        };
        direct = measure_sequences(mock, n_list, list_direct);
        via = measure(gw.base_url, n_list, [&] { return get(events_100, api_key); });
        report("events 100", direct, via);
    }
    {
        auto gw = make_gateway(true); // default cache
        auto const api_key = gw.create_key(gateway::server::auth::key_env::live, 1e6);
        std::string const mock = gw.gamma->base_url();

        // Upstream calls of one events?limit=100, cold then warm (within the cache's 500 ms).
        gateway::test::fetch(http::verb::delete_, mock + "/__mock/stats");
        auto const cold = gateway::test::fetch(http::verb::get, gw.base_url + events_100, {},
                                               {{"X-API-Key", api_key}});
        std::string const after_cold = stats_line(*gw.gamma);
        gateway::test::fetch(http::verb::delete_, mock + "/__mock/stats");
        auto const warm = gateway::test::fetch(http::verb::get, gw.base_url + events_100, {},
                                               {{"X-API-Key", api_key}});
        std::string const after_warm = stats_line(*gw.gamma);
        std::printf("events?limit=100 cold (HTTP %u, %zu bytes): %s\n", cold.status,
                    cold.body.size(), after_cold.c_str());
        std::printf("events?limit=100 warm (HTTP %u): %s\n", warm.status, after_warm.c_str());

        std::vector<std::string> page_tokens;
        live_tokens(fetch_json(mock + page_open), page_tokens);
        live_tokens(fetch_json(mock + page_closed), page_tokens);
        int const n_list = std::max(1, n / 10);
        auto direct = measure_sequences(mock, n_list, [&] {
            std::vector<http_request> seq{get(page_open), get(page_closed)};
            auto batches = midpoint_batches(page_tokens);
            seq.insert(seq.end(), std::make_move_iterator(batches.begin()),
                       std::make_move_iterator(batches.end()));
            return seq;
        });
        auto via = measure(gw.base_url, n_list, [&] { return get(events_100, api_key); });
        report("events 100 cached", direct, via);
    }
    return 0;
}

} // namespace gateway_bench::gamma_reads
