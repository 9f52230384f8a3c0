#pragma once
// What a communication kernel (or gloo CPU op) is, from its name alone; whether an
// NCCL kernel is the all-to-all of expert parallelism is decided later, across ranks,
// from its collective name and process group (StepAnatomy, CommKernels.h). Shared by
// the Qt-free digest (core/anatomy/digest) and RankTrace.
#include <cstdint>

namespace moewb::anatomy {

enum class CommKind : std::uint8_t {
    NcclAllToAll,   // c10d collective all_to_all* / alltoall*, or ncclDevKernel_AllToAll*
    NcclSendRecv,   // ncclDevKernel_SendRecv / ncclKernel_SendRecv_*: a2a only in an EP group
    NcclOther,      // AllReduce, AllGather, ReduceScatter, Broadcast, ... (DP/TP/PP)
    EpDispatch,     // non-NCCL dispatch kernels by name (DeepEP, HybridEP, NCCL-EP; CommKernels.h)
    EpCombine,      // their combine kernels
    EpOther,        // their notify/layout kernels
    GlooAllToAll,   // legacy CPU: gloo:all_to_all*, gloo:alltoall*
    GlooOther,      // legacy CPU: other gloo:* ops
};

// The largest CommKind value (readers of a digest from elsewhere check against it).
inline constexpr int kLastCommKind = int(CommKind::GlooOther);

} // namespace moewb::anatomy
