// The rendezvous and control channel: a star around rank 0 (no MPI needed).
// Rank 0 listens on --rendezvous, every other rank connects (retrying until --timeout)
// and proves it holds the run's secret (peer_auth.h) before anything else; rank 0 takes
// the handshakes side by side, so one silent or slow connection holds up nobody, and the
// whole rendezvous has one deadline (--timeout) however the bytes come. Rank 0 gathers each rank's facts and broadcasts the rank table plus an opaque blob
// (the ncclUniqueId). Afterwards the same connections carry timing gathers, barriers
// and abort notices that name the missing rank.
#pragma once

#include "control_message.h"
#include "probe_options.h"
#include "rank_facts.h"
#include "peer_auth.h"
#include "socket_io.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace moeprobe {

class ControlPlane {
public:
    explicit ControlPlane(const ProbeOptions& options);
    ~ControlPlane();
    ControlPlane(const ControlPlane&) = delete;
    ControlPlane& operator=(const ControlPlane&) = delete;

    int rank() const { return rank_; }
    int world() const { return world_; }

    // Rank 0 binds the rendezvous address; the others connect to it.
    void open();
    // The address other ranks should use to reach this host: the local end of the
    // connection to rank 0, or the rendezvous host on rank 0; "127.0.0.1" alone.
    std::string default_listen_host() const;

    // Exchanges facts; returns the table indexed by rank. The blob travels from rank 0.
    std::vector<RankFacts> exchange_facts(const RankFacts& mine, std::string& blob_from_rank0);

    // Rank 0 receives every rank's payload (index = rank, its own included); the others
    // get an empty vector. Every rank then waits until rank 0 releases it, so this is
    // also a barrier.
    std::vector<std::string> gather(const std::string& payload);

    // Best effort: tell rank 0 (or, on rank 0, everybody) that a rank is missing.
    void broadcast_abort(int missing_rank, const std::string& message) noexcept;

    // Sockets to watch while a backend waits on peers, and the check to run when one is
    // readable: throws PeerFailure for an abort notice or a closed connection, returns
    // false for an ordinary message (stop watching that fd until the next call).
    std::vector<int> watch_fds() const;

    // Failure attribution. A rank that fails because of another keeps its sockets open
    // for a moment (see main), while a dead process's connections close at once. So on
    // rank 0, a control connection closed within wait_s points at the rank that really
    // died. Otherwise rank 0 reads the abort notices the other ranks sent meanwhile and
    // follows their names from its own (missing_rank): under --schedule pairwise the rank
    // it waited on may itself have been waiting on the one that stopped. Returns the rank
    // to name and the words to give (missing_rank and what unchanged when nothing points
    // elsewhere; on other ranks always unchanged). On other ranks, await_verdict waits up
    // to wait_s for rank 0's abort notice and returns it (missing rank -1 and empty text
    // when none came).
    std::pair<int, std::string> attribute(int missing_rank, const std::string& what, double wait_s);
    std::pair<int, std::string> await_verdict(double wait_s);
    bool check_watch_fd(int fd);

private:
    using MessageType = ControlType;
    void send_message(int fd, MessageType type, const std::string& payload, int peer_rank);
    // overall: a deadline the whole message must arrive by (the rendezvous), besides
    // the silence timeout.
    std::string recv_message(int fd, MessageType expected, int peer_rank, double timeout_s,
                             const Deadline* overall = nullptr);
    [[noreturn]] void throw_abort_notice(const std::string& payload);
    int rank_of_fd(int fd) const;

    const ProbeOptions& options_;
    int rank_;
    int world_;
    double timeout_s_;
    UniqueFd listener_;           // rank 0
    std::unique_ptr<AuthenticatingListener> acceptor_; // rank 0, over listener_
    std::vector<UniqueFd> peers_; // rank 0: index = rank; others: [0] = rank 0
};

} // namespace moeprobe
