#pragma once
// The demo project: a synthetic evaluation that exercises every page of the
// workbench (two clusters, complete and draft config records, stage 1 probe runs,
// stage 2 MoE-vs-dense training runs, stage 3 expert load, a target-cluster
// baseline for stage 4, team thresholds). Every name starts with "demo-", every
// run carries the environment {"demo": true, "data": "synthetic"}. The data is
// deterministic (fixed seed): two generations hold identical measurements.
// What each stage gives and why: docs/demo.md.
#include "common/Expected.h"
#include "store/ProjectStore.h"

#include <QJsonObject>
#include <QString>

namespace moewb::demo {

// $XDG_DATA_HOME (or ~/.local/share)/moe-workbench/demo.moewb; the folder is not
// created here (writeDemoProject creates missing parent folders).
QString defaultDemoPath();

struct DemoOptions {
    bool overwrite = false; // replace an existing file at the path
};

// Writes the demo into a temporary file beside `path` and renames it into place at
// the end, so a failure or a kill never leaves a half-written demo. An existing
// file is refused ("… already exists; use --force") unless options.overwrite.
Expected<Ok, store::StoreError> writeDemoProject(const QString& path, const DemoOptions& options = {});

// A project with one complete MoE record and one training run carrying
// `steps` × `layers` × `experts` expert load (and lm_loss every step), for the
// GUI speed benchmark. Overwrites `path`; same temp-file-and-rename rule.
Expected<Ok, store::StoreError> writeExpertLoadBenchProject(const QString& path, int steps, int layers,
                                                            int experts);

// True when the project was written by writeDemoProject (a run or record marked
// {"demo": true, "data": "synthetic"}).
bool isDemoProject(const store::ProjectStore& project);

// The environment object every demo run carries.
QJsonObject demoEnvironmentMarker();

} // namespace moewb::demo
