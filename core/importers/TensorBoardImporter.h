#pragma once
// TensorBoard event files (events.out.tfevents.*): TFRecord framing with both masked
// CRC-32C checked, Event protos read with a small wire reader; scalars from
// simple_value and from scalar tensors (float_val, double_val, tensor_content).
// Errors name the record number (1-based) in place of a line.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class TensorBoardImporter {
public:
    static constexpr const char* kFormat = "tensorboard";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    // The first record's framing is valid (used by format detection).
    static bool looksLikeTfRecord(const QByteArray& head);
    // "lm-loss" -> lm_loss, "iteration-time" -> elapsed_ms_per_iter (scale 1000: s -> ms), ...
    static QString metricNameForTag(const QString& tag, double& scale);
};

} // namespace moewb::importers
