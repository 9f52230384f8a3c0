#pragma once
// Reads and digests one rank's PyTorch profiler trace file (plain or gzip) in bounded
// memory, with no Qt: the one reader behind both the app's readRankTrace
// (anatomy/RankTrace.h, which converts the result to Qt types) and the moe-digest
// binary that runs it on a cluster's nodes (docs/anatomy.md). The file is streamed in
// blocks, never held whole. Errors name the file, and the line or the event index
// where one is at fault (a truncated gzip, not a trace, an event without ts, a step
// that never ends).
#include "anatomy/digest/DigestText.h"
#include "anatomy/digest/RankDigest.h"
#include "common/Expected.h"

#include <cstdint>
#include <functional>
#include <string>

namespace moewb::anatomy::digest {

inline constexpr const char* kKinetoFormat = "kineto-json";
inline constexpr const char* kLegacyFormat = "torch-legacy-json";

struct DigestOptions {
    // Bound on what one file may hold in memory after digesting (kernel records and
    // launch correlations); past it the file is refused, naming the bound.
    std::int64_t maxKernels = 4'000'000;
    // Called now and then with uncompressed bytes read; false cancels ("cancelled").
    std::function<bool(std::int64_t)> progress;
    Texts texts; // how messages are translated (English when left empty)
};

Expected<RankDigest, DigestFailure> readRankDigest(const std::string& path, const std::string& shown,
                                                   const DigestOptions& options = {});

// The rank a file's name gives (the legacy format has no rank inside): "rank-3.json",
// "rank3_trace.json", "rank_3.pt.trace.json"; -1 when the name has none.
int rankFromFileName(const std::string& path);

} // namespace moewb::anatomy::digest
