#include "stages/StageEvaluation.h"

#include "stages/StagesTr.h"
#include "stages/VerdictOverride.h"

#include <QJsonArray>
#include <algorithm>

namespace moewb::stages {

namespace {

Verdict lockedVerdict(const QString& reason, int blocking) {
    Verdict v;
    v.status = Verdict::Status::NotReady;
    v.reasons << reason;
    v.nextStep = Stages::tr("Run: moewb stage %1").arg(blocking);
    return v;
}

QJsonObject runFingerprint(const store::RunRow& r) {
    return {{QStringLiteral("name"), r.name},
            {QStringLiteral("id"), r.id},
            {QStringLiteral("samples"), r.commSampleCount},
            {QStringLiteral("steps"), r.stepCount},
            {QStringLiteral("blocks"), r.expertLoadBlocks},
            {QStringLiteral("updated"), r.updated.toUTC().toString(Qt::ISODateWithMs)}};
}

QString nameList(const QStringList& names) {
    return names.join(QStringLiteral(", "));
}

} // namespace

QStringList evaluatedRunNames(const StageEvaluation& e) {
    QStringList names;
    switch (e.stage) {
    case 1:
        for (const StageOneRunInput& in : e.stageOneInputs)
            names << in.runName;
        break;
    case 2:
        for (const TrainingRunInput& in : e.stageTwoInputs)
            names << in.runName;
        break;
    case 3:
        for (const ExpertLoadRunInput& in : e.stageThreeInputs)
            names << in.runName;
        break;
    default:
        if (e.stageFourInputs)
            names << e.stageFourInputs->source.run.runName << e.stageFourInputs->target.run.runName;
        break;
    }
    return names;
}

QJsonObject verdictBasis(const store::ProjectStore& project, const StageEvaluation& e) {
    QJsonArray runs;
    for (const QString& name : evaluatedRunNames(e))
        if (const auto row = project.run(name))
            runs.append(runFingerprint(*row));
    return {{QStringLiteral("selection"), e.runNames.isEmpty() ? QStringLiteral("default") : QStringLiteral("named")},
            {QStringLiteral("runs"), runs},
            {QStringLiteral("thresholds"), thresholdBasis(e.verdict)}};
}

VerdictFreshness verdictFreshness(const store::ProjectStore& project, const store::VerdictRow& verdict) {
    VerdictFreshness f;
    const QJsonArray saved = verdict.basis.value(QLatin1String("runs")).toArray();
    const QString selection = verdict.basis.value(QLatin1String("selection")).toString();
    if (selection.isEmpty())
        return f; // saved before verdicts recorded their runs
    f.recorded = true;
    QList<store::RunRow> now;
    if (selection == QLatin1String("named")) {
        for (const QJsonValue& v : saved)
            if (const auto row = project.run(v.toObject().value(QLatin1String("name")).toString()))
                now << *row;
    } else {
        now = defaultStageRuns(project, verdict.stage);
    }
    QStringList savedNames;
    for (const QJsonValue& v : saved) {
        const QJsonObject o = v.toObject();
        const QString name = o.value(QLatin1String("name")).toString();
        savedNames << name;
        const auto it = std::find_if(now.cbegin(), now.cend(), [&](const store::RunRow& r) { return r.name == name; });
        if (it == now.cend())
            f.removed << name;
        else if (runFingerprint(*it) != o)
            f.changed << name;
    }
    for (const store::RunRow& r : std::as_const(now))
        if (!savedNames.contains(r.name))
            f.added << r.name;
    if (!f.newData())
        return f;
    QStringList parts;
    if (!f.added.isEmpty())
        parts << Stages::tr("%n new run(s): %1", "", int(f.added.size())).arg(nameList(f.added));
    if (!f.changed.isEmpty())
        parts << Stages::tr("%n run(s) re-imported since: %1", "", int(f.changed.size())).arg(nameList(f.changed));
    if (!f.removed.isEmpty())
        parts << Stages::tr("%n run(s) no longer there: %1", "", int(f.removed.size())).arg(nameList(f.removed));
    f.sentence = Stages::tr("New data since the verdict — re-evaluate? %1. The verdict, its lock and any override "
                            "stay as they are until stage %2 is evaluated again.")
                     .arg(parts.join(QStringLiteral("; ")))
                     .arg(verdict.stage);
    return f;
}

Expected<StageEvaluation, InputError> evaluateStage(const store::ProjectStore& project, int stage,
                                                    const QStringList& runNames, bool preview,
                                                    ExpertLoadCounts counts) {
    if (stage < 1 || stage > 4)
        return unexpected(InputError{Stages::tr("there is no stage %1: the stages are 1, 2, 3 and 4").arg(stage)});
    StageEvaluation e;
    e.stage = stage;
    e.runNames = runNames;
    e.lockReason = lockReason(project, stage);
    if (e.locked()) {
        // The first earlier stage that blocks: the one to run next.
        int blocking = 1;
        while (blocking + 1 < stage && lockReason(project, blocking + 1).isEmpty())
            ++blocking;
        e.blockingStage = blocking;
        e.verdict = lockedVerdict(e.lockReason, blocking);
        if (!preview)
            return e;
        e.preview = true;
    }

    const ThresholdSet thresholds = loadThresholds(project);
    switch (stage) {
    case 1: {
        auto in = loadStageOneInputs(project, runNames);
        if (!in)
            return unexpected(in.error());
        e.stageOneInputs = *in;
        StageOneResult r = evaluateStageOne(e.stageOneInputs, thresholds, loadStageOneTargets(project));
        e.verdict = r.verdict;
        for (const SuggestedThreshold& s : r.suggestions)
            e.verdict.notes << Stages::tr("Suggested (not applied): %1 = %2 — %3.")
                                   .arg(s.key, thresholdValueText(s.key, s.value), s.basis);
        e.result = std::move(r);
        break;
    }
    case 2: {
        auto in = loadStageTwoInputs(project, runNames);
        if (!in)
            return unexpected(in.error());
        e.stageTwoInputs = *in;
        StageTwoResult r = evaluateStageTwo(e.stageTwoInputs, thresholds);
        e.verdict = r.verdict;
        e.result = std::move(r);
        break;
    }
    case 3: {
        auto in = loadStageThreeInputs(project, runNames, counts);
        if (!in)
            return unexpected(in.error());
        e.stageThreeInputs = *in;
        e.stageTwoMoeRuns = loadStageTwoMoeRuns(project);
        StageThreeResult r = evaluateStageThree(e.stageThreeInputs, thresholds, e.stageTwoMoeRuns);
        e.verdict = r.verdict;
        if (r.staleness.stale)
            e.stageTwoStaleReason = r.staleness.reason;
        e.result = std::move(r);
        break;
    }
    default: {
        auto in = loadStageFourInputs(project, runNames);
        if (!in && !runNames.isEmpty())
            return unexpected(in.error());
        if (in) {
            e.stageFourInputs = *in;
            StageFourResult r = evaluateStageFour(in->source, in->target, thresholds);
            e.verdict = r.verdict;
            e.result = std::move(r);
        } else {
            e.verdict.status = Verdict::Status::NotReady;
            e.verdict.reasons << in.error().message;
            e.verdict.nextStep = Stages::tr("Run stage 1 on the target cluster, or name the two runs.");
            e.verdict.thresholds = {thresholds.get(QStringLiteral("stage4.baseline_diff_max"))};
        }
        break;
    }
    }
    return e;
}

Expected<Ok, store::StoreError> saveStageVerdict(store::ProjectStore& project, const StageEvaluation& e) {
    if (e.locked())
        return unexpected(store::StoreError{project.path(), Stages::tr("not saved: %1").arg(e.lockReason)});
    QJsonArray reasons;
    for (const QString& r : e.verdict.reasons)
        reasons.append(r);
    store::VerdictRow next{e.stage, statusToken(e.verdict.status), reasons, QDateTime::currentDateTimeUtc(),
                           verdictBasis(project, e)};
    // An override holds while its verdict's basis holds; on a changed basis it stays,
    // marked as given on older data (VerdictOverride.h). Never silently dropped.
    if (const auto previous = project.verdict(e.stage))
        next.basis = carryOverride(project, *previous, next);
    if (auto saved = project.saveVerdict(next); !saved)
        return saved;
    if (e.stage == 3 && !e.stageTwoStaleReason.isEmpty()) {
        // Stage 2 keeps what it was computed on: its runs did not change, its method did.
        const auto two = project.verdict(2);
        if (auto saved = project.saveVerdict(
                {2, QStringLiteral("stale"), QJsonArray{e.stageTwoStaleReason}, {}, two ? two->basis : QJsonObject()});
            !saved)
            return saved;
    }
    return Ok{};
}

Expected<qint64, OverrideError> overrideStage(store::ProjectStore& project, int stage, const QString& justification,
                                              const QString& author) {
    using Kind = OverrideError::Kind;
    if (stage < 1 || stage > 4)
        return unexpected(
            OverrideError{Kind::BadStage, Stages::tr("there is no stage %1: the stages are 1, 2, 3 and 4").arg(stage), {}});
    const QString text = justification.trimmed();
    if (text.isEmpty())
        return unexpected(OverrideError{
            Kind::BlankJustification,
            Stages::tr("a justification is required: an override is only valid with a written reason"),
            {}});
    const auto verdict = project.verdict(stage);
    if (!verdict || verdict->status != QLatin1String("stop"))
        return unexpected(OverrideError{
            Kind::NoStop,
            Stages::tr("stage %1 has no stop to override (its verdict is %2)")
                .arg(stage)
                .arg(verdict ? QStringLiteral("\"%1\"").arg(verdictWord(verdict->status)) : Stages::tr("not yet decided")),
            verdict ? verdict->status : QString()});
    QString who = author.trimmed();
    if (who.isEmpty())
        who = qEnvironmentVariable("USER", Stages::tr("unknown"));
    auto added = project.addOverride({0, stage, text, who, {}});
    if (!added)
        return unexpected(OverrideError{Kind::Store, added.error().text(), {}});
    return added.value();
}

Expected<Ok, OverrideError> withdrawOverride(store::ProjectStore& project, int stage) {
    using Kind = OverrideError::Kind;
    if (stage < 1 || stage > 4)
        return unexpected(
            OverrideError{Kind::BadStage, Stages::tr("there is no stage %1: the stages are 1, 2, 3 and 4").arg(stage), {}});
    const auto verdict = project.verdict(stage);
    if (!verdict || !overrideOfVerdict(project.overrides(), *verdict).override_)
        return unexpected(OverrideError{Kind::NoStop, Stages::tr("stage %1 has no override in effect").arg(stage),
                                        verdict ? verdict->status : QString()});
    // The same stop, decided again now and carrying no override: the override stays in
    // the project's history (and the report), the stop is back in force.
    store::VerdictRow again = *verdict;
    again.decided = QDateTime::currentDateTimeUtc();
    again.basis.remove(QStringLiteral("override"));
    if (auto saved = project.saveVerdict(again); !saved)
        return unexpected(OverrideError{Kind::Store, saved.error().text(), {}});
    return Ok{};
}

StageStatus stageStatus(const store::ProjectStore& project, int stage) {
    StageStatus s;
    s.verdict = project.verdict(stage);
    if (s.verdict)
        for (const auto& r : s.verdict->reasons)
            s.reasons << r.toString();
    if (const QString locked = lockReason(project, stage); !locked.isEmpty()) {
        s.kind = StageStatus::Kind::Locked;
        s.reason = locked;
        return s;
    }
    if (!s.verdict)
        return s; // NotStarted
    s.freshness = verdictFreshness(project, *s.verdict);
    const QString& status = s.verdict->status;
    s.reason = s.reasons.value(0);
    if (status == QLatin1String("pass")) {
        s.kind = StageStatus::Kind::Passed;
    } else if (status == QLatin1String("stop")) {
        s.kind = StageStatus::Kind::Stopped;
        const OverrideLink link = overrideOfVerdict(project.overrides(), *s.verdict);
        s.override_ = link.override_;
        if (s.override_) {
            s.kind = StageStatus::Kind::Overridden;
            s.reason = s.override_->justification;
            s.overrideOnOlderBasis = link.givenOnOlderBasis;
            s.overrideOnOlderData = link.givenOnOlderBasis || s.freshness.newData();
        }
    } else if (status == QLatin1String("overridden")) {
        s.kind = StageStatus::Kind::Overridden;
    } else if (status == QLatin1String("stale")) {
        s.kind = StageStatus::Kind::Stale;
    } else {
        s.kind = StageStatus::Kind::NotReady;
    }
    return s;
}

QString stageStatusText(StageStatus::Kind kind) {
    switch (kind) {
    case StageStatus::Kind::NotStarted:
        return Stages::tr("not started");
    case StageStatus::Kind::Passed:
        return Stages::tr("passed");
    case StageStatus::Kind::Stopped:
        return Stages::tr("stopped");
    case StageStatus::Kind::NotReady:
        return Stages::tr("not ready");
    case StageStatus::Kind::Overridden:
        return Stages::tr("overridden");
    case StageStatus::Kind::Stale:
        return Stages::tr("stale");
    case StageStatus::Kind::Locked:
        return Stages::tr("locked");
    }
    return {};
}

} // namespace moewb::stages
