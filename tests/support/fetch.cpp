// The body of support/fetch.hpp, compiled once for every suite.
#include "support/fetch.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <stdexcept>

namespace gateway::test {

raw_response fetch(boost::beast::http::verb method, std::string const& full_url, std::string body,
                   std::vector<std::pair<std::string, std::string>> headers,
                   std::chrono::milliseconds timeout) {
    // Split "http://host:port/path?query" into the base and the target.
    auto const scheme_end = full_url.find("://");
    auto const path_start = full_url.find('/', scheme_end + 3);
    auto const base = net::url::parse(full_url.substr(0, path_start));
    if (!base)
        throw std::runtime_error("bad url " + full_url);
    std::string const target =
        path_start == std::string::npos ? std::string("/") : full_url.substr(path_start);
    boost::asio::io_context ioc;
    net::http_client client(ioc.get_executor());
    net::http_request req{method, target, 11};
    for (auto const& [k, v] : headers)
        req.set(k, v);
    if (!body.empty() && req.find(boost::beast::http::field::content_type) == req.end())
        req.set(boost::beast::http::field::content_type, "application/json");
    req.body() = std::move(body);
    boost::system::result<net::http_response, net::fetch_error> out = net::fetch_error{};
    net::fetch_options opt;
    opt.timeout = timeout;
    boost::asio::co_spawn(
        ioc,
        [&]() -> boost::asio::awaitable<void> {
            out = co_await client.async_request(*base, std::move(req), opt);
            client.clear_pool();
        },
        [](std::exception_ptr e) {
            if (e)
                std::rethrow_exception(e);
        });
    ioc.run();
    if (!out)
        throw std::runtime_error(out.error().message);
    raw_response r;
    r.status = out->result_int();
    r.body = out->body();
    r.message = std::move(*out);
    return r;
}

} // namespace gateway::test
