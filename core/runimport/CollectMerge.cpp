#include "runimport/CollectMerge.h"

#include "runimport/RunImportTr.h"

#include <QMap>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace moewb::runimport {

namespace {

using importers::CollectorStep;
using importers::ImportError;

ImportError fileError(const QString& file, const QString& message) { return ImportError{file, 0, {}, message}; }

// The store's range of a count metric (docs/formats.md, "Step metrics").
constexpr quint64 kMaxCountMetric = 10000000000000000ULL; // 10^16

QString listed(const QStringList& items, int most) {
    if (items.size() <= most)
        return items.join(QStringLiteral(", "));
    return RunImportTr::tr("%1 and %n more", "", int(items.size() - most)).arg(items.mid(0, most).join(QStringLiteral(", ")));
}

} // namespace

Expected<CollectMergeResult, QList<ImportError>> mergeCollectorFiles(const QList<CollectRankFile>& files,
                                                                     const std::optional<record::ConfigRecord>& record,
                                                                     bool allowPartialSteps) {
    QList<ImportError> errors;
    CollectMergeResult result;
    if (files.isEmpty())
        return result;
    const CollectRankFile& first = files.first();

    // The headers agree on the training.
    for (const CollectRankFile& f : files) {
        auto differs = [&](const char* what, qint64 mine, qint64 theirs) {
            errors << fileError(f.shown, RunImportTr::tr("says %1 = %2 but %3 says %4: sidecars of two trainings? "
                                                         "Import them as separate runs")
                                             .arg(QLatin1String(what))
                                             .arg(mine)
                                             .arg(first.shown)
                                             .arg(theirs));
        };
        if (f.world != first.world)
            differs("world", f.world, first.world);
        else if (f.experts != first.experts)
            differs("experts", f.experts, first.experts);
        else if (f.topk != first.topk)
            differs("topk", f.topk, first.topk);
    }
    if (!errors.isEmpty())
        return unexpected(errors);
    if (record) {
        if (record->moe.experts && *record->moe.experts != first.experts)
            errors << fileError(first.shown, RunImportTr::tr("counts %1 experts per layer, but the record says "
                                                             "moe.experts = %2")
                                                 .arg(first.experts)
                                                 .arg(*record->moe.experts));
        if (record->moe.topK && *record->moe.topK != first.topk)
            errors << fileError(first.shown, RunImportTr::tr("routes each token to %1 experts, but the record says "
                                                             "moe.top_k = %2")
                                                 .arg(first.topk)
                                                 .arg(*record->moe.topK));
        if (!errors.isEmpty())
            return unexpected(errors);
    }

    // Every rank of the world, each once.
    const qint64 world = first.world;
    QMap<int, int> fileOfRank;
    for (int i = 0; i < files.size(); ++i) {
        const CollectRankFile& f = files[i];
        if (fileOfRank.contains(f.rank)) {
            errors << fileError(f.shown, RunImportTr::tr("is rank %1, and so is %2").arg(f.rank).arg(files[fileOfRank[f.rank]].shown));
            continue;
        }
        fileOfRank.insert(f.rank, i);
    }
    if (!errors.isEmpty())
        return unexpected(errors);
    if (fileOfRank.size() != world) {
        QStringList missing;
        for (qint64 r = 0; r < world; ++r)
            if (!fileOfRank.contains(int(r)))
                missing << QStringLiteral("moewb_collect/rank%1.jsonl").arg(r);
        errors << fileError(first.shown, RunImportTr::tr("the collector sidecars are incomplete: %1 missing of the %2 "
                                                         "ranks of the training (its headers say world = %2; every "
                                                         "rank routes its own tokens)")
                                             .arg(listed(missing, 6))
                                             .arg(world));
        return unexpected(errors);
    }

    // Steps every rank wrote.
    std::set<qint64> allSteps;
    for (const CollectRankFile& f : files)
        for (const CollectorStep& s : f.steps)
            allSteps.insert(s.step);
    std::set<qint64> keep = allSteps;
    QStringList partial;
    for (const CollectRankFile& f : files) {
        std::set<qint64> own;
        for (const CollectorStep& s : f.steps)
            own.insert(s.step);
        QStringList lacking;
        int lackingCount = 0;
        for (qint64 s : allSteps)
            if (!own.count(s)) {
                keep.erase(s);
                ++lackingCount;
                if (lacking.size() < 9)
                    lacking << QString::number(s);
            }
        if (!lacking.isEmpty())
            partial << RunImportTr::tr("%1 lacks %n step(s): %2", "", lackingCount).arg(f.shown, listed(lacking, 8));
    }
    if (!partial.isEmpty()) {
        if (!allowPartialSteps) {
            errors << fileError(first.shown, RunImportTr::tr("the collector sidecars do not hold the same steps: %1. "
                                                             "Import only the steps every rank has with "
                                                             "--allow-partial-steps")
                                                 .arg(listed(partial, 4)));
            return unexpected(errors);
        }
        result.notes << RunImportTr::tr("left out %n step(s) not every collector sidecar has", "",
                                        int(allSteps.size() - keep.size()));
    }

    // Per step, over ranks and layers. Files are ordered by step: walk them side by side.
    std::vector<qsizetype> at(size_t(files.size()), 0);
    const QString dropRate = QStringLiteral("drop_rate"), assignmentRate = QStringLiteral("assignment_drop_rate"),
                  droppedTokens = QStringLiteral("dropped_tokens"),
                  droppedAssignments = QStringLiteral("dropped_assignments"),
                  share = QStringLiteral("busiest_device_share");
    result.metrics.reserve(qsizetype(keep.size()) * 5);
    qint64 dropSteps = 0;
    for (qint64 step : keep) {
        quint64 t = 0, a = 0, d = 0, da = 0;
        int withDrops = 0;
        bool allTimed = true;
        int busiest = -1; // index into files
        for (int i = 0; i < files.size(); ++i) {
            const QVector<CollectorStep>& steps = files[i].steps;
            qsizetype& j = at[size_t(i)];
            while (j < steps.size() && steps[j].step < step)
                ++j;
            const CollectorStep& s = steps[j]; // present: every file has every kept step
            if (s.layers > 0) {
                ++withDrops;
                if (__builtin_add_overflow(t, s.tokens, &t) || __builtin_add_overflow(a, s.assignments, &a) ||
                    __builtin_add_overflow(d, s.droppedTokens, &d) ||
                    __builtin_add_overflow(da, s.droppedAssignments, &da) || a > kMaxCountMetric) {
                    errors << fileError(files[i].shown, RunImportTr::tr("step %1: more than %2 token assignments over "
                                                                        "the ranks")
                                                            .arg(step)
                                                            .arg(kMaxCountMetric));
                    return unexpected(errors);
                }
            }
            if (!s.timed || s.computeS < 0) {
                allTimed = false;
            } else if (busiest < 0 || s.computeS > files[busiest].steps[at[size_t(busiest)]].computeS ||
                       (s.computeS == files[busiest].steps[at[size_t(busiest)]].computeS &&
                        files[i].rank < files[busiest].rank)) {
                busiest = i;
            }
        }
        if (withDrops > 0) {
            ++dropSteps;
            result.metrics.append({step, droppedTokens, double(d)});
            result.metrics.append({step, droppedAssignments, double(da)});
            if (t > 0) {
                result.metrics.append({step, dropRate, double(d) / double(t)});
                result.metrics.append({step, assignmentRate, double(da) / double(a)});
            }
        }
        if (allTimed && busiest >= 0) {
            const CollectorStep& b = files[busiest].steps[at[size_t(busiest)]];
            if (b.stepS > 0) {
                double value = (b.computeS + std::max(0.0, b.a2aS)) / b.stepS; // a2a null: none timed
                if (value > 1.0) { // within the clock slack the importer allows
                    value = 1.0;
                    ++result.clamped;
                }
                result.metrics.append({step, share, value});
                ++result.shareSteps;
            }
        }
    }
    std::stable_sort(result.metrics.begin(), result.metrics.end(),
                     [](const store::StepMetric& x, const store::StepMetric& y) { return x.step < y.step; });

    for (const CollectRankFile& f : files)
        result.roles.insert(f.rank, RunImportTr::tr("collector: rank %1 of %2, %n step(s)", "", int(f.steps.size()))
                                        .arg(f.rank)
                                        .arg(world));
    result.notes << RunImportTr::tr("%n collector sidecar(s) merged over %1 ranks: drop rate = tokens dropped / tokens "
                                    "over ranks and MoE layers (%2)",
                                    "", int(files.size()))
                        .arg(world)
                        .arg(RunImportTr::tr("%n step(s)", "",
                                             int(std::min<qint64>(dropSteps, std::numeric_limits<int>::max()))));
    if (result.shareSteps > 0)
        result.notes << RunImportTr::tr("busiest-device share measured in %n step(s): the rank with the most expert "
                                        "compute time, its compute + all-to-all time / its step time",
                                        "", int(std::min<qint64>(result.shareSteps, std::numeric_limits<int>::max())));
    else
        result.notes << RunImportTr::tr("no busiest-device share: not every rank measured its expert compute time "
                                        "in any one step");
    return result;
}

} // namespace moewb::runimport
