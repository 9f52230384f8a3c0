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
#include "anatomy/RankTrace.h"
#include "anatomy/TraceJson.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace moewb::anatomy {

// An event the digest refuses: the message, and the field at fault ("ts", "dur", "name").
struct DigestError {
    QString message;
    QString field;
};

// ProfilerStep#N spans, shared by both digests.
class StepSpans {
public:
    // True when the event was a ProfilerStep (taken or refused: see error).
    bool take(const TraceEvent& e, qint64 eventIndex, DigestError& error, bool& failed);
    // Sorted, checked steps (no duplicates, none nested in or overlapping another, all
    // closed), or an error.
    bool finish(QVector<StepTrace>& steps, QString& error) const;

    // Index of the step whose [start, end) holds t, or -1 (steps as finish() made them).
    static int stepAt(const QVector<StepTrace>& steps, qint64 t);

private:
    struct Span {
        qint64 step, start, end, eventIndex;
    };
    struct Open {
        qint64 step, start, eventIndex;
        std::string tid;
    };
    std::vector<Span> m_spans;
    std::vector<Open> m_open; // "ph":"B" ProfilerSteps not yet ended
};

struct CommArgs {
    int collective = -1; // index into the digest's collective names
    qint64 inNelems = -1, outNelems = -1, seq = -1;
    int dtypeBytes = 0;
    int group = -1;
    bool splitsCut = false;
};

// Process groups by name, as distributedInfo.pg_config and the comm args name them.
class GroupTable {
public:
    int find(std::string_view name) const;
    int add(const QString& name, const QString& description, const QVector<int>& ranks);
    // From a comm op's args: found, else added with its description and ranks.
    int fromArgs(const TraceEvent& e);
    QVector<ProcessGroup> groups;

private:
    std::vector<std::string> m_names;
};

// "[0, 1, 2]" (or a JSON array's text) -> ranks; empty when cut ("...") or unreadable.
QVector<int> parseRankList(std::string_view text);

class KinetoDigest {
public:
    KinetoDigest(qint64 maxKernels, GroupTable& groups) : m_maxKernels(maxKernels), m_groups(groups) {}
    // False when the event is refused (error says why) or the bound is passed.
    bool add(const TraceEvent& e, qint64 eventIndex, DigestError& error);
    bool finish(RankTrace& out, QString& error);

private:
    struct Kernel {
        qint64 start, end;
        quint64 key; // correlation << 1 | memcpy; after resolving: step << 1 | memcpy
    };
    struct Launch {
        quint64 correlation;
        qint64 ts;
    };
    struct Comm {
        qint64 start, end;
        quint64 correlation;
        qint64 externalId; // -1: none
        int name;
        bool hasArgs;
        CommArgs args;
    };
    bool withinBound(DigestError& error);
    CommArgs argsOf(const TraceEvent& e);
    int internName(std::string_view name);
    bool launchTs(quint64 correlation, qint64& ts) const;
    void resolveKernels(RankTrace& out);
    void resolveComms(RankTrace& out);

    qint64 m_maxKernels;
    GroupTable& m_groups;
    StepSpans m_steps;
    std::deque<Kernel> m_kernels;
    std::deque<Launch> m_launches;
    bool m_launchesSorted = true;
    std::vector<Comm> m_comms;
    std::unordered_map<qint64, CommArgs> m_paramComms; // record_param_comms by External id
    std::vector<std::string> m_collectives;
    std::unordered_map<std::string, int> m_nameIndex;
    QStringList m_names;
    qint64 m_noCorrelation = 0;
    bool m_gpu = false;
};

class LegacyDigest {
public:
    explicit LegacyDigest(qint64 maxOps) : m_maxOps(maxOps) {}
    bool add(const TraceEvent& e, qint64 eventIndex, DigestError& error);
    bool finish(RankTrace& out, QString& error);

private:
    struct Op {
        qint64 start, end;
        int thread;
    };
    struct Gloo {
        qint64 start, end;
        int thread;
        int name;
    };
    int threadOf(std::string_view tid);

    qint64 m_maxOps;
    StepSpans m_steps;
    std::deque<Op> m_ops;
    std::vector<Gloo> m_gloo;
    std::vector<std::string> m_threads;
    std::vector<char> m_threadHasOps; // a thread with other ops than gloo:* is no worker
    QStringList m_names;
};

} // namespace moewb::anatomy
