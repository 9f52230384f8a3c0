#pragma once
// docs/formats.md, "wandb-csv": a chart exported from the Weights & Biases web app
// ("…" menu of a line plot ▸ Export ▸ CSV, wandb_export_<time>.csv). The layout is
// the web app's (closed source; taken from exported files): a quoted header
//   "Step","<run> - <metric>","<run> - <metric>__MIN","<run> - <metric>__MAX",…
// with one column triple per run and metric, then one row per step; an empty cell is
// no value. __MIN/__MAX (the bounds of a smoothed or sampled line) are skipped.
// A file with several runs is read one run at a time (parseRun); parse() accepts a
// file with one run and refuses one with several, naming them.
#include "importers/ImportSupport.h"

#include <QStringList>

namespace moewb::importers {

class WandbCsvImporter {
public:
    static constexpr const char* kFormat = "wandb-csv";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
    // The one run named `runName` of a file that may hold several.
    static ImportResult parseRun(const QByteArray& bytes, const QString& fileName, const QString& runName);
    // The runs of the file, in the order of their first column.
    static Expected<QStringList, ImportError> runNames(const QByteArray& bytes, const QString& fileName);
    // True when the first line is a header "Step","<run> - <metric>",… (detection).
    static bool looksLikeWandbCsv(const QByteArray& head);
};

} // namespace moewb::importers
