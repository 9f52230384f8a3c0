#pragma once
// A run's expert load over a window of steps, summed per layer: the input of the
// traffic matrix and of the placement what-if (EPLB's `weight`).
#include "common/Expected.h"
#include "store/ProjectStore.h"

#include <QMap>
#include <QString>
#include <optional>
#include <vector>

namespace moewb::traffic {

struct StepWindow {
    std::optional<qint64> first; // inclusive; absent: from the first step
    std::optional<qint64> last;  // inclusive; absent: to the last step
};
// "A-B", "A-" or "-B" or "A" (one step). Errors quote the text.
Expected<StepWindow, QString> parseStepWindow(const QString& text);

struct LayerLoads {
    int experts = 0;
    qint64 firstStep = 0; // steps that carried load inside the window
    qint64 lastStep = 0;
    qint64 steps = 0;
    QMap<int, std::vector<double>> perLayer; // layer → tokens per expert, summed over the window
    // Layers in order, rows of the [layers × experts] matrix.
    std::vector<double> matrix() const;
};
// Errors: no load in the window; blocks with different expert counts.
Expected<LayerLoads, QString> sumLoadWindow(const QVector<store::ExpertLoadBlock>& blocks,
                                            const StepWindow& window);
// The same sum read from the project (ProjectStore::expertLoadTotals): the chunks inside
// the window from their stored totals, only those its edges cut decoded; the same
// result, errors included. With `cancel` set (from another thread) it stops early and
// returns an error.
Expected<LayerLoads, QString> sumLoadWindow(const store::ProjectStore& project, qint64 runId,
                                            const StepWindow& window, const std::atomic<bool>* cancel = nullptr);

} // namespace moewb::traffic
