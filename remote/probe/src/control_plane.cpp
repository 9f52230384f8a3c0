#include "control_plane.h"

#include "probe_errors.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace moeprobe {
namespace {

constexpr std::uint32_t kMagic = kControlMagic;
constexpr std::uint64_t kMaxPayload = 64ull << 20;
constexpr std::uint64_t kMaxHelloPayload = 1ull << 20; // one rank's facts: a few KiB
using Header = ControlHeader;

// Ranks wait on rank 0 a little longer than rank 0 waits on them, so that rank 0's
// abort notice, which names the missing rank, arrives before their own timeout.
double wait_on_rank0_s(double timeout_s) {
    return timeout_s + std::min(timeout_s, 5.0);
}

std::string ranks_text(const std::vector<int>& ranks) {
    std::string s;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        s += (i ? ", " : "") + std::to_string(ranks[i]);
    return s;
}

} // namespace

ControlPlane::ControlPlane(const ProbeOptions& options)
    : options_(options), rank_(options.rank), world_(options.world), timeout_s_(options.timeout_s) {}

ControlPlane::~ControlPlane() = default;

void ControlPlane::open() {
    if (world_ <= 1)
        return;
    const HostPort rendezvous = parse_host_port(options_.rendezvous, true);
    if (options_.secret.empty())
        throw UsageError(std::string("a run of more than one rank needs ") + kSecretVariable);
    if (rank_ == 0) {
        listener_ = listen_on(rendezvous);
        acceptor_ = std::make_unique<AuthenticatingListener>(listener_.get(), options_.secret, AuthChannel::Rendezvous,
                                                             handshake_seconds(timeout_s_));
        peers_.resize(static_cast<std::size_t>(world_));
        return;
    }
    // Connect and prove; a connection rank 0 dropped (a crowd of strangers at the door)
    // is tried again until the timeout.
    const Deadline deadline(timeout_s_);
    const std::string what = "rank 0 (rendezvous " + rendezvous.text() + ")";
    std::string refused;
    while (true) {
        UniqueFd fd = connect_with_retry(rendezvous, deadline, 0, what);
        try {
            authenticate_to_acceptor(fd.get(), options_.secret, AuthChannel::Rendezvous, rank_, deadline, 0, what);
            peers_.push_back(std::move(fd));
            return;
        } catch (const AuthRefused& e) {
            refused = e.what();
        }
        ::usleep(100 * 1000);
        if (deadline.expired())
            throw PeerFailure(0, refused);
    }
}

std::string ControlPlane::default_listen_host() const {
    if (world_ <= 1)
        return "127.0.0.1";
    if (rank_ == 0)
        return parse_host_port(options_.rendezvous, true).host;
    return local_address(peers_[0].get()).host;
}

void ControlPlane::send_message(int fd, MessageType type, const std::string& payload, int peer_rank) {
    const Header h{kMagic, static_cast<std::uint32_t>(type), payload.size()};
    send_exact(fd, &h, sizeof h, timeout_s_, peer_rank);
    if (!payload.empty())
        send_exact(fd, payload.data(), payload.size(), timeout_s_, peer_rank);
}

std::string ControlPlane::recv_message(int fd, MessageType expected, int peer_rank, double timeout_s,
                                       const Deadline* overall) {
    ControlFrameParser parser(expected == MessageType::Hello ? kMaxHelloPayload : kMaxPayload);
    std::vector<char> buffer(64 * 1024);
    // Each message has a deadline of its own, besides the silence timeout: a peer that
    // sends a byte now and then (each one restarting the silence timer) cannot hold this
    // rank past it. The first byte may take timeout_s; the whole message gets as long
    // again (docs/probe.md, "Timeouts").
    const Deadline own = Deadline(2 * timeout_s).earlier(overall);
    while (true) {
        const std::size_t n = recv_some(fd, buffer.data(), std::min(buffer.size(), parser.wanted()), timeout_s,
                                        peer_rank, &own);
        std::size_t used = 0;
        const auto status = parser.feed(buffer.data(), n, used);
        if (status == ControlFrameParser::Status::Malformed)
            throw PeerFailure(peer_rank, "rank " + std::to_string(peer_rank) + " sent a malformed control message (" +
                                             parser.error() + "; another program, or another probe version?)");
        if (status == ControlFrameParser::Status::Complete)
            break;
    }
    const MessageType type = parser.type();
    std::string payload = parser.take_payload();
    if (type == MessageType::Abort)
        throw_abort_notice(payload);
    if (type != expected)
        throw PeerFailure(peer_rank,
                          "rank " + std::to_string(peer_rank) + " sent an unexpected control message");
    return payload;
}

