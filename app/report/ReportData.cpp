#include "ReportData.h"
#include "ReferenceMarker.h"
#include "ReportAnatomy.h"

#include "common/Units.h"
#include "plotspec/StagePlots.h"
#include "stages/StageInputs.h"
#include "traffic/PlacementWhatIf.h"
#include "traffic/RoutingComparison.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonValue>

#include <QSet>
#include <algorithm>
#include <numeric>
#include <cmath>

namespace moewb::report {

QString ReportError::text() const {
    return file.isEmpty() ? message : QStringLiteral("%1: %2").arg(file, message);
}

namespace {


QString num(double v, int decimals = 2) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("—");
}
QString optNum(const std::optional<double>& v, int decimals = 2) {
    return v ? num(*v, decimals) : QStringLiteral("—");
}
// Shares as %, ratios as ×, whole numbers grouped: common/Units.h, as the window and the CLI.
QString percent(const std::optional<double>& v) {
    return v ? units::formatPercent(*v) : QStringLiteral("—");
}
QString ratio(double v) { return units::formatRatio(v); }
QString optInteger(const std::optional<double>& v) { return v ? units::formatInteger(*v) : QStringLiteral("—"); }

QString jsonText(const QJsonValue& v) {
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 10);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

QJsonValue at(const QJsonObject& o, const QString& dotted) {
    QJsonValue v = o;
    for (const QString& part : dotted.split(QLatin1Char('.'))) {
        if (!v.isObject())
            return {};
        v = v.toObject().value(part);
    }
    return v;
}

QString runLabel(const store::RunRow& run) {
    const QString cluster = run.clusterName.isEmpty() ? Report::tr("no cluster") : run.clusterName;
    return Report::tr("%1 (%2, record %3, %4)")
        .arg(run.name, store::runKindTitle(run.kind), run.recordName, cluster);
}

QStringList inputLabels(const QList<store::RunRow>& all, const QStringList& names) {
    QStringList out;
    for (const QString& n : names) {
        auto it = std::find_if(all.begin(), all.end(), [&](const store::RunRow& r) { return r.name == n; });
        out << (it != all.end() ? runLabel(*it) : n);
    }
    return out;
}

void addVerdictState(StageSection& s, const store::ProjectStore& project,
                     const QList<store::OverrideRow>& overrides) {
    s.recorded = project.verdict(s.stage);
    for (const store::OverrideRow& o : overrides)
        if (o.stage == s.stage)
            s.overrides << o;
}

StageSection stageOne(const store::ProjectStore& project, const QList<store::RunRow>& runs,
                      const stages::ThresholdSet& thresholds, const stages::StageEvaluation& e) {
    Q_UNUSED(thresholds);
    StageSection s;
    s.stage = 1;
    s.title = Report::tr("Stage 1 — communication baseline");
    s.purpose = Report::tr("Per message size: effective all-to-all bandwidth, median and P99 time, and the "
                           "variation across repeats. Stops when the CV across repeats or P99/median exceeds "
                           "the team's threshold.");
    const QList<stages::StageOneRunInput>* in = &e.stageOneInputs;
    if (in->isEmpty() || !e.stageOne()) {
        s.noData = Report::tr("No data: the project holds no run with communication samples (import a "
                              "moe-probe or nccl-tests result).");
        return s;
    }
    s.hasData = true;
    QStringList names;
    for (const auto& r : *in)
        names << r.runName;
    s.inputRuns = inputLabels(runs, names);
    const stages::StageOneResult& result = *e.stageOne();
    {
        // The key table: message sizes as rows, one column per run (its node count and
        // cluster), each cell the bandwidth and the median time.
        ReportTable key;
        key.caption = Report::tr("Bandwidth and median time per message size; one column per run");
        key.headers << Report::tr("Size per rank");
        key.widths << 1.0;
        QList<quint64> sizes;
        for (const stages::StageOneTable& t : result.tables) {
            QStringList where;
            if (t.nodes)
                where << Report::tr("%n node(s)", nullptr, *t.nodes);
            if (!t.clusterName.isEmpty())
                where << t.clusterName;
            key.headers << (where.isEmpty() ? t.runName
                                            : QStringLiteral("%1\n%2").arg(t.runName, where.join(QStringLiteral(", "))));
            key.widths << 1.6;
            for (const stages::StageOneSizeRow& row : t.rows)
                if (!sizes.contains(row.bytesPerRank))
                    sizes << row.bytesPerRank;
        }
        std::sort(sizes.begin(), sizes.end());
        for (quint64 size : std::as_const(sizes)) {
            QStringList cells{units::formatBytes(double(size))};
            for (const stages::StageOneTable& t : result.tables) {
                const auto it = std::find_if(t.rows.begin(), t.rows.end(),
                                             [&](const stages::StageOneSizeRow& r) { return r.bytesPerRank == size; });
                cells << (it == t.rows.end()
                              ? QStringLiteral("—")
                              : QStringLiteral("%1 · %2").arg(
                                    units::formatBandwidth(it->effectiveBandwidth.value_or(it->algBandwidth)),
                                    units::formatDuration(it->medianUs)));
            }
            key.rows << cells;
        }
        s.keyTables << key;
    }
    for (const stages::StageOneTable& t : result.tables) {
        ReportTable table;
        QStringList where;
        if (!t.clusterName.isEmpty())
            where << t.clusterName;
        if (t.nodes)
            where << Report::tr("%n node(s)", nullptr, *t.nodes);
        if (t.world)
            where << Report::tr("%1 ranks").arg(*t.world);
        table.caption = where.isEmpty()
                            ? Report::tr("Run %1").arg(t.runName)
                            : Report::tr("Run %1 (%2)").arg(t.runName, where.join(QStringLiteral(", ")));
        table.headers = {Report::tr("Size per rank"),  Report::tr("Samples"),    Report::tr("Repeats"),
                         Report::tr("Median"),         Report::tr("P99"),        Report::tr("Eff. bandwidth"),
                         Report::tr("Alg. bandwidth"), Report::tr("CV repeats"), Report::tr("P99/median")};
        table.widths = {1.1, 0.95, 0.85, 1.0, 1.0, 1.3, 1.3, 1.0, 1.0};
        for (const stages::StageOneSizeRow& row : t.rows)
            table.rows.append({units::formatBytes(double(row.bytesPerRank)), QString::number(row.samples),
                               QString::number(row.repeats), units::formatDuration(row.medianUs),
                               units::formatDuration(row.p99Us),
                               row.effectiveBandwidth ? units::formatBandwidth(*row.effectiveBandwidth)
                                                      : QStringLiteral("—"),
                               units::formatBandwidth(row.algBandwidth), percent(row.cv),
                               ratio(row.p99OverMedian)});
        s.tables << table;
    }
    if (!result.nodeComparison.isEmpty()) {
        ReportTable table;
        table.caption = Report::tr("Node-count comparison");
        table.headers = {Report::tr("Nodes"), Report::tr("Run"), Report::tr("Size per rank"),
                         Report::tr("Median"), Report::tr("Bandwidth")};
        table.widths = {0.7, 2.0, 1.2, 1.0, 1.4};
        for (const stages::NodeCountPoint& p : result.nodeComparison)
            table.rows.append(
                {QString::number(p.nodes), p.runName, units::formatBytes(double(p.bytesPerRank)),
                 units::formatDuration(p.medianUs),
                 units::formatBandwidth(p.bandwidth) + (p.effective ? QString() : Report::tr(" (algbw)"))});
        s.tables << table;
    }
    if (!result.suggestions.isEmpty()) {
        ReportTable table;
        table.caption = Report::tr("Suggested thresholds (from these runs; never applied)");
        table.headers = {Report::tr("Key"), Report::tr("Suggested"), Report::tr("Basis")};
        table.widths = {1.6, 0.8, 3.5};
        for (const stages::SuggestedThreshold& t : result.suggestions)
            table.rows.append({t.key, stages::thresholdValueText(t.key, t.value), t.basis});
        s.tables << table;
    }
    // Uniform against measured-routing probe runs (docs/traffic.md, `moewb traffic compare`).
    for (const traffic::RoutingPair& pair : traffic::findRoutingPairs(project, runs)) {
        ReportTable table;
        table.caption = Report::tr("Measured routing against uniform traffic: run %1 (%2) against run %3")
                            .arg(pair.routed.name, pair.origin, pair.uniform.name);
        table.headers = {Report::tr("Size per rank"), Report::tr("Uniform median"),
                         Report::tr("Measured-routing median"), Report::tr("Ratio")};
        table.widths = {1.2, 1.2, 1.4, 0.8};
        for (const traffic::SizeComparison& c : pair.sizes)
            table.rows.append({units::formatBytes(double(c.bytesPerRank)), units::formatDuration(c.uniformMedianUs),
                               units::formatDuration(c.measuredMedianUs),
                               ratio(c.ratio)});
        s.tables << table;
        const traffic::SizeComparison& largest = pair.sizes.last();
        s.remarks << Report::tr("At %1 per rank, the routing of %2 makes the all-to-all %3 as long as a uniform "
                                "one on this cluster.")
                         .arg(units::formatBytes(double(largest.bytesPerRank)), pair.origin, ratio(largest.ratio));
    }
    s.plots = plots::stageOnePlots(result);
    return s;
}

StageSection stageTwo(const store::ProjectStore& project, const QList<store::RunRow>& runs,
                      const stages::ThresholdSet& thresholds, const stages::StageEvaluation& e) {
    Q_UNUSED(project);
    Q_UNUSED(thresholds);
    StageSection s;
    s.stage = 2;
    s.title = Report::tr("Stage 2 — dense control");
    s.purpose = Report::tr("The MoE model against a dense model of similar activated size, like for like. "
                           "Stops when the MoE is slower and its validation loss is not better.");
    const QList<stages::TrainingRunInput>* in = &e.stageTwoInputs;
    if (in->isEmpty() || !e.stageTwo()) {
        s.noData = Report::tr("No data: the project holds no training run with a throughput metric; import the "
                              "MoE and the dense training logs.");
        return s;
    }
    s.hasData = true;
    QStringList names;
    for (const auto& r : *in)
        names << r.runName;
    s.inputRuns = inputLabels(runs, names);
    const stages::StageTwoResult& result = *e.stageTwo();
    if (!result.pairs.isEmpty()) {
        ReportTable table;
        table.caption = Report::tr("MoE against dense, at equal tokens");
        table.headers = {Report::tr("MoE run"),
                         Report::tr("Dense run"),
                         Report::tr("Tokens/s/GPU MoE"),
                         Report::tr("Tokens/s/GPU dense"),
                         Report::tr("Compared at"),
                         Report::tr("Train loss MoE / dense"),
                         Report::tr("Val loss MoE / dense"),
                         Report::tr("Activated params diff"),
                         Report::tr("Stops")};
        table.widths = {1.3, 1.2, 1.1, 1.1, 1.2, 1.3, 1.3, 1.0, 0.7};
        for (const stages::StageTwoPair& p : result.pairs) {
            table.rows.append({p.moeRun, p.denseRun, optInteger(p.moeThroughput.tokensPerSecondPerGpu),
                               optInteger(p.denseThroughput.tokensPerSecondPerGpu),
                               Report::tr("%1 tokens").arg(units::formatCount(p.comparedAtTokens)),
                               QStringLiteral("%1 / %2").arg(optNum(p.moeTrainLoss.value, 3),
                                                             optNum(p.denseTrainLoss.value, 3)),
                               QStringLiteral("%1 / %2").arg(optNum(p.moeValLoss.value, 3),
                                                             optNum(p.denseValLoss.value, 3)),
                               units::formatPercent(p.activatedParamsDiff),
                               p.stops ? Report::tr("yes") : Report::tr("no")});
            for (const QString& m : p.mismatches)
                s.remarks << Report::tr("%1 vs %2 not like for like: %3").arg(p.moeRun, p.denseRun, m);
        }
        s.keyTables << table;
    }
    if (result.plan.refused)
        s.remarks << result.plan.refusalText();
    // As the window's page: what decides first (the loss zoomed on the end of training,
    // the throughput), then the whole curves.
    s.plots << plots::stageTwoLossTailPlot(*in, plots::TrainingX::Tokens, 0.6)
            << plots::stageTwoThroughputPlot(*in) << plots::stageTwoLossPlot(*in, plots::TrainingX::Tokens, 0.6);
    return s;
}

// The stage 3 page's default (docs/traffic.md): one redundant slot per GPU.
constexpr int kReportRedundantSlots = 1;

StageSection stageThree(const store::ProjectStore& project, const QList<store::RunRow>& runs,
                        const stages::ThresholdSet& thresholds, const stages::StageEvaluation& e) {
    StageSection s;
    s.stage = 3;
    s.title = Report::tr("Stage 3 — expert load and loss");
    // Where each step's time went, for the runs with profiler traces (with or without
    // expert load).
    s.subsections = anatomySubsections(project, runs);
    s.purpose =
        Report::tr("Load ratio max/mean per layer and step, token drop rate and busiest-device share. "
                   "Stops when a layer's load ratio stays above the limit or the drop rate is above "
                   "its limit.");
    const QList<stages::ExpertLoadRunInput>* in = &e.stageThreeInputs;
    if (in->isEmpty() || !e.stageThree()) {
        s.noData = Report::tr("No data: the project holds no run with per-expert load; import a routing trace "
                              "or an expert-load log.");
        return s;
    }
    s.hasData = true;
    QStringList names;
    for (const auto& r : *in)
        names << r.runName;
    s.inputRuns = inputLabels(runs, names);
    const stages::StageThreeResult& result = *e.stageThree();
    ReportTable table;
    table.caption = Report::tr("Per run, over the gate's window");
    table.headers = {
        Report::tr("Run"),         Report::tr("Experts × layers"),  Report::tr("Window steps"),
        Report::tr("Worst layer"), Report::tr("Steps above limit"), Report::tr("Max / mean ratio"),
        Report::tr("Drop rate"),   Report::tr("Busiest device"),    Report::tr("Window loss")};
    table.widths = {1.5, 1.0, 1.1, 0.8, 1.0, 1.1, 1.2, 1.1, 0.9};
    for (const stages::StageThreeRunSummary& r : result.runs) {
        const QString drop =
            r.dropSource == stages::DropRateSource::NotApplicable ? Report::tr("not applicable")
            : !r.dropRate                                         ? Report::tr("not logged")
            : r.dropSource == stages::DropRateSource::EstimatedFromLoad
                ? Report::tr("%1, estimated").arg(units::formatPercent(*r.dropRate))
                : units::formatPercent(*r.dropRate);
        table.rows.append(
            {r.runName, QStringLiteral("%1 × %2").arg(r.experts).arg(r.layers),
             QStringLiteral("%1 (%2–%3)").arg(r.windowSteps).arg(r.windowFirstStep).arg(r.windowLastStep),
             r.worstLayer >= 0 ? QString::number(r.worstLayer) : QStringLiteral("—"),
             units::formatPercent(r.worstLayerFractionAbove),
             QStringLiteral("%1 / %2").arg(ratio(r.windowMaxRatio), ratio(r.windowMeanRatio)) +
                 (r.loadRatioSource == stages::LoadRatioSource::EpRankOverload ? Report::tr(" (EP ranks)") : QString()),
             drop,
             r.busiestDeviceShare
                 ? percent(r.busiestDeviceShare) +
                       (r.busiestDeviceSource == stages::BusiestShareSource::OverloadFactor
                            ? Report::tr(" measured (overload factor)")
                            : (r.busiestDeviceEstimated ? Report::tr(" (est.)") : QString()))
                 : QStringLiteral("—"),
             optNum(r.windowLoss, 3)});
    }
    s.keyTables << table;

    // What a rebalanced placement would give (docs/traffic.md), as the stage 3 page shows
    // it: EPLB with one redundant slot per GPU, GPUs and nodes from the record.
    ReportTable placementTable;
    placementTable.caption = Report::tr(
        "What a rebalanced placement would give: the busiest GPU's share of the routed tokens, predicted from "
        "the measured load over all steps, today (contiguous placement) and after DeepSeek EPLB's rebalancing "
        "with %n redundant slot(s) per GPU",
        nullptr, kReportRedundantSlots);
    placementTable.headers = {Report::tr("Run"),
                              Report::tr("GPUs (EP)"),
                              Report::tr("Worst layer"),
                              Report::tr("Worst layer today"),
                              Report::tr("Worst layer rebalanced"),
                              Report::tr("Mean today"),
                              Report::tr("Mean rebalanced"),
                              Report::tr("Even")};
    placementTable.widths = {1.6, 0.8, 0.8, 1.0, 1.1, 1.0, 1.1, 0.8};
    // The run's id, to read its counts: the evaluation reads only the summary.
    const auto runId = [&runs](const QString& name) {
        for (const store::RunRow& r : runs)
            if (r.name == name)
                return r.id;
        return qint64(-1);
    };
    for (const stages::ExpertLoadRunInput& run : *in) {
        // Summed from the chunks' stored totals (docs/store.md, "Expert load").
        auto loads = traffic::sumLoadWindow(project, runId(run.runName), traffic::StepWindow{});
        if (!loads || !run.record.parallelism.ep) {
            s.remarks << Report::tr("No rebalanced placement for %1: %2")
                             .arg(run.runName, loads ? Report::tr("its config record has no parallelism.ep")
                                                     : loads.error());
            continue;
        }
        traffic::PlacementWhatIfOptions options;
        options.gpus = int(*run.record.parallelism.ep);
        options.nodes = traffic::expertParallelNodes(run.record);
        options.redundant = kReportRedundantSlots;
        const auto w = traffic::placementWhatIf(*loads, options);
        if (!w) {
            s.remarks << Report::tr("No rebalanced placement for %1: %2").arg(run.runName, w.error().text);
            continue;
        }
        const traffic::LayerShare& worst = w->shares[w->worstIndex];
        placementTable.rows.append({run.runName, QString::number(options.gpus), QString::number(worst.layer),
                                    percent(worst.today), percent(worst.after), percent(w->meanToday),
                                    percent(w->meanAfter), percent(w->evenShare())});
    }
    if (!placementTable.rows.isEmpty())
        s.tables << placementTable;

    if (result.staleness.stale)
        s.remarks << Report::tr("Stage 2 is stale: %1").arg(result.staleness.reason);
    if (result.plan.refused)
        s.remarks << result.plan.refusalText();
    const double limit = thresholds.get(QStringLiteral("stage3.load_ratio_max")).value;
    s.plots << plots::loadRatioPlot(result.runs, limit);
    // Each heatmap reads only the counts it draws, as the stage 3 page does: every layer
    // at the first run's last step, then the worst layer over every step.
    if (!in->first().summary.isEmpty()) {
        stages::ExpertLoadRunInput first = in->first();
        const qint64 last = first.summary.last().step;
        first.blocks = project.expertLoad(runId(first.runName), last);
        if (!first.blocks.isEmpty())
            s.plots << plots::layerExpertHeatmap(first, last, true);
    }
    // The worst layer of the worst run, expert by step: where the imbalance sits in time.
    const stages::StageThreeRunSummary* worst = nullptr;
    for (const stages::StageThreeRunSummary& r : result.runs)
        if (r.worstLayer >= 0 && (!worst || r.windowMaxRatio > worst->windowMaxRatio))
            worst = &r;
    if (worst)
        for (const stages::ExpertLoadRunInput& run : *in)
            if (run.runName == worst->runName && !run.summary.isEmpty()) {
                stages::ExpertLoadRunInput ofLayer = run;
                ofLayer.blocks = project.expertLoad(runId(run.runName), {}, worst->worstLayer);
                if (!ofLayer.blocks.isEmpty())
                    s.plots << plots::expertStepHeatmap(ofLayer, worst->worstLayer, true);
            }
    s.plots << plots::dropVsLossPlot(result.runs, *in) << plots::busiestDevicePlot(result.runs);
    return s;
}

StageSection stageFour(const store::ProjectStore& project, const QList<store::RunRow>& runs,
                       const stages::ThresholdSet& thresholds, const stages::StageEvaluation& e) {
    Q_UNUSED(project);
    Q_UNUSED(thresholds);
    StageSection s;
    s.stage = 4;
    s.title = Report::tr("Stage 4 — transfer boundary");
    s.purpose = Report::tr("The target cluster's stage 1 baseline against the source's, size by size. Stops "
                           "when a size differs by more than the threshold: conclusions are then reference "
                           "only.");
    const std::optional<stages::StageFourInputs>& in = e.stageFourInputs;
    if (!in || !e.stageFour()) {
        s.noData = Report::tr("No data: %1").arg(e.verdict.reasons.value(0));
        return s;
    }
    s.hasData = true;
    s.inputRuns = inputLabels(runs, {in->source.run.runName, in->target.run.runName});
    const stages::StageFourResult& result = *e.stageFour();
    ReportTable table;
    table.caption = Report::tr("Source %1 against target %2").arg(result.sourceRun, result.targetRun);
    table.headers = {Report::tr("Size per rank"), Report::tr("Source bandwidth"),
                     Report::tr("Target bandwidth"), Report::tr("Difference"), Report::tr("Stops")};
    table.widths = {1.2, 1.4, 1.4, 1.0, 0.7};
    for (const stages::StageFourSizeRow& r : result.rows)
        table.rows.append(
            {units::formatBytes(double(r.bytesPerRank)),
             units::formatBandwidth(r.sourceBandwidth) + (r.effective ? QString() : Report::tr(" (algbw)")),
             units::formatBandwidth(r.targetBandwidth),
             units::formatPercent(r.relativeDiff),
             r.stops ? Report::tr("yes") : Report::tr("no")});
    s.keyTables << table;
    if (!result.unmatchedSizes.isEmpty()) {
        QStringList sizes;
        for (quint64 b : result.unmatchedSizes)
            sizes << units::formatBytes(double(b));
        s.remarks << Report::tr("Measured on one cluster only: %1").arg(sizes.join(QStringLiteral(", ")));
    }
    s.plots = plots::stageFourPlots(result);
    s.applicability = result.applicability;
    return s;
}

} // namespace

