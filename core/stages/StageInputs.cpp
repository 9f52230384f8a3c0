#include "stages/StageInputs.h"
#include "stages/OverloadFactorLoad.h"

#include "stages/StagesTr.h"
#include "stages/VerdictOverride.h"

#include "anatomy/A2aBaseline.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace moewb::stages {

namespace {

std::optional<int> positiveInt(const QJsonObject& o, const char* key) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble() || v.toDouble() < 1)
        return std::nullopt;
    return int(v.toDouble());
}

// The named runs (every one must exist), or those `wanted` picks.
Expected<QList<store::RunRow>, InputError>
selectRuns(const store::ProjectStore& project, const QStringList& names,
           const std::function<bool(const store::RunRow&)>& wanted) {
    const QList<store::RunRow> all = project.runs();
    QList<store::RunRow> out;
    if (names.isEmpty()) {
        for (const store::RunRow& r : all)
            if (wanted(r))
                out << r;
        return out;
    }
    for (const QString& name : names) {
        const auto it =
            std::find_if(all.begin(), all.end(), [&](const store::RunRow& r) { return r.name == name; });
        if (it == all.end())
            return unexpected(InputError{Stages::tr("no run named %1 in %2").arg(name, project.path())});
        out << *it;
    }
    return out;
}

// The cluster a record describes: accelerator model, network type, topology.
QString recordClusterKey(const record::ConfigRecord& rec) {
    return QStringList{rec.cluster.acceleratorModel.value_or(QString()), rec.cluster.networkType.value_or(QString()),
                       rec.cluster.topology.description.value_or(QString())}
        .join(QLatin1Char('|'));
}

StageOneRunInput stageOneInput(const store::ProjectStore& project, const store::RunRow& r) {
    StageOneRunInput in;
    in.runName = r.name;
    in.clusterName = r.clusterName;
    in.world = positiveInt(r.environment, "world");
    in.nodes = positiveInt(r.environment, "nodes");
    // nccl-tests text lists its ranks' hosts: the node count when the list is whole.
    if (!in.nodes && r.environment.value(QLatin1String("rank_list_complete")).toBool())
        in.nodes = positiveInt(r.environment, "nodes_listed");
    in.nodesMeasured = in.nodes;
    const record::ConfigRecord rec = recordOfRun(project, r);
    if (!in.nodes && rec.cluster.nodes)
        in.nodes = int(*rec.cluster.nodes);
    if (!rec.isDense() && rec.parallelism.ep)
        in.expertParallel = int(*rec.parallelism.ep);
    in.epSize = positiveInt(r.environment, "ep_size");
    in.clusterKey = recordClusterKey(rec);
    in.samples = project.commSamples(r.id);
    const QString format = r.environment.value(QLatin1String("source_format")).toString();
    if (r.kind == store::RunKind::Probe || format.startsWith(QLatin1String("probe-json")) ||
        r.environment.value(QLatin1String("schema")).toString().startsWith(QLatin1String("moe-probe/")))
        in.tool = BaselineTool::Probe;
    else if (format.startsWith(QLatin1String("nccl-tests")))
        in.tool = BaselineTool::NcclTests;
    return in;
}

TrainingRunInput trainingInput(const store::ProjectStore& project, const store::RunRow& r) {
    return {r.name, recordOfRun(project, r), project.stepMetrics(r.id)};
}

QString clusterKey(const store::ProjectStore& project, const store::RunRow& r) {
    if (!r.clusterName.isEmpty())
        return r.clusterName;
    return recordClusterKey(recordOfRun(project, r));
}

// Stage 2's runs: those with a throughput metric.
bool hasThroughputMetric(const store::ProjectStore& project, const store::RunRow& r) {
    if (r.stepCount == 0)
        return false;
    const QStringList names = project.stepMetricNames(r.id);
    return names.contains(QStringLiteral("tokens_per_s_per_gpu")) ||
           names.contains(QStringLiteral("elapsed_ms_per_iter"));
}

// Stage 4's default: the latest stage 1 run of each cluster, clusters in order of
// their first run.
QList<store::RunRow> latestRunPerCluster(const store::ProjectStore& project) {
    QStringList order;
    QHash<QString, store::RunRow> latest;
    for (const store::RunRow& r : project.runs()) {
        if (r.commSampleCount == 0)
            continue;
        const QString key = clusterKey(project, r);
        if (!latest.contains(key))
            order << key;
        if (!latest.contains(key) || latest[key].created <= r.created)
            latest[key] = r;
    }
    QList<store::RunRow> out;
    for (const QString& key : std::as_const(order))
        out << latest[key];
    return out;
}

bool passedOrOverridden(const store::ProjectStore& project, const store::VerdictRow& v) {
    if (v.status == QLatin1String("pass") || v.status == QLatin1String("overridden"))
        return true;
    // A stop with an override that holds (VerdictOverride.h).
    return overrideOfVerdict(project.overrides(), v).override_.has_value();
}

} // namespace

