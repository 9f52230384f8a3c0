// GPU facts through the CUDA driver API, loaded with dlopen (libcuda.so.1). On a
// machine without the driver the facts are simply empty. Needs no CUDA headers, so
// inventory works in tcp-only builds too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace moeprobe {

struct GpuDeviceFacts {
    int index = 0;
    std::string name;
    std::uint64_t memory_bytes = 0;
    std::string pci_bus_id;
};

struct GpuDriverFacts {
    bool driver_loaded = false;
    std::string driver_library;  // path of libcuda.so.1 when loaded
    std::string driver_version;  // kernel module version (/sys/module/nvidia/version)
    int cuda_driver_version = 0; // cuDriverGetVersion, e.g. 12080
    std::vector<GpuDeviceFacts> devices;
    std::string error; // why nothing was found, when nothing was
};

GpuDriverFacts query_gpu_driver_facts();

// 12080 -> "12.8".
std::string cuda_version_text(int code);

} // namespace moeprobe
