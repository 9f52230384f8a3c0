#include "plotspec/StagePlots.h"

#include "plotspec/PlotsTr.h"
#include "plotspec/Smoothing.h"
#include "stages/StageTwoGate.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// At least four significant digits, never scientific notation for the ranges plots
// show; trailing zeros after the point are dropped.
QString plain(double v, int significant = 4)
{
    if (!std::isfinite(v))
        return QString::number(v);
    const double a = std::fabs(v);
    int decimals = 0;
    if (a > 0.0 && a < 1e15) {
        const int magnitude = int(std::floor(std::log10(a))); // 12.3 -> 1
        decimals = std::clamp(significant - 1 - magnitude, 0, 12);
    }
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}

QString nodesText(const std::optional<int>& nodes)
{
    if (!nodes)
        return Plots::tr("? nodes");
    return *nodes == 1 ? Plots::tr("1 node") : Plots::tr("%1 nodes").arg(*nodes);
}

// Colour index per node count (ascending), so runs on the same node count share a
// colour; with a single node count every run gets its own colour.
// One palette colour per run, in the order of the tables (runs of the same node
// count are told apart by colour too; the legend names the node count).
QMap<QString, int> colourByRun(const QList<stages::StageOneTable>& tables)
{
    QMap<QString, int> out;
    for (int i = 0; i < tables.size(); ++i)
        if (!out.contains(tables[i].runName))
            out[tables[i].runName] = int(out.size());
    return out;
}

const stages::ExpertLoadRunInput* inputOf(const QList<stages::ExpertLoadRunInput>& inputs, const QString& run)
{
    for (const auto& in : inputs)
        if (in.runName == run)
            return &in;
    return nullptr;
}

} // namespace

// ---------------------------------------------------------------- helpers

QString unitText(AxisUnit unit)
{
    switch (unit) {
    case AxisUnit::BytesPerSec: return QStringLiteral("GB/s");
    case AxisUnit::Microseconds: return QStringLiteral("µs");
    case AxisUnit::Tokens: return Plots::tr("tokens");
    case AxisUnit::TokensPerSec: return Plots::tr("tokens/s");
    case AxisUnit::Ratio: return QStringLiteral("×");
    case AxisUnit::Fraction: return QStringLiteral("%");
    case AxisUnit::Bytes:
    case AxisUnit::Steps:
    case AxisUnit::Loss:
    case AxisUnit::None: break;
    }
    return {};
}

QString axisTitle(const Axis& axis)
{
    const QString unit = unitText(axis.unit);
    if (unit.isEmpty() || axis.label.contains(unit, Qt::CaseInsensitive))
        return axis.label;
    // On a log axis every tick carries its own unit ("10 µs", "1 ms").
    if (axis.scale == AxisScale::Log10 && axis.unit == AxisUnit::Microseconds)
        return axis.label;
    if (axis.label.isEmpty())
        return unit;
    return QStringLiteral("%1 (%2)").arg(axis.label, unit);
}

QString formatBytes(double bytes)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = bytes;
    int u = 0;
    while (std::fabs(v) >= 1024.0 && u < 5) {
        v /= 1024.0;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(plain(v), QLatin1String(units[u]));
}

QString formatCount(double value)
{
    const double a = std::fabs(value);
    if (a >= 1e9)
        return plain(value / 1e9, 3) + QLatin1Char('B');
    if (a >= 1e6)
        return plain(value / 1e6, 3) + QLatin1Char('M');
    if (a >= 1e3)
        return plain(value / 1e3, 3) + QLatin1Char('K');
    return plain(value, 3);
}

QString formatValue(double value, const Axis& axis)
{
    if (!std::isfinite(value))
        return Plots::tr("n/a");
    switch (axis.unit) {
    case AxisUnit::Bytes: return formatBytes(value);
    case AxisUnit::BytesPerSec: return plain(value / 1e9) + QStringLiteral(" GB/s");
    case AxisUnit::Microseconds:
        if (std::fabs(value) >= 1e6)
            return plain(value / 1e6) + QStringLiteral(" s");
        if (std::fabs(value) >= 1e3)
            return plain(value / 1e3) + QStringLiteral(" ms");
        return plain(value) + QStringLiteral(" µs");
    // The axis label says what it counts ("Step", "bias update"): the number alone.
    case AxisUnit::Steps: return QString::number(qint64(std::llround(value)));
    case AxisUnit::Tokens: return Plots::tr("%1 tokens").arg(formatCount(value));
    case AxisUnit::TokensPerSec: return Plots::tr("%1 tokens/s").arg(formatCount(value));
    case AxisUnit::Ratio: return plain(value) + QStringLiteral("×");
    case AxisUnit::Fraction: return plain(value * 100.0) + QStringLiteral(" %");
    case AxisUnit::Loss: return plain(value, 5);
    case AxisUnit::None: break;
    }
    return plain(value, 6);
}

