#include "LearnPlots.h"

#include <QCoreApplication>
#include <algorithm>

namespace moewb::gui::learn {

// Unqualified return types: lupdate, which reads this file without its headers, takes a
// qualifier before a function's name ("plots::PlotSpec f(") for the translation context.
using plots::PlotSpec;

namespace {
// The texts' context, the same for lupdate and at run time (a free tr() in a namespace
// is one lupdate cannot place).
struct Tr {
    Q_DECLARE_TR_FUNCTIONS(moewb::gui::learn)
};
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
        return Tr::tr("Top-K");
    case routing::RouterKind::ExpertChoice:
        return Tr::tr("Expert-Choice");
    case routing::RouterKind::SigmoidBias:
        return Tr::tr("Sigmoid + bias");
    }
    return {};
}

PlotSpec parameterPlot(const costs::CostInputs& in, const costs::ParameterCounts& p) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-parameters");
    spec.title = Tr::tr("Parameters: stored vs computed per token");
    spec.x = {Tr::tr("parameters"), plots::AxisScale::Linear, plots::AxisUnit::None, QStringLiteral("parameters")};
    spec.y = {Tr::tr("parameters (billions)"), plots::AxisScale::Linear, plots::AxisUnit::None, QStringLiteral("parameters (billions)")};
    spec.categoryLabels = {Tr::tr("total (stored)"), Tr::tr("activated (per token)")};
    const double always = (p.total - p.routedExperts) / 1e9;
    const double routedActive = double(in.moeLayers) * double(in.topK) * p.oneExpert;
    // Stacked: the whole bar first, the always-computed part drawn over its bottom.
    spec.series = {
        series(Tr::tr("routed experts"), {0, 1}, {p.total / 1e9, p.activated / 1e9}, plots::SeriesStyle::Bars,
               0),
        series(Tr::tr("attention, router, shared experts"), {0, 1}, {always, always},
               plots::SeriesStyle::Bars, 1),
        // Legend entries for the two colours (bars carry none).
        series(Tr::tr("routed experts (all E stored, K computed)"), {}, {}, plots::SeriesStyle::Line, 0),
        series(Tr::tr("attention, router, shared experts"), {}, {}, plots::SeriesStyle::Line, 1)};
    spec.note =
        Tr::tr("Formula counts (transformer layers only: no embeddings or output head). Routed experts "
               "in the stored bar: %1 B, in the computed one: %2 B.")
            .arg(p.routedExperts / 1e9, 0, 'f', 2)
            .arg(routedActive / 1e9, 0, 'f', 2);
    return spec;
}

PlotSpec memoryPlot(const costs::MemoryPerDevice& m) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-memory");
    spec.title = Tr::tr("Memory per device (before activations)");
    spec.x = {Tr::tr("state"), plots::AxisScale::Linear, plots::AxisUnit::None, QStringLiteral("state")};
    spec.y = {Tr::tr("memory (GiB)"), plots::AxisScale::Linear, plots::AxisUnit::None, QStringLiteral("memory (GiB)")};
    spec.categoryLabels = {Tr::tr("parameters"), Tr::tr("gradients"), Tr::tr("master weights"),
                           Tr::tr("optimizer state")};
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    spec.series = {series(Tr::tr("GiB per device"), {0, 1, 2, 3},
                          {m.parameterBytes / gib, m.gradientBytes / gib, m.masterWeightBytes / gib,
                           m.optimizerStateBytes / gib},
                          plots::SeriesStyle::Bars, 0)};
    return spec;
}

PlotSpec loadsPlot(const routing::RoutingRun& run, int topK, std::int64_t tokens) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-loads");
    spec.title = Tr::tr("Load per expert (assignments processed)");
    spec.x = {Tr::tr("expert"), plots::AxisScale::Linear, plots::AxisUnit::None, QStringLiteral("expert")};
    spec.y = {Tr::tr("assignments"), plots::AxisScale::Linear, plots::AxisUnit::Tokens, QStringLiteral("assignments")};
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
        series(Tr::tr("target K×T/E"), {lo, hi}, {target, target}, plots::SeriesStyle::DashedLine, -1));
    if (run.capacity > 0)
        spec.series.append(series(Tr::tr("capacity"), {lo, hi}, {double(run.capacity), double(run.capacity)},
                                  plots::SeriesStyle::Line, -1));
    // Legend entries for the routers' colours (bars carry none).
    for (const auto& result : run.results)
        spec.series.append(series(routerTitle(result.router), {}, {}, plots::SeriesStyle::Line,
                                  routerColour(result.router)));
    return spec;
}

