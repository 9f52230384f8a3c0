#include "checks/MisjudgmentChecks.h"

#include "checks/ChecksTr.h"
#include "common/Units.h"
#include "stages/ImpossibleValues.h"
#include "stages/StageTwoGate.h"
#include "stats/Statistics.h"

#include <QScopeGuard>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace moewb::checks {

namespace {

bool isMoe(const RunFacts& r) {
    return !r.record.isDense();
}
bool hasThroughput(const RunFacts& r) {
    return !r.throughput.isEmpty();
}

stages::TrainingRunInput trainingInput(const RunFacts& r) {
    stages::TrainingRunInput in{r.name, r.record, {}};
    in.metrics = r.throughput + r.loss + r.valLoss;
    return in;
}

QString routingText(const RunFacts& r) {
    const auto& m = r.record.moe;
    const QString topK = m.topK ? QString::number(*m.topK) : Checks::tr("?");
    const QString cf = !m.capacityFactor            ? Checks::tr("?")
                       : m.capacityFactor->isNone() ? Checks::tr("none")
                                                    : QString::number(*m.capacityFactor->factor);
    const QString policy = m.overflowPolicy ? record::token(*m.overflowPolicy) : Checks::tr("?");
    return Checks::tr("top-k %1 · capacity factor %2 · overflow %3").arg(topK, cf, policy);
}

std::optional<double> meanDropRate(const RunFacts& r) {
    if (r.dropRate.isEmpty())
        return std::nullopt;
    std::vector<double> v;
    for (const store::StepMetric& m : r.dropRate)
        if (std::isfinite(m.value))
            v.push_back(m.value);
    if (v.empty())
        return std::nullopt;
    return stats::mean(v);
}

QString dropText(const RunFacts& r) {
    const auto d = meanDropRate(r);
    // As stage 3 words it: dropless and reroute drop nothing by construction.
    const auto policy = r.record.moe.overflowPolicy;
    if (policy == record::OverflowPolicy::Dropless || policy == record::OverflowPolicy::Reroute)
        return Checks::tr("drop rate not applicable");
    return d ? Checks::tr("drop rate %1").arg(units::formatPercent(*d)) : Checks::tr("drop rate not logged");
}

// `grouped`: the one-line summary of several findings (unused for one).
MisjudgmentWarning warning(int id, const QString& title, const QStringList& findings, const QString& fix,
                           const QString& grouped, const QStringList& runs) {
    MisjudgmentWarning w{id, title, findings.join(QLatin1Char(' ')), fix, {}, findings, {}};
    w.summary = findings.size() == 1 ? findings.first() : grouped;
    for (const QString& r : runs)
        if (!w.runs.contains(r))
            w.runs << r;
    return w;
}

QString names(const QStringList& list) {
    return list.join(QStringLiteral(", "));
}

} // namespace

QString hardwareIdentity(const RunFacts& run) {
    const auto& c = run.record.cluster;
    QStringList parts;
    for (const auto& p : {c.acceleratorModel, c.networkType, c.topology.description})
        if (p)
            parts << *p;
    return parts.isEmpty() ? Checks::tr("an unrecorded cluster") : parts.join(QStringLiteral(", "));
}

QString clusterIdentity(const RunFacts& run) {
    return run.clusterName.isEmpty() ? hardwareIdentity(run) : run.clusterName;
}

bool sameCluster(const RunFacts& a, const RunFacts& b) {
    if (!a.clusterName.isEmpty() && !b.clusterName.isEmpty())
        return a.clusterName == b.clusterName;
    return hardwareIdentity(a) == hardwareIdentity(b);
}

std::optional<MisjudgmentWarning> checkForeignClusterThroughput(const ProjectFacts& facts) {
    QStringList findings, runs;
    for (const RunFacts& r : facts.runs) {
        if (!hasThroughput(r))
            continue;
        bool baselineHere = false;
        QStringList others;
        for (const RunFacts& o : facts.runs) {
            if (sameCluster(r, o))
                baselineHere = baselineHere || o.hasCommSamples;
            else if (!others.contains(clusterIdentity(o)))
                others << clusterIdentity(o);
        }
        if (baselineHere || others.isEmpty())
            continue;
        findings
            << Checks::tr(
                   "Throughput of run %1 comes from cluster \"%2\", which has no stage 1 baseline, while the "
                   "project also holds data from %3.")
                   .arg(r.name, clusterIdentity(r), others.join(QStringLiteral("; ")));
        runs << r.name;
    }
    if (findings.isEmpty())
        return std::nullopt;
    return warning(
        1, Checks::tr("Another cluster's throughput used as this cluster's expectation"), findings,
        Checks::tr("Run stage 1 on each cluster first; the communication baselines show where a throughput "
                   "gap comes from."),
        Checks::tr("%n run(s) with throughput from a cluster that has no stage 1 baseline: %1", "", int(runs.size()))
            .arg(names(runs)),
        runs);
}

