// A stand-in libcuda.so.1 for tests on machines without GPUs: "device memory" is host
// memory, work runs synchronously, events hold host timestamps. Only the entry points
// moe-probe resolves exist. CUresult, CUdevice are ints; handles are opaque pointers.
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace {
struct FakeEvent {
    double seconds = 0;
};
double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
int device_count() {
    const char* n = std::getenv("FAKE_CUDA_DEVICES");
    return n ? std::atoi(n) : 2;
}
} // namespace

extern "C" {
int cuInit(unsigned) {
    return 0;
}
int cuDriverGetVersion(int* v) {
    *v = 12080;
    return 0;
}
int cuGetErrorString(int, const char** s) {
    *s = "fake CUDA error";
    return 0;
}
int cuDeviceGetCount(int* n) {
    *n = device_count();
    return 0;
}
int cuDeviceGet(int* d, int i) {
    *d = i;
    return i < device_count() ? 0 : 101;
}
int cuDeviceGetName(char* name, int len, int) {
    std::strncpy(name, "Fake GPU", static_cast<std::size_t>(len));
    return 0;
}
int cuDeviceTotalMem_v2(std::size_t* b, int) {
    *b = std::size_t{80} << 30;
    return 0;
}
int cuDeviceGetPCIBusId(char* id, int len, int d) {
    std::strncpy(id, d == 0 ? "0000:01:00.0" : "0000:02:00.0", static_cast<std::size_t>(len));
    return 0;
}
int cuDevicePrimaryCtxRetain(void** ctx, int d) {
    *ctx = reinterpret_cast<void*>(static_cast<std::uintptr_t>(0x1000 + d));
    return 0;
}
int cuDevicePrimaryCtxRelease_v2(int) {
    return 0;
}
int cuCtxSetCurrent(void*) {
    return 0;
}
int cuMemAlloc_v2(unsigned long long* p, std::size_t n) {
    *p = reinterpret_cast<unsigned long long>(std::malloc(n));
    return *p ? 0 : 2;
}
int cuMemFree_v2(unsigned long long p) {
    std::free(reinterpret_cast<void*>(p));
    return 0;
}
// Only the stream-ordered copies and fills: the probe's stream is non-blocking, so the
// synchronous cuMemcpyHtoD/cuMemsetD8 (legacy default stream) would race with its work
// on a real GPU; their absence here makes a probe that resolves them fail these tests.
int cuMemcpyHtoDAsync_v2(unsigned long long d, const void* s, std::size_t n, void*) {
    std::memcpy(reinterpret_cast<void*>(d), s, n);
    return 0;
}
int cuMemcpyDtoHAsync_v2(void* d, unsigned long long s, std::size_t n, void*) {
    std::memcpy(d, reinterpret_cast<void*>(s), n);
    return 0;
}
int cuMemsetD8Async(unsigned long long d, unsigned char v, std::size_t n, void*) {
    std::memset(reinterpret_cast<void*>(d), v, n);
    return 0;
}
int cuStreamCreate(void** s, unsigned) {
    *s = std::malloc(1);
    return 0;
}
int cuStreamDestroy_v2(void* s) {
    std::free(s);
    return 0;
}
int cuStreamSynchronize(void*) {
    return 0;
}
int cuEventCreate(void** e, unsigned) {
    *e = new FakeEvent;
    return 0;
}
int cuEventDestroy_v2(void* e) {
    delete static_cast<FakeEvent*>(e);
    return 0;
}
int cuEventRecord(void* e, void*) {
    static_cast<FakeEvent*>(e)->seconds = now_s();
    return 0;
}
int cuEventQuery(void*) {
    return 0;
}
int cuEventElapsedTime_v2(float* ms, void* a, void* b) {
    *ms =
        static_cast<float>((static_cast<FakeEvent*>(b)->seconds - static_cast<FakeEvent*>(a)->seconds) * 1e3);
    return 0;
}
}
