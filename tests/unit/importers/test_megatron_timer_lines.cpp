// Megatron timer blocks (--timing-log-level 2 --timing-log-option all / minmax) in a
// console log: per-rank forward-backward times, each timer's max and min, and the
// measured busiest-device share = busiest rank's forward-backward / step time. The
// fixtures are written to timers.py's printf formats (their headers name the file and
// commit); every expected figure is read off the fixture text.
#include "ImporterTestSupport.h"
#include "importers/MegatronLogImporter.h"

#include <QJsonArray>
#include <QMap>

using namespace moewb::importers;
using importer_test::fixture;

namespace {

QMap<QString, QMap<qint64, double>> byName(const ImportedData& d) {
    QMap<QString, QMap<qint64, double>> m;
    for (const auto& s : d.stepMetrics)
        m[s.name][s.step] = s.value;
    return m;
}

const QByteArray kIteration =
    " [2026-08-02 14:30:00.123456] iteration       10/     100 | elapsed time per iteration (ms): 1000.0 | "
    "lm loss: 9.500000E+00 |\n";

} // namespace

class TestMegatronTimerLines : public QObject {
    Q_OBJECT
private slots:
    void allRanks() {
        auto r = importFile(fixture(QStringLiteral("megatron/megatron-timers-all-ranks.log")));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().text()));
        QCOMPARE(r->format, QStringLiteral("megatron-log"));
        const auto m = byName(*r);
        QCOMPARE(m[QStringLiteral("timer_forward_backward_ms_rank_2")][10], 900.0);
        QCOMPARE(m[QStringLiteral("timer_forward_backward_ms_rank_3")][10], 805.25);
        QCOMPARE(m[QStringLiteral("timer_forward_backward_ms_rank_10")][20], 1000.0);
        QVERIFY(!m.contains(QStringLiteral("timer_forward_backward_ms_rank_3")) ||
                !m[QStringLiteral("timer_forward_backward_ms_rank_3")].contains(20)); // left out at step 20
        QCOMPARE(m[QStringLiteral("timer_forward_backward_ms_max")],
                 (QMap<qint64, double>{{10, 900.0}, {20, 1100.0}}));
        QCOMPARE(m[QStringLiteral("timer_forward_backward_ms_min")],
                 (QMap<qint64, double>{{10, 800.0}, {20, 1000.0}}));
        QCOMPARE(m[QStringLiteral("timer_optimizer_ms_max")],
                 (QMap<qint64, double>{{10, 101.0}, {20, 120.0}}));
        QCOMPARE(m[QStringLiteral("timer_optimizer_ms_min")][10], 99.5);
        // 900 / 1000 and 1100 / 1250.
        QCOMPARE(m[QStringLiteral("busiest_device_share")], (QMap<qint64, double>{{10, 0.9}, {20, 0.88}}));
        QCOMPARE(m[QStringLiteral("lm_loss")][20], 9.25); // the iteration lines still read
        QCOMPARE(r->environment.value(QStringLiteral("timer_blocks")).toInt(), 2);
        QCOMPARE(r->environment.value(QStringLiteral("timer_options")).toArray(),
                 QJsonArray{QStringLiteral("all")});
        // 7 comment lines and "[after training is done] datetime: …", which ends the block.
        QCOMPARE(r->environment.value(QStringLiteral("other_lines_skipped")).toInt(), 8);
    }

    void minMax() {
        auto r = importFile(fixture(QStringLiteral("megatron/megatron-timers-minmax.log")));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().text()));
        const auto m = byName(*r);
        QCOMPARE(m[QStringLiteral("timer_forward_backward_ms_max")][10], 750.0);
        QCOMPARE(m[QStringLiteral("timer_optimizer_ms_min")][10], 90.0);
        QCOMPARE(m[QStringLiteral("busiest_device_share")][10], 0.75);
        QVERIFY(!m.contains(QStringLiteral("timer_forward_backward_ms_rank_0")));
    }

    void blockBeforeAnyIterationIsNotStored() {
        const QByteArray log =
            "times across ranks (ms):\n  forward-backward:\n     rank  0: 5.00\n" + kIteration;
        auto r = MegatronLogImporter::parse(log, QStringLiteral("t.log"));
        QVERIFY(r);
        QVERIFY(!byName(*r).contains(QStringLiteral("busiest_device_share")));
        QCOMPARE(r->environment.value(QStringLiteral("timer_blocks_without_iteration")).toInt(), 1);
    }

    void malformedLinesNameLineAndTimer() {
        // --strict: the first damaged timer line refuses the file, naming its line and timer.
        auto r = MegatronLogImporter::parseStrict(kIteration + "times across ranks (ms):\n     rank  0: 5.00\n",
                                                  QStringLiteral("t.log"));
        QVERIFY(!r);
        QCOMPARE(r.error().line, 3);
        QCOMPARE(r.error().field, QStringLiteral("rank"));
        r = MegatronLogImporter::parseStrict(
            kIteration + "times across ranks (ms):\n  forward-backward:\n     rank  1: 1e400\n",
            QStringLiteral("t.log"));
        QVERIFY(!r);
        QCOMPARE(r.error().line, 4);
        QCOMPARE(r.error().field, QStringLiteral("forward-backward"));
        r = MegatronLogImporter::parseStrict(
            kIteration + "times across ranks (ms):\n  forward-backward:\n     rank  1: -3.00\n",
            QStringLiteral("t.log"));
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("absurd")), qPrintable(r.error().text()));
        // By default the iteration is kept and the damaged timer line listed (DamagedLines.h).
        r = MegatronLogImporter::parse(
            kIteration + "times across ranks (ms):\n  forward-backward:\n     rank  1: 1e400\n",
            QStringLiteral("t.log"));
        QVERIFY(r);
        QCOMPARE(r->rows, 1);
        const QJsonArray damaged = r->environment.value(QStringLiteral("damaged_lines")).toArray();
        QCOMPARE(damaged.size(), 1);
        QCOMPARE(damaged[0].toObject().value(QStringLiteral("line")).toInteger(), 4);
        QCOMPARE(damaged[0].toObject().value(QStringLiteral("field")).toString(), QStringLiteral("forward-backward"));
        QVERIFY(!byName(*r).contains(QStringLiteral("timer_forward_backward_ms_rank_1")));
        // A block with a rank line left out gives no busiest-device share (its busiest rank
        // may be the one missing), while its other ranks are kept.
        r = MegatronLogImporter::parse(kIteration +
                                           "times across ranks (ms):\n  forward-backward:\n     rank  0: 500.00\n"
                                           "     rank  1: three\n",
                                       QStringLiteral("t.log"));
        QVERIFY(r);
        QCOMPARE(byName(*r).value(QStringLiteral("timer_forward_backward_ms_rank_0")).value(10), 500.0);
        QVERIFY(!byName(*r).contains(QStringLiteral("busiest_device_share")));
    }

    // --log-straggler: StragglerDetector.report()'s line (Megatron-LM megatron/core/utils.py;
    // the line of megatron/core/README_STRAGGLER.md) after the iteration line.
    void stragglerLineGivesTheSlowestAndFastestRank() {
        const QByteArray straggler =
            " 0: INFO:megatron.core.utils:[2024-03-14 23:07:56] | MnRtt/Rnk: 3453.08ms/8 | MxRtt/Rnk: 3468.20ms/0 | "
            "MnPwr/Rnk: 601796W/8 | MxPwr/Rnk: 683801W/18 | MnTmp/Rnk: 52C/0 | MxTmp/Rnk: 65C/21 | MnUtl/Rnk: 97%/8 | "
            "MxUtl/Rnk: 100%/6 | MnClk/Rnk: 1950MHz/28 | MxClk/Rnk: 1980MHz/0 | MnDRtt/Rnk: 14.27ms/23 | MxDRtt/Rnk: "
            "34.65ms/3 | MnEtpt/Rnk: 296.02TF/0 | MxEtpt/Rnk: 297.32TF/8\n";
        auto r = MegatronLogImporter::parse(straggler + kIteration + straggler, QStringLiteral("t.log"));
        QVERIFY(r);
        const auto m = byName(*r);
        QCOMPARE(m.value(QStringLiteral("straggler_rtt_ms_min")), (QMap<qint64, double>{{10, 3453.08}}));
        QCOMPARE(m.value(QStringLiteral("straggler_rtt_ms_max")), (QMap<qint64, double>{{10, 3468.20}}));
        QCOMPARE(m.value(QStringLiteral("straggler_rtt_rank_min")), (QMap<qint64, double>{{10, 8}}));
        QCOMPARE(m.value(QStringLiteral("straggler_rtt_rank_max")), (QMap<qint64, double>{{10, 0}}));
        QCOMPARE(r->environment.value(QStringLiteral("straggler_lines")).toInt(), 1);
        QCOMPARE(r->environment.value(QStringLiteral("straggler_lines_without_iteration")).toInt(), 1);
        // A damaged one is listed (file:line, field "straggler"); --strict refuses at it.
        const QByteArray bad = "[2024-03-14 23:07:56] | MnRtt/Rnk: fast/8 | MxRtt/Rnk: 3468.20ms/0\n";
        r = MegatronLogImporter::parse(kIteration + bad, QStringLiteral("t.log"));
        QVERIFY(r);
        QVERIFY(!byName(*r).contains(QStringLiteral("straggler_rtt_ms_max")));
        const QJsonArray damaged = r->environment.value(QStringLiteral("damaged_lines")).toArray();
        QCOMPARE(damaged.size(), 1);
        QCOMPARE(damaged[0].toObject().value(QStringLiteral("line")).toInteger(), 2);
        QCOMPARE(damaged[0].toObject().value(QStringLiteral("field")).toString(), QStringLiteral("straggler"));
        r = MegatronLogImporter::parseStrict(kIteration + bad, QStringLiteral("t.log"));
        QVERIFY(!r);
        QCOMPARE(r.error().line, 2);
    }

    void shareAboveStepTimeIsNotStored() {
        // A forward-backward longer than the logged step time cannot be a share of it.
        auto r = MegatronLogImporter::parse(
            kIteration + "times across ranks (ms):\n  forward-backward:\n     rank  0: 1200.00\n",
            QStringLiteral("t.log"));
        QVERIFY(r);
        QVERIFY(!byName(*r).contains(QStringLiteral("busiest_device_share")));
        QCOMPARE(r->environment.value(QStringLiteral("busiest_device_share_above_step_time")).toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestMegatronTimerLines)
#include "test_megatron_timer_lines.moc"