std::optional<MisjudgmentWarning> checkRoutingSettingsMixed(const ProjectFacts& facts) {
    QStringList settings;
    QStringList runs;
    QStringList runNames;
    QStringList unrecorded;
    for (const RunFacts& r : facts.runs) {
        if (!hasThroughput(r) || !isMoe(r))
            continue;
        const auto& m = r.record.moe;
        if (!m.topK || !m.capacityFactor || !m.overflowPolicy)
            unrecorded << r.name;
        const QString s = routingText(r);
        if (!settings.contains(s))
            settings << s;
        runs << Checks::tr("%1 (%2)").arg(r.name, s);
        runNames << r.name;
    }
    QStringList findings;
    if (settings.size() >= 2)
        findings << Checks::tr("Throughput is logged for MoE runs with different routing settings: %1. Their "
                               "throughputs are not comparable.")
                        .arg(runs.join(QStringLiteral("; ")));
    if (!unrecorded.isEmpty())
        findings
            << Checks::tr(
                   "Runs %1 do not record top-k, capacity factor and overflow policy, so their throughput "
                   "cannot be placed in a comparable table.")
                   .arg(unrecorded.join(QStringLiteral(", ")));
    if (findings.isEmpty())
        return std::nullopt;
    return warning(
        2, Checks::tr("Throughput compared across capacity factor or overflow policy"), findings,
        Checks::tr("Record capacity factor and overflow policy (and top-k) for every run and compare "
                   "throughput only within one setting; the workbench puts each setting in its own table."),
        Checks::tr("%n MoE run(s) with mixed or unrecorded routing settings: %1", "", int(runNames.size()))
            .arg(names(runNames)),
        runNames);
}

std::optional<MisjudgmentWarning> checkMeanLoadOnly(const ProjectFacts& facts) {
    QStringList findings, runs;
    for (const RunFacts& r : facts.runs) {
        if (!isMoe(r) || r.hasCommSamples)
            continue;
        const bool training = hasThroughput(r) || !r.loss.isEmpty() || r.hasLoadBalancingLoss;
        if (!training)
            continue;
        if (!r.hasExpertLoad || (!r.record.parallelism.ep && !r.hasBusiestDeviceShare))
            runs << r.name;
        if (!r.hasExpertLoad && r.hasOverloadFactorLoad)
            findings << Checks::tr("Run %1 has Megatron-Core's overload factor per layer but no tokens per expert: "
                                   "its load ratio is the EP ranks', a lower bound of the per-expert max/mean.")
                            .arg(r.name);
        else if (!r.hasExpertLoad)
            findings << Checks::tr(
                            "Run %1 has training metrics%2 but no tokens per expert: max/mean load and the "
                            "busiest-device share cannot be computed.")
                            .arg(r.name, r.hasLoadBalancingLoss
                                             ? Checks::tr(" and a load-balancing loss (a mean-level "
                                                          "measure)")
                                             : QString());
        else if (!r.record.parallelism.ep && !r.hasBusiestDeviceShare)
            findings << Checks::tr(
                            "Run %1 has expert load but no EP size in its record: the busiest-device share "
                            "cannot be estimated.")
                            .arg(r.name);
    }
    if (findings.isEmpty())
        return std::nullopt;
    return warning(3, Checks::tr("Only the mean load reported"), findings,
                   Checks::tr("Log tokens per expert per layer and step and report load max/mean and the "
                              "busiest-device share beside the mean (stage 3)."),
                   Checks::tr("%n MoE run(s) without per-expert load or EP size: %1", "", int(runs.size()))
                       .arg(names(runs)),
                   runs);
}

