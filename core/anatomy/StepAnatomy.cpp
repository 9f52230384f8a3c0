#include "anatomy/StepAnatomy.h"

#include "record/RankGrid.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <map>
#include <vector>

namespace moewb::anatomy {

namespace {

class AnatomyTr {
    Q_DECLARE_TR_FUNCTIONS(Anatomy)
};

using Intervals = std::vector<Interval>;

Intervals merged(Intervals v) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    Intervals out;
    for (const Interval& i : v) {
        if (i.end <= i.start)
            continue;
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

qint64 length(const Intervals& merged) {
    qint64 sum = 0;
    for (const Interval& i : merged)
        sum += i.end - i.start;
    return sum;
}

Intervals united(const Intervals& a, const Intervals& b) {
    Intervals all(a);
    all.insert(all.end(), b.begin(), b.end());
    return merged(std::move(all));
}

// a \ b, both merged.
Intervals without(const Intervals& a, const Intervals& b) {
    Intervals out;
    std::size_t j = 0;
    for (Interval i : a) {
        while (j < b.size() && b[j].end <= i.start)
            ++j;
        std::size_t k = j;
        qint64 from = i.start;
        while (k < b.size() && b[k].start < i.end) {
            if (b[k].start > from)
                out.push_back({from, b[k].start});
            from = std::max(from, b[k].end);
            ++k;
        }
        if (from < i.end)
            out.push_back({from, i.end});
    }
    return out;
}

Interval clipped(Interval i, qint64 lo, qint64 hi) {
    return {std::clamp(i.start, lo, hi), std::clamp(i.end, lo, hi)};
}

bool isEpDescription(const QString& d) {
    const QString u = d.toUpper();
    return u.contains(QLatin1String("EXPERT_MODEL_PARALLEL")) || u == QLatin1String("EP") ||
           u.endsWith(QLatin1String("MESH_EP")) || u.contains(QLatin1String("_EP_")) || u.endsWith(QLatin1String(":EP"));
}

// The record's expert-parallel groups as sorted rank lists (empty without a usable record).
QSet<QVector<int>> recordEpGroups(const std::optional<record::ConfigRecord>& record) {
    QSet<QVector<int>> groups;
    if (!record || record->parallelism.epOrDefault() <= 1)
        return groups;
    auto grid = record::RankGrid::expertGrid(record->parallelism);
    if (!grid || grid->world() > (1 << 20))
        return groups;
    std::map<std::array<qint64, 4>, QVector<int>> byRest;
    for (qint64 r = 0; r < grid->world(); ++r) {
        using A = record::ParallelAxis;
        byRest[{grid->coordinate(r, A::Tp), grid->coordinate(r, A::Cp), grid->coordinate(r, A::Dp),
                grid->coordinate(r, A::Pp)}]
            .append(int(r));
    }
    for (auto& [rest, ranks] : byRest)
        groups.insert(ranks);
    return groups;
}

bool isAllToAllCollective(const QString& c) {
    const QString l = c.toLower();
    return l.startsWith(QLatin1String("all_to_all")) || l.startsWith(QLatin1String("alltoall"));
}

QString kindName(CommKind k) {
    switch (k) {
    case CommKind::EpDispatch: return QStringLiteral("dispatch");
    case CommKind::EpCombine: return QStringLiteral("combine");
    case CommKind::EpOther: return QStringLiteral("notify");
    case CommKind::NcclSendRecv: return QStringLiteral("sendrecv");
    default: return QStringLiteral("all_to_all");
    }
}

struct CallRef {
    int trace = 0;  // index into traces
    int step = 0;   // index into steps
    int call = 0;   // index into comm
    bool a2a = false;
};

struct Instance {
    std::vector<CallRef> calls;
};

} // namespace

Expected<AnatomyResult, QList<importers::ImportError>> computeAnatomy(
    const QVector<RankTrace>& traces, const std::optional<record::ConfigRecord>& record) {
    QList<importers::ImportError> errors;
    auto fail = [&](const QString& file, const QString& message) {
        errors.append(importers::ImportError{file, 0, {}, message});
    };
    // Ranks: unique and known.
    QHash<int, int> byRank; // rank -> trace index
    int world = -1;
    QString worldFile;
    for (int i = 0; i < traces.size(); ++i) {
        const RankTrace& t = traces[i];
        int rank = t.rank;
        if (rank < 0) {
            if (traces.size() > 1) {
                fail(t.shown, AnatomyTr::tr("its rank is not known (no distributedInfo.rank, and the file name "
                                            "names none, as rank-R.json or rankR_trace.json do): with several "
                                            "trace files each must say its rank"));
                continue;
            }
            rank = 0;
        }
        if (byRank.contains(rank)) {
            fail(t.shown, AnatomyTr::tr("is a second trace of rank %1 (the first is %2)")
                              .arg(rank)
                              .arg(traces[byRank.value(rank)].shown));
            continue;
        }
        byRank.insert(rank, i);
        if (t.worldSize > 0) {
            if (world > 0 && t.worldSize != world)
                fail(t.shown, AnatomyTr::tr("is a trace of a world of %1 ranks, but %2 is of %3 ranks")
                                  .arg(t.worldSize)
                                  .arg(worldFile)
                                  .arg(world));
            else if (world < 0) {
                world = t.worldSize;
                worldFile = t.shown;
            }
        }
    }
    if (record && world > 0) {
        if (const auto w = record->worldSize(); w && *w != world)
            fail(worldFile, AnatomyTr::tr("is a trace of a world of %1 ranks, but the run's config record says %2 "
                                          "(nodes × accelerators per node)")
                                .arg(world)
                                .arg(*w));
    }
    for (auto it = byRank.constBegin(); it != byRank.constEnd(); ++it)
        if (world > 0 && it.key() >= world)
            fail(traces[it.value()].shown,
                 AnatomyTr::tr("is the trace of rank %1, outside its world of %2 ranks").arg(it.key()).arg(world));
    if (!errors.isEmpty())
        return unexpected(errors);

    QVector<int> ranks = byRank.keys().toVector();
    std::sort(ranks.begin(), ranks.end());
    const int n = int(ranks.size());
    auto rankOf = [&](int traceIndex) { return traces[traceIndex].rank < 0 ? 0 : traces[traceIndex].rank; };

    // Which process groups are expert-parallel, per trace.
    const QSet<QVector<int>> epGroups = recordEpGroups(record);
    auto groupIsEp = [&](const RankTrace& t, int g) {
        if (g < 0 || g >= t.groups.size())
            return false;
        const ProcessGroup& pg = t.groups[g];
        if (isEpDescription(pg.description) || isEpDescription(pg.name))
            return true;
        QVector<int> sorted = pg.ranks;
        std::sort(sorted.begin(), sorted.end());
        return !sorted.isEmpty() && epGroups.contains(sorted);
    };
    auto isA2a = [&](const RankTrace& t, const CommCall& c) {
        if (isAllToAllCollective(c.collective))
            return true;
        switch (c.kind) {
        case CommKind::NcclAllToAll:
        case CommKind::EpDispatch:
        case CommKind::EpCombine:
        case CommKind::EpOther:
        case CommKind::GlooAllToAll: return true;
        case CommKind::NcclSendRecv: return groupIsEp(t, c.group);
        default: return false;
        }
    };

    // Match calls across ranks.
    std::map<QString, Instance> instances;
    for (int ti : std::as_const(byRank)) {
        const RankTrace& t = traces[ti];
        for (int si = 0; si < t.steps.size(); ++si) {
            QHash<QString, int> ordinal;
            const StepTrace& s = t.steps[si];
            for (int ci = 0; ci < s.comm.size(); ++ci) {
                const CommCall& c = s.comm[ci];
                const QString group = c.group >= 0 && c.group < t.groups.size() ? t.groups[c.group].name : QString();
                QString key;
                if (c.seq >= 0 && !group.isEmpty()) {
                    key = QStringLiteral("g:%1#%2").arg(group).arg(c.seq);
                } else {
                    const QString base = QStringLiteral("o:%1|%2|%3").arg(group).arg(int(c.kind)).arg(s.step);
                    key = base + QLatin1Char('#') + QString::number(ordinal[base]++);
                }
                instances[key].calls.push_back(CallRef{ti, si, ci, isA2a(t, c)});
            }
        }
    }

    // Clock offsets: the calls' ends aligned, from the lowest traced rank outwards.
    std::map<std::pair<int, int>, std::vector<qint64>> diffs; // (rank a, rank b) -> end_a - end_b
    for (auto& [key, inst] : instances) {
        if (inst.calls.size() < 2)
            continue;
        const CallRef* anchor = &inst.calls.front();
        for (const CallRef& c : inst.calls)
            if (rankOf(c.trace) < rankOf(anchor->trace))
                anchor = &c;
        const qint64 anchorEnd = traces[anchor->trace].steps[anchor->step].comm[anchor->call].end;
        for (const CallRef& c : inst.calls) {
            if (&c == anchor)
                continue;
            const qint64 end = traces[c.trace].steps[c.step].comm[c.call].end;
            diffs[{rankOf(anchor->trace), rankOf(c.trace)}].push_back(anchorEnd - end);
        }
    }
    QHash<int, qint64> offset; // rank -> ns added to its clock
    QHash<int, QVector<std::pair<int, qint64>>> edges;
    for (auto& [pair, d] : diffs) {
        std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(d.size() / 2), d.end());
        const qint64 median = d[d.size() / 2];
        edges[pair.first].append({pair.second, median});   // off[b] = off[a] + median
        edges[pair.second].append({pair.first, -median});  // off[a] = off[b] - median
    }
    AnatomyResult result;
    QVector<int> unaligned;
    for (int root : std::as_const(ranks)) {
        if (offset.contains(root))
            continue;
        if (root != ranks.front())
            unaligned.append(root);
        offset.insert(root, 0);
        QVector<int> queue{root};
        while (!queue.isEmpty()) {
            const int a = queue.takeFirst();
            for (const auto& [b, d] : edges.value(a)) {
                if (offset.contains(b))
                    continue;
                offset.insert(b, offset.value(a) + d);
                queue.append(b);
            }
        }
    }
    if (n > 1 && unaligned.isEmpty())
        result.notes << AnatomyTr::tr("clocks of %n rank(s) aligned on the ends of the collectives they share", "", n);
    else if (!unaligned.isEmpty()) {
        QStringList names;
        for (int r : std::as_const(unaligned))
            names << QString::number(r);
        result.notes << AnatomyTr::tr("rank(s) %1 share no collective with rank %2: their waiting is measured "
                                      "only against ranks they share calls with")
                            .arg(names.join(QStringLiteral(", ")))
                            .arg(ranks.front());
    }

