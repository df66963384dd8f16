#pragma once
// A blocking loopback TCP client on a plain POSIX socket, for what no HTTP client would send
// (broken framing, endless trailers, idle connections). Every read and write gives up after a
// deadline (SO_RCVTIMEO / SO_SNDTIMEO), so a server that misbehaves fails a test instead of
// hanging it; the deadline is a bound, never the synchronisation.
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace gateway::test {

class raw_socket {
public:
    /// An unconnected socket: its descriptor exists from now on (tests that ration
    /// descriptors create their clients before lowering the limit).
    explicit raw_socket(std::chrono::milliseconds deadline = std::chrono::seconds(10))
        : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        if (fd_ < 0)
            throw std::runtime_error("socket() failed");
        timeval tv{};
        tv.tv_sec = static_cast<time_t>(deadline.count() / 1000);
        tv.tv_usec = static_cast<suseconds_t>((deadline.count() % 1000) * 1000);
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }

    /// Connected to 127.0.0.1:`port`.
    explicit raw_socket(std::uint16_t port,
                        std::chrono::milliseconds deadline = std::chrono::seconds(10))
        : raw_socket(deadline) {
        connect(port);
    }

    raw_socket(raw_socket&& o) noexcept
        : fd_(std::exchange(o.fd_, -1))
        , pending_(std::move(o.pending_))
        , peer_closed_(o.peer_closed_) {}
    raw_socket& operator=(raw_socket&& o) noexcept {
        if (this != &o) {
            close();
            fd_ = std::exchange(o.fd_, -1);
            pending_ = std::move(o.pending_);
            peer_closed_ = o.peer_closed_;
        }
        return *this;
    }
    raw_socket(raw_socket const&) = delete;
    raw_socket& operator=(raw_socket const&) = delete;
    ~raw_socket() { close(); }

    /// Completes once the kernel queued the connection (the server may not have accepted it).
    void connect(std::uint16_t port) {
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr const*>(&addr), sizeof addr) != 0)
            throw std::runtime_error("connect() failed: errno " + std::to_string(errno));
    }

    /// False as soon as the peer closed or reset the connection (or the deadline passed).
    bool send_all(std::string_view data) {
        while (!data.empty()) {
            auto const n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            data.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    /// Everything the server sends until it closes (or resets, or the deadline passes:
    /// `peer_closed()` tells which).
    std::string read_until_close() {
        std::string out = std::exchange(pending_, {});
        char buf[16384];
        for (;;) {
            auto const n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0) {
                peer_closed_ = n == 0 || errno == ECONNRESET;
                return out;
            }
            out.append(buf, static_cast<std::size_t>(n));
        }
    }

    /// After `read_until_close`: true when the server ended the connection, false when the
    /// read gave up at the deadline.
    bool peer_closed() const { return peer_closed_; }

    /// One whole HTTP response (header and its Content-Length body); nullopt when the
    /// connection ended first. Bytes after it are kept for the next read.
    std::optional<std::string> read_response() {
        char buf[16384];
        for (;;) {
            if (auto const end = pending_.find("\r\n\r\n"); end != std::string::npos) {
                std::size_t length = 0;
                auto const head = pending_.substr(0, end);
                for (std::string_view name : {"Content-Length: ", "content-length: "})
                    if (auto at = head.find(name); at != std::string::npos)
                        length = std::stoul(head.substr(at + name.size()));
                if (pending_.size() >= end + 4 + length) {
                    auto response = pending_.substr(0, end + 4 + length);
                    pending_.erase(0, end + 4 + length);
                    return response;
                }
            }
            auto const n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0)
                return std::nullopt;
            pending_.append(buf, static_cast<std::size_t>(n));
        }
    }

    /// True when the server closed (or reset) the connection without sending anything more;
    /// false when data came, or nothing at all before the deadline.
    bool closed_by_peer() {
        if (!pending_.empty())
            return false;
        char c = 0;
        auto const n = ::recv(fd_, &c, 1, 0);
        if (n == 0)
            return true;
        if (n < 0)
            return errno == ECONNRESET;
        pending_.push_back(c);
        return false;
    }

    void close() {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }

    int fd() const { return fd_; }

private:
    int fd_;
    std::string pending_;
    bool peer_closed_ = false;
};

/// The number of HTTP responses in `wire` (status lines: "HTTP/1.x " and a digit).
inline std::size_t count_responses(std::string const& wire) {
    std::size_t count = 0;
    for (auto at = wire.find("HTTP/1."); at != std::string::npos; at = wire.find("HTTP/1.", at + 1))
        if (at + 9 < wire.size() && wire[at + 8] == ' ' && wire[at + 9] >= '1' &&
            wire[at + 9] <= '5')
            ++count;
    return count;
}

} // namespace gateway::test
