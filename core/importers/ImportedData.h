#pragma once
// What an importer hands back: typed measurements and what the file says about
// where and how it ran. Importers are pure parsers; saving is the caller's job
// (store::ProjectStore::saveRun, one transaction).
#include "store/ProjectStore.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace moewb::importers {

// moewb-collect-jsonl only (docs/formats.md, "moewb collector sidecar"): one rank's
// figures of one written step, summed over its MoE layers, for the merge of ranks
// (core/runimport). Times in seconds; a time the adapter could not measure is -1.
struct CollectorStep {
    qint64 step = 0;
    quint64 tokens = 0, assignments = 0, droppedTokens = 0, droppedAssignments = 0;
    int layers = 0;       // "drops" lines of the step
    bool timed = false;   // a "time" line
    double stepS = 0.0, a2aS = -1.0, computeS = -1.0;
};

struct ImportedData {
    // "probe-json", "nccl-tests", "nccl-tests-json", "megatron-log", "megatron-tpe-jsonl",
    // "routing-trace-jsonl", "tensorboard", "csv-metrics", "jsonl-metrics",
    // "csv-expert-load", "jsonl-expert-load", "torchtitan-log", "nemo-log", "wandb-csv"
    QString format;
    store::RunKind kind = store::RunKind::Imported; // Probe for probe JSON
    qint64 rows = 0;                                 // data rows read (format-specific, docs/formats.md)
    QJsonObject environment;                         // world, nodes, hostnames, versions, collective, ...
    store::CommSampleList commSamples;               // time in µs, packed
    QVector<store::StepMetric> stepMetrics;          // canonical metric names (docs/formats.md)
    QVector<store::ExpertLoadBlock> expertLoad;
    QVector<CollectorStep> collectorSteps; // moewb-collect-jsonl: ordered by step
};

} // namespace moewb::importers
