#pragma once
// One evaluation path for the CLI (`moewb stage N`, `moewb override N`) and the
// window's stage pages: read a stage's inputs from the project, run its gate, save
// the verdict (and mark stage 2 stale), record an override, and say where a stage
// stands for the checklist. Both front ends call these, so they decide identically.
// docs/method.md ("Gating order and saved verdicts").
//
// Threading: everything here runs on the thread that opened the ProjectStore
// (see ProjectStore.h); a worker opens its own store on the same path.
#include "common/Expected.h"
#include "stages/StageFourGate.h"
#include "stages/StageInputs.h"
#include "stages/StageOneGate.h"
#include "stages/StageThreeGate.h"
#include "stages/StageTwoGate.h"
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QJsonObject>
#include <QStringList>
#include <optional>
#include <variant>

namespace moewb::stages {

// A stage evaluated on the project: its inputs (for tables and plots), the gate's
// full result and its verdict.
struct StageEvaluation {
    int stage = 0;
    QStringList runNames; // as asked (empty: the stage's default runs)
    // Non-empty: the stage is locked (lockReason()); nothing was evaluated, the
    // verdict is NotReady with this reason, and saveStageVerdict refuses it.
    QString lockReason;
    // The first earlier stage that blocks (the one to run next); 0 when unlocked.
    int blockingStage = 0;
    // A locked stage evaluated for looking only (evaluateStage's `preview`): the
    // inputs, result and the gate's would-be verdict are filled, lockReason stays, and
    // saveStageVerdict still refuses it. Looking is not proceeding.
    bool preview = false;

    // The inputs the gate read.
    QList<StageOneRunInput> stageOneInputs;
    QList<TrainingRunInput> stageTwoInputs;
    QList<ExpertLoadRunInput> stageThreeInputs;
    QList<TrainingRunInput> stageTwoMoeRuns; // stage 3: the MoE runs stage 2 decided on
    std::optional<StageFourInputs> stageFourInputs;

    // The gate's result: monostate when locked, or stage 4 without two baselines.
    std::variant<std::monostate, StageOneResult, StageTwoResult, StageThreeResult, StageFourResult> result;
    // The gate's verdict. Stage 1: one note per suggested threshold ("Suggested (not
    // applied): …"). Stage 4 without two baselines: NotReady naming what is missing.
    Verdict verdict;
    // Stage 3: the sentence that marks stage 2 stale (empty when it is not).
    QString stageTwoStaleReason;