record::ConfigRecord recordOfRun(const store::ProjectStore& project, const store::RunRow& run) {
    const auto row = project.configRecord(run.recordName);
    if (!row)
        return {};
    record::ConfigRecord rec = record::ConfigRecord::fromJson(row->json, nullptr);
    if (rec.name.isEmpty())
        rec.name = row->name;
    return rec;
}

Expected<QList<StageOneRunInput>, InputError> loadStageOneInputs(const store::ProjectStore& project,
                                                                 const QStringList& runNames) {
    auto rows = selectRuns(project, runNames, [](const store::RunRow& r) { return r.commSampleCount > 0; });
    if (!rows)
        return unexpected(rows.error());
    QList<StageOneRunInput> out;
    for (const store::RunRow& r : *rows)
        out << stageOneInput(project, r);
    return out;
}

QList<StageOneTarget> loadStageOneTargets(const store::ProjectStore& project) {
    QSet<QString> owning;
    for (const store::RunRow& r : project.runs())
        owning.insert(r.recordName);
    QList<StageOneTarget> out;
    for (const store::ConfigRecordRow& row : project.configRecords()) {
        if (!owning.contains(row.name))
            continue;
        const record::ConfigRecord rec = record::ConfigRecord::fromJson(row.json, nullptr);
        if (rec.isDense())
            continue;
        StageOneTarget t;
        t.recordName = row.name;
        t.clusterKey = recordClusterKey(rec);
        if (rec.cluster.nodes)
            t.nodes = int(*rec.cluster.nodes);
        if (auto w = rec.worldSize())
            t.world = int(*w);
        if (rec.parallelism.ep)
            t.expertParallel = int(*rec.parallelism.ep);
        out << t;
    }
    return out;
}

Expected<QList<TrainingRunInput>, InputError> loadStageTwoInputs(const store::ProjectStore& project,
                                                                 const QStringList& runNames) {
    auto rows = selectRuns(project, runNames,
                           [&project](const store::RunRow& r) { return hasThroughputMetric(project, r); });
    if (!rows)
        return unexpected(rows.error());
    QList<TrainingRunInput> out;
    for (const store::RunRow& r : *rows)
        out << trainingInput(project, r);
    return out;
}

Expected<QList<ExpertLoadRunInput>, InputError> loadStageThreeInputs(const store::ProjectStore& project,
                                                                     const QStringList& runNames,
                                                                     ExpertLoadCounts counts) {
    // Megatron-Core's overload factor stands in for expert counts (stages/OverloadFactorLoad.h).
    auto rows = selectRuns(project, runNames, [&project](const store::RunRow& r) {
        return r.expertLoadBlocks > 0 || (r.stepCount > 0 && hasOverloadFactor(project.stepMetricNames(r.id)));
    });
    if (!rows)
        return unexpected(rows.error());
    const qint64 window = std::max<qint64>(
        1, qint64(loadThresholds(project).get(QStringLiteral("stage3.window_steps")).value));
    QList<ExpertLoadRunInput> out;
    for (const store::RunRow& r : *rows) {
        ExpertLoadRunInput in{r.name, recordOfRun(project, r), {}, project.stepMetrics(r.id), r.environment};
        in.summary = project.expertLoadSummary(r.id, {}, {}, &in.unreadable);
        if (!in.unreadable.isEmpty()) {
            // Not judged (the gate says why): no counts are read for it.
            in.summary.clear();
        } else if (counts == ExpertLoadCounts::All) {
            in.blocks = project.expertLoad(r.id, {}, {}, &in.unreadable);
        } else if (!in.summary.isEmpty()) {
            // The gate's window: the last `window` distinct steps of the summary.
            const record::ConfigRecord& rec = in.record;
            const int ep = int(rec.parallelism.ep.value_or(0));
            const bool estimateDrops = (rec.moe.overflowPolicy == record::OverflowPolicy::Drop ||
                                        rec.moe.overflowPolicy == record::OverflowPolicy::Residual) &&
                                       rec.moe.capacityFactor && !rec.moe.capacityFactor->isNone();
            const bool otherEp = ep > 0 && std::any_of(in.summary.cbegin(), in.summary.cend(), [ep](const auto& row) {
                                     return row.expertParallel != ep;
                                 });
            if (estimateDrops || otherEp) {
                qint64 seen = 0, first = in.summary.last().step;
                for (qsizetype i = in.summary.size() - 1; i >= 0; --i) {
                    if (i == in.summary.size() - 1 || in.summary[i].step != in.summary[i + 1].step) {
                        if (++seen > window)
                            break;
                        first = in.summary[i].step;
                    }
                }
                in.blocks = project.expertLoadRange(r.id, first, {}, {}, &in.unreadable);
            }
        }
        if (const store::RunAnatomy anatomy = project.runAnatomy(r.id); !anatomy.a2a.isEmpty()) {
            for (const anatomy::A2aVsBaseline& row : anatomy::compareWithBaseline(project, r, anatomy).rows)
                if (row.ratio && (!in.a2aAgainstBaseline || *row.ratio < in.a2aAgainstBaseline->ratio))
                    in.a2aAgainstBaseline = ExpertLoadRunInput::A2aAgainstBaseline{
                        row.kind, row.bytesPerRank, row.trainingGBps, *row.baselineGBps, *row.ratio, row.baselineRun};
        }
        if (!in.unreadable.isEmpty()) {
            in.summary.clear();
            in.blocks.clear();
        }
        out << std::move(in);
    }
    return out;
}

