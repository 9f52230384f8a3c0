// moe-digest: digests PyTorch profiler trace files (one per rank) where they lie, on a
// cluster node, and writes only the per-step digests to stdout ("moe-digest/1", see
// digest_report.h). The reader is core/anatomy/digest, the one the workbench itself
// uses for a local import. Exit codes: 0 the document is complete (refused files are
// in it), 2 usage, 3 stdout failed or memory ran out.
#include "digest_report.h"
#include "probe_version.h"

#include "anatomy/digest/TraceDetect.h"
#include "anatomy/digest/TraceReader.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace digest = moewb::anatomy::digest;

namespace {

constexpr std::size_t kMaxFiles = 100000;
constexpr std::size_t kMaxPathBytes = 4096;
constexpr int kMaxJobs = 64;

const char* const kUsage =
    "usage: moe-digest [--jobs N] [--max-kernels N] [--] TRACE_FILE...\n"
    "       moe-digest --list DIR\n"
    "       moe-digest --version\n"
    "Digests PyTorch profiler traces (Kineto JSON, plain or .gz; torch's legacy list of\n"
    "events), one rank per file, and writes the per-step digests as moe-digest/1 JSON\n"
    "Lines on stdout. Regular files only; at most 100000 files.\n"
    "--list: the trace files under DIR (by their first bytes, as moewb import picks\n"
    "them), as moe-digest-list/1 JSON Lines: at most 100000 files, 16 folders deep.\n";

int usage(const std::string& why) {
    std::fprintf(stderr, "moe-digest: %s\n%s", why.c_str(), kUsage);
    return 2;
}

bool parse_count(const char* text, std::int64_t min, std::int64_t max, std::int64_t& out) {
    const char* end = text + std::strlen(text);
    std::int64_t v = 0;
    const auto r = std::from_chars(text, end, v);
    if (r.ec != std::errc() || r.ptr != end || v < min || v > max)
        return false;
    out = v;
    return true;
}

bool write_all(const std::string& text) {
    return std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
}

// One file's line, never throwing: a file that runs the process out of memory is
// refused like any other (its bound, maxKernels, is what keeps that rare).
std::string digest_file(const std::string& path, std::int64_t maxKernels, bool& refused) {
    digest::DigestOptions options;
    options.maxKernels = maxKernels;
    try {
        auto read = digest::readRankDigest(path, path, options);
        refused = !read;
        return read ? moeprobe::digest_rank_line(path, read.value())
                    : moeprobe::digest_refused_line(path, read.error());
    } catch (const std::bad_alloc&) {
        refused = true;
        return moeprobe::digest_refused_line(path, digest::DigestFailure{path, 0, std::string(), "out of memory", false});
    }
}

constexpr std::size_t kMaxListedEntries = 1000000;
constexpr int kMaxListDepth = 16;

bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    if (s.size() < n)
        return false;
    for (std::size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - n + i])) != suffix[i])
            return false;
    return true;
}

// The folder walk of a local `moewb import DIR` (core/runimport/RunImport.cpp, Walk):
// hidden names and symbolic links left out, checkpoint/cache/W&B folders not entered,
// files by a log's or a trace's name; of those, the ones whose first bytes are a trace.
struct TraceListing {
    std::vector<std::pair<std::string, std::uint64_t>> found;
    std::size_t visited = 0;
    std::string error;

    void folder(const std::filesystem::path& dir, int depth) {
        namespace fs = std::filesystem;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end && error.empty(); it.increment(ec)) {
            if (++visited > kMaxListedEntries || found.size() >= kMaxFiles) {
                error = "more than " + std::to_string(kMaxListedEntries) + " entries or " + std::to_string(kMaxFiles) +
                        " trace files";
                return;
            }
            const std::string name = it->path().filename().string();
            std::error_code typeEc;
            if (name.empty() || name[0] == '.' || it->is_symlink(typeEc))
                continue;
            if (it->is_directory(typeEc)) {
                if (name.rfind("iter_", 0) == 0 || name == "__pycache__" || name == "wandb" || depth + 1 >= kMaxListDepth)
                    continue;
                folder(it->path(), depth + 1);
                continue;
            }
            if (!it->is_regular_file(typeEc))
                continue;
            bool named = false;
            for (const char* suffix : {".json", ".json.gz", ".jsonl", ".log", ".out", ".txt", ".csv"})
                named = named || ends_with(name, suffix);
            const std::string path = it->path().string();
            if (!named || path.size() > kMaxPathBytes || path.find('\n') != std::string::npos)
                continue;
            if (digest::fileLooksLikeTrace(path))
                found.emplace_back(path, static_cast<std::uint64_t>(it->file_size(typeEc)));
        }
        if (ec && error.empty())
            error = dir.string() + ": " + ec.message();
    }
};

