#include "peer_auth.h"

#include "hmac_sha256.h"
#include "probe_errors.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace moeprobe {
namespace {

constexpr char kHelloMagic[8] = {'M', 'P', 'R', 'B', 'A', 'U', 'T', 'H'};

bool is_hex(const std::string& s) {
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    return true;
}

} // namespace

std::string take_run_secret(bool required) {
    const char* v = std::getenv(kSecretVariable);
    std::string secret = v ? v : "";
    ::unsetenv(kSecretVariable); // nothing started from here inherits it
    if (secret.empty()) {
        if (required)
            throw UsageError(std::string("a run of more than one rank needs the run's secret in ") + kSecretVariable +
                             " (the same value on every rank, at least 32 hex digits; e.g. export " + kSecretVariable +
                             "=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n'); see docs/probe.md)");
        return {};
    }
    if (secret.size() < kSecretMinHexDigits || !is_hex(secret))
        throw UsageError(std::string(kSecretVariable) + " must be at least 32 hex digits (128 bits); it has " +
                         std::to_string(secret.size()) + " characters" + (is_hex(secret) ? "" : ", not all hex digits"));
    return secret;
}

bool parse_auth_hello(const std::uint8_t* bytes, std::size_t size, AuthHello& out) {
    if (size != kAuthHelloBytes || std::memcmp(bytes, kHelloMagic, sizeof kHelloMagic) != 0)
        return false;
    const std::uint8_t channel = bytes[8];
    if (channel != static_cast<std::uint8_t>(AuthChannel::Rendezvous) &&
        channel != static_cast<std::uint8_t>(AuthChannel::Mesh))
        return false;
    out.channel = static_cast<AuthChannel>(channel);
    const std::uint32_t r = std::uint32_t(bytes[9]) | (std::uint32_t(bytes[10]) << 8) |
                            (std::uint32_t(bytes[11]) << 16) | (std::uint32_t(bytes[12]) << 24);
    out.rank = static_cast<std::int32_t>(r);
    std::memcpy(out.nonce.data(), bytes + 13, kAuthNonceBytes);
    return true;
}

std::string encode_auth_hello(const AuthHello& hello) {
    std::string s(kHelloMagic, sizeof kHelloMagic);
    s += static_cast<char>(hello.channel);
    const auto r = static_cast<std::uint32_t>(hello.rank);
    for (int i = 0; i < 4; ++i)
        s += static_cast<char>((r >> (8 * i)) & 0xff);
    s.append(reinterpret_cast<const char*>(hello.nonce.data()), hello.nonce.size());
    return s;
}

std::array<std::uint8_t, kAuthProofBytes> auth_proof(const std::string& secret, bool acceptor, const AuthHello& hello,
                                                     const std::array<std::uint8_t, kAuthNonceBytes>& acceptor_nonce) {
    std::string message = acceptor ? "moe-probe acceptor" : "moe-probe connector";
    message += '\0';
    message += encode_auth_hello(hello).substr(sizeof kHelloMagic);
    message.append(reinterpret_cast<const char*>(acceptor_nonce.data()), acceptor_nonce.size());
    const Digest256 d = hmac_sha256(secret, message);
    std::array<std::uint8_t, kAuthProofBytes> out{};
    std::memcpy(out.data(), d.data(), out.size());
    return out;
}

std::array<std::uint8_t, kAuthNonceBytes> random_nonce() {
    std::array<std::uint8_t, kAuthNonceBytes> n{};
    const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    std::size_t have = 0;
    while (fd >= 0 && have < n.size()) {
        const ssize_t got = ::read(fd, n.data() + have, n.size() - have);
        if (got > 0)
            have += static_cast<std::size_t>(got);
        else if (got < 0 && errno == EINTR)
            continue;
        else
            break;
    }
    if (fd >= 0)
        ::close(fd);
    if (have != n.size())
        throw RuntimeFailure("cannot read /dev/urandom for a handshake nonce");
    return n;
}

void authenticate_to_acceptor(int fd, const std::string& secret, AuthChannel channel, int my_rank,
                              const Deadline& deadline, int peer_rank, const std::string& what) {
    AuthHello hello;
    hello.channel = channel;
    hello.rank = my_rank;
    hello.nonce = random_nonce();
    const std::string hello_bytes = encode_auth_hello(hello);
    const double silence = 3600; // the deadline bounds every step
    std::array<std::uint8_t, kAuthNonceBytes> theirs{};
    std::array<std::uint8_t, kAuthProofBytes> proof{};
    try {
        send_exact(fd, hello_bytes.data(), hello_bytes.size(), silence, peer_rank, &deadline);
        recv_exact(fd, theirs.data(), theirs.size(), silence, peer_rank, &deadline);
        const auto mine = auth_proof(secret, false, hello, theirs);
        send_exact(fd, mine.data(), mine.size(), silence, peer_rank, &deadline);
        recv_exact(fd, proof.data(), proof.size(), silence, peer_rank, &deadline);
    } catch (const PeerFailure&) {
        if (deadline.expired())
            throw PeerFailure(peer_rank, what + " did not complete the handshake within the timeout");
        throw AuthRefused(what + " closed the connection during the handshake (it did not take this rank's proof: "
                                 "another " + kSecretVariable + ", or another run on that port)");
    }
    const auto expected = auth_proof(secret, true, hello, theirs);
    if (!constant_time_equal(proof.data(), expected.data(), proof.size()))
        throw PeerFailure(peer_rank, what + " did not prove it knows the run's secret (another run, or not a "
                                            "moe-probe, listens there)");
}

