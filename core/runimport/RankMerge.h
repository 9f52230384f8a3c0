#pragma once
// Per-rank expert load → the global view of one training (docs/formats.md, "One run
// from many files"). Pure: no files, no project.
//
// Megatron-Core tokens per expert (LocalExperts): rank R's counts are over the local
// experts of its EP rank, tokens received after dispatch. With the record's expert
// grid (RankGrid::expertGrid: etp fastest … pp, in parallelism.order):
//   - ranks of one expert-TP group hold the same tokens: counted once (and checked equal);
//   - the EP ranks of a group are concatenated: global expert = ep_rank × local + j;
//   - expert-data-parallel groups are summed; micro-batches were summed on reading;
//   - `layer` is the index in decoder.layers.N of the rank's pipeline stage: the global
//     layer is stage × (model.layers / pp) + N;
//   - MTP layers ("mtp_idx") stay separate and get numbers after the decoder's.
// Routing traces (GlobalExperts): each rank's counts are over all experts for the
// tokens it routed; ranks are summed, layers offset by pipeline stage as above.
#include "common/Expected.h"
#include "importers/ImportError.h"
#include "record/ConfigRecord.h"
#include "store/ProjectStore.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QStringList>

namespace moewb::runimport {

// AllExpertsTpe: remote/collect's tokens-per-expert rank files ("experts_scope": "all"):
// each rank's counts over all experts for the tokens it routed, summed as traces are.
enum class RankFileKind { LocalExperts, GlobalExperts, AllExpertsTpe };

struct RankFile {
    QString shown; // the file as named in messages
    int rank = -1;
    QVector<store::ExpertLoadBlock> blocks; // layer as written; mtpIndex >= 0 for MTP
};

struct RankMergeResult {
    QVector<store::ExpertLoadBlock> blocks; // global layers, ordered by step then layer; mtpIndex -1
    QJsonArray mtpLayers;                   // [{"layer", "mtp_idx", "mtp_layer"}]
    QStringList notes;                      // what was done, in words
    QHash<int, QString> roles;              // rank -> its place in the layout, in words
    int experts = 0;
};

Expected<RankMergeResult, QList<importers::ImportError>> mergeRankFiles(const QList<RankFile>& files,
                                                                        RankFileKind kind,
                                                                        const record::ConfigRecord& record,
                                                                        bool allowPartialSteps);

} // namespace moewb::runimport