void ControlPlane::throw_abort_notice(const std::string& payload) {
    const auto [missing, text] = decode_abort_payload(payload);
    throw AbortNotice(missing, text.empty() ? "aborted by another rank" : text);
}

std::vector<RankFacts> ControlPlane::exchange_facts(const RankFacts& mine, std::string& blob) {
    if (world_ <= 1)
        return {mine};
    if (rank_ != 0) {
        send_message(peers_[0].get(), MessageType::Hello, serialize_rank_facts(mine), 0);
        const std::string reply =
            recv_message(peers_[0].get(), MessageType::Table, 0, wait_on_rank0_s(timeout_s_));
        const auto sep = reply.find('\x1d');
        if (sep == std::string::npos)
            throw PeerFailure(0, "rank 0 sent a malformed rank table");
        blob = reply.substr(sep + 1);
        std::vector<RankFacts> table = deserialize_rank_table(reply.substr(0, sep));
        if (static_cast<int>(table.size()) != world_)
            throw PeerFailure(0, "rank 0 sent a table of " + std::to_string(table.size()) + " ranks");
        for (RankFacts& f : table)
            make_peer_facts_printable(f);
        return table;
    }

    std::vector<RankFacts> table(static_cast<std::size_t>(world_));
    std::vector<bool> joined(static_cast<std::size_t>(world_), false);
    table[0] = mine;
    joined[0] = true;
    const Deadline deadline(timeout_s_);
    int missing = world_ - 1;
    while (missing > 0) {
        AuthenticatingListener::Peer peer = acceptor_->next(deadline);
        UniqueFd fd = std::move(peer.fd);
        if (!fd.valid()) {
            std::vector<int> absent;
            for (int r = 0; r < world_; ++r)
                if (!joined[static_cast<std::size_t>(r)])
                    absent.push_back(r);
            std::string msg = (absent.size() == 1 ? "rank " : "ranks ") + ranks_text(absent) +
                              " never joined the rendezvous within the timeout";
            if (acceptor_->dropped() > 0)
                msg += " (" + std::to_string(acceptor_->dropped()) +
                       " connection(s) that did not prove the run's secret were dropped)";
            broadcast_abort(absent.front(), msg);
            throw PeerFailure(absent.front(), msg);
        }
        RankFacts f;
        try {
            f = deserialize_rank_facts(
                recv_message(fd.get(), MessageType::Hello, peer.rank, timeout_s_, &deadline));
        } catch (const AbortNotice& e) {
            broadcast_abort(e.missing_rank(), e.what()); // a rank failed before it could join
            throw;
        } catch (const RuntimeFailure&) {
            continue; // it proved the secret but sent no facts in time; keep waiting
        }
        if (f.rank != peer.rank) {
            const std::string msg = "a connection that proved itself as rank " + std::to_string(peer.rank) +
                                    " sent the facts of rank " + std::to_string(f.rank);
            broadcast_abort(-1, msg);
            throw RuntimeFailure("rendezvous: " + msg);
        }
        make_peer_facts_printable(f);
        if (const std::string why = unusable_listen_address(f); !why.empty()) {
            const std::string msg = "rank " + std::to_string(f.rank) + " " + why;
            broadcast_abort(f.rank, msg);
            throw PeerFailure(f.rank, "rendezvous: " + msg);
        }
        if (f.world != world_ || f.rank <= 0 || f.rank >= world_ ||
            joined[static_cast<std::size_t>(f.rank)]) {
            const std::string msg = "rank " + std::to_string(f.rank) + " joined with world " +
                                    std::to_string(f.world) +
                                    (joined[static_cast<std::size_t>(std::clamp(f.rank, 0, world_ - 1))]
                                         ? " twice"
                                         : " (expected " + std::to_string(world_) + ")");
            broadcast_abort(-1, msg);
            throw RuntimeFailure("rendezvous: " + msg);
        }
        if (f.gpus_per_process != mine.gpus_per_process || f.backend != mine.backend) {
            const std::string msg = "rank " + std::to_string(f.rank) + " runs backend " + f.backend +
                                    " with -g " + std::to_string(f.gpus_per_process) + ", rank 0 runs " +
                                    mine.backend + " with -g " + std::to_string(mine.gpus_per_process);
            broadcast_abort(-1, msg);
            throw RuntimeFailure("rendezvous: " + msg);
        }
        if (f.schedule != mine.schedule) {
            const std::string msg = "rank " + std::to_string(f.rank) + " runs --schedule " + f.schedule +
                                    ", rank 0 runs --schedule " + mine.schedule;
            broadcast_abort(-1, msg);
            throw RuntimeFailure("rendezvous: " + msg);
        }
        if (f.ep_layout != mine.ep_layout) {
            const std::string msg = "rank " + std::to_string(f.rank) + " runs EP layout '" + f.ep_layout +
                                    "', rank 0 runs '" + mine.ep_layout +
                                    "' (give every rank the same --ep-size, --tp, --pp, --ep-order)";
            broadcast_abort(-1, msg);
            throw RuntimeFailure("rendezvous: " + msg);
        }
        joined[static_cast<std::size_t>(f.rank)] = true;
        peers_[static_cast<std::size_t>(f.rank)] = std::move(fd);
        table[static_cast<std::size_t>(f.rank)] = f;
        --missing;
    }
    acceptor_.reset();
    listener_.reset(); // nothing else joins; frees the rendezvous port early
    // A rank listening on a wildcard address is reached where its connection came from.
    for (int r = 0; r < world_; ++r) {
        RankFacts& f = table[static_cast<std::size_t>(r)];
        if (f.listen.empty())
            continue;
        HostPort hp = parse_host_port(f.listen, false);
        if (!is_wildcard_host(hp.host))
            continue;
        hp.host = r == 0 ? local_address(peers_[1].get()).host
                         : peer_address(peers_[static_cast<std::size_t>(r)].get()).host;
        f.listen = hp.text();
    }
    assign_local_ranks(table);
    const std::string reply = serialize_rank_table(table) + '\x1d' + blob;
    for (int r = 1; r < world_; ++r)
        send_message(peers_[static_cast<std::size_t>(r)].get(), MessageType::Table, reply, r);
    return table;
}

