#include "gamma_router.hpp"

#include "gamma_catalog.hpp"
#include "gamma_clob.hpp"
#include "gamma_limits.hpp"
#include "gamma_orders.hpp"
#include "gamma_query.hpp"
#include "gamma_view.hpp"

#include "../common/http_util.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <string_view>

namespace gateway::mocks::gamma {

namespace {

namespace json = boost::json;

/// The engine's view of a catalog token.
token_lookup lookup_in(catalog_view const& view) {
    return [&view](std::string_view id) -> std::optional<token_info> {
        auto const t = view.token(id);
        if (!t)
            return std::nullopt;
        auto const& m = view.data().markets[t->market];
        token_info i;
        i.token_id = m.token_ids[t->outcome];
        i.condition_id = m.condition_id;
        i.outcome = m.outcomes[t->outcome];
        i.px_scale = m.px_scale;
        i.neg_risk = view.data().events[m.event].neg_risk;
        i.state = t->state;
        return i;
    };
}

class router final : public upstream_router {
public:
    router(market_state& markets, mock_options const& options)
        : view_(shared_catalog(), markets)
        , engine_(markets, lookup_in(view_), options.seed)
        , clob_(view_, engine_)
        , trading_(view_, engine_, creds_)
        , budgets_(options.rate_limits) {}

    std::string classify(net::request const& req) const override {
        return std::string(req.method_string()) + " " + split_target(req.target()).path;
    }

    net::response handle(net::request const& req, caller const& who) override {
        auto const t = split_target(req.target());
        unsigned const v = req.version();
        std::string path = t.path;
        while (path.size() > 1 && path.back() == '/' && path != "/clob/")
            path.pop_back();

        auto const verdict = budgets_.admit(who.address, budgets_for(req.method_string(), path),
                                            request_budgets::clock::now());
        if (!verdict.admitted) {
            auto res = clob_error(http::status::too_many_requests, "Too Many Requests", v);
            auto const secs = (verdict.retry.count() + 999) / 1000;
            res.set(http::field::retry_after, std::to_string(std::max<long long>(1, secs)));
            return res;
        }

        if (path == "/clob" || path.starts_with("/clob/")) {
            // L2 signatures cover the path as the client sent it, without the query.
            std::string_view signed_path = req.target();
            signed_path = signed_path.substr(0, signed_path.find('?'));
            if (signed_path.starts_with("/clob"))
                signed_path.remove_prefix(5);
            std::string_view const clob_path = std::string_view(path).substr(5);
            if (auto res = trading_.handle(req, clob_path, signed_path, t.query))
                return std::move(*res);
            if (auto res = clob_.handle(req.method(), clob_path, t.query, req.body(), v))
                return std::move(*res);
            return clob_error(http::status::not_found, "not found", v);
        }
        if (req.method() != http::verb::get) {
            auto res = clob_error(http::status::method_not_allowed, "method not allowed", v);
            res.set(http::field::allow, "GET");
            return res;
        }
        if (path == "/events")
            return list_events(t.query, v);
        if (path == "/markets")
            return list_markets(t.query, v);
        if (path.starts_with("/events/"))
            return one_event(std::string_view(path).substr(8), v);
        if (path.starts_with("/markets/"))
            return one_market(std::string_view(path).substr(9), t.query, v);
        return clob_error(http::status::not_found, "not found", v);
    }

    net::response forced_status(unsigned status, unsigned version) const override {
        auto const st = static_cast<http::status>(status);
        auto const reason = http::obsolete_reason(st);
        return clob_error(st, reason.empty() ? "error" : std::string(reason), version);
    }

    std::optional<net::response> handle_control(net::request const& req) override {
        return trading_.control(req);
    }

    net::response render_failure(net::failure const& f, unsigned version) const override {
        auto const st = f.kind == net::failure_kind::bad_request ? http::status::bad_request
                        : f.kind == net::failure_kind::payload_too_large
                            ? http::status::payload_too_large
                            : http::status::internal_server_error;
        return clob_error(st, f.message, version);
    }

private:
    static net::response not_found(unsigned v) {
        return clob_error(http::status::not_found, "not found", v);
    }

    static net::response bad_query(std::string const& name, unsigned v) {
        return clob_error(http::status::bad_request, "invalid query parameter: " + name, v);
    }

    net::response list_events(query_params const& q, unsigned v) const {
        auto const query = parse_list_query(q, false);
        if (!query.bad.empty())
            return bad_query(query.bad, v);
        json::array out;
        for (auto i : select_events(view_.data(), query))
            out.push_back(view_.event_json(i, true, true));
        return json_response(http::status::ok, out, v);
    }

    net::response list_markets(query_params const& q, unsigned v) const {
        auto const query = parse_list_query(q, true);
        if (!query.bad.empty())
            return bad_query(query.bad, v);
        json::array out;
        for (auto i : select_markets(view_.data(), query))
            out.push_back(view_.market_json(i, {true, query.include_tag}));
        return json_response(http::status::ok, out, v);
    }

    /// `{id}`, `slug/{slug}`, `{id}/tags`.
    net::response one_event(std::string_view rest, unsigned v) const {
        std::optional<std::size_t> e;
        bool tags_only = false;
        if (rest.starts_with("slug/")) {
            e = view_.event_by_slug(rest.substr(5));
        } else {
            if (rest.ends_with("/tags")) {
                tags_only = true;
                rest.remove_suffix(5);
            }
            e = view_.event_by_id(rest);
        }
        if (!e)
            return not_found(v);
        if (tags_only)
            return json_response(http::status::ok, view_.event_json(*e, false, true).at("tags"), v);
        return json_response(http::status::ok, view_.event_json(*e, true, true), v);
    }

    net::response one_market(std::string_view rest, query_params const& q, unsigned v) const {
        std::optional<std::size_t> m;
        bool tags_only = false;
        if (rest.starts_with("slug/")) {
            m = view_.market_by_slug(rest.substr(5));
        } else {
            if (rest.ends_with("/tags")) {
                tags_only = true;
                rest.remove_suffix(5);
            }
            m = view_.market_by_id(rest);
        }
        if (!m)
            return not_found(v);
        if (tags_only)
            return json_response(
                http::status::ok,
                view_.event_json(view_.data().markets[*m].event, false, true).at("tags"), v);
        bool const with_tags = query_get(q, "include_tag") == std::optional<std::string>("true");
        return json_response(http::status::ok, view_.market_json(*m, {true, with_tags}), v);
    }

    catalog_view view_;
    engine engine_;
    credential_store creds_;
    clob_api clob_;
    trading_api trading_;
    request_budgets budgets_;
};

} // namespace

std::vector<market_spec> market_specs() {
    return market_specs(shared_catalog());
}

std::unique_ptr<upstream_router> make_router(market_state& markets, mock_options const& options) {
    return std::make_unique<router>(markets, options);
}

} // namespace gateway::mocks::gamma
