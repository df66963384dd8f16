#pragma once
/**
 * @file url.hpp
 * `gateway::net::url`: an upstream or server base address, `http(s)://host[:port][/prefix]`.
 * A path prefix is kept, so a base like `http://127.0.0.1:9000/clob` works for every call.
 */
#include <optional>
#include <string>
#include <string_view>

namespace gateway::net {

struct url {
    std::string scheme; ///< "http" or "https" (ws/wss are accepted and mapped for WebSocket use)
    std::string host;
    std::string port;   ///< always set (80/443 when the text had none)
    std::string prefix; ///< path prefix without trailing '/', may be empty

    bool tls() const noexcept { return scheme == "https" || scheme == "wss"; }
    /// `scheme://host:port`, the key connections are pooled by.
    std::string origin() const { return scheme + "://" + host_literal() + ":" + port; }
    /// The Host header value: host, plus the port when it is not the scheme's default.
    std::string authority() const {
        bool const default_port = (tls() && port == "443") || (!tls() && port == "80");
        return host_literal() + (default_port ? "" : ":" + port);
    }
    /// The base as text, e.g. `http://127.0.0.1:8080/clob`.
    std::string str() const { return scheme + "://" + authority() + prefix; }
    /// The host as written in a URL (IPv6 literals in brackets).
    std::string host_literal() const {
        return host.find(':') == std::string::npos ? host : "[" + host + "]";
    }
    /// The request target for `path` (which starts with '/') under the prefix.
    std::string target(std::string_view path) const { return prefix + std::string(path); }

    /// Parses a base address; nullopt for anything else (no scheme, bad port, query string).
    static std::optional<url> parse(std::string_view text) {
        url u;
        auto const sep = text.find("://");
        if (sep == std::string_view::npos)
            return std::nullopt;
        u.scheme = std::string(text.substr(0, sep));
        for (auto& ch : u.scheme)
            ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        if (u.scheme != "http" && u.scheme != "https" && u.scheme != "ws" && u.scheme != "wss")
            return std::nullopt;
        std::string_view rest = text.substr(sep + 3);
        auto const slash = rest.find('/');
        std::string_view hostport = rest.substr(0, slash);
        std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
        if (hostport.empty() || path.find_first_of("?#") != std::string_view::npos)
            return std::nullopt;
        std::string_view port;
        if (hostport.front() == '[') { // IPv6 literal
            auto const close = hostport.find(']');
            if (close == std::string_view::npos)
                return std::nullopt;
            u.host = std::string(hostport.substr(1, close - 1));
            if (close + 1 < hostport.size()) {
                if (hostport[close + 1] != ':')
                    return std::nullopt;
                port = hostport.substr(close + 2);
            }
        } else if (auto const colon = hostport.rfind(':'); colon != std::string_view::npos) {
            u.host = std::string(hostport.substr(0, colon));
            port = hostport.substr(colon + 1);
        } else {
            u.host = std::string(hostport);
        }
        if (u.host.empty())
            return std::nullopt;
        if (port.empty()) {
            u.port = u.tls() ? "443" : "80";
        } else {
            if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
                std::stoul(std::string(port)) > 65535)
                return std::nullopt;
            u.port = std::string(port);
        }
        while (!path.empty() && path.back() == '/')
            path.remove_suffix(1);
        u.prefix = std::string(path);
        return u;
    }
};

} // namespace gateway::net
