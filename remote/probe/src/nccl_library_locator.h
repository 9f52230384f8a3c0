// Finds and loads the node's own libnccl.so.2 (the one its training uses) at run time.
// Search order: --nccl-lib PATH (file or directory); --python-env DIR
// (DIR/lib/python3*/site-packages/nvidia/nccl/lib); LD_LIBRARY_PATH and the system
// library path (dlopen by soname); the CUDA toolkit ($CUDA_HOME, $CUDA_PATH,
// /usr/local/cuda); a libnccl.so.2 next to the moe-probe binary (the bundle's fallback).
#pragma once

#include <string>
#include <vector>

namespace moeprobe {

struct LoadedNcclLibrary {
    void* handle = nullptr;         // dlopen handle, kept open for the process lifetime
    std::string path;               // the file actually loaded
    int version_code = 0;           // ncclGetVersion(), e.g. 22809
    std::string version_text;       // "2.28.9"
    std::vector<std::string> tried; // what was attempted and why it failed
};

// Never throws; handle is null when no library could be loaded.
LoadedNcclLibrary load_nccl_library(const std::string& explicit_path, const std::string& python_env);

// 22809 -> "2.28.9"; 2708 (pre-2.9 encoding) -> "2.7.8".
std::string nccl_version_text(int code);

// Directory of the running executable ("" when unknown).
std::string executable_directory();

} // namespace moeprobe