struct AuthenticatingListener::Pending {
    UniqueFd fd;
    Deadline deadline;
    std::uint8_t in[kAuthHelloBytes > kAuthProofBytes ? kAuthHelloBytes : kAuthProofBytes] = {};
    std::size_t have = 0;
    bool got_hello = false;
    AuthHello hello;
    std::array<std::uint8_t, kAuthNonceBytes> nonce{};
    Pending(UniqueFd f, double handshake_s) : fd(std::move(f)), deadline(handshake_s) {}
};

AuthenticatingListener::AuthenticatingListener(int listen_fd, std::string secret, AuthChannel channel,
                                               double handshake_s, std::size_t max_pending)
    : listen_fd_(listen_fd), secret_(std::move(secret)), channel_(channel), handshake_s_(handshake_s),
      max_pending_(max_pending < 1 ? 1 : max_pending) {}

AuthenticatingListener::~AuthenticatingListener() = default;

void AuthenticatingListener::drop(std::size_t index) {
    // SO_LINGER 0: a reset, no FIN handshake left behind in the kernel for it.
    const linger l{1, 0};
    setsockopt(pending_[index].fd.get(), SOL_SOCKET, SO_LINGER, &l, sizeof l);
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
    ++dropped_;
}

void AuthenticatingListener::accept_all() {
    while (true) {
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return; // EAGAIN: the queue is empty (or a transient error: try on the next poll)
        set_no_delay(fd);
        if (pending_.size() >= max_pending_)
            drop(0); // the oldest unproven connection makes room
        pending_.emplace_back(UniqueFd(fd), handshake_s_);
    }
}

bool AuthenticatingListener::advance(Pending& p, Peer& peer) {
    const std::size_t want = p.got_hello ? kAuthProofBytes : kAuthHelloBytes;
    while (p.have < want) {
        const ssize_t n = ::recv(p.fd.get(), p.in + p.have, want - p.have, MSG_DONTWAIT);
        if (n > 0) {
            p.have += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return false;
        throw RuntimeFailure("closed"); // EOF or an error: dropped by the caller
    }
    if (!p.got_hello) {
        if (!parse_auth_hello(p.in, p.have, p.hello) || p.hello.channel != channel_)
            throw RuntimeFailure("not a hello");
        p.got_hello = true;
        p.have = 0;
        p.nonce = random_nonce();
        // The only bytes an unproven connection ever gets: 16 random ones. A fresh
        // socket's buffer takes them at once; one that does not is dropped.
        if (::send(p.fd.get(), p.nonce.data(), p.nonce.size(), MSG_NOSIGNAL | MSG_DONTWAIT) !=
            static_cast<ssize_t>(p.nonce.size()))
            throw RuntimeFailure("cannot send");
        return advance(p, peer);
    }
    const auto expected = auth_proof(secret_, false, p.hello, p.nonce);
    if (!constant_time_equal(p.in, expected.data(), expected.size()))
        throw RuntimeFailure("wrong proof");
    const auto mine = auth_proof(secret_, true, p.hello, p.nonce);
    if (::send(p.fd.get(), mine.data(), mine.size(), MSG_NOSIGNAL | MSG_DONTWAIT) != static_cast<ssize_t>(mine.size()))
        throw RuntimeFailure("cannot send");
    set_blocking(p.fd.get());
    peer.fd = std::move(p.fd);
    peer.rank = p.hello.rank;
    return true;
}

AuthenticatingListener::Peer AuthenticatingListener::next(const Deadline& deadline) {
    std::vector<pollfd> fds;
    while (true) {
        // Expired handshakes go first, then whatever is readable.
        for (std::size_t i = 0; i < pending_.size();) {
            if (pending_[i].deadline.expired())
                drop(i);
            else
                ++i;
        }
        fds.clear();
        fds.push_back({listen_fd_, POLLIN, 0});
        for (const Pending& p : pending_)
            fds.push_back({p.fd.get(), POLLIN, 0});
        int wait = deadline.poll_ms(250);
        for (const Pending& p : pending_)
            wait = std::min(wait, p.deadline.poll_ms(250));
        const int ready = ::poll(fds.data(), fds.size(), wait);
        if (ready > 0) {
            // Pending connections first (their fds are known to be theirs), then new ones.
            for (std::size_t k = fds.size(); k-- > 1;) {
                if (!fds[k].revents)
                    continue;
                const std::size_t i = k - 1;
                Peer peer;
                bool proved = false;
                try {
                    proved = advance(pending_[i], peer);
                } catch (const std::exception&) {
                    drop(i);
                    continue;
                }
                if (proved) {
                    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
                    return peer;
                }
            }
            if (fds[0].revents)
                accept_all();
        }
        if (deadline.expired())
            return Peer{};
    }
}

} // namespace moeprobe