std::optional<MisjudgmentWarning> checkThroughputOverLoss(const ProjectFacts& facts) {
    struct Candidate {
        const RunFacts* run;
        double tps;
    };
    QList<Candidate> candidates;
    for (const RunFacts& r : facts.runs) {
        if (!hasThroughput(r) || (r.loss.isEmpty() && r.valLoss.isEmpty()))
            continue;
        // A run with impossible values (an inf throughput, a NaN loss) is not compared: the
        // stages refuse it as not ready, and a warning built on it would mislead.
        if (!stages::impossibleStepMetrics(r.name, r.throughput + r.loss + r.valLoss, 1).isEmpty())
            continue;
        const auto t = stages::steadyThroughput(trainingInput(r));
        if (t.tokensPerSecondPerGpu && std::isfinite(*t.tokensPerSecondPerGpu))
            candidates.append({&r, *t.tokensPerSecondPerGpu});
    }
    QStringList findings, pairs, runs;
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        for (qsizetype j = 0; j < candidates.size(); ++j) {
            const Candidate& fast = candidates[i];
            const Candidate& slow = candidates[j];
            if (i == j || !(fast.tps > slow.tps))
                continue;
            const auto a = trainingInput(*fast.run);
            const auto b = trainingInput(*slow.run);
            const bool useVal = !fast.run->valLoss.isEmpty() && !slow.run->valLoss.isEmpty();
            const QString metric = useVal ? QStringLiteral("val_loss") : QStringLiteral("lm_loss");
            double horizon = 0.0, ha = 0.0, hb = 0.0;
            for (const auto* run : {&a, &b}) {
                double last = 0.0;
                for (const store::StepMetric& m : run->metrics)
                    if (m.name == metric)
                        last = std::max(last, stages::tokensAtStep(*run, m.step));
                (run == &a ? ha : hb) = last;
            }
            horizon = std::min(ha, hb);
            if (!(horizon > 0.0))
                continue;
            const auto la =
                useVal ? stages::validationLossAt(a, horizon) : stages::trainingLossAt(a, horizon);
            const auto lb =
                useVal ? stages::validationLossAt(b, horizon) : stages::trainingLossAt(b, horizon);
            if (!la.value || !lb.value || !(*la.value > *lb.value))
                continue;
            findings
                << Checks::tr(
                       "Run %1 is faster than %2 (%3 vs %4 tokens/s/GPU) but its %5 is worse (%6 vs %7 at "
                       "%8 tokens); %1: %9, %2: %10.")
                       .arg(fast.run->name, slow.run->name, units::formatCount(fast.tps),
                            units::formatCount(slow.tps),
                            useVal ? Checks::tr("validation loss") : Checks::tr("training loss"),
                            QString::number(*la.value, 'f', 3), QString::number(*lb.value, 'f', 3),
                            units::formatCount(horizon), dropText(*fast.run))
                       .arg(dropText(*slow.run));
            pairs << Checks::tr("%1 over %2").arg(fast.run->name, slow.run->name);
            runs << fast.run->name << slow.run->name;
        }
    }
    if (findings.isEmpty())
        return std::nullopt;
    return warning(
        4, Checks::tr("Higher throughput taken as better while the loss got worse"), findings,
        Checks::tr("Look at throughput and loss together and record the drop rate: the extra speed may come "
                   "from dropping more tokens."),
        Checks::tr("%n run pair(s) faster but with a worse loss: %1", "", int(pairs.size())).arg(names(pairs)), runs);
}

