#include "StagePages.h"
#include "StageWidgets.h"

#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"
#include "store/ProjectStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace moewb::gui {

StageThreePage::StageThreePage(QWidget* parent) : StagePage(3, parent) {}

QString StageThreePage::titleText() const {
    return tr("Stage 3 · Expert load and loss");
}

QString StageThreePage::questionText() const {
    return tr("Do the experts share the work — no layer persistently overloaded, few tokens dropped — and what "
              "does balancing cost in loss?");
}

QString StageThreePage::teachingText() const {
    return tr("<p>The router sends each token to its top-k experts. When a few experts get most tokens, the "
              "GPUs holding them set the step time (the <b>busiest device</b>), and with a capacity limit "
              "the overflow is <b>dropped</b> and never trained on.</p>"
              "<p>The <b>load ratio</b> of a layer at a step is max ÷ mean tokens per expert (1 = perfectly "
              "even). Over the last W steps (the window), the gate counts for each layer how often the ratio is "
              "above the limit; it <b>stops</b> when the worst layer is above the limit in more than the allowed "
              "fraction of the window, or when the drop rate over the window is above its limit.</p>"
              "<p>Changing the load-balancing method (aux loss, its coefficient, bias-based balancing) changes "
              "the model: stage 2's comparison then no longer describes it and is marked <b>stale</b>.</p>");
}

bool StageThreePage::takesRun(const store::ProjectStore&, const store::RunRow& run) const {
    return run.expertLoadBlocks > 0;
}

void StageThreePage::buildResults(QVBoxLayout* results) {
    m_staleNotice = new QLabel(this);
    m_staleNotice->setObjectName(QStringLiteral("staleNotice"));
    m_staleNotice->setWordWrap(true);
    m_staleNotice->setFrameShape(QFrame::StyledPanel);
    m_staleNotice->setMargin(8);
    m_staleNotice->hide();
    results->addWidget(m_staleNotice);

    results->addWidget(sectionLabel(tr("Per run, over the window"), this));
    m_summary = new ResultTable({tr("run"), tr("experts"), tr("layers"), tr("window steps"), tr("worst layer"),
                                 tr("steps above (fraction)"), tr("max load ratio (× mean)"),
                                 tr("mean load ratio (× mean)"), tr("drop rate (%)"), tr("drop rate source"),
                                 tr("busiest-device share (%)"), tr("loss")},
                                this);
    m_summary->setObjectName(QStringLiteral("stage3SummaryTable"));
    results->addWidget(m_summary);

    auto* controls = new QHBoxLayout;
    auto* runLabel = new QLabel(tr("Run:"), this);
    controls->addWidget(runLabel);
    m_run = new QComboBox(this);
    runLabel->setBuddy(m_run);
    m_run->setObjectName(QStringLiteral("stage3Run"));
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    controls->addWidget(m_run);
    controls->addSpacing(16);
    auto* layersLabel = new QLabel(tr("Also plot layers:"), this);
    controls->addWidget(layersLabel);
    m_layers = new QLineEdit(this);
    layersLabel->setBuddy(m_layers);
    m_layers->setObjectName(QStringLiteral("stage3Layers"));
    m_layers->setPlaceholderText(tr("e.g. 0, 5"));
    m_layers->setMaximumWidth(120);
    controls->addWidget(m_layers);
    controls->addStretch(1);
    results->addLayout(controls);

    m_ratio = new plots::PlotView(this);
    m_ratio->setObjectName(QStringLiteral("stage3LoadRatioPlot"));
    m_ratio->setMinimumHeight(320);
    results->addWidget(m_ratio);

    auto* heatControls = new QHBoxLayout;
    auto* stepLabel = new QLabel(tr("Step:"), this);
    heatControls->addWidget(stepLabel);
    m_stepSlider = new QSlider(Qt::Horizontal, this);
    stepLabel->setBuddy(m_stepSlider);
    m_stepSlider->setObjectName(QStringLiteral("stage3StepSlider"));
    m_stepSlider->setMinimumWidth(200);
    m_step = new QSpinBox(this);
    m_step->setObjectName(QStringLiteral("stage3Step"));
    m_step->setRange(0, 0);
    heatControls->addWidget(m_stepSlider, 1);
    heatControls->addWidget(m_step);
    heatControls->addSpacing(16);
    auto* layerLabel = new QLabel(tr("Layer:"), this);
    heatControls->addWidget(layerLabel);
    m_layer = new QSpinBox(this);
    layerLabel->setBuddy(m_layer);
    m_layer->setObjectName(QStringLiteral("stage3Layer"));
    heatControls->addWidget(m_layer);
    m_relative = new QCheckBox(tr("× mean of the layer"), this);
    m_relative->setChecked(true);
    heatControls->addWidget(m_relative);
    results->addLayout(heatControls);

    auto* grid = new QGridLayout;
    m_layerExpert = new plots::PlotView(this);
    m_layerExpert->setObjectName(QStringLiteral("stage3LayerExpertHeatmap"));
    m_expertStep = new plots::PlotView(this);
    m_expertStep->setObjectName(QStringLiteral("stage3ExpertStepHeatmap"));
    m_dropLoss = new plots::PlotView(this);
    m_dropLoss->setObjectName(QStringLiteral("stage3DropLossPlot"));
    m_busiest = new plots::PlotView(this);
    m_busiest->setObjectName(QStringLiteral("stage3BusiestPlot"));
    for (auto* v : {m_layerExpert, m_expertStep, m_dropLoss, m_busiest})
        v->setMinimumHeight(320);
    grid->addWidget(m_layerExpert, 0, 0);
    grid->addWidget(m_expertStep, 0, 1);
    grid->addWidget(m_dropLoss, 1, 0);
    grid->addWidget(m_busiest, 1, 1);
    results->addLayout(grid);

    connect(m_run, &QComboBox::currentIndexChanged, this, &StageThreePage::runChosen);
    connect(m_layers, &QLineEdit::editingFinished, this, &StageThreePage::replotRatio);
    connect(m_stepSlider, &QSlider::valueChanged, this, [this](int i) {
        if (i >= 0 && i < m_steps.size() && m_step->value() != m_steps[i])
            m_step->setValue(int(m_steps[i]));
    });
    connect(m_step, &QSpinBox::valueChanged, this, [this](int step) {
        // Snap to the nearest step with load data.
        const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), qint64(step));
        const int i = it == m_steps.end() ? int(m_steps.size()) - 1 : int(it - m_steps.begin());
        if (i >= 0 && m_stepSlider->value() != i) {
            QSignalBlocker b(m_stepSlider);
            m_stepSlider->setValue(i);
        }
        replotHeatmaps();
    });
    connect(m_layer, &QSpinBox::valueChanged, this, &StageThreePage::replotHeatmaps);
    connect(m_relative, &QCheckBox::toggled, this, &StageThreePage::replotHeatmaps);
    clearResults();
}

