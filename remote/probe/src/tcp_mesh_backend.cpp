#include "tcp_mesh_backend.h"

#include "control_plane.h"
#include "peer_auth.h"
#include "probe_errors.h"
#include "probe_options.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace moeprobe {
namespace {

// Bytes moved per send()/recv() call: large enough to keep syscalls few, small enough
// that one busy pair cannot starve the others within a poll round.
constexpr std::size_t kChunkBytes = 1u << 20;
// Bytes moved on one socket per poll round, so one fast pair cannot starve the others.
constexpr std::size_t kVisitBudgetBytes = 4u << 20;
// The send buffer of a connection between two ranks on one host (SO_SNDBUF; the kernel
// makes it 256 KiB). There is no round trip to cover, only memory copies: with the
// kernel's auto-tuned buffers (up to 4 MiB each) a sender ran megabytes ahead of its
// receiver and the receiver copied them out of the kernel long after they had left the
// cache. Capped, a sender runs ahead by a few of Open MPI's 128 KiB fragments at most,
// as its rendezvous protocol keeps it (a large message moves only once the receiver has
// matched it). 4 ranks on a 2-core machine, 4 MiB per rank: 6.0 ms per iteration
// against 17.5 ms auto-tuned, and 30 % less CPU per byte (docs/probe.md). Connections to
// other hosts keep the kernel's auto-tuning, as Open MPI's tcp BTL does (btl_tcp_sndbuf
// 0): they have a bandwidth-delay product to cover.
constexpr int kSameHostSendBuffer = 128 << 10;

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

} // namespace

TcpMeshBackend::TcpMeshBackend(const ProbeOptions& options, ControlPlane& control)
    : options_(options), control_(control), rank_(options.rank), world_(options.world),
      pairwise_(options.schedule == "pairwise") {
    if (options.layout.groups.empty()) {
        for (int r = 0; r < world_; ++r)
            group_.push_back(r);
    } else {
        group_ = options.layout.groups[static_cast<std::size_t>(options.layout.group_of[static_cast<std::size_t>(rank_)])];
    }
    my_index_ = static_cast<std::size_t>(std::find(group_.begin(), group_.end(), rank_) - group_.begin());
}

void TcpMeshBackend::describe(RankFacts& mine, std::string& /*blob*/) {
    const HostPort where =
        parse_host_port(options_.listen.empty() ? control_.default_listen_host() : options_.listen, false, 0);
    listener_ = listen_on(where);
    // A wildcard address is resolved by rank 0 from where this rank connected from.
    mine.listen = local_address(listener_.get()).text();
}

void TcpMeshBackend::connect(const std::vector<RankFacts>& table, const std::string& /*blob*/) {
    peers_.clear();
    peers_.resize(static_cast<std::size_t>(world_));
    const Deadline deadline(options_.timeout_s);
    // Only the ranks of this rank's EP group (a sub-mesh). Lower ranks accept, higher
    // ranks connect: one connection per pair.
    for (int peer : group_) {
        if (peer >= rank_)
            break;
        if (const std::string why = unusable_listen_address(table[static_cast<std::size_t>(peer)]); !why.empty())
            throw PeerFailure(peer, "rank " + std::to_string(peer) + " " + why + " (in rank 0's table)");
        const HostPort to = parse_host_port(table[static_cast<std::size_t>(peer)].listen, true);
        const std::string what = "rank " + std::to_string(peer);
        // Connect and prove the run's secret (the rank claimed rides in the proven hello);
        // a connection the peer dropped is tried again until the timeout.
        std::string refused;
        while (true) {
            UniqueFd fd = connect_with_retry(to, deadline, peer, what);
            try {
                authenticate_to_acceptor(fd.get(), options_.secret, AuthChannel::Mesh, rank_, deadline, peer, what);
                peers_[static_cast<std::size_t>(peer)] = std::move(fd);
                break;
            } catch (const AuthRefused& e) {
                refused = e.what();
            }
            ::usleep(100 * 1000);
            if (deadline.expired())
                throw PeerFailure(peer, refused);
        }
    }
    const auto above = static_cast<int>(group_.end() - std::upper_bound(group_.begin(), group_.end(), rank_));
    AuthenticatingListener acceptor(listener_.get(), options_.secret, AuthChannel::Mesh,
                                    handshake_seconds(options_.timeout_s));
    for (int expected = above; expected > 0;) {
        AuthenticatingListener::Peer peer = acceptor.next(deadline);
        if (!peer.fd.valid()) {
            std::string absent;
            for (int r : group_)
                if (r > rank_ && !peers_[static_cast<std::size_t>(r)].valid())
                    absent += (absent.empty() ? "" : ", ") + std::to_string(r);
            throw PeerFailure(std::stoi(absent.substr(0, absent.find(','))),
                              "rank(s) " + absent + " never connected to the mesh within the timeout");
        }
        const int who = peer.rank;
        if (who <= rank_ || who >= world_ || peers_[static_cast<std::size_t>(who)].valid() ||
            !std::binary_search(group_.begin(), group_.end(), who))
            continue; // proven, but not a peer of this rank's group: dropped
        peers_[static_cast<std::size_t>(who)] = std::move(peer.fd);
        --expected;
    }
    listener_.reset();
    for (UniqueFd& fd : peers_)
        if (fd.valid()) {
            set_nonblocking(fd.get());
            if (peer_on_this_host(fd.get()))
                set_send_buffer(fd.get(), kSameHostSendBuffer);
        }
}

