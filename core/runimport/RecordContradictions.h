#pragma once
// Where a file contradicts the config record it is imported under (docs/formats.md,
// "When a file contradicts its record"): the devices it names are another model than
// the record's accelerator, it ran on another world size or node count than the
// record's cluster, or its host names repeat across nodes (containers that all call
// themselves the same). Warnings, not refusals: the user decides; the plan shows them
// before anything is stored and the run keeps them (environment.record_warnings).
#include "importers/ImportedData.h"
#include "record/ConfigRecord.h"

#include <QStringList>

namespace moewb::runimport {

// The accelerator model names in a device or record text: "NVIDIA H100 80GB HBM3" ->
// {"H100"}, "AMD Instinct MI355X" -> {"MI355X"}, "H100 SXM5 80GB" -> {"H100"}.
QStringList acceleratorModels(const QString& text);

// One line per contradiction, each naming the file (as shown) and both sides.
QStringList recordContradictions(const importers::ImportedData& data, const record::ConfigRecord& record,
                                 const QString& shown);

} // namespace moewb::runimport