    bool locked() const { return !lockReason.isEmpty(); }
    const StageOneResult* stageOne() const { return std::get_if<StageOneResult>(&result); }
    const StageTwoResult* stageTwo() const { return std::get_if<StageTwoResult>(&result); }
    const StageThreeResult* stageThree() const { return std::get_if<StageThreeResult>(&result); }
    const StageFourResult* stageFour() const { return std::get_if<StageFourResult>(&result); }
};

// Runs stage `stage` (1..4) on the named runs (stage 4: source then target), or on
// the stage's default runs (StageInputs.h). A locked stage comes back locked, not
// as an error — with nothing evaluated, or, with `preview`, evaluated for looking
// (StageEvaluation::preview). Errors: a stage outside 1..4, a named run that does
// not exist or cannot be used (InputError's message names it).
// Stage 3's inputs carry every expert-load count by default (the window's plots show
// them); ExpertLoadCounts::Window reads only what the gate needs (the CLI).
Expected<StageEvaluation, InputError> evaluateStage(const store::ProjectStore& project, int stage,
                                                    const QStringList& runNames = {}, bool preview = false,
                                                    ExpertLoadCounts counts = ExpertLoadCounts::All);

// The names of the runs an evaluation read (stage 4: source, then target).
QStringList evaluatedRunNames(const StageEvaluation& evaluation);

// What a saved verdict was computed on (store::VerdictRow::basis): whether its runs
// were the stage's default or named, and each run's name and fingerprint (id, sample,
// step and load-block counts, last write). Written by saveStageVerdict.
QJsonObject verdictBasis(const store::ProjectStore& project, const StageEvaluation& evaluation);

// A saved verdict against the runs the stage would use now: the stage's default runs
// (or, for a verdict on named runs, those runs). New data does not change the verdict,
// its lock or its override: it only says "re-evaluate?" until the stage is evaluated
// again (docs/method.md, "New data since the verdict").
struct VerdictFreshness {
    bool recorded = false; // the verdict names its runs (saved by schema 4 or later)
    QStringList added;     // runs the stage would take now that the verdict did not see
    QStringList changed;   // runs rewritten since (`import --into`), by name
    QStringList removed;   // runs the verdict read that are gone or no longer qualify
    bool newData() const { return !added.isEmpty() || !changed.isEmpty() || !removed.isEmpty(); }
    // "New data since the verdict — re-evaluate? 1 new run: b. …" (empty when none).
    QString sentence;
};
VerdictFreshness verdictFreshness(const store::ProjectStore& project, const store::VerdictRow& verdict);

// Saves the evaluation's verdict as the stage's current one (status pass, stop or
// not_ready; reasons = the verdict's reasons; an override of the previous stop carried
// over, VerdictOverride.h) and, when stage 3 found stage 2 stale,
// stage 2's verdict "stale" with that reason. A locked evaluation saves nothing and
// is refused.
Expected<Ok, store::StoreError> saveStageVerdict(store::ProjectStore& project, const StageEvaluation& evaluation);

struct OverrideError {
    enum class Kind { BlankJustification, NoStop, BadStage, Store };
    Kind kind = Kind::Store;
    QString message;
    // NoStop: the stage's current verdict status; empty when it has none.
    QString currentStatus;
};

// Records a written justification for going past stage `stage`'s stop (the stop
// stays on record beside it, for the report; the next stage unlocks — lockReason()
// accepts a stop with an override written at or after it). Refused: a blank
// justification, a stage whose current verdict is not "stop". An empty author
// becomes $USER (else "unknown"). Returns the override's id.
Expected<qint64, OverrideError> overrideStage(store::ProjectStore& project, int stage, const QString& justification,
                                              const QString& author = {});

// Takes back the override in effect on stage `stage`'s stop (the override stays on
// record; the stop is in force again and later stages lock). Refused (NoStop) when the
// stage has no override in effect.
Expected<Ok, OverrideError> withdrawOverride(store::ProjectStore& project, int stage);

// Where a stage stands, for the checklist.
struct StageStatus {
    enum class Kind { NotStarted, Passed, Stopped, NotReady, Overridden, Stale, Locked };
    Kind kind = Kind::NotStarted;
    // Stopped / NotReady / Stale: the saved verdict's first reason; Locked: the lock
    // reason; Overridden: the latest justification.
    QString reason;
    QStringList reasons; // the saved verdict's reasons (all of them)
    std::optional<store::VerdictRow> verdict;
    std::optional<store::OverrideRow> override_; // the override that counts, when Overridden
    // The saved verdict against the runs the stage would use now.
    VerdictFreshness freshness;
    // Overridden, and the stop's basis changed since the override was written: a
    // re-evaluation on other runs or thresholds (overrideOnOlderBasis: confirm or
    // withdraw it), or new data the saved verdict has not seen yet (re-evaluate).
    bool overrideOnOlderData = false;
    bool overrideOnOlderBasis = false;
};
// Locked (an earlier stage has not passed) wins over the stage's own verdict;
// otherwise its saved verdict: pass, stop (Overridden when an override was written
// at or after it), not_ready, stale, overridden; no verdict -> NotStarted.
StageStatus stageStatus(const store::ProjectStore& project, int stage);
// "not started", "passed", "stopped", "not ready", "overridden", "stale", "locked".
QString stageStatusText(StageStatus::Kind kind);

} // namespace moewb::stages
