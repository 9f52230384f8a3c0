#include "LearnPlots.h"

#include <QCoreApplication>
#include <algorithm>

namespace moewb::gui::learn {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("moewb::gui::learn", text);
}
int routerColour(routing::RouterKind kind) {
    switch (kind) {
    case routing::RouterKind::TopK:
        return 0;
    case routing::RouterKind::ExpertChoice:
        return 1;
    case routing::RouterKind::SigmoidBias:
        return 2;
    }
    return 3;
}
QVector<double> expertCounts(const QList<routing::RoutingRun>& sweep) {
    QVector<double> x;
    for (const auto& run : sweep)
        x.append(double(run.experts));
    return x;
}
plots::Series series(const QString& name, const QVector<double>& x, const QVector<double>& y,
                     plots::SeriesStyle style, int colour) {
    plots::Series s;
    s.name = name;
    s.x = x;
    s.y = y;
    s.style = style;
    s.colour = colour;
    return s;
}
} // namespace

QString routerTitle(routing::RouterKind kind) {
    switch (kind) {
    case routing::RouterKind::TopK:
        return tr("Top-K");
    case routing::RouterKind::ExpertChoice:
        return tr("Expert-Choice");
    case routing::RouterKind::SigmoidBias:
        return tr("Sigmoid + bias");
    }
    return {};
}

plots::PlotSpec parameterPlot(const costs::CostInputs& in, const costs::ParameterCounts& p) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-parameters");
    spec.title = tr("Parameters: stored vs computed per token");
    spec.x = {tr("parameters"), plots::AxisScale::Linear, plots::AxisUnit::None};
    spec.y = {tr("parameters (billions)"), plots::AxisScale::Linear, plots::AxisUnit::None};
    spec.categoryLabels = {tr("total (stored)"), tr("activated (per token)")};
    const double always = (p.total - p.routedExperts) / 1e9;
    const double routedActive = double(in.moeLayers) * double(in.topK) * p.oneExpert;
    // Stacked: the whole bar first, the always-computed part drawn over its bottom.
    spec.series = {
        series(tr("routed experts"), {0, 1}, {p.total / 1e9, p.activated / 1e9}, plots::SeriesStyle::Bars, 0),
        series(tr("attention, router, shared experts"), {0, 1}, {always, always}, plots::SeriesStyle::Bars,
               1),
        // Legend entries for the two colours (bars carry none).
        series(tr("routed experts (all E stored, K computed)"), {}, {}, plots::SeriesStyle::Line, 0),
        series(tr("attention, router, shared experts"), {}, {}, plots::SeriesStyle::Line, 1)};
    spec.note = tr("Formula counts (transformer layers only: no embeddings or output head). Routed experts "
                   "in the stored bar: %1 B, in the computed one: %2 B.")
                    .arg(p.routedExperts / 1e9, 0, 'f', 2)
                    .arg(routedActive / 1e9, 0, 'f', 2);
    return spec;
}

plots::PlotSpec memoryPlot(const costs::MemoryPerDevice& m) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-memory");
    spec.title = tr("Memory per device (before activations)");
    spec.x = {tr("state"), plots::AxisScale::Linear, plots::AxisUnit::None};
    spec.y = {tr("memory (GiB)"), plots::AxisScale::Linear, plots::AxisUnit::None};
    spec.categoryLabels = {tr("parameters"), tr("gradients"), tr("master weights"), tr("optimizer state")};
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    spec.series = {series(tr("GiB per device"), {0, 1, 2, 3},
                          {m.parameterBytes / gib, m.gradientBytes / gib, m.masterWeightBytes / gib,
                           m.optimizerStateBytes / gib},
                          plots::SeriesStyle::Bars, 0)};
    return spec;
}

plots::PlotSpec loadsPlot(const routing::RoutingRun& run, int topK, std::int64_t tokens) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-loads");
    spec.title = tr("Load per expert (assignments processed)");
    spec.x = {tr("expert"), plots::AxisScale::Linear, plots::AxisUnit::None};
    spec.y = {tr("assignments"), plots::AxisScale::Linear, plots::AxisUnit::Tokens};
    const int experts = run.experts;
    // One group of bars per expert, one bar per router, a gap between groups; the expert's
    // number under the middle bar.
    const int routers = int(run.results.size());
    const int stride = routers + 1;
    for (int e = 0; e < experts; ++e)
        for (int r = 0; r < stride; ++r)
            spec.categoryLabels.append(r == routers / 2 ? QString::number(e) : QString());
    for (int r = 0; r < routers; ++r) {
        const auto& result = run.results[r];
        plots::Series s =
            series(routerTitle(result.router), {}, {}, plots::SeriesStyle::Bars, routerColour(result.router));
        for (int e = 0; e < experts && std::size_t(e) < result.loads.size(); ++e) {
            s.x.append(double(e * stride + r));
            s.y.append(double(result.loads[std::size_t(e)]));
        }
        spec.series.append(s);
    }
    if (experts <= 0)
        return spec;
    const double target = double(topK) * double(tokens) / double(experts);
    const double lo = -0.5, hi = double(experts * stride) - 1.5;
    spec.series.append(
        series(tr("target K×T/E"), {lo, hi}, {target, target}, plots::SeriesStyle::DashedLine, -1));
    if (run.capacity > 0)
        spec.series.append(series(tr("capacity"), {lo, hi}, {double(run.capacity), double(run.capacity)},
                                  plots::SeriesStyle::Line, -1));
    // Legend entries for the routers' colours (bars carry none).
    for (const auto& result : run.results)
        spec.series.append(series(routerTitle(result.router), {}, {}, plots::SeriesStyle::Line,
                                  routerColour(result.router)));
    return spec;
}

