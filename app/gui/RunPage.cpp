#include "RunPage.h"

#include "PageWidgets.h"
#include "RunActions.h"
#include "StageStatus.h"
#include "StepAnatomyView.h"
#include "Worker.h"

#include "plots/PlotView.h"
#include "plotspec/StagePlots.h"
#include "record/RecordValidation.h"
#include "stages/StageEvaluation.h"
#include "stages/StageInputs.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSet>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <cmath>

namespace moewb::gui {

namespace {

const QString kLossChoice = QStringLiteral("\x01loss");

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

QString when(const QDateTime& t) {
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm")) : QStringLiteral("—");
}

// At most `chars` characters, the middle elided (file paths keep both ends).
QString elideMiddle(const QString& s, int chars = 110) {
    if (s.size() <= chars)
        return s;
    const int keep = (chars - 1) / 2;
    return s.left(keep) + QStringLiteral("…") + s.right(chars - 1 - keep);
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    QLabel* l = makePageTitle(parent, 1.15);
    l->setText(text);
    return l;
}

// A label the layout never widens for: long paths and names are cut, not scrolled.
QLabel* narrowLabel(QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    l->setMinimumWidth(1);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QTableWidgetItem* numberItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString fixed(double v, int decimals) {
    return std::isfinite(v) ? QLocale().toString(v, 'f', decimals) : QStringLiteral("–");
}

plots::PlotView* makePlot(QWidget* parent, const QString& name) {
    auto* v = new plots::PlotView(parent);
    v->setObjectName(name);
    v->setMinimumHeight(260);
    return v;
}

} // namespace

RunPage::RunPage(RunActions* actions, QWidget* parent) : QWidget(parent), m_actions(actions) {
    setObjectName(QStringLiteral("runPage"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("runPageScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(m_scroll);
    auto* content = new QWidget(m_scroll);
    m_scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);

    // Title and what can be done to the run.
    auto* top = new QHBoxLayout;
    m_title = makePageTitle(content);
    m_title->setObjectName(QStringLiteral("runPageTitle"));
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setMinimumWidth(1);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_title, 1);
    struct Button {
        QString text, name;
        std::function<void()> act;
    };
    const QList<Button> buttons{
        {tr("Rename…"), QStringLiteral("runPageRename"), [this] { m_actions->rename(m_name); }},
        {tr("Tag…"), QStringLiteral("runPageTag"), [this] { m_actions->tag(m_name); }},
        {tr("Move to record…"), QStringLiteral("runPageMove"), [this] { m_actions->moveToRecord({m_name}); }},
        {tr("Delete…"), QStringLiteral("runPageDelete"), [this] { m_actions->remove({m_name}); }},
        {tr("Compare with…"), QStringLiteral("runPageCompare"), [this] { m_actions->compare({m_name}); }},
    };
    for (const Button& b : buttons) {
        auto* button = new QPushButton(b.text, content);
        button->setObjectName(b.name);
        connect(button, &QPushButton::clicked, this, b.act);
        top->addWidget(button);
        m_editButtons << button;
    }
    layout->addLayout(top);

    m_header = new QLabel(content);
    m_header->setObjectName(QStringLiteral("runPageHeader"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_header, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("record:")))
            emit recordRequested(link.mid(7));
    });
    layout->addWidget(m_header);
    m_sources = narrowLabel(content);
    m_sources->setObjectName(QStringLiteral("runPageSources"));
    layout->addWidget(m_sources);

