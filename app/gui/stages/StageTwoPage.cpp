#include "StagePages.h"
#include "StageWidgets.h"

#include "plots/PlotView.h"
#include <qcustomplot.h>
#include "plotspec/StagePlots.h"
#include "record/Comparability.h"
#include "record/JsonValueText.h"
#include "record/RecordFields.h"
#include "store/ProjectStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace moewb::gui {

namespace {
std::optional<double> tps(const stages::ThroughputSummary& t) {
    return t.tokensPerSecondPerGpu;
}
} // namespace

StageTwoPage::StageTwoPage(QWidget* parent) : StagePage(2, parent) {}

QString StageTwoPage::titleText() const {
    return tr("Stage 2 · Dense control");
}

QString StageTwoPage::questionText() const {
    return tr("Does the MoE beat a dense model of similar activated size, trained like for like, in throughput or "
              "validation loss?");
}

QString StageTwoPage::teachingText() const {
    return tr("<p>An MoE has many more parameters than it activates per token. The fair control is a "
              "<b>dense model with about the same activated parameters</b> (within the tolerance), trained on "
              "the same batch, sequence length, optimizer, schedule, token budget and validation set, with "
              "throughput counted the same way (warm-up steps excluded).</p>"
              "<p>Throughput is tokens/s per GPU over the steady phase; losses are read at <b>equal tokens</b>. "
              "<b>Stop</b> when the MoE is slower <i>and</i> its validation loss is not better: adding experts "
              "will not fix that — adjust the configuration first.</p>");
}

bool StageTwoPage::takesRun(const store::ProjectStore& project, const store::RunRow& run) const {
    if (run.stepCount == 0)
        return false;
    const QStringList names = project.stepMetricNames(run.id);
    return names.contains(QStringLiteral("tokens_per_s_per_gpu")) ||
           names.contains(QStringLiteral("elapsed_ms_per_iter"));
}

void StageTwoPage::buildResults(QVBoxLayout* results) {
    auto* pairsTitle = sectionLabel(tr("MoE against dense, at equal tokens"), this);
    m_pairs = new ResultTable({tr("group"), tr("MoE run"), tr("dense run"), tr("MoE tokens/s/GPU"),
                               tr("dense tokens/s/GPU"), tr("MoE train loss"), tr("dense train loss"),
                               tr("MoE val loss"), tr("dense val loss"), tr("at tokens"),
                               tr("activated params diff"), tr("result")},
                              this);
    m_pairs->setObjectName(QStringLiteral("stage2PairTable"));

    auto* lossControls = new QHBoxLayout;
    lossControls->addWidget(sectionLabel(tr("Loss curves"), this));
    lossControls->addSpacing(20);
    auto* lossXLabel = new QLabel(tr("x axis:"), this);
    lossControls->addWidget(lossXLabel);
    m_lossX = new QComboBox(this);
    lossXLabel->setBuddy(m_lossX);
    m_lossX->setObjectName(QStringLiteral("lossXAxis"));
    m_lossX->addItem(tr("tokens"), int(plots::TrainingX::Tokens));
    m_lossX->addItem(tr("steps"), int(plots::TrainingX::Steps));
    lossControls->addWidget(m_lossX);
    lossControls->addSpacing(20);
    m_smoothingLabel = new QLabel(this);
    m_smoothing = new QSlider(Qt::Horizontal, this);
    m_smoothing->setObjectName(QStringLiteral("lossSmoothing"));
    m_smoothing->setRange(0, 99);
    m_smoothing->setValue(60);
    m_smoothing->setMaximumWidth(200);
    lossControls->addWidget(m_smoothingLabel);
    lossControls->addWidget(m_smoothing);
    lossControls->addStretch(1);
    results->addLayout(lossControls);

    // What decides first (the stage asks: faster, or lower validation loss?): the loss
    // zoomed on the last 30 % of training, where a gap of a few hundredths shows (its y
    // range fitted there), beside the throughput; the whole curves under them.
    auto* grid = new QGridLayout;
    m_lossTail = new plots::PlotView(this);
    m_lossTail->setObjectName(QStringLiteral("stage2LossTailPlot"));
    m_lossTail->setMinimumHeight(280);
    m_lossTail->customPlot()->setProperty("moewbNoLegend", true); // the whole curves below have it
    m_throughput = new plots::PlotView(this);
    m_throughput->setObjectName(QStringLiteral("stage2ThroughputPlot"));
    m_throughput->setMinimumHeight(280);
    m_loss = new plots::PlotView(this);
    m_loss->setObjectName(QStringLiteral("stage2LossPlot"));
    m_loss->setMinimumHeight(280);
    // Below the first screen, its legend of every run's curves under it: taller than the
    // row above (StagePage::fitPlotHeights), so the data keeps at least half of it.
    m_loss->setProperty("moewbHeightFactor", 1.5);
    // The whole loss curves take the full width (their legend names every run's train
    // and validation curve: in columns below, it leaves the data its room).
    grid->addWidget(m_lossTail, 0, 0);
    grid->addWidget(m_throughput, 0, 1);
    grid->addWidget(m_loss, 1, 0, 1, 2);
    results->addLayout(grid);
    results->addWidget(pairsTitle);
    results->addWidget(m_pairs);

    auto* configRow = new QHBoxLayout;
    configRow->addWidget(sectionLabel(tr("Config records compared"), this));
    m_allFields = new QCheckBox(tr("Show all fields (default: only those that differ)"), this);
    m_allFields->setObjectName(QStringLiteral("allFieldsToggle"));
    configRow->addSpacing(20);
    configRow->addWidget(m_allFields);
    configRow->addStretch(1);
    results->addLayout(configRow);
    m_config = new ResultTable({tr("field")}, this);
    m_config->setObjectName(QStringLiteral("stage2ConfigTable"));
    results->addWidget(m_config);

    connect(m_allFields, &QCheckBox::toggled, this, [this] {
        fillConfigTable();
        relayoutNow(); // the table grows or shrinks by many rows
    });
    connect(m_lossX, &QComboBox::currentIndexChanged, this, &StageTwoPage::replotLoss);
    connect(m_smoothing, &QSlider::valueChanged, this, &StageTwoPage::replotLoss);
    clearResults();
}

