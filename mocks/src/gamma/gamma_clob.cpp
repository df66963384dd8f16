#include "gamma_clob.hpp"

#include "../common/format.hpp"
#include "../common/http_util.hpp"
#include "../common/json_out.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <set>

namespace gateway::mocks::gamma {

namespace {

namespace json = boost::json;
using boost::beast::http::status;
using boost::beast::http::verb;

constexpr std::string_view no_orderbook = "No orderbook exists for the requested token id";
constexpr std::string_view invalid_token = "Invalid token id";
constexpr std::string_view invalid_payload = "Invalid payload";

std::string sha1_hex(std::string const& data) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), md, &len, EVP_sha1(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < len; ++i) {
        out.push_back(hex[md[i] >> 4]);
        out.push_back(hex[md[i] & 0xf]);
    }
    return out;
}

bool token_text(std::string_view s) {
    return !s.empty() && s.size() <= 100 &&
           s.find_first_not_of("0123456789") == std::string_view::npos;
}

constexpr std::string_view b64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string b64_encode(std::string_view in) {
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        auto const n = (static_cast<unsigned>(static_cast<unsigned char>(in[i])) << 16) |
                       (static_cast<unsigned>(static_cast<unsigned char>(in[i + 1])) << 8) |
                       static_cast<unsigned>(static_cast<unsigned char>(in[i + 2]));
        out += b64_alphabet[(n >> 18) & 63];
        out += b64_alphabet[(n >> 12) & 63];
        out += b64_alphabet[(n >> 6) & 63];
        out += b64_alphabet[n & 63];
    }
    if (i < in.size()) {
        unsigned n = static_cast<unsigned>(static_cast<unsigned char>(in[i])) << 16;
        if (i + 1 < in.size())
            n |= static_cast<unsigned>(static_cast<unsigned char>(in[i + 1])) << 8;
        out += b64_alphabet[(n >> 18) & 63];
        out += b64_alphabet[(n >> 12) & 63];
        out += i + 1 < in.size() ? b64_alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::optional<std::string> b64_decode(std::string_view in) {
    if (in.empty() || in.size() % 4 != 0)
        return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 4) {
        unsigned n = 0;
        int pad = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            char const c = in[i + k];
            if (c == '=' && i + 4 == in.size() && k >= 2) {
                ++pad;
                n <<= 6;
                continue;
            }
            auto const pos = b64_alphabet.find(c);
            if (pos == std::string_view::npos || pad > 0)
                return std::nullopt;
            n = (n << 6) | static_cast<unsigned>(pos);
        }
        out += static_cast<char>((n >> 16) & 0xff);
        if (pad < 2)
            out += static_cast<char>((n >> 8) & 0xff);
        if (pad < 1)
            out += static_cast<char>(n & 0xff);
    }
    return out;
}

net::response ok(json::value const& body, unsigned v) {
    return json_response(status::ok, body, v);
}

net::response wrong_method(std::string_view allow, unsigned v) {
    auto res = clob_error(status::method_not_allowed, "method not allowed", v);
    res.set(boost::beast::http::field::allow, allow);
    return res;
}

/// A batch body: a JSON array of objects with a `token_id` of decimal digits (and, for
/// `/prices`, a `side`), at most max_batch of them. nullopt with `why` set otherwise.
struct batch_item {
    std::string token;
    std::string side;
};

std::optional<std::vector<batch_item>> parse_batch(std::string const& body, bool with_side,
                                                   std::string_view& why) {
    boost::system::error_code ec;
    auto const v = json::parse(body, ec);
    why = invalid_payload;
    if (ec || !v.is_array())
        return std::nullopt;
    auto const& a = v.get_array();
    if (a.size() > max_batch) {
        why = "Payload exceeds the limit";
        return std::nullopt;
    }
    std::vector<batch_item> out;
    for (auto const& x : a) {
        auto const* o = x.if_object();
        auto const* t = o ? o->if_contains("token_id") : nullptr;
        if (!t || !t->is_string() || !token_text(t->get_string()))
            return std::nullopt;
        batch_item item{std::string(t->get_string()), {}};
        if (with_side) {
            auto const* s = o->if_contains("side");
            if (!s || !s->is_string() || (s->get_string() != "BUY" && s->get_string() != "SELL"))
                return std::nullopt;
            item.side = std::string(s->get_string());
        }
        out.push_back(std::move(item));
    }
    return out;
}

} // namespace

