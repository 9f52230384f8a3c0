#include "assessment/ProjectEvidence.h"

#include "assessment/AssessmentSheet.h"
#include "checks/MisjudgmentChecks.h"
#include "common/Units.h"
#include "record/RecordFields.h"
#include "record/JsonValueText.h"
#include "stages/StageInputs.h"
#include "stages/StageOneGate.h"

#include <QHash>
#include <QJsonDocument>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <climits>
#include <cmath>

namespace moewb::assessment {

namespace {


double median(QVector<double> v) {
    if (v.isEmpty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

QVector<double> values(const QVector<store::StepMetric>& metrics) {
    QVector<double> out;
    out.reserve(metrics.size());
    for (const store::StepMetric& m : metrics)
        if (std::isfinite(m.value))
            out << m.value;
    return out;
}

QString fieldText(const QJsonObject& json, const QString& path) {
    const QJsonValue v = record::recordFieldValue(json, path);
    if (v.isUndefined() || v.isNull())
        return Assessment::tr("not recorded");
    return v.isString() ? v.toString() : record::describeJsonValue(v);
}

QString statusWord(const QString& token) {
    if (token == QLatin1String("pass"))
        return Assessment::tr("pass");
    if (token == QLatin1String("stop"))
        return Assessment::tr("stop");
    if (token == QLatin1String("stale"))
        return Assessment::tr("stale");
    if (token == QLatin1String("not_ready"))
        return Assessment::tr("not ready");
    return token;
}

} // namespace

int countLossSpikes(const QVector<double>& v, int window, double factor) {
    int spikes = 0;
    for (qsizetype i = window; i < v.size(); ++i) {
        const double m = median(v.mid(i - window, window));
        if (std::isfinite(m) && m > 0 && v[i] > factor * m)
            ++spikes;
    }
    return spikes;
}

QList<ProjectEvidence> projectEvidence(const store::ProjectStore& project) {
    QMap<QString, QStringList> lines;
    const QList<store::ConfigRecordRow> records = project.configRecords();
    const QList<store::RunRow> runs = project.runs();
    const checks::ProjectFacts facts = checks::loadProjectFacts(project);

    // Completeness: how far the four stages got.
    {
        QStringList stagesText;
        const QList<store::OverrideRow> overrides = project.overrides();
        for (int stage = 1; stage <= 4; ++stage) {
            const auto v = project.verdict(stage);
            bool overridden = false;
            for (const store::OverrideRow& o : overrides)
                overridden = overridden || o.stage == stage;
            stagesText << (!v ? Assessment::tr("stage %1 not decided").arg(stage)
                           : overridden && v->status == QLatin1String("stop")
                               ? Assessment::tr("stage %1 stop, overridden").arg(stage)
                               : Assessment::tr("stage %1 %2").arg(stage).arg(statusWord(v->status)));
        }
        if (!records.isEmpty() || !runs.isEmpty()) {
            lines[QStringLiteral("completeness")]
                << Assessment::tr("The method's four stages: %1.").arg(stagesText.join(QStringLiteral(", ")));
            lines[QStringLiteral("completeness")]
                << Assessment::tr("%n config record(s) and %1 run(s) in the project.", "", int(records.size()))
                       .arg(runs.size());
        }
    }

    // Principles and operability: the MoE records' routing settings, complete records.
    {
        QSet<QString> topK, capacity, overflow;
        int moe = 0, complete = 0;
        for (const store::ConfigRecordRow& r : records) {
            complete += r.complete ? 1 : 0;
            const QJsonValue experts = record::recordFieldValue(r.json, QStringLiteral("moe.experts"));
            if (experts.isUndefined() || experts.isNull())
                continue;
            ++moe;
            topK.insert(fieldText(r.json, QStringLiteral("moe.top_k")));
            capacity.insert(fieldText(r.json, QStringLiteral("moe.capacity_factor")));
            overflow.insert(fieldText(r.json, QStringLiteral("moe.overflow_policy")));
        }
        auto listed = [](const QSet<QString>& s) {
            QStringList l(s.begin(), s.end());
            l.sort();
            return l.join(QStringLiteral(", "));
        };
        if (moe > 0) {
            QString line = Assessment::tr("Routing across %n MoE config record(s): top-k %1; capacity factor %2; overflow "
                                  "policy %3.",
                                  "", moe)
                               .arg(listed(topK), listed(capacity), listed(overflow));
            if (topK.size() > 1 || capacity.size() > 1 || overflow.size() > 1)
                line += QLatin1Char(' ') +
                        Assessment::tr("Not the same everywhere: throughput compared across them is not like for like "
                               "(misjudgment check 2).");
            lines[QStringLiteral("principles")] << line;
        }
        if (!records.isEmpty())
            lines[QStringLiteral("operability")]
                << Assessment::tr("%1 of %n config record(s) complete; the stages take runs of complete records only.", "",
                          int(records.size()))
                       .arg(complete);
        const QList<store::ClusterRow> clusters = project.clusters();
        if (!clusters.isEmpty()) {
            QStringList names;
            for (const store::ClusterRow& c : clusters)
                names << c.name;
            lines[QStringLiteral("operability")]
                << Assessment::tr("Clusters defined for measuring from the workbench: %1.").arg(names.join(QStringLiteral(", ")));
        }
    }

    // Reproducibility and tuning: stage 1's repeats and spread; what was measured.
    {
        const auto inputs = stages::loadStageOneInputs(project, {});
        if (inputs && !inputs->isEmpty()) {
            int minRepeats = INT_MAX, maxRepeats = 0;
            double worstCv = -1.0;
            QString worstRun;
            QSet<int> nodes;
            double smallest = 0, largest = 0;
            for (const stages::StageOneRunInput& in : *inputs) {
                const stages::StageOneTable t = stages::stageOneTable(in);
                if (t.nodes)
                    nodes.insert(*t.nodes);
                for (const stages::StageOneSizeRow& row : t.rows) {
                    minRepeats = std::min(minRepeats, row.repeats);
                    maxRepeats = std::max(maxRepeats, row.repeats);
                    if (row.cv && *row.cv > worstCv) {
                        worstCv = *row.cv;
                        worstRun = t.runName;
                    }
                    smallest = smallest == 0 ? double(row.bytesPerRank) : std::min(smallest, double(row.bytesPerRank));
                    largest = std::max(largest, double(row.bytesPerRank));
                }
            }
            const int fewest = minRepeats == INT_MAX ? 0 : minRepeats;
            const QString repeats = fewest == maxRepeats
                                        ? Assessment::tr("%n repeat(s) per message size", "", maxRepeats)
                                        : Assessment::tr("%1–%2 repeats per message size").arg(fewest).arg(maxRepeats);
            QString line =
                Assessment::tr("Stage 1: %n probe run(s), %1", "", int(inputs->size())).arg(repeats);
            line += worstCv >= 0 ? Assessment::tr("; run-to-run CV at most %1 (run %2).")
                                       .arg(units::formatPercent(worstCv), worstRun)
                                 : Assessment::tr("; no size has two repeats, so no run-to-run spread.");
            lines[QStringLiteral("reproducibility")] << line;
            QList<int> n(nodes.begin(), nodes.end());
            std::sort(n.begin(), n.end());
            // " at 4 nodes", " at 2 and 4 nodes".
            const QString atNodes = n.isEmpty() ? QString() : Assessment::tr(" at %1").arg(stages::nodeCountsText(n));
            lines[QStringLiteral("tuning")] << Assessment::tr("Stage 1: all-to-all time from %1 to %2 per rank%3.")
                                                   .arg(units::formatBytes(smallest), units::formatBytes(largest), atNodes);
        }
        // Training runs repeated on one config record (a second seed shows the spread).
        QHash<QString, QString> recordOf; // run name → its config record's name
        for (const store::RunRow& r : runs)
            recordOf.insert(r.name, r.recordName);
        QMap<QString, int> perRecord;
        int training = 0, withLoad = 0, moeTraining = 0;
        for (const checks::RunFacts& r : facts.runs) {
            if (r.throughput.isEmpty() && r.loss.isEmpty())
                continue;
            ++training;
            perRecord[recordOf.value(r.name)] += 1;
            moeTraining += r.record.moe.isEmpty() ? 0 : 1;
            withLoad += r.hasExpertLoad ? 1 : 0;
        }
        if (training > 0) {
            QStringList repeated;
            for (auto it = perRecord.cbegin(); it != perRecord.cend(); ++it)
                if (it.value() > 1)
                    repeated << Assessment::tr("%1 (%2 runs)").arg(it.key()).arg(it.value());
            lines[QStringLiteral("reproducibility")]
                << (repeated.isEmpty()
                        ? Assessment::tr("No training run is repeated on the same config record: a second seed would show "
                                 "the run-to-run spread of the stage 2 comparison.")
                        : Assessment::tr("Training runs repeated on one config record: %1.").arg(repeated.join(QStringLiteral(", "))));
            lines[QStringLiteral("tuning")]
                << Assessment::tr("Stages 2–3: %n training run(s), %1 of them MoE; per-expert load in %2.", "", training)
                       .arg(moeTraining)
                       .arg(withLoad);
        }
    }

    // Stability and observability: loss spikes, drop rate; what was logged.
    {
        QStringList spikes;
        int withLoss = 0;
        double worstDrop = -1.0;
        QString worstDropRun;
        int logged[6] = {0, 0, 0, 0, 0, 0}; // load, drop, lb loss, busiest share, val loss, throughput
        int training = 0, moe = 0;
        QStringList collector;
        for (const checks::RunFacts& r : facts.runs) {
            if (r.throughput.isEmpty() && r.loss.isEmpty())
                continue;
            ++training;
            const bool isMoe = !r.record.moe.isEmpty();
            moe += isMoe ? 1 : 0;
            if (!r.loss.isEmpty()) {
                ++withLoss;
                if (const int n = countLossSpikes(values(r.loss)); n > 0)
                    spikes << Assessment::tr("%1 (%n step(s))", "", n).arg(r.name);
            }
            for (const store::StepMetric& m : r.dropRate)
                if (std::isfinite(m.value) && m.value > worstDrop) {
                    worstDrop = m.value;
                    worstDropRun = r.name;
                }
            if (isMoe) {
                logged[0] += r.hasExpertLoad ? 1 : 0;
                logged[1] += r.dropRate.isEmpty() ? 0 : 1;
                logged[2] += r.hasLoadBalancingLoss ? 1 : 0;
                logged[3] += r.hasBusiestDeviceShare ? 1 : 0;
            }
            logged[4] += r.valLoss.isEmpty() ? 0 : 1;
            logged[5] += r.throughput.isEmpty() ? 0 : 1;
        }
        for (const store::RunRow& r : runs)
            if (QJsonDocument(r.environment).toJson(QJsonDocument::Compact).contains("moewb-collect"))
                collector << r.name;
        if (withLoss > 0)
            lines[QStringLiteral("stability")]
                << (spikes.isEmpty()
                        ? Assessment::tr("No loss spike in %n run(s) with a training loss (a step over 1.2× the median of "
                                 "the 20 steps before it).",
                                 "", withLoss)
                        : Assessment::tr("Loss spikes (a step over 1.2× the median of the 20 steps before it): %1.")
                              .arg(spikes.join(QStringLiteral(", "))));
        if (worstDrop >= 0)
            lines[QStringLiteral("stability")]
                << Assessment::tr("Highest token drop rate logged: %1 (run %2).")
                       .arg(units::formatPercent(worstDrop), worstDropRun);
        if (training > 0) {
            QStringList parts;
            if (moe > 0) {
                parts << Assessment::tr("per-expert load in %1 of %n MoE run(s)", "", moe).arg(logged[0])
                      << Assessment::tr("drop rate in %1").arg(logged[1]) << Assessment::tr("load-balancing loss in %1").arg(logged[2])
                      << Assessment::tr("busiest-device share in %1").arg(logged[3]);
            }
            parts << Assessment::tr("validation loss in %1 of %n training run(s)", "", training).arg(logged[4])
                  << Assessment::tr("throughput in %1").arg(logged[5]);
            lines[QStringLiteral("observability")] << Assessment::tr("Logged: %1.").arg(parts.join(QStringLiteral("; ")));
            lines[QStringLiteral("observability")]
                << (collector.isEmpty()
                        ? Assessment::tr("No run carries the collector's sidecar (moewb_collect): drop rate and busiest-device "
                                 "share are then only what the framework logs.")
                        : Assessment::tr("The collector's sidecar (moewb_collect) is in: %1.").arg(collector.join(QStringLiteral(", "))));
        }
    }

    // Cost: GPU-hours per billion tokens from each training run's median throughput.
    for (const checks::RunFacts& r : facts.runs) {
        const double tps = median(values(r.throughput));
        if (!(tps > 0))
            continue;
        lines[QStringLiteral("cost")]
            << Assessment::tr("%1: %2 GPU-hours per billion tokens (median %3 tokens/s per GPU).")
                   .arg(r.name, QString::number(1e9 / tps / 3600.0, 'f', tps > 1e6 ? 3 : 1),
                        units::formatInteger(tps));
    }

    QList<ProjectEvidence> out;
    for (const Dimension& d : dimensions())
        out.append({d.key, lines.value(d.key)});
    return out;
}

} // namespace moewb::assessment
