// Backend "tcp": host sockets in a full mesh, non-blocking, every pair in flight at
// once, driven by one poll() loop. Runs anywhere; what the tests use.
#pragma once

#include "alltoall_backend.h"
#include "socket_io.h"

namespace moeprobe {

class TcpMeshBackend : public AllToAllBackend {
public:
    TcpMeshBackend(const ProbeOptions& options, ControlPlane& control);
    std::string name() const override { return "tcp"; }
    void describe(RankFacts& mine, std::string& blob) override;
    void connect(const std::vector<RankFacts>& table, const std::string& blob) override;
    void prepare(const TrafficPlan& plan) override;
    std::vector<double> run(int iterations) override;
    void write_send_data(int local_index, const std::vector<unsigned char>& bytes) override;
    std::vector<unsigned char> read_received_data(int local_index) override;

private:
    void exchange_once();
    [[noreturn]] void fail_silent_peers(const std::vector<std::size_t>& send_left,
                                        const std::vector<std::size_t>& recv_left) const;

    const ProbeOptions& options_;
    ControlPlane& control_;
    int rank_;
    int world_;
    UniqueFd listener_;
    std::vector<UniqueFd> peers_; // index = rank; invalid for this rank
    TrafficPlan plan_;
    std::vector<unsigned char> send_buffer_;
    std::vector<unsigned char> recv_buffer_;
    // Per peer, for the current plan: where its chunk sits in each buffer and its length.
    std::vector<std::size_t> send_offsets_, recv_offsets_, send_lengths_, recv_lengths_;
};

} // namespace moeprobe