std::optional<MisjudgmentWarning> checkSingleNodeExtrapolation(const ProjectFacts& facts) {
    QSet<int> measured;
    for (const RunFacts& r : facts.runs)
        if (r.hasCommSamples && r.commNodes)
            measured.insert(*r.commNodes);
    QList<int> measuredSorted(measured.begin(), measured.end());
    std::sort(measuredSorted.begin(), measuredSorted.end());
    QStringList measuredText;
    for (int n : measuredSorted)
        measuredText << QString::number(n);
    QStringList findings, runs;
    QSet<int> reported;
    for (const RunFacts& r : facts.runs) {
        if (r.hasCommSamples || (!hasThroughput(r) && r.loss.isEmpty()) || !r.record.cluster.nodes)
            continue;
        const int n = int(*r.record.cluster.nodes);
        if (n <= 1 || measured.contains(n) || reported.contains(n))
            continue;
        reported.insert(n);
        runs << r.name;
        findings << (measuredText.isEmpty()
                         ? Checks::tr("Run %1 trains on %2 nodes, but stage 1 never ran.").arg(r.name).arg(n)
                         : Checks::tr("Run %1 trains on %2 nodes, but stage 1 ran only at %3.")
                               .arg(r.name)
                               .arg(n)
                               .arg(stages::nodeCountsText(measuredSorted)));
    }
    if (findings.isEmpty())
        return std::nullopt;
    return warning(
        5, Checks::tr("Single-node results extrapolated to multi-node"), findings,
        Checks::tr("Run stage 1 at the target node count: intra-node and inter-node all-to-all differ "
                   "widely in latency and bandwidth."),
        Checks::tr("%n run(s) train at a node count stage 1 did not measure: %1", "", int(runs.size()))
            .arg(names(runs)),
        runs);
}

std::optional<MisjudgmentWarning> checkWarmupInThroughput(const ProjectFacts& facts) {
    QStringList findings, runs;
    for (const RunFacts& r : facts.runs) {
        if (!hasThroughput(r))
            continue;
        const qsizetype before = findings.size();
        const auto markRun = qScopeGuard([&] {
            if (findings.size() > before)
                runs << r.name;
        });
        const auto warmup = r.record.throughput.warmupStepsExcluded;
        if (!warmup) {
            findings << Checks::tr("Run %1 does not record how many warm-up steps its throughput excludes.")
                            .arg(r.name);
            continue;
        }
        if (*warmup == 0) {
            findings
                << Checks::tr("Run %1 excludes no warm-up steps from its throughput statistics.").arg(r.name);
            continue;
        }
        // The first counted steps still slow: warm-up longer than N.
        const qint64 first = r.throughput.first().step;
        std::vector<double> head, rest;
        for (const store::StepMetric& m : r.throughput) {
            if (m.step < first + *warmup || !std::isfinite(m.value))
                continue;
            (head.size() < 5 ? head : rest).push_back(m.value);
        }
        if (head.size() == 5 && rest.size() >= 5) {
            const double h = stats::median(head), steady = stats::median(rest);
            if (h < 0.9 * steady)
                findings << Checks::tr(
                                "Run %1 excludes %2 warm-up steps, but the next 5 steps still run at %3 "
                                "tokens/s/GPU against %4 later (median): the warm-up is longer.")
                                .arg(r.name)
                                .arg(*warmup)
                                .arg(units::formatCount(h), units::formatCount(steady));
        }
    }
    if (findings.isEmpty())
        return std::nullopt;
    return warning(
        6, Checks::tr("Warm-up steps inside throughput statistics"), findings,
        Checks::tr("Exclude the warm-up steps (throughput.warmup_steps_excluded in the config record) and "
                   "report only the steady phase."),
        Checks::tr("%n run(s) with warm-up steps inside their throughput: %1", "", int(runs.size())).arg(names(runs)),
        runs);
}

QList<MisjudgmentWarning> runAllChecks(const ProjectFacts& facts) {
    QList<MisjudgmentWarning> out;
    for (auto check : {checkForeignClusterThroughput, checkRoutingSettingsMixed, checkMeanLoadOnly,
                       checkThroughputOverLoss, checkSingleNodeExtrapolation, checkWarmupInThroughput})
        if (auto w = check(facts))
            out.append(*w);
    return out;
}

QStringList checkReasonsForRuns(const ProjectFacts& facts, const QStringList& runNames, const QList<int>& answered) {
    QStringList out;
    for (const MisjudgmentWarning& w : runAllChecks(facts)) {
        if (answered.contains(w.id))
            continue;
        bool concerns = false;
        for (const QString& r : w.runs)
            concerns = concerns || runNames.contains(r);
        if (concerns)
            // Named, not repeated: the warning's evidence and fix are said once, with the
            // misjudgment warnings (the window's warnings bar, the report's own section).
            out << Checks::tr("Misjudgment warning %1 applies to these runs: %2 (its evidence and fix are with the "
                              "misjudgment warnings).")
                       .arg(w.id)
                       .arg(w.title);
    }
    return out;
}

} // namespace moewb::checks