void StageThreePage::clearResults() {
    m_eval.reset();
    m_steps.clear();
    m_summary->beginRows();
    m_summary->endRows();
    m_staleNotice->hide();
    {
        QSignalBlocker b(m_run);
        m_run->clear();
    }
    for (auto* v : {m_ratio, m_layerExpert, m_expertStep, m_dropLoss, m_busiest})
        v->setSpec(plots::PlotSpec{});
}

void StageThreePage::showResults(const stages::StageEvaluation& e) {
    const stages::StageThreeResult* r = e.stageThree();
    if (!r)
        return;
    m_eval = e;
    m_limit = 0.0;
    for (const stages::ThresholdUse& t : e.verdict.thresholds)
        if (t.key == QLatin1String("stage3.load_ratio_max"))
            m_limit = t.value;
    if (m_limit <= 0.0)
        m_limit = stages::ThresholdSet().get(QStringLiteral("stage3.load_ratio_max")).value;

    m_summary->beginRows();
    for (const stages::StageThreeRunSummary& s : r->runs) {
        std::optional<double> drop = s.dropRate ? std::optional<double>(*s.dropRate * 100.0) : std::nullopt;
        std::optional<double> share =
            s.busiestDeviceShare ? std::optional<double>(*s.busiestDeviceShare * 100.0) : std::nullopt;
        auto* shareCell = numberCell(share, 1);
        if (s.busiestDeviceShare)
            shareCell->setText(shareCell->text() + (s.busiestDeviceEstimated ? tr(" (estimated)") : tr(" (measured)")));
        m_summary->addRow({textCell(s.runName), numberCell(s.experts, 0), numberCell(s.layers, 0),
                           numberCell(double(s.windowSteps), 0),
                           s.worstLayer >= 0 ? numberCell(s.worstLayer, 0) : numberCell(std::nullopt, 0),
                           numberCell(s.worstLayerFractionAbove, 3), numberCell(s.windowMaxRatio, 2),
                           numberCell(s.windowMeanRatio, 2), numberCell(drop, 3),
                           textCell(stages::dropRateSourceText(s.dropSource)), shareCell,
                           numberCell(s.windowLoss, 3)});
    }
    m_summary->endRows();

    m_staleNotice->setVisible(r->staleness.stale);
    m_staleNotice->setText(tr("⚠ Stage 2 is stale: %1 Stage 2 must be re-run before stages 3 and 4 count.")
                               .arg(r->staleness.reason));

    {
        QSignalBlocker b(m_run);
        m_run->clear();
        for (const stages::ExpertLoadRunInput& in : e.stageThreeInputs)
            m_run->addItem(in.runName);
        // Start with the run that has the worst layer.
        int worst = 0;
        double worstFraction = -1.0;
        for (int i = 0; i < r->runs.size(); ++i)
            if (r->runs[i].worstLayerFractionAbove > worstFraction) {
                worstFraction = r->runs[i].worstLayerFractionAbove;
                worst = m_run->findText(r->runs[i].runName);
            }
        m_run->setCurrentIndex(qMax(0, worst));
    }
    m_dropLoss->setSpec(plots::dropVsLossPlot(r->runs, e.stageThreeInputs));
    m_busiest->setSpec(plots::busiestDevicePlot(r->runs));
    runChosen();
}