int list_traces(const std::string& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        std::fprintf(stderr, "moe-digest: %s: not a folder\n", dir.c_str());
        return 3;
    }
    TraceListing listing;
    listing.folder(dir, 0);
    if (!listing.error.empty()) {
        std::fprintf(stderr, "moe-digest: %s: %s\n", dir.c_str(), listing.error.c_str());
        return 3;
    }
    std::sort(listing.found.begin(), listing.found.end());
    bool ok = write_all(moeprobe::digest_list_header_line(dir));
    for (const auto& [path, bytes] : listing.found)
        ok = ok && write_all(moeprobe::digest_list_file_line(path, bytes));
    ok = ok && write_all(moeprobe::digest_list_end_line(listing.found.size())) && std::fflush(stdout) == 0;
    return ok ? 0 : 3;
}

} // namespace

int main(int argc, char** argv) {
    std::int64_t jobs = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 8);
    std::int64_t maxKernels = digest::DigestOptions{}.maxKernels;
    std::vector<std::string> files;
    bool options = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (options && a == "--") {
            options = false;
        } else if (options && a == "--version") {
            std::printf("moe-digest %s (%s)\n", moeprobe::kProbeVersion, moeprobe::kDigestSchema);
            return 0;
        } else if (options && a == "--list") {
            if (i + 2 != argc)
                return usage("--list takes one folder and nothing after it");
            return list_traces(argv[i + 1]);
        } else if (options && (a == "--help" || a == "-h")) {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (options && (a == "--jobs" || a == "--max-kernels")) {
            if (i + 1 >= argc)
                return usage(a + " needs a value");
            std::int64_t& target = a == "--jobs" ? jobs : maxKernels;
            if (!parse_count(argv[++i], 1, a == "--jobs" ? kMaxJobs : std::int64_t(1) << 40, target))
                return usage(a + ": not a number in range: " + argv[i]);
        } else if (options && a.size() > 1 && a[0] == '-') {
            return usage("unknown option " + a);
        } else {
            if (a.empty() || a.size() > kMaxPathBytes || a.find('\n') != std::string::npos)
                return usage("a file name that is empty, longer than 4096 bytes or holds a newline");
            if (files.size() == kMaxFiles)
                return usage("more than 100000 files");
            files.push_back(a);
        }
    }
    if (files.empty())
        return usage("no trace file given");

    // Files are digested on `jobs` threads; lines go out in the order the files were given.
    const std::size_t n = files.size();
    std::vector<std::optional<std::string>> lines(n);
    std::vector<char> refusedFlags(n, 0);
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> pool;
    for (std::int64_t j = 0; j < std::min<std::int64_t>(jobs, std::int64_t(n)); ++j)
        pool.emplace_back([&] {
            for (std::size_t i = next++; i < n; i = next++) {
                bool refused = false;
                std::string line = digest_file(files[i], maxKernels, refused);
                std::lock_guard<std::mutex> lock(mutex);
                lines[i] = std::move(line);
                refusedFlags[i] = refused ? 1 : 0;
                ready.notify_all();
            }
        });
    bool ok = write_all(moeprobe::digest_header_line(moeprobe::kProbeVersion, n));
    std::size_t refused = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::string line;
        {
            std::unique_lock<std::mutex> lock(mutex);
            ready.wait(lock, [&] { return lines[i].has_value(); });
            line = std::move(*lines[i]);
            lines[i] = std::string(); // written: keep has_value, free the text
            refused += refusedFlags[i] ? 1 : 0;
        }
        ok = ok && write_all(line) && std::fflush(stdout) == 0;
    }
    for (std::thread& t : pool)
        t.join();
    ok = ok && write_all(moeprobe::digest_end_line(n, refused)) && std::fflush(stdout) == 0;
    if (!ok) {
        std::fprintf(stderr, "moe-digest: writing to stdout failed: %s\n", std::strerror(errno));
        return 3;
    }
    return 0;
}
