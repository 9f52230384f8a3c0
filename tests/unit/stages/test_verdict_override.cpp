// An override holds while its verdict's basis holds (same runs, thresholds, outcome):
// re-evaluating on an equal basis keeps it; on a changed basis it stays, marked as given
// on older data, until it is confirmed or withdrawn — never silently gone. Real project
// files, the one evaluation path and the one state description (StageState.h).
#include "StageFixtures.h"
#include "stages/StageEvaluation.h"
#include "stages/StageState.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;
using namespace moewb::stages;
using namespace moewb::stages::test;

class TestVerdictOverride : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;

    // A project whose stage 1 stops: per-repeat medians 9, 10, 11 µs (CV 0.1) over a
    // team cv_max of 0.05.
    std::unique_ptr<store::ProjectStore> stoppedProject() {
        auto opened = store::ProjectStore::open(m_dir.filePath(QStringLiteral("p%1.moewb").arg(++m_n)));
        if (!opened)
            qFatal("%s", qPrintable(opened.error().text()));
        auto p = std::move(opened.value());
        // A dense record: no MoE training for stage 1 to match (coverage is tested elsewhere).
        if (!p->addConfigRecord(QStringLiteral("dense"), denseRecord().toJson(), true))
            qFatal("cannot add the record");
        if (auto saved = p->saveRun(probeRun(QStringLiteral("probe-a"))); !saved)
            qFatal("%s", qPrintable(saved.error().text()));
        if (auto set = p->setThreshold({QStringLiteral("stage1.cv_max"), 0.05, store::ThresholdSource::Team, {}, {}});
            !set)
            qFatal("%s", qPrintable(set.error().text()));
        return p;
    }

    static store::RunData probeRun(const QString& name) {
        store::RunData run;
        run.name = name;
        run.kind = store::RunKind::Probe;
        run.recordName = QStringLiteral("dense");
        run.environment = QJsonObject{{QStringLiteral("world"), 8}, {QStringLiteral("nodes"), 1}};
        addSize(run.commSamples, 1048576, {repeated(9.0, 5), repeated(10.0, 5), repeated(11.0, 5)});
        return run;
    }

    // `moewb stage 1` / Evaluate: evaluate and save.
    static Verdict::Status evaluateAndSave(store::ProjectStore& p, int stage = 1) {
        auto e = evaluateStage(p, stage);
        if (!e)
            qFatal("%s", qPrintable(e.error().message));
        if (auto saved = saveStageVerdict(p, *e); !saved)
            qFatal("%s", qPrintable(saved.error().text()));
        return e->verdict.status;
    }

    static QString token(const store::ProjectStore& p, int stage = 1) {
        return describeStageState(stageStatus(p, stage), stage).token;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void unchangedBasisKeepsTheOverride() {
        auto p = stoppedProject();
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
        QCOMPARE(token(*p), QStringLiteral("stop"));
        QVERIFY(!lockReason(*p, 2).isEmpty());
        const auto id = overrideStage(*p, 1, QStringLiteral("fabric accepted"), QStringLiteral("lead"));
        QVERIFY(id);
        QCOMPARE(token(*p), QStringLiteral("overridden"));
        QVERIFY(lockReason(*p, 2).isEmpty());
        const QDateTime firstDecided = p->verdict(1)->decided;

        // Evaluate again, twice, nothing changed: a new (equal) verdict carrying the override.
        for (int i = 0; i < 2; ++i) {
            QTest::qWait(3); // a later decision stamp than the override's
            QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
            const StageStatus s = stageStatus(*p, 1);
            QVERIFY(s.verdict->decided > firstDecided);
            QCOMPARE(s.kind, StageStatus::Kind::Overridden);
            QVERIFY(s.override_);
            QCOMPARE(s.override_->id, *id);
            QVERIFY(!s.overrideOnOlderData);
            QVERIFY(!s.overrideOnOlderBasis);
            QCOMPARE(token(*p), QStringLiteral("overridden"));
            QVERIFY2(lockReason(*p, 2).isEmpty(), qPrintable(lockReason(*p, 2)));
        }
        const StageStateText text = describeStageState(stageStatus(*p, 1), 1);
        QCOMPARE(text.title, QStringLiteral("STOP — OVERRIDDEN"));
        QVERIFY2(text.overrideLine.contains(QStringLiteral("“fabric accepted”")), qPrintable(text.overrideLine));
        QVERIFY(!text.reasons.isEmpty());
    }

    void changedThresholdFlagsTheOverride() {
        auto p = stoppedProject();
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
        QVERIFY(overrideStage(*p, 1, QStringLiteral("fabric accepted"), QStringLiteral("lead")));
        // Another threshold, still a stop: the basis changed.
        QVERIFY(p->setThreshold({QStringLiteral("stage1.cv_max"), 0.06, store::ThresholdSource::Team, {}, {}}));
        QTest::qWait(3);
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
        StageStatus s = stageStatus(*p, 1);
        QCOMPARE(s.kind, StageStatus::Kind::Overridden);
        QVERIFY(s.overrideOnOlderBasis);
        QVERIFY(s.overrideOnOlderData);
        QCOMPARE(token(*p), QStringLiteral("overridden_older_data"));
        const StageStateText text = describeStageState(s, 1);
        QCOMPARE(text.title, QStringLiteral("STOP — OVERRIDDEN ON OLDER DATA"));
        QVERIFY2(text.action.contains(QStringLiteral("Confirm the override")), qPrintable(text.action));
        QVERIFY(text.action.contains(QStringLiteral("withdraw")));
        QVERIFY(lockReason(*p, 2).isEmpty()); // kept, never silently gone
        // Evaluating again on this basis keeps it flagged: only a person confirms it.
        QTest::qWait(3);
        evaluateAndSave(*p);
        QCOMPARE(token(*p), QStringLiteral("overridden_older_data"));

        // Confirm: written again for this stop.
        QVERIFY(overrideStage(*p, 1, QStringLiteral("still accepted at 0.06"), QStringLiteral("lead")));
        QCOMPARE(token(*p), QStringLiteral("overridden"));
        QTest::qWait(3);
        evaluateAndSave(*p);
        QCOMPARE(token(*p), QStringLiteral("overridden"));
        QCOMPARE(stageStatus(*p, 1).override_->justification, QStringLiteral("still accepted at 0.06"));

        // Withdraw: the stop is in force again, the overrides stay on record.
        QVERIFY(withdrawOverride(*p, 1));
        QCOMPARE(token(*p), QStringLiteral("stop"));
        QVERIFY(!lockReason(*p, 2).isEmpty());
        QCOMPARE(p->overrides().size(), 2);
        QTest::qWait(3);
        evaluateAndSave(*p);
        QCOMPARE(token(*p), QStringLiteral("stop")); // a withdrawn override does not come back
        QCOMPARE(withdrawOverride(*p, 1).error().kind, OverrideError::Kind::NoStop);
    }

    void newRunFlagsTheOverride() {
        auto p = stoppedProject();
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
        QVERIFY(overrideStage(*p, 1, QStringLiteral("fabric accepted"), QStringLiteral("lead")));
        QVERIFY(p->saveRun(probeRun(QStringLiteral("probe-b"))));
        // New data, not evaluated yet: the override stands on older data (re-evaluate).
        StageStatus s = stageStatus(*p, 1);
        QCOMPARE(s.kind, StageStatus::Kind::Overridden);
        QVERIFY(s.overrideOnOlderData);
        QVERIFY(!s.overrideOnOlderBasis);
        QVERIFY(describeStageState(s, 1).action.contains(QStringLiteral("Evaluate stage 1 again")));
        // Evaluated on the new runs: still overridden, now on a changed basis.
        QTest::qWait(3);
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
        s = stageStatus(*p, 1);
        QCOMPARE(s.kind, StageStatus::Kind::Overridden);
        QVERIFY(s.overrideOnOlderBasis);
        QVERIFY(!s.freshness.newData());
        QVERIFY(lockReason(*p, 2).isEmpty());
    }

    void aPassRetiresTheOverride() {
        auto p = stoppedProject();
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Stop);
        QVERIFY(overrideStage(*p, 1, QStringLiteral("fabric accepted"), QStringLiteral("lead")));
        QVERIFY(p->setThreshold({QStringLiteral("stage1.cv_max"), 0.2, store::ThresholdSource::Team, {}, {}}));
        QTest::qWait(3);
        QCOMPARE(evaluateAndSave(*p), Verdict::Status::Pass);
        QCOMPARE(token(*p), QStringLiteral("pass"));
        QCOMPARE(describeStageState(stageStatus(*p, 1), 1).title, QStringLiteral("PASS"));
        QCOMPARE(p->overrides().size(), 1); // on record for the report
    }

    void reasonsAreCutForShowingOnly() {
        QStringList seven, eight;
        for (int i = 0; i < 8; ++i)
            (i < 7 ? seven : eight) << QString::number(i);
        eight = seven + eight;
        int more = -1;
        QCOMPARE(shownReasons(seven, &more), seven); // one more than the limit: shown whole
        QCOMPARE(more, 0);
        QCOMPARE(shownReasons(eight, &more).size(), kShownReasons);
        QCOMPARE(more, 2);
    }
};

QTEST_GUILESS_MAIN(TestVerdictOverride)
#include "test_verdict_override.moc"
