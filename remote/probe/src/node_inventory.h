// --inventory: this node's facts as JSON (schema "moe-probe-inventory/1"): hostname,
// CPU, memory, GPUs (driver API when libcuda loads), NCCL, NICs and link rates from
// /sys/class/net and /sys/class/infiniband. Pre-fills the workbench's config record.
#pragma once

#include <string>

namespace moeprobe {

struct ProbeOptions;

// sysfs_root lets tests point at a fake tree; "" means "/sys".
std::string node_inventory_json(const ProbeOptions& options, const std::string& sysfs_root = "");

std::string local_hostname();

} // namespace moeprobe