PlotSpec biasPlot(const routing::RoutingRun& run, int passLength) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-bias");
    spec.title = Tr::tr("Sigmoid + bias: MaxVio while the bias is learned");
    spec.x = {Tr::tr("bias update"), plots::AxisScale::Linear, plots::AxisUnit::Steps, QStringLiteral("bias update")};
    spec.y = {Tr::tr("MaxVio of the batch"), plots::AxisScale::Linear, plots::AxisUnit::Ratio, QStringLiteral("MaxVio of the batch")};
    for (const auto& r : run.results) {
        if (r.router != routing::RouterKind::SigmoidBias)
            continue;
        plots::Series s =
            series(Tr::tr("MaxVio per batch"), {}, {}, plots::SeriesStyle::Line, routerColour(r.router));
        for (std::size_t i = 0; i < r.maxVioPerIteration.size(); ++i) {
            s.x.append(double(i + 1));
            s.y.append(r.maxVioPerIteration[i]);
        }
        spec.series.append(s);
        // The mean over each pass through the batches: the trend under the batch-to-batch noise.
        const int batches = std::max(1, passLength);
        plots::Series mean = series(Tr::tr("mean over each pass (%1 batches)").arg(batches), {}, {},
                                    plots::SeriesStyle::Line, 3);
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
            Tr::tr("Final pass over all tokens with the learned bias: MaxVio %1.").arg(r.maxVio, 0, 'f', 4);
    }
    return spec;
}

PlotSpec sweepMaxVioPlot(const QList<routing::RoutingRun>& sweep) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-sweep-maxvio");
    spec.title = Tr::tr("MaxVio vs number of experts");
    spec.x = {Tr::tr("experts E"), plots::AxisScale::Log10, plots::AxisUnit::None, QStringLiteral("experts E")};
    spec.y = {Tr::tr("MaxVio"), plots::AxisScale::Linear, plots::AxisUnit::Ratio, QStringLiteral("MaxVio")};
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

PlotSpec sweepDroppedPlot(const QList<routing::RoutingRun>& sweep, int topK, std::int64_t tokens) {
    plots::PlotSpec spec;
    spec.id = QStringLiteral("learn-routing-sweep-dropped");
    spec.title = Tr::tr("What capacity costs vs number of experts");
    spec.x = {Tr::tr("experts E"), plots::AxisScale::Log10, plots::AxisUnit::None, QStringLiteral("experts E")};
    spec.y = {Tr::tr("share"), plots::AxisScale::Linear, plots::AxisUnit::Fraction, QStringLiteral("share")};
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
                series(Tr::tr("Top-K: dropped assignments / K·T"), x, {}, plots::SeriesStyle::Line, 0);
            for (const auto& run : sweep)
                s.y.append(i < run.results.size() ? double(run.results[i].droppedAssignments) / assignments
                                                  : 0.0);
            spec.series.append(s);
        }
        plots::Series w = series(Tr::tr("%1: tokens without expert / T").arg(routerTitle(kind)), x, {},
                                 kind == routing::RouterKind::TopK ? plots::SeriesStyle::DashedLine
                                                                   : plots::SeriesStyle::Line,
                                 routerColour(kind));
        for (const auto& run : sweep)
            w.y.append(i < run.results.size() ? double(run.results[i].tokensWithoutExpert) / t : 0.0);
        spec.series.append(w);
    }
    spec.note = Tr::tr("Sigmoid + bias is dropless: it drops nothing at any E.");
    return spec;
}

} // namespace moewb::gui::learn
