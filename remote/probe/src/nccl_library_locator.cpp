#include "nccl_library_locator.h"

#include <climits>
#include <cstdlib>
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

namespace moeprobe {
namespace {

constexpr const char* kSoname = "libnccl.so.2";

bool is_directory(const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string loaded_path(void* handle, const std::string& fallback) {
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) {
        char resolved[PATH_MAX];
        if (::realpath(map->l_name, resolved))
            return resolved;
        return map->l_name;
    }
    return fallback;
}

bool try_open(const std::string& what, LoadedNcclLibrary& lib) {
    void* h = dlopen(what.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* err = dlerror();
        lib.tried.push_back(what + ": " + (err ? err : "not loadable"));
        return false;
    }
    using GetVersion = int (*)(int*);
    auto get_version = reinterpret_cast<GetVersion>(dlsym(h, "ncclGetVersion"));
    int code = 0;
    if (!get_version || get_version(&code) != 0) {
        lib.tried.push_back(what + ": no usable ncclGetVersion");
        dlclose(h);
        return false;
    }
    lib.handle = h;
    lib.path = loaded_path(h, what);
    lib.version_code = code;
    lib.version_text = nccl_version_text(code);
    return true;
}

std::vector<std::string> python_env_candidates(const std::string& env) {
    std::vector<std::string> out;
    for (const std::string& lib_dir : {env + "/lib", env + "/lib64"}) {
        DIR* d = ::opendir(lib_dir.c_str());
        if (!d)
            continue;
        while (dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.rfind("python3", 0) == 0)
                out.push_back(lib_dir + "/" + name + "/site-packages/nvidia/nccl/lib/" + kSoname);
        }
        ::closedir(d);
    }
    out.push_back(env + "/nvidia/nccl/lib/" + kSoname); // DIR given as site-packages itself
    return out;
}

} // namespace

std::string nccl_version_text(int code) {
    if (code <= 0)
        return "";
    int major, minor, patch;
    if (code < 10000) { // NCCL before 2.9: major*1000 + minor*100 + patch
        major = code / 1000;
        minor = (code % 1000) / 100;
        patch = code % 100;
    } else {
        major = code / 10000;
        minor = (code % 10000) / 100;
        patch = code % 100;
    }
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string executable_directory() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return "";
    std::string p(buf, static_cast<std::size_t>(n));
    return p.substr(0, p.rfind('/'));
}

LoadedNcclLibrary load_nccl_library(const std::string& explicit_path, const std::string& python_env) {
    LoadedNcclLibrary lib;
    if (!explicit_path.empty()) {
        // An explicit choice is final: falling back silently would measure another NCCL.
        try_open(is_directory(explicit_path) ? explicit_path + "/" + kSoname : explicit_path, lib);
        return lib;
    }
    if (!python_env.empty()) {
        for (const std::string& c : python_env_candidates(python_env))
            if (is_file(c) && try_open(c, lib))
                return lib;
        lib.tried.push_back(python_env + ": no nvidia/nccl/lib/" + kSoname);
    }
    if (try_open(kSoname, lib)) // LD_LIBRARY_PATH, ld.so.cache, system directories
        return lib;
    std::vector<std::string> roots;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* v = std::getenv(var); v && *v)
            roots.push_back(v);
    roots.push_back("/usr/local/cuda");
    for (const std::string& root : roots)
        for (const char* sub :
             {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/", "/targets/sbsa-linux/lib/"}) {
            const std::string c = root + sub + kSoname;
            if (is_file(c) && try_open(c, lib))
                return lib;
        }
    const std::string beside = executable_directory() + "/" + kSoname;
    if (is_file(beside) && try_open(beside, lib))
        return lib;
    return lib;
}

} // namespace moeprobe