bool isEmpty(const PlotSpec& spec)
{
    if (spec.heatmap && spec.heatmap->rows > 0 && spec.heatmap->columns > 0 && !spec.heatmap->values.isEmpty())
        return false;
    for (const Series& s : spec.series)
        if (!s.x.isEmpty() && !s.y.isEmpty())
            return false;
    return true;
}

// ---------------------------------------------------------------- stage 1

QList<PlotSpec> stageOnePlots(const stages::StageOneResult& result)
{
    PlotSpec bw;
    bw.id = QStringLiteral("stage1-bandwidth");
    bw.title = Plots::tr("All-to-all bandwidth vs message size");
    bw.x = {Plots::tr("Message size per rank"), AxisScale::Log2Bytes, AxisUnit::Bytes, QStringLiteral("Message size per rank")};
    bw.y = {Plots::tr("Effective bandwidth"), AxisScale::Linear, AxisUnit::BytesPerSec, QStringLiteral("Effective bandwidth")};

    PlotSpec lat;
    lat.id = QStringLiteral("stage1-latency");
    lat.title = Plots::tr("All-to-all time vs message size (median solid, P99 dashed)");
    lat.x = bw.x;
    // Log scale: times span orders of magnitude from the smallest to the largest size.
    lat.y = {Plots::tr("Time"), AxisScale::Log10, AxisUnit::Microseconds, QStringLiteral("Time")};

    const QMap<QString, int> colours = colourByRun(result.tables);
    QStringList algbwRuns;
    for (const stages::StageOneTable& t : result.tables) {
        const QString name = QStringLiteral("%1 · %2").arg(nodesText(t.nodes), t.runName);
        Series b;
        b.name = name;
        b.run = t.runName;
        b.colour = colours.value(t.runName);
        Series med = b;
        med.name = Plots::tr("%1 · median").arg(name);
        Series p99 = b;
        p99.name = Plots::tr("%1 · P99").arg(name);
        p99.style = SeriesStyle::DashedLine;
        bool algbw = false;
        for (const stages::StageOneSizeRow& r : t.rows) {
            const double x = double(r.bytesPerRank);
            b.x << x;
            b.y << r.effectiveBandwidth.value_or(r.algBandwidth);
            algbw = algbw || !r.effectiveBandwidth;
            med.x << x;
            med.y << r.medianUs;
            p99.x << x;
            p99.y << r.p99Us;
        }
        if (algbw) {
            algbwRuns << t.runName;
            b.name += Plots::tr(" (algbw)");
        }
        bw.series << b;
        lat.series << med << p99;
    }
    bw.note = Plots::tr("Effective bandwidth = bytes per rank × (n−1)/n ÷ median time; one colour per run.");
    if (!algbwRuns.isEmpty())
        bw.note += QLatin1Char(' ') +
                   Plots::tr("World size unknown for %1: algbw (bytes ÷ median) shown instead.")
                       .arg(algbwRuns.join(QStringLiteral(", ")));
    lat.note = Plots::tr("Median over all samples of a size; P99 by linear interpolation.");
    return {bw, lat};
}

// ---------------------------------------------------------------- stage 2

