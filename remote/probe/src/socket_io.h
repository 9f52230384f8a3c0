// Thin POSIX socket helpers for the rendezvous and the tcp mesh: every blocking wait
// has a deadline, every fd is owned by a UniqueFd, failures name the peer rank.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace moeprobe {

using SteadyClock = std::chrono::steady_clock;

class Deadline {
public:
    explicit Deadline(double seconds)
        : at_(SteadyClock::now() +
              std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(seconds))) {}
    bool expired() const { return SteadyClock::now() >= at_; }
    // Milliseconds left for poll(), at least 0, at most max_ms.
    int poll_ms(int max_ms = 1000) const;
    // This deadline, or `other` when that one comes first (other may be null).
    Deadline earlier(const Deadline* other) const { return other && other->at_ < at_ ? *other : *this; }

private:
    SteadyClock::time_point at_;
};

class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
    UniqueFd& operator=(UniqueFd&& o) noexcept;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset(int fd = -1);

private:
    int fd_ = -1;
};

struct HostPort {
    std::string host;
    std::uint16_t port = 0;
    std::string text() const;
};

// "HOST:PORT", "[V6]:PORT", or "HOST" (port = default_port). Throws UsageError.
HostPort parse_host_port(const std::string& text, bool port_required, std::uint16_t default_port = 0);

// The backlog is large (the kernel caps it at somaxconn): the rendezvous and the mesh
// drain it at once and bound the connections they hold themselves (peer_auth.h).
constexpr int kListenBacklog = 4096;
UniqueFd listen_on(const HostPort& where, int backlog = kListenBacklog);
HostPort local_address(int fd);
HostPort peer_address(int fd);
bool is_wildcard_host(const std::string& host);

// Connects, retrying refused or unreachable attempts until the deadline. peer_rank names
// the rank in the error.
UniqueFd connect_with_retry(const HostPort& to, const Deadline& deadline, int peer_rank,
                            const std::string& what);
// -1 fd when the deadline passes.
UniqueFd accept_before(int listen_fd, const Deadline& deadline);

void set_nonblocking(int fd);
void set_blocking(int fd);
void set_no_delay(int fd);
// Caps the kernel's send buffer of a connected socket (SO_SNDBUF; Linux doubles the
// value for its own bookkeeping). The kernel's auto-tuning is off for it afterwards.
void set_send_buffer(int fd, int bytes);
// True when both ends of a connected socket are on this host: the peer's address is a
// loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x) or this end's own address.
bool peer_on_this_host(int fd);

// Whole-buffer transfers on a blocking-mode or non-blocking socket, bounded by a silence
// timeout: a transfer fails when no byte moves for timeout_s, and, when overall is
// given, when that deadline passes however the bytes trickle in. Throws PeerFailure
// naming peer_rank on EOF, reset, silence or the overall deadline.
void send_exact(int fd, const void* data, std::size_t size, double timeout_s, int peer_rank,
                const Deadline* overall = nullptr);
void recv_exact(int fd, void* data, std::size_t size, double timeout_s, int peer_rank,
                const Deadline* overall = nullptr);
// One recv() of at most size bytes, waiting as recv_exact does; returns the count (> 0).
std::size_t recv_some(int fd, void* data, std::size_t size, double timeout_s, int peer_rank,
                      const Deadline* overall = nullptr);

// Describes an errno from a failed peer transfer in words users understand.
std::string describe_peer_error(int err);

} // namespace moeprobe