std::string encode_cursor(std::size_t offset) {
    return b64_encode(std::to_string(offset));
}

std::optional<std::size_t> decode_cursor(std::string_view cursor, std::size_t end) {
    if (cursor == end_cursor)
        return end;
    auto const text = b64_decode(cursor);
    auto const n = text ? parse_uint(*text) : std::nullopt;
    if (!n)
        return std::nullopt;
    return static_cast<std::size_t>(std::min<std::uint64_t>(*n, end));
}

net::response clob_error(status st, std::string_view message, unsigned version) {
    json::object o;
    o["error"] = message;
    return json_response(st, o, version);
}

namespace {

/// The live numbers of one token with a book: the matching engine's book (house liquidity
/// and users' resting orders together) and the market state's tape.
class token_quotes {
public:
    token_quotes(catalog_view const& v, engine& e, token_ref const& t)
        : v_(v)
        , t_(t)
        , m_(v.data().markets[t.market])
        , b_(*e.book(m_.token_ids[t.outcome])) {}

    json::object book() const {
        auto const last = v_.state().trades(*t_.state, 1);
        // gamma.md §3.2: bids ascending and asks descending, so the best of each is last.
        auto side = [&](std::vector<level> const& levels) {
            json::array out;
            for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
                json::object l;
                l["price"] = micros_text(it->price);
                l["size"] = micros_text(it->size);
                out.push_back(std::move(l));
            }
            return out;
        };
        json::object o;
        o["market"] = m_.condition_id;
        o["asset_id"] = m_.token_ids[t_.outcome];
        o["timestamp"] = std::to_string(b_.time_ms);
        o["hash"] = "";
        o["bids"] = side(b_.bids);
        o["asks"] = side(b_.asks);
        o["min_order_size"] = micros_text(b_.token.min_size);
        o["tick_size"] = canonical(1, m_.px_scale);
        o["neg_risk"] = v_.data().events[m_.event].neg_risk;
        o["last_trade_price"] = last.empty() ? "" : fixed(last.back().px, m_.px_scale, 3);
        // py-clob-client recomputes the hash as SHA-1 of the compact body with hash "".
        o["hash"] = sha1_hex(to_json(o));
        return o;
    }

    /// BUY: the best bid; SELL: the best ask (gamma.md §3.4); "0" when that side is empty.
    std::string price(std::string_view side) const {
        auto const& levels = side == "BUY" ? b_.bids : b_.asks;
        return levels.empty() ? "0" : micros_text(levels.front().price);
    }

    std::string mid() const {
        if (b_.bids.empty() || b_.asks.empty())
            return canonical(v_.state().mark(*t_.state), m_.px_scale);
        // Prices have at most 4 decimals: half their sum is a whole number of micro units.
        return micros_text((b_.bids.front().price + b_.asks.front().price) / 2);
    }

    std::string spread() const {
        if (b_.bids.empty() || b_.asks.empty())
            return "0";
        return micros_text(b_.asks.front().price - b_.bids.front().price);
    }

    /// The last trade's price and taker side.
    std::pair<std::string, std::string> last_trade() const {
        auto const last = v_.state().trades(*t_.state, 1);
        if (last.empty())
            return {"0", "BUY"};
        return {canonical(last.back().px, m_.px_scale),
                last.back().buyer_is_taker ? "BUY" : "SELL"};
    }

private:
    catalog_view const& v_;
    token_ref t_;
    market_def const& m_;
    book_view b_;
};

