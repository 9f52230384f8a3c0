// Reading the facts the misjudgment checks need from the project file.
#include "checks/ChecksTr.h"
#include "checks/MisjudgmentChecks.h"
#include "record/RecordValidation.h"
#include "stages/StageInputs.h"

#include <QHash>

#include <algorithm>

namespace moewb::checks {

ProjectFacts loadProjectFacts(const store::ProjectStore& project) {
    ProjectFacts facts;
    // A project has a few records and may have 100,000 runs: each record is read and
    // parsed once.
    struct RecordFacts {
        record::ConfigRecord record;
        bool complete = false;
    };
    QHash<QString, RecordFacts> records;
    for (const store::RunRow& row : project.runs()) {
        RunFacts r;
        r.name = row.name;
        r.clusterName = row.clusterName;
        auto known = records.constFind(row.recordName);
        if (known == records.constEnd()) {
            const auto recordRow = project.configRecord(row.recordName);
            known = records.insert(row.recordName,
                                   RecordFacts{stages::recordOfRun(project, row), recordRow && recordRow->complete});
        }
        r.record = known->record;
        r.recordComplete = known->complete;
        r.hasCommSamples = row.commSampleCount > 0;
        if (r.hasCommSamples) {
            const QJsonValue nodes = row.environment.value(QStringLiteral("nodes"));
            if (nodes.isDouble() && nodes.toDouble() >= 1)
                r.commNodes = int(nodes.toDouble());
            else if (r.record.cluster.nodes)
                r.commNodes = int(*r.record.cluster.nodes);
        }
        r.hasExpertLoad = row.expertLoadBlocks > 0;
        if (row.stepCount > 0) {
            const QStringList names = project.stepMetricNames(row.id);
            auto read = [&](const char* name) {
                return names.contains(QLatin1String(name)) ? project.stepMetrics(row.id, QLatin1String(name))
                                                           : QVector<store::StepMetric>{};
            };
            r.throughput = read("tokens_per_s_per_gpu");
            r.loss = read("lm_loss");
            r.valLoss = read("val_loss");
            r.dropRate = read("drop_rate");
            r.hasLoadBalancingLoss = names.contains(QStringLiteral("load_balancing_loss")) ||
                                     names.contains(QStringLiteral("moe_loss"));
            r.hasBusiestDeviceShare = names.contains(QStringLiteral("busiest_device_share")) ||
                                      names.contains(QStringLiteral("trace_busiest_share")) ||
                                      names.contains(QStringLiteral("max_overload_factor"));
            r.hasOverloadFactorLoad = std::any_of(names.cbegin(), names.cend(), [](const QString& n) {
                return n.startsWith(QLatin1String("max_overload_factor_layer_"));
            });
        }
        facts.runs.append(r);
    }
    return facts;
}

void addCheckReasons(const store::ProjectStore& project, stages::StageEvaluation& evaluation) {
    if (evaluation.locked() && !evaluation.preview)
        return;
    const QStringList runs = stages::evaluatedRunNames(evaluation);
    if (runs.isEmpty())
        return;
    // Stage 2 puts each routing setting (top-k, capacity factor, overflow policy) in its
    // own table against the dense control (SPEC §1): its verdict never compares their
    // throughputs, so warning 2 is answered there, said as a note, not as a reason a
    // pass would contradict.
    QList<int> answered;
    if (const stages::StageTwoResult* two = evaluation.stageTwo();
        two && !two->plan.refused && two->plan.groups.size() >= 2) {
        answered << 2;
        evaluation.verdict.notes
            << Checks::tr("The MoE runs use %1 routing settings (top-k, capacity factor, overflow policy): each "
                          "is compared with the dense control in its own table, never with the others.")
                   .arg(two->plan.groups.size());
    }
    evaluation.verdict.reasons << checkReasonsForRuns(loadProjectFacts(project), runs, answered);
}

} // namespace moewb::checks
