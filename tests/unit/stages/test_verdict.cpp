// Thresholds with their source; the gates' documented defaults; status names.
#include "StageFixtures.h"
#include "stages/Verdict.h"

#include <QtTest>

using namespace moewb;
using namespace moewb::stages;

class TestVerdict : public QObject {
    Q_OBJECT

private slots:
    void storedValuesWinOverDefaults() {
        ThresholdSet set({{QStringLiteral("stage1.cv_max"), 0.05, store::ThresholdSource::Team, {}, {}}});
        QCOMPARE(set.get(QStringLiteral("stage1.cv_max")).value, 0.05);
        QCOMPARE(set.get(QStringLiteral("stage1.cv_max")).source, store::ThresholdSource::Team);
        QVERIFY(!set.get(QStringLiteral("stage1.cv_max")).builtInDefault);
        const ThresholdUse fallback = set.get(QStringLiteral("stage1.p99_over_median_max"));
        QCOMPARE(fallback.value, 2.0);
        QCOMPARE(fallback.source, store::ThresholdSource::Placeholder);
        QVERIFY(fallback.builtInDefault);
    }

    void defaultsCoverTheStoreAndTheGates() {
        QStringList keys;
        for (const auto& t : defaultThresholds())
            keys << t.key;
        for (const auto& row : store::placeholderThresholds())
            QVERIFY2(keys.contains(row.key), qPrintable(row.key));
        QVERIFY(keys.contains(QStringLiteral("stage2.activated_params_tolerance")));
        QVERIFY(keys.contains(QStringLiteral("stage3.window_steps")));
    }

    void wording() {
        QCOMPARE(thresholdText({QStringLiteral("k"), 0.1, store::ThresholdSource::Team, false}),
                 QStringLiteral("0.10 (team threshold)"));
        QCOMPARE(thresholdSourceText(store::ThresholdSource::Suggested),
                 QStringLiteral("suggested from round 1"));
        QCOMPARE(thresholdSourceText(store::ThresholdSource::Placeholder),
                 QStringLiteral("placeholder — set your own"));
        QCOMPARE(statusToken(Verdict::Status::Pass), QStringLiteral("pass"));
        QCOMPARE(statusToken(Verdict::Status::Stop), QStringLiteral("stop"));
        QCOMPARE(statusToken(Verdict::Status::NotReady), QStringLiteral("not_ready"));
    }
};

QTEST_APPLESS_MAIN(TestVerdict)
#include "test_verdict.moc"