void StageTwoPage::clearResults() {
    m_runs.clear();
    m_pairs->beginRows();
    m_pairs->endRows();
    fillConfigTable();
    replotLoss();
    m_throughput->setSpec(plots::PlotSpec{});
}

void StageTwoPage::showResults(const stages::StageEvaluation& e) {
    const stages::StageTwoResult* r = e.stageTwo();
    if (!r)
        return;
    m_runs = e.stageTwoInputs;
    m_pairs->beginRows();
    for (const stages::StageTwoPair& p : r->pairs) {
        QString result = p.stops ? tr("STOP") : p.mismatches.isEmpty() ? tr("ok") : tr("not like for like");
        auto* resultCell = textCell(result);
        if (!p.mismatches.isEmpty())
            resultCell->setToolTip(p.mismatches.join(QLatin1Char('\n')));
        m_pairs->addRow({textCell(p.groupTitle), textCell(p.moeRun), textCell(p.denseRun),
                         integerCell(tps(p.moeThroughput)), integerCell(tps(p.denseThroughput)),
                         numberCell(p.moeTrainLoss.value, 3), numberCell(p.denseTrainLoss.value, 3),
                         numberCell(p.moeValLoss.value, 3), numberCell(p.denseValLoss.value, 3),
                         numberCell(p.comparedAtTokens, 0), percentCell(p.activatedParamsDiff), resultCell});
    }
    m_pairs->endRows();
    fillConfigTable();
    replotLoss();
    m_throughput->setSpec(plots::stageTwoThroughputPlot(m_runs));
}

void StageTwoPage::fillConfigTable() {
    QList<record::ConfigRecord> records;
    QStringList headers{tr("field")};
    for (const stages::TrainingRunInput& r : m_runs) {
        records << r.record;
        headers << r.runName;
    }
    QStringList fields;
    if (m_allFields->isChecked()) {
        for (const record::RecordField& f : record::recordFields())
            fields << f.path;
    } else {
        fields = record::differingFields(records);
    }
    m_config->setColumnCount(int(headers.size()));
    m_config->setHorizontalHeaderLabels(headers);
    m_config->beginRows();
    QList<QJsonObject> json;
    for (const record::ConfigRecord& r : records)
        json << r.toJson();
    for (const QString& f : fields) {
        QList<QTableWidgetItem*> cells{textCell(f)};
        for (const QJsonObject& j : json) {
            const QJsonValue v = record::recordFieldValue(j, f);
            QTableWidgetItem* cell = v.isDouble() ? numberCell(v.toDouble(), v.toDouble() == std::floor(v.toDouble()) ? 0 : 3)
                                                  : textCell(v.isUndefined() || v.isNull() ? QStringLiteral("–")
                                                             : v.isString() ? v.toString()
                                                                            : record::describeJsonValue(v));
            cells << cell;
        }
        m_config->addRow(cells);
    }
    m_config->endRows();
}

void StageTwoPage::replotLoss() {
    const double smoothing = m_smoothing->value() / 100.0;
    m_smoothingLabel->setText(tr("Smoothing: %1 (debiased EMA)").arg(smoothing, 0, 'f', 2));
    if (m_runs.isEmpty()) {
        m_loss->setSpec(plots::PlotSpec{});
        m_lossTail->setSpec(plots::PlotSpec{});
        return;
    }
    const auto x = plots::TrainingX(m_lossX->currentData().toInt());
    m_loss->setSpec(plots::stageTwoLossPlot(m_runs, x, smoothing));
    m_lossTail->setSpec(plots::stageTwoLossTailPlot(m_runs, x, smoothing)); // as the report draws it
}

} // namespace moewb::gui
