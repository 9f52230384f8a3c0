// Backend "nccl": ncclAlltoAll where the loaded NCCL has it (>= 2.28.3) and the pattern
// is uniform, grouped ncclSend/ncclRecv otherwise. With EP groups (--ep-size) one
// communicator per group: ncclCommSplit of a world communicator where the loaded NCCL
// has it (>= 2.18.1, as rank 0 finds it), else ncclCommInitRank per group with a
// ncclUniqueId per group that rank 0 makes and sends with the rank table. Device memory, streams and events
// come from the CUDA driver API on each GPU's primary context. One process per GPU,
// or one process driving -g local GPUs.
#pragma once

#include "alltoall_backend.h"
#include "cuda_driver_api.h"
#include "nccl_api.h"
#include "probe_options.h"

#include <memory>
#include <vector>

namespace moeprobe {

class NcclBackend : public AllToAllBackend {
public:
    NcclBackend(const ProbeOptions& options, ControlPlane& control);
    ~NcclBackend() override;
    std::string name() const override { return "nccl"; }
    int local_rank_count() const override { return options_.gpus_per_process; }
    void describe(RankFacts& mine, std::string& blob) override;
    void connect(const std::vector<RankFacts>& table, const std::string& blob) override;
    void update_facts(RankFacts& mine) override;
    void finish() override;
    void prepare(const TrafficPlan& plan) override;
    std::vector<std::vector<double>> run(int iterations) override;
    void write_send_data(int local_index, const std::vector<unsigned char>& bytes) override;
    std::vector<unsigned char> read_received_data(int local_index) override;

private:
    struct LocalGpu {
        int device_index = 0;
        CUdevice device = 0;
        CUcontext context = nullptr;
        CUstream stream = nullptr;
        ncclComm_t comm = nullptr;
        CUdeviceptr send = 0;
        CUdeviceptr recv = 0;
        std::size_t send_capacity = 0;
        std::size_t recv_capacity = 0;
        std::vector<CUevent> starts;
        std::vector<CUevent> stops;
        std::string model;
    };
    void enqueue_iteration();
    void wait_for(const std::vector<CUevent*>& last_stops);
    void ensure_events(LocalGpu& g, std::size_t count);
    void release_all() noexcept;

    const ProbeOptions& options_;
    ControlPlane& control_;
    CudaDriverApi* cuda_ = nullptr;
    std::unique_ptr<NcclApi> nccl_;
    std::vector<LocalGpu> gpus_;
    // With EP groups and ncclCommSplit: the world communicators the groups were split from.
    std::vector<ncclComm_t> world_comms_;
    std::string communicators_ = "world"; // how the communicators were made (reported)
    TrafficPlan plan_;
    bool use_alltoall_ = false;
    bool finished_ = false;
    int logical_world_ = 0;
};

} // namespace moeprobe