    m_usedBy = new QLabel(content);
    m_usedBy->setObjectName(QStringLiteral("runPageUsedBy"));
    m_usedBy->setWordWrap(true);
    m_usedBy->setTextFormat(Qt::RichText);
    m_usedBy->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_usedBy, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QLatin1String("stage:")))
            emit stageRequested(link.mid(6).toInt());
    });
    layout->addWidget(m_usedBy);

    m_status = new QLabel(content);
    m_status->setObjectName(QStringLiteral("runPageStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    // Metrics over steps.
    m_metricsSection = new QWidget(content);
    auto* metrics = new QVBoxLayout(m_metricsSection);
    metrics->setContentsMargins(0, 0, 0, 0);
    auto* metricsTop = new QHBoxLayout;
    metricsTop->addWidget(sectionTitle(tr("Metrics over steps"), m_metricsSection));
    metricsTop->addStretch(1);
    auto* chooserLabel = new QLabel(tr("&Metric:"), m_metricsSection);
    m_metricChooser = new QComboBox(m_metricsSection);
    m_metricChooser->setObjectName(QStringLiteral("runMetricChooser"));
    m_metricChooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metricChooser->setMaximumWidth(360);
    chooserLabel->setBuddy(m_metricChooser);
    metricsTop->addWidget(chooserLabel);
    metricsTop->addWidget(m_metricChooser);
    metrics->addLayout(metricsTop);
    m_metricsPlot = makePlot(m_metricsSection, QStringLiteral("runMetricsPlot"));
    metrics->addWidget(m_metricsPlot);
    connect(m_metricChooser, &QComboBox::currentIndexChanged, this, &RunPage::drawMetric);
    layout->addWidget(m_metricsSection);

    // Expert load.
    m_loadSection = new QWidget(content);
    auto* load = new QVBoxLayout(m_loadSection);
    load->setContentsMargins(0, 0, 0, 0);
    load->addWidget(sectionTitle(tr("Expert load"), m_loadSection));
    m_loadSummary = new QLabel(m_loadSection);
    m_loadSummary->setObjectName(QStringLiteral("runLoadSummary"));
    m_loadSummary->setWordWrap(true);
    load->addWidget(m_loadSummary);
    auto* loadPlots = new QHBoxLayout;
    m_loadPlot = makePlot(m_loadSection, QStringLiteral("runLoadRatioPlot"));
    m_heatmapPlot = makePlot(m_loadSection, QStringLiteral("runHeatmapPlot"));
    loadPlots->addWidget(m_loadPlot, 1);
    loadPlots->addWidget(m_heatmapPlot, 1);
    load->addLayout(loadPlots);
    layout->addWidget(m_loadSection);

    // Where a step's time goes (profiler traces).
    m_anatomyView = new StepAnatomyView(content);
    layout->addWidget(m_anatomyView);

    // Communication.
    m_commSection = new QWidget(content);
    auto* comm = new QVBoxLayout(m_commSection);
    comm->setContentsMargins(0, 0, 0, 0);
    comm->addWidget(sectionTitle(tr("All-to-all measurement"), m_commSection));
    m_bandwidthPlot = makePlot(m_commSection, QStringLiteral("runBandwidthPlot"));
    comm->addWidget(m_bandwidthPlot);
    m_commTable = makeReadOnlyTable(m_commSection, {tr("Size per rank"), tr("Samples"), tr("Repeats"),
                                                    tr("Median (µs)"), tr("P99 (µs)"), tr("Bandwidth (GB/s)"),
                                                    tr("CV across repeats (%)")});
    m_commTable->setObjectName(QStringLiteral("runCommTable"));
    m_commTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_commTable->setTextElideMode(Qt::ElideRight);
    m_commTable->setMinimumHeight(200);
    comm->addWidget(m_commTable);
    layout->addWidget(m_commSection);
    layout->addStretch(1);
    clearMeasurements();
}

RunPage::~RunPage() {
    for (const QPointer<QThread>& t : std::as_const(m_readers))
        if (t)
            t->wait();
}

void RunPage::clearMeasurements() {
    m_data.reset();
    m_metricsSection->hide();
    m_loadSection->hide();
    m_commSection->hide();
    m_anatomyView->clear();
    m_moreHolds.clear();
    m_metricChooser->blockSignals(true);
    m_metricChooser->clear();
    m_metricChooser->blockSignals(false);
    for (plots::PlotView* v : {m_metricsPlot, m_loadPlot, m_heatmapPlot, m_bandwidthPlot})
        v->setSpec({});
    m_commTable->setRowCount(0);
}

void RunPage::showRun(store::ProjectStore* project, const QString& name) {
    m_project = project;
    m_name = name;
    ++m_generation;
    clearMeasurements();
    const auto run = project ? project->run(name) : std::nullopt;
    // A read-only project can be looked at and compared, not changed.
    for (QPushButton* b : std::as_const(m_editButtons))
        b->setEnabled(run.has_value() &&
                      (b->objectName() == QLatin1String("runPageCompare") || !project->readOnly()));
    if (!run) {
        m_title->setText(name);
        m_header->setText(esc(tr("There is no run named “%1” in this project (it was renamed or deleted).").arg(name)));
        m_sources->clear();
        m_usedBy->clear();
        m_status->clear();
        m_loading = false;
        return;
    }
    showHeader(*run);
    showUsedBy(*run);
    m_loading = true;
    m_status->setText(tr("Reading the run's measurements…"));
    const int generation = m_generation;
    const QString path = project->path();
    QThread* reader = runInWorker<LoadedRuns>(
        this, [path, name] { return readRunMeasurements(path, {name}, RunReadOptions{}); },
        [this, generation](LoadedRuns read) {
            if (generation != m_generation)
                return;
            m_loading = false;
            showMeasurements(read);
            emit loaded();
        });
    m_readers.removeAll(nullptr);
    m_readers << reader;
}

void RunPage::showHeader(const store::RunRow& run) {
    m_title->setText(run.name);
    m_title->setToolTip(run.name);
    const QStringList tags = store::ProjectStore::runTags(run);
    QString record = QStringLiteral("<a href=\"record:%1\">%1</a>").arg(esc(run.recordName));
    if (const auto rec = m_project->configRecord(run.recordName); rec && !record::validateJson(rec->json).isEmpty())
        record += esc(tr(" (incomplete: comparisons using it are refused)"));
    QStringList contents;
    if (run.commSampleCount > 0)
        contents << tr("%n communication sample(s)", "", int(qMin<qint64>(run.commSampleCount, INT_MAX)));
    if (run.stepCount > 0)
        contents << tr("metrics at %n step(s)", "", int(qMin<qint64>(run.stepCount, INT_MAX)));
    if (run.expertLoadBlocks > 0)
        contents << tr("%n expert-load block(s)", "", int(qMin<qint64>(run.expertLoadBlocks, INT_MAX)));
    if (!m_moreHolds.isEmpty())
        contents << m_moreHolds;
    const QString row = QStringLiteral("<tr><td style=\"padding-right:12px\"><b>%1</b></td><td>%2</td></tr>");
    QString html = QStringLiteral("<table>");
    html += row.arg(esc(tr("Kind")), esc(store::runKindTitle(run.kind)));
    html += row.arg(esc(tr("Config record")), record);
    html += row.arg(esc(tr("Cluster")), run.clusterName.isEmpty() ? esc(tr("none named")) : esc(run.clusterName));
    html += row.arg(esc(tr("Tags")), tags.isEmpty() ? esc(tr("none")) : esc(tags.join(QStringLiteral(", "))));
    html += row.arg(esc(tr("Holds")), contents.isEmpty() ? esc(tr("no measurements")) : esc(contents.join(QStringLiteral(" · "))));
    html += row.arg(esc(tr("Imported")), esc(when(run.created)));
    if (run.updated.isValid() && run.updated != run.created)
        html += row.arg(esc(tr("Data last written")), esc(when(run.updated)));
    html += QStringLiteral("</table>");
    m_header->setText(html);

    // The files it came from: the import's list, or its one source; later additions.
    QStringList lines;
    const QJsonArray sources = run.environment.value(QLatin1String("sources")).toArray();
    auto fileLine = [](const QJsonObject& o) {
        const QString format = o.value(QLatin1String("format")).toString();
        const qint64 rows = o.value(QLatin1String("rows")).toInteger();
        return format.isEmpty() ? o.value(QLatin1String("file")).toString()
                                : tr("%1 (%2, %n row(s))", "", int(qMin<qint64>(rows, INT_MAX)))
                                      .arg(o.value(QLatin1String("file")).toString(), format);
    };
    if (!sources.isEmpty()) {
        for (const QJsonValue& v : sources)
            lines << fileLine(v.toObject());
        const int more = run.environment.value(QLatin1String("sources_not_listed")).toInt();
        if (more > 0)
            lines << tr("… and %n more file(s)", "", more);
    } else if (!run.sourceFile.isEmpty()) {
        const QString format = run.environment.value(QLatin1String("source_format")).toString();
        lines << (format.isEmpty() ? run.sourceFile : tr("%1 (%2)").arg(run.sourceFile, format));
    }
    for (const QJsonValue& v : run.environment.value(QLatin1String("added")).toArray())
        lines << tr("added later: %1").arg(fileLine(v.toObject()));
    const int shown = 8;
    QStringList text;
    for (int i = 0; i < lines.size() && i < shown; ++i)
        text << QStringLiteral("  ") + elideMiddle(lines[i]);
    if (lines.size() > shown)
        text << tr("  … %n more (in the tooltip)", "", int(lines.size() - shown));
    m_sources->setText(lines.isEmpty() ? tr("Source files: not recorded") : tr("Source files:") + QLatin1Char('\n') + text.join(QLatin1Char('\n')));
    m_sources->setToolTip(lines.join(QLatin1Char('\n')));
}

void RunPage::showUsedBy(const store::RunRow& run) {
    QStringList lines;
    for (int stage = 1; stage <= 4; ++stage) {
        const auto verdict = m_project->verdict(stage);
        bool inBasis = false;
        if (verdict)
            for (const QJsonValue& v : verdict->basis.value(QLatin1String("runs")).toArray()) {
                const QJsonObject o = v.toObject();
                inBasis = inBasis || o.value(QLatin1String("id")).toInteger(-1) == run.id ||
                          (!o.contains(QLatin1String("id")) && o.value(QLatin1String("name")).toString() == run.name);
            }
        bool takesNow = false;
        for (const store::RunRow& r : stages::defaultStageRuns(*m_project, stage))
            takesNow = takesNow || r.id == run.id;
        const QString stageLink = QStringLiteral("<a href=\"stage:%1\">%2</a>")
                                      .arg(stage)
                                      .arg(esc(tr("Stage %1 · %2").arg(stage).arg(stageName(stage))));
        if (inBasis) {
            const StageState state = stageState(*m_project, stage);
            const stages::VerdictFreshness fresh = stages::verdictFreshness(*m_project, *verdict);
            QString freshness;
            if (fresh.changed.contains(run.name))
                freshness = tr("this run changed since the verdict: re-evaluate");
            else if (fresh.newData())
                freshness = tr("other runs changed since the verdict: re-evaluate");
            else
                freshness = tr("the verdict is current");
            lines << tr("%1 — %2 %3 (verdict of %4); %5")
                         .arg(stageLink, esc(state.icon), esc(state.words), esc(when(verdict->decided)), esc(freshness));
        } else if (takesNow && verdict) {
            lines << tr("%1 — would take it now, but its verdict (%2) did not read it: re-evaluate")
                         .arg(stageLink, esc(when(verdict->decided)));
        } else if (takesNow) {
            lines << tr("%1 — takes it; not evaluated yet").arg(stageLink);
        }
    }
    m_usedBy->setText(QStringLiteral("<b>%1</b><br>").arg(esc(tr("Used by"))) +
                      (lines.isEmpty() ? esc(tr("No stage uses this run.")) : lines.join(QStringLiteral("<br>"))));
}

void RunPage::showMeasurements(const LoadedRuns& loaded) {
    if (!loaded.error.isEmpty()) {
        m_status->setText(tr("The measurements could not be read: %1").arg(loaded.error));
        return;
    }
    if (loaded.runs.isEmpty()) {
        m_status->setText(tr("The run is no longer in the project."));
        return;
    }
    m_data = loaded.runs.first();
    const RunMeasurements& m = *m_data;
    m_status->setText(m.problem.isEmpty() ? QString() : tr("Not everything could be shown: %1").arg(m.problem));
    m_status->setVisible(!m.problem.isEmpty());

    // Metrics: the loss first (training and validation together), then every other metric.
    QStringList names;
    for (const store::StepMetric& s : m.metrics)
        if (names.isEmpty() || names.constLast() != s.name)
            if (!names.contains(s.name))
                names << s.name;
    m_metricChooser->blockSignals(true);
    m_metricChooser->clear();
    if (names.contains(QLatin1String("lm_loss")) || names.contains(QLatin1String("val_loss")))
        m_metricChooser->addItem(tr("Loss (training and validation)"), kLossChoice);
    for (const QString& n : std::as_const(names))
        m_metricChooser->addItem(n, n);
    m_metricChooser->setCurrentIndex(0);
    m_metricChooser->blockSignals(false);
    m_metricsSection->setVisible(!names.isEmpty());
    drawMetric();

    if (m.load) {
        const stages::StageThreeRunSummary& s = *m.load;
        QString summary = tr("%n expert(s)", "", s.experts) + QStringLiteral(" · ") + tr("%n layer(s)", "", s.layers) +
                          QStringLiteral(" · ") + tr("%n step(s) with expert load", "", int(s.stepsWithLoad)) +
                          QStringLiteral(". ");
        summary += tr("Over the last %n step(s) the busiest expert carries up to %1× the layer's mean (mean over "
                      "layers and steps %2×); the limit is %3×.",
                      "", int(s.windowSteps))
                       .arg(fixed(s.windowMaxRatio, 2), fixed(s.windowMeanRatio, 2), fixed(loaded.loadRatioLimit, 2));
        if (s.worstLayer >= 0)
            summary += QLatin1Char(' ') + tr("Worst layer: %1, above the limit in %2 % of those steps.")
                                              .arg(s.worstLayer)
                                              .arg(fixed(s.worstLayerFractionAbove * 100.0, 1));
        m_loadSummary->setText(summary);
        m_loadPlot->setSpec(plots::loadRatioPlot({s}, loaded.loadRatioLimit));
        if (m.heatmap)
            m_heatmapPlot->setSpec(*m.heatmap);
        m_heatmapPlot->setVisible(m.heatmap.has_value());
        m_loadSection->show();
    }

    if (m.comm) {
        stages::StageOneResult result;
        result.tables << *m.comm;
        m_bandwidthPlot->setSpec(plots::stageOnePlots(result).first());
        m_commTable->setRowCount(int(m.comm->rows.size()));
        for (int r = 0; r < m.comm->rows.size(); ++r) {
            const stages::StageOneSizeRow& row = m.comm->rows[r];
            m_commTable->setItem(r, 0, numberItem(plots::formatBytes(double(row.bytesPerRank))));
            m_commTable->setItem(r, 1, numberItem(QLocale().toString(row.samples)));
            m_commTable->setItem(r, 2, numberItem(QLocale().toString(row.repeats)));
            m_commTable->setItem(r, 3, numberItem(fixed(row.medianUs, 1)));
            m_commTable->setItem(r, 4, numberItem(fixed(row.p99Us, 1)));
            m_commTable->setItem(r, 5, numberItem(fixed(row.effectiveBandwidth.value_or(row.algBandwidth) / 1e9, 2)));
            m_commTable->setItem(r, 6, numberItem(row.cv ? fixed(*row.cv * 100.0, 1) : QStringLiteral("–")));
        }
        const int rowH = m_commTable->verticalHeader()->defaultSectionSize();
        m_commTable->setMinimumHeight(m_commTable->horizontalHeader()->sizeHint().height() +
                                      rowH * int(qMin<qsizetype>(m.comm->rows.size(), 12)) + 6);
        m_commSection->show();
    }
    // The chosen step's timeline is read when it is chosen (one step at a time, bounded).
    m_anatomyView->setTimelineSource([this, id = m.row.id](qint64 step, QString* problem) {
        return m_project ? m_project->stepTimeline(id, step, problem) : QVector<store::RankStepTimeline>{};
    });
    m_anatomyView->showRun(m);
    if (!m.stepAnatomy.empty()) {
        // The store's run row does not count the anatomy: said once it is read.
        QSet<qint64> steps;
        for (const store::RankStepAnatomy& r : m.stepAnatomy.rows)
            steps.insert(r.step);
        m_moreHolds = tr("step anatomy of %n profiled step(s)", "", int(steps.size()));
        showHeader(m.row);
    }
    if (names.isEmpty() && !m.load && !m.comm && m.stepAnatomy.empty())
        m_status->setText(tr("This run holds no measurements to draw."));
    m_status->setVisible(!m_status->text().isEmpty());
}

void RunPage::drawMetric() {
    if (!m_data)
        return;
    const QString choice = m_metricChooser->currentData().toString();
    if (choice.isEmpty()) {
        m_metricsPlot->setSpec({});
        return;
    }
    if (choice == kLossChoice) {
        stages::TrainingRunInput in;
        in.runName = m_data->row.name;
        for (const store::StepMetric& s : m_data->metrics)
            if (s.name == QLatin1String("lm_loss") || s.name == QLatin1String("val_loss"))
                in.metrics << s;
        m_metricsPlot->setSpec(plots::stageTwoLossPlot({in}, plots::TrainingX::Steps, 0.0));
        return;
    }
    plots::PlotSpec spec;
    spec.id = QStringLiteral("run-metric");
    spec.title = tr("%1 over steps · %2").arg(choice, m_data->row.name);
    spec.x = {tr("Step"), plots::AxisScale::Linear, plots::AxisUnit::Steps, QStringLiteral("Step")};
    spec.y = {choice, plots::AxisScale::Linear, plots::AxisUnit::None, choice};
    plots::Series s;
    s.name = choice;
    s.run = m_data->row.name;
    for (const store::StepMetric& p : m_data->metrics)
        if (p.name == choice) {
            s.x << double(p.step);
            s.y << p.value;
        }
    spec.series << s;
    m_metricsPlot->setSpec(spec);
}

} // namespace moewb::gui
