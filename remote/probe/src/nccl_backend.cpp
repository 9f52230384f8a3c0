#include "nccl_backend.h"

#include "control_plane.h"
#include "probe_errors.h"
#include "probe_options.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <iostream>
#include <mutex>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace moeprobe {
namespace {

// ncclCommInitRank blocks until every rank has joined and offers no timeout. This
// watchdog ends the process (exit 3) when the call outlives --timeout or when the
// control channel reports a dead or aborting rank, so a missing peer cannot hang us.
class BlockingCallWatchdog {
public:
    BlockingCallWatchdog(ControlPlane& control, double timeout_s, std::string what)
        : control_(control), timeout_s_(timeout_s), what_(std::move(what)), thread_([this] { watch(); }) {}
    ~BlockingCallWatchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }

private:
    void watch() {
        const Deadline deadline(timeout_s_);
        std::vector<int> fds = control_.watch_fds();
        std::unique_lock<std::mutex> lock(mutex_);
        while (!done_) {
            lock.unlock();
            std::vector<pollfd> p;
            for (int fd : fds)
                p.push_back({fd, POLLIN, 0});
            ::poll(p.data(), p.size(), 100);
            for (std::size_t i = 0; i < p.size(); ++i) {
                if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                try {
                    if (!control_.check_watch_fd(p[i].fd))
                        fds.erase(std::find(fds.begin(), fds.end(), p[i].fd));
                } catch (const PeerFailure& e) {
                    give_up((e.missing_rank() >= 0
                                 ? "rank " + std::to_string(e.missing_rank()) + " is missing: "
                                 : "") +
                            e.what());
                }
                break;
            }
            lock.lock();
            if (!done_ && deadline.expired())
                give_up(what_ + " did not complete within the timeout (a rank is missing or hung)");
        }
    }
    [[noreturn]] void give_up(const std::string& why) {
        control_.broadcast_abort(-1, why);
        std::cerr << "moe-probe: error: " << why << std::endl;
        std::_Exit(kExitRuntime); // NCCL's own threads may be stuck; no orderly teardown
    }

    ControlPlane& control_;
    double timeout_s_;
    std::string what_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};

} // namespace

NcclBackend::NcclBackend(const ProbeOptions& options, ControlPlane& control)
    : options_(options), control_(control) {}

NcclBackend::~NcclBackend() {
    release_all();
}

void NcclBackend::describe(RankFacts& mine, std::string& blob) {
    cuda_ = &CudaDriverApi::instance();
    nccl_ = std::make_unique<NcclApi>(options_.nccl_lib, options_.python_env);
    if (options_.rank == 0) {
        // The whole world: one id, as ever. EP groups: a mode byte, then one id to split
        // from ('S') or one id per group ('I'); rank 0's NCCL decides for everybody.
        const EpLayout& layout = options_.layout;
        const bool split = !layout.whole_world && nccl_->has_comm_split();
        const int ids = layout.whole_world || split ? 1 : layout.group_count();
        if (!layout.whole_world)
            blob.assign(1, split ? 'S' : 'I');
        for (int i = 0; i < ids; ++i) {
            ncclUniqueId id{};
            nccl_->check(nccl_->getUniqueId(&id), "ncclGetUniqueId");
            blob.append(id.internal, sizeof id.internal);
        }
    }
    mine.listen.clear();
    update_facts(mine);
}