QString StageSection::statusToken() const {
    return overridden() ? QStringLiteral("stop") : state.token;
}

QString StageSection::statusTitle() const {
    return state.title;
}

QString recordSummary(const QJsonObject& record) {
    QStringList parts;
    const struct {
        const char* path;
        const char* label;
    } fields[] = {
        {"model.kind", QT_TRANSLATE_NOOP("Report", "model")},
        {"moe.experts", QT_TRANSLATE_NOOP("Report", "experts")},
        {"moe.top_k", QT_TRANSLATE_NOOP("Report", "top-k")},
        {"moe.capacity_factor", QT_TRANSLATE_NOOP("Report", "capacity factor")},
        {"moe.overflow_policy", QT_TRANSLATE_NOOP("Report", "overflow")},
        {"parallelism.ep", QT_TRANSLATE_NOOP("Report", "EP")},
        {"cluster.nodes", QT_TRANSLATE_NOOP("Report", "nodes")},
        {"cluster.accelerator_model", QT_TRANSLATE_NOOP("Report", "accelerator")},
        {"cluster.network_type", QT_TRANSLATE_NOOP("Report", "network")},
    };
    for (const auto& f : fields) {
        const QString v = jsonText(at(record, QLatin1String(f.path)));
        if (!v.isEmpty())
            parts << QStringLiteral("%1 %2").arg(Report::tr(f.label), v);
    }
    return parts.join(QStringLiteral(", "));
}