    // Waiting per call, and the all-to-all calls across their groups.
    std::vector<std::vector<std::vector<qint64>>> wait(std::size_t(traces.size()));
    for (int ti : std::as_const(byRank)) {
        auto& perStep = wait[std::size_t(ti)];
        perStep.resize(std::size_t(traces[ti].steps.size()));
        for (int si = 0; si < traces[ti].steps.size(); ++si)
            perStep[std::size_t(si)].assign(std::size_t(traces[ti].steps[si].comm.size()), 0);
    }
    struct A2aOut {
        qint64 firstStart;
        store::A2aCallRow row;
    };
    std::vector<A2aOut> a2a;
    for (auto& [key, inst] : instances) {
        qint64 latest = std::numeric_limits<qint64>::min();
        for (const CallRef& c : inst.calls)
            latest = std::max(latest, traces[c.trace].steps[c.step].comm[c.call].start + offset.value(rankOf(c.trace)));
        const CallRef* lowest = &inst.calls.front();
        store::A2aCallRow row;
        row.transferUs = std::numeric_limits<double>::max();
        bool anyA2a = false;
        for (const CallRef& c : inst.calls) {
            const CommCall& call = traces[c.trace].steps[c.step].comm[c.call];
            const qint64 start = call.start + offset.value(rankOf(c.trace));
            wait[std::size_t(c.trace)][std::size_t(c.step)][std::size_t(c.call)] =
                std::clamp<qint64>(latest - start, 0, call.end - call.start);
            if (rankOf(c.trace) < rankOf(lowest->trace))
                lowest = &c;
            anyA2a = anyA2a || c.a2a;
            const double durUs = double(call.end - call.start) / 1000.0;
            row.transferUs = std::min(row.transferUs, durUs);
            row.slowestUs = std::max(row.slowestUs, durUs);
            row.bytesPerRank = std::max(row.bytesPerRank, call.inBytes >= 0 ? call.inBytes : std::max<qint64>(call.outBytes, 0));
            row.splitsCut = row.splitsCut || call.splitsCut;
        }
        if (!anyA2a)
            continue;
        const RankTrace& lt = traces[lowest->trace];
        const CommCall& lc = lt.steps[lowest->step].comm[lowest->call];
        row.step = lt.steps[lowest->step].step;
        row.ranks = int(inst.calls.size());
        row.group = lc.group >= 0 && lc.group < lt.groups.size() && !lt.groups[lc.group].name.isEmpty()
                        ? lt.groups[lc.group].name
                        : (lc.kind == CommKind::GlooAllToAll ? QStringLiteral("gloo") : kindName(lc.kind));
        row.kind = kindName(lc.kind);
        a2a.push_back(A2aOut{lc.start, row});
    }
    std::stable_sort(a2a.begin(), a2a.end(), [](const A2aOut& x, const A2aOut& y) {
        return x.row.step != y.row.step ? x.row.step < y.row.step : x.firstStart < y.firstStart;
    });
    for (const A2aOut& o : a2a)
        result.anatomy.a2a.append(o.row);

