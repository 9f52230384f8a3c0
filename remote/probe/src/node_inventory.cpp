#include "node_inventory.h"

#include "gpu_driver_facts.h"
#include "json_writer.h"
#include "nccl_library_locator.h"
#include "probe_options.h"
#include "probe_version.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace moeprobe {
namespace {

std::string read_trimmed(const std::string& path) {
    std::ifstream in(path);
    std::string s;
    if (!in || !std::getline(in, s))
        return "";
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
    return s;
}

std::vector<std::string> list_dir(const std::string& path) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(path.c_str())) {
        while (dirent* e = ::readdir(d)) {
            const std::string n = e->d_name;
            if (n != "." && n != "..")
                names.push_back(n);
        }
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                return line.substr(line.find_first_not_of(' ', colon + 1));
        }
    }
    return "";
}

std::uint64_t memory_total_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemTotal:")
            return kib * 1024;
    return 0;
}

// "100 Gb/sec (4X EDR)" -> 100.
double infiniband_rate_gbps(const std::string& rate) {
    std::istringstream s(rate);
    double v = 0;
    s >> v;
    return v;
}

void write_net_interfaces(JsonWriter& w, const std::string& sys) {
    w.key("nics").begin_array();
    for (const std::string& name : list_dir(sys + "/class/net")) {
        const std::string base = sys + "/class/net/" + name;
        w.begin_object();
        w.field("name", name);
        w.field("operstate", read_trimmed(base + "/operstate"));
        w.field("mac", read_trimmed(base + "/address"));
        const std::string mtu = read_trimmed(base + "/mtu");
        if (!mtu.empty())
            w.field("mtu", std::atoi(mtu.c_str()));
        else
            w.null_field("mtu");
        // speed is in Mb/s; virtual and down links report -1 or nothing.
        const std::string speed = read_trimmed(base + "/speed");
        const long mbps = speed.empty() ? -1 : std::atol(speed.c_str());
        if (mbps > 0)
            w.field("link_rate_gbps", static_cast<double>(mbps) / 1000.0);
        else
            w.null_field("link_rate_gbps");
        w.field("virtual", list_dir(base + "/device").empty());
        w.end_object();
    }
    w.end_array();

    w.key("infiniband").begin_array();
    for (const std::string& dev : list_dir(sys + "/class/infiniband")) {
        const std::string base = sys + "/class/infiniband/" + dev;
        w.begin_object();
        w.field("device", dev);
        w.field("node_guid", read_trimmed(base + "/node_guid"));
        w.key("ports").begin_array();
        for (const std::string& port : list_dir(base + "/ports")) {
            const std::string pb = base + "/ports/" + port;
            const std::string rate = read_trimmed(pb + "/rate");
            w.begin_object();
            w.field("port", std::atoi(port.c_str()));
            w.field("state", read_trimmed(pb + "/state"));
            w.field("link_layer", read_trimmed(pb + "/link_layer"));
            w.field("rate", rate);
            w.field("link_rate_gbps", infiniband_rate_gbps(rate));
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

} // namespace

std::string local_hostname() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0)
        return "unknown";
    return buf;
}

std::string node_inventory_json(const ProbeOptions& options, const std::string& sysfs_root) {
    const std::string sys = sysfs_root.empty() ? "/sys" : sysfs_root;
    JsonWriter w;
    w.begin_object();
    w.field("schema", "moe-probe-inventory/1");
    w.field("probe_version", kProbeVersion);
    w.field("hostname", local_hostname());
    w.key("cpu").begin_object();
    w.field("model", cpu_model());
    w.field("logical_cpus", static_cast<std::int64_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
    w.end_object();
    w.field("memory_bytes", memory_total_bytes());

    const GpuDriverFacts gpu = query_gpu_driver_facts();
    w.key("driver").begin_object();
    w.field("loaded", gpu.driver_loaded);
    w.field("library", gpu.driver_library);
    w.field("version", gpu.driver_version);
    w.field("cuda_version", cuda_version_text(gpu.cuda_driver_version));
    if (!gpu.error.empty())
        w.field("note", gpu.error);
    w.end_object();
    w.key("gpus").begin_array();
    for (const GpuDeviceFacts& d : gpu.devices) {
        w.begin_object();
        w.field("index", d.index);
        w.field("name", d.name);
        w.field("memory_bytes", d.memory_bytes);
        w.field("pci_bus_id", d.pci_bus_id);
        w.end_object();
    }
    w.end_array();
    w.field("gpu_count", static_cast<int>(gpu.devices.size()));

    const LoadedNcclLibrary nccl = load_nccl_library(options.nccl_lib, options.python_env);
    if (nccl.handle) {
        w.key("nccl").begin_object();
        w.field("version", nccl.version_text);
        w.field("version_code", nccl.version_code);
        w.field("path", nccl.path);
        w.end_object();
    } else {
        w.null_field("nccl");
    }
    write_net_interfaces(w, sys);
    w.end_object();
    return w.text();
}

} // namespace moeprobe
