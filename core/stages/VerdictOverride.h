#pragma once
// Which written override a saved stop carries, and whether it still stands on the basis
// it was given on (docs/method.md, "Overrides and re-evaluation").
//
// An override holds while its verdict's basis holds: the same runs (names and
// fingerprints), the same thresholds, the same outcome. Re-evaluating on an equal basis
// attaches the override to the new, equal verdict; on a changed basis the override is
// still attached but marked "on older data" until it is confirmed (written again) or
// withdrawn. The link lives in the verdict's basis JSON ("override": {"id", "older"}),
// so no column is needed; an override written after the verdict counts as before.
#include "store/ProjectStore.h"

#include <QJsonObject>
#include <optional>

namespace moewb::stages {

struct Verdict;

struct OverrideLink {
    std::optional<store::OverrideRow> override_;
    // Given on an earlier verdict whose basis differs from this one's.
    bool givenOnOlderBasis = false;
};

// The override a saved verdict carries: the latest override of its stage written at or
// after the verdict, else the one its basis names (carried over by a re-evaluation).
// None for a verdict that is not a stop, or without either.
OverrideLink overrideOfVerdict(const QList<store::OverrideRow>& overrides, const store::VerdictRow& verdict);

// {"stage1.cv_max": 0.1, …}: the thresholds a verdict compared against, for its basis.
QJsonObject thresholdBasis(const Verdict& verdict);

// Whether `later` was decided on the same basis as `earlier`: the same selection and
// runs (with their fingerprints), the same status, and the same thresholds (for a
// verdict saved before bases held thresholds: no threshold of the stage changed after
// it, read from `project`).
bool sameBasis(const store::ProjectStore& project, const store::VerdictRow& earlier, const store::VerdictRow& later);

// The basis of `next` (a verdict about to replace `previous`) with the override of
// `previous` carried over: unchanged when `previous` carries none; "older" when the
// bases differ or the override was already on older data.
QJsonObject carryOverride(const store::ProjectStore& project, const store::VerdictRow& previous,
                          const store::VerdictRow& next);

} // namespace moewb::stages
