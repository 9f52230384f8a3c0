#pragma once
// The four stage pages (internal to moewb_gui_stages; the shell uses StagePage.h).
#include "StagePage.h"

#include "stages/StageEvaluation.h"

#include <memory>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QDoubleSpinBox;
class QSpinBox;

namespace moewb::plots {
class PlotView;
}

namespace moewb::gui {

class ResultTable;
class StageOneRunPanel;

class StageOnePage : public StagePage {
    Q_OBJECT
public:
    explicit StageOnePage(QWidget* parent = nullptr);
    ResultTable* sizeTable() const { return m_sizes; }
    ResultTable* nodeTable() const { return m_nodes; }
    StageOneRunPanel* runPanel() const { return m_runPanel; }
    // Measured-routing probe runs beside uniform ones (docs/traffic.md); hidden when none.
    ResultTable* routingTable() const { return m_routing; }
    bool isComparingRouting() const;

signals:
    void routingCompared();

protected:
    QString titleText() const override;
    QString questionText() const override;
    QString teachingText() const override;
    bool takesRun(const store::ProjectStore& project, const store::RunRow& run) const override;
    void buildInputs(QVBoxLayout* inputs) override;
    void buildResults(QVBoxLayout* results) override;
    void showResults(const stages::StageEvaluation& evaluation) override;
    void clearResults() override;
    void refreshInputs() override;
    bool offersSuggestions() const override { return true; }
    // The two plots side by side on a wide page, one under the other on a narrower one
    // (each legend then has the full width for its columns).
    void resizeEvent(QResizeEvent* event) override;

private:
    void compareRouting();
    QGridLayout* m_plotsGrid = nullptr;

    StageOneRunPanel* m_runPanel = nullptr;
    ResultTable* m_sizes = nullptr;
    ResultTable* m_routing = nullptr;
    QLabel* m_routingTitle = nullptr;
    QLabel* m_routingSummary = nullptr;
    struct RoutingState;
    std::shared_ptr<RoutingState> m_routingState;
    ResultTable* m_nodes = nullptr;
    QLabel* m_nodesTitle = nullptr;
    plots::PlotView* m_bandwidth = nullptr;
    plots::PlotView* m_latency = nullptr;
};

class StageTwoPage : public StagePage {
    Q_OBJECT
public:
    explicit StageTwoPage(QWidget* parent = nullptr);
    ResultTable* pairTable() const { return m_pairs; }
    ResultTable* configTable() const { return m_config; }

protected:
    QString titleText() const override;
    QString questionText() const override;
    QString teachingText() const override;
    bool takesRun(const store::ProjectStore& project, const store::RunRow& run) const override;
    void buildResults(QVBoxLayout* results) override;
    void showResults(const stages::StageEvaluation& evaluation) override;
    void clearResults() override;

private:
    void fillConfigTable();
    void replotLoss();

    ResultTable* m_pairs = nullptr;
    ResultTable* m_config = nullptr;
    QCheckBox* m_allFields = nullptr;
    QComboBox* m_lossX = nullptr;
    QSlider* m_smoothing = nullptr;
    QLabel* m_smoothingLabel = nullptr;
    plots::PlotView* m_loss = nullptr;
    plots::PlotView* m_lossTail = nullptr; // the last part of training, zoomed
    plots::PlotView* m_throughput = nullptr;
    QList<stages::TrainingRunInput> m_runs;
};

class StageThreePage : public StagePage {
    Q_OBJECT
public:
    explicit StageThreePage(QWidget* parent = nullptr);
    ~StageThreePage() override;
    ResultTable* summaryTable() const { return m_summary; }
    // "What a rebalanced placement would give": one row per evaluated run.
    ResultTable* placementTable() const { return m_placementTable; }
    bool isComputingPlacement() const;
    // Writes the placement file of the run in the panel's row (as `moewb placement RUN
    // -o` writes it); false with *error set when the row has none or the file fails.
    bool writePlacementFile(int row, const QString& path, QString* error) const;

signals:
    void placementComputed();

protected:
    QString titleText() const override;
    QString questionText() const override;
    QString teachingText() const override;
    bool takesRun(const store::ProjectStore& project, const store::RunRow& run) const override;
    void buildResults(QVBoxLayout* results) override;
    void showResults(const stages::StageEvaluation& evaluation) override;
    void clearResults() override;

private:
    void runChosen();
    void replotRatio();
    void replotHeatmaps();
    void computePlacement();
    void showPlacement();
    void exportPlacement();

    ResultTable* m_summary = nullptr;
    ResultTable* m_placementTable = nullptr;
    QSpinBox* m_redundant = nullptr;
    QPushButton* m_exportPlacement = nullptr;
    QLabel* m_placementNote = nullptr;
    struct PlacementState;
    std::shared_ptr<PlacementState> m_placement;
    struct HeatmapCache;
    std::unique_ptr<HeatmapCache> m_heatmapCache;
    QLabel* m_staleNotice = nullptr;
    QComboBox* m_run = nullptr;
    QLineEdit* m_layers = nullptr;
    QDoubleSpinBox* m_ratioSmoothing = nullptr; // debiased EMA on the load curves
    QSlider* m_stepSlider = nullptr;
    QSpinBox* m_step = nullptr;
    QSpinBox* m_layer = nullptr;
    QCheckBox* m_relative = nullptr;
    plots::PlotView* m_ratio = nullptr;
    plots::PlotView* m_layerExpert = nullptr;
    plots::PlotView* m_expertStep = nullptr;
    plots::PlotView* m_dropLoss = nullptr;
    plots::PlotView* m_busiest = nullptr;
    std::optional<stages::StageEvaluation> m_eval;
    QVector<qint64> m_steps; // steps with load of the chosen run
    double m_limit = 0.0;
};

class StageFourPage : public StagePage {
    Q_OBJECT
public:
    explicit StageFourPage(QWidget* parent = nullptr);
    ResultTable* sizeTable() const { return m_rows; }

protected:
    QString titleText() const override;
    QString questionText() const override;
    QString teachingText() const override;
    bool takesRun(const store::ProjectStore& project, const store::RunRow& run) const override;
    void buildInputs(QVBoxLayout* inputs) override;
    void buildResults(QVBoxLayout* results) override;
    void showResults(const stages::StageEvaluation& evaluation) override;
    void clearResults() override;
    void refreshInputs() override;
    QStringList selectedRunNames() const override;

private:
    QComboBox* m_source = nullptr;
    QComboBox* m_target = nullptr;
    ResultTable* m_rows = nullptr;
    QLabel* m_applicability = nullptr;
    plots::PlotView* m_baselines = nullptr;
    plots::PlotView* m_ratio = nullptr;
};

// A bold section heading inside a page.
QLabel* sectionLabel(const QString& text, QWidget* parent);

} // namespace moewb::gui
