#include "socket_io.h"

#include "probe_errors.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace moeprobe {

int Deadline::poll_ms(int max_ms) const {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at_ - SteadyClock::now()).count();
    if (left <= 0)
        return 0;
    return left > max_ms ? max_ms : static_cast<int>(left) + 1;
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
    if (this != &o)
        reset(o.release());
    return *this;
}

void UniqueFd::reset(int fd) {
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = fd;
}

std::string HostPort::text() const {
    if (host.find(':') != std::string::npos)
        return "[" + host + "]:" + std::to_string(port);
    return host + ":" + std::to_string(port);
}

HostPort parse_host_port(const std::string& text, bool port_required, std::uint16_t default_port) {
    HostPort hp;
    std::string port_text;
    if (!text.empty() && text[0] == '[') {
        const auto close = text.find(']');
        if (close == std::string::npos)
            throw UsageError("address '" + text + "' has no closing ']'");
        hp.host = text.substr(1, close - 1);
        if (close + 1 < text.size()) {
            if (text[close + 1] != ':')
                throw UsageError("address '" + text + "' is malformed");
            port_text = text.substr(close + 2);
        }
    } else {
        const auto colon = text.rfind(':');
        if (colon != std::string::npos && text.find(':') == colon) {
            hp.host = text.substr(0, colon);
            port_text = text.substr(colon + 1);
        } else {
            hp.host = text; // a bare name, or a bare IPv6 address
        }
    }
    if (hp.host.empty())
        throw UsageError("address '" + text + "' has no host");
    if (port_text.empty()) {
        if (port_required)
            throw UsageError("address '" + text + "' needs a port (HOST:PORT)");
        hp.port = default_port;
        return hp;
    }
    char* end = nullptr;
    const long p = std::strtol(port_text.c_str(), &end, 10);
    if (*end != '\0' || p < 0 || p > 65535 || (port_required && p == 0))
        throw UsageError("address '" + text + "' has a bad port");
    hp.port = static_cast<std::uint16_t>(p);
    return hp;
}

namespace {

struct AddrInfoList {
    addrinfo* head = nullptr;
    ~AddrInfoList() {
        if (head)
            freeaddrinfo(head);
    }
};

void resolve(const HostPort& hp, bool passive, AddrInfoList& out) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    const std::string port = std::to_string(hp.port);
    const int rc = getaddrinfo(hp.host.c_str(), port.c_str(), &hints, &out.head);
    if (rc != 0)
        throw RuntimeFailure("cannot resolve '" + hp.host + "': " + gai_strerror(rc));
}

} // namespace

void set_nonblocking(int fd) {
    const int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

void set_blocking(int fd) {
    const int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

void set_no_delay(int fd) {
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void set_send_buffer(int fd, int bytes) {
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

namespace {
bool is_loopback(const sockaddr_storage& ss) {
    if (ss.ss_family == AF_INET)
        return (ntohl(reinterpret_cast<const sockaddr_in&>(ss).sin_addr.s_addr) >> 24) == 127;
    if (ss.ss_family == AF_INET6) {
        const in6_addr& a = reinterpret_cast<const sockaddr_in6&>(ss).sin6_addr;
        return IN6_IS_ADDR_LOOPBACK(&a) || (IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127);
    }
    return false;
}
bool same_address(const sockaddr_storage& a, const sockaddr_storage& b) {
    if (a.ss_family != b.ss_family)
        return false;
    if (a.ss_family == AF_INET)
        return reinterpret_cast<const sockaddr_in&>(a).sin_addr.s_addr ==
               reinterpret_cast<const sockaddr_in&>(b).sin_addr.s_addr;
    if (a.ss_family == AF_INET6)
        return std::memcmp(&reinterpret_cast<const sockaddr_in6&>(a).sin6_addr,
                           &reinterpret_cast<const sockaddr_in6&>(b).sin6_addr, sizeof(in6_addr)) == 0;
    return false;
}
} // namespace

bool peer_on_this_host(int fd) {
    sockaddr_storage mine{}, theirs{};
    socklen_t mine_len = sizeof mine, theirs_len = sizeof theirs;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&mine), &mine_len) != 0 ||
        getpeername(fd, reinterpret_cast<sockaddr*>(&theirs), &theirs_len) != 0)
        return false;
    return is_loopback(theirs) || same_address(mine, theirs);
}

UniqueFd listen_on(const HostPort& where, int backlog) {
    AddrInfoList list;
    resolve(where, true, list);
    std::string last_error = "no address";
    for (addrinfo* ai = list.head; ai; ai = ai->ai_next) {
        UniqueFd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
        if (!fd.valid())
            continue;
        const int one = 1;
        setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (::bind(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd.get(), backlog) != 0) {
            last_error = std::strerror(errno);
            continue;
        }
        set_nonblocking(fd.get());
        return fd;
    }
    throw RuntimeFailure("cannot listen on " + where.text() + ": " + last_error);
}

bool is_wildcard_host(const std::string& host) {
    return host.empty() || host == "0.0.0.0" || host == "::" || host == "*";
}

namespace {
HostPort socket_address(int fd, bool peer) {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    HostPort hp;
    const int rc = peer ? getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len)
                        : getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
    if (rc != 0)
        return hp;
    char host[NI_MAXHOST];
    char serv[NI_MAXSERV];
    if (getnameinfo(reinterpret_cast<sockaddr*>(&ss), len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
        hp.host = host;
        hp.port = static_cast<std::uint16_t>(std::atoi(serv));
    }
    return hp;
}
} // namespace

HostPort local_address(int fd) {
    return socket_address(fd, false);
}

HostPort peer_address(int fd) {
    return socket_address(fd, true);
}

UniqueFd connect_with_retry(const HostPort& to, const Deadline& deadline, int peer_rank,
                            const std::string& what) {
    std::string last_error = "timed out";
    while (true) {
        AddrInfoList list;
        resolve(to, false, list);
        for (addrinfo* ai = list.head; ai; ai = ai->ai_next) {
            UniqueFd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
            if (!fd.valid())
                continue;
            set_nonblocking(fd.get());
            int rc = ::connect(fd.get(), ai->ai_addr, ai->ai_addrlen);
            if (rc != 0 && errno == EINPROGRESS) {
                pollfd p{fd.get(), POLLOUT, 0};
                while ((rc = ::poll(&p, 1, deadline.poll_ms())) == 0 && !deadline.expired()) {
                }
                if (rc > 0) {
                    int err = 0;
                    socklen_t len = sizeof err;
                    getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
                    rc = err == 0 ? 0 : -1;
                    errno = err;
                } else {
                    rc = -1;
                    errno = ETIMEDOUT;
                }
            }
            if (rc == 0) {
                set_no_delay(fd.get());
                return fd;
            }
            last_error = std::strerror(errno);
        }
        if (deadline.expired())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (deadline.expired())
            break;
    }
    throw PeerFailure(peer_rank, "cannot reach " + what + " at " + to.text() + " (" + last_error + ")");
}

UniqueFd accept_before(int listen_fd, const Deadline& deadline) {
    while (true) {
        pollfd p{listen_fd, POLLIN, 0};
        const int rc = ::poll(&p, 1, deadline.poll_ms());
        if (rc > 0) {
            const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0) {
                set_no_delay(fd);
                return UniqueFd(fd);
            }
        }
        if (deadline.expired())
            return UniqueFd();
    }
}

