#include "plotspec/AnatomyPlots.h"

#include "plotspec/PlotsTr.h"
#include "plotspec/StagePlots.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moewb::plots {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double nonNegative(double v) {
    return std::isfinite(v) ? std::max(0.0, v) : 0.0;
}

// One segment of a rank's bar: how it is read from the row, and its palette colour.
struct Segment {
    double (*value)(const store::RankStepAnatomy&);
    int colour;
};

// Bottom to top; colours of the Okabe–Ito palette (Palette.h): compute blue, all-to-all
// vermillion with its waiting orange, other communication reddish purple with its
// waiting sky blue, memcpy bluish green, idle yellow.
const Segment kSegments[] = {
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.computeUs); }, 0},
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.a2aUs - r.a2aWaitUs); }, 3},
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.a2aWaitUs); }, 1},
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.otherCommUs - r.otherCommWaitUs); }, 5},
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.otherCommWaitUs); }, 4},
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.memcpyUs); }, 2},
    {[](const store::RankStepAnatomy& r) { return nonNegative(r.idleUs); }, 6},
};

} // namespace

QStringList stepAnatomySegmentNames() {
    return {Plots::tr("compute"),
            Plots::tr("all-to-all transfer"),
            Plots::tr("all-to-all waiting"),
            Plots::tr("other communication"),
            Plots::tr("other communication waiting"),
            Plots::tr("memcpy"),
            Plots::tr("idle")};
}

int ranksPerNode(std::optional<qint64> acceleratorsPerNode, std::optional<qint64> worldSize,
                 const store::RunAnatomy& anatomy) {
    if (!acceleratorsPerNode || *acceleratorsPerNode < 1 || *acceleratorsPerNode > std::numeric_limits<int>::max())
        return 0;
    int highest = -1;
    for (const store::RankStepAnatomy& r : anatomy.rows)
        highest = std::max(highest, r.rank);
    if (worldSize && highest >= *worldSize)
        return 0;
    return int(*acceleratorsPerNode);
}

PlotSpec stepAnatomyBars(const store::RunAnatomy& anatomy, qint64 step, int busiestRank, const QString& runName) {
    PlotSpec spec;
    spec.id = QStringLiteral("anatomy-step-bars");
    spec.title = busiestRank >= 0
                     ? Plots::tr("Where step %1's time went, per rank (busiest: rank %2) · %3")
                           .arg(step)
                           .arg(busiestRank)
                           .arg(runName)
                     : Plots::tr("Where step %1's time went, per rank · %2").arg(step).arg(runName);
    spec.x = {Plots::tr("Rank"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Rank")};
    spec.y = {Plots::tr("Time"), AxisScale::Linear, AxisUnit::Microseconds, QStringLiteral("Time")};

    QVector<const store::RankStepAnatomy*> rows;
    for (const store::RankStepAnatomy& r : anatomy.rows)
        if (r.step == step)
            rows << &r;
    std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->rank < b->rank; });
    if (rows.isEmpty()) {
        spec.note = Plots::tr("No step anatomy at step %1.").arg(step);
        return spec;
    }
    const QStringList names = stepAnatomySegmentNames();
    for (int k = 0; k < int(std::size(kSegments)); ++k) {
        Series s;
        s.name = names[k];
        s.run = runName;
        s.style = SeriesStyle::StackedBars;
        s.colour = kSegments[k].colour;
        for (int i = 0; i < rows.size(); ++i) {
            s.x << double(i);
            s.y << kSegments[k].value(*rows[i]);
        }
        spec.series << s;
    }
    Series stepTime;
    stepTime.name = Plots::tr("step time");
    stepTime.run = runName;
    stepTime.style = SeriesStyle::DashedLine;
    stepTime.colour = -1;
    for (int i = 0; i < rows.size(); ++i) {
        stepTime.x << double(i);
        stepTime.y << rows[i]->stepUs;
        // The busiest rank's mark on a line of its own, so it never runs into its neighbours' numbers.
        spec.categoryLabels << (rows[i]->rank == busiestRank ? Plots::tr("%1\nbusiest").arg(rows[i]->rank)
                                                             : QString::number(rows[i]->rank));
    }
    spec.series << stepTime;
    QStringList note;
    note << Plots::tr("Each kind's own time on the rank in step %1; communication that overlaps compute counts "
                      "in both, so a bar can reach above the rank's step time (dashed).")
                .arg(step);
    if (busiestRank >= 0)
        note << Plots::tr("Busiest rank %1: the largest busy time (compute and communication, without the "
                          "waiting).")
                    .arg(busiestRank);
    spec.note = note.join(QLatin1Char(' '));
    return spec;
}

