#include "nccl_api.h"

#include "probe_errors.h"

#include <dlfcn.h>

namespace moeprobe {
namespace {

constexpr int kFirstAlltoAllVersion = 22803; // NCCL 2.28.3
constexpr int kFirstCommSplitVersion = 21801; // NCCL 2.18.1

template <typename Fn> void resolve(void* handle, Fn& fn, const char* name, bool required = true) {
    fn = reinterpret_cast<Fn>(dlsym(handle, name));
    if (!fn && required)
        throw RuntimeFailure(std::string("the loaded libnccl.so.2 lacks ") + name);
}

} // namespace

NcclApi::NcclApi(const std::string& explicit_path, const std::string& python_env)
    : library_(load_nccl_library(explicit_path, python_env)) {
    if (!library_.handle) {
        std::string tried;
        for (const std::string& t : library_.tried)
            tried += "\n  " + t;
        throw RuntimeFailure("no usable libnccl.so.2 (give --nccl-lib PATH or --python-env DIR); tried:" +
                             tried);
    }
    void* h = library_.handle;
    resolve(h, getUniqueId, "ncclGetUniqueId");
    resolve(h, commInitRank, "ncclCommInitRank");
    resolve(h, commDestroy, "ncclCommDestroy");
    resolve(h, commAbort, "ncclCommAbort");
    resolve(h, commGetAsyncError, "ncclCommGetAsyncError");
    resolve(h, getErrorString, "ncclGetErrorString");
    resolve(h, groupStart, "ncclGroupStart");
    resolve(h, groupEnd, "ncclGroupEnd");
    resolve(h, send, "ncclSend");
    resolve(h, recv, "ncclRecv");
    if (library_.version_code >= kFirstAlltoAllVersion)
        resolve(h, alltoall, "ncclAlltoAll", false);
    if (library_.version_code >= kFirstCommSplitVersion)
        resolve(h, commSplit, "ncclCommSplit", false);
}

void NcclApi::check(ncclResult_t rc, const char* call) const {
    if (rc != ncclSuccess && rc != ncclInProgress)
        throw RuntimeFailure(std::string(call) +
                             " failed: " + (getErrorString ? getErrorString(rc) : "NCCL error") + " (" +
                             std::to_string(static_cast<int>(rc)) + ")");
}

} // namespace moeprobe