std::string describe_peer_error(int err) {
    if (err == 0)
        return "connection closed (the process ended or was killed)";
    if (err == ECONNRESET || err == EPIPE)
        return "connection reset (the process ended or was killed)";
    return std::strerror(err);
}

namespace {
[[noreturn]] void throw_past_deadline(int peer_rank) {
    throw PeerFailure(peer_rank, "rank " + std::to_string(peer_rank) +
                                     ": the transfer did not finish within the timeout (bytes too slow to come)");
}
int wait_ms(const Deadline& silence, const Deadline* overall) {
    const int a = silence.poll_ms();
    return overall ? std::min(a, overall->poll_ms()) : a;
}
} // namespace

void send_exact(int fd, const void* data, std::size_t size, double timeout_s, int peer_rank,
                const Deadline* overall) {
    auto p = static_cast<const char*>(data);
    Deadline silence(timeout_s);
    while (size > 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            p += n;
            size -= static_cast<std::size_t>(n);
            silence = Deadline(timeout_s);
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            throw PeerFailure(peer_rank,
                              "rank " + std::to_string(peer_rank) + ": " + describe_peer_error(errno));
        if (overall && overall->expired())
            throw_past_deadline(peer_rank);
        if (silence.expired())
            throw PeerFailure(peer_rank, "rank " + std::to_string(peer_rank) + " took nothing for " +
                                             std::to_string(static_cast<int>(timeout_s)) + " s (hung?)");
        pollfd pf{fd, POLLOUT, 0};
        ::poll(&pf, 1, wait_ms(silence, overall));
    }
}

std::size_t recv_some(int fd, void* data, std::size_t size, double timeout_s, int peer_rank,
                      const Deadline* overall) {
    Deadline silence(timeout_s);
    while (true) {
        if (overall && overall->expired())
            throw_past_deadline(peer_rank);
        const ssize_t n = ::recv(fd, data, size, MSG_DONTWAIT);
        if (n > 0)
            return static_cast<std::size_t>(n);
        if (n == 0)
            throw PeerFailure(peer_rank, "rank " + std::to_string(peer_rank) + ": " + describe_peer_error(0));
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            throw PeerFailure(peer_rank,
                              "rank " + std::to_string(peer_rank) + ": " + describe_peer_error(errno));
        if (silence.expired())
            throw PeerFailure(peer_rank, "rank " + std::to_string(peer_rank) + " sent nothing for " +
                                             std::to_string(static_cast<int>(timeout_s)) + " s (hung?)");
        pollfd pf{fd, POLLIN, 0};
        ::poll(&pf, 1, wait_ms(silence, overall));
    }
}

void recv_exact(int fd, void* data, std::size_t size, double timeout_s, int peer_rank, const Deadline* overall) {
    auto p = static_cast<char*>(data);
    while (size > 0) {
        const std::size_t n = recv_some(fd, p, size, timeout_s, peer_rank, overall);
        p += n;
        size -= n;
    }
}

} // namespace moeprobe
