#pragma once
// The placement what-if of a run's measured expert load (docs/traffic.md): the
// busiest-device share per layer under today's contiguous placement and after DeepSeek
// EPLB's rebalancing, and the placement file `moewb placement RUN -o` and the stage 3
// page's "Export placement…" write. One computation for the CLI, the window and the report.
#include "common/Expected.h"
#include "placement/EplbRebalance.h"
#include "record/ConfigRecord.h"
#include "traffic/LoadWindow.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace moewb::traffic {

struct PlacementWhatIfOptions {
    int gpus = 1;      // expert-parallel ranks (the record's parallelism.ep)
    int nodes = 1;     // nodes the GPUs span
    int groups = 1;    // expert groups (EPLB's num_groups)
    int redundant = 0; // redundant expert slots per GPU
};

struct LayerShare {
    int layer = 0;
    double today = 0.0; // busiest rank's share of the layer's load, contiguous placement
    double after = 0.0; // the same after EPLB rebalancing
};

struct PlacementWhatIf {
    PlacementWhatIfOptions options;
    placement::EplbPlacement placement;
    QList<LayerShare> shares; // one per layer, in layer order
    double meanToday = 0.0;   // mean over the layers
    double meanAfter = 0.0;
    int worstIndex = 0; // index into shares: the layer with the largest share today
    double evenShare() const { return 1.0 / options.gpus; }
};

struct PlacementWhatIfError {
    QString text;
    bool badArguments = false; // the options do not fit EPLB (rather than the data)
};

Expected<PlacementWhatIf, PlacementWhatIfError> placementWhatIf(const LayerLoads& loads,
                                                                const PlacementWhatIfOptions& options);

// The nodes one expert-parallel group spans: with Megatron-Core's expert rank order
// (expert-TP fastest, then EP) a group is EP × expert-TP consecutive ranks, so it spans
// that many ranks / cluster.accelerators_per_node nodes. 1 when the record lacks the
// fields, when the group fits in one node or when it does not split evenly over nodes.
int expertParallelNodes(const record::ConfigRecord& record);

// EPLB's result as JSON: phy2log [layers × replicas], log2phy [layers × experts ×
// max replicas] padded with −1, logcnt [layers × experts].
QJsonObject eplbJson(const placement::EplbPlacement& placement);
// The placement file (format moewb-placement/1): eplbJson plus the run, the window, the
// layers, the load (EPLB's `weight`) and the arguments.
QJsonObject placementFileJson(const PlacementWhatIf& whatIf, const LayerLoads& loads, const QString& runName);

} // namespace moewb::traffic