void NcclBackend::connect(const std::vector<RankFacts>& table, const std::string& blob) {
    const EpLayout& layout = options_.layout;
    char mode = 'W'; // the world
    std::string ids = blob;
    if (!layout.whole_world) {
        mode = blob.empty() ? '?' : blob[0];
        ids = blob.empty() ? std::string() : blob.substr(1);
    }
    const std::size_t id_count =
        mode == 'I' ? static_cast<std::size_t>(layout.group_count()) : (mode == 'W' || mode == 'S' ? 1 : 0);
    if (id_count == 0 || ids.size() != id_count * sizeof(ncclUniqueId::internal))
        throw RuntimeFailure("rank 0 sent no ncclUniqueId (or not one per EP group)");
    auto id_at = [&](std::size_t k) {
        ncclUniqueId id{};
        std::memcpy(id.internal, ids.data() + k * sizeof id.internal, sizeof id.internal);
        return id;
    };
    if (mode == 'S' && !nccl_->has_comm_split())
        throw RuntimeFailure("rank 0 splits the EP groups with ncclCommSplit, but this rank's NCCL (" +
                             nccl_->library().path + ") lacks it (NCCL >= 2.18.1 needed on every node)");

    const int g = options_.gpus_per_process;
    const int local_rank = options_.launcher_local_rank >= 0
                               ? options_.launcher_local_rank
                               : table[static_cast<std::size_t>(options_.rank)].local_rank;
    const int first_device = options_.first_device >= 0 ? options_.first_device : local_rank * g;
    int count = 0;
    cuda_->check(cuda_->cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (first_device + g > count)
        throw RuntimeFailure("this rank needs GPUs " + std::to_string(first_device) + ".." +
                             std::to_string(first_device + g - 1) + " but the node has " +
                             std::to_string(count));
    logical_world_ = options_.world * g;
    gpus_.resize(static_cast<std::size_t>(g));
    for (int i = 0; i < g; ++i) {
        LocalGpu& gpu = gpus_[static_cast<std::size_t>(i)];
        gpu.device_index = first_device + i;
        cuda_->check(cuda_->cuDeviceGet(&gpu.device, gpu.device_index), "cuDeviceGet");
        char name[256] = {};
        cuda_->cuDeviceGetName(name, sizeof name - 1, gpu.device);
        gpu.model = name;
        cuda_->check(cuda_->cuDevicePrimaryCtxRetain(&gpu.context, gpu.device), "cuDevicePrimaryCtxRetain");
        cuda_->check(cuda_->cuCtxSetCurrent(gpu.context), "cuCtxSetCurrent");
        cuda_->check(cuda_->cuStreamCreate(&gpu.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    }
    BlockingCallWatchdog watchdog(control_, options_.timeout_s,
                                  mode == 'S' ? "ncclCommInitRank/ncclCommSplit" : "ncclCommInitRank");
    if (mode == 'W' || mode == 'S') {
        // One communicator over the world (the all-to-all itself, or the parent to split).
        std::vector<ncclComm_t> world(static_cast<std::size_t>(g), nullptr);
        nccl_->check(nccl_->groupStart(), "ncclGroupStart");
        for (int i = 0; i < g; ++i) {
            cuda_->check(cuda_->cuCtxSetCurrent(gpus_[static_cast<std::size_t>(i)].context), "cuCtxSetCurrent");
            nccl_->check(nccl_->commInitRank(&world[static_cast<std::size_t>(i)], logical_world_, id_at(0),
                                             options_.rank * g + i),
                         "ncclCommInitRank");
        }
        nccl_->check(nccl_->groupEnd(), "ncclGroupEnd (ncclCommInitRank)");
        if (mode == 'W') {
            for (int i = 0; i < g; ++i)
                gpus_[static_cast<std::size_t>(i)].comm = world[static_cast<std::size_t>(i)];
            communicators_ = "world";
            return;
        }
        world_comms_ = world;
        // Color: the EP group; key: the position in it (= the new communicator's rank).
        nccl_->check(nccl_->groupStart(), "ncclGroupStart");
        for (int i = 0; i < g; ++i) {
            const auto me = static_cast<std::size_t>(options_.rank * g + i);
            cuda_->check(cuda_->cuCtxSetCurrent(gpus_[static_cast<std::size_t>(i)].context), "cuCtxSetCurrent");
            nccl_->check(nccl_->commSplit(world_comms_[static_cast<std::size_t>(i)], layout.group_of[me],
                                          layout.index_in_group[me], &gpus_[static_cast<std::size_t>(i)].comm,
                                          nullptr),
                         "ncclCommSplit");
        }
        nccl_->check(nccl_->groupEnd(), "ncclGroupEnd (ncclCommSplit)");
        communicators_ = "ncclCommSplit";
        return;
    }
    // One ncclCommInitRank per group, each with its group's id.
    nccl_->check(nccl_->groupStart(), "ncclGroupStart");
    for (int i = 0; i < g; ++i) {
        const auto me = static_cast<std::size_t>(options_.rank * g + i);
        LocalGpu& gpu = gpus_[static_cast<std::size_t>(i)];
        cuda_->check(cuda_->cuCtxSetCurrent(gpu.context), "cuCtxSetCurrent");
        nccl_->check(nccl_->commInitRank(&gpu.comm, layout.ep, id_at(static_cast<std::size_t>(layout.group_of[me])),
                                         layout.index_in_group[me]),
                     "ncclCommInitRank");
    }
    nccl_->check(nccl_->groupEnd(), "ncclGroupEnd (ncclCommInitRank)");
    communicators_ = "ncclCommInitRank per group";
}

void NcclBackend::update_facts(RankFacts& mine) {
    mine.gpu_models.clear();
    mine.gpu_devices.clear();
    for (const LocalGpu& g : gpus_) {
        mine.gpu_models.push_back(g.model);
        mine.gpu_devices.push_back(g.device_index);
    }
    mine.cuda_driver_version = cuda_ ? cuda_->driver_version() : 0;
    std::string driver;
    if (FILE* f = std::fopen("/sys/module/nvidia/version", "r")) {
        char buf[64] = {};
        if (std::fgets(buf, sizeof buf, f))
            driver = buf;
        std::fclose(f);
    }
    while (!driver.empty() && (driver.back() == '\n' || driver.back() == ' '))
        driver.pop_back();
    mine.gpu_driver_version = driver;
    if (nccl_) {
        mine.nccl_version_code = nccl_->library().version_code;
        mine.nccl_path = nccl_->library().path;
        mine.nccl_communicators = communicators_;
        mine.nccl_alltoall = nccl_->has_alltoall()
                                 ? "ncclAlltoAll (uniform patterns), grouped ncclSend/ncclRecv otherwise"
                                 : "grouped ncclSend/ncclRecv";
    }
}

void NcclBackend::prepare(const TrafficPlan& plan) {
    plan_ = plan;
    use_alltoall_ = nccl_->has_alltoall() && plan.uniform();
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
        LocalGpu& g = gpus_[i];
        const int r = options_.rank * static_cast<int>(gpus_.size()) + static_cast<int>(i);
        const std::size_t send_bytes = std::max<std::size_t>(plan.sent_by(r), 1);
        const std::size_t recv_bytes = std::max<std::size_t>(plan.received_by(r), 1);
        cuda_->check(cuda_->cuCtxSetCurrent(g.context), "cuCtxSetCurrent");
        if (send_bytes > g.send_capacity) {
            if (g.send)
                cuda_->cuMemFree(g.send);
            g.send = 0;
            g.send_capacity = 0;
            cuda_->check(cuda_->cuMemAlloc(&g.send, send_bytes), "cuMemAlloc (send buffer)");
            g.send_capacity = send_bytes;
        }
        if (recv_bytes > g.recv_capacity) {
            if (g.recv)
                cuda_->cuMemFree(g.recv);
            g.recv = 0;
            g.recv_capacity = 0;
            cuda_->check(cuda_->cuMemAlloc(&g.recv, recv_bytes), "cuMemAlloc (receive buffer)");
            g.recv_capacity = recv_bytes;
        }
        // On the probe's stream, done before anything else is queued: the non-blocking
        // stream would not wait for a fill on the default stream, and an all-to-all
        // could land before the zeroing of its receive buffer (seen on an H200 as
        // wrong bytes in the data check).
        cuda_->check(cuda_->cuMemsetD8Async(g.send, static_cast<unsigned char>(r), send_bytes, g.stream),
                     "cuMemsetD8Async");
        cuda_->check(cuda_->cuMemsetD8Async(g.recv, 0, recv_bytes, g.stream), "cuMemsetD8Async");
        cuda_->check(cuda_->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
    }
}

void NcclBackend::ensure_events(LocalGpu& g, std::size_t count) {
    cuda_->check(cuda_->cuCtxSetCurrent(g.context), "cuCtxSetCurrent");
    while (g.starts.size() < count) {
        CUevent a = nullptr, b = nullptr;
        cuda_->check(cuda_->cuEventCreate(&a, CU_EVENT_DEFAULT), "cuEventCreate");
        g.starts.push_back(a);
        cuda_->check(cuda_->cuEventCreate(&b, CU_EVENT_DEFAULT), "cuEventCreate");
        g.stops.push_back(b);
    }
}

void NcclBackend::enqueue_iteration() {
    const int g = static_cast<int>(gpus_.size());
    nccl_->check(nccl_->groupStart(), "ncclGroupStart");
    for (int i = 0; i < g; ++i) {
        const LocalGpu& gpu = gpus_[static_cast<std::size_t>(i)];
        const int me = options_.rank * g + i;
        // The peers are this rank's EP group; NCCL ranks are positions in the group.
        const std::vector<int>& members =
            options_.layout.groups[static_cast<std::size_t>(options_.layout.group_of[static_cast<std::size_t>(me)])];
        auto stream = reinterpret_cast<cudaStream_t>(gpu.stream);
        if (use_alltoall_) {
            nccl_->check(nccl_->alltoall(reinterpret_cast<const void*>(gpu.send),
                                         reinterpret_cast<void*>(gpu.recv), plan_.bytes(me, me), ncclUint8,
                                         gpu.comm, stream),
                         "ncclAlltoAll");
            continue;
        }
        for (std::size_t j = 0; j < members.size(); ++j) {
            const int peer = members[j];
            const int nccl_peer = static_cast<int>(j);
            if (const std::size_t n = plan_.bytes(me, peer); n > 0)
                nccl_->check(
                    nccl_->send(reinterpret_cast<const void*>(gpu.send + plan_.send_offset(me, peer)), n,
                                ncclUint8, nccl_peer, gpu.comm, stream),
                    "ncclSend");
            if (const std::size_t n = plan_.bytes(peer, me); n > 0)
                nccl_->check(nccl_->recv(reinterpret_cast<void*>(gpu.recv + plan_.recv_offset(me, peer)), n,
                                         ncclUint8, nccl_peer, gpu.comm, stream),
                             "ncclRecv");
        }
    }
    nccl_->check(nccl_->groupEnd(), "ncclGroupEnd");
}

void NcclBackend::wait_for(const std::vector<CUevent*>& last_stops) {
    // Poll instead of cuEventSynchronize so that a dead peer (reported on the control
    // channel) or a silent one (no completion within --timeout) ends the wait.
    Deadline silence(options_.timeout_s);
    std::vector<bool> done(last_stops.size(), false);
    std::size_t remaining = last_stops.size();
    std::vector<int> fds = control_.watch_fds();
    while (remaining > 0) {
        bool progress = false;
        for (std::size_t i = 0; i < last_stops.size(); ++i) {
            if (done[i])
                continue;
            const CUresult rc = cuda_->cuEventQuery(*last_stops[i]);
            if (rc == CUDA_SUCCESS) {
                done[i] = true;
                --remaining;
                progress = true;
            } else if (rc != CUDA_ERROR_NOT_READY) {
                cuda_->check(rc, "cuEventQuery");
            }
            ncclResult_t async = ncclSuccess;
            nccl_->commGetAsyncError(gpus_[i].comm, &async);
            if (async != ncclSuccess && async != ncclInProgress)
                nccl_->check(async, "NCCL (asynchronous error)");
        }
        if (remaining == 0)
            break;
        if (progress)
            silence = Deadline(options_.timeout_s);
        if (silence.expired())
            throw PeerFailure(-1, "the NCCL all-to-all made no progress for " +
                                      std::to_string(options_.timeout_s) +
                                      " s (a rank is hung or unreachable)");
        std::vector<pollfd> p;
        for (int fd : fds)
            p.push_back({fd, POLLIN, 0});
        if (::poll(p.data(), p.size(), 0) > 0) {
            for (const pollfd& q : p)
                if ((q.revents & (POLLIN | POLLHUP | POLLERR)) && !control_.check_watch_fd(q.fd))
                    fds.erase(std::find(fds.begin(), fds.end(), q.fd));
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

std::vector<std::vector<double>> NcclBackend::run(int iterations) {
    const auto n = static_cast<std::size_t>(iterations);
    for (LocalGpu& g : gpus_)
        ensure_events(g, n);
    for (std::size_t k = 0; k < n; ++k) {
        for (LocalGpu& g : gpus_)
            cuda_->check(cuda_->cuEventRecord(g.starts[k], g.stream), "cuEventRecord");
        enqueue_iteration();
        for (LocalGpu& g : gpus_)
            cuda_->check(cuda_->cuEventRecord(g.stops[k], g.stream), "cuEventRecord");
    }
    std::vector<CUevent*> last;
    for (LocalGpu& g : gpus_)
        last.push_back(&g.stops[n - 1]);
    wait_for(last);
    std::vector<std::vector<double>> seconds(gpus_.size(), std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < gpus_.size(); ++i)
        for (std::size_t k = 0; k < n; ++k) {
            float ms = 0;
            cuda_->check(cuda_->cuEventElapsedTime(&ms, gpus_[i].starts[k], gpus_[i].stops[k]),
                         "cuEventElapsedTime");
            seconds[i][k] = static_cast<double>(ms) * 1e-3;
        }
    return seconds;
}

void NcclBackend::write_send_data(int local_index, const std::vector<unsigned char>& bytes) {
    LocalGpu& g = gpus_[static_cast<std::size_t>(local_index)];
    cuda_->check(cuda_->cuCtxSetCurrent(g.context), "cuCtxSetCurrent");
    if (!bytes.empty()) {
        cuda_->check(cuda_->cuMemcpyHtoDAsync(g.send, bytes.data(), std::min(bytes.size(), g.send_capacity),
                                              g.stream),
                     "cuMemcpyHtoDAsync");
        cuda_->check(cuda_->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
    }
}

std::vector<unsigned char> NcclBackend::read_received_data(int local_index) {
    LocalGpu& g = gpus_[static_cast<std::size_t>(local_index)];
    const int r = options_.rank * static_cast<int>(gpus_.size()) + local_index;
    std::vector<unsigned char> bytes(plan_.received_by(r));
    cuda_->check(cuda_->cuCtxSetCurrent(g.context), "cuCtxSetCurrent");
    if (!bytes.empty()) {
        cuda_->check(cuda_->cuMemcpyDtoHAsync(bytes.data(), g.recv, bytes.size(), g.stream), "cuMemcpyDtoHAsync");
        cuda_->check(cuda_->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
    }
    return bytes;
}

void NcclBackend::finish() {
    for (LocalGpu& g : gpus_)
        if (g.stream)
            cuda_->cuStreamSynchronize(g.stream);
    for (LocalGpu& g : gpus_)
        if (g.comm) {
            nccl_->commDestroy(g.comm);
            g.comm = nullptr;
        }
    for (ncclComm_t& c : world_comms_)
        if (c) {
            nccl_->commDestroy(c);
            c = nullptr;
        }
    finished_ = true;
}

void NcclBackend::release_all() noexcept {
    if (!cuda_)
        return;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
        LocalGpu& g = gpus_[i];
        if (g.comm && nccl_)
            nccl_->commAbort(g.comm); // a failed run: never wait for peers that may be gone
        g.comm = nullptr;
        if (i < world_comms_.size() && world_comms_[i] && nccl_)
            nccl_->commAbort(world_comms_[i]); // the parent a group was split from
        if (i < world_comms_.size())
            world_comms_[i] = nullptr;
        if (g.context)
            cuda_->cuCtxSetCurrent(g.context);
        for (CUevent e : g.starts)
            cuda_->cuEventDestroy(e);
        for (CUevent e : g.stops)
            cuda_->cuEventDestroy(e);
        if (g.send)
            cuda_->cuMemFree(g.send);
        if (g.recv)
            cuda_->cuMemFree(g.recv);
        if (g.stream)
            cuda_->cuStreamDestroy(g.stream);
        if (g.context)
            cuda_->cuDevicePrimaryCtxRelease(g.device);
    }
    gpus_.clear();
}

} // namespace moeprobe
