#include "StepAnatomyView.h"

#include "PageWidgets.h"
#include "StepTimelineView.h"

#include "common/Units.h"
#include "plots/PlotView.h"
#include "plotspec/AnatomyPlots.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace moewb::gui {

namespace {

QTableWidgetItem* numberItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString percent(double fraction) {
    return units::formatPercent(fraction, -1);
}

// Just tall enough for its rows (at most `most` of them), so a short table takes no more room.
void fitHeight(QTableWidget* table, int most) {
    int h = 0;
    for (int r = 0; r < std::min(table->rowCount(), most); ++r)
        h += table->rowHeight(r);
    if (table->rowCount() == 0)
        h = table->verticalHeader()->defaultSectionSize();
    table->setFixedHeight(table->horizontalHeader()->sizeHint().height() + h + 2 * table->frameWidth() + 2);
}

} // namespace

StepAnatomyView::StepAnatomyView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stepAnatomySection"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* top = new QHBoxLayout;
    QLabel* title = makePageTitle(this, 1.15);
    title->setText(tr("Step anatomy"));
    top->addWidget(title);
    top->addStretch(1);
    auto* chooserLabel = new QLabel(tr("&Step:"), this);
    m_stepChooser = new QComboBox(this);
    m_stepChooser->setObjectName(QStringLiteral("anatomyStepChooser"));
    m_stepChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_stepChooser->setMaximumWidth(420);
    m_stepChooser->setToolTip(tr("The profiled step the bars show; at first the one where the other ranks "
                                 "wait longest for the busiest."));
    chooserLabel->setBuddy(m_stepChooser);
    top->addWidget(chooserLabel);
    top->addWidget(m_stepChooser);
    layout->addLayout(top);

    auto* intro = new QLabel(tr("Where each rank's time goes in the profiled steps, from the run's PyTorch "
                                "profiler traces. The busiest rank (largest compute and communication time, "
                                "waiting left out) sets the pace: the others wait for it."),
                             this);
    intro->setWordWrap(true);
    intro->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(intro);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("anatomySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    layout->addWidget(m_summary);

    auto* plotsRow = new QHBoxLayout;
    m_barsPlot = new plots::PlotView(this);
    m_barsPlot->setObjectName(QStringLiteral("anatomyBarsPlot"));
    m_barsPlot->setMinimumHeight(300);
    m_heatmapPlot = new plots::PlotView(this);
    m_heatmapPlot->setObjectName(QStringLiteral("anatomyBusyHeatmap"));
    m_heatmapPlot->setMinimumHeight(300);
    plotsRow->addWidget(m_barsPlot, 3);
    plotsRow->addWidget(m_heatmapPlot, 2);
    layout->addLayout(plotsRow);

    auto* timelineCaption = new QLabel(tr("The step as a timeline, ranks as rows"), this);
    QFont timelineFont = timelineCaption->font();
    timelineFont.setBold(true);
    timelineCaption->setFont(timelineFont);
    layout->addWidget(timelineCaption);
    m_timeline = new StepTimelineView(this);
    layout->addWidget(m_timeline);

    m_runLine = new QLabel(this);
    m_runLine->setObjectName(QStringLiteral("anatomyRunSummary"));
    m_runLine->setWordWrap(true);
    m_runLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_runLine);

    auto* stragglerCaption = new QLabel(tr("How often each rank was the busiest"), this);
    QFont captionFont = stragglerCaption->font();
    captionFont.setBold(true);
    stragglerCaption->setFont(captionFont);
    layout->addWidget(stragglerCaption);
    m_stragglers = makeReadOnlyTable(
        this, {tr("Rank"), tr("Node"), tr("Local rank"), tr("Times busiest"), tr("Share of the steps")});
    m_stragglers->setObjectName(QStringLiteral("anatomyStragglerTable"));
    m_stragglers->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_stragglers->setMaximumWidth(760); // five short columns: no need to span a wide window
    layout->addWidget(m_stragglers);

    m_a2aCaption = new QLabel(this);
    m_a2aCaption->setFont(captionFont);
    m_a2aCaption->setWordWrap(true);
    layout->addWidget(m_a2aCaption);
    m_a2a = makeReadOnlyTable(this, {tr("Kind"), tr("Size per rank"), tr("Calls"), tr("Training bandwidth"),
                                     tr("Stage 1 bandwidth"), tr("Training ÷ stage 1"), tr("Note")});
    m_a2a->setObjectName(QStringLiteral("anatomyA2aTable"));
    // One line a row: a long note is elided, whole in its tooltip.
    m_a2a->setWordWrap(false);
    m_a2a->setTextElideMode(Qt::ElideRight);
    layout->addWidget(m_a2a);

    connect(m_stepChooser, &QComboBox::currentIndexChanged, this, &StepAnatomyView::drawStep);
    clear();
}

