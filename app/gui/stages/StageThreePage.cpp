#include "StagePages.h"
#include "StageWidgets.h"

#include "plots/PlotView.h"
#include "plotspec/Smoothing.h"
#include "plotspec/StagePlots.h"
#include "store/ProjectStore.h"
#include "traffic/PlacementWhatIf.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>

namespace moewb::gui {

namespace {

// One run's placement what-if (docs/traffic.md), computed off the GUI thread: reading
// and summing every load count of a long run and rebalancing many layers takes far
// longer than a frame, so the window shows the verdict and plots first.
struct PlacementInput {
    QString runName;
    qint64 runId = 0;
    record::ConfigRecord record;
};

struct PlacementRow {
    QString runName;
    traffic::LayerLoads loads;
    std::optional<traffic::PlacementWhatIf> whatIf;
    QString error;
};

// Runs on a pool thread: its own ProjectStore on the same file (ProjectStore.h). Each
// run's load over all steps comes from the chunks' stored totals. `cancel` is set when
// the page goes away or a new computation replaces this one: it then stops early (the
// window never waits for it on closing) and its rows are not shown.
QList<PlacementRow> computePlacementRows(const QString& path, const QList<PlacementInput>& inputs, int redundant,
                                         std::shared_ptr<const std::atomic<bool>> cancel) {
    QList<PlacementRow> rows;
    const auto cancelled = [&cancel] { return cancel->load(std::memory_order_relaxed); };
    if (cancelled())
        return rows;
    auto store = store::ProjectStore::open(path, store::OpenMode::MustExist);
    for (const PlacementInput& in : inputs) {
        if (cancelled())
            return {};
        PlacementRow row;
        row.runName = in.runName;
        if (!store) {
            row.error = store.error().text();
            rows << row;
            continue;
        }
        auto loads = traffic::sumLoadWindow(**store, in.runId, traffic::StepWindow{}, cancel.get());
        if (cancelled())
            return {};
        if (!loads) {
            row.error = loads.error();
        } else if (!in.record.parallelism.ep) {
            row.loads = std::move(*loads);
            row.error = StageThreePage::tr("its config record has no parallelism.ep");
        } else {
            row.loads = std::move(*loads);
            traffic::PlacementWhatIfOptions options;
            options.gpus = int(*in.record.parallelism.ep);
            options.nodes = traffic::expertParallelNodes(in.record);
            options.redundant = redundant;
            auto w = traffic::placementWhatIf(row.loads, options);
            if (w)
                row.whatIf = std::move(*w);
            else
                row.error = w.error().text;
        }
        rows << row;
    }
    return rows;
}

} // namespace

struct StageThreePage::HeatmapCache {
    QString runName;
    std::optional<qint64> step;
    std::optional<int> layer;
    stages::ExpertLoadRunInput atStep;  // the run's input with the blocks of `step`
    stages::ExpertLoadRunInput ofLayer; // the run's input with the blocks of `layer`
};

struct StageThreePage::PlacementState {
    QFutureWatcher<QList<PlacementRow>>* watcher = nullptr;
    QList<PlacementRow> rows;
    bool again = false; // inputs changed while a computation ran
    // The running computation's cancel flag, shared with it (it may outlive the page).
    std::shared_ptr<std::atomic<bool>> cancel;
    void cancelRunning() {
        if (cancel)
            cancel->store(true, std::memory_order_relaxed);
    }
};

StageThreePage::StageThreePage(QWidget* parent)
    : StagePage(3, parent), m_placement(std::make_shared<PlacementState>()),
      m_heatmapCache(std::make_unique<HeatmapCache>()) {}

StageThreePage::~StageThreePage() {
    // The computation left running stops at its next check; nothing waits for it here.
    m_placement->cancelRunning();
}

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

    auto* summaryTitle = sectionLabel(tr("Per run, over the window"), this);
    m_summary = new ResultTable({tr("run"), tr("experts"), tr("layers"), tr("window steps"), tr("worst layer"),
                                 tr("steps above limit"), tr("max load ratio (max/mean)"),
                                 tr("mean load ratio (max/mean)"), tr("drop rate"), tr("drop rate source"),
                                 tr("busiest-device share"), tr("loss")},
                                this);
    m_summary->setObjectName(QStringLiteral("stage3SummaryTable"));

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
    controls->addSpacing(16);
    auto* smoothingLabel = new QLabel(tr("Smoothing:"), this);
    controls->addWidget(smoothingLabel);
    m_ratioSmoothing = new QDoubleSpinBox(this);
    smoothingLabel->setBuddy(m_ratioSmoothing);
    m_ratioSmoothing->setObjectName(QStringLiteral("stage3RatioSmoothing"));
    m_ratioSmoothing->setRange(0.0, 0.99);
    m_ratioSmoothing->setSingleStep(0.05);
    m_ratioSmoothing->setDecimals(2);
    m_ratioSmoothing->setValue(0.0);
    m_ratioSmoothing->setToolTip(tr("Debiased exponential moving average of the load curves, as TensorBoard's "
                                    "smoothing (0 = the raw curves; the raw curve stays faint beneath)"));
    controls->addWidget(m_ratioSmoothing);
    controls->addStretch(1);

