// The CUDA driver API entry points the nccl backend uses, resolved from libcuda.so.1
// with dlsym at run time (never linked). Versioned names (_v2) are looked up
// explicitly because cuda.h maps the plain names to them with macros.
#pragma once

#include <cuda.h>

#include <string>

namespace moeprobe {

class CudaDriverApi {
public:
    // Loads libcuda.so.1 and calls cuInit; throws RuntimeFailure when that fails.
    static CudaDriverApi& instance();

    // Throws RuntimeFailure naming the call when rc is not CUDA_SUCCESS.
    void check(CUresult rc, const char* call) const;
    std::string error_text(CUresult rc) const;
    int driver_version() const { return driver_version_; }

    CUresult (*cuDeviceGetCount)(int*) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
    CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
    CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
    CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
    CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
    // Copies and fills go on the probe's own stream (created non-blocking, so it does not
    // wait for the legacy default stream that the synchronous cuMemcpy*/cuMemsetD8 use):
    // the stream-ordered variants, followed by cuStreamSynchronize.
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream) = nullptr;
    CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream) = nullptr;
    CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
    CUresult (*cuStreamCreate)(CUstream*, unsigned int) = nullptr;
    CUresult (*cuStreamDestroy)(CUstream) = nullptr;
    CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
    CUresult (*cuEventCreate)(CUevent*, unsigned int) = nullptr;
    CUresult (*cuEventDestroy)(CUevent) = nullptr;
    CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
    CUresult (*cuEventQuery)(CUevent) = nullptr;
    CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;

private:
    CudaDriverApi();
    void* handle_ = nullptr;
    int driver_version_ = 0;
    CUresult (*cuGetErrorString_)(CUresult, const char**) = nullptr;
};

} // namespace moeprobe
