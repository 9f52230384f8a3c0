#pragma once
// Where each of the four stages stands, for the checklist and the stage pages'
// lock banner: computed from the stored verdicts, overrides and the gating order
// (stages::lockReason). Every state has an icon AND words, never colour alone.
#include <QString>

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

struct StageState {
    enum class Kind { NotStarted, Running, Passed, Stopped, Overridden, Stale, NotReady, Locked };
    Kind kind = Kind::NotStarted;
    QString icon;   // one glyph: ✔ ✖ ↷ ⟳ ○ ⊘ …
    QString words;  // "passed", "stopped", "locked", …
    QString detail; // the reason (stop, stale, not ready) or why locked and what unlocks it
};

// "Communication baseline", "Dense control", "Expert load and loss", "Transfer".
QString stageName(int stage);
// The checklist's label: "✔ 1 Comm. baseline — passed".
QString stageChecklistText(int stage, const StageState& state);
StageState stageState(const store::ProjectStore& project, int stage);
// The state a stage shows while its evaluation runs.
StageState runningState();

} // namespace moewb::gui