PlotSpec stageTwoLossPlot(const QList<stages::TrainingRunInput>& runs, TrainingX xKind, double smoothing)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage2-loss");
    spec.title = xKind == TrainingX::Tokens ? Plots::tr("Loss vs tokens") : Plots::tr("Loss vs step");
    spec.x = xKind == TrainingX::Tokens
                 ? Axis{Plots::tr("Tokens"), AxisScale::Linear, AxisUnit::Tokens, QStringLiteral("Tokens")}
                 : Axis{Plots::tr("Step"), AxisScale::Linear, AxisUnit::Steps, QStringLiteral("Step")};
    spec.y = {Plots::tr("Loss"), AxisScale::Linear, AxisUnit::Loss, QStringLiteral("Loss")};
    const double s = std::clamp(smoothing, 0.0, 0.999);

    for (int i = 0; i < runs.size(); ++i) {
        const stages::TrainingRunInput& run = runs[i];
        auto xOf = [&](qint64 step) {
            return xKind == TrainingX::Tokens ? stages::tokensAtStep(run, step) : double(step);
        };
        const QVector<stages::MetricPoint> lm = stages::metricSeries(run.metrics, QStringLiteral("lm_loss"));
        if (!lm.isEmpty()) {
            Series raw;
            raw.name = Plots::tr("%1 · lm_loss (raw)").arg(run.runName);
            raw.run = run.runName;
            raw.style = SeriesStyle::FaintLine;
            raw.colour = i;
            for (const auto& p : lm) {
                raw.x << xOf(p.step);
                raw.y << p.value;
            }
            Series smooth = raw;
            smooth.name = Plots::tr("%1 · lm_loss").arg(run.runName);
            smooth.style = SeriesStyle::Line;
            smooth.y = debiasedEma(raw.y, s);
            if (s > 0.0)
                spec.series << raw;
            spec.series << smooth;
        }
        const QVector<stages::MetricPoint> val = stages::metricSeries(run.metrics, QStringLiteral("val_loss"));
        if (!val.isEmpty()) {
            Series v;
            v.name = Plots::tr("%1 · val_loss").arg(run.runName);
            v.run = run.runName;
            v.style = SeriesStyle::DashedLine;
            v.colour = i;
            for (const auto& p : val) {
                v.x << xOf(p.step);
                v.y << p.value;
            }
            spec.series << v;
        }
    }
    spec.note = s > 0.0 ? Plots::tr("lm_loss smoothed with a debiased EMA, smoothing %1 (raw curve faint); "
                                    "val_loss dashed.")
                              .arg(QString::number(s, 'g', 3))
                        : Plots::tr("lm_loss raw (smoothing 0); val_loss dashed.");
    return spec;
}

PlotSpec stageTwoLossTailPlot(const QList<stages::TrainingRunInput>& runs, TrainingX xKind, double smoothing)
{
    PlotSpec spec = stageTwoLossPlot(runs, xKind, smoothing);
    spec.id = QStringLiteral("stage2-loss-tail");
    spec.title = Plots::tr("Loss at the end of training (last %1 %, zoomed)")
                     .arg(QString::number(stageTwoTailFraction * 100.0, 'f', 0));
    spec.tailFraction = stageTwoTailFraction;
    // The numbers the zoom is about: each run's last validation loss, and where it was
    // read (said once when every run ends at the same point).
    QStringList values, at;
    for (const stages::TrainingRunInput& run : runs) {
        const QVector<stages::MetricPoint> val = stages::metricSeries(run.metrics, QStringLiteral("val_loss"));
        if (val.isEmpty())
            continue;
        const double x = xKind == TrainingX::Tokens ? stages::tokensAtStep(run, val.last().step)
                                                    : double(val.last().step);
        values << QStringLiteral("%1 %2").arg(run.runName, QString::number(val.last().value, 'f', 3));
        at << (xKind == TrainingX::Tokens ? formatValue(x, spec.x) : Plots::tr("step %1").arg(formatValue(x, spec.x)));
    }
    if (values.isEmpty()) {
        spec.note = Plots::tr("No run logged a validation loss.");
    } else if (at.count(at.first()) == at.size()) {
        spec.note = Plots::tr("Last validation loss (at %1): %2.").arg(at.first(), values.join(QStringLiteral(" · ")));
    } else {
        for (qsizetype i = 0; i < values.size(); ++i)
            values[i] = Plots::tr("%1 (at %2)").arg(values[i], at[i]);
        spec.note = Plots::tr("Last validation loss: %1.").arg(values.join(QStringLiteral(" · ")));
    }
    return spec;
}

