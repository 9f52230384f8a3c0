// The NCCL entry points the nccl backend uses, resolved from the node's own
// libnccl.so.2 (see nccl_library_locator.h) with dlsym; NCCL is never linked.
#pragma once

#include "nccl_library_locator.h"

#include <nccl.h>

#include <string>

namespace moeprobe {

class NcclApi {
public:
    // Throws RuntimeFailure (listing what was tried) when no usable NCCL is found.
    NcclApi(const std::string& explicit_path, const std::string& python_env);

    const LoadedNcclLibrary& library() const { return library_; }
    // ncclAlltoAll exists from NCCL 2.28.3; older libraries get grouped send/recv.
    bool has_alltoall() const { return alltoall != nullptr; }
    // ncclCommSplit exists from NCCL 2.18.1; older libraries get ncclCommInitRank per group.
    bool has_comm_split() const { return commSplit != nullptr; }
    void check(ncclResult_t rc, const char* call) const;

    ncclResult_t (*getUniqueId)(ncclUniqueId*) = nullptr;
    ncclResult_t (*commInitRank)(ncclComm_t*, int, ncclUniqueId, int) = nullptr;
    ncclResult_t (*commDestroy)(ncclComm_t) = nullptr;
    ncclResult_t (*commAbort)(ncclComm_t) = nullptr;
    ncclResult_t (*commGetAsyncError)(ncclComm_t, ncclResult_t*) = nullptr;
    const char* (*getErrorString)(ncclResult_t) = nullptr;
    ncclResult_t (*groupStart)() = nullptr;
    ncclResult_t (*groupEnd)() = nullptr;
    ncclResult_t (*send)(const void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t) = nullptr;
    ncclResult_t (*recv)(void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t) = nullptr;
    ncclResult_t (*alltoall)(const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t) = nullptr;
    // The last argument is an ncclConfig_t*; always null here (the new communicator inherits
    // the parent's configuration), declared void* so that older nccl.h still compile.
    ncclResult_t (*commSplit)(ncclComm_t, int, int, ncclComm_t*, void*) = nullptr;

private:
    LoadedNcclLibrary library_;
};

} // namespace moeprobe
