#include "cuda_driver_api.h"

#include "probe_errors.h"

#include <dlfcn.h>

namespace moeprobe {
namespace {

template <typename Fn> void resolve(void* handle, Fn& fn, std::initializer_list<const char*> names) {
    for (const char* name : names) {
        if (void* sym = dlsym(handle, name)) {
            fn = reinterpret_cast<Fn>(sym);
            return;
        }
    }
    throw RuntimeFailure(std::string("libcuda.so.1 lacks ") + *names.begin() +
                         " (driver too old for this probe?)");
}

} // namespace

CudaDriverApi& CudaDriverApi::instance() {
    static CudaDriverApi api;
    return api;
}

CudaDriverApi::CudaDriverApi() {
    handle_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* err = dlerror();
        throw RuntimeFailure(std::string("the nccl backend needs the CUDA driver: ") +
                             (err ? err : "libcuda.so.1"));
    }
    CUresult (*init)(unsigned int) = nullptr;
    CUresult (*version)(int*) = nullptr;
    resolve(handle_, init, {"cuInit"});
    resolve(handle_, version, {"cuDriverGetVersion"});
    resolve(handle_, cuGetErrorString_, {"cuGetErrorString"});
    resolve(handle_, cuDeviceGetCount, {"cuDeviceGetCount"});
    resolve(handle_, cuDeviceGet, {"cuDeviceGet"});
    resolve(handle_, cuDeviceGetName, {"cuDeviceGetName"});
    resolve(handle_, cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    resolve(handle_, cuDevicePrimaryCtxRelease,
            {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
    resolve(handle_, cuCtxSetCurrent, {"cuCtxSetCurrent"});
    resolve(handle_, cuMemAlloc, {"cuMemAlloc_v2"});
    resolve(handle_, cuMemFree, {"cuMemFree_v2"});
    resolve(handle_, cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"});
    resolve(handle_, cuMemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"});
    resolve(handle_, cuMemsetD8Async, {"cuMemsetD8Async"});
    resolve(handle_, cuStreamCreate, {"cuStreamCreate"});
    resolve(handle_, cuStreamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
    resolve(handle_, cuStreamSynchronize, {"cuStreamSynchronize"});
    resolve(handle_, cuEventCreate, {"cuEventCreate"});
    resolve(handle_, cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
    resolve(handle_, cuEventRecord, {"cuEventRecord"});
    resolve(handle_, cuEventQuery, {"cuEventQuery"});
    resolve(handle_, cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    check(init(0), "cuInit");
    version(&driver_version_);
}

std::string CudaDriverApi::error_text(CUresult rc) const {
    const char* text = nullptr;
    if (cuGetErrorString_ && cuGetErrorString_(rc, &text) == CUDA_SUCCESS && text)
        return text;
    if (rc == CUDA_ERROR_STUB_LIBRARY)
        return "libcuda.so.1 is the toolkit's stub, not a driver (no NVIDIA driver on this machine?)";
    return "CUresult " + std::to_string(static_cast<int>(rc));
}

void CudaDriverApi::check(CUresult rc, const char* call) const {
    if (rc != CUDA_SUCCESS)
        throw RuntimeFailure(std::string(call) + " failed: " + error_text(rc));
}

} // namespace moeprobe