    // The plot first, its controls under it.
    m_ratio = new plots::PlotView(this);
    m_ratio->setObjectName(QStringLiteral("stage3LoadRatioPlot"));
    m_ratio->setMinimumHeight(280);
    results->addWidget(m_ratio);
    results->addLayout(controls);

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
    m_relative->setObjectName(QStringLiteral("stage3Relative"));
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
        v->setMinimumHeight(280);
    grid->addWidget(m_layerExpert, 0, 0);
    grid->addWidget(m_expertStep, 0, 1);
    grid->addWidget(m_dropLoss, 1, 0);
    grid->addWidget(m_busiest, 1, 1);
    results->addLayout(grid);
    // The table with the deciding columns after the plots.
    results->addWidget(summaryTitle);
    results->addWidget(m_summary);

    // What a rebalanced placement would give (docs/traffic.md, "Placement what-if").
    results->addWidget(sectionLabel(tr("What a rebalanced placement would give"), this));
    m_placementNote = new QLabel(
        tr("Predicted from each run's measured expert load over all its steps: the busiest GPU's share of the "
           "routed tokens with today's contiguous placement (expert e on GPU e ÷ (experts ÷ EP)) and after "
           "DeepSeek EPLB's rebalancing, with the record's EP size and the nodes its EP group spans. Even = "
           "1 ÷ EP. Redundant slots replicate the hottest experts (one slot costs one expert's memory per GPU)."),
        this);
    m_placementNote->setObjectName(QStringLiteral("stage3PlacementNote"));
    m_placementNote->setWordWrap(true);
    results->addWidget(m_placementNote);
    auto* placementControls = new QHBoxLayout;
    auto* redundantLabel = new QLabel(tr("Redundant expert slots per GPU:"), this);
    placementControls->addWidget(redundantLabel);
    m_redundant = new QSpinBox(this);
    m_redundant->setObjectName(QStringLiteral("stage3Redundant"));
    m_redundant->setRange(0, 64);
    m_redundant->setValue(1);
    redundantLabel->setBuddy(m_redundant);
    placementControls->addWidget(m_redundant);
    placementControls->addStretch(1);
    m_exportPlacement = new QPushButton(tr("Export placement…"), this);
    m_exportPlacement->setObjectName(QStringLiteral("stage3ExportPlacement"));
    m_exportPlacement->setToolTip(tr("Writes the selected run's placement (phy2log, log2phy, logcnt) and its "
                                     "load (EPLB's weight) as JSON, as moewb placement RUN -o does"));
    m_exportPlacement->setEnabled(false);
    placementControls->addWidget(m_exportPlacement);
    results->addLayout(placementControls);
    m_placementTable = new ResultTable({tr("run"), tr("GPUs (EP)"), tr("nodes"), tr("worst layer"),
                                        tr("worst layer today"), tr("worst layer rebalanced"),
                                        tr("mean over layers today"), tr("mean over layers rebalanced"),
                                        tr("even"), tr("note")},
                                       this);
    m_placementTable->setObjectName(QStringLiteral("stage3PlacementTable"));
    m_placementTable->setSortingEnabled(false);
    results->addWidget(m_placementTable);
    m_placement->watcher = new QFutureWatcher<QList<PlacementRow>>(this);
    connect(m_placement->watcher, &QFutureWatcher<QList<PlacementRow>>::finished, this, [this] {
        m_placement->rows = m_placement->watcher->result();
        if (!m_eval) { // cleared while it ran
            m_placement->rows.clear();
            return;
        }
        if (m_placement->again) {
            computePlacement();
            return;
        }
        showPlacement();
    });
    connect(m_redundant, &QSpinBox::valueChanged, this, &StageThreePage::computePlacement);
    connect(m_exportPlacement, &QPushButton::clicked, this, &StageThreePage::exportPlacement);

