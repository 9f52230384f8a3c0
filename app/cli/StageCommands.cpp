// moewb stage 1|2|3|4 [--run NAME...]: a stage's table and verdict, saved to the
// project. Exit 0 pass; 1 stop, not ready, or locked (an earlier stage has not
// passed); 2 usage; 3 runtime. docs/method.md describes each gate.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "checks/MisjudgmentChecks.h"
#include "common/Units.h"
#include "stages/StageEvaluation.h"
#include "stages/StageState.h"

#include <QJsonArray>
#include <QJsonValue>
#include <algorithm>
#include <cmath>

namespace moewb::cli {

namespace {

using stages::Verdict;

// A table cell in the column's unit: the number Units.h formats, without the unit.
QString numberOf(const QString& formatted) {
    return formatted.section(QLatin1Char(' '), 0, 0);
}
QString gbps(double bytesPerSecond) {
    return numberOf(units::formatBandwidth(bytesPerSecond));
}
QString fixed(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("-");
}
QJsonValue jsonNumber(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}
template <typename T> QJsonValue jsonOpt(const std::optional<T>& v) {
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QString stageTitle(int stage) {
    switch (stage) {
    case 1:
        return Cli::tr("Stage 1 · Communication baseline");
    case 2:
        return Cli::tr("Stage 2 · Dense control");
    case 3:
        return Cli::tr("Stage 3 · Expert load and loss");
    default:
        return Cli::tr("Stage 4 · Transfer boundary");
    }
}

QJsonArray thresholdsJson(const QList<stages::ThresholdUse>& list) {
    QJsonArray a;
    for (const auto& t : list)
        a.append(QJsonObject{{QStringLiteral("key"), t.key},
                             {QStringLiteral("value"), t.value},
                             {QStringLiteral("source"), store::thresholdSourceName(t.source)}});
    return a;
}

// What a stage printed: text tables and the JSON of the same data.
struct StageOutput {
    QString text;
    QJsonArray table;
    QJsonObject extra;
    Verdict verdict;
};

StageOutput stageOne(const stages::StageOneResult& r, const QList<stages::StageOneRunInput>& inputs) {
    StageOutput o;
    for (const stages::StageOneTable& t : r.tables) {
        o.text += Cli::tr("Run %1: %2, world %3%4\n")
                      .arg(t.runName, t.nodes ? Cli::tr("%n node(s)", "", *t.nodes) : Cli::tr("nodes unknown"),
                           t.world ? QString::number(*t.world) : Cli::tr("unknown"),
                           t.clusterName.isEmpty() ? QString() : Cli::tr(", cluster %1").arg(t.clusterName));
        // Which concurrency the probe measured: EP groups at once (moe-probe/2) or one
        // all-to-all over the world.
        const auto input = std::find_if(inputs.begin(), inputs.end(),
                                        [&](const stages::StageOneRunInput& in) { return in.runName == t.runName; });
        const QString concurrency = input != inputs.end() ? stages::concurrencyText(*input) : QString();
        const QJsonValue epSize = input != inputs.end() && input->epSize ? QJsonValue(*input->epSize) : QJsonValue();
        if (!concurrency.isEmpty())
            o.text += Cli::tr("concurrency: %1\n").arg(concurrency);
        TextTable table;
        // nccl-tests' alltoall_perf columns, plus the repeat statistics.
        table.addColumn(Cli::tr("size (B)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("samples"), TextTable::Align::Right);
        table.addColumn(Cli::tr("repeats"), TextTable::Align::Right);
        table.addColumn(Cli::tr("time (µs)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("p99 (µs)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("algbw (GB/s)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("effbw (GB/s)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("p99/median"), TextTable::Align::Right);
        table.addColumn(Cli::tr("repeat mean (µs)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("repeat var (µs²)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("CV"), TextTable::Align::Right);
        for (const stages::StageOneSizeRow& row : t.rows) {
            table.addRow({QString::number(row.bytesPerRank), QString::number(row.samples),
                          QString::number(row.repeats), fixed(row.medianUs, 2), fixed(row.p99Us, 2),
                          gbps(row.algBandwidth),
                          row.effectiveBandwidth ? gbps(*row.effectiveBandwidth) : QStringLiteral("-"),
                          units::formatRatio(row.p99OverMedian), fixed(row.repeatMeanUs, 2),
                          fixed(row.repeatVarianceUs2, 3), row.cv ? units::formatPercent(*row.cv) : QStringLiteral("-")});
            o.table.append(QJsonObject{
                {QStringLiteral("run"), t.runName},
                {QStringLiteral("nodes"), jsonOpt(t.nodes)},
                {QStringLiteral("world"), jsonOpt(t.world)},
                {QStringLiteral("ep_size"), epSize},
                {QStringLiteral("concurrency"), concurrency},
                {QStringLiteral("bytes_per_rank"), double(row.bytesPerRank)},
                {QStringLiteral("samples"), row.samples},
                {QStringLiteral("repeats"), row.repeats},
                {QStringLiteral("median_us"), jsonNumber(row.medianUs)},
                {QStringLiteral("p99_us"), jsonNumber(row.p99Us)},
                {QStringLiteral("algbw_gbps"), jsonNumber(row.algBandwidth / 1e9)},
                {QStringLiteral("effective_gbps"),
                 row.effectiveBandwidth ? jsonNumber(*row.effectiveBandwidth / 1e9) : QJsonValue()},
                {QStringLiteral("p99_over_median"), jsonNumber(row.p99OverMedian)},
                {QStringLiteral("repeat_mean_us"), jsonNumber(row.repeatMeanUs)},
                {QStringLiteral("repeat_variance_us2"), jsonNumber(row.repeatVarianceUs2)},
                {QStringLiteral("cv"), row.cv ? jsonNumber(*row.cv) : QJsonValue()}});
        }
        o.text += table.render() + QLatin1Char('\n');
    }
    if (!r.nodeComparison.isEmpty()) {
        o.text +=
            Cli::tr("Across node counts (effective bandwidth; algbw where the world size is unknown):\n");
        TextTable table;
        table.addColumn(Cli::tr("size (B)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("nodes"), TextTable::Align::Right);
        table.addColumn(Cli::tr("run"));
        table.addColumn(Cli::tr("time (µs)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("bw (GB/s)"), TextTable::Align::Right);
        QJsonArray points;
        for (const auto& p : r.nodeComparison) {
            table.addRow({QString::number(p.bytesPerRank), QString::number(p.nodes), p.runName,
                          fixed(p.medianUs, 2),
                          gbps(p.bandwidth) + (p.effective ? QString() : Cli::tr(" (algbw)"))});
            points.append(QJsonObject{{QStringLiteral("nodes"), p.nodes},
                                      {QStringLiteral("run"), p.runName},
                                      {QStringLiteral("bytes_per_rank"), double(p.bytesPerRank)},
                                      {QStringLiteral("median_us"), jsonNumber(p.medianUs)},
                                      {QStringLiteral("bandwidth_gbps"), jsonNumber(p.bandwidth / 1e9)},
                                      {QStringLiteral("effective"), p.effective}});
        }
        o.text += table.render() + QLatin1Char('\n');
        o.extra.insert(QStringLiteral("node_comparison"), points);
    }
    QJsonArray suggested;
    for (const auto& s : r.suggestions) {
        suggested.append(QJsonObject{{QStringLiteral("key"), s.key},
                                     {QStringLiteral("value"), s.value},
                                     {QStringLiteral("source"), QStringLiteral("suggested")},
                                     {QStringLiteral("basis"), s.basis}});
    }
    o.extra.insert(QStringLiteral("suggested_thresholds"), suggested);
    return o;
}

QString lossText(const stages::LossAtTokens& l) {
    return l.value ? fixed(*l.value, 3) : QStringLiteral("-");
}
QJsonValue lossJson(const stages::LossAtTokens& l) {
    return l.value ? jsonNumber(*l.value) : QJsonValue();
}
QString tpsText(const stages::ThroughputSummary& t) {
    return t.tokensPerSecondPerGpu ? units::formatInteger(*t.tokensPerSecondPerGpu) : QStringLiteral("-");
}

StageOutput stageTwo(const stages::StageTwoResult& r) {
    StageOutput o;
    QString currentGroup;
    TextTable* table = nullptr;
    QList<TextTable> tables;
    QStringList titles;
    for (const stages::StageTwoPair& p : r.pairs) {
        if (titles.isEmpty() || p.groupTitle != currentGroup) {
            currentGroup = p.groupTitle;
            titles << p.groupTitle;
            tables.append(TextTable());
            table = &tables.last();
            table->addColumn(Cli::tr("MoE run"));
            table->addColumn(Cli::tr("dense run"));
            table->addColumn(Cli::tr("MoE tokens/s/GPU"), TextTable::Align::Right);
            table->addColumn(Cli::tr("dense tokens/s/GPU"), TextTable::Align::Right);
            table->addColumn(Cli::tr("MoE train loss"), TextTable::Align::Right);
            table->addColumn(Cli::tr("dense train loss"), TextTable::Align::Right);
            table->addColumn(Cli::tr("MoE val loss"), TextTable::Align::Right);
            table->addColumn(Cli::tr("dense val loss"), TextTable::Align::Right);
            table->addColumn(Cli::tr("at tokens"), TextTable::Align::Right);
            table->addColumn(Cli::tr("activated MoE / dense"), TextTable::Align::Right);
        }
        table->addRow({p.moeRun, p.denseRun, tpsText(p.moeThroughput), tpsText(p.denseThroughput),
                       lossText(p.moeTrainLoss), lossText(p.denseTrainLoss), lossText(p.moeValLoss),
                       lossText(p.denseValLoss), units::formatCount(p.comparedAtTokens),
                       units::formatCount(double(p.moeActivatedParams)) + QStringLiteral(" / ") +
                           units::formatCount(double(p.denseActivatedParams))});
        QJsonArray mismatches;
        for (const QString& m : p.mismatches)
            mismatches.append(m);
        o.table.append(QJsonObject{
            {QStringLiteral("group"), p.groupTitle},
            {QStringLiteral("moe_run"), p.moeRun},
            {QStringLiteral("dense_run"), p.denseRun},
            {QStringLiteral("moe_tokens_per_s_per_gpu"), jsonOpt(p.moeThroughput.tokensPerSecondPerGpu)},
            {QStringLiteral("dense_tokens_per_s_per_gpu"), jsonOpt(p.denseThroughput.tokensPerSecondPerGpu)},
            {QStringLiteral("warmup_steps_excluded"), p.moeThroughput.warmupStepsExcluded},
            {QStringLiteral("compared_at_tokens"), p.comparedAtTokens},
            {QStringLiteral("moe_train_loss"), lossJson(p.moeTrainLoss)},
            {QStringLiteral("dense_train_loss"), lossJson(p.denseTrainLoss)},
            {QStringLiteral("moe_val_loss"), lossJson(p.moeValLoss)},
            {QStringLiteral("dense_val_loss"), lossJson(p.denseValLoss)},
            {QStringLiteral("val_loss_at_tokens"), p.moeValLoss.tokens},
            {QStringLiteral("moe_activated_params"), double(p.moeActivatedParams)},
            {QStringLiteral("dense_activated_params"), double(p.denseActivatedParams)},
            {QStringLiteral("activated_params_diff"), jsonNumber(p.activatedParamsDiff)},
            {QStringLiteral("mismatches"), mismatches},
            {QStringLiteral("stops"), p.stops}});
    }
    for (qsizetype i = 0; i < tables.size(); ++i)
        o.text += titles[i] + QLatin1Char('\n') + tables[i].render() + QLatin1Char('\n');
    if (!tables.isEmpty())
        o.text += Cli::tr(
            "Throughput: mean over steps after the record's warm-up steps; losses at equal tokens.\n\n");
    return o;
}

StageOutput stageThree(const stages::StageThreeResult& r) {
    StageOutput o;
    TextTable table;
    table.addColumn(Cli::tr("run"));
    table.addColumn(Cli::tr("experts"), TextTable::Align::Right);
    table.addColumn(Cli::tr("layers"), TextTable::Align::Right);
    table.addColumn(Cli::tr("window steps"), TextTable::Align::Right);
    table.addColumn(Cli::tr("worst layer"), TextTable::Align::Right);
    table.addColumn(Cli::tr("steps above"), TextTable::Align::Right);
    table.addColumn(Cli::tr("max/mean max"), TextTable::Align::Right);
    table.addColumn(Cli::tr("max/mean mean"), TextTable::Align::Right);
    table.addColumn(Cli::tr("drop rate"), TextTable::Align::Right);
    table.addColumn(Cli::tr("busiest-device share"), TextTable::Align::Right);
    table.addColumn(Cli::tr("loss"), TextTable::Align::Right);
    for (const stages::StageThreeRunSummary& s : r.runs) {
        // One value and one wording with the reasons, the window and the report.
        QString drop = s.dropRate                                              ? units::formatPercent(*s.dropRate)
                       : s.dropSource == stages::DropRateSource::NotApplicable ? Cli::tr("not applicable")
                                                                               : Cli::tr("not logged");
        if (s.dropSource == stages::DropRateSource::EstimatedFromLoad)
            drop += Cli::tr(" (estimated)");
        QString share = s.busiestDeviceShare ? units::formatPercent(*s.busiestDeviceShare) : QStringLiteral("-");
        if (s.busiestDeviceShare)
            share += s.busiestDeviceSource == stages::BusiestShareSource::OverloadFactor
                         ? Cli::tr(" measured (overload factor)")
                     : s.busiestDeviceEstimated ? Cli::tr(" (estimated)")
                     : s.busiestDeviceSource == stages::BusiestShareSource::ProfilerTraces
                         ? Cli::tr(" (traces; mean device %1)")
                               .arg(s.meanDeviceShare ? units::formatPercent(*s.meanDeviceShare) : QStringLiteral("-"))
                         : Cli::tr(" (measured)");
        table.addRow(
            {s.runName, QString::number(s.experts), QString::number(s.layers), QString::number(s.windowSteps),
             s.worstLayer >= 0 ? QString::number(s.worstLayer) : QStringLiteral("-"),
             units::formatPercent(s.worstLayerFractionAbove), units::formatRatio(s.windowMaxRatio),
             units::formatRatio(s.windowMeanRatio),
             drop, share, s.windowLoss ? fixed(*s.windowLoss, 3) : QStringLiteral("-")});
        QJsonArray series;
        for (const stages::LoadRatioPoint& p : s.ratioOverSteps)
            series.append(QJsonArray{double(p.step), jsonNumber(p.maxRatio), jsonNumber(p.meanRatio)});
        o.table.append(QJsonObject{
            {QStringLiteral("run"), s.runName},
            {QStringLiteral("experts"), s.experts},
            {QStringLiteral("layers"), s.layers},
            {QStringLiteral("expert_parallel"), s.expertParallel},
            {QStringLiteral("steps_with_load"), double(s.stepsWithLoad)},
            {QStringLiteral("window_steps"), double(s.windowSteps)},
            {QStringLiteral("window_first_step"), double(s.windowFirstStep)},
            {QStringLiteral("window_last_step"), double(s.windowLastStep)},
            {QStringLiteral("worst_layer"), s.worstLayer},
            {QStringLiteral("worst_layer_fraction_above"), jsonNumber(s.worstLayerFractionAbove)},
            {QStringLiteral("load_ratio_max"), jsonNumber(s.windowMaxRatio)},
            {QStringLiteral("load_ratio_mean"), jsonNumber(s.windowMeanRatio)},
            {QStringLiteral("load_ratio_source"), s.loadRatioSource == stages::LoadRatioSource::EpRankOverload
                                                      ? QStringLiteral("ep-rank-overload-factor")
                                                      : QStringLiteral("expert-counts")},
            {QStringLiteral("drop_rate"), s.dropRate ? jsonNumber(*s.dropRate) : QJsonValue()},
            {QStringLiteral("drop_rate_source"), stages::dropRateSourceText(s.dropSource)},
            {QStringLiteral("assignment_drop_rate"),
             s.assignmentDropRate ? jsonNumber(*s.assignmentDropRate) : QJsonValue()},
            {QStringLiteral("partly_dropped_rate"), s.partlyDroppedRate ? jsonNumber(*s.partlyDroppedRate) : QJsonValue()},
            {QStringLiteral("busiest_device_share"),
             s.busiestDeviceShare ? jsonNumber(*s.busiestDeviceShare) : QJsonValue()},
            {QStringLiteral("busiest_device_share_estimated"), s.busiestDeviceEstimated},
            {QStringLiteral("busiest_device_share_source"), stages::busiestShareSourceName(s.busiestDeviceSource)},
            {QStringLiteral("mean_device_share"), s.meanDeviceShare ? jsonNumber(*s.meanDeviceShare) : QJsonValue()},
            {QStringLiteral("traced_steps"), double(s.tracedSteps)},
            {QStringLiteral("window_loss"), s.windowLoss ? jsonNumber(*s.windowLoss) : QJsonValue()},
            {QStringLiteral("load_ratio_over_steps"), series}});
    }
    if (!r.runs.isEmpty())
        o.text += table.render() + QLatin1Char('\n');
    o.extra.insert(QStringLiteral("stage2_stale"), r.staleness.stale);
    if (r.staleness.stale)
        o.extra.insert(QStringLiteral("stage2_stale_reason"), r.staleness.reason);
    return o;
}

StageOutput stageFour(const stages::StageFourResult& r) {
    StageOutput o;
    if (!r.rows.isEmpty()) {
        o.text += Cli::tr("Source %1, target %2\n").arg(r.sourceRun, r.targetRun);
        TextTable table;
        table.addColumn(Cli::tr("size (B)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("source (GB/s)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("target (GB/s)"), TextTable::Align::Right);
        table.addColumn(Cli::tr("difference"), TextTable::Align::Right);
        table.addColumn(Cli::tr("bandwidth"));
        for (const auto& row : r.rows) {
            table.addRow({QString::number(row.bytesPerRank), gbps(row.sourceBandwidth),
                          gbps(row.targetBandwidth), units::formatPercent(row.relativeDiff),
                          row.effective ? Cli::tr("effective") : Cli::tr("algbw")});
            o.table.append(QJsonObject{{QStringLiteral("bytes_per_rank"), double(row.bytesPerRank)},
                                       {QStringLiteral("source_gbps"), jsonNumber(row.sourceBandwidth / 1e9)},
                                       {QStringLiteral("target_gbps"), jsonNumber(row.targetBandwidth / 1e9)},
                                       {QStringLiteral("relative_diff"), jsonNumber(row.relativeDiff)},
                                       {QStringLiteral("effective"), row.effective},
                                       {QStringLiteral("stops"), row.stops}});
        }
        o.text += table.render() + QLatin1Char('\n');
    }
    if (!r.applicability.isEmpty()) {
        o.text += Cli::tr("Applicability — the conclusions hold under:\n");
        QJsonArray lines;
        for (const QString& l : r.applicability) {
            o.text += QStringLiteral("  ") + l + QLatin1Char('\n');
            lines.append(l);
        }
        o.text += QLatin1Char('\n');
        o.extra.insert(QStringLiteral("applicability"), lines);
    }
    o.extra.insert(QStringLiteral("source_run"), r.sourceRun);
    o.extra.insert(QStringLiteral("target_run"), r.targetRun);
    return o;
}

// The saved verdict in one line: "Saved verdict: stop, decided 2026-01-12 10:00 UTC;
// overridden by lead, given on older data."
QString savedVerdictLine(const stages::StageStatus& s) {
    if (!s.verdict)
        return Cli::tr("No saved verdict yet.");
    QString line = Cli::tr("Saved verdict: %1, decided %2.")
                       .arg(stages::verdictWord(s.verdict->status),
                            s.verdict->decided.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
    if (s.override_)
        line += QLatin1Char(' ') + (s.overrideOnOlderData
                                        ? Cli::tr("Overridden by %1, given on older data.").arg(s.override_->author)
                                        : Cli::tr("Overridden by %1.").arg(s.override_->author));
    return line;
}

// Reasons as a list, at most stages::kShownReasons of them; `--json` keeps all.
void printReasons(QTextStream& s, const QStringList& reasons, const QString& bullet) {
    int more = 0;
    for (const QString& r : stages::shownReasons(reasons, &more))
        s << bullet << r << '\n';
    if (more > 0)
        s << bullet << Cli::tr("… and %1 more reasons (moewb --json lists them all).").arg(more) << '\n';
}

QJsonObject savedVerdictJson(const stages::StageStatus& s, int stage) {
    const stages::StageStateText text = stages::describeStageState(s, stage);
    QJsonObject o{{QStringLiteral("status"), s.verdict ? QJsonValue(s.verdict->status) : QJsonValue()},
                  {QStringLiteral("state"), stages::stageStatusText(s.kind)},
                  {QStringLiteral("state_token"), text.token},
                  {QStringLiteral("state_title"), text.title},
                  {QStringLiteral("state_reasons"), QJsonArray::fromStringList(text.reasons)},
                  {QStringLiteral("action"), text.action}};
    if (s.verdict) {
        o.insert(QStringLiteral("decided"), s.verdict->decided.toUTC().toString(Qt::ISODateWithMs));
        o.insert(QStringLiteral("reasons"), s.verdict->reasons);
        QJsonArray runs;
        for (const QJsonValue& r : s.verdict->basis.value(QLatin1String("runs")).toArray())
            runs.append(r.toObject().value(QLatin1String("name")));
        o.insert(QStringLiteral("runs"), s.freshness.recorded ? QJsonValue(runs) : QJsonValue());
    }
    o.insert(QStringLiteral("new_data"), s.freshness.newData());
    o.insert(QStringLiteral("new_runs"), QJsonArray::fromStringList(s.freshness.added));
    o.insert(QStringLiteral("changed_runs"), QJsonArray::fromStringList(s.freshness.changed));
    o.insert(QStringLiteral("removed_runs"), QJsonArray::fromStringList(s.freshness.removed));
    if (s.freshness.newData())
        o.insert(QStringLiteral("new_data_text"), s.freshness.sentence);
    if (s.override_)
        o.insert(QStringLiteral("override"),
                 QJsonObject{{QStringLiteral("author"), s.override_->author},
                             {QStringLiteral("justification"), s.override_->justification},
                             {QStringLiteral("created"), s.override_->created.toUTC().toString(Qt::ISODateWithMs)},
                             {QStringLiteral("given_on_older_data"), s.overrideOnOlderData},
                             {QStringLiteral("basis_changed"), s.overrideOnOlderBasis}});
    return o;
}

// moewb status: the four stages' saved verdicts, their overrides, and whether new data
// arrived since each verdict. Evaluates nothing, saves nothing.
int runStatus(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments"), QStringLiteral("status"));
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    QJsonArray stagesJson;
    QTextStream& s = ctx.out();
    for (int stage = 1; stage <= 4; ++stage) {
        const stages::StageStatus st = stages::stageStatus(*project, stage);
        if (ctx.json) {
            QJsonObject o = savedVerdictJson(st, stage);
            o.insert(QStringLiteral("stage"), stage);
            if (st.kind == stages::StageStatus::Kind::Locked)
                o.insert(QStringLiteral("lock_reason"), st.reason);
            stagesJson.append(o);
            continue;
        }
        // The one description of the stage's state (core/stages/StageState.h), as the
        // window and the report print it.
        const stages::StageStateText text = stages::describeStageState(st, stage);
        s << stageTitle(stage) << ": " << text.title << '\n';
        printReasons(s, text.reasons, QStringLiteral("  - "));
        if (!text.overrideLine.isEmpty())
            s << "  " << text.overrideLine << '\n';
        if (st.verdict && st.kind != stages::StageStatus::Kind::Locked)
            s << "  " << savedVerdictLine(st) << '\n';
        if (st.freshness.newData())
            s << "  " << st.freshness.sentence << ' ' << Cli::tr("Re-evaluate: moewb stage %1").arg(stage) << '\n';
        if (!text.action.isEmpty())
            s << "  " << Cli::tr("What to do: %1").arg(text.action) << '\n';
    }
    if (ctx.json)
        ctx.printJson({{QStringLiteral("project"), project->path()}, {QStringLiteral("stages"), stagesJson}});
    else
        s.flush();
    return Success;
}

int runStage(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("N"), Cli::tr("the stage: 1, 2, 3 or 4"));
    const QCommandLineOption runOption(
        QStringLiteral("run"),
        Cli::tr("evaluate this run (repeatable; stage 4: SOURCE then TARGET); default: "
                "every run with the stage's data"),
        QStringLiteral("NAME"));
    const QCommandLineOption previewOption(
        QStringLiteral("preview"),
        Cli::tr("show the tables and what the gate would say now, and whether the saved verdict has new data "
                "since; nothing is saved (a locked stage: no verdict)"));
    parser.addOption(runOption);
    parser.addOption(previewOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    bool ok = false;
    const int stage = pos.size() == 1 ? pos.first().toInt(&ok) : 0;
    if (!ok || stage < 1 || stage > 4)
        return ctx.usageError(Cli::tr("expects the stage number: 1, 2, 3 or 4"), QStringLiteral("stage"));
    const QStringList runNames = parser.values(runOption);
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;

    // The CLI prints no expert-load plots: stage 3 reads the summary and the window's counts only.
    auto evaluated = stages::evaluateStage(*project, stage, runNames, parser.isSet(previewOption),
                                           stages::ExpertLoadCounts::Window);
    if (!evaluated)
        return ctx.usageError(evaluated.error().message, QStringLiteral("stage"));
    checks::addCheckReasons(*project, *evaluated);
    const stages::StageEvaluation& e = *evaluated;
    if (e.locked() && !e.preview) {
        if (ctx.json)
            ctx.printJson({{QStringLiteral("stage"), stage},
                           {QStringLiteral("status"), QStringLiteral("locked")},
                           {QStringLiteral("reasons"), QJsonArray{e.lockReason}},
                           {QStringLiteral("next_step"), Cli::tr("Run: moewb stage %1").arg(e.blockingStage)},
                           {QStringLiteral("thresholds"), QJsonArray()},
                           {QStringLiteral("table"), QJsonArray()}});
        else
            ctx.out() << stageTitle(stage) << Qt::endl << Cli::tr("LOCKED — %1").arg(e.lockReason) << Qt::endl
                      << Cli::tr("(moewb stage %1 --preview shows its data without a verdict.)").arg(stage)
                      << Qt::endl;
        return GateStopped;
    }

    StageOutput o;
    if (const auto* r = e.stageOne())
        o = stageOne(*r, e.stageOneInputs);
    else if (const auto* r2 = e.stageTwo())
        o = stageTwo(*r2);
    else if (const auto* r3 = e.stageThree())
        o = stageThree(*r3);
    else if (const auto* r4 = e.stageFour())
        o = stageFour(*r4);
    o.verdict = e.verdict;
    const Verdict& v = o.verdict;

    QJsonArray reasons;
    for (const QString& r : v.reasons)
        reasons.append(r);
    if (e.preview) {
        // Looking is not proceeding: the tables, no verdict, nothing saved.
        const QString banner = Cli::tr("Preview, no verdict: %1").arg(e.lockReason);
        if (ctx.json) {
            QJsonArray notes;
            for (const QString& n : v.notes)
                notes.append(n);
            QJsonObject out{{QStringLiteral("stage"), stage},
                            {QStringLiteral("status"), QStringLiteral("preview")},
                            {QStringLiteral("preview"), banner},
                            {QStringLiteral("lock_reason"), e.lockReason},
                            {QStringLiteral("would_be_reasons"), reasons},
                            {QStringLiteral("notes"), notes},
                            {QStringLiteral("table"), o.table}};
            for (auto it = o.extra.constBegin(); it != o.extra.constEnd(); ++it)
                out.insert(it.key(), it.value());
            ctx.printJson(out);
        } else {
            QTextStream& s = ctx.out();
            s << stageTitle(stage) << "\n" << banner << "\n\n" << o.text;
            // What could not be read is not a verdict's reason: it is said in a preview too.
            for (const stages::ExpertLoadRunInput& in : e.stageThreeInputs)
                if (!in.unreadable.isEmpty())
                    s << Cli::tr("Not read (the run is left out): run %1: %2%3")
                             .arg(in.runName, in.unreadable.first(),
                                  in.unreadable.size() > 1
                                      ? Cli::tr(" (and %n more part(s) of its expert load)", "",
                                                int(in.unreadable.size() - 1))
                                      : QString())
                      << '\n';
            for (const QString& n : v.notes)
                s << Cli::tr("Note: %1").arg(n) << '\n';
            s << Cli::tr("No verdict: only passing stage %1 (or overriding its stop with a written justification) "
                         "unlocks stage %2.")
                     .arg(e.blockingStage)
                     .arg(stage)
              << '\n';
            s.flush();
        }
        return GateStopped;
    }
    // A read-only project is evaluated and shown, but the verdict is not written back;
    // --preview on an unlocked stage looks without saving and says whether the saved
    // verdict has new data since.
    const bool lookOnly = parser.isSet(previewOption);
    const bool saveable = !project->readOnly() && !lookOnly;
    const auto savedStatus = stages::stageStatus(*project, stage);
    if (saveable) {
        if (auto saved = stages::saveStageVerdict(*project, e); !saved)
            return ctx.runtimeError(saved.error().text());
    }

    if (ctx.json) {
        QJsonObject out{{QStringLiteral("stage"), stage},
                        {QStringLiteral("status"), stages::statusToken(v.status)},
                        {QStringLiteral("reasons"), reasons},
                        {QStringLiteral("next_step"), v.nextStep},
                        {QStringLiteral("thresholds"), thresholdsJson(v.thresholds)},
                        {QStringLiteral("table"), o.table}};
        QJsonArray notes;
        for (const QString& n : v.notes)
            notes.append(n);
        out.insert(QStringLiteral("notes"), notes);
        out.insert(QStringLiteral("saved"), saveable);
        if (lookOnly)
            out.insert(QStringLiteral("saved_verdict"), savedVerdictJson(savedStatus, stage));
        else if (saveable)
            out.insert(QStringLiteral("saved_verdict"), savedVerdictJson(stages::stageStatus(*project, stage), stage));
        for (auto it = o.extra.constBegin(); it != o.extra.constEnd(); ++it)
            out.insert(it.key(), it.value());
        ctx.printJson(out);
    } else {
        QTextStream& s = ctx.out();
        s << stageTitle(stage) << "\n\n" << o.text;
        for (const QString& n : v.notes)
            s << Cli::tr("Note: %1").arg(n) << '\n';
        if (!v.notes.isEmpty())
            s << '\n';
        s << Cli::tr("VERDICT: %1").arg(stages::statusTitle(v.status)) << '\n';
        printReasons(s, v.reasons, QStringLiteral("  - "));
        s << Cli::tr("What to do: %1").arg(v.nextStep) << '\n';
        if (saveable) {
            // Where the stage stands now that the verdict is saved: an override of the
            // stop holds on an equal basis and is kept, marked, on a changed one.
            const stages::StageStateText now = stages::describeStageState(stages::stageStatus(*project, stage), stage);
            if (now.token != stages::statusToken(v.status))
                s << Cli::tr("State: %1").arg(now.title) << '\n';
            if (!now.overrideLine.isEmpty())
                s << "  " << now.overrideLine << '\n' << "  " << now.action << '\n';
        }
        if (lookOnly) {
            s << Cli::tr("Preview: not saved.") << ' ' << savedVerdictLine(savedStatus) << '\n';
            if (savedStatus.freshness.newData())
                s << savedStatus.freshness.sentence << ' ' << Cli::tr("Re-evaluate: moewb stage %1").arg(stage)
                  << '\n';
        } else if (!saveable) {
            s << Cli::tr("The verdict was not saved: the project is read-only.") << '\n';
        }
        QStringList used;
        for (const auto& t : v.thresholds)
            used << Cli::tr("%1 = %2 (%3)")
                        .arg(t.key, stages::thresholdValueText(t.key, t.value), stages::thresholdSourceText(t.source));
        if (!used.isEmpty())
            s << Cli::tr("Thresholds: %1").arg(used.join(QStringLiteral("; "))) << '\n';
        s.flush();
    }
    return v.status == Verdict::Status::Pass ? Success : GateStopped;
}

// moewb override N --withdraw: the stop is in force again, the override stays on record.
int withdraw(CliContext& ctx, int stage) {
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    if (auto done = stages::withdrawOverride(*project, stage); !done) {
        if (done.error().kind == stages::OverrideError::Kind::NoStop) {
            ctx.err() << Cli::tr("moewb: %1").arg(done.error().message) << Qt::endl;
            return GateStopped;
        }
        return ctx.runtimeError(done.error().message);
    }
    const stages::StageStateText now = stages::describeStageState(stages::stageStatus(*project, stage), stage);
    if (ctx.json)
        ctx.printJson({{QStringLiteral("stage"), stage},
                       {QStringLiteral("withdrawn"), true},
                       {QStringLiteral("state_token"), now.token}});
    else
        ctx.out() << Cli::tr("Stage %1's override is withdrawn: the stop is in force again (the override stays on "
                             "record for the report). State: %2.")
                         .arg(stage)
                         .arg(now.title)
                  << Qt::endl;
    return Success;
}

// Records a written justification for going past a stage's stop; the stop stays on
// record (the report prints both), and the next stage unlocks.
int runOverride(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("N"), Cli::tr("the stage whose stop is overridden: 1, 2, 3 or 4"));
    const QCommandLineOption justificationOption(
        QStringLiteral("justification"), Cli::tr("why the evaluation may go on despite the stop (required)"),
        QStringLiteral("TEXT"));
    const QCommandLineOption authorOption(QStringLiteral("author"),
                                          Cli::tr("who decided (default: the user name)"), QStringLiteral("NAME"));
    const QCommandLineOption withdrawOption(
        QStringLiteral("withdraw"),
        Cli::tr("take back the override in effect (it stays on record; the stop is in force again)"));
    parser.addOption(justificationOption);
    parser.addOption(authorOption);
    parser.addOption(withdrawOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    bool ok = false;
    const int stage = pos.size() == 1 ? pos.first().toInt(&ok) : 0;
    if (!ok || stage < 1 || stage > 4)
        return ctx.usageError(Cli::tr("expects the stage number: 1, 2, 3 or 4"), QStringLiteral("override"));
    if (parser.isSet(withdrawOption))
        return withdraw(ctx, stage);
    const QString justification = parser.value(justificationOption).trimmed();
    if (justification.isEmpty())
        return ctx.usageError(Cli::tr("--justification is required: an override is only valid with a written reason"),
                              QStringLiteral("override"));
    QString author = parser.value(authorOption).trimmed();
    if (author.isEmpty())
        author = qEnvironmentVariable("USER", Cli::tr("unknown"));
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const auto verdict = project->verdict(stage);
    auto added = stages::overrideStage(*project, stage, justification, author);
    if (!added) {
        switch (added.error().kind) {
        case stages::OverrideError::Kind::NoStop:
            ctx.err() << Cli::tr("moewb: %1; run: moewb stage %2").arg(added.error().message).arg(stage)
                      << Qt::endl;
            return GateStopped;
        case stages::OverrideError::Kind::BlankJustification:
        case stages::OverrideError::Kind::BadStage:
            return ctx.usageError(added.error().message, QStringLiteral("override"));
        case stages::OverrideError::Kind::Store:
            break;
        }
        return ctx.runtimeError(added.error().message);
    }
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("stage"), stage},
                       {QStringLiteral("override"), added.value()},
                       {QStringLiteral("justification"), justification},
                       {QStringLiteral("author"), author},
                       {QStringLiteral("overridden_reasons"), verdict->reasons}});
    } else {
        ctx.out() << Cli::tr("Stage %1's stop is overridden by %2: \"%3\". The stop and this justification stay "
                             "on record and go into the report; stage %4 is unlocked.")
                         .arg(stage)
                         .arg(author, justification)
                         .arg(stage + 1)
                  << Qt::endl;
    }
    return Success;
}

} // namespace

QList<Command> stageCommands() {
    Command stage;
    stage.words = {QStringLiteral("stage")};
    stage.synopsis = QStringLiteral("1|2|3|4 [--run NAME...] [--preview]");
    stage.summary = Cli::tr("a stage's table and verdict (exit 1 when it stops, is not ready or is locked)");
    stage.run = [stage](CliContext& ctx, const QStringList& a) { return runStage(ctx, stage, a); };

    Command override_;
    override_.words = {QStringLiteral("override")};
    override_.synopsis = QStringLiteral("N --justification TEXT [--author NAME] | N --withdraw");
    override_.summary = Cli::tr("go past a stage's stop with a written justification (kept for the report)");
    override_.run = [override_](CliContext& ctx, const QStringList& a) { return runOverride(ctx, override_, a); };
    Command status;
    status.words = {QStringLiteral("status")};
    status.summary = Cli::tr("the four stages' saved verdicts and overrides, and new data since each verdict");
    status.run = [status](CliContext& ctx, const QStringList& a) { return runStatus(ctx, status, a); };
    return {stage, override_, status};
}

} // namespace moewb::cli