PlotSpec busyShareHeatmap(const store::RunAnatomy& anatomy, const QString& runName) {
    PlotSpec spec;
    spec.id = QStringLiteral("anatomy-busy-share");
    spec.title = Plots::tr("Busy share of each rank's step · %1").arg(runName);
    spec.x = {Plots::tr("Step"), AxisScale::Linear, AxisUnit::Steps, QStringLiteral("Step")};
    spec.y = {Plots::tr("Rank"), AxisScale::Linear, AxisUnit::None, QStringLiteral("Rank")};
    if (anatomy.rows.isEmpty()) {
        spec.note = Plots::tr("No step anatomy.");
        return spec;
    }
    int firstRank = std::numeric_limits<int>::max(), lastRank = std::numeric_limits<int>::min();
    qint64 firstStep = std::numeric_limits<qint64>::max(), lastStep = std::numeric_limits<qint64>::min();
    for (const store::RankStepAnatomy& r : anatomy.rows) {
        firstRank = std::min(firstRank, r.rank);
        lastRank = std::max(lastRank, r.rank);
        firstStep = std::min(firstStep, r.step);
        lastStep = std::max(lastStep, r.step);
    }
    // The store reads steps 0..10^12 and ranks 0..2^20 only; the grid stays within
    // maxHeatmapCells (fewer step columns for many ranks).
    const qint64 span = lastStep - firstStep + 1;
    const qsizetype rows = qsizetype(lastRank) - firstRank + 1;
    if (rows > maxHeatmapCells || span < 1) {
        spec.note = Plots::tr("Ranks %1 to %2: too many to draw.").arg(firstRank).arg(lastRank);
        return spec;
    }
    const int columns = int(std::min<qint64>({span, maxHeatmapColumns, std::max<qint64>(1, maxHeatmapCells / rows)}));
    Heatmap h;
    h.columns = columns;
    h.rows = lastRank - firstRank + 1;
    h.values = QVector<double>(qsizetype(h.rows) * columns, nan);
    // Column c covers steps [first + c·span/columns, first + (c+1)·span/columns); its
    // centre in steps is the middle of that span.
    const auto columnOf = [&](qint64 step) { return int((step - firstStep) * columns / span); };
    const auto centre = [&](int c) {
        const double from = double(firstStep) + double(c) * double(span) / columns;
        const double to = double(firstStep) + double(c + 1) * double(span) / columns;
        return (from + to - 1.0) / 2.0;
    };
    h.xFirst = centre(0);
    h.xLast = centre(columns - 1);
    h.yFirst = firstRank;
    h.yLast = lastRank;
    h.colourLabel = Plots::tr("% of the step busy");
    for (const store::RankStepAnatomy& r : anatomy.rows) {
        if (!(r.stepUs > 0.0))
            continue;
        const double v = 100.0 * r.busyUs / r.stepUs;
        double& cell = h.values[qsizetype(r.rank - firstRank) * columns + columnOf(r.step)];
        if (std::isnan(cell) || v > cell)
            cell = v;
    }
    spec.heatmap = h;
    QStringList note;
    note << Plots::tr("Busy time (compute and communication, without the waiting) ÷ the rank's step time; "
                      "grey: not traced.");
    if (span > columns)
        note << Plots::tr("Steps %1–%2 max-pooled into %3 columns (about %4 steps each): a straggling step "
                          "stays visible.")
                    .arg(firstStep)
                    .arg(lastStep)
                    .arg(columns)
                    .arg(QString::number(double(span) / columns, 'g', 3));
    spec.note = note.join(QLatin1Char(' '));
    return spec;
}

} // namespace moewb::plots
