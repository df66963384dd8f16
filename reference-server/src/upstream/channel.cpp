#include "upstream.hpp"

#include "log.hpp"

#include <boost/beast/http/field.hpp>
#include <boost/json/parse.hpp>

namespace gateway::server {

boost::asio::awaitable<result<boost::json::value>> call_upstream_json(net::http_client& client,
                                                                      upstream_request req) {
    namespace http = boost::beast::http;
    net::http_request msg{req.method, req.target, 11};
    msg.set(http::field::accept, "application/json");
    if (!req.body.empty()) {
        msg.set(http::field::content_type, "application/json");
        msg.body() = req.body;
    }
    net::fetch_options opt;
    opt.timeout = req.timeout;
    opt.idempotent = req.idempotent;
    auto answer = co_await client.async_request(req.base, std::move(msg), opt);
    if (!answer) {
        log::warn("msg=\"upstream call failed\" provider=" + req.provider + " reason=\"" +
                  answer.error().message + "\"");
        if (answer.error().what == net::fetch_error::kind::timeout)
            co_return make_error(errc::upstream_timeout,
                                 "The " + req.provider + " upstream did not answer within " +
                                     std::to_string(req.timeout.count()) + " ms.");
        if (answer.error().what == net::fetch_error::kind::connect)
            co_return make_error(errc::provider_unavailable,
                                 "The " + req.provider + " upstream cannot be reached.");
        if (!req.idempotent && answer.error().maybe_delivered) {
            api_error e =
                make_error(errc::upstream_error, "The connection to the " + req.provider +
                                                     " upstream broke after the request was sent.");
            e.details["outcomeUnknown"] = true; // a write's fate is unknown
            co_return e;
        }
        co_return make_error(errc::upstream_error,
                             "The connection to the " + req.provider + " upstream broke.");
    }
    unsigned const status = answer->result_int();
    if (status == 429 || status == 418) {
        api_error e =
            make_error(errc::provider_unavailable,
                       "The " + req.provider + " upstream is rate limiting; retry later.");
        e.retry_after = 1;
        co_return e;
    }
    if (status < 200 || status >= 300)
        co_return make_error(errc::upstream_error, "The " + req.provider +
                                                       " upstream answered HTTP " +
                                                       std::to_string(status) + ".");
    boost::system::error_code ec;
    auto parsed = boost::json::parse(answer->body(), ec);
    if (ec)
        co_return make_error(errc::upstream_error,
                             "The " + req.provider + " upstream answered a body that is not JSON.");
    co_return parsed;
}

} // namespace gateway::server