    // Per rank and step.
    auto us = [](qint64 ns) { return double(ns) / 1000.0; };
    std::map<std::pair<qint64, int>, store::RankStepAnatomy> rows;
    for (int ti : std::as_const(byRank)) {
        const RankTrace& t = traces[ti];
        for (int si = 0; si < t.steps.size(); ++si) {
            const StepTrace& s = t.steps[si];
            const qint64 lo = s.start, hi = std::max(s.end, s.start);
            Intervals c, m, a, o, wa, wo;
            for (const Interval& i : s.compute)
                c.push_back(clipped(i, lo, hi));
            for (const Interval& i : s.memcpy)
                m.push_back(clipped(i, lo, hi));
            for (int ci = 0; ci < s.comm.size(); ++ci) {
                const CommCall& call = s.comm[ci];
                const Interval span = clipped({call.start, call.end}, lo, hi);
                const Interval w = clipped({call.start, call.start + wait[std::size_t(ti)][std::size_t(si)][std::size_t(ci)]}, lo, hi);
                const bool isA = isA2a(t, call);
                (isA ? a : o).push_back(span);
                (isA ? wa : wo).push_back(w);
            }
            c = merged(std::move(c));
            m = merged(std::move(m));
            a = merged(std::move(a));
            o = merged(std::move(o));
            wa = merged(std::move(wa));
            wo = merged(std::move(wo));
            const Intervals comm = united(a, o);
            const Intervals waiting = united(wa, wo);
            store::RankStepAnatomy r;
            r.step = s.step;
            r.rank = rankOf(ti);
            r.stepUs = us(hi - lo);
            r.computeUs = us(length(c));
            r.a2aUs = us(length(a));
            r.a2aWaitUs = us(length(wa));
            r.otherCommUs = us(length(o));
            r.otherCommWaitUs = us(length(wo));
            r.exposedCommUs = us(length(without(comm, c)));
            r.memcpyUs = us(length(m));
            r.idleUs = us(std::max<qint64>(0, (hi - lo) - length(united(united(c, comm), m))));
            r.busyUs = us(length(united(c, without(comm, waiting))));
            rows[{r.step, r.rank}] = r;
        }
    }
    for (auto& [key, r] : rows)
        result.anatomy.rows.append(r);
    result.anatomy.ranksTraced = ranks;
    result.anatomy.worldSize = world > 0 ? world : 0;
    result.anatomy.format = traces.isEmpty() ? QString() : traces.front().format;
    for (int r : std::as_const(ranks))
        result.clockOffsetNs.append(offset.value(r));
    result.calls.resize(std::size_t(traces.size()));
    for (int ti : std::as_const(byRank)) {
        const RankTrace& t = traces[ti];
        auto& perStep = result.calls[std::size_t(ti)];
        perStep.resize(std::size_t(t.steps.size()));
        for (int si = 0; si < t.steps.size(); ++si)
            for (int ci = 0; ci < t.steps[si].comm.size(); ++ci)
                perStep[std::size_t(si)].push_back(
                    CallAnatomy{wait[std::size_t(ti)][std::size_t(si)][std::size_t(ci)], isA2a(t, t.steps[si].comm[ci])});
    }
    if (world > 0) {
        for (int r = 0; r < world; ++r)
            if (!byRank.contains(r))
                result.missingRanks.append(r);
        if (!result.missingRanks.isEmpty())
            result.notes << AnatomyTr::tr("%1 of %2 ranks traced: the busiest device is the busiest among the ranks "
                                          "traced")
                                .arg(n)
                                .arg(world);
    }
    return result;
}

} // namespace moewb::anatomy