std::vector<std::string> ControlPlane::gather(const std::string& payload) {
    if (world_ <= 1)
        return {payload};
    if (rank_ != 0) {
        send_message(peers_[0].get(), MessageType::Data, payload, 0);
        recv_message(peers_[0].get(), MessageType::Release, 0, wait_on_rank0_s(timeout_s_));
        return {};
    }
    std::vector<std::string> all(static_cast<std::size_t>(world_));
    all[0] = payload;
    for (int r = 1; r < world_; ++r) {
        try {
            all[static_cast<std::size_t>(r)] =
                recv_message(peers_[static_cast<std::size_t>(r)].get(), MessageType::Data, r, timeout_s_);
        } catch (const PeerFailure& e) {
            broadcast_abort(e.missing_rank(), e.what());
            throw;
        }
    }
    for (int r = 1; r < world_; ++r)
        send_message(peers_[static_cast<std::size_t>(r)].get(), MessageType::Release, {}, r);
    return all;
}

void ControlPlane::broadcast_abort(int missing_rank, const std::string& message) noexcept {
    try {
        const std::string frame = encode_control_frame(MessageType::Abort, encode_abort_payload(missing_rank, message));
        for (std::size_t i = 0; i < peers_.size(); ++i) {
            if (!peers_[i].valid() || (rank_ == 0 && static_cast<int>(i) == missing_rank))
                continue;
            // A short, non-blocking write: the notice is small and the socket is idle.
            (void)::send(peers_[i].get(), frame.data(), frame.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        }
    } catch (...) {
    }
}

std::vector<int> ControlPlane::watch_fds() const {
    std::vector<int> fds;
    for (const UniqueFd& fd : peers_)
        if (fd.valid())
            fds.push_back(fd.get());
    return fds;
}

std::pair<int, std::string> ControlPlane::attribute(int missing_rank, const std::string& what,
                                                    double wait_s) {
    if (rank_ != 0)
        return {missing_rank, what};
    // What each rank reported (reporter -> the rank it named, and its words).
    std::map<int, std::pair<int, std::string>> named;
    const Deadline deadline(wait_s);
    while (true) {
        std::vector<pollfd> fds;
        bool read_notice = false;
        for (std::size_t r = 1; r < peers_.size(); ++r) {
            if (!peers_[r].valid())
                continue;
            const int rank = static_cast<int>(r);
            Header h{};
            const ssize_t n = ::recv(peers_[r].get(), &h, sizeof h, MSG_PEEK | MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                if (rank == missing_rank)
                    return {missing_rank, what};
                return {rank, "rank " + std::to_string(rank) + ": connection closed (the process ended or was killed)"};
            }
            if (n < 0) { // nothing pending: wait for it below
                fds.push_back({peers_[r].get(), POLLIN, 0});
            } else if (n == static_cast<ssize_t>(sizeof h) && h.magic == kMagic &&
                       h.type == static_cast<std::uint32_t>(MessageType::Abort) && named.count(rank) == 0) {
                named[rank] = {-1, {}};
                try {
                    recv_message(peers_[r].get(), MessageType::Abort, rank, 0.1);
                } catch (const AbortNotice& notice) {
                    named[rank] = {notice.missing_rank(), notice.what()};
                } catch (const PeerFailure&) {
                    // Its connection failed mid-notice: seen as closed on the next pass.
                }
                read_notice = true;
            }
            // Otherwise an ordinary message or a partial header: nothing to learn there.
        }
        if (deadline.expired() || (fds.empty() && !read_notice))
            break;
        if (!read_notice) // after a notice, look at every peer again at once
            ::poll(fds.data(), fds.size(), std::min(deadline.poll_ms(), 20));
    }
    // Follow the names: rank 0 may have waited on a rank that was itself waiting on the
    // one that stopped (one partner per step under --schedule pairwise). A rank that sent
    // no notice, or names rank 0 or a rank already on the path, ends the chain.
    std::vector<int> path{missing_rank};
    std::string text = what;
    while (missing_rank > 0) {
        const auto it = named.find(missing_rank);
        if (it == named.end())
            break;
        const int next = it->second.first;
        if (next <= 0 || std::find(path.begin(), path.end(), next) != path.end())
            break;
        text = "rank " + std::to_string(missing_rank) + " was waiting on it and reports: " + it->second.second;
        missing_rank = next;
        path.push_back(next);
    }
    if (missing_rank == 0) {
        // Rank 0 is here, so it is not the missing one: it was itself waiting (on a
        // pairwise partner) when a rank waiting on it gave up. The rank that sent no
        // notice while every other one did is the one that stopped.
        std::vector<int> silent;
        for (std::size_t r = 1; r < peers_.size(); ++r)
            if (named.count(static_cast<int>(r)) == 0)
                silent.push_back(static_cast<int>(r));
        if (silent.size() == 1) {
            missing_rank = silent.front();
            text = "rank " + std::to_string(missing_rank) +
                   " sent no notice while every other rank stopped waiting (hung or unreachable)";
        }
    }
    return {missing_rank, text};
}

std::pair<int, std::string> ControlPlane::await_verdict(double wait_s) {
    if (rank_ == 0 || peers_.empty() || !peers_[0].valid())
        return {-1, {}};
    const Deadline deadline(wait_s);
    while (!deadline.expired()) {
        pollfd p{peers_[0].get(), POLLIN, 0};
        if (::poll(&p, 1, deadline.poll_ms(50)) <= 0)
            continue;
        try {
            if (!check_watch_fd(p.fd))
                return {-1, {}}; // some other message; no verdict
        } catch (const AbortNotice& notice) {
            return {notice.missing_rank(), notice.what()};
        } catch (const PeerFailure&) {
            return {-1, {}}; // rank 0 itself is gone
        }
    }
    return {-1, {}};
}

int ControlPlane::rank_of_fd(int fd) const {
    if (rank_ != 0)
        return 0;
    for (std::size_t i = 0; i < peers_.size(); ++i)
        if (peers_[i].get() == fd)
            return static_cast<int>(i);
    return -1;
}

bool ControlPlane::check_watch_fd(int fd) {
    Header h{};
    const ssize_t n = ::recv(fd, &h, sizeof h, MSG_PEEK | MSG_DONTWAIT);
    const int peer = rank_of_fd(fd);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        const std::string msg =
            "rank " + std::to_string(peer) + ": " + describe_peer_error(n == 0 ? 0 : errno);
        if (rank_ == 0)
            broadcast_abort(peer, msg);
        throw PeerFailure(peer, msg);
    }
    if (n < static_cast<ssize_t>(sizeof h))
        return false; // a partial header: an ordinary message still arriving
    if (h.magic == kMagic && h.type == static_cast<std::uint32_t>(MessageType::Abort)) {
        try {
            recv_message(fd, MessageType::Abort, peer, timeout_s_);
        } catch (const PeerFailure& e) {
            if (rank_ == 0)
                broadcast_abort(e.missing_rank(), e.what());
            throw;
        }
    }
    return false;
}

} // namespace moeprobe