    connect(m_run, &QComboBox::currentIndexChanged, this, &StageThreePage::runChosen);
    connect(m_layers, &QLineEdit::editingFinished, this, &StageThreePage::replotRatio);
    connect(m_ratioSmoothing, &QDoubleSpinBox::valueChanged, this, &StageThreePage::replotRatio);
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
    m_placement->cancelRunning(); // its rows would be dropped anyway
    m_eval.reset();
    *m_heatmapCache = HeatmapCache{};
    m_steps.clear();
    m_summary->beginRows();
    m_summary->endRows();
    m_placement->rows.clear();
    m_placementTable->beginRows();
    m_placementTable->endRows();
    m_exportPlacement->setEnabled(false);
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
    *m_heatmapCache = HeatmapCache{}; // the project may have changed since
    m_limit = 0.0;
    for (const stages::ThresholdUse& t : e.verdict.thresholds)
        if (t.key == QLatin1String("stage3.load_ratio_max"))
            m_limit = t.value;
    if (m_limit <= 0.0)
        m_limit = stages::ThresholdSet().get(QStringLiteral("stage3.load_ratio_max")).value;

    m_summary->beginRows();
    for (const stages::StageThreeRunSummary& s : r->runs) {
        auto* shareCell = percentCell(s.busiestDeviceShare);
        if (s.busiestDeviceShare)
            shareCell->setText(shareCell->text() +
                               (s.busiestDeviceSource == stages::BusiestShareSource::OverloadFactor
                                    ? tr(" measured (overload factor)")
                                : s.busiestDeviceEstimated ? tr(" (estimated)")
                                                           : tr(" (measured)")));
        // Without expert counts the ratio is the EP ranks' (a lower bound of the experts').
        auto* maxRatioCell = ratioCell(s.windowMaxRatio);
        if (s.loadRatioSource == stages::LoadRatioSource::EpRankOverload)
            maxRatioCell->setText(maxRatioCell->text() + tr(" (EP ranks)"));
        m_summary->addRow({textCell(s.runName), numberCell(s.experts, 0), numberCell(s.layers, 0),
                           numberCell(double(s.windowSteps), 0),
                           s.worstLayer >= 0 ? numberCell(s.worstLayer, 0) : numberCell(std::nullopt, 0),
                           percentCell(s.worstLayerFractionAbove), maxRatioCell,
                           ratioCell(s.windowMeanRatio), percentCell(s.dropRate),
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
    computePlacement();
}

bool StageThreePage::isComputingPlacement() const {
    return m_placement->watcher->isRunning();
}

void StageThreePage::computePlacement() {
    if (!m_eval)
        return;
    if (m_placement->watcher->isRunning()) {
        // Stop it and start again with the new inputs once it has returned.
        m_placement->cancelRunning();
        m_placement->again = true;
        return;
    }
    m_placement->again = false;
    m_exportPlacement->setEnabled(false);
    store::ProjectStore* project = this->project();
    if (!project)
        return;
    QList<PlacementInput> inputs;
    for (const stages::ExpertLoadRunInput& in : m_eval->stageThreeInputs) {
        const auto run = project->run(in.runName);
        inputs << PlacementInput{in.runName, run ? run->id : -1, in.record};
    }
    m_placement->cancel = std::make_shared<std::atomic<bool>>(false);
    m_placement->watcher->setFuture(QtConcurrent::run(computePlacementRows, project->path(), inputs,
                                                      m_redundant->value(),
                                                      std::shared_ptr<const std::atomic<bool>>(m_placement->cancel)));
}

void StageThreePage::showPlacement() {
    m_placementTable->beginRows();
    for (const PlacementRow& row : m_placement->rows) {
        if (!row.whatIf) {
            m_placementTable->addRow({textCell(row.runName), numberCell(std::nullopt, 0),
                                      numberCell(std::nullopt, 0), numberCell(std::nullopt, 0),
                                      percentCell(std::nullopt), percentCell(std::nullopt),
                                      percentCell(std::nullopt), percentCell(std::nullopt),
                                      percentCell(std::nullopt), textCell(row.error)});
            continue;
        }
        const traffic::PlacementWhatIf& w = *row.whatIf;
        const traffic::LayerShare& worst = w.shares[w.worstIndex];
        m_placementTable->addRow(
            {textCell(row.runName), numberCell(w.options.gpus, 0), numberCell(w.options.nodes, 0),
             numberCell(worst.layer, 0), percentCell(worst.today), percentCell(worst.after),
             percentCell(w.meanToday), percentCell(w.meanAfter), percentCell(w.evenShare()),
             textCell(w.placement.hierarchical ? tr("EPLB hierarchical, %n redundant slot(s) per GPU", "",
                                                         w.options.redundant)
                                                : tr("EPLB global, %n redundant slot(s) per GPU", "",
                                                         w.options.redundant))});
    }
    m_placementTable->endRows();
    m_placementTable->fitHeight();
    if (m_placementTable->rowCount() > 0 && m_placementTable->currentRow() < 0)
        m_placementTable->selectRow(0);
    m_exportPlacement->setEnabled(std::any_of(m_placement->rows.cbegin(), m_placement->rows.cend(),
                                              [](const PlacementRow& r) { return r.whatIf.has_value(); }));
    relayoutNow();
    emit placementComputed();
}

bool StageThreePage::writePlacementFile(int row, const QString& path, QString* error) const {
    if (row < 0 || row >= m_placement->rows.size() || !m_placement->rows[row].whatIf) {
        *error = tr("This run has no rebalanced placement.");
        return false;
    }
    const PlacementRow& r = m_placement->rows[row];
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(traffic::placementFileJson(*r.whatIf, r.loads, r.runName))
                    .toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void StageThreePage::exportPlacement() {
    int row = m_placementTable->currentRow();
    if (row < 0)
        row = 0;
    // The table does not sort, so its rows are the computation's rows.
    if (row >= m_placement->rows.size() || !m_placement->rows[row].whatIf)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export placement"), m_placement->rows[row].runName + QStringLiteral("-placement.json"),
        tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writePlacementFile(row, path, &error))
        QMessageBox::warning(this, tr("Export placement"), error);
    else
        emit statusMessage(tr("Placement of %1 written to %2.").arg(m_placement->rows[row].runName, path));
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
    // The steps and layers from the summary: no counts are read here.
    for (const store::ExpertLoadSummaryRow& r : in.summary) {
        if (m_steps.isEmpty() || m_steps.last() != r.step)
            m_steps << r.step;
        maxLayer = qMax(maxLayer, r.layer);
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
            // max ÷ mean from the summary's sum and max (no counts read).
            for (const store::ExpertLoadSummaryRow& r : in.summary) {
                if (r.layer != layer || r.experts <= 0 || r.sum == 0)
                    continue;
                s.x << double(r.step);
                s.y << r.loadRatio();
            }
            if (!s.x.isEmpty())
                spec.series << s;
        }
    }
    // Smoothing: each curve (not the limit line) becomes its debiased EMA, the raw
    // curve kept faint beneath in the same colour.
    const double smoothing = m_ratioSmoothing ? m_ratioSmoothing->value() : 0.0;
    if (smoothing > 0.0) {
        QList<plots::Series> out;
        for (const plots::Series& s : spec.series) {
            if (s.colour < 0 || s.style != plots::SeriesStyle::Line) {
                out << s;
                continue;
            }
            plots::Series raw = s;
            raw.style = plots::SeriesStyle::FaintLine;
            raw.name = tr("%1 (raw)").arg(s.name);
            plots::Series smooth = s;
            smooth.y = plots::debiasedEma(s.y, smoothing);
            out << raw << smooth;
        }
        spec.series = out;
        spec.note = (spec.note.isEmpty() ? QString() : spec.note + QLatin1Char(' ')) +
                    tr("Curves smoothed (debiased EMA, factor %1); raw curves faint.").arg(smoothing, 0, 'f', 2);
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
    const int layer = m_layer->value();
    // Each heatmap reads only what it draws: one step of every layer (one chunk per
    // layer), one layer over every step (that layer's chunks). Kept until the run,
    // step or layer changes.
    store::ProjectStore* project = this->project();
    const auto run = project ? project->run(in.runName) : std::nullopt;
    HeatmapCache& c = *m_heatmapCache;
    if (c.runName != in.runName) {
        c = HeatmapCache{};
        c.runName = in.runName;
    }
    if (!c.step || *c.step != step) {
        c.step = step;
        c.atStep = in;
        c.atStep.blocks = run ? project->expertLoad(run->id, step) : QVector<store::ExpertLoadBlock>{};
    }
    if (!c.layer || *c.layer != layer) {
        c.layer = layer;
        c.ofLayer = in;
        c.ofLayer.blocks = run ? project->expertLoad(run->id, {}, layer) : QVector<store::ExpertLoadBlock>{};
    }
    m_layerExpert->setSpec(plots::layerExpertHeatmap(c.atStep, step, m_relative->isChecked()));
    m_expertStep->setSpec(plots::expertStepHeatmap(c.ofLayer, layer, m_relative->isChecked()));
}

} // namespace moewb::gui
