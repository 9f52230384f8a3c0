#pragma once
// Where one MoE layer's experts live: physical expert slots, each holding one logical
// expert, laid out contiguously over the expert-parallel ranks (slot p on rank
// p / slotsPerRank, as Megatron-Core and EPLB number them). An expert with several
// replicas has its load split evenly over them (EPLB's model of a replicated expert).
#include "common/Expected.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <span>
#include <vector>

namespace moewb::placement {

struct ExpertPlacement {
    int experts = 0;
    int ranks = 0;
    std::vector<int> slotExpert; // the logical expert of each physical slot

    int slotsPerRank() const { return ranks > 0 ? int(slotExpert.size()) / ranks : 0; }
    int rankOfSlot(int slot) const { return slot / slotsPerRank(); }
    std::vector<int> replicaCounts() const; // per logical expert

    // Expert e on rank e / (E / EP): Megatron-Core's default. EP must divide E.
    static Expected<ExpertPlacement, QString> contiguous(int experts, int ranks);
    // Checks that every expert has a slot, that slots divide evenly over the ranks and
    // that every slot names an expert in [0, experts).
    static Expected<ExpertPlacement, QString> fromSlots(std::vector<int> slotExpert, int experts, int ranks);
};

// Each rank's load: Σ over its slots of load[e] / replicas(e).
std::vector<double> rankLoads(std::span<const double> loadPerExpert, const ExpertPlacement& placement);
// Busiest rank's load / all load (ideal 1 / ranks); NaN when there is no load.
double busiestRankShare(std::span<const double> loadPerExpert, const ExpertPlacement& placement);

// A placement file: JSON {"num_gpus": G, "phy2log": [[slot experts of layer row 0], ...]}
// and optionally "layers": [layer number of each row] (as `moewb placement -o` writes
// it); a single row applies to every layer.
struct PlacementFile {
    int gpus = 0;
    QList<int> layers; // empty: rows are not tied to layer numbers
    std::vector<ExpertPlacement> rows;
    // The placement for a layer: its row when "layers" names it, the only row when
    // there is one; nullptr otherwise.
    const ExpertPlacement* forLayer(int layer) const;
};
// Errors name the file and the field.
Expected<PlacementFile, QString> parsePlacementFile(const QByteArray& bytes, const QString& fileName,
                                                    int experts);
Expected<PlacementFile, QString> readPlacementFile(const QString& path, int experts);

} // namespace moewb::placement
