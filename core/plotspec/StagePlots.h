#pragma once
// The plots of each stage, built from the gates' results (core/stages). Pure
// functions over plain data: the window (PlotView) and the PDF report
// (renderPlot) draw the same specs. docs/plots.md.
#include "plotspec/PlotSpec.h"
#include "stages/StageFourGate.h"
#include "stages/StageOneGate.h"
#include "stages/StageThreeGate.h"
#include "stages/StageTwoGate.h"

#include <QList>

namespace moewb::plots {

// Stage 1: "stage1-bandwidth" (effective bandwidth vs message size, one curve per
// run, coloured by node count) and "stage1-latency" (median solid, P99 dashed in
// the same colour).
QList<PlotSpec> stageOnePlots(const stages::StageOneResult& result);

// Stage 2: "stage2-loss": per run lm_loss raw (faint) and smoothed (debiased EMA,
// same colour) and val_loss dashed, over steps or tokens.
enum class TrainingX { Steps, Tokens };
PlotSpec stageTwoLossPlot(const QList<stages::TrainingRunInput>& runs, TrainingX x, double smoothing);
// "stage2-loss-tail": the same curves zoomed on the last stageTwoTailFraction of
// training (PlotSpec::tailFraction, y fitted there), where a validation-loss gap of a few
// hundredths shows; its note gives each run's last val_loss and where it was read. The
// window's deciding panel and the report draw this one spec.
inline constexpr double stageTwoTailFraction = 0.3;
PlotSpec stageTwoLossTailPlot(const QList<stages::TrainingRunInput>& runs, TrainingX x, double smoothing);
// "stage2-throughput": steady tokens/s per GPU, one bar per run.
PlotSpec stageTwoThroughputPlot(const QList<stages::TrainingRunInput>& runs);

// Stage 3.
// "stage3-load-ratio": per run the worst layer's max/mean over steps, plus the limit.
PlotSpec loadRatioPlot(const QList<stages::StageThreeRunSummary>& runs, double limit);
// "stage3-layer-expert": rows = layers, columns = experts at `step` (tokens, or
// relative to the layer's mean).
PlotSpec layerExpertHeatmap(const stages::ExpertLoadRunInput& run, qint64 step, bool relativeToMean);
// "stage3-expert-step": rows = experts, columns = steps of one layer; more than
// maxHeatmapColumns steps are max-pooled into maxHeatmapColumns columns.
inline constexpr int maxHeatmapColumns = 2000;
// At most this many cells in either heatmap (128 MiB of values): fewer step columns
// where the experts are many; a layer × expert grid beyond it is not drawn (its note
// says why). A project file from someone else may claim 65,536 layers and experts.
inline constexpr qsizetype maxHeatmapCells = qsizetype(1) << 24;
PlotSpec expertStepHeatmap(const stages::ExpertLoadRunInput& run, int layer, bool relativeToMean);
// "stage3-drop-vs-loss": one point per run with a drop rate and a window loss,
// coloured by the record's capacity factor (dropless / "none" -> 0).
PlotSpec dropVsLossPlot(const QList<stages::StageThreeRunSummary>& runs,
                        const QList<stages::ExpertLoadRunInput>& inputs);
// "stage3-busiest-device": busiest-device share, one bar per run (ideal 1/EP in the note).
PlotSpec busiestDevicePlot(const QList<stages::StageThreeRunSummary>& runs);

// Stage 4: "stage4-baselines" (source and target bandwidth vs size) and
// "stage4-ratio" (target/source per size, the threshold band in the note).
QList<PlotSpec> stageFourPlots(const stages::StageFourResult& result);

// Helpers shared by the renderers and tests.
// The unit text of an axis for labels: "GB/s", "µs", "%", "" (Microseconds
// returns "µs"; the renderer may switch to "ms" by range).
QString unitText(AxisUnit unit);
// "Bandwidth (GB/s)"; just the label when the unit has no text.
QString axisTitle(const Axis& axis);
// A value in an axis's unit as the hover shows it: "12.35 GB/s", "1 MiB", "3.2 ms",
// "45.0 %", "1.25 M tokens".
QString formatValue(double value, const Axis& axis);
// 1024 -> "1 KiB", 3·2^20 -> "3 MiB", 512 -> "512 B".
QString formatBytes(double bytes);
// Count with K/M/B suffix: 1500 -> "1.5K".
QString formatCount(double value);
// True when a spec has nothing to draw (no points, no heatmap cells).
bool isEmpty(const PlotSpec& spec);

} // namespace moewb::plots
