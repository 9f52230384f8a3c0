#pragma once
// docs/formats.md, "nemo-log": the console output of NeMo 2's ProgressPrinter
// (nemo/lightning/pytorch/callbacks/progress_printer.py, NVIDIA/NeMo main 8cfedd72,
// September 2025; unchanged since the callback appeared in NeMo 2.0):
//   Training epoch 0, iteration 0/9 | lr: 1.499e-07 | global_batch_size: 32 |
//       global_step: 0 | reduced_train_loss: 11.02 | train_step_timing in s: 3.21 |
//       consumed_samples: 32
// (one line; floats printed with "{:.4}", whole numbers as integers). Every other
// line, the "Validation: iteration i/n" progress lines included, is skipped.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class NemoLogImporter {
public:
    static constexpr const char* kFormat = "nemo-log";
    // Damaged lines keep their readable fields and are listed in
    // environment.damaged_lines (DamagedLines.h); strict: the first refuses the file.
    static ImportResult parseWith(const QByteArray& bytes, const QString& fileName, bool strict);
    static ImportResult parse(const QByteArray& bytes, const QString& fileName) {
        return parseWith(bytes, fileName, false);
    }
    static ImportResult parseStrict(const QByteArray& bytes, const QString& fileName) {
        return parseWith(bytes, fileName, true);
    }
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    // True when the text holds a "Training epoch E, iteration N/T |" line.
    static bool looksLikeNemoLog(const QByteArray& head);
};

} // namespace moewb::importers