/// The last trade of a token without a live book: the catalog's (closed and AMM markets).
std::pair<std::string, std::string> settled_last_trade(market_def const& m, unsigned outcome) {
    if (outcome == 0)
        return {m.last_trade, "BUY"};
    auto const d = decimal::parse_lenient(m.last_trade);
    auto const scaled = d ? d->to_scaled(3) : std::nullopt;
    return {scaled ? canonical(1000 - *scaled, 3) : m.last_trade, "BUY"};
}

} // namespace

std::optional<net::response> clob_api::handle(verb method, std::string_view path,
                                              query_params const& q, std::string const& body,
                                              unsigned v) {
    auto const require = [&](verb wanted, std::string_view allow) -> std::optional<net::response> {
        if (method != wanted)
            return wrong_method(allow, v);
        return std::nullopt;
    };
    // A token with a live book, or the error answer.
    auto const live = [&](std::optional<std::string> const& id)
        -> std::pair<std::optional<token_ref>, std::optional<net::response>> {
        if (!id || !token_text(*id))
            return {std::nullopt, clob_error(status::bad_request, invalid_token, v)};
        auto const t = view_.token(*id);
        if (!t || !t->state)
            return {std::nullopt, clob_error(status::not_found, no_orderbook, v)};
        return {t, std::nullopt};
    };
    // Any catalog token (tick size, neg risk, fee rate are known for closed markets too).
    auto const known = [&](std::optional<std::string> const& id)
        -> std::pair<std::optional<token_ref>, std::optional<net::response>> {
        if (!id || !token_text(*id))
            return {std::nullopt, clob_error(status::bad_request, invalid_token, v)};
        auto const t = view_.token(*id);
        if (!t)
            return {std::nullopt, clob_error(status::not_found, "market not found", v)};
        return {t, std::nullopt};
    };

    if (path.empty() || path == "/") {
        if (auto e = require(verb::get, "GET"))
            return e;
        return make_response(status::ok, "\"OK\"", "application/json", v);
    }
    if (path == "/time") {
        if (auto e = require(verb::get, "GET"))
            return e;
        return make_response(status::ok, std::to_string(now_ms() / 1000), "application/json", v);
    }
    if (path == "/book" || path == "/price" || path == "/midpoint" || path == "/spread") {
        if (auto e = require(verb::get, "GET"))
            return e;
        auto [t, err] = live(query_get(q, "token_id"));
        if (err)
            return std::move(*err);
        token_quotes const quotes(view_, engine_, *t);
        json::object o;
        if (path == "/book")
            return ok(quotes.book(), v);
        if (path == "/price") {
            auto const side = query_get(q, "side");
            if (!side || (*side != "BUY" && *side != "SELL"))
                return clob_error(status::bad_request, "Invalid side", v);
            o["price"] = quotes.price(*side);
        } else if (path == "/midpoint") {
            o["mid"] = quotes.mid();
        } else {
            o["spread"] = quotes.spread();
        }
        return ok(o, v);
    }
    if (path == "/last-trade-price") {
        if (auto e = require(verb::get, "GET"))
            return e;
        auto [t, err] = known(query_get(q, "token_id"));
        if (err) {
            if (err->result() == status::not_found)
                return clob_error(status::not_found, no_orderbook, v);
            return std::move(*err);
        }
        auto const [px, side] =
            t->state ? token_quotes(view_, engine_, *t).last_trade()
                     : settled_last_trade(view_.data().markets[t->market], t->outcome);
        json::object o;
        o["price"] = px;
        o["side"] = side;
        return ok(o, v);
    }
    if (path == "/tick-size" || path == "/neg-risk" || path == "/fee-rate") {
        if (auto e = require(verb::get, "GET"))
            return e;
        auto [t, err] = known(query_get(q, "token_id"));
        if (err)
            return std::move(*err);
        auto const& m = view_.data().markets[t->market];
        json::object o;
        if (path == "/tick-size")
            o["minimum_tick_size"] = raw_number(canonical(1, m.px_scale)); // a number (§3.7)
        else if (path == "/neg-risk")
            o["neg_risk"] = view_.data().events[m.event].neg_risk;
        else
            o["base_fee"] = 0;
        return ok(o, v);
    }
    if (path == "/books" || path == "/midpoints" || path == "/spreads" ||
        path == "/last-trades-prices") {
        if (auto e = require(verb::post, "POST"))
            return e;
        std::string_view why;
        auto const items = parse_batch(body, false, why);
        if (!items)
            return clob_error(status::bad_request, why, v);
        json::array list;
        json::object map;
        std::set<std::string> seen;
        for (auto const& item : *items) {
            auto const t = view_.token(item.token);
            if (!t || !t->state || !seen.insert(item.token).second)
                continue; // no book: left out
            token_quotes const quotes(view_, engine_, *t);
            if (path == "/books") {
                list.push_back(quotes.book());
            } else if (path == "/midpoints") {
                map[item.token] = quotes.mid();
            } else if (path == "/spreads") {
                map[item.token] = quotes.spread();
            } else {
                auto const [px, side] = quotes.last_trade();
                json::object o;
                o["token_id"] = item.token;
                o["price"] = px;
                o["side"] = side;
                list.push_back(std::move(o));
            }
        }
        if (path == "/books" || path == "/last-trades-prices")
            return ok(list, v);
        return ok(map, v);
    }
    if (path == "/prices") {
        std::vector<batch_item> items;
        if (method == verb::get) {
            auto const tokens = query_list(q, "token_ids");
            auto const sides = query_list(q, "sides");
            if (tokens.empty() || tokens.size() != sides.size() || tokens.size() > max_batch)
                return clob_error(status::bad_request, invalid_payload, v);
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                if (!token_text(tokens[i]) || (sides[i] != "BUY" && sides[i] != "SELL"))
                    return clob_error(status::bad_request, invalid_payload, v);
                items.push_back({tokens[i], sides[i]});
            }
        } else if (method == verb::post) {
            std::string_view why;
            auto parsed = parse_batch(body, true, why);
            if (!parsed)
                return clob_error(status::bad_request, why, v);
            items = std::move(*parsed);
        } else {
            return wrong_method("GET, POST", v);
        }
        json::object map;
        for (auto const& item : items) {
            auto const t = view_.token(item.token);
            if (!t || !t->state)
                continue;
            auto& entry = map[item.token];
            if (!entry.is_object())
                entry = json::object{};
            entry.as_object()[item.side] = token_quotes(view_, engine_, *t).price(item.side);
        }
        return ok(map, v);
    }
    if (path == "/markets") {
        if (auto e = require(verb::get, "GET"))
            return e;
        std::string const cursor = query_get(q, "next_cursor").value_or(std::string(first_cursor));
        auto const& markets = view_.data().markets;
        auto const start = decode_cursor(cursor, markets.size());
        if (!start)
            return clob_error(status::bad_request, "invalid next_cursor", v);
        std::size_t const offset = *start;
        // Catalog order is the CLOB's listing order (it never changes between pages).
        json::array data;
        std::size_t const end = std::min(markets.size(), offset + clob_markets_page);
        for (std::size_t i = offset; i < end; ++i)
            data.push_back(view_.clob_market_json(i));
        json::object o;
        o["limit"] = clob_markets_page;
        o["count"] = data.size();
        o["next_cursor"] = end >= markets.size() ? std::string(end_cursor) : encode_cursor(end);
        o["data"] = std::move(data);
        return ok(o, v);
    }
    if (path.starts_with("/markets/")) {
        if (auto e = require(verb::get, "GET"))
            return e;
        auto const m = view_.market_by_condition(path.substr(9));
        if (!m)
            return clob_error(status::not_found, "market not found", v);
        return ok(view_.clob_market_json(*m), v);
    }
    return std::nullopt;
}

} // namespace gateway::mocks::gamma