void StepAnatomyView::clear() {
    m_anatomy = {};
    m_summaryData = {};
    m_runName.clear();
    m_ranksPerNode = 0;
    m_timelineExtent = {};
    m_timeline->showMessage({});
    m_stepChooser->blockSignals(true);
    m_stepChooser->clear();
    m_stepChooser->blockSignals(false);
    m_barsPlot->setSpec({});
    m_heatmapPlot->setSpec({});
    m_summary->clear();
    m_runLine->clear();
    m_stragglers->setRowCount(0);
    m_a2a->setRowCount(0);
    hide();
}

QString StepAnatomyView::rankText(int rank) const {
    if (m_ranksPerNode <= 0)
        return tr("rank %1").arg(rank);
    return tr("rank %1 (node %2, local rank %3)").arg(rank).arg(rank / m_ranksPerNode).arg(rank % m_ranksPerNode);
}

void StepAnatomyView::showRun(const RunMeasurements& m) {
    clear();
    if (m.stepAnatomy.empty())
        return;
    m_runName = m.row.name;
    m_anatomy = m.stepAnatomy;
    m_summaryData = m.anatomySummary.value_or(anatomy::summarize(m.stepAnatomy));
    m_ranksPerNode = m.ranksPerNode;
    m_timelineExtent = m.timelineExtent;

    // The steps to choose from: those the summary covers (every traced rank recorded
    // them), else every step of the traces; the largest bill first chosen.
    QList<qint64> steps;
    for (const anatomy::StepSummary& s : std::as_const(m_summaryData.steps))
        steps << s.step;
    if (steps.isEmpty()) {
        QSet<qint64> seen;
        for (const store::RankStepAnatomy& r : std::as_const(m_anatomy.rows))
            if (!seen.contains(r.step)) {
                seen.insert(r.step);
                steps << r.step;
            }
        std::sort(steps.begin(), steps.end());
    }
    int chosen = 0;
    m_stepChooser->blockSignals(true);
    for (int i = 0; i < steps.size(); ++i) {
        const auto s = std::find_if(m_summaryData.steps.cbegin(), m_summaryData.steps.cend(),
                                    [&](const anatomy::StepSummary& x) { return x.step == steps[i]; });
        if (s == m_summaryData.steps.cend()) {
            m_stepChooser->addItem(tr("Step %1").arg(steps[i]), steps[i]);
            continue;
        }
        m_stepChooser->addItem(tr("Step %1 · others wait %2").arg(steps[i]).arg(units::formatDuration(s->billUs)),
                               steps[i]);
        const auto best = std::max_element(m_summaryData.steps.cbegin(), m_summaryData.steps.cend(),
                                           [](const auto& a, const auto& b) { return a.billUs < b.billUs; });
        if (best->step == steps[i])
            chosen = i;
    }
    m_stepChooser->setCurrentIndex(chosen);
    m_stepChooser->blockSignals(false);

    m_heatmapPlot->setSpec(plots::busyShareHeatmap(m_anatomy, m_runName));
    if (!m_summaryData.steps.isEmpty()) {
        QString line = tr("Over %n complete step(s) the busiest device is busy %1 of its step on average and the "
                          "mean device %2: the others wait %3 per step for the busiest.",
                          "", int(m_summaryData.steps.size()))
                           .arg(percent(m_summaryData.meanBusiestShare), percent(m_summaryData.meanMeanShare),
                                units::formatDuration(m_summaryData.meanBillUs));
        QSet<qint64> all;
        for (const store::RankStepAnatomy& r : std::as_const(m_anatomy.rows))
            all.insert(r.step);
        if (const int partial = int(all.size()) - int(m_summaryData.steps.size()); partial > 0)
            line += QLatin1Char(' ') + tr("%n step(s) left out: a traced rank did not record them.", "", partial);
        m_runLine->setText(line);
    } else {
        m_runLine->setText(tr("No step was recorded by every traced rank: no busiest rank to name."));
    }
    fillStragglers();
    if (m.a2aBaseline)
        fillA2a(*m.a2aBaseline);
    drawStep();
    show();
}

