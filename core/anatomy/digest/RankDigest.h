#pragma once
// One rank's trace, digested, in plain C++17 (no Qt): what readRankDigest returns and
// the moe-digest binary writes. The app's RankTrace (anatomy/RankTrace.h) holds the
// same fields in Qt types; anatomy/RankTrace.cpp converts. Times are nanoseconds on
// the rank's own trace clock.
#include "anatomy/digest/CommKind.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moewb::anatomy::digest {

struct Interval {
    std::int64_t start = 0, end = 0; // ns, end >= start
};

struct CommCall {
    std::int64_t start = 0, end = 0;
    CommKind kind = CommKind::NcclOther;
    int group = -1;            // index into RankDigest::groups; -1: not named in the trace
    std::int64_t seq = -1;     // c10d "Seq"
    std::int64_t inBytes = -1; // "In msg nelems" × dtype size; -1 unknown
    std::int64_t outBytes = -1;
    bool splitsCut = false;    // "In split size" was cut (> 30 entries: "...")
    int name = -1;             // index into RankDigest::names
    std::string collective;    // c10d "Collective name" or empty
};

struct StepTrace {
    std::int64_t step = 0;
    std::int64_t start = 0, end = 0;
    std::vector<Interval> compute; // merged (sorted, disjoint)
    std::vector<Interval> memcpy;  // merged
    std::vector<CommCall> comm;    // in start order
};

struct ProcessGroup {
    std::string name, description;
    std::vector<int> ranks;
};

struct RankDigest {
    std::string shown;  // the file as named in messages
    std::string format; // "kineto-json" or "torch-legacy-json"
    int rank = -1, worldSize = -1;
    std::int64_t baseTimeNs = 0;
    bool gpu = false;
    std::vector<ProcessGroup> groups;
    std::vector<StepTrace> steps; // ordered by step
    std::vector<std::string> names;
    std::int64_t events = 0, unassigned = 0, bytesRead = 0;
};

} // namespace moewb::anatomy::digest

namespace moewb::anatomy::digest {

// Why a file was refused: the file as shown, the 1-based line (0: the whole file), the
// field at fault ("traceEvents[2].dur"; empty when none) and the message.
struct DigestFailure {
    std::string file;
    std::int64_t line = 0;
    std::string field;
    std::string message;
    bool unreadable = false; // could not be read at all (I/O), not bad content
};

} // namespace moewb::anatomy::digest