QList<TrainingRunInput> loadStageTwoMoeRuns(const store::ProjectStore& project) {
    QList<TrainingRunInput> out;
    const auto verdict = project.verdict(2);
    if (!verdict || verdict->status == QLatin1String("stale"))
        return out;
    for (const store::RunRow& r : project.runs()) {
        if (r.stepCount == 0 || r.created > verdict->decided || !hasThroughputMetric(project, r))
            continue;
        const record::ConfigRecord rec = recordOfRun(project, r);
        if (!rec.isDense())
            out << TrainingRunInput{r.name, rec, {}};
    }
    return out;
}

Expected<StageFourInputs, InputError> loadStageFourInputs(const store::ProjectStore& project,
                                                          const QStringList& runNames) {
    QList<store::RunRow> chosen;
    if (!runNames.isEmpty()) {
        if (runNames.size() != 2)
            return unexpected(
                InputError{Stages::tr("stage 4 compares two stage 1 runs: --run SOURCE --run TARGET")});
        auto rows = selectRuns(project, runNames, {});
        if (!rows)
            return unexpected(rows.error());
        chosen = *rows;
    } else {
        const QList<store::RunRow> latest = latestRunPerCluster(project);
        if (latest.size() != 2)
            return unexpected(InputError{
                Stages::tr("stage 4 needs the stage 1 baselines of exactly two clusters; the project has %n "
                           "cluster(s) with stage 1 runs. Name them: --run SOURCE --run TARGET",
                           nullptr, int(latest.size()))});
        chosen = latest;
    }
    for (const store::RunRow& r : chosen)
        if (r.commSampleCount == 0)
            return unexpected(
                InputError{Stages::tr("run %1 has no all-to-all samples (not a stage 1 run)").arg(r.name)});
    return StageFourInputs{{stageOneInput(project, chosen[0]), recordOfRun(project, chosen[0])},
                           {stageOneInput(project, chosen[1]), recordOfRun(project, chosen[1])}};
}

QList<store::RunRow> defaultStageRuns(const store::ProjectStore& project, int stage) {
    QList<store::RunRow> out;
    if (stage == 4) {
        out = latestRunPerCluster(project);
        if (out.size() != 2)
            out.clear();
        return out;
    }
    for (const store::RunRow& r : project.runs()) {
        const bool takes = stage == 1   ? r.commSampleCount > 0
                           : stage == 2 ? hasThroughputMetric(project, r)
                           : stage == 3 ? r.expertLoadBlocks > 0
                                        : false;
        if (takes)
            out << r;
    }
    return out;
}

ThresholdSet loadThresholds(const store::ProjectStore& project) {
    return ThresholdSet(project.thresholds());
}

QString verdictWord(const QString& token) {
    if (token == QLatin1String("pass"))
        return Stages::tr("pass", "stored verdict token");
    if (token == QLatin1String("stop"))
        return Stages::tr("stop", "stored verdict token");
    if (token == QLatin1String("not_ready"))
        return Stages::tr("not_ready", "stored verdict token");
    return token;
}

QString lockReason(const store::ProjectStore& project, int stage) {
    for (int earlier = 1; earlier < stage; ++earlier) {
        const auto v = project.verdict(earlier);
        if (!v)
            return Stages::tr("Stage %1 is locked: stage %2 has no verdict yet. Run: moewb stage %2")
                .arg(stage)
                .arg(earlier);
        if (passedOrOverridden(project, *v))
            continue;
        if (v->status == QLatin1String("stale"))
            return Stages::tr("Stage %1 is locked: stage %2 is stale (the load-balancing method changed). "
                              "Re-run: moewb stage %2")
                .arg(stage)
                .arg(earlier);
        return Stages::tr(
                   "Stage %1 is locked: stage %2's verdict is \"%3\". It unlocks when stage %2 passes or its "
                   "stop is overridden with a written justification.")
            .arg(stage)
            .arg(earlier)
            .arg(verdictWord(v->status));
    }
    return {};
}

} // namespace moewb::stages