qint64 StepAnatomyView::currentStep() const {
    return m_stepChooser->count() > 0 ? m_stepChooser->currentData().toLongLong() : -1;
}

bool StepAnatomyView::chooseStep(qint64 step) {
    const int i = m_stepChooser->findData(step);
    if (i < 0)
        return false;
    m_stepChooser->setCurrentIndex(i);
    return true;
}

void StepAnatomyView::drawStep() {
    if (m_stepChooser->count() == 0) {
        m_barsPlot->setSpec({});
        return;
    }
    const qint64 step = currentStep();
    const auto s = std::find_if(m_summaryData.steps.cbegin(), m_summaryData.steps.cend(),
                                [step](const anatomy::StepSummary& x) { return x.step == step; });
    const bool known = s != m_summaryData.steps.cend();
    m_barsPlot->setSpec(plots::stepAnatomyBars(m_anatomy, step, known ? s->busiestRank : -1, m_runName));
    drawTimeline(step, known ? s->busiestRank : -1);
    if (!known) {
        m_summary->setText(tr("Step %1: not every traced rank recorded it, so no busiest rank is named.").arg(step));
        return;
    }
    m_summary->setText(tr("Step %1: busiest %2 at %3 of its step; mean device %4; the others wait %5 for it "
                          "in this step.")
                           .arg(step)
                           .arg(rankText(s->busiestRank), percent(s->busiestShare), percent(s->meanShare),
                                units::formatDuration(s->billUs)));
}

void StepAnatomyView::drawTimeline(qint64 step, int busiestRank) {
    const QVector<qint64>& stored = m_timelineExtent.steps;
    if (stored.isEmpty() || !m_timelineSource) {
        m_timeline->showMessage(tr("This run's traces were imported before the workbench kept step timelines: "
                                   "import the traces again, into a new run, to see each step as a timeline."));
        return;
    }
    if (!stored.contains(step)) {
        m_timeline->showMessage(tr("The timeline keeps the first %1 profiled steps (%2 to %3): step %4 is not "
                                   "among them.")
                                    .arg(store::kTimelineMaxSteps)
                                    .arg(stored.front())
                                    .arg(stored.back())
                                    .arg(step));
        return;
    }
    QString problem;
    const QVector<store::RankStepTimeline> ranks = m_timelineSource(step, &problem);
    QStringList notes;
    if (!problem.isEmpty())
        notes << problem;
    QStringList cut;
    for (const store::RankStepTimeline& r : ranks)
        if (r.dropped > 0)
            cut << tr("rank %1 (%2 left out)").arg(r.rank).arg(QLocale().toString(r.dropped));
    if (!cut.isEmpty())
        notes << tr("Cut at %1 intervals a rank, the earliest kept: %2.")
                     .arg(QLocale().toString(store::kTimelineMaxIntervals), cut.join(QStringLiteral(", ")));
    QSet<qint64> all;
    for (const store::RankStepAnatomy& r : std::as_const(m_anatomy.rows))
        all.insert(r.step);
    if (all.size() > stored.size())
        notes << tr("Only the first %1 profiled steps are kept as timelines.").arg(stored.size());
    m_timeline->showStep(step, ranks, busiestRank, notes.join(QLatin1Char(' ')));
}