void StageThreePage::runChosen() {
    if (!m_eval)
        return;
    const int i = m_run->currentIndex();
    if (i < 0 || i >= m_eval->stageThreeInputs.size())
        return;
    const stages::ExpertLoadRunInput& in = m_eval->stageThreeInputs[i];
    m_steps.clear();
    int maxLayer = 0;
    for (const store::ExpertLoadBlock& b : in.blocks) {
        if (m_steps.isEmpty() || m_steps.last() != b.step)
            m_steps << b.step;
        maxLayer = qMax(maxLayer, b.layer);
    }
    int worstLayer = 0;
    for (const stages::StageThreeRunSummary& s : m_eval->stageThree()->runs)
        if (s.runName == in.runName && s.worstLayer >= 0)
            worstLayer = s.worstLayer;
    QSignalBlocker b1(m_stepSlider), b2(m_step), b3(m_layer);
    m_stepSlider->setRange(0, qMax(0, int(m_steps.size()) - 1));
    m_stepSlider->setValue(qMax(0, int(m_steps.size()) - 1));
    m_step->setRange(m_steps.isEmpty() ? 0 : int(m_steps.first()), m_steps.isEmpty() ? 0 : int(m_steps.last()));
    m_step->setValue(m_steps.isEmpty() ? 0 : int(m_steps.last()));
    m_layer->setRange(0, maxLayer);
    m_layer->setValue(worstLayer);
    replotRatio();
    replotHeatmaps();
}

void StageThreePage::replotRatio() {
    if (!m_eval || !m_eval->stageThree())
        return;
    plots::PlotSpec spec = plots::loadRatioPlot(m_eval->stageThree()->runs, m_limit);
    const int i = m_run->currentIndex();
    if (i >= 0 && i < m_eval->stageThreeInputs.size()) {
        const stages::ExpertLoadRunInput& in = m_eval->stageThreeInputs[i];
        int colour = int(spec.series.size());
        for (const QString& part : m_layers->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int layer = part.trimmed().toInt(&ok);
            if (!ok)
                continue;
            plots::Series s;
            s.name = tr("%1 layer %2").arg(in.runName).arg(layer);
            s.run = in.runName;
            s.colour = colour++;
            for (const store::ExpertLoadBlock& b : in.blocks) {
                if (b.layer != layer || b.tokensPerExpert.isEmpty())
                    continue;
                double sum = 0.0, mx = 0.0;
                for (quint32 c : b.tokensPerExpert) {
                    sum += c;
                    mx = std::max(mx, double(c));
                }
                if (sum <= 0.0)
                    continue;
                s.x << double(b.step);
                s.y << mx * double(b.tokensPerExpert.size()) / sum;
            }
            if (!s.x.isEmpty())
                spec.series << s;
        }
    }
    m_ratio->setSpec(spec);
}

void StageThreePage::replotHeatmaps() {
    if (!m_eval)
        return;
    const int i = m_run->currentIndex();
    if (i < 0 || i >= m_eval->stageThreeInputs.size())
        return;
    const stages::ExpertLoadRunInput& in = m_eval->stageThreeInputs[i];
    const int sliderIndex = m_stepSlider->value();
    const qint64 step = sliderIndex >= 0 && sliderIndex < m_steps.size() ? m_steps[sliderIndex] : m_step->value();
    m_layerExpert->setSpec(plots::layerExpertHeatmap(in, step, m_relative->isChecked()));
    m_expertStep->setSpec(plots::expertStepHeatmap(in, m_layer->value(), m_relative->isChecked()));
}

} // namespace moewb::gui
