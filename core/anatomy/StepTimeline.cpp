#include "anatomy/StepTimeline.h"

#include <QHash>

#include <algorithm>
#include <limits>
#include <map>

namespace moewb::anatomy {

using store::RankStepTimeline;
using store::TimelineClass;
using store::TimelineInterval;

store::TimelineClass allToAllClass(CommKind kind, const QString& kernelName) {
    if (kind == CommKind::EpDispatch)
        return TimelineClass::Dispatch;
    if (kind == CommKind::EpCombine)
        return TimelineClass::Combine;
    if (kernelName.contains(QLatin1String("combine"), Qt::CaseInsensitive))
        return TimelineClass::Combine;
    if (kernelName.contains(QLatin1String("dispatch"), Qt::CaseInsensitive))
        return TimelineClass::Dispatch;
    return TimelineClass::AllToAll;
}

namespace {

// Labels of one rank's step: each text once.
class Labels {
public:
    explicit Labels(QStringList& out) : m_out(out) {}
    int index(const QString& text) {
        if (text.isEmpty())
            return -1;
        if (const auto it = m_index.constFind(text); it != m_index.constEnd())
            return it.value();
        if (m_out.size() >= store::kTimelineMaxLabels)
            return -1;
        const QString kept = text.left(store::kTimelineMaxLabelBytes / 4); // 4 UTF-8 bytes a character at most
        m_out << kept;
        m_index.insert(text, int(m_out.size() - 1));
        return int(m_out.size() - 1);
    }

private:
    QStringList& m_out;
    QHash<QString, int> m_index;
};

QString groupLabel(const ProcessGroup& g) {
    if (g.description.isEmpty() || g.description == g.name)
        return g.name;
    return g.name.isEmpty() ? g.description : g.name + QStringLiteral(" · ") + g.description;
}

} // namespace

QVector<RankStepTimeline> stepTimeline(const QVector<RankTrace>& traces, const AnatomyResult& result,
                                       const TimelineBounds& bounds) {
    // The traces the anatomy used, with their clock offsets.
    struct Used {
        int trace;
        int rank;
        qint64 offset;
    };
    std::vector<Used> used;
    for (int ti = 0; ti < traces.size() && std::size_t(ti) < result.calls.size(); ++ti) {
        if (result.calls[std::size_t(ti)].size() != std::size_t(traces[ti].steps.size()))
            continue; // left out by the anatomy
        const int rank = traces[ti].rank < 0 ? 0 : traces[ti].rank;
        const qsizetype k = result.anatomy.ranksTraced.indexOf(rank);
        used.push_back({ti, rank, k >= 0 && k < result.clockOffsetNs.size() ? result.clockOffsetNs[k] : 0});
    }
    std::sort(used.begin(), used.end(), [](const Used& a, const Used& b) { return a.rank < b.rank; });

    // step -> (index into used, index into steps); the first maxSteps steps.
    std::map<qint64, std::vector<std::pair<std::size_t, int>>> steps;
    for (std::size_t u = 0; u < used.size(); ++u) {
        const RankTrace& t = traces[used[u].trace];
        for (int si = 0; si < t.steps.size(); ++si)
            steps[t.steps[si].step].push_back({u, si});
    }
    QVector<RankStepTimeline> out;
    int kept = 0;
    for (const auto& [step, ranks] : steps) {
        if (kept++ >= bounds.maxSteps)
            break;
        qint64 origin = std::numeric_limits<qint64>::max();
        for (const auto& [u, si] : ranks)
            origin = std::min(origin, traces[used[u].trace].steps[si].start + used[u].offset);
        for (const auto& [u, si] : ranks) {
            const RankTrace& t = traces[used[u].trace];
            const StepTrace& s = t.steps[si];
            const std::vector<CallAnatomy>& facts = result.calls[std::size_t(used[u].trace)][std::size_t(si)];
            const qint64 lo = s.start, hi = std::max(s.start, s.end);
            const qint64 shift = used[u].offset - origin;
            RankStepTimeline r;
            r.step = step;
            r.rank = used[u].rank;
            r.stepStartNs = lo + shift;
            r.stepEndNs = hi + shift;
            Labels labels(r.labels);
            QVector<TimelineInterval> all;
            auto add = [&](qint64 a, qint64 b, TimelineInterval v) {
                a = std::clamp(a, lo, hi);
                b = std::clamp(b, lo, hi);
                if (b <= a)
                    return;
                v.startNs = a + shift;
                v.endNs = b + shift;
                all << v;
            };
            for (const Interval& i : s.compute)
                add(i.start, i.end, TimelineInterval{0, 0, TimelineClass::Compute});
            for (const Interval& i : s.memcpy)
                add(i.start, i.end, TimelineInterval{0, 0, TimelineClass::Memcpy});
            for (int ci = 0; ci < s.comm.size(); ++ci) {
                const CommCall& c = s.comm[ci];
                const QString name = c.name >= 0 && c.name < t.names.size() ? t.names[c.name] : c.collective;
                TimelineInterval v;
                v.cls = std::size_t(ci) < facts.size() && facts[std::size_t(ci)].a2a ? allToAllClass(c.kind, name)
                                                                                      : TimelineClass::OtherComm;
                v.name = labels.index(name);
                v.group = c.group >= 0 && c.group < t.groups.size() ? labels.index(groupLabel(t.groups[c.group])) : -1;
                v.bytes = c.inBytes >= 0 ? c.inBytes : c.outBytes;
                v.seq = c.seq;
                v.callClass = v.cls;
                const qint64 wait = std::size_t(ci) < facts.size() ? facts[std::size_t(ci)].waitNs : 0;
                TimelineInterval w = v;
                w.cls = TimelineClass::Waiting;
                add(c.start, c.start + wait, w);
                add(c.start + wait, c.end, v);
            }
            std::stable_sort(all.begin(), all.end(),
                             [](const TimelineInterval& a, const TimelineInterval& b) { return a.startNs < b.startNs; });
            if (all.size() > bounds.maxIntervals) {
                r.dropped = all.size() - bounds.maxIntervals;
                all.resize(bounds.maxIntervals);
            }
            r.intervals = std::move(all);
            out << r;
        }
    }
    return out;
}

} // namespace moewb::anatomy
