#pragma once
// The PlotSpecs of the Learn pages, built from core/costs and core/routing results (QtCore
// only, so they are tested without a display). PlotView draws them.
#include "costs/CostModel.h"
#include "plotspec/PlotSpec.h"
#include "routing/RoutingLab.h"

namespace moewb::gui::learn {

// Bars: total vs activated parameters, each split into attention + router + shared/dense
// FFN ("always computed") and routed experts (stored: all E; computed: K).
plots::PlotSpec parameterPlot(const costs::CostInputs& in, const costs::ParameterCounts& params);
// Bars: one device's bytes for parameters, gradients, master weights, optimizer state.
plots::PlotSpec memoryPlot(const costs::MemoryPerDevice& memory);

// Bars per router: assignments each expert processes; lines: the target K×T/E and the
// capacity.
plots::PlotSpec loadsPlot(const routing::RoutingRun& run, int topK, std::int64_t tokens);
// Sigmoid + bias: MaxVio of each batch over the bias-update iterations, and its mean over
// each pass through the passLength batches (empty spec when the run has no sigmoid-bias
// router).
plots::PlotSpec biasPlot(const routing::RoutingRun& run, int passLength);
// The expert-count sweep: MaxVio vs E per router.
plots::PlotSpec sweepMaxVioPlot(const QList<routing::RoutingRun>& sweep);
// The sweep: Top-K dropped assignments and tokens left without expert (Top-K,
// Expert-Choice) vs E, as fractions of K×T and T.
plots::PlotSpec sweepDroppedPlot(const QList<routing::RoutingRun>& sweep, int topK, std::int64_t tokens);

QString routerTitle(routing::RouterKind kind); // translated: "Top-K", "Expert-Choice", "Sigmoid + bias"

} // namespace moewb::gui::learn
