// Backend "tcp": host sockets in a full mesh within each EP group (a sub-mesh per group
// with --ep-size; all groups at once), non-blocking, driven by one poll() loop.
// Schedule "mesh": every pair in flight at once. Schedule "pairwise": n-1 steps, in step
// k this rank sends to rank+k and receives from rank-k, and the step ends when both are
// done. Runs anywhere; what the tests use. Both ends TCP_NODELAY; a connection between
// two ranks on one host gets a 128 KiB send buffer, others the kernel's auto-tuning
// (tcp_mesh_backend.cpp, kSameHostSendBuffer).
#pragma once

#include "alltoall_backend.h"
#include "socket_io.h"

#include <poll.h>

namespace moeprobe {

class TcpMeshBackend : public AllToAllBackend {
public:
    TcpMeshBackend(const ProbeOptions& options, ControlPlane& control);
    std::string name() const override { return "tcp"; }
    std::string schedule() const override { return pairwise_ ? "pairwise" : "mesh"; }
    void describe(RankFacts& mine, std::string& blob) override;
    void connect(const std::vector<RankFacts>& table, const std::string& blob) override;
    void prepare(const TrafficPlan& plan) override;
    std::vector<std::vector<double>> run(int iterations) override;
    void write_send_data(int local_index, const std::vector<unsigned char>& bytes) override;
    std::vector<unsigned char> read_received_data(int local_index) override;

private:
    void exchange_once();
    // Moves the bytes in send_left_/recv_left_ (per peer) from/to send_pos_/recv_pos_
    // until none are left; throws PeerFailure naming a peer that fails or stays silent.
    void move_bytes();
    [[noreturn]] void fail_silent_peers(const std::vector<std::size_t>& send_left,
                                        const std::vector<std::size_t>& recv_left) const;

    const ProbeOptions& options_;
    ControlPlane& control_;
    int rank_;
    int world_;
    bool pairwise_;
    UniqueFd listener_;
    std::vector<UniqueFd> peers_; // index = rank; invalid for this rank and ranks of other groups
    std::vector<int> group_;      // this rank's EP group, ascending (the world without --ep-size)
    std::size_t my_index_ = 0;    // this rank's position in group_
    TrafficPlan plan_;
    std::vector<unsigned char> send_buffer_;
    std::vector<unsigned char> recv_buffer_;
    // Per peer, for the current plan: where its chunk sits in each buffer and its length.
    std::vector<std::size_t> send_offsets_, recv_offsets_, send_lengths_, recv_lengths_;
    // One exchange's progress, per peer: next byte to move and bytes left (this step's).
    std::vector<std::size_t> send_pos_, recv_pos_, send_left_, recv_left_;
    std::vector<pollfd> poll_fds_;
    std::vector<std::size_t> poll_peer_;
};

} // namespace moeprobe
