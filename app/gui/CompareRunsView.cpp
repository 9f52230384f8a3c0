#include "CompareRunsView.h"

#include "PageWidgets.h"
#include "TableFit.h"
#include "Worker.h"

#include "plots/PlotView.h"
#include "plotspec/Palette.h"
#include "plotspec/StagePlots.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QScrollArea>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace moewb::gui {

namespace {

// Sorts by its number; "–" (no value) sorts first.
class ValueItem : public QTableWidgetItem {
public:
    ValueItem(std::optional<double> v, int decimals)
        : QTableWidgetItem(v && std::isfinite(*v) ? QLocale().toString(*v, 'f', decimals) : QStringLiteral("–")),
          m_v(v.value_or(-1e300)) {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        if (auto* o = dynamic_cast<const ValueItem*>(&other))
            return m_v < o->m_v;
        return QTableWidgetItem::operator<(other);
    }

private:
    double m_v;
};

std::optional<double> lastValue(const QVector<store::StepMetric>& metrics, const QString& name) {
    std::optional<double> v;
    qint64 step = 0;
    for (const store::StepMetric& m : metrics)
        if (m.name == name && std::isfinite(m.value) && (!v || m.step >= step)) {
            v = m.value;
            step = m.step;
        }
    return v;
}

// One colour per run, the same in every plot: the run's place in the comparison.
void colourByRun(plots::PlotSpec& spec, const QStringList& runs) {
    for (plots::Series& s : spec.series)
        if (!s.run.isEmpty() && runs.contains(s.run))
            s.colour = int(runs.indexOf(s.run));
}

plots::PlotView* makePlot(QWidget* parent, const QString& name) {
    auto* v = new plots::PlotView(parent);
    v->setObjectName(name);
    v->setMinimumHeight(300);
    return v;
}

} // namespace

CompareRunsView::CompareRunsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("compareRunsView"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("compareRunsScroll"));
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);

    m_title = makePageTitle(content);
    m_title->setObjectName(QStringLiteral("compareRunsTitle"));
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setMinimumWidth(1);
    // Five runs' names are wider than the page at 1366 px: the title wraps, never cut.
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_status = new QLabel(content);
    m_status->setObjectName(QStringLiteral("compareRunsStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_table = makeReadOnlyTable(content, {tr("Run"), tr("Kind"), tr("Config record"), tr("Last loss"),
                                          tr("Last validation loss"), tr("Load max/mean"), tr("Peak GB/s")});
    m_table->setObjectName(QStringLiteral("compareRunsTable"));
    m_table->horizontalHeaderItem(3)->setToolTip(tr("lm_loss at the run's last step with it"));
    m_table->horizontalHeaderItem(4)->setToolTip(tr("val_loss at the run's last step with it"));
    m_table->horizontalHeaderItem(5)->setToolTip(
        tr("The busiest expert's load ÷ the layer's mean, worst over layers and the last steps (stage 3's window)"));
    m_table->horizontalHeaderItem(6)->setToolTip(tr("The highest effective all-to-all bandwidth over message sizes"));
    m_fit = new TableFit(m_table, {0, 2});
    m_table->setWordWrap(false);
    m_table->setSortingEnabled(true);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (QTableWidgetItem* item = m_table->item(row, 0))
            emit runRequested(item->data(Qt::UserRole).toString());
    });
    layout->addWidget(m_table);

    m_loss = makePlot(content, QStringLiteral("compareLossPlot"));
    m_load = makePlot(content, QStringLiteral("compareLoadRatioPlot"));
    m_bandwidth = makePlot(content, QStringLiteral("compareBandwidthPlot"));
    layout->addWidget(m_loss);
    layout->addWidget(m_load);
    layout->addWidget(m_bandwidth);
    layout->addStretch(1);
    for (plots::PlotView* v : {m_loss, m_load, m_bandwidth})
        v->hide();
}

CompareRunsView::~CompareRunsView() {
    for (const QPointer<QThread>& t : std::as_const(m_readers))
        if (t)
            t->wait();
}

void CompareRunsView::compare(store::ProjectStore* project, const QStringList& runs) {
    m_runs = runs;
    ++m_generation;
    m_title->setText(tr("Comparing %n run(s): %1", "", int(runs.size())).arg(runs.join(QStringLiteral(", "))));
    m_title->setToolTip(runs.join(QLatin1Char('\n')));
    m_table->setRowCount(0);
    for (plots::PlotView* v : {m_loss, m_load, m_bandwidth}) {
        v->setSpec({});
        v->hide();
    }
    if (!project) {
        m_status->setText(tr("Open a project first."));
        m_loading = false;
        return;
    }
    m_loading = true;
    m_status->setText(tr("Reading the runs' measurements…"));
    const int generation = m_generation;
    const QString path = project->path();
    QThread* reader = runInWorker<LoadedRuns>(
        this,
        [path, runs] {
            return readRunMeasurements(path, runs, RunReadOptions{/*allMetrics=*/false, /*heatmap=*/false, /*anatomy=*/false});
        },
        [this, generation](LoadedRuns loaded) {
            if (generation != m_generation)
                return;
            m_loading = false;
            show(loaded);
            emit this->loaded();
        });
    m_readers.removeAll(nullptr);
    m_readers << reader;
}

