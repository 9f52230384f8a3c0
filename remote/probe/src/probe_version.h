// Version and schema identifiers shared by the report writers and the bundle.
#pragma once

#ifndef MOEWB_PROBE_VERSION
#define MOEWB_PROBE_VERSION "0.0.0"
#endif

namespace moeprobe {
inline constexpr const char* kProbeVersion = MOEWB_PROBE_VERSION;
inline constexpr const char* kProbeJsonSchema = "moe-probe/2";
} // namespace moeprobe
