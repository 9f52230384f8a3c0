#include "gpu_driver_facts.h"

#include <climits>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <link.h>

namespace moeprobe {
namespace {

// The few driver entry points inventory needs, declared with plain types: CUresult and
// CUdevice are ints in the driver ABI.
using CuInit = int (*)(unsigned);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceTotalMem = int (*)(std::size_t*, int);
using CuDeviceGetPciBusId = int (*)(char*, int, int);

std::string read_first_line(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace

std::string cuda_version_text(int code) {
    if (code <= 0)
        return "";
    return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

GpuDriverFacts query_gpu_driver_facts() {
    GpuDriverFacts f;
    f.driver_version = read_first_line("/sys/module/nvidia/version");
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* err = dlerror();
        f.error = std::string("libcuda.so.1 not loadable: ") + (err ? err : "unknown");
        return f;
    }
    f.driver_loaded = true;
    link_map* map = nullptr;
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) {
        char resolved[PATH_MAX];
        f.driver_library = ::realpath(map->l_name, resolved) ? resolved : map->l_name;
    }
    auto init = reinterpret_cast<CuInit>(dlsym(h, "cuInit"));
    auto version = reinterpret_cast<CuDriverGetVersion>(dlsym(h, "cuDriverGetVersion"));
    auto count = reinterpret_cast<CuDeviceGetCount>(dlsym(h, "cuDeviceGetCount"));
    auto get = reinterpret_cast<CuDeviceGet>(dlsym(h, "cuDeviceGet"));
    auto name = reinterpret_cast<CuDeviceGetName>(dlsym(h, "cuDeviceGetName"));
    auto mem = reinterpret_cast<CuDeviceTotalMem>(dlsym(h, "cuDeviceTotalMem_v2"));
    auto bus = reinterpret_cast<CuDeviceGetPciBusId>(dlsym(h, "cuDeviceGetPCIBusId"));
    if (version)
        version(&f.cuda_driver_version);
    if (!init || !count || !get) {
        f.error = "libcuda.so.1 lacks cuInit/cuDeviceGetCount";
        return f; // the handle stays open: unloading the driver library is not worth the risk
    }
    if (const int rc = init(0); rc != 0) {
        f.error = "cuInit failed with CUresult " + std::to_string(rc);
        return f;
    }
    int n = 0;
    count(&n);
    for (int i = 0; i < n; ++i) {
        int dev = 0;
        if (get(&dev, i) != 0)
            continue;
        GpuDeviceFacts d;
        d.index = i;
        char buf[256] = {};
        if (name && name(buf, sizeof buf - 1, dev) == 0)
            d.name = buf;
        std::size_t bytes = 0;
        if (mem && mem(&bytes, dev) == 0)
            d.memory_bytes = bytes;
        char pci[64] = {};
        if (bus && bus(pci, sizeof pci - 1, dev) == 0)
            d.pci_bus_id = pci;
        f.devices.push_back(d);
    }
    return f;
}

} // namespace moeprobe