void StepAnatomyView::fillStragglers() {
    const QList<anatomy::Straggler>& rows = m_summaryData.stragglers;
    m_stragglers->setRowCount(int(rows.size()));
    const double steps = double(m_summaryData.steps.size());
    for (int r = 0; r < rows.size(); ++r) {
        const int rank = rows[r].rank;
        m_stragglers->setItem(r, 0, numberItem(QString::number(rank)));
        m_stragglers->setItem(r, 1, numberItem(m_ranksPerNode > 0 ? QString::number(rank / m_ranksPerNode) : QString()));
        m_stragglers->setItem(r, 2, numberItem(m_ranksPerNode > 0 ? QString::number(rank % m_ranksPerNode) : QString()));
        m_stragglers->setItem(r, 3, numberItem(QString::number(rows[r].timesBusiest)));
        m_stragglers->setItem(r, 4, numberItem(steps > 0 ? percent(rows[r].timesBusiest / steps) : QString()));
    }
    // Node and local rank only where the run's config record gives the accelerators per node.
    m_stragglers->setColumnHidden(1, m_ranksPerNode <= 0);
    m_stragglers->setColumnHidden(2, m_ranksPerNode <= 0);
    m_stragglers->resizeRowsToContents();
    fitHeight(m_stragglers, 8);
}

void StepAnatomyView::fillA2a(const anatomy::A2aBaselineReport& report) {
    m_a2aCaption->setText(report.cluster.isEmpty()
                              ? tr("The training's all-to-all against stage 1's measured baseline (the run names "
                                   "no cluster)")
                              : tr("The training's all-to-all against stage 1's measured baseline on %1")
                                    .arg(report.cluster));
    const auto kindText = [](const QString& kind) {
        if (kind == QLatin1String("all_to_all"))
            return tr("all-to-all");
        if (kind == QLatin1String("dispatch"))
            return tr("dispatch");
        if (kind == QLatin1String("combine"))
            return tr("combine");
        if (kind == QLatin1String("sendrecv"))
            return tr("send/receive");
        return kind;
    };
    m_a2a->setRowCount(int(report.rows.size()));
    for (int r = 0; r < report.rows.size(); ++r) {
        const anatomy::A2aVsBaseline& row = report.rows[r];
        m_a2a->setItem(r, 0, new QTableWidgetItem(kindText(row.kind)));
        m_a2a->setItem(r, 1, numberItem(units::formatBytes(double(row.bytesPerRank))));
        m_a2a->setItem(r, 2, numberItem(QString::number(row.calls)));
        m_a2a->setItem(r, 3, numberItem(units::formatBandwidth(row.trainingGBps * 1e9)));
        auto* baseline = numberItem(row.baselineGBps ? units::formatBandwidth(*row.baselineGBps * 1e9)
                                                     : QStringLiteral("—"));
        if (!row.baselineRun.isEmpty())
            baseline->setToolTip(tr("Measured by %1").arg(row.baselineRun));
        m_a2a->setItem(r, 4, baseline);
        m_a2a->setItem(r, 5, numberItem(row.ratio ? percent(*row.ratio) : QStringLiteral("—")));
        QString note = row.note;
        if (!row.baselineRun.isEmpty() && row.baselineGBps)
            note += (note.isEmpty() ? QString() : QStringLiteral(" · ")) + tr("measured by %1").arg(row.baselineRun);
        if (row.splitsCut)
            note += (note.isEmpty() ? QString() : QStringLiteral(" · ")) +
                    tr("some calls' split sizes were cut in the trace");
        auto* noteItem = new QTableWidgetItem(note);
        noteItem->setToolTip(note);
        m_a2a->setItem(r, 6, noteItem);
    }
    if (report.rows.isEmpty()) {
        m_a2aCaption->setText(m_a2aCaption->text() + QStringLiteral(": ") +
                              tr("the traces hold no all-to-all call."));
    }
    m_a2a->setVisible(!report.rows.isEmpty());
    m_a2a->resizeRowsToContents(); // one line each (no word wrap)
    fitHeight(m_a2a, 10);
}

} // namespace moewb::gui
