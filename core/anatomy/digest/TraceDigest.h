#pragma once
// What readRankTrace keeps of the events while the file streams past, and how it
// becomes a RankTrace at the end (kernels and their launches may come in any order, so
// steps are resolved only then). Two digests, one per format:
//   KinetoDigest  GPU kernels, memcpy/memset and their CPU launches (by correlation),
//                 c10d's record_param_comms args (by External id), ProfilerStep#N spans.
//   LegacyDigest  torch.autograd.profiler's CPU events: ops per thread, gloo:* ops.
// Memory: 24 bytes per kernel, 16 per launch, about 90 per communication kernel or
// record_param_comms op (counted as 4 kernels); held records are bounded by
// TraceReadOptions::maxKernels (the default 4,000,000: under 100 MB).
#include "anatomy/digest/RankDigest.h"
#include "anatomy/digest/TraceJson.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace moewb::anatomy::digest {

// An event the digest refuses: the message, and the field at fault ("ts", "dur", "name").
struct DigestError {
    std::string message;
    std::string field;
};

// ProfilerStep#N spans, shared by both digests.
class StepSpans {
public:
    explicit StepSpans(Texts texts) : m_texts(texts) {}
    // True when the event was a ProfilerStep (taken or refused: see error).
    bool take(const TraceEvent& e, std::int64_t eventIndex, DigestError& error, bool& failed);
    // Sorted, checked steps (no duplicates, none nested in or overlapping another, all
    // closed), or an error.
    bool finish(std::vector<StepTrace>& steps, std::string& error) const;

    // Index of the step whose [start, end) holds t, or -1 (steps as finish() made them).
    static int stepAt(const std::vector<StepTrace>& steps, std::int64_t t);

private:
    struct Span {
        std::int64_t step, start, end, eventIndex;
    };
    struct Open {
        std::int64_t step, start, eventIndex;
        std::string tid;
    };
    Texts m_texts;
    std::vector<Span> m_spans;
    std::vector<Open> m_open; // "ph":"B" ProfilerSteps not yet ended
};

struct CommArgs {
    int collective = -1; // index into the digest's collective names
    std::int64_t inNelems = -1, outNelems = -1, seq = -1;
    int dtypeBytes = 0;
    int group = -1;
    bool splitsCut = false;
};

// Process groups by name, as distributedInfo.pg_config and the comm args name them.
class GroupTable {
public:
    int find(std::string_view name) const;
    int add(std::string_view name, std::string_view description, std::vector<int> ranks);
    // From a comm op's args: found, else added with its description and ranks.
    int fromArgs(const TraceEvent& e);
    std::vector<ProcessGroup> groups;

private:
    std::vector<std::string> m_names;
};

// "[0, 1, 2]" (or a JSON array's text) -> ranks; empty when cut ("...") or unreadable.
std::vector<int> parseRankList(std::string_view text);

class KinetoDigest {
public:
    KinetoDigest(std::int64_t maxKernels, GroupTable& groups, Texts texts)
        : m_texts(texts), m_maxKernels(maxKernels), m_groups(groups), m_steps(texts) {}
    // False when the event is refused (error says why) or the bound is passed.
    bool add(const TraceEvent& e, std::int64_t eventIndex, DigestError& error);
    bool finish(RankDigest& out, std::string& error);

private:
    struct Kernel {
        std::int64_t start, end;
        std::uint64_t key; // correlation << 1 | memcpy; after resolving: step << 1 | memcpy
    };
    struct Launch {
        std::uint64_t correlation;
        std::int64_t ts;
    };
    struct Comm {
        std::int64_t start, end;
        std::uint64_t correlation;
        std::int64_t externalId; // -1: none
        int name;
        bool hasArgs;
        CommArgs args;
    };
    bool withinBound(DigestError& error);
    CommArgs argsOf(const TraceEvent& e);
    int internName(std::string_view name);
    bool launchTs(std::uint64_t correlation, std::int64_t& ts) const;
    void resolveKernels(RankDigest& out);
    void resolveComms(RankDigest& out);

    Texts m_texts;
    std::int64_t m_maxKernels;
    GroupTable& m_groups;
    StepSpans m_steps;
    std::deque<Kernel> m_kernels;
    std::deque<Launch> m_launches;
    bool m_launchesSorted = true;
    std::vector<Comm> m_comms;
    std::unordered_map<std::int64_t, CommArgs> m_paramComms; // record_param_comms by External id
    std::vector<std::string> m_collectives;
    std::unordered_map<std::string, int> m_nameIndex;
    std::vector<std::string> m_names;
    std::int64_t m_noCorrelation = 0;
    bool m_gpu = false;
};

class LegacyDigest {
public:
    LegacyDigest(std::int64_t maxOps, Texts texts) : m_texts(texts), m_maxOps(maxOps), m_steps(texts) {}
    bool add(const TraceEvent& e, std::int64_t eventIndex, DigestError& error);
    bool finish(RankDigest& out, std::string& error);

private:
    struct Op {
        std::int64_t start, end;
        int thread;
    };
    struct Gloo {
        std::int64_t start, end;
        int thread;
        int name;
    };
    int threadOf(std::string_view tid);

    Texts m_texts;
    std::int64_t m_maxOps;
    StepSpans m_steps;
    std::deque<Op> m_ops;
    std::vector<Gloo> m_gloo;
    std::vector<std::string> m_threads;
    std::vector<char> m_threadHasOps; // a thread with other ops than gloo:* is no worker
    std::vector<std::string> m_names;
};

} // namespace moewb::anatomy::digest
