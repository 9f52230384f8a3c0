#include "StageOneRunPanel.h"
#include "StagePages.h"
#include "StageWidgets.h"

#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace moewb::gui {

QLabel* sectionLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    l->setFont(f);
    return l;
}

StageOnePage::StageOnePage(QWidget* parent) : StagePage(1, parent) {}

QString StageOnePage::titleText() const {
    return tr("Stage 1 · Communication baseline");
}

QString StageOnePage::questionText() const {
    return tr("Is the cluster's all-to-all fast and stable enough at the training's concurrency to evaluate MoE "
              "on it?");
}

QString StageOnePage::teachingText() const {
    return tr("<p>An MoE layer sends every token to its experts on other GPUs and back (two all-to-alls per "
              "layer, forward and backward). Before comparing models, measure what the network gives: per "
              "message size the <b>median</b> and <b>P99</b> time, the <b>effective bandwidth</b> "
              "(bytes·(n−1)/n ÷ median, nccl-tests' busbw) and the <b>run-to-run variation</b> (CV of the "
              "per-repeat medians) at the concurrency of the training's expert parallelism.</p>"
              "<p><b>Stop</b> when the CV across repeats or P99/median is above the team's threshold: a noisy "
              "or tail-heavy network makes every later timing unreliable. Check network and topology first; "
              "do not start stage 2.</p><p>No thresholds yet? Measure a first round, then use “Suggest "
              "thresholds from this round” (1.5 × the median observed figure).</p>");
}

bool StageOnePage::takesRun(const store::ProjectStore&, const store::RunRow& run) const {
    return run.commSampleCount > 0;
}

void StageOnePage::buildInputs(QVBoxLayout* inputs) {
    m_runPanel = new StageOneRunPanel(this);
    inputs->addWidget(m_runPanel);
    connect(m_runPanel, &StageOneRunPanel::runsSaved, this, [this](const QStringList& runs) {
        emit projectModified();
        emit statusMessage(tr("Sweep finished: %n run(s) saved (%1).", "", int(runs.size()))
                               .arg(runs.join(QStringLiteral(", "))));
        refresh();
    });
    connect(m_runPanel, &StageOneRunPanel::statusMessage, this, &StagePage::statusMessage);
}

void StageOnePage::refreshInputs() {
    m_runPanel->setProject(project());
}

void StageOnePage::buildResults(QVBoxLayout* results) {
    auto* plotsGrid = new QGridLayout;
    m_bandwidth = new plots::PlotView(this);
    m_bandwidth->setObjectName(QStringLiteral("stage1BandwidthPlot"));
    m_latency = new plots::PlotView(this);
    m_latency->setObjectName(QStringLiteral("stage1LatencyPlot"));
    m_bandwidth->setMinimumHeight(320);
    m_latency->setMinimumHeight(320);
    plotsGrid->addWidget(m_bandwidth, 0, 0);
    plotsGrid->addWidget(m_latency, 0, 1);
    results->addWidget(sectionLabel(tr("Bandwidth and latency by message size"), this));
    results->addLayout(plotsGrid);

    results->addWidget(sectionLabel(tr("Per message size (as nccl-tests' alltoall_perf)"), this));
    m_sizes = new ResultTable({tr("run"), tr("nodes"), tr("size (B)"), tr("samples"), tr("repeats"),
                               tr("time (µs)"), tr("P99 (µs)"), tr("algbw (GB/s)"), tr("effbw (GB/s)"),
                               tr("P99/median"), tr("CV")},
                              this);
    m_sizes->setObjectName(QStringLiteral("stage1SizeTable"));
    results->addWidget(m_sizes);

    m_nodesTitle = sectionLabel(tr("Across node counts"), this);
    results->addWidget(m_nodesTitle);
    m_nodes = new ResultTable(
        {tr("size (B)"), tr("nodes"), tr("run"), tr("time (µs)"), tr("bandwidth (GB/s)"), tr("bandwidth kind")}, this);
    m_nodes->setObjectName(QStringLiteral("stage1NodeTable"));
    results->addWidget(m_nodes);
    clearResults();
}

void StageOnePage::clearResults() {
    m_sizes->beginRows();
    m_sizes->endRows();
    m_nodes->beginRows();
    m_nodes->endRows();
    m_nodes->hide();
    m_nodesTitle->hide();
    m_bandwidth->setSpec(plots::PlotSpec{});
    m_latency->setSpec(plots::PlotSpec{});
}

void StageOnePage::showResults(const stages::StageEvaluation& e) {
    const stages::StageOneResult* r = e.stageOne();
    if (!r)
        return;
    m_sizes->beginRows();
    for (const stages::StageOneTable& t : r->tables)
        for (const stages::StageOneSizeRow& row : t.rows)
            m_sizes->addRow({textCell(t.runName),
                             t.nodes ? numberCell(*t.nodes, 0) : textCell(tr("unknown")),
                             numberCell(double(row.bytesPerRank), 0), numberCell(row.samples, 0),
                             numberCell(row.repeats, 0), numberCell(row.medianUs, 2), numberCell(row.p99Us, 2),
                             numberCell(row.algBandwidth / 1e9, 2),
                             row.effectiveBandwidth ? numberCell(*row.effectiveBandwidth / 1e9, 2)
                                                    : numberCell(std::nullopt, 2),
                             numberCell(row.p99OverMedian, 2), row.cv ? numberCell(*row.cv, 3)
                                                                       : numberCell(std::nullopt, 3)});
    m_sizes->endRows();

    m_nodes->beginRows();
    for (const stages::NodeCountPoint& p : r->nodeComparison)
        m_nodes->addRow({numberCell(double(p.bytesPerRank), 0), numberCell(p.nodes, 0), textCell(p.runName),
                         numberCell(p.medianUs, 2), numberCell(p.bandwidth / 1e9, 2),
                         textCell(p.effective ? tr("effective") : tr("algbw (world size unknown)"))});
    m_nodes->endRows();
    m_nodes->setVisible(!r->nodeComparison.isEmpty());
    m_nodesTitle->setVisible(!r->nodeComparison.isEmpty());

    const QList<plots::PlotSpec> specs = plots::stageOnePlots(*r);
    for (const plots::PlotSpec& s : specs) {
        if (s.id == QLatin1String("stage1-bandwidth"))
            m_bandwidth->setSpec(s);
        else if (s.id == QLatin1String("stage1-latency"))
            m_latency->setSpec(s);
    }
}

} // namespace moewb::gui