void TcpMeshBackend::prepare(const TrafficPlan& plan) {
    plan_ = plan;
    // Touch every page now so that page faults stay out of the timed loop.
    send_buffer_.assign(plan_.sent_by(rank_), static_cast<unsigned char>(rank_));
    recv_buffer_.assign(plan_.received_by(rank_), 0);
    const auto n = static_cast<std::size_t>(world_);
    send_offsets_.assign(n, 0);
    recv_offsets_.assign(n, 0);
    send_lengths_.assign(n, 0);
    recv_lengths_.assign(n, 0);
    for (int p = 0; p < world_; ++p) {
        const auto i = static_cast<std::size_t>(p);
        send_offsets_[i] = plan_.send_offset(rank_, p);
        recv_offsets_[i] = plan_.recv_offset(rank_, p);
        send_lengths_[i] = plan_.bytes(rank_, p);
        recv_lengths_[i] = plan_.bytes(p, rank_);
    }
}

std::vector<std::vector<double>> TcpMeshBackend::run(int iterations) {
    std::vector<double> seconds;
    seconds.reserve(static_cast<std::size_t>(iterations));
    for (int i = 0; i < iterations; ++i) {
        const auto t0 = SteadyClock::now();
        exchange_once();
        const auto t1 = SteadyClock::now();
        seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    return {seconds};
}

void TcpMeshBackend::exchange_once() {
    const auto n = static_cast<std::size_t>(world_);
    const auto me = static_cast<std::size_t>(rank_);
    send_pos_ = send_offsets_;
    recv_pos_ = recv_offsets_;
    if (const std::size_t self = send_lengths_[me]; self > 0)
        std::memcpy(recv_buffer_.data() + recv_pos_[me], send_buffer_.data() + send_pos_[me], self);
    if (!pairwise_) {
        send_left_ = send_lengths_;
        recv_left_ = recv_lengths_;
        send_left_[me] = recv_left_[me] = 0;
        move_bytes();
        return;
    }
    // Pairwise, within the EP group: step k sends to the group's member k places after
    // this rank and receives from the one k places before; a step ends when both are
    // done, so at most one send and one receive are in flight per rank.
    const std::size_t m = group_.size();
    for (std::size_t k = 1; k < m; ++k) {
        const auto to = static_cast<std::size_t>(group_[(my_index_ + k) % m]);
        const auto from = static_cast<std::size_t>(group_[(my_index_ + m - k) % m]);
        send_left_.assign(n, 0);
        recv_left_.assign(n, 0);
        send_left_[to] = send_lengths_[to];
        recv_left_[from] = recv_lengths_[from];
        move_bytes();
    }
}

void TcpMeshBackend::move_bytes() {
    const auto n = static_cast<std::size_t>(world_);
    std::vector<std::size_t>& send_left = send_left_;
    std::vector<std::size_t>& recv_left = recv_left_;
    std::vector<std::size_t>& send_pos = send_pos_;
    std::vector<std::size_t>& recv_pos = recv_pos_;
    std::size_t pending = 0;
    for (std::size_t p = 0; p < n; ++p)
        pending += (send_left[p] > 0) + (recv_left[p] > 0);
    if (pending == 0)
        return; // pairs with nothing to move (a matrix pattern's zeros) are skipped

    std::vector<pollfd>& fds = poll_fds_;
    std::vector<std::size_t>& peer_of = poll_peer_; // fds index -> peer rank, or n for a watched fd
    fds.clear();
    peer_of.clear();
    for (std::size_t p = 0; p < n; ++p) {
        if (!send_left[p] && !recv_left[p])
            continue;
        fds.push_back({peers_[p].get(), 0, 0});
        peer_of.push_back(p);
    }
    for (int fd : control_.watch_fds()) {
        fds.push_back({fd, POLLIN, 0});
        peer_of.push_back(n);
    }

    Deadline silence(options_.timeout_s);
    while (pending > 0) {
        for (std::size_t k = 0; k < fds.size(); ++k) {
            const std::size_t p = peer_of[k];
            if (p == n)
                continue;
            fds[k].events = static_cast<short>((send_left[p] ? POLLOUT : 0) | (recv_left[p] ? POLLIN : 0));
            if (!fds[k].events)
                fds[k].fd = -1; // this pair is done; poll() skips negative fds
        }
        const int ready = ::poll(fds.data(), fds.size(), silence.poll_ms());
        if (ready < 0 && errno != EINTR)
            throw RuntimeFailure(std::string("poll: ") + std::strerror(errno));
        if (ready <= 0) {
            if (silence.expired())
                fail_silent_peers(send_left, recv_left);
            continue;
        }
        // Abort notices first: they name the rank that failed, which a connection reset
        // from a rank that is merely leaving would not.
        for (std::size_t k = 0; k < fds.size(); ++k)
            if (peer_of[k] == n && fds[k].fd >= 0 && fds[k].revents && !control_.check_watch_fd(fds[k].fd))
                fds[k].fd = -1;
        bool progress = false;
        for (std::size_t k = 0; k < fds.size(); ++k) {
            const short rev = fds[k].revents;
            if (!rev || fds[k].fd < 0)
                continue;
            const std::size_t p = peer_of[k];
            if (p == n)
                continue;
            const int fd = fds[k].fd;
            // Drain what the socket offers now (up to a budget) before polling again:
            // fewer poll() rounds, which matters when ranks share cores.
            if (recv_left[p] && (rev & (POLLIN | POLLHUP | POLLERR))) {
                for (std::size_t budget = kVisitBudgetBytes; recv_left[p] > 0 && budget > 0;) {
                    const ssize_t got = ::recv(fd, recv_buffer_.data() + recv_pos[p],
                                               std::min({recv_left[p], kChunkBytes, budget}), MSG_DONTWAIT);
                    if (got > 0) {
                        recv_pos[p] += static_cast<std::size_t>(got);
                        recv_left[p] -= static_cast<std::size_t>(got);
                        budget -= std::min(budget, static_cast<std::size_t>(got));
                        pending -= recv_left[p] == 0;
                        progress = true;
                        continue;
                    }
                    if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
                        throw PeerFailure(static_cast<int>(p), "rank " + std::to_string(p) + ": " +
                                                                   describe_peer_error(got == 0 ? 0 : errno));
                    break;
                }
            }
            if (send_left[p] && (rev & (POLLOUT | POLLERR))) {
                for (std::size_t budget = kVisitBudgetBytes; send_left[p] > 0 && budget > 0;) {
                    const ssize_t put =
                        ::send(fd, send_buffer_.data() + send_pos[p],
                               std::min({send_left[p], kChunkBytes, budget}), MSG_NOSIGNAL | MSG_DONTWAIT);
                    if (put > 0) {
                        send_pos[p] += static_cast<std::size_t>(put);
                        send_left[p] -= static_cast<std::size_t>(put);
                        budget -= std::min(budget, static_cast<std::size_t>(put));
                        pending -= send_left[p] == 0;
                        progress = true;
                        continue;
                    }
                    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                        throw PeerFailure(static_cast<int>(p),
                                          "rank " + std::to_string(p) + ": " + describe_peer_error(errno));
                    break;
                }
            } else if (!recv_left[p] && (rev & (POLLHUP | POLLERR))) {
                throw PeerFailure(static_cast<int>(p),
                                  "rank " + std::to_string(p) + ": " + describe_peer_error(0));
            }
        }
        if (progress)
            silence = Deadline(options_.timeout_s);
        else if (silence.expired())
            fail_silent_peers(send_left, recv_left);
    }
}

void TcpMeshBackend::fail_silent_peers(const std::vector<std::size_t>& send_left,
                                       const std::vector<std::size_t>& recv_left) const {
    std::string ranks;
    int first = -1;
    for (std::size_t p = 0; p < send_left.size(); ++p) {
        if (!send_left[p] && !recv_left[p])
            continue;
        if (first < 0)
            first = static_cast<int>(p);
        ranks += (ranks.empty() ? "" : ", ") + std::to_string(p);
    }
    // Pairwise: a rank waits on one partner per step, so a partner that is itself stuck
    // behind the hung rank is the one named here; the ranks next to the hung one name it.
    throw PeerFailure(first, "rank " + ranks + " moved no data for " + seconds_text(options_.timeout_s) +
                                 (pairwise_ ? " s (hung or unreachable, or itself waiting on another rank under "
                                              "--schedule pairwise)"
                                            : " s (hung or unreachable)"));
}

void TcpMeshBackend::write_send_data(int /*local_index*/, const std::vector<unsigned char>& bytes) {
    std::copy(bytes.begin(),
              bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), send_buffer_.size())),
              send_buffer_.begin());
}

std::vector<unsigned char> TcpMeshBackend::read_received_data(int /*local_index*/) {
    return recv_buffer_;
}

} // namespace moeprobe
