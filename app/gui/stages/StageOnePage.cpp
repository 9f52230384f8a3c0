#include "StageOneRunPanel.h"
#include "StagePages.h"
#include "StageWidgets.h"

#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"
#include "common/Units.h"
#include "store/ProjectStore.h"
#include "traffic/RoutingComparison.h"

#include <QGridLayout>
#include <QLabel>
#include <QFutureWatcher>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace moewb::gui {

QLabel* sectionLabel(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    l->setFont(f);
    return l;
}

namespace {

// Reads every probe run's samples, so it runs off the GUI thread on a store of its own
// (as the evaluation does, StagePage.h).
QList<traffic::RoutingPair> findPairsInWorker(const QString& path) {
    auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
    if (!opened)
        return {};
    const store::ProjectStore& project = **opened;
    return traffic::findRoutingPairs(project, project.runs());
}

} // namespace

struct StageOnePage::RoutingState {
    QFutureWatcher<QList<traffic::RoutingPair>>* watcher = nullptr;
    bool again = false;
    QString path; // the project the running comparison reads
};

StageOnePage::StageOnePage(QWidget* parent)
    : StagePage(1, parent), m_routingState(std::make_shared<RoutingState>()) {}

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

void StageOnePage::resizeEvent(QResizeEvent* event) {
    StagePage::resizeEvent(event);
    if (!m_plotsGrid)
        return;
    constexpr int wide = 1400; // each plot then ~680 px: two legend columns
    const bool sideBySide = width() >= wide;
    int row = 0, column = 0, rowSpan = 0, columnSpan = 0;
    m_plotsGrid->getItemPosition(m_plotsGrid->indexOf(m_latency), &row, &column, &rowSpan, &columnSpan);
    if (sideBySide == (column == 1))
        return;
    m_plotsGrid->removeWidget(m_latency);
    m_plotsGrid->addWidget(m_latency, sideBySide ? 0 : 1, sideBySide ? 1 : 0);
    relayoutNow();
}

void StageOnePage::buildResults(QVBoxLayout* results) {
    auto* plotsGrid = new QGridLayout;
    m_bandwidth = new plots::PlotView(this);
    m_bandwidth->setObjectName(QStringLiteral("stage1BandwidthPlot"));
    m_latency = new plots::PlotView(this);
    m_latency->setObjectName(QStringLiteral("stage1LatencyPlot"));
    m_bandwidth->setMinimumHeight(280);
    m_latency->setMinimumHeight(280);
    plotsGrid->addWidget(m_bandwidth, 0, 0);
    plotsGrid->addWidget(m_latency, 1, 0); // beside it on a wide page (resizeEvent)
    m_plotsGrid = plotsGrid;
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

    m_routingTitle = sectionLabel(tr("Measured routing against uniform traffic"), this);
    results->addWidget(m_routingTitle);
    m_routingSummary = new QLabel(this);
    m_routingSummary->setObjectName(QStringLiteral("stage1RoutingSummary"));
    m_routingSummary->setWordWrap(true);
    results->addWidget(m_routingSummary);
    m_routing = new ResultTable({tr("routed run"), tr("routing"), tr("uniform run"), tr("size (B)"),
                                 tr("uniform (µs, median)"), tr("measured routing (µs, median)"), tr("ratio (×)")},
                                this);
    m_routing->setObjectName(QStringLiteral("stage1RoutingTable"));
    results->addWidget(m_routing);
    m_routingState->watcher = new QFutureWatcher<QList<traffic::RoutingPair>>(this);
    connect(m_routingState->watcher, &QFutureWatcher<QList<traffic::RoutingPair>>::finished, this, [this] {
        if (m_routingState->again) {
            compareRouting();
            return;
        }
        if (!project() || project()->path() != m_routingState->path)
            return; // the project changed while it ran
        const QList<traffic::RoutingPair> pairs = m_routingState->watcher->result();
        QStringList summary;
        m_routing->beginRows();
        for (const traffic::RoutingPair& pair : pairs) {
            for (const traffic::SizeComparison& c : pair.sizes)
                m_routing->addRow({textCell(pair.routed.name), textCell(pair.origin), textCell(pair.uniform.name),
                                   numberCell(double(c.bytesPerRank), 0), numberCell(c.uniformMedianUs, 2),
                                   numberCell(c.measuredMedianUs, 2), ratioCell(c.ratio)});
            const traffic::SizeComparison& largest = pair.sizes.last();
            summary << tr("At %1 per rank, the routing of %2 (run %3) makes the all-to-all %4 as long as a uniform "
                          "one (run %5) on this cluster.")
                           .arg(units::formatBytes(double(largest.bytesPerRank)), pair.origin, pair.routed.name,
                                units::formatRatio(largest.ratio), pair.uniform.name);
        }
        m_routing->endRows();
        m_routingSummary->setText(summary.join(QLatin1Char('\n')));
        for (QWidget* w : {static_cast<QWidget*>(m_routingTitle), static_cast<QWidget*>(m_routingSummary),
                           static_cast<QWidget*>(m_routing)})
            w->setVisible(!pairs.isEmpty());
        relayoutNow();
        emit routingCompared();
    });
    clearResults();
}

bool StageOnePage::isComparingRouting() const {
    return m_routingState->watcher->isRunning();
}

void StageOnePage::compareRouting() {
    if (!project())
        return;
    if (m_routingState->watcher->isRunning()) {
        m_routingState->again = true;
        return;
    }
    m_routingState->again = false;
    m_routingState->path = project()->path();
    m_routingState->watcher->setFuture(QtConcurrent::run(findPairsInWorker, m_routingState->path));
}

void StageOnePage::clearResults() {
    m_sizes->beginRows();
    m_sizes->endRows();
    m_nodes->beginRows();
    m_nodes->endRows();
    m_nodes->hide();
    m_nodesTitle->hide();
    m_routing->beginRows();
    m_routing->endRows();
    m_routing->hide();
    m_routingTitle->hide();
    m_routingSummary->hide();
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
                             ratioCell(row.p99OverMedian), percentCell(row.cv)});
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
    compareRouting();
}

} // namespace moewb::gui
