#pragma once
// The reference evaluation (`moewb reference`, Start screen ▸ "Measure a reference
// evaluation on this computer"; docs/reference.md): the whole four-stage method run on
// measurements taken here and now —
//   1. remote/reference/reference_train.py trains a tiny byte-level LM four times (dense,
//      MoE capacity factor 1.0 / 1.25 / dropless; 4 processes, gloo, CPU) with the
//      collector attached; each training's config record is added and its folder is
//      imported as ONE run (the code path of `moewb import DIR`);
//   2. cluster A = 4 probe ranks on loopback (launcher "local") and, as root, cluster B =
//      4 ranks in network namespaces joined by veth pairs shaped with tc tbf at a slower
//      rate; stage 1 is measured on each (remote/launch StageOneSweep);
//   3. stages 1–4 are evaluated and their verdicts saved. Where a gate stops, the run goes
//      on past it with a written override that says why (every stage is to be shown), so
//      the stop stays on record beside the override, as the method keeps it.
// Without root, cluster A only: stage 4 is not measured and the project says why.
//
// Nothing half-made is left: the project is written to a temporary file beside the
// target and renamed into place at the end; the measurement folder (the trainings' raw
// files, kept for the reader) is removed on failure or cancel.
//
// Threading: run() blocks (minutes); call it on a worker thread. Callbacks come from
// that thread (or the stage 1 sweep's workers: they must be thread-safe). cancel() may
// be called from any thread: the training's and probes' processes are ended (their
// process groups), run() returns within a few seconds with `cancelled`.
#include "common/Expected.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace moewb::reference {

struct ReferenceOptions {
    QString projectPath;   // the *.moewb to write
    bool quick = false;    // fewer steps and sizes (the e2e test; under 5 minutes on 2 cores)
    bool overwrite = false; // replace an existing project (and its measurement folder)
    // Where reference_train.py is (empty: findReferenceDir()).
    QString referenceDir;
    // The Python with torch (empty: $MOEWB_PYTHON, else /usr/bin/python3).
    QString python;
    int world = 4;
    int seed = 1;
    // Cluster B's tc tbf rate ("100mbit"): clearly slower than loopback.
    QString clusterBRate = QStringLiteral("100mbit");
    // Leave cluster B out even as root (tests of the not-root path).
    bool skipClusterB = false;
    // Where the probe bundle is (empty: StageOneSweep's default).
    QString probeBundleDir;
};

struct StageOutcome {
    int stage = 0;
    QString status;      // the saved verdict: "pass", "stop", "not_ready"
    QStringList reasons; // the gate's
    QString nextStep;
    bool overridden = false; // a stop the reference went past (justification on record)
};

struct ReferenceResult {
    QString projectPath;  // absolute
    QString dataDir;      // the trainings' raw files
    QStringList trainingRuns;
    QStringList stageOneRuns;
    bool stageFourMeasured = false;
    QString stageFourWhyNot;
    QList<StageOutcome> stages; // 1..4
    double seconds = 0.0;
};

struct ReferenceError {
    QString message; // full sentence(s)
    bool cancelled = false;
};

// reference_train.py's folder: $MOEWB_REFERENCE_DIR, else share/moe-workbench/reference
// beside the program's bin/, else the source tree's remote/reference (build tree). Empty
// (and *why set) when none holds reference_train.py.
QString findReferenceDir(QString* why = nullptr);

// The measurement folder of a project: "<path without .moewb>.reference-data".
QString dataDirFor(const QString& projectPath);

class ReferenceEvaluation {
public:
    // fraction of the whole run in [0, 1]; what: the current step in words.
    using Progress = std::function<void(double fraction, const QString& what)>;
    // One line of a training's or probe's output (for a log view / --verbose).
    using Log = std::function<void(const QString& line)>;

    ReferenceEvaluation(ReferenceOptions options, Progress progress = {}, Log log = {});
    ~ReferenceEvaluation();
    ReferenceEvaluation(const ReferenceEvaluation&) = delete;
    ReferenceEvaluation& operator=(const ReferenceEvaluation&) = delete;

    Expected<ReferenceResult, ReferenceError> run();
    void cancel();
    bool cancelled() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace moewb::reference
