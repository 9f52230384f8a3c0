#include "StagePages.h"
#include "StageWidgets.h"

#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace moewb::gui {

StageFourPage::StageFourPage(QWidget* parent) : StagePage(4, parent) {}

QString StageFourPage::titleText() const {
    return tr("Stage 4 · Transfer boundary");
}

QString StageFourPage::questionText() const {
    return tr("Do the conclusions carry over to the target cluster, and under which conditions do they hold?");
}

QString StageFourPage::teachingText() const {
    return tr("<p>Everything decided so far was measured on one cluster. Another cluster — other GPUs, "
              "another fabric or topology, other node counts — changes the all-to-all cost, and with it the "
              "MoE's advantage.</p><p>The target cluster's stage 1 baseline is compared with the source's, "
              "size by size. <b>Stop</b> when a size differs by more than the threshold: the conclusions are "
              "then reference only, not for budget decisions — re-run stages 2–3 on the target. The "
              "<b>applicability statement</b> lists the conditions (node counts, topology, experts, "
              "parallelism) under which the conclusions hold.</p>");
}

bool StageFourPage::takesRun(const store::ProjectStore&, const store::RunRow& run) const {
    return run.commSampleCount > 0;
}

void StageFourPage::buildInputs(QVBoxLayout* inputs) {
    auto* form = new QFormLayout;
    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("stage4Source"));
    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("stage4Target"));
    form->addRow(tr("Source baseline (where the conclusions were drawn):"), m_source);
    form->addRow(tr("Target baseline (where they should apply):"), m_target);
    inputs->addLayout(form);
}

void StageFourPage::refreshInputs() {
    const QString source = m_source->currentData().toString();
    const QString target = m_target->currentData().toString();
    for (QComboBox* box : {m_source, m_target}) {
        box->clear();
        box->addItem(tr("automatic (latest baseline of each cluster)"), QString());
    }
    if (project())
        for (const store::RunRow& r : project()->runs())
            if (r.commSampleCount > 0)
                for (QComboBox* box : {m_source, m_target})
                    box->addItem(r.clusterName.isEmpty() ? r.name : tr("%1 (cluster %2)").arg(r.name, r.clusterName),
                                 r.name);
    if (int i = m_source->findData(source); i >= 0)
        m_source->setCurrentIndex(i);
    if (int i = m_target->findData(target); i >= 0)
        m_target->setCurrentIndex(i);
}

QStringList StageFourPage::selectedRunNames() const {
    const QString s = m_source->currentData().toString();
    const QString t = m_target->currentData().toString();
    if (s.isEmpty() || t.isEmpty())
        return {};
    return {s, t};
}

void StageFourPage::buildResults(QVBoxLayout* results) {
    auto* grid = new QGridLayout;
    m_baselines = new plots::PlotView(this);
    m_baselines->setObjectName(QStringLiteral("stage4BaselinePlot"));
    m_ratio = new plots::PlotView(this);
    m_ratio->setObjectName(QStringLiteral("stage4RatioPlot"));
    m_baselines->setMinimumHeight(280);
    m_ratio->setMinimumHeight(280);
    grid->addWidget(m_baselines, 0, 0);
    grid->addWidget(m_ratio, 0, 1);
    results->addWidget(sectionLabel(tr("Source and target baselines"), this));
    results->addLayout(grid);
    results->addWidget(sectionLabel(tr("Per message size"), this));
    m_rows = new ResultTable({tr("size (B)"), tr("source (GB/s)"), tr("target (GB/s)"), tr("target ÷ source"),
                              tr("difference"), tr("bandwidth"), tr("result")},
                             this);
    m_rows->setObjectName(QStringLiteral("stage4SizeTable"));
    results->addWidget(m_rows);
    results->addWidget(sectionLabel(tr("Applicability — the conclusions hold under"), this));
    m_applicability = new QLabel(this);
    m_applicability->setObjectName(QStringLiteral("applicability"));
    m_applicability->setWordWrap(true);
    m_applicability->setTextInteractionFlags(Qt::TextSelectableByMouse);
    results->addWidget(m_applicability);
    clearResults();
}

void StageFourPage::clearResults() {
    m_rows->beginRows();
    m_rows->endRows();
    m_applicability->setText(tr("Evaluate to state the conditions."));
    m_baselines->setSpec(plots::PlotSpec{});
    m_ratio->setSpec(plots::PlotSpec{});
}

void StageFourPage::showResults(const stages::StageEvaluation& e) {
    const stages::StageFourResult* r = e.stageFour();
    if (!r)
        return;
    m_rows->beginRows();
    for (const stages::StageFourSizeRow& row : r->rows)
        m_rows->addRow({numberCell(double(row.bytesPerRank), 0), numberCell(row.sourceBandwidth / 1e9, 2),
                        numberCell(row.targetBandwidth / 1e9, 2),
                        ratioCell(row.sourceBandwidth > 0 ? row.targetBandwidth / row.sourceBandwidth
                                                          : std::optional<double>()),
                        percentCell(row.relativeDiff),
                        textCell(row.effective ? tr("effective") : tr("algbw")),
                        textCell(row.stops ? tr("STOP") : tr("ok"))});
    m_rows->endRows();
    QString text = tr("Source %1, target %2.").arg(r->sourceRun, r->targetRun);
    for (const QString& l : r->applicability)
        text += QStringLiteral("\n• ") + l;
    m_applicability->setText(text);
    const QList<plots::PlotSpec> specs = plots::stageFourPlots(*r);
    for (const plots::PlotSpec& s : specs) {
        if (s.id == QLatin1String("stage4-baselines"))
            m_baselines->setSpec(s);
        else if (s.id == QLatin1String("stage4-ratio"))
            m_ratio->setSpec(s);
    }
}

} // namespace moewb::gui