void CompareRunsView::show(const LoadedRuns& loaded) {
    if (!loaded.error.isEmpty()) {
        m_status->setText(tr("The runs could not be read: %1").arg(loaded.error));
        return;
    }
    QStringList names;
    for (const RunMeasurements& m : loaded.runs)
        names << m.row.name;
    QStringList gone;
    for (const QString& r : std::as_const(m_runs))
        if (!names.contains(r))
            gone << r;

    QList<stages::TrainingRunInput> training;
    QList<stages::StageThreeRunSummary> load;
    stages::StageOneResult comm;
    QStringList noLoss, noLoad, noComm, problems;
    m_table->setSortingEnabled(false);
    m_table->setRowCount(int(loaded.runs.size()));
    for (int i = 0; i < loaded.runs.size(); ++i) {
        const RunMeasurements& m = loaded.runs[i];
        if (!m.problem.isEmpty())
            problems << tr("%1: %2").arg(m.row.name, m.problem);
        const auto trainLoss = lastValue(m.metrics, QStringLiteral("lm_loss"));
        const auto valLoss = lastValue(m.metrics, QStringLiteral("val_loss"));
        if (trainLoss || valLoss) {
            stages::TrainingRunInput in;
            in.runName = m.row.name;
            in.metrics = m.metrics;
            training << in;
        } else {
            noLoss << m.row.name;
        }
        if (m.load && !m.load->ratioOverSteps.isEmpty())
            load << *m.load;
        else
            noLoad << m.row.name;
        std::optional<double> peak;
        if (m.comm && !m.comm->rows.isEmpty()) {
            comm.tables << *m.comm;
            for (const stages::StageOneSizeRow& r : m.comm->rows)
                peak = std::max(peak.value_or(0.0), r.effectiveBandwidth.value_or(r.algBandwidth) / 1e9);
        } else {
            noComm << m.row.name;
        }
        QPixmap swatch(12, 12);
        swatch.fill(QColor::fromRgb(plots::paletteColour(i)));
        auto* name = new QTableWidgetItem(QIcon(swatch), m.row.name);
        name->setData(Qt::UserRole, m.row.name);
        name->setToolTip(m.row.name);
        m_table->setItem(i, 0, name);
        m_table->setItem(i, 1, new QTableWidgetItem(store::runKindTitle(m.row.kind)));
        auto* record = new QTableWidgetItem(m.row.recordName);
        record->setToolTip(m.row.recordName);
        m_table->setItem(i, 2, record);
        m_table->setItem(i, 3, new ValueItem(trainLoss, 4));
        m_table->setItem(i, 4, new ValueItem(valLoss, 4));
        m_table->setItem(i, 5, new ValueItem(m.load ? std::optional<double>(m.load->windowMaxRatio) : std::nullopt, 2));
        m_table->setItem(i, 6, new ValueItem(peak, 2));
    }
    m_table->setSortingEnabled(true);
    m_fit->fit();
    const int rowH = m_table->verticalHeader()->defaultSectionSize();
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() +
                            rowH * int(std::min<qsizetype>(loaded.runs.size(), 10)) + 2 * m_table->frameWidth() + 4);

    if (!training.isEmpty()) {
        plots::PlotSpec spec = plots::stageTwoLossPlot(training, plots::TrainingX::Steps, 0.0);
        colourByRun(spec, names);
        m_loss->setSpec(spec);
        m_loss->show();
    }
    if (!load.isEmpty()) {
        plots::PlotSpec spec = plots::loadRatioPlot(load, loaded.loadRatioLimit);
        colourByRun(spec, names);
        m_load->setSpec(spec);
        m_load->show();
    }
    if (!comm.tables.isEmpty()) {
        plots::PlotSpec spec = plots::stageOnePlots(comm).first();
        colourByRun(spec, names);
        m_bandwidth->setSpec(spec);
        m_bandwidth->show();
    }

    QStringList notes;
    if (!gone.isEmpty())
        notes << tr("No longer in the project: %1.").arg(gone.join(QStringLiteral(", ")));
    if (!training.isEmpty() && !noLoss.isEmpty())
        notes << tr("No loss in: %1.").arg(noLoss.join(QStringLiteral(", ")));
    if (!load.isEmpty() && !noLoad.isEmpty())
        notes << tr("No expert load in: %1.").arg(noLoad.join(QStringLiteral(", ")));
    if (!comm.tables.isEmpty() && !noComm.isEmpty())
        notes << tr("No all-to-all measurement in: %1.").arg(noComm.join(QStringLiteral(", ")));
    if (training.isEmpty() && load.isEmpty() && comm.tables.isEmpty())
        notes << tr("These runs have no loss, expert load or all-to-all measurement in common to plot.");
    notes << problems;
    m_status->setText(notes.join(QLatin1Char(' ')));
    m_status->setVisible(!notes.isEmpty());
}

} // namespace moewb::gui