plots::PlotSpec biasPlot(const routing::RoutingRun& run, int passLength) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-bias");
    spec.title = tr("Sigmoid + bias: MaxVio while the bias is learned");
    spec.x = {tr("bias update"), plots::AxisScale::Linear, plots::AxisUnit::Steps};
    spec.y = {tr("MaxVio of the batch"), plots::AxisScale::Linear, plots::AxisUnit::Ratio};
    for (const auto& r : run.results) {
        if (r.router != routing::RouterKind::SigmoidBias)
            continue;
        plots::Series s =
            series(tr("MaxVio per batch"), {}, {}, plots::SeriesStyle::Line, routerColour(r.router));
        for (std::size_t i = 0; i < r.maxVioPerIteration.size(); ++i) {
            s.x.append(double(i + 1));
            s.y.append(r.maxVioPerIteration[i]);
        }
        spec.series.append(s);
        // The mean over each pass through the batches: the trend under the batch-to-batch noise.
        const int batches = std::max(1, passLength);
        plots::Series mean =
            series(tr("mean over each pass (%1 batches)").arg(batches), {}, {}, plots::SeriesStyle::Line, 3);
        for (std::size_t i = 0; i + std::size_t(batches) <= r.maxVioPerIteration.size();
             i += std::size_t(batches)) {
            double sum = 0.0;
            for (int b = 0; b < batches; ++b)
                sum += r.maxVioPerIteration[i + std::size_t(b)];
            mean.x.append(double(i) + 0.5 * double(batches));
            mean.y.append(sum / double(batches));
        }
        if (mean.x.size() >= 2)
            spec.series.append(mean);
        spec.note =
            tr("Final pass over all tokens with the learned bias: MaxVio %1.").arg(r.maxVio, 0, 'f', 4);
    }
    return spec;
}

plots::PlotSpec sweepMaxVioPlot(const QList<routing::RoutingRun>& sweep) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-sweep-maxvio");
    spec.title = tr("MaxVio vs number of experts");
    spec.x = {tr("experts E"), plots::AxisScale::Log10, plots::AxisUnit::None};
    spec.y = {tr("MaxVio"), plots::AxisScale::Linear, plots::AxisUnit::Ratio};
    if (sweep.isEmpty())
        return spec;
    const QVector<double> x = expertCounts(sweep);
    for (qsizetype i = 0; i < sweep.first().results.size(); ++i) {
        const auto kind = sweep.first().results[i].router;
        plots::Series s = series(routerTitle(kind), x, {}, plots::SeriesStyle::Line, routerColour(kind));
        for (const auto& run : sweep)
            s.y.append(i < run.results.size() ? run.results[i].maxVio : 0.0);
        spec.series.append(s);
    }
    return spec;
}

plots::PlotSpec sweepDroppedPlot(const QList<routing::RoutingRun>& sweep, int topK, std::int64_t tokens) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-sweep-dropped");
    spec.title = tr("What capacity costs vs number of experts");
    spec.x = {tr("experts E"), plots::AxisScale::Log10, plots::AxisUnit::None};
    spec.y = {tr("share"), plots::AxisScale::Linear, plots::AxisUnit::Fraction};
    if (sweep.isEmpty())
        return spec;
    const QVector<double> x = expertCounts(sweep);
    const double assignments = double(topK) * double(tokens), t = double(std::max<std::int64_t>(1, tokens));
    for (qsizetype i = 0; i < sweep.first().results.size(); ++i) {
        const auto kind = sweep.first().results[i].router;
        if (kind == routing::RouterKind::SigmoidBias)
            continue; // dropless: always zero
        if (kind == routing::RouterKind::TopK) {
            plots::Series s =
                series(tr("Top-K: dropped assignments / K·T"), x, {}, plots::SeriesStyle::Line, 0);
            for (const auto& run : sweep)
                s.y.append(i < run.results.size() ? double(run.results[i].droppedAssignments) / assignments
                                                  : 0.0);
            spec.series.append(s);
        }
        plots::Series w = series(routerTitle(kind) + tr(": tokens without expert / T"), x, {},
                                 kind == routing::RouterKind::TopK ? plots::SeriesStyle::DashedLine
                                                                   : plots::SeriesStyle::Line,
                                 routerColour(kind));
        for (const auto& run : sweep)
            w.y.append(i < run.results.size() ? double(run.results[i].tokensWithoutExpert) / t : 0.0);
        spec.series.append(w);
    }
    spec.note = tr("Sigmoid + bias is dropless: it drops nothing at any E.");
    return spec;
}

} // namespace moewb::gui::learn
