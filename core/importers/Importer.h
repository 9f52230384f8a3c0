#pragma once
// The one entry point to every importer: detect the format (or take the one given),
// parse the whole file, return typed data or an error naming file, line and field.
// Importers never write to a project; the caller saves with ProjectStore::saveRun.
#include "importers/ImportSupport.h"

#include <QStringList>

namespace moewb::importers {

// Detects the format unless given. An unknown format name is an error naming the known ones.
ImportResult importFile(const QString& path, const QString& format = {});
// The same over bytes already in memory (fileName is used in messages).
ImportResult importBytes(const QByteArray& bytes, const QString& fileName, const QString& format = {});

// "probe-json", "nccl-tests", "nccl-tests-json", "megatron-log", "megatron-tpe-jsonl",
// "routing-trace-jsonl", "megatron-routing-trace", "tensorboard", "csv-metrics", "jsonl-metrics",
// "csv-expert-load", "jsonl-expert-load", "torchtitan-log", "nemo-log", "wandb-csv",
// "moewb-collect-jsonl"
QStringList importFormats();

// The format the content looks like, or an error saying it cannot be told.
Expected<QString, ImportError> detectFormat(const QByteArray& bytes, const QString& fileName);

} // namespace moewb::importers