Expected<ReportData, ReportError> collectReportData(const QString& projectPath,
                                                   const std::function<bool(double, QString)>& progress) {
    auto step = [&](double f, const QString& what) { return !progress || progress(f, what); };
    auto cancelled = [&]() { return unexpected(ReportError{projectPath, Report::tr("cancelled"), true}); };
    if (!step(0.0, Report::tr("Reading the project")))
        return cancelled();
    auto opened = store::ProjectStore::open(projectPath, store::OpenMode::MustExist);
    if (!opened)
        return unexpected(ReportError{opened.error().file, opened.error().message});
    const store::ProjectStore& project = **opened;

    ReportData d;
    d.projectPath = project.path();
    d.projectName = QFileInfo(project.path()).completeBaseName();
    d.generated = QDateTime::currentDateTimeUtc();
    d.toolVersion = QStringLiteral(MOEWB_VERSION);
    d.schemaVersion = project.schemaVersion();
    for (const store::ClusterRow& c : project.clusters()) {
        ClusterSummary cs{c, 0, 0};
        for (const store::NodeRow& n : project.nodes(c.id)) {
            ++cs.nodes;
            cs.gpus += n.gpus > 0 ? n.gpus : c.gpusPerNode;
        }
        d.clusters << cs;
    }
    d.records = project.configRecords();
    d.runs = project.runs();
    for (const store::RunRow& r : d.runs)
        d.demo = d.demo || (r.environment.value(QStringLiteral("demo")).toBool() &&
                            r.environment.value(QStringLiteral("data")).toString() == QLatin1String("synthetic"));
    if (const auto info = reference::referenceInfo(project))
        d.referenceBanner = reference::bannerText(*info);
    d.thresholds = project.thresholds();
    for (const stages::ThresholdUse& t : stages::defaultThresholds())
        if (!project.threshold(t.key))
            d.thresholdDefaults << t;
    d.overrides = project.overrides();
    d.sheet = assessment::loadSheet(project);
    d.projectEvidence = assessment::projectEvidence(project);
    {
        QCryptographicHash h(QCryptographicHash::Sha256);
        auto add = [&h](const QString& part) { h.addData(part.toUtf8().append('\x1f')); };
        for (const store::ConfigRecordRow& r : d.records)
            add(r.name + QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Compact)));
        for (const store::RunRow& r : d.runs)
            add(QStringLiteral("%1|%2|%3|%4|%5|%6")
                    .arg(r.name)
                    .arg(r.id)
                    .arg(r.commSampleCount)
                    .arg(r.stepCount)
                    .arg(r.expertLoadBlocks)
                    .arg(r.updated.toUTC().toString(Qt::ISODateWithMs)));
        for (const store::ThresholdRow& t : d.thresholds)
            add(QStringLiteral("%1=%2|%3").arg(t.key).arg(t.value, 0, 'g', 17).arg(store::thresholdSourceName(t.source)));
        for (const store::VerdictRow& v : project.verdicts())
            add(QStringLiteral("%1|%2|%3").arg(v.stage).arg(v.status, v.decided.toUTC().toString(Qt::ISODateWithMs)));
        for (const store::OverrideRow& o : d.overrides)
            add(QStringLiteral("%1|%2|%3").arg(o.stage).arg(o.justification, o.author));
        d.contentHash = QString::fromLatin1(h.result().toHex().left(16));
    }

    const stages::ThresholdSet thresholds = stages::loadThresholds(project);
    using Builder = StageSection (*)(const store::ProjectStore&, const QList<store::RunRow>&,
                                     const stages::ThresholdSet&, const stages::StageEvaluation&);
    const Builder builders[] = {&stageOne, &stageTwo, &stageThree, &stageFour};
    for (int i = 0; i < 4; ++i) {
        if (!step(0.1 + 0.2 * i, Report::tr("Evaluating stage %1").arg(i + 1)))
            return cancelled();
        // The one evaluation path of `moewb stage N` and the window (a locked stage
        // as a preview: its figures for reference, its status "locked"). Stage 3 reads
        // the summary (and the gate window's counts where the gate needs them); the
        // heatmaps and the placement table read their own counts (stageThree).
        auto evaluated = stages::evaluateStage(project, i + 1, {}, true, stages::ExpertLoadCounts::Window);
        if (!evaluated)
            return unexpected(ReportError{project.path(), evaluated.error().message});
        checks::addCheckReasons(project, *evaluated);
        StageSection s = builders[i](project, d.runs, thresholds, *evaluated);
        s.stage = i + 1;
        s.verdict = evaluated->verdict;
        s.lockReason = evaluated->lockReason;
        s.saved = stages::stageStatus(project, i + 1);
        s.state = stages::describeStageState(s.saved, i + 1);
        addVerdictState(s, project, d.overrides);
        d.stages << s;
    }
    if (!step(0.9, Report::tr("Running the misjudgment checks")))
        return cancelled();
    d.warnings = checks::runAllChecks(checks::loadProjectFacts(project));
    if (!step(1.0, Report::tr("Project read")))
        return cancelled();
    return d;
}

QList<store::RunRow> runsToList(const ReportData& d, qsizetype cap) {
    if (d.runs.size() <= cap)
        return d.runs;
    QSet<QString> wanted;
    for (const StageSection& s : d.stages) {
        if (!s.recorded)
            continue;
        for (const QJsonValue& v : s.recorded->basis.value(QLatin1String("runs")).toArray())
            if (wanted.size() < cap)
                wanted.insert(v.toObject().value(QLatin1String("name")).toString());
    }
    QList<qsizetype> newestFirst(d.runs.size());
    std::iota(newestFirst.begin(), newestFirst.end(), qsizetype(0));
    std::stable_sort(newestFirst.begin(), newestFirst.end(),
                     [&d](qsizetype a, qsizetype b) { return d.runs[a].created > d.runs[b].created; });
    for (qsizetype i : std::as_const(newestFirst)) {
        if (wanted.size() >= cap)
            break;
        wanted.insert(d.runs[i].name);
    }
    QList<store::RunRow> out;
    out.reserve(wanted.size());
    for (const store::RunRow& r : d.runs)
        if (wanted.contains(r.name))
            out << r;
    return out;
}

} // namespace moewb::report