PlotSpec stageTwoThroughputPlot(const QList<stages::TrainingRunInput>& runs)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage2-throughput");
    spec.title = Plots::tr("Steady throughput per GPU");
    spec.x = {Plots::tr("Run"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Run")};
    // "per GPU" is in the title: the axis title stays short enough for a half-width panel.
    spec.y = {Plots::tr("Throughput"), AxisScale::Linear, AxisUnit::TokensPerSec, QStringLiteral("Throughput per GPU")};
    QStringList missing, derived, warmup, warmupRuns;
    for (const stages::TrainingRunInput& run : runs) {
        const stages::ThroughputSummary t = stages::steadyThroughput(run);
        if (!t.tokensPerSecondPerGpu) {
            missing << run.runName;
            continue;
        }
        Series bar;
        bar.name = run.runName;
        bar.run = run.runName;
        bar.style = SeriesStyle::Bars;
        bar.colour = int(spec.categoryLabels.size());
        bar.x << double(spec.categoryLabels.size());
        bar.y << *t.tokensPerSecondPerGpu;
        spec.categoryLabels << run.runName;
        spec.series << bar;
        if (t.derivedFromElapsed)
            derived << run.runName;
        warmup << Plots::tr("%1 warm-up steps excluded, %2 counted").arg(t.warmupStepsExcluded).arg(t.stepsCounted);
        warmupRuns << run.runName;
    }
    QStringList note;
    note << Plots::tr("Mean tokens/s per GPU over the steady phase.");
    // Said once when every run counted alike (a note of five runs' same words leaves
    // the bars no room in a half-width panel).
    if (!warmup.isEmpty() && warmup.count(warmup.first()) == warmup.size()) {
        note << Plots::tr("Each run: %1.").arg(warmup.first());
    } else if (!warmup.isEmpty()) {
        for (qsizetype i = 0; i < warmup.size(); ++i)
            warmup[i] = Plots::tr("%1: %2").arg(warmupRuns[i], warmup[i]);
        note << warmup.join(QStringLiteral("; ")) + QLatin1Char('.');
    }
    if (!derived.isEmpty())
        note << Plots::tr("Derived from elapsed time per iteration: %1.").arg(derived.join(QStringLiteral(", ")));
    if (!missing.isEmpty())
        note << Plots::tr("No throughput: %1.").arg(missing.join(QStringLiteral(", ")));
    spec.note = note.join(QLatin1Char(' '));
    return spec;
}

// ---------------------------------------------------------------- stage 3

PlotSpec loadRatioPlot(const QList<stages::StageThreeRunSummary>& runs, double limit)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage3-load-ratio");
    spec.title = Plots::tr("Worst-layer load ratio over steps");
    spec.x = {Plots::tr("Step"), AxisScale::Linear, AxisUnit::Steps, QStringLiteral("Step")};
    spec.y = {Plots::tr("Load max/mean"), AxisScale::Linear, AxisUnit::Ratio, QStringLiteral("Load max/mean")};
    double first = std::numeric_limits<double>::infinity();
    double last = -first;
    for (int i = 0; i < runs.size(); ++i) {
        Series s;
        s.name = runs[i].runName;
        s.run = runs[i].runName;
        s.colour = i;
        for (const stages::LoadRatioPoint& p : runs[i].ratioOverSteps) {
            s.x << double(p.step);
            s.y << p.maxRatio;
        }
        if (!s.x.isEmpty()) {
            first = std::min(first, s.x.first());
            last = std::max(last, s.x.last());
        }
        spec.series << s;
    }
    if (first <= last && std::isfinite(limit)) {
        Series l;
        l.name = Plots::tr("limit %1").arg(plain(limit));
        l.style = SeriesStyle::DashedLine;
        l.colour = -1;
        l.x << first << last;
        l.y << limit << limit;
        spec.series << l;
    }
    spec.note = Plots::tr("Per step the largest max/mean expert load over layers; 1 = perfectly balanced; "
                          "limit %1 (stage3.load_ratio_max).")
                    .arg(plain(limit));
    return spec;
}

