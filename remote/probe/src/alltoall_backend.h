// The backend interface: a backend only moves bytes, each rank within its EP group
// (options.layout; without --ep-size one group, the world). The harness (benchmark_harness)
// times, repeats, gathers and computes statistics, as nccl-tests' common.cu does for
// each collective.
#pragma once

#include "rank_facts.h"
#include "traffic_plan.h"

#include <memory>
#include <string>
#include <vector>

namespace moeprobe {

class ControlPlane;
struct ProbeOptions;

class AllToAllBackend {
public:
    virtual ~AllToAllBackend() = default;
    virtual std::string name() const = 0;
    // How the pairs are scheduled: "mesh" (every pair in flight at once; NCCL's grouped
    // send/receive) or "pairwise" (tcp --schedule pairwise).
    virtual std::string schedule() const { return "mesh"; }

    // Ranks of the traffic plan this process drives (nccl -g N: N GPUs; tcp: 1).
    virtual int local_rank_count() const { return 1; }

    // Before the rendezvous: add what peers need (listen address, GPU facts) to this
    // rank's facts; rank 0 may fill blob (the ncclUniqueId) for everybody.
    virtual void describe(RankFacts& mine, std::string& blob) = 0;
    // After the rendezvous: connect to the peers.
    virtual void connect(const std::vector<RankFacts>& table, const std::string& blob) = 0;

    // After connect(): facts only known once connected (devices chosen, NCCL loaded).
    virtual void update_facts(RankFacts& /*mine*/) {}
    // The sweep completed on every rank: release resources in the orderly way (an
    // unfinished backend is torn down with aborts instead, so a dead peer cannot hang it).
    virtual void finish() {}

    // Buffers for one sweep size; called before run() at every size.
    virtual void prepare(const TrafficPlan& plan) = 0;
    // Runs iterations back to back and returns each one's seconds, per local rank
    // ([local index][iteration]; with EP groups, a process's local ranks may belong to
    // different groups, so they are timed apart).
    virtual std::vector<std::vector<double>> run(int iterations) = 0;

    // Validation: the harness writes known bytes, runs once, reads back.
    virtual void write_send_data(int local_index, const std::vector<unsigned char>& bytes) = 0;
    virtual std::vector<unsigned char> read_received_data(int local_index) = 0;
};

// Throws UsageError for an unknown backend, RuntimeFailure when nccl was not built in.
std::unique_ptr<AllToAllBackend> make_alltoall_backend(const ProbeOptions& options, ControlPlane& control);

// True when this binary carries the nccl backend.
bool nccl_backend_built();

} // namespace moeprobe
