#pragma once
// docs/formats.md, "torchtitan-log": the console output of torchtitan's trainer, as
// MetricsProcessor.log / log_validation in torchtitan/components/metrics.py print it
// (pytorch/torchtitan main, b5bcd76c6, August 2026; the layout is the same back to
// 4e3266374, February 2025, with grad_norm from a85e2a536 and "mfu: N/A" from f113706c4):
//   [rank0]:[titan] 2026-07-17 12:05:19,496 - root - INFO - step:  2  loss:  6.09081
//       grad_norm:  4.2098  memory:  4.26GiB(2.39%)  tps: 72,915  tflops: 39.59  mfu: N/A
//   [titan] ... - INFO - validate step: 10  loss:  5.1234  memory: ...  tps: 1,234
// with or without torchrun's "[rankN]:" prefix and with or without the ANSI colour
// escapes torchtitan puts around each field (utils.Color). Every other line is skipped.
#include "importers/ImportSupport.h"

namespace moewb::importers {

class TorchtitanLogImporter {
public:
    static constexpr const char* kFormat = "torchtitan-log";
    // A damaged step line is left out whole and listed in environment.damaged_lines
    // (DamagedLines.h); strict: the first refuses the file.
    static ImportResult parseWith(const QByteArray& bytes, const QString& fileName, bool strict);
    static ImportResult parse(const QByteArray& bytes, const QString& fileName) {
        return parseWith(bytes, fileName, false);
    }
    static ImportResult parseStrict(const QByteArray& bytes, const QString& fileName) {
        return parseWith(bytes, fileName, true);
    }
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    // True when the text holds a "[titan]" logger line with a "step: N  loss: X" message.
    static bool looksLikeTorchtitanLog(const QByteArray& head);
};

} // namespace moewb::importers
