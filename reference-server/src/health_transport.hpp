#pragma once
// How a health probe reaches its upstream (health.hpp): a seam, so unit tests drive the
// monitor with a scripted transport.
#include "health.hpp"

#include <gateway/net/http_client.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/system/result.hpp>

#include <chrono>

namespace gateway::server {

class probe_transport {
public:
    virtual ~probe_transport() = default;
    virtual boost::asio::awaitable<boost::system::result<net::http_response, net::fetch_error>>
    send(probe_target const& target, std::chrono::milliseconds timeout) = 0;
};

/// The real transport over the shared upstream HTTP client.
class http_probe_transport final : public probe_transport {
public:
    explicit http_probe_transport(net::http_client& client)
        : client_(client) {}
    boost::asio::awaitable<boost::system::result<net::http_response, net::fetch_error>>
    send(probe_target const& target, std::chrono::milliseconds timeout) override;

private:
    net::http_client& client_;
};

} // namespace gateway::server
