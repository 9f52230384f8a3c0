// Thresholds with their source; the gates' documented defaults; status names.
#include "StageFixtures.h"
#include "stages/Verdict.h"

#include <QtTest>

#include <cmath>

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

    // Every key has one unit, shown and typed the same way (issue: "a threshold is
    // typed and shown in the same unit").
    void unitsShownAndTyped() {
        QCOMPARE(thresholdValueText(QStringLiteral("stage1.cv_max"), 0.05), QStringLiteral("5 %"));
        QCOMPARE(thresholdValueText(QStringLiteral("stage4.baseline_diff_max"), 0.15), QStringLiteral("15 %"));
        QCOMPARE(thresholdValueText(QStringLiteral("stage3.load_ratio_window_fraction"), 0.5), QStringLiteral("50 %"));
        QCOMPARE(thresholdValueText(QStringLiteral("stage1.p99_over_median_max"), 1.5), QStringLiteral("1.5×"));
        QCOMPARE(thresholdValueText(QStringLiteral("stage3.window_steps"), 1000), QStringLiteral("1,000 steps"));
        // Never rounded away.
        QCOMPARE(thresholdValueText(QStringLiteral("stage3.drop_rate_max"), 0.00001), QStringLiteral("0.001 %"));
        QCOMPARE(thresholdValueText(QStringLiteral("stage3.load_ratio_max"), 1.555), QStringLiteral("1.555×"));
        // Every default's text reads back as its value (the window's cell round trip).
        for (const ThresholdUse& t : defaultThresholds()) {
            const QString shown = thresholdValueText(t.key, t.value);
            const auto back = parseThresholdValue(t.key, shown, BareNumber::Shown);
            QVERIFY2(back && std::fabs(*back - t.value) < 1e-12, qPrintable(t.key + QStringLiteral(": ") + shown));
        }
        const QString cv = QStringLiteral("stage1.cv_max");
        QCOMPARE(parseThresholdValue(cv, QStringLiteral("5 %"), BareNumber::Stored).value_or(-1), 0.05);
        QCOMPARE(parseThresholdValue(cv, QStringLiteral("5%"), BareNumber::Shown).value_or(-1), 0.05);
        QCOMPARE(parseThresholdValue(cv, QStringLiteral("0.05"), BareNumber::Stored).value_or(-1), 0.05);
        QCOMPARE(parseThresholdValue(cv, QStringLiteral("5"), BareNumber::Shown).value_or(-1), 0.05);
        QVERIFY(!parseThresholdValue(cv, QStringLiteral("1.5×"), BareNumber::Stored));
        QVERIFY(!parseThresholdValue(cv, QStringLiteral("five"), BareNumber::Stored));
        QVERIFY(!parseThresholdValue(cv, QStringLiteral("inf %"), BareNumber::Stored));
        const QString ratio = QStringLiteral("stage3.load_ratio_max");
        QCOMPARE(parseThresholdValue(ratio, QStringLiteral("1.6x"), BareNumber::Stored).value_or(-1), 1.6);
        QCOMPARE(parseThresholdValue(ratio, QStringLiteral("1.6"), BareNumber::Shown).value_or(-1), 1.6);
        QVERIFY(!parseThresholdValue(ratio, QStringLiteral("160 %"), BareNumber::Shown));
    }

    void wording() {
        QCOMPARE(thresholdText({QStringLiteral("stage1.cv_max"), 0.1, store::ThresholdSource::Team, false}),
                 QStringLiteral("10 % (team threshold)"));
        QCOMPARE(thresholdText({QStringLiteral("stage3.load_ratio_max"), 1.6, store::ThresholdSource::Team, false}),
                 QStringLiteral("1.6× (team threshold)"));
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
