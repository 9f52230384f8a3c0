#pragma once
// What an importer hands back: typed measurements and what the file says about
// where and how it ran. Importers are pure parsers; saving is the caller's job
// (store::ProjectStore::saveRun, one transaction).
#include "store/ProjectStore.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace moewb::importers {

struct ImportedData {
    // "probe-json", "nccl-tests", "nccl-tests-json", "megatron-log", "megatron-tpe-jsonl",
    // "routing-trace-jsonl", "tensorboard", "csv-metrics", "jsonl-metrics",
    // "csv-expert-load", "jsonl-expert-load", "torchtitan-log", "nemo-log", "wandb-csv"
    QString format;
    store::RunKind kind = store::RunKind::Imported; // Probe for probe JSON
    qint64 rows = 0;                                 // data rows read (format-specific, docs/formats.md)
    QJsonObject environment;                         // world, nodes, hostnames, versions, collective, ...
    QVector<store::CommSample> commSamples;          // time in µs
    QVector<store::StepMetric> stepMetrics;          // canonical metric names (docs/formats.md)
    QVector<store::ExpertLoadBlock> expertLoad;
};

} // namespace moewb::importers