PlotSpec layerExpertHeatmap(const stages::ExpertLoadRunInput& run, qint64 step, bool relativeToMean)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage3-layer-expert");
    spec.title = Plots::tr("Expert load by layer at step %1 · %2").arg(step).arg(run.runName);
    spec.x = {Plots::tr("Expert"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Expert")};
    spec.y = {Plots::tr("Layer"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Layer")};
    int minLayer = std::numeric_limits<int>::max(), maxLayer = std::numeric_limits<int>::min();
    int experts = 0;
    for (const store::ExpertLoadBlock& b : run.blocks)
        if (b.step == step) {
            minLayer = std::min(minLayer, b.layer);
            maxLayer = std::max(maxLayer, b.layer);
            experts = std::max(experts, int(b.tokensPerExpert.size()));
        }
    if (experts == 0) {
        spec.note = Plots::tr("No expert load at step %1.").arg(step);
        return spec;
    }
    if (qsizetype(maxLayer - minLayer + 1) * experts > maxHeatmapCells) {
        spec.note = Plots::tr("Layers %1 to %2 × %3 experts: too many cells to draw.")
                        .arg(minLayer)
                        .arg(maxLayer)
                        .arg(experts);
        return spec;
    }
    Heatmap h;
    h.columns = experts;
    h.rows = maxLayer - minLayer + 1;
    h.values = QVector<double>(qsizetype(h.rows) * h.columns, nan);
    h.xFirst = 0;
    h.xLast = experts - 1;
    h.yFirst = minLayer;
    h.yLast = maxLayer;
    h.colourLabel = relativeToMean ? Plots::tr("× mean") : Plots::tr("tokens");
    for (const store::ExpertLoadBlock& b : run.blocks) {
        if (b.step != step)
            continue;
        double mean = 0.0;
        for (quint32 t : b.tokensPerExpert)
            mean += t;
        mean = b.tokensPerExpert.isEmpty() ? 0.0 : mean / b.tokensPerExpert.size();
        for (int e = 0; e < b.tokensPerExpert.size(); ++e) {
            const double v = double(b.tokensPerExpert[e]);
            h.values[qsizetype(b.layer - minLayer) * h.columns + e] =
                relativeToMean ? (mean > 0.0 ? v / mean : nan) : v;
        }
    }
    spec.heatmap = h;
    spec.note = relativeToMean ? Plots::tr("Tokens routed to each expert ÷ the layer's mean; 1 = balanced.")
                               : Plots::tr("Tokens routed to each expert at step %1.").arg(step);
    return spec;
}

PlotSpec expertStepHeatmap(const stages::ExpertLoadRunInput& run, int layer, bool relativeToMean)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage3-expert-step");
    spec.title = Plots::tr("Expert load over steps, layer %1 · %2").arg(layer).arg(run.runName);
    spec.x = {Plots::tr("Step"), AxisScale::Linear, AxisUnit::Steps, QStringLiteral("Step")};
    spec.y = {Plots::tr("Expert"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Expert")};

    QVector<const store::ExpertLoadBlock*> blocks;
    int experts = 0;
    for (const store::ExpertLoadBlock& b : run.blocks)
        if (b.layer == layer) {
            blocks << &b;
            experts = std::max(experts, int(b.tokensPerExpert.size()));
        }
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const auto* a, const auto* b) { return a->step < b->step; });
    if (blocks.isEmpty() || experts == 0) {
        spec.note = Plots::tr("No expert load for layer %1.").arg(layer);
        return spec;
    }
    const qsizetype steps = blocks.size();
    const int columns = int(std::min<qsizetype>({steps, maxHeatmapColumns, std::max<qsizetype>(1, maxHeatmapCells / experts)}));
    Heatmap h;
    h.columns = columns;
    h.rows = experts;
    h.values = QVector<double>(qsizetype(experts) * columns, nan);
    h.yFirst = 0;
    h.yLast = experts - 1;
    h.colourLabel = relativeToMean ? Plots::tr("× mean") : Plots::tr("tokens");
    // Column c covers steps [c·steps/columns, (c+1)·steps/columns): max-pooled, so a
    // hot expert in any pooled step stays visible.
    for (int c = 0; c < columns; ++c) {
        const qsizetype from = qsizetype(c) * steps / columns;
        const qsizetype to = qsizetype(c + 1) * steps / columns;
        for (qsizetype i = from; i < to; ++i) {
            const store::ExpertLoadBlock& b = *blocks[i];
            double mean = 0.0;
            if (relativeToMean) {
                for (quint32 t : b.tokensPerExpert)
                    mean += t;
                mean = b.tokensPerExpert.isEmpty() ? 0.0 : mean / b.tokensPerExpert.size();
            }
            for (int e = 0; e < b.tokensPerExpert.size(); ++e) {
                const double v = relativeToMean ? (mean > 0.0 ? b.tokensPerExpert[e] / mean : nan)
                                                : double(b.tokensPerExpert[e]);
                double& cell = h.values[qsizetype(e) * columns + c];
                if (std::isnan(cell) || v > cell)
                    cell = v;
            }
        }
    }
    h.xFirst = double(blocks.first()->step);
    h.xLast = double(blocks.last()->step);
    spec.heatmap = h;
    QStringList note;
    note << (relativeToMean ? Plots::tr("Tokens per expert ÷ the step's mean over experts.")
                            : Plots::tr("Tokens routed to each expert per step."));
    if (steps > columns)
        note << Plots::tr("%1 steps max-pooled into %2 columns (about %3 steps each).")
                    .arg(steps)
                    .arg(columns)
                    .arg(plain(double(steps) / columns, 3));
    spec.note = note.join(QLatin1Char(' '));
    return spec;
}

PlotSpec dropVsLossPlot(const QList<stages::StageThreeRunSummary>& runs,
                        const QList<stages::ExpertLoadRunInput>& inputs)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage3-drop-vs-loss");
    spec.title = Plots::tr("Token drop rate vs loss");
    spec.x = {Plots::tr("Drop rate"), AxisScale::Linear, AxisUnit::Fraction, QStringLiteral("Drop rate")};
    spec.y = {Plots::tr("Window loss"), AxisScale::Linear, AxisUnit::Loss, QStringLiteral("Window loss")};
    Series s;
    s.name = Plots::tr("runs (colour: capacity factor)");
    s.style = SeriesStyle::Scatter;
    s.colourLabel = Plots::tr("capacity factor");
    QStringList dropless, unknown, skipped;
    for (const stages::StageThreeRunSummary& r : runs) {
        // Dropless and reroute policies drop nothing by construction: drop rate 0.
        const bool noDrops = !r.dropRate && r.dropSource == stages::DropRateSource::NotApplicable;
        if ((!r.dropRate && !noDrops) || !r.windowLoss) {
            skipped << r.runName;
            continue;
        }
        double cf = nan;
        if (const stages::ExpertLoadRunInput* in = inputOf(inputs, r.runName)) {
            const auto& moe = in->record.moe;
            if (moe.overflowPolicy == record::OverflowPolicy::Dropless ||
                (moe.capacityFactor && moe.capacityFactor->isNone())) {
                cf = 0.0;
                dropless << r.runName;
            } else if (moe.capacityFactor) {
                cf = *moe.capacityFactor->factor;
            }
        }
        if (std::isnan(cf))
            unknown << r.runName;
        s.x << (noDrops ? 0.0 : *r.dropRate);
        s.y << *r.windowLoss;
        s.pointLabels << r.runName;
        s.colourValues << cf;
    }
    if (!s.x.isEmpty())
        spec.series << s;
    QStringList note;
    note << Plots::tr("One point per run: drop rate and mean lm_loss over the gate's window; colour = "
                      "capacity factor.");
    if (!dropless.isEmpty())
        note << Plots::tr("Dropless (no capacity limit, capacity factor shown as 0, drop rate 0): %1.")
                    .arg(dropless.join(QStringLiteral(", ")));
    if (!unknown.isEmpty())
        note << Plots::tr("Capacity factor not recorded: %1.").arg(unknown.join(QStringLiteral(", ")));
    if (!skipped.isEmpty())
        note << Plots::tr("Without drop rate or loss: %1.").arg(skipped.join(QStringLiteral(", ")));
    spec.note = note.join(QLatin1Char(' '));
    return spec;
}

PlotSpec busiestDevicePlot(const QList<stages::StageThreeRunSummary>& runs)
{
    PlotSpec spec;
    spec.id = QStringLiteral("stage3-busiest-device");
    spec.title = Plots::tr("Busiest device's share of routed tokens");
    spec.x = {Plots::tr("Run"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Run")};
    spec.y = {Plots::tr("Busiest-device share"), AxisScale::Linear, AxisUnit::Fraction, QStringLiteral("Busiest-device share")};
    QStringList ideals, estimated, missing;
    for (const stages::StageThreeRunSummary& r : runs) {
        if (!r.busiestDeviceShare) {
            missing << r.runName;
            continue;
        }
        Series bar;
        bar.name = r.runName;
        bar.run = r.runName;
        bar.style = SeriesStyle::Bars;
        bar.colour = int(spec.categoryLabels.size());
        bar.x << double(spec.categoryLabels.size());
        bar.y << *r.busiestDeviceShare;
        spec.categoryLabels << r.runName;
        spec.series << bar;
        if (r.expertParallel > 0)
            ideals << Plots::tr("%1 1/%2 = %3 %")
                          .arg(r.runName)
                          .arg(r.expertParallel)
                          .arg(plain(100.0 / r.expertParallel, 3));
        if (r.busiestDeviceEstimated)
            estimated << r.runName;
    }
    QStringList note;
    note << Plots::tr("Ideal share 1/EP: %1.").arg(ideals.isEmpty() ? Plots::tr("EP unknown")
                                                                     : ideals.join(QStringLiteral("; ")));
    if (!estimated.isEmpty())
        note << Plots::tr("Estimated from expert placement: %1.").arg(estimated.join(QStringLiteral(", ")));
    if (!missing.isEmpty())
        note << Plots::tr("No share: %1.").arg(missing.join(QStringLiteral(", ")));
    spec.note = note.join(QLatin1Char(' '));
    return spec;
}

// ---------------------------------------------------------------- stage 4

QList<PlotSpec> stageFourPlots(const stages::StageFourResult& result)
{
    PlotSpec base;
    base.id = QStringLiteral("stage4-baselines");
    base.title = Plots::tr("Source vs target cluster bandwidth");
    base.x = {Plots::tr("Message size per rank"), AxisScale::Log2Bytes, AxisUnit::Bytes, QStringLiteral("Message size per rank")};
    base.y = {Plots::tr("Effective bandwidth"), AxisScale::Linear, AxisUnit::BytesPerSec, QStringLiteral("Effective bandwidth")};
    Series src;
    src.name = Plots::tr("source · %1").arg(result.sourceRun);
    src.run = result.sourceRun;
    src.colour = 0;
    Series dst;
    dst.name = Plots::tr("target · %1").arg(result.targetRun);
    dst.run = result.targetRun;
    dst.colour = 1;

    PlotSpec ratio;
    ratio.id = QStringLiteral("stage4-ratio");
    ratio.title = Plots::tr("Target ÷ source bandwidth per size");
    ratio.x = base.x;
    ratio.y = {Plots::tr("Target ÷ source"), AxisScale::Linear, AxisUnit::Ratio, QStringLiteral("Target ÷ source")};
    Series r;
    r.name = Plots::tr("%1 ÷ %2").arg(result.targetRun, result.sourceRun);
    r.run = result.targetRun;
    r.colour = 0;

    bool algbw = false;
    for (const stages::StageFourSizeRow& row : result.rows) {
        const double x = double(row.bytesPerRank);
        src.x << x;
        src.y << row.sourceBandwidth;
        dst.x << x;
        dst.y << row.targetBandwidth;
        r.x << x;
        r.y << (row.sourceBandwidth > 0.0 ? row.targetBandwidth / row.sourceBandwidth : nan);
        algbw = algbw || !row.effective;
    }
    base.series << src << dst;
    ratio.series << r;

    std::optional<double> limit;
    for (const stages::ThresholdUse& t : result.verdict.thresholds)
        if (t.key == QLatin1String("stage4.baseline_diff_max"))
            limit = t.value;
    if (limit && !r.x.isEmpty()) {
        for (double edge : {1.0 - *limit, 1.0 + *limit}) {
            Series band;
            band.name = Plots::tr("band %1").arg(plain(edge));
            band.style = SeriesStyle::DashedLine;
            band.colour = -1;
            band.x << r.x.first() << r.x.last();
            band.y << edge << edge;
            ratio.series << band;
        }
        ratio.note = Plots::tr("Pass band %1 to %2 (stage4.baseline_diff_max = %3); sizes outside stop.")
                         .arg(plain(1.0 - *limit), plain(1.0 + *limit), plain(*limit));
    } else {
        ratio.note = Plots::tr("1 = the same bandwidth on both clusters.");
    }
    base.note = algbw ? Plots::tr("A world size is unknown: algbw (bytes ÷ median) compared instead of the "
                                  "effective bandwidth.")
                      : Plots::tr("Effective bandwidth = bytes per rank × (n−1)/n ÷ median time.");
    if (!result.unmatchedSizes.isEmpty())
        base.note += QLatin1Char(' ') + Plots::tr("Sizes measured on one side only, not shown: %1.")
                                            .arg(result.unmatchedSizes.size());
    return {base, ratio};
}

} // namespace moewb::plots
