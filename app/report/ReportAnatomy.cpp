#include "ReportAnatomy.h"

#include "anatomy/A2aBaseline.h"
#include "anatomy/AnatomySummary.h"
#include "common/Units.h"
#include "plotspec/AnatomyPlots.h"
#include "record/ConfigRecord.h"

#include <algorithm>

namespace moewb::report {

namespace {

QString percent(double fraction) {
    return units::formatPercent(fraction, -1);
}

// "rank 2 (node 0, local rank 2)", or "rank 2" when the record gives no accelerators per node.
QString rankText(int rank, int perNode) {
    if (perNode <= 0)
        return Report::tr("rank %1").arg(rank);
    return Report::tr("rank %1 (node %2, local rank %3)").arg(rank).arg(rank / perNode).arg(rank % perNode);
}

QString kindText(const QString& kind) {
    if (kind == QLatin1String("all_to_all"))
        return Report::tr("all-to-all");
    if (kind == QLatin1String("dispatch"))
        return Report::tr("dispatch");
    if (kind == QLatin1String("combine"))
        return Report::tr("combine");
    if (kind == QLatin1String("sendrecv"))
        return Report::tr("send/receive");
    return kind;
}

ReportTable stragglerTable(const anatomy::AnatomySummary& summary, int perNode) {
    ReportTable t;
    t.caption = Report::tr("How often each rank was the busiest");
    t.headers << Report::tr("Rank");
    if (perNode > 0)
        t.headers << Report::tr("Node") << Report::tr("Local rank");
    t.headers << Report::tr("Times busiest") << Report::tr("Share of the steps");
    t.widths = perNode > 0 ? QList<double>{1, 1, 1, 1, 1} : QList<double>{1, 1, 1};
    const double steps = double(summary.steps.size());
    for (const anatomy::Straggler& s : summary.stragglers) {
        QStringList row{QString::number(s.rank)};
        if (perNode > 0)
            row << QString::number(s.rank / perNode) << QString::number(s.rank % perNode);
        row << QString::number(s.timesBusiest) << (steps > 0 ? percent(s.timesBusiest / steps) : QString());
        t.rows << row;
    }
    return t;
}

ReportTable a2aTable(const anatomy::A2aBaselineReport& report) {
    ReportTable t;
    t.caption = report.cluster.isEmpty()
                    ? Report::tr("The training's all-to-all against stage 1's measured baseline (the run names no "
                                 "cluster)")
                    : Report::tr("The training's all-to-all against stage 1's measured baseline on %1")
                          .arg(report.cluster);
    t.headers = {Report::tr("Kind"),
                 Report::tr("Size per rank"),
                 Report::tr("Calls"),
                 Report::tr("Training bandwidth"),
                 Report::tr("Stage 1 bandwidth"),
                 Report::tr("Training ÷ stage 1"),
                 Report::tr("Note")};
    t.widths = {1.0, 0.9, 0.6, 1.0, 1.0, 0.9, 2.6};
    for (const anatomy::A2aVsBaseline& r : report.rows) {
        QString note = r.note;
        if (!r.baselineRun.isEmpty() && r.baselineGBps)
            note += (note.isEmpty() ? QString() : QStringLiteral(" · ")) + Report::tr("measured by %1").arg(r.baselineRun);
        if (r.splitsCut)
            note += (note.isEmpty() ? QString() : QStringLiteral(" · ")) +
                    Report::tr("some calls' split sizes were cut in the trace");
        t.rows.append({kindText(r.kind), units::formatBytes(double(r.bytesPerRank)), QString::number(r.calls),
                       units::formatBandwidth(r.trainingGBps * 1e9),
                       r.baselineGBps ? units::formatBandwidth(*r.baselineGBps * 1e9) : QStringLiteral("—"),
                       r.ratio ? percent(*r.ratio) : QStringLiteral("—"), note});
    }
    return t;
}

} // namespace

QList<ReportSubsection> anatomySubsections(const store::ProjectStore& project, const QList<store::RunRow>& runs) {
    QList<ReportSubsection> out;
    for (const store::RunRow& run : runs) {
        const store::RunAnatomy steps = project.runAnatomy(run.id);
        if (steps.empty())
            continue;
        int perNode = 0;
        if (const auto rec = project.configRecord(run.recordName)) {
            const record::ConfigRecord r = record::ConfigRecord::fromJson(rec->json, nullptr);
            perNode = plots::ranksPerNode(r.cluster.acceleratorsPerNode, r.worldSize(), steps);
        }
        const anatomy::AnatomySummary summary = anatomy::summarize(steps);
        ReportSubsection sub;
        sub.title = Report::tr("Step anatomy · %1").arg(run.name);
        if (summary.steps.isEmpty()) {
            sub.paragraphs << Report::tr("The profiler traces of %1 hold no step that every traced rank recorded: "
                                         "no busiest rank and no imbalance bill.")
                                  .arg(run.name);
        } else {
            const auto worst = std::max_element(summary.steps.cbegin(), summary.steps.cend(),
                                                [](const auto& a, const auto& b) { return a.billUs < b.billUs; });
            sub.paragraphs
                << Report::tr("Imbalance bill: over %n complete profiled step(s) the busiest device is busy %1 of its "
                              "step on average and the mean device %2, so the others wait %3 per step for the "
                              "busiest.",
                              nullptr, int(summary.steps.size()))
                       .arg(percent(summary.meanBusiestShare), percent(summary.meanMeanShare),
                            units::formatDuration(summary.meanBillUs))
                << Report::tr("Largest in step %1: busiest %2 at %3 of its step; mean device %4; the others wait "
                              "%5 for it in that step. The bars below show that step.")
                       .arg(worst->step)
                       .arg(rankText(worst->busiestRank, perNode), percent(worst->busiestShare),
                            percent(worst->meanShare), units::formatDuration(worst->billUs));
            sub.plots << plots::stepAnatomyBars(steps, worst->step, worst->busiestRank, run.name);
            sub.tables << stragglerTable(summary, perNode);
        }
        const anatomy::A2aBaselineReport baseline = anatomy::compareWithBaseline(project, run, steps);
        if (!baseline.rows.isEmpty())
            sub.tables << a2aTable(baseline);
        else
            sub.paragraphs << Report::tr("The traces of %1 hold no all-to-all call to compare with stage 1.")
                                  .arg(run.name);
        out << sub;
    }
    return out;
}

} // namespace moewb::report
